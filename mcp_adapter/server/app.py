"""The MCP server: the index (and the live editor beside it) as tools, resources and a prompt.

Every tool returns a `CallToolResult` with a readable text rendering (indexer/query/render.py, the
same text the CLI prints) and the indexer's records as structured content, whose output schema is
generated from the same msgspec types (results.py). Before answering, the server makes sure the
index holds every change made on disk (freshness.py: a watcher, or a stat walk). Index tools never
touch the editor. While a session runs, live.py watches the project and the editor and notifies
clients (notify.py). Handlers find what they need on the lifespan context (state.py).

Tools by domain: tools_search.py, tools_graph.py, tools_index.py, tools_editor.py; then
resources.py and prompts.py.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import anyio
from mcp.server import MCPServer

from indexer.query.tokens import counter
from indexer.query.workspace import ProjectIndex, Workspace
from indexer.version import version
from mcp_adapter.editor import bridge as eb
from mcp_adapter.editor.direct import DirectEditorTools
from mcp_adapter.editor.live import DEFAULT_POLL, EditorMonitor
from mcp_adapter.server import prompts, resources, tools_editor, tools_graph, tools_index, tools_search
from mcp_adapter.server.access import EditorAccess
from mcp_adapter.server.arguments import ArgumentCheck
from mcp_adapter.server.freshness import DEFAULT_REFRESH_INTERVAL, Freshness
from mcp_adapter.server.invalid_params import before_initialize, malformed_params
from mcp_adapter.server.live import Live
from mcp_adapter.server.notify import Notifier
from mcp_adapter.server.state import ServerState

log = logging.getLogger("unity_index.mcp")

EDITOR_TOOL_MODES = ("compact", "direct")

INSTRUCTIONS = """unity-index: a fresh index of a Unity project (C# scripts, scenes, prefabs, ScriptableObjects,
materials, shaders). Start a task with get_context (one call: overview + the ranked files under a token
budget, then the files one reference from the best of them, a line each), or search for words/identifiers;
quote a text the game shows or logs ("You cannot train here") to rank the files holding it first.
find_references lists every code line and asset (prefab, scene, UnityEvent) that uses a type, Type.Member,
path or GUID; for a serialized field (Type.field), the value each prefab, scene and asset holds.
describe outlines one file. Paths are relative to the project (Assets/...). editor_tools /
editor_call reach a running Unity editor, when there is one."""


def create_server(
    ws: Workspace,
    *,
    refresh_interval: float = DEFAULT_REFRESH_INTERVAL,
    tokenizer: str = "auto",
    bridge_factory: Callable[[ProjectIndex], eb.EditorBridge] | None = None,
    watch: bool = True,
    editor_tools_mode: str = "compact",
    editor_poll: float = DEFAULT_POLL,
    http_token: str | None = None,
) -> MCPServer:
    """An MCP server over `ws` (one project, or the projects of a repository).

    `watch`: keep the index current from file events while a session runs (else a stat walk at
    most every `refresh_interval` s before answering). `editor_tools_mode`: `compact` (the
    editor behind editor_tools/editor_call) or `direct` (also each editor tool as its own tool).
    `editor_poll`: how often the editor's heartbeat is read. `http_token`: the bearer token HTTP
    requests carry (`serve --token`); over HTTP the editor tools need it or the bridge's (access.py)."""
    if editor_tools_mode not in EDITOR_TOOL_MODES:
        raise ValueError(f"editor_tools_mode must be one of {EDITOR_TOOL_MODES}, not {editor_tools_mode!r}")
    notifier = Notifier(resources.check_subscription)
    fresh = Freshness(ws, refresh_interval, watch=watch)
    live = Live(fresh, notifier)
    make_bridge = bridge_factory or (lambda p: eb.EditorBridge(p.root, reload_wait=10.0))
    access = EditorAccess(ws, http_token)
    state = ServerState(ws, fresh, live, counter(tokenizer), make_bridge, refresh_interval, access)
    editor_threads = anyio.CapacityLimiter(eb.CALLS_AT_ONCE)  # not the pool the index tools answer on
    tools = [*tools_search.tools(), *tools_graph.tools(), *tools_index.tools(), *tools_editor.tools(editor_threads)]
    mcp = MCPServer(
        name="unity-index",
        version=version(),
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        tools=tools,
        subscriptions=notifier.bus,
        lifespan=state.lifespan,
        middleware=[before_initialize, malformed_params, access, ArgumentCheck(tools), prompts.known_arguments],
    )
    resources.register(mcp, state)
    prompts.register(mcp)
    notifier.install(mcp)
    if editor_tools_mode == "direct":
        reserved = frozenset({"editor_tools", "editor_call"})
        live.direct = DirectEditorTools(ws, make_bridge, reserved, access.refusal, threads=editor_threads)
        live.direct.install(mcp)
    live.editor = EditorMonitor(
        ws.projects, make_bridge, live.editor_changed, fetch_tools=live.direct is not None, interval=editor_poll
    )
    return mcp
