"""The editor monitor of `serve`: a failure reading one project's editor is logged, never the end
of the server (whose index tools never need the editor)."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

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
