"""Ctrl-C ends `serve` over stdio at once, exit 130 (docs/cli.md, exit codes), in real processes.

A client (a terminal, an agent) keeps stdin open while the server runs. The SDK read stdin on
anyio's worker threads, and Python waits for every such thread before exiting: after Ctrl-C the
server said "error: interrupted" and went on running until stdin closed; a third Ctrl-C ended it
with a traceback from `threading._shutdown`."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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


def slow_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Any, Any]:
    """An indexed project of 20 scripts whose scans now take 0.5 s each (in this process: an
    update of so few files runs no scanner process), and the event set when one starts."""
    import threading

    import indexer.build.workers as workers
    from indexer.build.update import update
    from indexer.config import Config

    from .conftest import write_project

    config = Config(workers=1)
    root = write_project(tmp_path / "P", {f"Assets/S{i}.cs": f"public class S{i} {{ }}\n" for i in range(20)})
    update(root, config)
    scanning = threading.Event()
    real = workers.process_bounded

    def slow(job: Any, packer: Any = None) -> Any:
        scanning.set()
        time.sleep(0.5)
        return real(job, packer)

    monkeypatch.setattr(workers, "process_bounded", slow)
    return root, config, scanning


def edit_all(root: Path) -> None:
    for i in range(20):
        (root / f"Assets/S{i}.cs").write_text(f"public class S{i} {{ int changed; }}\n")


def test_stopping_the_watcher_ends_the_update_in_progress_at_once(tmp_path: Path, monkeypatch) -> None:
    """Stopping the server's watcher joined its thread after "the batch in progress": a first
    build or a catch-up of a large project ran on for as long as it took. The update in progress
    now stops at its next scanned file and rolls back; the index keeps its last commit and the next
    update completes it."""
    from indexer.build.update import update
    from indexer.store.header import header_generation
    from indexer.store.schema import IndexPaths
    from mcp_adapter.server.watcher import ProjectWatcher

    root, config, scanning = slow_project(tmp_path, monkeypatch)
    generation = header_generation(IndexPaths(config.index_path(root)))
    watcher = ProjectWatcher(root, config, lambda stats: None)
    watcher.start()
    try:
        edit_all(root)
        assert scanning.wait(10)
    finally:
        t0 = time.monotonic()
        watcher.stop()
    assert time.monotonic() - t0 < 2.0, "the watcher waited for its update to end"
    monkeypatch.undo()
    assert header_generation(IndexPaths(config.index_path(root))) == generation  # rolled back
    assert update(root, config).changed == 20  # nobody holds the lock; the next update does it all


@pytest.mark.parametrize("watch", [True, False], ids=["watch", "no-watch"])
def test_ctrl_c_ends_the_server_while_a_call_waits_for_an_update(tmp_path: Path, monkeypatch, watch: bool) -> None:
    """A call waiting for the watcher's update, or running one itself in poll mode (a first build:
    15 s on SS3D), held Ctrl-C up over stdio and over HTTP: the server ends once the threads of its
    calls return, and stopped the watcher only after. SIGINT now stops the update first: it rolls
    back and the call returns."""
    import anyio
    import anyio.to_thread

    from indexer.query.workspace import open_workspace
    from mcp_adapter.server.freshness import Freshness, Stopping
    from mcp_adapter.server.live import Live
    from mcp_adapter.server.notify import Notifier

    root, config, scanning = slow_project(tmp_path, monkeypatch)
    fresh = Freshness(open_workspace(root, [(root, config)]), watch=watch)
    live = Live(fresh, Notifier())
    signalled: list[float] = []

    async def call() -> None:  # a tool's call, as the SDK runs it
        with contextlib.suppress(Stopping):  # poll mode: the call's own update was rolled back
            await anyio.to_thread.run_sync(fresh.ensure)

    async def serve() -> None:
        async with live.running(), anyio.create_task_group() as calls:
            edit_all(root)
            calls.start_soon(call)
            await anyio.to_thread.run_sync(scanning.wait, 10)
            signalled.append(time.monotonic())
            signal.raise_signal(signal.SIGINT)  # asyncio's handler cancels the server's task
            await anyio.sleep(30)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # also in a run with Ctrl-C ignored
    try:
        with pytest.raises(KeyboardInterrupt):
            anyio.run(serve)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - signalled[0] < 2.0, "the server waited for the watcher's update"
