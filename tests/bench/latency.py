"""Warm in-process search, context, refs and describe latency on a project: p50/p95 over 20
varied queries x 3 (refs and describe: types, members and files picked evenly from the index).

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
from indexer.query.lookup import describe_target, find_references
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


def lookup_targets(ws) -> tuple[list[str], list[str]]:
    """About 20 files picked evenly by path (scripts and Unity assets), and the first type and
    `Type.Method` each script declares."""
    records = ws.projects[0].records
    paths = sorted(records.kinds())
    scripts = [p for p in paths if p.endswith(".cs")]
    assets = [p for p in paths if p.endswith((".prefab", ".unity", ".asset", ".mat"))]
    files = scripts[:: max(1, len(scripts) // 15)][:15] + assets[:: max(1, len(assets) // 5)][:5]
    names = []
    for path in scripts[:: max(1, len(scripts) // 15)][:15]:
        rec = records.record(path)
        types = [s for s in rec.symbols if s.kind in ("class", "struct", "interface", "enum")]
        methods = [s for s in rec.symbols if s.kind == "method"]
        names += [types[0].name] if types else []
        names += [f"{methods[0].container.rsplit('.', 1)[-1]}.{methods[0].name}"] if types and methods else []
    return files, names


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    clock = time.process_time if "--cpu" in sys.argv[2:] else time.perf_counter
    ws = open_workspace(root, projects_at(root))
    tok = counter("estimate")
    ws.search(QUERIES[0], limit=10)
    build_context(ws, QUERIES[0], 8000, tok)  # warm: readers opened
    files, names = lookup_targets(ws)
    runs = (
        ("search", QUERIES, lambda q: ws.search(q, limit=10)),
        ("context", QUERIES, lambda q: build_context(ws, q, 8000, tok)),
        ("refs", names + files, lambda t: find_references(ws, t)),
        ("describe", files, lambda t: describe_target(ws, t)),
    )
    for name, items, fn in runs:
        fn(items[0])  # warm: what the first one reads once
        times = []
        for _ in range(3):
            for q in items:
                t = clock()
                fn(q)
                times.append((clock() - t) * 1000)
        print(
            f"{name}: n={len(times)} p50={statistics.median(times):.1f} ms "
            f"p95={percentile(times, 95):.1f} ms max={max(times):.1f} ms"
        )


if __name__ == "__main__":
    main()
