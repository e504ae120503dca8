"""Who may use the editor tools over HTTP.

The editor bridge runs code in the Unity editor for whoever holds its token, which the editor
writes to `Library/UnityIndex/editor.json` readable by the user alone (chmod 600). A stdio client
is the process that started the server, so it is the user. An HTTP client on loopback is any
local user, so over HTTP the editor tools (`editor_tools`, `editor_call`, the direct `editor_*`
tools) are listed and run only for a request carrying `Authorization: Bearer <secret>` where the
secret is the bridge's current token or the token `serve --token` requires of every request.
Without it they are left out of `tools/list` and a call is refused with what to send. The index
tools stay open on loopback, as before: they read the project, which the server's user chose to
serve.
"""

from __future__ import annotations

import hmac
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext

from indexer.changes.heartbeat import HeartbeatError, read_heartbeat
from indexer.query.workspace import Workspace
from mcp_adapter.bearer import bearer

EDITOR_PREFIX = "editor_"  # editor_tools, editor_call and every direct editor tool

REFUSED = (
    "{name}: the Unity editor's tools need a secret over HTTP: send 'Authorization: Bearer <token>' with "
    'the editor bridge\'s token (the "token" of Library/UnityIndex/editor.json, readable only by you; it '
    "changes when the editor reloads scripts), or start `unity-index serve --transport http --token SECRET` "
    "and send that SECRET. Over stdio no secret is needed."
)


class EditorAccess:
    """The rule, for the editor tools (`refusal`) and as server middleware (hides them from
    `tools/list`: the result is filtered after the SDK has shaped it, so its envelope stays whole)."""

    def __init__(self, ws: Workspace, server_token: str | None = None) -> None:
        self.ws = ws
        self.server_token = server_token

    def allowed(self, ctx: ServerRequestContext[Any, Any]) -> bool:
        headers = getattr(ctx.request, "headers", None)
        if headers is None:  # stdio or in-process: the client started this server
            return True
        given = bearer(str(headers.get("authorization", "")))
        secrets = [self.server_token] if self.server_token else []
        for p in self.ws.projects:
            try:
                secrets.append(read_heartbeat(p.root).token)
            except HeartbeatError:
                continue
        return bool(given) and any(hmac.compare_digest(given, s.encode()) for s in secrets if s)

    def refusal(self, ctx: ServerRequestContext[Any, Any], name: str) -> str | None:
        """Why this request may not run the editor tool `name`; None when it may."""
        return None if self.allowed(ctx) else REFUSED.format(name=name)

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        result = await call_next(ctx)
        if ctx.method == "tools/list" and isinstance(result, dict) and not self.allowed(ctx):
            tools = [t for t in result.get("tools", []) if not str(t.get("name", "")).startswith(EDITOR_PREFIX)]
            result = {**result, "tools": tools}
        return result
