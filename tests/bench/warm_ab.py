"""Warm search and context latency of two (or more) source trees of the indexer, measured in turn
on the same indexed projects: on a shared machine, only runs alternated this way compare.

usage: python tests/bench/warm_ab.py ROUNDS NAME=SRC[,NAME=SRC...] PROJECT...
e.g.   git archive main | tar -x -C /tmp/src-main   (and the branch into /tmp/src-branch), then
       python tests/bench/warm_ab.py 5 main=/tmp/src-main,branch=/tmp/src-branch /tmp/proj
Each run is a fresh process importing the indexer from SRC, on the suite's warm protocol
(measures.warm_latency: 3 warm-up queries, then 60 samples cycling 30 task queries made from the
scripts' file names), each sample timed by process CPU rather than wall time; printed: the
median over the rounds of each run's p50/p95, in ms.
Not a test (never run by pytest).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

SAMPLES, QUERIES = 60, 30


def one(src: str, project: str) -> dict[str, tuple[float, float]]:
    """One run of the protocol with the indexer of `src` (this process imports it)."""
    sys.path.insert(0, src)
    from indexer.query.context import build_context
    from indexer.query.tokens import counter
    from indexer.query.workspace import open_workspace, projects_at
    from tests.bench.baselines import content_files
    from tests.bench.measure import percentile
    from tests.bench.vocab import task_queries

    root = Path(project).resolve()
    queries = task_queries([Path(p).stem for p, k in content_files(root) if k == "csharp"], QUERIES, 1)
    ws = open_workspace(root, projects_at(root))
    tok = counter("estimate")
    for q in queries[:3]:
        ws.search(q, limit=10)
        build_context(ws, q, 8000, tok)
    out = {}
    asks = {"search": lambda q: ws.search(q, limit=10), "context": lambda q: build_context(ws, q, 8000, tok)}
    for name, fn in asks.items():
        times = []
        for i in range(SAMPLES):
            t = time.process_time()
            fn(queries[i % QUERIES])
            times.append((time.process_time() - t) * 1000)
        out[name] = (percentile(times, 50), percentile(times, 95))
    return out


def main(rounds: int, trees: dict[str, str], projects: list[str]) -> None:
    for project in projects:
        runs: dict[str, list[dict]] = {name: [] for name in trees}
        for _ in range(rounds):
            for name, src in trees.items():
                cmd = [sys.executable, __file__, "--one", src, project]
                done = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd="/")
                runs[name].append(json.loads(done.stdout))
        for what in ("search", "context"):
            cells = []
            for name, rs in runs.items():
                p50, p95 = (statistics.median(r[what][i] for r in rs) for i in (0, 1))
                cells.append(f"{name} {p50:.1f}/{p95:.1f}")
            print(f"{Path(project).name} {what} p50/p95 ms: " + "  ".join(cells), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "--one":
        print(json.dumps(one(sys.argv[2], sys.argv[3])))
    else:
        main(int(sys.argv[1]), dict(s.split("=", 1) for s in sys.argv[2].split(",")), sys.argv[3:])
