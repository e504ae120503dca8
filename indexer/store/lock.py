"""The one writer per index: an OS lock on `write.lock`, held by the writing process alone.

flock (POSIX) and msvcrt.locking (Windows) are released by the OS when their holder dies, so a
killed indexer never leaves the index locked, provided no other process shares the descriptor:
it is opened close-on-exec and non-inheritable, and scanner processes are started by
`forkserver`/`spawn` (`build/pool.py`), never forked from the holder. Waiting for another writer
polls a non-blocking attempt, so every wait has a deadline and Ctrl-C ends it at once.
The platform modules (fcntl, msvcrt) are imported where used, never at import time.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the CLI reads DEFAULT_WAIT while parsing: nothing heavy at import
    from pathlib import Path

    from indexer.store.schema import IndexPaths

DEFAULT_WAIT = 300.0  # `index` and a first build wait this long for another writer by default
POLL_SECONDS = 0.1
MSVCRT_OFFSET = 1 << 20  # the byte locked on Windows: away from the pid (a locked range cannot be read)


class IndexBusy(Exception):
    """Another process holds the writer lock (past the wait allowed)."""

    def __init__(self, message: str, holder: int | None = None):
        super().__init__(message)
        self.holder = holder


def lock_backend(platform: str) -> str:
    """The OS lock for a `sys.platform` value."""
    return "msvcrt" if platform == "win32" else "flock"


def open_flags(platform: str) -> int:
    """Flags of the lock file's descriptor: never passed to a program the holder starts, and on
    POSIX never opened through a symbolic link (`_open_lock`)."""
    flags = os.O_RDWR | os.O_CREAT
    if platform == "win32":
        return flags | getattr(os, "O_NOINHERIT", 0)
    return flags | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)


def _open_lock(path: Path) -> int:
    """The lock file's descriptor. A link in its place (planted in a project from elsewhere:
    `write.lock -> ~/.bashrc`) is removed, not followed: the holder truncates the file and writes
    its pid there. So is any other entry that is no regular file (a FIFO, a socket, a device
    node), which cannot be truncated ("Invalid argument") and may block or act when opened; a
    folder is left for the error that names it."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        path.unlink()
    fd = os.open(path, open_flags(sys.platform), 0o644)
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # put there between the two calls
        os.close(fd)
        raise OSError(errno.EINVAL, "the writer lock is not a regular file", str(path))
    return fd


def _try_lock(fd: int, backend: str) -> bool:
    if backend == "flock":
        import fcntl

        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return False
            raise
        return True
    import msvcrt

    os.lseek(fd, MSVCRT_OFFSET, os.SEEK_SET)
    try:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
    except OSError:
        return False
    return True


def _unlock(fd: int, backend: str) -> None:
    if backend == "msvcrt":  # closing the descriptor releases flock; msvcrt wants it said
        import msvcrt

        os.lseek(fd, MSVCRT_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]


def _holder(fd: int) -> int | None:
    os.lseek(fd, 0, os.SEEK_SET)
    text = os.read(fd, 32).decode(errors="replace").strip()
    return int(text) if text.isdigit() else None


def busy_message(paths: IndexPaths, holder: int | None, alive: bool, stopped: bool = False) -> str:
    """Who holds the lock, said as what to do: wait, or resume a writer suspended (`stopped`)."""
    who = f"unity-index process {holder}" if holder else "another unity-index process"
    if holder and not alive:  # only a process that inherited the descriptor can hold it now
        who = f"a process left behind by unity-index process {holder}, which has ended,"
    from indexer.project import printable_path  # shown as file names are: it reaches the terminal

    where = printable_path(paths.root)
    if holder and alive and stopped:
        from indexer.changes.processes import SUSPENDED, resuming

        return f"{who} is {SUSPENDED} while updating the index at {where}: resume it ({resuming(holder)}) or end it"
    return f"{who} is updating the index at {where}"


@contextmanager
def writer_lock(paths: IndexPaths, wait: float = 0.0, on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the index's writer lock. Another writer holding it: wait up to `wait` seconds
    (`on_wait(message)` once, when waiting starts), then IndexBusy; at once when that writer is
    suspended (Ctrl-Z), which goes on only once resumed: `index` waited its 300 s out."""
    from indexer.changes.processes import pid_alive, pid_stopped

    paths.root.mkdir(parents=True, exist_ok=True)
    backend = lock_backend(sys.platform)
    fd = _open_lock(paths.lock)
    try:
        deadline = time.monotonic() + wait
        told = False
        while not _try_lock(fd, backend):
            holder = _holder(fd)
            alive = bool(holder) and pid_alive(holder or 0)
            stopped = alive and pid_stopped(holder or 0)
            message = busy_message(paths, holder, alive, stopped)
            if time.monotonic() >= deadline or stopped:  # a suspended writer goes on only once resumed
                raise IndexBusy(message, holder)
            if on_wait is not None and not told:
                on_wait(message)
                told = True
            time.sleep(POLL_SECONDS)
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, str(os.getpid()).encode())
        try:
            yield
        finally:
            _unlock(fd, backend)
    finally:
        os.close(fd)
