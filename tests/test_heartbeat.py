"""One heartbeat parser: the journal's trust, `doctor` and the bridge client agree on every file."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from indexer.changes.heartbeat import HeartbeatError, read_heartbeat
from indexer.changes.journal import editor_running
from indexer.cli.doctor import check_heartbeat
from mcp_adapter.editor.bridge import EditorBridge, EditorNotRunning, EditorProtocolError

GOOD = {"protocol": 1, "port": 4242, "token": "t" * 8, "pid": os.getpid(), "state": "ready"}


def write(root: Path, beat: dict | str) -> None:
    path = root / "Library/UnityIndex/editor.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(beat if isinstance(beat, str) else json.dumps(beat))


def test_a_valid_heartbeat_is_read_alike(tmp_path: Path) -> None:
    write(tmp_path, {**GOOD, "updated_at": time.time(), "unity_version": "2022.3.1f1", "extra": [1]})
    beat = read_heartbeat(tmp_path)
    assert (beat.port, beat.pid, beat.state, beat.unity_version, beat.project_path) == (
        4242,
        os.getpid(),
        "ready",
        "2022.3.1f1",
        "",
    )
    assert editor_running(tmp_path) is True
    assert check_heartbeat(tmp_path).status == "pass"
    assert EditorBridge(tmp_path).heartbeat() == beat


@pytest.mark.parametrize(
    ("beat", "code", "message"),
    [
        ({**GOOD, "pid": str(os.getpid())}, "bad_heartbeat", "Expected `int`, got `str` - at `$.pid`"),
        ({**GOOD, "port": True}, "bad_heartbeat", "Expected `int`, got `bool` - at `$.port`"),
        ({k: v for k, v in GOOD.items() if k != "token"}, "bad_heartbeat", "missing required field `token`"),
        ({**GOOD, "state": "dancing"}, "bad_heartbeat", "unknown state 'dancing'"),
        # a port no socket has: connecting to -5 was a gaierror said to be a file that cannot be
        # written, and `doctor`'s editor-reachable check failed with it; 0 and 65536 waited 10 s
        ({**GOOD, "port": -5}, "bad_heartbeat", "port -5 is not a TCP port (1-65535)"),
        ({**GOOD, "port": 0}, "bad_heartbeat", "port 0 is not a TCP port (1-65535)"),
        ({**GOOD, "port": 65536}, "bad_heartbeat", "port 65536 is not a TCP port (1-65535)"),
        # a token that cannot be sent in a header: `editor tools` ended with an internal error
        # (ValueError: Invalid header value), an MCP `editor_tools` call with the SDK's bare error
        ({**GOOD, "token": "t\r\nX-Evil: y"}, "bad_heartbeat", "the token is not 1-256 visible ASCII characters"),
        ({**GOOD, "token": "\u0100ok"}, "bad_heartbeat", "the token is not 1-256 visible ASCII characters"),
        ({**GOOD, "token": ""}, "bad_heartbeat", "the token is not 1-256 visible ASCII characters"),
        ({**GOOD, "protocol": 2, "port": "elsewhere"}, "protocol_mismatch", "speaks bridge protocol 2"),
        ([1, 2], "bad_heartbeat", "is not a JSON object"),
        ('{"protocol": 1, "pid"', "bad_heartbeat", "is not valid JSON"),
    ],
)
def test_a_bad_heartbeat_is_refused_by_all_three(tmp_path: Path, beat: dict | str, code: str, message: str) -> None:
    if isinstance(beat, dict):
        beat = {**beat, "updated_at": time.time()}
    write(tmp_path, beat if isinstance(beat, str) else json.dumps(beat))
    with pytest.raises(HeartbeatError) as info:
        read_heartbeat(tmp_path)
    assert info.value.code == code and message in info.value.message
    assert editor_running(tmp_path) is False  # the journal is not trusted
    check = check_heartbeat(tmp_path)
    assert check.status == "fail" and message in check.detail
    with pytest.raises(EditorProtocolError) as err:
        EditorBridge(tmp_path).heartbeat()
    assert err.value.code == code and message in err.value.message


@pytest.mark.parametrize("pid", [2**63, 10**20, 2**32])
def test_a_heartbeat_naming_a_pid_no_process_can_have_is_of_a_dead_editor(tmp_path: Path, pid: int) -> None:
    """`os.kill` raised OverflowError for a pid past a C long: `doctor` and `editor tools` ended
    with an internal error, and `serve` died at its first read of the heartbeat."""
    write(tmp_path, {**GOOD, "pid": pid, "updated_at": time.time()})
    assert read_heartbeat(tmp_path).pid == pid
    assert editor_running(tmp_path) is False
    check = check_heartbeat(tmp_path)
    assert (check.status, check.detail) == (
        "warn",
        f"{tmp_path / 'Library/UnityIndex/editor.json'} was left by an editor that no longer runs (pid {pid})",
    )
    with pytest.raises(EditorNotRunning) as err:
        EditorBridge(tmp_path).heartbeat()
    assert err.value.code == "editor_not_running"
