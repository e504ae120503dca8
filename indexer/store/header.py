"""index.json: the schema version, the generation and the generation folder a reader opens.

The header is written last, by one atomic rename: it switches readers to a rebuilt generation
folder, and it is the only file whose change makes a generation current."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from typing import TypeVar

import tantivy

from indexer.files import atomic_write
from indexer.model import SCHEMA_VERSION
from indexer.store.schema import IndexPaths, build_schema

T = TypeVar("T")
# A reader that read the header just before a rebuild switched generations (and removed the old
# folder) reads it again; more switches than this during one open are not plausible.
OPEN_TRIES = 5


class IndexMissing(Exception):
    """No usable index: never built, or built by another schema version."""


def read_header(paths: IndexPaths) -> dict | None:
    try:
        header = json.loads(paths.header.read_text())
    except (OSError, ValueError):
        return None
    return header if isinstance(header, dict) else None


def data_name(paths: IndexPaths) -> str:
    """The generation folder the header names ("" before generation folders existed)."""
    header = read_header(paths) or {}
    name = header.get("data", "")
    return name if isinstance(name, str) and "/" not in name and "\\" not in name and name != ".." else ""


def header_generation(paths: IndexPaths) -> int:
    """The last committed generation (0 without an index); cheap: reads index.json only."""
    header = read_header(paths)
    return int(header.get("generation", 0)) if header else 0


def header_ok(paths: IndexPaths) -> bool:
    h = read_header(paths)
    return bool(h) and h.get("schema_version") == SCHEMA_VERSION and paths.tantivy.is_dir() and paths.records.is_file()


def write_header(paths: IndexPaths, generation: int) -> None:
    """Make `generation` of the folder `paths` is pinned to the current one (atomic)."""
    assert paths.data is not None, "a writer works on one generation folder"
    header = {"schema_version": SCHEMA_VERSION, "generation": generation, "data": paths.data, "written_at": time.time()}
    atomic_write(paths.header, json.dumps(header).encode())


def pin(paths: IndexPaths) -> IndexPaths:
    """`paths` fixed to the generation folder the header names now; IndexMissing without one."""
    if paths.data is not None:
        if not header_ok(paths):
            raise IndexMissing(f"no index of this version at {paths.root}")
        return paths
    pinned = paths.with_data(data_name(paths))
    if not header_ok(pinned):
        raise IndexMissing(f"no index of this version at {paths.root}")
    return pinned


def open_current(paths: IndexPaths, opener: Callable[[IndexPaths], T]) -> T:
    """`opener(pinned paths)` on the current generation. A rebuild that switches generations and
    removes the old folder between the header read and the open makes the open fail: the header
    is then read again (the new generation is complete once the header names it)."""
    for attempt in range(OPEN_TRIES):
        view = pin(paths)
        try:
            return opener(view)
        except (OSError, ValueError, sqlite3.Error):
            if paths.data is not None or attempt == OPEN_TRIES - 1 or data_name(paths) == view.data:
                raise
        time.sleep(0.01 * attempt)
    raise AssertionError("unreachable")


def open_search(view: IndexPaths) -> tantivy.Index:
    """The full-text index of a pinned generation, its segments loaded (they stay readable after
    a later rebuild removes the folder, on systems that allow removing open files)."""
    index = tantivy.Index(build_schema(), path=str(view.tantivy), reuse=True)
    index.searcher()
    return index


def open_search_index(paths: IndexPaths) -> tantivy.Index:
    """A reader's view of the full-text index; fails with IndexMissing rather than misreading."""
    return open_current(paths, open_search)
