"""A C# file holding git's unresolved merge conflict markers, read as each side of the conflict.

A merge that stopped on a conflict writes both versions into the file between marker lines:

    <<<<<<< HEAD            (ours follows)
    |||||||  base           (diff3 / zdiff3 only: the common ancestor follows)
    =======                 (theirs follows)
    >>>>>>> feature/x       (the end)

Parsed as written, the markers are syntax errors that swallow declarations (`<<<<<<< HEAD public int
ours` read as one field named `HEAD`). So the file is read twice, once with each side taken (the other
side, the ancestor and the markers blanked with spaces, newlines and byte offsets kept, so every line
is the file's own), and the two records are merged as `#if` branches are: a declaration on both sides
is one symbol, one on either side is kept. The record is `partial`, its note says the markers are
there (`unresolved merge conflict markers (both sides indexed)`) and its `error_lines` list the marker
lines, with the syntax errors either side has of its own.

A marker is only one in its place: `<<<<<<<` outside a conflict, `|||||||` after ours, `=======`
after ours or the ancestor, `>>>>>>>` after theirs, each at the start of a line and followed by
nothing or a space (git's own, `conflict-marker-size` left at 7). A file without a `=======` that
follows a `<<<<<<<` has no conflict (a line of a verbatim string, say) and is read as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from indexer.model import CONFLICT_NOTE, FileRecord, Symbol

_MARKER = re.compile(rb"(<{7}|\|{7}|={7}|>{7})(?:[ \t].*)?\r?")
# The state a marker is read in, and the state it starts: common text, ours, the ancestor, theirs.
_MOVES = {(b"<", ""): "ours", (b"|", "ours"): "base", (b"=", "ours"): "theirs", (b"=", "base"): "theirs"}
_MOVES[(b">", "theirs")] = ""


def conflict_sides(data: bytes) -> tuple[tuple[int, ...], bytes, bytes] | None:
    """(the marker lines, the file with ours taken, the file with theirs taken), or None when it
    has no conflict."""
    if b"<<<<<<<" not in data:
        return None
    lines = data.split(b"\n")
    state, markers, separated = "", [], False
    keep: list[str] = []  # per line: "" both sides, "ours", "theirs", or "-" neither
    for number, line in enumerate(lines, 1):
        m = _MARKER.fullmatch(line) if line[:1] in b"<|=>" else None
        move = _MOVES.get((m.group(1)[:1], state)) if m else None
        if move is None:
            keep.append("-" if state == "base" else state)
            continue
        markers.append(number)
        separated = separated or move == "theirs"
        keep.append("-")
        state = move
    if not separated:
        return None
    ours = b"\n".join(line if k in ("", "ours") else _blank(line) for line, k in zip(lines, keep, strict=True))
    theirs = b"\n".join(line if k in ("", "theirs") else _blank(line) for line, k in zip(lines, keep, strict=True))
    return tuple(markers), ours, theirs


def _blank(line: bytes) -> bytes:
    """A line as spaces, its `\r` kept: lines and byte offsets stay the file's."""
    return b" " * len(line.rstrip(b"\r")) + line[len(line.rstrip(b"\r")) :]


def both_sides(
    conflict: tuple[tuple[int, ...], bytes, bytes],
    scan: Callable[[bytes], FileRecord],
    merge: Callable[[list[tuple[int, Any]]], tuple[Symbol, ...]],
) -> FileRecord:
    """One record of the two sides' scans (see the module's doc)."""
    markers, ours, theirs = conflict
    a, b = scan(ours), scan(theirs)
    own_errors = sorted({*a.error_lines, *b.error_lines} - set(markers))
    note = CONFLICT_NOTE
    if own_errors:
        note += f"; {len(own_errors)} syntax error region{'s' if len(own_errors) != 1 else ''}"
    return FileRecord(
        path=a.path,
        kind="csharp",
        status="partial",
        note=note,
        namespaces=tuple(dict.fromkeys(a.namespaces + b.namespaces)),
        usings=tuple(dict.fromkeys(a.usings + b.usings)),
        defines=tuple(dict.fromkeys(a.defines + b.defines)),
        error_lines=tuple(sorted({*markers, *own_errors})),
        symbols=merge([(s.line, s) for s in (*a.symbols, *b.symbols)]),
        refs=tuple(dict.fromkeys(a.refs + b.refs)),
    )
