"""Peak memory of one `unity-index index` run: the sum of the resident sizes of the indexer and
every process it started (scanners, fork server), sampled every 20 ms through /proc (Linux).

usage: python -m tests.bench.memory PROJECT [index arguments...]
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

MARK = "UNITY_INDEX_MEMORY_RUN"


def rss_of_marked(marker: str) -> dict[int, int]:
    """pid -> resident bytes of the live processes carrying `marker` in their environment."""
    needle = f"{MARK}={marker}\0".encode()
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if needle not in Path(f"/proc/{entry}/environ").read_bytes():
                continue
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                out[int(entry)] = int(line.split()[1]) * 1024
    return out


def measure(project: str, args: list[str]) -> tuple[int, int, float, int]:
    """(peak summed RSS, peak of the indexer's own process, seconds, exit code) of `index`."""
    marker = uuid.uuid4().hex
    env = {**os.environ, MARK: marker}
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "indexer.cli", "index", "--project", project, *args], env=env)
    peak_sum = peak_main = 0
    while proc.poll() is None:
        sizes = rss_of_marked(marker)
        peak_sum = max(peak_sum, sum(sizes.values()))
        peak_main = max(peak_main, sizes.get(proc.pid, 0))
        time.sleep(0.02)
    return peak_sum, peak_main, time.monotonic() - t0, proc.returncode


if __name__ == "__main__":
    total, main, seconds, code = measure(sys.argv[1], sys.argv[2:])
    mb = 1024 * 1024
    print(f"exit {code} in {seconds:.1f} s; peak of all processes {total / mb:.0f} MB, indexer {main / mb:.0f} MB")
