"""Client of the Unity editor bridge (the `com.unityindex.bridge` package, `unity_package/`).

The editor package publishes `<project>/Library/UnityIndex/editor.json` (the heartbeat: port,
token, pid, state, ...) and serves HTTP/JSON on 127.0.0.1. This module finds and validates the
heartbeat, lists and calls the editor's tools with the token, and rides out domain reloads: while
the editor reloads scripts (state `reloading`, connection refused, or a heartbeat that changed
port or token) it re-reads the heartbeat and retries, within a bound.

Protocol reference: docs/editor-bridge.md. Standard library only; `indexer/` never imports this.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import math
import os
import socket
import threading
import time
from pathlib import Path
from typing import Any

from indexer.changes import heartbeat as beats
from indexer.changes.heartbeat import heartbeat_path
from indexer.changes.processes import pid_alive
from indexer.model import Heartbeat
from indexer.words import echoed

PROTOCOL = beats.PROTOCOL
HEARTBEAT_RELATIVE = beats.HEARTBEAT_FILE
DEFAULT_STALE_AFTER = beats.STALE_AFTER
DEFAULT_RELOAD_WAIT = 30.0
DEFAULT_CALL_TIMEOUT = 30.0
# Calls a server sends one editor at once, each on a thread of its own (the bridge queues 32, and
# answers more `queue_full`): on a hung editor each waits its limit + 5 s, and on anyio's shared
# pool of 40 threads, where the MCP server's index tools run, 40 of them held every index tool.
CALLS_AT_ONCE = 32
# `/v1/ping` and `/v1/tools` are answered on the bridge's HTTP thread, never queued behind the main
# thread: an editor that has not answered them in this (+5 s) is hung, and waiting the 35 s of a
# call held `editor tools` and the MCP server's `editor_tools` that long.
LIST_TIMEOUT = 3.0
# An answer is read whole within the call's time and this size: the socket's timeout bounds each
# read, not the answer, and a bridge (or whatever took its port) sending a byte at a time held a
# 3 s ping, `doctor` and the MCP server's `editor_tools` for as long as it went on.
MAX_ANSWER_BYTES = 64 * 1024 * 1024
STATES = beats.STATES
PACKAGE_NAME = beats.PACKAGE_NAME
_PACKAGE_DIR = Path(__file__).resolve().parents[2] / "unity_package"  # the checkout's, beside mcp_adapter/


def install_hint() -> str:
    """How to install the editor package, for error messages."""
    local = _PACKAGE_DIR / "package.json"
    where = (
        f"'Add package from disk...' and pick {local}"
        if local.is_file()
        else "'Add package from git URL...' with this repository's git URL followed by '?path=/unity_package'"
    )
    return (
        f"Install the editor package {PACKAGE_NAME} in Unity (2021.3 or newer): "
        f"Window > Package Manager > + > {where}; "
        f'or add to Packages/manifest.json: "{PACKAGE_NAME}": "<git URL>?path=/unity_package".'
    )


class EditorBridgeError(Exception):
    """Base class. `code` is machine-readable (the bridge's error code or a client-side one)."""

    def __init__(self, code: str, message: str, *, status: int | None = None, started: bool | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.started = started

    def __str__(self) -> str:
        return self.message


class EditorNotRunning(EditorBridgeError):
    """No editor serves this project: no heartbeat, a dead pid, or an editor that closed."""


class EditorUnavailable(EditorBridgeError):
    """An editor runs but cannot answer now: a reload that outlasted the bound, a stale heartbeat."""


class EditorProtocolError(EditorBridgeError):
    """The heartbeat or an answer is malformed, or speaks another protocol version."""


class EditorCallError(EditorBridgeError):
    """The bridge answered with an error (unknown tool, bad arguments, timeout, tool failure...)."""


def tool_problem(entry: Any) -> str | None:
    """What makes one `/v1/tools` entry unusable, or None. Every consumer of the list (the
    `editor_tools` answer, the command, direct MCP tools) relies on it being checked here, once."""
    if not isinstance(entry, dict):
        return f"is a {_json_kind(entry)}, not an object"
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        return "has no name"
    if not isinstance(entry.get("description", ""), str):
        return f"({echoed(name, 64)}): description is not a string"
    schema = entry.get("input_schema")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return f"({echoed(name, 64)}): input_schema is not an object schema"
    return None


def _json_kind(value: Any) -> str:
    """The JSON name of a parsed value's type."""
    kinds = ((bool, "boolean"), (int, "number"), (float, "number"), (str, "string"), (list, "array"))
    return next((kind for t, kind in kinds if isinstance(value, t)), "null")


def _not_running(project: Path, why: str) -> EditorNotRunning:
    return EditorNotRunning(
        "editor_not_running",
        f"No Unity editor is serving {project}: {why}. Open the project in Unity with the unity-index editor "
        f"bridge installed; it writes {HEARTBEAT_RELATIVE.as_posix()} when ready. {install_hint()}",
    )


def read_heartbeat(project: str | os.PathLike[str]) -> Heartbeat:
    """The heartbeat, parsed by the indexer's one reader; raises EditorNotRunning or EditorProtocolError."""
    try:
        return beats.read_heartbeat(project)
    except beats.HeartbeatError as exc:
        if exc.code == "missing":
            raise _not_running(Path(project), exc.message) from None
        code = "protocol_mismatch" if exc.code == "protocol_mismatch" else "bad_heartbeat"
        raise EditorProtocolError(code, exc.message) from None


class _Retry(Exception):
    """Internal: the editor is between two domains; wait, re-read the heartbeat, try again."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


class EditorBridge:
    """A client for one project's editor. Cheap to create; every call re-validates the heartbeat.

    `reload_wait` bounds how long a call waits for a domain reload (or a restarting bridge) before
    raising EditorUnavailable. `call_timeout` is the default per-call limit sent to the bridge
    (the bridge answers 504 `timeout` past it).
    """

    def __init__(
        self,
        project: str | os.PathLike[str],
        *,
        reload_wait: float = DEFAULT_RELOAD_WAIT,
        stale_after: float = DEFAULT_STALE_AFTER,
        call_timeout: float = DEFAULT_CALL_TIMEOUT,
        poll_interval: float = 0.1,
    ) -> None:
        self.project = Path(project)
        self.reload_wait = reload_wait
        self.stale_after = stale_after
        self.call_timeout = call_timeout
        self.poll_interval = poll_interval
        self.retries = 0  # how many times the last request was retried (diagnostics, tests)

    # -- heartbeat -------------------------------------------------------------------------------

    def heartbeat(self) -> Heartbeat:
        """The current heartbeat, validated: raises EditorNotRunning for a dead or closed editor.

        A heartbeat in state `reloading` is returned as is (callers wait); a live pid with a
        heartbeat older than `stale_after` (and not reloading) raises EditorUnavailable.
        """
        beat = read_heartbeat(self.project)
        if not pid_alive(beat.pid):
            raise _not_running(
                self.project,
                f"{heartbeat_path(self.project)} names process {beat.pid}, which is not running "
                "(the editor closed or crashed)",
            )
        why = beats.unrefreshed(beat.age(time.time()), beat.state, self.stale_after)
        if why:
            raise EditorUnavailable(
                "stale_heartbeat",
                f"the editor's heartbeat {heartbeat_path(self.project)} (pid {beat.pid}, state {beat.state!r}) "
                f"{why}: it may be hung or its bridge stopped; check the Unity console",
            )
        return beat

    def is_available(self) -> bool:
        try:
            return self.heartbeat().state != "reloading"
        except EditorBridgeError:
            return False

    # -- public calls ----------------------------------------------------------------------------

    def ping(self) -> dict[str, Any]:
        return self._request("GET", "/v1/ping", None, min(self.call_timeout, LIST_TIMEOUT))

    def list_tools(self) -> list[dict[str, Any]]:
        """Every tool as {"name", "description", "input_schema"}, in the editor's order."""
        body = self._request("GET", "/v1/tools", None, min(self.call_timeout, LIST_TIMEOUT))
        tools = body.get("tools")
        if not isinstance(tools, list):
            raise EditorProtocolError("bad_response", "the bridge's /v1/tools answer has no 'tools' list")
        for number, entry in enumerate(tools, 1):
            problem = tool_problem(entry)
            if problem is not None:
                raise EditorProtocolError(
                    "bad_response", f"the bridge's /v1/tools answer is malformed: tool {number} {problem}"
                )
        return tools

    def call_tool(self, name: str, arguments: dict[str, Any] | None = None, *, timeout: float | None = None) -> Any:
        """Runs a tool on the editor's main thread and returns its result (any JSON value).

        Raises EditorCallError with the bridge's code (`unknown_tool`, `bad_arguments`,
        `timeout`, `queue_full`, a tool's own code...), EditorNotRunning, or EditorUnavailable.
        """
        limit = self.call_timeout if timeout is None else timeout
        _refuse_non_finite(arguments or {})
        payload: dict[str, Any] = {"tool": name, "arguments": arguments or {}, "timeout_ms": max(1, int(limit * 1000))}
        body = self._request("POST", "/v1/call", payload, limit)
        return body.get("result")

    # -- transport -------------------------------------------------------------------------------

    def _request(self, method: str, path: str, payload: dict[str, Any] | None, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + self.reload_wait
        self.retries = 0
        data = None if payload is None else json.dumps(payload, separators=(",", ":"), allow_nan=False).encode("utf-8")
        last_why = ""
        while True:
            try:
                hb = self.heartbeat()
                if hb.state == "reloading":
                    raise _Retry("the editor is reloading scripts (state 'reloading')")
                return self._send(hb, method, path, data, timeout)
            except _Retry as r:
                last_why = r.why
            if time.monotonic() + self.poll_interval > deadline:
                raise EditorUnavailable(
                    "reload_timeout",
                    f"the editor did not become ready within {self.reload_wait:.0f} s: {last_why}. "
                    "A long import or compilation may still be running; check Unity, then retry",
                )
            self.retries += 1
            time.sleep(self.poll_interval)

    def _heartbeat_moved(self, hb: Heartbeat) -> bool:
        try:
            now = read_heartbeat(self.project)
        except EditorBridgeError:
            return True
        return (now.port, now.token) != (hb.port, hb.token) or now.state == "reloading"

    def _send(self, hb: Heartbeat, method: str, path: str, data: bytes | None, timeout: float) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {hb.token}", "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        conn = http.client.HTTPConnection("127.0.0.1", hb.port, timeout=timeout + 5.0)
        sent = False
        cut = _Deadline(timeout + 5.0)
        try:
            try:
                conn.connect()
            except (ConnectionRefusedError, ConnectionResetError, TimeoutError) as e:
                # Nothing was sent: safe to retry whatever the call is.
                raise _Retry(f"connection to 127.0.0.1:{hb.port} failed ({e.__class__.__name__})") from e
            cut.sock = conn.sock  # the response reads it after the connection let go of it (HTTP/1.0)
            try:
                try:
                    conn.request(method, path, body=data, headers=headers)
                    sent = True
                except (BrokenPipeError, ConnectionResetError):
                    # The bridge may have answered early (413 for a body over its limit) and closed:
                    # read that answer; if there is none, the request never arrived whole: retry.
                    pass
                resp = conn.getresponse()
                raw = _read_answer(resp)
                if cut.passed:  # the answer ended when the deadline cut the connection
                    raise TimeoutError
            except (ConnectionError, http.client.HTTPException, TimeoutError) as e:
                if isinstance(e, TimeoutError) or cut.passed:
                    raise EditorCallError("timeout", _no_answer(method, timeout + 5.0), started=None) from e
                if isinstance(e, http.client.BadStatusLine) and not isinstance(e, http.client.RemoteDisconnected):
                    raise EditorProtocolError("bad_response", _not_http(hb.port, e)) from e
                if not sent or method == "GET":
                    raise _Retry(f"connection dropped ({e.__class__.__name__})") from e
                raise EditorCallError(
                    "connection_lost",
                    f"the connection to the editor dropped during the call ({e.__class__.__name__}); "
                    "a domain reload may have interrupted it and its effect is unknown: check the editor state",
                    started=None,
                ) from e
        finally:
            cut.cancel()
            conn.close()
        body = _parsed(resp.status, raw)
        if resp.status == 200 and body.get("ok") is True:
            return body
        err = body.get("error") if isinstance(body.get("error"), dict) else {}
        code = str(err.get("code", "http_" + str(resp.status)))
        message = str(err.get("message", f"HTTP {resp.status}"))
        started = err.get("started") if isinstance(err.get("started"), bool) else None
        if resp.status == 401 and self._heartbeat_moved(hb):
            raise _Retry("the token changed (the editor reloaded)")
        if resp.status == 503 and code in ("reloading", "shutting_down") and (started is False or method == "GET"):
            raise _Retry(f"the bridge is stopping ({code})")
        if resp.status == 401:
            raise EditorCallError(code, f"the bridge refused the token: {message}", status=401, started=False)
        raise EditorCallError(code, message, status=resp.status, started=started)


def _refuse_non_finite(arguments: dict[str, Any]) -> None:
    """EditorCallError (`bad_arguments`, nothing sent) for a number JSON cannot carry: `1e999`
    (valid JSON, which Python and pydantic read as infinity), `NaN` or `Infinity` (which both
    accept). Sent as Python writes them, the bridge said "request body is not valid JSON:
    unexpected character 'I' at offset 48", of a body the caller never wrote."""
    todo: list[tuple[str, Any]] = [(key, value) for key, value in arguments.items()]
    while todo:
        where, value = todo.pop()
        if isinstance(value, float) and not math.isfinite(value):
            got = "NaN" if math.isnan(value) else "infinity" if value > 0 else "-infinity"
            raise EditorCallError(
                "bad_arguments",
                f"argument '{echoed(where)}': expected a finite number, got {got} (JSON has no infinity or NaN:"
                " a number past ±1.8e308 is read as infinity); nothing was sent",
                started=False,
            )
        if isinstance(value, dict):
            todo.extend((f"{where}.{key}", item) for key, item in value.items())
        elif isinstance(value, list | tuple):
            todo.extend((f"{where}[{i}]", item) for i, item in enumerate(value))


def _parsed(status: int, raw: bytes) -> dict[str, Any]:
    """The answer as a JSON object, or EditorProtocolError (`bad_response`)."""
    if len(raw) > MAX_ANSWER_BYTES:
        raise EditorProtocolError(
            "bad_response", f"the bridge answered HTTP {status} with over {MAX_ANSWER_BYTES // 2**20} MiB"
        )
    try:
        body = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError) as e:
        raise EditorProtocolError("bad_response", f"the bridge answered HTTP {status} with non-JSON") from e
    if not isinstance(body, dict):
        raise EditorProtocolError("bad_response", f"the bridge answered HTTP {status} with a non-object")
    return body


def _read_answer(resp: http.client.HTTPResponse) -> bytes:
    """The answer's body, up to one byte over MAX_ANSWER_BYTES (the caller refuses that). A read of
    a size returns what arrived before the connection closed: one short of its Content-Length is
    IncompleteRead, as a whole read says."""
    raw = resp.read(MAX_ANSWER_BYTES + 1)
    if len(raw) <= MAX_ANSWER_BYTES and resp.length:
        raise http.client.IncompleteRead(raw, resp.length)
    return raw


class _Deadline:
    """Shuts `sock` once `seconds` have passed, so a read waiting on it ends: the socket's own
    timeout restarts with every byte that arrives."""

    def __init__(self, seconds: float) -> None:
        self.passed = False
        self.sock: socket.socket | None = None
        self._timer = threading.Timer(seconds, self._cut)
        self._timer.daemon = True
        self._timer.start()

    def _cut(self) -> None:
        self.passed = True
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)

    def cancel(self) -> None:
        self._timer.cancel()


def _no_answer(method: str, seconds: float) -> str:
    """A request the editor never answered, with what to look at (it said only how long it waited)."""
    said = f"no answer from the editor within {seconds:.0f} s"
    if method == "GET":  # answered on the bridge's HTTP thread: nothing of the editor's work holds it up
        return f"{said}: its bridge is hung; look at the Unity editor and its console, and restart it if it stays"
    return f"{said}: the call may still be running in the editor; check the editor's state before calling again"


def _not_http(port: int, e: http.client.BadStatusLine) -> str:
    """What a port answering no HTTP means: not a reload to wait out (a GET was retried for the
    whole reload wait and blamed on a long import), another program on the heartbeat's port."""
    line = str(e.line if hasattr(e, "line") else e)[:60]
    return (
        f"127.0.0.1:{port}, the port the editor's heartbeat names, answered something that is not HTTP "
        f"({line!r}): another program holds it, or the heartbeat is stale. Restart the Unity editor "
        "(the bridge writes a new heartbeat), or stop the program on that port"
    )
