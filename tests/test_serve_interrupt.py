"""Ctrl-C ends `serve` over stdio at once, exit 130 (docs/cli.md, exit codes), in real processes.

A client (a terminal, an agent) keeps stdin open while the server runs. The SDK read stdin on
anyio's worker threads, and Python waits for every such thread before exiting: after Ctrl-C the
server said "error: interrupted" and went on running until stdin closed; a third Ctrl-C ended it
with a traceback from `threading._shutdown`."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import REPO
from .test_mcp_transports import _env

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}
EXIT_WITHIN = 10.0  # seconds: stopping the watcher joins its thread


def started_server(root: Path, *flags: str) -> subprocess.Popen:
    """`serve` over stdio, initialized, its stdin held open as a client holds it."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "indexer.cli", "serve", "--project", str(root), *flags],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
        cwd=str(REPO),
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 1
    return proc


@pytest.mark.parametrize("flags", [(), ("--no-watch",)], ids=["watch", "no-watch"])
def test_ctrl_c_ends_stdio_serve_at_once_while_stdin_stays_open(indexed_fixture: Path, flags: tuple[str, ...]) -> None:
    proc = started_server(indexed_fixture, *flags)
    try:
        time.sleep(1.0)  # the session's watcher started
        proc.send_signal(signal.SIGINT)
        code = proc.wait(EXIT_WITHIN)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        assert proc.stdin is not None
        proc.stdin.close()
    assert proc.stderr is not None
    assert (code, proc.stderr.read().decode().splitlines()[-1]) == (130, "error: interrupted")
