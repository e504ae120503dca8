"""The Unity editor bridge, verified without Unity.

The package's Unity-independent core (`unity_package/Editor/Core/*.cs`) is compiled with Mono's
`mcs -langversion:7.2` together with `tests/editor_bridge/TestHost.cs`, and runs under `mono` as
a real server process that plays the editor. `mcp_adapter/editor_bridge.py` talks to it over
loopback. The whole package (Editor + Tests/Editor) is also compiled against the stub assemblies in
`tests/unity_stubs/` so that it cannot rot.

Without `mcs`/`mono` these tests skip, unless CI is set: then they fail (CI installs Mono).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from mcp_adapter.editor.bridge import (
    EditorBridge,
    EditorCallError,
    EditorNotRunning,
    EditorProtocolError,
    EditorUnavailable,
    heartbeat_path,
    read_heartbeat,
)

from . import bridge_host
from .bridge_host import CORE, PACKAGE, REPO, STUBS, WAIT, Host, mcs, raw, sources

# The host fixtures, by name (pytest finds fixtures among a module's attributes).
host_exe, make_host, host = bridge_host.host_exe, bridge_host.make_host, bridge_host.host


def call_error(bridge: EditorBridge, tool: str, args: dict[str, Any] | None = None, **kw: Any) -> EditorCallError:
    with pytest.raises(EditorCallError) as info:
        bridge.call_tool(tool, args, **kw)
    return info.value


def wait_pending(bridge: EditorBridge, n: int) -> None:
    deadline = time.monotonic() + WAIT
    while bridge.ping()["pending"] != n:
        assert time.monotonic() < deadline, f"queue never reached {n} pending calls"
        time.sleep(0.02)


# -- tools --------------------------------------------------------------------------------------


def test_list_tools_exact_and_invalid_tools_refused(host: Host) -> None:
    tools = EditorBridge(host.project).list_tools()
    assert [t["name"] for t in tools] == ["echo", "add", "where", "counter", "sleep", "later", "fail", "crash", "kinds"]
    assert tools[0] == {
        "name": "echo",
        "description": "Returns its text, repeated.",
        "input_schema": {
            "type": "object",
            "properties": {
                "text": {"type": "string", "description": "Text to return."},
                "times": {"type": "integer", "description": "How many times.", "default": 1},
            },
            "required": ["text"],
            "additionalProperties": False,
        },
    }
    kinds = tools[-1]["input_schema"]
    assert kinds["properties"]["mode"] == {"type": "string", "enum": ["Fast", "Careful"], "description": "A mode."}
    assert kinds["properties"]["names"] == {"type": "array", "items": {"type": "string"}, "description": "Names."}
    assert kinds["properties"]["extra"] == {"type": "object", "description": "Anything."}
    assert kinds["required"] == ["mode", "names"]
    assert host.warnings == [
        "HostTools.BadName: tool name 'Bad-Name' must match ^[a-z][a-z0-9_]{0,63}$",
        "HostTools.EchoAgain: tool name 'echo' already registered by HostTools.Echo; skipped",
    ]


def test_call_tools_on_the_main_thread(host: Host) -> None:
    bridge = EditorBridge(host.project)
    assert bridge.call_tool("echo", {"text": "hi", "times": 2}) == {"text": "hi", "times": 2, "parts": ["hi", "hi"]}
    assert bridge.call_tool("add", {"a": 2, "b": 40}) == 42
    assert bridge.call_tool("where") == {"main_thread": True}
    assert bridge.call_tool("later", {"ms": 200, "value": "v"}) == {"value": "v"}
    assert bridge.call_tool("kinds", {"mode": "careful", "names": ["a", "é"], "extra": {"k": [1, None]}}) == {
        "mode": "Careful",
        "names": ["a", "é"],
        "ratio": 0.5,
        "flag": False,
        "extra": {"k": [1, None]},
    }
    ping = bridge.ping()
    assert ping == {"ok": True, "protocol": 1, "pending": 0, "tools": 9, "state": "ready", "paused_pump": False}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({}, "missing required argument 'a' for tool 'add'"),
        ({"a": 1}, "missing required argument 'b' for tool 'add'"),
        ({"a": "1", "b": 2}, "argument 'a': expected integer, got string"),
        ({"a": 1.5, "b": 2}, "argument 'a': expected integer, got number"),
        ({"a": 1, "b": 2, "c": 3}, "unknown argument 'c' for tool 'add' (accepted: a, b)"),
    ],
)
def test_bad_arguments(host: Host, args: dict[str, Any], message: str) -> None:
    err = call_error(EditorBridge(host.project), "add", args)
    assert (err.status, err.code, err.message, err.started) == (400, "bad_arguments", message, False)


def test_bad_enum_and_array_arguments(host: Host) -> None:
    bridge = EditorBridge(host.project)
    err = call_error(bridge, "kinds", {"mode": "slow", "names": []})
    assert (err.code, err.message) == ("bad_arguments", "argument 'mode': 'slow' is not one of Fast, Careful")
    err = call_error(bridge, "kinds", {"mode": "fast", "names": ["a", 3]})
    assert (err.code, err.message) == ("bad_arguments", "argument 'names[1]': expected string, got integer")


def test_unknown_tool_and_tool_failures(host: Host) -> None:
    bridge = EditorBridge(host.project)
    err = call_error(bridge, "nope")
    assert (err.status, err.code, err.message) == (
        404,
        "unknown_tool",
        "no tool named 'nope' (GET /v1/tools lists them)",
    )
    err = call_error(bridge, "fail", {"code": "not_found", "message": "no GameObject 'X'"})
    assert (err.status, err.code, err.message, err.started) == (422, "not_found", "no GameObject 'X'", True)
    err = call_error(bridge, "crash")
    assert (err.status, err.code, err.message, err.started) == (
        500,
        "internal_error",
        "InvalidOperationException: boom",
        True,
    )
    assert bridge.call_tool("echo", {"text": "still fine"})["text"] == "still fine"


# -- HTTP security and limits -------------------------------------------------------------------


def test_token_origin_host_and_routing(host: Host) -> None:
    hb = read_heartbeat(host.project)
    port, token = hb.port, hb.token
    call = json.dumps({"tool": "echo", "arguments": {"text": "x"}}).encode()

    assert raw(port, "GET", "/v1/ping", token=None) == (
        401,
        {
            "ok": False,
            "error": {
                "code": "missing_token",
                "message": "send 'Authorization: Bearer <token>' with the token from Library/UnityIndex/editor.json",
            },
        },
    )
    status, body = raw(port, "POST", "/v1/call", token="0" * 64, body=call)
    assert (status, body["error"]["code"]) == (401, "invalid_token")
    status, body = raw(port, "GET", "/v1/tools", token=None, headers={"Authorization": token})  # no "Bearer "
    assert (status, body["error"]["code"]) == (401, "invalid_token")
    # Any Origin header is refused, even with the right token, even a loopback origin.
    for origin in ("http://evil.example", "http://127.0.0.1:" + str(port), "null"):
        status, body = raw(port, "POST", "/v1/call", token=token, body=call, headers={"Origin": origin})
        assert (status, body["error"]["code"]) == (403, "origin_forbidden"), origin
    status, body = raw(port, "GET", "/v1/ping", token=None, headers={"Origin": "http://evil.example"})
    assert (status, body["error"]["code"]) == (403, "origin_forbidden")
    assert raw(port, "GET", "/v1/nope", token=token)[1]["error"]["code"] == "not_found"
    assert raw(port, "GET", "/v1/call", token=token)[0] == 405
    assert raw(port, "POST", "/v1/tools", token=token, body=b"{}")[1]["error"]["code"] == "method_not_allowed"
    status, body = raw(port, "POST", "/v1/call", token=token, body=b"{not json")
    assert (status, body["error"]["code"]) == (400, "bad_json")
    status, body = raw(port, "POST", "/v1/call", token=token, body=b"[1]")
    assert (status, body["error"]["code"]) == (400, "bad_request")
    status, body = raw(port, "POST", "/v1/call", token=token, body=b'{"tool":"echo","argumentz":{}}')
    assert (status, body["error"]["message"]) == (
        400,
        'unknown field "argumentz" (accepted: tool, arguments, timeout_ms)',
    )
    status, body = raw(
        port, "POST", "/v1/call", token=token, body=b'{"tool":"echo","arguments":{"text":"x"},"timeout_ms":0}'
    )
    assert (status, body["error"]["code"]) == (400, "bad_request")
    status, body = raw(port, "POST", "/v1/call", token=token, body=call)
    assert status == 200
    assert body["ok"] is True and body["result"]["text"] == "x" and isinstance(body["elapsed_ms"], int)


def test_foreign_host_header_refused(host: Host) -> None:
    """DNS rebinding: HttpListener (bound to 127.0.0.1:PORT) refuses any other Host by itself."""
    hb = read_heartbeat(host.project)
    for h in (f"evil.example:{hb.port}", f"localhost:{hb.port}"):
        conn = http.client.HTTPConnection("127.0.0.1", hb.port, timeout=WAIT)
        try:
            conn.request("GET", "/v1/ping", headers={"Host": h, "Authorization": f"Bearer {hb.token}"})
            resp = conn.getresponse()
            assert (resp.status, resp.read()) == (400, b"<h1>Bad Request (Invalid host)</h1>"), h
        finally:
            conn.close()
    # The right address with another port passes HttpListener's check; the bridge refuses it.
    status, body = raw(hb.port, "GET", "/v1/ping", token=hb.token, headers={"Host": "127.0.0.1:1"})
    assert (status, body["error"]) == (403, {"code": "host_forbidden", "message": f"Host must be 127.0.0.1:{hb.port}"})


def test_oversized_body(make_host) -> None:
    host = make_host("--max-body", "4096")
    hb = read_heartbeat(host.project)
    big = json.dumps({"tool": "echo", "arguments": {"text": "x" * 5000}}).encode()
    status, body = raw(hb.port, "POST", "/v1/call", token=hb.token, body=big)
    assert (status, body["error"]) == (
        413,
        {"code": "body_too_large", "message": "request body larger than 4096 bytes", "started": False},
    )
    err = call_error(EditorBridge(host.project), "echo", {"text": "y" * 5000})
    assert (err.status, err.code) == (413, "body_too_large")
    # A body far over the limit: the bridge answers before reading it all; no retry loop.
    t0 = time.monotonic()
    err = call_error(EditorBridge(host.project, reload_wait=WAIT), "echo", {"text": "w" * 4_000_000})
    assert (err.status, err.code) == (413, "body_too_large")
    assert time.monotonic() - t0 < WAIT / 2
    # Just under the limit passes.
    assert EditorBridge(host.project).call_tool("echo", {"text": "z" * 3000})["text"] == "z" * 3000


def test_full_queue(make_host) -> None:
    host = make_host("--max-pending", "2")
    bridge = EditorBridge(host.project)
    host.send("pause", "OK pause")
    results: list[Any] = []
    threads = [
        threading.Thread(target=lambda i=i: results.append(bridge.call_tool("add", {"a": i, "b": 100}, timeout=WAIT)))
        for i in range(2)
    ]
    for t in threads:
        t.start()
    wait_pending(bridge, 2)
    err = call_error(bridge, "echo", {"text": "third"})
    assert (err.status, err.code, err.started) == (429, "queue_full", False)
    assert err.message == "2 calls already wait for the editor's main thread; retry later"
    host.send("resume", "OK resume")
    for t in threads:
        t.join(WAIT)
    assert sorted(results) == [100, 101]
    assert bridge.call_tool("counter") == 1  # the refused call never ran anything


def test_timeout_before_start_never_runs(host: Host) -> None:
    bridge = EditorBridge(host.project)
    host.send("pause", "OK pause")
    t0 = time.monotonic()
    err = call_error(bridge, "counter", timeout=0.3)
    assert time.monotonic() - t0 < 10
    assert (err.status, err.code, err.started) == (504, "timeout", False)
    assert "did not pick the call up within 300 ms" in err.message
    assert bridge.ping()["pending"] == 0  # abandoned calls leave the queue
    host.send("resume", "OK resume")
    assert bridge.call_tool("counter") == 1  # the timed-out call was dropped, not run late


def test_timeout_while_running(host: Host) -> None:
    bridge = EditorBridge(host.project)
    err = call_error(bridge, "sleep", {"ms": 1500}, timeout=0.3)
    assert (err.status, err.code, err.started) == (504, "timeout", True)
    assert err.message == "tool 'sleep' did not finish within 300 ms; it may still complete in the editor"
    assert bridge.call_tool("echo", {"text": "after"}, timeout=WAIT)["text"] == "after"


# -- domain reload ------------------------------------------------------------------------------


def test_domain_reload_new_port_and_token(host: Host) -> None:
    bridge = EditorBridge(host.project, reload_wait=WAIT)
    assert bridge.call_tool("echo", {"text": "before"})["text"] == "before"
    before = read_heartbeat(host.project)
    host.send("reload 1500", "OK reloading")
    during = read_heartbeat(host.project)
    assert during.state == "reloading"
    assert not bridge.is_available()
    # The old port is closed now: the client must wait, re-read the heartbeat and retry.
    assert bridge.call_tool("echo", {"text": "after"})["text"] == "after"
    assert bridge.retries > 0
    host.expect("OK reloaded")
    after = read_heartbeat(host.project)
    assert after.state == "ready"
    assert after.port != before.port and after.token != before.token
    assert after.pid == before.pid == host.proc.pid
    # The old token is refused by the new server.
    status, body = raw(after.port, "GET", "/v1/ping", token=before.token)
    assert (status, body["error"]["code"]) == (401, "invalid_token")


def test_reload_cancels_queued_call_which_is_retried(host: Host) -> None:
    bridge = EditorBridge(host.project, reload_wait=WAIT)
    host.send("pause", "OK pause")
    out: list[Any] = []
    t = threading.Thread(target=lambda: out.append(bridge.call_tool("counter", timeout=WAIT)))
    t.start()
    wait_pending(bridge, 1)
    host.send("reload 1000")
    host.send("resume")
    t.join(WAIT)
    assert out == [1]  # cancelled before it started (503 reloading, started=false), retried once
    assert bridge.retries > 0


def test_reload_outlasting_the_bound(tmp_path: Path) -> None:
    write_heartbeat(tmp_path, state="reloading")
    bridge = EditorBridge(tmp_path, reload_wait=0.5)
    t0 = time.monotonic()
    with pytest.raises(EditorUnavailable) as info:
        bridge.list_tools()
    assert info.value.code == "reload_timeout"
    assert "did not become ready within 0 s: the editor is reloading scripts" in info.value.message
    assert 0.4 < time.monotonic() - t0 < 5


# -- heartbeat ----------------------------------------------------------------------------------


def write_heartbeat(project: Path, **fields: Any) -> Path:
    data = {
        "protocol": 1,
        "port": 1,
        "token": "t",
        "pid": os.getpid(),
        "state": "ready",
        "unity_version": "2021.3.0f1",
        "project_path": str(project),
        "updated_at": time.time(),
        **fields,
    }
    path = heartbeat_path(project)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


def test_heartbeat_file(host: Host) -> None:
    path = heartbeat_path(host.project)
    data = json.loads(path.read_text())
    assert set(data) == {
        "protocol",
        "port",
        "token",
        "pid",
        "state",
        "unity_version",
        "project_path",
        "updated_at",
        "main_thread_at",
    }
    assert data["protocol"] == 1 and data["port"] == host.port and data["state"] == "ready"
    assert re.fullmatch(r"[0-9a-f]{64}", data["token"])
    assert data["pid"] == host.proc.pid
    assert data["unity_version"] == "0.0.0-testhost"
    assert data["project_path"] == str(host.project.resolve())
    assert abs(data["updated_at"] - time.time()) < 30
    if sys.platform != "win32":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    # Refreshed every 2 s, atomically (never a partial file: json.loads always succeeds).
    first = data["updated_at"]
    deadline = time.monotonic() + WAIT
    while json.loads(path.read_text())["updated_at"] == first:
        assert time.monotonic() < deadline, "heartbeat not refreshed"
        time.sleep(0.05)
    assert not list(path.parent.rglob("*.tmp"))


def test_no_editor(tmp_path: Path) -> None:
    with pytest.raises(EditorNotRunning) as info:
        EditorBridge(tmp_path).list_tools()
    msg = info.value.message
    assert info.value.code == "editor_not_running"
    assert "Open the project in Unity" in msg and "Package Manager" in msg and "com.unityindex.bridge" in msg
    assert "?path=/unity_package" in msg


def test_no_editor_names_the_package_of_this_checkout(tmp_path: Path) -> None:
    """Run from a checkout (no repository is published yet), the hint names the package on disk,
    which Unity takes as it is; only an installed copy without it falls back to a git URL."""
    with pytest.raises(EditorNotRunning) as info:
        EditorBridge(tmp_path).list_tools()
    local = REPO / "unity_package" / "package.json"
    assert f"Window > Package Manager > + > 'Add package from disk...' and pick {local};" in info.value.message


def test_dead_pid(tmp_path: Path) -> None:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    write_heartbeat(tmp_path, pid=p.pid)
    with pytest.raises(EditorNotRunning) as info:
        EditorBridge(tmp_path).call_tool("echo")
    assert f"names process {p.pid}, which is not running" in info.value.message


def test_stale_heartbeat_and_bad_files(tmp_path: Path) -> None:
    write_heartbeat(tmp_path, updated_at=time.time() - 60)
    with pytest.raises(EditorUnavailable) as info:
        EditorBridge(tmp_path).ping()
    assert info.value.code == "stale_heartbeat"
    write_heartbeat(tmp_path, protocol=2)
    with pytest.raises(EditorProtocolError) as perr:
        EditorBridge(tmp_path).ping()
    assert perr.value.code == "protocol_mismatch"
    write_heartbeat(tmp_path, state="dancing")
    with pytest.raises(EditorProtocolError, match="unknown state 'dancing'"):
        EditorBridge(tmp_path).ping()
    heartbeat_path(tmp_path).write_text("{trunc")
    with pytest.raises(EditorProtocolError, match="not valid JSON"):
        EditorBridge(tmp_path).ping()


def test_editor_quit_removes_heartbeat(host: Host) -> None:
    bridge = EditorBridge(host.project)
    assert bridge.is_available()
    host.send("quit", "OK quit")
    host.proc.wait(WAIT)
    assert not heartbeat_path(host.project).exists()
    with pytest.raises(EditorNotRunning):
        bridge.list_tools()


# -- journal ------------------------------------------------------------------------------------


def journal_reader(lines: list[str], last: tuple[str, int] | None) -> tuple[bool, list[dict[str, Any]]]:
    """The reference consumer of docs/editor-bridge.md: (complete, changes) after position `last`.

    `last` is the (session, seq) the consumer processed before; None means "from the start".
    """
    changes: list[dict[str, Any]] = []
    complete = last is not None
    prev = last
    for text in lines:
        try:
            e = json.loads(text)
        except ValueError:
            return False, changes
        if e.get("v") != 1:
            return False, changes
        if e["op"] == "start":
            linked = prev is not None and (e.get("prev_session"), e.get("prev_seq")) == prev
            if not linked or e["seq"] != 1:
                complete = False
        elif prev is None or e["session"] != prev[0] or e["seq"] != prev[1] + 1:
            complete = False
        else:
            changes.append(e)
        prev = (e["session"], e["seq"])
    return complete, changes


def test_journal_format(host: Host) -> None:
    s1 = host.send("journal_start editor_start", "OK journal_start").split()[2]
    host.send("journal imported Assets/A.cs", "OK journal 2")
    host.send("journal moved Assets/B.cs Assets/A.cs", "OK journal 3")
    host.send("journal deleted Assets/B.cs", "OK journal 4")
    path = host.project / "Library" / "UnityIndex" / "journal.jsonl"
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    lines = [json.loads(x) for x in text.splitlines()]
    for e in lines:
        assert isinstance(e.pop("t"), float)
    pid = host.proc.pid
    assert lines == [
        {
            "v": 1,
            "session": s1,
            "seq": 1,
            "op": "start",
            "pid": pid,
            "reason": "editor_start",
            "prev_session": None,
            "prev_seq": None,
        },
        {"v": 1, "session": s1, "seq": 2, "op": "imported", "path": "Assets/A.cs"},
        {"v": 1, "session": s1, "seq": 3, "op": "moved", "path": "Assets/B.cs", "from": "Assets/A.cs"},
        {"v": 1, "session": s1, "seq": 4, "op": "deleted", "path": "Assets/B.cs"},
    ]
    # A domain reload: a new session whose start line links to the last line of the previous one.
    host.send(f"journal_start domain_reload {s1} 4", "OK journal_start")
    host.send("journal imported Assets/C.cs", "OK journal 2")
    raw_lines = path.read_text(encoding="utf-8").splitlines()
    s2 = json.loads(raw_lines[4])["session"]
    assert s2 != s1
    assert json.loads(raw_lines[4])["prev_session"] == s1 and json.loads(raw_lines[4])["prev_seq"] == 4

    # The reading rules: continuous from a known position...
    ok, changes = journal_reader(raw_lines[2:], (s1, 2))
    assert ok and [(c["op"], c["path"]) for c in changes] == [
        ("moved", "Assets/B.cs"),
        ("deleted", "Assets/B.cs"),
        ("imported", "Assets/C.cs"),
    ]
    # ...but a first read, a gap, an unlinked session or a torn line mean: walk the project.
    assert not journal_reader(raw_lines, None)[0]
    assert not journal_reader(raw_lines[3:], (s1, 2))[0]
    assert not journal_reader(raw_lines[4:], (s1, 3))[0]
    assert not journal_reader([*raw_lines[2:4], raw_lines[4][:20]], (s1, 2))[0]


# -- the whole package, against the Unity stubs -------------------------------------------------


def test_core_is_unity_independent() -> None:
    for p in CORE.glob("*.cs"):
        text = p.read_text(encoding="utf-8")
        assert not re.search(r"^\s*using\s+Unity(Engine|Editor)", text, re.M), p
    for p in (REPO / "indexer").rglob("*.py"):
        assert "mcp_adapter" not in p.read_text(encoding="utf-8"), f"{p} imports mcp_adapter"


def test_package_compiles_against_unity_stubs(tmp_path: Path) -> None:
    def build(out: str, sources: list[str], refs: list[str], strict: bool) -> None:
        args = ["-target:library", f"-out:{tmp_path / out}", *(f"-r:{tmp_path / r}" for r in refs), *sources]
        if strict:
            args.insert(0, "-warnaserror+")
        r = mcs(args, tmp_path)
        assert r.returncode == 0, f"{out}:\n{r.stdout}{r.stderr}"

    build("UnityEngine.dll", sources(STUBS / "UnityEngine"), [], False)
    build("UnityEditor.dll", sources(STUBS / "UnityEditor"), ["UnityEngine.dll"], False)
    build("nunit.framework.dll", sources(STUBS / "NUnit"), [], False)
    build("UnityEditor.TestRunner.dll", sources(STUBS / "TestRunner"), ["UnityEngine.dll", "UnityEditor.dll"], False)
    editor_refs = ["UnityEngine.dll", "UnityEditor.dll", "UnityEditor.TestRunner.dll"]
    build("UnityIndex.Editor.dll", sources(PACKAGE / "Editor"), editor_refs, True)
    build(
        "UnityIndex.Editor.Tests.dll",
        sources(PACKAGE / "Tests" / "Editor"),
        [*editor_refs, "nunit.framework.dll", "UnityIndex.Editor.dll"],
        True,
    )


def test_package_layout_and_meta_files() -> None:
    manifest = json.loads((PACKAGE / "package.json").read_text())
    assert manifest["name"] == "com.unityindex.bridge"
    assert manifest["displayName"] == "unity-index Editor Bridge"
    assert manifest["unity"] == "2021.3"
    assert re.fullmatch(r"\d+\.\d+\.\d+", manifest["version"])
    asmdef = json.loads((PACKAGE / "Editor" / "UnityIndex.Editor.asmdef").read_text())
    assert asmdef["name"] == "UnityIndex.Editor" and asmdef["includePlatforms"] == ["Editor"]
    tests_asmdef = json.loads((PACKAGE / "Tests" / "Editor" / "UnityIndex.Editor.Tests.asmdef").read_text())
    assert "UnityIndex.Editor" in tests_asmdef["references"]
    assert tests_asmdef["defineConstraints"] == ["UNITY_INCLUDE_TESTS"]
    for name in ("README.md", "CHANGELOG.md", "LICENSE"):
        assert (PACKAGE / name).is_file()
    assert "MIT License" in (PACKAGE / "LICENSE").read_text()

    importers = {".cs": "MonoImporter", ".asmdef": "AssemblyDefinitionImporter", ".md": "TextScriptImporter"}
    guids: set[str] = set()
    entries = [p for p in PACKAGE.rglob("*") if p.suffix != ".meta"]
    assert entries
    for p in entries:
        meta = p.with_name(p.name + ".meta")
        assert meta.is_file(), f"{p.relative_to(PACKAGE)} has no .meta"
        text = meta.read_text()
        m = re.fullmatch(
            r"fileFormatVersion: 2\nguid: ([0-9a-f]{32})\n(?:folderAsset: yes\n)?(\w+):\n(?:  .*\n)*", text
        )
        assert m, f"{meta.relative_to(PACKAGE)} malformed"
        assert m.group(1) not in guids, f"duplicate guid in {meta}"
        guids.add(m.group(1))
        if p.is_dir():
            expected = "DefaultImporter"
            assert "\nfolderAsset: yes\n" in text
        elif p.name == "package.json":
            expected = "PackageManifestImporter"
        elif p.name == "LICENSE":
            expected = "DefaultImporter"
        else:
            expected = importers[p.suffix]
        assert m.group(2) == expected, meta
    # No orphan .meta files.
    for meta in PACKAGE.rglob("*.meta"):
        assert meta.with_suffix("").exists(), f"orphan {meta}"


def test_editor_commands_from_the_terminal(host: Host) -> None:
    from .conftest import run_cli

    (host.project / "Assets").mkdir(exist_ok=True)
    (host.project / "ProjectSettings").mkdir(exist_ok=True)
    r = run_cli("editor", "tools", "--project", str(host.project), "--json")
    assert r.returncode == 0, r.stderr
    names = [t["name"] for t in json.loads(r.stdout)["tools"]]
    assert "echo" in names and "add" in names
    r = run_cli("editor", "call", "add", "--args", '{"a": 2, "b": 40}', "--project", str(host.project))
    assert (r.returncode, r.stdout.strip()) == (0, "42")
    r = run_cli("editor", "call", "add", "--args", "[1]", "--project", str(host.project))
    assert r.returncode == 2 and "--args must be a JSON object" in r.stderr
    r = run_cli("editor", "call", "nope", "--project", str(host.project))
    assert r.returncode == 2 and "nope" in r.stderr and "Traceback" not in r.stderr


def test_editor_commands_without_an_editor(tmp_path: Path) -> None:
    from .conftest import run_cli, write_project

    root = write_project(tmp_path / "P", {})
    r = run_cli("editor", "tools", "--project", str(root))
    assert r.returncode == 2
    assert "editor.json" in r.stderr and "com.unityindex.bridge" in r.stderr
