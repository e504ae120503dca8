"""What the tools return: the indexer's own msgspec records, in envelopes for MCP.

There is one record model (indexer/model.py). A tool's structured content is a record (or an
envelope of records) encoded by msgspec, and its output schema is generated from the same type by
`msgspec.json.schema_components`, so a field added to a record reaches MCP clients without a
second declaration.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Annotated, Any

import anyio
import anyio.to_thread
import msgspec
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, TextContent, ToolAnnotations

from indexer.model import BuildProgress, ContextPack, Description, Hit, Overview, Status, Target, UpdateStats, Usage
from mcp_adapter.server.failures import explained

READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)


class SearchResult(msgspec.Struct):
    query: str
    results: list[Hit]


class References(msgspec.Struct):
    target: Target
    total: int
    offset: int
    next_offset: Annotated[
        int | None, msgspec.Meta(description="pass as offset for the next page; null when this is the last")
    ]
    usages: list[Usage]


class DescribeResult(Description, kw_only=True):
    project: Annotated[str, msgspec.Meta(description="the project the file belongs to")]
    symbols_total: Annotated[
        int, msgspec.Meta(description="symbols the file holds; `symbols` lists the first ones (describe --json: all)")
    ]
    refs_total: Annotated[
        int, msgspec.Meta(description="references the file holds; `refs` lists the first ones (describe --json: all)")
    ]


class OverviewResult(msgspec.Struct):
    projects: list[Overview]
    tree: str


class StatusResult(msgspec.Struct):
    projects: list[Status]
    freshness: Annotated[
        str,
        msgspec.Meta(
            description="watch: a file watcher updates the index and every answer waits for pending changes; "
            "poll: files are checked on disk before answering, at most every auto_refresh_seconds"
        ),
    ]
    freshness_note: Annotated[str, msgspec.Meta(description="what the mode means now, and why it is poll when it is")]
    auto_refresh_seconds: Annotated[
        float, msgspec.Meta(description="in poll mode, the server re-checks files at most this often")
    ]
    building: Annotated[
        list[ProjectProgress],
        msgspec.Meta(description="updates running now (a first build: answers wait for it), with their progress"),
    ] = []


class ProjectProgress(BuildProgress, kw_only=True):
    project: str


class ProjectUpdate(UpdateStats, kw_only=True):
    project: str


class RefreshResult(msgspec.Struct):
    projects: list[ProjectUpdate]


class EditorTool(msgspec.Struct):
    name: str
    description: str = ""
    input_schema: dict[str, Any] = {}


class EditorToolsResult(msgspec.Struct):
    project: str
    tools: list[EditorTool]


class EditorCallResult(msgspec.Struct):
    project: str
    tool: str
    result: Any = None


# Each tool's structured content, by tool name (the test of the record model walks these).
OUTPUTS: dict[str, type] = {
    "search": SearchResult,
    "get_context": ContextPack,
    "find_references": References,
    "describe": DescribeResult,
    "project_overview": OverviewResult,
    "index_status": StatusResult,
    "refresh": RefreshResult,
    "editor_tools": EditorToolsResult,
    "editor_call": EditorCallResult,
}


def output_schema(kind: type) -> dict[str, Any]:
    """The JSON schema of a Struct, its own object at the root (MCP wants `type: object` there)."""
    (ref,), defs = msgspec.json.schema_components([kind], ref_template="#/$defs/{name}")
    root = defs.pop(ref["$ref"].rsplit("/", 1)[-1])
    return {**root, "$defs": defs} if defs else root


def tool_result(value: msgspec.Struct, text: str) -> CallToolResult:
    """A readable text block for the model and the record as structured content."""
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=msgspec.to_builtins(value))


def make_tool(
    fn: Callable[..., CallToolResult],
    annotations: ToolAnnotations = READ_ONLY,
    *,
    own_thread: bool = False,
    threads: anyio.CapacityLimiter | None = None,
) -> Tool:
    """An MCP tool from a function; its output schema comes from the record type in OUTPUTS. A
    failure that is not a bug (failures.py) is a tool error saying why. `own_thread`, `threads`:
    see `on_own_thread`."""
    handler = explained(fn)
    separate = own_thread or threads is not None
    tool = Tool.from_function(on_own_thread(handler, threads) if separate else handler, annotations=annotations)
    tool.fn_metadata.output_schema = output_schema(OUTPUTS[tool.name])
    return tool


def on_own_thread(
    fn: Callable[..., CallToolResult], threads: anyio.CapacityLimiter | None = None
) -> Callable[..., Any]:
    """`fn` as a coroutine that runs it on a thread of its own, out of anyio's shared pool (40
    threads) where the SDK runs a sync tool: calls waiting for a first build fill it, and a status
    answer must never queue behind them. `threads`: at most so many such threads at once, shared
    with the other tools given the same limiter (the editor's: a hung editor holds them, not the
    pool the index tools answer on)."""

    @functools.wraps(fn)
    async def run(*args: Any, **kwargs: Any) -> CallToolResult:
        call = functools.partial(fn, *args, **kwargs)
        return await anyio.to_thread.run_sync(call, limiter=threads or anyio.CapacityLimiter(1))

    return run
