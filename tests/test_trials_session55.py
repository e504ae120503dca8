"""The twenty-ninth trial's rules (docs/retrieval.md, "Session 55, a twenty-ninth trial")."""

from __future__ import annotations

from pathlib import Path

from indexer.scanners import packages

from .conftest import meta, mono_script, write_project
from .conftest import ranked_paths as _ranked

# An Odin Serializer level file: objects holding bare numbers, which `json` refuses.
ODIN_LEVEL = """{
    "$id": 0,
    "$type": "0|LevelData, Assembly-CSharp",
    "BoardPosition": {
        "$type": "1|UnityEngine.Vector3, UnityEngine.CoreModule",
        0,
        0,
        0
    },
    "SpawnableFillerItemIds": [ 1, 2, 3 ],
    "MoveCount": 20
}
"""


def test_a_json_file_that_does_not_parse_is_partial_and_searched(tmp_path: Path) -> None:
    rec = packages.scan("Assets/Data/Levels/7.json", ODIN_LEVEL.encode())
    assert (rec.kind, rec.status) == ("json", "partial")
    assert rec.note == "invalid JSON: Expecting property name enclosed in double quotes at line 6 column 9"
    assert packages.scan("Assets/Data/empty.json", b" \n").status == "skipped"  # nothing to search
    assert packages.scan("Assets/Data/x.json", b'{"a": "\xff"}').status == "skipped"  # not text
    files: dict[str, str] = {"Assets/Data/Levels/7.json": ODIN_LEVEL, "Assets/Data/Levels/7.json.meta": meta("a1" * 16)}
    for i in range(3):
        name = f"BoardPiece{i}"
        files[f"Assets/Scripts/{name}.cs"] = mono_script(name, f"    public int size{i} = {i};")
        files[f"Assets/Scripts/{name}.cs.meta"] = meta(f"{i:02x}" + "b2" * 15)
    root = write_project(tmp_path / "p", files)
    assert _ranked(root, "spawnable filler items", 3)[0] == "Assets/Data/Levels/7.json"


def _levels(tmp_path: Path, folder: str) -> Path:
    """Nine level files `1.json`..`9.json` under `folder`, each a move count, and twelve scripts
    saying the task's words, which bury a file found by its name's number alone."""
    files: dict[str, str] = {}
    for i in range(1, 10):
        files[f"Assets/Data/{folder}/{i}.json"] = f'{{"MoveCount": {20 + i}, "Goals": [3]}}\n'
        files[f"Assets/Data/{folder}/{i}.json.meta"] = meta(f"{i:02x}" + "d4" * 15)
    for i in range(12):  # scripts saying "level" and "moves" over and over
        body = f"    // the level's moves ({i}): how many moves a level gives\n    public int levelMoves{i} = {i};"
        files[f"Assets/Scripts/LevelMoves{i}.cs"] = mono_script(f"LevelMoves{i}", body)
        files[f"Assets/Scripts/LevelMoves{i}.cs.meta"] = meta(f"{i:02x}" + "e5" * 15)
    return write_project(tmp_path / "p", files)


def test_a_json_file_named_by_its_number_alone_under_a_folder_saying_the_word(tmp_path: Path) -> None:
    task = "How many moves does level 7 give?"
    assert "Assets/Data/Levels/7.json" in _ranked(_levels(tmp_path / "a", "Levels"), task, 2)
    # the folder says another word: the number alone names nothing
    assert "Assets/Data/Waves/7.json" not in _ranked(_levels(tmp_path / "b", "Waves"), task, 10)
