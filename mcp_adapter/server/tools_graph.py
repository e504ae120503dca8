"""The reference graph: `find_references` (every usage of a name) and `describe` (one file)."""

from __future__ import annotations

import shlex
from typing import Annotated

import msgspec
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult
from pydantic import Field

from indexer.model import Description
from indexer.query.describe import MORE_IN_JSON
from indexer.query.locate import BadPath, locate_file, references_of
from indexer.query.lookup import LookupFailed, describe_target, unknown_target_hint
from indexer.query.render import render_description, render_refs
from indexer.query.tokens import TokenCounter
from indexer.query.workspace import Workspace
from indexer.words import echoed
from mcp_adapter.server.results import DescribeResult, References, make_tool, tool_result
from mcp_adapter.server.state import state_of
from mcp_adapter.server.wording import mcp_wording

DESCRIBE_MAX_LINES = 300
DESCRIBE_MAX_ITEMS = 400  # symbols, and refs, in the structured content
DESCRIBE_MAX_TOKENS = 20_000  # the structured content as JSON, about (_listed)


class NotIndexed(ToolError):
    """The path or GUID is well formed and inside the project, but names no indexed file."""


def find_references(
    target: Annotated[
        str, Field(description="a type (PlayerHealth), Type.Member (PlayerHealth.Heal), a path, a GUID or an assembly")
    ],
    ctx: Context,
    limit: Annotated[int, Field(ge=1, le=1000, description="usages per page")] = 50,
    offset: Annotated[int, Field(ge=0, description="skip this many usages (the next_offset of a previous page)")] = 0,
) -> CallToolResult:
    """Every usage of a type, member, file, GUID or assembly: code lines and asset objects (prefabs, scenes,
    UnityEvents, ScriptableObjects); of a serialized field, the value each asset holds or overrides."""
    text = target.strip()
    if not text:
        raise ToolError("the target is empty: give a type, Type.Member, a path (Assets/...) or a GUID")
    state = state_of(ctx)
    state.fresh.ensure()
    try:
        found, usages = references_of(state.ws, text)
    except LookupFailed as exc:
        raise ToolError(mcp_wording(str(exc))) from None
    if found is None:
        said, _names = unknown_target_hint(state.ws, text)
        raise ToolError(
            f"{echoed(target)}: no type, member, file, GUID or assembly of that name{said}; the `search` tool finds"
            " by words"
        )
    shown = usages[offset : offset + limit]
    next_offset = offset + limit if offset + limit < len(usages) else None
    page = References(target=found, total=len(usages), offset=offset, next_offset=next_offset, usages=shown)
    return tool_result(page, render_refs(found, usages, shown) + _page_footer(page))


def _page_footer(page: References) -> str:
    if not page.total:
        return ""
    if not page.usages:  # an offset past the last usage
        return f"\n[{page.total} usages; none from offset={page.offset}: call again with an offset below {page.total}]"
    first = page.offset + 1
    text = f"\n[{page.total} usages; showing {first}-{page.offset + len(page.usages)}"
    if page.next_offset is not None:
        text += f"; {page.total - page.next_offset} more: call again with offset={page.next_offset}"
    return text + "]"


def describe_file(ws: Workspace, text: str, tok: TokenCounter) -> tuple[DescribeResult, str]:
    """The description of a path or GUID (for the tool and the file/asset resources)."""
    target = text.strip()
    if not target:
        raise ToolError("give a project path (Assets/...) or a 32-hex-digit GUID to describe")
    try:
        project, desc = describe_target(ws, locate_file(ws, target), max_lines=DESCRIBE_MAX_LINES)
    except BadPath as exc:  # outside the project, or the project folder itself
        raise ToolError(mcp_wording(str(exc))) from None
    except LookupFailed as exc:  # well formed, but no indexed file (or several) fits
        raise NotIndexed(mcp_wording(str(exc))) from None
    # a 9 MB scene holds 40,000 symbols: 3 MB of structured content flooding a client that reads it
    symbols, refs = _listed(desc, tok)
    text = mcp_wording(_listed_hint(desc.text, desc.path, symbols, len(desc.symbols)))
    fields = msgspec.structs.asdict(desc) | {"text": text, "symbols": symbols, "refs": refs}
    result = DescribeResult(project=project, symbols_total=len(desc.symbols), refs_total=len(desc.refs), **fields)
    return result, render_description(result)


def _listed(desc: Description, tok: TokenCounter) -> tuple[list, list]:
    """The first symbols and refs that keep the answer, as JSON, within DESCRIBE_MAX_TOKENS (and at
    most DESCRIBE_MAX_ITEMS each): the references get up to half the room the rest leaves, the
    symbols what the references leave. Claude Code and VS Code give the model the structured content
    as JSON, and Claude Code refuses an answer over 25,000 tokens."""

    def cost(item: object) -> int:
        return tok.count(msgspec.json.encode(item).decode()) + 1

    base = msgspec.structs.replace(desc, symbols=[], refs=[])
    room = DESCRIBE_MAX_TOKENS - cost(base) - 40  # the outline's hint, said in more words
    ref_costs = [cost(r) for r in desc.refs[:DESCRIBE_MAX_ITEMS]]  # each item encoded and counted once
    symbol_costs = [cost(s) for s in desc.symbols[:DESCRIBE_MAX_ITEMS]]
    refs = _fitting(ref_costs, room // 2)
    symbols = _fitting(symbol_costs, room - sum(ref_costs[:refs]))
    refs = _fitting(ref_costs, room - sum(symbol_costs[:symbols]))
    return desc.symbols[:symbols], desc.refs[:refs]


def _fitting(costs: list[int], room: int) -> int:
    """How many of the first items, of these costs, fit in `room`."""
    used = 0
    for n, item in enumerate(costs):
        used += item
        if used > room:
            return n
    return len(costs)


def _listed_hint(text: str, path: str, symbols: list, total: int) -> str:
    """The outline's `--json` hint as what the structured content holds: it said its symbols
    listed the lines left out, which was false past the `symbols` listed."""
    if total <= len(symbols):
        return text.replace(MORE_IN_JSON, "(the structured content's symbols list them)")
    listed = f"the first {len(symbols):,} of {total:,}"
    rest = f"`unity-index describe --json {shlex.quote(path)}` lists all"
    return text.replace(MORE_IN_JSON, f"(the structured content's symbols list {listed}; {rest})")


def describe(
    target: Annotated[
        str,
        Field(
            description="a path (Assets/Scenes/Dungeon.unity, absolute in the project, a file name), a GUID,"
            " or a type's name (the file declaring it)"
        ),
    ],
    ctx: Context,
) -> CallToolResult:
    """Outline of one file (script, scene, prefab, ScriptableObject, material, shader) with what it uses and
    what uses it."""
    state = state_of(ctx)
    state.fresh.ensure()
    return tool_result(*describe_file(state.ws, target, state.tok))


def tools() -> list[Tool]:
    return [make_tool(find_references), make_tool(describe)]
