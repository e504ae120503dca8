"""Promises of the docs and module docstrings checked by the seventh hostile tester (session 44).

Went through docs/cli.md, mcp.md, configuration.md, editor-bridge.md, indexing.md and the module
docstrings of mcp_adapter/, indexer/cli/, indexer/build/ and indexer/store/; almost every
concrete promise already had its test. Found and fixed: a `reloading` heartbeat dated ahead of
this machine's clock was trusted for ever (`heartbeat.unrefreshed` checked "dated ahead" only
for the other states), so every editor call waited its whole `reload_wait` and `doctor` passed
it, where the docstring says such a file must not look fresh for ever. Added: the MCP SDK stays
unloaded by the adapter's other commands (`editor`, `mcp install`), as mcp_adapter/cli.py says.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from indexer.changes.heartbeat import unrefreshed
from mcp_adapter.editor.bridge import EditorBridge, EditorUnavailable

from .test_corruption import deadline

REPO = Path(__file__).resolve().parent.parent


def _beat(project: Path, **fields: Any) -> None:
    beat = {"protocol": 1, "port": 1, "token": "t" * 64, "pid": os.getpid(), "state": "ready"}
    path = project / "Library" / "UnityIndex" / "editor.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**beat, "updated_at": time.time(), **fields}))


def test_a_reloading_heartbeat_dated_ahead_of_the_clock_is_stale_at_once(tmp_path: Path) -> None:
    """indexer/changes/heartbeat.py: a heartbeat dated more than `stale_after` ahead of this
    machine's clock (another clock's, or planted) "would otherwise look fresh for ever". In state
    `reloading` it did: every editor call waited out its whole `reload_wait` (30 s) before failing,
    for as long as the date stayed ahead, and doctor's `editor-heartbeat` passed it."""
    _beat(tmp_path, state="reloading", updated_at=time.time() + 3600)
    with deadline(20), pytest.raises(EditorUnavailable) as info:
        EditorBridge(tmp_path).heartbeat()
    assert info.value.code == "stale_heartbeat"
    assert "ahead of this machine's clock" in str(info.value)
    assert "ahead" in unrefreshed(-3600, "reloading")
    # a reload of a minute or two, or a beat a few seconds ahead, is still waited for
    assert unrefreshed(-5, "reloading") == unrefreshed(120, "reloading") == ""


def test_the_adapter_s_other_commands_never_import_the_mcp_sdk(tmp_path: Path) -> None:
    """mcp_adapter/cli.py: "The MCP SDK is imported only when serving": `editor tools`, `editor
    call`, `mcp install` and a `serve` refused before it starts (a bad --port, a remote host
    without a token) start without it (the test of test_promises_mcp.py covers indexer's own)."""
    root = tmp_path / "Game"
    for folder in ("Assets", "ProjectSettings"):
        (root / folder).mkdir(parents=True)
    script = (
        "import sys, json\nfrom indexer.cli.main import main\n"
        "for argv in json.loads(sys.argv[1]):\n"
        "    try:\n        main([*argv, '--project', sys.argv[2]])\n"
        "    except SystemExit:\n        pass\n"
        "print('LOADED:' + ','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'pydantic'))))\n"
    )
    argvs = [
        ["editor", "tools"],
        ["editor", "call", "scene_hierarchy", "--args", "{}"],
        ["mcp", "install", "--client", "cursor", "--dry-run"],
        ["serve", "--transport", "http", "--host", "0.0.0.0"],
    ]
    env = {**os.environ, "HOME": str(tmp_path / "home")}
    r = subprocess.run(
        [sys.executable, "-c", script, json.dumps(argvs), str(root)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert r.returncode == 0, r.stderr
    assert "No Unity editor is serving" in r.stderr  # the editor commands ran, and refused
    assert '"mcpServers"' in r.stdout  # so did the installer
    assert r.stdout.strip().splitlines()[-1] == "LOADED:"
