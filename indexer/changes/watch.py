"""`unity-index watch`: keep the index current from file-system events.

A watchdog observer on the project's content folders collects changed paths; once events have
been quiet for `QUIET_SECONDS` (or `MAX_BATCH_SECONDS` after the first), the batch is applied with
`update(paths=...)`, which only stats those paths. Folder events (a folder created, moved or
deleted: its files are not listed one by one), and a folder's change that leaves it unreadable (a
chmod: the walk records it in place of its files), make the batch a full walk instead. An atomic save
(temp file + rename) arrives as a move whose destination is the saved file.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    EventsLostEvent,
    FileClosedNoWriteEvent,
    FileOpenedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver, ObservedWatch

from indexer.build.update import update
from indexer.config import Config
from indexer.model import UpdateStats
from indexer.project import CONTENT_ROOTS, PACKAGE_CACHE, Coverage, can_list, local_packages
from indexer.store.lock import IndexBusy

QUIET_SECONDS = 0.1
MAX_BATCH_SECONDS = 1.0
WALK = "\0walk"  # marker: the batch needs a full walk
BUSY_RETRY = 1.0  # another process holds the index: try again this often
FAILURE_RETRY = 2.0  # an update failed for a reason the watch can wait out (a full disk): try again this often
BLIND_WALK_SECONDS = 5.0  # the system's inotify watches ran out: walk this often (Collector.poll_blind)
PLACE_CHECK_SECONDS = 2.0  # whether the project folder is still where it was: looked at this often (poll_moved)


class Collector(FileSystemEventHandler):
    """Project-relative paths of file events since the last `take` (`WALK`: a folder changed).

    `pending`, `first` and `last` are read and written under `lock`; `wake` is set on every event.
    Files the index does not cover (`coverage`: hidden names such as editors' swap files, excluded
    folders, the index folder itself when configured inside `Assets/`, whose every commit was
    otherwise a batch, and so another commit, forever) are not collected."""

    def __init__(self, root: Path, coverage: Coverage | None = None):
        self.root = str(root)
        self.coverage = coverage
        self.lock = threading.Lock()
        self.pending: set[str] = set()
        self.first = 0.0
        self.last = 0.0
        self.wake = threading.Event()
        self.blind = False  # inotify watches ran out: every batch walks (`lost_watches`)
        self.place = _identity(self.root)  # which folder is at `root` (`poll_moved`)
        self.place_checked = time.monotonic()

    def _rel(self, path: str | bytes) -> str | None:
        p = path.decode() if isinstance(path, bytes) else path
        if not p.startswith(self.root + "/"):
            return None
        return p[len(self.root) + 1 :]

    def on_any_event(self, event: FileSystemEvent) -> None:
        if isinstance(event, FileOpenedEvent | FileClosedNoWriteEvent) or event.event_type == "opened":
            return
        if isinstance(event, EventsLostEvent):  # the kernel's queue overflowed: events were lost
            self._collect([WALK])
            return
        # files directly in the project folder are never content
        named = [r for p in (event.src_path, getattr(event, "dest_path", "")) if p and "/" in (r := self._rel(p) or "")]
        covered = [r for r in named if self.coverage is None or self.coverage.covers(r)]
        if not covered and event.is_directory and named:
            return  # a folder the index leaves out (hidden, excluded, the index's own)
        found: list[str] = []
        if isinstance(event, DirMovedEvent | DirDeletedEvent | DirCreatedEvent):
            found.append(WALK)
        elif event.is_directory:
            if can_list(event.src_path):
                return  # a folder's own modification: its files report themselves
            found.append(WALK)  # it cannot be read now (a chmod): the walk records it for its files
        else:
            found += covered
        if found:
            self._collect([WALK] if self.blind else found)

    def lost_watches(self) -> None:
        """The system's inotify watches ran out (`fs.inotify.max_user_watches`): folders made from
        now on are not watched, so every later batch walks the project, as this one does, and a
        walk comes every BLIND_WALK_SECONDS without events (`poll_blind`)."""
        if not self.blind:
            logging.getLogger("unity_index.watch").warning(
                "the system's inotify watches ran out (fs.inotify.max_user_watches): folders made from now"
                " on are not watched, so the project is walked every %.0f s; raise the limit and restart",
                BLIND_WALK_SECONDS,
            )
        self.blind = True
        self._collect([WALK])

    def poll_blind(self) -> None:
        """Under `lock`: once watches ran out, a walk every BLIND_WALK_SECONDS, for the files of
        folders no watch tells of (a file added in one and nothing else changed)."""
        now = time.monotonic()
        if self.blind and not self.pending and now - self.last >= BLIND_WALK_SECONDS:
            self.pending, self.first, self.last = {WALK}, now, now

    def poll_moved(self) -> None:
        """Under `lock`: a walk when another folder (or none) is at the project's path than was,
        checked every PLACE_CHECK_SECONDS. The project folder renamed (`mv Game Game-old`) tells
        of itself by no event inside it: the watch went on, silent, watching the old folder under
        its new name, until a file there changed. The walk's update ends it saying where the
        project went (`ProjectGone`), or indexes what now stands at the path."""
        now = time.monotonic()
        if self.pending or now - self.place_checked < PLACE_CHECK_SECONDS:
            return
        self.place_checked = now
        place = _identity(self.root)
        if place != self.place:
            self.place = place
            self.pending, self.first, self.last = {WALK}, now, now

    def _collect(self, found: list[str]) -> None:
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
                self.poll_blind()
                self.poll_moved()
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


def _identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of the folder at `path`; None when there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


class _TopFolders(FileSystemEventHandler):
    """Watches the project folder itself (not recursively) for content folders that appear,
    disappear or move after the watch started (a `Packages/` made by the package manager, an
    `Assets/` restored by a checkout): schedules or drops their recursive watch, and makes the next
    batch a walk so what they already hold is indexed."""

    def __init__(self, root: Path, tops: tuple[str, ...], observer: BaseObserver, handler: FileSystemEventHandler):
        self.root = root
        self.tops = tops
        self.observer = observer
        self.handler = handler
        self.watches: dict[str, ObservedWatch] = {}
        self.lock = threading.Lock()

    def ensure(self, top: str) -> None:
        with self.lock:
            if top not in self.watches and (self.root / top).is_dir():
                self.watches[top] = self.observer.schedule(self.handler, str(self.root / top), recursive=True)

    def drop(self, top: str) -> None:
        with self.lock:
            watch = self.watches.pop(top, None)
        if watch is not None:
            with contextlib.suppress(KeyError):  # the emitter already ended with its folder
                self.observer.unschedule(watch)

    def on_any_event(self, event: FileSystemEvent) -> None:
        if not event.is_directory:  # a file beside the content folders: the handler decides
            self.handler.dispatch(event)
            return
        gone = os.path.basename(os.fsdecode(event.src_path))
        came = os.path.basename(os.fsdecode(getattr(event, "dest_path", "") or event.src_path))
        changed = False
        if event.event_type in ("deleted", "moved") and gone in self.tops:
            self.drop(gone)
            changed = True
        if event.event_type in ("created", "moved") and came in self.tops:
            self.ensure(came)
            changed = True
        if changed:  # the handler's walk marker: what the folder holds (or held) is not listed
            self.handler.dispatch(DirCreatedEvent(os.path.join(str(self.root), came)))


def start_observer(root: Path, config: Config, handler: FileSystemEventHandler) -> BaseObserver:
    """A started observer delivering the project's content folders' events to `handler`,
    including content folders created after it started.

    Raises OSError when the OS refuses (inotify watch or instance limit reached)."""
    observer = Observer()
    folders = _TopFolders(root, CONTENT_ROOTS, observer, handler)
    for top in CONTENT_ROOTS:
        folders.ensure(top)
    # a local package added later is indexed (the manifest changed: a walk), watched after a restart
    for package in local_packages(root):
        observer.schedule(handler, str(root / package), recursive=True)
    if config.include_package_cache and (root / PACKAGE_CACHE).is_dir():
        observer.schedule(handler, str(root / PACKAGE_CACHE), recursive=True)
    observer.schedule(folders, str(root), recursive=False)
    if isinstance(handler, Collector):
        _WATCHDOG_LOG.addHandler(_LostWatches(handler, observer))
    try:
        observer.start()
    except BaseException:
        observer.stop()
        raise
    return observer


_WATCHDOG_LOG = logging.getLogger("watchdog.observers.inotify")


class _LostWatches(logging.Handler):
    """watchdog only logs it when the system refuses to watch a folder made after the start
    ("Unable to watch ...: [Errno 28]"): the collector learns it, and the handler goes with its
    observer."""

    def __init__(self, collector: Collector, observer: BaseObserver) -> None:
        super().__init__(logging.WARNING)
        self.collector, self.observer = collector, observer

    def emit(self, record: logging.LogRecord) -> None:
        if not str(record.msg).startswith("Unable to watch") or not isinstance(record.args, tuple) or not record.args:
            return
        where = os.fsdecode(record.args[0]) if isinstance(record.args[0], str | bytes) else ""
        if where == self.collector.root or where.startswith(self.collector.root + "/"):  # (not `Game2/`)
            self.collector.lost_watches()


def stop_observer(observer: BaseObserver, timeout: float = 5.0) -> None:
    """Stop an observer `start_observer` started, and forget its log handler."""
    observer.stop()
    observer.join(timeout=timeout)
    for h in [h for h in _WATCHDOG_LOG.handlers if isinstance(h, _LostWatches) and h.observer is observer]:
        _WATCHDOG_LOG.removeHandler(h)


def batch_paths(batch: set[str]) -> list[str] | None:
    """The paths to pass to `update(paths=...)`: None when the batch needs a full walk."""
    return None if WALK in batch else sorted(batch)


def watch(
    root: Path,
    config: Config,
    on_batch: Callable[[UpdateStats, int, list[str] | None], None],
    stop: threading.Event,
    ready: Callable[[], None] | None = None,
    on_busy: Callable[[str], None] | None = None,
    on_failure: Callable[[Exception], bool] | None = None,
) -> None:
    """Watch `root` until `stop` is set; `on_batch(stats, events, paths)` after every applied batch:
    how many paths the batch held, and the project paths its events named (None: a folder changed
    and the project was walked); `on_busy(message)` when another process holds the index (the
    batch waits for it); `on_failure(exc)` when an update fails: True keeps the batch and tries
    it again every FAILURE_RETRY seconds (a full disk, which a long-running watch outlives), False
    ends the watch with the exception."""
    root = root.resolve()
    collector = Collector(root, Coverage(root, config))
    observer = start_observer(root, config, collector)
    try:
        # catch up with what changed while nobody watched
        if _apply(root, config, stop, (on_busy, on_failure)) is None:
            return
        if ready:
            ready()
        while True:
            batch = collector.take(stop)
            if batch is None:
                return
            paths = batch_paths(batch)
            stats = _apply(root, config, stop, (on_busy, on_failure), paths=paths, use_journal=False)
            if stats is None:
                return
            on_batch(stats, len(batch), paths)
    finally:
        stop.set()  # (a signal's handler may not: `install_stop_handlers`)
        stop_observer(observer)


def _apply(
    root: Path,
    config: Config,
    stop: threading.Event,
    told: tuple[Callable[[str], None] | None, Callable[[Exception], bool] | None],
    **kwargs: Any,
) -> UpdateStats | None:
    """`update(**kwargs)` in the background (beside the user's git commands), tried again every
    BUSY_RETRY seconds while another process writes the index and every FAILURE_RETRY seconds
    after a failure `on_failure` waits out (never a wait that a signal cannot end); None once
    `stop` is set. A busy index is told once per batch; `on_failure` decides what it tells."""
    on_busy, on_failure = told
    busy_told = False
    while not stop.is_set():
        try:
            return update(root, config, background=True, **kwargs)
        except IndexBusy as exc:
            if on_busy is not None and not busy_told:
                on_busy(str(exc))
                busy_told = True
            stop.wait(BUSY_RETRY)
        except Exception as exc:
            if on_failure is None or not on_failure(exc):
                raise
            stop.wait(FAILURE_RETRY)
    return None


class WatchStopped(KeyboardInterrupt):
    """SIGTERM, SIGHUP or SIGINT ended the watch (`install_stop_handlers`)."""


def install_stop_handlers(stop: threading.Event) -> None:
    """SIGTERM, SIGINT (Ctrl-C) and SIGHUP (the terminal `watch` runs in closed; unless ignored,
    as under `nohup`: its default killed the watch mid-update with no clean-up, the scanner
    processes' folder left behind) end the watch at once: WatchStopped, a KeyboardInterrupt, is
    raised in the main thread, which ends a wait or rolls back the update in progress (the index
    keeps its last committed state), and `watch` sets `stop` as it unwinds. Not the handler: it
    runs in the main thread, which holds `stop`'s lock for a few steps of every `stop.wait`, and
    setting the event there waited for that lock for ever (a watch behind another writer's lock
    hung on SIGTERM: `tests/test_watch_signal_lock.py`)."""

    def handler(signum: int, frame: object) -> None:
        raise WatchStopped

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    hangup = getattr(signal, "SIGHUP", None)  # (none on Windows)
    if hangup is not None and signal.getsignal(hangup) != signal.SIG_IGN:
        signal.signal(hangup, handler)
