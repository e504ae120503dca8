"""Reading, hashing and scanning files, in worker processes when there is enough work to pay for
them. A worker never raises on a file: an unreadable one becomes a skipped record."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator

import msgspec

from indexer import scanners
from indexer.build import documents
from indexer.build.pool import MAX_CHUNK_FILES, MAX_SCANNERS, FileBudget, Pool
from indexer.changes.diff import UNREADABLE, Job
from indexer.files import digest_of, utf8_text
from indexer.model import FileRecord
from indexer.project import NotRead, read_inside
from indexer.store.codec import Dictionary, Packer
from indexer.store.rows import Prepared, packed, prepare, whole_record
from indexer.store.schema import is_searchable

# Below this much work a pool costs more than it saves.
PARALLEL_MIN_FILES = 200
PARALLEL_MIN_BYTES = 2_000_000
# Files are scanned in the indexer's own process, without a time or memory budget, only when
# they are few and small: any larger file goes to a scanner process (one at least).
UNBOUNDED_MAX_BYTES = 256_000


class Task(msgspec.Struct, array_like=True):
    """A chunk of files for a scanner process, with the blob dictionaries it was not sent yet."""

    dictionaries: list[Dictionary]
    jobs: list[Job]


class Result(msgspec.Struct, array_like=True):
    prepared: Prepared | None  # the file's rows (store.rows.prepare); None: content identical to old_digest
    digest: str
    seconds: tuple[float, float, float] = (0.0, 0.0, 0.0)  # read, scan, documents (WORKER_PHASES)
    # (documents: the search document, the SQL rows and deflating the blobs)
    out_of_memory: bool = False  # skipped as OUT_OF_MEMORY: a pool may scan it again alone

    @property
    def record(self) -> FileRecord | None:
        """The scanned record (decoded again: the indexer itself inserts `prepared` as it is);
        only of a run without dictionaries (`run_jobs`), whose records are not deflated."""
        p = self.prepared
        if p is None:
            return None
        assert not p.record_packed, "a deflated record is read back through the store's codec"
        return whole_record(_record_decoder.decode(p.record), p.path, p.size, p.mtime_ns, p.digest)


def _result(rec: FileRecord, doc: dict[str, str] | None, digest: str, seconds=(0.0, 0.0, 0.0)) -> Result:
    return Result(prepare(rec, doc), digest, seconds)


def _skipped(job: Job, note: str) -> Result:
    rec = FileRecord(path=job.path, kind=job.kind, status="skipped", note=note, size=job.size, mtime_ns=job.mtime_ns)
    return _result(rec, documents.build(rec, "") if is_searchable(job.kind) else None, "")


def process(job: Job, packer: Packer | None = None) -> Result:
    """Read, hash and scan one file; its blobs are deflated when `packer` has their dictionaries."""
    path, kind = job.path, job.kind
    if job.skip:  # rel-corrupt: odd names, links, pipes (decided from the walk's lstat)
        return _skipped(job, job.skip)
    if job.size > job.max_bytes:
        return _skipped(job, _too_large(job.size, job.max_bytes))
    if not scanners.reads_content(kind):
        return _result(FileRecord(path=path, kind=kind, size=job.size, mtime_ns=job.mtime_ns), None, "")
    t0 = time.process_time()
    try:  # a link or a pipe may have taken the walked file's place since
        data = read_inside(job.root, path, job.max_bytes + 1)
    except NotRead as exc:
        return _skipped(job, exc.strerror)
    except OSError as exc:
        return _skipped(job, f"{UNREADABLE}{exc.strerror or exc}")
    if len(data) > job.max_bytes:  # grown past the cap since the walk (a log written meanwhile)
        return _skipped(job, _too_large(len(data), job.max_bytes, "at least "))
    digest = digest_of(data)
    t1 = time.process_time()
    if digest == job.old_digest:
        return Result(None, digest, (t1 - t0, 0.0, 0.0))
    data = utf8_text(data)  # (the digest is of the file's own bytes)
    rec = msgspec.structs.replace(scanners.scan(path, kind, data), digest=digest, size=job.size, mtime_ns=job.mtime_ns)
    t2 = time.process_time()
    doc = None
    if is_searchable(kind):
        text = "" if rec.status == "skipped" else documents.document_text(rec.kind, data)
        doc = documents.build(rec, text)
    prepared = prepare(rec, doc)
    if packer is not None:
        prepared = packed(prepared, packer)
    return Result(prepared, digest, (t1 - t0, t2 - t1, time.process_time() - t2))


def _too_large(size: int, cap: int, bound: str = "") -> str:
    """Why a file over the size cap is not read (`bound`: "at least " when only that much was read)."""
    mb = 1024 * 1024
    return f"too large: {bound}{size / mb:.1f} MB, over the {cap / mb:.3g} MB cap (max_file_mb)"


OUT_OF_MEMORY = "scanning needed more memory than a scanner may use: stopped"


def process_bounded(job: Job, packer: Packer | None = None) -> Result:
    """`process`, with a file that runs out of memory recorded as skipped: the scanners let
    MemoryError through so that the record says this, not "scanner error: MemoryError". In a
    scanner process the limit is `FileBudget.memory_mb`; in the indexer's own (few small files)
    only the machine's memory bounds it. Other exceptions are bugs of the worker and propagate.
    The skipped record is made after the `except` block: inside it the error's traceback still
    holds the scan's frames, so the memory is still spent and making the record failed too."""
    try:
        return process(job, packer)
    except MemoryError:
        pass
    return msgspec.structs.replace(_skipped(job, OUT_OF_MEMORY), out_of_memory=True)


_record_decoder = msgspec.msgpack.Decoder(FileRecord)
_task_encoder = msgspec.msgpack.Encoder()
_task_decoder = msgspec.msgpack.Decoder(Task)
_result_encoder = msgspec.msgpack.Encoder()
_result_decoder = msgspec.msgpack.Decoder(Result)


def serve(conn) -> None:
    """A worker's loop: a chunk of jobs in, one result out per job as it is done (the parent
    knows which file a worker is on, to stop it there). Ends on EOF: the parent closed or died.
    The dictionaries of each chunk are kept for the chunks after it."""
    packer = Packer()
    while True:
        try:
            blob = conn.recv_bytes()
        except (EOFError, OSError):
            return
        if not blob:
            return
        task = _task_decoder.decode(blob)
        for d in task.dictionaries:
            packer.add(d)
        for job in task.jobs:
            result = process_bounded(job, packer)
            try:
                conn.send_bytes(_result_encoder.encode(result))
            except OSError:
                return


def _encoder(dictionaries: Callable[[], list[Dictionary]]) -> Callable[[list[Job], set], bytes]:
    """Encodes a chunk for a scanner process with the dictionaries it has not been sent
    (`sent`: the ids sent to that process so far; a dictionary never changes once made)."""

    def encode(jobs: list[Job], sent: set) -> bytes:
        new = [d for d in dictionaries() if d.id not in sent]
        sent.update(d.id for d in new)
        return _task_encoder.encode(Task(new, jobs))

    return encode


def _chunks(jobs: list[Job], target_bytes: int = 400_000) -> Iterator[list[tuple[int, Job]]]:
    chunk: list[tuple[int, Job]] = []
    size = 0
    for i, j in enumerate(jobs):
        chunk.append((i, j))
        size += min(j.size, j.max_bytes)
        if size >= target_bytes or len(chunk) >= MAX_CHUNK_FILES:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


def run_jobs(
    jobs: list[Job],
    workers: int,
    budget: FileBudget | None = None,
    dictionaries: Callable[[], list[Dictionary]] | None = None,
) -> Iterator[Result]:
    """Each job's result, in order. In scanner processes (`pool`) when there is enough work or a
    large file; each file then has a time and memory budget, and one over it is recorded as
    skipped with the reason. `dictionaries()`: the blob dictionaries known when a chunk is sent
    (store/codec.py); a scanner process deflates the blobs of their groups."""
    sizes = [min(j.size, j.max_bytes) for j in jobs]
    few = len(jobs) < PARALLEL_MIN_FILES and sum(sizes) < PARALLEL_MIN_BYTES
    if few and max(sizes, default=0) < UNBOUNDED_MAX_BYTES:
        for j in jobs:
            yield process_bounded(j)
        return
    workers = max(1, min(workers, MAX_SCANNERS))
    budget = budget or FileBudget.for_scanners(workers)
    pool = Pool(workers, budget, f"{__name__}.serve", _encoder(dictionaries or list))
    try:
        done: dict[int, Result] = {}
        next_index = 0
        results = pool.run(deque(_chunks(jobs)), _result_decoder.decode, _skipped, lambda r: r.out_of_memory)
        for index, result in results:
            done[index] = result
            while next_index in done:
                yield done.pop(next_index)
                next_index += 1
    finally:
        pool.close()
