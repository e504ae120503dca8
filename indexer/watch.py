"""`unity-index watch`: keep the index current from file-system events.

A watchdog observer on the project's content folders collects changed paths; once events have
been quiet for `QUIET_SECONDS` (or `MAX_BATCH_SECONDS` after the first), the batch is applied with
`update(paths=...)`, which only stats those paths. Folder events (a folder created, moved or
deleted: its files are not listed one by one) make the batch a full walk instead. An atomic save
(temp file + rename) arrives as a move whose destination is the saved file.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    FileClosedEvent,
    FileClosedNoWriteEvent,
    FileOpenedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver

from .config import Config
from .indexing import UpdateStats, update
from .project import CONTENT_ROOTS, PACKAGE_CACHE

QUIET_SECONDS = 0.1
MAX_BATCH_SECONDS = 1.0
WALK = "\0walk"  # marker: the batch needs a full walk


class Collector(FileSystemEventHandler):
    """Project-relative paths of file events since the last `take` (`WALK`: a folder changed).

    `pending`, `first` and `last` are read and written under `lock`; `wake` is set on every event."""

    def __init__(self, root: Path):
        self.root = str(root)
        self.lock = threading.Lock()
        self.pending: set[str] = set()
        self.first = 0.0
        self.last = 0.0
        self.wake = threading.Event()

    def _rel(self, path: str | bytes) -> str | None:
        p = path.decode() if isinstance(path, bytes) else path
        if not p.startswith(self.root + "/"):
            return None
        return p[len(self.root) + 1 :]

    def on_any_event(self, event: FileSystemEvent) -> None:
        if isinstance(event, FileOpenedEvent | FileClosedNoWriteEvent) or event.event_type == "opened":
            return
        found: list[str] = []
        if isinstance(event, DirMovedEvent | DirDeletedEvent | DirCreatedEvent):
            found.append(WALK)
        elif event.is_directory:
            return  # a folder's own modification: its files report themselves
        else:
            for p in (event.src_path, getattr(event, "dest_path", "")):
                rel = self._rel(p) if p else None
                if rel:
                    found.append(rel)
        if isinstance(event, FileClosedEvent) and not found:
            return
        if not found:
            return
        now = time.monotonic()
        with self.lock:
            if not self.pending:
                self.first = now
            self.pending.update(found)
            self.last = now
        self.wake.set()

    def take(self, stop: threading.Event) -> set[str] | None:
        """The next quiet batch, or None once `stop` is set."""
        while not stop.is_set():
            self.wake.wait(0.5)
            with self.lock:
                if not self.pending:
                    self.wake.clear()
                    continue
                now = time.monotonic()
                if now - self.last >= QUIET_SECONDS or now - self.first >= MAX_BATCH_SECONDS:
                    batch, self.pending = self.pending, set()
                    self.wake.clear()
                    return batch
            time.sleep(QUIET_SECONDS / 4)
        return None


def start_observer(root: Path, config: Config, handler: FileSystemEventHandler) -> BaseObserver:
    """A started observer delivering the project's content folders' events to `handler`.

    Raises OSError when the OS refuses (inotify watch or instance limit reached)."""
    observer = Observer()
    tops = (*CONTENT_ROOTS, PACKAGE_CACHE) if config.include_package_cache else CONTENT_ROOTS
    for top in tops:
        if (root / top).is_dir():
            observer.schedule(handler, str(root / top), recursive=True)
    try:
        observer.start()
    except BaseException:
        observer.stop()
        raise
    return observer


def batch_paths(batch: set[str]) -> list[str] | None:
    """The paths to pass to `update(paths=...)`: None when the batch needs a full walk."""
    return None if WALK in batch else sorted(batch)


def watch(
    root: Path,
    config: Config,
    on_batch: Callable[[UpdateStats, int], None],
    stop: threading.Event,
    ready: Callable[[], None] | None = None,
) -> None:
    """Watch `root` until `stop` is set; `on_batch(stats, paths_in_batch)` after every applied batch."""
    root = root.resolve()
    collector = Collector(root)
    observer = start_observer(root, config, collector)
    try:
        update(root, config, wait=True)  # catch up with what changed while nobody watched
        if ready:
            ready()
        while True:
            batch = collector.take(stop)
            if batch is None:
                return
            stats = update(root, config, wait=True, paths=batch_paths(batch), use_journal=False)
            on_batch(stats, len(batch))
    finally:
        observer.stop()
        observer.join(timeout=5)


def install_stop_handlers(stop: threading.Event) -> None:
    """SIGTERM and SIGINT (Ctrl-C) end the watch cleanly after the batch in progress."""

    def handler(signum: int, frame: object) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
