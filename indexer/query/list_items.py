"""The items of a data asset's list of records, one line each: a wave table's field outlines as
`waves: [5 items]`, where the whole wave design (each wave's delay and members) is what a reader
asks for. Read from the file's lines as the scanner reads a nested mapping (`yaml_spans`), so an
item says what a field's nested value says, in the same width."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.model import Symbol
from indexer.query.nested_values import reference_said

if TYPE_CHECKING:
    from indexer.query.graph import Graph

ITEMS_SHOWN = 8  # a list's items a describe shows, then how many more
ITEM_CHARS = 160  # an item's line, as wide as two field values
_UNNAMED_LIST = re.compile(r": \[(\d+) items\]$")  # items no name tells apart (`[5 items: Orc, ...]` do)
_REFERENCE = re.compile(r"- \{fileID: -?\d+(?:, guid: [0-9a-fA-F]{32})?(?:, type: \d+)?\}$")


def list_items(graph: Graph, path: str, field: Symbol) -> list[str]:
    """`[0] {spawnId: 1, timeDelay: 3, members: [2 items]}` for each of the first ITEMS_SHOWN
    records of a list field whose items have no names, then `… N more items`; none otherwise."""
    said = _UNNAMED_LIST.search(field.signature)
    if said is None:
        return []
    lines = graph.file_lines(path)
    items = _items(lines, field.line)
    out = [f"[{i}] {_reference_shown(graph, item) or _item_shown(item)}" for i, item in enumerate(items[:ITEMS_SHOWN])]
    if len(items) > ITEMS_SHOWN:
        out.append(f"… {len(items) - ITEMS_SHOWN} more items")
    return out


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
