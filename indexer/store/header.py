"""index.json: the schema version and generation a reader checks before opening anything."""

from __future__ import annotations

import json

import tantivy

from indexer.model import SCHEMA_VERSION
from indexer.store.schema import IndexPaths, build_schema


class IndexMissing(Exception):
    """No usable index: never built, or built by another schema version."""


def read_header(paths: IndexPaths) -> dict | None:
    try:
        return json.loads(paths.header.read_text())
    except (OSError, ValueError):
        return None


def header_generation(paths: IndexPaths) -> int:
    """The last committed generation (0 without an index); cheap: reads index.json only."""
    header = read_header(paths)
    return int(header.get("generation", 0)) if header else 0


def header_ok(paths: IndexPaths) -> bool:
    h = read_header(paths)
    return bool(h) and h.get("schema_version") == SCHEMA_VERSION and paths.tantivy.is_dir() and paths.records.is_file()


def open_search_index(paths: IndexPaths) -> tantivy.Index:
    """A reader's view of the full-text index; fails with IndexMissing rather than misreading."""
    if not header_ok(paths):
        raise IndexMissing(f"no index of this version at {paths.root}")
    return tantivy.Index(build_schema(), path=str(paths.tantivy), reuse=True)
