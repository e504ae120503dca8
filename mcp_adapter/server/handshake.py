"""A request made before the `initialize` handshake, said as such.

The SDK refuses a request (but `ping`) on a connection of the 2025 era that has not been
initialized with the error shape it pins for compatibility, -32602 "Invalid request parameters"
with empty data: a client that skipped or lost its `initialize` (a hand-written script, a proxy
restarted mid-session) was told its parameters were wrong, whatever they were. The code is kept
(clients may key off it); the message says what is missing.
"""

from __future__ import annotations

from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

NOT_INITIALIZED = (
    "the session is not initialized: send an `initialize` request first (MCP's handshake), then the"
    " `notifications/initialized` notification, then this request"
)


async def before_initialize(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Server middleware: the SDK's refusal of a request before `initialize` names the missing handshake."""
    try:
        return await call_next(ctx)
    except MCPError as exc:
        gate = (exc.code, exc.message, exc.data) == (INVALID_PARAMS, "Invalid request parameters", "")
        if gate and ctx.method != "initialize" and ctx.session.client_params is None:
            raise MCPError(code=INVALID_PARAMS, message=NOT_INITIALIZED) from None
        raise
