"""Git hooks: installed over existing hooks in a real repository, chained, idempotent, removable."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from indexer.changes.hooks import HOOKS, install, uninstall
from indexer.changes.precommit import our_hook
from indexer.cli.doctor import project_checks
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


def test_hooks_refresh_the_worktree_git_runs_them_in(tmp_path: Path) -> None:
    """Every worktree of a repository shares its hooks folder, and the folder moves with the
    repository: a commit in a second worktree, or in a moved repository, refreshes that checkout's
    project, and installing from either worktree changes nothing."""
    top = tmp_path / "repo"
    write_project(
        top / "Game",
        {
            "Assets/Scripts/Health.cs": HEALTH,
            "ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2021.3.15f1\n",
            ".gitignore": "Library/\n",
        },
    )
    git(top, "init", "-q")
    assert install(top / "Game") == [f"{n}: installed in {top / '.git/hooks'}" for n in HOOKS]
    assert "\nproject=Game\n" in (top / ".git/hooks/pre-commit").read_text()
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "first")
    wt = tmp_path / "wt"
    git(top, "worktree", "add", "-q", str(wt))
    assert install(wt / "Game") == []
    (wt / "Game/Assets/Scripts/Shield.cs").write_text("public class WorktreeShield {}\n")
    git(wt, "add", "-A")
    git(wt, "commit", "-q", "-m", "shield")
    hits = run_cli("query", "WorktreeShield", "--json", "--project", str(wt / "Game"))
    assert json.loads(hits.stdout)["results"][0]["path"] == "Assets/Scripts/Shield.cs", (hits.stdout, hits.stderr)
    assert check_consistency(paths_of(wt / "Game"), wt / "Game", CONFIG) == []
    for root in (top / "Game", wt / "Game"):
        checks = {c.name: c for c in project_checks(root, [])}
        assert checks["git-hooks"].status == "pass", checks["git-hooks"].detail

    moved = tmp_path / "moved"
    top.rename(moved)
    git(moved, "worktree", "repair")
    (moved / "Game/Assets/Scripts/Armor.cs").write_text("public class MovedArmor {}\n")
    git(moved, "add", "-A")
    git(moved, "commit", "-q", "-m", "armor")
    hits = run_cli("query", "MovedArmor", "--json", "--project", str(moved / "Game"))
    assert json.loads(hits.stdout)["results"][0]["path"] == "Assets/Scripts/Armor.cs", hits.stderr


def test_hooks_go_where_core_hooks_path_says_and_git_runs_them(repo: Path) -> None:
    """indexer/changes/hooks.py: the hooks folder "honours core.hooksPath" (`.githooks`, set
    relative to the work tree, which git ignores: one it commits is refused, see
    test_attack6_session44.py): the hooks are written there, not into `.git/hooks`, which git
    would not run, and a commit refreshes the index through them."""
    git(repo, "config", "core.hooksPath", ".githooks")
    (repo / ".git/info/exclude").write_text(".githooks/\n")
    r = run_cli("hook", "install", "--json", "--project", str(repo))
    assert r.returncode == 0, r.stderr
    hooks = repo / ".githooks"
    assert json.loads(r.stdout) == {
        "schema_version": 1,
        "action": "install",
        "hooks_dir": str(hooks),
        "done": [f"{n}: installed in {hooks}" for n in HOOKS],
    }
    assert not any((repo / ".git/hooks" / n).exists() for n in HOOKS)
    (repo / "Assets/Scripts/Shield.cs").write_text("public class Shield {}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "shield")
    assert check_consistency(paths_of(repo), repo, CONFIG) == []
    checks = {c.name: c for c in project_checks(repo, [])}
    assert checks["git-hooks"].status == "pass", checks["git-hooks"].detail
    assert uninstall(repo) == [f"{n}: removed" for n in HOOKS]
    assert not any((hooks / n).exists() for n in HOOKS)


def test_uninstall_takes_the_hooks_of_a_project_since_removed(tmp_path: Path) -> None:
    """docs/cli.md, `hook`: "`uninstall` also takes such a folder, to remove the hooks of a project
    since moved away". A project deleted or moved leaves hooks that print an error on every git
    command; `hook uninstall --project <its old folder>` said "no such folder" (exit 2) and the
    hooks could not be taken out but by hand."""
    top = tmp_path / "repo"
    for name in ("Game", "Tools"):
        write_project(top / name, {"Assets/Scripts/Health.cs": HEALTH, ".gitignore": "Library/\n"})
    git(top, "init", "-q")
    hooks = top / ".git/hooks"
    for name in ("Game", "Tools"):
        assert run_cli("hook", "install", "--project", str(top / name)).returncode == 0
    assert run_cli("hook", "install", "--pre-commit", "--project", str(top / "Game")).returncode == 0
    shutil.rmtree(top / "Game")
    r = run_cli("hook", "uninstall", "--project", str(top / "Game"))
    assert (r.returncode, r.stdout) == (0, "")
    assert r.stderr == "".join(f"{n}: no longer refreshes Game (still Tools)\n" for n in HOOKS)
    r = run_cli("hook", "uninstall", "--pre-commit", "--project", "Game", cwd=top)
    assert (r.returncode, r.stderr) == (
        0,
        f"removed the unity-index-refresh hook from {top / '.pre-commit-config.yaml'}\n",
    )
    shutil.move(top / "Tools", tmp_path / "Tools")  # moved out of the repository
    r = run_cli("hook", "uninstall", "--json", "--project", "Tools", cwd=top)
    assert json.loads(r.stdout)["done"] == [f"{n}: removed" for n in HOOKS], r.stderr
    assert not any((hooks / n).exists() for n in HOOKS)
    r = run_cli("hook", "install", "--project", str(top / "Game"))  # install still wants the folder
    assert (r.returncode, r.stderr) == (2, f"error: --project {top / 'Game'}: no such folder\n")


def test_hook_outside_a_repository_is_a_usage_error(tmp_path: Path) -> None:
    out = run_cli("hook", "install", "--project", str(tmp_path))
    assert out.returncode == 2 and "not inside a git repository" in out.stderr


def test_pre_commit_hooks_manifest() -> None:
    hooks = YAML(typ="safe").load((REPO / ".pre-commit-hooks.yaml").read_text())
    (hook,) = hooks
    assert hook["id"] == "unity-index-refresh"
    assert hook["entry"] == "unity-index index --quiet --wait 2 --time-limit 5 --exit-zero"
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
    old = (hooks / "post-merge").read_text().replace("index --quiet", "index")
    (hooks / "post-merge").write_text(old)
    assert install(repo) == [f"post-merge: updated in {hooks}"]
    assert install(repo) == []


PRE_COMMIT_CONFIG = """\
# Team hooks: keep this comment
default_stages: [pre-commit]
repos:
  # formatting first
  - repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v4.6.0  # pinned on purpose
    hooks:
      - id: trailing-whitespace
      - id: end-of-file-fixer
        exclude: '^Assets/.*\\.unity$'
  - repo: local
    hooks:
      - id: lint-cs
        name: "lint C#"
        entry: dotnet format --verify-no-changes
        language: system
# trailing comment
"""


def test_the_pre_commit_framework_hook_never_fails_the_commit(repo: Path) -> None:
    """.pre-commit-hooks.yaml says the hook "never fails the commit", as the plain hooks never
    fail the git command: its entry (`unity-index index --wait`) exited 2 on a broken
    unity-index.toml (or after 300 s behind another writer), and pre-commit refused the commit."""
    (repo / "unity-index.toml").write_text('workers = "x"\n')
    manifest = YAML(typ="safe").load((REPO / ".pre-commit-hooks.yaml").read_text())[0]
    for hook in (manifest, our_hook("")):
        words = hook["entry"].split()
        assert words[0] == "unity-index"
        r = run_cli(*words[1:], cwd=repo)
        assert (r.returncode, r.stdout) == (0, ""), hook["entry"]
        assert r.stderr.startswith(f"error: {repo / 'unity-index.toml'}: Expected `int`, got `str` - at `$.workers`;")
    r = run_cli("index", "--quiet", "--project", str(repo))
    assert r.returncode == 2  # without --exit-zero, the same failure


def test_pre_commit_config_round_trip(tmp_path: Path) -> None:
    """Our hook is added to an existing config with its comments, order and quoting kept; a second
    run changes nothing; uninstall gives the file back."""
    repo_root = tmp_path / "repo"
    repo_root.mkdir()
    git(repo_root, "init", "-q")
    project = write_project(repo_root / "Game", {})
    config = repo_root / ".pre-commit-config.yaml"
    config.write_text(PRE_COMMIT_CONFIG)
    r = run_cli("hook", "install", "--pre-commit", "--project", str(project))
    assert r.returncode == 0, r.stderr
    assert r.stderr == (
        f"added the unity-index-refresh hook (repo: local) to {config}\n"
        "default_install_hook_types: pre-commit, post-checkout, post-merge, post-rewrite\n"
        "then run `pre-commit install` (it installs every hook type the config lists)\n"
    )
    after = config.read_text()
    assert after.startswith(PRE_COMMIT_CONFIG.removesuffix("# trailing comment\n"))
    assert after == PRE_COMMIT_CONFIG.removesuffix("# trailing comment\n") + (
        "  - repo: local\n"
        "    hooks:\n"
        "      - id: unity-index-refresh\n"
        "        name: refresh the unity-index index\n"
        "        entry: unity-index index --quiet --wait 2 --time-limit 5 --exit-zero\n"
        "        language: system\n"
        "        pass_filenames: false\n"
        "        always_run: true\n"
        "        require_serial: true\n"
        "        stages: [pre-commit, post-checkout, post-merge, post-rewrite]\n"
        "        args: [--project, Game]\n"
        "default_install_hook_types: [pre-commit, post-checkout, post-merge, post-rewrite]\n"
        "# trailing comment\n"
    )
    parsed = YAML(typ="safe").load(after)
    assert [r["repo"] for r in parsed["repos"]] == ["https://github.com/pre-commit/pre-commit-hooks", "local", "local"]
    assert parsed["repos"][0]["hooks"][1]["exclude"] == "^Assets/.*\\.unity$"
    again = run_cli("hook", "install", "--pre-commit", "--json", "--project", str(project))
    assert json.loads(again.stdout) == {"schema_version": 1, "action": "install", "config": str(config), "done": []}
    assert config.read_text() == after
    r = run_cli("hook", "uninstall", "--pre-commit", "--project", str(project))
    assert r.returncode == 0 and r.stderr == f"removed the unity-index-refresh hook from {config}\n"
    # the hook types stay (others may need them); everything else is as it was
    assert config.read_text() == PRE_COMMIT_CONFIG.replace(
        "# trailing comment\n",
        "default_install_hook_types: [pre-commit, post-checkout, post-merge, post-rewrite]\n# trailing comment\n",
    )


def test_pre_commit_config_created_and_refused_when_broken(repo: Path) -> None:
    config = repo / ".pre-commit-config.yaml"
    r = run_cli("hook", "install", "--pre-commit", "--project", str(repo))
    assert r.returncode == 0, r.stderr
    data = YAML(typ="safe").load(config.read_text())
    (hook,) = data["repos"][0]["hooks"]
    assert (data["repos"][0]["repo"], hook["id"], hook["entry"]) == (
        "local",
        "unity-index-refresh",
        "unity-index index --quiet --wait 2 --time-limit 5 --exit-zero",
    )
    assert "args" not in hook  # the project is the repository's root
    config.write_text("repos: [\n")
    r = run_cli("hook", "install", "--pre-commit", "--project", str(repo))
    assert r.returncode == 2 and "not valid YAML" in r.stderr and "nothing was written" in r.stderr
    assert config.read_text() == "repos: [\n"


def test_hooks_refresh_every_project_of_a_repository_installed_for(tmp_path: Path) -> None:
    """A repository holding two Unity projects: installing for the second keeps the first, a
    commit refreshes both, `doctor` passes for both, and uninstalling one keeps the other's."""
    top = tmp_path / "repo"
    for name in ("Game", "Tools"):
        write_project(
            top / name,
            {
                "Assets/Scripts/Health.cs": HEALTH,
                "ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2021.3.15f1\n",
                ".gitignore": "Library/\n",
            },
        )
    git(top, "init", "-q")
    hooks = top / ".git/hooks"
    assert install(top / "Game") == [f"{n}: installed in {hooks}" for n in HOOKS]
    assert install(top / "Tools") == [f"{n}: updated in {hooks} (refreshing Game too)" for n in HOOKS]
    assert install(top / "Game") == []  # both already refreshed
    text = (hooks / "pre-commit").read_text()
    assert text.count('\nrefresh "$project"\n') == 2 and "\nproject=Game\n" in text and "\nproject=Tools\n" in text
    for name in ("Game", "Tools"):
        (top / name / "Assets/Scripts/Shield.cs").write_text(f"public class {name}Shield {{}}\n")
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "shields")
    for name in ("Game", "Tools"):
        hits = run_cli("query", f"{name}Shield", "--json", "--project", str(top / name))
        assert json.loads(hits.stdout)["results"][0]["path"] == "Assets/Scripts/Shield.cs", hits.stderr
        checks = {c.name: c for c in project_checks(top / name, [])}
        assert checks["git-hooks"].status == "pass", checks["git-hooks"].detail
    assert uninstall(top / "Tools") == [f"{n}: no longer refreshes Tools (still Game)" for n in HOOKS]
    assert "\nproject=Tools\n" not in (hooks / "post-merge").read_text()
    assert uninstall(top / "Tools") == []  # refreshes Game only: not Tools' to remove
    assert uninstall(top / "Game") == [f"{n}: removed" for n in HOOKS]
    assert not any((hooks / n).exists() for n in HOOKS)


def test_lines_added_to_our_hook_are_kept_when_it_is_rewritten_or_removed(repo: Path) -> None:
    """A user who added lines to a hook of ours finds them in `<name>.unity-index-backup` after
    `install` rewrites it (another version) or `uninstall` removes it; an unedited hook leaves no copy."""
    hooks = repo / ".git/hooks"
    install(repo)
    hook = hooks / "pre-commit"
    edited = hook.read_text().replace("exit 0\n", "echo lint-my-code\nexit 0\n")
    hook.write_text(edited.replace("--time-limit 5", "--time-limit 9"))  # and another version's line
    assert install(repo) == [
        "pre-commit: had lines unity-index did not write; kept a copy as pre-commit.unity-index-backup",
        f"pre-commit: updated in {hooks}",
    ]
    assert "echo lint-my-code" in (hooks / "pre-commit.unity-index-backup").read_text()
    hook.write_text(hook.read_text().replace("exit 0\n", "echo second-edit\nexit 0\n"))
    done = uninstall(repo)
    assert done[0] == "pre-commit: had lines unity-index did not write; kept a copy as pre-commit.unity-index-backup.1"
    assert "echo second-edit" in (hooks / "pre-commit.unity-index-backup.1").read_text()
    assert not hook.exists()
    assert not any(p.name.startswith("post-merge.") for p in hooks.iterdir())  # unedited: no copy


def test_a_hook_that_is_a_symlink_to_nothing_is_kept_not_written_through(repo: Path) -> None:
    """A dangling symlink in the hooks folder (to a script not checked out yet) is the user's
    hook: it is chained as `<name>.local` and put back by `uninstall`, and nothing is written
    where it points (a file in the work tree, committed by the next `git add -A`)."""
    hooks = repo / ".git/hooks"
    (hooks / "post-merge").symlink_to("../../tools/post-merge")
    done = install(repo)
    assert "post-merge: kept the existing hook as post-merge.local, run after the refresh" in done
    assert not (repo / "tools").exists()
    assert os.readlink(hooks / "post-merge.local") == "../../tools/post-merge"
    assert "unity-index-refresh" in (hooks / "post-merge").read_text()
    assert "post-merge: restored the previous hook" in uninstall(repo)
    assert os.readlink(hooks / "post-merge") == "../../tools/post-merge"
    assert not (hooks / "post-merge.local").is_symlink()


def test_pre_commit_config_refreshes_every_project_installed_for(tmp_path: Path) -> None:
    """As the plain hooks do: installing for a second project of the repository adds a second
    entry instead of replacing the first's, and uninstalling one keeps the other's."""
    from indexer.changes import precommit

    top = tmp_path / "repo"
    top.mkdir()
    git(top, "init", "-q")
    games = [write_project(top / "Games" / name, {}) for name in ("A", "B")]
    precommit.add(games[0])
    _, done = precommit.add(games[1])
    assert done == [f"added the unity-index-refresh hook (repo: local) to {top / '.pre-commit-config.yaml'}"]
    assert precommit.add(games[0])[1] == []

    def projects() -> list[str]:
        data = YAML(typ="safe").load((top / ".pre-commit-config.yaml").read_text())
        return [h["args"][1] for r in data["repos"] for h in r["hooks"] if h["id"] == "unity-index-refresh"]

    assert projects() == ["Games/A", "Games/B"]
    precommit.remove(games[0])
    assert projects() == ["Games/B"]
    assert precommit.remove(games[0])[1] == []


def test_pre_commit_config_with_crlf_line_endings_keeps_them(tmp_path: Path) -> None:
    """A config checked out with CRLF (Windows, core.autocrlf) gets CRLF on every line, not a mix."""
    from indexer.changes import precommit

    top = tmp_path / "repo"
    top.mkdir()
    git(top, "init", "-q")
    config = top / ".pre-commit-config.yaml"
    config.write_bytes(PRE_COMMIT_CONFIG.replace("\n", "\r\n").encode())
    precommit.add(write_project(top / "Game", {}))
    data = config.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n") > PRE_COMMIT_CONFIG.count("\n")


def test_hooks_are_not_installed_into_a_hooks_folder_every_repository_shares(
    repo: Path, tmp_path: Path, monkeypatch
) -> None:
    """A core.hooksPath of the user's (or the system's) git config is every repository's hooks
    folder: hooks installed there for `Game` ran in every other repository too (`error: --project
    Game: no such folder` on each commit there, or refreshing another repository's `Game`). Refused,
    saying what to do; `uninstall` still removes hooks an earlier build put there."""
    from indexer.changes.hooks import HookError

    shared = tmp_path / "shared-hooks"
    config = tmp_path / "gitconfig"
    config.write_text(f"[core]\n\thooksPath = {shared}\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    with pytest.raises(HookError, match="every repository"):
        install(repo)
    assert not shared.exists() or not any(shared.iterdir())
    r = run_cli("hook", "install", "--project", str(repo), env={"GIT_CONFIG_GLOBAL": str(config)})
    assert r.returncode == 2 and "git config core.hooksPath .git/hooks" in r.stderr, r.stderr
    git(repo, "config", "core.hooksPath", ".githooks")  # the repository's own: its hooks
    (repo / ".git/info/exclude").write_text(".githooks/\n")  # and not committed
    assert install(repo)


# As husky 9 lays out its hooks folder (core.hooksPath = .husky/_): each hook is a stub sourcing
# `h`, which runs the team's script `.husky/<the hook's own file name>`.
HUSKY_H = """#!/usr/bin/env sh
n=$(basename "$0")
s=$(dirname "$(dirname "$0")")/$n
[ ! -f "$s" ] && exit 0
sh -e "$s" "$@"
c=$?
[ $c != 0 ] && echo "husky - $n script failed (code $c)"
exit $c
"""


def test_hooks_that_run_by_their_own_file_name_are_not_renamed(repo: Path) -> None:
    """husky's hooks find what to run by their own file name: kept as `pre-commit.local` and run
    after ours, husky's looked for `.husky/pre-commit.local`, found none, and the team's checks
    (lint, tests) silently stopped running on every commit. Refused, saying what to add instead;
    nothing in the hooks folder is touched."""
    from indexer.changes.hooks import HookError

    folder = repo / ".husky/_"
    folder.mkdir(parents=True)
    (folder / "h").write_text(HUSKY_H)
    for name in (*HOOKS, "commit-msg"):
        (folder / name).write_text('#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n')
        (folder / name).chmod(0o755)
    (repo / ".husky/pre-commit").write_text(f"echo checked >> {repo / 'old-hook-ran'}\n")
    git(repo, "config", "core.hooksPath", ".husky/_")
    before = {p.name: p.read_text() for p in folder.iterdir()}
    with pytest.raises(HookError, match="husky"):
        install(repo)
    r = run_cli("hook", "install", "--project", str(repo))
    assert r.returncode == 2, r.stderr
    assert (
        "add this line to .husky/pre-commit, .husky/post-checkout, .husky/post-merge and .husky/post-rewrite"
        in r.stderr
    )
    assert "unity-index index --quiet --wait 2 --time-limit 5 --exit-zero --project . || true" in r.stderr
    assert {p.name: p.read_text() for p in folder.iterdir()} == before
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "first")
    assert (repo / "old-hook-ran").read_text() == "checked\n"  # the team's check still runs

    # any hook that goes by its name (husky 4 in .git/hooks, a hand-written dispatcher) likewise
    git(repo, "config", "--unset", "core.hooksPath")
    hook = repo / ".git/hooks/post-merge"
    hook.write_text('#!/bin/sh\nhookName=`basename "$0"`\nexec run-hook "$hookName" "$@"\n')
    with pytest.raises(HookError, match="by its own file name"):
        install(repo)
    assert not (repo / ".git/hooks/pre-commit").exists()


def test_a_hook_naming_a_project_outside_ascii_is_read_as_written_whatever_the_locale(tmp_path: Path) -> None:
    """Hooks are written in UTF-8 but were read in the locale's encoding: where that is not UTF-8
    (Windows' ANSI code pages; here the C locale without coercion), `hook uninstall` of one project
    rewrote the other's line with its name garbled (`Jeu \ufffd\ufffdt\ufffd`), and that hook then
    refreshed no project."""
    top = tmp_path / "repo"
    for name in ("Jeu été", "Tools"):
        write_project(
            top / name,
            {
                "Assets/Scripts/Health.cs": HEALTH,
                "ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2021.3.15f1\n",
            },
        )
    git(top, "init", "-q")
    install(top / "Jeu été")
    install(top / "Tools")
    hook = top / ".git/hooks/pre-commit"
    before = hook.read_text(encoding="utf-8")
    ascii_locale = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"}
    ascii_locale.pop("PYTHONIOENCODING", None)
    out = subprocess.run(
        [sys.executable, "-m", "indexer.cli", "hook", "uninstall", "--project", str(top / "Tools")],
        capture_output=True,
        env={**ascii_locale, "PYTHONPATH": str(REPO)},
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    after = hook.read_text(encoding="utf-8")
    assert "project=Tools\n" not in after and "\ufffd" not in after
    assert [line for line in after.splitlines() if "été" in line] == [
        line for line in before.splitlines() if "été" in line
    ]
