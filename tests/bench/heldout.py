"""Every held-out question set scored in one run: per set and pooled, `query` (acc@5, all@10,
beside plain BM25) and `context` packs (every gold file named, shown, shown with more than its
header), so a change is judged on all the projects at once.

usage: python -m tests.bench.heldout EVAL_DIR CHECKOUTS [--budget 4000] [--sets A,B] [--no-bm25] [--no-packs]
       [--questions DIR]

CHECKOUTS holds one checkout per set, named as the set (`CHECKOUTS/BossRoom`): the public
repository `questions/sets.json` names, at the commit each question names (`parent`), indexed with
`unity-index index` (a project in a subfolder is found there). Sets without a checkout are left
out and said so. EVAL_DIR is `../shared/eval` (for its BM25, which indexes a checkout again for each
question: `--no-bm25` leaves it out). `--questions` reads the sets from another folder of the same
layout: `tests/bench/questions/trials/` holds the trials' sets, which rules were tuned on, kept
apart from the held-out pool. Not a test (never run by pytest).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tests.bench.questions_tree import score

SETS = Path(__file__).parent / "questions"
COLUMNS = ("query", "bm25", "named", "shown", "outlined")


def run(
    eval_dir: Path,
    checkouts: Path,
    budget: int,
    sets: list[str],
    bm25: bool,
    packs: bool = True,
    questions: Path = SETS,
) -> dict[str, dict[str, list[int]]]:
    """set -> column -> [questions, acc, all] (pooled over its question types); without `packs`,
    the ranking alone (a few seconds for all the sets: the loop a ranking change is tried in)."""
    out: dict[str, dict[str, list[int]]] = {}
    for name in sets:
        checkout = checkouts / name
        if not checkout.is_dir():
            print(f"{name}: no checkout at {checkout}, left out")
            continue
        set_file = questions / f"{name}.jsonl"
        row = {}
        ranked = score(set_file, checkout.resolve(), eval_dir, None, baseline=bm25)
        row["query"] = ranked["ours pooled"]
        if bm25:
            row["bm25"] = ranked["bm25 pooled"]
        for mode, column in (("all", "named"), ("shown", "shown"), ("outlined", "outlined")) if packs else ():
            row[column] = score(set_file, checkout.resolve(), eval_dir, budget, mode, baseline=False)["ours pooled"]
        out[name] = row
    return out


def render(results: dict[str, dict[str, list[int]]], budget: int) -> str:
    """One line per set, then the sets pooled: acc / all of each column."""
    head = f"{'set':22s} {'n':>4s}  query acc@5/all@10  BM25 acc@5/all@10"
    lines = [f"{head}  context {budget} all: named/shown/outlined"]
    pooled: dict[str, list[int]] = {}
    for row in results.values():
        for column, counts in row.items():
            total = pooled.setdefault(column, [0, 0, 0])
            for i, value in enumerate(counts):
                total[i] += value
    for name, row in [*results.items(), ("pooled", pooled)]:
        if row:
            packs = " / ".join(_share(row, c) for c in ("named", "shown", "outlined"))
            ranked = f"{_pair(row, 'query'):>18s}  {_pair(row, 'bm25'):>17s}"
            lines.append(f"{name:22s} {row['query'][0]:4d}  {ranked}  {packs}")
    return "\n".join(lines)


def _share(row: dict[str, list[int]], column: str) -> str:
    return f"{row[column][2] / row[column][0]:.3f}" if column in row else "-"


def _pair(row: dict[str, list[int]], column: str) -> str:
    if column not in row:
        return "-"
    count, acc, every = row[column]
    return f"{acc / count:.3f} / {every / count:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("eval_dir", type=Path)
    ap.add_argument("checkouts", type=Path)
    ap.add_argument("--budget", type=int, default=4000)
    ap.add_argument("--sets", help="comma-separated set names (default: every set in questions/sets.json)")
    ap.add_argument("--no-bm25", action="store_true")
    ap.add_argument("--no-packs", action="store_true", help="the ranking alone: no context pack is built")
    ap.add_argument("--questions", type=Path, default=SETS, help="the folder of the sets and their sets.json")
    args = ap.parse_args()
    listed = sorted(json.loads((args.questions / "sets.json").read_text()))
    names = args.sets.split(",") if args.sets else listed
    results = run(
        args.eval_dir, args.checkouts, args.budget, names, not args.no_bm25, not args.no_packs, args.questions
    )
    print(render(results, args.budget))


if __name__ == "__main__":
    main()
