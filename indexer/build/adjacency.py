"""Keeps the stored file-to-file edges current within a write batch.

The retriever walks these edges on every query, so they are resolved once, at index time, rather
than per query. A file's edges depend on its own references and on what other files declare (a
type name, a GUID), so a batch re-resolves the files it wrote plus every file that refers to a
type name, GUID or load key (a Resources path, a shader name) the batch declared, removed or
moved; everything else keeps its edges.
"""

from __future__ import annotations

from pathlib import Path

from indexer.query.file_edges import file_uses
from indexer.query.graph import Graph
from indexer.store.schema import LISTING_KINDS
from indexer.store.writer import Writer


def refresh_edges(writer: Writer, root: Path) -> dict[str, list[tuple[str, str]]]:
    """Re-resolve the edges the batch in `writer` may have changed; returns those of the data
    assets re-resolved (what they list may have changed: build/listed.py)."""
    graph = Graph(writer, root)
    if writer.rebuild:
        graph.read_every_type()
        records = (rec for rec in writer.records() if rec.refs)
    else:
        sources = set(writer.dirty)
        guids = {g for g in writer.changed_guids if g}
        if writer.changed_names or guids or writer.changed_keys:
            sources |= writer.referrers(writer.changed_names, guids, writer.changed_keys)
        records = (rec for path in sorted(sources) if (rec := writer.record(path)) is not None)
    edges: dict[str, list[tuple[str, str]]] = {}
    listing: dict[str, list[tuple[str, str]]] = {}
    for rec in records:
        edges[rec.path] = file_uses(graph, rec)
        if rec.kind in LISTING_KINDS:
            listing[rec.path] = edges[rec.path]
    writer.set_edges(edges)
    return listing
