"""What a Unity YAML file shows of damage done to it outside Unity: cut short, left mid-merge, or
merged keeping both sides.

Unity ends every file it writes with a line break: one ending mid-line was cut short (a failed copy
or checkout), and what it held past there is missing. A merge stopped on a conflict leaves git's
markers in the file (`<<<<<<<`, `=======`, `>>>>>>>`: Unity cannot load it), and both sides are read
as one file, a field set on both sides read twice. A merge resolved by keeping both sides leaves no
marker but objects written twice under one fileID (Unity gives each object of a file its own), each
component and field then read twice. Each makes the record `partial`, its note saying so and its
error lines naming the last line or the markers' (`scanners/conflicts.py` finds them).
"""

from __future__ import annotations

from collections.abc import Collection

import msgspec

from indexer.model import CONFLICT_MARKERS, FileRecord

from .conflicts import conflict_sides

CUT_NOTE = "ends mid-line: the file looks cut short, what follows is missing"
MERGE_NOTE = f"{CONFLICT_MARKERS} (both sides read as one file)"
DUPLICATE_WHY = "held by more than one object: the file looks merged keeping both sides, what it holds twice read twice"


def damaged(rec: FileRecord, text: str, data: bytes, duplicated: Collection[int] = ()) -> FileRecord:
    """`rec` of a whole file, or said to be cut short, left mid-merge, or to hold the fileIDs
    `duplicated` more than once."""
    notes: list[str] = []
    lines: set[int] = set()
    if rec.status in ("ok", "partial") and (conflict := conflict_sides(data)) is not None:
        notes.append(MERGE_NOTE)
        lines.update(conflict[0])
    elif rec.status in ("ok", "partial") and duplicated:
        notes.append(_duplicate_note(sorted(duplicated)))
    if rec.status == "ok" and not text.endswith("\n"):
        notes.append(CUT_NOTE)
        lines.add(text.count("\n") + 1)
    if not notes:
        return rec
    note = "; ".join([rec.note, *notes])
    return msgspec.structs.replace(
        rec, status="partial", note=note, error_lines=tuple(sorted({*rec.error_lines, *lines}))
    )


def _duplicate_note(ids: list[int]) -> str:
    """`duplicate fileID -5 held by ...`, or the first three of several and how many."""
    if len(ids) == 1:
        return f"duplicate fileID {ids[0]} {DUPLICATE_WHY}"
    shown = ", ".join(map(str, ids[:3])) + (", ..." if len(ids) > 3 else "")
    return f"{len(ids)} duplicate fileIDs ({shown}) {DUPLICATE_WHY}"
