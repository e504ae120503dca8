"""Failures found by the second hostile testing of session 41, each held by a test."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from .conftest import meta, run_cli, write_project
from .test_indexing import HEALTH


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=dev@example.com", "-c", "user.name=dev", *args],
        cwd=root,
        capture_output=True,
        check=True,
    )


def _index(root: Path) -> dict:
    r = run_cli("index", "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_a_file_a_nested_repository_ignores_is_indexed_by_the_git_driven_update(tmp_path: Path) -> None:
    """A repository inside `Assets/` that the outer one records (a submodule, or a nested clone
    `git add`ed as a gitlink) with its own `.gitignore`: a file it ignores is in no `git status`
    of the outer repository, dirty or clean, so `index` took git's word that nothing changed and
    never indexed it, while `index --check` (a walk) kept calling the index stale."""
    root = write_project(tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH})
    plugin = root / "Assets" / "Plugin"
    plugin.mkdir()
    (plugin / "Lib.cs").write_text("public class Lib { }\n")
    (plugin / ".gitignore").write_text("Generated/\n")
    _git(plugin, "init", "-q")
    _git(plugin, "add", "-A")
    _git(plugin, "commit", "-qm", "plugin")
    _git(root, "init", "-q")
    _git(root, "add", "-A")  # the nested clone becomes a gitlink
    _git(root, "commit", "-qm", "game")
    time.sleep(1.1)  # past the second of the commit: git's index is no longer racily clean
    _git(root, "status")  # and refreshed once, so no update sees it rewritten (a walk)
    assert _index(root)["added"] == 2
    assert _index(root)["added"] == 0  # git's view is remembered: this update asks git
    generated = plugin / "Generated"
    generated.mkdir()
    (generated / "Baked.cs").write_text("public class Baked { }\n")
    (generated / "Baked.cs.meta").write_text(meta("77777777777777777777777777777777"))
    assert _index(root)["added"] == 2
    r = run_cli("index", "--check", "--project", str(root))
    assert r.returncode == 0, r.stdout + r.stderr
    r = run_cli("describe", "Baked", "--project", str(root))
    assert r.returncode == 0 and "Assets/Plugin/Generated/Baked.cs" in r.stdout, r.stdout + r.stderr
