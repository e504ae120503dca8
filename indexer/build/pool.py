"""Scanner processes that never outlive the indexer, never hold its lock, and never spend more
than a budget of time or memory on one file.

Why not `ProcessPoolExecutor`: forked workers inherit the writer lock's descriptor, and when the
indexer is killed they block on its dead pipes forever, holding the lock; a worker that dies
breaks the whole pool; and its shutdown waits for every queued chunk after Ctrl-C. Here each
worker has a pipe of its own (no other process holds its ends, so the parent's death is an EOF
or a broken pipe), is started by `forkserver` (POSIX) or `spawn` (Windows), which pass it no
descriptor but that pipe, asks Linux to kill it with its parent (PR_SET_PDEATHSIG) and elsewhere
watches the parent's pid, and ignores SIGINT, SIGTERM and SIGHUP (Ctrl-C, a service manager's
SIGTERM and a closed terminal's SIGHUP reach the whole process group; the indexer alone decides:
they are blocked in the fork server it is forked from, and SIGINT ignored besides). The parent gives each file
`FileBudget.seconds` before it kills the worker, records the file as skipped and sends the rest
of the chunk to a new worker; on POSIX a worker's address space is limited (RLIMIT_AS) to
`FileBudget.memory_mb`, so a file that needs more fails alone the same way (after one more try
by a process alone with `FileBudget.alone_mb`, when that is more).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec

from indexer.changes.diff import Job

MB = 1024 * 1024
MAX_CHUNK_FILES = 64
WINDOW_CHUNKS = 4  # chunks a worker may run ahead of the first unfinished file (bounds the buffer)
START_SECONDS = 60.0  # a worker that has not started by then will not (spawn imports everything)
PDEATHSIG_OPTION = 1  # PR_SET_PDEATHSIG, from <linux/prctl.h>
Encode = Callable[[list[Job], set], bytes]  # a chunk's jobs, what its process was sent -> message


# One index run stays under 1 GB: the indexer's own process (a 50 MB scene's record, tantivy's
# 64 MB writer heap: 320 MB measured, see docs/indexing.md) plus SCANNERS_MEMORY_MB shared by at
# most MAX_SCANNERS scanner processes, each limited to its share.
SCANNERS_MEMORY_MB = 640
MAX_SCANNERS = 4


class FileBudget(msgspec.Struct, frozen=True):
    seconds: float = 60.0  # per file, in a worker: scanners are linear, 50 MB take seconds
    memory_mb: int = 320  # per worker's address space (POSIX); 0: unlimited
    # A file over `memory_mb` is scanned again by one process alone with this much, once the
    # others are stopped (0, or not more than memory_mb: it is not).
    alone_mb: int = 0

    @classmethod
    def for_scanners(cls, n: int) -> FileBudget:
        """The budget of each of `n` scanner processes (n <= MAX_SCANNERS); a file over its share
        is scanned again alone with all of SCANNERS_MEMORY_MB."""
        return cls(memory_mb=SCANNERS_MEMORY_MB // max(1, n), alone_mb=SCANNERS_MEMORY_MB)


def start_method(platform: str) -> str:
    """`forkserver` on POSIX: workers forked from a clean server process started by exec, so they
    inherit nothing of the indexer (fork would copy the lock's descriptor and tantivy's threads);
    Windows has only `spawn`."""
    return "spawn" if platform == "win32" else "forkserver"


def parent_watch(platform: str) -> str:
    """How a worker dies with its parent: `pdeathsig` (the kernel kills it, Linux), else `poll`
    (a thread checks the parent's pid every second). Both also end on the pipe's EOF."""
    return "pdeathsig" if platform.startswith("linux") else "poll"


# -- in the worker ------------------------------------------------------------------------------


def worker_main(conn: Any, parent_pid: int, memory_mb: int, serve: str) -> None:
    """A worker process's body: guard, then `serve(conn)` (a dotted name: imported here, after
    the guards, so a spawned worker imports no more than it needs)."""
    import importlib
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent(parent_pid)
    _limit_memory(memory_mb)
    module, _, name = serve.rpartition(".")
    body = getattr(importlib.import_module(module), name)
    try:
        conn.send_bytes(b"ready")
    except OSError:  # the parent is gone or no longer wants it
        return
    try:
        body(conn)
    except BaseException:
        # At once, without unwinding: a worker that failed near its memory limit spent seconds
        # in multiprocessing's exit (freeing the scan's objects) while the parent waited for it.
        os._exit(1)


def _die_with_parent(parent_pid: int) -> None:
    from indexer.changes.processes import pid_alive

    ppid = os.getppid()
    if parent_watch(sys.platform) == "pdeathsig":
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PDEATHSIG_OPTION, int(signal.SIGKILL), 0, 0, 0)
    else:
        import threading

        threading.Thread(target=_watch_parent, args=(parent_pid, ppid), daemon=True).start()
    # The parent (or the fork server) may have died before the request above was made.
    if os.getppid() != ppid or not pid_alive(parent_pid):
        os._exit(1)


def _watch_parent(parent_pid: int, ppid: int) -> None:
    from indexer.changes.processes import pid_alive

    while True:
        time.sleep(1.0)
        if not pid_alive(parent_pid) or (os.name != "nt" and os.getppid() != ppid):
            os._exit(1)


def _limit_memory(memory_mb: int) -> None:
    if memory_mb <= 0 or sys.platform == "win32":
        return
    import resource

    limit = memory_mb * MB
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    with contextlib.suppress(ValueError, OSError):  # macOS refuses some limits: the time budget holds
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


# -- in the indexer -----------------------------------------------------------------------------


def _start_forkserver() -> None:
    """Start the fork server (and the resource tracker it starts) with SIGINT and SIGTERM blocked:
    the mask survives exec, so neither it nor the scanners forked from it see a Ctrl-C or a
    SIGTERM sent to the process group (one landing while the server imports the scanners would
    print its traceback; the server then ignores SIGINT itself). The indexer's own signal, or a
    time limit (`cli.indexing._TimeLimit`), falling in these milliseconds is kept and acted on
    once the server runs. Signal handlers belong to the main thread: started from another (the
    MCP server's watcher), it is not guarded; nor where threads cannot block signals (Windows,
    which has no fork server). Its socket goes in a folder a killed indexer does not leave
    behind (`scratch.claim`)."""
    import signal
    import threading
    from multiprocessing import forkserver

    from indexer.build import scratch

    scratch.claim()
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        _quietly(forkserver.ensure_running)
        return
    hangup = (signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ()  # a closed terminal's: reaches them all too
    guarded = (signal.SIGINT, signal.SIGTERM, *hangup)
    caught: list[int] = []
    old = {sig: signal.signal(sig, lambda signum, _frame: caught.append(signum)) for sig in guarded}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, set(guarded))
    try:
        _quietly(forkserver.ensure_running)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a pending signal is delivered: recorded
        for sig, handler in old.items():
            signal.signal(sig, handler)
    for sig in dict.fromkeys(caught):
        _deliver(sig, old[sig])


def _deliver(sig: int, handler: object) -> None:
    """Act on a signal caught while the fork server started, as the handler in place would have."""
    import signal

    if callable(handler):
        handler(sig, None)  # Python's SIGINT handler raises KeyboardInterrupt; the CLI's SIGTERM, Terminated
    elif handler == signal.SIG_DFL:
        signal.raise_signal(sig)


def _quietly(start: Callable[[], None]) -> None:
    """Start the fork server with its standard error on /dev/null: a scanner forked from it while
    the indexer is interrupted reads a closed pipe, and multiprocessing prints that child's
    traceback there. A scanner's own failures reach the indexer as results or as the way its
    process died (`_Worker.how_it_died`), never through standard error."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    saved = os.dup(2)
    try:
        os.dup2(devnull, 2)
        with _own_code_only():
            start()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


@contextlib.contextmanager
def _own_code_only() -> Iterator[None]:
    """The fork server is started as `python -c ...`, which puts the working directory first on
    its import path (and Python 3.11 does not apply the path multiprocessing passes it): run from
    a folder holding a package named `indexer`, every scanner would import and run that instead.
    Started with PYTHONSAFEPATH (no working directory) and the folder this `indexer` was imported
    from first on PYTHONPATH, the scanners run exactly the code of the process that forks them."""
    import indexer

    ours = os.path.dirname(os.path.dirname(os.path.abspath(indexer.__file__)))
    saved = {k: os.environ.get(k) for k in ("PYTHONSAFEPATH", "PYTHONPATH")}
    os.environ["PYTHONSAFEPATH"] = "1"
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (ours, saved["PYTHONPATH"]) if p)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


class _Worker:
    def __init__(self, ctx: Any, budget: FileBudget, serve: str) -> None:
        parent_end, child_end = ctx.Pipe(duplex=True)
        self.proc = ctx.Process(target=worker_main, args=(child_end, os.getpid(), budget.memory_mb, serve), daemon=True)
        self.proc.start()
        child_end.close()
        self.conn = parent_end
        self.ready = False
        self.started = time.monotonic()
        self.chunk: deque[tuple[int, Job]] = deque()
        self.since = 0.0  # when its current file was started
        self.sent: set = set()  # what `encode` sent this process that it keeps (see Pool)

    def send(self, chunk: Sequence[tuple[int, Job]], encode: Encode) -> None:
        self.chunk = deque(chunk)
        self.since = time.monotonic()
        self.conn.send_bytes(encode([j for _, j in chunk], self.sent))

    def stop(self) -> None:
        """Ends the process at once (its work is not wanted any more)."""
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()

    def how_it_died(self, memory_mb: int) -> str:
        """Why it ended; `memory_mb` (0: not said) when it may have run out, having started."""
        self.proc.join(1)
        code = self.proc.exitcode
        ended = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        how = "stopped answering" if code is None else f"ended with {ended}"
        limit = f", likely over the {memory_mb} MB a scanner may use" if memory_mb else ""
        return f"scanning stopped: the scanner process {how}{limit}"


# What a start failing three times most often is: a script of the user's own calling the indexer
# unguarded, which each scanner process imports again, so it indexes (and fails) in turn.
_UNGUARDED = (
    '; a script of your own that indexes must call it under `if __name__ == "__main__":`, since each '
    "scanner process imports that script (docs/decisions.md)"
)


class Pool:
    """Scans `(index, Job)` chunks in `n` workers; `lost(job, why)` makes the result of a file its
    worker did not finish. Results come back by index; the caller orders them. `encode(jobs,
    sent)` makes a chunk's message; `sent` is the worker's own set, empty for a new process, for
    the encoder to note what that process keeps from one chunk to the next.

    A file over a worker's share of memory (its process died, or `over_memory(result)` says the
    scan ran out) is scanned again alone when `budget.alone_mb` is more: no new chunk is sent,
    the workers finish theirs and stop, and one process with `alone_mb` scans it, so the
    processes together never have more than that."""

    def __init__(self, n: int, budget: FileBudget, serve: str, encode: Encode) -> None:
        import multiprocessing

        method = start_method(sys.platform)
        self.ctx = multiprocessing.get_context(method)
        if method == "forkserver":
            self.ctx.set_forkserver_preload([serve.rpartition(".")[0]])
            _start_forkserver()
        self.n, self.budget, self.serve, self.encode = n, budget, serve, encode
        self.workers: list[_Worker] = []
        self.failed_starts = 0
        self.alone: list[tuple[int, Job]] = []  # files to scan again alone (`alone_mb`)

    def _spawn(self) -> None:
        self.workers.append(_Worker(self.ctx, self.budget, self.serve))

    def close(self) -> None:
        workers, self.workers = self.workers, []
        for w in workers:
            w.stop()

    def run(
        self,
        chunks: deque[list[tuple[int, Job]]],
        decode: Callable[[bytes], Any],
        lost: Callable[[Job, str], Any],
        over_memory: Callable[[Any], bool] = lambda result: False,
    ) -> Iterator[tuple[int, Any]]:
        """(index, result) of every job, as they finish; chunks are sent in order."""
        from multiprocessing.connection import wait

        self.over_memory = over_memory
        while chunks or any(w.chunk for w in self.workers) or self.alone:
            if self.alone and not any(w.chunk for w in self.workers):
                yield from self._scan_alone(decode, lost)
            while len(self.workers) < min(self.n, len(chunks)):
                self._spawn()
            for w in self.workers:
                if w.ready and not w.chunk and chunks and not self.alone and self._in_window(chunks):
                    w.send(chunks.popleft(), self.encode)
            if not self.workers:
                continue
            ready = wait([w.conn for w in self.workers], timeout=self._next_deadline())
            for w in list(self.workers):
                if w.conn in ready:
                    yield from self._receive(w, chunks, decode, lost)
            yield from self._enforce_time(chunks, lost)

    def _scan_alone(self, decode: Callable[[bytes], Any], lost: Callable[[Job, str], Any]) -> Iterator[tuple[int, Any]]:
        """The files over a worker's share, each scanned by one process alone with `alone_mb`
        (the other workers are stopped first; new ones start for the chunks left)."""
        self.close()
        todo, self.alone = self.alone, []
        budget = msgspec.structs.replace(self.budget, memory_mb=self.budget.alone_mb, alone_mb=0)
        solo = Pool(1, budget, self.serve, self.encode)
        try:
            yield from solo.run(deque([item] for item in todo), decode, lost)
        finally:
            solo.close()

    def _may_go_alone(self) -> bool:
        return self.budget.alone_mb > self.budget.memory_mb > 0

    def _in_window(self, chunks: deque[list[tuple[int, Job]]]) -> bool:
        """Whether the next chunk may start: results past the first unfinished file wait in the
        caller's memory until it is done, so a slow file must not let the others run far ahead."""
        first = min((w.chunk[0][0] for w in self.workers if w.chunk), default=chunks[0][0][0])
        return chunks[0][0][0] - first <= WINDOW_CHUNKS * self.n * MAX_CHUNK_FILES

    def _next_deadline(self) -> float:
        now = time.monotonic()
        ends = [w.since + self.budget.seconds for w in self.workers if w.chunk]
        ends += [w.started + START_SECONDS for w in self.workers if not w.ready]
        return max(0.0, min(ends) - now) if ends else 1.0

    def _receive(self, w: _Worker, chunks: deque, decode: Callable, lost: Callable) -> Iterator[tuple[int, Any]]:
        try:
            blob = w.conn.recv_bytes()
        except (EOFError, OSError):
            yield from self._replace(w, chunks, lost, w.how_it_died(self.budget.memory_mb if w.ready else 0), died=True)
            return
        if not w.ready:
            w.ready = True
            return
        index, job = w.chunk.popleft()
        w.since = time.monotonic()
        result = decode(blob)
        if self._may_go_alone() and self.over_memory(result):
            self.alone.append((index, job))
            return
        yield index, result

    def _enforce_time(self, chunks: deque, lost: Callable) -> Iterator[tuple[int, Any]]:
        now = time.monotonic()
        for w in list(self.workers):
            if w.chunk and now - w.since > self.budget.seconds:
                why = f"scanning took over {self.budget.seconds:g} s, the time a scanner may take: stopped"
                yield from self._replace(w, chunks, lost, why)
            elif not w.ready and now - w.started > START_SECONDS:
                yield from self._replace(w, chunks, lost, "the scanner process did not start")

    def _replace(
        self, w: _Worker, chunks: deque, lost: Callable, why: str, died: bool = False
    ) -> Iterator[tuple[int, Any]]:
        """The worker is gone or must go: its current file is lost (or, when its process died, to
        be scanned again alone: `alone_mb`), the rest of its chunk goes first to the next free
        worker, and a new worker takes its place."""
        w.stop()
        self.workers.remove(w)
        if not w.ready:
            self.failed_starts += 1
            if self.failed_starts >= 3:
                raise RuntimeError(f"scanner processes fail to start ({why}){_UNGUARDED}")
        elif w.chunk:
            index, job = w.chunk.popleft()
            if died and self._may_go_alone():
                self.alone.append((index, job))
            else:
                yield index, lost(job, why)
            if w.chunk:
                chunks.appendleft(list(w.chunk))
        if chunks or any(x.chunk for x in self.workers):
            self._spawn()
