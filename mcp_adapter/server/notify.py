"""Change notifications to the connected sessions, in both protocol eras.

- 2025-11-25 (handshake) connections are remembered from their `notifications/initialized`
  until they close; `resources/subscribe` / `unsubscribe` record their URIs. They get
  `notifications/tools/list_changed`, `notifications/resources/list_changed`, and
  `notifications/resources/updated` for the URIs they subscribed to, on their standalone
  channel (stdio, or the HTTP GET stream).
- 2026-07-28 connections open `subscriptions/listen` streams (served by the SDK from the bus
  given to `MCPServer`); every event is published once on that bus, which filters per stream.

Events come from the watcher and editor threads: `publish` hands them to the server's event
loop (captured by `attach` while a server lifespan runs) and returns once they are sent.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread
from mcp.server import MCPServer
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.session import ServerSession
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    ResourcesListChanged,
    ResourceUpdated,
    ServerEvent,
    ToolsListChanged,
)
from mcp.types import EmptyResult, SubscribeRequestParams, UnsubscribeRequestParams
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

log = logging.getLogger("unity_index.mcp")

SEND_TIMEOUT = 10.0  # a client that stops reading must not hold the watcher thread
# The URI notifications name a subscribed resource by, or the JSON-RPC error for a URI a session
# may not subscribe to; blocking (run in a thread).
SubscriptionCheck = Callable[[ServerRequestContext[Any, Any], str], str]


class _Peer:
    """A handshake-era connection: a session to notify through, and its subscriptions."""

    def __init__(self, session: ServerSession) -> None:
        self.session = session
        # the URI notifications name a resource by -> the forms this client subscribed to it with
        self.uris: dict[str, set[str]] = {}


def _connection(session: ServerSession) -> Any:
    # The SDK's ServerRequestContext carries the per-request session, whose connection (the
    # object that lives as long as the client is connected) it does not expose publicly (mcp 2.3).
    return getattr(session, "_connection", session)


class Notifier:
    def __init__(self, check: SubscriptionCheck | None = None) -> None:
        """`check`: refuses a `resources/subscribe` URI the server does not serve, and names the URI
        notifications give the resource (a client's `%20` or bare file name is told by its own form)."""
        self.bus = InMemorySubscriptionBus()
        self.check = check
        self._peers: dict[int, _Peer] = {}
        self._lock = threading.Lock()
        self._token: Any = None

    # -- wiring ----------------------------------------------------------------------------------

    def install(self, mcp: MCPServer) -> None:
        """Advertise listChanged and resources.subscribe, track handshake-era connections."""
        low = mcp._lowlevel_server  # the SDK's own InMemoryTransport reaches it the same way
        base = low.create_initialization_options
        options = NotificationOptions(tools_changed=True, resources_changed=True)

        def create_initialization_options(notification_options=None, experimental_capabilities=None, extensions=None):
            return base(notification_options or options, experimental_capabilities, extensions)

        low.create_initialization_options = create_initialization_options  # type: ignore[method-assign]
        low.add_request_handler("resources/subscribe", SubscribeRequestParams, self._subscribe)
        low.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams, self._unsubscribe)
        mcp.middleware.append(self._track)

    def attach(self) -> None:
        """Deliver to the event loop this is called from (a server lifespan)."""
        self._token = anyio.lowlevel.current_token()

    def detach(self) -> None:
        self._token = None
        with self._lock:
            self._peers.clear()

    @property
    def peers(self) -> int:
        with self._lock:
            return len(self._peers)

    def _peer(self, ctx: ServerRequestContext[Any, Any]) -> _Peer | None:
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            return None
        conn = _connection(ctx.session)
        key = id(conn)
        with self._lock:
            peer = self._peers.get(key)
            if peer is None:
                peer = self._peers[key] = _Peer(ctx.session)
                stack = getattr(conn, "exit_stack", None)
                if stack is not None:
                    stack.callback(self._forget, key)
            return peer

    def _forget(self, key: int) -> None:
        with self._lock:
            self._peers.pop(key, None)

    async def _track(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        result = await call_next(ctx)
        if ctx.method == "notifications/initialized":
            self._peer(ctx)
        return result

    async def _subscribe(self, ctx: ServerRequestContext[Any, Any], params: SubscribeRequestParams) -> EmptyResult:
        uri = str(params.uri)
        named = uri if self.check is None else await anyio.to_thread.run_sync(self.check, ctx, uri)
        peer = self._peer(ctx)
        if peer is not None:
            with self._lock:
                peer.uris.setdefault(named, set()).add(uri)
        return EmptyResult()

    async def _unsubscribe(self, ctx: ServerRequestContext[Any, Any], params: UnsubscribeRequestParams) -> EmptyResult:
        peer = self._peer(ctx)
        if peer is not None:
            with self._lock:
                for named, forms in list(peer.uris.items()):
                    forms.discard(str(params.uri))
                    if not forms:
                        del peer.uris[named]
        return EmptyResult()

    # -- sending ---------------------------------------------------------------------------------

    def publish(self, events: Sequence[ServerEvent]) -> None:
        """From a worker thread: send `events` to every session that wants them (best effort)."""
        token = self._token
        if token is None or not events:
            return
        try:
            anyio.from_thread.run(self._deliver, list(events), token=token)
        except RuntimeError:  # the loop is shutting down: nobody is left to tell
            log.debug("dropped %d notifications: the server is stopping", len(events))

    def tools_changed(self) -> None:
        self.publish([ToolsListChanged()])

    def resources_changed(self, updated: Sequence[str], list_changed: bool) -> None:
        events: list[ServerEvent] = [ResourceUpdated(uri=u) for u in updated]
        self.publish([*events, ResourcesListChanged()] if list_changed else events)

    async def _deliver(self, events: list[ServerEvent]) -> None:
        with anyio.move_on_after(SEND_TIMEOUT):
            for event in events:
                await self.bus.publish(event)
            with self._lock:
                peers = [(p.session, {k: sorted(v) for k, v in p.uris.items()}) for p in self._peers.values()]
            for session, uris in peers:
                for event in events:
                    if isinstance(event, ToolsListChanged):
                        await session.send_tool_list_changed()
                    elif isinstance(event, ResourcesListChanged):
                        await session.send_resource_list_changed()
                    elif isinstance(event, ResourceUpdated):
                        for form in uris.get(event.uri, ()):
                            await session.send_resource_updated(form)
