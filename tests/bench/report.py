"""docs/performance.md and its chart, written from one suite run's results.

The page is regenerated whole on every run, except blocks between `<!-- keep -->` and
`<!-- /keep -->`: the analysis of misses and hand measurements, which no run can write.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from . import phase_table

KEEP = re.compile(r"<!-- keep -->.*?<!-- /keep -->", re.S)
TARGET_SEARCH_AT = 8000  # scripts: the size the warm-latency targets are stated for


def _g(m: dict, *path: str) -> float | None:
    cur = m
    for p in path:
        if not isinstance(cur, dict) or cur.get(p) is None:
            return None
        cur = cur[p]
    return cur if isinstance(cur, int | float) else None


def ratios(m: dict) -> dict:
    """Comparisons measured in the same run, on the same tree."""
    out: dict[str, float] = {}

    def put(name: str, a: float | None, b: float | None) -> None:
        if a is not None and b:
            out[name] = a / b

    put("cold_index_csharp_vs_ctags", _g(m, "cold_index_csharp", "wall", "median"), _g(m, "ctags_csharp", "median"))
    put("cold_index_csharp_vs_tsparse", _g(m, "cold_index_csharp", "wall", "median"), _g(m, "tsparse_csharp", "median"))
    put("cold_index_csharp_vs_tsquery", _g(m, "cold_index_csharp", "wall", "median"), _g(m, "tsquery_csharp", "median"))
    put("tsquery_vs_tsparse", _g(m, "tsquery_csharp", "median"), _g(m, "tsparse_csharp", "median"))
    put("first_query_vs_cold_index", _g(m, "first_query", "median"), _g(m, "cold_index", "wall", "median"))
    scanned = _g(m, "cold_index", "bytes")
    put("index_size_vs_scanned", (_g(m, "index_size", "total_mb") or 0) * 1e6 or None, scanned)
    share = phase_table.post_scan_share((m.get("cold_index") or {}).get("phases") or {})
    if share is not None:
        out["post_scan_max_share"] = share[0]
    put("cold_index_vs_cat", _g(m, "cold_index", "wall", "median"), _g(m, "cat", "median"))
    noop, py, git = (
        _g(m, "noop_refresh", "cli", "median"),
        _g(m, "python_pass", "median"),
        _g(m, "git_status", "median"),
    )
    if noop is not None and py is not None:
        floor = py + (git or 0)
        out["noop_minus_floor_s"] = noop - floor
        out["noop_vs_floor"] = noop / floor
    put("warm_search_p50_vs_bm25", _g(m, "warm", "search", "p50"), _g(m, "bm25", "search", "p50"))
    put("warm_search_p95_vs_bm25", _g(m, "warm", "search", "p95"), _g(m, "bm25", "search", "p95"))
    put("cold_query_vs_python_pass", _g(m, "cold_cli_query", "median"), _g(m, "python_pass", "median"))
    return out


def _refresh_worst(m: dict) -> tuple[float | None, str]:
    worst, which = None, ""
    for edit, v in (m.get("one_file_refresh") or {}).items():
        x = _g(v, "in_process", "median")
        if x is not None and (worst is None or x > worst):
            worst, which = x, edit
    return worst, which


TARGETS: list[tuple[str, str]] = [
    ("cold index of the C#-only tree <= 1.5x tree-sitter's parse of it on all cores", "tsparse"),
    ("no phase after scanning over 25% of the cold index (largest: write, roles, adjacency, commit)", "phase"),
    ("index size on disk <= 1.0x the bytes scanned", "size"),
    ("first query without an index <= 2x the cold index", "first_query"),
    ("Unity YAML scanning >= 20 MB/s (one core)", "yaml"),
    ("no-op refresh <= (python -c pass + git status) + 0.25 s", "noop"),
    ("one-file refresh <= 150 ms (in-process update of the changed path, worst edit kind)", "refresh"),
    ("watch latency p95 <= 300 ms (write to visible in search)", "watch"),
    (f"warm search p95 <= 10 ms (stated at {TARGET_SEARCH_AT:,} scripts)", "search"),
    (f"warm context p95 <= 50 ms (stated at {TARGET_SEARCH_AT:,} scripts)", "context"),
    ("cold CLI query <= 0.5 s", "cold_query"),
    ("peak memory <= 600 MB while indexing (stated at 20k scripts)", "rss"),
]


def target_cell(key: str, m: dict, r: dict) -> tuple[str, bool | None]:
    """Measured value as text, and whether the target is met (None: not measured)."""

    def fmt(v: float | None, limit: float, text: str, below: bool = True) -> tuple[str, bool | None]:
        if v is None:
            return "n/a", None
        return text.format(v), (v <= limit) if below else (v >= limit)

    if key == "tsparse":
        return fmt(r.get("cold_index_csharp_vs_tsparse"), 1.5, "{:.2f}x")
    if key == "phase":
        share = phase_table.post_scan_share((m.get("cold_index") or {}).get("phases") or {})
        text, ok = fmt(share[0] * 100 if share else None, 25, "{:.0f}%")
        return (f"{text} ({share[1]})" if share else text), ok
    if key == "size":
        return fmt(r.get("index_size_vs_scanned"), 1.0, "{:.2f}x")
    if key == "first_query":
        return fmt(r.get("first_query_vs_cold_index"), 2.0, "{:.2f}x")
    if key == "yaml":
        return fmt(_g(m, "scan", "unity_yaml", "mb_per_s", "median"), 20, "{:.1f} MB/s", below=False)
    if key == "noop":
        return fmt(r.get("noop_minus_floor_s"), 0.25, "+{:.2f} s")
    if key == "refresh":
        worst, which = _refresh_worst(m)
        text, ok = fmt(worst, 150, "{:.0f} ms")
        return (f"{text} ({which})" if which else text), ok
    if key == "watch":
        return fmt(_g(m, "watch", "all", "p95"), 300, "{:.0f} ms")
    if key == "search":
        return fmt(_g(m, "warm", "search", "p95"), 10, "{:.1f} ms")
    if key == "context":
        return fmt(_g(m, "warm", "context", "p95"), 50, "{:.1f} ms")
    if key == "cold_query":
        return fmt(_g(m, "cold_cli_query", "median"), 0.5, "{:.2f} s")
    if key == "rss":
        rss, pss = _g(m, "cold_index", "max_rss_mb", "median"), _g(m, "cold_index", "tree_pss_mb", "median")
        if rss is None:
            return "n/a", None
        worst = max(rss, pss or 0)
        return f"{rss:.0f} MB / {pss or 0:.0f} MB", worst <= 600
    return "n/a", None


def _s(st: dict | None, scale: float = 1.0, digits: int = 2, key: str = "median") -> str:
    if not st or st.get(key) is None:
        return "n/a"
    v, lo, hi = st[key] * scale, st["min"] * scale, st["max"] * scale
    if st.get("n", 1) == 1:
        return f"{v:.{digits}f}"
    return f"{v:.{digits}f} ({lo:.{digits}f}–{hi:.{digits}f})"


def _pct(st: dict | None, digits: int = 1) -> str:
    if not st:
        return "n/a"
    return f"{st.get('p50', st['median']):.{digits}f} / {st.get('p95', st['max']):.{digits}f}"


def result_rows(m: dict, point: dict) -> list[tuple[str, str]]:
    ci, cs = m.get("cold_index") or {}, m.get("cold_index_csharp") or {}
    rows = [
        ("files / bytes scanned", f"{ci.get('files', 0):,} / {ci.get('bytes', 0) / 1e6:.1f} MB"),
        ("cold index, wall (s)", _s(ci.get("wall"))),
        ("cold index, files/s / MB/s", f"{ci.get('files_per_s', 0):,.0f} / {ci.get('mb_per_s', 0):.1f}"),
        ("cold index, max RSS of one process (MB)", _s(ci.get("max_rss_mb"), digits=0)),
        ("cold index, peak PSS of the process tree (MB)", _s(ci.get("tree_pss_mb"), digits=0)),
        ("cold index of the C#-only tree, wall (s)", _s(cs.get("wall"))),
        ("universal-ctags on the C#-only tree (s)", _s(m.get("ctags_csharp"))),
        ("tree-sitter parse of the C#-only tree, all cores (s)", _s(m.get("tsparse_csharp"))),
        ("that parse with the C# scanner's query, all cores (s)", _s(m.get("tsquery_csharp"))),
        ("first query without an index, CLI (s)", _s(m.get("first_query"))),
        ("cat every file once (s)", _s(m.get("cat"))),
    ]
    for kind, v in sorted((m.get("scan") or {}).items()):
        cpu = v.get("mb_per_cpu_s", {}).get("median")
        cell = f"{_s(v['mb_per_s'], digits=1)} [{v['mb']:.1f}]" + (f" {{CPU: {cpu:.1f}}}" if cpu else "")
        rows.append((f"scanner {kind}, MB/s (one core) [MB sampled] {{per CPU second}}", cell))
    noop = m.get("noop_refresh") or {}
    rows += [
        ("no-op refresh, CLI (s)", _s(noop.get("cli"))),
        ("no-op refresh, in-process update (ms)", _s(noop.get("in_process"), digits=0)),
        ("python -c pass (s)", _s(m.get("python_pass"))),
        ("git status (s)", _s(m.get("git_status"))),
    ]
    for edit, v in (m.get("one_file_refresh") or {}).items():
        rows.append((f"one-file refresh {edit}, in-process, path known (ms)", _s(v.get("in_process"), digits=0)))
        if v.get("in_process_found"):
            label = f"one-file refresh {edit}, in-process, found by git or a walk (ms)"
            rows.append((label, _s(v["in_process_found"], digits=0)))
        rows.append((f"one-file refresh {edit}, CLI (s)", _s(v.get("cli"))))
    w = m.get("watch") or {}
    rows.append(("watch latency p50 / p95 (ms)", _pct(w.get("all"), 0) + f" ({w.get('timeouts', 0)} timeouts)"))
    rows.append(("watch latency atomic save p50 / p95 (ms)", _pct(w.get("atomic"), 0)))
    rows.append(("watch latency in-place write p50 / p95 (ms)", _pct(w.get("in_place"), 0)))
    warm = m.get("warm") or {}
    rows.append(("warm search p50 / p95 (ms)", _pct(warm.get("search"))))
    rows.append(("warm context (8k budget) p50 / p95 (ms)", _pct(warm.get("context"))))
    bm = m.get("bm25") or {}
    rows.append(("plain BM25 over whole files p50 / p95 (ms)", _pct(bm.get("search"), 2)))
    rows.append(("cold CLI query (s)", _s(m.get("cold_cli_query"))))
    rows.append(("MCP search round trip, stdio, p50 / p95 (ms)", _pct(m.get("mcp_search"))))
    size = m.get("index_size") or {}
    rows.append(
        (
            "index size: total / records.db / tantivy (MB)",
            f"{size.get('total_mb', 0):.1f} / {size.get('records_mb', 0):.1f} / {size.get('tantivy_mb', 0):.1f}",
        )
    )
    rows.append(("suite time for this point (s)", f"{point.get('seconds', 0):.0f}"))
    if point.get("sources"):
        rows.append(("indexer sources measured (hash of indexer/ and mcp_adapter/)", point["sources"]))
    if point.get("load_before"):
        load = f"{point['load_before'][0]:.1f} / {point.get('load_after', [0])[0]:.1f}"
        rows.append(("load average (1 min) before / after the point", load))
    return rows


RATIO_ROWS = [
    ("cold index (C#-only) / tree-sitter parse on all cores", "cold_index_csharp_vs_tsparse", "{:.2f}x"),
    ("parse with the scanner's query / parse alone (a scanner's floor)", "tsquery_vs_tsparse", "{:.2f}x"),
    ("cold index (C#-only) / parse with the scanner's query", "cold_index_csharp_vs_tsquery", "{:.2f}x"),
    ("cold index (C#-only) / ctags", "cold_index_csharp_vs_ctags", "{:.1f}x"),
    ("first query without an index / cold index", "first_query_vs_cold_index", "{:.2f}x"),
    ("index size / bytes scanned", "index_size_vs_scanned", "{:.2f}x"),
    ("cold index / cat (I/O floor)", "cold_index_vs_cat", "{:.0f}x"),
    ("no-op refresh - (python -c pass + git status)", "noop_minus_floor_s", "{:+.2f} s"),
    ("no-op refresh / (python -c pass + git status)", "noop_vs_floor", "{:.1f}x"),
    ("warm search p50 / plain BM25 p50", "warm_search_p50_vs_bm25", "{:.0f}x"),
    ("warm search p95 / plain BM25 p95", "warm_search_p95_vs_bm25", "{:.0f}x"),
    ("cold CLI query / python -c pass", "cold_query_vs_python_pass", "{:.1f}x"),
]


def growth(points: list[dict]) -> list[tuple[str, list[str]]]:
    """Cost per 1,000 scripts at each size, and relative to the smallest size (1.00 = linear)."""
    syn = sorted((p for p in points if p.get("kind") == "synthetic"), key=lambda p: p["scripts"])
    series = {
        "cold index (s)": lambda m: _g(m, "cold_index", "wall", "median"),
        "cold index, C#-only (s)": lambda m: _g(m, "cold_index_csharp", "wall", "median"),
        "ctags, C#-only (s)": lambda m: _g(m, "ctags_csharp", "median"),
        "index size (MB)": lambda m: _g(m, "index_size", "total_mb"),
        "peak PSS of the tree (MB)": lambda m: _g(m, "cold_index", "tree_pss_mb", "median"),
    }
    rows = []
    for name, fn in series.items():
        per = [(fn(p["measures"]), p["scripts"]) for p in syn]
        base = next((v / n for v, n in per if v), None)
        cells = []
        for v, n in per:
            if v is None or not base:
                cells.append("n/a")
            else:
                cells.append(f"{v / n * 1000:.2f} ({v / n / base:.2f})")
        rows.append((name, cells))
    return rows


def chart_svg(points: list[dict]) -> str:
    """Cost against size, log-log, one line per measure (no plotting library needed)."""
    syn = sorted((p for p in points if p.get("kind") == "synthetic"), key=lambda p: p["scripts"])
    series = [
        ("cold index", "#d62728", lambda m: _g(m, "cold_index", "wall", "median")),
        ("cold index, C# only", "#ff9896", lambda m: _g(m, "cold_index_csharp", "wall", "median")),
        ("ctags, C# only", "#7f7f7f", lambda m: _g(m, "ctags_csharp", "median")),
        ("tree-sitter parse, C# only", "#ffbb78", lambda m: _g(m, "tsparse_csharp", "median")),
        ("cat every file", "#bcbd22", lambda m: _g(m, "cat", "median")),
        ("no-op refresh (CLI)", "#1f77b4", lambda m: _g(m, "noop_refresh", "cli", "median")),
        ("git status", "#aec7e8", lambda m: _g(m, "git_status", "median")),
        ("one-file refresh (worst, in-process)", "#2ca02c", lambda m: (_refresh_worst(m)[0] or 0) / 1000 or None),
        ("watch latency p95", "#9467bd", lambda m: (_g(m, "watch", "all", "p95") or 0) / 1000 or None),
        ("warm context p95", "#8c564b", lambda m: (_g(m, "warm", "context", "p95") or 0) / 1000 or None),
        ("warm search p95", "#e377c2", lambda m: (_g(m, "warm", "search", "p95") or 0) / 1000 or None),
        ("plain BM25 p95", "#17becf", lambda m: (_g(m, "bm25", "search", "p95") or 0) / 1000 or None),
    ]
    w, h, left, right, top, bottom = 900, 520, 70, 270, 30, 50
    xs = [p["scripts"] for p in syn] or [1000]
    x0, x1 = math.log10(min(xs)) - 0.1, math.log10(max(xs)) + 0.1
    vals = [fn(p["measures"]) for _n, _c, fn in series for p in syn]
    vals = [v for v in vals if v]
    y0 = math.floor(math.log10(min(vals))) if vals else -3
    y1 = math.ceil(math.log10(max(vals))) if vals else 2
    y1 = max(y1, y0 + 1)

    def px(x: float) -> float:
        return left + (math.log10(x) - x0) / (x1 - x0 or 1) * (w - left - right)

    def py(y: float) -> float:
        return h - bottom - (math.log10(y) - y0) / (y1 - y0) * (h - top - bottom)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<text x="{left}" y="18" font-size="14">Cost against project size (log-log; seconds, medians)</text>',
    ]
    for e in range(y0, y1 + 1):
        y = py(10**e)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{w - right}" y2="{y:.1f}" stroke="#ddd"/>')
        label = f"{10**e:g} s" if e >= 0 else f"{10 ** (e + 3):g} ms"
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
    for n in xs:
        x = px(n)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{h - bottom}" stroke="#eee"/>')
        out.append(f'<text x="{x:.1f}" y="{h - bottom + 16}" text-anchor="middle">{n:,}</text>')
    out.append(
        f'<text x="{(left + w - right) / 2}" y="{h - 12}" text-anchor="middle">C# scripts (assets in proportion)</text>'
    )
    for i, (name, color, fn) in enumerate(series):
        pts = [(px(p["scripts"]), py(v)) for p in syn if (v := fn(p["measures"]))]
        if pts:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
            out.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2"/>')
            out += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{color}"/>' for x, y in pts]
        ly = top + 10 + i * 20
        out.append(
            f'<line x1="{w - right + 15}" y1="{ly}" x2="{w - right + 40}" y2="{ly}" stroke="{color}" stroke-width="3"/>'
        )
        out.append(f'<text x="{w - right + 46}" y="{ly + 4}">{name}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


DEFAULT_KEEP = (
    "<!-- keep -->\n## Analysis\n\n(Written by hand after a run: misses, why, and what would close them.)\n"
    "<!-- /keep -->"
)


def write(results: dict, docs: Path) -> None:
    """docs/performance.md (and performance-chart.svg beside it) from `results`."""
    kept = KEEP.findall(docs.read_text(encoding="utf-8")) if docs.exists() else []
    docs.parent.mkdir(parents=True, exist_ok=True)
    svg = docs.with_name(docs.stem + "-chart.svg")
    svg.write_text(chart_svg(results["points"]), encoding="utf-8")
    docs.write_text(markdown(results, svg.name, kept or [DEFAULT_KEEP]), encoding="utf-8")


def markdown(results: dict, svg_name: str, kept: list[str]) -> str:
    points = results["points"]
    mach = results["machine"]
    heads = [p["label"] for p in points]
    lines = [
        "# Performance",
        "",
        "Written by the benchmark suite (`tests/bench/`); every figure below comes from one run of",
        "the command shown, except the blocks marked as kept, which the suite carries over unchanged.",
        "Each figure is the median of repeated runs with (min–max); latencies give p50 / p95 over",
        "many samples; every comparison is a ratio of two figures measured in the same run, on the",
        "same tree. The page cache is warm for every figure (baselines included), and the",
        "indexer's modules are compiled to bytecode first, as installing the package does.",
        "",
        "## The run",
        "",
        *[f"- command: {c if c.startswith('`') else f'`{c}`'}" for c in results.get("commands", [results["command"]])],
        f"- indexer commit: `{results.get('commit', '')[:12]}`"
        + (" with uncommitted changes in indexer/ or mcp_adapter/" if results.get("dirty") else ""),
        f"- started {results.get('started', '')}, took {results.get('seconds', 0) / 60:.0f} min",
        f"- machine: {mach.get('cores')} cores, {mach.get('cpu') or 'unknown CPU'}, {mach.get('ram_gib')} GiB RAM,"
        f" {mach.get('os')}; Python {mach.get('python')}; {mach.get('ctags', '')}; {mach.get('git', '')}",
        f"- settings: {results.get('settings')}",
        "",
        "## Targets",
        "",
        "| target | " + " | ".join(heads) + " |",
        "|---|" + "---|" * len(heads),
    ]
    for title, key in TARGETS:
        cells = []
        for p in points:
            text, ok = target_cell(key, p["measures"], p.get("ratios", {}))
            cells.append(text + ("" if ok is None else (" met" if ok else " **missed**")))
        lines.append(f"| {title} | " + " | ".join(cells) + " |")
    g = growth(points)
    lines += [
        "",
        "Peak memory is given as the largest single process (`/usr/bin/time`) / the summed PSS of the",
        "whole process tree (sampled every 50 ms); the target is checked against the larger.",
        "",
        "## Results by project",
        "",
        "| measure | " + " | ".join(heads) + " |",
        "|---|" + "---|" * len(heads),
    ]
    rows_by_point = [dict(result_rows(p["measures"], p)) for p in points]
    for name in dict.fromkeys(n for rows in rows_by_point for n in rows):
        lines.append(f"| {name} | " + " | ".join(r.get(name, "n/a") for r in rows_by_point) + " |")
    lines += ["", "## Compared with the baselines (same run, same tree)", ""]
    lines += ["| ratio | " + " | ".join(heads) + " |", "|---|" + "---|" * len(heads)]
    for title, key, fmt in RATIO_ROWS:
        cells = [fmt.format(p["ratios"][key]) if key in p.get("ratios", {}) else "n/a" for p in points]
        lines.append(f"| {title} | " + " | ".join(cells) + " |")
    lines += ["", *phase_table.lines(points)]
    syn = sorted((p for p in points if p.get("kind") == "synthetic"), key=lambda p: p["scripts"])
    lines += [
        "## Growth with size",
        "",
        f"![cost against size]({svg_name})",
        "",
        "Cost per 1,000 scripts, and in brackets relative to the smallest size (1.00 is linear growth):",
        "",
        "| measure | " + " | ".join(f"{p['scripts']:,} scripts" for p in syn) + " |",
        "|---|" + "---|" * len(syn),
    ]
    lines += [f"| {name} | " + " | ".join(cells) + " |" for name, cells in g]
    lines += ["", "## The generated projects", ""]
    if syn:
        kinds = sorted({k for p in syn for k in p["generated"]["counts"]})
        lines += ["| | " + " | ".join(f"{p['scripts']:,}" for p in syn) + " |", "|---|" + "---|" * len(syn)]
        for k in kinds:
            cells = [f"{p['generated']['counts'][k]:,}" if k in p["generated"]["counts"] else "–" for p in syn]
            lines.append(f"| {k} | " + " | ".join(cells) + " |")
        bkinds = sorted({k for p in syn for k in p["generated"]["bytes_by_kind"]})
        for k in bkinds:
            vals = [p["generated"]["bytes_by_kind"].get(k, 0) / 1e6 for p in syn]
            lines.append(f"| MB of {k} | " + " | ".join(f"{v:.1f}" for v in vals) + " |")
        lines.append("| seconds to generate | " + " | ".join(f"{p['generated']['seconds']:.1f}" for p in syn) + " |")
        lines += [
            "",
            "`python -m tests.bench.generator OUT --scripts N --seed S` writes one alone. Queries are",
            "task-like sentences built from the generated vocabulary (for example"
            f' "{syn[0]["queries"][0]}"), the same for the indexer and the BM25 baseline.',
        ]
    lines += ["", "\n\n".join(kept), ""]
    return "\n".join(lines)


def merge(results: list[dict]) -> dict:
    """Several runs as one page: later runs replace the points of the same label (the page then
    lists every command; ratios stay within one point, so within one run)."""
    out = {**results[0], "points": list(results[0]["points"])}
    for r in results[1:]:
        labels = {p["label"] for p in r["points"]}
        out["points"] = [p for p in out["points"] if p["label"] not in labels] + r["points"]
        note = f" (commit {r.get('commit', '')[:12]}{', with uncommitted changes' if r.get('dirty') else ''})"
        later = f"`{r['command']}`{note}, for {', '.join(sorted(labels))}"
        out["commands"] = [*out.get("commands", [out["command"]]), later]
        out["seconds"] = out.get("seconds", 0) + r.get("seconds", 0)
    out["points"].sort(key=lambda p: (p.get("kind") != "synthetic", p.get("scripts", 0)))
    return out


def main() -> None:
    """Render the page again: `python -m tests.bench.report RESULTS.json [MORE.json ...] [--docs PATH]`."""
    import argparse
    import json

    ap = argparse.ArgumentParser()
    ap.add_argument("results", nargs="+", type=Path)
    ap.add_argument("--docs", type=Path, default=Path(__file__).resolve().parents[2] / "docs" / "performance.md")
    args = ap.parse_args()
    write(merge([json.loads(p.read_text()) for p in args.results]), args.docs)


if __name__ == "__main__":
    main()
