"""A data asset named, among its class's instances, by a word of the task ranks with the class's
script (`pairing._Pairs.instances_named`, docs/retrieval.md, session 44)."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.query.workspace import open_workspace

from .conftest import data_asset, meta, mono_script, write_project

TIMINGS = "7c2d9e4f1a3b5c6d8e0f1a2b3c4d5e6f"


def _timing(name: str, micro: int, wave: int) -> str:
    events = f"  EventsList:\n  - Type: 0\n    TimeStart: {micro}\n  - Type: 1\n    TimeStart: {wave}\n"
    return data_asset(TIMINGS, name, events)


def _project(tmp_path: Path) -> Path:
    return write_project(
        tmp_path,
        {
            "Assets/Scripts/EnemyAI.cs": mono_script(
                "EnemyAI",
                "public float attackRange; float timeBetweenAttacks;\n"
                "public void TryAttack() { if (timeBetweenAttacks <= 0) StartAttack(); }\n"
                "void StartAttack() { } public void OnWaveStart() { TryAttack(); }",
            ),
            "Assets/Scripts/EnemySpawner.cs": mono_script(
                "EnemySpawner",
                "public int enemiesPerWave; public float timeBetweenWaves;\n"
                "public void StartWave(int wave) { } public void StartSmallAttack() { }\n"
                "public void StartBigWave() { StartWave(enemiesPerWave * 2); }",
            ),
            "Assets/Scripts/Turret.cs": mono_script(
                "Turret", "public float timeBetweenAttacks; public void Attack(EnemyAI enemy) { }"
            ),
            "Assets/Scripts/SessionTimings.cs": "using UnityEngine;\nusing System.Collections.Generic;\n"
            "public enum SessionEventType { SmallAttack, BigWave }\n"
            "[System.Serializable]\n"
            "public class SessionEvent { public SessionEventType Type; public float TimeStart; }\n"
            "public class SessionTimings : ScriptableObject\n{\n    public List<SessionEvent> EventsList;\n}\n",
            "Assets/Scripts/SessionTimings.cs.meta": meta(TIMINGS),
            "Assets/Missions/Desert Session Timing.asset": _timing("Desert Session Timing", 30, 120),
            "Assets/Missions/Ice Session Timing.asset": _timing("Ice Session Timing", 45, 150),
            "Assets/Missions/Forest Session Timing.asset": _timing("Forest Session Timing", 20, 90),
        },
    )


@pytest.mark.parametrize(("mission", "asked", "other"), [("a desert", "Desert", "Ice"), ("an ice", "Ice", "Desert")])
def test_the_mission_s_timings_rank_with_their_class(tmp_path: Path, mission: str, asked: str, other: str) -> None:
    """ "At what times during a desert mission do the attacks and waves start?" ranked the attack
    and wave scripts first and the desert's timing asset 6th, under its class (here an attack
    script came between them): of the class's instances only it is named by a word of the question
    ("desert"), so it is the one asked about; of the ice mission, the ice's."""
    root = _project(tmp_path)
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    question = f"At what times during {mission} mission do the small attacks and the big enemy waves start?"
    paths = [h.path for h in ws.search(question, 10)]
    named = paths.index(f"Assets/Missions/{asked} Session Timing.asset")
    assert named == paths.index("Assets/Scripts/SessionTimings.cs") + 1, paths
    assert named < paths.index(f"Assets/Missions/{other} Session Timing.asset"), paths


def test_a_related_file_named_by_the_task_comes_first_among_those_the_query_did_not_rank() -> None:
    """A pack lists the neighbours of its best files a line each and outlines the first few: of
    those the query did not rank, one whose name holds the task's words leads (a preloading
    sample's player prefab); the others keep the order of the reference that ties them."""
    from indexer.query.related import order_related

    found = {
        "Assets/Prefabs/Other.prefab": (7, "prefab on X"),
        "Assets/Scripts/Base.cs": (0, "base class of X"),
        "Assets/Data/Desert Timing.asset": (12, "asset of X"),
        "Assets/Scripts/Ranked.cs": (1, "subclass of X"),
    }
    ordered = order_related(found, {"Assets/Scripts/Ranked.cs": 0}, frozenset({"desert", "time"}))
    assert [p for p, _ in ordered] == [
        "Assets/Scripts/Ranked.cs",
        "Assets/Data/Desert Timing.asset",
        "Assets/Scripts/Base.cs",
        "Assets/Prefabs/Other.prefab",
    ]


def test_a_file_s_title_is_its_name_without_folder_and_last_extension() -> None:
    from indexer.project import file_title

    assert file_title("Assets/Missions/Desert Session Timing.asset") == "Desert Session Timing"
    assert file_title("Assets/Art/hero.psd.meta") == "hero.psd"
    assert file_title("Assets/Data/Makefile") == "Makefile"
