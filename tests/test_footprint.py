"""README: unity-index "writes only into `Library/UnityIndex/`". Every file and folder of a project
in a git work tree (its `.git/` too) is compared, by path, size, mtime and mode, before and after
each command that only indexes or answers: `index` (first, incremental after an edit and a touch,
`--full`), `query`, `context`, `refs`, `describe`, `status`, `watch` for a batch, and an MCP stdio
session calling every index tool. The exceptions, said in the README: in a git work tree the
`git status` an `index` runs refreshes git's own index, as any `git status` does (`watch` and the
MCP server ask git without its optional locks and leave it alone), and the MCP server's sync
cookies come and go in the folders it watches."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

from .conftest import CLI_ENV, REPO, copy_fixture, run_cli, start_cli

INDEX = Path("Library/UnityIndex")
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.hooksPath=/dev/null"]


def tree(root: Path) -> dict[str, tuple[int, int, int]]:
    """Every entry below `root` but the index folder: (size, mtime_ns, mode), links not followed.
    Folder sizes and mtimes change when an entry is added or removed in them."""
    out = {}
    for folder, dirs, files in os.walk(root):
        rel_folder = Path(folder).relative_to(root)
        if rel_folder == INDEX:
            dirs[:] = []
            continue
        for name in (*dirs, *files):
            if rel_folder / name != INDEX:
                st = os.lstat(Path(folder) / name)
                out[(rel_folder / name).as_posix()] = (st.st_size, st.st_mtime_ns, st.st_mode)
    st = os.lstat(root)
    out["."] = (st.st_size, st.st_mtime_ns, st.st_mode)
    return out


def changed(before: dict, after: dict) -> list[str]:
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


def git_project(tmp_path: Path) -> Path:
    root = copy_fixture(tmp_path / "Game")
    (root / INDEX).mkdir(parents=True)  # so creating it does not count as a change of Library/
    subprocess.run([*GIT, "init", "-q"], cwd=root, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=root, check=True)
    subprocess.run([*GIT, "commit", "-q", "-m", "x"], cwd=root, check=True)
    subprocess.run([*GIT, "status", "-s"], cwd=root, check=True, capture_output=True)  # git's index settled
    return root


# `git status`, which `index` runs in a git work tree, refreshes the stats in git's own index
# (taking `.git/index.lock` for it) as every `git status` does: the one write outside the index.
GIT_STATUS = {".git", ".git/index"}


def assert_untouched(root: Path, *args: str) -> None:
    before = tree(root)
    r = run_cli(*args, "--project", str(root))
    assert r.returncode == 0, (args, r.stderr)
    assert set(changed(before, tree(root))) <= GIT_STATUS, args


def test_commands_write_only_into_the_index_folder(tmp_path: Path) -> None:
    root = git_project(tmp_path)
    assert_untouched(root, "index")
    assert list((root / INDEX).iterdir()), "the index is where the README says"
    for args in (
        ("query", "player takes damage"),
        ("context", "add a shield", "--budget", "2000"),
        ("refs", "PlayerHealth"),
        ("describe", "Assets/Scripts/Player/PlayerHealth.cs"),
        ("status",),
        ("index", "--check"),
        ("status", "--check"),
        ("index",),
    ):
        assert_untouched(root, *args)
    # A touched file (same content, git's stat of it stale) and an edited one: git is asked, and
    # the update reads both, but git's own index is not refreshed by us.
    health = root / "Assets/Scripts/Combat/Health.cs"
    os.utime(health, ns=(health.stat().st_atime_ns, health.stat().st_mtime_ns + 5_000_000_000))
    player = root / "Assets/Scripts/Player/PlayerHealth.cs"
    player.write_text(player.read_text() + "\n// edited\n")
    assert_untouched(root, "index")
    assert_untouched(root, "index", "--full")


def touch(path: Path) -> None:
    """A new mtime, the same content: git's stat of the file is stale, and a `git status` that may
    take git's optional lock rewrites its index."""
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 5_000_000_000))


def test_watch_and_an_mcp_session_write_only_into_the_index_folder(tmp_path: Path) -> None:
    """Both run beside the user's own git commands: they never rewrite git's index (nor hold
    `.git/index.lock`, on which a `git commit` meanwhile would fail), even with a touched file
    that any `git status` taking the optional lock would refresh."""
    root = git_project(tmp_path)
    assert run_cli("index", "--project", str(root)).returncode == 0
    touch(root / "Assets/Scripts/Combat/Health.cs")
    before = tree(root)
    env = {**os.environ, **CLI_ENV}
    proc = start_cli("watch", "--project", str(root), stdout=subprocess.DEVNULL)
    try:
        assert proc.stderr is not None
        assert "watching" in proc.stderr.readline()
        shield = root / "Assets/Scripts/Shield.cs"
        shield.write_text("public class Shield {}\n")
        assert "1 added" in proc.stderr.readline()
        shield.unlink()
        assert "1 deleted" in proc.stderr.readline()
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 0
    time.sleep(0.05)
    # The new file came and went: its folder's mtime moved (our write, not the watcher's).
    assert set(changed(before, tree(root))) == {"Assets/Scripts"}
    touch(root / "Assets/Scripts/Player/PlayerHealth.cs")
    before = tree(root)
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "indexer.cli", "serve", "--project", str(root)], env=env, cwd=str(REPO)
    )

    async def go() -> list[bool]:
        async with Client(params) as c:
            calls = [
                ("search", {"query": "apply damage"}),
                ("get_context", {"task": "add a shield", "budget": 2000}),
                ("find_references", {"target": "PlayerHealth"}),
                ("describe", {"target": "Assets/Scenes/Dungeon.unity"}),
                ("project_overview", {}),
                ("index_status", {}),
                ("refresh", {}),
            ]
            errors = [(await c.call_tool(name, args)).is_error for name, args in calls]
            await c.read_resource("unity://file/Assets/Scripts/Player/PlayerHealth.cs")
            return errors

    assert anyio.run(go) == [False] * 7
    after = tree(root)
    # The server's sync cookies (docs/mcp.md) come and go in each watched folder: those folders'
    # mtimes move, and nothing else changes (git's index neither); no file is left behind.
    assert before.keys() == after.keys()
    assert set(changed(before, after)) <= {".", "Assets", "Packages", "ProjectSettings"}
