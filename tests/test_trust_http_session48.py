"""Session 48's trust round over a real `serve --transport http`: a request id reused while in
flight refused, not left hanging."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx2 as httpx
import pytest

from .conftest import SLOW_CSHARP, mono_script, write_project
from .test_mcp_transports import _start_http

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INIT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
OPEN = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT}  # a session's first request


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("http") / "Game"
    # the slow script keeps the first build, and so the first search, in flight over a second
    return write_project(
        root, {"Assets/Spawner.cs": mono_script("Spawner", "public int hp;"), "Assets/Slow.cs": SLOW_CSHARP}
    )


def _serving(root: Path, *extra: str) -> Iterator[int]:
    proc, port = _start_http(root, "--no-watch", *extra)
    try:
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def plain(project: Path) -> Iterator[int]:
    yield from _serving(project)


def test_http_a_request_id_in_flight_reused_is_refused_and_the_first_answered(plain: int) -> None:
    """Two POSTs of one session with id 7: the SDK keyed the answer stream by id, the second took
    the first's over, and the first POST waited forever. Now the second is refused (400, -32600)
    and the first answered."""
    url = f"http://127.0.0.1:{plain}/mcp"

    async def go() -> tuple[httpx.Response, httpx.Response]:
        async with httpx.AsyncClient(timeout=60) as c:
            r = await c.post(
                url, json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT}, headers=HEADERS
            )
            session = {**HEADERS, "mcp-session-id": r.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
            await c.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=session)
            answers: dict[str, httpx.Response] = {}

            async def call(tag: str, tool: str, arguments: dict) -> None:
                body = {
                    "jsonrpc": "2.0",
                    "id": 7,
                    "method": "tools/call",
                    "params": {"name": tool, "arguments": arguments},
                }
                answers[tag] = await c.post(url, json=body, headers=session)

            with anyio.fail_after(30):
                async with anyio.create_task_group() as tg:
                    tg.start_soon(call, "first", "search", {"query": "spawner"})  # builds the index: a while
                    await anyio.sleep(0.1)
                    tg.start_soon(call, "second", "index_status", {})
            return answers["first"], answers["second"]

    first, second = anyio.run(go)
    assert second.status_code == 400
    assert second.json() == {
        "jsonrpc": "2.0",
        "id": 7,
        "error": {"code": -32600, "message": "Invalid Request: duplicate request id 7 while one is in flight"},
    }
    assert first.status_code == 200 and '"id":7' in first.text and "Assets/Spawner.cs" in first.text
