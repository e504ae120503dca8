"""The first step of an update: what it will do. Rebuild or not, which paths to look at (the
editor's journal, git, or a walk), what changed, and which deleted records may have moved."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

import msgspec

from indexer.build.moves import move_sources
from indexer.changes import gitview, journal
from indexer.changes.candidates import changed_candidates
from indexer.changes.diff import Change, diff
from indexer.config import Config
from indexer.model import FileRecord
from indexer.project import MANIFEST
from indexer.store.header import IndexMissing, header_ok
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths


class Plan(msgspec.Struct):
    rebuild: bool
    change: Change
    old_records: dict[str, FileRecord]  # deleted files' records an added file may have moved from
    generation_before: int  # -1 without a readable index
    journal_read: journal.JournalRead | None
    git_now: gitview.GitStatus | None  # git's answer before looking at the files, when git does the finding

    @property
    def is_noop(self) -> bool:
        """Nothing to write. Racily clean records found unchanged once their stat has settled
        (`Change.settled`) are written, their check time only: else every later no-op update
        would hash their files again (a project indexed right after its files were written)."""
        return not self.rebuild and not self.change.jobs and not self.change.deleted and not self.change.settled


def _open_reader(ipaths: IndexPaths, rebuild: bool) -> Records | None:
    """The current records, or None when the update must rebuild."""
    if rebuild:
        return None
    try:
        reader = Records(ipaths)
        reader.generation()
    except (IndexMissing, sqlite3.DatabaseError):
        return None
    return reader


def make_plan(
    root: Path,
    config: Config,
    ipaths: IndexPaths,
    *,
    full: bool,
    paths: Iterable[str] | None,
    use_journal: bool,
    use_git: bool,
    git_locks: bool = True,
) -> Plan:
    reader = _open_reader(ipaths, full or not header_ok(ipaths))
    rebuild = reader is None
    paths, jread, git_now = changed_candidates(
        root, ipaths, reader, paths, use_journal=use_journal, use_git=use_git, git_locks=git_locks
    )
    generation_before = reader.generation() if reader is not None else -1
    try:
        change = diff(root, config, reader, None if rebuild else paths)
        if not change.walked and (MANIFEST in change.deleted or any(j.path == MANIFEST for j in change.jobs)):
            change = diff(root, config, reader, None)  # local packages may have come or gone: walk
        old_records = move_sources(reader, change)
    except sqlite3.DatabaseError:
        rebuild, reader = True, None
        change, old_records = diff(root, config, None, None), {}
    finally:
        if reader is not None:
            reader.close()
    return Plan(rebuild, change, old_records, generation_before, jread, git_now)
