"""Attack 19 of session 52: each test failed before the fix it names.

1. A scene whose Transform parent chain is 6,000 levels deep was skipped ("the scanner process
   ended with signal 11, likely over the 640 MB a scanner may use"): not the stack, which the
   walk does not use, but its paths, each holding its parents' names (250 MB of them, then the
   record's msgpack, where msgspec's encoder died of the memory limit with a segmentation fault).
   Objects nested over 1,000 levels are left out of the record, which is `partial` and says how
   many; `describe` says so beside the objects its tree does not show.
"""

from __future__ import annotations

from pathlib import Path

from indexer.cli.main import main
from indexer.scanners import scan
from indexer.store.rows import stored_record

from .conftest import write_project
from .test_attack18_session51 import _chain_scene


def test_a_hierarchy_6000_deep_is_indexed_to_1000_levels_and_says_what_it_left_out(tmp_path: Path, capsys) -> None:
    rec = scan("Assets/Rope.unity", "scene", _chain_scene(6000).encode())
    assert rec.status == "partial"  # (it was `ok` here, but its record took 250 MB: skipped by a scanner process)
    assert rec.note == "12000 documents; 5000 objects nested over 1000 levels deep: not recorded"
    objects = [s for s in rec.symbols if s.kind == "gameobject"]
    assert [s.name for s in objects[-2:]] == ["L1997", "L1999"]  # the 999th and 1000th links
    assert objects[-1].container.count("/") == 998
    assert len(stored_record(rec)) < 8_000_000  # (252 MB: the paths of all 6,000 levels, twice)

    root = write_project(tmp_path / "P", {"Assets/Rope.unity": _chain_scene(1003)})
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    capsys.readouterr()
    assert main(["describe", "Assets/Rope.unity", "--project", str(root)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == [
        "Assets/Rope.unity  (scene)",
        "partial: 2006 documents; 3 objects nested over 1000 levels deep: not recorded",
    ]
    assert lines[-1] == (
        "… not shown: 939 objects deeper than 60 levels; 3 objects nested over 1000 levels, which the index does"
        " not record; `--json` lists every object recorded"
    )


def test_a_cycle_of_parents_longer_than_1000_is_left_out_and_counted() -> None:
    """Each object of a cycle of n is named by the n names up it: n^2 (a cycle of 6,000 took 21 s and
    650 MB): one over 1,000 objects is left out as deep."""
    text = _chain_scene(1)
    n = 1200
    for i in range(n):
        go, tf, father = 10_000 + 2 * i, 10_001 + 2 * i, 10_001 + 2 * ((i + 1) % n)
        text += f"--- !u!1 &{go}\nGameObject:\n  m_Component:\n  - component: {{fileID: {tf}}}\n  m_Name: C{go}\n"
        text += f"--- !u!4 &{tf}\nTransform:\n  m_GameObject: {{fileID: {go}}}\n  m_Father: {{fileID: {father}}}\n"
    rec = scan("Assets/Broken.unity", "scene", text.encode())
    assert rec.note == "2402 documents; 1200 objects nested over 1000 levels deep: not recorded"
    assert [s.name for s in rec.symbols if s.kind == "gameobject"] == ["L1"]
