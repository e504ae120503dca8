"""The prompt: a task turned into a context pack, with what to do next.

MCP passes a prompt's arguments as strings, so `budget` is read here, with `get_context`'s
bounds; a bad argument, or a failure that is not a bug (failures.py), is a JSON-RPC error whose
message says what is wrong (the SDK answers anything else with "Error rendering prompt").
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import msgspec
from mcp.server import MCPServer
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS

from indexer.model import ContextPack
from indexer.query.context import build_context, why_no_files
from indexer.query.render import render_context
from indexer.words import SHOWN_CHARS, echoed
from mcp_adapter.server.failures import explain, repairing
from mcp_adapter.server.state import state_of
from mcp_adapter.server.tools_search import BUDGET_MAX, BUDGET_MIN

DEFAULT_BUDGET = 8000
_WHOLE = re.compile(r"[+-]?[0-9]+")
_TAKES = frozenset({"task", "budget"})
PROMPTS = ("unity_task",)  # every prompt `register` adds, as an unknown name's error lists them


def read_budget(budget: str | int) -> int:
    """The token budget from the prompt's argument: a string in MCP (the SDK refuses a JSON number
    with -32602 before the prompt runs); an int only from a caller in this process."""
    text = str(budget).strip()
    value = _whole(text)
    if value is None or not BUDGET_MIN <= value <= BUDGET_MAX:
        raise MCPError(
            code=INVALID_PARAMS,
            message=f"unity_task: `budget` must be a whole number of tokens from {BUDGET_MIN} to {BUDGET_MAX}"
            f" (got {text[:40]!r})",
        )
    return value


def _whole(text: str) -> int | None:
    """`text` as a whole number, if it can be a budget; None for anything else: `+-300` or
    superscript digits, which int() refuses, and more digits than a budget has (int() refuses
    over 4300 digits with a ValueError, leading zeros included)."""
    if not _WHOLE.fullmatch(text):
        return None
    sign, digits = ("-", text[1:]) if text[0] == "-" else ("", text.lstrip("+"))
    digits = digits.lstrip("0") or "0"
    return int(sign + digits) if len(digits) <= len(str(BUDGET_MAX)) else None


def unity_task(task: str, ctx: Context, budget: str | int = DEFAULT_BUDGET) -> str:
    """Turn a task into a ready context pack, with guidance on which tools to use next.
    The task is repeated up to as many characters as the budget has tokens (200 at least): a
    pasted log came back whole, a message many times the budget. A pack holding no file says why
    (no match, or no room), as `get_context`'s note does: an overview alone read as the answer."""
    if not task.strip():
        raise MCPError(code=INVALID_PARAMS, message="unity_task: the task is empty: describe it")
    tokens = read_budget(budget)
    state = state_of(ctx)

    def answer() -> ContextPack:
        state.fresh.ensure()
        pack = build_context(state.ws, task, tokens, state.tok)
        if pack.tier2.files:
            return pack
        return msgspec.structs.replace(pack, note=why_no_files(state.ws, task, tokens, "budget"))

    try:
        pack = repairing(state.fresh, answer)
    except Exception as exc:
        message = explain(exc, state.fresh)
        if message is None:
            raise
        raise MCPError(code=INTERNAL_ERROR, message=message) from exc
    why = f"{pack.note}\n\n" if pack.note else ""  # an overview alone read as the answer if unsaid
    return (
        f"Task: {echoed(task, max(SHOWN_CHARS, tokens))}\n\nHere is the context of this Unity project for the task "
        f"({pack.tokens} tokens):\n\n{render_context(pack)}\n\n{why}"
        "Next steps: `describe` a file above to see its outline, what it uses and what uses it; "
        "`find_references` a type or Type.Member to find every script, prefab, scene and UnityEvent "
        "that depends on it before changing it; `search` for anything the pack missed. "
        "If a Unity editor is running, `editor_tools` lists what it can do live."
    )


def register(mcp: MCPServer) -> None:
    mcp.prompt(title="Start a Unity task")(unity_task)


async def known_arguments(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Server middleware: `unity_task` ignores an argument it does not take, as a tool does (the
    SDK passed it on to the function, and the answer was code 0 "Error rendering prompt"); an
    unknown prompt is invalid params naming the prompts (the SDK's was code 0 in the 2025 era,
    -32603 with a traceback in the log in the 2026 one)."""
    params = ctx.params
    if ctx.method == "prompts/get" and params is not None and params.get("name") not in PROMPTS:
        name = params.get("name")
        shown = repr(echoed(name)) if isinstance(name, str) else json.dumps(name)
        raise MCPError(code=INVALID_PARAMS, message=f"unknown prompt {shown}: the prompts are {', '.join(PROMPTS)}")
    if ctx.method == "prompts/get" and params is not None and params.get("name") == "unity_task":
        arguments = params.get("arguments")
        if isinstance(arguments, Mapping) and not _TAKES.issuperset(arguments):
            known = {k: v for k, v in arguments.items() if k in _TAKES}
            ctx = replace(ctx, params={**params, "arguments": known})
    return await call_next(ctx)
