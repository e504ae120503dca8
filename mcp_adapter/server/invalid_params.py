"""The SDK's -32602 "Invalid request parameters", empty data, said in words.

The SDK answers so, the shape it pins for compatibility, both a request whose parameters fail
MCP's schema (`tools/call` without `name`, `resources/read` without `uri`, a prompt argument sent
as a number) and, on a connection of the 2025 era, a request (but `ping`) made before the
`initialize` handshake (a hand-written script, a proxy restarted mid-session): the client learnt
neither which parameter was wrong nor that none was. The code is kept (clients may key off it);
the message says which parameter and why, or what is missing.
"""

from __future__ import annotations

from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS
from pydantic import ValidationError

from indexer.words import echoed

NOT_INITIALIZED = (
    "the session is not initialized: send an `initialize` request first (MCP's handshake), then the"
    " `notifications/initialized` notification, then this request"
)


SHOWN_PROBLEMS = 3  # a union's schema fails in a dozen ways: the first few tell what to fix


async def malformed_params(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Server middleware: parameters failing MCP's schema are named, each with pydantic's reason."""
    try:
        return await call_next(ctx)
    except ValidationError as exc:
        problems = [f"`{'.'.join(map(str, e['loc'])) or 'params'}`: {e['msg']}" for e in exc.errors()]
        more = f"; and {len(problems) - SHOWN_PROBLEMS} more" if len(problems) > SHOWN_PROBLEMS else ""
        said = "; ".join(problems[:SHOWN_PROBLEMS]) + more
        raise MCPError(
            code=INVALID_PARAMS, message=f"Invalid request parameters of {echoed(ctx.method)}: {said}"
        ) from None


async def before_initialize(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Server middleware: the SDK's refusal of a request before `initialize` names the missing handshake."""
    try:
        return await call_next(ctx)
    except MCPError as exc:
        gate = (exc.code, exc.message, exc.data) == (INVALID_PARAMS, "Invalid request parameters", "")
        if gate and ctx.method != "initialize" and ctx.session.client_params is None:
            raise MCPError(code=INVALID_PARAMS, message=NOT_INITIALIZED) from None
        raise
