"""`unity-index hook install` writes its four hooks all or none (session 53): each is prepared as
a temporary file beside it, then all are renamed into place; a failure on the way puts back what
was placed (the previous hooks, ours of another version, the user's renamed to `<name>.local`)
and says which hook failed. Before, the hooks were written one by one and a failure at the third
left the first two installed, the user's hooks among them already renamed. Each test failed so."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from indexer.changes import hooks as hooks_module
from indexer.changes.hooks import HOOKS, HookError, install

from .conftest import REPO, run_cli
from .test_environment_errors import _without_write_permission
from .test_hooks import git, repo  # noqa: F401  (the fixture)

USER_HOOK = "#!/bin/sh\necho the team's checks\n"


def _state(folder: Path) -> dict[str, tuple[str, int, bytes]]:
    """Every entry of the hooks folder: its type, permission bits and bytes (a folder's entries)."""
    out: dict[str, tuple[str, int, bytes]] = {}
    for p in sorted(folder.rglob("*")):
        st = p.lstat()
        kind = "dir" if stat.S_ISDIR(st.st_mode) else "link" if stat.S_ISLNK(st.st_mode) else "file"
        data = p.read_bytes() if kind == "file" else os.readlink(p).encode() if kind == "link" else b""
        out[str(p.relative_to(folder))] = (kind, stat.S_IMODE(st.st_mode), data)
    return out


def _user_hook(folder: Path, name: str, text: str = USER_HOOK) -> None:
    (folder / name).write_text(text)
    (folder / name).chmod(0o755)


def test_a_folder_in_the_third_hooks_place_changes_none(repo: Path) -> None:  # noqa: F811
    folder = repo / ".git/hooks"
    _user_hook(folder, "pre-commit")
    (folder / "post-merge").mkdir()
    (folder / "post-merge/notes.txt").write_text("a folder, not a hook\n")
    before = _state(folder)
    out = run_cli("hook", "install", "--project", str(repo))
    assert out.returncode == 2, out.stderr
    assert out.stderr == (
        f"error: {folder}/post-merge is a folder, not a hook: move it away, then run this again; no hook was changed\n"
    )  # (it renamed the folder to post-merge.local and installed all four, exit 0)
    assert _state(folder) == before


def test_a_hook_and_its_local_both_present_at_the_third_changes_none(repo: Path) -> None:  # noqa: F811
    folder = repo / ".git/hooks"
    _user_hook(folder, "pre-commit")
    _user_hook(folder, "post-merge")
    _user_hook(folder, "post-merge.local")
    before = _state(folder)
    with pytest.raises(HookError) as caught:
        install(repo)
    assert str(caught.value) == (
        f"{folder}/post-merge exists and so does {folder}/post-merge.local: move one of them away first;"
        " no hook was changed"
    )  # (pre-commit and post-checkout were installed already, the user's pre-commit renamed)
    assert _state(folder) == before


def test_install_completes_a_set_a_kill_left_partial(repo: Path) -> None:  # noqa: F811
    """The one gap left: a SIGKILL between two renames. The next install places the rest."""
    folder = repo / ".git/hooks"
    _user_hook(folder, "post-merge")
    install(repo)
    for name in ("post-merge", "post-rewrite"):  # as if killed before these two were placed
        (folder / name).unlink()
    os.replace(folder / "post-merge.local", folder / "post-merge")
    assert install(repo) == [
        "post-merge: kept the existing hook as post-merge.local, run after the refresh",
        f"post-merge: installed in {folder}",
        f"post-rewrite: installed in {folder}",
    ]
    assert all(hooks_module.MARKER in (folder / name).read_text() for name in HOOKS)
    assert (folder / "post-merge.local").read_text() == USER_HOOK


def test_a_failure_placing_the_third_hook_puts_back_the_first_two(repo: Path, monkeypatch) -> None:  # noqa: F811
    folder = repo / ".git/hooks"
    _user_hook(folder, "pre-commit")  # to be kept as pre-commit.local
    install(repo)
    old = hooks_module.script(["elsewhere"], "/old/unity-index") + "echo a line of the user's\n"
    for name in HOOKS[1:]:  # ours of another version, one with a line someone added
        _user_hook(folder, name, old)
    (folder / "pre-commit").unlink()
    os.replace(folder / "pre-commit.local", folder / "pre-commit")
    before = _state(folder)
    real = os.replace

    def disk_full_at_post_merge(src, dst, **kw):  # (a full disk, a kill: the rename fails)
        if Path(dst).name == "post-merge" and Path(src).name.startswith(".post-merge.") and str(src).endswith(".tmp"):
            raise OSError(errno.ENOSPC, "No space left on device", str(dst))
        return real(src, dst, **kw)

    monkeypatch.setattr(os, "replace", disk_full_at_post_merge)
    with pytest.raises(HookError) as caught:
        install(repo)
    assert str(caught.value) == (
        f"could not install the post-merge hook in {folder}: No space left on device; no hook was changed"
    )
    assert _state(folder) == before  # backups of the edited hooks and temporary files removed too


def test_a_hook_another_user_owns_in_a_shared_folder_changes_none(repo: Path) -> None:  # noqa: F811
    """A real rename refused: a sticky hooks folder (mode 1777) whose `post-merge` another user
    owns, as a user without root's power over others' files."""
    prefix = _without_write_permission()
    if prefix is None or os.geteuid() != 0:
        pytest.skip("needs root, and setpriv to drop root's power over other users' files")
    folder = repo / ".git/hooks"
    _user_hook(folder, "pre-commit")
    _user_hook(folder, "post-merge")
    os.chown(folder / "post-merge", 12345, 12345)
    os.chown(folder, 12345, 12345)
    folder.chmod(0o1777)
    before = _state(folder)
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}
    command = [*prefix, sys.executable, "-m", "indexer.cli", "hook", "install", "--project", str(repo)]
    out = subprocess.run(command, capture_output=True, text=True, env=env, cwd=REPO)
    assert out.returncode == 2, out.stderr
    assert out.stderr == (
        f"error: could not install the post-merge hook in {folder}: Operation not permitted; no hook was changed\n"
    )
    assert _state(folder) == before
