"""The one reader of the Unity editor's heartbeat (`<project>/Library/UnityIndex/editor.json`).

The editor package rewrites it every 2 s (docs/editor-bridge.md). The journal trusts its changes
only while it names a live editor, `doctor` reports on it, and the MCP adapter's bridge client
finds the editor's port and token in it: all three read it here.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import msgspec

from indexer.changes.processes import pid_alive
from indexer.files import read_regular
from indexer.model import Heartbeat

HEARTBEAT_FILE = Path("Library") / "UnityIndex" / "editor.json"
PROTOCOL = 1
STATES = ("ready", "compiling", "reloading", "playing", "paused")
# Five missed beats (one every 2 s) and an editor that is not reloading is not answering.
STALE_AFTER = 10.0
# A domain reload writes no beat; a large project's takes a minute or two, none takes five.
RELOAD_STALE_AFTER = 300.0
PACKAGE_NAME = "com.unityindex.bridge"
_TOKEN = re.compile(r"[!-~]{1,256}")  # the editor writes 64 hex digits


def unrefreshed(age: float, state: str, stale_after: float = STALE_AFTER) -> str:
    """Why a live editor's heartbeat of this age (seconds; negative: dated ahead) is not being
    refreshed, or '' when it is: older than `stale_after` and not reloading (RELOAD_STALE_AFTER
    when reloading: a hung reload passed for ever), or dated more than
    `stale_after` ahead of this machine's clock (written under another clock, or planted: such a
    file would otherwise look fresh for ever; one reloading too, which every call waited out)."""
    if age < -stale_after:
        return f"is dated {-age:.0f} s ahead of this machine's clock"
    if state == "reloading":  # no beats while the domain reloads; one longer than minutes is stuck
        return f"has been reloading for {age:.0f} s" if age > RELOAD_STALE_AFTER else ""
    if age > stale_after:
        return f"has not been refreshed for {age:.0f} s"
    return ""


class HeartbeatError(Exception):
    """The heartbeat cannot be used. `code`: missing, unreadable, bad_heartbeat or protocol_mismatch."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class _Probe(msgspec.Struct):
    """The protocol alone, checked first: another protocol may lay out the other fields differently."""

    protocol: Any = None


def heartbeat_path(root: str | os.PathLike[str]) -> Path:
    return Path(root) / HEARTBEAT_FILE


def parse_heartbeat(data: bytes, path: Path) -> Heartbeat:
    """Decode and check a heartbeat's bytes (`path` only names it in messages)."""
    try:
        protocol = msgspec.json.decode(data, type=_Probe).protocol
    except msgspec.DecodeError as exc:
        if isinstance(exc, msgspec.ValidationError):
            raise HeartbeatError("bad_heartbeat", f"{path} is not a JSON object") from None
        why = f"{path} is not valid JSON ({exc}); delete it if no editor runs"
        raise HeartbeatError("bad_heartbeat", why) from None
    except RecursionError:
        raise HeartbeatError("bad_heartbeat", f"{path} is not valid JSON (nested too deep)") from None
    if protocol != PROTOCOL or isinstance(protocol, bool):
        raise HeartbeatError(
            "protocol_mismatch",
            f"{path} speaks bridge protocol {protocol!r}, this unity-index speaks {PROTOCOL}: "
            f"update the {PACKAGE_NAME} package or unity-index so both match",
        )
    try:
        beat = msgspec.json.decode(data, type=Heartbeat)
    except msgspec.ValidationError as exc:
        raise HeartbeatError("bad_heartbeat", f"{path}: {exc}") from None
    if beat.state not in STATES:
        raise HeartbeatError("bad_heartbeat", f"{path}: unknown state {beat.state!r}")
    if not 1 <= beat.port <= 65535:
        raise HeartbeatError("bad_heartbeat", f"{path}: port {beat.port} is not a TCP port (1-65535)")
    if not _TOKEN.fullmatch(beat.token):  # it is sent in a header: `Authorization: Bearer <token>`
        raise HeartbeatError("bad_heartbeat", f"{path}: the token is not 1-256 visible ASCII characters")
    return beat


def read_heartbeat(root: str | os.PathLike[str]) -> Heartbeat:
    """The project's heartbeat; HeartbeatError (code `missing` when there is none) otherwise."""
    path = heartbeat_path(root)
    try:
        data = read_regular(path)
    except FileNotFoundError:
        raise HeartbeatError("missing", f"{path} does not exist") from None
    except OSError as exc:
        raise HeartbeatError("unreadable", f"cannot read {path}: {exc.strerror or exc}") from None
    return parse_heartbeat(data, path)


def editor_alive(root: str | os.PathLike[str]) -> bool:
    """Whether a valid heartbeat names a live process (however old the heartbeat is)."""
    try:
        return pid_alive(read_heartbeat(root).pid)
    except HeartbeatError:
        return False
