"""What a Unity YAML file shows of damage done to it outside Unity: cut short, or left mid-merge.

Unity ends every file it writes with a line break: one ending mid-line was cut short (a failed copy
or checkout), and what it held past there is missing. A merge stopped on a conflict leaves git's
markers in the file (`<<<<<<<`, `=======`, `>>>>>>>`: Unity cannot load it), and both sides are read
as one file, a field set on both sides read twice. Either makes the record `partial`, its note saying
so and its error lines naming the last line or the markers' (`scanners/conflicts.py` finds them).
"""

from __future__ import annotations

import msgspec

from indexer.model import CONFLICT_MARKERS, FileRecord

from .conflicts import conflict_sides

CUT_NOTE = "ends mid-line: the file looks cut short, what follows is missing"
MERGE_NOTE = f"{CONFLICT_MARKERS} (both sides read as one file)"


def damaged(rec: FileRecord, text: str, data: bytes) -> FileRecord:
    """`rec` of a whole file, or said to be cut short or left mid-merge."""
    notes: list[str] = []
    lines: set[int] = set()
    if rec.status in ("ok", "partial") and (conflict := conflict_sides(data)) is not None:
        notes.append(MERGE_NOTE)
        lines.update(conflict[0])
    if rec.status == "ok" and not text.endswith("\n"):
        notes.append(CUT_NOTE)
        lines.add(text.count("\n") + 1)
    if not notes:
        return rec
    note = "; ".join([rec.note, *notes])
    return msgspec.structs.replace(
        rec, status="partial", note=note, error_lines=tuple(sorted({*rec.error_lines, *lines}))
    )
