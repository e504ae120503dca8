"""Follows each project's Unity editor through its heartbeat (`Library/UnityIndex/editor.json`).

A background thread reads the heartbeat every `interval` seconds. An editor *connects* when a
heartbeat with a live pid appears, *reloads* when its script domain changes (every domain has a
new token: a domain reload, or an editor restarted between two polls), and *disconnects* when the
heartbeat goes away, names a dead process or speaks another protocol. While the heartbeat says
`reloading` (or is stale but its pid lives) nothing changes: calls wait the reload out.
With `fetch_tools`, the editor's tool list is read once per domain, for direct exposure, always
by the thread (never before the server's first answer).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from indexer.query.workspace import ProjectIndex
from mcp_adapter.editor import bridge as eb

log = logging.getLogger("unity_index.mcp")

DEFAULT_POLL = 0.5


@dataclass(frozen=True)
class EditorView:
    """What the server knows of one project's editor."""

    domain: tuple[int, str] | None = None  # (pid, token) of the script domain; None: no editor
    unity_version: str = ""
    tools: tuple[dict[str, Any], ...] = field(default=(), compare=False)

    @property
    def connected(self) -> bool:
        return self.domain is not None


FIRST_TOOLS_WAIT = 2.0  # seconds `start` waits for a direct-mode editor's tool list


class EditorMonitor:
    """`on_change(project, before, after, what)` with what in connected/reloaded/disconnected."""

    def __init__(
        self,
        projects: list[ProjectIndex],
        make_bridge: Callable[[ProjectIndex], eb.EditorBridge],
        on_change: Callable[[ProjectIndex, EditorView, EditorView, str], None],
        *,
        fetch_tools: bool = False,
        interval: float = DEFAULT_POLL,
    ) -> None:
        self.projects = projects
        self.make_bridge = make_bridge
        self.on_change = on_change
        self.fetch_tools = fetch_tools
        self.interval = interval
        self.views: dict[str, EditorView] = {str(p.root): EditorView() for p in projects}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """An editor already running is known before the first answer, from its heartbeat (a file);
        with `fetch_tools` once its tool list is read over the network, by the thread, waited for
        up to FIRST_TOOLS_WAIT: a responsive editor is known, and its tools listed, from the first
        answer on, and a hung or closed port no longer holds `initialize` and the index tools up
        for the bridge's wait or timeout (10-35 s); such an editor is known, and its tools listed,
        with a `tools/list_changed` once they are read."""
        if not self.fetch_tools:
            self._poll_logged()
        self._stop.clear()
        first = threading.Event() if self.fetch_tools else None
        self._thread = threading.Thread(target=self._run, args=(first,), name="unity-index-editor", daemon=True)
        self._thread.start()
        if first is not None:
            first.wait(FIRST_TOOLS_WAIT)

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _run(self, first: threading.Event | None) -> None:
        if first is not None:
            self._poll_logged()
            first.set()
        while not self._stop.wait(self.interval):
            self._poll_logged()

    def _poll_logged(self) -> None:
        """`poll`, a failure logged: the first one too, which would otherwise end the server
        before its index tools (which never need the editor) answer anything."""
        try:
            self.poll()
        except Exception:
            log.exception("following the Unity editor failed")

    def poll(self) -> None:
        """Look at every heartbeat once; report what changed."""
        for p in self.projects:
            key = str(p.root)
            before = self.views[key]
            after = self._look(p, before)
            if after is None or after == before:
                continue
            self.views[key] = after
            what = "connected" if not before.connected else "disconnected" if not after.connected else "reloaded"
            log.info("Unity editor %s (%s)", what, p.root)
            self.on_change(p, before, after, what)

    def _look(self, p: ProjectIndex, before: EditorView) -> EditorView | None:
        """The project's editor now; None when it cannot be told yet (reloading, stale, busy)."""
        bridge = self.make_bridge(p)
        try:
            hb = bridge.heartbeat()
        except (eb.EditorNotRunning, eb.EditorProtocolError):
            return EditorView()
        except eb.EditorBridgeError:  # stale heartbeat of a live editor: wait and see
            return None
        if hb.state == "reloading":
            return None
        domain = (hb.pid, hb.token)
        if domain == before.domain:
            return before
        tools: tuple[dict[str, Any], ...] = ()
        if self.fetch_tools:
            try:
                tools = tuple(bridge.list_tools())
            except eb.EditorProtocolError as exc:  # a malformed list: this domain offers no direct tools
                log.warning("the editor's tools cannot be used: %s", exc)
            except eb.EditorBridgeError as exc:  # between two domains again: next poll
                log.info("the editor's tools are not readable yet: %s", exc)
                return None
        return EditorView(domain=domain, unity_version=hb.unity_version, tools=tools)
