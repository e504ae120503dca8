"""The command line as a user meets it when something is off: clear messages, consistent codes."""

import json
from pathlib import Path

from .conftest import run_cli, write_project


def test_no_project_exits_2_and_lists_projects_below(tmp_path: Path) -> None:
    write_project(tmp_path / "games" / "Alpha", {})
    r = run_cli("query", "health", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stdout == ""
    assert "error: no Unity project at or above" in r.stderr
    assert str((tmp_path / "games" / "Alpha").resolve()) in r.stderr
    assert "Traceback" not in r.stderr


def test_project_option_must_be_a_unity_project(tmp_path: Path) -> None:
    r = run_cli("index", "--project", str(tmp_path))
    assert r.returncode == 2
    assert "not a Unity project (it needs Assets/ and ProjectSettings/)" in r.stderr
    r = run_cli("index", "--project", str(tmp_path / "missing"))
    assert r.returncode == 2
    assert "no such folder" in r.stderr


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class A {}"})
    assert run_cli("query", "   ", "--project", str(root)).returncode == 2
    assert run_cli("query", "x", "--limit", "0", "--project", str(root)).returncode == 2
    assert run_cli("context", "x", "--budget", "0", "--project", str(root)).returncode == 2
    assert run_cli("context", "x", "--tokenizer", "nope", "--project", str(root)).returncode == 2
    assert run_cli("frobnicate").returncode == 2
    assert run_cli("query").returncode == 2


def test_query_builds_a_missing_index_and_finds_nothing_gracefully(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class Alpha { void Run() {} }"})
    r = run_cli("query", "zebra giraffe", "--project", str(root), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"schema_version": 1, "query": "zebra giraffe", "results": []}
    assert "building it" in r.stderr


def test_status_check_reports_stale_index(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class Alpha {}"})
    assert run_cli("status", "--check", "--project", str(root)).returncode == 1  # no index yet
    assert run_cli("index", "--project", str(root)).returncode == 0
    assert run_cli("status", "--check", "--project", str(root)).returncode == 0
    (root / "Assets/B.cs").write_text("class Beta {}")
    r = run_cli("status", "--check", "--json", "--project", str(root))
    assert r.returncode == 1
    assert json.loads(r.stdout)["stale_files"] == 1


def test_broken_inputs_are_recorded_not_fatal(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Good.cs": "public class Good { public void Run() {} }",
            "Assets/Broken.cs": "public class Broken { void Update() { if (x > \n public int After; }",
            "Assets/Latin1.cs": "// caf\xe9\npublic class Latin1 {}".encode("latin-1"),
            "Assets/Binary.cs": b"\x00\x01\x02MZ\x90\x00",
            "Assets/Level.unity": b"version https://git-lfs.github.com/spec/v1\noid sha256:ab\nsize 99\n",
        },
    )
    r = run_cli("index", "--project", str(root), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["skipped"] == 2
    st = json.loads(run_cli("status", "--json", "--project", str(root)).stdout)
    assert st["partial"] == 1
    assert sorted((s["path"], s["reason"]) for s in st["skipped"]) == [
        ("Assets/Binary.cs", "binary content"),
        ("Assets/Level.unity", "Git LFS pointer, content not checked out"),
    ]
    hits = json.loads(run_cli("query", "Latin1 Broken", "--json", "--project", str(root)).stdout)["results"]
    assert {h["path"] for h in hits} == {"Assets/Latin1.cs", "Assets/Broken.cs"}
