"""The items of a data asset's list of records, one line each: a wave table's field outlines as
`waves: [5 items]`, where the whole wave design (each wave's delay and members) is what a reader
asks for. Read from the file's lines as the scanner reads a nested mapping (`yaml_spans`), so an
item says what a field's nested value says, in the same width."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.model import Symbol
from indexer.query.enum_values import Enum, labelled_mapping
from indexer.query.nested_values import reference_said

if TYPE_CHECKING:
    from indexer.query.graph import Graph

ITEMS_SHOWN = 8  # a list's items a describe shows, then how many more
ITEM_CHARS = 160  # an item's line, as wide as two field values
_UNNAMED_LIST = re.compile(r": \[(\d+) items?\]$")  # items no name tells apart (`[5 items: Orc, ...]` do)
_REFERENCE = re.compile(r"- \{fileID: -?\d+(?:, guid: [0-9a-fA-F]{32})?(?:, type: \d+)?\}$")


def list_items(graph: Graph, path: str, field: Symbol, enums: dict[str, Enum] | None = None) -> list[str]:
    """`[0] {spawnId: 1, timeDelay: 3, members: [2 items]}` for each of the first ITEMS_SHOWN
    records of a list field whose items have no names, then `… N more items`; none otherwise.
    `enums`: the item type's enum fields, whose numbers are named (`{SkinType: 2 (Alien), …}`)."""
    said = _UNNAMED_LIST.search(field.signature)
    if said is None:
        return []
    lines = graph.file_lines(path)
    items = _items(lines, field.line)
    out = [
        f"[{i}] {_reference_shown(graph, item) or labelled_mapping(_item_shown(item), enums or {})}"
        for i, item in enumerate(items[:ITEMS_SHOWN])
    ]
    if len(items) > ITEMS_SHOWN:
        out.append(f"… {len(items) - ITEMS_SHOWN} more items")
    return out


def listed_references(graph: Graph, path: str, field: Symbol) -> list[str] | None:
    """What each item of a list field of references names (`[7 items]` of a StateMachineBehaviour's
    ability assets: their paths, `None` for an empty one), as a data asset's items say them; None
    when the field is no such list or an item is no reference."""
    if _UNNAMED_LIST.search(field.signature) is None:
        return None
    said = [_reference_shown(graph, item) for item in _items(graph.file_lines(path), field.line)]
    return said if said and all(said) else None


def _items(lines: list[str], line: int) -> list[list[str]]:
    """The lines of each item of the block list under the key on `line` (1-based)."""
    if not 0 < line <= len(lines):
        return []
    pad = indent_of(lines[line - 1])
    items: list[list[str]] = []
    for text in lines[line:]:
        if not text.strip():
            continue
        indent = indent_of(text)
        if indent == pad and text[indent:].startswith("- "):
            items.append([text])
        elif indent > pad and items:
            items[-1].append(text)
        else:
            break
    return items


def _reference_shown(graph: Graph, item: list[str]) -> str:
    """An item that is a reference (`- {fileID: 11400000, guid: 70f9…, type: 2}`, a tile of a
    crop's growth stages) as what it names, its path: read as a record it showed `{}`; ''
    for any other item."""
    text = " ".join(part.strip() for part in item)
    if not _REFERENCE.match(text):
        return ""
    return reference_said(graph, text[2:])  # as a nested value says one


def _item_shown(item: list[str]) -> str:
    """One item (a mapping written after its `- `) as `{key: value, ...}`, read by the scanner's line
    reader, loaded only here: answering from an index loads no scanner for a file with no such list."""
    from indexer.scanners.yaml_mapping import Budget, Mapping, mapping_shown
    from indexer.scanners.yaml_spans import block_value

    first = item[0]
    at = indent_of(first)
    block = "\n" + "\n".join([first[:at] + "  " + first[at + 2 :], *item[1:]])
    value = block_value(block, 1, Budget())
    return mapping_shown(value, ITEM_CHARS) if isinstance(value, Mapping) else value


def indent_of(line: str) -> int:
    """A line's indentation, as `scanners.yaml_lines` counts it (not imported: see `_item_shown`)."""
    return len(line) - len(line.lstrip(" "))


_ITEM_LINE = re.compile(r"^(\s*\[\d+\] )\{(.*)\}$")
ITEM_AT = re.compile(r"^\s*\[(\d+)\] ")  # an item's line, by its index
MORE_ITEMS = re.compile(r"^\s*… \d+ more items$")


def narrowed(line: str) -> list[str]:
    """An item's line (`[0] {Time: 90, Loot: 100, Prefab: Assets/…}`) with fewer of its values, the
    most first (`[0] {Time: 90, Loot: 100, …}`), for a pack's room too small for the whole line: a
    level table's first level said by its time and loot says what the table holds."""
    m = _ITEM_LINE.match(line)
    if m is None:
        return []
    parts = _top_level_parts(m.group(2))
    return [f"{m.group(1)}{{{', '.join(parts[:n])}, …}}" for n in range(len(parts) - 1, 0, -1)]


def _top_level_parts(text: str) -> list[str]:
    """A mapping's `key: value` entries, split at the commas outside nested braces and brackets."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += (c in "{[") - (c in "}]")
        if c == "," and depth == 0 and text[i + 1 : i + 2] == " ":
            parts.append(text[start:i])
            start = i + 2
    return [*parts, text[start:]] if text[start:] != "…" else parts
