"""`serve --transport http` logs its address once it listens: a client connecting as it reads the
line is answered (it was refused until uvicorn, started after the line, listened)."""

from __future__ import annotations

import json
import socket
import subprocess
from pathlib import Path

from .conftest import meta, mono_script, start_cli, write_project

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}


def _post(port: int, body: dict) -> bytes:
    data = json.dumps(body).encode()
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Accept: application/json, text/event-stream\r\nContent-Length: {len(data)}\r\nConnection: close\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:  # at once: no retry
        conn.sendall(head.encode() + data)
        return conn.recv(200)


def test_a_client_connecting_as_the_address_is_logged_is_answered(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "Game",
        {"Assets/Player.cs": mono_script("Player", "public int hp;"), "Assets/Player.cs.meta": meta("a1" * 16)},
    )
    proc = start_cli("serve", "--transport", "http", "--port", "0", "--project", str(root), stdout=subprocess.DEVNULL)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        while "/mcp" not in line and line:
            line = proc.stderr.readline()
        port = int(line.rsplit(":", 1)[1].split("/")[0])
        assert _post(port, INITIALIZE).startswith(b"HTTP/1.1 200 ")
    finally:
        proc.terminate()
        proc.wait(timeout=30)
