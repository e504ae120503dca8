"""Argument errors a model can act on: one short sentence per bad argument, no validator dump.

The SDK validates a call's arguments against the tool's input schema and, on failure, returns
pydantic's report (type codes, input repr, a documentation URL). This middleware validates the
arguments with the same model (`fn_metadata.validate_arguments`, so the two agree) and puts
sentences such as "`limit` must be at most 100 (got 1000)", and the names of the arguments the
tool takes, in place of that report.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver.tools import Tool
from pydantic import ValidationError

from indexer.words import echoed

_BOUNDS = {
    "less_than_equal": ("le", "at most"),
    "less_than": ("lt", "less than"),
    "greater_than_equal": ("ge", "at least"),
    "greater_than": ("gt", "more than"),
}
_KINDS = {
    "int_parsing": "a whole number",
    "int_type": "a whole number",
    "int_from_float": "a whole number",
    "string_type": "a string",
    "dict_type": "a JSON object",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "float_type": "a number",
    "float_parsing": "a number",
}


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _sentence(tool: Tool, error: Mapping[str, Any]) -> str:
    name = ".".join(str(part) for part in error["loc"]) or "the arguments"
    kind = error["type"]
    if kind == "missing":
        about = tool.parameters.get("properties", {}).get(name, {}).get("description")
        return f"`{name}` is required" + (f" ({about})" if about else "")
    if kind in _BOUNDS:
        key, words = _BOUNDS[kind]
        return f"`{name}` must be {words} {(error.get('ctx') or {}).get(key)} (got {_shown(error.get('input'))})"
    if kind in _KINDS:
        return f"`{name}` must be {_KINDS[kind]} (got {_shown(error.get('input'))})"
    return f"`{name}`: {error['msg']} (got {_shown(error.get('input'))})"


def explain(tool: Tool, arguments: Mapping[str, Any]) -> str | None:
    """What is wrong with `arguments` for `tool`, in sentences; None when they are valid. Unknown
    names are ignored, as the SDK does, unless the call fails anyway (then they are likely typos)."""
    try:
        tool.fn_metadata.validate_arguments(dict(arguments))
    except ValidationError as exc:
        problems = [_sentence(tool, e) for e in exc.errors()]
    else:
        return None
    known = list(tool.parameters.get("properties", {}))
    problems = [f"unknown argument `{echoed(k)}`" for k in arguments if k not in known] + problems
    takes = ", ".join(known) or "no arguments"
    return f"{tool.name}: {'; '.join(problems)}. It takes: {takes}. Correct the arguments and call it again."


class ArgumentCheck:
    """Server middleware: a `tools/call` whose arguments fail validation gets these sentences in
    place of the SDK's report. The SDK still answers the call (and shapes the result's envelope
    for the connection's protocol era); only the text of its error is replaced."""

    def __init__(self, tools: Iterable[Tool]) -> None:
        self.tools = {t.name: t for t in tools}

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        message = None
        params = ctx.params
        if ctx.method == "tools/call" and params is not None:
            tool = self.tools.get(str(params.get("name")))
            arguments = params.get("arguments") or {}
            if tool is not None and isinstance(arguments, Mapping):
                message = explain(tool, arguments)
        result = await call_next(ctx)
        if message is not None and isinstance(result, dict) and result.get("isError") is True:
            result = {**result, "content": [{"type": "text", "text": message}]}
        return result
