"""Session 48: the MCP server used as a coding agent uses it (Splatoon-Ink and BossRoom, then each
fault here over a real stdio session). Each test failed before the fix it names.

1. `get_context`'s structured content, which Claude Code and VS Code give the model instead of
   the text block when a tool returns both, ran past the budget the agent asked for: 3,038
   tokens for a budget of 2,000 on BossRoom, 10,273 for 8,000 (the pack's text, JSON-escaped, plus
   a line per file). The pack is fitted so that both forms are within the budget.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
import msgspec
from mcp import Client, StdioServerParameters

from indexer.query.tokens import counter

from .conftest import REPO

TOK = counter("auto")  # the server's own counter (`serve` takes no --tokenizer)


def _params(root: Path, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "indexer.cli", "serve", "--project", str(root), *extra],
        env={**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"},
        cwd=str(REPO),
    )


def _session(root: Path, *calls: tuple[str, dict], extra: tuple[str, ...] = ()) -> list:
    """Each call's result, in one stdio session of `unity-index serve`."""

    async def go() -> list:
        async with Client(_params(root, *extra)) as c:
            return [await c.call_tool(name, arguments) for name, arguments in calls]

    return anyio.run(go)


def _json_tokens(structured: object) -> int:
    """The structured content's tokens as a client hands it to the model: `JSON.stringify`."""
    return TOK.count(msgspec.json.encode(structured).decode())


def test_get_context_s_structured_content_is_within_the_budget(indexed_fixture: Path) -> None:
    budgets = [200, 1000, 2000, 8000]
    task = "add a shield that absorbs damage"
    answers = _session(indexed_fixture, *(("get_context", {"task": task, "budget": b}) for b in budgets))
    for budget, answer in zip(budgets, answers, strict=True):
        assert not answer.is_error, answer.content[0].text
        pack = answer.structured_content
        assert _json_tokens(pack) <= budget, (budget, _json_tokens(pack))
        assert TOK.count(answer.content[0].text) <= budget
        assert pack["budget"] == budget and pack["tokens"] <= budget
        assert answer.content[0].text.endswith(
            f"[{pack['tokens']}/{budget} tokens ({pack['tokenizer']}); {len(pack['tier2']['files'])} files]"
        )
    big = answers[-1].structured_content
    assert "Assets/Scripts/Combat/Health.cs" in [f["path"] for f in big["tier2"]["files"]]
    assert big["tokens"] > 4000  # still most of the budget: the JSON costs a third more than the text
