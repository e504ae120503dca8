"""The data assets a top file holds in its fields, for a task asking a value
(`pairing._Pairs.data_of_holders`, docs/retrieval.md: "The data a file holds")."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.model import Ranked
from indexer.query.pairing import HELD_MOST, HELD_SHARE, pair
from indexer.query.workspace import open_workspace

from .conftest import data_asset, meta, write_project

SPAWN_INFO = "6a7b8c9d0e1f20314a5b6c7d8e9f0a1b"
WEAPON_INFO = "7b8c9d0e1f20314a5b6c7d8e9f0a1b2c"
GAME_EVENT = "8c9d0e1f20314a5b6c7d8e9f0a1b2c3d"
PACKAGE_SETTINGS = "9d0e1f20314a5b6c7d8e9f0a1b2c3d4e"  # a package's class: no script of the project
HELD = {
    "SniperEnemyWeapon": ("a1" * 16, WEAPON_INFO),  # says "sniper" and "enemy": the most words
    "EnemyBullet": ("b2" * 16, WEAPON_INFO),  # says "enemy" alone
    "Spawned": ("c3" * 16, GAME_EVENT),  # says none
    "SniperEnemySettings": ("d4" * 16, PACKAGE_SETTINGS),  # says both, but no project script's
}


def _spawner(tmp_path: Path, extra: int = 0) -> Path:
    """A spawn table's entry for the sniper enemy (`SniperEnemy.asset`, as SlowmoPlatformer's)
    holding its weapon, its bullet, an event and a package's settings in its fields; `extra` more
    weapons held in a list."""
    classes = {
        "EnemySpawnInfo": (SPAWN_INFO, "public EnemyWeaponInfo weapon; public EnemyWeaponInfo bullet;"),
        "EnemyWeaponInfo": (WEAPON_INFO, "public float fireRate = 1f; public int damage = 2;"),
        "GameEvent": (GAME_EVENT, "public void Raise() { }"),
    }
    files: dict[str, str] = {}
    for name, (guid, body) in classes.items():
        files[f"Assets/Scripts/{name}.cs"] = (
            f"using UnityEngine;\npublic class {name} : ScriptableObject\n{{\n{body}\n}}\n"
        )
        files[f"Assets/Scripts/{name}.cs.meta"] = meta(guid)
    for name, (guid, script) in HELD.items():
        files[f"Assets/Data/{name}.asset"] = data_asset(script, name, "  fireRate: 0.5\n")
        files[f"Assets/Data/{name}.asset.meta"] = meta(guid, "NativeFormatImporter")
    refs = "".join(
        f"  {name[0].lower()}{name[1:]}: {{fileID: 11400000, guid: {g}, type: 2}}\n" for name, (g, _) in HELD.items()
    )
    for k in range(extra):
        guid = f"{k:032x}"
        files[f"Assets/Data/Extra{k}.asset"] = data_asset(WEAPON_INFO, f"Extra{k}", "  damage: 1\n")
        files[f"Assets/Data/Extra{k}.asset.meta"] = meta(guid, "NativeFormatImporter")
        refs += ("  extras:\n" if k == 0 else "") + f"  - {{fileID: 11400000, guid: {guid}, type: 2}}\n"
    files["Assets/Data/SniperEnemy.asset"] = data_asset(SPAWN_INFO, "SniperEnemy", refs)
    return write_project(tmp_path, files)


def _paired(root: Path, values: bool = True) -> tuple[dict[str, float], dict]:
    """Scores after the pairings for "which data decides what rifles the sniper enemy carries",
    from a ranking with `SniperEnemy.asset` first."""
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    start = {"Assets/Data/SniperEnemy.asset": 100.0, "Assets/Scripts/EnemySpawnInfo.cs": 90.0}
    start |= {f"Assets/Data/{name}.asset": 10.0 for name in HELD}
    ranked = {p: Ranked(p, s, []) for p, s in start.items()}
    boosts: dict = {}
    stems = frozenset({"data", "decid", "rifl", "sniper", "enemi", "carri"})
    pair(project, ranked, boosts, project.stats_of(ranked), lambda p: 1.0, None, None, True, stems, values)
    return {p.rpartition("/")[2]: r.score for p, r in ranked.items()}, boosts


def test_the_data_a_top_file_holds_named_by_the_most_words_ranks_after_it(tmp_path: Path) -> None:
    """ "which data decides how often the sniper enemy spawns and what rifles it can carry" ranked
    `SniperEnemy.asset` first and the `SniperWeapon.asset` it holds outside the top 20: of the data
    assets a top file holds, the ones of a project script whose name says the most of the task's
    words or the holder's name rank at least HELD_SHARE of the holder's score, saying why."""
    scores, boosts = _paired(_spawner(tmp_path))
    assert scores["SniperEnemyWeapon.asset"] == 100.0 * HELD_SHARE
    assert boosts["Assets/Data/SniperEnemyWeapon.asset"][1:] == ("asset", "Assets/Data/SniperEnemy.asset", ())
    assert scores["EnemyBullet.asset"] == 10.0  # fewer words than the best-named one
    assert scores["Spawned.asset"] == 10.0  # none
    assert scores["SniperEnemySettings.asset"] == 10.0  # a package's settings, not the project's data


def test_for_a_task_asking_no_value_the_held_data_stays_where_it_was(tmp_path: Path) -> None:
    scores, _ = _paired(_spawner(tmp_path), values=False)
    assert scores["SniperEnemyWeapon.asset"] == 10.0


@pytest.mark.parametrize(("extra", "raised"), [(HELD_MOST - len(HELD), True), (HELD_MOST - len(HELD) + 1, False)])
def test_a_file_holding_many_data_assets_has_none_raised(tmp_path: Path, extra: int, raised: bool) -> None:
    """A file holding more than HELD_MOST data assets (a registry, a level's every item) says
    nothing of which one a task is about."""
    scores, _ = _paired(_spawner(tmp_path, extra))
    assert scores["SniperEnemyWeapon.asset"] == (100.0 * HELD_SHARE if raised else 10.0)


def _playlist(tmp_path: Path, names: list[str]) -> Path:
    """A music playlist `PlayList_Sample.asset` holding tracks of `names` in a list."""
    playlist = "e5" * 16
    files = {
        "Assets/Scripts/PlayList.cs": "using UnityEngine;\npublic class PlayList : ScriptableObject\n"
        "{\n    public MusicTrack[] tracks;\n    public bool shuffle;\n}\n",
        "Assets/Scripts/PlayList.cs.meta": meta(playlist),
        "Assets/Scripts/MusicTrack.cs": "using UnityEngine;\npublic class MusicTrack : ScriptableObject\n"
        "{\n    public AudioClip clip;\n    public float volume = 1f;\n}\n",
        "Assets/Scripts/MusicTrack.cs.meta": meta(WEAPON_INFO),
    }
    tracks = ""
    for k, name in enumerate(names, 1):
        files[f"Assets/Audio/{name}.asset"] = data_asset(WEAPON_INFO, name, "  volume: 1\n")
        files[f"Assets/Audio/{name}.asset.meta"] = meta(f"{k:032x}", "NativeFormatImporter")
        tracks += f"  - {{fileID: 11400000, guid: {k:032x}, type: 2}}\n"
    files["Assets/Audio/PlayList_Sample.asset"] = data_asset(playlist, "PlayList_Sample", f"  tracks:\n{tracks}")
    return write_project(tmp_path, files)


def _first_track(root: Path) -> float:
    """`Sample 1.asset`'s score after the pairings, for "which asset decides which patterns are
    in the list, how many boards a match lasts and whether they are shuffled"."""
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    start = {"Assets/Audio/PlayList_Sample.asset": 100.0, "Assets/Audio/Sample 1.asset": 10.0}
    ranked = {p: Ranked(p, s, []) for p, s in start.items()}
    stems = frozenset({"asset", "decid", "pattern", "list", "board", "match", "last", "shuffl"})
    pair(project, ranked, {}, project.stats_of(ranked), lambda p: 1.0, None, None, True, stems, True)
    return ranked["Assets/Audio/Sample 1.asset"].score


def test_several_held_assets_saying_only_the_holders_name_are_not_raised(tmp_path: Path) -> None:
    """`PlayList_Sample.asset`, first for a question about a match's board patterns, holds
    `Sample 1`, `Sample 2` and `Sample 3`, which say its name's word and none of the task's:
    nothing tells which of them is meant, and none is raised (they took places 4-6, over the
    prefab asked about). One held asset saying the holder's name alone is still raised."""
    assert _first_track(_playlist(tmp_path / "three", ["Sample 1", "Sample 2", "Sample 3"])) == 10.0
    assert _first_track(_playlist(tmp_path / "one", ["Sample 1", "Track 2", "Track 3"])) == 100.0 * HELD_SHARE
