"""What one step of the ranking costs: warm `search` latency over the held-out questions with the
step in and with it stubbed out, alternated in one process (a source tree of another schema cannot
read the same indexes, and on a shared machine only alternated runs compare).

usage: python tests/bench/step_ab.py MODULE:FUNCTION CHECKOUTS [ROUNDS]
e.g.   python tests/bench/step_ab.py indexer.query.rank:_settings_named /tmp/checkouts 3
CHECKOUTS holds one indexed checkout per set of tests/bench/questions/, named as the set. The
stub returns None (the step must be one whose effect is in place). Each search is timed by process
CPU after one warm-up pass; printed: p50 and p95 in ms, with and without the step.
Not a test (never run by pytest).
"""

from __future__ import annotations

import importlib
import json
import statistics
import sys
import time
from pathlib import Path

QUESTIONS = Path(__file__).parent / "questions"


def main(target: str, checkouts: Path, rounds: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # this tree's indexer
    from indexer.query.workspace import open_workspace, projects_at

    module_name, _, name = target.partition(":")
    module = importlib.import_module(module_name)
    step = getattr(module, name)
    samples: dict[str, list[float]] = {"with": [], "without": []}
    for path in sorted(QUESTIONS.glob("*.jsonl")):
        root = (checkouts / path.stem).resolve()
        ws = open_workspace(root, projects_at(root))
        questions = [json.loads(line)["message"] for line in path.read_text(encoding="utf-8").splitlines()]
        for q in questions:
            ws.search(q, 20)
        for r in range(rounds):
            for mode in ("with", "without") if r % 2 == 0 else ("without", "with"):
                setattr(module, name, step if mode == "with" else (lambda *_a, **_k: None))
                for q in questions:
                    t0 = time.process_time()
                    ws.search(q, 20)
                    samples[mode].append(time.process_time() - t0)
    setattr(module, name, step)
    for mode, values in samples.items():
        values.sort()
        p50, p95 = statistics.median(values), values[int(0.95 * (len(values) - 1))]
        print(f"{mode:8} n={len(values)}  p50 {1000 * p50:.2f} ms  p95 {1000 * p95:.2f} ms")


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 3)
