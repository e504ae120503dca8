"""Which files a context pack holds, as the retrieval scorers count them.

`all`: every file the pack names, its related lines included; `shown`: the files it shows with a
header or an outline (not the related lines); `outlined`: the files it shows with more than their
header line, whose content the reader sees and not just the path.
"""

from __future__ import annotations

from indexer.model import ContextPack
from indexer.query.context import RELATED_REASON

MODES = ("all", "shown", "outlined")


def pack_files(pack: ContextPack, mode: str = "all") -> list[str]:
    """The pack's tier-2 files in its order, as `mode` counts them."""
    files = pack.tier2.files
    if mode == "all":
        return [f.path for f in files]
    related = _related_outlined(pack.tier2.text)
    shown = [f.path for f in files if not f.reason.startswith(RELATED_REASON) or f.path in related]
    if mode == "shown":
        return shown
    if mode != "outlined":
        raise ValueError(f"unknown mode {mode!r}: one of {', '.join(MODES)}")
    bodied = _outlined(pack.tier2.text)
    return [p for p in shown if p in bodied or p in related]


def _related_outlined(text: str) -> set[str]:
    """The related files listed with lines of their outline under their entry."""
    _, _, tail = text.partition("\n## Related files")
    out: set[str] = set()
    entry = None
    for line in tail.split("\n")[1:]:
        if line.startswith("  "):
            if entry is not None:
                out.add(entry)
        else:
            entry = line.split("  (", 1)[0]
    return out


def _outlined(text: str) -> set[str]:
    """The paths whose `### path  (kind; ...)` header is followed by at least one line before the
    next header."""
    out: set[str] = set()
    current, body = None, False
    for line in text.split("\n"):
        if line.startswith("## ") or line.startswith("### "):
            if current is not None and body:
                out.add(current)
            current = line[4:].split("  (", 1)[0] if line.startswith("### ") else None
            body = False
        elif current is not None and line.strip():
            body = True
    if current is not None and body:
        out.add(current)
    return out
