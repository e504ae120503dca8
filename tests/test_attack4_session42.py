"""Session 42, fourth attack: `serve` and `watch` beside other writers and under signals."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import anyio
import pytest
from mcp import Client

from indexer.build.update import update
from indexer.config import Config

from .conftest import copy_fixture
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


BEHIND = (
    "note: unity-index process {pid} is updating the index at {index}: this answer comes from the index"
    " as it is, without the changes made since (they are applied once that process is done)"
)


@pytest.mark.parametrize("flags", [(), ("--no-watch", "--refresh-interval", "0")], ids=["watch", "poll"])
def test_an_answer_from_the_last_commit_while_another_process_writes_says_so(
    tmp_path: Path, flags: tuple[str, ...]
) -> None:
    """docs/mcp.md: while another process holds the writer lock, a call answers at once from the
    last committed index. The answer said nothing of it: a script just written was "no results",
    and the agent had no way to tell a missing class from an index behind (the CLI says
    "...: answering from the index as it is"). The answer now carries the note; once the lock is
    free, the change is applied and the note is gone."""
    from indexer.store.lock import writer_lock
    from indexer.store.schema import IndexPaths

    root = copy_fixture(tmp_path / "DungeonCrawler")
    update(root, Config(workers=1))
    index = root / "Library/UnityIndex"
    proc, port = _start_http(root, *flags)
    try:

        async def go():
            async with Client(f"http://127.0.0.1:{port}/mcp") as c:
                await c.call_tool("index_status", {})  # the watcher runs; the index is current
                with writer_lock(IndexPaths(index), WAIT):  # another writer
                    (root / "Assets/Zanzibar.cs").write_text("public class ZanzibarShield { }\n")
                    behind = await c.call_tool("search", {"query": "ZanzibarShield"})
                with anyio.fail_after(WAIT):
                    while True:  # the watcher retries every 0.5 s; poll mode updates before answering
                        later = await c.call_tool("search", {"query": "ZanzibarShield"})
                        if later.structured_content["results"]:
                            return behind, later
                        await anyio.sleep(0.2)

        behind, later = anyio.run(go)
    finally:
        proc.terminate()
        proc.wait(WAIT)
    assert behind.is_error is False and behind.structured_content["results"] == []
    note = BEHIND.format(pid=os.getpid(), index=index)
    assert [block.text for block in behind.content][1:] == [note]
    assert later.structured_content["results"][0]["path"] == "Assets/Zanzibar.cs"
    assert len(later.content) == 1
