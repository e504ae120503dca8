"""Resources: the project overview, and the outline of a file by path or by GUID.

A read that fails is a JSON-RPC error: a file or GUID that is not indexed is "resource not found"
(-32002 in the 2025-11-25 spec; -32602 with `data.uri` from 2026-07-28, SEP-2164, which asks
clients to accept both); a malformed or out-of-project path is -32602 (invalid params); a failure
that is not a bug (no index that can be built, a folder that cannot be written) is -32603 saying why.
`resources/subscribe` refuses what a read refuses (`check_subscription`).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from mcp.server import MCPServer
from mcp.server.context import ServerRequestContext
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from indexer.query.lookup import is_guid
from indexer.words import echoed
from mcp_adapter.server.changes import file_uri
from mcp_adapter.server.failures import explain, repairing
from mcp_adapter.server.freshness import Freshness
from mcp_adapter.server.results import DescribeResult
from mcp_adapter.server.state import ServerState, request_state
from mcp_adapter.server.tools_graph import NotIndexed, describe_file
from mcp_adapter.server.tools_index import overview_of

# "Resource not found" in the 2025-11-25 spec (and earlier); the SDK has no constant for it since
# 2026-07-28 retired it in favour of INVALID_PARAMS.
RESOURCE_NOT_FOUND_2025 = -32002
OVERVIEW_URI = "unity://project/overview"
FILE_PREFIX, ASSET_PREFIX = "unity://file/", "unity://asset/"
SERVED = "this server serves unity://project/overview, unity://file/<path> and unity://asset/<guid>"
_GUID_IN_FILE = "unity://file/ takes a path; use unity://asset/{guid} for a GUID"


def _error(ctx: Context | ServerRequestContext[Any, Any], message: str, *, not_found: bool = False) -> MCPError:
    request = ctx.request_context if isinstance(ctx, Context) else ctx
    uri = str((request.params or {}).get("uri", ""))
    legacy = request.protocol_version not in MODERN_PROTOCOL_VERSIONS
    code = RESOURCE_NOT_FOUND_2025 if not_found and legacy else INVALID_PARAMS
    return MCPError(code=code, message=message, data={"uri": uri})


def _failure(exc: Exception, fresh: Freshness, uri: str) -> Exception:
    """A failure that is not a bug (failures.py) as an internal error saying why; else `exc`."""
    message = explain(exc, fresh)
    if message is None:
        return exc
    return MCPError(code=INTERNAL_ERROR, message=message, data={"uri": uri})


def _described(request: ServerRequestContext[Any, Any], text: str) -> tuple[DescribeResult, str]:
    state = request_state(request)

    def answer() -> tuple[DescribeResult, str]:
        state.fresh.ensure()
        return describe_file(state.ws, text, state.tok)

    try:
        return repairing(state.fresh, answer)
    except NotIndexed as exc:
        raise _error(request, str(exc), not_found=True) from None
    except ToolError as exc:
        raise _error(request, str(exc)) from None
    except Exception as exc:
        raise _failure(exc, state.fresh, str((request.params or {}).get("uri", ""))) from exc


def _describe(ctx: Context, text: str) -> str:
    return _described(ctx.request_context, text)[1]


def check_subscription(request: ServerRequestContext[Any, Any], uri: str) -> str:
    """`resources/subscribe`: the error a read of `uri` gives, if any; else the URI notifications
    name the resource by (`unity://file/Assets/My Health.cs` for `.../My%20Health.cs`, which a read
    decodes as the SDK's template does, or for the bare `unity://file/My Health.cs`). It answered
    `{}` to anything, `http://x` and files not indexed included. Blocking."""
    if uri == OVERVIEW_URI:
        return uri
    if uri.startswith(FILE_PREFIX):
        text = unquote(uri[len(FILE_PREFIX) :])
        if is_guid(text):
            raise _error(request, _GUID_IN_FILE)
        return file_uri(_described(request, text)[0].path)
    if uri.startswith(ASSET_PREFIX):
        text = unquote(uri[len(ASSET_PREFIX) :])
        if not is_guid(text):
            raise _error(request, f"{echoed(text)!r} is not a GUID (32 hexadecimal digits)")
        _described(request, text)
        return f"{ASSET_PREFIX}{text.lower()}"
    raise _error(request, f"Unknown resource: {echoed(uri)}; {SERVED}")


def file_resource(path: str, ctx: Context) -> str:
    if is_guid(path):
        raise _error(ctx, _GUID_IN_FILE)
    return _describe(ctx, path)


def asset_resource(guid: str, ctx: Context) -> str:
    if not is_guid(guid):
        raise _error(ctx, f"{echoed(guid)!r} is not a GUID (32 hexadecimal digits)")
    return _describe(ctx, guid)


def register(mcp: MCPServer, state: ServerState) -> None:
    """`state` is for the static overview resource: the SDK (mcp 2.3) passes no request context to
    a resource without URI variables, so that one alone closes over it."""

    def overview_resource() -> str:
        try:
            return repairing(state.fresh, lambda: overview_of(state)[1])
        except Exception as exc:
            raise _failure(exc, state.fresh, OVERVIEW_URI) from exc

    mcp.resource(OVERVIEW_URI, mime_type="text/markdown", description="the project overview and tree")(
        overview_resource
    )
    mcp.resource("unity://file/{+path}", mime_type="text/plain", description="outline of an indexed file")(
        file_resource
    )
    mcp.resource("unity://asset/{guid}", mime_type="text/plain", description="outline of the asset with this GUID")(
        asset_resource
    )
