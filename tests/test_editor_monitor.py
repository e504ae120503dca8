"""The editor monitor of `serve`: a failure reading one project's editor is logged, never the end
of the server (whose index tools never need the editor)."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from mcp_adapter.editor.bridge import EditorProtocolError
from mcp_adapter.editor.live import EditorMonitor, EditorView


class Broken:
    """A bridge whose heartbeat read fails with a bug (not one of the bridge's own errors)."""

    def heartbeat(self) -> Any:
        raise RuntimeError("a bug reading the heartbeat")


def test_a_bug_in_the_first_look_at_the_editor_is_logged_and_the_monitor_runs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The first poll ran outside the guard of the later ones: its exception left the server's
    lifespan, and `serve` ended with an internal error before answering any call (an
    OverflowError for a heartbeat naming pid 10**20 did)."""
    project: Any = SimpleNamespace(root=tmp_path)
    changes: list[str] = []
    monitor = EditorMonitor([project], lambda p: Broken(), lambda *a: changes.append(a[-1]), interval=0.05)
    with caplog.at_level(logging.ERROR, logger="unity_index.mcp"):
        monitor.start()
        try:
            assert monitor.views == {str(tmp_path): EditorView()}
        finally:
            monitor.stop()
    assert changes == []
    assert "following the Unity editor failed" in caplog.text
    assert "RuntimeError: a bug reading the heartbeat" in caplog.text


class Malformed:
    """A ready editor whose tool list the client refuses (an entry that is not a tool)."""

    def heartbeat(self) -> Any:
        return SimpleNamespace(state="ready", pid=4242, token="t" * 64, unity_version="2021.3.1f1")

    def list_tools(self) -> Any:
        raise EditorProtocolError("bad_response", "the bridge's /v1/tools answer is malformed: tool 1 has no name")


def test_a_malformed_tool_list_connects_the_editor_with_no_direct_tools(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """docs/mcp.md, direct editor tools: a domain whose `/v1/tools` answer is malformed offers no
    direct tools (the client checks the list once, for every consumer); the reason is logged once
    per domain, and the editor still counts as connected (`editor_call` reaches it)."""
    project: Any = SimpleNamespace(root=tmp_path)
    changes: list[str] = []
    monitor = EditorMonitor([project], lambda p: Malformed(), lambda *a: changes.append(a[-1]), fetch_tools=True)
    with caplog.at_level(logging.WARNING, logger="unity_index.mcp"):
        monitor.poll()
        monitor.poll()
    assert changes == ["connected"]
    assert monitor.views[str(tmp_path)] == EditorView(domain=(4242, "t" * 64), unity_version="2021.3.1f1")
    assert monitor.views[str(tmp_path)].tools == ()
    assert [r.getMessage() for r in caplog.records] == [
        "the editor's tools cannot be used: the bridge's /v1/tools answer is malformed: tool 1 has no name"
    ]
