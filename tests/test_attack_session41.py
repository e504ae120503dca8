"""Failures found by the hostile testing of session 41, each held by a test."""

from __future__ import annotations

import json
import os
from pathlib import Path

from .conftest import run_cli, write_project
from .test_indexing import HEALTH


def _status(root: Path) -> dict:
    r = run_cli("status", "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_a_file_renamed_to_a_name_that_is_not_text_is_skipped_not_moved(tmp_path: Path) -> None:
    """A script renamed to a name holding a line break (or undecodable bytes, a backslash) was
    taken for a move: the record kept its scan under the new name, indexed and searched, where a
    rebuild records it skipped ("name is not plain UTF-8 text ..."), and `index --check` called
    that index up to date. A file whose name is refused is no move's destination."""
    root = write_project(tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH})
    r = run_cli("index", "--project", str(root))
    assert r.returncode == 0, r.stderr
    scripts = root / "Assets" / "Scripts"
    os.rename(scripts / "Health.cs", scripts / "Hea\nlth.cs")
    r = run_cli("index", "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    stats = json.loads(r.stdout)
    assert (stats["moved"], stats["added"], stats["deleted"], stats["skipped"]) == (0, 1, 1, 1), stats
    incremental = _status(root)
    r = run_cli("index", "--full", "--project", str(root))
    assert r.returncode == 0, r.stderr
    assert _status(root)["skipped"] == incremental["skipped"]
    assert incremental["skipped"][0]["path"] == "Assets/Scripts/Hea\\x0alth.cs"
    r = run_cli("query", "Health", "--json", "--project", str(root))
    assert r.returncode == 0 and json.loads(r.stdout)["results"] == [], r.stdout
