"""What every tool, resource and prompt needs, handed to it through the SDK's lifespan context.

`create_server` builds one `ServerState`; the server's lifespan (one per stdio or in-memory
connection, one for the whole HTTP server) starts the background work and yields the state, which
the SDK puts on every request's context (`ctx.request_context.lifespan_context`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from mcp.server.context import ServerRequestContext
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from indexer.query.locate import LookupFailed, locate_file, locate_folder
from indexer.query.tokens import TokenCounter
from indexer.query.workspace import ProjectIndex, Workspace
from mcp_adapter.editor.bridge import EditorBridge
from mcp_adapter.server.access import EditorAccess
from mcp_adapter.server.freshness import Freshness
from mcp_adapter.server.live import Live
from mcp_adapter.server.wording import mcp_wording


@dataclass(frozen=True)
class ServerState:
    ws: Workspace
    fresh: Freshness
    live: Live
    tok: TokenCounter
    make_bridge: Callable[[ProjectIndex], EditorBridge]
    refresh_interval: float
    access: EditorAccess

    @asynccontextmanager
    async def lifespan(self, _server: Any) -> AsyncIterator[ServerState]:
        async with self.live.running():
            yield self


def state_of(ctx: Context) -> ServerState:
    return request_state(ctx.request_context)


def request_state(request: ServerRequestContext[Any, Any]) -> ServerState:
    """The lifespan's state a request carries (a low-level handler has the request, not a Context)."""
    state = request.lifespan_context
    if not isinstance(state, ServerState):
        raise TypeError(f"the server's lifespan yielded {type(state).__name__}, not a ServerState")
    return state


def project_path(ws: Workspace, text: str, folder: bool = False) -> str:
    """A path as the client gave it (project-relative, absolute inside the project, a file name),
    as a workspace path: the CLI's resolver, without a working directory; never outside."""
    try:
        return locate_folder(ws, text) if folder else locate_file(ws, text)
    except LookupFailed as exc:
        raise ToolError(mcp_wording(str(exc))) from None
