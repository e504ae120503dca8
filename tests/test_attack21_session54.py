"""Attack round 21 (session 54): `hook uninstall` all or none, and what round 21 found broken.
Each test failed before its fix (said in each)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from indexer.changes.hooks import HOOKS, HookError, install, uninstall

from .test_hooks import git, repo  # noqa: F401  (the fixture)
from .test_hooks_atomic_session53 import USER_HOOK, _state, _user_hook


def _installed_over_user_hooks(repo: Path) -> Path:  # noqa: F811
    """Ours installed over a user's hook in each place, a line added to ours in post-checkout."""
    folder = repo / ".git/hooks"
    for name in HOOKS:
        _user_hook(folder, name, USER_HOOK.replace("team's", f"team's {name}"))
    install(repo)
    with (folder / "post-checkout").open("a") as f:
        f.write("echo a line of the user's\n")
    return folder


def _failing_at(monkeypatch, name: str, error: BaseException) -> None:
    """`os.replace` fails putting the user's `<name>.local` back as `name`."""
    real = os.replace

    def replace(src, dst, **kw):
        if Path(src).name == f"{name}.local" and Path(dst).name == name:
            raise error
        return real(src, dst, **kw)

    monkeypatch.setattr(os, "replace", replace)


def test_uninstall_failing_at_the_third_hook_changes_none(repo: Path, monkeypatch) -> None:  # noqa: F811
    """Before: pre-commit and post-checkout were restored (the copy of the edited one made), then
    post-merge failed, leaving half the set ours and half the user's."""
    folder = _installed_over_user_hooks(repo)
    before = _state(folder)
    _failing_at(monkeypatch, "post-merge", OSError(errno.EACCES, "Permission denied", "post-merge"))
    with pytest.raises(HookError) as caught:
        uninstall(repo)
    assert str(caught.value) == (
        f"could not uninstall the post-merge hook in {folder}: Permission denied; no hook was changed"
    )
    assert _state(folder) == before  # every hook byte-identical, no backup copy nor leftover


def test_uninstall_interrupted_at_the_third_hook_changes_none(repo: Path, monkeypatch) -> None:  # noqa: F811
    folder = _installed_over_user_hooks(repo)
    before = _state(folder)
    _failing_at(monkeypatch, "post-merge", KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        uninstall(repo)
    assert _state(folder) == before


def test_uninstall_still_restores_every_hook(repo: Path) -> None:  # noqa: F811
    folder = _installed_over_user_hooks(repo)
    assert uninstall(repo) == [
        "pre-commit: restored the previous hook",
        "post-checkout: had lines unity-index did not write; kept a copy as post-checkout.unity-index-backup",
        "post-checkout: restored the previous hook",
        "post-merge: restored the previous hook",
        "post-rewrite: restored the previous hook",
    ]
    assert sorted(p.name for p in folder.iterdir() if not p.name.endswith(".sample")) == sorted(
        [*HOOKS, "post-checkout.unity-index-backup"]
    )
    for name in HOOKS:
        assert (folder / name).read_text() == USER_HOOK.replace("team's", f"team's {name}")
        assert os.access(folder / name, os.X_OK)
    assert (folder / "post-checkout.unity-index-backup").read_text().endswith("echo a line of the user's\n")
