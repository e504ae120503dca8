"""index.json: the schema version, the generation and the generation folder a reader opens; and
opening the full-text index for reading (also where the index folder cannot be written).

The header is written last, by one atomic rename: it switches readers to a rebuilt generation
folder, and it is the only file whose change makes a generation current."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable
from typing import TypeVar

import tantivy

from indexer.files import atomic_write, read_state
from indexer.model import SCHEMA_VERSION
from indexer.store.schema import IndexPaths, build_schema

T = TypeVar("T")
# A reader that read the header just before a rebuild switched generations (and removed the old
# folder) reads it again; more switches than this during one open are not plausible.
OPEN_TRIES = 5


class IndexMissing(Exception):
    """No usable index: never built, or built by another schema version."""


class IndexBroken(IndexMissing):
    """An index whose files are damaged (garbled, truncated or deleted): `unity-index index`
    rebuilds it. A kind of IndexMissing, so code that rebuilds a missing index rebuilds it too."""

    def __init__(self, where: object, detail: str):
        self.where = str(where)
        self.detail = detail
        super().__init__(
            f"the index at {where} is damaged ({detail}); run `unity-index index` to rebuild it"
            " (nothing in the project is lost: the index is derived from its files)"
        )


def read_header(paths: IndexPaths) -> dict | None:
    """index.json as {"schema_version": int, "generation": int, ...}; None when it is missing or
    not of that shape (a damaged header is no header: the index is rebuilt)."""
    try:
        header = json.loads(read_state(paths.header))
    except (OSError, ValueError, RecursionError):  # (nested too deep for the parser: damaged too)
        return None
    if not isinstance(header, dict):
        return None
    gen, version = header.get("generation"), header.get("schema_version")
    if type(gen) is not int or gen < 0 or type(version) is not int:
        return None
    return header


def data_name(paths: IndexPaths) -> str:
    """The generation folder the header names ("" before generation folders existed, and for a
    name no writer gives: a NUL in it failed every command, `index --full` too, with "embedded null
    byte", and a name too long for the file system every update with "File name too long")."""
    from indexer.store.generations import is_generation

    header = read_header(paths) or {}
    name = header.get("data", "")
    return name if isinstance(name, str) and is_generation(name) else ""


def header_generation(paths: IndexPaths) -> int:
    """The last committed generation (0 without an index); cheap: reads index.json only."""
    header = read_header(paths)
    return header["generation"] if header else 0


def header_stamp(paths: IndexPaths) -> tuple[int, float]:
    """(generation, when the header was written): changes with every commit, also when an index
    removed and built again starts its generations over (a reader of the old one must see that)."""
    header = read_header(paths)
    if header is None:
        return 0, 0.0
    written = header.get("written_at")
    return header["generation"], written if isinstance(written, int | float) else 0.0


def header_ok(paths: IndexPaths) -> bool:
    h = read_header(paths)
    if h is None or h["schema_version"] != SCHEMA_VERSION:
        return False
    return paths.tantivy.is_dir() and paths.records.is_file()


def write_header(paths: IndexPaths, generation: int) -> None:
    """Make `generation` of the folder `paths` is pinned to the current one (atomic)."""
    assert paths.data is not None, "a writer works on one generation folder"
    header = {"schema_version": SCHEMA_VERSION, "generation": generation, "data": paths.data, "written_at": time.time()}
    atomic_write(paths.header, json.dumps(header).encode(), follow_symlinks=False)


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
    a later rebuild removes the folder, on systems that allow removing open files); ValueError
    when its files are damaged.

    The segment files are checked first (`integrity.tantivy_problems`: present, with a footer
    whose checksum matches, unless the writer's fingerprint vouches for them): a damaged segment
    can make tantivy panic (a Rust backtrace on stderr) or answer wrongly. `Index.open`, never
    `Index(schema, path, reuse=True)`, which creates an empty index where meta.json is missing (a
    query would silently find nothing). Opening takes tantivy's `.tantivy-meta.lock` for writing,
    which fails on a read-only folder (a CI cache, a mounted volume): the index is then opened
    through a private folder of links to its files."""
    from indexer.store.integrity import tantivy_problems, trusted_files

    if no_documents_yet(view):
        return tantivy.Index(build_schema())  # in memory, empty: nothing was ever committed
    problems = tantivy_problems(view, checksums=True, trusted=trusted_files(view))
    if problems:
        raise ValueError(problems[0])
    try:
        index = _open_index(view)
        index.searcher()
    except BaseException as exc:  # a file garbled behind the fingerprint: tantivy may panic reading it
        if type(exc).__name__ != "PanicException":
            raise
        raise ValueError(f"tantivy failed reading it ({_short(exc)})") from None
    return index


def _open_index(view: IndexPaths) -> tantivy.Index:
    try:
        return tantivy.Index.open(str(view.tantivy))
    except ValueError as exc:
        text = str(exc)
        if not ("Lockfile" in text and ("ermission" in text or "ead-only" in text)):
            raise
        return _open_through_links(view)


def open_search_index(paths: IndexPaths) -> tantivy.Index:
    """A reader's view of the full-text index; fails with IndexMissing rather than misreading,
    and with IndexBroken when its files are damaged."""
    try:
        return open_current(paths, open_search)
    except ValueError as exc:
        raise IndexBroken(paths.root, f"full-text index: {_short(exc)}") from None


def no_documents_yet(paths: IndexPaths) -> bool:
    """Whether the full-text folder is as a writer that never added a document leaves it (a
    project without searchable files): no meta.json and no segment file."""
    if (paths.tantivy / "meta.json").exists():
        return False
    try:
        return all(name.startswith(".") for name in os.listdir(paths.tantivy))
    except OSError:
        return False


def _open_through_links(view: IndexPaths) -> tantivy.Index:
    """Open a read-only tantivy folder from a temporary folder of symlinks to its segment files
    (and a copy of its meta files, so the view is one commit even if a writer appears)."""
    shadow = tempfile.mkdtemp(prefix="unity-index-ro-")
    try:
        for name in os.listdir(view.tantivy):
            src = os.path.join(view.tantivy, name)
            if name.endswith(".lock"):
                continue
            if name.endswith(".json"):
                shutil.copyfile(src, os.path.join(shadow, name))
            else:
                os.symlink(src, os.path.join(shadow, name))
        index = tantivy.Index.open(shadow)
    except (OSError, ValueError) as exc:
        shutil.rmtree(shadow, ignore_errors=True)
        raise ValueError(f"read-only full-text index: {exc}") from None
    atexit.register(shutil.rmtree, shadow, True)  # links only: the index itself is not touched
    return index


def tantivy_failure(exc: BaseException) -> bool:
    """Whether `exc` is how tantivy reports a damaged file: a ValueError, or a Rust panic
    (pyo3's PanicException, a BaseException that cannot be imported by name)."""
    return isinstance(exc, ValueError) or type(exc).__name__ == "PanicException"


def _short(exc: BaseException) -> str:
    text = str(exc).replace("\n", " ")
    return text if len(text) <= 200 else text[:200] + "..."
