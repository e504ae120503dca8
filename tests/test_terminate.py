"""SIGTERM stops `index --full` as Ctrl-C does (exit 143, one line, the old generation kept, no
process and no temporary folder left), and a SIGKILLed indexer's temporary folder is removed by
the next run (`indexer/build/scratch.py`). Linux only: processes are found through /proc."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from indexer.build import scratch
from tests.test_kills import Project, marked, snapshot, start, timed

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds processes through /proc")


def folders_of(pid: int) -> list[Path]:
    """The multiprocessing folders of the indexer process `pid`."""
    return sorted(Path(tempfile.gettempdir()).glob(f"{scratch.PREFIX}{pid}-*"))


def scanning(project: Project, marker: str) -> subprocess.Popen:
    """`index --full` started and seen scanning (the indexer and its scanners are alive)."""
    proc = start(project.root, "index", "--full", marker=marker)
    while len(marked(marker)) < 3 and proc.poll() is None:
        time.sleep(0.02)
    return proc


def test_sigterm_of_a_full_build_stops_it_as_ctrl_c_does_and_leaves_nothing(tmp_path: Path) -> None:
    project = Project(tmp_path / "Game", tmp_path / "refs")
    timed(project.root, "index")

    def generations() -> list[str]:
        return sorted(p.name for p in project.index_dir.iterdir() if p.name.startswith("gen-"))

    for whom in ("main", "group"):  # `kill PID`, and a service manager's stop (the whole group)
        for _attempt in range(5):  # on a fast machine the build may finish before the signal lands
            before = generations()
            marker = uuid.uuid4().hex
            proc = scanning(project, marker)
            assert folders_of(proc.pid), "the scanners' fork server has no folder of ours"
            (os.kill if whom == "main" else os.killpg)(proc.pid, signal.SIGTERM)
            t0 = time.monotonic()
            _, err = proc.communicate(timeout=30)
            if proc.returncode != 0:
                break
        assert time.monotonic() - t0 < 3, f"{whom}: SIGTERM waited for the queued scans"
        assert proc.returncode == 143 and err.decode().strip() == "error: stopped by SIGTERM", (whom, err.decode())
        assert generations() == before, whom  # the stopped build left nothing; the old generation answers
        assert snapshot(project.index_dir) == project.reference[0], whom
        deadline = time.monotonic() + 10
        while marked(marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert marked(marker) == [], whom
        assert folders_of(proc.pid) == [], whom


def test_the_folder_a_sigkilled_indexer_left_is_removed_by_the_next_run(tmp_path: Path) -> None:
    project = Project(tmp_path / "Game", tmp_path / "refs")
    marker = uuid.uuid4().hex
    proc = scanning(project, marker)
    os.kill(proc.pid, signal.SIGKILL)  # as the OOM killer would: nothing of the indexer runs after
    proc.wait()
    left = folders_of(proc.pid)
    assert len(left) == 1 and (left[0] / scratch.LOCK).is_file()
    after = start(project.root, "index", "--no-wait")
    assert after.wait(timeout=120) == 0, after.stderr.read().decode()  # type: ignore[union-attr]
    assert not left[0].exists()
    assert folders_of(after.pid) == []  # and the next run's own, at its exit


def test_a_live_processs_folder_is_kept_and_a_dead_ones_removed() -> None:
    with tempfile.TemporaryDirectory(dir="/tmp") as short:  # pytest's tmp_path is too deep for a socket
        _kept_while_alive(Path(short))


def test_a_temporary_folder_too_deep_for_the_socket_gives_way_to_tmp(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 80)
    deep.mkdir()
    out = subprocess.run(
        [sys.executable, "-c", "from indexer.build import scratch; print(scratch.claim())"],
        capture_output=True,
        text=True,
        env={**os.environ, "TMPDIR": str(deep)},
        check=True,
    )
    assert out.stdout.startswith(f"/tmp/{scratch.PREFIX}")
    assert not Path(out.stdout.strip()).exists()  # removed at its exit


def _kept_while_alive(tmp_path: Path) -> None:
    owner = subprocess.Popen(
        [sys.executable, "-c", "from indexer.build import scratch; print(scratch.claim(), flush=True); input()"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    folder = owner.stdout.readline().strip()  # type: ignore[union-attr]
    assert folder.startswith(f"{tmp_path}/{scratch.PREFIX}{owner.pid}-")
    fresh = tmp_path / f"{scratch.PREFIX}0-unlocked"  # made this instant, its lock not yet taken
    fresh.mkdir()
    stale = tmp_path / f"{scratch.PREFIX}1-unlocked"
    stale.mkdir()
    os.utime(stale, (time.time() - 120, time.time() - 120))
    other = tmp_path / "pymp-notours"
    other.mkdir()
    assert scratch.reclaim(str(tmp_path)) == [str(stale)]
    assert Path(folder).is_dir() and fresh.is_dir() and other.is_dir()
    owner.kill()
    owner.wait()
    assert scratch.reclaim(str(tmp_path)) == [folder]
    assert not Path(folder).exists()
