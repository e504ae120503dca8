"""A third user's trial on two unseen games, on data questions (docs/retrieval.md, session 46):
what it found wrong, each on a small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.workspace import open_workspace

from .conftest import data_asset, meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked


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


def _paired(root: Path, start: dict[str, float], stems: frozenset[str], kind: str | None = None) -> dict[str, float]:
    """Scores after the pairings from a ranking of `start` (the rules alone, not the search)."""
    from indexer.model import Ranked
    from indexer.query.pairing import pair

    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    ranked = {p: Ranked(p, s, []) for p, s in start.items()}
    pair(project, ranked, {}, project.stats_of(ranked), lambda p: 1.0, kind, None, False, stems, False)
    return {p: r.score for p, r in ranked.items()}


def _angler(tmp_path: Path, baits: int, field: str = "lovedBaits", bait_class: str = "Bait") -> Path:
    """A salmon data asset holding `baits` baits (data assets of `bait_class`) in its `field`."""
    fish, bait = "f3000000000000000000000000000001", "f3000000000000000000000000000002"
    files = {
        "Assets/Scripts/Fish.cs": _so("Fish", f"public List<{bait_class}> {field};"),
        "Assets/Scripts/Fish.cs.meta": meta(fish),
        f"Assets/Scripts/{bait_class}.cs": _so(bait_class, "public int buyPrice;"),
        f"Assets/Scripts/{bait_class}.cs.meta": meta(bait),
    }
    held = ""
    for k in range(baits):
        guid = f"f30000000000000000000000000001{k:02d}"
        files[f"Assets/Data/Bait{k}.asset"] = data_asset(bait, f"Bait{k}", "  buyPrice: 5\n")
        files[f"Assets/Data/Bait{k}.asset.meta"] = meta(guid, "NativeFormatImporter")
        held += f"  - {{fileID: 11400000, guid: {guid}, type: 2}}\n"
    files["Assets/Data/Salmon.asset"] = data_asset(fish, "Salmon", f"  {field}:\n{held}")
    return write_project(tmp_path, files)


SALMON = frozenset({"which", "bait", "salmon", "love"})


def test_the_held_instances_are_at_most_three_of_a_class_every_word_of_which_the_task_says(tmp_path: Path) -> None:
    """`pairing._Pairs.instances_held`'s conditions, each: the best hit holds them (raised to
    HELD_SHARE of its score); at most CLASS_HELD_MOST of them (four say nothing of which one is
    meant); in a field whose name says a word of the class (`salmonFavourites` does not); of a class
    every word of which the task says (`BaitItem`: "item" unsaid)."""
    from indexer.query.pairing import CLASS_HELD_MOST, HELD_SHARE

    def bait0(root: Path) -> float:
        start = {"Assets/Data/Salmon.asset": 100.0, "Assets/Data/Bait0.asset": 10.0}
        return _paired(root, start, SALMON)["Assets/Data/Bait0.asset"]

    assert bait0(_angler(tmp_path / "three", CLASS_HELD_MOST)) == 100.0 * HELD_SHARE
    assert bait0(_angler(tmp_path / "four", CLASS_HELD_MOST + 1)) == 10.0
    assert bait0(_angler(tmp_path / "field", 1, field="salmonFavourites")) == 10.0
    assert bait0(_angler(tmp_path / "class", 1, field="lovedBaitItems", bait_class="BaitItem")) == 10.0
    second = {"Assets/Scripts/Fish.cs": 120.0, "Assets/Data/Salmon.asset": 100.0, "Assets/Data/Bait0.asset": 10.0}
    assert _paired(_angler(tmp_path / "second", 1), second, SALMON)["Assets/Data/Bait0.asset"] == 10.0  # not the best


def test_a_script_brings_its_one_scene_only_when_no_prefab_carries_it_and_scenes_may_be_shown(tmp_path: Path) -> None:
    """The scene rule's conditions (`pairing._Pairs.prefabs_of_scripts`): the one scene carrying a
    script no prefab carries ranks at SCENE_SHARE of the script's score, within a search of any kind
    or of scenes, never of prefabs; a script two scenes carry brings neither; one a prefab carries
    brings the prefab, at the prefab's share, not the scene."""
    from indexer.query.pairing import PAIRED_SHARE, SCENE_SHARE

    brain = {"Assets/Scripts/AttackerBrain.cs": 100.0}
    stems = frozenset({"often", "fox", "spawn", "hard", "difficulti"})
    root = _defence(tmp_path / "one")
    assert _paired(root, brain, stems)["Assets/Scenes/Game.unity"] == 100.0 * SCENE_SHARE
    assert _paired(root, brain, stems, "scene")["Assets/Scenes/Game.unity"] == 100.0 * SCENE_SHARE
    assert "Assets/Scenes/Game.unity" not in _paired(root, brain, stems, "prefab")

    root = _defence(tmp_path / "two")
    (root / "Assets/Scenes/Menu.unity").write_text((root / "Assets/Scenes/Game.unity").read_text())
    assert "Assets/Scenes/Game.unity" not in _paired(root, brain, stems)

    root = _defence(tmp_path / "prefab")
    text = script_prefab("Brain", "f2000000000000000000000000000001")
    (root / "Assets/Prefabs/Brain.prefab").write_text(text)
    scores = _paired(root, brain, stems)
    assert scores["Assets/Prefabs/Brain.prefab"] == 100.0 * PAIRED_SHARE
    assert "Assets/Scenes/Game.unity" not in scores
