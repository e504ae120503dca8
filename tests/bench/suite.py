"""The benchmark suite: synthetic scale points (and real projects), every cost with its baseline
measured in the same run, written as JSON and as docs/performance.md with a chart.

usage: .venv/bin/python -m tests.bench.suite [--sizes 1000,5000,20000,50000] [--project PATH ...]
           [--repeat 3] [--samples 60] [--writes 20] [--out results.json] [--docs docs/performance.md]
           [--work DIR] [--quick]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import baselines, measures, report
from .generator import generate
from .measure import stat
from .vocab import task_queries

REPO = Path(__file__).resolve().parents[2]


def machine() -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        mem_kb = int(Path("/proc/meminfo").read_text().split("MemTotal:")[1].split()[0])
    except (OSError, IndexError, ValueError):
        mem_kb = 0
    import tantivy

    return {
        "cores": os.cpu_count(),
        "cpu": cpu,
        "ram_gib": round(mem_kb / 1024 / 1024, 1),
        "python": platform.python_version(),
        "os": platform.platform(),
        "tantivy": getattr(tantivy, "__version__", ""),
        "ctags": _first_line(["ctags", "--version"]),
        "git": _first_line(["git", "--version"]),
    }


def _first_line(cmd: list[str]) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        return ""


def commit() -> dict:
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True).stdout.strip()

    return {
        "commit": git("rev-parse", "HEAD"),
        "dirty": bool(git("status", "--porcelain", "--", "indexer", "mcp_adapter")),
    }


def source_fingerprint() -> str:
    """Hash of the indexer's sources as they are now: the tree may differ from the commit."""
    h = hashlib.sha1()
    for p in sorted([*REPO.glob("indexer/**/*.py"), *REPO.glob("mcp_adapter/**/*.py")]):
        h.update(p.relative_to(REPO).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:12]


def csharp_only(root: Path, dest: Path) -> Path:
    """The project's C# files alone (hard links), as a project: the tree ctags is compared on."""
    shutil.rmtree(dest, ignore_errors=True)
    (dest / "ProjectSettings").mkdir(parents=True)
    for rel, kind in baselines.content_files(root):
        if kind == "csharp" and rel.startswith("Assets/"):
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(root / rel, target)
            except OSError:
                shutil.copy2(root / rel, target)
    return dest


def _log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def measure_point(label: str, root: Path, work: Path, opts: argparse.Namespace, info: dict) -> dict:
    """Every figure for one project, in an order where each step leaves the index as the next needs it."""
    r, s = opts.repeat, opts.samples
    point: dict = {"label": label, "root": str(root), **info, "load_before": os.getloadavg()}
    point["sources"] = source_fingerprint()
    m: dict = {}
    _log(f"{label}: baselines")
    cs_tree = csharp_only(root, work / f"{root.name}-csharp-only")
    m["python_pass"] = baselines.python_pass(max(r, 5))
    m["cat"] = baselines.cat_all(root, r)
    m["git_status"] = baselines.git_status(root, max(r, 5))
    _log(f"{label}: scanner throughput")
    m["scan"] = measures.scan_throughput(root, r, cap_bytes=opts.scan_cap)
    _log(f"{label}: cold index of the C#-only tree, in turn with ctags and tree-sitter's parse of it")
    cs_baselines = baselines.CsharpBaselines(cs_tree / "Assets")
    m["cold_index_csharp"] = measures.cold_index(cs_tree, r, beside=cs_baselines.run_once)
    m["ctags_csharp"], m["tsparse_csharp"], m["tsquery_csharp"] = cs_baselines.results()
    shutil.rmtree(cs_tree, ignore_errors=True)
    _log(f"{label}: cold index, in turn with the first query without an index")
    first: list[float] = []
    m["cold_index"] = measures.cold_index(
        root, r, beside=lambda: first.append(measures.first_query(root, info["queries"][len(first) % 5]))
    )
    m["first_query"] = stat(first)
    m["index_size"] = measures.index_size(root)
    _log(f"{label}: no-op refresh")
    m["noop_refresh"] = measures.noop_refresh(root, max(r, 5))
    queries = info["queries"]
    _log(f"{label}: warm search and context")
    m["warm"] = measures.warm_latency(root, queries, s)
    bm25 = baselines.PlainBM25(root, work / f"{root.name}-bm25")
    m["bm25"] = {"build_s": bm25.build_seconds, "search": bm25.latency(queries, s)}
    shutil.rmtree(work / f"{root.name}-bm25", ignore_errors=True)
    _log(f"{label}: cold CLI query, MCP search")
    m["cold_cli_query"] = measures.cold_cli_query(root, queries, max(r, 5))
    m["mcp_search"] = measures.mcp_search(root, queries, s)
    _log(f"{label}: one-file refresh")
    m["one_file_refresh"] = measures.one_file_refresh(
        root, info["script_paths"], info["behaviour_paths"], info["prefab_paths"], max(r, 5)
    )
    if info["behaviour_paths"]:
        _log(f"{label}: watch latency")
        m["watch"] = measures.watch_latency(root, info["behaviour_paths"], opts.writes)
    point["measures"] = m
    point["load_after"] = os.getloadavg()
    point["ratios"] = report.ratios(m)
    return point


def synthetic_info(root: Path, scripts: int, seed: int, queries: int) -> dict:
    summary = generate(root, scripts, seed)
    behaviours = [p for p in summary.script_paths if "/Scripts/" in p and _is_behaviour(root / p)]
    return {
        "kind": "synthetic",
        "scripts": scripts,
        "seed": seed,
        "generated": {"counts": summary.counts, "bytes_by_kind": summary.bytes_by_kind, "seconds": summary.seconds},
        "queries": task_queries(summary.type_names, queries, seed),
        "script_paths": summary.script_paths,
        "behaviour_paths": behaviours,
        "prefab_paths": summary.prefab_paths,
    }


def _is_behaviour(path: Path) -> bool:
    return ": MonoBehaviour" in path.read_text(encoding="utf-8")


def real_info(root: Path, queries: int, seed: int) -> dict:
    files = baselines.content_files(root)
    scripts = [p for p, k in files if k == "csharp"]
    names = [Path(p).stem for p in scripts]
    behaviours = [p for p in scripts if _is_behaviour(root / p)][:200]
    return {
        "kind": "real",
        "scripts": len(scripts),
        "queries": task_queries(names, queries, seed),
        "script_paths": scripts,
        "behaviour_paths": behaviours,
        "prefab_paths": [p for p, k in files if k == "prefab"],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="unity-index benchmark suite")
    ap.add_argument("--sizes", default="1000,5000,20000,50000", help="synthetic scale points, in scripts")
    ap.add_argument("--project", action="append", type=Path, default=[], help="a real project (copied first)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="runs of each expensive figure")
    ap.add_argument("--samples", type=int, default=60, help="samples of each latency figure")
    ap.add_argument("--writes", type=int, default=20, help="file writes timed through the watcher")
    ap.add_argument("--queries", type=int, default=30)
    ap.add_argument("--scan-cap", type=int, default=8_000_000, help="bytes per kind for scanner throughput")
    ap.add_argument("--out", type=Path, default=REPO / "docs" / "performance-results.json")
    ap.add_argument("--docs", type=Path, default=REPO / "docs" / "performance.md")
    ap.add_argument("--work", type=Path, help="where projects are generated (default: a temporary folder)")
    ap.add_argument("--keep", action="store_true", help="keep the generated projects")
    ap.add_argument("--quick", action="store_true", help="smoke run: tiny size, one run of everything")
    opts = ap.parse_args(argv)
    if opts.quick:
        opts.sizes, opts.repeat, opts.samples, opts.writes, opts.queries = "40", 1, 10, 2, 5
        opts.scan_cap = 200_000
    sizes = [int(x) for x in opts.sizes.split(",") if x.strip()]
    work = opts.work or Path(tempfile.mkdtemp(prefix="unity-index-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    measures.bytecode()
    started = time.time()
    results: dict = {
        "command": "python -m tests.bench.suite " + " ".join(sys.argv[1:] if argv is None else argv),
        "started": time.strftime("%Y-%m-%d %H:%M:%S %Z", time.localtime(started)),
        "machine": machine(),
        **commit(),
        "settings": {k: v for k, v in vars(opts).items() if k in ("repeat", "samples", "writes", "queries", "seed")},
        "points": [],
    }
    try:
        for n in sizes:
            root = work / f"synthetic-{n}"
            t_point = time.time()
            shutil.rmtree(root, ignore_errors=True)
            _log(f"generating {n} scripts in {root}")
            info = synthetic_info(root, n, opts.seed, opts.queries)
            point = measure_point(f"synthetic {n}", root, work, opts, info)
            point["seconds"] = time.time() - t_point
            results["points"].append(point)
            _save(results, opts)
            if not opts.keep:
                shutil.rmtree(root, ignore_errors=True)
        for src in opts.project:
            root = work / src.resolve().name
            t_point = time.time()
            shutil.rmtree(root, ignore_errors=True)
            shutil.copytree(src, root, ignore=shutil.ignore_patterns("Library", "Temp", "Logs", ".git"), symlinks=True)
            point = measure_point(
                f"real {src.resolve().name}", root, work, opts, real_info(root, opts.queries, opts.seed)
            )
            point["seconds"] = time.time() - t_point
            results["points"].append(point)
            _save(results, opts)
            if not opts.keep:
                shutil.rmtree(root, ignore_errors=True)
    finally:
        if not opts.work and not opts.keep:
            shutil.rmtree(work, ignore_errors=True)
    results["seconds"] = time.time() - started
    _save(results, opts)
    _log(f"done in {results['seconds']:.0f} s: {opts.out}, {opts.docs}")
    return 0


def _save(results: dict, opts: argparse.Namespace) -> None:
    slim = {**results, "points": [_slim(p) for p in results["points"]]}
    opts.out.parent.mkdir(parents=True, exist_ok=True)
    opts.out.write_text(json.dumps(slim, indent=1) + "\n")
    report.write(slim, opts.docs)


def _slim(point: dict) -> dict:
    """The JSON keeps figures, not the path lists the measurements needed."""
    return {k: v for k, v in point.items() if k not in ("script_paths", "behaviour_paths", "prefab_paths")}


if __name__ == "__main__":
    sys.exit(main())
