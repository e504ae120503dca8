"""Bringing the index up to date: walk, find what changed, scan it, write it, derive.

Change detection is by stat (size, mtime_ns) first and content hash second, so a touched but
unchanged file costs a read and a hash, never a rescan. Scanning runs in worker processes when
there is enough of it to pay for them.
"""

from __future__ import annotations

import fnmatch
import hashlib
import multiprocessing
import os
import sqlite3
import stat as statmode
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import msgspec

from indexer import scanners
from indexer.build import documents
from indexer.build.adjacency import refresh_edges
from indexer.build.roles import categorize
from indexer.changes import gitview, journal
from indexer.config import Config
from indexer.model import FileRecord
from indexer.project import CONTENT_ROOTS, PACKAGE_CACHE, _ignored_name, kind_of, walk
from indexer.store import FileStat, IndexMissing, IndexPaths, Records, Writer, header_generation, header_ok, writer_lock

Progress = Callable[[int, int], None]

# Below this much work a pool costs more than it saves.
PARALLEL_MIN_FILES = 200
PARALLEL_MIN_BYTES = 2_000_000


class UpdateStats(msgspec.Struct):
    full: bool
    files: int = 0  # files in the project after the update
    scanned: int = 0  # files read and scanned
    added: int = 0
    changed: int = 0
    deleted: int = 0
    moved: int = 0  # deleted + added with the same content: the record moved, not rescanned
    touched: int = 0  # stat changed, content identical: not rescanned
    skipped: int = 0  # files in the index recorded as skipped (all, not just this update)
    bytes_scanned: int = 0
    seconds: float = 0.0
    generation: int = 0
    walked: bool = True  # False: only the paths given (watch mode) or journaled were looked at


class _Job(msgspec.Struct, array_like=True):
    root: str
    path: str
    kind: str
    size: int
    mtime_ns: int
    old_digest: str
    max_bytes: int


class _Result(msgspec.Struct, array_like=True):
    record: FileRecord | None  # None: content identical to old_digest
    doc: dict[str, str] | None
    digest: str


def digest_of(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _process(job: _Job) -> _Result:
    """Read, hash and scan one file. Never raises: an unreadable file is a skipped record."""
    path, kind = job.path, job.kind
    stat = {"size": job.size, "mtime_ns": job.mtime_ns}
    if job.size > job.max_bytes:
        mb = 1024 * 1024
        note = f"too large: {job.size / mb:.1f} MB, over the {job.max_bytes / mb:.3g} MB cap (max_file_mb)"
        rec = FileRecord(path=path, kind=kind, status="skipped", note=note, **stat)
        return _Result(rec, documents.build(rec, "") if documents.is_searchable(kind) else None, "")
    if not scanners.reads_content(kind):
        rec = FileRecord(path=path, kind=kind, **stat)
        return _Result(rec, None, "")
    try:
        with open(os.path.join(job.root, path), "rb") as f:
            data = f.read()
    except OSError as exc:
        rec = FileRecord(path=path, kind=kind, status="skipped", note=f"unreadable: {exc.strerror or exc}", **stat)
        return _Result(rec, documents.build(rec, "") if documents.is_searchable(kind) else None, "")
    digest = digest_of(data)
    if digest == job.old_digest:
        return _Result(None, None, digest)
    rec = msgspec.structs.replace(scanners.scan(path, kind, data), digest=digest, **stat)
    doc = None
    if documents.is_searchable(kind):
        text = "" if rec.status == "skipped" else data.decode("utf-8", errors="replace")
        doc = documents.build(rec, text)
    return _Result(rec, doc, digest)


def _process_chunk(jobs: list[_Job]) -> bytes:
    return _chunk_encoder.encode([_process(j) for j in jobs])


_chunk_encoder = msgspec.msgpack.Encoder()
_chunk_decoder = msgspec.msgpack.Decoder(list[_Result])


def _chunks(jobs: list[_Job], target_bytes: int = 400_000, max_files: int = 64) -> Iterator[list[_Job]]:
    chunk: list[_Job] = []
    size = 0
    for j in jobs:
        chunk.append(j)
        size += min(j.size, j.max_bytes)
        if size >= target_bytes or len(chunk) >= max_files:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


def _run_jobs(jobs: list[_Job], workers: int) -> Iterable[_Result]:
    total_bytes = sum(min(j.size, j.max_bytes) for j in jobs)
    if workers <= 1 or (len(jobs) < PARALLEL_MIN_FILES and total_bytes < PARALLEL_MIN_BYTES):
        for j in jobs:
            yield _process(j)
        return
    method = "fork" if sys.platform.startswith("linux") else "spawn"
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method)) as pool:
        for blob in pool.map(_process_chunk, _chunks(jobs)):
            yield from _chunk_decoder.decode(blob)


def included(rel: str, root: Path, config: Config) -> bool:
    """Whether the walk would list the project-relative file path `rel` (same rules as `walk`)."""
    tops = (*CONTENT_ROOTS, PACKAGE_CACHE) if config.include_package_cache else CONTENT_ROOTS
    top = next((t for t in tops if rel.startswith(t + "/")), None)
    if top is None:
        return False
    index_dir = config.index_path(root)
    index_rel = index_dir.relative_to(root).as_posix() if index_dir.is_relative_to(root) else None
    parts = rel.split("/")
    for i in range(top.count("/") + 1, len(parts)):
        prefix = "/".join(parts[: i + 1])
        if _ignored_name(parts[i]) or prefix == index_rel:
            return False
        if config.exclude and any(fnmatch.fnmatchcase(prefix, pat) for pat in config.exclude):
            return False
    return True


def _stat_listed(root: Path, config: Config, listed: Iterable[str]) -> dict[str, os.stat_result] | None:
    """Stats of the listed project files (with their .meta); None when a folder is involved."""
    wanted: set[str] = set()
    for rel in listed:
        rel = rel.replace("\\", "/").strip("/")
        if not rel:
            continue
        wanted.add(rel)
        wanted.add(rel[:-5] if rel.endswith(".meta") else rel + ".meta")
    current: dict[str, os.stat_result] = {}
    for rel in sorted(wanted):
        try:
            st = os.lstat(root / rel)
        except OSError:
            continue
        if statmode.S_ISDIR(st.st_mode):
            return None
        if statmode.S_ISREG(st.st_mode) and included(rel, root, config):
            current[rel] = st
    return current


class Change(msgspec.Struct):
    """How the files on disk differ from the records."""

    jobs: list[_Job]
    deleted: list[str]
    walked: bool
    existing: set[str]  # paths of jobs that have a record (changed, not added)


def _diff(root: Path, config: Config, reader: Records | None, listed: Iterable[str] | None) -> Change:
    """Added, changed (by stat) and deleted files: over the listed paths if possible, else a walk."""
    current = None
    old: dict[str, FileStat] = {}
    if listed is not None and reader is not None:
        listed = list(listed)
        current = _stat_listed(root, config, listed)
        if current is not None:
            gone = [p for p in listed if p not in current and not p.endswith(".meta")]
            if any(reader.has_folder(p) for p in gone):
                current = None  # a deleted or moved folder: its files are not listed
        if current is not None:
            keys = {*current, *listed, *(p + ".meta" for p in listed)}
            old = reader.stats_of(keys)
    walked = current is None
    if current is None:
        current = dict(walk(root, config))
        old = reader.stats() if reader is not None else {}
    jobs: list[_Job] = []
    for rel, st in current.items():
        prev = old.get(rel)
        if prev is not None and prev.size == st.st_size and prev.mtime_ns == st.st_mtime_ns:
            continue
        digest = prev.digest if prev else ""
        jobs.append(_Job(str(root), rel, kind_of(rel), st.st_size, st.st_mtime_ns, digest, config.max_file_bytes))
    deleted = sorted(p for p in old if p not in current)
    return Change(jobs, deleted, walked, {j.path for j in jobs if j.path in old})


class Staleness(msgspec.Struct):
    indexed: bool
    added: list[str] = []
    changed: list[str] = []
    deleted: list[str] = []

    @property
    def stale(self) -> bool:
        return not self.indexed or bool(self.added or self.changed or self.deleted)


def check(root: Path, config: Config) -> Staleness:
    """What an update would change, without writing anything; a touched file whose content hash
    is unchanged does not count."""
    root = root.resolve()
    paths = IndexPaths(config.index_path(root))
    try:
        reader = Records(paths)
    except (IndexMissing, sqlite3.DatabaseError):
        return Staleness(indexed=False)
    try:
        change = _diff(root, config, reader, None)
    except sqlite3.DatabaseError:
        return Staleness(indexed=False)
    finally:
        reader.close()
    out = Staleness(indexed=True, deleted=change.deleted)
    for job in change.jobs:
        if job.path not in change.existing:
            out.added.append(job.path)
            continue
        if not job.old_digest:  # a kind whose content is not read: its stat is what is recorded
            out.changed.append(job.path)
            continue
        try:
            same = digest_of((root / job.path).read_bytes()) == job.old_digest
        except OSError:
            same = False
        if not same:
            out.changed.append(job.path)
    return out


def update(
    root: Path,
    config: Config,
    *,
    full: bool = False,
    wait: bool = False,
    progress: Progress | None = None,
    paths: Iterable[str] | None = None,
    use_journal: bool = True,
    use_git: bool = True,
) -> UpdateStats:
    """Bring the index of the project at `root` up to date; returns what was done.

    `paths`: project-relative paths known to have changed (watch mode); only those (and their
    .meta) are looked at, unless a folder is involved, then the project is walked. Without
    `paths`, the editor's change journal is used in the same way when it is continuous, else
    git's change detection (`gitview`) when the project is in a git work tree.
    """
    t0 = time.perf_counter()
    root = root.resolve()
    ipaths = IndexPaths(config.index_path(root))
    with writer_lock(ipaths, wait=wait):
        rebuild = full or not header_ok(ipaths)
        reader: Records | None = None
        if not rebuild:
            try:
                reader = Records(ipaths)
                reader.generation()
            except (IndexMissing, sqlite3.DatabaseError):
                rebuild = True
                reader = None
        jread = None
        if use_journal and paths is None:
            jread = journal.read_journal(journal.journal_path(root), journal.load_position(ipaths))
            if jread.continuous and journal.editor_running(root):
                paths = jread.paths
        generation_before = reader.generation() if reader is not None else -1
        git_now = None  # git's answer before looking at the files, when git does the finding
        if use_git and paths is None:
            git_now = gitview.status(root)
            if git_now is not None and reader is not None:
                paths = gitview.candidates(root, ipaths, git_now, generation_before)
        try:
            change = _diff(root, config, reader, None if rebuild else paths)
            old_records = _move_sources(reader, change)
        except sqlite3.DatabaseError:
            rebuild, reader = True, None
            change, old_records = _diff(root, config, None, None), {}
        finally:
            if reader is not None:
                reader.close()
        stats = UpdateStats(full=rebuild, walked=change.walked)
        jobs, deleted = change.jobs, change.deleted
        if not jobs and not deleted and not rebuild:
            _remember(ipaths, jread)
            reader = Records(ipaths)
            counts = reader.count_by("status")
            reader.close()
            stats.files = sum(counts.values())
            stats.skipped = counts.get("skipped", 0)
            stats.generation = header_generation(ipaths)
            _remember_git(root, ipaths, change, git_now, set(), generation_before, stats.generation, use_git)
            stats.seconds = time.perf_counter() - t0
            return stats

        moves = _find_moves(root, jobs, deleted, old_records)
        if moves:
            jobs = [j for j in jobs if j.path not in moves]
            deleted = [p for p in deleted if p not in {m[0] for m in moves.values()}]
        # The pool forks before the writer exists: no tantivy threads or SQLite handles in workers.
        results = _run_jobs(jobs, config.workers or os.cpu_count() or 1)
        writer: Writer | None = None
        try:
            for done, (job, result) in enumerate(zip(jobs, results, strict=True), 1):
                if writer is None:
                    writer = Writer(ipaths, rebuild)
                if result.record is None:
                    writer.update_stat(job.path, job.size, job.mtime_ns)
                    stats.touched += 1
                else:
                    writer.put(result.record, result.doc)
                    stats.scanned += 1
                    stats.bytes_scanned += job.size if scanners.reads_content(job.kind) else 0
                    if job.path in change.existing:
                        stats.changed += 1
                    else:
                        stats.added += 1
                if progress:
                    progress(done, len(jobs))
            if writer is None:
                writer = Writer(ipaths, rebuild)
            for old_path, rec, doc in moves.values():
                writer.delete(old_path)
                writer.put(rec, doc)
                stats.moved += 1
            for p in deleted:
                writer.delete(p)
                stats.deleted += 1
            if writer.types_changed:
                writer.set_categories(categorize(writer.types()))
            refresh_edges(writer, root)
            stats.generation = writer.commit()
            counts = writer.count_by("status")
        except BaseException:
            if writer is not None:
                writer.rollback()
            raise
        finally:
            if writer is not None:
                writer.close()
        _remember(ipaths, jread)
        rewritten = {j.path for j in jobs} | set(deleted) | set(moves) | {old for old, _, _ in moves.values()}
        _remember_git(root, ipaths, change, git_now, rewritten, generation_before, stats.generation, use_git)
        stats.files = sum(counts.values())
        stats.skipped = counts.get("skipped", 0)
        stats.seconds = time.perf_counter() - t0
        return stats


def _remember_git(
    root: Path,
    ipaths: IndexPaths,
    change: Change,
    git_now: gitview.GitStatus | None,
    rewritten: set[str],
    before: int,
    generation: int,
    use_git: bool,
) -> None:
    """Save git's view of the generation just written, for the next update to start from.

    After a walk git is asked again, and what was dirty before or after counts: a file edited or
    restored while the walk ran is looked at next time. An update of given paths (watch, the
    editor journal) carries the previous view forward with those paths added."""
    if not use_git or (change.walked and git_now is None):
        return  # a walk nobody asked git about first: the next update walks again
    if change.walked:
        after = gitview.status(root)
        if after is not None and git_now is not None:
            after.dirty = sorted({*after.dirty, *git_now.dirty})
        git_now = after
    if git_now is not None:
        gitview.remember(ipaths, git_now, rewritten, generation)
    elif generation != before:
        gitview.carry(ipaths, rewritten, before, generation)


def _remember(ipaths: IndexPaths, jread: journal.JournalRead | None) -> None:
    """Store the journal position once its changes (or a walk covering them) are committed."""
    if jread is not None and jread.end is not None and jread.end != journal.load_position(ipaths):
        journal.save_position(ipaths, jread.end)


# Kinds whose scan result depends on the content only (not on the path beyond `record.path`),
# so a file moved unchanged keeps its record.
_PATH_DEPENDENT_KINDS = frozenset({"json", "settings"})


def _move_sources(reader: Records | None, change: Change) -> dict[str, FileRecord]:
    """Records of deleted files that an added file of the same kind and size may have moved from."""
    if reader is None or not change.deleted:
        return {}
    added = {(j.kind, j.size) for j in change.jobs if not j.old_digest}
    out: dict[str, FileRecord] = {}
    for p in change.deleted:
        rec = reader.record(p)
        if rec is not None and rec.digest and (rec.kind, rec.size) in added and rec.kind not in _PATH_DEPENDENT_KINDS:
            out[p] = rec
    return out


def _find_moves(
    root: Path, jobs: list[_Job], deleted: list[str], sources: dict[str, FileRecord]
) -> dict[str, tuple[str, FileRecord, dict[str, str] | None]]:
    """Added files whose content hash equals a deleted file's: new path -> (old path, record, doc)."""
    if not sources:
        return {}
    by_digest: dict[tuple[str, str], list[str]] = {}
    for p, rec in sources.items():
        by_digest.setdefault((rec.kind, rec.digest), []).append(p)
    sizes = {(r.kind, r.size) for r in sources.values()}
    moves: dict[str, tuple[str, FileRecord, dict[str, str] | None]] = {}
    for job in jobs:
        if job.old_digest or (job.kind, job.size) not in sizes or job.size > job.max_bytes:
            continue
        try:
            data = (root / job.path).read_bytes()
        except OSError:
            continue
        candidates = by_digest.get((job.kind, digest_of(data)))
        if not candidates:
            continue
        old_path = candidates.pop(0)
        rec = msgspec.structs.replace(sources[old_path], path=job.path, size=job.size, mtime_ns=job.mtime_ns)
        doc = None
        if documents.is_searchable(job.kind):
            doc = documents.build(rec, "" if rec.status == "skipped" else data.decode("utf-8", errors="replace"))
        moves[job.path] = (old_path, rec, doc)
    return moves
