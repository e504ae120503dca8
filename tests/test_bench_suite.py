"""The benchmark suite at a tiny size, end to end, so it cannot rot: every measurement runs once
and the JSON, the page and the chart are written. Timings are never asserted."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bench import report, suite

MEASURES = {
    "python_pass", "cat", "ctags_csharp", "tsparse_csharp", "tsquery_csharp", "git_status", "first_query",
    "scan", "cold_index_csharp", "cold_index", "index_size",
    "noop_refresh", "warm", "bm25", "cold_cli_query", "mcp_search", "one_file_refresh", "watch",
}  # fmt: skip


def test_quick_run_writes_results_page_and_chart(tmp_path: Path) -> None:
    docs = tmp_path / "docs" / "performance.md"
    docs.parent.mkdir()
    docs.write_text("old\n<!-- keep -->\n## Analysis\nHAND-WRITTEN\n<!-- /keep -->\nold tail\n")
    out = tmp_path / "results.json"
    assert suite.main(["--quick", "--work", str(tmp_path / "work"), "--out", str(out), "--docs", str(docs)]) == 0

    results = json.loads(out.read_text())
    assert results["machine"]["cores"] >= 1 and len(results["commit"]) == 40
    [point] = results["points"]
    assert point["label"] == "synthetic 40" and point["generated"]["counts"]["scripts"] == 40
    m = point["measures"]
    assert set(m) == MEASURES
    assert m["cold_index"]["files"] == point["generated"]["counts"]["files"]  # the .gitignore is not content
    assert m["watch"]["timeouts"] == 0 and m["watch"]["all"]["n"] == 2
    assert m["warm"]["search"]["n"] == 10 and m["mcp_search"]["n"] == 10
    assert set(m["one_file_refresh"]) == {"cs_body", "cs_new_method", "prefab_value"}
    assert "unity_yaml" in m["scan"] and "csharp" in m["scan"]
    assert set(point["ratios"]) >= {
        "cold_index_csharp_vs_ctags", "cold_index_csharp_vs_tsparse", "cold_index_csharp_vs_tsquery",
        "tsquery_vs_tsparse", "first_query_vs_cold_index",
        "index_size_vs_scanned", "post_scan_max_share", "noop_minus_floor_s", "warm_search_p50_vs_bm25",
    }  # fmt: skip
    assert m["cold_index"]["phases"]["update_s"] > 0 and "adjacency" in m["cold_index"]["phases"]
    assert m["index_size"]["records_mb"] > 0 and m["index_size"]["tantivy_mb"] > 0

    page = docs.read_text()
    assert "HAND-WRITTEN" in page and "old tail" not in page
    assert "python -m tests.bench.suite --quick" in page
    for title, _key in report.TARGETS:
        assert title in page
    assert "(performance-chart.svg)" in page
    assert "## The cold index phase by phase" in page and "adjacency: file-to-file edges" in page
    svg = (docs.parent / "performance-chart.svg").read_text()
    assert svg.startswith("<svg") and "cold index" in svg
    assert not (tmp_path / "work" / "synthetic-40").exists()  # generated projects are removed


def test_ratios_are_computed_from_the_same_run() -> None:
    m = {
        "cold_index_csharp": {"wall": {"median": 6.0}},
        "ctags_csharp": {"median": 2.0},
        "tsparse_csharp": {"median": 5.0},
        "tsquery_csharp": {"median": 4.0},
        "cold_index": {"wall": {"median": 10.0}, "bytes": 4_000_000, "phases": {"update_s": 9.0, "adjacency": 3.0}},
        "first_query": {"median": 12.0},
        "index_size": {"total_mb": 5.0},
        "noop_refresh": {"cli": {"median": 0.5}},
        "python_pass": {"median": 0.1},
        "git_status": {"median": 0.15},
        "warm": {"search": {"p50": 2.0, "p95": 4.0}},
        "bm25": {"search": {"p50": 0.5, "p95": 1.0}},
    }
    r = report.ratios(m)
    assert r["cold_index_csharp_vs_ctags"] == 3.0
    assert r["noop_minus_floor_s"] == 0.25 and r["noop_vs_floor"] == 2.0
    assert r["warm_search_p50_vs_bm25"] == 4.0 and r["warm_search_p95_vs_bm25"] == 4.0
    assert "cold_index_vs_cat" not in r and r["cold_index_csharp_vs_tsparse"] == 1.2
    assert (r["cold_index_csharp_vs_tsquery"], r["tsquery_vs_tsparse"]) == (1.5, 0.8)
    assert report.target_cell("tsparse", m, r) == ("1.20x", True)
    assert report.target_cell("first_query", m, r) == ("1.20x", True)
    assert report.target_cell("size", m, r) == ("1.25x", False)
    assert report.target_cell("phase", m, r) == ("33% (adjacency)", False)
    assert report.target_cell("noop", m, r) == ("+0.25 s", True)


def test_the_cli_is_timed_from_bytecode_as_an_installed_copy_runs(tmp_path: Path) -> None:
    """docs/performance.md: the suite compiles the indexer's modules before timing the CLI, as
    installing the package does, even where PYTHONDONTWRITEBYTECODE is set."""
    import importlib.util

    from tests.bench import measures

    measures.bytecode()
    sources = [p for package in ("indexer", "mcp_adapter") for p in (measures.REPO / package).rglob("*.py")]
    missing = [p for p in sources if not Path(importlib.util.cache_from_source(str(p))).is_file()]
    assert sources and missing == []
