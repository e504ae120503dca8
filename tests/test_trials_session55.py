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
