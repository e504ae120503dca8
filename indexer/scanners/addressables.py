"""Addressables groups: the assets a group lists, and the address and labels each is loaded by.

`Addressables.LoadAssetAsync<GameObject>("ObstacleBin")` and `LoadAssetsAsync<ThemeData>("themeData",
...)` name their assets by an address or a label that only the group asset knows
(`Assets/AddressableAssetsData/AssetGroups/*.asset`), each entry as Unity writes it:

    m_SerializeEntries:
    - m_GUID: 22facfbe232a90b45b681c638f2e490d
      m_Address: ObstacleBin
      m_ReadOnly: 0
      m_SerializedLabels:
      - obstacles

The group's own `m_GUID` (not a list item) names no asset. Pure: the document's text in, entries
out; the scanner turns them into references (unity_yaml.py) and the index resolves the names a
script's literals load (query/loads.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from indexer.model import ADDRESSABLE_ENTRIES, Ref

from .yaml_lines import unquote

ENTRIES_KEY = ADDRESSABLE_ENTRIES
# an entry: a list item whose first key is `m_GUID`, below `m_SerializeEntries`
_ENTRY = re.compile(r"^([ \t]*)- m_GUID: ([0-9A-Fa-f]{32})[ \t]*$", re.M)
_ADDRESS = "m_Address:"
_LABELS = "m_SerializedLabels:"
MAX_ENTRIES = 5000  # a group of generated entries must not flood the refs table


class GroupEntry(NamedTuple):
    """An asset a group lists: its GUID, the address and labels code loads it by, and the body
    line (0-based) of its `m_GUID`."""

    guid: str
    address: str
    labels: tuple[str, ...]
    line: int


def group_refs(body: str, at: Callable[[int], int], detail: str) -> list[Ref]:
    """The references of a group document's entries (`at`: a body line's file line): a `guid`
    reference to each asset (context `m_SerializeEntries`), and an `address` reference for its
    address and each label (context "address" or "label", detail the asset's GUID)."""
    out = []
    for e in group_entries(body):
        line = at(e.line)
        out.append(Ref("guid", e.guid, line, context=ENTRIES_KEY, detail=detail))
        names = [(e.address, "address")] + [(label, "label") for label in e.labels]
        out += [Ref("address", name, line, context=kind, detail=e.guid) for name, kind in names if name]
    return out


def group_entries(body: str) -> list[GroupEntry]:
    """The entries of an Addressables group document (`body`: its text after the header line)."""
    start = body.find(f"\n  {ENTRIES_KEY}:")
    if start < 0 or "- m_GUID: " not in body:
        return []
    out: list[GroupEntry] = []
    line, counted = body.count("\n", 0, start), start
    for m in _ENTRY.finditer(body, start):
        line += body.count("\n", counted, m.start())
        counted = m.start()
        lead = len(m.group(1))
        address, labels = _entry_fields(body, m.end(), lead)
        out.append(GroupEntry(m.group(2).lower(), address, labels, line))
        if len(out) == MAX_ENTRIES:
            break
    return out


def _entry_fields(body: str, pos: int, lead: int) -> tuple[str, tuple[str, ...]]:
    """The address and labels of the entry whose first line ends at `pos`: the lines after it
    indented past its `- ` (labels listed below their key, as Unity writes a list, or in flow
    style), up to the first that is not."""
    inner = " " * (lead + 2)
    address, labels, in_labels = "", [], False
    for text in body[pos + 1 :].split("\n", 64)[:64]:  # an entry is a handful of lines
        if not text.startswith(inner):
            break
        item = text[lead + 2 :]
        if item.lstrip(" ").startswith("- "):  # an item of the list above: the labels' or another's
            if in_labels:
                labels.append(unquote(item.lstrip(" ")[2:]))
            continue
        if item.startswith(" "):  # a nested mapping's line
            continue
        in_labels = False
        if item.startswith(_ADDRESS):
            address = unquote(item[len(_ADDRESS) :])
        elif item.startswith(_LABELS):
            flow = item[len(_LABELS) :].strip()
            if flow.startswith("[") and flow.endswith("]"):
                labels += [unquote(v) for v in flow[1:-1].split(",") if v.strip()]
            else:
                in_labels = not flow
    return address, tuple(labels)
