"""The server's background work: watchers, the editor monitor and the notifications they cause.

It runs while at least one server lifespan is active (one per stdio or in-memory connection, one
for the whole HTTP server), and stops when the last ends (stdio EOF, HTTP shutdown), joining its
threads. Threads are stopped from a worker thread, so the event loop stays free to finish a
notification a stopping thread may be sending.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from types import FrameType

import anyio
import anyio.to_thread

from indexer.query.workspace import ProjectIndex
from mcp_adapter.editor.direct import DirectEditorTools
from mcp_adapter.editor.live import EditorMonitor, EditorView
from mcp_adapter.server.changes import IndexChange
from mcp_adapter.server.freshness import Freshness
from mcp_adapter.server.notify import Notifier


class Live:
    def __init__(self, freshness: Freshness, notifier: Notifier) -> None:
        self.freshness = freshness
        self.notifier = notifier
        self.editor: EditorMonitor | None = None
        self.direct: DirectEditorTools | None = None
        self._users = 0
        self._lock = threading.Lock()
        self._restore_signals: Callable[[], None] = _nothing
        freshness.on_change = self.index_changed

    def index_changed(self, changes: list[IndexChange]) -> None:
        updated = [uri for c in changes for uri in c.updated_uris()]
        self.notifier.resources_changed(updated, any(c.list_changed for c in changes))

    def editor_changed(self, project: ProjectIndex, before: EditorView, after: EditorView, what: str) -> None:
        if self.direct is not None:
            self.direct.update(project, after)
        self.notifier.tools_changed()

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Held by every server lifespan: the first starts the background work, the last stops it."""
        with self._lock:
            self._users += 1
            first = self._users == 1
        if first:
            self.notifier.attach()
            await anyio.to_thread.run_sync(self._start)
            self._restore_signals = on_stop_signals(self.freshness.interrupt)
        try:
            yield
        finally:
            with self._lock:
                self._users -= 1
                last = self._users == 0
            if last:
                self._restore_signals()
                self.notifier.detach()
                with anyio.CancelScope(shield=True):
                    await anyio.to_thread.run_sync(self._stop)

    def _start(self) -> None:
        self.freshness.start()
        if self.editor is not None:
            self.editor.start()

    def _stop(self) -> None:
        if self.editor is not None:
            self.editor.stop()
        self.freshness.stop()


_Handler = Callable[[int, FrameType | None], object]


def _nothing() -> None:
    pass


def on_stop_signals(action: Callable[[], None]) -> Callable[[], None]:
    """Have SIGINT, SIGTERM and SIGHUP run `action` before the handler in place (asyncio's, uvicorn's),
    which ends the server once the calls in progress return: a call waiting for the watcher's
    update (a first build, a large catch-up) held Ctrl-C up for as long as the update ran.
    Returns what puts the handlers back. Nothing outside the main thread (no handler may be set
    there), nor for a signal ignored or left to its default (SIGTERM over stdio ends the process)."""
    if threading.current_thread() is not threading.main_thread():
        return _nothing
    installed: dict[int, tuple[_Handler, _Handler]] = {}
    for sig in (signal.SIGINT, signal.SIGTERM, *((signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ())):
        before = signal.getsignal(sig)
        if not callable(before):
            continue

        def handler(signum: int, frame: FrameType | None, before: _Handler = before) -> None:
            action()
            before(signum, frame)

        installed[sig] = (before, handler)
        signal.signal(sig, handler)

    def restore() -> None:
        for sig, (before, handler) in installed.items():
            if signal.getsignal(sig) is handler and threading.current_thread() is threading.main_thread():
                signal.signal(sig, before)

    return restore
