"""Attack round 24 (session 57): what broke (docs/indexing.md, "Bad input", lists what held).

1. `context` of a project whose `Packages/manifest.json` holds one string of 49 MB (a package's
   version) peaked at 810 MB resident: the overview's package line was counted by the token
   estimate, which listed its 8.5 million pieces (`findall`) only to count them. A long text is
   now counted piece by piece without the list: 257 MB, the pieces' count the same.
2. The MCP `refresh` while another process held the index's writer lock answered "no update ran"
   and nothing more: not who writes, nor, when that process is suspended (Ctrl-Z, `kill -STOP`),
   that nothing will be written until it is resumed or ended, which the CLI's `index` and every
   other tool's note say. It now says who holds the lock, in the words of the CLI.

Each test failed before its fix (said in each)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import anyio
import pytest

from indexer.query import tokens

from .conftest import REPO, copy_fixture


def test_a_long_text_is_counted_without_listing_its_pieces() -> None:
    """Before: 1.2 MB of one word peaked at 13 MB of Python objects (a list of 200,000 strings)."""
    text = "1." + "x" * 1_200_000
    tracemalloc.start()
    try:
        count = tokens.estimate(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 2 + 200_000  # "1", ".", then six "x" a piece
    assert peak < 1_000_000
    code = "public int health = 10;  // hit points\n  void Die() { }\n" * 3000  # past LISTED_UP_TO
    assert len(code) > tokens.LISTED_UP_TO
    assert tokens.estimate(code) == len(tokens._TOKEN_PIECE.findall(code)) == 17 * 3000


HOLD = (
    "import sys, time; from pathlib import Path; from indexer.store.lock import writer_lock;"
    "from indexer.store.schema import IndexPaths\nwith writer_lock(IndexPaths(Path(sys.argv[1]))):\n"
    "    print('held', flush=True); time.sleep(120)"
)


def _stopped(pid: int) -> None:
    for _ in range(100):  # a hang guard: the state changes at once
        if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "Tt":
            return
        time.sleep(0.05)


def indexed_server(tmp_path: Path, watch: bool):
    """(root, index folder, MCP server) of an indexed copy of the fixture, for a test of a process
    holding the writer lock whose state is read from /proc (skipped where there is none)."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace, projects_at
    from mcp_adapter.server.app import create_server

    if not Path("/proc/self/stat").exists():
        pytest.skip("the process state is read from /proc")
    root = copy_fixture(tmp_path / "Game")
    update(root, Config(workers=1))
    server = create_server(open_workspace(root, projects_at(root)), refresh_interval=0, watch=watch)
    return root, Config().index_path(root), server


@pytest.mark.parametrize("watch", [False, True])
def test_refresh_says_who_holds_the_writer_lock_and_that_it_is_stopped(
    tmp_path: Path, watch: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: "no update ran", in both modes, the holder suspended or not."""
    from mcp import Client

    from mcp_adapter.server import freshness

    monkeypatch.setattr(freshness, "FORCED_WAIT", 1.0)  # poll mode's wait for the lock (10 s)

    root, index, server = indexed_server(tmp_path, watch)
    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(index)], stdout=subprocess.PIPE, text=True, env=env)

    async def go() -> list[str]:
        with anyio.fail_after(60):
            return await calls()

    async def calls() -> list[str]:
        async with Client(server) as c:
            await c.call_tool("index_status", {})  # the watcher runs and the index is current
            (root / "Assets/Zanzibar.cs").write_text("public class Zanzibar { }\n")
            said = [(await c.call_tool("refresh", {})).content[0].text]
            holder.send_signal(signal.SIGSTOP)
            _stopped(holder.pid)
            said.append((await c.call_tool("refresh", {})).content[0].text)
            return said

    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        running, stopped = anyio.run(go)
    finally:
        holder.kill()
        holder.wait()
    kept = "; the index keeps its last committed state (the changes are applied once that process is done)"
    assert running == f"no update ran: unity-index process {holder.pid} is updating the index at {index}{kept}"
    assert stopped == (
        f"no update ran: unity-index process {holder.pid} is stopped (suspended, as Ctrl-Z does) while updating"
        f" the index at {index}: resume it (`kill -CONT {holder.pid}`, or `fg` in its terminal) or end it{kept}"
    )
