"""How an incrementally updated index ranks against a rebuild of the same files.

    python -m tests.bench.rank_incremental --project /tmp/mirror [--edits 15] [--work /tmp/rank]

Copies the project (a Unity project root) to WORK/updated, builds its index, edits EDITS C#
files one update each (a line appended, as an editor save), copies the result without its index
to WORK/fresh and rebuilds that; then runs QUERIES at limit 20 on both and prints how many rank
differently, the largest relative score difference, and how many pairs of results are out of
the rebuild's order although the rebuild's scores are more than 1% apart (docs/indexing.md,
Guarantees).
"""

from __future__ import annotations

import argparse
import random
import shutil
from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.workspace import open_workspace, projects_at

QUERIES = (
    "network transform sync",
    "client connect server",
    "spawn player prefab",
    "serialize message writer",
    "authority command rpc",
    "kcp transport",
    "sync var hook",
    "network manager start host",
    "interest management",
    "snapshot interpolation",
    "batching threshold",
    "encryption key exchange",
    "reader read int",
    "scene message",
    "ping time",
)
TOLERANCE = 0.01


def build(src: Path, work: Path, edits: int) -> tuple[Path, Path]:
    updated, fresh = work / "updated", work / "fresh"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(src, updated, ignore=shutil.ignore_patterns("Library"))
    config = Config(workers=1)
    update(updated, config, full=True)
    rng = random.Random(15)
    for i, p in enumerate(rng.sample(sorted(updated.rglob("*.cs")), edits)):
        p.write_text(p.read_text(errors="replace") + f"\n// edited {i}: network sync client message spawn\n")
        update(updated, config, paths=[p.relative_to(updated).as_posix()])
    shutil.copytree(updated, fresh, ignore=shutil.ignore_patterns("Library"))
    update(fresh, config, full=True)
    return updated, fresh


def compare(updated: Path, fresh: Path) -> tuple[int, float, int]:
    a, b = open_workspace(updated, projects_at(updated)), open_workspace(fresh, projects_at(fresh))
    differ, worst, out_of_order = 0, 0.0, 0
    for q in QUERIES:
        got = [(h.path, h.score) for h in a.search(q, limit=20)]
        want = {h.path: h.score for h in b.search(q, limit=40)}
        differ += [p for p, _ in got] != [h.path for h in b.search(q, limit=20)]
        for i, (p, s) in enumerate(got):
            if want.get(p):
                worst = max(worst, abs(s - want[p]) / want[p])
            later = [r for r, _ in got[i + 1 :] if r in want and p in want]
            out_of_order += sum(want[r] > want[p] * (1 + TOLERANCE) for r in later)
    return differ, worst, out_of_order


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--project", type=Path, required=True)
    ap.add_argument("--edits", type=int, default=15)
    ap.add_argument("--work", type=Path, default=Path("/tmp/rank-incremental"))
    args = ap.parse_args()
    differ, worst, out_of_order = compare(*build(args.project, args.work, args.edits))
    print(
        f"{differ}/{len(QUERIES)} queries ranked differently at limit 20; largest relative score difference"
        f" {worst:.4f}; {out_of_order} pairs out of order beyond {TOLERANCE:.0%}"
    )


if __name__ == "__main__":
    main()
