"""Which of the caches a warm process keeps a first-met search pays for: the suite's warm protocol
(measures.warm_latency: 3 searches and packs to warm up, then queries 3-29 of the 30 task queries
met for the first time), then passes over the same queries with one group of caches emptied
before each, against passes with nothing emptied. A group's extra CPU is what the first pass pays
to fill it (a bound: emptying one group can make another's entries be asked anew).

usage: python tests/bench/warm_caches.py PROJECT [--rounds N]   (the project indexed already)
Groups: the memo's and the roles' entries by their key's first part (`outline`, `vendored`, ...),
the stats, the texts whole and what was found in them, the graph's per-file dicts, the pinned
reader's documents and term counts, the process's lru caches. Printed: CPU ms over the 27
queries, the collector off, medians over the rounds. Not a test (never run by pytest).
"""

from __future__ import annotations

import collections
import functools
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.baselines import content_files
from tests.bench.vocab import task_queries

QUERIES = 30


def groups(project) -> dict[str, Callable[[], None]]:
    """Group name -> what empties it, for one ProjectIndex (after a first pass filled them)."""
    snap = project.snapshot
    out: dict[str, Callable[[], None]] = {}
    for name in ("memo", "roles"):
        kinds = collections.Counter(k[0] for k in getattr(snap, name) if isinstance(k, tuple) and len(k) > 1)
        for kind in kinds:
            out[f"{name}:{kind}"] = functools.partial(_drop_keys, getattr(snap, name), kind)
    out["stats"] = snap.stats.clear
    out["texts (whole)"] = functools.partial(_drop_texts, project.texts)
    out["texts: found in them"] = functools.partial(_drop_found, project.texts)
    out["graph: per-file dicts"] = functools.partial(_drop_dicts, snap.graph)
    kept = snap.searcher._kept
    out["reader: documents"] = kept.docs.clear
    out["reader: term counts, clauses"] = lambda: (kept.freqs.clear(), kept.parsed.clear())
    out["lru caches"] = _drop_lru
    return out


def _drop_keys(store: dict, kind: str) -> None:
    for key in [k for k in store if isinstance(k, tuple) and len(k) > 1 and k[0] == kind]:
        del store[key]


def _drop_texts(texts) -> None:
    texts._kept.clear()
    texts._found.clear()
    texts._chars = texts._found_entries = 0


def _drop_found(texts) -> None:
    for text in texts._kept.values():
        text.found = {}
    texts._found.clear()
    texts._found_entries = 0


def _drop_dicts(graph) -> None:
    for value in vars(graph).values():
        if isinstance(value, dict):
            value.clear()


def _drop_lru() -> None:
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("indexer"):
            for value in list(vars(module).values()):
                if isinstance(value, functools._lru_cache_wrapper):
                    value.cache_clear()


def main(root: Path, rounds: int) -> None:
    from indexer.query.context import build_context
    from indexer.query.tokens import counter
    from indexer.query.workspace import open_workspace, projects_at

    queries = task_queries([Path(p).stem for p, k in content_files(root) if k == "csharp"], QUERIES, 1)
    ws, tok = open_workspace(root, projects_at(root)), counter("estimate")
    for q in queries[:3]:
        ws.search(q, limit=10)
        build_context(ws, q, 8000, tok)

    def one_pass() -> float:
        start = time.process_time()
        for q in queries[3:]:
            ws.search(q, limit=10)
        return (time.process_time() - start) * 1000

    gc.disable()
    first = one_pass()
    emptied: dict[str, list[float]] = collections.defaultdict(list)
    kept: list[float] = []
    for _ in range(rounds):
        for name, drop in groups(ws.projects[0]).items():
            kept.append(one_pass())
            drop()
            emptied[name].append(one_pass())
    base = statistics.median(kept)
    print(f"first pass {first:.0f} ms, asked again {base:.0f} ms ({min(kept):.0f}-{max(kept):.0f})")
    for name, times in sorted(emptied.items(), key=lambda kv: -statistics.median(kv[1])):
        print(f"  {name:32s} +{statistics.median(times) - base:5.1f} ms")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(Path(args[0]).resolve(), int(args[args.index("--rounds") + 1]) if "--rounds" in args else 3)
