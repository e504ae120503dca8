"""Promises of docs/editor-bridge.md that no other test held the bridge to: the order of its
checks, the headers its errors carry, the bounds of `timeout_ms`, the error codes of malformed
calls, the ping answer, the 8 MiB journal reset (the C# core really running under Mono, as in
tests/test_editor_bridge.py), and the client's rules for stale heartbeats and retries."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from mcp_adapter.editor.bridge import EditorBridge, EditorCallError, EditorUnavailable, read_heartbeat

from . import bridge_host
from .bridge_host import WAIT, Host
from .json_http import JsonHandler

host_exe, make_host, host = bridge_host.host_exe, bridge_host.make_host, bridge_host.host


def request(
    port: int, method: str, path: str, *, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], dict[str, Any]]:
    """One HTTP request: status, headers (lower-case names) and the JSON body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, json.loads(resp.read().decode("utf-8"))
    finally:
        conn.close()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# -- the checks, in order, and the headers of their answers --------------------------------------


def test_origin_then_host_then_token_each_answered_with_its_header(host: Host) -> None:
    """docs/editor-bridge.md: every request is checked in the order Origin, Host, Authorization;
    401 `missing_token` carries `WWW-Authenticate: Bearer`; 405 carries `Allow`."""
    hb = read_heartbeat(host.project)
    status, _, body = request(hb.port, "GET", "/v1/ping", headers={"Origin": "null", "Host": "127.0.0.1:1"})
    assert (status, body["error"]["code"]) == (403, "origin_forbidden")  # Origin before Host
    status, _, body = request(hb.port, "GET", "/v1/ping", headers={"Host": "127.0.0.1:1"})
    assert (status, body["error"]["code"]) == (403, "host_forbidden")  # Host before the token
    status, headers, body = request(hb.port, "GET", "/v1/ping")
    assert (status, body["error"]["code"], headers["www-authenticate"]) == (401, "missing_token", "Bearer")
    status, headers, body = request(hb.port, "GET", "/v1/call", headers=auth(hb.token))
    assert (status, body["error"]["code"], headers["allow"]) == (405, "method_not_allowed", "POST")
    status, headers, body = request(hb.port, "POST", "/v1/ping", body=b"{}", headers=auth(hb.token))
    assert (status, body["error"]["code"], headers["allow"]) == (405, "method_not_allowed", "GET")


def test_ping_answers_its_fields(host: Host) -> None:
    """docs/editor-bridge.md: `GET /v1/ping` is `{"ok": true, "protocol": 1, "pending": N, "tools":
    <count>, "state": ...}` (and the editor's own fields; the test host adds whether it pumps)."""
    hb = read_heartbeat(host.project)
    _, _, tools = request(hb.port, "GET", "/v1/tools", headers=auth(hb.token))
    status, _, ping = request(hb.port, "GET", "/v1/ping", headers=auth(hb.token))
    assert status == 200
    assert ping == {
        "ok": True,
        "protocol": 1,
        "pending": 0,
        "tools": len(tools["tools"]),
        "state": "ready",
        "paused_pump": False,
    }


def test_a_full_queue_says_when_to_retry(make_host) -> None:
    """docs/editor-bridge.md: 429 `queue_full` (+ `Retry-After: 1`), `started: false`."""
    host = make_host("--max-pending", "1")
    hb = read_heartbeat(host.project)
    host.send("pause", "OK pause")
    waiting = threading.Thread(
        target=lambda: EditorBridge(host.project).call_tool("counter", timeout=WAIT), daemon=True
    )
    waiting.start()
    deadline = time.monotonic() + WAIT
    while EditorBridge(host.project).ping()["pending"] != 1:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    call = json.dumps({"tool": "counter"}).encode()
    status, headers, body = request(hb.port, "POST", "/v1/call", body=call, headers=auth(hb.token))
    host.send("resume", "OK resume")
    waiting.join(WAIT)
    assert (status, headers["retry-after"]) == (429, "1")
    assert (body["error"]["code"], body["error"]["started"]) == ("queue_full", False)


# -- the body of a call ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "code", "message"),
    [
        (b'{"tool":"echo","arguments":{"text":"x"}}\xff', 400, "bad_json", None),
        (b'{"tool":"echo","arguments":{"text":"\xe9"}}', 400, "bad_json", None),  # Latin-1, not UTF-8
        (b'{"arguments":{}}', 400, "bad_request", None),
        (b'{"tool":"echo","arguments":["x"]}', 400, "bad_request", None),
        (
            b'{"tool":"echo","arguments":{"text":"x"},"timeout_ms":600001}',
            400,
            "bad_request",
            '"timeout_ms" must be an integer from 1 to 600000',
        ),
        (
            b'{"tool":"echo","arguments":{"text":"x"},"timeout_ms":"5"}',
            400,
            "bad_request",
            '"timeout_ms" must be an integer from 1 to 600000',
        ),
    ],
)
def test_a_malformed_call_is_refused_before_it_is_queued(
    host: Host, body: bytes, status: int, code: str, message: str | None
) -> None:
    """docs/editor-bridge.md, errors: `bad_json` (not valid UTF-8 JSON), `bad_request` (no `tool`,
    `arguments` not an object, bad `timeout_ms`: at most 600000)."""
    hb = read_heartbeat(host.project)
    got, _, answer = request(hb.port, "POST", "/v1/call", body=body, headers=auth(hb.token))
    assert (got, answer["ok"], answer["error"]["code"]) == (status, False, code), answer
    if message is not None:
        assert answer["error"]["message"] == message
    assert EditorBridge(host.project).call_tool("counter") == 1  # none of them ran anything


def test_timeout_ms_up_to_600000_and_arguments_optional(host: Host) -> None:
    """docs/editor-bridge.md: `arguments` is optional (default `{}`), `timeout_ms` at most 600000."""
    hb = read_heartbeat(host.project)
    for call in ({"tool": "counter", "timeout_ms": 600000}, {"tool": "counter"}):
        status, _, body = request(hb.port, "POST", "/v1/call", body=json.dumps(call).encode(), headers=auth(hb.token))
        assert (status, body["ok"]) == (200, True), body
    assert body["result"] == 2


def test_a_body_over_the_limit_closes_the_connection_and_a_chunked_one_is_refused(make_host) -> None:
    """docs/editor-bridge.md: 413 `body_too_large` for a body over the limit, by `Content-Length`
    before reading, with `Connection: close`; a chunked body, over the limit or not, is `411
    length_required` before it is read (tests/test_editor_bridge_framing.py says why)."""
    host = make_host("--max-body", "4096")
    hb = read_heartbeat(host.project)
    big = json.dumps({"tool": "echo", "arguments": {"text": "x" * 5000}}).encode()
    status, headers, body = request(hb.port, "POST", "/v1/call", body=big, headers=auth(hb.token))
    assert (status, body["error"]["code"], headers["connection"].lower()) == (413, "body_too_large", "close")

    with socket.create_connection(("127.0.0.1", hb.port), timeout=WAIT) as s:
        head = (
            f"POST /v1/call HTTP/1.1\r\nHost: 127.0.0.1:{hb.port}\r\nAuthorization: Bearer {hb.token}\r\n"
            "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        s.sendall(head.encode())
        try:
            for _ in range(3):  # 6000 bytes in three chunks
                s.sendall(b"7d0\r\n" + b"x" * 2000 + b"\r\n")
            s.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the bridge may close as soon as it answered
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    head, _, rest = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 411"), answer[:300]
    assert b"connection: close" in head.lower()
    assert b'"length_required"' in rest


# -- the journal ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "emptied"), [(8 * 1024 * 1024, False), (8 * 1024 * 1024 + 1, True)])
def test_a_journal_larger_than_8_mib_is_emptied_at_start(host: Host, size: int, emptied: bool) -> None:
    """docs/editor-bridge.md: "At start, a journal larger than 8 MiB is emptied first"."""
    journal = host.project / "Library" / "UnityIndex" / "journal.jsonl"
    journal.parent.mkdir(parents=True, exist_ok=True)
    old = b'{"v":1,"session":"0000000000000000","seq":1,"op":"start"}\n'
    journal.write_bytes(old * (size // len(old)) + b"\n" * (size % len(old)))
    assert journal.stat().st_size == size
    host.send("journal_start editor_start", "OK journal_start")
    lines = journal.read_bytes().splitlines()
    start = json.loads(lines[-1])
    assert (start["op"], start["reason"], start["seq"]) == ("start", "editor_start", 1)
    assert len(lines) == (1 if emptied else size // len(old) + size % len(old) + 1)


# -- the client's rules -----------------------------------------------------------------------------


def _beat(project: Path, **fields: Any) -> None:
    beat = {
        "protocol": 1,
        "port": 1,
        "token": "t" * 64,
        "pid": os.getpid(),
        "state": "ready",
        "updated_at": time.time(),
    }
    path = project / "Library" / "UnityIndex" / "editor.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = path.with_name("editor.json.tmp")
    fresh.write_text(json.dumps({**beat, **fields}))
    os.replace(fresh, path)


def test_the_client_calls_a_heartbeat_stale_after_10_s_unless_reloading(tmp_path: Path) -> None:
    """docs/editor-bridge.md, client rules: `updated_at` older than 10 s and state not `reloading`
    is `stale_heartbeat`; `reloading` waits (`reload_wait`, 30 s by default, polling every 100 ms)
    and then is `reload_timeout`; a heartbeat dated more than 10 s ahead is not trusted as fresh."""
    assert (EditorBridge(tmp_path).reload_wait, EditorBridge(tmp_path).poll_interval) == (30.0, 0.1)
    _beat(tmp_path, updated_at=time.time() - 8)
    assert EditorBridge(tmp_path).heartbeat().state == "ready"
    for updated_at in (time.time() - 12, time.time() + 12):
        _beat(tmp_path, updated_at=updated_at)
        with pytest.raises(EditorUnavailable) as info:
            EditorBridge(tmp_path).heartbeat()
        assert info.value.code == "stale_heartbeat"
    _beat(tmp_path, state="reloading", updated_at=time.time() - 60)
    bridge = EditorBridge(tmp_path, reload_wait=0.5)
    t0 = time.monotonic()
    with pytest.raises(EditorUnavailable) as info:
        bridge.ping()
    assert info.value.code == "reload_timeout" and time.monotonic() - t0 >= 0.4
    assert 1 <= bridge.retries <= 5  # every 100 ms at most (fewer when the machine is loaded)


class _Flaky(JsonHandler):
    """A bridge whose answers are scripted: drop the connection, or refuse an old token."""

    seen: ClassVar[list[str]] = []  # reset per test
    behaviour = "drop"
    project: Path = Path()

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        self.seen.append(self.headers["Authorization"])
        if self.behaviour == "drop":
            self.connection.shutdown(socket.SHUT_RDWR)  # read whole, then gone: its effect is unknown
            return
        if self.headers["Authorization"] != "Bearer " + "n" * 64:
            _beat(self.project, port=self.server.server_address[1], token="n" * 64)  # the domain reloaded
            self._answer(401, {"ok": False, "error": {"code": "invalid_token", "message": "wrong token"}})
            return
        self._answer(200, {"ok": True, "result": "ran", "elapsed_ms": 1})


@pytest.fixture
def flaky(tmp_path: Path) -> Iterator[ThreadingHTTPServer]:
    _Flaky.seen, _Flaky.project = [], tmp_path
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Flaky)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    _beat(tmp_path, port=httpd.server_address[1])
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_post_whose_connection_drops_after_it_was_sent_is_not_retried(flaky: ThreadingHTTPServer) -> None:
    """docs/editor-bridge.md: "A POST whose connection drops after it was sent is **not** retried
    (`EditorCallError` `connection_lost`: its effect is unknown)"."""
    _Flaky.behaviour = "drop"
    with pytest.raises(EditorCallError) as info:
        EditorBridge(_Flaky.project, reload_wait=5).call_tool("counter")
    assert info.value.code == "connection_lost"
    assert len(_Flaky.seen) == 1


def test_a_401_after_the_token_changed_is_retried_with_the_new_token(flaky: ThreadingHTTPServer) -> None:
    """docs/editor-bridge.md: the client retries when "the answer is `401` and the heartbeat's port
    or token changed meanwhile", re-reading the heartbeat first."""
    _Flaky.behaviour = "reload"
    bridge = EditorBridge(_Flaky.project, reload_wait=5)
    assert bridge.call_tool("counter") == "ran"
    assert _Flaky.seen == ["Bearer " + "t" * 64, "Bearer " + "n" * 64] and bridge.retries == 1


# -- the core's own defaults, run under Mono -----------------------------------------------------------

PROBE = r"""
using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using UnityIndex.Bridge;

public static class Probe
{
    public static int Main()
    {
        var o = new BridgeServerOptions();
        Console.WriteLine("options " + o.MaxBodyBytes + " " + o.MaxPending + " " + o.DefaultTimeoutMs + " "
            + o.MaxTimeoutMs + " " + o.BodyTimeoutMs + " " + o.MaxConcurrentRequests);

        var registry = new ToolRegistry();
        var queue = new MainThreadQueue(o.MaxPending);
        int free = BridgeServer.FindFreePort();
        var first = new BridgeServer(registry, queue, new BridgeServerOptions { PreferredPort = free });
        first.Start();
        Console.WriteLine("preferred " + (first.Port == free));
        var second = new BridgeServer(registry, queue, new BridgeServerOptions { PreferredPort = first.Port });
        second.Start();  // the previous port is taken: another one
        bool other = second.Port != first.Port && second.Port > 0;
        Console.WriteLine("taken " + other + " " + (second.Token != first.Token));
        second.Stop();
        first.Stop();

        var logs = new LogBuffer(1000);
        for (int i = 1; i <= 1005; i++) logs.Add("log", "message " + i, "f1\nf2\nf3\nf4\nf5\nf6");
        Dictionary<string, object> all = logs.Query(null, null, 0, 5000);
        var entries = (List<Dictionary<string, object>>)all["entries"];
        Console.WriteLine("logs " + all["buffered"] + " " + entries[0]["message"] + " "
            + ((string)entries[0]["stack"]).Replace("\n", ","));
        return 0;
    }
}
"""


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """The probe's lines by their first word, from the core compiled as the tests compile it."""
    folder = tmp_path_factory.mktemp("probe")
    (folder / "Probe.cs").write_text(PROBE, encoding="utf-8")
    r = bridge_host.mcs(["-warnaserror+", "-out:Probe.exe", *bridge_host.sources(bridge_host.CORE), "Probe.cs"], folder)
    assert r.returncode == 0, r.stdout + r.stderr
    _, mono = bridge_host.require_mono()
    run = subprocess.run([mono, str(folder / "Probe.exe")], capture_output=True, text=True, timeout=WAIT)
    assert run.returncode == 0, run.stdout + run.stderr
    return {line.split()[0]: line.split()[1:] for line in run.stdout.splitlines()}


def test_the_limits_of_bridge_server_options_are_the_documented_ones(probe: dict[str, list[str]]) -> None:
    """docs/editor-bridge.md, Limits (`BridgeServerOptions`): `MaxBodyBytes` 1 MiB, `MaxPending` 32,
    `DefaultTimeoutMs` 30000, `MaxTimeoutMs` 600000, `BodyTimeoutMs` 10000, `MaxConcurrentRequests`
    256 (the test host passes its own, so only a fresh options object shows the defaults)."""
    assert probe["options"] == ["1048576", "32", "30000", "600000", "10000", "256"]


def test_a_new_domain_tries_the_previous_port_first_else_another(probe: dict[str, list[str]]) -> None:
    """docs/editor-bridge.md: the port is "chosen free by the OS for each domain (the port of the
    previous domain is tried first)"; the new domain has a new token."""
    assert probe["preferred"] == ["True"]
    assert probe["taken"] == ["True", "True"]


def test_the_log_buffer_keeps_the_last_1000_messages_with_4_frames(probe: dict[str, list[str]]) -> None:
    """docs/editor-bridge.md, console_logs: "the buffer keeps the last 1000 messages of the current
    domain, stacks cut to 4 frames"."""
    assert probe["logs"] == ["1000", "message", "6", "f1,f2,f3,f4"]


# -- the built-in tools, compiled against the Unity stubs and registered under Mono -------------------

PACKAGE_PROBE = r"""
using System;
using UnityIndex.Bridge;

public static class PackageProbe
{
    public static int Main(string[] menuItems)
    {
        var registry = new ToolRegistry();
        registry.RegisterAssembly(typeof(EditorTools).Assembly);
        foreach (ToolInfo t in registry.All()) Console.WriteLine(Json.Serialize(t.Describe()));
        foreach (string w in registry.Warnings) Console.WriteLine("WARN " + w);
        foreach (string m in menuItems)
            Console.WriteLine((EditorTools.IsMenuItemDenied(m) ? "denied\t" : "allowed\t") + m);
        return 0;
    }
}
"""

MENU_ITEMS = {
    # docs/editor-bridge.md: exact items, case-insensitive
    "File/Quit": "denied",
    "file/exit": "denied",
    "Unity/Quit": "denied",
    "Edit/Preferences...": "denied",
    "UNITY/PREFERENCES...": "denied",
    "Unity/Settings...": "denied",
    "Edit/Project Settings...": "denied",
    "Edit/Clear All PlayerPrefs": "denied",
    "File/Build And Run": "denied",
    "File/Build Settings...": "denied",
    "File/Build Profiles": "denied",
    # prefixes
    "File/Build/Anything": "denied",
    "Help/About Unity": "denied",
    "help/unity manual": "denied",
    "Window/General/Account": "denied",
    "Window/General/Account Settings": "denied",
    # what an agent may run
    "GameObject/Create Empty": "allowed",
    "Assets/Reimport All": "allowed",
    "File/Save": "allowed",
    "Edit/Project Settings": "allowed",  # not the exact item
    "Window/General/Console": "allowed",
}


@pytest.fixture(scope="module")
def package_probe(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, dict], list[str], dict[str, str]]:
    """(tools by name, registry warnings, menu item -> denied/allowed) from the real package."""
    folder = tmp_path_factory.mktemp("package")
    bridge_host.build_package(folder)
    (folder / "PackageProbe.cs").write_text(PACKAGE_PROBE, encoding="utf-8")
    r = bridge_host.mcs(["-out:PackageProbe.exe", "-r:UnityIndex.Editor.dll", "PackageProbe.cs"], folder)
    assert r.returncode == 0, r.stdout + r.stderr
    _, mono = bridge_host.require_mono()
    cmd = [mono, str(folder / "PackageProbe.exe"), *MENU_ITEMS]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=WAIT, cwd=folder)
    assert run.returncode == 0, run.stdout + run.stderr
    tools, warnings, menu = {}, [], {}
    for line in run.stdout.splitlines():
        if line.startswith("{"):
            tool = json.loads(line)
            tools[tool["name"]] = tool
        elif line.startswith("WARN "):
            warnings.append(line)
        else:
            verdict, item = line.split("\t")
            menu[item] = verdict
    return tools, warnings, menu


def _params(tool: dict) -> list[str]:
    return list(tool["input_schema"]["properties"])


def test_the_16_built_in_tools_take_the_documented_arguments(package_probe) -> None:
    """docs/editor-bridge.md, Layout ("the 16 built-in tools") and Built-in tools: the names, and
    the arguments the doc names for each (a tool may take more), with the documented bounds."""
    tools, warnings, _ = package_probe
    assert warnings == []
    assert sorted(tools) == sorted(
        [
            *("editor_state", "play_mode", "refresh_assets", "console_logs", "scene_hierarchy"),
            *("find_gameobjects", "get_component", "set_component_property", "create_gameobject"),
            *("rename_gameobject", "reparent_gameobject", "delete_gameobject", "instantiate_prefab"),
            *("select_objects", "execute_menu_item", "run_editmode_tests"),
        ]
    )
    actions = tools["play_mode"]["input_schema"]["properties"]["action"]["enum"]
    assert [a.lower() for a in actions] == ["enter", "exit", "pause", "resume"]  # enum names bind in any case
    assert {"compile"} <= set(_params(tools["refresh_assets"]))
    assert {"types", "contains", "since_seq", "limit"} <= set(_params(tools["console_logs"]))
    assert "(1-500)" in tools["console_logs"]["input_schema"]["properties"]["limit"]["description"]
    assert {"offset", "limit", "max_depth", "root", "components"} <= set(_params(tools["scene_hierarchy"]))
    assert "(1-500)" in tools["scene_hierarchy"]["input_schema"]["properties"]["limit"]["description"]
    assert {"name", "tag", "component", "include_inactive", "limit"} <= set(_params(tools["find_gameobjects"]))
    assert {"filter", "assemblies", "categories"} <= set(_params(tools["run_editmode_tests"]))
    for tool in tools.values():
        schema = tool["input_schema"]
        assert (schema["type"], schema["additionalProperties"]) == ("object", False), tool["name"]


def test_the_menu_deny_list_is_the_documented_one(package_probe) -> None:
    """docs/editor-bridge.md: `execute_menu_item` refuses, case-insensitively, the exact items and
    the prefixes it lists, and nothing else."""
    _, _, menu = package_probe
    assert menu == MENU_ITEMS


# -- a busy main thread ------------------------------------------------------------------------------


def test_a_busy_main_thread_keeps_the_heartbeat_and_ping_alive(host: Host) -> None:
    """docs/editor-bridge.md: `updated_at` is "rewritten every 2 s by a background timer, not the
    main thread", `main_thread_at` tells a hung main thread from a dead editor, and ping is
    "answered on the HTTP thread: works while the main thread is busy"; `doctor` then passes both
    editor checks (`editor-reachable`: `GET /v1/ping` with the heartbeat's token answers)."""
    from indexer.cli import doctor

    for folder in ("Assets", "ProjectSettings"):
        (host.project / folder).mkdir(exist_ok=True)
    path = host.project / "Library" / "UnityIndex" / "editor.json"
    host.send("pause", "OK pause")  # the main thread ticks no more after it said so
    paused_at = time.time()
    deadline = time.monotonic() + WAIT
    while (now := json.loads(path.read_text()))["updated_at"] <= paused_at:
        assert time.monotonic() < deadline, "the heartbeat stopped with the main thread"
        time.sleep(0.05)
    checks = {c.name: c for c in doctor.run(str(host.project), host.project).checks}
    ping = EditorBridge(host.project).ping()
    host.send("resume", "OK resume")
    assert now["main_thread_at"] <= paused_at < now["updated_at"] < paused_at + 4  # every 2 s
    assert (ping["ok"], ping["paused_pump"]) == (True, True)
    assert (checks["editor-heartbeat"].status, checks["editor-reachable"].status) == ("pass", "pass")
    assert checks["editor-reachable"].detail.endswith(" ms (9 tools)"), checks["editor-reachable"].detail


# -- stopping with calls in flight -----------------------------------------------------------------


def _call_in_background(port: int, token: str, call: dict) -> tuple[threading.Thread, list]:
    out: list = []
    body = json.dumps(call).encode()
    t = threading.Thread(
        target=lambda: out.append(request(port, "POST", "/v1/call", body=body, headers=auth(token))), daemon=True
    )
    t.start()
    return t, out


def _wait_pending(bridge: EditorBridge, n: int) -> None:
    deadline = time.monotonic() + WAIT
    while bridge.ping()["pending"] != n:
        assert time.monotonic() < deadline, f"the queue never held {n} calls"
        time.sleep(0.02)


def test_a_reload_during_a_deferred_tool_says_it_started(host: Host) -> None:
    """docs/editor-bridge.md: 503 `reloading` when the server stopped while it "ran a `Deferred`
    tool (`started: true`)": not safe to retry."""
    hb = read_heartbeat(host.project)
    bridge = EditorBridge(host.project)
    host.send("pause", "OK pause")
    t, out = _call_in_background(hb.port, hb.token, {"tool": "later", "arguments": {"ms": 5000}})
    _wait_pending(bridge, 1)  # queued
    host.send("resume", "OK resume")
    _wait_pending(bridge, 0)  # picked up by the main thread: started, and now deferred
    host.send("reload 200", "OK reloading")
    t.join(WAIT)
    [(status, _, body)] = out
    assert (status, body["error"]["code"], body["error"]["started"]) == (503, "reloading", True)


def test_quitting_with_a_queued_call_says_it_never_ran(host: Host) -> None:
    """docs/editor-bridge.md: 503 `shutting_down` when the server stopped while the call waited
    (`started: false`: it never ran)."""
    hb = read_heartbeat(host.project)
    host.send("pause", "OK pause")
    t, out = _call_in_background(hb.port, hb.token, {"tool": "counter"})
    _wait_pending(EditorBridge(host.project), 1)
    host.send("quit", "OK quit")
    t.join(WAIT)
    [(status, _, body)] = out
    assert (status, body["error"]["code"], body["error"]["started"]) == (503, "shutting_down", False)


# -- the tests' own promise ---------------------------------------------------------------------------


@pytest.mark.parametrize(("ci", "outcome"), [("", "skip"), ("0", "skip"), ("1", "fail"), ("true", "fail")])
def test_without_mono_the_bridge_tests_skip_unless_ci_is_set(
    monkeypatch: pytest.MonkeyPatch, ci: str, outcome: str
) -> None:
    """docs/editor-bridge.md: "Without `mcs`/`mono` these tests skip with that reason, unless `CI`
    is set (then they fail)"."""
    monkeypatch.setattr(bridge_host.shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", ci)
    expected = pytest.skip.Exception if outcome == "skip" else pytest.fail.Exception
    with pytest.raises(expected) as info:
        bridge_host.require_mono()
    assert "mcs and mono not found" in str(info.value)


def test_an_error_repeats_at_most_200_characters_of_a_name_it_was_given(host: Host) -> None:
    """docs/editor-bridge.md, errors: a message repeats at most the first 200 characters of a name
    or value the caller sent, then `… (N characters)` (a field, a tool, an argument, an enum name)."""
    hb = read_heartbeat(host.project)
    long = "z" * 5_000
    shown = "z" * 200 + "… (5,000 characters)"
    calls = [
        ({"tool": "echo", long: 1}, f'unknown field "{shown}" (accepted: tool, arguments, timeout_ms)'),
        ({"tool": long}, f"no tool named '{shown}' (GET /v1/tools lists them)"),
        (
            {"tool": "echo", "arguments": {long: 1}},
            f"unknown argument '{shown}' for tool 'echo' (accepted: text, times)",
        ),
        (
            {"tool": "kinds", "arguments": {"mode": long, "names": []}},
            f"argument 'mode': '{shown}' is not one of Fast, Careful",
        ),
    ]
    for call, message in calls:
        _, _, body = request(hb.port, "POST", "/v1/call", body=json.dumps(call).encode(), headers=auth(hb.token))
        assert body["error"]["message"] == message


# -- the slow and the many ----------------------------------------------------------------------------


def test_busy_and_body_timeout_carry_their_headers(make_host) -> None:
    """docs/editor-bridge.md: `503 busy` (+ `Retry-After: 1`, `started: false`) when the bound of
    requests in progress is reached; `408 body_timeout` with `Connection: close` when a body does not
    arrive whole within the time after its headers."""
    from .test_editor_bridge_load import _answer, _open_slow

    host = make_host("--max-concurrent", "1", "--body-timeout-ms", "1500")
    hb = read_heartbeat(host.project)
    echo = json.dumps({"tool": "echo", "arguments": {"text": "x"}}).encode()
    deadline = time.monotonic() + 4 * WAIT
    # The stalled request must hold the one slot: when an echo still in progress held it as the
    # stalled one came in, the stalled one was refused (a 503 sent on a connection left open, seen
    # only once it closes) and the scenario starts again.
    while True:
        stalled = _open_slow(hb.port, hb.token)
        try:
            while (busy := request(hb.port, "POST", "/v1/call", body=echo, headers=auth(hb.token)))[0] != 503:
                assert time.monotonic() < deadline, "the bound was never reached"
                if _answer(stalled, 0.01) is not None:  # overtaken and refused itself: stall again
                    stalled.close()
                    stalled = _open_slow(hb.port, hb.token)
            timed_out = _answer(stalled, WAIT)
        finally:
            stalled.close()
        if not (timed_out or b"").startswith(b"HTTP/1.1 503 "):
            break
        assert time.monotonic() < deadline, "the stalled request never held the slot"
    status, headers, body = busy
    assert (status, headers["retry-after"], body["error"]["code"], body["error"]["started"]) == (
        503,
        "1",
        "busy",
        False,
    )
    head, _, rest = (timed_out or b"").partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 ") and b"connection: close" in head.lower(), timed_out
    assert json.loads(rest)["error"]["code"] == "body_timeout"


SERVING_PROBE = r"""
using System;
using System.Collections.Generic;
using System.Threading;
using UnityIndex.Bridge;

public static class CyclicTools
{
    [BridgeTool("cyclic", "Returns a value that refers to itself.")]
    public static object Cyclic()
    {
        var d = new Dictionary<string, object>();
        d["self"] = d;
        return d;
    }
}

""" + bridge_host.serving_probe("ServingProbe", "CyclicTools")


def test_a_result_that_cannot_be_serialized_is_an_internal_error(tmp_path: Path) -> None:
    """docs/editor-bridge.md, errors: 500 `internal_error` when the tool "returned something not
    serializable" (here a dictionary holding itself), and the tool did run (`started: true`)."""
    with bridge_host.probe_serving(tmp_path, "ServingProbe", SERVING_PROBE) as (port, token):
        call = json.dumps({"tool": "cyclic"}).encode()
        status, _, body = request(port, "POST", "/v1/call", body=call, headers=auth(token))
    assert status == 500
    assert (body["error"]["code"], body["error"]["started"]) == ("internal_error", True)
    assert body["error"]["message"].startswith("tool 'cyclic' returned a value that cannot be serialized: ")
