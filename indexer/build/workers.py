"""Reading, hashing and scanning files, in worker processes when there is enough work to pay for
them. A worker never raises on a file: an unreadable one becomes a skipped record."""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Iterable, Iterator

import msgspec

from indexer import scanners
from indexer.build import documents
from indexer.changes.diff import Job, digest_of
from indexer.model import FileRecord
from indexer.store.schema import is_searchable

# Below this much work a pool costs more than it saves.
PARALLEL_MIN_FILES = 200
PARALLEL_MIN_BYTES = 2_000_000


class Result(msgspec.Struct, array_like=True):
    record: FileRecord | None  # None: content identical to old_digest
    doc: dict[str, str] | None
    digest: str


def _skipped(job: Job, note: str) -> Result:
    rec = FileRecord(path=job.path, kind=job.kind, status="skipped", note=note, size=job.size, mtime_ns=job.mtime_ns)
    return Result(rec, documents.build(rec, "") if is_searchable(job.kind) else None, "")


def process(job: Job) -> Result:
    """Read, hash and scan one file."""
    path, kind = job.path, job.kind
    if job.size > job.max_bytes:
        mb = 1024 * 1024
        return _skipped(
            job, f"too large: {job.size / mb:.1f} MB, over the {job.max_bytes / mb:.3g} MB cap (max_file_mb)"
        )
    if not scanners.reads_content(kind):
        return Result(FileRecord(path=path, kind=kind, size=job.size, mtime_ns=job.mtime_ns), None, "")
    try:
        with open(os.path.join(job.root, path), "rb") as f:
            data = f.read()
    except OSError as exc:
        return _skipped(job, f"unreadable: {exc.strerror or exc}")
    digest = digest_of(data)
    if digest == job.old_digest:
        return Result(None, None, digest)
    rec = msgspec.structs.replace(scanners.scan(path, kind, data), digest=digest, size=job.size, mtime_ns=job.mtime_ns)
    doc = None
    if is_searchable(kind):
        text = "" if rec.status == "skipped" else data.decode("utf-8", errors="replace")
        doc = documents.build(rec, text)
    return Result(rec, doc, digest)


_chunk_encoder = msgspec.msgpack.Encoder()
_chunk_decoder = msgspec.msgpack.Decoder(list[Result])


def _process_chunk(jobs: list[Job]) -> bytes:
    return _chunk_encoder.encode([process(j) for j in jobs])


def _chunks(jobs: list[Job], target_bytes: int = 400_000, max_files: int = 64) -> Iterator[list[Job]]:
    chunk: list[Job] = []
    size = 0
    for j in jobs:
        chunk.append(j)
        size += min(j.size, j.max_bytes)
        if size >= target_bytes or len(chunk) >= max_files:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


def run_jobs(jobs: list[Job], workers: int) -> Iterable[Result]:
    """Each job's result, in order."""
    from concurrent.futures import ProcessPoolExecutor

    total_bytes = sum(min(j.size, j.max_bytes) for j in jobs)
    if workers <= 1 or (len(jobs) < PARALLEL_MIN_FILES and total_bytes < PARALLEL_MIN_BYTES):
        for j in jobs:
            yield process(j)
        return
    method = "fork" if sys.platform.startswith("linux") else "spawn"
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method)) as pool:
        for blob in pool.map(_process_chunk, _chunks(jobs)):
            yield from _chunk_decoder.decode(blob)
