"""Every answer of a set of varied queries as JSON, to diff before and after a change that must not
change any (a speed-up): ranked hits with snippets, context packs at two budgets, refs, describe.

usage: python tests/bench/answers.py PROJECT_DIR OUT.json   (the project must be indexed already)
Each query is asked twice in one long-lived workspace (in order, then in reverse, as the MCP
server would) and once more in a fresh one; the script fails if the three answers differ, so
caches kept between queries are checked too. Not a test (needs an indexed real project).
"""

import json
import sys
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from indexer.query.context import build_context
from indexer.query.lookup import describe_target, find_references
from indexer.query.tokens import counter
from indexer.query.workspace import open_workspace, projects_at
from tests.bench.baselines import content_files
from tests.bench.latency import QUERIES, lookup_targets
from tests.bench.vocab import task_queries

# Questions that reach the ranking's features: member bodies, asset kinds named, tests, packages,
# carriers and art.
FEATURES = [
    "where does the player take damage", "which prefab, material and shader draw the line",
    "tests for the health component", "where is the spawner configured in the inspector",
    "upgrade the package versions", "the particle effect when an enemy dies", "scene loading progress bar",
    "which scriptable object holds the settings", "network object spawn ownership", "camera follow target",
]  # fmt: skip


def queries(root: Path) -> list[str]:
    names = [Path(p).stem for p, k in content_files(root) if k == "csharp"]
    return QUERIES + FEATURES + task_queries(names, 12, 1)


def answers(ws, items: list[str], files: list[str], names: list[str]) -> dict[str, object]:
    tok = counter("estimate")
    out: dict[str, object] = {}
    for q in items:
        out[f"search {q}"] = ws.search(q, limit=10)
        out[f"search-unnamed {q}"] = ws.search(q, limit=40, named=False)
        out[f"context 8000 {q}"] = build_context(ws, q, 8000, tok)
        out[f"context 2000 {q}"] = build_context(ws, q, 2000, tok)
    for t in names + files:
        out[f"refs {t}"] = find_references(ws, t)
    for t in files:
        out[f"describe {t}"] = describe_target(ws, t)[1]
    return out


def as_json(value: object) -> object:
    return json.loads(msgspec.json.encode(value))


def main() -> int:
    root, dest = Path(sys.argv[1]).resolve(), Path(sys.argv[2])
    items = queries(root)
    ws = open_workspace(root, projects_at(root))
    files, names = lookup_targets(ws)
    first = as_json(answers(ws, items, files, names))
    again = as_json(answers(ws, items[::-1], files[::-1], names[::-1]))
    fresh = as_json(answers(open_workspace(root, projects_at(root)), items, files, names))
    bad = [k for k in first if first[k] != again[k] or first[k] != fresh[k]]
    dest.write_text(json.dumps(first, indent=1, sort_keys=True))
    print(f"{len(items)} queries, {len(first)} answers -> {dest}; differing between runs: {len(bad)}")
    for k in bad[:10]:
        print("  differs:", k)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
