"""Finding: `search` (ranked files) and `get_context` (a token-budgeted context pack)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import msgspec
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult
from pydantic import Field

from indexer.kinds import kind_named, searchable_kinds
from indexer.model import ContextPack
from indexer.query.context import build_context, why_no_files
from indexer.query.empty import empty_index_note
from indexer.query.render import render_context, render_hits
from indexer.words import SHOWN_CHARS, echoed, plural
from mcp_adapter.server.results import SearchResult, make_tool, tool_result
from mcp_adapter.server.state import ServerState, project_path, state_of

if TYPE_CHECKING:
    from indexer.query.tokens import TokenCounter

BUDGET_MIN, BUDGET_MAX = 200, 200_000  # get_context's and the prompt's budget, in tokens
# Packs made at most to fit the structured content in the budget: Claude Code and VS Code hand the
# model `JSON.stringify(structuredContent)` instead of the text block when a tool returns both.
FITS = 6


def search(
    query: Annotated[str, Field(description="words, identifiers or a task, e.g. 'apply damage'")],
    ctx: Context,
    kind: Annotated[
        str | None, Field(description="only files of this kind: csharp, scene, prefab, asset, material, shader")
    ] = None,
    path: Annotated[str | None, Field(description="only files under this project folder, e.g. Assets/Scripts")] = None,
    limit: Annotated[int, Field(ge=1, le=100, description="number of results")] = 10,
) -> CallToolResult:
    """Rank the project's files (scripts, scenes, prefabs, assets...) for a query, each with its best match."""
    if not query.strip():
        raise ToolError("the query is empty: say what you are looking for, e.g. 'player health' or 'apply damage'")
    if kind and (named := kind_named(kind)) is None:
        raise ToolError(f"kind {echoed(kind)!r}: no such kind; use one of {', '.join(sorted(searchable_kinds()))}")
    kind = named if kind else None
    state = state_of(ctx)
    state.fresh.ensure()
    prefix = project_path(state.ws, path, folder=True) if path and path.strip() else None
    hits = state.ws.search(query, limit=limit, kind=kind or None, path_prefix=prefix or None)
    text = render_hits(hits) or (
        f"no results for {echoed(query)!r}: "
        + (empty_index_note(state.ws) or "try other words, identifiers, or drop the kind/path filter")
    )
    return tool_result(SearchResult(query=echoed(query), results=hits), text)


def get_context(
    task: Annotated[str, Field(description="the task in words, e.g. 'add a shield that absorbs damage'")],
    ctx: Context,
    budget: Annotated[int, Field(ge=BUDGET_MIN, le=BUDGET_MAX, description="token budget, never exceeded")] = 8000,
) -> CallToolResult:
    """A two-tier context pack for a task: project overview and tree, then the ranked files as outlines."""
    if not task.strip():
        raise ToolError("the task is empty: describe it, e.g. 'add a shield that absorbs damage'")
    state = state_of(ctx)
    state.fresh.ensure()
    widest = _footer(budget, budget, state.tok.name, 10 * budget)  # the footer at its longest
    pack = _fitted(state, task, budget, max(budget - state.tok.count(f"\n\n{widest}") - 1, 1))
    why = f"\n{pack.note}" if pack.note else ""  # as the CLI says it
    text = f"{render_context(pack)}{why}\n\n{_footer(pack.tokens, budget, pack.tokenizer, len(pack.tier2.files))}"
    return tool_result(pack, text if state.tok.count(text) <= budget else f"{render_context(pack)}{why}")


def _fitted(state: ServerState, task: str, budget: int, room: int) -> ContextPack:
    """The pack for `task` in `room` tokens of text, made smaller until its structured content, as
    JSON, is within `budget` too (the escaped text and a line per file cost about a third more); the
    last try is a pack of one token's room, which always fits: the task it echoes is cut to half the
    budget, and its note says why it holds no file, or fewer than the first try."""
    query = _echoed(state.tok, task, budget // 2)
    found = -1  # files in the first try's pack, the most the text alone holds
    for attempt in range(FITS):
        pack = build_context(state.ws, task, room, state.tok)
        found = len(pack.tier2.files) if found < 0 else found
        note = _why_fewer(state, task, budget, len(pack.tier2.files), found)
        pack = msgspec.structs.replace(pack, budget=budget, query=query, note=note)
        used = _json_tokens(state.tok, pack)
        if used <= budget or room == 1:
            return pack
        # the text shrunk by the JSON's excess over it, and a fiftieth of the budget more each try: a pack
        # holding every file it found stays as it is until its text is made smaller than it
        shrunk = pack.tokens * budget // used - attempt * budget // 50
        room = max(min(shrunk, room - 1), 1) if attempt < FITS - 2 else 1
    return pack


def _echoed(counter: TokenCounter, task: str, most: int) -> str:
    """The task as the pack's `query` repeats it, in at most `most` tokens as JSON (a task of
    control characters or quotes, each escaped, ran the answer past its budget): its start, cut
    shorter while over, at last only its length."""
    limit = SHOWN_CHARS
    said = echoed(task, limit)
    while limit and _json_tokens(counter, said) > most:
        limit //= 2
        said = echoed(task, limit)
    return said


def _json_tokens(counter: TokenCounter, value: object) -> int:
    return counter.count(msgspec.json.encode(value).decode())


def _why_fewer(state: ServerState, task: str, budget: int, files: int, found: int) -> str:
    """What the pack's note says: why it holds no file (no match, or no room), or how many files
    the first try held (the text alone in the room) were left out to fit the JSON."""
    if not files:
        return why_no_files(state.ws, task, budget, "budget")
    if files < found:
        them = "it" if found - files == 1 else "them"
        return (
            f"{plural(found - files, 'more file')} found left out to keep this answer's JSON within the budget;"
            f" a larger budget holds {them}"
        )
    return ""


def _footer(tokens: int, budget: int, tokenizer: str, files: int) -> str:
    """The pack's size in words, inside the budget with it, for a client that reads the text."""
    return f"[{tokens}/{budget} tokens ({tokenizer}); {files} files]"


def tools() -> list[Tool]:
    return [make_tool(search), make_tool(get_context)]
