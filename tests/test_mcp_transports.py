"""`unity-index serve` as a subprocess: stdio and streamable HTTP sessions in both protocol eras,
the issue's "done when" over stdio, DNS-rebinding (Host/Origin) rejection, bearer tokens and the
refusal of a remote bind without them."""

from __future__ import annotations

import importlib.metadata
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2 as httpx
import pytest
from mcp import Client, StdioServerParameters

from .conftest import REPO, copy_fixture, run_cli, start_cli, write_project
from .json_http import JsonHandler, serving_editor

DUNGEON_GUID = "e3f6cf2710d31fe957ef62913a791f61"
TOOLS = sorted(
    [
        *("search", "get_context", "find_references", "describe", "project_overview", "index_status", "refresh"),
        *("editor_tools", "editor_call"),
    ]
)


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}


def stdio_params(root: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-m", "indexer.cli", "serve", "--project", str(root)], env=_env(), cwd=str(REPO)
    )


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_stdio_done_when(indexed_fixture: Path, mode: str) -> None:
    """Over stdio, each in one call: where damage is applied, an 8k context for the shield task,
    every prefab and UnityEvent using PlayerHealth, and the main scene described."""

    async def go():
        async with Client(stdio_params(indexed_fixture), mode=mode) as c:
            version = c.protocol_version
            tools = sorted(t.name for t in (await c.list_tools()).tools)
            search = await c.call_tool("search", {"query": "apply damage"})
            context = await c.call_tool("get_context", {"task": "add a shield that absorbs damage", "budget": 8000})
            refs = await c.call_tool("find_references", {"target": "PlayerHealth"})
            scene = await c.call_tool("describe", {"target": "Assets/Scenes/Dungeon.unity"})
            overview = await c.call_tool("project_overview", {})
            status = await c.call_tool("index_status", {})
            refresh = await c.call_tool("refresh", {})
            editor = await c.call_tool("editor_tools", {})
            bad = await c.call_tool("describe", {"target": "../../etc/passwd"})
            res = await c.read_resource("unity://file/Assets/Scenes/Dungeon.unity")
            return version, tools, search, context, refs, scene, overview, status, refresh, editor, bad, res

    version, tools, search, context, refs, scene, overview, status, refresh, editor, bad, res = anyio.run(go)
    assert version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
    assert tools == TOOLS
    hits = [h["path"] for h in search.structured_content["results"]]
    assert hits[0] == "Assets/Scripts/Combat/DamageDealer.cs" and "Assets/Scripts/Combat/Health.cs" in hits[:5]
    c = context.structured_content
    assert 5000 < c["tokens"] <= 8000 and "Assets/Scripts/Combat/Health.cs" in [f["path"] for f in c["tier2"]["files"]]
    usages = refs.structured_content["usages"]
    assert sorted((u["path"], u["context"]) for u in usages if u["where"] == "asset") == [
        ("Assets/Prefabs/Player.prefab", "m_Script"),
        ("Assets/Scenes/Dungeon.unity", "instance"),
        ("Assets/Scenes/Dungeon.unity", "m_OnClick"),
    ]
    assert scene.structured_content["kind"] == "scene" and scene.structured_content["guid"] == DUNGEON_GUID
    assert overview.structured_content["projects"][0]["unity_version"] == "2021.3.15f1"
    assert status.structured_content["projects"][0]["files"] == 213
    assert refresh.structured_content["projects"][0]["scanned"] == 0
    assert editor.is_error is True and "No Unity editor is serving" in editor.content[0].text
    assert bad.is_error is True and "is outside the project" in bad.content[0].text
    assert res.contents[0].text.startswith(f"Assets/Scenes/Dungeon.unity  (scene, guid {DUNGEON_GUID})")


def test_stdio_answers_every_request_sent_before_stdin_closed(indexed_fixture: Path) -> None:
    """`printf` of initialize, initialized and two tools/call into `serve`, then EOF: all answered."""
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "printf", "version": "1"}}
    search = {"name": "search", "arguments": {"query": "damage"}}
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": search},
        {"jsonrpc": "2.0", "id": "last", "method": "tools/call", "params": {"name": "index_status", "arguments": {}}},
    ]
    cmd = [sys.executable, "-m", "indexer.cli", "serve", "--project", str(indexed_fixture), "--no-watch"]
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=REPO, env=_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    answers = {a["id"]: a for a in map(json.loads, r.stdout.splitlines())}
    assert sorted(answers, key=str) == [1, 2, "last"], r.stdout
    info = answers[1]["result"]["serverInfo"]
    assert (info["name"], info["version"]) == ("unity-index", importlib.metadata.version("unity-index"))
    assert answers[2]["result"]["structuredContent"]["results"][0]["path"] == "Assets/Scripts/Combat/DamageDealer.cs"
    assert answers["last"]["result"]["structuredContent"]["projects"][0]["files"] == 213


def test_stdio_a_client_gone_before_its_answer_ends_the_server_quietly(indexed_fixture: Path) -> None:
    """A client that dies (or stops reading) with a call unanswered: writing the answer to its
    closed pipe raised BrokenPipeError inside the SDK's transport, and serve exited 3 with
    `error: internal error: ExceptionGroup: ... (a bug: ...)`. Nobody is left to answer: exit 0,
    and nothing on stderr but the watcher's lines."""
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "gone", "version": "1"}}
    cmd = [sys.executable, "-m", "indexer.cli", "serve", "--project", str(indexed_fixture)]
    opts = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    proc = subprocess.Popen(cmd, cwd=REPO, env=_env(), text=True, **opts)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init}) + "\n")
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 1
    proc.stdout.close()  # the client stops reading: the next answer finds the pipe closed
    call = {"name": "search", "arguments": {"query": "damage"}}
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call}) + "\n")
    proc.stdin.close()
    proc.wait(timeout=60)
    assert proc.stderr is not None
    assert (proc.returncode, proc.stderr.read().splitlines()) == (
        0,
        [f"unity-index: watching {indexed_fixture}", f"unity-index: stopped watching {indexed_fixture}"],
    )


def test_stdio_answers_a_line_that_is_no_json_rpc_with_a_parse_error(indexed_fixture: Path) -> None:
    """JSON-RPC's answer to what cannot be parsed: error -32700 with a null id, and the session
    goes on (the SDK's transport passed the error to the server, which only logged it)."""
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "printf", "version": "1"}}
    stdin = "not json at all\n" + '{"jsonrpc": "2.0", "id": 7}\n'
    stdin += json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init}) + "\n"
    cmd = [sys.executable, "-m", "indexer.cli", "serve", "--project", str(indexed_fixture), "--no-watch"]
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=REPO, env=_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    answers = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(a["id"], a.get("error", {}).get("code")) for a in answers] == [(None, -32700), (None, -32700), (1, None)]
    assert all(a["error"]["message"].startswith("Parse error: ") for a in answers[:2])
    assert answers[2]["result"]["serverInfo"]["name"] == "unity-index"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_http(root: Path, *extra: str, port: int | None = None) -> tuple[subprocess.Popen, int]:
    """`serve --transport http` on a free port, or with no `--port` when `port` (the default the
    server should take) is given."""
    cmd = [sys.executable, "-m", "indexer.cli", "serve", "--project", str(root), "--transport", "http"]
    if port is None:
        port = _free_port()
        cmd += ["--port", str(port)]
    proc = subprocess.Popen(
        [*cmd, *extra],
        cwd=REPO,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(proc.stderr.read().decode())
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the HTTP server did not start within 20 s")


@pytest.fixture(scope="module")
def http_server(indexed_fixture: Path) -> Iterator[int]:
    proc, port = _start_http(indexed_fixture)
    try:
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_http_listens_on_port_8765_by_default(indexed_fixture: Path) -> None:
    """docs/mcp.md: streamable HTTP at http://127.0.0.1:8765/mcp unless `--port` says otherwise."""
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", 8765))
        except OSError:
            pytest.skip("port 8765 is taken on this machine")
    proc, port = _start_http(indexed_fixture, port=8765)
    try:

        async def go():
            async with Client("http://127.0.0.1:8765/mcp") as c:
                return await c.call_tool("search", {"query": "apply damage", "limit": 1})

        search = anyio.run(go)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert port == 8765
    assert search.structured_content["results"][0]["path"] == "Assets/Scripts/Combat/DamageDealer.cs"


def test_a_port_in_use_is_a_usage_error(indexed_fixture: Path) -> None:
    """uvicorn logs a failed bind and exits 3, which unity-index documents as a bug; the socket is
    now bound before the server starts, and a port in use is exit 2 saying what to do."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = run_cli("serve", "--project", str(indexed_fixture), "--transport", "http", "--port", str(port))
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr.endswith(
        f"error: cannot listen on 127.0.0.1 port {port}: Address already in use; choose another --port (or --host)\n"
    ), r.stderr
    assert "Traceback" not in r.stderr and "watching" not in r.stderr  # refused before the server started


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_http_session(http_server: int, mode: str) -> None:
    async def go():
        async with Client(f"http://127.0.0.1:{http_server}/mcp", mode=mode) as c:
            tools = sorted(t.name for t in (await c.list_tools()).tools)
            search = await c.call_tool("search", {"query": "apply damage", "limit": 3})
            refs = await c.call_tool("find_references", {"target": "PlayerHealth.Heal"})
            asset = await c.read_resource(f"unity://asset/{DUNGEON_GUID}")
            empty = await c.call_tool("search", {"query": ""})
            return c.protocol_version, tools, search, refs, asset, empty

    version, tools, search, refs, asset, empty = anyio.run(go)
    assert version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
    assert tools == [n for n in TOOLS if not n.startswith("editor_")]  # editor tools need a secret over HTTP
    assert search.structured_content["results"][0]["path"] == "Assets/Scripts/Combat/DamageDealer.cs"
    assert len(search.structured_content["results"]) == 3
    assert refs.structured_content["target"]["kind"] == "member"
    assert "Assets/Scenes/Dungeon.unity" in [u["path"] for u in refs.structured_content["usages"]]
    assert asset.contents[0].text.startswith("Assets/Scenes/Dungeon.unity  (scene")
    assert empty.is_error is True and "the query is empty" in empty.content[0].text


def test_http_rejects_foreign_origin_and_host(http_server: int) -> None:
    url = f"http://127.0.0.1:{http_server}/mcp"
    body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    r = httpx.post(url, json=body, headers={**headers, "Origin": "http://evil.example"})
    assert r.status_code == 403
    r = httpx.post(url, json=body, headers={**headers, "Host": "evil.example"})
    assert r.status_code == 421


def test_remote_bind_refused_without_flag_and_token(indexed_fixture: Path) -> None:
    r = run_cli("serve", "--project", str(indexed_fixture), "--transport", "http", "--host", "0.0.0.0")
    assert r.returncode == 2 and "--allow-remote" in r.stderr and r.stdout == ""
    r = run_cli(
        "serve", "--project", str(indexed_fixture), "--transport", "http", "--host", "0.0.0.0", "--allow-remote"
    )
    assert r.returncode == 2 and "needs --token" in r.stderr
    remote = ["serve", "--project", str(indexed_fixture), "--transport", "http", "--host", "0.0.0.0", "--allow-remote"]
    proc = start_cli(*remote, "--token", "fifteen-chars!!")  # docs/mcp.md: 16+ characters
    try:
        out, err = proc.communicate(timeout=60)  # a server that accepted the token would run on
    finally:
        proc.kill()
    assert (proc.returncode, out) == (2, "")
    assert err == "error: --host 0.0.0.0 with --allow-remote needs --token with at least 16 characters\n"


@pytest.mark.parametrize(
    "token", ["  padded-secret-0123456789  ", "s3cret token 0123456789", "s3cret-tok\u00e9n-0123456789"]
)
def test_a_token_no_client_can_send_is_refused(indexed_fixture: Path, token: str) -> None:
    """A token with a space or a character outside ASCII was taken, and every request was then
    refused (401) even with it: HTTP strips a header's surrounding blanks and clients send no
    other characters; so it is a usage error before anything listens."""
    proc = start_cli("serve", "--project", str(indexed_fixture), "--transport", "http", "--port", "0", "--token", token)
    try:
        out, err = proc.communicate(timeout=20)  # a server that accepted the token would run on
    finally:
        proc.kill()
    assert (proc.returncode, out) == (2, "")
    assert err == (
        "error: --token must be visible ASCII characters, no spaces:"
        " clients send it in a header, 'Authorization: Bearer SECRET'\n"
    )


def test_bearer_token_is_required_when_set(indexed_fixture: Path) -> None:
    token = "s3cret-token-0123456789"
    proc, port = _start_http(indexed_fixture, "--token", token)
    try:
        url = f"http://127.0.0.1:{port}/mcp"
        r = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert r.status_code == 401

        async def go():
            auth = httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"})
            from mcp.client.streamable_http import streamable_http_client

            async with Client(streamable_http_client(url, http_client=auth), mode="legacy") as c:
                return await c.call_tool("index_status", {})

        res = anyio.run(go)
        assert res.is_error is False and res.structured_content["projects"][0]["indexed"] is True
    finally:
        proc.terminate()
        proc.wait(timeout=10)


class _Bridge(JsonHandler):
    """A fake editor bridge: answers only requests carrying its token."""

    token = "b" * 64

    def _ok(self) -> bool:
        if self.headers.get("Authorization") == f"Bearer {self.token}":
            return True
        self._answer(401, {"ok": False, "error": {"code": "invalid_token", "message": "bad token"}})
        return False

    def do_GET(self) -> None:
        if self._ok():
            echo = {"name": "echo", "description": "echoes", "input_schema": {"type": "object"}}
            self._answer(200, {"ok": True, "tools": [echo]})

    def do_POST(self) -> None:
        if self._ok():
            req = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            self._answer(200, {"ok": True, "result": {"echo": req["arguments"]}})


@pytest.fixture
def editor_project(tmp_path: Path) -> Iterator[Path]:
    root = write_project(tmp_path / "Proj", {"Assets/Player.cs": "public class Player {}\n"})
    with serving_editor(root, _Bridge, _Bridge.token):
        yield root


def _http_session(port: int, bearer: str | None, mode: str = "legacy"):
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {bearer}"} if bearer else {}
    url = f"http://127.0.0.1:{port}/mcp"
    return Client(streamable_http_client(url, http_client=httpx.AsyncClient(headers=headers)), mode=mode)


async def _editor_view(port: int, bearer: str | None, mode: str = "legacy") -> tuple[list[str], Any, Any, Any]:
    async with _http_session(port, bearer, mode) as c:
        names = sorted(t.name for t in (await c.list_tools()).tools)
        listed = await c.call_tool("editor_tools", {})
        called = await c.call_tool("editor_call", {"name": "echo", "arguments": {"x": 1}})
        search = await c.call_tool("search", {"query": "player"})
        return names, listed, called, search


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_http_editor_tools_need_the_bridge_token(editor_project: Path, mode: str) -> None:
    proc, port = _start_http(editor_project, "--no-watch")
    try:
        for bearer in (None, "not-the-token"):
            names, listed, called, search = anyio.run(_editor_view, port, bearer, mode)
            assert names == [n for n in TOOLS if not n.startswith("editor_")]
            for refused in (listed, called):
                assert refused.is_error is True
                assert "need a secret over HTTP: send 'Authorization: Bearer <token>'" in refused.content[0].text
            assert search.is_error is False  # the index tools stay open on loopback
        names, listed, called, search = anyio.run(_editor_view, port, _Bridge.token, mode)
        assert names == TOOLS
        assert listed.is_error is False and listed.structured_content["tools"][0]["name"] == "echo"
        assert called.is_error is False and called.structured_content["result"] == {"echo": {"x": 1}}
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_http_direct_editor_tools_need_the_bridge_token(editor_project: Path) -> None:
    proc, port = _start_http(editor_project, "--no-watch", "--editor-tools", "direct")

    async def go(bearer: str | None):
        async with _http_session(port, bearer) as c:
            with anyio.fail_after(20):  # the editor monitor reads the tools within its first poll
                while "editor_echo" not in (names := [t.name for t in (await c.list_tools()).tools]) and bearer:
                    await anyio.sleep(0.1)
            return names, await c.call_tool("editor_echo", {"x": 2})

    try:
        names, called = anyio.run(go, _Bridge.token)
        assert "editor_echo" in names and called.structured_content["result"] == {"echo": {"x": 2}}
        names, called = anyio.run(go, None)
        assert not any(n.startswith("editor_") for n in names)
        assert called.is_error is True and called.content[0].text.startswith("editor_echo: the Unity editor's tools")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_http_editor_tools_with_the_server_token(editor_project: Path) -> None:
    token = "s3cret-token-0123456789"
    proc, port = _start_http(editor_project, "--no-watch", "--token", token)
    try:
        names, listed, called, _ = anyio.run(_editor_view, port, token)
        assert names == TOOLS and listed.is_error is False
        assert called.is_error is False and called.structured_content["result"] == {"echo": {"x": 1}}
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _editable_copy(tmp_path: Path) -> Path:

    from indexer.build.update import update
    from indexer.config import Config

    root = tmp_path / "DungeonCrawler"
    copy_fixture(root)
    update(root, Config(workers=1))
    return root


class _Inbox:
    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    async def __call__(self, message) -> None:
        if not isinstance(message, Exception):
            uri = getattr(getattr(message, "params", None), "uri", None)
            self.seen.append((message.method, str(uri) if uri else ""))

    async def wait_for(self, method: str, uri: str = "") -> None:
        with anyio.fail_after(20):
            while (method, uri) not in self.seen:
                await anyio.sleep(0.02)


@pytest.mark.filterwarnings("ignore:resources/subscribe is removed")
def test_stdio_notifies_a_subscribed_file_and_stops_watching_on_eof(tmp_path: Path) -> None:
    from mcp.client.stdio import stdio_client

    root = _editable_copy(tmp_path)
    health = root / "Assets/Scripts/Combat/Health.cs"
    errlog = (tmp_path / "stderr.txt").open("w+")
    inbox = _Inbox()

    async def go():
        async with Client(stdio_client(stdio_params(root), errlog=errlog), mode="legacy", message_handler=inbox) as c:
            status = await c.call_tool("index_status", {})
            await c.subscribe_resource("unity://file/Assets/Scripts/Combat/Health.cs")
            health.write_text(health.read_text() + "\n// edited while serving\n")
            await inbox.wait_for("notifications/resources/updated", "unity://file/Assets/Scripts/Combat/Health.cs")
            (root / "Assets/Scripts/Shield.cs").write_text("public class Shield {}\n")
            await inbox.wait_for("notifications/resources/list_changed")
            return status

    status = anyio.run(go)
    assert status.structured_content["freshness"] == "watch"
    deadline = time.monotonic() + 20
    while "stopped watching" not in (errlog.seek(0) or errlog.read()) and time.monotonic() < deadline:
        time.sleep(0.1)
    errlog.seek(0)
    log = errlog.read()
    assert f"unity-index: watching {root}" in log and f"unity-index: stopped watching {root}" in log, log


def test_http_list_changed_on_the_standalone_stream_and_clean_stop(tmp_path: Path) -> None:
    root = _editable_copy(tmp_path)
    proc, port = _start_http(root)
    inbox = _Inbox()
    try:

        async def go():
            async with Client(f"http://127.0.0.1:{port}/mcp", mode="legacy", message_handler=inbox) as c:
                await c.call_tool("index_status", {})
                (root / "Assets/Scripts/Shield.cs").write_text("public class Shield {}\n")
                await inbox.wait_for("notifications/resources/list_changed")
                return await c.call_tool("search", {"query": "Shield"})

        found = anyio.run(go)
        assert found.structured_content["results"][0]["path"] == "Assets/Scripts/Shield.cs"
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert f"unity-index: stopped watching {root}" in err.decode()


def test_a_failing_update_is_shown_by_index_status_and_retried_until_it_succeeds(tmp_path: Path) -> None:
    """docs/mcp.md: a failing update is logged, retried every 2 s, and shown by `index_status`.
    A real failure over stdio: the index's fingerprint file is a folder, so every update fails
    (IsADirectoryError; since session 45 FolderInPlace, which names the repair) before it writes.
    Answers keep coming from the last commit, each ending with
    a note saying so (since session 42: a script just written was "no results", and nothing told an
    index behind); once the folder is gone, a retry applies the change with no new file event, and
    the note is gone."""
    from indexer.build.update import update
    from indexer.config import Config

    from .conftest import write_project

    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { void Jump() {} }"})
    update(root, Config(workers=1))
    fingerprint = root / "Library/UnityIndex/integrity.json"

    notes: list[str] = []  # the last text block of each search answer

    async def go() -> tuple[str, list[str], str, list[str]]:
        async with Client(stdio_params(root)) as c:

            async def state() -> tuple[str, list[str]]:
                status = (await c.call_tool("index_status", {})).structured_content
                answer = await c.call_tool("search", {"query": "ShieldBash"})
                notes.append(answer.content[-1].text)
                return status["freshness_note"], [h["path"] for h in answer.structured_content["results"]]

            assert "last update failed" not in (await state())[0]
            fingerprint.unlink()
            fingerprint.mkdir()
            (root / "Assets/Shield.cs").write_text("public class Shield { void ShieldBash() {} }")
            note, hits = await state()
            deadline = time.monotonic() + 30
            while "last update failed" not in note and time.monotonic() < deadline:
                await anyio.sleep(0.2)
                note, hits = await state()
            fingerprint.rmdir()
            after, later = await state()
            while not later and time.monotonic() < deadline + 30:
                await anyio.sleep(0.2)
                after, later = await state()
            after, _ = await state()  # index_status asked after the search saw the file
            return note, hits, after, later

    note, hits, after, later = anyio.run(go)
    assert "last update failed" in note and "FolderInPlace" in note, note
    assert hits == []  # from the last commit, which does not know the new file
    assert later == ["Assets/Shield.cs"] and "last update failed" not in after, after
    failed = [n for n in notes if n.startswith("note: the last update of the index failed")]
    assert failed, notes
    assert failed[-1].startswith(
        f"note: the last update of the index failed (FolderInPlace: {fingerprint} is a folder where the index"
        " keeps its file integrity.json: run `unity-index index --full --project "
    ), failed[-1]
    assert failed[-1].endswith(
        "): this answer comes from the index as it is, without the changes made since (the update is tried again;"
        " index_status shows it)"
    ), failed[-1]
    assert not notes[-1].startswith("note:")  # the answer once the update went in


def test_an_update_failing_for_a_known_reason_is_logged_in_one_line(tmp_path: Path, caplog) -> None:
    """A project folder moved while the server watches it: every retry (each 2 s, for as long as the
    server runs) logged a traceback. A failure `explain_failure` knows (the environment, not a bug)
    is logged as its message alone; a bug keeps its traceback."""
    import logging

    from indexer.build.update import update
    from indexer.config import Config
    from mcp_adapter.server.watcher import ProjectWatcher

    from .conftest import write_project

    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { void Jump() {} }"})
    update(root, Config(workers=1))
    watcher = ProjectWatcher(root, Config(workers=1), lambda stats: None)
    caplog.set_level(logging.INFO, logger="unity_index.mcp")
    watcher.start()
    try:
        assert watcher.settle(10)  # watching, its first update done
        moved = tmp_path / "Moved"
        root.rename(moved)
        (moved / "Assets/Shield.cs").write_text("public class Shield {}")
        deadline = time.monotonic() + 30
        while "the project folder is gone" not in watcher.error and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        watcher.stop()
    assert "the project folder is gone" in watcher.error
    failed = [r for r in caplog.records if "failed" in r.getMessage()]
    assert failed and all(r.exc_info is None for r in failed), [r.getMessage() for r in failed]
    assert "the project folder is gone" in failed[0].getMessage()
    assert not root.exists()
