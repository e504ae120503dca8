"""Attack round 21 (session 54): what broke (docs/indexing.md, "Bad input", lists what held).

1. `hook uninstall` changed the hooks one by one: a failure at the third left two restored and two
   ours. Now all or none, as `install` (docs/cli.md).
2. An `index.json` whose `data` held a NUL failed every command, `index --full` too; one of 5,000
   characters every command but `--full`. Now no index, rebuilt (docs/indexing.md, "Guarantees").
3. In watch mode a call waited until nothing was pending; a file rewritten every 50 ms held every
   MCP call for 300 s. Now it waits for the writes made before it (docs/mcp.md).

Each test failed before its fix (said in each)."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from indexer.changes.hooks import HOOKS, HookError, install, uninstall

from .conftest import indexed_copy, run_cli
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


@pytest.mark.parametrize("name", ["gen-1\u0000", "a" * 5000], ids=["nul", "too-long"])
def test_an_index_json_naming_an_impossible_generation_folder_is_rebuilt(tmp_path: Path, name: str) -> None:
    """A valid index.json whose `data` names no folder a writer makes, one the file system cannot
    even look up. Before: a NUL failed every command, `index --full` too, exit 3 "internal error:
    ValueError: embedded null byte"; a too long name every command but `index --full`, exit 2
    "File name too long ... check that this file or folder can be read and written"."""
    root = indexed_copy(tmp_path)
    header = root / "Library/UnityIndex/index.json"
    header.write_text(json.dumps({**json.loads(header.read_text()), "data": name}))
    status = run_cli("status", "--json", "--project", str(root))
    assert status.returncode == 0, status.stderr
    query = run_cli("query", "player health", "--project", str(root))
    assert query.returncode == 0, query.stderr
    assert "Assets/Scripts/Player/PlayerHealth.cs" in query.stdout
    assert "cannot be used (damaged or incomplete): building it" in query.stderr
    assert json.loads(header.read_text())["data"] == "gen-2"
    header.write_text(json.dumps({**json.loads(header.read_text()), "data": name}))
    full = run_cli("index", "--full", "--project", str(root))
    assert full.returncode == 0, full.stderr
    assert full.stderr.startswith("rebuilt index of ")


def test_a_call_in_watch_mode_waits_for_the_writes_before_it_not_for_a_writer_that_never_stops(
    tmp_path: Path,
) -> None:
    """A tool writing a file of the project every 20 ms (a game saving into Assets/ in play mode, a
    generator): each call waited until nothing at all was pending, which never came while the
    writes went on, and answered after SETTLE_TIMEOUT (300 s: 50 concurrent MCP calls over HTTP
    all took 302 s). Now it waits for the writes made before it."""
    import threading
    import time

    from indexer.build.update import update
    from indexer.config import Config
    from mcp_adapter.server.watcher import ProjectWatcher

    from .conftest import write_project

    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { void Jump() {} }"})
    update(root, Config(workers=1))
    watcher = ProjectWatcher(root, Config(workers=1), lambda stats: None)
    watcher.start()
    stop = threading.Event()

    def keep_writing() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            (root / "Assets/Busy.cs").write_text(f"public class Busy {{ int v{n}; }}")
            stop.wait(0.02)

    writer = threading.Thread(target=keep_writing)
    try:
        assert watcher.settle(30)  # watching, its first update done
        writer.start()
        time.sleep(1.0)  # the writes going on
        (root / "Assets/Shield.cs").write_text("public class Shield { void Block() {} }")
        started = time.monotonic()
        assert watcher.settle(60)
        waited = time.monotonic() - started
    finally:
        stop.set()
        if writer.is_alive():
            writer.join(10)
        watcher.stop()
    assert waited < 15, waited  # (it returned False after the whole 60 s)
    shown = run_cli("describe", "Assets/Shield.cs", "--no-refresh", "--project", str(root))
    assert shown.returncode == 0, shown.stderr  # the write made before the call was applied
    assert "Shield" in shown.stdout


def test_a_call_whose_batch_in_flight_meets_another_writer_is_told_it_is_not_applied(
    tmp_path: Path, monkeypatch
) -> None:
    """`settle`'s promise kept by the fix above: the batch applying when the call came finds
    another process holding the writer lock (and so does the retry): False, the call then
    answering from the last commit with its note, not True as if the write were in."""
    import threading
    import time

    from indexer.build.update import update
    from indexer.config import Config
    from indexer.store.lock import IndexBusy
    from mcp_adapter.server import watcher as watcher_module

    from .conftest import write_project

    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { void Jump() {} }"})
    update(root, Config(workers=1))
    gate, in_flight, calls = threading.Event(), threading.Event(), []

    def busy_after_the_first(*args, **kw):
        calls.append(kw.get("paths"))
        if len(calls) == 1:
            return update(*args, **kw)  # the catch-up walk
        in_flight.set()
        gate.wait(30)
        raise IndexBusy("another process holds it", holder=1)

    monkeypatch.setattr(watcher_module, "update", busy_after_the_first)
    watcher = watcher_module.ProjectWatcher(root, Config(workers=1), lambda stats: None)
    watcher.start()
    try:
        assert watcher.settle(30)
        (tmp_path / "Shield.cs").write_text("public class Shield {}")
        os.replace(tmp_path / "Shield.cs", root / "Assets/Shield.cs")  # one event: none left pending
        assert in_flight.wait(30)  # its batch applying
        time.sleep(0.3)
        answer: list[bool] = []
        waiting = threading.Thread(target=lambda: answer.append(watcher.settle(30)))
        waiting.start()
        time.sleep(0.3)
        gate.set()
        waiting.join(30)
    finally:
        gate.set()
        watcher.stop()
    assert answer == [False]
    assert len(calls) >= 3  # the batch, and a retry begun after the call, both refused
