"""A data asset's hit on a key nested in one of its fields: the line it is on, not the file's first.

The scanners store an asset's fields (`SkinCharacteristic: {BaseHealth: 5, BaseSpeed: 3.5, …}`), not
the keys of a struct held in one, nor of a list's items: `query BaseHealth` found a skin's asset by
its text and pointed at `:1` with no snippet, though `BaseHealth: 5` is a line of it. Such a hit is
named by the line whose key holds the most of the query's words, under the field holding it
(`AlienData.SkinCharacteristic.BaseHealth`), its line the snippet.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from indexer.identifiers import name_stems
from indexer.model import Declared
from indexer.query.textmatch import occurrences
from indexer.query.texts import FileText

_KEY_LINE = re.compile(r"( *)(- )?([A-Za-z_<][\w<>]*): ?(.*)")
LINES_UP = 2_000  # lines walked up from a nested key to its field's
TOP_INDENT = 2  # a MonoBehaviour's own fields' (the object's keys under its class line)


def nested_key_hit(
    entries: Iterable[Declared], name_of: Callable[[Declared], str], wanted: set[str], read: FileText
) -> tuple[str, int, str] | None:
    """(name, line, snippet) of the nested key line holding the most of the stems `wanted` (the
    first of a tie), under one of the file's field declarations (`entries`; `name_of`: a field's
    name as a hit says it, `search.named_as`); None when no such line holds one."""
    fields = {d.line: d for d in entries if d.kind == "field" and d.line > 0}
    text = read.text
    if not fields or not wanted or len(read.low) != len(text):
        return None
    found = _key_lines(read, wanted)
    if not found:
        return None
    start = min(found, key=lambda at: (-found[at], at))
    end = text.find("\n", start)
    line = text[start : end if end >= 0 else len(text)].rstrip("\r")
    owner = fields.get(_owner_line(text, start, line))
    m = _KEY_LINE.fullmatch(line)
    if owner is None or m is None:
        return None
    return f"{name_of(owner)}.{m.group(3)}", text.count("\n", 0, start) + 1, f"{m.group(3)}: {m.group(4)}".rstrip(" :")


def _key_lines(read: FileText, wanted: set[str]) -> dict[int, int]:
    """Line start -> how many of `wanted` the key of a nested `key: value` line there holds, of the
    lines where one of them occurs (in the text's first BODY_CHARS characters) in the key."""
    text, out = read.text, {}
    for stem_, where in occurrences(read, sorted(wanted)).items():
        for pos in where or ():
            start = text.rfind("\n", 0, pos) + 1
            m = _KEY_LINE.match(text, start)
            if m is None or start in out or not m.start(3) <= pos < m.end(3):
                continue  # a line counted, a word in a value
            if (len(m.group(1)) > TOP_INDENT or m.group(2)) and stem_ in name_stems(m.group(3)):
                out[start] = len(wanted.intersection(name_stems(m.group(3))))
    return out


def _owner_line(text: str, start: int, line: str) -> int:
    """The number of the line of the top-level key above a nested `line` (starting at `start`):
    up past deeper lines and the items of a list holding it (Unity writes a list's `- ` at its
    key's indentation), to the first key at TOP_INDENT; 0 when none is found LINES_UP lines up."""
    stripped = line.lstrip(" ")
    indent = len(line) - len(stripped) + stripped.startswith("- ")
    at = start
    for _ in range(LINES_UP):
        if at == 0:
            return 0
        above = text.rfind("\n", 0, at - 1) + 1
        up = text[above : at - 1].rstrip("\r")
        at = above
        body = up.lstrip(" ")
        depth = len(up) - len(body)
        if not body or depth >= indent:
            continue
        if body.startswith("- "):  # inside this item: its list's key is at its depth
            indent = depth + 1
        elif depth <= TOP_INDENT:
            return text.count("\n", 0, above) + 1 if _KEY_LINE.fullmatch(up) else 0
        else:
            indent = depth
    return 0
