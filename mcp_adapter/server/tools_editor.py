"""The live Unity editor: `editor_tools` lists its tools, `editor_call` runs one (through the bridge)."""

from __future__ import annotations

from typing import Annotated, Any

import anyio
import msgspec
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from indexer.query.workspace import ProjectIndex
from indexer.words import echoed
from mcp_adapter.editor import bridge as eb
from mcp_adapter.server.results import EditorCallResult, EditorTool, EditorToolsResult, make_tool, tool_result
from mcp_adapter.server.state import ServerState, state_of

ProjectArg = Annotated[
    str | None,
    Field(description="project name, when the workspace holds several (default: the one whose editor runs)"),
]


def _allowed(ctx: Context, name: str) -> ServerState:
    """The state, once the request may use the editor (access.py); a tool error otherwise."""
    state = state_of(ctx)
    refusal = state.access.refusal(ctx.request_context, name)
    if refusal is not None:
        raise ToolError(refusal)
    return state


def _project(state: ServerState, project: str | None) -> ProjectIndex:
    ws = state.ws
    if project is None:
        return ws.projects[0] if len(ws.projects) == 1 else _only_running(state)
    for p in ws.projects:
        if project in (p.name, str(p.root)):
            return p
    raise ToolError(f"no project {echoed(project)!r}; projects: {', '.join(p.name for p in ws.projects)}")


def _only_running(state: ServerState) -> ProjectIndex:
    """The one project of several whose editor runs: the first project used to be taken, whose
    editor may be closed while another's runs, or which is not the one the caller meant."""
    running = [p for p in state.ws.projects if _editor_runs(state.make_bridge(p))]
    if len(running) == 1:
        return running[0]
    names = ", ".join(p.name for p in state.ws.projects)
    why = (
        f"the Unity editor runs for several of them ({', '.join(p.name for p in running)})"
        if running
        else "no Unity editor runs for any of them"
    )
    raise ToolError(f"this workspace serves several projects and {why}: give `project`, one of: {names}")


def _editor_runs(bridge: eb.EditorBridge) -> bool:
    """A live editor's heartbeat, reloading or stale included (the call then waits or says why)."""
    try:
        bridge.heartbeat()
    except (eb.EditorNotRunning, eb.EditorProtocolError):
        return False
    except eb.EditorBridgeError:  # a stale heartbeat of a live process
        pass
    return True


def _editor_error(exc: eb.EditorBridgeError) -> ToolError:
    return ToolError(f"editor: {exc.message} [{exc.code}]")


def editor_tools(ctx: Context, project: ProjectArg = None) -> CallToolResult:
    """The tools of the running Unity editor (live scene, console, play mode...), with their input schemas.
    Needs the editor open with the unity-index bridge package installed."""
    state = _allowed(ctx, "editor_tools")
    p = _project(state, project)
    try:
        listed = state.make_bridge(p).list_tools()
    except eb.EditorBridgeError as exc:
        raise _editor_error(exc) from None
    tools = [  # entries checked by list_tools
        EditorTool(name=t["name"], description=t.get("description", ""), input_schema=t["input_schema"]) for t in listed
    ]
    text = "\n".join(f"{t.name}: {t.description}" for t in tools) or "the editor offers no tools"
    return tool_result(EditorToolsResult(project=p.name, tools=tools), text)


def editor_call(
    name: Annotated[str, Field(description="an editor tool's name, from editor_tools")],
    ctx: Context,
    arguments: Annotated[dict[str, Any] | None, Field(description="the tool's arguments (its input schema)")] = None,
    project: ProjectArg = None,
) -> CallToolResult:
    """Invoke one tool of the running Unity editor; waits out a domain reload within a bound."""
    state = _allowed(ctx, "editor_call")
    if not name.strip():
        raise ToolError("give the editor tool's name; editor_tools lists them")
    p = _project(state, project)
    try:
        result = state.make_bridge(p).call_tool(name, arguments or {})
    except eb.EditorBridgeError as exc:
        raise _editor_error(exc) from None
    text = result if isinstance(result, str) else msgspec.json.encode(result).decode()
    return tool_result(EditorCallResult(project=p.name, tool=name, result=result), text)


def tools(threads: anyio.CapacityLimiter) -> list[Tool]:
    """The editor tools, run on `threads` (shared with the direct editor tools), never on the pool
    the index tools answer on."""
    return [
        make_tool(editor_tools, ToolAnnotations(readOnlyHint=True, openWorldHint=False), threads=threads),
        make_tool(
            editor_call,
            ToolAnnotations(readOnlyHint=False, destructiveHint=True, openWorldHint=False),
            threads=threads,
        ),
    ]
