"""Reading the Unity editor's change journal (`Library/UnityIndex/journal.jsonl`).

Format and reading rules: docs/editor-bridge.md. The journal only ever lets the indexer skip the
walk: whenever it could be incomplete, the caller walks the project instead. The consumer's
position (session, seq, byte offset after the last consumed line) lives in the index folder.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec

from indexer.changes.heartbeat import editor_alive
from indexer.files import atomic_write, read_regular, read_state
from indexer.store.schema import IndexPaths

JOURNAL_FILE = "Library/UnityIndex/journal.jsonl"
POSITION_FILE = "journal.pos"
MAX_READ_BYTES = 64 * 1024 * 1024


class Position(msgspec.Struct, frozen=True):
    session: str
    seq: int
    offset: int


class JournalRead(msgspec.Struct):
    continuous: bool  # every change since the remembered position is in `paths`
    paths: set[str]  # project paths the lines name (imported, deleted, both sides of moves)
    end: Position | None  # after the last complete line of the file; None: no journal
    reason: str = ""  # why the journal could be incomplete


def journal_path(root: Path) -> Path:
    return root / JOURNAL_FILE


def editor_running(root: Path) -> bool:
    """Whether the editor's heartbeat names a live process. The journal's paths are added only
    then: a journal of an editor that quit or crashed is stale, whatever its lines say."""
    return editor_alive(root)


def load_position(paths: IndexPaths) -> Position | None:
    try:
        return msgspec.json.decode(read_state(paths.root / POSITION_FILE), type=Position)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None


def save_position(paths: IndexPaths, pos: Position) -> None:
    atomic_write(paths.root / POSITION_FILE, msgspec.json.encode(pos), follow_symlinks=False)


def _parse(line: bytes) -> dict | None:
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(obj, dict) or obj.get("v") != 1:
        return None
    if not isinstance(obj.get("session"), str) or not isinstance(obj.get("seq"), int):
        return None
    return obj


def _last_position(data: bytes, base: int) -> Position | None:
    """The position after the last complete line of `data` (read from byte `base`)."""
    end = data.rfind(b"\n")
    if end < 0:
        return None
    start = data.rfind(b"\n", 0, end) + 1
    obj = _parse(data[start:end])
    if obj is None:
        return Position("", -1, base + end + 1)  # unusable line: the next read is not continuous
    return Position(obj["session"], obj["seq"], base + end + 1)


def read_journal(journal: Path, remembered: Position | None) -> JournalRead:
    """The changes listed since `remembered`, and whether they are all the changes (rules 1-6).
    Read from the remembered line on, at most MAX_READ_BYTES at a time: past that the read is not
    continuous, and the position advances to the last line read, so a long editor session's
    journal is taken in turns rather than its first bytes forever."""
    start = max(remembered.offset - 1, 0) if remembered is not None else 0
    try:
        data = read_regular(journal, MAX_READ_BYTES + 1, offset=start)
    except FileNotFoundError:
        return JournalRead(False, set(), None, "no journal")
    except OSError as exc:
        return JournalRead(False, set(), None, f"unreadable journal: {exc.strerror or exc}")
    whole = len(data) <= MAX_READ_BYTES
    data = data[:MAX_READ_BYTES]
    tail = _last_position(data, start)

    def incomplete(reason: str) -> JournalRead:
        return JournalRead(False, set(), tail, reason)

    if remembered is None:
        return incomplete("no position remembered")
    if remembered.offset > 0 and data[:1] != b"\n":  # read again from the start, for its end
        why = "journal truncated or replaced" if not data else "the remembered offset is not at a line start"
        return msgspec.structs.replace(read_journal(journal, None), reason=why)
    if not whole:
        return incomplete(f"over {MAX_READ_BYTES >> 20} MiB of journal to read")
    chunk = data[1:] if remembered.offset > 0 else data
    complete = chunk[: chunk.rfind(b"\n") + 1]
    session, seq = remembered.session, remembered.seq
    changed: set[str] = set()
    for raw in complete.splitlines():
        obj = _parse(raw)
        if obj is None:
            return incomplete("unreadable journal line")
        if obj.get("op") == "start":
            if obj.get("prev_session") != session or obj.get("prev_seq") != seq:
                return incomplete(f"editor session {obj['session']} does not continue {session}:{seq}")
        elif obj["session"] != session or obj["seq"] != seq + 1:
            return incomplete(f"gap after {session}:{seq}")
        else:
            for key in ("path", "from"):
                value = obj.get(key)
                if isinstance(value, str) and value:
                    changed.add(value.replace("\\", "/").strip("/"))
        session, seq = obj["session"], obj["seq"]
    end = Position(session, seq, remembered.offset + len(complete))
    return JournalRead(True, changed, end)
