"""`serve` over stdio, answering every request read before stdin closed.

The SDK's dispatcher cancels the handlers still running when its read stream ends, so a client
that writes its requests and closes stdin (`printf '...' | unity-index serve`, a one-shot script)
got an answer only to `initialize`. Here the stream between the SDK's stdio transport and the
server is held open after EOF until every request read has been answered (or cancelled by the
client), bounded by DRAIN_TIMEOUT; then the server sees EOF and stops as before.

A line that is not a JSON-RPC message gets JSON-RPC's answer, a parse error with a null id, where
the SDK's transport passed the exception on to the server, which only logged it: a client that
wrote a broken request waited for an answer that never came.
"""

from __future__ import annotations

from typing import Any

import anyio
from mcp.server import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import PARSE_ERROR, ErrorData, JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

DRAIN_TIMEOUT = 300.0  # an answer may wait for a first full build of a large project


class InFlight:
    """Ids of the requests read from the client and not answered yet."""

    def __init__(self) -> None:
        self.ids: set[Any] = set()
        self._changed = anyio.Event()

    def read(self, message: Any) -> None:
        if isinstance(message, JSONRPCRequest):
            self.ids.add(message.id)
        elif isinstance(message, JSONRPCNotification) and message.method == "notifications/cancelled":
            self._settle((message.params or {}).get("requestId"))

    def written(self, message: Any) -> None:
        if isinstance(message, JSONRPCResponse | JSONRPCError):
            self._settle(message.id)

    def _settle(self, request_id: Any) -> None:
        self.ids.discard(request_id)
        self._changed.set()
        self._changed = anyio.Event()

    async def drained(self) -> None:
        while self.ids:
            await self._changed.wait()


async def serve_stdio(server: MCPServer, drain_timeout: float = DRAIN_TIMEOUT) -> None:
    # The SDK's own run_stdio_async reaches the low-level server the same way.
    low = server._lowlevel_server
    in_flight = InFlight()
    to_server, from_client = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    to_client, from_server = anyio.create_memory_object_stream[SessionMessage](0)
    async with stdio_server() as (stdin, stdout):

        async def inbound() -> None:
            async with to_server, answers:
                async for item in stdin:
                    if isinstance(item, Exception):  # a line that is no JSON-RPC message
                        error = ErrorData(code=PARSE_ERROR, message=f"Parse error: {_first_line(item)}")
                        await answers.send(SessionMessage(JSONRPCError(jsonrpc="2.0", id=None, error=error)))
                        continue
                    in_flight.read(item.message)
                    await to_server.send(item)
                with anyio.move_on_after(drain_timeout):
                    await in_flight.drained()

        async def outbound() -> None:
            async with stdout:
                async for item in from_server:
                    in_flight.written(item.message)
                    await stdout.send(item)

        answers = to_client.clone()  # parse errors, written beside the server's answers
        async with anyio.create_task_group() as tg:
            tg.start_soon(inbound)
            tg.start_soon(outbound)
            await low.run(from_client, to_client, low.create_initialization_options())


def _first_line(error: Exception) -> str:
    """The transport's error, on one line and short (a pydantic error lists every field)."""
    text = str(error).strip().splitlines()
    return (text[0] if text else type(error).__name__)[:200]
