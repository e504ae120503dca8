"""Failures found by the hostile testing of session 40, each held by a test."""

from __future__ import annotations

import errno
import json
import os
import threading
from pathlib import Path

from .conftest import write_project
from .test_indexing import HEALTH


def test_watch_waits_out_a_full_disk_instead_of_ending(tmp_path: Path, monkeypatch, capsys) -> None:
    """`watch` ended at its first failed update, exit 2, when the disk holding the index filled
    (the MCP server's watcher retries): every change after it went unindexed until someone
    noticed. Now the failure is said once, the batch kept and tried again until it goes in."""
    from indexer.build import update as update_module
    from indexer.changes import watch as watch_module
    from indexer.cli.main import main

    root = write_project(tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH})
    stop = threading.Event()
    calls: list[int] = []

    def full_then_room(*args, **kwargs):
        calls.append(1)
        if len(calls) <= 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(root / "Library/UnityIndex/x"))
        stats = update_module.update(*args, **kwargs)
        stop.set()
        return stats

    monkeypatch.setattr(watch_module, "install_stop_handlers", lambda event: None)  # no signal handlers in a test
    monkeypatch.setattr(watch_module, "update", full_then_room)
    monkeypatch.setattr(watch_module, "FAILURE_RETRY", 0.01)
    monkeypatch.setattr(watch_module.Collector, "take", lambda self, event: None if stop.is_set() else {"\0walk"})
    code = main(["watch", "--project", str(root)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert err.count("the disk is full") == 1, err
    assert "the watch keeps its changes and tries again every 2 s" in err
    assert "run the command again" not in err
    assert len(calls) == 4 and (root / "Library/UnityIndex/index.json").is_file()


def test_a_huge_paste_of_few_terms_or_none_is_cut_too() -> None:
    """`bounded_query` cut a text only at its 401st distinct term: 9 MB of one line repeated, or of
    punctuation, went whole through every step of the ranking, and one `search` over MCP took
    21 s. Now it reads at most MAX_QUERY_WORDS words and MAX_QUERY_CHARS characters, cut at a
    blank."""
    import time

    from indexer import identifiers
    from indexer.identifiers import bounded_query, compounds, query_terms

    repeated = "player dies " * 1_000_000
    kept = bounded_query(repeated)
    assert repeated.startswith(kept) and len(kept.split()) <= identifiers.MAX_QUERY_WORDS
    assert set(query_terms("player dies")) <= set(query_terms(kept))
    no_words = "!@ " * 1_000_000
    kept = bounded_query(no_words)
    assert no_words.startswith(kept) and len(kept) <= identifiers.MAX_QUERY_CHARS and not kept.endswith("!")
    t0 = time.monotonic()
    compounds(bounded_query(no_words))
    assert time.monotonic() - t0 < 1.0
    question = "when the player dies the GameOverScreen should show the score " * 30
    assert bounded_query(question) == question  # a long question is whole, as before


def test_a_folder_of_many_projects_is_refused_before_any_config_is_read_and_by_doctor(tmp_path: Path) -> None:
    """`--project /` answered with the invalid `unity-index.toml` of some project four folders
    down (`error: /tmp/x/N/unity-index.toml: Expected int ...`), not with the folder holding too
    many projects; and `doctor --project /tmp` checked all 252 projects below, 10 s and 1,100
    lines. Both now say how many lie below and to give one."""
    from indexer.cli.common import MAX_WORKSPACE_PROJECTS

    from .conftest import run_cli

    folder = tmp_path / "Projects"
    for i in range(MAX_WORKSPACE_PROJECTS + 1):
        write_project(folder / f"Game{i:02d}", {"Assets/A.cs": "class A {}"})
    (folder / "Game05" / "unity-index.toml").write_text('workers = "many"\n')
    r = run_cli("query", "player", "--project", str(folder))
    assert r.returncode == 2 and "projects lie below it" in r.stderr and "workers" not in r.stderr, r.stderr
    r = run_cli("doctor", "--project", str(folder))
    assert r.returncode == 1 and "fail  project" in r.stdout and "projects lie below it" in r.stdout, r.stdout
    assert "Game00: " not in r.stdout  # no check of each project
    assert not any((folder / f"Game{i:02d}" / "Library").exists() for i in range(MAX_WORKSPACE_PROJECTS + 1))


def test_a_project_option_inside_a_project_names_the_project(tmp_path: Path) -> None:
    """`--project .` run in `Assets/Scripts` (where no `--project` finds the project) said only
    "not a Unity project ... and no Unity project below it", and doctor's fix was generic. Both
    now name the project the folder is in."""
    from .conftest import run_cli

    root = write_project(tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH})
    r = run_cli("query", "health", "--project", ".", cwd=root / "Assets" / "Scripts")
    assert r.returncode == 2
    assert f"it is inside the Unity project {root}; give --project {root}" in r.stderr, r.stderr
    r = run_cli("doctor", "--project", str(root / "Assets"))
    assert r.returncode == 1 and f"fix: pass --project {root}\n" in r.stdout, r.stdout
    r = run_cli("query", "health", "--project", str(tmp_path))  # a folder holding it still works
    assert r.returncode == 0, r.stderr


def test_an_editor_port_that_never_answers_is_given_up_on_in_seconds(tmp_path: Path) -> None:
    """A heartbeat naming a live process whose port accepts and never answers (a hung bridge)
    held `unity-index editor tools` 35 s, the wait of a tool call, for a list the bridge answers
    on its HTTP thread, and the message said only "no answer from the editor within 35 s". Now
    the list and the ping give up after 8 s, saying what to look at."""
    import socket
    import time

    import pytest

    from mcp_adapter.editor.bridge import EditorBridge, EditorCallError

    from .test_editor_bridge import write_heartbeat

    root = write_project(tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH})
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        write_heartbeat(root, port=listener.getsockname()[1])
        bridge = EditorBridge(root, reload_wait=0.0)  # the default call timeout, 30 s
        t0 = time.monotonic()
        with pytest.raises(EditorCallError) as info:
            bridge.list_tools()
        assert time.monotonic() - t0 < 12
        assert info.value.code == "timeout" and "bridge is hung; look at the Unity editor" in info.value.message


def test_a_killed_build_s_zombie_is_no_build_running(tmp_path: Path) -> None:
    """A build killed with SIGKILL stays a zombie until its parent reaps it (for good under a
    container's first process that reaps nothing), and `os.kill(pid, 0)` finds a zombie: its
    `progress.json` was read as a build running, and `index_status` said "building the index ...
    until it is done, search and the other tools answer from the previous index"."""
    import signal
    import subprocess
    import sys
    import time

    import pytest

    from indexer.changes.processes import pid_alive
    from indexer.model import BuildProgress
    from indexer.store.progress import _as_dict, _path, read_progress
    from indexer.store.schema import IndexPaths

    if not sys.platform.startswith("linux"):
        pytest.skip("zombies are told through /proc")
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert pid_alive(child.pid)
        paths = IndexPaths(tmp_path / "index")
        paths.root.mkdir()
        _path(paths).write_text(json.dumps(_as_dict(BuildProgress(pid=child.pid, rebuild=True, started_at=0.0))))
        assert read_progress(paths) is not None
        os.kill(child.pid, signal.SIGKILL)
        time.sleep(0.5)  # dead, not reaped: a zombie
        assert not pid_alive(child.pid) and read_progress(paths) is None
    finally:
        child.kill()
        child.wait()
