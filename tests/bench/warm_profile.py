"""Where the slow warm searches spend their CPU: the suite's warm protocol (measures.warm_latency:
3 warm-up queries, then 60 searches cycling 30 task queries), each sample's CPU split by step.

usage: python tests/bench/warm_profile.py PROJECT [--slowest N]   (the project indexed already)
Each step is a function of the ranking wrapped for the run with a timer of its exclusive CPU (its
own, less the wrapped steps it calls: cProfile's overhead, 5x on these queries, hid what the
steps cost); the collector's passes are timed by generation through `gc.callbacks`, apart from
the step that set them off by allocating. Printed: the N slowest samples (default 6,
the slowest 10%) with their steps, the steps' shares over them, and each step's first-pass extra
(its CPU when a query is met first, less when it is asked again). Not a test (never run by pytest).
"""

from __future__ import annotations

import collections
import gc
import importlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.baselines import content_files
from tests.bench.vocab import task_queries

SAMPLES, QUERIES = 60, 30
STEPS = {
    "indexer.query.rank": (
        "_named_hits _hit _fields_by_class pointed_by pointed pair _near_words walk role_priors outlines_of "
        "_out_of_reach _reached _explain _text_ranked raise_held _tests_below_tested_code siblings_below "
        "_raise_files_named named_chain _raise_named synonym_words role_words _quoted"
    ),
    "indexer.query.search": "_name_matches _with_owner _distinct_names _body_matches _best",
    "indexer.query.textmatch": "occurrences _where near_words",
    "indexer.query.texts:Texts": "get",
    "indexer.query.search:Outline": "__init__",
    "indexer.query.search:Searcher": "candidates",
    "indexer.store.reader:Records": "outlines outline record stats_of edges_from edges_to types_named",
    "indexer.query.pairing:_Pairs": "prefabs_of_scripts adders_of_scripts data_of_scripts constructors_of_values",
    "indexer.query.pairing": "raise_channels _builders",
    "indexer.query.walk": "step",
}


class Steps:
    """Exclusive CPU per wrapped step, and the collector's passes, for the current sample."""

    def __init__(self) -> None:
        self.spent: collections.Counter[str] = collections.Counter()
        self._stack: list[float] = []
        self._gc_start = 0.0

    def wrap_all(self) -> None:
        for where, names in STEPS.items():
            module, _, cls = where.partition(":")
            owner = importlib.import_module(module)
            owner = getattr(owner, cls) if cls else owner
            for name in names.split():
                setattr(owner, name, self._wrapped(getattr(owner, name), f"{owner.__name__}.{name}"))
        gc.callbacks.append(self._collected)

    def _wrapped(self, fn, label: str):
        def timed(*args, **kwargs):
            start = time.process_time()
            self._stack.append(0.0)
            try:
                return fn(*args, **kwargs)
            finally:
                spent, inner = time.process_time() - start, self._stack.pop()
                self.spent[label] += spent - inner
                if self._stack:
                    self._stack[-1] += spent

        return timed

    def _collected(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_start = time.process_time()
        else:
            spent = time.process_time() - self._gc_start
            self.spent[f"gc gen {info['generation']}"] += spent
            if self._stack:  # not the step's own CPU
                self._stack[-1] += spent


def run(root: Path) -> list[tuple[float, int, str, dict[str, float]]]:
    """(CPU ms, sample number, query, step -> ms) of each sample of the protocol."""
    from indexer.query.context import build_context
    from indexer.query.tokens import counter
    from indexer.query.workspace import open_workspace, projects_at

    queries = task_queries([Path(p).stem for p, k in content_files(root) if k == "csharp"], QUERIES, 1)
    steps = Steps()
    steps.wrap_all()
    ws, tok = open_workspace(root, projects_at(root)), counter("estimate")
    for q in queries[:3]:
        ws.search(q, limit=10)
        build_context(ws, q, 8000, tok)
    out = []
    for i in range(SAMPLES):
        steps.spent.clear()
        start = time.process_time()
        ws.search(queries[i % len(queries)], limit=10)
        total = time.process_time() - start
        spent = {k: v * 1000 for k, v in steps.spent.items()}
        spent["(steps not wrapped)"] = total * 1000 - sum(spent.values())
        out.append((total * 1000, i, queries[i % len(queries)], spent))
    return out


def report(samples: list[tuple[float, int, str, dict[str, float]]], slowest: int) -> None:
    ranked = sorted(samples, key=lambda s: -s[0])
    times = sorted(s[0] for s in samples)
    print(f"p50 {times[len(times) // 2]:.1f} ms, p95 {times[round(0.95 * (len(times) - 1))]:.1f} ms (CPU)")
    shares: collections.Counter[str] = collections.Counter()
    for ms, i, query, spent in ranked[:slowest]:
        shares.update(spent)
        top = sorted(spent.items(), key=lambda kv: -kv[1])[:8]
        print(f"{ms:6.1f} ms  #{i:<2} {query}: " + ", ".join(f"{k.rsplit('.', 1)[-1]} {v:.1f}" for k, v in top))
    total = sum(s[0] for s in ranked[:slowest])
    print(f"--- the {slowest} slowest: {total:.1f} ms")
    for k, v in shares.most_common(20):
        print(f"  {k:44s} {v:7.2f} ms {100 * v / total:5.1f}%")
    by = {s[1]: s for s in samples}
    extra: collections.Counter[str] = collections.Counter()
    for i in range(3, QUERIES):  # the warm-up's queries were met before the samples
        first, again = by[i][3], by[i + QUERIES][3]
        extra.update({k: first.get(k, 0.0) - again.get(k, 0.0) for k in first.keys() | again.keys()})
    gap = sum(by[i][0] - by[i + QUERIES][0] for i in range(3, QUERIES))
    print(f"--- first-pass extra (queries 3-{QUERIES - 1} met first, less asked again): {gap:.1f} ms")
    for k, v in extra.most_common(16):
        print(f"  {k:44s} {v:7.2f} ms")


def main() -> None:
    args = sys.argv[1:]
    slowest = int(args[args.index("--slowest") + 1]) if "--slowest" in args else SAMPLES // 10
    report(run(Path(args[0]).resolve()), slowest)


if __name__ == "__main__":
    main()
