"""Keeps the server's answers current with the files on disk, in one of two modes.

- `watch` (while the server runs and watchdog can watch): a `ProjectWatcher` per project applies
  file events in the background; before answering, a call waits until every event collected so
  far is applied (`settle`), so an answer never predates a change the OS has reported. The index
  folder is not watched: a call first compares it with the writer's fingerprint (a few stat
  calls), and one that is missing, damaged or copied has the watcher walk the project (which
  rebuilds it) before answering, as a poll-mode update would.
- `poll` (no watcher: `--no-watch`, watchdog missing, inotify limits, a watcher that died, or
  no server session yet): an incremental update before answering, at most once per `interval`
  seconds (a stat walk, about 0.2 s on 8k files).

Damage that only reading shows (a page garbled in place, its file's stat kept) makes the call
`rebuild` the index from scratch and answer again (failures.py).

After every update, `ChangeTracker`s turn what changed into an `IndexChange` for `on_change`
(the resource notifications).
"""

from __future__ import annotations

import contextvars
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from indexer.project import check_present
from indexer.query.workspace import ProjectIndex, Workspace
from indexer.store import integrity
from indexer.store.progress import read_progress
from mcp_adapter.server.changes import ChangeTracker, IndexChange
from mcp_adapter.server.watcher import ProjectWatcher
from mcp_adapter.server.wording import mcp_wording

log = logging.getLogger("unity_index.mcp")

DEFAULT_REFRESH_INTERVAL = 2.0
SETTLE_TIMEOUT = 300.0  # a first full build of a large project takes minutes
FORCED_WAIT = 10.0  # `refresh` waits this long for another writer, then answers from the last commit


# The notes of the call running (each call runs in a context of its own): what its answer misses.
_NOTES: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("unity_index_notes", default=None)


@contextmanager
def noting() -> Iterator[list[str]]:
    """Collect, for the call made inside, the notes `ensure` takes: an answer from the last
    committed index while another process writes it says so, as the CLI does."""
    notes: list[str] = []
    token = _NOTES.set(notes)
    try:
        yield notes
    finally:
        _NOTES.reset(token)


def _note(note: str) -> None:
    """Add `note` to the running call's notes (`noting`), once."""
    notes = _NOTES.get()
    if notes is not None and note not in notes:
        notes.append(note)


def _behind(busy: str) -> None:
    """Note that the answer comes from the last commit: `busy` says who writes the index."""
    _note(
        f"note: {busy}: this answer comes from the index as it is, without the changes made since"
        " (they are applied once that process is done)"
    )


def _stale(w: Any) -> None:
    """Note why a watcher's project answers from its last commit: another process writes the
    index, or the watcher's last update failed (a full disk: retried every ERROR_RETRY seconds;
    `index_status` said so, but an answer did not, and a script just written was "no results")."""
    if w.busy:
        _behind(w.busy)
    elif w.error:
        _note(
            f"note: the last update of the index failed ({w.error}): this answer comes from the index as it"
            " is, without the changes made since (the update is tried again; index_status shows it)"
        )


class Stopping(Exception):
    """The server is stopping (Ctrl-C, SIGTERM): an update in progress was rolled back."""

    def __init__(self) -> None:
        super().__init__("the server is stopping: the index update was rolled back")


class Freshness:
    """`ensure()` before answering; `start()`/`stop()` run the watchers (when `watch`)."""

    def __init__(
        self,
        ws: Workspace,
        interval: float = DEFAULT_REFRESH_INTERVAL,
        *,
        watch: bool = True,
        on_change: Callable[[list[IndexChange]], None] | None = None,
        make_watcher: Callable[..., ProjectWatcher] = ProjectWatcher,
    ) -> None:
        self.ws = ws
        self.interval = interval
        self.want_watch = watch
        self.on_change = on_change
        self.make_watcher = make_watcher
        self.note = "" if watch else "watching is off (--no-watch)"
        self._lock = threading.Lock()
        self._last = float("-inf")
        self._watchers: list[ProjectWatcher] = []
        self._interrupted = threading.Event()
        self._trackers = [ChangeTracker(p) for p in ws.projects]
        self._busy: dict[Any, str] = {}  # poll mode: project root -> who held the lock at its last try

    @property
    def mode(self) -> str:
        if self._watchers and all(w.alive for w in self._watchers):
            return "watch"
        return "poll"

    def describe(self) -> str:
        """One line for index_status."""
        if self.mode == "watch":
            errors = self.failures()
            text = "watch: file events are applied in the background; every answer waits for the pending ones"
            return text + (f" (last update failed: {'; '.join(errors)})" if errors else "")
        note = self.note or ("the watcher stopped" if self._watchers else "no session is being served")
        return f"poll: files are checked on disk before answering, at most every {self.interval:g} s ({note})"

    def building(self) -> bool:
        """Whether a build of some project is running now, this process's or another's (a first
        build writes its progress file before it walks the project)."""
        return any(read_progress(p.paths) is not None for p in self.ws.projects)

    def writers(self) -> list[str]:
        """Who holds each project's writer lock, as the last try to update it found it (the CLI's
        words: which process, and whether it is suspended), while no update of it has gone in since."""
        return [busy for p in self.ws.projects if (busy := self.writer(p.root))]

    def writer(self, root: Path) -> str:
        """Who holds the writer lock of the project at `root`, as `writers` says it ('' when none
        was found): its watcher's last try, else a tool call's."""
        watched = [w.busy for w in self._watchers if w.busy and w.root == root] if self.mode == "watch" else []
        return watched[0] if watched else self._busy.get(root, "")

    def failures(self) -> list[str]:
        """Each watched project's last failed update, while no update of it has succeeded since (in
        the server's words: the error is the CLI's, "run the command again in ...")."""
        return [mcp_wording(f"{w.root}: {w.error}") for w in self._watchers if w.error]

    # -- life cycle ------------------------------------------------------------------------------

    def start(self) -> None:
        """Start one watcher per project; on any failure fall back to `poll`, saying why."""
        for tracker in self._trackers:
            tracker.prime()
        if not self.want_watch:
            return
        watchers: list[ProjectWatcher] = []
        try:
            for p in self.ws.projects:
                w = self.make_watcher(p.root, p.config, lambda _stats, p=p: self._report(p))
                w.start()
                watchers.append(w)
        except (ImportError, OSError) as exc:
            for w in watchers:
                w.stop()
            self.note = f"watching failed: {exc}" + (
                "; raise fs.inotify.max_user_watches / max_user_instances" if isinstance(exc, OSError) else ""
            )
            log.warning("cannot watch the project (%s); checking files before each answer instead", exc)
            return
        self._watchers = watchers
        self.note = ""
        for w in watchers:
            log.info("watching %s", w.root)

    def interrupt(self) -> None:
        """Stop the updates in progress at once (Ctrl-C, SIGTERM: signal handlers), the watchers'
        and a call's own (poll mode), which roll back; `stop` then joins the watchers."""
        self._interrupted.set()
        for w in self._watchers:
            w.interrupt()

    def _stop_point(self, done: int, total: int) -> None:
        """An update's progress in poll mode: where an interrupted server stops it."""
        self._stopping()

    def _stopping(self) -> None:
        """Stopping once the server was interrupted: a call that waited for the watcher's update
        (rolled back) says so, not that a build runs, nor answers from the index as it was."""
        if self._interrupted.is_set():
            raise Stopping

    def stop(self) -> None:
        watchers, self._watchers = self._watchers, []
        for w in watchers:
            w.stop()
            log.info("stopped watching %s", w.root)
        if watchers and self.want_watch:
            self.note = "the server stopped watching"

    # -- before answering ------------------------------------------------------------------------

    def ensure(self, force: bool = False) -> list[tuple[ProjectIndex, Any]]:
        """Bring every project up to date (watch: wait for pending events; poll: update if due, or
        forced); returns what each update did (empty if none ran)."""
        if self.mode == "watch":
            return self._ensure_watched(force)
        return self._ensure_polled(force)

    def _ensure_watched(self, force: bool) -> list[tuple[ProjectIndex, Any]]:
        done = []
        for p, w in zip(self.ws.projects, self._watchers, strict=True):
            # the index is checked once the watcher's own update is done: while it writes, its
            # fingerprint says "at work" and would send every call overlapping it to a walk
            settled = force or w.settle(SETTLE_TIMEOUT)
            self._stopping()
            if force or _unsettled(p):
                stats = w.walk(SETTLE_TIMEOUT)
                self._stopping()
                if stats is not None:
                    done.append((p, stats))
                elif not force:  # `refresh` says "no update ran" itself
                    _stale(w)
            elif not settled:
                log.info("answering from the last committed index of %s (an update is pending)", p.root)
                _stale(w)
        return done

    def stamps(self) -> tuple[tuple[int, float], ...]:
        """Which commit each project's index is at: a caller that saw damage at these stamps
        needs no rebuild of its own when they changed since (another call rebuilt it)."""
        return tuple(p.stamp() for p in self.ws.projects)

    def rebuild(self, seen: tuple[tuple[int, float], ...]) -> bool:
        """Rebuild every project's index from scratch (reading found one damaged at the stamps
        `seen`, and which cannot be told); nothing when another call rebuilt it since; False if
        some rebuild did not run (another writer, a failure: the caller says why with the error
        it had)."""
        from indexer.build.update import update
        from indexer.store.lock import IndexBusy

        projects = self.ws.projects
        with self._lock:
            if self.stamps() != seen:  # checked holding the lock: the calls waiting on it rebuild once
                return True
            if self.mode == "watch":
                return all([w.walk(SETTLE_TIMEOUT, full=True) is not None for w in self._watchers])
            try:
                stop = self._stop_point  # a Ctrl-C rolls the rebuild back at its next file
                done = [
                    (p, update(p.root, p.config, full=True, wait=FORCED_WAIT, background=True, progress=stop))
                    for p in projects
                ]
            except IndexBusy:  # another process writes it: what it commits is read next
                return False
            self._last = time.monotonic()
        for p, stats in done:
            log.info("index of %s was damaged: rebuilt it (%d files)", p.root, stats.files)
            self._report(p)
        return True

    def _ensure_polled(self, force: bool) -> list[tuple[ProjectIndex, Any]]:
        from indexer.build.update import update
        from indexer.store.lock import IndexBusy

        with self._lock:
            recent = time.monotonic() - self._last < self.interval
            if self._interrupted.is_set():
                return []  # the server is stopping: answer from the last commit
            if not force and recent and not any(integrity.unsettled(p.paths) for p in self.ws.projects):
                return []
            done = []
            for p in self.ws.projects:
                try:
                    wait = FORCED_WAIT if force else 0.0
                    stats = update(p.root, p.config, wait=wait, background=True, progress=self._stop_point)
                except IndexBusy as exc:  # another process is writing: answer from the last committed state
                    log.info("index of %s is being written by another process; answering from it", p.root)
                    self._busy[p.root] = str(exc)
                    if not force:  # `refresh` says "no update ran" itself, and who writes (`writers`)
                        _behind(str(exc))
                    continue
                self._busy.pop(p.root, None)
                if stats.scanned or stats.deleted or stats.full:
                    log.info("index of %s updated: %d scanned, %d deleted", p.root, stats.scanned, stats.deleted)
                done.append((p, stats))
            self._last = time.monotonic()
        for p, _ in done:
            self._report(p)
        return done

    def _report(self, project: ProjectIndex) -> None:
        if self.on_change is None:
            return
        tracker = self._trackers[self.ws.projects.index(project)]
        change = tracker.check()
        if change is not None:
            self.on_change([change])


def _unsettled(project: ProjectIndex) -> bool:
    """Whether the index needs the watcher's walk before answering though no file event says so:
    missing, damaged or copied (`integrity.unsettled`). ProjectGone when the project folder is
    gone or no longer a Unity project (a poll-mode update says the same)."""
    check_present(project.root)
    reason = integrity.unsettled(project.paths)
    if reason is not None:
        log.info("index of %s: %s; walking the project before answering", project.root, reason)
    return reason is not None
