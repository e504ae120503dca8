"""Timing primitives: repeated samples summarised as median/min/max/p95, subprocess wall time,
and the peak memory of a process tree.

Peak memory is taken two ways because they answer different questions: `/usr/bin/time`'s maximum
RSS is the largest single process (the indexer or one scan worker), while the sampled sum of PSS
over the whole tree is what the machine had to hold (shared pages of forked workers counted once).
"""

from __future__ import annotations

import contextlib
import os
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

TIME_BIN = "/usr/bin/time"


def percentile(xs: Sequence[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def stat(samples: Sequence[float], unit: str = "s") -> dict:
    """One figure: median with min and max (and p50/p95 when there are enough samples)."""
    xs = [float(x) for x in samples]
    out = {"unit": unit, "n": len(xs), "median": statistics.median(xs), "min": min(xs), "max": max(xs)}
    if len(xs) >= 10:
        out["p50"] = percentile(xs, 50)
        out["p95"] = percentile(xs, 95)
    return out


def repeat(fn: Callable[[], float], n: int) -> list[float]:
    return [fn() for _ in range(n)]


def run(cmd: Sequence[str], cwd: Path | None = None, env: dict[str, str] | None = None, check: bool = True) -> float:
    """Wall seconds of one command, output discarded."""
    t = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    secs = time.perf_counter() - t
    if check and proc.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} exited {proc.returncode}: {proc.stderr.decode()[-2000:]}")
    return secs


class RunResult:
    def __init__(self, wall: float, max_rss_kb: int, tree_pss_kb: int, stdout: str):
        self.wall = wall
        self.max_rss_kb = max_rss_kb
        self.tree_pss_kb = tree_pss_kb
        self.stdout = stdout


def run_measured(cmd: Sequence[str], env: dict[str, str] | None = None, interval: float = 0.05) -> RunResult:
    """Wall time, largest-process max RSS (`/usr/bin/time` when present) and the peak of the
    summed PSS of the process tree, sampled every `interval` seconds."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        full = [TIME_BIN, "-f", "%M", "-o", tf.name, *cmd] if os.path.exists(TIME_BIN) else list(cmd)
        t = time.perf_counter()
        proc = subprocess.Popen(full, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        sampler = _TreeSampler(proc.pid, interval)
        sampler.start()
        out, err = proc.communicate()
        wall = time.perf_counter() - t
        sampler.stop()
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(map(str, cmd))} exited {proc.returncode}: {err.decode()[-2000:]}")
        rss = 0
        if full[0] == TIME_BIN:
            lines = [x for x in Path(tf.name).read_text().split() if x.isdigit()]
            rss = int(lines[-1]) if lines else 0
    return RunResult(wall, rss, sampler.peak_kb, out.decode())


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return out


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


class _TreeSampler(threading.Thread):
    def __init__(self, pid: int, interval: float):
        super().__init__(daemon=True)
        self.pid = pid
        self.interval = interval
        self.peak_kb = 0
        self._halt = threading.Event()

    def run(self) -> None:
        while not self._halt.is_set():
            todo, total = [self.pid], 0
            while todo:
                p = todo.pop()
                total += _pss_kb(p)
                todo += _children(p)
            self.peak_kb = max(self.peak_kb, total)
            self._halt.wait(self.interval)

    def stop(self) -> None:
        self._halt.set()
        self.join()


def dir_bytes(path: Path) -> int:
    total = 0
    for folder, _dirs, names in os.walk(path):
        for n in names:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(folder, n)).st_size
    return total
