"""Session 48's trust round: an object's name several KB long said in a bounded line everywhere
(CLI and MCP) while search still finds it by every word of it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client

from .conftest import REPO, SLOW_CSHARP, data_asset, meta, mono_script, run_cli, script_prefab, write_project

SCRIPT = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
LONG = "Dragon Spawner " + " ".join(["lorem ipsum dolor"] * 240) + " zanzibar"  # 4,343 characters
NOTE = "(4,343 characters)"
WIDEST = 300  # no line of any answer is wider


def _scene() -> str:
    """A scene whose root object has the long name and one child, `Muzzle`, carrying the script."""
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        "--- !u!1 &100\nGameObject:\n  m_Component:\n  - component: {fileID: 101}\n"
        f"  m_Name: {LONG}\n  m_IsActive: 1\n"
        "--- !u!4 &101\nTransform:\n  m_GameObject: {fileID: 100}\n  m_Children:\n  - {fileID: 201}\n"
        "  m_Father: {fileID: 0}\n"
        "--- !u!1 &200\nGameObject:\n  m_Component:\n  - component: {fileID: 201}\n  - component: {fileID: 202}\n"
        "  m_Name: Muzzle\n  m_IsActive: 1\n"
        "--- !u!4 &201\nTransform:\n  m_GameObject: {fileID: 200}\n  m_Children: []\n  m_Father: {fileID: 101}\n"
        "--- !u!114 &202\nMonoBehaviour:\n  m_GameObject: {fileID: 200}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {SCRIPT}, type: 3}}\n  m_Name: \n  hp: 5\n"
    )


@pytest.fixture(scope="module")
def long_named(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose scene object, prefab root and data asset each bear the 4,343-character name."""
    root = tmp_path_factory.mktemp("long") / "Game"
    return write_project(
        root,
        {
            "Assets/Spawner.cs": mono_script("Spawner", "public int hp;"),
            "Assets/Spawner.cs.meta": meta(SCRIPT),
            "Assets/Level.unity": _scene(),
            "Assets/Level.unity.meta": meta("b1b2c3d4e5f60718293a4b5c6d7e8f90", "DefaultImporter"),
            "Assets/Boss.prefab": script_prefab(LONG, SCRIPT),
            "Assets/Boss.prefab.meta": meta("c1b2c3d4e5f60718293a4b5c6d7e8f90", "PrefabImporter"),
            "Assets/Data.asset": data_asset(SCRIPT, LONG, "  hp: 3\n"),
            "Assets/Data.asset.meta": meta("d1b2c3d4e5f60718293a4b5c6d7e8f90", "NativeFormatImporter"),
        },
    )


def _bounded(text: str) -> None:
    wide = [len(line) for line in text.splitlines() if len(line) > WIDEST]
    assert not wide, f"lines of {wide} characters"
    assert LONG[:300] not in text


def _strings(value: object) -> list[str]:
    """Every string a JSON answer holds (its values, in lists and objects)."""
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [s for item in items for s in _strings(item)]


def _bounded_json(answer: object) -> None:
    wide = [s[:120] for s in _strings(answer) if len(s) > WIDEST and "\n" not in s]
    assert not wide, f"strings too wide: {wide}"
    _bounded("\n".join(_strings(answer)))


@pytest.mark.parametrize(
    "args",
    [
        ("describe", "Assets/Level.unity"),
        ("describe", "Assets/Boss.prefab"),
        ("describe", "Assets/Data.asset"),
        ("refs", "Spawner"),
        ("query", "dragon spawner"),
        ("context", "dragon spawner muzzle", "--budget", "4000"),
    ],
)
def test_a_name_of_4000_characters_is_cut_with_its_length_said(long_named: Path, args: tuple[str, ...]) -> None:
    """Each was printed whole: a line of 4,347 characters per object (describe, refs' usage lines,
    the hit's name, the pack's outline). Now cut at 100 characters with how long it was."""
    r = run_cli(*args, "--project", str(long_named))
    assert r.returncode == 0, r.stderr
    _bounded(r.stdout)
    assert "Dragon Spawner lorem ipsum dolor lorem" in r.stdout and NOTE in r.stdout, r.stdout


def test_the_cut_name_is_still_found_by_its_last_word(long_named: Path) -> None:
    """`zanzibar`, the name's last word, is thousands of characters past the cut: search reads the
    file's text, so the three files bearing the name are found by it; the cut's note is no word
    of the object's."""
    r = run_cli("query", "zanzibar", "--json", "--project", str(long_named))
    assert r.returncode == 0, r.stderr
    answer = json.loads(r.stdout)
    paths = [h["path"] for h in answer["results"]]
    assert {"Assets/Level.unity", "Assets/Boss.prefab", "Assets/Data.asset"} <= set(paths[:3])
    _bounded_json(answer)
    r = run_cli("query", "characters", "--json", "--project", str(long_named))  # the note's word: no name's
    assert json.loads(r.stdout)["results"] == [], r.stdout


def test_mcp_answers_say_the_long_name_cut(long_named: Path) -> None:
    """The MCP tools' text and structured content alike."""
    from indexer.query.workspace import open_workspace, projects_at
    from mcp_adapter.server.app import create_server

    server = create_server(open_workspace(long_named, projects_at(long_named)), refresh_interval=0)
    calls = [
        ("search", {"query": "dragon spawner"}),
        ("describe", {"target": "Assets/Level.unity"}),
        ("describe", {"target": "Assets/Data.asset"}),
        ("find_references", {"target": "Spawner"}),
        ("get_context", {"task": "dragon spawner muzzle", "budget": 4000}),
    ]

    async def go() -> list:
        async with Client(server) as c:
            return [await c.call_tool(name, arguments) for name, arguments in calls]

    for (name, _), result in zip(calls, anyio.run(go), strict=True):
        assert not result.is_error, (name, result.content)
        said = result.content[0].text
        _bounded(said)
        _bounded_json(result.structured_content)
        assert NOTE in said, (name, said)


INIT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}


def _serve_stdio(root: Path, messages: list[dict]) -> list[dict]:
    """`serve` over stdio given raw JSON-RPC lines, then EOF, as `printf ... | unity-index serve`."""
    stdin = "".join(json.dumps(m) + "\n" for m in messages)
    cmd = [sys.executable, "-m", "indexer.cli", "serve", "--project", str(root), "--no-watch"]
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    return [m for line in r.stdout.splitlines() if "id" in (m := json.loads(line))]  # answers, no notifications


def _call(request_id: str | int, tool: str, arguments: dict) -> dict:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    }


def test_stdio_a_duplicate_request_id_in_flight_is_refused_and_every_request_answered(tmp_path: Path) -> None:
    """Two `tools/call` with id 7 in flight: the SDK ran both and answered each under id 7, and the
    second went unanswered when stdin closed (its wait for answers counted ids, not requests). Now
    the first is answered and the duplicate refused (-32600, naming the id)."""
    files = {"Assets/Spawner.cs": mono_script("Spawner", "public int hp;"), "Assets/Slow.cs": SLOW_CSHARP}
    root = write_project(tmp_path / "Game", files)  # the slow script: the first build takes a second or more
    answers = _serve_stdio(
        root,
        [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            _call(7, "search", {"query": "spawner"}),  # builds the index first: in flight a while
            _call(7, "index_status", {}),
        ],
    )
    assert sorted(a["id"] for a in answers) == [1, 7, 7], answers
    sevens = [a for a in answers if a["id"] == 7]
    refused = [a["error"] for a in sevens if "error" in a]
    assert refused == [{"code": -32600, "message": "Invalid Request: duplicate request id 7 while one is in flight"}]
    answered = next(a["result"] for a in sevens if "result" in a)
    assert answered["structuredContent"]["results"][0]["path"] == "Assets/Spawner.cs"
