"""Session 42, fourth attack: `serve` and `watch` beside other writers and under signals."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import anyio
from mcp import Client

from .test_crash import generate
from .test_mcp_transports import _start_http

WAIT = 60.0  # bound for each awaited step on a loaded 2-core machine


def _scanning(root: Path) -> bool:
    try:
        return json.loads((root / "Library/UnityIndex/progress.json").read_text())["phase"] == "scanning"
    except (OSError, ValueError, KeyError):
        return False


def test_sigterm_while_a_call_waits_for_the_first_build_answers_that_the_server_is_stopping(tmp_path: Path) -> None:
    """docs/mcp.md: SIGTERM stops the watcher's update (it rolls back) before the server waits for
    the calls in progress, "such a call then answers 'the server is stopping'". In watch mode (the
    default) a `search` waiting for the first build answered "no index of this version ...: it is
    being built (`index_status` shows how far); call again once it is done", of a build that had
    just been rolled back by a server that was exiting."""
    root = generate(tmp_path / "Game", 6000)
    proc, port = _start_http(root)
    try:

        async def go():
            async with Client(f"http://127.0.0.1:{port}/mcp") as c:
                answers = []
                async with anyio.create_task_group() as tg:

                    async def call() -> None:
                        answers.append(await c.call_tool("search", {"query": "C42"}))

                    tg.start_soon(call)
                    with anyio.fail_after(WAIT):
                        while not _scanning(root):
                            await anyio.sleep(0.05)
                    proc.send_signal(signal.SIGTERM)
                return answers[0]

        answer = anyio.run(go)
        code = proc.wait(WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 0
    assert answer.is_error is True
    stopping = "the server is stopping: the index update was rolled back"
    assert answer.content[0].text == f"Error executing tool search: {stopping}"
