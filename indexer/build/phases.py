"""Cheap wall-clock timers by phase, recorded into `UpdateStats.phases`, so the cost of every
step of a real build can be read from its own stats (the benchmark suite reports them as is)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

# The order phases happen in; what `index --json` and docs/performance.md list them by.
INDEXER_PHASES = ("walk", "scan_wait", "write", "roles", "adjacency", "commit", "remember")
WORKER_PHASES = ("read", "scan", "documents")  # CPU seconds summed over the scanner processes


class Phases:
    """Seconds by phase name; `timed(name)` adds a block's wall time to its phase. Every phase is
    there from the start, in the order above (0.0 for one that does not run): a reader of
    `index --json` finds the same ten keys in every update, a no-op one too."""

    def __init__(self, into: dict[str, float]) -> None:
        for name in (*INDEXER_PHASES, *WORKER_PHASES):
            into.setdefault(name, 0.0)
        self.seconds = into

    def add(self, name: str, seconds: float) -> None:
        self.seconds[name] = self.seconds.get(name, 0.0) + seconds

    @contextmanager
    def timed(self, name: str) -> Iterator[None]:
        t = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - t)
