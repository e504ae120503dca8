"""`unity-index serve`: run the MCP server over stdio (default) or streamable HTTP.

HTTP binds loopback (127.0.0.1, or localhost / ::1 when asked), where the SDK validates Host (DNS
rebinding). A request from a web page (an `Origin` header) is refused unless its origin is listed
(`allow_origins`, http_guards.py). Any other address needs `allow_remote` and a bearer token,
checked on every request. Over HTTP the editor tools need
a secret even on loopback (server/access.py). Logs go to stderr only.
"""

from __future__ import annotations

import functools
import hmac
import logging
import re
import sys
from collections.abc import Iterator
from typing import Any

from indexer.cli.common import shown
from indexer.query.workspace import Workspace
from mcp_adapter.bearer import bearer
from mcp_adapter.http_guards import OriginCheck, UniqueRequestIds, origin_allowed, with_cors

LOOPBACK = ("127.0.0.1", "localhost", "::1")
log = logging.getLogger("unity_index.mcp")


class ShownFormatter(logging.Formatter):
    """Log lines as messages are shown: the project's folder (in most lines) and the paths an
    error names reach the terminal with their control characters as `\\xNN`."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        return shown(super().formatMessage(record))


def not_a_client_gone(record: logging.LogRecord) -> bool:
    """A log filter: False for the SDK's report of a client that closed its connection before its
    request's body had arrived whole (starlette's `ClientDisconnect`), which is nobody's failure: it
    was "Error handling POST request" and a 12-line traceback, as a bug is logged, for each."""
    error = record.exc_info[1] if record.exc_info else None
    return not (type(error).__name__ == "ClientDisconnect" and type(error).__module__.startswith("starlette."))


class ServeRefused(Exception):
    """A configuration `serve` refuses (a usage error: exit 2)."""


def check_bind(host: str, allow_remote: bool, token: str | None) -> None:
    """Refuse a non-loopback bind without --allow-remote and a bearer token, and a token no
    client can send (HTTP strips a header's surrounding blanks; clients send ASCII)."""
    if token is not None and not re.fullmatch(r"[!-~]+", token):
        raise ServeRefused(
            "--token must be visible ASCII characters, no spaces: clients send it in a header,"
            " 'Authorization: Bearer SECRET'"
        )
    if host in LOOPBACK:
        return
    if not allow_remote:
        raise ServeRefused(
            f"--host {host} exposes the index beyond this machine: add --allow-remote and --token SECRET "
            "(clients then send 'Authorization: Bearer SECRET'), or keep the default 127.0.0.1"
        )
    if not token or len(token) < 16:
        raise ServeRefused(f"--host {host} with --allow-remote needs --token with at least 16 characters")


def listen(host: str, port: int, backlog: int) -> Any:
    """The listening socket, bound before anything starts, as uvicorn binds one: a port in use or
    an address this machine does not have is a refusal (exit 2), where uvicorn logs it and exits 3,
    the code of a bug. Listening already when the address is logged: a client connecting as it
    reads that line waits for the server (it was refused until uvicorn listened)."""
    import socket

    sock = socket.socket(family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(backlog)
    except (OSError, OverflowError) as exc:
        sock.close()
        reason = getattr(exc, "strerror", None) or str(exc)
        raise ServeRefused(
            f"cannot listen on {host} port {port}: {reason}; choose another --port (or --host)"
        ) from None
    return sock


class BearerAuth:
    """ASGI middleware: every HTTP request must carry `Authorization: Bearer <token>` (any case)."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.expected = token.encode()

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = bearer(dict(scope.get("headers") or []).get(b"authorization", b""))
            if not hmac.compare_digest(given, self.expected):
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [(b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")],
                    }
                )
                await send({"type": "http.response.body", "body": b"missing or wrong bearer token\n"})
                return
        await self.app(scope, receive, send)


def serve(
    ws: Workspace,
    *,
    transport: str = "stdio",
    host: str = "127.0.0.1",
    port: int = 8765,
    token: str | None = None,
    allow_remote: bool = False,
    refresh_interval: float = 2.0,
    watch: bool = True,
    editor_tools_mode: str = "compact",
    allow_origins: list[str] | None = None,
) -> None:
    """Run until the client disconnects (stdio) or the process is interrupted (HTTP); the
    watchers stop with the last session (see live.py)."""
    from mcp_adapter.server.app import create_server

    origins = [origin_allowed(o) for o in allow_origins or ()]  # refused before anything starts
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(ShownFormatter("unity-index: %(message)s"))
    handler.addFilter(not_a_client_gone)
    if transport == "http":
        from mcp_adapter.http_connections import AcceptFailures

        handler.addFilter(AcceptFailures())
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    server = create_server(
        ws,
        refresh_interval=refresh_interval,
        watch=watch,
        editor_tools_mode=editor_tools_mode,
        http_token=token if transport == "http" else None,
    )
    import anyio

    if transport == "stdio":
        from mcp_adapter.stdio import serve_stdio

        anyio.run(serve_stdio, server)
        return
    check_bind(host, allow_remote, token)
    import uvicorn

    app = guarded(server.streamable_http_app(host=host, transport_security=security(host, origins)), token, origins)
    from mcp_adapter.http_connections import connection_share, protocol_class

    share = connection_share()
    sock = listen(host, port, share)
    held = HeldSignals()  # before the address is said: whoever reads it may signal the server
    port = sock.getsockname()[1]  # port 0: the one the system chose
    in_url = f"[{host}]" if ":" in host else host  # an IPv6 address, as a URL writes it
    log.info("serving %s over streamable HTTP at http://%s:%d/mcp", ws.base, in_url, port)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", http=protocol_class(share), backlog=share)
    anyio.run(functools.partial(_server_stopped_by_signals(config, held).serve, sockets=[sock]))


def security(host: str, origins: list[str]) -> Any:
    """The SDK's Host check (DNS rebinding) as its loopback default, or for the address bound (none
    on a wildcard address, where any name may reach it); its Origin check accepting just the
    origins listed, which `OriginCheck` has let through (the SDK's default took any localhost port)."""
    from mcp.server.transport_security import TransportSecuritySettings

    hosts = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
    if host not in LOOPBACK:
        hosts += [f"{host}:*", f"[{host}]:*"]
    wildcard = host in ("0.0.0.0", "::")
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=not wildcard, allowed_hosts=hosts, allowed_origins=origins
    )


def guarded(app: Any, token: str | None, origins: list[str]) -> Any:
    """The SDK's app behind our checks, outermost first: CORS preflights of the listed origins
    (they carry no bearer token), the Origin check, the bearer token, one request per id in flight."""
    app = UniqueRequestIds(app)
    if token:
        app = BearerAuth(app, token)
    return with_cors(OriginCheck(app, origins), origins)


class HeldSignals:
    """Ctrl-C, SIGTERM or SIGHUP (the terminal it runs in closed; not where ignored, as under
    `nohup`) from the moment the server listens (its address logged) until uvicorn takes the
    signals: kept and acted on once it runs (a clean stop, exit 0), where the default handlers
    killed the process (-15, -1: the watchers' update cut off, no clean-up) or ended it
    "interrupted" (130). Main thread only: only it may set handlers."""

    SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")

    def __init__(self) -> None:
        import signal
        import threading

        self.received: list[int] = []
        self.before: dict = {}
        if threading.current_thread() is threading.main_thread():
            for name in self.SIGNALS:
                sig = getattr(signal, name, None)  # (no SIGHUP on Windows)
                if sig is None or (name == "SIGHUP" and signal.getsignal(sig) == signal.SIG_IGN):
                    continue
                self.before[sig] = signal.signal(sig, lambda s, _frame: self.received.append(s))


def _server_stopped_by_signals(config: Any, held: HeldSignals) -> Any:
    """A uvicorn server that Ctrl-C or SIGTERM shuts down for good: uvicorn raises the signal again
    once it has shut down, which killed the process (SIGTERM) or ended it as "interrupted" (exit
    130), where a server stopped on purpose exits 0 (docs/cli.md). A signal `held` before it ran
    stops it as it starts."""
    import contextlib
    import signal

    import uvicorn

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            if not held.before:  # not the main thread: no handlers were set, none may be
                yield
                return
            for sig in held.before:
                signal.signal(sig, self.handle_exit)
            for sig in held.received[:1]:
                self.handle_exit(sig, None)
            try:
                yield
            finally:
                for sig, handler in held.before.items():
                    signal.signal(sig, handler)

    return Server(config)
