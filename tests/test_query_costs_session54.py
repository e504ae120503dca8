"""What a warm search reads of the files it meets first, bounded (docs/performance.md, session 54):
a script no asset carries had its whole record inflated and decoded for its strings, whether or
not one of them names a folder a file is loaded from (77 records, about 17 ms of the warm
protocol's first pass on UnityCsReference). Which files hold such a string is read once a
generation; no other script's record is decoded for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.query.loads import prefix_loaded
from indexer.query.workspace import open_workspace
from indexer.store.reader import Records

from .test_trial16_session51 import _cards


def test_only_a_script_holding_a_folder_string_has_its_record_decoded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Of five scripts asked, the two writing `"Schemes/.../" + name` have their records decoded
    (their loaded files found as before); the three holding no string ending in `/` have none, and
    answer no file; the refs table is scanned once for the five."""
    root = _cards(tmp_path)
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    decoded: list[str] = []
    ref_targets = Records.ref_targets
    monkeypatch.setattr(Records, "ref_targets", lambda self, p, k: decoded.append(p) or ref_targets(self, p, k))
    statements: list[str] = []
    scripts = [
        "Assets/Scripts/Schemes/MatchScheme.cs",
        "Assets/Scripts/Schemes/EnemyScheme.cs",
        "Assets/Scripts/Schemes/CardScheme.cs",
        "Assets/Scripts/Enemies/EnemyHealthData.cs",
        "Assets/Scripts/Cards/CardCostRenderer.cs",
    ]
    with project.reading():
        conn = project.graph.records.conn
        conn.set_trace_callback(statements.append)
        try:
            found = {s: prefix_loaded(project.graph, s) for s in scripts}
        finally:
            conn.set_trace_callback(None)
    assert found == {
        "Assets/Scripts/Schemes/MatchScheme.cs": ["Assets/Resources/Schemes/MatchScheme/basicroom.json"],
        "Assets/Scripts/Schemes/EnemyScheme.cs": [
            "Assets/Resources/Schemes/EnemyScheme/bat.json",
            "Assets/Resources/Schemes/EnemyScheme/slime.json",
        ],
        "Assets/Scripts/Schemes/CardScheme.cs": [],
        "Assets/Scripts/Enemies/EnemyHealthData.cs": [],
        "Assets/Scripts/Cards/CardCostRenderer.cs": [],
    }
    assert decoded == scripts[:2]
    assert len([s for s in statements if "FROM refs" in s]) == 1


def test_the_folder_strings_are_those_of_the_records(tmp_path: Path) -> None:
    """`Loadable.folder_strings` (one scan of the refs table) names exactly the files whose record
    holds a string reference ending in `/`: a pre-check, it must pass over no file that has one."""
    root = _cards(tmp_path)
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    records = project.records
    by_record = {
        rec.path for rec in records.records() if any(r.kind == "string" and r.target.endswith("/") for r in rec.refs)
    }
    assert by_record == {"Assets/Scripts/Schemes/EnemyScheme.cs", "Assets/Scripts/Schemes/MatchScheme.cs"}
    assert project.graph.loadable.folder_strings == by_record
