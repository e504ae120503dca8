"""A third user's trial on two unseen games, on data questions (docs/retrieval.md, session 46):
what it found wrong, each on a small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.workspace import open_workspace

from .conftest import data_asset, meta, write_project


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
