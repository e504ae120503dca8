"""ASGI guards `serve --transport http` puts in front of the SDK's app: which browser pages may call
the server (the Origin check, and CORS for the origins listed), and one request per id in flight
in a session.

Origin: MCP clients (Claude Code, Cursor, the SDKs' HTTP clients) send no `Origin` header; a browser
always sends one. The SDK's default on loopback accepted any `http://localhost:*`,
`http://127.0.0.1:*` or `http://[::1]:*` origin, so a page of any local dev server (or a malicious
local page) was an accepted caller. Now a request with an `Origin` is refused (403) unless that
origin is listed with `--allow-origin`; preflights are answered for the listed ones only.

Request ids: the SDK's streamable HTTP transport keys each POST's answer stream by request id in
its session, so a second POST reusing an id still in flight took over the first's stream: the
first POST never got an answer (docs/mcp.md). The duplicate is refused (400, JSON-RPC -32600).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

log = logging.getLogger("unity_index.mcp")
_ORIGIN = re.compile(r"[a-z][a-z0-9+.-]*://[^/\s?#@]+")
MAX_BODY = 4 * 1024 * 1024  # the SDK's own limit: a longer body is passed on unread, for it to refuse


class OriginRefused(ValueError):
    """An `--allow-origin` value that is no origin as a browser sends it."""


def origin_allowed(text: str) -> str:
    """An `--allow-origin` value as browsers write the header: lowercase, no path or trailing slash
    (`http://localhost:5173`); `null` (a sandboxed page, a file) only when said."""
    origin = text.strip().lower().rstrip("/")
    if origin != "null" and not _ORIGIN.fullmatch(origin):
        raise OriginRefused(
            f"--allow-origin takes an origin as a browser sends it, scheme://host[:port]"
            f" (e.g. http://localhost:5173), not {text!r}"
        )
    return origin


async def _refuse(send: Any, status: int, body: bytes, content_type: bytes = b"text/plain") -> None:
    await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", content_type)]})
    await send({"type": "http.response.body", "body": body})


class OriginCheck:
    """Refuse (403) an HTTP request whose `Origin` header names no listed origin."""

    def __init__(self, app: Any, allowed: list[str]) -> None:
        self.app = app
        self.allowed = frozenset(allowed)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        origin = dict(scope.get("headers") or []).get(b"origin") if scope["type"] == "http" else None
        if origin is not None and origin.decode("latin-1") not in self.allowed:
            said = origin.decode("latin-1")[:200]
            log.warning("refused a request from the web page at %s (--allow-origin %s lets it)", said, said)
            why = (
                f"Origin {said} is not allowed: MCP clients send no Origin, a browser page does;"
                f" `unity-index serve --allow-origin {said}` lets this one\n"
            )
            await _refuse(send, 403, why.encode())
            return
        await self.app(scope, receive, send)


def with_cors(app: Any, allowed: list[str]) -> Any:
    """The listed origins' preflights answered (a browser sends none of MCP's POSTs without one),
    with the headers MCP's HTTP transport reads and writes."""
    if not allowed:
        return app
    from starlette.middleware.cors import CORSMiddleware

    headers = ["content-type", "accept", "authorization", "mcp-session-id", "mcp-protocol-version", "last-event-id"]
    return CORSMiddleware(
        app,
        allow_origins=allowed,
        allow_methods=["GET", "POST", "DELETE"],
        allow_headers=headers,
        expose_headers=["mcp-session-id"],
    )


class UniqueRequestIds:
    """Refuse a POST of a session whose JSON-RPC request id one of its POSTs still waits on."""

    def __init__(self, app: Any) -> None:
        from mcp.shared.dispatcher import coerce_request_id  # the SDK loaded only when serving (mcp_adapter/cli.py)

        self.app, self.coerce = app, coerce_request_id
        self.in_flight: set[tuple[bytes, Any]] = set()

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        session = dict(scope.get("headers") or []).get(b"mcp-session-id")
        if scope["type"] != "http" or scope.get("method") != "POST" or session is None:
            await self.app(scope, receive, send)  # a 2026-07-28 request is one exchange, no session
            return
        messages, body = await _read_body(receive)
        request_id = _request_id(body)
        key = (session, self.coerce(request_id)) if request_id is not None else None
        if key in self.in_flight:
            message = f"Invalid Request: duplicate request id {json.dumps(request_id)} while one is in flight"
            error = {"jsonrpc": "2.0", "id": request_id, "error": {"code": -32600, "message": message}}
            await _refuse(send, 400, json.dumps(error).encode(), b"application/json")
            return

        async def replay() -> dict:
            return messages.pop(0) if messages else await receive()

        if key is not None:
            self.in_flight.add(key)
        try:
            await self.app(scope, replay, send)
        finally:
            self.in_flight.discard(key)


async def _read_body(receive: Any) -> tuple[list[dict], bytes]:
    """The request's messages read (to be replayed) and its body, up to MAX_BODY."""
    messages: list[dict] = []
    body = b""
    while len(body) <= MAX_BODY:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        body += message.get("body", b"")
        if not message.get("more_body", False):
            break
    return messages, body


def _request_id(body: bytes) -> str | int | None:
    """The id of the JSON-RPC request a POST's body is, None for anything else (the SDK answers it)."""
    try:
        message = json.loads(body) if len(body) <= MAX_BODY else None
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or "method" not in message:
        return None
    rid = message.get("id")
    return rid if isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool)) else None
