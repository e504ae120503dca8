"""Attack 9 of session 45: cases an earlier attacker noticed and left, each test failing before its fix.

- MCP `prompts/get` of an unknown prompt was code 0 (2025 era) or -32603 with a traceback in the
  log (2026 era); it is -32602 naming the prompts there are.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from .conftest import REPO
from .test_mcp_server import make_server, run
from .test_mcp_transports import _env

INIT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "printf", "version": "1"}}
HEALTH = "Assets/Scripts/Combat/Health.cs"


def _stdio(root: Path, lines: list[object]) -> list[dict]:
    cmd = [sys.executable, "-m", "indexer.cli", "serve", "--project", str(root), "--no-watch"]
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=REPO, env=_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def _session(*requests: dict) -> list[object]:
    opening = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": INIT},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    return [*opening, *({"jsonrpc": "2.0", "id": i + 1, **r} for i, r in enumerate(requests))]


# -- 2. prompts/get of an unknown prompt -----------------------------------------------------------


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_an_unknown_prompt_is_invalid_params_naming_the_prompts(indexed_fixture: Path, mode: str) -> None:
    async def go():
        async with Client(make_server(indexed_fixture), mode=mode) as c:
            with pytest.raises(MCPError) as caught:
                await c.get_prompt("unity_tsak", {"task": "x"})
            return caught.value.error

    error = run(go)
    assert (error.code, error.message) == (-32602, "unknown prompt 'unity_tsak': the prompts are unity_task")


def test_an_unknown_prompt_over_stdio(indexed_fixture: Path) -> None:
    answers = _stdio(indexed_fixture, _session({"method": "prompts/get", "params": {"name": "nope"}}))
    assert answers[1]["id"] == 1
    assert answers[1]["error"]["code"] == -32602
    assert answers[1]["error"]["message"] == "unknown prompt 'nope': the prompts are unity_task"
