"""Updates that take their candidates from git instead of a walk equal a full rebuild, whatever
happened in the work tree in between (a real git repository in a temp folder)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import msgspec
import pytest

from indexer.build.update import update
from indexer.changes.gitview import _FLAGGED, GitView, flagged_entries, status
from indexer.store.consistency import check_consistency

from .conftest import meta, write_project
from .test_incremental import ARMOR, PREFAB
from .test_indexing import CONFIG, HEALTH, PLAYER, comparable, paths_of


def git(root: Path, *args: str) -> str:
    out = subprocess.run(
        ["git", "-c", "user.email=dev@example.com", "-c", "user.name=dev", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose Unity project sits in a subfolder, with a gitignored generated folder."""
    top = tmp_path / "repo"
    root = write_project(
        top / "Game",
        {
            "Assets/Scripts/Health.cs": HEALTH,
            "Assets/Scripts/Health.cs.meta": meta("11111111111111111111111111111111"),
            "Assets/Scripts/PlayerHealth.cs": PLAYER,
            "Assets/Scripts/PlayerHealth.cs.meta": meta("22222222222222222222222222222222"),
            "Assets/Scripts/Armor.cs": ARMOR,
            "Assets/Scripts/Armor.cs.meta": meta("88888888888888888888888888888888"),
            "Assets/Prefabs/Hero.prefab": PREFAB,
            "Assets/Prefabs/Hero.prefab.meta": meta("44444444444444444444444444444444", "PrefabImporter"),
            "Assets/Generated/Codegen.cs": "public class Codegen { public int version = 1; }\n",
            "ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2021.3.15f1\n",
        },
    )
    (top / ".gitignore").write_text("Game/Library/\nGame/Assets/Generated/\n")
    git(top, "init", "-q")
    git(top, "add", "-A")
    git(top, "commit", "-qm", "first")
    return root


def equals_rebuild(root: Path) -> bool:
    incremental = comparable(root)
    update(root, CONFIG, full=True)
    return comparable(root) == incremental and check_consistency(paths_of(root), root, CONFIG) == []


def test_status_lists_dirty_untracked_and_ignored_paths_relative_to_the_project(repo: Path) -> None:
    (repo / "Assets/Scripts/Health.cs").write_text(HEALTH + "// edited\n")
    (repo / "Assets/Scripts/Shield.cs").write_text("public class Shield { }\n")
    (repo / "Assets/Generated/Codegen.cs").write_text("public class Codegen { public int version = 2; }\n")
    now = status(repo)
    assert now is not None and len(now.head) == 40
    assert now.dirty == ["Assets/Generated/Codegen.cs", "Assets/Scripts/Health.cs", "Assets/Scripts/Shield.cs"]


def test_git_guided_updates_equal_a_rebuild_through_edits_reverts_commits_and_checkouts(repo: Path) -> None:
    first = update(repo, CONFIG)
    assert first.walked and first.full
    view = (paths_of(repo).root / "git-view.json").read_bytes()
    assert GitView.__name__ and b'"generation":1' in view

    def step() -> None:
        stats = update(repo, CONFIG)
        assert not stats.walked, "git, not a walk, found the changes"
        assert equals_rebuild(repo)

    health = repo / "Assets/Scripts/Health.cs"
    health.write_text(HEALTH.replace("TakeDamage", "ApplyDamage"))  # a tracked file edited
    step()
    git(repo, "checkout", "--", "Assets/Scripts/Health.cs")  # and restored: git sees it clean
    step()
    (repo / "Assets/Scripts/Shield.cs").write_text("public class Shield { public int absorb; }\n")  # untracked
    step()
    (repo / "Assets/Generated/Codegen.cs").write_text("public class Codegen { public int version = 2; }\n")  # ignored
    step()
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "shield")
    (repo / "Assets/Scripts/Armor.cs").write_text(ARMOR.replace("worn", "plating"))
    git(repo, "commit", "-qam", "armor")  # HEAD moves; the tree is clean again
    step()
    git(repo, "checkout", "-q", "HEAD~2")  # back before the shield: files change and disappear
    step()
    git(repo, "checkout", "-q", "-")
    (repo / "Assets/Scripts/PlayerHealth.cs").unlink()
    (repo / "Assets/Scripts/PlayerHealth.cs.meta").unlink()
    step()


def test_updates_of_known_paths_carry_the_view_and_other_writers_void_it(repo: Path) -> None:
    update(repo, CONFIG)  # a walk: every file rewritten, all in the view
    update(repo, CONFIG)  # git: the view shrinks to what is dirty
    assert b'"dirty":["Assets/Generated/Codegen.cs"]' in (paths_of(repo).root / "git-view.json").read_bytes()
    health = repo / "Assets/Scripts/Health.cs"
    health.write_text(HEALTH + "// edited\n")
    update(repo, CONFIG, paths=["Assets/Scripts/Health.cs"])  # watch mode: the view is carried
    git(repo, "checkout", "--", "Assets/Scripts/Health.cs")  # restored: clean for git
    stats = update(repo, CONFIG)
    assert not stats.walked and stats.changed == 1
    assert equals_rebuild(repo)

    health.write_text(HEALTH + "// again\n")
    update(repo, CONFIG, paths=["Assets/Scripts/Health.cs"], use_git=False)  # a writer ignoring git
    git(repo, "checkout", "--", "Assets/Scripts/Health.cs")
    stats = update(repo, CONFIG)
    assert stats.walked and stats.changed == 1
    assert equals_rebuild(repo)


def test_outside_git_and_with_a_nested_repository_the_update_walks(tmp_path: Path, repo: Path) -> None:
    plain = write_project(tmp_path / "Plain", {"Assets/A.cs": "public class A { }\n"})
    update(plain, CONFIG)
    (plain / "Assets/A.cs").write_text("public class A { int x; }\n")
    assert update(plain, CONFIG).walked and status(plain) is None

    update(repo, CONFIG)
    nested = repo / "Assets/Vendor"
    nested.mkdir()
    git(nested, "init", "-q")
    (nested / "Lib.cs").write_text("public class Lib { }\n")
    assert status(repo) is None  # git lists the nested repository as a folder, not its files
    stats = update(repo, CONFIG)
    assert stats.walked and stats.added == 1


def test_a_file_edited_between_git_status_and_the_stat_is_looked_at_again(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import indexer.changes.gitview as gitview

    health = repo / "Assets/Scripts/Health.cs"
    update(repo, CONFIG)
    health.write_text(HEALTH + "// one\n")
    update(repo, CONFIG)  # dirty: in the view
    git(repo, "checkout", "--", "Assets/Scripts/Health.cs")
    clean = status(repo)  # git answers while the file is clean...
    health.write_text(HEALTH + "// two\n")  # ...and the editor saves right after
    monkeypatch.setattr(gitview, "status", lambda root, tops=None, locks=True: clean)
    assert update(repo, CONFIG).changed == 1  # still in the view: looked at, indexed
    monkeypatch.undo()
    git(repo, "checkout", "--", "Assets/Scripts/Health.cs")  # restored: git sees nothing dirty
    stats = update(repo, CONFIG)
    assert not stats.walked and stats.changed == 1
    assert equals_rebuild(repo)


def test_a_rebuild_lists_no_record_in_the_view_yet_the_next_update_looks_at_each(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import indexer.changes.gitview as gitview

    health = repo / "Assets/Scripts/Health.cs"
    clean = status(repo)  # git answers while every file is clean...
    health.write_text(HEALTH + "// saved\n")  # ...and the editor saves while the rebuild runs
    monkeypatch.setattr(gitview, "status", lambda root, tops=None, locks=True: clean)
    assert update(repo, CONFIG, full=True).full
    monkeypatch.undo()
    view = msgspec.json.decode((paths_of(repo).root / "git-view.json").read_bytes(), type=GitView)
    assert view.every_record and view.dirty == ["Assets/Generated/Codegen.cs"]  # git's alone: ignored
    git(repo, "checkout", "--", "Assets/Scripts/Health.cs")  # restored: git sees nothing dirty
    stats = update(repo, CONFIG)
    assert not stats.walked and stats.changed == 1  # the record of the saved text is replaced
    view = msgspec.json.decode((paths_of(repo).root / "git-view.json").read_bytes(), type=GitView)
    assert not view.every_record and view.dirty == ["Assets/Generated/Codegen.cs", "Assets/Scripts/Health.cs"]
    assert equals_rebuild(repo)


def test_in_a_hook_of_a_linked_worktree_the_update_finds_the_changes(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git runs a linked worktree's hooks with GIT_DIR (absolute) and GIT_INDEX_FILE exported; with
    them, `git -C <project>` took the project folder for the top of the work tree and the update
    found nothing to do."""
    top = repo.parent
    wt = tmp_path / "wt"
    git(top, "worktree", "add", "-q", str(wt))
    root = wt / "Game"
    update(root, CONFIG)
    (root / "Assets/Scripts/Shield.cs").write_text("public class Shield { }\n")
    (root / "Assets/Scripts/Armor.cs").unlink()
    git_dir = top / ".git" / "worktrees" / "wt"
    monkeypatch.setenv("GIT_DIR", str(git_dir))  # as git exports them to a pre-commit hook
    monkeypatch.setenv("GIT_INDEX_FILE", str(git_dir / "index"))
    monkeypatch.setenv("GIT_PREFIX", "")
    monkeypatch.chdir(wt)
    stats = update(root, CONFIG)
    assert (stats.added, stats.deleted, stats.walked) == (1, 1, False)
    assert status(root).dirty == ["Assets/Scripts/Armor.cs", "Assets/Scripts/Shield.cs"]
    assert equals_rebuild(root)


def test_a_checkout_is_seen_when_the_repository_sets_diff_relative(repo: Path) -> None:
    """With `diff.relative = true` (git 2.28+), `git -C <project> diff --name-only` printed the
    paths relative to the project, not the repository: none started with the project's folder, so
    the files a checkout changed were left out and the index kept the other branch's content."""
    top = repo.parent
    git(top, "config", "diff.relative", "true")
    (repo / "Assets/Scripts/Armor.cs").write_text(ARMOR.replace("worn", "plating"))
    git(repo, "commit", "-qam", "armor")
    update(repo, CONFIG)  # a walk
    update(repo, CONFIG)  # git: the view holds no recorded file
    git(repo, "checkout", "-q", "HEAD~1")  # Armor.cs changes back; the tree is clean
    stats = update(repo, CONFIG)
    assert (stats.changed, stats.walked) == (1, False)
    assert equals_rebuild(repo)


@pytest.mark.parametrize("ignore", ["untracked", "dirty", "all"])
def test_changes_inside_a_submodule_are_seen_whatever_its_ignore_setting(
    repo: Path, tmp_path: Path, ignore: str
) -> None:
    """`submodule.<name>.ignore` (in .gitmodules, as plugin submodules often set it) hid the
    submodule's edits, and with `all` its moves, from `git status` and `git diff`: an edit inside
    it, or a checkout that moved it, left the index with the old content."""
    plugin = tmp_path / "plugin"
    plugin.mkdir()
    (plugin / "Lib.cs").write_text("public class Lib { public int a; }\n")
    git(plugin, "init", "-q")
    git(plugin, "add", "-A")
    git(plugin, "commit", "-qm", "one")
    top = repo.parent
    git(top, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(plugin), "Game/Assets/Plugins")
    git(top, "config", "-f", ".gitmodules", "submodule.Game/Assets/Plugins.ignore", ignore)
    git(top, "commit", "-qam", "plugin")
    update(repo, CONFIG)  # a walk
    update(repo, CONFIG)  # git
    lib = repo / "Assets/Plugins/Lib.cs"
    (lib.parent / "Extra.cs").write_text("public class Extra { }\n")  # added inside the submodule
    assert update(repo, CONFIG).added == 1
    lib.write_text("public class Lib { public int b; }\n")  # edited inside the submodule
    assert update(repo, CONFIG).changed == 1
    assert equals_rebuild(repo)

    (lib.parent / "Extra.cs").unlink()
    git(lib.parent, "checkout", "--", "Lib.cs")
    (plugin / "Lib.cs").write_text("public class Lib { public int c; }\n")
    git(plugin, "commit", "-qam", "two")
    git(lib.parent, "pull", "-q")
    git(top, "commit", "-qam", "plugin two")  # -a: with ignore = all, the move is staged all the same
    update(repo, CONFIG)
    assert equals_rebuild(repo)
    git(top, "-c", "protocol.file.allow=always", "checkout", "-q", "--recurse-submodules", "HEAD~1")
    assert lib.read_text() == "public class Lib { public int a; }\n"
    update(repo, CONFIG)
    assert equals_rebuild(repo)


def test_a_sparse_checkout_and_files_git_is_told_not_to_look_at_are_seen(repo: Path) -> None:
    """`git sparse-checkout` deletes the files it leaves out and marks them skip-worktree, which
    `git status` does not list, nor an edit of a file marked assume-unchanged or skip-worktree:
    `index` kept their old records and said nothing had changed, while `index --check` found
    them stale and told to run `index`."""
    top = repo.parent
    update(repo, CONFIG)  # a walk
    update(repo, CONFIG)  # git
    git(top, "sparse-checkout", "set", "--no-cone", "/*", "!/Game/Assets/Prefabs/")
    assert not (repo / "Assets/Prefabs/Hero.prefab").exists()
    assert update(repo, CONFIG).deleted == 2
    assert equals_rebuild(repo)
    git(top, "sparse-checkout", "disable")
    assert update(repo, CONFIG).added == 2
    assert equals_rebuild(repo)

    for flag, name in (("--assume-unchanged", "Health.cs"), ("--skip-worktree", "Armor.cs")):
        git(top, "update-index", flag, f"Game/Assets/Scripts/{name}")
        update(repo, CONFIG)
        for field in ("local", "edited_again"):  # git rewrites its index after the first edit only
            (repo / "Assets/Scripts" / name).write_text(f"public class {name[:-3]} {{ public int {field}; }}\n")
            assert git(top, "diff-files", "--name-only") == ""  # git does not look at it
            assert update(repo, CONFIG).changed == 1
            assert equals_rebuild(repo)


@pytest.mark.parametrize(
    "listing",
    [
        b"",
        b"H 100644 " + b"a" * 40 + b" 0\tAssets/A.cs\0H 100644 " + b"b" * 40 + b" 0\tAssets/B H 1.cs\0",
        b"S 100644 " + b"a" * 40 + b" 0\tAssets/A.cs\0H 100644 " + b"b" * 40 + b" 0\tAssets/B.cs\0",
        b"H 100644 " + b"a" * 40 + b" 0\tAssets/A.cs\0h 100644 " + b"b" * 40 + b" 2\tAssets/\0H .cs\0",
        b"H 100644 " + b"a" * 40 + b" 0\tAssets/A.cs\0M 100644 " + b"b" * 40 + b" 0\tAssets/C.cs\0",
    ],
)
def test_flagged_entries_are_what_the_regex_finds(listing: bytes) -> None:
    """The literal counts that pass over a listing flagging nothing say what the regex says."""
    assert flagged_entries(listing) == _FLAGGED.findall(listing)
