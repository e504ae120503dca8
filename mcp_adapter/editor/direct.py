"""`serve --editor-tools direct`: each tool of the running editor as an MCP tool of its own.

The editor's tools are only known at run time and carry their own JSON schemas, so they are not
registered as Python functions: the server's `tools/list` and `tools/call` handlers are wrapped
to add them, named `editor_<tool>` (`editor_<project>_<tool>` in a workspace of several
projects). `update` replaces a project's set when its editor connects, reloads or disconnects;
the caller then sends `tools/list_changed`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anyio.to_thread
from mcp.server import MCPServer
from mcp.server.context import ServerRequestContext
from mcp.types import CallToolRequestParams, CallToolResult, ListToolsResult, TextContent, Tool, ToolAnnotations

from indexer.query.workspace import ProjectIndex, Workspace
from mcp_adapter.editor import bridge as eb
from mcp_adapter.editor.live import EditorView

PREFIX = "editor_"
MAX_NAME = 128  # MCP clients refuse longer tool names
log = logging.getLogger("unity_index.mcp")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class _Entry:
    project: ProjectIndex
    name: str  # the editor's own name
    tool: Tool


class DirectEditorTools:
    def __init__(
        self,
        ws: Workspace,
        make_bridge: Callable[[ProjectIndex], eb.EditorBridge],
        reserved: frozenset[str],
        refusal: Callable[[ServerRequestContext[Any, Any], str], str | None] = lambda _ctx, _name: None,
        threads: anyio.CapacityLimiter | None = None,
    ) -> None:
        self.ws = ws
        self.make_bridge = make_bridge
        # the editor calls' own threads, not the pool the index tools answer on (create_server's)
        self._threads = threads or anyio.CapacityLimiter(eb.CALLS_AT_ONCE)
        self._reserved = reserved  # the server's own tool names
        self._refusal = refusal  # why a request may not run an editor tool (server/access.py)
        self._entries: dict[str, _Entry] = {}
        self._lock = threading.Lock()

    def mcp_name(self, project: ProjectIndex, name: str) -> str:
        """`editor_<tool>`, or `editor_<project>_<tool>` with several projects; a name that would
        pass 128 characters is cut and ends in a digest of the whole, so two never meet."""
        middle = "" if len(self.ws.projects) == 1 else self._middle(project)
        full = PREFIX + middle + _UNSAFE.sub("_", name)
        if len(full) <= MAX_NAME:
            return full
        tail = "_" + _digest(f"{project.name}\n{name}")
        return full[: MAX_NAME - len(tail)] + tail

    def _middle(self, project: ProjectIndex) -> str:
        """The project's part of a name: its name made safe, with a digest of its name when another
        project's could be read in its place: made the same (`My Game`, `My_Game`), or it followed
        by `_` and more (`Game` with a tool `demo_spawn`, `Game_demo` with `spawn`)."""
        safe = _UNSAFE.sub("_", project.name)
        others = [_UNSAFE.sub("_", p.name) for p in self.ws.projects if p is not project]
        if any(o == safe or o.startswith(safe + "_") or safe.startswith(o + "_") for o in others):
            return f"{safe}_{_digest(project.name)}_"
        return f"{safe}_"

    def names(self) -> list[str]:
        with self._lock:
            return sorted(self._entries)

    def update(self, project: ProjectIndex, view: EditorView) -> None:
        """The project's editor tools are now those of `view` (none when it is not connected)."""
        entries: dict[str, _Entry] = {}
        for t in view.tools:
            name = str(t["name"])
            mcp_name = self.mcp_name(project, name)
            if mcp_name in self._reserved:
                continue  # an editor tool named like one of the server's own (editor_tools...)
            held = self._entries.get(mcp_name)
            if mcp_name in entries or (held is not None and held.project is not project):
                log.warning("editor tool %s of %s is not offered: %s names another tool", name, project.name, mcp_name)
                continue  # past the digests above, two names meet only by a digest's chance
            schema = t["input_schema"]  # checked by EditorBridge.list_tools
            description = str(t.get("description") or name)
            entries[mcp_name] = _Entry(
                project,
                name,
                Tool(
                    name=mcp_name,
                    description=f"{description} (live Unity editor tool of {project.name}; waits out a domain reload)",
                    input_schema=schema,
                    annotations=ToolAnnotations(openWorldHint=False),
                ),
            )
        with self._lock:
            self._entries = {k: e for k, e in self._entries.items() if e.project is not project} | entries

    # -- the wrapped handlers --------------------------------------------------------------------

    def install(self, mcp: MCPServer) -> None:
        low = mcp._lowlevel_server
        list_entry = low.get_request_handler("tools/list")
        call_entry = low.get_request_handler("tools/call")
        schema_of = low.get_tool_input_schema
        assert list_entry is not None and call_entry is not None
        base_list, base_call = list_entry.handler, call_entry.handler

        async def list_tools(ctx: ServerRequestContext[Any, Any], params: Any) -> ListToolsResult:
            result = await base_list(ctx, params)
            with self._lock:
                extra = [e.tool for e in self._entries.values()]
            return result.model_copy(update={"tools": [*result.tools, *extra]})

        async def call_tool(ctx: ServerRequestContext[Any, Any], params: CallToolRequestParams) -> Any:
            with self._lock:
                entry = self._entries.get(params.name)
            gone = (
                entry is None
                and params.name.startswith(PREFIX)
                and (schema_of is None or schema_of(params.name) is None)
            )
            if entry is not None or gone:  # refused alike: the editor's state is told only with the secret
                refused = self._refusal(ctx, params.name)
                if refused is not None:
                    return _error(refused)
            if entry is not None:
                return await anyio.to_thread.run_sync(self._call, entry, params.arguments or {}, limiter=self._threads)
            if gone:
                return await anyio.to_thread.run_sync(self._gone, params.name, limiter=self._threads)
            return await base_call(ctx, params)

        def input_schema(name: str) -> dict[str, Any] | None:
            with self._lock:
                entry = self._entries.get(name)
            if entry is not None:
                return entry.tool.input_schema
            return schema_of(name) if schema_of is not None else None

        low.add_request_handler("tools/list", list_entry.params_type, list_tools)
        low.add_request_handler("tools/call", call_entry.params_type, call_tool)
        low.get_tool_input_schema = input_schema

    def _call(self, entry: _Entry, arguments: dict[str, Any]) -> CallToolResult:
        try:
            result = self.make_bridge(entry.project).call_tool(entry.name, arguments)
        except eb.EditorBridgeError as exc:
            return _error(f"editor: {exc.message} [{exc.code}]")
        text = result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)
        return CallToolResult(
            content=[TextContent(type="text", text=text)],
            structured_content={"project": entry.project.name, "tool": entry.name, "result": result},
        )

    def _gone(self, name: str) -> CallToolResult:
        """A direct editor tool that is not offered (any more): say why (to a request the editor
        tools are allowed to: over HTTP, the state of the editor is told only with the secret)."""
        for p in self.ws.projects:
            try:
                self.make_bridge(p).heartbeat()
            except eb.EditorBridgeError as exc:
                return _error(f"{name}: the Unity editor is not available: {exc.message} [{exc.code}]")
        return _error(f"{name}: the running Unity editor does not offer this tool; editor_tools lists what it offers")


def _digest(text: str) -> str:
    """8 hex characters that tell `text` from any other, the same in every session."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def _error(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)
