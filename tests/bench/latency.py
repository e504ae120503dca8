"""Warm in-process search and context latency on a project: p50/p95 over 20 varied queries x 3.

usage: python tests/bench/latency.py PROJECT_DIR [--cpu]   (the project must be indexed already)
--cpu: CPU time of the process instead of wall time, the fairer figure on a shared machine.
Not a test (never timed in the test suite); the benchmark suite will absorb it.
"""

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from indexer.query.context import build_context
from indexer.query.tokens import counter
from indexer.query.workspace import open_workspace, projects_at

QUERIES = [
    "MonoBehaviour StartCoroutine", "serialize property drawer", "texture import settings", "animation curve evaluate",
    "physics raycast hit collider", "asset database refresh", "editor window repaint", "shader keyword variant",
    "scene manager load async", "particle system emission rate", "gameobject set active", "render pipeline camera",
    "audio mixer group volume", "undo record object", "prefab utility instantiate", "navmesh agent destination",
    "input system action map", "ui toolkit visual element", "terrain heightmap resolution", "lightmap bake settings",
]  # fmt: skip


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    clock = time.process_time if "--cpu" in sys.argv[2:] else time.perf_counter
    ws = open_workspace(root, projects_at(root))
    tok = counter("estimate")
    ws.search(QUERIES[0], limit=10)
    build_context(ws, QUERIES[0], 8000, tok)  # warm: readers opened
    runs = (("search", lambda q: ws.search(q, limit=10)), ("context", lambda q: build_context(ws, q, 8000, tok)))
    for name, fn in runs:
        times = []
        for _ in range(3):
            for q in QUERIES:
                t = clock()
                fn(q)
                times.append((clock() - t) * 1000)
        print(
            f"{name}: n={len(times)} p50={statistics.median(times):.1f} ms "
            f"p95={percentile(times, 95):.1f} ms max={max(times):.1f} ms"
        )


if __name__ == "__main__":
    main()
