"""Session 38's MCP fixes, each over a real session: direct editor tools that never hold up the
first answer, the editor of a workspace of several projects, stdio requests with an id JSON-RPC
does not allow, the prompt's and get_context's repeated task, the bearer scheme in any case, the
folder hint and describe's cap in tool terms, and index_status of a project folder that moved."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
import httpx2 as httpx
from mcp import Client

from indexer.query.workspace import open_workspace, projects_at
from indexer.words import echoed
from mcp_adapter.editor import bridge as eb
from mcp_adapter.editor.live import FIRST_TOOLS_WAIT
from mcp_adapter.server.app import create_server

from .conftest import REPO, write_project
from .json_http import JsonHandler, serving_editor, write_heartbeat
from .test_mcp_transports import _env, _start_http

PLAYER = "public class Player : UnityEngine.MonoBehaviour { public int health = 3; }\n"
TOKEN = "b" * 64


def make_server(root: Path, **kw):
    kw.setdefault("refresh_interval", 3600)
    return create_server(open_workspace(root, projects_at(root)), tokenizer="estimate", **kw)


def small_project(root: Path) -> Path:
    return write_project(root, {"Assets/Scripts/Player.cs": PLAYER})


class Bridge(JsonHandler):
    """A fake editor bridge with one tool, for requests carrying its token."""

    def do_GET(self) -> None:
        if self.headers.get("Authorization") != f"Bearer {TOKEN}":
            self._answer(401, {"ok": False, "error": {"code": "invalid_token", "message": "bad token"}})
            return
        spawn = {"name": "spawn", "description": "spawns a thing", "input_schema": {"type": "object"}}
        self._answer(200, {"ok": True, "tools": [spawn]})


# -- 1. --editor-tools direct: the editor's tool list is read in the background -------------------


def test_direct_mode_answers_at_once_while_the_editor_port_refuses(tmp_path: Path) -> None:
    """A fresh heartbeat naming a port that refuses: the first read of the editor's tools waited
    out the bridge's reload wait before `initialize` was answered (10 s with `serve`'s bridge;
    index tools never touch the editor). It is waited for FIRST_TOOLS_WAIT at most."""
    root = small_project(tmp_path / "Proj")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead_port = s.getsockname()[1]
    write_heartbeat(root, port=dead_port, token=TOKEN)  # fresh for 10 s, more than the test needs
    server = make_server(
        root, editor_tools_mode="direct", bridge_factory=lambda p: eb.EditorBridge(p.root, reload_wait=6.0)
    )

    async def go() -> tuple[float, bool]:
        started = time.monotonic()
        async with Client(server, mode="legacy") as c:
            status = await c.call_tool("index_status", {})
            return time.monotonic() - started, status.is_error

    took, failed = anyio.run(go)
    assert failed is False
    assert took < FIRST_TOOLS_WAIT + 2.0 < 6.0  # was over 6 s, the bridge's wait


class SlowBridge(Bridge):
    """An editor whose tool list takes longer than the server waits for it before its first answer."""

    def do_GET(self) -> None:
        time.sleep(FIRST_TOOLS_WAIT + 1.0)
        super().do_GET()


def test_a_slow_editor_s_tools_come_with_a_list_changed_once_read(tmp_path: Path) -> None:
    """docs/mcp.md: in direct mode the first read of the editor's tools is waited for up to 2 s,
    "then answered without them, which come with a `notifications/tools/list_changed` once read"."""
    from .test_mcp_live import Inbox

    root = small_project(tmp_path / "Proj")
    inbox = Inbox()

    async def go() -> tuple[float, list[str], list[str]]:
        started = time.monotonic()
        async with Client(server, mode="legacy", message_handler=inbox) as c:
            first = sorted(t.name for t in (await c.list_tools()).tools if t.name.startswith("editor_"))
            took = time.monotonic() - started
            await inbox.wait_for("notifications/tools/list_changed")
            later = sorted(t.name for t in (await c.list_tools()).tools if t.name.startswith("editor_"))
            return took, first, later

    with serving_editor(root, SlowBridge, TOKEN):
        server = make_server(root, editor_tools_mode="direct", editor_poll=0.05)
        took, first, later = anyio.run(go)
    assert took < FIRST_TOOLS_WAIT + 1.0  # answered before the editor did
    assert first == ["editor_call", "editor_tools"]
    assert later == ["editor_call", "editor_spawn", "editor_tools"]


# -- 2. a workspace of several projects: the editor that runs -----------------------------------


def _editor_tools(root: Path, **arguments: str):
    async def go():
        async with Client(make_server(root), mode="legacy") as c:
            return await c.call_tool("editor_tools", arguments)

    return anyio.run(go)


def test_editor_tools_without_project_reach_the_one_editor_that_runs(tmp_path: Path) -> None:
    """`editor_tools` without `project` took the first project (Alpha), whose editor is closed,
    while Beta's runs."""
    workspace = tmp_path / "W"
    for name in ("Alpha", "Beta"):
        small_project(workspace / name)
    with serving_editor(workspace / "Beta", Bridge, TOKEN):
        listed = _editor_tools(workspace)
    assert listed.is_error is False, listed.content[0].text
    assert listed.structured_content["project"] == "Beta"
    assert listed.structured_content["tools"][0]["name"] == "spawn"


def test_editor_tools_without_project_and_no_editor_or_two_list_the_projects(tmp_path: Path) -> None:
    workspace = tmp_path / "W"
    for name in ("Alpha", "Beta"):
        small_project(workspace / name)
    none = _editor_tools(workspace)
    with serving_editor(workspace / "Alpha", Bridge, TOKEN), serving_editor(workspace / "Beta", Bridge, TOKEN):
        both = _editor_tools(workspace)
    assert (none.is_error, both.is_error) == (True, True)
    assert none.content[0].text == (
        "Error executing tool editor_tools: this workspace serves several projects and no Unity editor runs"
        " for any of them: give `project`, one of: Alpha, Beta"
    )
    assert both.content[0].text == (
        "Error executing tool editor_tools: this workspace serves several projects and the Unity editor runs"
        " for several of them (Alpha, Beta): give `project`, one of: Alpha, Beta"
    )


# -- 3. stdio: an id JSON-RPC does not allow ---------------------------------------------------


def test_stdio_answers_a_request_whose_id_is_no_string_or_integer(tmp_path: Path) -> None:
    """Read by the SDK as notifications, these got no answer at all; JSON-RPC's is -32600 with a
    null id (docs/mcp.md: a broken request is answered)."""
    root = small_project(tmp_path / "Proj")
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "printf", "version": "1"}}
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        *({"jsonrpc": "2.0", "id": bad, "method": "ping"} for bad in (None, {"a": 1}, True, 1.5, [1])),
        {"jsonrpc": "2.0", "id": "last", "method": "ping"},
    ]
    cmd = [sys.executable, "-m", "indexer.cli", "serve", "--project", str(root), "--no-watch"]
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=REPO, env=_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    answers = [json.loads(line) for line in r.stdout.splitlines()]
    errors = [a for a in answers if "error" in a]
    assert sorted(str(a["id"]) for a in answers if "result" in a) == ["1", "last"]
    assert [(a["id"], a["error"]["code"]) for a in errors] == [(None, -32600)] * 5
    kinds = [a["error"]["message"].rsplit(", not ", 1)[1] for a in errors]
    assert kinds == ["null", "an object", "a boolean", "a number that is no integer", "an array"]


# -- 4. the repeated task ----------------------------------------------------------------------


def test_a_pasted_task_is_not_repeated_whole(tmp_path: Path) -> None:
    """A 100 kB stack trace: the prompt (budget 200) came back as a message of some 50,000 tokens,
    and get_context's and search's structured `query` held the whole paste."""
    root = small_project(tmp_path / "Proj")
    task = "".join(f"  at Game.Sys{i}.Run{i} (Assets/Scripts/F{i}.cs:{i})\n" for i in range(2500))

    async def go():
        async with Client(make_server(root), mode="legacy") as c:
            prompt = await c.get_prompt("unity_task", {"task": task, "budget": "200"})
            context = await c.call_tool("get_context", {"task": task, "budget": 200})
            found = await c.call_tool("search", {"query": task})
            return prompt.messages[0].content.text, context.structured_content, found.structured_content

    text, context, found = anyio.run(go)
    assert text.startswith(f"Task: {echoed(task, 200)}\n\n")
    assert len(text) < 3000
    assert context["query"] == echoed(task) and found["query"] == echoed(task)


# -- 5. the bearer scheme in any case ----------------------------------------------------------


def test_the_bearer_scheme_is_case_insensitive(tmp_path: Path) -> None:
    """`bearer SECRET` was refused (401) by `serve --token`, and not taken for the editor tools."""
    root = small_project(tmp_path / "Proj")
    secret = "s3cret-token-0123456789"
    with serving_editor(root, Bridge, TOKEN):
        proc, port = _start_http(root, "--no-watch", "--token", secret)
        try:
            url = f"http://127.0.0.1:{port}/mcp"

            async def go(authorization: str):
                from mcp.client.streamable_http import streamable_http_client

                http = httpx.AsyncClient(headers={"Authorization": authorization})
                async with Client(streamable_http_client(url, http_client=http), mode="legacy") as c:
                    return await c.call_tool("editor_tools", {})

            for scheme in ("bearer", "BEARER", "BeArEr"):
                listed = anyio.run(go, f"{scheme} {secret}")
                assert listed.is_error is False, listed.content[0].text
                assert listed.structured_content["tools"][0]["name"] == "spawn"
            assert httpx.post(url, headers={"Authorization": f"Basic {secret}"}, json={}).status_code == 401
        finally:
            proc.terminate()
            proc.wait(timeout=10)


# -- 6-8. messages in tool terms ---------------------------------------------------------------


def _call(root: Path, *calls: tuple[str, dict], between=None, **kw) -> list:
    async def go():
        results = []
        async with Client(make_server(root, **kw), mode="legacy") as c:
            for name, arguments in calls:
                results.append(await c.call_tool(name, arguments))
                if between is not None:
                    between()
        return results

    return anyio.run(go)


def test_describe_of_a_folder_names_the_search_tool(tmp_path: Path) -> None:
    root = small_project(tmp_path / "Proj")
    [folder] = _call(root, ("describe", {"target": "Assets/Scripts"}))
    assert folder.is_error is True
    assert "the `search` tool (path Assets/Scripts) searches its files" in folder.content[0].text
    assert "unity-index" not in folder.content[0].text


def test_describe_says_how_many_symbols_the_structured_content_lists(tmp_path: Path) -> None:
    """The outline cut at 300 lines said the structured content's symbols listed the rest; they
    stop at 400 (Huge: 1,001 symbols), or fewer to keep the answer within 20k tokens (session 48),
    which the hint now says; Big's 351, shorter, are all listed."""

    def script(name: str, methods: int, method: str = "public void Method{}(int a)") -> str:
        body = "\n".join(f"    {method.format(i)} {{ }}" for i in range(methods))
        return f"public class {name} {{\n{body}\n}}\n"

    files = {"Assets/Huge.cs": script("Huge", 1000), "Assets/Big.cs": script("Big", 350, "void M{}()")}
    root = write_project(tmp_path / "Proj", files)
    huge, big = _call(root, ("describe", {"target": "Assets/Huge.cs"}), ("describe", {"target": "Assets/Big.cs"}))
    listed = len(huge.structured_content["symbols"])  # 400 at most, fewer to keep the answer in 20k tokens
    assert huge.content[0].text.splitlines()[-1] == (
        f"… 701 more lines (the structured content's symbols list the first {listed} of 1,001;"
        " `unity-index describe --json Assets/Huge.cs` lists all)"
    )
    assert 200 < listed <= 400
    assert big.content[0].text.splitlines()[-1] == "… 51 more lines (the structured content's symbols list them)"
    assert len(big.structured_content["symbols"]) == 351


def test_index_status_of_a_moved_project_says_the_folder_is_gone(tmp_path: Path) -> None:
    """It said "no index yet ... builds it first" while every other tool said the folder is gone."""
    root = small_project(tmp_path / "Proj")
    moved = tmp_path / "Moved"
    search, status = _call(
        root,
        ("search", {"query": "player"}),
        ("index_status", {}),
        between=lambda: root.exists() and os.rename(root, moved),
    )
    assert search.is_error is False
    text = status.content[0].text
    assert text.startswith(f"project {root}\n{root}: the project folder is gone (moved or deleted);"), text
    assert "no index yet" not in text
