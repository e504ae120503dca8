"""What differs between the files on disk and the records: by stat first, content hash second.

A touched but unchanged file costs a read and a hash, never a rescan.

A stat is trusted to mean "unchanged" only once it is older than the file system's time
granularity (`files.FILE_TICK_NS`) at the time it was recorded: a file written again within the
same tick as the write before its read, to the same size, keeps its stat. Such a "racily clean"
record (git's term and remedy) has its file hashed again by every update and check until its
stat is settled, and counts as changed only when the hash differs (`files.racily_clean`).
"""

from __future__ import annotations

import os
import sqlite3
import stat as statmode
import time
from collections.abc import Iterable
from pathlib import Path

import msgspec

from indexer.config import Config
from indexer.files import FILE_TICK_NS, digest_of, mtime_of, racily_clean
from indexer.model import FileStat, Staleness
from indexer.project import (
    Coverage,
    can_list,
    content_differs,
    fs_name,
    kind_of,
    printable,
    read_project_file,
    unreadable_reason,
)
from indexer.project_walk import top_link_reason, walk
from indexer.store.header import IndexBroken, IndexMissing, read_header
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths


class Job(msgspec.Struct, array_like=True):
    """One file to read, hash and maybe scan (sent to worker processes as msgpack)."""

    root: str
    path: str
    kind: str
    size: int
    mtime_ns: int
    old_digest: str
    max_bytes: int
    skip: str = ""  # why it is recorded without being read (project_walk.walk); "" read it


class Change(msgspec.Struct):
    """How the files on disk differ from the records."""

    jobs: list[Job]
    deleted: list[str]
    walked: bool
    existing: set[str]  # paths of jobs that have a record (changed, not added)
    checked_ns: int = 0  # when the files were looked at: a time before their stat and read
    settled: list[str] = []  # racily clean records found unchanged, their stat now settled


Found = dict[str, tuple[os.stat_result, str]]  # path -> its lstat, why it is not read ('' to read it)

# The note of a file the worker could not open (`build.workers`). A chmod changes no stat the diff
# compares, so such a record is looked at again by every update until its file can be read.
UNREADABLE = "unreadable: "


def _stat_listed(root: Path, config: Config, listed: Iterable[str]) -> Found | None:
    """Stats of the listed project files (with their .meta); None when a folder is involved or a
    file cannot be looked at (a folder above it became unreadable: the walk records the folder)."""
    wanted: set[str] = set()
    for rel in listed:
        if not rel:
            continue
        wanted.add(rel)
        wanted.add(rel[:-5] if rel.endswith(".meta") else rel + ".meta")
    coverage = Coverage(root, config)
    real_root = os.path.realpath(root)
    current: Found = {}
    for rel in sorted(wanted):
        try:
            st = os.lstat(root / fs_name(rel))
        except (FileNotFoundError, NotADirectoryError, ValueError):  # ValueError: a NUL, no file's name
            continue
        except OSError:
            return None
        if statmode.S_ISDIR(st.st_mode):
            return None
        if rel in coverage.tops and statmode.S_ISLNK(st.st_mode):  # `Assets` a link: said once, as the walk says it
            current[rel] = st, top_link_reason(rel, root / fs_name(rel))
        elif coverage.covers(rel) and _not_through_link(real_root, rel):  # links and pipes too, as the walk lists them
            current[rel] = st, unreadable_reason(rel, st.st_mode)
    return current


def _not_through_link(real_root: str, rel: str) -> bool:
    """Whether the folder holding the project file `rel` is reached without a symbolic link, as
    the walk reaches it: a path through a link to a folder (the editor's journal names the files
    Unity imports through one) is no project file, and may lie outside the project."""
    folder = os.path.dirname(fs_name(rel))
    return os.path.realpath(os.path.join(real_root, folder)) == os.path.normpath(os.path.join(real_root, folder))


def _listed(root: Path, config: Config, reader: Records, listed: list[str]) -> tuple[Found, dict[str, FileStat]] | None:
    """Current and recorded stats of the listed paths; None when a walk is needed instead."""
    if any(can_list(root / fs_name(p)) for p in reader.folder_paths()):
        return None  # readable again (a chmod no watcher or git reports): its files must be listed
    listed = [stored_form(p) for p in listed] + reader.unread_paths()  # unreadable ones may be readable now
    current = _stat_listed(root, config, listed)
    if current is None:
        return None
    gone = [p for p in listed if p not in current and not p.endswith(".meta")]
    if any(reader.has_folder(p) for p in gone):
        return None  # a deleted or moved folder: its files are not listed
    keys = {*current, *listed, *(p + ".meta" for p in listed)}
    return current, reader.stats_of(keys)


def diff(root: Path, config: Config, reader: Records | None, listed: Iterable[str] | None) -> Change:
    """Added, changed (by stat) and deleted files: over the listed paths if possible, else a walk."""
    checked_ns = time.time_ns()
    found = None
    if listed is not None and reader is not None:
        found = _listed(root, config, reader, list(listed))
    walked = found is None
    if found is None:
        walked_now = {rel: (st, skip) for rel, st, skip in walk(root, config)}
        found = walked_now, (reader.stats() if reader is not None else {})
    current, old = found
    jobs: list[Job] = []
    settled: list[str] = []
    for rel, (st, skip) in current.items():
        prev = old.get(rel)
        if prev is not None and prev.size == st.st_size and prev.mtime_ns == mtime_of(st):
            # a file changed (its ctime) since its record was taken is read even so, walked or
            # named by git or the watcher: an archive or `rsync -a` rewrites a file with its size
            # and modification time kept, which the stat alone passes over; one untouched since is
            # not read again
            touched = bool(prev.digest) and st.st_ctime_ns > prev.checked_ns
            if not touched and not racily_clean(prev) and not _readable_again(root, rel, prev, skip, reader):
                continue
            if not content_differs(root, rel, prev, config.max_file_bytes):
                if prev.mtime_ns <= checked_ns - FILE_TICK_NS:
                    settled.append(rel)  # read after its stat settled: a later write shows
                continue
        digest = prev.digest if prev else ""
        kind = kind_of(rel, st.st_mode)
        jobs.append(Job(str(root), rel, kind, st.st_size, mtime_of(st), digest, config.max_file_bytes, skip))
    deleted = sorted(p for p in old if p not in current)
    return Change(jobs, deleted, walked, {j.path for j in jobs if j.path in old}, checked_ns, settled)


def _readable_again(root: Path, rel: str, prev: FileStat, skip: str, reader: Records | None) -> bool:
    """Whether a file recorded as unreadable can be opened now. Only records skipped without a
    digest (few: links, odd names, files over the cap or a scanner's budget) cost an open and,
    when it succeeds, the decoding of their record."""
    if skip or prev.status != "skipped" or prev.digest or reader is None:
        return False
    if read_project_file(root, rel, 0) is None:
        return False
    rec = reader.record(rel)
    return rec is not None and rec.note.startswith(UNREADABLE)


def check(root: Path, config: Config, verify: bool = False) -> Staleness:
    """What an update would change, without writing anything; a touched file whose content hash
    is unchanged does not count. Damage to the index files is reported in `damaged`: the cheap
    checks always, every check of `store.integrity` with `verify`."""
    from indexer.changes import settings
    from indexer.store import integrity

    root = root.resolve()
    paths = IndexPaths(config.index_path(root))
    if read_header(paths) is None:
        damaged = "index.json is unreadable" if paths.header.exists() else ""
        return Staleness(indexed=False, damaged=damaged)
    problems = integrity.verify(paths) if verify else integrity.quick_problems(paths)
    if problems:
        return Staleness(indexed=True, damaged=problems[0])
    try:
        reader = Records(paths)
    except IndexBroken as exc:
        return Staleness(indexed=True, damaged=exc.detail)
    except IndexMissing:
        return Staleness(indexed=False)
    try:
        change = diff(root, config, reader, None)
        recapped = settings.recapped(paths, config, reader)
    except sqlite3.DatabaseError as exc:
        return Staleness(indexed=True, damaged=f"record store: {exc}")
    finally:
        reader.close()
    out = Staleness(indexed=True, deleted=change.deleted)
    for job in change.jobs:
        if job.path not in change.existing:
            out.added.append(job.path)
        elif not job.old_digest or not _same_content(root, job):
            # A kind whose content is not read: its stat is what is recorded.
            out.changed.append(job.path)
    out.changed = sorted({*out.changed, *(p for p in recapped if p not in out.deleted)})
    return out


def needs_update(root: Path, config: Config) -> bool:
    """Whether an update would write anything: a file added or deleted, one whose stat changed
    (even with the same content: the update records the new stat, so later checks need not read
    it again), or the settings of `unity-index.toml` that choose the files changed (git lists none
    of the files a new `exclude` covers). What a command answering from the index asks first; False
    when there is no readable index (the command builds or reports it). Looked for as an update
    does: among the paths git and the editor's journal name (without git's optional
    locks: a command runs beside the user's own git), else by a walk of the files' stats (0.4 s
    at 58,000 files). Also True when git could name them but the view the last update left it
    cannot (a rebuild's): an update that writes nothing else remembers one, and the checks after
    it cost a `git status` (0.16 s there)."""
    from indexer.changes import gitview, settings
    from indexer.changes.candidates import changed_candidates

    root = root.resolve()
    paths = IndexPaths(config.index_path(root))
    try:
        reader = Records(paths)
    except (IndexBroken, IndexMissing):
        return False
    try:
        listed, _, git_now = changed_candidates(root, paths, reader, git_locks=False)
        change = diff(root, config, reader, listed)
        if change.jobs or change.deleted or settings.differ(paths, config):
            return True
        return git_now is not None and not gitview.narrows(paths, git_now, reader.generation())
    except sqlite3.DatabaseError:
        return False
    finally:
        reader.close()


def stored_form(rel: str) -> str:
    """A path as watch, git or the editor name it (file system form: undecodable bytes as
    surrogate escapes) in the form the records use (`project.printable`); empty and `.` parts
    (`Assets//X.cs`, which a hand-edited journal may hold) dropped, as the file system reads them."""
    rel = rel.strip("/")
    if "//" in rel or "./" in rel:
        rel = "/".join(part for part in rel.split("/") if part not in ("", "."))
    if rel.isascii() and rel.isprintable() and "\\" not in rel:
        return rel
    return "/".join(printable(part) for part in rel.split("/"))


def _same_content(root: Path, job: Job) -> bool:
    data = read_project_file(root, job.path, job.max_bytes + 1)
    return data is not None and digest_of(data) == job.old_digest
