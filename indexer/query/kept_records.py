"""Decoded records kept a while per index state: the outline of a scene's or prefab's components
reads each component's script record for its fields, its enums and the calls on it, and a class
with fields of the project's structs reads theirs; each read decoded the record again (a pack's
first prefabs at 5,000 scripts decoded 1,700 records of a few hundred files)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.model import FileRecord

if TYPE_CHECKING:
    from indexer.query.graph import Graph

RECORDS_KEPT = 64  # the most recently read records kept
_MEMO = "_kept_records"  # kept in the graph's dict (one index state), as enum_values does


def kept_on(owner: object, name: str) -> dict:
    """A dict kept on `owner` (the graph or the records of one index state) under `name`: what a
    module learns of that state, dropped with it when a newer generation's readers replace it."""
    return owner.__dict__.setdefault(name, {})


def kept_record(graph: Graph, path: str) -> FileRecord | None:
    """`graph.records.record(path)`, the last RECORDS_KEPT kept. Read only: every caller shares it."""
    kept: dict[str, FileRecord | None] = kept_on(graph, _MEMO)
    if path in kept:
        kept[path] = kept.pop(path)  # now the most recently used
    else:
        if len(kept) >= RECORDS_KEPT:
            del kept[next(iter(kept))]
        kept[path] = graph.records.record(path)
    return kept[path]
