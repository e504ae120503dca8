"""Git hooks: installed over existing hooks in a real repository, chained, idempotent, removable."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from indexer.changes.hooks import HOOKS, install, uninstall
from indexer.store.consistency import check_consistency

from .conftest import REPO, meta, run_cli, write_project
from .test_indexing import CONFIG, HEALTH, paths_of


def git(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, check=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Scripts/Health.cs": HEALTH,
            "Assets/Scripts/Health.cs.meta": meta("11111111111111111111111111111111"),
            "ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2021.3.15f1\n",
            ".gitignore": "Library/\nold-hook-ran\n",
        },
    )
    git(root, "init", "-q")
    return root


def test_install_chains_the_existing_hook_and_refreshes_on_commit(repo: Path) -> None:
    hooks = repo / ".git/hooks"
    old = hooks / "pre-commit"
    old.write_text(f"#!/bin/sh\necho ran >> {repo / 'old-hook-ran'}\nexit 0\n")
    old.chmod(0o755)
    out = run_cli("hook", "install", "--project", str(repo))
    assert out.returncode == 0, out.stderr
    assert "echo ran" in (hooks / "pre-commit.local").read_text()
    assert "unity-index-refresh" in old.read_text()
    install(repo)  # idempotent: the chained hook is not replaced by ours
    assert "echo ran" in (hooks / "pre-commit.local").read_text()
    assert all((hooks / n).stat().st_mode & 0o111 for n in HOOKS)

    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "first")
    assert (repo / "old-hook-ran").read_text() == "ran\n"
    assert check_consistency(paths_of(repo), repo, CONFIG) == []
    assert git(repo, "status", "--porcelain").stdout == ""  # the refresh wrote nothing tracked

    # post-checkout refreshes too: a branch with another file
    git(repo, "checkout", "-q", "-b", "other")
    (repo / "Assets/Scripts/Shield.cs").write_text("public class Shield {}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "shield")
    git(repo, "checkout", "-q", "-")
    assert check_consistency(paths_of(repo), repo, CONFIG) == []

    # a failing chained hook still fails the commit
    (hooks / "pre-commit.local").write_text("#!/bin/sh\nexit 1\n")
    (repo / "Assets/x.txt").write_text("x")
    git(repo, "add", "-A")
    with pytest.raises(subprocess.CalledProcessError):
        git(repo, "commit", "-q", "-m", "refused")

    uninstall(repo)
    assert (hooks / "pre-commit").read_text() == "#!/bin/sh\nexit 1\n"
    assert not (hooks / "pre-commit.local").exists()
    assert not (hooks / "post-merge").exists()


def test_hook_outside_a_repository_is_a_usage_error(tmp_path: Path) -> None:
    out = run_cli("hook", "install", "--project", str(tmp_path))
    assert out.returncode == 2 and "not inside a git repository" in out.stderr


def test_pre_commit_hooks_manifest() -> None:
    hooks = YAML(typ="safe").load((REPO / ".pre-commit-hooks.yaml").read_text())
    (hook,) = hooks
    assert hook["id"] == "unity-index-refresh"
    assert hook["entry"] == "unity-index index --wait"
    assert (hook["language"], hook["pass_filenames"], hook["always_run"], hook["require_serial"]) == (
        "python",
        False,
        True,
        True,
    )
    assert hook["stages"] == ["pre-commit", "post-checkout", "post-merge", "post-rewrite"]


def test_install_reports_only_what_changed(repo: Path) -> None:
    hooks = repo / ".git/hooks"
    first = run_cli("hook", "install", "--json", "--project", str(repo))
    assert json.loads(first.stdout)["done"] == [f"{n}: installed in {hooks}" for n in HOOKS]
    again = run_cli("hook", "install", "--project", str(repo))
    assert (again.returncode, again.stdout, again.stderr) == (0, "", f"nothing to do in {hooks}\n")
    assert json.loads(run_cli("hook", "install", "--json", "--project", str(repo)).stdout)["done"] == []
    # a hook of an older version (another command in it) is updated, and said so
    old = (hooks / "post-merge").read_text().replace("index --wait", "index")
    (hooks / "post-merge").write_text(old)
    assert install(repo) == [f"post-merge: updated in {hooks}"]
    assert install(repo) == []
