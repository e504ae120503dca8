"""The cold index phase by phase, from the build's own timers (`UpdateStats.phases`, recorded by
`indexer/build/phases.py` in every update), for the run with the median wall of each point."""

from __future__ import annotations

from indexer.build.phases import INDEXER_PHASES, WORKER_PHASES

# What the indexer's process does after (or beside) the scanning: the target says none of these
# may take over a quarter of the cold index.
POST_SCAN = ("write", "roles", "adjacency", "commit", "remember")
LABELS = {
    "walk": "walk and plan (indexer)",
    "scan_wait": "waiting for the scanners (indexer)",
    "write": "write: SQLite rows, compression left to it, tantivy documents (indexer)",
    "roles": "roles of types (indexer)",
    "adjacency": "adjacency: file-to-file edges (indexer)",
    "commit": "commit: indexes, tantivy and SQLite commits (indexer)",
    "remember": "remember: git view, fingerprint (indexer)",
    "read": "read and hash (scanner CPU, all processes)",
    "scan": "scan (scanner CPU, all processes)",
    "documents": "search documents, SQL rows, compression (scanner CPU, all processes)",
}


def post_scan_share(phases: dict) -> tuple[float, str] | None:
    """The largest post-scan phase as a share of the update's seconds, and its name."""
    total = phases.get("update_s")
    if not total:
        return None
    share, name = max((phases.get(p, 0.0) / total, p) for p in POST_SCAN)
    return share, name


def lines(points: list[dict]) -> list[str]:
    heads = [p["label"] for p in points]
    out = [
        "## The cold index phase by phase",
        "",
        "From the build's own timers (`UpdateStats.phases`, in `index --json`) in the cold-index run with",
        "the median wall. Indexer phases are wall seconds of the indexing process, with their share of",
        "`update()`; scanner phases are CPU seconds summed over the scanner processes, which run beside",
        "the indexer's (two cores: at most twice the wall).",
        "",
        "| phase | " + " | ".join(heads) + " |",
        "|---|" + "---|" * len(heads),
    ]
    total_cells = []
    for p in points:
        ph = (p["measures"].get("cold_index") or {}).get("phases") or {}
        total_cells.append(f"{ph['update_s']:.2f} s" if ph.get("update_s") else "n/a")
    out.append("| update() in all | " + " | ".join(total_cells) + " |")
    for name in (*INDEXER_PHASES, *WORKER_PHASES):
        cells = []
        for p in points:
            ph = (p["measures"].get("cold_index") or {}).get("phases") or {}
            v, total = ph.get(name), ph.get("update_s")
            if v is None:
                cells.append("n/a")
            elif name in WORKER_PHASES or not total:
                cells.append(f"{v:.2f} s")
            else:
                cells.append(f"{v:.2f} s ({v / total:.0%})")
        out.append(f"| {LABELS[name]} | " + " | ".join(cells) + " |")
    return [*out, ""]
