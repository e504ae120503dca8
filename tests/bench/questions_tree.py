"""Held-out questions (`tests/bench/questions/`) scored on an indexed checkout, beside plain BM25.

The development sets in `../shared/eval` are what the ranking was tuned on; the held-out sets (48
public projects, 20 questions each, `sets.json`), labelled by reading the projects without looking
at any answer of ours, say how well that tuning carries to a project it never saw (the trials'
sets in `trials/` were tuned on, and are scored the same way). One set a run. Same metrics and
the same BM25 baseline (the shared harness's `rank_bm25`) as `retrieval_snapshots.py`.

usage: python -m tests.bench.questions_tree SET_FILE CHECKOUT EVAL_DIR [--context BUDGET [--shown-only | --outlined]]

CHECKOUT is the repository at the commit the set names (`parent`), indexed with `unity-index
index`; EVAL_DIR is `../shared/eval` (for its BM25). A bare clone whose `git archive` fails on a
missing blob can be checked out blob by blob (`git cat-file --batch`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path


def score(
    set_file: Path, checkout: Path, eval_dir: Path, budget: int | None, mode: str = "all", baseline: bool = True
) -> dict[str, list[int]]:
    """kind -> [questions, acc hits, all hits] for `query` (acc@5, all@10) or `context` (in the
    pack, as `packs.pack_files` counts it in `mode`) and, with `baseline`, BM25 (acc@5, all@10; it
    indexes the checkout again for every question), per question type and pooled."""
    sys.path.insert(0, str(eval_dir))
    import retrieval  # the shared harness: its BM25 baseline and query cleaning

    from indexer.query.context import build_context
    from indexer.query.tokens import counter
    from indexer.query.workspace import open_workspace, projects_at
    from tests.bench.packs import pack_files

    ws = open_workspace(checkout, projects_at(checkout))
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for line in set_file.read_text().splitlines():
        task = json.loads(line)
        gold, text = set(task["relevant_files"]), task["message"]
        if budget:
            pack = set(pack_files(build_context(ws, text, budget, counter()), mode))
            ours = (bool(gold & pack), gold <= pack)
        else:
            got = [h.path for h in ws.search(text, 20, named=False)]
            ours = (bool(gold & set(got[:5])), gold <= set(got[:10]))
        rankers = [("ours", ours)]
        if baseline:
            base = retrieval.rank_bm25(str(checkout), retrieval.clean(text), 20)
            rankers.append(("bm25", (bool(gold & set(base[:5])), gold <= set(base[:10]))))
        for ranker, (acc, every) in rankers:
            for key in (f"{ranker} {task['type']}", f"{ranker} pooled"):
                out[key][0] += 1
                out[key][1] += acc
                out[key][2] += every
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("set_file", type=Path)
    ap.add_argument("checkout", type=Path)
    ap.add_argument("eval_dir", type=Path)
    ap.add_argument("--context", type=int, help="score `context --budget N` packs instead of `query`")
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--shown-only", action="store_true", help="context: leave out the pack's related lines")
    which.add_argument("--outlined", action="store_true", help="context: only files shown with more than a header")
    args = ap.parse_args()
    mode = "outlined" if args.outlined else "shown" if args.shown_only else "all"
    result = score(args.set_file, args.checkout.resolve(), args.eval_dir, args.context, mode)
    ours = "context acc / all" if args.context else "query acc@5 / all@10"
    print(f"{'':16s} {ours:>22s}   BM25 acc@5 / all@10")
    for key in sorted({k.split(" ", 1)[1] for k in result}, key=lambda k: (k == "pooled", k)):
        n, a, b = result[f"ours {key}"]
        _, ba, bb = result[f"bm25 {key}"]
        print(f"{key:10s} n={n:3d} {a / n:>12.3f} / {b / n:.3f}   {ba / n:>10.3f} / {bb / n:.3f}")


if __name__ == "__main__":
    main()
