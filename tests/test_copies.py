"""Touched and copied work trees: one `index` makes them current, even where git (which sees
neither a touch nor a copy as a change) does the finding; hooks copied with a repository are
reported with the fix."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from indexer.build.update import update
from indexer.changes.diff import check
from indexer.cli.doctor import project_checks
from indexer.config import Config

from .conftest import copy_fixture, meta, run_cli, write_project

CONFIG = Config(workers=1)
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


def repo(tmp_path: Path) -> Path:
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Hero.cs": "public class Hero : UnityEngine.MonoBehaviour { public int hp; }\n",
            "Assets/Hero.cs.meta": meta("1" * 32),
            "Assets/Art/Hero.png": PNG,
            "Assets/Art/Hero.png.meta": meta("2" * 32, "TextureImporter"),
            "ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2021.3.15f1\n",
        },
    )
    (root / ".gitignore").write_text("Library/\n")
    git = ["git", "-C", str(root), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "first"], check=True)
    return root


def settle(root: Path) -> None:
    """Index until git's view is saved and git's own index is stable (racy-clean entries)."""
    for _ in range(3):
        update(root, CONFIG)


def touch(path: Path, seconds_later: int = 100) -> None:
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + seconds_later * 1_000_000_000))


def test_one_index_records_the_stat_of_touched_unchanged_files_in_a_git_work_tree(tmp_path: Path) -> None:
    root = repo(tmp_path)
    settle(root)
    touch(root / "Assets/Art/Hero.png")  # a binary asset: its stat is all its record knows
    touch(root / "Assets/Hero.cs")
    assert check(root, CONFIG).changed == ["Assets/Art/Hero.png"]  # the .cs: same content hash
    stats = update(root, CONFIG)
    assert stats.scanned + stats.touched == 2
    assert not check(root, CONFIG).stale
    assert run_cli("index", "--check", "--project", str(root)).returncode == 0
    checks = {c.name: c for c in project_checks(root, [])}
    assert checks["index-current"].status == "pass", checks["index-current"].detail
    assert update(root, CONFIG).scanned == 0  # and the next update finds nothing to do


def test_a_touched_file_is_recorded_when_other_files_changed_or_a_commit_moved_head(tmp_path: Path) -> None:
    """git's index refreshed (by our `git status` or a `git commit`) while the dirty paths or HEAD
    changed too: the touched file was looked at only when nothing else had changed, so its record
    kept the old stat and `index --check` said "stale, run `unity-index index`" after every
    `index`."""
    root = repo(tmp_path)
    git = ["git", "-C", str(root), "-c", "user.email=t@t", "-c", "user.name=t"]
    settle(root)
    touch(root / "Assets/Art/Hero.png")
    (root / "Assets/Hero.cs").write_text("public class Hero : UnityEngine.MonoBehaviour { public int mp; }\n")
    stats = update(root, CONFIG)
    assert (stats.scanned + stats.touched, stats.walked) == (2, False)  # git, not a walk, found both
    assert not check(root, CONFIG).stale
    touch(root / "Assets/Art/Hero.png", 200)
    subprocess.run([*git, "commit", "-qam", "mp"], check=True)  # refreshes git's index as it commits
    stats = update(root, CONFIG)
    assert (stats.scanned + stats.touched, stats.walked) == (1, False)  # the png, refreshed by the commit
    assert not check(root, CONFIG).stale
    assert update(root, CONFIG).scanned == 0


def test_one_index_makes_a_copied_project_current(tmp_path: Path) -> None:
    """`cp -r` of a project with its index (a CI cache restore): new mtimes and inodes
    everywhere, git's view copied along."""
    root = repo(tmp_path / "a")
    settle(root)
    copy = tmp_path / "b" / "Game"
    copy.parent.mkdir()
    subprocess.run(["cp", "-r", str(root), str(copy)], check=True)
    assert check(copy, CONFIG).stale  # the binary's record has the original's stat
    stats = update(copy, CONFIG)
    assert not stats.full, "the copied index is kept, not rebuilt"
    assert not check(copy, CONFIG, verify=True).stale
    checks = {c.name: c.status for c in project_checks(copy, [])}
    assert (checks["index-current"], checks["index-intact"], checks["index-consistent"]) == ("pass",) * 3
    hits = run_cli("query", "hero", "--project", str(copy), "--json")
    assert hits.returncode == 0 and '"Assets/Hero.cs"' in hits.stdout


def test_hooks_copied_with_the_repository_refresh_the_copy(tmp_path: Path) -> None:
    """Hooks name the project relative to the work tree, so a copy's hooks refresh the copy; hooks
    of earlier builds named it by its absolute path, and doctor says so in a copy."""
    root = repo(tmp_path / "a")
    assert run_cli("hook", "install", "--project", str(root)).returncode == 0
    assert {c.name: c.status for c in project_checks(root, [])}["git-hooks"] == "pass"
    copy = tmp_path / "b" / "Game"
    copy.parent.mkdir()
    subprocess.run(["cp", "-r", str(root), str(copy)], check=True)
    assert {c.name: c.status for c in project_checks(copy, [])}["git-hooks"] == "pass"
    (copy / "Assets/Shield.cs").write_text("public class CopiedShield {}\n")
    for args in (["add", "-A"], ["commit", "-qm", "shield"]):
        subprocess.run(["git", "-C", str(copy), "-c", "user.email=t@t", "-c", "user.name=t", *args], check=True)
    hits = run_cli("query", "CopiedShield", "--json", "--project", str(copy))
    assert '"path":"Assets/Shield.cs"' in hits.stdout, hits.stderr
    for hook in (copy / ".git/hooks").iterdir():  # as an earlier build wrote them
        if not hook.name.endswith(".sample"):
            hook.write_text(hook.read_text().replace("\nproject=.\n", f"\nproject={root}\n"))
    hooks = {c.name: c for c in project_checks(copy, [])}["git-hooks"]
    assert hooks.status == "fail"
    assert f"refresh {root}, not this project (copied with the repository?)" in hooks.detail
    assert hooks.fix == f"unity-index hook install --project {copy}"
    subprocess.run(["rm", "-rf", str(root)], check=True)
    hooks = {c.name: c for c in project_checks(copy, [])}["git-hooks"]
    assert f"refresh {root}, which no longer exists" in hooks.detail
    assert run_cli("hook", "install", "--project", str(copy)).returncode == 0  # the fix
    assert {c.name: c.status for c in project_checks(copy, [])}["git-hooks"] == "pass"


def test_a_project_without_hooks_beside_one_with_them_in_one_repository_is_a_warning(tmp_path: Path) -> None:
    """docs/cli.md, doctor: hooks missing are a warning; a fail is for hooks refreshing another
    project through a copy. A repository holding two projects, one with hooks, failed the other."""
    top = tmp_path / "repo"
    game = write_project(top / "Game", {"Assets/Hero.cs": "public class Hero {}\n"})
    tools = write_project(top / "Tools", {"Assets/Tool.cs": "public class Tool {}\n"})
    subprocess.run(["git", "-C", str(top), "init", "-q"], check=True)
    assert run_cli("hook", "install", "--project", str(game)).returncode == 0
    assert {c.name: c.status for c in project_checks(game, [])}["git-hooks"] == "pass"
    hooks = {c.name: c for c in project_checks(tools, [])}["git-hooks"]
    assert hooks.status == "warn", hooks.detail
    assert hooks.detail.endswith("refresh Game of this repository, not this project")
    assert hooks.fix == f"unity-index hook install --project {tools}"


def test_a_script_copied_with_its_meta_is_not_credited_with_the_originals_users(tmp_path: Path) -> None:
    """A script copied outside Unity (a file manager, `cp`) keeps its .meta: two files hold one
    GUID until Unity gives one of them a new GUID. Usages by the GUID go to one file, the same one
    everywhere, and both files say that the GUID is shared."""
    import json
    import shutil

    root = copy_fixture(tmp_path / "P")
    folder = root / "Assets/Scripts/Player"
    text = (folder / "PlayerHealth.cs").read_text().replace("class PlayerHealth", "class PlayerHealthOld")
    (folder / "PlayerHealthOld.cs").write_text(text)
    shutil.copyfile(folder / "PlayerHealth.cs.meta", folder / "PlayerHealthOld.cs.meta")
    guid = "06da43a2b5a9504318c3177567ab555f"
    original, copy = "Assets/Scripts/Player/PlayerHealth.cs", "Assets/Scripts/Player/PlayerHealthOld.cs"
    assert run_cli("index", "--project", str(root)).returncode == 0

    def ask(*args: str) -> dict:
        r = run_cli(*args, "--json", "--project", str(root))
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)

    described = ask("describe", copy)
    assert described["guid"] == guid and described["used_by"] == []
    assert f"GUID {guid} is also that of {original}" in described["text"]
    described = ask("describe", original)
    assert "Assets/Prefabs/Player.prefab" in {e["path"] for e in described["used_by"]}
    assert f"GUID {guid} is also that of {copy}" in described["text"]
    refs = ask("refs", copy)
    assert [u for u in refs["usages"] if u["where"] == "asset"] == [] and original in refs["target"]["note"]
    refs = ask("refs", guid)
    assert refs["target"]["path"] == original
    assert "Assets/Prefabs/Player.prefab" in {u["path"] for u in refs["usages"]}
    assert ask("describe", "Assets/Prefabs/Player.prefab")["uses"].count({"path": original, "edge": "script"}) == 1


def test_a_guid_of_no_file_in_the_project_still_lists_its_users(ws) -> None:
    """A package's script (uGUI's Button here) has no .meta in the project: `refs GUID` lists the
    scenes using it. The shared-GUID rule (usages go to the one file a GUID leads to) must not
    drop them because no file is the one."""
    graph = ws.projects[0].graph
    target = graph.target("4e29b1a8efbd4b44bb3f3716e73f07ff")
    assert (target.kind, target.path, target.name) == ("package_script", "", "UnityEngine.UI.Button")
    assert sorted({u.path for u in graph.references(target)}) == [
        "Assets/Scenes/Dungeon.unity",
        "Assets/Scenes/MainMenu.unity",
    ]


def test_a_shared_guid_leads_to_the_first_file_by_path_whichever_was_indexed_first(tmp_path: Path) -> None:
    """docs/indexing.md (`.meta`): a copy of the same name in a folder sorted before the
    original's, added by an incremental update, takes the GUID's usages: the first file by path,
    in every lookup. (A copy of a longer name, as copies are named, does not: session 53.)"""
    import shutil

    from indexer.query.workspace import open_workspace
    from indexer.store.reader import Records
    from indexer.store.schema import IndexPaths

    root = copy_fixture(tmp_path / "P")
    update(root, Config(workers=1))
    folder, other = root / "Assets/Scripts/Player", root / "Assets/Scripts/APlayer"
    other.mkdir()
    text = (folder / "PlayerHealth.cs").read_text().replace("class PlayerHealth", "class APlayerHealth")
    (other / "PlayerHealth.cs").write_text(text)
    shutil.copyfile(folder / "PlayerHealth.cs.meta", other / "PlayerHealth.cs.meta")
    update(root, Config(workers=1))
    guid, first = "06da43a2b5a9504318c3177567ab555f", "Assets/Scripts/APlayer/PlayerHealth.cs"
    records = Records(IndexPaths(Config().index_path(root)))
    assert records.path_of_guid(guid) == first and records.guid_paths()[guid] == first
    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    assert (first, "script") in graph.uses("Assets/Prefabs/Player.prefab")
    users = {u.path for u in graph.references(graph.target("DungeonCrawler.Player.APlayerHealth"))}
    assert "Assets/Prefabs/Player.prefab" in users
    original = {u.path for u in graph.references(graph.target("DungeonCrawler.Player.PlayerHealth"))}
    assert "Assets/Prefabs/Player.prefab" not in original
