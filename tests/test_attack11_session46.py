"""Attack 11 of session 46: each test failed before the fix it names.

1. An editor call whose arguments held a number JSON cannot carry (`1e999`, valid JSON that
   Python's `json` and pydantic read as infinity; `NaN` and `Infinity`, which both accept) was
   sent to the bridge as `Infinity`/`NaN`, and came back as "request body is not valid JSON:
   unexpected character 'I' at offset 48 [bad_json]": about a body the caller never wrote, at an
   offset of it, from `unity-index editor call --args` and the MCP `editor_call` alike. It is
   refused before anything is sent, naming the argument (docs/editor-bridge.md, client rules).
2. `serve` over stdio: a request with a fine `id` whose strings held an unpaired surrogate escape
   (`"query": "player \\ud800"`, which JSON's grammar allows and Python's `json` reads) passed our
   screening and failed the SDK's parser: -32700 with a null `id` and pydantic's "1 validation
   error for union[JSONRPCRequest,...]", so the client waited for ever for its answer (the case of
   tests/test_attack8_session44.py, another trigger). It is -32600 with the request's id
   (docs/mcp.md).
3. The MCP server ran `editor_call`, `editor_tools` and the direct editor tools on anyio's shared
   pool of 40 threads, where every sync index tool runs: 40 editor calls waiting on a hung editor
   (35 s each) held every `search`, `describe`, ... for as long ("Index tools never touch the
   editor"; "an editor whose port ... never answers delays nothing else"). Editor calls have threads
   of their own, at most 32 at once (docs/mcp.md, Live editor).
4. `serve --transport http`: a client that closed its connection before its request's body had
   arrived whole was logged as a bug, "Error handling POST request" and starlette's
   `ClientDisconnect` traceback (12 lines a time: any local process could fill the log with them).
   Nothing is logged (docs/mcp.md).
"""

from __future__ import annotations

import json
import os
import socket
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest
from mcp import Client

from mcp_adapter.editor.bridge import EditorBridge, EditorCallError

from . import bridge_host
from .conftest import run_cli
from .test_attack8_session44 import INIT, _stdio
from .test_mcp_server import make_server
from .test_mcp_transports import _start_http

# The host fixtures, by name (pytest finds fixtures among a module's attributes).
host_exe, make_host, host = bridge_host.host_exe, bridge_host.make_host, bridge_host.host


def _project(host: bridge_host.Host) -> Path:
    for folder in ("Assets", "ProjectSettings"):
        (host.project / folder).mkdir(exist_ok=True)
    return host.project


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        ({"a": 1, "b": float("inf")}, "argument 'b': expected a finite number, got infinity"),
        ({"a": float("-inf"), "b": 1}, "argument 'a': expected a finite number, got -infinity"),
        (
            {"mode": "Fast", "names": [], "extra": {"x": [1, float("nan")]}},
            "argument 'extra.x[1]': expected a finite number, got NaN",
        ),
    ],
)
def test_a_number_json_cannot_carry_is_refused_naming_its_argument(
    host: bridge_host.Host, arguments: dict, said: str
) -> None:
    bridge = EditorBridge(_project(host))
    tool = "kinds" if "mode" in arguments else "add"
    with pytest.raises(EditorCallError) as info:
        bridge.call_tool(tool, arguments)
    assert (info.value.code, info.value.started, info.value.status) == ("bad_arguments", False, None)
    assert info.value.message == (
        f"{said} (JSON has no infinity or NaN: a number past ±1.8e308 is read as infinity); nothing was sent"
    )


def test_editor_call_args_with_1e999_names_the_argument(host: bridge_host.Host) -> None:
    """`--args '{"a": 1, "b": 1e999}'` is valid JSON; the bridge was sent `Infinity`."""
    project = _project(host)
    r = run_cli("editor", "call", "add", "--args", '{"a": 1, "b": 1e999}', "--project", str(project))
    assert r.returncode == 2, r.stdout
    assert r.stderr == (
        "error: argument 'b': expected a finite number, got infinity (JSON has no infinity or NaN: a number past"
        " ±1.8e308 is read as infinity); nothing was sent\n"
    )
    r = run_cli("editor", "call", "add", "--args", '{"a": 1, "b": 1e308}', "--project", str(project))
    assert r.returncode == 2 and "expected integer" in r.stderr  # a finite number still reaches the bridge


def test_stdio_answers_a_request_holding_an_unpaired_surrogate_with_its_own_id(indexed_fixture: Path) -> None:
    """json.dumps writes a lone surrogate as the escape `\\ud800`, as a client in another language
    may (a string cut inside an emoji's pair); the pair whole is text, and answered."""
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "search", "arguments": {"query": "player \ud800"}},
        },
        {
            "jsonrpc": "2.0",
            "id": "three",
            "method": "resources/read",
            "params": {"uri": "unity://file/Assets/\udc80.cs"},
        },
        {"jsonrpc": "2.0", "id": "\ud800", "method": "ping"},
        {
            "jsonrpc": "2.0",
            "id": 4,
            "method": "tools/call",
            "params": {"name": "search", "arguments": {"query": "player \U0001f600"}},
        },
    ]
    answers = _stdio(indexed_fixture, lines)
    errors = [(a["id"], a["error"]) for a in answers if "error" in a]
    said = "Invalid Request: a string holds an unpaired UTF-16 surrogate escape ({} alone), which is no Unicode text"
    assert errors == [
        (2, {"code": -32600, "message": said.format("\\ud800")}),
        ("three", {"code": -32600, "message": said.format("\\udc80")}),
        (None, {"code": -32600, "message": said.format("\\ud800")}),  # its own id cannot be written back
    ]
    assert [a["id"] for a in answers if "result" in a] == [1, 4]
    assert json.dumps(answers).count("validation error") == 0


class _HungEditor:
    """A live editor offering `spin`, whose calls never answer until `release` is set (as a hung
    bridge holds them)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.waiting = 0
        self._lock = threading.Lock()

    def heartbeat(self) -> Any:
        return SimpleNamespace(state="ready", pid=os.getpid(), token="t" * 64, unity_version="2022.3.1f1")

    def list_tools(self) -> list[dict]:
        return [{"name": "spin", "description": "", "input_schema": {"type": "object", "properties": {}}}]

    def call_tool(self, name: str, arguments: dict | None = None) -> Any:
        with self._lock:
            self.waiting += 1
        self.release.wait(60)
        return {"late": True}


@pytest.mark.parametrize(
    ("mode", "tool", "arguments"), [("compact", "editor_call", {"name": "spin"}), ("direct", "editor_spin", {})]
)
def test_editor_calls_a_hung_editor_holds_leave_the_index_tools_answering(
    indexed_fixture: Path, mode: str, tool: str, arguments: dict
) -> None:
    editor = _HungEditor()
    server = make_server(indexed_fixture, bridge_factory=lambda p: editor, editor_tools_mode=mode, editor_poll=0.05)
    took: dict[str, bool] = {}

    async def go() -> None:
        async with Client(server) as c:
            await c.call_tool("search", {"query": "player", "limit": 1})  # the index's readers open
            with anyio.fail_after(20):
                while tool not in {t.name for t in (await c.list_tools()).tools}:
                    await anyio.sleep(0.05)
            async with anyio.create_task_group() as tg:
                for _ in range(41):
                    tg.start_soon(c.call_tool, tool, arguments)
                try:
                    with anyio.fail_after(20):
                        while editor.waiting < 32:
                            await anyio.sleep(0.01)
                    with anyio.move_on_after(10) as waited:
                        found = await c.call_tool("search", {"query": "player health", "limit": 1})
                        took["search answered"] = not found.is_error
                    took["within 10 s"] = not waited.cancelled_caught
                finally:
                    editor.release.set()

    anyio.run(go)
    assert took == {"search answered": True, "within 10 s": True}
    assert editor.waiting == 41  # every call ran once the first were done


def test_a_client_gone_before_its_request_was_read_is_not_logged_as_a_bug(indexed_fixture: Path) -> None:
    proc, port = _start_http(indexed_fixture, "--no-watch")
    try:
        for _ in range(3):
            with socket.create_connection(("127.0.0.1", port)) as gone:
                gone.sendall(
                    f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                    "Accept: application/json, text/event-stream\r\nContent-Length: 500\r\n\r\n"
                    '{"jsonrpc": "2.0"'.encode()
                )

        async def go() -> Any:
            async with Client(f"http://127.0.0.1:{port}/mcp", mode="legacy") as c:
                return await c.call_tool("search", {"query": "player health", "limit": 1})

        assert not anyio.run(go).is_error  # the server still answers
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    log = err.decode()
    assert "Traceback" not in log and "ClientDisconnect" not in log and "Error handling POST" not in log, log
