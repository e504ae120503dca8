"""One version, from the package metadata: `unity-index --version`, `doctor` (tests/test_doctor.py)
and the MCP server's `serverInfo.version`."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import anyio
from mcp import Client

from indexer.query.workspace import open_workspace, projects_at
from mcp_adapter.server.app import create_server

from .conftest import run_cli

VERSION = importlib.metadata.version("unity-index")


def test_cli_version() -> None:
    assert VERSION and VERSION != "0+unknown"
    r = run_cli("--version")
    assert (r.returncode, r.stdout, r.stderr) == (0, f"unity-index {VERSION}\n", "")


def test_mcp_server_info_version(indexed_fixture: Path) -> None:
    server = create_server(open_workspace(indexed_fixture, projects_at(indexed_fixture)), watch=False)

    async def go():
        async with Client(server, mode="legacy") as c:
            return c.server_info

    info = anyio.run(go)
    assert (info.name, info.version) == ("unity-index", VERSION)
