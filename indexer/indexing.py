"""Bringing the index up to date: walk, find what changed, scan it, write it, derive.

Change detection is by stat (size, mtime_ns) first and content hash second, so a touched but
unchanged file costs a read and a hash, never a rescan. Scanning runs in worker processes when
there is enough of it to pay for them.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import msgspec

from . import documents, scanners
from .config import Config
from .model import FileRecord
from .project import kind_of, walk
from .resolve import categorize
from .store import FileStat, IndexMissing, IndexPaths, Records, Writer, header_ok, read_header, writer_lock

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
    touched: int = 0  # stat changed, content identical: not rescanned
    skipped: int = 0  # files in the index recorded as skipped (all, not just this update)
    bytes_scanned: int = 0
    seconds: float = 0.0
    generation: int = 0


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


def update(
    root: Path,
    config: Config,
    *,
    full: bool = False,
    wait: bool = False,
    progress: Progress | None = None,
) -> UpdateStats:
    """Bring the index of the project at `root` up to date; returns what was done."""
    t0 = time.perf_counter()
    root = root.resolve()
    paths = IndexPaths(config.index_path(root))
    with writer_lock(paths, wait=wait):
        rebuild = full or not header_ok(paths)
        old: dict[str, FileStat] = {}
        if not rebuild:
            try:
                reader = Records(paths)
                old = reader.stats()
                reader.close()
            except (IndexMissing, sqlite3.DatabaseError):
                rebuild = True
        stats = UpdateStats(full=rebuild)
        current = dict(walk(root, config))
        jobs: list[_Job] = []
        for rel, st in current.items():
            prev = old.get(rel)
            if prev is not None and prev.size == st.st_size and prev.mtime_ns == st.st_mtime_ns:
                continue
            digest = prev.digest if prev else ""
            jobs.append(_Job(str(root), rel, kind_of(rel), st.st_size, st.st_mtime_ns, digest, config.max_file_bytes))
        deleted = [p for p in old if p not in current]
        if not jobs and not deleted and not rebuild:
            stats.files = len(old)
            stats.skipped = sum(1 for s in old.values() if s.status == "skipped")
            stats.generation = read_generation(paths)
            stats.seconds = time.perf_counter() - t0
            return stats

        # The pool forks before the writer exists: no tantivy threads or SQLite handles in workers.
        results = _run_jobs(jobs, config.workers or os.cpu_count() or 1)
        writer: Writer | None = None
        try:
            for done, (job, result) in enumerate(zip(jobs, results, strict=True), 1):
                if writer is None:
                    writer = Writer(paths, rebuild)
                if result.record is None:
                    writer.update_stat(job.path, job.size, job.mtime_ns)
                    stats.touched += 1
                else:
                    writer.put(result.record, result.doc)
                    stats.scanned += 1
                    stats.bytes_scanned += job.size if scanners.reads_content(job.kind) else 0
                    if job.path in old:
                        stats.changed += 1
                    else:
                        stats.added += 1
                if progress:
                    progress(done, len(jobs))
            if writer is None:
                writer = Writer(paths, rebuild)
            for p in deleted:
                writer.delete(p)
                stats.deleted += 1
            if writer.types_changed:
                writer.set_categories(categorize(writer.types()))
            stats.generation = writer.commit()
            counts = writer.count_by("status")
        except BaseException:
            if writer is not None:
                writer.rollback()
            raise
        finally:
            if writer is not None:
                writer.close()
        stats.files = sum(counts.values())
        stats.skipped = counts.get("skipped", 0)
        stats.seconds = time.perf_counter() - t0
        return stats


def read_generation(paths: IndexPaths) -> int:
    header = read_header(paths)
    return int(header.get("generation", 0)) if header else 0
