"""The retrieval benchmarks of `../shared/eval` answered in-process, from index snapshots.

The harness there (`retrieval.py`) re-indexes a work tree at every task's commit and runs the
CLI: an hour for `queries/` and each ranker. `build` walks the commits once with the same
`update` the CLI runs and keeps a copy of the index per task; `score` then answers every task
from its copy in seconds, so ranking changes can be compared on both benchmarks in one sitting.
`query` reads nothing but the index, so its numbers are the harness's; `context` also reads the
files it shows from the work tree, which `build` leaves at the set's last commit (files changed
between commits are read as they are there: an approximation; the harness gives the exact one).

usage: python -m tests.bench.retrieval_snapshots build EVAL_DIR SET_FILE GITDIR OUT
       python -m tests.bench.retrieval_snapshots score OUT [SET ...] [--context BUDGET [--shown-only | --outlined]]

SET_FILE is `EVAL_DIR/queries/NAME.jsonl` or `EVAL_DIR/questions/NAME.jsonl`; GITDIR a bare
clone of its repository. Per set, pooled, and per question type (questions/) when there is one.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections import defaultdict
from pathlib import Path


def build(eval_dir: Path, set_file: Path, gitdir: str, out: Path) -> None:
    """One snapshot per distinct parent commit; each task's meta.json names the one it uses."""
    sys.path.insert(0, str(eval_dir))
    from retrieval import Tree, clean  # the harness's own tree and task text

    from indexer.build.update import update
    from indexer.query.workspace import projects_at

    name = f"{set_file.parent.name}-{set_file.stem}"
    root = out / f"{name}-tree"
    tree = Tree(gitdir, str(root))
    sets = out / name
    shutil.rmtree(sets, ignore_errors=True)
    last_parent, last_snapshot = None, ""
    for n, line in enumerate(set_file.read_text().splitlines()):
        task = json.loads(line)
        if task["parent"] != last_parent:
            tree.move_to(task["parent"])
            projects = projects_at(root)
            for proot, config in projects:
                update(proot, config)
            last_parent, last_snapshot = task["parent"], f"{n:03d}"
            for k, (proot, config) in enumerate(projects):
                shutil.copytree(config.index_path(proot), sets / last_snapshot / f"p{k}")
            rels = [p.relative_to(root).as_posix() if p != root else "" for p, _ in projects]
        gold = [f for f in task["relevant_files"] if (root / f).exists()]
        if not gold:
            continue
        meta = {"task": clean(task["message"]), "gold": gold, "type": task.get("type", ""), "projects": rels}
        (sets / f"{n:03d}").mkdir(parents=True, exist_ok=True)
        (sets / f"{n:03d}" / "meta.json").write_text(json.dumps({**meta, "index": last_snapshot}))
        print(".", end="", flush=True)
    print(f" {name}")


def answers(out: Path, name: str, budget: int | None, mode: str = "all") -> list[tuple[str, set[str], list[str]]]:
    """(type, gold, ranked paths) per task of a set: `query`'s top 20, or the context pack's files
    as `packs.pack_files` counts them in `mode`."""
    from indexer.config import Config
    from indexer.query.context import build_context
    from indexer.query.tokens import counter
    from indexer.query.workspace import ProjectIndex, Workspace
    from tests.bench.packs import pack_files

    base = out / f"{name}-tree"
    rows = []
    for task_dir in sorted((out / name).glob("[0-9]*")):
        if not (task_dir / "meta.json").is_file():
            continue  # a snapshot kept for later tasks; this one had no gold file at its commit
        meta = json.loads((task_dir / "meta.json").read_text())
        index = out / name / meta["index"]
        members = [
            ProjectIndex(base / rel if rel else base, Config(index_dir=str(index / f"p{k}")), f"{rel}/" if rel else "")
            for k, rel in enumerate(meta["projects"])
        ]
        ws = Workspace(base, members)
        if budget is None:
            got = [h.path for h in ws.search(meta["task"], 20, named=False)]
        else:
            got = pack_files(build_context(ws, meta["task"], budget, counter()), mode)
        rows.append((meta["type"], set(meta["gold"]), got))
        for m in members:
            m.snapshot.__dict__.pop("records", None)
    return rows


def metrics(rows: list[tuple[str, set[str], list[str]]], context: bool) -> str:
    n = max(1, len(rows))
    if context:
        acc = sum(bool(g & set(r)) for _, g, r in rows) / n
        full = sum(g <= set(r) for _, g, r in rows) / n
        return f"n={len(rows):3d}  context acc {acc:.3f}  context all {full:.3f}"
    parts = []
    for k in (5, 10):
        acc = sum(bool(g & set(r[:k])) for _, g, r in rows) / n
        full = sum(g <= set(r[:k]) for _, g, r in rows) / n
        parts.append(f"acc@{k} {acc:.3f}  all@{k} {full:.3f}")
    return f"n={len(rows):3d}  " + "  ".join(parts)


def score(out: Path, names: list[str], budget: int | None, mode: str = "all") -> None:
    names = names or sorted(p.name for p in out.iterdir() if p.is_dir() and not p.name.endswith("-tree"))
    pooled = []
    for name in names:
        rows = answers(out, name, budget, mode)
        pooled += rows
        print(f"{name:45s} {metrics(rows, budget is not None)}")
    print(f"{'pooled':45s} {metrics(pooled, budget is not None)}")
    by_type = defaultdict(list)
    for row in pooled:
        if row[0]:
            by_type[row[0]].append(row)
    for kind, rows in sorted(by_type.items()):
        print(f"  {kind:43s} {metrics(rows, budget is not None)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("eval_dir", type=Path)
    b.add_argument("set_file", type=Path)
    b.add_argument("gitdir")
    b.add_argument("out", type=Path)
    s = sub.add_parser("score")
    s.add_argument("out", type=Path)
    s.add_argument("sets", nargs="*")
    s.add_argument("--context", type=int, metavar="BUDGET")
    which = s.add_mutually_exclusive_group()
    which.add_argument("--shown-only", action="store_true", help="context: leave out the pack's related lines")
    which.add_argument("--outlined", action="store_true", help="context: only files shown with more than a header")
    args = parser.parse_args()
    if args.command == "build":
        build(args.eval_dir.resolve(), args.set_file.resolve(), args.gitdir, args.out.resolve())
    else:
        mode = "outlined" if args.outlined else "shown" if args.shown_only else "all"
        score(args.out.resolve(), args.sets, args.context, mode)


if __name__ == "__main__":
    main()
