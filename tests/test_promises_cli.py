"""docs/cli.md, promise by promise: what the other CLI tests did not hold the command line to.

Each test quotes the sentence it checks. Read-only commands share the session's indexed fixture;
commands that write get a small project of their own."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from .conftest import run_cli, start_cli, write_project

# docs/cli.md, `index --json`: the example object's fields, in order, then "The object also holds
# `repaired` ..., `upgraded` ... and `phases`".
INDEX_FIELDS = [
    "schema_version", "project", "full", "files", "scanned", "added", "changed", "deleted", "moved", "touched",
    "skipped", "bytes_scanned", "seconds", "generation", "walked", "repaired", "upgraded", "phases",
]  # fmt: skip
OLD = 1_600_000_000  # an mtime far from "racily clean" (docs/indexing.md), so a touch is only a touch


def _json(*args: str) -> dict:
    r = run_cli(*args, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_watch_json_batches_are_index_json_plus_events_and_paths(tmp_path: Path) -> None:
    """`watch --json`: "one line per applied batch: the `index --json` fields plus `events` ...
    and `paths` (the project paths the batch's events named, sorted; `null` when a folder changed
    and the project was walked)"."""
    from .test_watch import eventually, watching

    root = write_project(tmp_path / "P", {"Assets/A.cs": "public class Alpha {}"})
    proc = start_cli("watch", "--json", "--project", str(root))
    batches: list[dict] = []
    threading.Thread(target=lambda: [batches.append(json.loads(x)) for x in proc.stdout], daemon=True).start()
    try:
        watching(proc)
        (root / "Assets/B.cs").write_text("public class Beta {}")
        (root / "Assets/C.cs").write_text("public class Gamma {}")
        assert eventually(lambda: sum(b["added"] for b in batches) == 2, 30), batches
        (root / "Assets/Folder").mkdir()
        assert eventually(lambda: any(b["paths"] is None for b in batches), 30), batches
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0
    first = batches[0]
    assert sorted(first) == sorted([*INDEX_FIELDS, "events", "paths"]), list(first)
    assert first["project"] == str(root.resolve()) and first["walked"] is False
    assert isinstance(first["events"], int) and first["events"] >= 1
    named = [p for b in batches if b["paths"] for p in b["paths"]]
    assert sorted(named) == ["Assets/B.cs", "Assets/C.cs"]
    assert all(b["paths"] == sorted(b["paths"]) for b in batches if b["paths"])
    walked = next(b for b in batches if b["paths"] is None)
    assert walked["walked"] is True
