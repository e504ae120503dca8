"""Session 48's trust round over a real `serve --transport http`: a web page's Origin refused
unless listed (`--allow-origin`), and a request id reused while in flight refused, not left
hanging."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx2 as httpx
import pytest

from .conftest import SLOW_CSHARP, mono_script, run_cli, write_project
from .test_mcp_transports import _start_http

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INIT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
OPEN = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT}  # a session's first request
PAGE = "http://localhost:5173"  # a local dev server's page


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


@pytest.fixture(scope="module")
def listing(project: Path) -> Iterator[int]:
    yield from _serving(project, "--allow-origin", PAGE, "--allow-origin", "https://Tools.Example/")


def _post(port: int, origin: str | None, body: dict = OPEN) -> httpx.Response:
    headers = {**HEADERS, **({"Origin": origin} if origin else {})}
    return httpx.post(f"http://127.0.0.1:{port}/mcp", json=body, headers=headers, timeout=30)


def test_a_web_page_on_another_localhost_port_is_refused_by_default(plain: int) -> None:
    """The SDK's loopback default accepted any `http://localhost:*` or `http://127.0.0.1:*` Origin:
    any local page could drive the server. MCP clients send no Origin, and are answered."""
    assert _post(plain, None).status_code == 200
    for origin in (PAGE, "http://127.0.0.1:9999", "http://[::1]:3000", "null", "http://evil.example"):
        r = _post(plain, origin)
        assert r.status_code == 403, (origin, r.status_code, r.text)
    assert f"unity-index serve --allow-origin {PAGE}" in _post(plain, PAGE).text


def test_allow_origin_lets_the_listed_pages_in_with_their_preflight(listing: int) -> None:
    """Each `--allow-origin` is accepted (written as browsers send it: lowercase, no slash), its
    CORS preflight answered; any other origin is still refused."""
    assert _post(listing, PAGE).status_code == 200
    assert _post(listing, "https://tools.example").status_code == 200
    assert _post(listing, "http://localhost:3000").status_code == 403
    preflight = {
        "Origin": PAGE,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, mcp-session-id",
    }
    r = httpx.options(f"http://127.0.0.1:{listing}/mcp", headers=preflight)
    assert r.status_code == 200 and r.headers["access-control-allow-origin"] == PAGE
    assert "mcp-session-id" in r.headers["access-control-allow-headers"].lower()


def test_allow_origin_that_is_no_origin_is_a_usage_error(project: Path) -> None:
    r = run_cli("serve", "--project", str(project), "--transport", "http", "--allow-origin", "localhost:5173/app")
    assert r.returncode == 2
    assert "--allow-origin takes an origin as a browser sends it, scheme://host[:port]" in r.stderr, r.stderr


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


def test_http_a_body_past_the_sdks_limit_is_passed_on_for_it_to_refuse(plain: int) -> None:
    """http_guards.MAX_BODY: the id guard reads at most the SDK's own limit of a session's POST;
    a longer one is passed on unread, with what was read replayed, and the SDK refuses it (413)
    at once, neither hanging nor taken for a duplicate."""
    from mcp_adapter.http_guards import MAX_BODY

    url = f"http://127.0.0.1:{plain}/mcp"
    with httpx.Client(timeout=30) as c:
        r = c.post(url, json=OPEN, headers=HEADERS)
        session = {**HEADERS, "mcp-session-id": r.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
        big = {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "search", "arguments": {}}}
        big["params"]["arguments"]["query"] = "x" * (MAX_BODY + 1024)
        answers = [c.post(url, json=big, headers=session) for _ in range(2)]
    assert [a.status_code for a in answers] == [413, 413]
