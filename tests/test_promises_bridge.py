"""Promises of docs/editor-bridge.md that no other test held the bridge to: the order of its
checks, the headers its errors carry, the bounds of `timeout_ms`, the error codes of malformed
calls, the ping answer, the 8 MiB journal reset (the C# core really running under Mono, as in
tests/test_editor_bridge.py), and the client's rules for stale heartbeats and retries."""

from __future__ import annotations

import http.client
import json
import os
import socket
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


def test_a_body_over_the_limit_closes_the_connection_chunked_or_not(make_host) -> None:
    """docs/editor-bridge.md: 413 `body_too_large` for a body over the limit, by `Content-Length`
    before reading or while reading a chunked body, with `Connection: close`."""
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
    assert head.startswith(b"HTTP/1.1 413"), answer[:300]
    assert b"connection: close" in head.lower()
    assert b'"body_too_large"' in rest


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
    with pytest.raises(EditorUnavailable) as info:
        bridge.ping()
    assert info.value.code == "reload_timeout" and 3 <= bridge.retries <= 5  # every 100 ms for 0.5 s


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
