"""The bridge against a hostile local process or a buggy client, as a framing and protocol audit
found it: bodies that end before their `Content-Length`, numbers out of a parameter's range.

Each test runs the package's core under Mono (tests/bridge_host.py) and asserts the exact answer
docs/editor-bridge.md promises.
"""

from __future__ import annotations

import json
import socket
import time

import pytest

from mcp_adapter.editor.bridge import EditorBridge, read_heartbeat

from . import bridge_host
from .bridge_host import WAIT, Host, raw

host_exe, make_host, host = bridge_host.host_exe, bridge_host.make_host, bridge_host.host


def _send_and_half_close(host: Host, body: bytes, declared: int) -> bytes:
    """A call whose `Content-Length` says `declared` bytes, `body` sent, then the client's side
    closed: the whole answer the server sends before it closes the connection."""
    hb = read_heartbeat(host.project)
    head = (
        f"POST /v1/call HTTP/1.1\r\nHost: 127.0.0.1:{hb.port}\r\nAuthorization: Bearer {hb.token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {declared}\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", hb.port), timeout=WAIT) as s:
        s.sendall(head + body)
        s.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return data


def test_a_body_shorter_than_its_content_length_is_refused_and_never_runs(host: Host) -> None:
    """A client that announces more bytes than it sends and closes its side (a buggy client that
    counted characters, one that died half-way): the body is incomplete, whatever its prefix
    parses as. It used to be read as whole, and a prefix that was valid JSON ran."""
    body = b'{"tool":"counter"}'
    answer = _send_and_half_close(host, body, len(body) + 10)
    head, _, payload = answer.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0] == b"HTTP/1.1 400 Bad Request"
    assert b"\r\nConnection: close" in head
    assert json.loads(payload) == {
        "ok": False,
        "error": {
            "code": "bad_request",
            "message": "the request body ended after 18 of the 28 bytes its Content-Length announced",
            "started": False,
        },
    }
    assert EditorBridge(host.project).call_tool("counter") == 1  # the truncated call never ran


def test_a_whole_body_then_a_half_close_still_runs(host: Host) -> None:
    """The client may close its side once the body is sent whole: that call runs."""
    body = b'{"tool":"counter"}'
    answer = _send_and_half_close(host, body, len(body))
    assert answer.split(b"\r\n")[0] == b"HTTP/1.1 200 OK"
    assert json.loads(answer.partition(b"\r\n\r\n")[2])["result"] == 1


def test_an_integer_out_of_its_parameters_range_is_bad_arguments(host: Host) -> None:
    """docs/editor-bridge.md, errors: `400 bad_arguments` for an integer out of range (`times` is
    a C# `int`)."""
    hb = read_heartbeat(host.project)
    status, body = raw(
        hb.port,
        "POST",
        "/v1/call",
        token=hb.token,
        body=b'{"tool":"echo","arguments":{"text":"x","times":2147483648}}',
    )
    assert (status, body) == (
        400,
        {
            "ok": False,
            "error": {
                "code": "bad_arguments",
                "message": "argument 'times': 2147483648 is out of range",
                "started": False,
            },
        },
    )


LENGTH_REQUIRED = {
    "ok": False,
    "error": {
        "code": "length_required",
        "message": "send the request body with a Content-Length; chunked request bodies are not accepted",
        "started": False,
    },
}


def _chunked(host: Host, parts: list[bytes], *, half_close: bool) -> bytes:
    """A chunked call sent in `parts` (each its own TCP segment, 0.2 s apart): the answer's bytes."""
    hb = read_heartbeat(host.project)
    head = (
        f"POST /v1/call HTTP/1.1\r\nHost: 127.0.0.1:{hb.port}\r\nAuthorization: Bearer {hb.token}\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", hb.port), timeout=WAIT) as s:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        s.sendall(head)
        try:
            for part in parts:
                time.sleep(0.2)
                s.sendall(part)
            if half_close:
                s.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the bridge may close as soon as it answered
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    return answer


@pytest.mark.parametrize(
    ("parts", "half_close"),
    [
        # well formed, its chunk's size and data in two segments: Mono's reader never ended it (408 after 10 s)
        ([b"12\r\n", b'{"tool":"counter"}\r\n0\r\n\r\n'], False),
        # no last chunk, the client's side closed: Mono's reader sometimes ended it there, and the call ran
        ([b'12\r\n{"tool":"counter"}\r\n'], True),
    ],
)
def test_a_chunked_body_is_refused_before_it_is_read(host: Host, parts: list[bytes], half_close: bool) -> None:
    """Mono's `HttpListener` cannot tell where a chunked body ends (a read of 0 bytes is its end,
    or a chunk's size line read alone): such a body is refused at once, and never runs."""
    started = time.monotonic()
    answer = _chunked(host, parts, half_close=half_close)
    head, _, payload = answer.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0] == b"HTTP/1.1 411 Length Required", answer[:300]
    assert b"\r\nConnection: close" in head
    assert json.loads(payload) == LENGTH_REQUIRED
    assert time.monotonic() - started < 5
    assert EditorBridge(host.project).call_tool("counter") == 1
