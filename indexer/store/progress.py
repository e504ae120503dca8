"""How far the update in progress is, for anyone asking while it runs (`index_status` while the
MCP server builds a first index): `progress.json` in the index folder, written by the writer at
most every `EVERY` seconds and removed when the update ends. A file whose writer is no longer
alive (a killed build) is ignored."""

from __future__ import annotations

import contextlib
import json
import os
import time
from typing import TYPE_CHECKING

from indexer.files import atomic_write, read_state
from indexer.model import BuildProgress

if TYPE_CHECKING:
    from indexer.store.schema import IndexPaths

EVERY = 0.5  # seconds between writes: a build of 50k files writes it a few hundred times


def _path(paths: IndexPaths):
    return paths.root / "progress.json"


class ProgressFile:
    """The writer's side: `step(phase, done, total)` as work is done, `close()` at the end. Made by
    the writer holding the lock, it removes the file a killed writer left: once that writer's pid
    names another process (pids are recycled), the file read as a build running for ever."""

    def __init__(self, paths: IndexPaths, rebuild: bool) -> None:
        self.paths = paths
        with contextlib.suppress(OSError):
            _path(paths).unlink(missing_ok=True)
        self.state = BuildProgress(pid=os.getpid(), rebuild=rebuild, started_at=time.time())
        self._last = time.monotonic()  # a quick update never writes the file
        self._written = False

    def step(self, phase: str, done: int = 0, total: int = 0, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last < EVERY:
            return
        self._last = now
        self.state.phase, self.state.done, self.state.total = phase, done, total
        self.state.updated_at = time.time()
        with contextlib.suppress(OSError):  # progress is a courtesy: never fail an update for it
            atomic_write(_path(self.paths), json.dumps(_as_dict(self.state)), durable=False, follow_symlinks=False)
            self._written = True

    @property
    def written(self) -> bool:
        """Whether the file is there for others to read (a quick update never writes it)."""
        return self._written

    def close(self) -> None:
        if self._written:
            with contextlib.suppress(OSError):
                _path(self.paths).unlink(missing_ok=True)


def _as_dict(p: BuildProgress) -> dict:
    import msgspec

    return msgspec.structs.asdict(p)


def read_progress(paths: IndexPaths) -> BuildProgress | None:
    """The update running now, or None (none running, or its writer died)."""
    import msgspec

    from indexer.changes.processes import pid_alive

    try:
        state = msgspec.json.decode(read_state(_path(paths)), type=BuildProgress)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None
    return state if pid_alive(state.pid) else None
