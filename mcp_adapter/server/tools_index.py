"""The index itself: `project_overview`, `index_status` and `refresh`."""

from __future__ import annotations

from pathlib import Path

import msgspec
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, ToolAnnotations

from indexer.changes.processes import SUSPENDED, pid_stopped, resuming
from indexer.model import Status
from indexer.project import ProjectGone, check_present
from indexer.query.overview import folder_tree, render_tree, third_party_test, workspace_overviews
from indexer.query.render import KEPT_WHILE_BUSY, render_overview, render_status, render_update
from indexer.query.status import project_status
from indexer.query.workspace import ProjectIndex
from indexer.store.lock import busy_message
from indexer.store.progress import read_progress
from mcp_adapter.server.results import (
    OverviewResult,
    ProjectProgress,
    ProjectUpdate,
    RefreshResult,
    StatusResult,
    make_tool,
    tool_result,
)
from mcp_adapter.server.state import ServerState, state_of
from mcp_adapter.server.wording import mcp_wording

OVERVIEW_TREE_TOKENS = 1500


def overview_of(state: ServerState) -> tuple[OverviewResult, str]:
    """Every project's overview and the workspace tree (for the tool and the overview resource)."""
    state.fresh.ensure()
    projects = [p.fresh() for p in state.ws.projects]
    overviews, kinds = workspace_overviews(projects)
    tree = render_tree(folder_tree(kinds, third_party_test(projects)), state.tok, OVERVIEW_TREE_TOKENS)
    text = "\n\n".join([*(render_overview(o) for o in overviews), tree])
    return OverviewResult(projects=overviews, tree=tree), text


def project_overview(ctx: Context) -> CallToolResult:
    """The project(s): Unity version, packages, assemblies, scenes in build, defines, file counts and tree."""
    return tool_result(*overview_of(state_of(ctx)))


def index_status(ctx: Context) -> CallToolResult:
    """What the index holds and whether it matches the files on disk (no update is run)."""
    state = state_of(ctx)
    statuses = [project_status(p.root, p.config) for p in state.ws.projects]
    building = [
        ProjectProgress(project=str(p.root), **msgspec.structs.asdict(b))
        for p in state.ws.projects
        if (b := read_progress(p.paths)) is not None
    ]
    result = StatusResult(
        projects=statuses,
        freshness=state.fresh.mode,
        freshness_note=state.fresh.describe(),
        auto_refresh_seconds=state.refresh_interval,
        building=building,
    )
    indexed = {s.project for s in statuses if s.indexed}
    built = {b.project for b in building}
    lines = [
        *(render_progress(b, b.project in indexed) for b in building),
        *(
            _status_text(p.root, s, str(p.root) in built, _writer(state, p))
            for p, s in zip(state.ws.projects, statuses, strict=True)
        ),
    ]
    text = "\n\n".join([*lines, f"freshness: {result.freshness_note}"])
    return tool_result(result, text)


def _writer(state: ServerState, project: ProjectIndex) -> str:
    """Who holds the project's writer lock, as far as known without taking it: a build suspended
    (its progress file names it), else what the last try to update the project found."""
    b = read_progress(project.paths)
    if b is not None and pid_stopped(b.pid):
        return busy_message(project.paths, b.pid, alive=True, stopped=True)
    return state.fresh.writer(project.root)


def _status_text(root: Path, status: Status, building: bool, writer: str = "") -> str:
    """A project's status in tool terms; a project folder moved or deleted says so, as every other
    tool does (its index went with it: "no index yet ... builds it first" was false). While its
    first build runs (`building`), "the next call ... builds it first" was false too; while another
    process holds the writer lock (`writer`), so was "the next call ... applies them first"."""
    try:
        check_present(root)
    except ProjectGone as exc:
        return mcp_wording(f"project {status.project}\n{exc}")
    if building and not status.indexed and not status.damaged:
        return f"project {status.project}\nno index yet at {status.index_dir}: the first build is running (above)"
    return mcp_wording(render_status(status, writer))


def render_progress(b: ProjectProgress, previous: bool) -> str:
    """One line an agent can act on: what is being built, how far, since when, and whether the
    tools wait for it (the first build) or answer from the `previous` index meanwhile."""
    import time

    what = "building the index" if b.rebuild else "updating the index"
    done = f": {b.done:,} of {b.total:,} files scanned" if b.phase == "scanning" and b.total else f" ({b.phase})"
    since = max(0.0, time.time() - b.started_at)
    wait = ""
    if b.rebuild:
        wait = (
            "; until it is done, search and the other tools answer from the previous index"
            if previous
            else "; search and the other tools answer once it is done"
        )
    if pid_stopped(b.pid):  # "answer once it is done" sent an agent to wait for a suspended process
        wait += f"; but its process {b.pid} is {SUSPENDED}: it goes on once resumed ({resuming(b.pid)})"
    return f"{b.project}: {what}{done}, started {since:.0f} s ago{wait}"


def refresh(ctx: Context) -> CallToolResult:
    """Bring the index up to date with the files on disk now (incremental; a full build if there is none)."""
    fresh = state_of(ctx).fresh
    done = fresh.ensure(force=True)
    failed = fresh.failures()
    if failed and not done:
        raise ToolError(f"no update ran: it failed ({'; '.join(failed)}); the index keeps its last committed state")
    rows = [ProjectUpdate(project=str(p.root), **msgspec.structs.asdict(stats)) for p, stats in done]
    writers = "; ".join(fresh.writers())
    text = "\n".join(render_update(p.root, stats) for p, stats in done) or "no update ran"
    if not done and writers:  # the CLI's words: who writes, and a suspended one is to be resumed
        text = mcp_wording(f"no update ran: {writers}{KEPT_WHILE_BUSY}")
    if failed:
        text += f"\nnot updated: {'; '.join(failed)}"
    return tool_result(RefreshResult(projects=rows), text)


def tools() -> list[Tool]:
    return [
        make_tool(project_overview),
        make_tool(index_status, own_thread=True),  # answers at once while calls wait for a build
        make_tool(refresh, ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True)),
    ]
