"""Session 48: the MCP server used as a coding agent uses it (Splatoon-Ink and BossRoom, then each
fault here over a real stdio session). Each test failed before the fix it names.

1. `get_context`'s structured content, which Claude Code and VS Code give the model instead of
   the text block when a tool returns both, ran past the budget the agent asked for: 3,038
   tokens for a budget of 2,000 on BossRoom, 10,273 for 8,000 (the pack's text, JSON-escaped, plus
   a line per file). The pack is fitted so that both forms are within the budget.
2. `describe`'s structured content held 400 symbols and 400 references whatever their size: the
   main scene of Splatoon-Ink answered 36,153 tokens of JSON for an outline of 3,835, past Claude
   Code's limit of 25,000 tokens an answer (the agent got an error instead of the scene). The lists
   are cut to keep the whole answer within 20,000 tokens, and the outline's last line says how many
   the structured content lists.
3. A `path:line` that `search` and `find_references` print (`Assets/Scripts/Combat/Health.cs:12`),
   given back to `describe` or `find_references`, was "not an indexed file; did you mean ...": the
   file is now read from it.
4. `index_status` while the first build ran said both "building the index ...; search and the
   other tools answer once it is done" and "no index yet ...: the next call of a tool that reads it
   ... builds it first", which the running build made false.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import anyio
import msgspec
from mcp import Client, StdioServerParameters

from indexer.query.tokens import counter

from .conftest import REPO, copy_fixture, write_project

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
    budgets = [200, 1000, 2000, 8000, 30000]  # 30000: every file found fits, the JSON just over
    task = "add a shield that absorbs damage"
    answers = _session(indexed_fixture, *(("get_context", {"task": task, "budget": b}) for b in budgets))
    for budget, answer in zip(budgets, answers, strict=True):
        assert not answer.is_error, answer.content[0].text
        pack = answer.structured_content
        assert _json_tokens(pack) <= budget, (budget, _json_tokens(pack))
        assert TOK.count(answer.content[0].text) <= budget
        assert pack["budget"] == budget and pack["tokens"] <= budget
        assert budget < 1000 or len(pack["tier2"]["files"]) > 5  # not shrunk to nothing
        assert answer.content[0].text.endswith(
            f"[{pack['tokens']}/{budget} tokens ({pack['tokenizer']}); {len(pack['tier2']['files'])} files]"
        )
    big = answers[3].structured_content
    assert "Assets/Scripts/Combat/Health.cs" in [f["path"] for f in big["tier2"]["files"]]
    assert big["tokens"] > 4000  # still most of the budget: the JSON costs a third more than the text


def _wide_script(methods: int) -> str:
    params = ", ".join(f"float parameterNumber{i} = {i}.5f" for i in range(3))
    body = "\n".join(f"    public void Method{i}({params}) {{ }}" for i in range(methods))
    return f"public class Wide : UnityEngine.MonoBehaviour {{\n{body}\n}}\n"


def test_describe_s_structured_content_is_bounded(tmp_path: Path) -> None:
    root = write_project(tmp_path / "Proj", {"Assets/Wide.cs": _wide_script(500), "Assets/Small.cs": _wide_script(3)})
    wide, small = _session(root, ("describe", {"target": "Assets/Wide.cs"}), ("describe", {"target": "Small.cs"}))
    sc = wide.structured_content
    assert _json_tokens(sc) <= 20_000, _json_tokens(sc)
    listed = len(sc["symbols"])
    assert 50 < listed < 400 and sc["symbols_total"] == 501
    assert wide.content[0].text.splitlines()[-1] == (
        f"… 201 more lines (the structured content's symbols list the first {listed} of 501;"
        " `unity-index describe --json Assets/Wide.cs` lists all)"
    )
    assert sc["symbols"] == sorted(sc["symbols"], key=lambda s: s["line"])[:listed]  # the first ones
    assert len(small.structured_content["symbols"]) == small.structured_content["symbols_total"] == 4


def test_a_path_with_its_line_is_read_as_the_file(indexed_fixture: Path) -> None:
    line = "Assets/Scripts/Combat/Health.cs:12"
    hit, described, refs, col, github, console = _session(
        indexed_fixture,
        ("search", {"query": "apply damage", "limit": 3}),
        ("describe", {"target": line}),
        ("find_references", {"target": "Assets/Prefabs/Player.prefab:86"}),
        ("describe", {"target": "Assets/Scripts/Combat/Health.cs:12:5"}),
        ("describe", {"target": "Assets/Scripts/Combat/Health.cs#L12"}),
        ("describe", {"target": "Assets/Scripts/Combat/Health.cs(12,5)"}),  # Unity's console, the compiler
    )
    first = hit.structured_content["results"][0]
    assert f"{first['path']}:{first['line']}" in hit.content[0].text  # the form an agent copies
    for answer in (described, col, github, console):
        assert not answer.is_error, answer.content[0].text
        assert answer.structured_content["path"] == "Assets/Scripts/Combat/Health.cs"
    assert not refs.is_error, refs.content[0].text
    assert refs.structured_content["target"]["path"] == "Assets/Prefabs/Player.prefab"


def test_a_path_with_a_line_of_no_file_still_says_so(indexed_fixture: Path) -> None:
    """A position is taken off once: a path with `:1` pasted 3,000 times is no file, said so (each
    was taken off in turn, till Python's recursion limit: an internal error)."""
    pasted = "Assets/Scripts/Combat/Health.cs" + ":1" * 3000
    answer, repeated = _session(
        indexed_fixture,
        ("describe", {"target": "Assets/Scripts/Combat/Nope.cs:12"}),
        ("describe", {"target": pasted}),
    )
    assert answer.is_error and "Assets/Scripts/Combat/Nope.cs:12 is not an indexed file" in answer.content[0].text
    assert repeated.is_error and "is not an indexed file" in repeated.content[0].text
    assert "RecursionError" not in repeated.content[0].text


def test_index_status_during_the_first_build_says_only_that_it_is_built(tmp_path: Path) -> None:
    """A build running (its progress file, written by a live process: this one) and no index yet:
    in poll mode index_status runs no update, so what it says is the progress file's."""
    root = copy_fixture(tmp_path / "DungeonCrawler")
    index = root / "Library" / "UnityIndex"
    index.mkdir(parents=True)
    progress = {
        "pid": os.getpid(),
        "rebuild": True,
        "started_at": time.time(),
        "phase": "scanning",
        "done": 40,
        "total": 213,
        "updated_at": time.time(),
    }
    (index / "write.lock").touch()  # an index folder of ours, its first build not yet committed
    (index / "progress.json").write_text(json.dumps(progress))
    [status] = _session(root, ("index_status", {}), extra=("--no-watch",))
    text = status.content[0].text
    assert "building the index: 40 of 213 files scanned" in text and "answer once it is done" in text
    assert "builds it first" not in text, text
    assert "the first build is running" in text
    assert status.structured_content["projects"][0]["indexed"] is False
    assert status.structured_content["building"][0]["done"] == 40
