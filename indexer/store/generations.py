"""Generation folders: where a rebuild writes, and what a writer cleans up before it starts.

An update writes into the current generation folder in place (tantivy and SQLite each commit
atomically, in that order). A rebuild writes a new folder `gen-N/` beside it, and the header's
atomic rename makes it current: until then readers answer from the old folder, and a rebuild
killed anywhere leaves the old one current. What a killed writer leaves (a half-built folder, a
superseded one, a temporary header, a header older than its records) is handled by `recover`,
which every writer runs under the lock before it reads anything.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import sqlite3

from indexer.model import SCHEMA_VERSION
from indexer.store.header import IndexMissing, data_name, read_header, write_header
from indexer.store.reader import Records
from indexer.store.schema import GENERATION_PREFIX, IndexPaths

# Temporary files of `atomic_write` (".<name>.<pid>.tmp") of the files only writers write, under
# the lock (the editor's heartbeat and journal, beside them, are not ours to touch).
_WRITER_TEMPORARIES = (
    ".index.json.",
    ".git-view.json.",
    ".journal.pos.",
    ".integrity.json.",
    ".progress.json.",
    ".settings.json.",
)
_RECORD_FILES = ("records.db", "records.db-wal", "records.db-shm", "records.db-journal")
# The names `new_generation` gives: nothing else in the index folder is a generation of ours.
_GENERATION_NAME = re.compile(re.escape(GENERATION_PREFIX) + r"[0-9]+(\.[0-9]+)?")


def is_generation(name: str) -> bool:
    """Whether `name` is one `new_generation` makes (`gen-7`, `gen-7.1`), not a user's `gen-docs`."""
    return _GENERATION_NAME.fullmatch(name) is not None


def new_generation(paths: IndexPaths, generation: int) -> IndexPaths:
    """A new, empty generation folder for a rebuild whose first commit is `generation`."""
    name = f"{GENERATION_PREFIX}{generation}"
    n = 1
    while (paths.root / name).exists():  # a leftover that could not be removed (a reader holds it)
        name, n = f"{GENERATION_PREFIX}{generation}.{n}", n + 1
    (paths.root / name).mkdir(parents=True)
    return paths.with_data(name)


def retire(paths: IndexPaths, keep: str | None) -> None:
    """Remove every generation folder but `keep` (None: all of them), and the files of the layout
    before generation folders unless `keep` is that layout (""). Only what unity-index names so is
    touched: the folder may hold a user's files (a shared cache folder), and a `tantivy/` is the
    old layout's only beside its `records.db`. Best effort: where open files cannot be removed
    (Windows, a reader holding them), the next writer tries again."""
    root = paths.root
    if not root.is_dir():
        return
    for entry in root.iterdir():
        if is_generation(entry.name) and entry.name != keep and entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)
        elif entry.name.startswith(_WRITER_TEMPORARIES) and entry.name.endswith(".tmp"):
            entry.unlink(missing_ok=True)  # a header or state file a killed writer did not rename
    if keep != "" and (root / _RECORD_FILES[0]).is_file():
        shutil.rmtree(root / "tantivy", ignore_errors=True)
        for name in _RECORD_FILES:
            with contextlib.suppress(OSError):
                (root / name).unlink(missing_ok=True)


def recover(paths: IndexPaths) -> None:
    """Run by a writer holding the lock, before anything else: remove what killed writers left,
    and bring the header up to its records' generation (a writer killed between the SQLite commit
    and the header rename left it one behind)."""
    header = read_header(paths)
    usable = header is not None and header.get("schema_version") == SCHEMA_VERSION
    keep = data_name(paths) if header is not None else None
    retire(paths, keep)
    if not usable:
        return
    try:
        records = Records(paths)
    except (IndexMissing, OSError, sqlite3.Error):
        return  # nothing readable to repair from: the update rebuilds
    try:
        committed = records.generation()
    except sqlite3.Error:
        return
    finally:
        records.close()
    if committed != int(header.get("generation", 0)):
        write_header(records.paths, committed)
