"""Resources: the project overview, and the outline of a file by path or by GUID."""

from __future__ import annotations

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ResourceError, ToolError

from indexer.query.lookup import is_guid
from mcp_adapter.server.state import ServerState, state_of
from mcp_adapter.server.tools_graph import describe_file
from mcp_adapter.server.tools_index import overview_of


def _describe(ctx: Context, text: str) -> str:
    state = state_of(ctx)
    state.fresh.ensure()
    try:
        return describe_file(state.ws, text)[1]
    except ToolError as exc:
        raise ResourceError(str(exc)) from None


def file_resource(path: str, ctx: Context) -> str:
    if is_guid(path):
        raise ResourceError("unity://file/ takes a path; use unity://asset/{guid} for a GUID")
    return _describe(ctx, path)


def asset_resource(guid: str, ctx: Context) -> str:
    if not is_guid(guid):
        raise ResourceError(f"{guid!r} is not a GUID (32 hexadecimal digits)")
    return _describe(ctx, guid)


def register(mcp: MCPServer, state: ServerState) -> None:
    """`state` is for the static overview resource: the SDK (mcp 2.3) passes no request context to
    a resource without URI variables, so that one alone closes over it."""

    def overview_resource() -> str:
        return overview_of(state)[1]

    mcp.resource("unity://project/overview", mime_type="text/markdown", description="the project overview and tree")(
        overview_resource
    )
    mcp.resource("unity://file/{+path}", mime_type="text/plain", description="outline of an indexed file")(
        file_resource
    )
    mcp.resource("unity://asset/{guid}", mime_type="text/plain", description="outline of the asset with this GUID")(
        asset_resource
    )
