"""The bridge's edges an audit found open: a call caught by a reload, the heartbeat's timer racing
with a reload or a quit, strict names, JSON and tokens, bounded echoes of what the caller sent.

Each test runs the package's core under Mono (tests/bridge_host.py) and asserts the exact answer
docs/editor-bridge.md promises.
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
from pathlib import Path

import pytest

from mcp_adapter.editor.bridge import EditorBridge, read_heartbeat

from . import bridge_host
from .bridge_host import WAIT, Host, raw

host_exe, make_host, host = bridge_host.host_exe, bridge_host.make_host, bridge_host.host


def run_probe(folder: Path, name: str, source: str, *args: str) -> list[str]:
    """Compiles `source` with the package's core (as the tests compile it) and runs it under Mono:
    its output lines."""
    (folder / f"{name}.cs").write_text(source, encoding="utf-8")
    built = bridge_host.mcs([f"-out:{name}.exe", *bridge_host.sources(bridge_host.CORE), f"{name}.cs"], folder)
    assert built.returncode == 0, built.stdout + built.stderr
    _, mono = bridge_host.require_mono()
    run = subprocess.run([mono, str(folder / f"{name}.exe"), *args], capture_output=True, text=True, timeout=WAIT)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout.splitlines()


def _read_all(s: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    data = b""
    while chunk := s.recv(65536):
        data += chunk
    return data


STOPPING = {
    "ok": False,
    "error": {
        "code": "reloading",
        "message": "the bridge is stopping (domain reload or editor exit); retry shortly",
        "started": False,
    },
}


RELOADING = {
    "ok": False,
    "error": {"code": "reloading", "message": "the editor is reloading scripts; retry shortly", "started": False},
}


def _reload_during_a_body(host: Host, *, finish: str) -> bytes:
    """A counter call whose body is half sent when a reload starts; the rest is sent as the server
    starts stopping (finish="stopping"), or never (finish="never"). Returns the server's answer."""
    hb = read_heartbeat(host.project)
    body = b'{"tool":"counter","arguments":{},"timeout_ms":20000}'
    head = f"POST /v1/call HTTP/1.1\r\nHost: 127.0.0.1:{hb.port}\r\nAuthorization: Bearer {hb.token}\r\n"
    s = socket.create_connection(("127.0.0.1", hb.port), timeout=WAIT)
    try:
        s.sendall(f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body[:10])
        time.sleep(0.3)  # the headers are in: the request is in flight, its body half read
        host.send("reload 1000", "OK stopping")
        if finish == "stopping":
            s.sendall(body[10:])  # within the second the stopping server waits for requests in flight
        return _read_all(s)
    finally:
        s.close()


@pytest.mark.parametrize("finish", ["stopping", "never"])
def test_a_call_caught_by_a_reload_is_refused_and_never_runs(host: Host, finish: str) -> None:
    """docs/editor-bridge.md, Domain reloads: a call the reload catches while its body is read is
    answered `503 reloading`, `started: false`, and never runs. A body finishing during the stop
    used to be queued after the queue was emptied, got an empty `200` and ran in the next domain; a
    body still unfinished when the listener closed got an empty `200` from HttpListener."""
    answer = _reload_during_a_body(host, finish=finish)
    head, _, rest = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 503 "), answer
    # on a loaded machine the body may finish after the stop began or once it is done: either
    # way the call is refused as reloading and never runs (the message says which moment it was)
    assert json.loads(rest) in (STOPPING, RELOADING), rest
    host.expect("OK reloaded")
    assert EditorBridge(host.project).call_tool("counter") == 1  # the first call never ran


HEARTBEAT_RACE = r"""
using System;
using System.IO;
using System.Threading;
using UnityIndex.Bridge;

// The real 2 s timer; Extra (in Unity it takes a lock) is slowed on the timer's thread only, so the
// timer's write is in progress when the main thread stops the timer and writes, or deletes.
public static class HeartbeatRace
{
    public static int Main(string[] args)
    {
        int main = Thread.CurrentThread.ManagedThreadId;
        var hb = new Heartbeat(args[0], "x");
        hb.Extra = delegate { if (Thread.CurrentThread.ManagedThreadId != main) Thread.Sleep(500); return null; };
        hb.Set(1234, "token", EditorStates.Ready);
        hb.StartTimer();
        Thread.Sleep(Heartbeat.IntervalMs + 100);   // the timer's first write is in progress
        hb.StopTimer();                             // beforeAssemblyReload: the timer stops ...
        hb.SetState(EditorStates.Reloading);        // ... and the state is written
        Thread.Sleep(1000);
        bool reloading = File.ReadAllText(hb.FilePath).Contains("\"state\":\"reloading\"");
        Console.WriteLine("after_reload " + (reloading ? "reloading" : "other"));
        hb.StartTimer();
        Thread.Sleep(Heartbeat.IntervalMs + 100);
        hb.Delete();                                // quitting
        Thread.Sleep(1000);
        Console.WriteLine("after_delete " + (File.Exists(hb.FilePath) ? "present" : "absent"));
        return 0;
    }
}
"""


def test_the_heartbeat_timer_never_writes_after_a_reload_or_a_quit(tmp_path: Path) -> None:
    """docs/editor-bridge.md, Life cycle: `reloading` is written after the timer stopped, and the
    file is deleted on quitting. A timer write in progress used to land after either, so the file
    said `ready` during the reload, or came back after the editor quit."""
    lines = run_probe(tmp_path, "HeartbeatRace", HEARTBEAT_RACE, str(tmp_path / "Project"))
    assert lines == ["after_reload reloading", "after_delete absent"]


# -- names, JSON, arguments and tokens are taken exactly --------------------------------------------

REGISTRY_PROBE = r"""
using System;
using UnityIndex.Bridge;

public static class NamedTools
{
    [BridgeTool("spawn\n", "A name with a trailing newline.")]
    public static object Spawn() { return "ran"; }

    [BridgeTool("spawn", "A valid name.")]
    public static object SpawnOk() { return "ran"; }
}

public static class RegistryProbe
{
    public static int Main()
    {
        var registry = new ToolRegistry();
        registry.RegisterAssembly(typeof(NamedTools).Assembly);
        foreach (string w in registry.Warnings) Console.WriteLine("WARN " + w.Replace("\n", "\\n"));
        foreach (ToolInfo t in registry.All()) Console.WriteLine("TOOL " + Json.Serialize(t.Name));
        return 0;
    }
}
"""


def test_a_tool_name_ending_in_a_newline_is_refused(tmp_path: Path) -> None:
    """unity_package/README.md: tool names are lowercase `[a-z][a-z0-9_]*` (at most 64). .NET's `$`
    also matches before a final newline, so `spawn\\n` used to be registered."""
    assert run_probe(tmp_path, "RegistryProbe", REGISTRY_PROBE) == [
        "WARN NamedTools.Spawn: tool name 'spawn\\n' must match ^[a-z][a-z0-9_]{0,63}$",
        'TOOL "spawn"',
    ]


def _call(host: Host, body: bytes, headers: dict[str, str] | None = None) -> tuple[int, dict]:
    hb = read_heartbeat(host.project)
    return raw(hb.port, "POST", "/v1/call", token=hb.token, body=body, headers=headers)


def test_null_for_a_required_string_is_the_wrong_json_type(host: Host) -> None:
    """docs/editor-bridge.md, errors: `400 bad_arguments` for a wrong JSON type. `null` is not a
    string: the tool used to run with `text` null."""
    status, body = _call(host, b'{"tool":"echo","arguments":{"text":null}}')
    assert (status, body) == (
        400,
        {
            "ok": False,
            "error": {
                "code": "bad_arguments",
                "message": "argument 'text': expected string, got null",
                "started": False,
            },
        },
    )
    status, body = _call(host, b'{"tool":"echo","arguments":{"text":"x","times":null}}')  # optional: its default
    assert (status, body["result"]) == (200, {"text": "x", "times": 1, "parts": ["x"]})


@pytest.mark.parametrize(
    ("arguments", "why"),
    [  # the body starts {"tool":"add","arguments":{ (27 characters)
        (b'"a":01,"b":2', "bad number '01' at offset 31"),
        (b'"a":-01,"b":2', "bad number '-01' at offset 31"),
        (b'"a":1,"b":-}', "bad number '-' at offset 37"),
        (b'"a":1.,"b":2', "bad number '1.' at offset 31"),
        (b'"a":-.5,"b":2', "bad number '-.5' at offset 31"),
        (b'"a":1e,"b":2', "bad number '1e' at offset 31"),
        (b'"a":1e+,"b":2', "bad number '1e+' at offset 31"),
        (b'"a":1.5e3.2,"b":2', "bad number '1.5e3.2' at offset 31"),
        (b'"a":1-1,"b":2', "bad number '1-1' at offset 31"),
        (b'"a":1,"b":+2', "unexpected character '+' at offset 37"),
    ],
)
def test_a_number_outside_the_json_grammar_is_bad_json(host: Host, arguments: bytes, why: str) -> None:
    """docs/editor-bridge.md, errors: `400 bad_json` for a body that is not valid JSON. Leading
    zeros, a bare `.`, a fraction or an exponent without digits used to be read as numbers."""
    status, answer = _call(host, b'{"tool":"add","arguments":{' + arguments + b"}}")
    assert (status, answer) == (
        400,
        {
            "ok": False,
            "error": {"code": "bad_json", "message": f"request body is not valid JSON: {why}", "started": False},
        },
    )


@pytest.mark.parametrize("authorization", ["Bearer   {token}", "Bearer \t{token}", "Bearer  {token}"])
def test_a_token_not_sent_exactly_as_bearer_token_is_invalid(host: Host, authorization: str) -> None:
    """docs/editor-bridge.md: not exactly `Authorization: Bearer <token>` is `401 invalid_token`.
    Spaces between `Bearer` and the token used to be trimmed away."""
    hb = read_heartbeat(host.project)
    headers = {"Authorization": authorization.format(token=hb.token)}
    status, body = raw(hb.port, "GET", "/v1/ping", token=None, headers=headers)
    assert (status, body) == (
        401,
        {
            "ok": False,
            "error": {
                "code": "invalid_token",
                "message": "wrong token: read it again from Library/UnityIndex/editor.json"
                " (it changes on every domain reload)",
            },
        },
    )


# -- a tool that refuses its arguments itself ---------------------------------------------------------

LATE_PROBE = r"""
using System;
using System.Threading;
using UnityIndex.Bridge;

public static class LateTools
{
    public static int Counter;

    [BridgeTool("validate_late", "Counts, then refuses its argument.")]
    public static object ValidateLate([ToolParam("A number.")] int n)
    {
        ++Counter;
        throw new ArgumentBindingException("n must be even");
    }

    [BridgeTool("counter", "How often validate_late ran.")]
    public static int Count() { return Counter; }
}

""" + bridge_host.serving_probe("LateProbe", "LateTools")


def test_a_tool_refusing_its_arguments_while_it_runs_says_it_started(tmp_path: Path) -> None:
    """docs/editor-bridge.md, errors: `400 bad_arguments` is checked before the call is queued, so
    `started: false`. A running tool throwing `ArgumentBindingException` used to be answered that
    way too, though it ran (a retry would run it again): it is the tool's own `422`, `started: true`."""
    with bridge_host.probe_serving(tmp_path, "LateProbe", LATE_PROBE) as (port, token):
        late = raw(port, "POST", "/v1/call", token=token, body=b'{"tool":"validate_late","arguments":{"n":1}}')
        ran = raw(port, "POST", "/v1/call", token=token, body=b'{"tool":"counter"}')
    assert late == (
        422,
        {"ok": False, "error": {"code": "bad_arguments", "message": "n must be even", "started": True}},
    )
    assert (ran[0], ran[1]["result"]) == (200, 1)


# -- what the caller sent comes back at most 200 characters long -------------------------------------

LONG = "k" * 5_000
SHOWN = "k" * 200 + "… (5,000 characters)"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            f'{{"tool":"add","{LONG}":1,"{LONG}":2}}'.encode(),
            f'request body is not valid JSON: duplicate key "{SHOWN}" at offset 10022',
        ),
        (
            b'{"tool":"add","arguments":{"a":1' + b"-1" * 2_500 + b"}}",
            "request body is not valid JSON: bad number '1" + "-1" * 99 + "-… (5,001 characters)' at offset 31",
        ),
    ],
)
def test_bad_json_repeats_at_most_200_characters(host: Host, body: bytes, message: str) -> None:
    """docs/editor-bridge.md, errors: a message repeats at most the first 200 characters of what
    the caller sent. A duplicate key (5,135 bytes) and a bad number came back whole."""
    status, answer = _call(host, body)
    assert (status, answer) == (400, {"ok": False, "error": {"code": "bad_json", "message": message, "started": False}})


def test_an_unknown_path_repeats_at_most_200_characters(host: Host) -> None:
    """docs/editor-bridge.md, errors: `404 not_found` for an unknown path, its path cut to 200
    characters (a 6,000-character path came back whole)."""
    hb = read_heartbeat(host.project)
    path = "/v1/" + "p" * 5_996
    status, body = raw(hb.port, "GET", path, token=hb.token)
    shown = "/v1/" + "p" * 196 + "… (6,000 characters)"
    assert (status, body) == (
        404,
        {
            "ok": False,
            "error": {"code": "not_found", "message": f"no such endpoint: {shown} (use /v1/ping, /v1/tools, /v1/call)"},
        },
    )


BUILT_IN_PROBE = r"""
using System;
using System.Collections.Generic;
using UnityIndex.Bridge;

public static class BuiltInProbe
{
    public static int Main(string[] args)
    {
        var registry = new ToolRegistry();
        registry.RegisterAssembly(typeof(EditorTools).Assembly);
        ToolInfo logs = registry.Find("console_logs");
        Console.WriteLine(Json.Serialize(logs.InputSchema["properties"]));
        try { logs.Bind(Json.Obj("types", new List<object> { "error", args[0] })); }
        catch (ArgumentBindingException e) { Console.WriteLine("bind " + e.Message); }
        try { EditorTools.ExecuteMenuItem("Help/" + args[0]); }
        catch (ToolException e) { Console.WriteLine("menu " + e.Code + " " + e.Message); }
        return 0;
    }
}
"""


def test_built_in_tools_check_and_repeat_what_they_were_given_within_bounds(tmp_path: Path) -> None:
    """docs/editor-bridge.md: `console_logs` `types` are `error`, `exception`, `assert`, `warning`,
    `log`, refused with `400 bad_arguments` before the call is queued (it was a `422` from the
    running tool), and an error repeats at most 200 characters of a value (`console_logs` and
    `execute_menu_item` repeated all of it). The package is compiled against the Unity stubs:
    only code that throws before touching Unity can run here."""
    bridge_host.build_package(tmp_path)
    (tmp_path / "BuiltInProbe.cs").write_text(BUILT_IN_PROBE, encoding="utf-8")
    built = bridge_host.mcs(["-out:BuiltInProbe.exe", "-r:UnityIndex.Editor.dll", "BuiltInProbe.cs"], tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    _, mono = bridge_host.require_mono()
    run = subprocess.run(
        [mono, str(tmp_path / "BuiltInProbe.exe"), LONG], capture_output=True, text=True, timeout=WAIT, cwd=tmp_path
    )
    assert run.returncode == 0, run.stdout + run.stderr
    properties, bind, menu = run.stdout.splitlines()
    assert json.loads(properties)["types"] == {
        "type": "array",
        "items": {"type": "string", "enum": ["error", "exception", "assert", "warning", "log"]},
        "description": "Types to keep: error, exception, assert, warning, log. Default: all.",
    }
    assert bind == f"bind argument 'types[1]': '{SHOWN}' is not one of error, exception, assert, warning, log"
    shown = "Help/" + "k" * 195 + "… (5,005 characters)"
    assert menu == f"menu denied menu item '{shown}' is on the bridge's deny-list"


JSON_NUMBER_PROBE = r"""
using System;
using UnityIndex.Bridge;

public static class JsonNumberProbe
{
    public static int Main()
    {
        Console.WriteLine(Json.Serialize(Json.Obj("t", Math.Round(1796414840.0004, 3), "f", 2f, "x", 1.5, "n", 3)));
        return 0;
    }
}
"""


def test_a_whole_fractional_number_is_written_as_a_fraction(tmp_path: Path) -> None:
    """A journal entry's time rounded to milliseconds fell on a whole second once and was written
    `1796414840`, read back as an integer (a CI run's `test_journal_format` failed on it): a double
    or float is written with its fraction, `2.0`; an integer as written."""
    assert run_probe(tmp_path, "JsonNumberProbe", JSON_NUMBER_PROBE) == ['{"t":1796414840.0,"f":2.0,"x":1.5,"n":3}']
