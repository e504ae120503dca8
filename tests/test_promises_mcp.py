"""Promises of docs/mcp.md that no other test held the server to: the examples the doc shows, the
tool annotations and argument bounds of its table, the defaults of `serve` seen by a client over
stdio, bearer tokens over HTTP (a wrong one, a remote bind that has one), index tools that never
touch the editor, absolute paths in resource URIs, the prompt's default budget, and the editor
monitor's rules (what connects, reloads, disconnects, and what changes nothing)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import anyio
import httpx2 as httpx
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from indexer.query.workspace import open_workspace, projects_at
from mcp_adapter.editor.bridge import EditorBridge
from mcp_adapter.editor.live import EditorMonitor, EditorView
from mcp_adapter.server.app import create_server

from . import bridge_host
from .conftest import REPO, copy_fixture, write_project
from .json_http import JsonHandler, serving_editor, write_heartbeat
from .test_mcp_transports import _env, _free_port, _start_http

DOC = REPO / "docs" / "mcp.md"

# The Mono host that plays the editor with the package's own C# core, by fixture name.
host_exe, make_host, host = bridge_host.host_exe, bridge_host.make_host, bridge_host.host


def make_server(root: Path, **kw: Any):
    return create_server(open_workspace(root, projects_at(root)), refresh_interval=0, tokenizer="estimate", **kw)


@pytest.fixture(scope="module")
def server(indexed_fixture: Path):
    return make_server(indexed_fixture)


def text(result: Any) -> str:
    assert len(result.content) == 1
    return result.content[0].text


# -- the examples of the doc -------------------------------------------------------------------


def doc_examples() -> list[tuple[str, dict, list[str]]]:
    """(tool, arguments, what the doc shows) for each entry of the Examples block."""
    block = DOC.read_text(encoding="utf-8").split("Examples (arguments → first lines of the text block)")[1]
    body = block.split("```")[1]
    examples: list[tuple[str, dict, list[str]]] = []
    for line in body.splitlines():
        head = re.match(r"^(\w+) (\{.*?\})(?:\s+(?:\(.*?\)\s+)?→ (.*))?$", line)
        if head:
            examples.append((head[1], json.loads(head[2]), [f"→ {head[3]}"] if head[3] else []))
        elif line.strip() and examples:
            shown = examples[-1][2]
            if shown and shown[0].startswith("→"):
                shown[0] += " " + line.strip()
            else:
                shown.append(line)
    return examples


def _normal(line: str) -> str:
    """Scores and token counts move with every ranking change; the doc's shape must not."""
    line = re.sub(r"\(\d+\.\d+\)$", "(SCORE)", line)
    return re.sub(r"\[\d+/(\d+) tokens \(([^)]*)\); \d+ files\]", r"[N/\1 tokens (\2); M files]", line)


def _pattern(shown: str) -> re.Pattern[str]:
    """`...` in the doc stands for what it leaves out, `<project>` for the project's path."""
    parts = [re.escape(p) for p in re.split(r"\s*\.\.\.\s*", _normal(shown))]
    return re.compile("[\\s\\S]*?".join(parts).replace(re.escape("<project>"), ".*?"))


def test_the_examples_of_the_doc_are_what_the_server_answers(server) -> None:
    """docs/mcp.md, Examples: each shown line is in the answer, in that order; `→ isError: ...` is
    a tool error saying that; `→ the outline of X` is X described."""
    examples = doc_examples()
    assert [tool for tool, _, _ in examples] == [
        *("search", "get_context", "find_references", "describe", "describe", "describe", "editor_tools"),
    ]

    async def go():
        async with Client(server) as c:
            return [await c.call_tool(tool, args) for tool, args, _ in examples]

    for (tool, args, shown), res in zip(examples, anyio.run(go), strict=True):
        if shown[0].startswith("→ isError: "):
            assert res.is_error is True, (tool, args)
            assert _pattern(shown[0].removeprefix("→ isError: ")).search(text(res)), (shown[0], text(res))
            continue
        assert res.is_error is False, (tool, args, text(res))
        if shown[0].startswith("→ the outline of "):
            path = shown[0].removeprefix("→ the outline of ").split(" ")[0]
            assert text(res).startswith(f"{path}  ("), text(res)[:200]
            continue
        answer = "\n".join(_normal(line) for line in text(res).splitlines())
        # the first line first, then each shown line as a whole line, in order (`...` may span
        # lines); lines between as `[^\n]*` (`.*` under re.S matched across lines: a doc line the
        # answer lacks made the match backtrack for ever, not fail)
        shown_in_order = r"\n(?:[^\n]*\n)*?".join(_pattern(line).pattern for line in shown)
        assert re.match(shown_in_order + r"(?:\n|$)", answer, re.S), f"{tool} {args}:\n{answer}"


# -- the table of tools ------------------------------------------------------------------------


def test_refresh_writes_and_is_idempotent_and_the_readers_say_they_only_read(server) -> None:
    """docs/mcp.md, Tools: `refresh` is "not read-only (writes the index), idempotent"; the index
    tools are read-only; `editor_call` "may change the editor state"."""

    async def go():
        async with Client(server) as c:
            return {t.name: t.annotations for t in (await c.list_tools()).tools}

    hints = anyio.run(go)
    assert (hints["refresh"].read_only_hint, hints["refresh"].idempotent_hint) == (False, True)
    assert hints["refresh"].destructive_hint is False
    for name in ("search", "get_context", "find_references", "describe", "project_overview", "index_status"):
        assert (hints[name].read_only_hint, hints[name].destructive_hint) == (True, False), name
    assert (hints["editor_call"].read_only_hint, hints["editor_call"].destructive_hint) == (False, True)


def test_the_bounds_of_limit_and_budget_are_taken_and_one_past_them_refused(server) -> None:
    """docs/mcp.md, Tools: `limit=10` (1-100) and `budget=8000` (200-200000): the bounds themselves
    are accepted, one past them is refused with its sentence."""

    async def go():
        async with Client(server) as c:
            return (
                await c.call_tool("search", {"query": "damage", "limit": 100}),
                await c.call_tool("search", {"query": "damage", "limit": 101}),
                await c.call_tool("get_context", {"task": "add a shield", "budget": 200}),
                await c.call_tool("get_context", {"task": "add a shield", "budget": 200000}),
                await c.call_tool("get_context", {"task": "add a shield", "budget": 200001}),
            )

    limit_max, limit_over, budget_min, budget_max, budget_over = anyio.run(go)
    assert limit_max.is_error is False and 10 < len(limit_max.structured_content["results"]) <= 100
    assert limit_over.is_error and text(limit_over).startswith("search: `limit` must be at most 100 (got 101).")
    for res, budget in ((budget_min, 200), (budget_max, 200000)):
        assert res.is_error is False, text(res)
        assert res.structured_content["budget"] == budget and res.structured_content["tokens"] <= budget
    assert budget_over.is_error
    assert text(budget_over).startswith("get_context: `budget` must be at most 200000 (got 200001).")


def test_get_context_s_text_with_its_footer_stays_within_the_budget(server) -> None:
    """`budget`'s own description, which the agent reads: "token budget, never exceeded" -- the
    text the agent gets, footer and all, counted as the server counts, not only the JSON's."""
    from indexer.query.tokens import counter

    budgets = (200, 333, 500, 1000, 4000, 8000)

    async def go():
        async with Client(server) as c:
            return [await c.call_tool("get_context", {"task": "weapon attack", "budget": b}) for b in budgets]

    tok = counter("estimate")
    for res, budget in zip(anyio.run(go), budgets, strict=True):
        assert res.is_error is False, text(res)
        said = text(res)
        assert tok.count(said) <= budget, (budget, tok.count(said))
        assert res.structured_content["budget"] == budget
        assert said.endswith(
            f"[{res.structured_content['tokens']}/{budget} tokens (estimate-v2); "
            f"{len(res.structured_content['tier2']['files'])} files]"
        )


def test_find_references_takes_a_limit_from_1_to_1000(server) -> None:
    """docs/mcp.md, Tools: `find_references`' `limit=50` (1-1000): the bounds are taken, one past
    them refused with its sentence (the table gave no range, where `search`'s is 1-100)."""

    async def go():
        async with Client(server) as c:
            return [
                await c.call_tool("find_references", {"target": "PlayerHealth", "limit": n}) for n in (1, 1000, 0, 1001)
            ]

    low, high, under, over = anyio.run(go)
    assert (low.structured_content["total"], len(low.structured_content["usages"])) == (6, 1)
    assert (len(high.structured_content["usages"]), high.structured_content["next_offset"]) == (6, None)
    assert text(under).startswith("find_references: `limit` must be at least 1 (got 0).")
    assert text(over).startswith("find_references: `limit` must be at most 1000 (got 1001).")
    assert under.is_error and over.is_error


def test_find_references_reads_a_bare_file_name_and_refuses_an_undeclared_member(server) -> None:
    """docs/mcp.md: `find_references` reads paths with the CLI's resolver, a file name that fits
    exactly one indexed file among them (`Health.cs` was read as the member `cs` of `Health`), and
    an unknown symbol is refused (a member the type does not declare was "no usages found")."""

    async def go():
        async with Client(server) as c:
            return [await c.call_tool("find_references", {"target": t}) for t in ("Health.cs", "PlayerHealth.Nope")]

    file, member = anyio.run(go)
    assert file.is_error is False and file.structured_content["target"]["path"] == "Assets/Scripts/Combat/Health.cs"
    assert member.is_error and "PlayerHealth is a type, but neither it nor a base class declares Nope" in text(member)


def test_the_prompt_budget_defaults_to_8000(server) -> None:
    """docs/mcp.md, Prompt: `unity_task(task, budget=8000)`."""

    async def go():
        async with Client(server) as c:
            prompts = (await c.list_prompts()).prompts
            task = "add a shield that absorbs damage"
            return (
                prompts,
                await c.get_prompt("unity_task", {"task": task}),
                await c.get_prompt("unity_task", {"task": task, "budget": "8000"}),
                await c.get_prompt("unity_task", {"task": task, "budget": "2000"}),
            )

    prompts, default, given, smaller = anyio.run(go)
    [unity_task] = prompts
    assert [(a.name, a.required) for a in unity_task.arguments] == [("task", True), ("budget", False)]
    tokens = int(re.search(r"for the task \((\d+) tokens\)", default.messages[0].content.text)[1])
    assert 2000 < tokens <= 8000
    assert default.messages[0].content.text == given.messages[0].content.text
    assert default.messages[0].content.text != smaller.messages[0].content.text


def test_a_prompt_budget_sent_as_a_number_is_refused_before_the_prompt_runs(indexed_fixture: Path) -> None:
    """docs/mcp.md, Prompt: "MCP passes prompt arguments as strings". A client that sends the
    budget as a JSON number gets the SDK's -32602 before the prompt runs: `read_budget` said it
    took "an int from some clients", which never reaches it over the wire."""
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "printf", "version": "1"}}
    task = "add a shield"
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        *(
            {"jsonrpc": "2.0", "id": i, "method": "prompts/get", "params": {"name": "unity_task", "arguments": a}}
            for i, a in ((2, {"task": task, "budget": 500}), (3, {"task": task, "budget": "500"}))
        ),
    ]
    cmd = [sys.executable, "-m", "indexer.cli", "serve", "--project", str(indexed_fixture), "--no-watch"]
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=REPO, env=_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    answers = {a["id"]: a for a in map(json.loads, r.stdout.splitlines())}
    said = "Invalid request parameters of prompts/get: `params.arguments.budget`: Input should be a valid string"
    assert answers[2]["error"] == {"code": -32602, "message": said}
    assert re.search(r"for the task \((\d+) tokens\)", answers[3]["result"]["messages"][0]["content"]["text"])


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_an_absolute_path_in_a_file_uri_is_invalid_params(server, mode: str) -> None:
    """docs/mcp.md, Resources: `{+path}` keeps the slashes, "the SDK rejects `..` and absolute
    paths before the handler"; a path outside the project is -32602."""

    async def go():
        got = {}
        async with Client(server, mode=mode) as c:
            for uri in ("unity://file//etc/passwd", "unity://file/C:/Windows/win.ini"):
                with pytest.raises(MCPError) as info:
                    await c.read_resource(uri)
                got[uri] = info.value.code
        return got

    assert set(anyio.run(go).values()) == {-32602}


# -- `serve` as a client starts it -------------------------------------------------------------


def _printf_session(root: Path, *flags: str) -> tuple[list[dict], str]:
    """initialize, initialized and `index_status` written at once, stdin closed."""
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "printf", "version": "1"}}
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "index_status", "arguments": {}}},
    ]
    cmd = [sys.executable, "-m", "indexer.cli", "serve", "--project", str(root), *flags]
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=REPO, env=_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()], r.stderr


def test_stdio_defaults_watch_and_two_seconds_and_logs_only_on_stderr(indexed_fixture: Path) -> None:
    """docs/mcp.md: stdio is the default, stdout belongs to the protocol and logs go to stderr;
    watch mode is the default; `--refresh-interval` defaults to 2 s; `--no-watch` polls."""
    answers, err = _printf_session(indexed_fixture)
    assert [a["id"] for a in answers] == [1, 2]  # every stdout line is a JSON-RPC answer
    status = answers[1]["result"]["structuredContent"]
    assert (status["freshness"], status["auto_refresh_seconds"]) == ("watch", 2.0)
    assert f"unity-index: watching {indexed_fixture}" in err

    answers, _ = _printf_session(indexed_fixture, "--no-watch", "--refresh-interval", "7")
    status = answers[1]["result"]["structuredContent"]
    assert (status["freshness"], status["auto_refresh_seconds"]) == ("poll", 7.0)


# -- bearer tokens over HTTP -------------------------------------------------------------------


def _post_ping(port: int, bearer: str | None) -> int:
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    if bearer is not None:
        headers["Authorization"] = f"Bearer {bearer}"
    body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    return httpx.post(f"http://127.0.0.1:{port}/mcp", json=body, headers=headers).status_code


def test_a_remote_bind_with_allow_remote_and_a_16_character_token_serves_only_that_token(
    indexed_fixture: Path,
) -> None:
    """docs/mcp.md: any address other than 127.0.0.1 needs `--allow-remote` and `--token` (16+
    characters; clients send `Authorization: Bearer SECRET`). With both it serves, and a missing
    or wrong token is 401."""
    token = "exactly-16-chars"
    assert len(token) == 16
    port = _free_port()
    proc, _ = _start_http(
        indexed_fixture, "--host", "0.0.0.0", "--allow-remote", "--token", token, "--port", str(port), port=port
    )

    async def session():
        from mcp.client.streamable_http import streamable_http_client

        auth = httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"})
        async with Client(streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=auth)) as c:
            return await c.call_tool("search", {"query": "apply damage", "limit": 1})

    try:
        statuses = [_post_ping(port, bearer) for bearer in (None, "wrong-token-of-16", token.upper())]
        found = anyio.run(session)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert statuses == [401, 401, 401]
    assert found.structured_content["results"][0]["path"] == "Assets/Scripts/Combat/DamageDealer.cs"


# -- the editor ---------------------------------------------------------------------------------


class _CountingEditor(JsonHandler):
    """A bridge that answers everything and counts what it was asked."""

    token = "c" * 64
    requests: ClassVar[list[str]] = []
    tools: ClassVar[list[dict]] = []

    def do_GET(self) -> None:
        self.requests.append(f"GET {self.path}")
        self._answer(200, {"ok": True, "tools": self.tools, "protocol": 1, "pending": 0})

    def do_POST(self) -> None:
        self.requests.append(f"POST {self.path}")
        self._answer(200, {"ok": True, "result": None, "elapsed_ms": 1})


@pytest.fixture
def counted_editor(tmp_path: Path) -> Iterator[Path]:
    root = write_project(tmp_path / "Proj", {"Assets/Hero.cs": "public class Hero { void Jump() {} }\n"})
    _CountingEditor.requests = []
    with serving_editor(root, _CountingEditor, _CountingEditor.token):
        yield root


def test_index_tools_never_touch_the_editor(counted_editor: Path) -> None:
    """docs/mcp.md, Live editor: "Index tools never touch the editor" (a running editor is
    neither asked nor slowed by a search)."""
    server = make_server(counted_editor)

    async def go():
        async with Client(server) as c:
            answers = [
                await c.call_tool("search", {"query": "jump"}),
                await c.call_tool("get_context", {"task": "make the hero jump"}),
                await c.call_tool("find_references", {"target": "Hero"}),
                await c.call_tool("describe", {"target": "Assets/Hero.cs"}),
                await c.call_tool("project_overview", {}),
                await c.call_tool("index_status", {}),
                await c.call_tool("refresh", {}),
            ]
            asked_by_index_tools = list(_CountingEditor.requests)
            listed = await c.call_tool("editor_tools", {})
            return answers, asked_by_index_tools, listed

    answers, asked, listed = anyio.run(go)
    assert [a.is_error for a in answers] == [False] * 7, [text(a) for a in answers if a.is_error]
    assert asked == []
    assert listed.is_error is False and _CountingEditor.requests == ["GET /v1/tools"]  # the editor was there


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_the_editor_monitor_connects_reloads_and_disconnects_as_documented(tmp_path: Path) -> None:
    """docs/mcp.md, Live editor: the editor connects when a heartbeat with a live pid appears,
    reloads when its domain changes (a new token), disconnects when the heartbeat is deleted, names
    a dead pid or speaks another protocol; a `reloading` state, or a stale heartbeat of a live pid,
    changes nothing."""
    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero {}\n"})
    ws = open_workspace(root, projects_at(root))
    events: list[str] = []
    monitor = EditorMonitor(ws.projects, lambda p: EditorBridge(p.root), lambda p, b, a, what: events.append(what))

    def step(**beat: Any) -> list[str]:
        if beat.pop("gone", False):
            (root / "Library/UnityIndex/editor.json").unlink()
        else:
            write_heartbeat(root, **beat)
        events.clear()
        monitor.poll()
        return list(events)

    assert step() == ["connected"]
    assert step() == []  # the same domain
    assert step(token="b" * 64, state="reloading") == []
    assert step(token="b" * 64, updated_at=time.time() - 60) == []  # stale, but the pid lives
    assert step(token="b" * 64) == ["reloaded"]
    assert step(token="b" * 64, state="compiling") == []
    assert step(gone=True) == ["disconnected"]
    assert step() == ["connected"]
    assert step(pid=_dead_pid()) == ["disconnected"]
    assert step() == ["connected"]
    assert step(protocol=2) == ["disconnected"]
    assert monitor.views[str(root)] == EditorView()


# -- freshness ------------------------------------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An indexed copy of the fixture that a test may change."""
    from indexer.build.update import update
    from indexer.config import Config

    root = copy_fixture(tmp_path / "DungeonCrawler")
    update(root, Config(workers=1))
    return root


ZANZIBAR = "public class ZanzibarTool : UnityEngine.MonoBehaviour { public int charges = 3; }\n"


def _paths(res: Any) -> list[str]:
    assert res.is_error is False, text(res)
    return [h["path"] for h in res.structured_content["results"]]


def test_watch_mode_catches_up_and_follows_packages_and_project_settings(project: Path) -> None:
    """docs/mcp.md, Freshness: the watcher observes `Assets/`, `Packages/` and `ProjectSettings/`;
    its first batch catches up with what changed while nobody watched. With a refresh interval of an
    hour only the watcher can explain what the calls see."""
    runtime = project / "Packages/com.dungeoncrawler.tools/Runtime"
    (runtime / "ZanzibarTool.cs").write_text(ZANZIBAR)  # while no server runs
    settings = project / "ProjectSettings/ProjectSettings.asset"
    server = create_server(open_workspace(project, projects_at(project)), refresh_interval=3600, tokenizer="estimate")

    async def go():
        async with Client(server) as c:
            caught_up = _paths(await c.call_tool("search", {"query": "ZanzibarTool"}))
            (runtime / "QuixoticTool.cs").write_text(ZANZIBAR.replace("Zanzibar", "Quixotic"))
            settings.write_text(settings.read_text().replace("productName: Dungeon Crawler", "productName: Crypt"))
            package = _paths(await c.call_tool("search", {"query": "QuixoticTool"}))
            overview = (await c.call_tool("project_overview", {})).structured_content
            status = (await c.call_tool("index_status", {})).structured_content
            return caught_up, package, overview, status

    caught_up, package, overview, status = anyio.run(go)
    assert status["freshness"] == "watch" and status["auto_refresh_seconds"] == 3600
    assert caught_up[:1] == ["Packages/com.dungeoncrawler.tools/Runtime/ZanzibarTool.cs"]
    assert package[:1] == ["Packages/com.dungeoncrawler.tools/Runtime/QuixoticTool.cs"]
    assert overview["projects"][0]["product"] == "Crypt"


def test_index_status_runs_no_update(project: Path) -> None:
    """docs/mcp.md, Tools: `index_status` "runs no update", even in poll mode with no interval;
    the next other call does."""
    server = create_server(open_workspace(project, projects_at(project)), refresh_interval=0, watch=False)

    async def go():
        async with Client(server) as c:
            before = (await c.call_tool("index_status", {})).structured_content["projects"][0]
            (project / "Assets/ZanzibarTool.cs").write_text(ZANZIBAR)
            still = (await c.call_tool("index_status", {})).structured_content["projects"][0]
            found = _paths(await c.call_tool("search", {"query": "ZanzibarTool"}))
            after = (await c.call_tool("index_status", {})).structured_content["projects"][0]
            return before, still, found, after

    before, still, found, after = anyio.run(go)
    assert (still["files"], still["generation"]) == (before["files"], before["generation"])
    assert found[:1] == ["Assets/ZanzibarTool.cs"]
    assert after["files"] == before["files"] + 1


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_watcher_that_died_falls_back_to_polling(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/mcp.md, Freshness: poll mode is used "when a watcher thread died"; answers stay fresh."""
    from mcp_adapter.server import watcher

    def die(self: Any) -> None:
        raise RuntimeError("the watcher thread died")

    monkeypatch.setattr(watcher.ProjectWatcher, "_run", die)
    server = create_server(open_workspace(project, projects_at(project)), refresh_interval=0, tokenizer="estimate")

    async def go():
        async with Client(server) as c:
            with anyio.fail_after(20):
                while (status := (await c.call_tool("index_status", {})).structured_content)["freshness"] != "poll":
                    await anyio.sleep(0.05)
            (project / "Assets/ZanzibarTool.cs").write_text(ZANZIBAR)
            return status, _paths(await c.call_tool("search", {"query": "ZanzibarTool"}))

    status, found = anyio.run(go)
    assert status["freshness_note"] == (
        "poll: files are checked on disk before answering, at most every 0 s (the watcher stopped)"
    )
    assert found[:1] == ["Assets/ZanzibarTool.cs"]


def test_refresh_forces_a_full_stat_walk_in_watch_mode(project: Path) -> None:
    """docs/mcp.md: "`refresh` forces a full stat walk in both modes" (poll mode: test_mcp_server)."""
    server = create_server(open_workspace(project, projects_at(project)), refresh_interval=3600, tokenizer="estimate")

    async def go():
        async with Client(server) as c:
            status = (await c.call_tool("index_status", {})).structured_content
            return status, await c.call_tool("refresh", {})

    status, refreshed = anyio.run(go)
    assert status["freshness"] == "watch"
    stats = refreshed.structured_content["projects"][0]
    assert (stats["walked"], stats["files"], stats["scanned"]) == (True, 213, 0)


# -- long pastes ------------------------------------------------------------------------------------


def test_a_100_kb_paste_answers_in_under_a_second_from_its_first_terms(server) -> None:
    """docs/mcp.md, Tools: `search`'s `query` and `get_context`'s `task` are used up to their first
    400 distinct terms, "so a 100 kB paste answers in well under a second"; what follows the cut
    changes nothing."""
    import random
    import time as clock

    rnd = random.Random(1)
    frames = [f"  at Frame{rnd.randrange(10**6)}.Method{rnd.randrange(10**6)} (line {i})" for i in range(4000)]
    paste = ("NullReferenceException: Object reference not set to an instance of an object\n" + "\n".join(frames))[
        :100_000
    ]

    async def go():
        timed = []
        async with Client(server) as c:
            await c.call_tool("index_status", {})
            for tool, key in (("search", "query"), ("get_context", "task")):
                for given in (paste, paste + " DamageDealer ShieldAbsorber"):
                    seconds = []
                    for _ in range(2):  # the faster of two: a loaded machine's pause is not the answer's
                        t0 = clock.perf_counter()
                        res = await c.call_tool(tool, {key: given})
                        seconds.append(clock.perf_counter() - t0)
                    timed.append((tool, min(seconds), res))
        return timed

    timed = anyio.run(go)
    for tool, seconds, res in timed:
        assert res.is_error is False and seconds < 1.0, (tool, seconds)
    (_, _, search), (_, _, search_more), (_, _, context), (_, _, context_more) = timed
    assert search_more.structured_content["results"] == search.structured_content["results"]
    assert context_more.structured_content["tier2"] == context.structured_content["tier2"]


# -- direct editor tools ----------------------------------------------------------------------------


def test_an_editor_tool_named_tools_or_call_is_reached_through_editor_call(tmp_path: Path) -> None:
    """docs/mcp.md, Live editor: `editor_tools` and `editor_call` stay in direct mode; an editor tool
    named `tools` or `call` is only reachable through `editor_call` when one project is served."""
    from .test_mcp_live import FakeEditor, echo_tool

    root = write_project(tmp_path / "Proj", {"Assets/Hero.cs": "public class Hero {}\n"})
    editor = FakeEditor(root)
    editor.tools = [echo_tool("tools"), echo_tool("call"), echo_tool("echo")]
    server = make_server(root, editor_tools_mode="direct", editor_poll=0.05)

    async def go():
        async with Client(server) as c:
            editor.start()
            with anyio.fail_after(20):
                while "editor_echo" not in (listed := {t.name: t for t in (await c.list_tools()).tools}):
                    await anyio.sleep(0.05)
            return (
                listed,
                await c.call_tool("editor_tools", {}),
                await c.call_tool("editor_call", {"name": "tools", "arguments": {"x": 1}}),
                await c.call_tool("editor_call", {"name": "call", "arguments": {"x": 2}}),
            )

    try:
        listed, compact_list, tools_tool, call_tool = anyio.run(go)
    finally:
        editor.quit()
    assert sorted(n for n in listed if n.startswith("editor_")) == ["editor_call", "editor_echo", "editor_tools"]
    assert listed["editor_call"].input_schema["required"] == ["name"]  # the compact tool, not the editor's
    assert [t["name"] for t in compact_list.structured_content["tools"]] == ["tools", "call", "echo"]
    assert tools_tool.structured_content == {"project": "Proj", "tool": "tools", "result": {"tools": {"x": 1}}}
    assert call_tool.structured_content == {"project": "Proj", "tool": "call", "result": {"call": {"x": 2}}}


def test_direct_editor_tools_of_a_workspace_are_named_by_project_and_tool(tmp_path: Path) -> None:
    """docs/mcp.md, Live editor: `--editor-tools direct` names each tool `editor_<project>_<tool>` in
    a workspace of several projects, "characters other than letters, digits, `_`, `.` and `-`
    become `_`"; calling one runs that tool of that project's editor."""
    from .test_mcp_live import FakeEditor, echo_tool

    top = tmp_path / "repo"
    for name in ("My Game", "Tools"):
        write_project(top / name, {"Assets/Hero.cs": "public class Hero {}\n"})
    editor = FakeEditor(top / "My Game")
    editor.tools = [echo_tool("scene/tree v1.2"), echo_tool("play-mode")]
    server = make_server(top, editor_tools_mode="direct", editor_poll=0.05)

    async def go():
        async with Client(server) as c:
            editor.start()
            with anyio.fail_after(20):
                while "editor_My_Game_play-mode" not in (listed := [t.name for t in (await c.list_tools()).tools]):
                    await anyio.sleep(0.05)
            return listed, await c.call_tool("editor_My_Game_scene_tree_v1.2", {"x": 3})

    try:
        listed, called = anyio.run(go)
    finally:
        editor.quit()
    assert sorted(n for n in listed if n.startswith("editor_")) == [
        "editor_My_Game_play-mode",
        "editor_My_Game_scene_tree_v1.2",
        "editor_call",
        "editor_tools",
    ]
    assert called.is_error is False
    assert called.structured_content == {
        "project": "My Game",
        "tool": "scene/tree v1.2",
        "result": {"scene/tree v1.2": {"x": 3}},
    }


def test_direct_editor_tools_are_read_once_per_domain(counted_editor: Path) -> None:
    """docs/mcp.md, Live editor: in direct mode each editor tool is listed "with the editor's
    description and input schema, read once per domain": listing tools asks the editor nothing."""
    _CountingEditor.tools = [{"name": "echo", "description": "echoes", "input_schema": {"type": "object"}}]
    server = make_server(counted_editor, editor_tools_mode="direct", editor_poll=0.05)

    async def go():
        async with Client(server) as c:
            listings = [sorted(t.name for t in (await c.list_tools()).tools) for _ in range(3)]
            await anyio.sleep(0.5)  # ten more polls of the heartbeat, the same domain
            listings.append(sorted(t.name for t in (await c.list_tools()).tools))
            return listings

    try:
        listings = anyio.run(go)
    finally:
        _CountingEditor.tools = []
    assert all("editor_echo" in names for names in listings)
    assert _CountingEditor.requests == ["GET /v1/tools"]


@pytest.mark.filterwarnings("ignore:resources/subscribe is removed")
def test_in_poll_mode_notifications_come_with_the_next_call(project: Path) -> None:
    """docs/mcp.md, Change notifications: "In poll mode the notifications follow the update a call
    made, so they come with the next call, not on their own"."""
    from .test_mcp_live import Inbox

    health = project / "Assets/Scripts/Combat/Health.cs"
    uri = "unity://file/Assets/Scripts/Combat/Health.cs"
    server = create_server(open_workspace(project, projects_at(project)), refresh_interval=0, watch=False)
    inbox = Inbox()

    async def go():
        async with Client(server, mode="legacy", message_handler=inbox) as c:
            await c.subscribe_resource(uri)
            health.write_text(health.read_text() + "\n// edited\n")
            await anyio.sleep(1.0)
            before_the_call = list(inbox.seen)
            await c.call_tool("search", {"query": "health"})
            await inbox.wait_for("notifications/resources/updated", uri)
            return before_the_call

    assert anyio.run(go) == []
    assert inbox.seen == [("notifications/resources/updated", uri)]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_change_capabilities_are_advertised_in_both_eras(server, mode: str) -> None:
    """docs/mcp.md: "The server advertises `resources: {subscribe: true, listChanged: true}` and
    `tools: {listChanged: true}` in both eras"."""

    async def go():
        async with Client(server, mode=mode) as c:
            return c.protocol_version, c.server_capabilities

    version, caps = anyio.run(go)
    assert version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
    assert (caps.resources.subscribe, caps.resources.list_changed, caps.tools.list_changed) == (True, True, True)


def test_ctrl_c_stops_an_http_server_and_its_watcher(tmp_path: Path) -> None:
    """docs/mcp.md: the watcher stops with the last session (HTTP: SIGTERM/Ctrl-C), its thread
    joined, and the server logs `stopped watching <root>`; stopped on purpose, it exits 0 (docs/cli.md)."""
    import signal

    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero {}\n"})
    proc, _ = _start_http(root)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(line.decode() for line in proc.stderr), daemon=True)
    reader.start()
    deadline = time.monotonic() + 20
    while f"unity-index: watching {root}\n" not in lines:  # serving, the watcher runs
        assert time.monotonic() < deadline and proc.poll() is None, "".join(lines)
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)
    reader.join(10)
    err = "".join(lines)
    assert (proc.returncode, err.endswith(f"unity-index: stopped watching {root}\n")) == (0, True)
    assert "Traceback" not in err


def test_the_cli_imports_the_mcp_sdk_only_to_serve(indexed_fixture: Path) -> None:
    """mcp_adapter/cli.py: `serve` is contributed through an entry point, and "the MCP SDK is
    imported only when serving": every other command starts without it."""
    script = (
        "import sys\nfrom indexer.cli.main import main\n"
        f"for argv in (['status'], ['query', 'damage'], ['--help']):\n"
        f"    try:\n        main([*argv, '--project', {str(indexed_fixture)!r}])\n"
        "    except SystemExit:\n        pass\n"
        "print('LOADED:' + ','.join(sorted(m for m in sys.modules if m.split('.')[0] == 'mcp')))\n"
    )
    r = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "serve" in r.stdout  # --help lists the contributed command
    assert r.stdout.strip().splitlines()[-1] == "LOADED:"


# -- failures of the environment -------------------------------------------------------------------

DISK_FULL = "the disk is full ("


@pytest.mark.parametrize("watch", [False, True])
def test_a_full_disk_is_told_with_the_cli_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, watch: bool) -> None:
    """docs/mcp.md: a full disk is a failure that is not a bug: in poll mode the call that runs the
    update is a tool error with the CLI's message (a resource read: -32603 with it); `refresh`
    whose update failed says `no update ran: it failed (...)`, and `index_status` shows it."""
    import errno

    import indexer.store.header as header
    from indexer.build.update import update
    from indexer.config import Config

    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { void Jump() {} }\n"})
    update(root, Config(workers=1))
    server = create_server(open_workspace(root, projects_at(root)), refresh_interval=0, watch=watch)

    def full(path: Path, data: bytes, durable: bool = True, **_: Any) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    async def go():
        async with Client(server, mode="legacy") as c:
            await c.call_tool("index_status", {})
            monkeypatch.setattr(header, "atomic_write", full)
            (root / "Assets/Shield.cs").write_text("public class ZanzibarShield {}\n")
            search = await c.call_tool("search", {"query": "ZanzibarShield"})
            refresh = await c.call_tool("refresh", {})
            status = (await c.call_tool("index_status", {})).structured_content
            try:
                await c.read_resource("unity://project/overview")
                read_error = None
            except MCPError as exc:
                read_error = exc.error
            return search, refresh, status, read_error

    search, refresh, status, read_error = anyio.run(go)
    index_json = f"{DISK_FULL}{root}/Library/UnityIndex/index.json)"
    if watch:  # the watcher's update failed; calls answer from the index as it is
        assert search.is_error is False and read_error is None
        assert text(refresh).startswith(f"Error executing tool refresh: no update ran: it failed ({root}: OSError: ")
        assert index_json in text(refresh)
        assert f"(last update failed: {root}: OSError: {index_json}" in status["freshness_note"]
    else:
        for answer in (search, refresh):
            assert answer.is_error and text(answer).endswith(
                f"{index_json}: the index keeps its last committed state; free some space (the index takes"
                " about as much as the project's text files) and run the command again"
            ), text(answer)
        assert (read_error.code, index_json in read_error.message) == (-32603, True)
    assert refresh.is_error is True and "bug" not in text(refresh)


def test_every_http_session_hears_the_editor_connect_and_quit(tmp_path: Path) -> None:
    """docs/mcp.md, Live editor: connect, reload and disconnect each send
    `notifications/tools/list_changed` "to every session" (2025-era ones on their standalone
    channel): here two HTTP clients at once, a real `serve` and a fake editor."""
    from .test_mcp_live import FakeEditor, Inbox

    root = write_project(tmp_path / "Proj", {"Assets/Hero.cs": "public class Hero {}\n"})
    editor = FakeEditor(root)
    proc, port = _start_http(root, "--no-watch")
    inboxes = [Inbox(), Inbox()]
    changed = "notifications/tools/list_changed"

    async def session(inbox: Inbox, ready: anyio.Event, done: anyio.Event) -> None:
        async with Client(f"http://127.0.0.1:{port}/mcp", mode="legacy", message_handler=inbox) as c:
            await c.call_tool("index_status", {})
            await anyio.sleep(0.5)  # the standalone GET stream is open
            ready.set()
            await done.wait()

    async def go():
        readies, done = [anyio.Event(), anyio.Event()], anyio.Event()
        async with anyio.create_task_group() as tg:
            for inbox, ready in zip(inboxes, readies, strict=True):
                tg.start_soon(session, inbox, ready, done)
            for ready in readies:
                await ready.wait()
            editor.start()
            for _ in range(5):  # until both standalone streams are known open: one saw an event
                with anyio.move_on_after(3):
                    while any(inbox.count(changed) == 0 for inbox in inboxes):
                        await anyio.sleep(0.05)
                if all(inbox.count(changed) for inbox in inboxes):
                    break
                editor.begin_reload()  # a reload: one more event for a stream that opened late
                editor.start()
            heard = [inbox.count(changed) for inbox in inboxes]
            editor.quit()
            with anyio.fail_after(20):
                while any(inbox.count(changed) == n for inbox, n in zip(inboxes, heard, strict=True)):
                    await anyio.sleep(0.05)
            await anyio.sleep(1.0)  # two more polls of the heartbeat: nothing more to say
            done.set()
            return heard

    try:
        heard = anyio.run(go)
    finally:
        editor.quit()
        proc.terminate()
        proc.wait(timeout=10)
    assert all(heard)  # each session heard the editor connect (or reload)
    assert [inbox.count(changed) for inbox in inboxes] == [n + 1 for n in heard]  # and quit, once


@pytest.mark.parametrize(
    ("tool", "args", "given"),
    [
        ("search", {"q" * 100_000: "health"}, "q" * 100_000),  # a misspelt name, the call fails anyway
        ("get_context", {"task": "x", "budget": 10, "b" * 5_000: 1}, "b" * 5_000),
    ],
)
def test_an_unknown_argument_name_is_repeated_at_most_200_characters(server, tool: str, args: dict, given: str) -> None:
    """docs/mcp.md, Tools: a tool error "repeats at most the first 200 characters of an argument it
    names (then `… (N characters)`)", also the name of an unknown argument it calls a likely typo."""

    async def go():
        async with Client(server) as c:
            return await c.call_tool(tool, args)

    res = anyio.run(go)
    assert res.is_error is True
    assert text(res).startswith(f"{tool}: unknown argument `{given[:200]}… ({len(given):,} characters)`; ")
    assert len(text(res)) < 1000, text(res)[:1000]


# -- the editor tools against the real bridge core (C#, under Mono) --------------------------------


def test_editor_tools_and_calls_reach_the_real_bridge(host: bridge_host.Host) -> None:
    """docs/mcp.md, Live editor: `editor_tools` lists the running editor's tools; `editor_call`
    runs one, its result the editor's JSON as text with structured content `{project, tool,
    result}`; the bridge's errors come back as tool errors with their code. Here the bridge is the
    package's own C# core under Mono (tests/editor_bridge/TestHost.cs), not a Python fake."""
    for folder in ("Assets", "ProjectSettings"):
        (host.project / folder).mkdir(exist_ok=True)
    server = make_server(host.project)
    name = host.project.name

    async def go():
        async with Client(server) as c:
            return (
                await c.call_tool("editor_tools", {}),
                await c.call_tool("editor_call", {"name": "echo", "arguments": {"text": "hi", "times": 2}}),
                await c.call_tool("editor_call", {"name": "add", "arguments": {"a": 2, "b": "3"}}),
                await c.call_tool("editor_call", {"name": "fail", "arguments": {"code": "denied", "message": "no"}}),
                await c.call_tool("editor_call", {"name": "nope"}),
            )

    listed, echo, bad, failed, unknown = anyio.run(go)
    from .conftest import run_cli

    terminal = run_cli("editor", "tools", "--project", str(host.project), "--json")  # docs/editor-bridge.md:
    assert json.loads(terminal.stdout)["tools"] == listed.structured_content["tools"]  # the same list
    assert [t["name"] for t in listed.structured_content["tools"]] == [
        *("echo", "add", "where", "counter", "sleep", "later", "fail", "crash", "kinds")
    ]
    assert listed.structured_content["project"] == name
    assert echo.is_error is False
    result = {"text": "hi", "times": 2, "parts": ["hi", "hi"]}
    assert echo.structured_content == {"project": name, "tool": "echo", "result": result}
    assert json.loads(text(echo)) == result
    assert bad.is_error and text(bad).endswith("argument 'b': expected integer, got string [bad_arguments]")
    assert failed.is_error and text(failed).endswith("editor: no [denied]")
    assert unknown.is_error and text(unknown).endswith(
        "editor: no tool named 'nope' (GET /v1/tools lists them) [unknown_tool]"
    )


def test_direct_tools_of_the_real_bridge_carry_its_schemas(host: bridge_host.Host) -> None:
    """docs/mcp.md: `--editor-tools direct` lists each tool of the running editor as `editor_<tool>`
    with the editor's description and input schema; calling one is `editor_call` with that name."""
    for folder in ("Assets", "ProjectSettings"):
        (host.project / folder).mkdir(exist_ok=True)
    server = make_server(host.project, editor_tools_mode="direct", editor_poll=0.05)

    async def go():
        async with Client(server) as c:
            with anyio.fail_after(20):
                while "editor_echo" not in (tools := {t.name: t for t in (await c.list_tools()).tools}):
                    await anyio.sleep(0.05)
            return tools, await c.call_tool("editor_echo", {"text": "x"})

    tools, echo = anyio.run(go)
    direct = sorted(n for n in tools if n.startswith("editor_") and n not in ("editor_tools", "editor_call"))
    assert direct == [
        f"editor_{n}" for n in sorted(("echo", "add", "where", "counter", "sleep", "later", "fail", "crash", "kinds"))
    ]
    assert tools["editor_echo"].input_schema == {
        "type": "object",
        "properties": {
            "text": {"type": "string", "description": "Text to return."},
            "times": {"type": "integer", "description": "How many times.", "default": 1},
        },
        "required": ["text"],
        "additionalProperties": False,
    }
    assert tools["editor_echo"].description.startswith("Returns its text, repeated.")
    assert echo.structured_content == {
        "project": host.project.name,
        "tool": "echo",
        "result": {"text": "x", "times": 1, "parts": ["x"]},
    }


@pytest.mark.parametrize(
    "args",
    [
        {"name": "n" * 100_000},
        {"name": "echo", "arguments": {"a" * 100_000: 1, "text": "x"}},
        {"name": "kinds", "arguments": {"mode": "m" * 100_000, "names": []}},
    ],
)
def test_the_bridge_errors_repeat_at_most_200_characters_of_an_argument(host: bridge_host.Host, args: dict) -> None:
    """docs/mcp.md, Tools: a tool error repeats at most the first 200 characters of an argument it
    names, then `… (N characters)`: also when the editor names it (a tool, an argument, a value)."""
    for folder in ("Assets", "ProjectSettings"):
        (host.project / folder).mkdir(exist_ok=True)
    server = make_server(host.project)

    async def go():
        async with Client(server) as c:
            return await c.call_tool("editor_call", args)

    res = anyio.run(go)
    assert res.is_error is True
    assert "… (100,000 characters)" in text(res), text(res)[:300]
    assert len(text(res)) < 1000, text(res)[:1000]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_uri_longer_than_the_sdk_matches_is_invalid_params(server, mode: str) -> None:
    """docs/mcp.md, Resources: a URI over 65,536 characters never reaches the handler; the SDK
    answers -32602 `Unknown resource: <uri>` in both eras (one at the limit is read as any other)."""
    at_limit = "unity://file/Assets/" + "x" * (65_536 - len("unity://file/Assets/"))

    async def go():
        got = []
        async with Client(server, mode=mode) as c:
            for uri in (at_limit, at_limit + "x"):
                with pytest.raises(MCPError) as info:
                    await c.read_resource(uri)
                got.append((info.value.error.code, info.value.error.message[:40]))
        return got

    not_found = -32002 if mode == "legacy" else -32602
    assert anyio.run(go) == [
        (not_found, "Assets/" + "x" * 33),
        (-32602, "Unknown resource: unity://file/Assets/xx"),
    ]


# -- `mcp install` ------------------------------------------------------------------------------------


def _install(home: Path, root: Path, *args: str) -> subprocess.CompletedProcess:
    from .conftest import run_cli

    return run_cli("mcp", "install", "--project", str(root), *args, env={"HOME": str(home), "CODEX_HOME": ""})


@pytest.mark.parametrize("client", ["cursor", "codex"])
def test_install_replaces_the_file_by_rename_and_a_second_run_does_not_rewrite_it(tmp_path: Path, client: str) -> None:
    """docs/mcp.md, Connecting clients: the writer merges, "a second run changes nothing (the file
    is not even rewritten), and the file is replaced atomically" (a new file renamed over the old
    one: another inode, no temporary file left); `--json` has the documented fields."""
    home = tmp_path / "home"
    home.mkdir()
    root = write_project(tmp_path / "Game", {})
    path = home / (".cursor/mcp.json" if client == "cursor" else ".codex/config.toml")
    path.parent.mkdir(parents=True)
    path.write_text('{"mcpServers": {"other": {"command": "x"}}}\n' if client == "cursor" else "[other]\nk = 1\n")
    before = path.stat().st_ino
    first = _install(home, root, "--client", client, "--scope", "user", "--json")
    assert first.returncode == 0, first.stderr
    written = path.stat()
    second = _install(home, root, "--client", client, "--scope", "user", "--json")
    assert second.returncode == 0, second.stderr
    assert written.st_ino != before  # replaced by a rename, not written in place
    assert (path.stat().st_ino, path.stat().st_mtime_ns) == (written.st_ino, written.st_mtime_ns)
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    first_json, second_json = json.loads(first.stdout), json.loads(second.stdout)
    documented = ("schema_version", "client", "scope", "path", "name", "command", "changed", "written")
    assert sorted(first_json) == sorted([*documented, "replaced", "notes", "content"])
    assert (first_json["changed"], first_json["written"]) == (True, True)
    assert (second_json["changed"], second_json["written"]) == (False, False)


@pytest.mark.parametrize(("host", "url_host"), [("localhost", "localhost"), ("::1", "[::1]")])
def test_localhost_and_ipv6_loopback_serve_without_allow_remote_behind_the_rebinding_checks(
    indexed_fixture: Path, host: str, url_host: str
) -> None:
    """docs/mcp.md: HTTP binds loopback (`127.0.0.1`, or `localhost` / `::1` when given) without
    `--allow-remote`, and there the SDK rejects a foreign `Host` (421) and `Origin` (403); any other
    address, even `127.0.0.2`, needs `--allow-remote` (exit 2)."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as s:
        try:
            s.bind((host, 0))
            port = s.getsockname()[1]
        except OSError:
            pytest.skip(f"{host} cannot be bound on this machine")
    cmd = [sys.executable, "-m", "indexer.cli", "serve", "--project", str(indexed_fixture), "--transport", "http"]
    proc = subprocess.Popen([*cmd, "--host", host, "--port", str(port), "--no-watch"], cwd=REPO, env=_env())
    deadline = time.monotonic() + 20
    while True:
        assert proc.poll() is None and time.monotonic() < deadline, "the HTTP server did not start"
        try:
            socket.create_connection((host, port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    url = f"http://{url_host}:{port}/mcp"
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    try:
        origin = httpx.post(url, json=body, headers={**headers, "Origin": "http://evil.example"}).status_code
        foreign = httpx.post(url, json=body, headers={**headers, "Host": "evil.example"}).status_code

        async def session():
            async with Client(url) as c:
                return await c.call_tool("search", {"query": "apply damage", "limit": 1})

        found = anyio.run(session)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert (origin, foreign) == (403, 421)
    assert found.structured_content["results"][0]["path"] == "Assets/Scripts/Combat/DamageDealer.cs"
    from .conftest import run_cli

    refused = run_cli("serve", "--project", str(indexed_fixture), "--transport", "http", "--host", "127.0.0.2")
    assert (refused.returncode, refused.stderr.startswith("error: --host 127.0.0.2 exposes the index")) == (2, True)


def test_stdio_does_not_wait_at_eof_for_a_request_the_client_cancelled(tmp_path: Path) -> None:
    """mcp_adapter/stdio.py: after EOF the server answers every request read "(or cancelled by the
    client)": a `tools/call` cancelled right after it was sent (here one that waits for a first
    build) gets no answer, and the server exits at once, not after the 300 s bound."""
    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero {}\n"})
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "printf", "version": "1"}}
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "search", "arguments": {"query": "hero"}},
        },
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2, "reason": "not needed"}},
    ]
    cmd = [sys.executable, "-m", "indexer.cli", "serve", "--project", str(root), "--no-watch"]
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=REPO, env=_env(), timeout=60)
    assert r.returncode == 0, r.stderr
    assert [json.loads(line).get("id") for line in r.stdout.splitlines()] == [1]


def test_over_http_an_old_bridge_token_stops_granting_the_editor_tools_after_a_reload(tmp_path: Path) -> None:
    """docs/mcp.md, Who may use the editor tools: the secret is "the bridge's current token (the
    `token` of `editor.json`; it changes whenever the editor reloads scripts)": after a reload the
    old token is refused and the new one granted."""
    from .test_mcp_live import FakeEditor, echo_tool
    from .test_mcp_transports import _http_session

    root = write_project(tmp_path / "Proj", {"Assets/Hero.cs": "public class Hero {}\n"})
    editor = FakeEditor(root)
    editor.tools = [echo_tool("echo")]
    proc, port = _start_http(root, "--no-watch")

    async def view(bearer: str) -> tuple[bool, bool]:
        async with _http_session(port, bearer) as c:
            listed = "editor_call" in [t.name for t in (await c.list_tools()).tools]
            called = await c.call_tool("editor_call", {"name": "echo", "arguments": {"x": 1}})
            return listed, called.is_error is False

    try:
        editor.start()
        old = editor.token
        before = anyio.run(view, old)
        editor.begin_reload()
        editor.start()
        after_old, after_new = anyio.run(view, old), anyio.run(view, editor.token)
    finally:
        editor.quit()
        proc.terminate()
        proc.wait(timeout=10)
    assert (before, after_old, after_new) == ((True, True), (False, False), (True, True))


def test_in_poll_mode_refresh_waits_for_the_lock_a_while_and_search_not_at_all(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/mcp.md: with the writer lock held by another process, the answer comes from the last
    committed index (`refresh` says `no update ran: ...` naming the holder); "in poll mode the walk
    first waits up to 10 s for the lock" (here the bound is shortened to 3 s; its value is checked on its own), while a
    read-only call does not wait."""
    from indexer.config import Config
    from indexer.store.lock import writer_lock
    from indexer.store.schema import IndexPaths
    from mcp_adapter.server import freshness

    assert freshness.FORCED_WAIT == 10.0
    monkeypatch.setattr(freshness, "FORCED_WAIT", 3.0)
    server = create_server(open_workspace(project, projects_at(project)), refresh_interval=0, watch=False)

    async def go():
        async with Client(server) as c:
            await c.call_tool("index_status", {})
            with writer_lock(IndexPaths(Config().index_path(project)), 20):
                (project / "Assets/ZanzibarTool.cs").write_text(ZANZIBAR)
                t0 = time.monotonic()
                found = _paths(await c.call_tool("search", {"query": "ZanzibarTool"}))
                searched = time.monotonic() - t0
                refreshed = await c.call_tool("refresh", {})
                waited = time.monotonic() - t0 - searched
            return found, searched, refreshed, waited, _paths(await c.call_tool("search", {"query": "ZanzibarTool"}))

    found, searched, refreshed, waited, later = anyio.run(go)
    assert "Assets/ZanzibarTool.cs" not in found and searched < 3.0
    held = f"unity-index process {os.getpid()} is updating the index at {Config().index_path(project)}"
    kept = "; the index keeps its last committed state (the changes are applied once that process is done)"
    assert (refreshed.structured_content, text(refreshed)) == ({"projects": []}, f"no update ran: {held}{kept}")
    assert 3.0 <= waited < 10.0
    assert later[:1] == ["Assets/ZanzibarTool.cs"]
