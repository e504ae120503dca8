"""Attack 8 of session 44: the MCP adapter as a hostile client drives it.

Found, each test failing before its fix (docs/mcp.md):

- stdio: a request whose `id` was fine but whose other fields JSON-RPC or MCP does not allow
  (`params` an array or a string, `"jsonrpc": "1.0"` or none, `method` a number) was answered
  with a parse error (-32700) and a null `id`: the client, waiting for an answer to its id, waited
  for ever. A batch (a JSON array) and a JSON scalar were parse errors too, with pydantic's
  "4 validation errors for union[JSONRPCRequest, ...]" as the message. They are JSON-RPC's
  invalid request (-32600), with the request's id, and a sentence saying what is wrong.
- the `unity_task` prompt with an argument it does not take (`{"task": ..., "extra": ...}`)
  was code 0 "Error rendering prompt unity_task", and pydantic's traceback on stderr; a tool
  ignores such a name, and so does the prompt now.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from mcp import Client

from .conftest import REPO
from .test_mcp_server import make_server, run
from .test_mcp_transports import _env

INIT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "printf", "version": "1"}}


def _stdio(root: Path, lines: list[object]) -> list[dict]:
    cmd = [sys.executable, "-m", "indexer.cli", "serve", "--project", str(root), "--no-watch"]
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=REPO, env=_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_stdio_answers_a_malformed_request_with_its_own_id(indexed_fixture: Path) -> None:
    """Each malformed request gets -32600 with its id (it was -32700 with id null, and a client
    waiting for its id never had an answer); a batch and a scalar get -32600 with id null."""
    malformed = [
        {"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": []},
        {"jsonrpc": "2.0", "id": 11, "method": "ping", "params": "x"},
        {"jsonrpc": "1.0", "id": 12, "method": "ping"},
        {"id": 13, "method": "ping"},
        {"jsonrpc": "2.0", "id": "m", "method": 5},
    ]
    batch = [{"jsonrpc": "2.0", "id": 20, "method": "ping"}, {"jsonrpc": "2.0", "id": 21, "method": "ping"}]
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        *malformed,
        batch,
        42,
        {"jsonrpc": "2.0", "id": "last", "method": "ping"},
    ]
    answers = _stdio(indexed_fixture, lines)
    errors = [(a["id"], a["error"]["code"]) for a in answers if "error" in a]
    assert errors == [(i, -32600) for i in (10, 11, 12, 13, "m", None, None)]
    messages = [a["error"]["message"] for a in answers if "error" in a]
    assert messages[0] == "Invalid Request: `params` must be an object (MCP names every parameter)"
    assert messages[2] == messages[3] == 'Invalid Request: `jsonrpc` must be "2.0"'
    assert messages[4] == "Invalid Request: `method` must be a string"
    assert "batches are not supported" in messages[5]
    assert not any("validation error" in m for m in messages)
    assert [a["id"] for a in answers if "result" in a] == [1, "last"]


def test_the_prompt_ignores_an_argument_it_does_not_take(indexed_fixture: Path) -> None:
    """As a tool does; it was code 0 "Error rendering prompt unity_task"."""

    async def go():
        async with Client(make_server(indexed_fixture), mode="legacy") as c:
            return await c.get_prompt("unity_task", {"task": "add a shield", "budget": "500", "extra": "y"})

    prompt = run(go)
    text = prompt.messages[0].content.text
    assert text.startswith("Task: add a shield\n") and "Next steps:" in text
