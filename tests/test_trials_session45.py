"""A new user's trial on two unseen games (docs/retrieval.md, session 45): what it found wrong,
each on a small project of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.model import Ranked
from indexer.query.pairing import DEFINITION_MOST, DEFINITION_SHARE, pair
from indexer.query.workspace import open_workspace

from .conftest import data_asset, meta, mono_script, script_prefab, write_project

PATH_OBJECT = "1a2b3c4d5e6f70819a2b3c4d5e6f7081"
DEFINITION = "2b3c4d5e6f708192a3b4c5d6e7f80912"
RED_SHIP = "3c4d5e6f708192a3b4c5d6e7f8091a2b"
WHITE_SHIP = "4d5e6f708192a3b4c5d6e7f8091a2b3c"


def _ship(name: str) -> str:
    """A ship's prefab: a model under one object carrying the path walker's script, no value set."""
    return script_prefab(name, PATH_OBJECT)


def _definition(name: str, ship: str, energy: int, speed: float) -> str:
    fields = f"  prefab: {{fileID: 100, guid: {ship}, type: 3}}\n  energy: {energy}\n  speed: {speed}\n"
    return data_asset(DEFINITION, name, fields)


def _shooter(tmp_path: Path) -> Path:
    """A shooter whose enemies are defined by data assets naming their ship's prefab, as Danmaku's
    `Red_StrongSlow.asset` names `AlienShipRed.prefab` and holds its `energy`."""
    return write_project(
        tmp_path,
        {
            "Assets/Scripts/PathObject.cs": mono_script(
                "PathObject",
                "public int energy = 1;\n"
                "void OnCollisionEnter2D(Collision2D c) { energy--; if (energy == 0) Die(); }\n"
                "void Die() { GameManager.Instance.OnEnemyDown(); Destroy(gameObject); }",
            ),
            "Assets/Scripts/PathObject.cs.meta": meta(PATH_OBJECT),
            "Assets/Scripts/PathObjectDefinition.cs": "using UnityEngine;\n"
            "public class PathObjectDefinition : ScriptableObject\n"
            "{\n    public GameObject prefab;\n    public int energy = 2;\n    public float speed = .5f;\n}\n",
            "Assets/Scripts/PathObjectDefinition.cs.meta": meta(DEFINITION),
            "Assets/Scripts/PlayerController.cs": mono_script(
                "PlayerController",
                "public int energy; private int hitsTaken;\n"
                'void OnCollisionEnter2D(Collision2D c) { if (c.gameObject.CompareTag("EnemyBullet")) {\n'
                "Destroy(c.gameObject); hitsTaken++; energy--; GameManager.Instance.OnPlayerHit(energy); } }",
            ),
            "Assets/Scripts/EffectsManager.cs": mono_script(
                "EffectsManager",
                "public GameObject explosionPrefab;\n"
                "public void PlayExplosion(Vector3 at) { } // when an enemy ship is destroyed\n"
                "void OnDestroy() { }",
            ),
            "Assets/Scripts/GameManager.cs": mono_script(
                "GameManager",
                "public static GameManager Instance; private int hits;\n"
                "public void OnEnemyDown() { hits++; UIManager.Instance.OnEnemyDown(hits); }\n"
                "public void OnPlayerHit(float energy) { UIManager.Instance.OnPlayerHit(energy); }",
            ),
            "Assets/Scripts/UIManager.cs": mono_script(
                "UIManager",
                "public static UIManager Instance; public Transform healthBar;\n"
                "public void OnPlayerHit(float fraction) { healthBar.localScale = Vector3.one * fraction; }\n"
                "public void OnEnemyDown(int hits) { }",
            ),
            "Assets/Enemies/AlienShipRed.prefab": _ship("AlienShipRed"),
            "Assets/Enemies/AlienShipRed.prefab.meta": meta(RED_SHIP, "PrefabImporter"),
            "Assets/Enemies/AlienShipWhite.prefab": _ship("AlienShipWhite"),
            "Assets/Enemies/AlienShipWhite.prefab.meta": meta(WHITE_SHIP, "PrefabImporter"),
            "Assets/Data/Red_StrongSlow.asset": _definition("Red_StrongSlow", RED_SHIP, 8, 0.2),
            "Assets/Data/White_Regular.asset": _definition("White_Regular", WHITE_SHIP, 2, 0.4),
        },
    )


def _paired(root: Path, values: bool = True) -> dict[str, float]:
    """The scores after the pairings, from the trial's: the red ship's prefab 97, `GameManager.cs`
    (its `hits`) 101, `Red_StrongSlow.asset` 50 (its words and the walk from the prefab)."""
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    trial = {
        "Assets/Scripts/GameManager.cs": 101.0,
        "Assets/Enemies/AlienShipRed.prefab": 97.0,
        "Assets/Scripts/UIManager.cs": 87.0,
        "Assets/Data/Red_StrongSlow.asset": 50.0,
        "Assets/Data/White_Regular.asset": 20.0,
    }
    ranked = {p: Ranked(p, s, []) for p, s in trial.items()}
    stems = frozenset({"hit", "red", "enemi", "ship", "take", "destroy"})
    pair(project, ranked, {}, project.stats_of(ranked), lambda p: 1.0, None, None, False, stems, values)
    return {p: r.score for p, r in ranked.items()}


def test_the_data_asset_defining_a_ship_ranks_with_its_prefab_for_a_value(tmp_path: Path) -> None:
    """ "how many hits does the red enemy ship take to destroy" ranked the red ship's prefab 2nd
    and `Red_StrongSlow.asset` (`prefab: AlienShipRed`, `energy: 8`) 6th, under scripts saying
    "hits": a data asset naming, in a field of its own, a prefab among the best defines it, and
    for a task asking a value it ranks at least DEFINITION_SHARE of the prefab's score
    (`pairing._Pairs.definitions_of_prefabs`); the white ship's, whose prefab ranks nowhere, and
    any of them for a task asking no value, stay where they were."""
    scores = _paired(_shooter(tmp_path))
    assert scores["Assets/Data/Red_StrongSlow.asset"] == 97.0 * DEFINITION_SHARE
    assert scores["Assets/Data/White_Regular.asset"] == 20.0
    assert _paired(_shooter(tmp_path), values=False)["Assets/Data/Red_StrongSlow.asset"] == 50.0


def test_a_spawn_table_listing_the_prefab_defines_nothing(tmp_path: Path) -> None:
    """A data asset holding the prefab as an item of a list is a collection (a spawn table, a
    registry of network prefabs), not the prefab's definition: it is not raised beside it."""
    root = _shooter(tmp_path)
    table = f"  collection:\n  - gameObject: {{fileID: 100, guid: {RED_SHIP}, type: 3}}\n    chance: 1\n"
    (root / "Assets/Data/Red_StrongSlow.asset").write_text(data_asset(DEFINITION, "Red_StrongSlow", table))
    assert _paired(root)["Assets/Data/Red_StrongSlow.asset"] == 50.0


def test_an_asset_of_no_project_script_naming_the_prefab_defines_nothing(tmp_path: Path) -> None:
    """A data asset whose script is none of the project's (a package's settings, as an Addressables
    group naming the prefab among its entries) is not the prefab's definition, though it names the
    prefab in a field of its own."""
    root = _shooter(tmp_path)
    fields = f"  prefab: {{fileID: 100, guid: {RED_SHIP}, type: 3}}\n  energy: 8\n"
    (root / "Assets/Data/Red_StrongSlow.asset").write_text(data_asset("e" * 32, "Red_StrongSlow", fields))
    assert _paired(root)["Assets/Data/Red_StrongSlow.asset"] == 50.0


@pytest.mark.parametrize(("others", "raised"), [(DEFINITION_MOST - 1, True), (DEFINITION_MOST, False)])
def test_a_prefab_many_assets_define_has_no_definition_raised(tmp_path: Path, others: int, raised: bool) -> None:
    """A prefab held by more than DEFINITION_MOST definitions is a shared piece of many things (a
    bullet every weapon fires), not one thing's: none of them is raised; up to DEFINITION_MOST, the
    one its name says ("red") is."""
    root = _shooter(tmp_path)
    for k in range(others):
        text = _definition(f"Wave{k}", RED_SHIP, 1, 0.1)
        (root / f"Assets/Data/Wave{k}.asset").write_text(text)
    score = _paired(root)["Assets/Data/Red_StrongSlow.asset"]
    assert score == (97.0 * DEFINITION_SHARE if raised else 50.0)


CARD_DATA = "5e6f708192a3b4c5d6e7f8091a2b3c4d"


def _cards(tmp_path: Path) -> Path:
    """A card game whose cards are data assets of one class, as Unity Royale's `Archers.asset`,
    `Mage.asset` and `Warrior.asset` of `CardData`."""
    card = "  cardImage: {fileID: 0}\n  placeablesData: []\n  relativeOffsets: []\n"
    return write_project(
        tmp_path,
        {
            "Assets/Scripts/CardData.cs": "using UnityEngine;\npublic class CardData : ScriptableObject\n"
            "{\n    public Sprite cardImage;\n    public Vector3[] relativeOffsets;\n}\n",
            "Assets/Scripts/CardData.cs.meta": meta(CARD_DATA),
            **{
                f"Assets/Cards/{name}.asset": data_asset(CARD_DATA, name, card)
                for name in ("Archers", "Mage", "Warrior")
            },
        },
    )


def _instance_score(root: Path, stems: frozenset[str]) -> float:
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    ranked = {
        p: Ranked(p, s, []) for p, s in {"Assets/Scripts/CardData.cs": 60.0, "Assets/Cards/Archers.asset": 20.0}.items()
    }
    pair(project, ranked, {}, project.stats_of(ranked), lambda p: 1.0, None, None, False, stems)
    return ranked["Assets/Cards/Archers.asset"].score


def test_an_instance_named_with_its_class_s_word_ranks_with_the_class(tmp_path: Path) -> None:
    """ "the archers card should spawn 4 archers instead of 3" ranked `Archers.asset` 9th, at 0.9
    of its class `CardData.cs` (5th): the task names it as a card, a word of its class's name, so
    it is that instance of the class, and ranks level with it (5th); named by "archers" alone it
    keeps 0.9 of it, as a word may name an instance of another class."""
    assert _instance_score(_cards(tmp_path), frozenset({"archer", "card", "spawn", "instead"})) == 60.0
    assert _instance_score(_cards(tmp_path / "alone"), frozenset({"archer", "spawn", "instead"})) == 60.0 * 0.9
