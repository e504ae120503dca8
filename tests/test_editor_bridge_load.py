"""The editor bridge under slow clients (#14 item 13), against the Mono host.

Slow clients send complete headers (with the right token) and then a body one byte at a time, or
nothing more. Before the fix each held a pool thread in a blocking `Read`, and 200 of them starved
the pool (and with it the listener's own I/O callbacks): a normal call did not answer for minutes.
Loopback only; every loop is bounded and every socket is closed by the test.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from mcp_adapter.editor.bridge import read_heartbeat

from . import bridge_host
from .bridge_host import WAIT, raw

host_exe, make_host = bridge_host.host_exe, bridge_host.make_host

ECHO = json.dumps({"tool": "echo", "arguments": {"text": "x"}}).encode()
QUICK = 10.0  # a normal request must answer within this while the slow clients hold on


def _open_slow(port: int, token: str | None, *, headers_done: bool = True) -> socket.socket:
    """A client that sent its headers (or half of them) and the first byte of a 1000-byte body."""
    s = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    head = f"POST /v1/call HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{auth}Content-Length: 1000\r\n"
    s.sendall((head + "\r\n{" if headers_done else head + "X-Slow: ").encode())
    return s


@contextmanager
def _dripping(socks: list[socket.socket], every: float = 0.25, bound: float = WAIT) -> Iterator[None]:
    """Sends one more byte to every socket each `every` seconds, until the block ends (or `bound`)."""
    stop = threading.Event()

    def drip() -> None:
        deadline = time.monotonic() + bound
        while not stop.wait(every) and time.monotonic() < deadline:
            for s in socks:
                with suppress(OSError):  # the server closed it (what it should do, eventually)
                    s.send(b" ")

    t = threading.Thread(target=drip, daemon=True)
    t.start()
    try:
        yield
    finally:
        stop.set()
        t.join(WAIT)


def _answer(s: socket.socket, timeout: float) -> bytes | None:
    """What the server sent before closing the connection; None if it stayed open past `timeout`."""
    s.settimeout(timeout)
    data = b""
    try:
        while chunk := s.recv(65536):
            data += chunk
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass  # closed with our later drips unread: the answer may be lost, the connection is not
    return data


def _timed_call(port: int, token: str) -> tuple[int, dict, float]:
    t0 = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=QUICK)
    try:
        conn.request("POST", "/v1/call", body=ECHO, headers={"Authorization": f"Bearer {token}"})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read()), time.monotonic() - t0
    finally:
        conn.close()


def test_slow_clients_do_not_stall_the_bridge(make_host) -> None:
    """200 slow authorised bodies, 50 unauthorised ones and 50 half-sent headers, with the default
    limits: a normal call still answers at once, and the slow bodies are cut off with 408."""
    host = make_host()
    hb = read_heartbeat(host.project)
    slow = [_open_slow(hb.port, hb.token) for _ in range(200)]
    others = [_open_slow(hb.port, None) for _ in range(50)]
    others += [_open_slow(hb.port, hb.token, headers_done=False) for _ in range(50)]
    try:
        with _dripping(slow + others):
            time.sleep(1.0)  # let the server take them all in
            status, body, took = _timed_call(hb.port, hb.token)
            assert (status, body["result"]["text"]) == (200, "x")
            assert took < QUICK
            assert raw(hb.port, "GET", "/v1/ping", token=hb.token)[0] == 200
            # The slow bodies were still being read while the call was answered...
            assert _answer(slow[0], 0.05) is None
            # ...and each is cut off once the body deadline (10 s) has passed.
            answers = [_answer(s, WAIT) for s in slow]
        assert all(a is not None for a in answers), "a slow client was never cut off"
        timed_out = [a for a in answers if a]
        assert timed_out, "no slow client received its 408"
        for a in timed_out:
            head, _, payload = a.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 408 "), head
            assert json.loads(payload) == {
                "ok": False,
                "error": {
                    "code": "body_timeout",
                    "message": "the request body did not arrive within 10000 ms",
                    "started": False,
                },
            }
        assert _timed_call(hb.port, hb.token)[0] == 200
    finally:
        for s in slow + others:
            s.close()


def test_concurrent_requests_are_bounded(make_host) -> None:
    """Over the bound a request is refused at once (503 busy); the stalled ones time out and the
    bridge answers normally again."""
    host = make_host("--max-concurrent", "8", "--body-timeout-ms", "6000")
    hb = read_heartbeat(host.project)
    stalled = [_open_slow(hb.port, hb.token) for _ in range(8)]
    try:
        deadline = time.monotonic() + WAIT
        while True:  # until the server has taken all 8 in (a probe in between may still pass)
            status, body, took = _timed_call(hb.port, hb.token)
            if status == 503:
                break
            assert time.monotonic() < deadline, "the bound was never reached"
            # Headers are parsed in parallel: a probe may overtake a stalled client, which is
            # then the one refused. Replace it.
            for i, s in enumerate(stalled):
                if _answer(s, 0.01) is not None:
                    s.close()
                    stalled[i] = _open_slow(hb.port, hb.token)
            time.sleep(0.05)
        assert took < QUICK
        assert body == {
            "ok": False,
            "error": {
                "code": "busy",
                "message": "8 requests are already being handled; retry shortly",
                "started": False,
            },
        }
        # The stalled clients sent nothing more: each gets the whole 408 answer, then EOF.
        for s in stalled:
            answer = _answer(s, WAIT)
            assert answer is not None and answer.startswith(b"HTTP/1.1 408 "), answer
        status, body, _ = _timed_call(hb.port, hb.token)
        assert (status, body["result"]) == (200, {"text": "x", "times": 1, "parts": ["x"]})
    finally:
        for s in stalled:
            s.close()
