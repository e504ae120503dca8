"""The one writer per index."""

from __future__ import annotations

import errno
import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager

from indexer.store.schema import IndexPaths


class IndexBusy(Exception):
    """Another process holds the writer lock."""


@contextmanager
def writer_lock(paths: IndexPaths, wait: bool = False) -> Iterator[None]:
    """One writer per index. flock is released by the kernel when its holder dies, so a killed
    indexer never leaves the index locked."""
    paths.root.mkdir(parents=True, exist_ok=True)
    fd = os.open(paths.lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "unknown"
            if not wait:
                raise IndexBusy(
                    f"another unity-index process (pid {holder}) is updating the index at {paths.root}; "
                    "wait for it, or pass --wait"
                ) from None
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(fd)
