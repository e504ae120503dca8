"""The MCP server: the index (and the live editor beside it) as tools, resources and a prompt.

Every tool returns a `CallToolResult` with a readable text rendering and structured content that
validates against a pydantic model (its output schema). Before answering, the server makes sure
the index holds every change made on disk (`freshness.py`: a watcher, or a stat walk), so a file
saved on disk shows up in the next answer. Index tools never touch the editor. While a session
runs, `live.py` watches the project and the editor and notifies clients (`notify.py`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Annotated, Any

import msgspec
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from indexer.query import lookup
from indexer.query.context import build_context
from indexer.query.lookup import LookupFailed, describe_target, inside, is_guid
from indexer.query.overview import build_overview, render_tree
from indexer.query.render import render_context, render_overview, render_status
from indexer.query.status import project_status
from indexer.query.tokens import TokenCounter, counter
from indexer.query.workspace import ProjectIndex, Workspace
from mcp_adapter.editor import bridge as eb
from mcp_adapter.editor.direct import DirectEditorTools
from mcp_adapter.editor.live import DEFAULT_POLL, EditorMonitor
from mcp_adapter.server.freshness import DEFAULT_REFRESH_INTERVAL, Freshness
from mcp_adapter.server.live import Live
from mcp_adapter.server.notify import Notifier

log = logging.getLogger("unity_index.mcp")

READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)
EDITOR_TOOL_MODES = ("compact", "direct")
OVERVIEW_TREE_TOKENS = 1500
DESCRIBE_MAX_LINES = 300

INSTRUCTIONS = """unity-index: a fresh index of a Unity project (C# scripts, scenes, prefabs, ScriptableObjects,
materials, shaders). Start a task with get_context (one call: overview + the ranked files under a token
budget), or search for words/identifiers. find_references lists every code line and asset (prefab, scene,
UnityEvent) that uses a type, Type.Member, path or GUID. describe outlines one file. Paths are relative to
the project (Assets/...). editor_tools / editor_call reach a running Unity editor, when there is one."""


# -- output models (each tool's output schema) ---------------------------------------------------


class SearchHit(BaseModel):
    path: str
    kind: str
    name: str = Field(description="best-matching declaration or object in the file")
    line: int
    score: float
    snippet: str
    reason: str = ""


class SearchResult(BaseModel):
    query: str
    results: list[SearchHit]


class ContextFile(BaseModel):
    path: str
    tokens: int
    score: float
    reason: str


class ContextResult(BaseModel):
    task: str
    budget: int
    tokens: int
    tokenizer: str
    files: list[ContextFile] = Field(description="the files in tier 2, best first")
    text: str = Field(description="the context pack: project overview and tree, then the files for the task")


class TargetInfo(BaseModel):
    kind: str = Field(description="type, member, path, guid or assembly")
    name: str
    path: str = ""
    guid: str = ""
    member: str = ""
    types: list[str] = []
    note: str = ""


class UsageInfo(BaseModel):
    path: str
    line: int
    where: str = Field(description="code or asset")
    kind: str
    context: str
    detail: str
    resolved: str = ""


class ReferencesResult(BaseModel):
    target: TargetInfo
    total: int
    offset: int
    next_offset: int | None = Field(description="pass as offset for the next page; null when this is the last")
    usages: list[UsageInfo]


class Edge(BaseModel):
    path: str
    edge: str


class DescribeResult(BaseModel):
    project: str
    path: str
    kind: str
    guid: str
    status: str
    note: str
    outline: str
    uses: list[Edge]
    used_by: list[Edge]


class AssemblyInfo(BaseModel):
    name: str
    folder: str
    editor_only: bool


class ProjectOverview(BaseModel):
    name: str
    product: str
    unity_version: str
    packages: list[str]
    assemblies: list[AssemblyInfo]
    scenes_in_build: list[str]
    defines: list[str]
    counts: dict[str, int]


class OverviewResult(BaseModel):
    projects: list[ProjectOverview]
    tree: str


class ProjectStatus(BaseModel):
    project: str
    index_dir: str
    indexed: bool
    generation: int
    files: int
    by_kind: dict[str, int]
    partial: int
    skipped: int
    stale_files: int
    index_bytes: int


class StatusResult(BaseModel):
    projects: list[ProjectStatus]
    freshness: str = Field(
        description="watch: a file watcher updates the index and every answer waits for pending changes; "
        "poll: files are checked on disk before answering, at most every auto_refresh_seconds"
    )
    freshness_note: str = Field(description="what the mode means now, and why it is poll when it is")
    auto_refresh_seconds: float = Field(description="in poll mode, the server re-checks files at most this often")


class RefreshStats(BaseModel):
    project: str
    full: bool
    files: int
    scanned: int
    added: int
    changed: int
    deleted: int
    skipped: int
    seconds: float
    generation: int


class RefreshResult(BaseModel):
    projects: list[RefreshStats]


class EditorTool(BaseModel):
    name: str
    description: str = ""
    input_schema: dict[str, Any] = {}


class EditorToolsResult(BaseModel):
    project: str
    tools: list[EditorTool]


class EditorCallResult(BaseModel):
    project: str
    tool: str
    result: Any = None


# -- helpers -------------------------------------------------------------------------------------


def _result(model: BaseModel, text: str) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=model.model_dump(mode="json")
    )


def _mcp_wording(message: str) -> str:
    return message.replace("`unity-index query`", "the `search` tool").replace(" (use --json for everything)", "")


def _inside(ws: Workspace, text: str) -> str:
    try:
        return inside(ws, text, allow_absolute=False)
    except LookupFailed as exc:
        raise ToolError(str(exc)) from None


def _render_search(hits: list, query: str) -> str:
    if not hits:
        return f"no results for {query!r}: try other words, identifiers, or drop the kind/path filter"
    lines = []
    for i, h in enumerate(hits, 1):
        loc = f"{h.path}:{h.line}" if h.line else h.path
        lines.append(f"{i}. {loc}  [{h.kind}] {h.name}  ({h.score:.2f})")
        if h.snippet:
            lines.append(f"   {h.snippet}")
    return "\n".join(lines)


def _render_refs(target: Any, usages: list, shown: list, offset: int, next_offset: int | None) -> str:
    what = {"type": "type", "member": "member", "path": "file", "guid": "GUID", "assembly": "assembly"}[target.kind]
    label = ", ".join(target.types) if target.kind in ("type", "member") else target.path or target.name
    if target.kind == "member":
        label = f"{target.member} of {label}"
    lines = [f"{what} {label}" + (f"  ({target.note})" if target.note else "")]
    if not usages:
        lines.append("no usages found")
    lines.append(f"{len(usages)} usages; showing {offset + 1 if shown else 0}-{offset + len(shown)}")
    for where in ("asset", "code"):
        group = [u for u in shown if u.where == where]
        if group:
            lines.append(f"{'in assets' if where == 'asset' else 'in code'}:")
        for u in group:
            extra = f" -> {u.resolved}" if u.resolved else ""
            ctx = f" [{u.context}]" if u.context else ""
            lines.append(f"  {u.path}:{u.line}{ctx}  {u.detail}{extra}")
    if next_offset is not None:
        lines.append(f"[{len(usages) - next_offset} more: call again with offset={next_offset}]")
    return "\n".join(lines)


def _overview(ws: Workspace, tok: TokenCounter) -> tuple[OverviewResult, str]:
    overviews = []
    kinds: dict[str, str] = {}
    for p in ws.projects:
        p = p.fresh()
        local = p.records.kinds()
        kinds.update({p.prefix + path: kind for path, kind in local.items()})
        overviews.append(build_overview(p.root, p.records, local))
    tree = render_tree(kinds, tok, OVERVIEW_TREE_TOKENS)
    model = OverviewResult(projects=[ProjectOverview(**msgspec.to_builtins(o)) for o in overviews], tree=tree)
    text = "\n\n".join([*(render_overview(o) for o in overviews), tree])
    return model, text


def _describe(ws: Workspace, text: str) -> tuple[DescribeResult, str]:
    target = text.strip()
    if not target:
        raise ToolError("give a project path (Assets/...) or a 32-hex-digit GUID to describe")
    target = _inside(ws, target)
    if not target:
        raise ToolError("that is the project folder itself: give a file path (Assets/...); project_overview covers it")
    try:
        project, desc = describe_target(ws, target, max_lines=DESCRIBE_MAX_LINES)
    except LookupFailed as exc:
        raise ToolError(_mcp_wording(str(exc))) from None
    model = DescribeResult(
        project=project,
        path=desc.path,
        kind=desc.kind,
        guid=desc.guid,
        status=desc.status,
        note=desc.note,
        outline=_mcp_wording(desc.text),
        uses=[Edge(path=e.path, edge=e.edge) for e in desc.uses],
        used_by=[Edge(path=e.path, edge=e.edge) for e in desc.used_by],
    )
    return model, model.outline


# -- the server ----------------------------------------------------------------------------------


def create_server(
    ws: Workspace,
    *,
    refresh_interval: float = DEFAULT_REFRESH_INTERVAL,
    tokenizer: str = "auto",
    bridge_factory: Callable[[ProjectIndex], eb.EditorBridge] | None = None,
    watch: bool = True,
    editor_tools_mode: str = "compact",
    editor_poll: float = DEFAULT_POLL,
) -> MCPServer:
    """An MCP server over `ws` (one project, or the projects of a repository).

    `watch`: keep the index current from file events while a session runs (else a stat walk at
    most every `refresh_interval` s before answering). `editor_tools_mode`: `compact` (the
    editor behind editor_tools/editor_call) or `direct` (also each editor tool as its own tool).
    `editor_poll`: how often the editor's heartbeat is read."""
    if editor_tools_mode not in EDITOR_TOOL_MODES:
        raise ValueError(f"editor_tools_mode must be one of {EDITOR_TOOL_MODES}, not {editor_tools_mode!r}")
    notifier = Notifier()
    fresh = Freshness(ws, refresh_interval, watch=watch)
    live = Live(fresh, notifier)
    mcp = MCPServer(
        name="unity-index",
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        subscriptions=notifier.bus,
        lifespan=live.lifespan,
    )
    notifier.install(mcp)
    tok = counter(tokenizer)
    make_bridge = bridge_factory or (lambda p: eb.EditorBridge(p.root, reload_wait=10.0))
    if editor_tools_mode == "direct":
        live.direct = DirectEditorTools(ws, make_bridge, frozenset({"editor_tools", "editor_call"}))
        live.direct.install(mcp)
    live.editor = EditorMonitor(
        ws.projects, make_bridge, live.editor_changed, fetch_tools=live.direct is not None, interval=editor_poll
    )

    @mcp.tool(annotations=READ_ONLY)
    def search(
        query: Annotated[str, Field(description="words, identifiers or a task, e.g. 'apply damage'")],
        kind: Annotated[
            str | None, Field(description="only files of this kind: csharp, scene, prefab, asset, material, shader")
        ] = None,
        path: Annotated[
            str | None, Field(description="only files under this project folder, e.g. Assets/Scripts")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=100, description="number of results")] = 10,
    ) -> Annotated[CallToolResult, SearchResult]:
        """Rank the project's files (scripts, scenes, prefabs, assets...) for a query, each with its best match."""
        if not query.strip():
            raise ToolError("the query is empty: say what you are looking for, e.g. 'player health' or 'apply damage'")
        prefix = _inside(ws, path) if path and path.strip() else None
        fresh.ensure()
        hits = ws.search(query, limit=limit, kind=kind or None, path_prefix=prefix or None)
        model = SearchResult(query=query, results=[SearchHit(**msgspec.to_builtins(h)) for h in hits])
        return _result(model, _render_search(hits, query))

    @mcp.tool(annotations=READ_ONLY)
    def get_context(
        task: Annotated[str, Field(description="the task in words, e.g. 'add a shield that absorbs damage'")],
        budget: Annotated[int, Field(ge=200, le=200_000, description="token budget, never exceeded")] = 8000,
    ) -> Annotated[CallToolResult, ContextResult]:
        """A two-tier context pack for a task: project overview and tree, then the ranked files as outlines."""
        if not task.strip():
            raise ToolError("the task is empty: describe it, e.g. 'add a shield that absorbs damage'")
        fresh.ensure()
        pack = build_context(ws, task, budget, tok)
        files = [ContextFile(**msgspec.to_builtins(f)) for f in pack.tier2.files]
        text = render_context(pack)
        model = ContextResult(
            task=task, budget=budget, tokens=pack.tokens, tokenizer=pack.tokenizer, files=files, text=text
        )
        return _result(model, text + f"\n\n[{pack.tokens}/{budget} tokens ({pack.tokenizer}); {len(files)} files]")

    @mcp.tool(annotations=READ_ONLY)
    def find_references(
        target: Annotated[
            str,
            Field(description="a type (PlayerHealth), Type.Member (PlayerHealth.Heal), a path, a GUID or an assembly"),
        ],
        limit: Annotated[int, Field(ge=1, le=1000, description="usages per page")] = 50,
        offset: Annotated[
            int, Field(ge=0, description="skip this many usages (the next_offset of a previous page)")
        ] = 0,
    ) -> Annotated[CallToolResult, ReferencesResult]:
        """Every usage of a type, member, file, GUID or assembly: code lines and asset objects (prefabs, scenes,
        UnityEvents, ScriptableObjects)."""
        text = target.strip()
        if not text:
            raise ToolError("the target is empty: give a type, Type.Member, a path (Assets/...) or a GUID")
        if "/" in text or "\\" in text:
            text = _inside(ws, text)
        fresh.ensure()
        try:
            found, usages = lookup.find_references(ws, text)
        except LookupFailed as exc:
            raise ToolError(str(exc)) from None
        if found is None:
            raise ToolError(
                f"{target}: no type, member, file, GUID or assembly of that name; the `search` tool finds by words"
            )
        shown = usages[offset : offset + limit]
        next_offset = offset + limit if offset + limit < len(usages) else None
        model = ReferencesResult(
            target=TargetInfo(**msgspec.to_builtins(found)),
            total=len(usages),
            offset=offset,
            next_offset=next_offset,
            usages=[UsageInfo(**msgspec.to_builtins(u)) for u in shown],
        )
        return _result(model, _render_refs(found, usages, shown, offset, next_offset))

    @mcp.tool(annotations=READ_ONLY)
    def describe(
        target: Annotated[str, Field(description="a project path (Assets/Scenes/Dungeon.unity) or an asset GUID")],
    ) -> Annotated[CallToolResult, DescribeResult]:
        """Outline of one file (script, scene, prefab, ScriptableObject, material, shader) with what it uses and
        what uses it."""
        fresh.ensure()
        model, text = _describe(ws, target)
        return _result(model, text)

    @mcp.tool(annotations=READ_ONLY)
    def project_overview() -> Annotated[CallToolResult, OverviewResult]:
        """The project(s): Unity version, packages, assemblies, scenes in build, defines, file counts and tree."""
        fresh.ensure()
        model, text = _overview(ws, tok)
        return _result(model, text)

    @mcp.tool(annotations=READ_ONLY)
    def index_status() -> Annotated[CallToolResult, StatusResult]:
        """What the index holds and whether it matches the files on disk (no update is run)."""
        statuses = [project_status(p.root, p.config) for p in ws.projects]
        model = StatusResult(
            projects=[
                ProjectStatus(**{**msgspec.to_builtins(s), "skipped": len(s.skipped)})  # type: ignore[arg-type]
                for s in statuses
            ],
            freshness=fresh.mode,
            freshness_note=fresh.describe(),
            auto_refresh_seconds=refresh_interval,
        )
        return _result(model, "\n\n".join([*(render_status(s) for s in statuses), f"freshness: {fresh.describe()}"]))

    @mcp.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True))
    def refresh() -> Annotated[CallToolResult, RefreshResult]:
        """Bring the index up to date with the files on disk now (incremental; a full build if there is none)."""
        done = fresh.ensure(force=True)
        rows = [
            RefreshStats(project=str(p.root), **{k: v for k, v in msgspec.to_builtins(s).items() if k in _STAT_KEYS})
            for p, s in done
        ]
        text = "\n".join(
            f"{r.project}: {r.files} files; scanned {r.scanned} ({r.added} added, {r.changed} changed), "
            f"{r.deleted} deleted, in {r.seconds:.2f}s (generation {r.generation})"
            for r in rows
        )
        return _result(RefreshResult(projects=rows), text)

    def _editor_project(project: str | None) -> ProjectIndex:
        if project is None:
            return ws.projects[0]
        for p in ws.projects:
            if project in (p.name, str(p.root)):
                return p
        raise ToolError(f"no project {project!r}; projects: {', '.join(p.name for p in ws.projects)}")

    def _editor_error(exc: eb.EditorBridgeError) -> ToolError:
        return ToolError(f"editor: {exc.message} [{exc.code}]")

    @mcp.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
    def editor_tools(
        project: Annotated[str | None, Field(description="project name, when the workspace holds several")] = None,
    ) -> Annotated[CallToolResult, EditorToolsResult]:
        """The tools of the running Unity editor (live scene, console, play mode...), with their input schemas.
        Needs the editor open with the unity-index bridge package installed."""
        p = _editor_project(project)
        try:
            tools = make_bridge(p).list_tools()
        except eb.EditorBridgeError as exc:
            raise _editor_error(exc) from None
        model = EditorToolsResult(
            project=p.name,
            tools=[
                EditorTool(
                    name=str(t.get("name", "")),
                    description=str(t.get("description", "")),
                    input_schema=t.get("input_schema") or {},
                )
                for t in tools
            ],
        )
        text = "\n".join(f"{t.name}: {t.description}" for t in model.tools) or "the editor offers no tools"
        return _result(model, text)

    @mcp.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, openWorldHint=False))
    def editor_call(
        name: Annotated[str, Field(description="an editor tool's name, from editor_tools")],
        arguments: Annotated[
            dict[str, Any] | None, Field(description="the tool's arguments (its input schema)")
        ] = None,
        project: Annotated[str | None, Field(description="project name, when the workspace holds several")] = None,
    ) -> Annotated[CallToolResult, EditorCallResult]:
        """Invoke one tool of the running Unity editor; waits out a domain reload within a bound."""
        if not name.strip():
            raise ToolError("give the editor tool's name; editor_tools lists them")
        p = _editor_project(project)
        try:
            result = make_bridge(p).call_tool(name, arguments or {})
        except eb.EditorBridgeError as exc:
            raise _editor_error(exc) from None
        model = EditorCallResult(project=p.name, tool=name, result=result)
        text = result if isinstance(result, str) else msgspec.json.encode(result).decode()
        return _result(model, text)

    # -- resources -------------------------------------------------------------------------------

    @mcp.resource("unity://project/overview", mime_type="text/markdown", description="the project overview and tree")
    def overview_resource() -> str:
        fresh.ensure()
        return _overview(ws, tok)[1]

    def _resource_describe(text: str) -> str:
        fresh.ensure()
        try:
            return _describe(ws, text)[1]
        except ToolError as exc:
            raise ResourceError(str(exc)) from None

    @mcp.resource("unity://file/{+path}", mime_type="text/plain", description="outline of an indexed file")
    def file_resource(path: str) -> str:
        if is_guid(path):
            raise ResourceError("unity://file/ takes a path; use unity://asset/{guid} for a GUID")
        return _resource_describe(path)

    @mcp.resource("unity://asset/{guid}", mime_type="text/plain", description="outline of the asset with this GUID")
    def asset_resource(guid: str) -> str:
        if not is_guid(guid):
            raise ResourceError(f"{guid!r} is not a GUID (32 hexadecimal digits)")
        return _resource_describe(guid)

    # -- prompt ----------------------------------------------------------------------------------

    @mcp.prompt(title="Start a Unity task")
    def unity_task(task: str, budget: int = 8000) -> str:
        """Turn a task into a ready context pack, with guidance on which tools to use next."""
        if not task.strip():
            raise ValueError("the task is empty: describe it")
        fresh.ensure()
        pack = build_context(ws, task, budget, tok)
        return (
            f"Task: {task}\n\nHere is the context of this Unity project for the task "
            f"({pack.tokens} tokens):\n\n{render_context(pack)}\n\n"
            "Next steps: `describe` a file above to see its outline, what it uses and what uses it; "
            "`find_references` a type or Type.Member to find every script, prefab, scene and UnityEvent "
            "that depends on it before changing it; `search` for anything the pack missed. "
            "If a Unity editor is running, `editor_tools` lists what it can do live."
        )

    mcp.freshness = fresh  # type: ignore[attr-defined]  # for tests and `serve`
    mcp.live = live  # type: ignore[attr-defined]
    return mcp


_STAT_KEYS = frozenset(RefreshStats.model_fields) - {"project"}
