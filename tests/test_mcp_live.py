"""The server while it runs, in-process: the file watcher (freshness, fallback, clean stop), resource
notifications in both protocol eras, and the live editor (tools/list_changed on connect, reload and
disconnect; direct editor tools; a call waiting out a reload) against a fake editor."""

from __future__ import annotations

import errno
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.subscriptions import ResourcesListChanged, ResourceUpdated, ToolsListChanged

from indexer.build.update import update
from indexer.config import Config
from indexer.query.workspace import open_workspace, projects_at
from mcp_adapter.server import watcher
from mcp_adapter.server.app import create_server

from .conftest import copy_fixture
from .json_http import JsonHandler

HEALTH = "Assets/Scripts/Combat/Health.cs"
HEALTH_GUID = "9f8eb9ed66e6c8f2f4c7c4ada83e9992"
WAIT = 15.0  # bound for every awaited notification (a shared 2-core machine)

pytestmark = pytest.mark.filterwarnings("ignore:resources/subscribe is removed")  # 2025-era API, on purpose


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An indexed copy of the fixture, so that a session starts with nothing to notify."""
    root = tmp_path / "DungeonCrawler"
    copy_fixture(root)
    update(root, Config(workers=1))
    return root


def make_server(root: Path, **kw: Any):
    kw.setdefault("refresh_interval", 3600)  # a stat walk would hide a watcher that misses a change
    return create_server(open_workspace(root, projects_at(root)), tokenizer="estimate", **kw)


def live_threads() -> list[str]:
    return sorted(t.name for t in threading.enumerate() if t.name.startswith("unity-index-"))


class Inbox:
    """Notifications received by a 2025-era client, awaitable by method (and URI)."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []
        self._changed = anyio.Event()

    async def __call__(self, message: Any) -> None:
        if isinstance(message, Exception):
            return
        uri = getattr(getattr(message, "params", None), "uri", None)
        self.seen.append((message.method, str(uri) if uri else ""))
        self._changed.set()

    async def wait_for(self, method: str, uri: str = "") -> None:
        with anyio.fail_after(WAIT):
            while (method, uri) not in self.seen:
                self._changed = anyio.Event()
                await self._changed.wait()

    def count(self, method: str) -> int:
        return sum(1 for m, _ in self.seen if m == method)


async def next_event(sub: Any, wanted: Callable[[Any], bool]) -> Any:
    """The first event of a 2026-era listen stream that `wanted` accepts, within WAIT."""
    with anyio.fail_after(WAIT):
        async for event in sub:
            if wanted(event):
                return event
    raise AssertionError("the listen stream ended")


SHIELD = "public class ZanzibarShield : UnityEngine.MonoBehaviour { public float absorb = 5f; }\n"


# -- the index while serving ---------------------------------------------------------------------


def test_watch_mode_legacy_notifications_and_clean_stop(project: Path) -> None:
    server = make_server(project)
    inbox = Inbox()
    health = project / HEALTH
    added = project / "Assets/Scripts/Combat/ShieldAbsorber.cs"

    async def go():
        async with Client(server, mode="legacy", message_handler=inbox) as c:
            caps = c.server_capabilities
            assert caps.resources.subscribe is True and caps.resources.list_changed is True
            assert caps.tools.list_changed is True
            status = (await c.call_tool("index_status", {})).structured_content
            assert status["freshness"] == "watch" and status["freshness_note"].startswith("watch: file events")
            assert live_threads() == ["unity-index-editor", "unity-index-watch DungeonCrawler"]
            await c.subscribe_resource(f"unity://file/{HEALTH}")
            await c.subscribe_resource(f"unity://asset/{HEALTH_GUID}")

            health.write_text(health.read_text().replace("TakeDamage", "SufferZanzibar"))
            found = await c.call_tool("search", {"query": "SufferZanzibar"})  # no sleep: the call syncs
            assert found.structured_content["results"][0]["path"] == HEALTH
            assert found.structured_content["results"][0]["snippet"].startswith("public virtual void SufferZanzibar")
            await inbox.wait_for("notifications/resources/updated", f"unity://file/{HEALTH}")
            await inbox.wait_for("notifications/resources/updated", f"unity://asset/{HEALTH_GUID}")
            assert inbox.count("notifications/resources/list_changed") == 0  # only a change, no new file

            added.write_text(SHIELD)
            found = await c.call_tool("search", {"query": "ZanzibarShield"})
            assert found.structured_content["results"][0]["path"] == "Assets/Scripts/Combat/ShieldAbsorber.cs"
            await inbox.wait_for("notifications/resources/list_changed")
            file_uris = {u for m, u in inbox.seen if m == "notifications/resources/updated"}
            # unsubscribed URIs (the new file, the overview) are not sent to this session
            assert file_uris == {f"unity://file/{HEALTH}", f"unity://asset/{HEALTH_GUID}"}

            added.unlink()
            gone = await c.call_tool("search", {"query": "ZanzibarShield"})
            assert "Assets/Scripts/Combat/ShieldAbsorber.cs" not in [
                h["path"] for h in gone.structured_content["results"]
            ]
            refreshed = (await c.call_tool("refresh", {})).structured_content["projects"][0]
            assert (refreshed["scanned"], refreshed["deleted"], refreshed["files"]) == (0, 0, 213)

    anyio.run(go)
    assert live_threads() == []  # the session ended: watcher and editor monitor joined
    # every call made sync cookies; each was deleted, and none reached the index
    assert list(project.rglob(f"{watcher.COOKIE_PREFIX}*")) == []
    indexed = open_workspace(project, projects_at(project)).projects[0].records.kinds()
    assert len(indexed) == 213 and not [p for p in indexed if watcher.COOKIE_PREFIX in p]


def test_watch_mode_modern_listen_stream(project: Path) -> None:
    server = make_server(project)
    health = project / HEALTH
    overview = "unity://project/overview"

    async def go():
        async with Client(server, mode="auto") as c:
            assert c.protocol_version == "2026-07-28"
            await c.call_tool("index_status", {})
            async with c.listen(
                resources_list_changed=True, resource_subscriptions=[f"unity://file/{HEALTH}", overview]
            ) as sub:
                health.write_text(health.read_text() + "\n// touched\n")
                event = await next_event(sub, lambda e: isinstance(e, ResourceUpdated))
                assert event == ResourceUpdated(uri=f"unity://file/{HEALTH}")
                (project / "Assets/Scripts/Combat/ShieldAbsorber.cs").write_text(SHIELD)
                events = {await next_event(sub, lambda e: True), await next_event(sub, lambda e: True)}
                assert events == {ResourcesListChanged(), ResourceUpdated(uri=overview)}

    anyio.run(go)
    assert live_threads() == []


def test_fallback_to_polling_when_the_os_refuses_to_watch(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any) -> None:
        raise OSError(errno.ENOSPC, "inotify watch limit reached")

    monkeypatch.setattr(watcher, "start_observer", refuse)
    server = make_server(project, refresh_interval=0)
    script = project / "Assets/Scripts/Combat/ShieldAbsorber.cs"

    async def go():
        async with Client(server) as c:
            status = (await c.call_tool("index_status", {})).structured_content
            script.write_text(SHIELD)
            found = await c.call_tool("search", {"query": "ZanzibarShield"})
            return status, found

    status, found = anyio.run(go)
    assert status["freshness"] == "poll"
    assert status["freshness_note"] == (
        "poll: files are checked on disk before answering, at most every 0 s (watching failed: "
        "[Errno 28] inotify watch limit reached; raise fs.inotify.max_user_watches / max_user_instances)"
    )
    assert found.structured_content["results"][0]["path"] == "Assets/Scripts/Combat/ShieldAbsorber.cs"
    assert live_threads() == []


def test_no_watch_polls(project: Path) -> None:
    server = make_server(project, watch=False)

    async def go():
        async with Client(server) as c:
            return (await c.call_tool("index_status", {})).structured_content

    status = anyio.run(go)
    assert status["freshness"] == "poll" and status["freshness_note"].endswith("(watching is off (--no-watch))")


def test_calls_answer_from_the_last_commit_while_another_process_writes(project: Path) -> None:
    """docs/mcp.md: with the writer lock held elsewhere, `search` and `refresh` answer from the last
    committed index (the watcher retries); once the lock is free, the change is applied."""
    from indexer.store.lock import writer_lock
    from indexer.store.schema import IndexPaths

    server = make_server(project)
    found: list[list[str]] = []

    async def search(c: Client) -> list[str]:
        res = await c.call_tool("search", {"query": "ZanzibarShield", "limit": 3})
        assert not res.is_error
        return [h["path"] for h in res.structured_content["results"]]

    async def go() -> tuple[dict, str]:
        async with Client(server) as c:
            await c.call_tool("index_status", {})  # the watcher runs and the index is current
            with writer_lock(IndexPaths(Config().index_path(project)), WAIT):  # another writer (after any batch)
                (project / "Assets" / "Scripts" / "Shield.cs").write_text(SHIELD)
                t0 = time.monotonic()  # a blocking tool holds the in-process event loop: time it
                found.append(await search(c))
                res = await c.call_tool("refresh", {})
                assert time.monotonic() - t0 < WAIT  # not the 300 s a first build may take
            with anyio.fail_after(WAIT):  # the watcher's next try (every 0.5 s) applies the change
                found.append(await search(c))
            return res.structured_content, res.content[0].text

    data, text = anyio.run(go)
    held = f"unity-index process {os.getpid()} is updating the index at {Config().index_path(project)}"
    kept = "; the index keeps its last committed state (the changes are applied once that process is done)"
    assert (data, text) == ({"projects": []}, f"no update ran: {held}{kept}")
    assert found == [[], ["Assets/Scripts/Shield.cs"]]


# -- the live editor -----------------------------------------------------------------------------


class FakeEditor:
    """A Python stand-in for the editor bridge: heartbeat + HTTP, with reloads and quitting."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.heartbeat = root / "Library" / "UnityIndex" / "editor.json"
        self.tools: list[dict] = [echo_tool("echo")]
        self.token = ""
        self.httpd: ThreadingHTTPServer | None = None

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        editor = self
        token = self.token

        class Handler(JsonHandler):
            def do_GET(self) -> None:
                if self.headers.get("Authorization") != f"Bearer {token}":
                    self._answer(401, {"ok": False, "error": {"code": "invalid_token", "message": "bad token"}})
                    return
                self._answer(200, {"ok": True, "tools": editor.tools})

            def do_POST(self) -> None:
                if self.headers.get("Authorization") != f"Bearer {token}":
                    self._answer(401, {"ok": False, "error": {"code": "invalid_token", "message": "bad token"}})
                    return
                req = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                self._answer(200, {"ok": True, "result": {req["tool"]: req["arguments"]}, "elapsed_ms": 1})

        return Handler

    def _beat(self, state: str, port: int) -> None:
        beat = {
            "protocol": 1,
            "port": port,
            "token": self.token,
            "pid": os.getpid(),
            "state": state,
            "unity_version": "2021.3.15f1",
            "project_path": str(self.root),
            "updated_at": time.time(),
        }
        self.heartbeat.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.heartbeat.with_suffix(".tmp")
        tmp.write_text(json.dumps(beat))
        os.replace(tmp, self.heartbeat)

    def start(self) -> None:
        """A new script domain: a new token and server, then the heartbeat says ready."""
        self.token = os.urandom(32).hex()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self._beat("ready", self.httpd.server_address[1])

    def _close(self) -> None:
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None

    def begin_reload(self) -> None:
        port = self.httpd.server_address[1] if self.httpd else 0
        self._close()
        self._beat("reloading", port)

    def quit(self) -> None:
        self._close()
        self.heartbeat.unlink(missing_ok=True)


def echo_tool(name: str) -> dict:
    return {
        "name": name,
        "description": f"{name}es its arguments",
        "input_schema": {
            "type": "object",
            "properties": {"x": {"type": "integer", "description": "a number"}},
            "required": ["x"],
            "additionalProperties": False,
        },
    }


@pytest.fixture
def editor(tmp_path: Path) -> Iterator[FakeEditor]:
    root = tmp_path / "Proj"
    (root / "Assets").mkdir(parents=True)
    (root / "ProjectSettings").mkdir()
    fake = FakeEditor(root)
    try:
        yield fake
    finally:
        fake.quit()


def editor_names(tools: Any) -> list[str]:
    return sorted(t.name for t in tools.tools if t.name.startswith("editor_"))


def test_direct_editor_tools_follow_connect_reload_and_quit(editor: FakeEditor) -> None:
    server = make_server(editor.root, editor_tools_mode="direct", editor_poll=0.05)
    inbox = Inbox()
    changed = "notifications/tools/list_changed"

    async def go():
        async with Client(server, mode="legacy", message_handler=inbox) as c:
            assert editor_names(await c.list_tools()) == ["editor_call", "editor_tools"]

            editor.start()
            await inbox.wait_for(changed)
            listed = {t.name: t for t in (await c.list_tools()).tools}
            assert sorted(n for n in listed if n.startswith("editor_")) == [
                "editor_call",
                "editor_echo",
                "editor_tools",
            ]
            assert listed["editor_echo"].input_schema == echo_tool("echo")["input_schema"]
            assert listed["editor_echo"].description.startswith("echoes its arguments (live Unity editor tool of Proj")
            called = await c.call_tool("editor_echo", {"x": 7})
            assert called.is_error is False and called.structured_content == {
                "project": "Proj",
                "tool": "echo",
                "result": {"echo": {"x": 7}},
            }

            editor.begin_reload()  # a script changed: the domain reloads with one more tool
            editor.tools = [echo_tool("echo"), echo_tool("shout")]
            editor.start()
            with anyio.fail_after(WAIT):
                while inbox.count(changed) < 2:
                    await anyio.sleep(0.02)
            assert editor_names(await c.list_tools()) == ["editor_call", "editor_echo", "editor_shout", "editor_tools"]
            shout = await c.call_tool("editor_shout", {"x": 1})
            assert shout.structured_content["result"] == {"shout": {"x": 1}}

            editor.quit()
            with anyio.fail_after(WAIT):
                while inbox.count(changed) < 3:
                    await anyio.sleep(0.02)
            assert editor_names(await c.list_tools()) == ["editor_call", "editor_tools"]
            gone = await c.call_tool("editor_echo", {"x": 1})
            assert gone.is_error is True
            assert gone.content[0].text.startswith("editor_echo: the Unity editor is not available: No Unity editor")
            assert gone.content[0].text.endswith("[editor_not_running]")
            assert inbox.count(changed) == 3

    anyio.run(go)
    assert live_threads() == []


def test_compact_mode_list_changed_on_the_listen_stream(editor: FakeEditor) -> None:
    server = make_server(editor.root, editor_poll=0.05)

    async def go():
        async with Client(server, mode="auto") as c, c.listen(tools_list_changed=True) as sub:
            editor.start()
            assert await next_event(sub, lambda e: True) == ToolsListChanged()
            names = sorted(t.name for t in (await c.list_tools()).tools)
            assert "editor_echo" not in names and "editor_call" in names  # compact: the list stays
            editor.begin_reload()
            editor.start()
            assert await next_event(sub, lambda e: True) == ToolsListChanged()
            editor.quit()
            assert await next_event(sub, lambda e: True) == ToolsListChanged()

    anyio.run(go)


def test_a_call_during_a_domain_reload_waits_for_the_new_domain(editor: FakeEditor) -> None:
    server = make_server(editor.root)
    editor.start()
    editor.begin_reload()
    timer = threading.Timer(1.0, editor.start)

    async def go():
        async with Client(server) as c:
            timer.start()
            started = time.monotonic()
            result = await c.call_tool("editor_call", {"name": "echo", "arguments": {"x": 2}})
            return result, time.monotonic() - started

    try:
        result, took = anyio.run(go)
    finally:
        timer.cancel()
    assert result.is_error is False and result.structured_content["result"] == {"echo": {"x": 2}}
    assert took >= 0.9


def test_a_call_during_a_reload_that_never_ends_fails_after_ten_seconds(editor: FakeEditor) -> None:
    """docs/mcp.md: a call made while the editor reloads waits for the new domain up to 10 s, then
    fails with `reload_timeout` (the server's own bridge, as `serve` makes it)."""
    server = make_server(editor.root)
    editor.start()
    editor.begin_reload()

    async def go():
        async with Client(server) as c:
            started = time.monotonic()
            result = await c.call_tool("editor_call", {"name": "echo", "arguments": {"x": 2}})
            return result, time.monotonic() - started

    result, took = anyio.run(go)
    assert result.is_error is True and "reload_timeout" in result.content[0].text
    assert 9.9 <= took < 15.0  # the bridge gives up a poll (0.1 s) early rather than sleep past 10 s


def test_a_running_server_keeps_the_settings_it_started_with(tmp_path: Path) -> None:
    """docs/configuration.md: a changed `exclude` takes effect at the next index; a running server
    keeps the settings it started with until it is restarted, and stops updating, saying so, rather
    than rebuild the index under them (session 39: it did, undoing the user's `index`)."""
    from .conftest import write_project

    root = write_project(
        tmp_path / "Game",
        {"Assets/Scripts/Alpha.cs": "public class Alpha { }\n", "Assets/Gen/Beta.cs": "public class Beta { }\n"},
    )
    update(root, Config(workers=1))

    def found(server: Any, *names: str) -> list[bool]:
        async def go():
            async with Client(server) as c:
                return [bool((await c.call_tool("search", {"query": n})).structured_content["results"]) for n in names]

        return anyio.run(go)

    running = make_server(root, refresh_interval=0)
    assert found(running, "Alpha", "Beta") == [True, True]
    (root / "unity-index.toml").write_text('exclude = ["Assets/Gen"]\n')
    (root / "Assets/Gen/Gamma.cs").write_text("public class Gamma { }\n")
    assert found(running, "Alpha", "Beta", "Gamma") == [True, True, False]  # from the index as it was

    async def status() -> str:
        async with Client(running) as c:
            return (await c.call_tool("index_status", {})).content[0].text

    # (the server hears of the file's change by a file event, which a loaded machine delivers late)
    deadline = time.monotonic() + 10
    while "unity-index.toml changed since this process started" not in (said := anyio.run(status)):
        assert time.monotonic() < deadline, said
        time.sleep(0.1)
    assert found(make_server(root, refresh_interval=0), "Alpha", "Beta", "Gamma") == [True, False, False]


def test_direct_editor_tool_names(tmp_path: Path) -> None:
    """docs/mcp.md, `--editor-tools direct`: `editor_<tool>`, `editor_<project>_<tool>` in a
    workspace of several projects, characters other than letters, digits, `_`, `.` and `-` as
    `_`; an editor tool named `tools` or `call` is left to `editor_call`."""
    from mcp_adapter.editor.direct import DirectEditorTools
    from mcp_adapter.editor.live import EditorView

    from .conftest import write_project

    tools = tuple(echo_tool(n) for n in ("scene.load", "get hierarchy/v2", "tools", "call", "a-b_c"))
    view = EditorView(domain=(1, "token"), tools=tools)
    reserved = frozenset({"editor_tools", "editor_call"})

    def names(root: Path) -> list[str]:
        ws = open_workspace(root, projects_at(root))
        direct = DirectEditorTools(ws, lambda _p: None, reserved)
        for p in ws.projects:
            direct.update(p, view)
        return direct.names()

    one = write_project(tmp_path / "Solo", {})
    assert names(one) == ["editor_a-b_c", "editor_get_hierarchy_v2", "editor_scene.load"]
    write_project(tmp_path / "W" / "My Game", {})
    write_project(tmp_path / "W" / "B", {})
    assert names(tmp_path / "W") == [
        "editor_B_a-b_c",
        "editor_B_call",
        "editor_B_get_hierarchy_v2",
        "editor_B_scene.load",
        "editor_B_tools",
        "editor_My_Game_a-b_c",
        "editor_My_Game_call",
        "editor_My_Game_get_hierarchy_v2",
        "editor_My_Game_scene.load",
        "editor_My_Game_tools",
    ]


@pytest.mark.parametrize(
    ("tools", "problem"),
    [
        (["echo", 5], "tool 1 is a string, not an object"),
        ([echo_tool("echo"), {"description": "d"}], "tool 2 has no name"),
        (
            [{"name": "echo", "description": "d", "input_schema": "zzz"}],
            "tool 1 (echo): input_schema is not an object schema",
        ),
        (
            [{"name": "echo", "description": 5, "input_schema": {"type": "object"}}],
            "tool 1 (echo): description is not a string",
        ),
    ],
)
def test_a_malformed_tools_answer_is_a_bad_response(editor: FakeEditor, tools: list, problem: str) -> None:
    """docs/editor-bridge.md, the client: a `/v1/tools` answer whose entries are not tools is
    `bad_response`, for `editor_tools` and `unity-index editor tools` (exit 2) alike. It used to end
    `editor_tools` with a generic error or an output breaking its own schema, and the command with
    an internal error (exit 3)."""
    from .conftest import run_cli

    editor.tools = tools
    editor.start()
    message = f"the bridge's /v1/tools answer is malformed: {problem}"

    async def go():
        async with Client(make_server(editor.root)) as c:
            return await c.call_tool("editor_tools", {})

    result = anyio.run(go)
    text = f"Error executing tool editor_tools: editor: {message} [bad_response]"
    assert (result.is_error, result.content[0].text) == (True, text)
    r = run_cli("editor", "tools", "--project", str(editor.root))
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr.strip().endswith(message), r.stderr


def test_direct_editor_tool_names_never_meet(tmp_path: Path) -> None:
    """docs/mcp.md, `--editor-tools direct`: projects whose names are made the same (`My Game`,
    `My_Game`), or one the other followed by `_` (`Game`, `Game_demo`), get a digest of their name
    after it, and a name over 128 characters is cut and ends
    in a digest of the whole. Both used to give one MCP name to two tools, one silently lost."""
    import hashlib

    from mcp_adapter.editor.direct import DirectEditorTools
    from mcp_adapter.editor.live import EditorView

    from .conftest import write_project

    def digest(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()[:8]

    def names(root: Path, tools: tuple[str, ...]) -> dict[str, tuple[str, str]]:
        ws = open_workspace(root, projects_at(root))
        direct = DirectEditorTools(ws, lambda _p: None, frozenset({"editor_tools", "editor_call"}))
        for p in ws.projects:
            direct.update(p, EditorView(domain=(1, "token"), tools=tuple(echo_tool(n) for n in tools)))
        return {n: (e.project.name, e.name) for n, e in direct._entries.items()}

    for project in ("My Game", "My_Game", "B"):
        write_project(tmp_path / "W" / project, {})
    assert names(tmp_path / "W", ("spawn",)) == {
        "editor_B_spawn": ("B", "spawn"),
        f"editor_My_Game_{digest('My Game')}_spawn": ("My Game", "spawn"),
        f"editor_My_Game_{digest('My_Game')}_spawn": ("My_Game", "spawn"),
    }
    for project in ("Game", "Game_demo"):  # `Game` + `demo_spawn` would read as `Game_demo` + `spawn`
        write_project(tmp_path / "U" / project, {})
    assert names(tmp_path / "U", ("demo_spawn", "spawn")) == {
        f"editor_Game_{digest('Game')}_demo_spawn": ("Game", "demo_spawn"),
        f"editor_Game_{digest('Game')}_spawn": ("Game", "spawn"),
        f"editor_Game_demo_{digest('Game_demo')}_demo_spawn": ("Game_demo", "demo_spawn"),
        f"editor_Game_demo_{digest('Game_demo')}_spawn": ("Game_demo", "spawn"),
    }
    long = "P" * 100
    for project in (long, "Other"):
        write_project(tmp_path / "L" / project, {})
    keep = ("delete_enemies_keep_boss", "delete_enemies_keep_none")
    cut = f"editor_{long}_delete_enem"  # 119 characters, then _ and 8 of the digest
    assert names(tmp_path / "L", keep) == {
        f"{cut}_{digest(long + chr(10) + tool)}": (project, tool)
        for project, tool in [(long, keep[0]), (long, keep[1])]
    } | {f"editor_Other_{tool}": ("Other", tool) for tool in keep}


def test_a_direct_tool_name_still_taken_is_not_offered_and_the_log_says_so(tmp_path: Path, monkeypatch, caplog) -> None:
    """docs/mcp.md, `--editor-tools direct`: should two names still meet by a digest's chance, the
    second is not offered and the log says so (the first keeps its name; none is replaced)."""
    import logging

    from mcp_adapter.editor import direct as direct_module
    from mcp_adapter.editor.direct import DirectEditorTools
    from mcp_adapter.editor.live import EditorView

    from .conftest import write_project

    monkeypatch.setattr(direct_module, "_digest", lambda _text: "00000000")  # every digest the same
    for project in ("My Game", "My_Game"):
        write_project(tmp_path / "W" / project, {})
    ws = open_workspace(tmp_path / "W", projects_at(tmp_path / "W"))
    direct = DirectEditorTools(ws, lambda _p: None, frozenset({"editor_tools", "editor_call"}))
    with caplog.at_level(logging.WARNING, logger="unity_index.mcp"):
        for p in ws.projects:
            direct.update(p, EditorView(domain=(1, "token"), tools=(echo_tool("spawn"),)))
    first, second = ws.projects
    assert {n: (e.project.name, e.name) for n, e in direct._entries.items()} == {
        "editor_My_Game_00000000_spawn": (first.name, "spawn")
    }
    assert [r.getMessage() for r in caplog.records] == [
        f"editor tool spawn of {second.name} is not offered: editor_My_Game_00000000_spawn names another tool"
    ]
