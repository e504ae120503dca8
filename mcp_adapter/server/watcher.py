"""One project's index kept current from file events, in a background thread, for the server.

The observer and the event collector are `indexer/watch.py`'s (the same as `unity-index watch`).
Unlike that command, a server must also answer "is anything unapplied?" at the moment a call
arrives, and an event reaches the collector some milliseconds after the write (tens under load).
So `settle` first syncs with the event stream the way Watchman does, with cookies: it creates a
hidden file (`.unity-index-sync-*`, which Unity ignores) in each watched folder and deletes it
at once; each folder's events pass through one emitter in order, so once every cookie has
arrived, the events of every write made before the call have too. Then it makes the thread
apply what was collected without waiting for the quiet period, and returns once nothing
collected is left unapplied. `walk` forces a full stat walk (`refresh`).
Only this thread writes the index while it runs; another process holding the writer lock makes
it retry every `BUSY_RETRY` seconds, and `settle` does not wait for that (the answer then comes
from the last committed index, as without a watcher).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from watchdog.events import FileSystemEvent

from indexer.build.update import update
from indexer.changes.watch import (
    MAX_BATCH_SECONDS,
    QUIET_SECONDS,
    WALK,
    Collector,
    batch_paths,
    start_observer,
    stop_observer,
)
from indexer.cli.common import explain_failure
from indexer.config import Config
from indexer.model import UpdateStats
from indexer.project import Coverage
from indexer.store.lock import IndexBusy

log = logging.getLogger("unity_index.mcp")

BUSY_RETRY = 0.5
ERROR_RETRY = 2.0
COOKIE_WAIT = 2.0  # past this, answer without the sync (an event is lost only if the OS dropped it)
COOKIE_PREFIX = ".unity-index-sync-"  # hidden: Unity imports no file whose name starts with a dot


class _Stopped(Exception):
    """Raised in the watcher's update once it is stopped: the update rolls back at once."""


class _SyncingCollector(Collector):
    """The watch's collector, which also notes the sync cookies instead of collecting them."""

    def __init__(self, root: Path, cond: threading.Condition, coverage: Coverage) -> None:
        super().__init__(root, coverage)
        self.cond = cond
        self.seen: set[str] = set()

    def on_any_event(self, event: FileSystemEvent) -> None:
        name = os.path.basename(os.fsdecode(event.src_path))
        if name.startswith(COOKIE_PREFIX):
            if event.event_type == "created":
                with self.cond:
                    self.seen.add(name)
                    self.cond.notify_all()
            return
        super().on_any_event(event)


class ProjectWatcher:
    """Applies a project's file events to its index; `on_applied(stats)` after each commit."""

    def __init__(self, root: Path, config: Config, on_applied: Callable[[UpdateStats], None]) -> None:
        self.root = root.resolve()
        self.config = config
        self.on_applied = on_applied
        self._cond = threading.Condition()
        self.collector = _SyncingCollector(self.root, self._cond, Coverage(self.root, config))
        self.error = ""  # the last failed update, if the one after it has not succeeded yet
        self._stop = threading.Event()
        self._busy = False  # a batch is taken and being applied
        self._blocked = False  # another process holds the writer lock
        self.busy = ""  # what the last try said of it (IndexBusy), until an update goes in
        self._urgent = False  # a call waits: skip the quiet period
        self._taken = 0  # batches taken so far: a call gives up on a busy writer lock only after
        # an attempt that began after the call did (the lock may have been freed since)
        self._applied = 0  # the last batch applied (its number in `_taken`): every batch before it
        # is applied too, or was put back and taken again by a later one
        self._walks_requested = 1  # the first batch catches up with what changed while nobody watched
        self._walks_done = 0
        self._walks_taken = 0  # walk requests a batch has taken (it may still be applying them)
        self._full_upto = 0  # walks up to this one rebuild the index from scratch (a damaged index)
        self._walk_stats: UpdateStats | None = None
        self._observer = None
        self._thread: threading.Thread | None = None
        self._cookie_ids = itertools.count(1)

    # -- life cycle ------------------------------------------------------------------------------

    def start(self) -> None:
        """Raises OSError when the OS refuses to watch (inotify limits), ImportError without watchdog."""
        self._observer = start_observer(self.root, self.config, self.collector)
        self._thread = threading.Thread(target=self._run, name=f"unity-index-watch {self.root.name}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Ends the thread, then the observer. An update in progress stops at its next scanned
        file and rolls back (the index keeps its last commit): a first build or a large catch-up
        held Ctrl-C up for as long as it ran."""
        self._stop.set()
        self.collector.wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
        if self._observer is not None:
            stop_observer(self._observer, timeout)
        with self._cond:
            self._cond.notify_all()

    def interrupt(self) -> None:
        """Stop without waiting, as a signal handler may: the update in progress rolls back at
        its next scanned file, and calls waiting for it return (`stop` then joins the thread)."""
        self._stop.set()
        self.collector.wake.set()

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive() and not self._stop.is_set()

    # -- what calls wait for ---------------------------------------------------------------------

    def sync(self) -> bool:
        """Wait until the events of every write made before now have reached the collector: a
        cookie file in each watched folder travels behind them (one emitter per folder, in order)."""
        if self._observer is None:
            return False
        n = next(self._cookie_ids)
        cookies = {}
        for emitter in list(self._observer.emitters):
            cookies[f"{COOKIE_PREFIX}{os.getpid()}-{n}-{len(cookies)}"] = Path(emitter.watch.path)
        written = []
        for name, folder in cookies.items():
            try:
                (folder / name).touch()
            except OSError:  # the folder went away
                continue
            written.append(name)
            # deleted at once, not once its event arrived: a folder being removed meanwhile (rm -rf)
            # would find it there and stay, "Directory not empty"; the creation's event comes anyway
            with contextlib.suppress(OSError):
                (folder / name).unlink()
        deadline = time.monotonic() + COOKIE_WAIT
        with self._cond:
            while not self.collector.seen.issuperset(written) and self.alive:
                left = deadline - time.monotonic()
                if left <= 0:
                    log.info("no sync cookie from the watcher of %s in %.0f s", self.root, COOKIE_WAIT)
                    return False
                self._cond.wait(left)
            self.collector.seen.difference_update(written)
        return True

    def settle(self, timeout: float) -> bool:
        """Wait until every write made before now is applied; False if `timeout` passed first, or
        if another process is writing the index or the last update failed (neither is waited for).
        Writes made after are not waited for: a tool writing a file every few milliseconds kept
        something pending for ever, and every call waited the whole `timeout`."""
        deadline = time.monotonic() + timeout
        self.sync()
        with self._cond:
            taken = self._taken
            # the batch in flight, and the next one, which takes everything collected by now
            needed = taken + 1 if self._unapplied_beyond_busy() else taken if self._busy else 0
            self._urgent = True
            self.collector.wake.set()
            while self._applied < needed and not self._gave_up(taken) and self.alive:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.1))
            return self._applied >= needed

    def _unapplied_beyond_busy(self) -> bool:
        """Whether something is collected that no batch has taken yet (events or a walk)."""
        with self.collector.lock:
            pending = bool(self.collector.pending)
        return pending or self._walks_taken < self._walks_requested

    def _gave_up(self, taken: int) -> bool:
        """Whether the thread stopped trying, for now, after `taken` batches: the last update
        failed, or an attempt after those found another process holding the writer lock."""
        return not self._busy and (bool(self.error) or (self._blocked and self._taken > taken))

    def walk(self, timeout: float, *, full: bool = False) -> UpdateStats | None:
        """A full stat walk applied by the thread (`full`: a rebuild from scratch); its stats, or
        None if `timeout` passed first or the thread gave up for now (another process writes the
        index, or the update failed)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            self._walks_requested += 1
            if full:
                self._full_upto = self._walks_requested
            wanted, taken = self._walks_requested, self._taken
            self._urgent = True
            self.collector.wake.set()
            while self._walks_done < wanted and not self._gave_up(taken) and self.alive:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(min(left, 0.1))
            return self._walk_stats if self._walks_done >= wanted else None

    # -- the thread ------------------------------------------------------------------------------

    def _next_batch(self) -> tuple[set[str], int, bool] | None:
        """The next batch to apply, with the walk request it satisfies and whether it rebuilds
        from scratch, or None once stopped."""
        c = self.collector
        while not self._stop.is_set():
            with self._cond, c.lock:
                c.poll_blind()
                now = time.monotonic()
                walk = self._walks_done < self._walks_requested
                due = c.pending and (
                    self._urgent or now - c.last >= QUIET_SECONDS or now - c.first >= MAX_BATCH_SECONDS
                )
                if walk or due:
                    batch, c.pending = c.pending, set()
                    if walk:
                        batch.add(WALK)
                        self._walks_taken = self._walks_requested
                    self._busy, self._urgent = True, False
                    self._taken += 1
                    c.wake.clear()
                    full = walk and self._full_upto > self._walks_done
                    return batch, self._walks_requested if walk else 0, full
                c.wake.clear()  # set again by the next event, a waiting call or stop
                waiting = bool(c.pending)
            c.wake.wait(QUIET_SECONDS / 4 if waiting else 0.5)
        return None

    def _finish(self, *, blocked: bool = False, put_back: set[str] | None = None) -> None:
        with self._cond:
            if put_back is None:
                self._applied = self._taken
            if put_back:
                with self.collector.lock:
                    self.collector.pending |= put_back
            self._busy, self._blocked = False, blocked
            self._cond.notify_all()

    def _stop_point(self, done: int, total: int) -> None:
        if self._stop.is_set():
            raise _Stopped

    def _failed(self, exc: Exception) -> None:
        """Keep `exc` as the error index_status shows, and log it when it is new: the update is
        tried again every ERROR_RETRY seconds, and the same failure (a project folder moved away)
        was logged each time, for as long as the server ran."""
        explained = explain_failure(exc)  # the environment: no traceback
        error = f"{exc.__class__.__name__}: {explained or exc}"
        if error != self.error:
            if explained is None:
                log.exception("updating the index of %s failed", self.root)
            else:
                log.warning("updating the index of %s failed: %s", self.root, explained)
        self.error = error

    def _run(self) -> None:
        while True:
            taken = self._next_batch()
            if taken is None:
                return
            batch, walk_seq, full = taken
            paths = batch_paths(batch)
            try:
                stats = update(
                    self.root,
                    self.config,
                    full=full,
                    paths=paths,
                    use_journal=paths is None and walk_seq == 1,
                    background=True,
                    progress=self._stop_point,
                )
            except _Stopped:
                self._finish(put_back=batch)
                return
            except IndexBusy as exc:
                self.busy = str(exc)
                self._finish(blocked=True, put_back=batch)
                self._stop.wait(BUSY_RETRY)
                continue
            except Exception as exc:  # a scanner or store failure must not end the watch
                self._failed(exc)
                self._finish(put_back=batch)
                self._stop.wait(ERROR_RETRY)
                continue
            self.error = self.busy = ""
            with self._cond:
                if walk_seq:
                    self._walks_done, self._walk_stats = walk_seq, stats
            self._finish()
            try:
                self.on_applied(stats)
            except Exception:
                log.exception("reporting an index update of %s failed", self.root)
