"""A third user's trial on two unseen games, on data questions (docs/retrieval.md, session 46):
what it found wrong, each on a small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.workspace import open_workspace

from .conftest import data_asset, meta, mono_script, script_prefab, write_project


def _ranked(root: Path, text: str) -> list[str]:
    update(root, Config(workers=1))
    return [h.path for h in open_workspace(root, [(root, Config())]).search(text, 10, named=False)]


def _so(name: str, body: str) -> str:
    return f"using UnityEngine;\npublic class {name} : ScriptableObject\n{{\n{body}\n}}\n"


def _fishing(tmp_path: Path) -> Path:
    """A fishing game: fish and baits as data assets, the salmon loving the cricket bait in its
    `lovedBaits`, a worm bait beside it, and scripts saying "bait" (the bait the player holds)."""
    fish, bait = "f1000000000000000000000000000001", "f1000000000000000000000000000002"
    cricket, worm = "f1000000000000000000000000000003", "f1000000000000000000000000000004"
    return write_project(
        tmp_path,
        {
            "Assets/Scripts/Fish.cs": _so("Fish", "public float dropChance; public List<Bait> lovedBaits;"),
            "Assets/Scripts/Fish.cs.meta": meta(fish),
            "Assets/Scripts/Bait.cs": _so("Bait", "public float baitChance; public int buyPrice;"),
            "Assets/Scripts/Bait.cs.meta": meta(bait),
            "Assets/Scripts/BaitValue.cs": _so("BaitValue", "public Bait Item; // the bait the player holds"),
            "Assets/Scripts/BaitValue.cs.meta": meta("f1000000000000000000000000000005"),
            "Assets/Data/Salmon.asset": data_asset(
                fish, "Salmon", f"  dropChance: 15\n  lovedBaits:\n  - {{fileID: 11400000, guid: {cricket}, type: 2}}\n"
            ),
            "Assets/Data/Salmon.asset.meta": meta("f1000000000000000000000000000006", "NativeFormatImporter"),
            "Assets/Data/Cricket.asset": data_asset(bait, "Cricket", "  baitChance: 10\n  buyPrice: 20\n"),
            "Assets/Data/Cricket.asset.meta": meta(cricket, "NativeFormatImporter"),
            "Assets/Data/Worm.asset": data_asset(bait, "Worm", "  baitChance: 8\n  buyPrice: 0\n"),
            "Assets/Data/Worm.asset.meta": meta(worm, "NativeFormatImporter"),
        },
    )


def test_the_best_hit_holds_the_instances_of_the_class_asked_for(tmp_path: Path) -> None:
    """ "Which bait does the salmon love?" ranked `Salmon.asset` first and `Cricket.asset` (a
    `Bait`, in the salmon's `lovedBaits`) 12th, under the scripts saying "bait": the best hit holds,
    in a field named for their class, the data assets of a class the task names, and those are the
    answer (`pairing._Pairs.instances_held`): 5th -> 2nd. Not the worm, a bait the salmon does not
    hold."""
    root = _fishing(tmp_path)
    assert _ranked(root, "Which bait does the salmon love?") == [
        "Assets/Data/Salmon.asset",
        "Assets/Data/Cricket.asset",
        "Assets/Scripts/Fish.cs",
        "Assets/Scripts/Bait.cs",
        "Assets/Scripts/BaitValue.cs",
        "Assets/Data/Worm.asset",
    ]


def _defence(tmp_path: Path) -> Path:
    """A defence game: an attacker brain on one object of the level scene, whose spawn intervals
    per difficulty the scene sets, a fox prefab and its script, a difficulty enum, and thirty trees in
    the scene."""
    brain, fox = "f2000000000000000000000000000001", "f2000000000000000000000000000002"
    scaling = "".join(
        f"  - SecondsBetweenFoxSpawns: {s}\n    MultiplierPerSpawn: {m}\n" for s, m in ((35, 1.1), (30, 1.5), (20, 2))
    )
    props = "".join(f"--- !u!1 &{200 + i}\nGameObject:\n  m_Name: Tree {i}\n  m_IsActive: 1\n" for i in range(30))
    return write_project(
        tmp_path,
        {
            "Assets/Scripts/AttackerBrain.cs": mono_script(
                "AttackerBrain",
                "public Difficulty Difficulty; public Scaling[] DifficultyScaling; public GameObject FoxPrefab;\n"
                "IEnumerator SpawnFoxes() { while (enabled) { Instantiate(FoxPrefab); yield return new\n"
                "WaitForSeconds(DifficultyScaling[(int)Difficulty].SecondsBetweenFoxSpawns); } }",
            ),
            "Assets/Scripts/AttackerBrain.cs.meta": meta(brain),
            "Assets/Scripts/Fox.cs": mono_script("Fox", "public float Speed; // a fox hunts chickens once spawned"),
            "Assets/Scripts/Fox.cs.meta": meta(fox),
            "Assets/Scripts/Difficulty.cs": "public enum Difficulty { Easy, Normal, Hard }\n",
            "Assets/Prefabs/Fox.prefab": script_prefab("Fox", fox, "  Speed: 2\n"),
            "Assets/Prefabs/Fox.prefab.meta": meta("f2000000000000000000000000000004", "PrefabImporter"),
            "Assets/Scenes/Game.unity": script_prefab(
                "Attacker Brain", brain, f"  Difficulty: 1\n  DifficultyScaling:\n{scaling}"
            )
            + props,
            "Assets/Scenes/Game.unity.meta": meta("f2000000000000000000000000000005", "DefaultImporter"),
        },
    )


def test_a_script_that_one_scene_alone_carries_brings_the_scene(tmp_path: Path) -> None:
    """ "How often do foxes spawn on hard difficulty?" ranked `AttackerBrain.cs` first and
    `Game.unity`, whose attacker brain sets the spawn intervals per difficulty, 13th: a script
    among the three best that no prefab and one scene alone carries is that scene's, which holds
    its values, and the scene ranks at least `pairing.SCENE_SHARE` of its score: here 5th -> 4th,
    above the fox's prefab (in the game, 13th -> 4th)."""
    root = _defence(tmp_path)
    assert _ranked(root, "How often do foxes spawn on hard difficulty?") == [
        "Assets/Scripts/Difficulty.cs",
        "Assets/Scripts/AttackerBrain.cs",
        "Assets/Scripts/Fox.cs",
        "Assets/Scenes/Game.unity",
        "Assets/Prefabs/Fox.prefab",
    ]
