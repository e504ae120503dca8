"""The indexer's own costs on one project: cold index, refreshes, watch latency, warm and cold
queries, the MCP round trip, scanner throughput by kind and the index's size on disk.

Commands run as a user runs them (the installed `unity-index` in a fresh process); in-process
figures use the indexer's public functions, as the watcher and the MCP server do.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from indexer import scanners
from indexer.build.update import update
from indexer.config import load_config
from indexer.query.context import build_context
from indexer.query.search import Searcher
from indexer.query.tokens import counter
from indexer.query.workspace import open_workspace, projects_at
from indexer.store.header import header_generation
from indexer.store.schema import IndexPaths

from .baselines import content_files
from .measure import dir_bytes, percentile, run, run_measured, stat

REPO = Path(__file__).resolve().parents[2]
PROBE_WORDS = [
    "Axolotl", "Quokka", "Narwhal", "Pangolin", "Okapi", "Tapir", "Capybara", "Wombat", "Ocelot", "Marmoset",
    "Kinkajou", "Fossa", "Gharial", "Dugong", "Saola", "Numbat", "Quoll", "Binturong", "Caracal", "Serval",
    "Jerboa", "Coati", "Tarsier", "Aardwolf",
]  # fmt: skip


def cli() -> list[str]:
    exe = Path(sys.executable).parent / "unity-index"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "indexer.cli"]


def env() -> dict[str, str]:
    return {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(REPO)}


def bytecode() -> None:
    """Compile the indexer's modules once, as installing the package does (pip writes their
    bytecode). Without it, where PYTHONDONTWRITEBYTECODE is set, every CLI run timed would
    compile some 60 modules from source first (70-100 ms of CPU), a cost no installed copy has."""
    import compileall

    for package in ("indexer", "mcp_adapter"):
        compileall.compile_dir(REPO / package, quiet=1)


def index_dir(root: Path) -> Path:
    return load_config(root).index_path(root)


def cold_index(root: Path, n: int, beside: Callable[[], None] | None = None) -> dict:
    """`unity-index index` from nothing: wall, largest-process RSS, tree PSS; files and bytes.

    `beside()` runs before each run: the baselines a ratio compares it with, measured run by run
    in turn with it, so both see the same load of a shared machine."""
    import json

    walls, rss, pss, runs = [], [], [], []
    files = scanned = 0
    for _ in range(n):
        if beside is not None:
            beside()
        shutil.rmtree(index_dir(root), ignore_errors=True)
        r = run_measured([*cli(), "index", "--project", str(root), "--json"], env=env())
        walls.append(r.wall)
        rss.append(r.max_rss_kb / 1024)
        pss.append(r.tree_pss_kb / 1024)
        out = json.loads(r.stdout)
        files, scanned = out["files"], out["bytes_scanned"]
        runs.append((r.wall, out["seconds"], out.get("phases", {})))
    wall = stat(walls)
    median_run = sorted(runs)[len(runs) // 2]
    return {
        # the build's own phase timers (UpdateStats.phases) of the run with the median wall
        "phases": {"update_s": median_run[1], **median_run[2]},
        "wall": wall,
        "max_rss_mb": stat(rss, "MB"),
        "tree_pss_mb": stat(pss, "MB"),
        "files": files,
        "bytes": scanned,
        "files_per_s": files / wall["median"],
        "mb_per_s": scanned / 1e6 / wall["median"],
    }


def noop_refresh(root: Path, n: int) -> dict:
    cmd = [*cli(), "index", "--project", str(root), "--json"]
    run(cmd, env=env())
    cli_times = [run(cmd, env=env()) for _ in range(n)]
    config = load_config(root)
    inproc = [update(root, config).seconds for _ in range(n)]
    return {"cli": stat(cli_times), "in_process": stat([x * 1000 for x in inproc], "ms")}


def _add_method(path: Path, name: str, atomic: bool = False) -> None:
    """A new public method before the type's closing brace (the declarations change)."""
    text = path.read_text(encoding="utf-8")
    cut = text.rstrip().rfind("}", 0, text.rstrip().rfind("}"))
    new = text[:cut] + f"\n        public void {name}()\n        {{\n        }}\n    " + text[cut:]
    if atomic:
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(new, encoding="utf-8")
        os.replace(tmp, path)
    else:
        path.write_text(new, encoding="utf-8")


def _edit_body(path: Path, i: int) -> None:
    """A change inside code only: a comment line (declarations unchanged)."""
    with open(path, "a", encoding="utf-8") as f:
        f.write(f"// edited {i}\n")


def _edit_yaml(path: Path, i: int) -> None:
    text = path.read_text(encoding="utf-8")
    at = text.find("  m_Name: ")
    end = text.find("\n", at)
    path.write_text(text[:end] + f"{i}" + text[end:], encoding="utf-8")


def one_file_refresh(root: Path, scripts: list[str], behaviours: list[str], prefabs: list[str], n: int) -> dict:
    """One file changed, then a refresh, for a C# body edit, a C# new method and a prefab value
    edit: in-process `update(paths=[it])` (what watch, the MCP server and the editor journal run:
    the changed path is known), in-process `update()` that must find it (git in a work tree, else
    a walk), and the whole CLI command."""
    config = load_config(root)
    edits = {
        "cs_body": (scripts, lambda p, i: _edit_body(p, i)),
        "cs_new_method": (behaviours, lambda p, i: _add_method(p, f"BenchEdit{i}")),
        "prefab_value": (prefabs, lambda p, i: _edit_yaml(p, i)),
    }
    cmd = [*cli(), "index", "--project", str(root), "--json"]
    out: dict[str, dict] = {}
    for name, (paths, edit) in edits.items():
        if not paths:
            continue
        edit(root / paths[0], 0)  # warm: scanner modules imported
        update(root, config)
        known, found, whole = [], [], []
        for i in range(n):
            changed = paths[(3 * i + 1) % len(paths)]
            edit(root / changed, i + 1)
            known.append(update(root, config, paths=[changed]).seconds * 1000)
            edit(root / paths[(3 * i + 2) % len(paths)], i + 1)
            found.append(update(root, config).seconds * 1000)
            edit(root / paths[(3 * i + 3) % len(paths)], i + 1)
            whole.append(run(cmd, env=env()))
        out[name] = {"in_process": stat(known, "ms"), "in_process_found": stat(found, "ms"), "cli": stat(whole)}
    return out


def watch_latency(root: Path, behaviours: list[str], writes: int) -> dict:
    """`unity-index watch` running; a file written (atomically and in place, alternating); a new
    reader polls until a search finds the new method: the wait an agent sees."""
    ipaths = IndexPaths(index_dir(root))
    proc = subprocess.Popen(
        [*cli(), "watch", "--project", str(root), "--json"],
        env=env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    ready = threading.Event()

    def read_stderr() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            if "watching" in line:
                ready.set()

    threading.Thread(target=read_stderr, daemon=True).start()
    lat: dict[str, list[float]] = {"atomic": [], "in_place": []}
    timeouts = 0
    try:
        if not ready.wait(120):
            raise RuntimeError("unity-index watch did not start")
        for i in range(writes):
            word = f"{PROBE_WORDS[i % len(PROBE_WORDS)]}{i // len(PROBE_WORDS) or ''}"
            path = behaviours[(7 * i + 3) % len(behaviours)]
            gen = header_generation(ipaths)
            atomic = i % 2 == 0
            t = time.perf_counter()
            _add_method(root / path, f"On{word}Probe", atomic=atomic)
            seen = _wait_visible(ipaths, gen, word, path, deadline=t + 10)
            if seen is None:
                timeouts += 1
            else:
                lat["atomic" if atomic else "in_place"].append((seen - t) * 1000)
            time.sleep(0.25)  # let the watcher's quiet period pass: one write per batch
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    both = lat["atomic"] + lat["in_place"]
    out = {"all": _lat(both), "atomic": _lat(lat["atomic"]), "in_place": _lat(lat["in_place"]), "timeouts": timeouts}
    return out


def _lat(xs: list[float]) -> dict | None:
    if not xs:
        return None
    s = stat(xs, "ms")
    s.setdefault("p95", percentile(xs, 95))
    return s


def _wait_visible(ipaths: IndexPaths, gen: int, word: str, path: str, deadline: float) -> float | None:
    while time.perf_counter() < deadline:
        try:
            now = header_generation(ipaths)
        except Exception:
            now = gen
        if now != gen:
            hits = Searcher(ipaths).search(word, limit=10)
            if any(h.path == path for h in hits):
                return time.perf_counter()
            gen = now
        time.sleep(0.005)
    return None


def warm_latency(root: Path, queries: list[str], samples: int) -> dict:
    """Search and context in one long-lived process (the MCP server's situation)."""
    ws = open_workspace(root, projects_at(root))
    tok = counter("estimate")
    for q in queries[:3]:
        ws.search(q, limit=10)
        build_context(ws, q, 8000, tok)
    out = {}
    for name, fn in (
        ("search", lambda q: ws.search(q, limit=10)),
        ("context", lambda q: build_context(ws, q, 8000, tok)),
    ):
        times = []
        for i in range(samples):
            t = time.perf_counter()
            fn(queries[i % len(queries)])
            times.append((time.perf_counter() - t) * 1000)
        out[name] = _lat(times)
    return out


def cold_cli_query(root: Path, queries: list[str], n: int) -> dict:
    base = [*cli(), "query"]
    return stat(
        [run([*base, queries[i % len(queries)], "--project", str(root), "--json"], env=env()) for i in range(n)]
    )


def mcp_search(root: Path, queries: list[str], samples: int) -> dict:
    """`search` over a stdio MCP session with `unity-index serve`: the full round trip."""
    import anyio
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(
        command=cli()[0], args=[*cli()[1:], "serve", "--project", str(root)], env=env(), cwd=str(REPO)
    )

    async def go() -> list[float]:
        async with Client(params) as c:
            for q in queries[:2]:
                await c.call_tool("search", {"query": q})
            times = []
            for i in range(samples):
                t = time.perf_counter()
                res = await c.call_tool("search", {"query": queries[i % len(queries)]})
                times.append((time.perf_counter() - t) * 1000)
                if res.is_error:
                    raise RuntimeError(f"MCP search failed: {res}")
            return times

    return _lat(anyio.run(go))


def index_size(root: Path) -> dict:
    d = index_dir(root)
    return {
        "total_mb": dir_bytes(d) / 1e6,
        "records_mb": sum(p.stat().st_size for p in d.glob("**/records.db*")) / 1e6,
        "tantivy_mb": sum(dir_bytes(t) for t in d.glob("**/tantivy")) / 1e6,
    }


def first_query(root: Path, query: str) -> float:
    """`unity-index query` on the project with no index (it builds the index, then answers): wall."""
    shutil.rmtree(index_dir(root), ignore_errors=True)
    return run([*cli(), "query", query, "--project", str(root), "--json"], env=env())


YAML_KINDS = frozenset(scanners.UNITY_SERIALIZED_KINDS)


def scan_throughput(root: Path, n: int, cap_bytes: int = 8_000_000) -> dict:
    """Scanner speed by kind on one core, bytes already in memory (a deterministic sample of at
    most `cap_bytes` per kind), and over every Unity YAML kind together."""
    by_kind: dict[str, list[tuple[str, bytes]]] = {}
    sizes: dict[str, int] = {}
    for rel, kind in content_files(root):
        if not scanners.reads_content(kind) or sizes.get(kind, 0) >= cap_bytes:
            continue
        data = (root / rel).read_bytes()
        by_kind.setdefault(kind, []).append((rel, data))
        sizes[kind] = sizes.get(kind, 0) + len(data)
    out: dict[str, dict] = {}
    groups = {k: v for k, v in by_kind.items()}
    groups["unity_yaml"] = [f for k, v in by_kind.items() if k in YAML_KINDS for f in v]
    for kind, files in sorted(groups.items()):
        total = sum(len(d) for _, d in files)
        if not files or total == 0:
            continue
        for rel, data in files[:2]:  # warm: modules imported, queries compiled
            scanners.scan(rel, kind_of_group(kind, rel), data)
        rates, cpu_rates = [], []
        for _ in range(n):
            t, c = time.perf_counter(), time.process_time()
            for rel, data in files:
                scanners.scan(rel, kind_of_group(kind, rel), data)
            rates.append(total / 1e6 / (time.perf_counter() - t))
            cpu_rates.append(total / 1e6 / max(time.process_time() - c, 1e-9))
        out[kind] = {
            "files": len(files),
            "mb": total / 1e6,
            "mb_per_s": stat(rates, "MB/s"),
            # per CPU second of this process: what the wall figure would be on a core of its own
            "mb_per_cpu_s": stat(cpu_rates, "MB/s"),
        }
    return out


def kind_of_group(kind: str, rel: str) -> str:
    if kind != "unity_yaml":
        return kind
    from indexer.project import kind_of

    return kind_of(rel)
