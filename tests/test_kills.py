"""Nothing hangs, nothing is lost: `index`, `index --full`, incremental updates, `watch`'s catch-up
and `serve`'s refresh killed at random moments (SIGKILL of the main process alone or of its
process group, SIGTERM, Ctrl-C's SIGINT to the group) on a generated project, while readers
query throughout. After each kill: no process of the killed run is left, the next `index` runs at
once (nobody holds the lock) and succeeds, the records equal a clean rebuild's, and no reader
failed or waited 10 s.

UNITY_INDEX_KILLS sets the number of kills (default 8; the 100-kill run in docs/indexing.md is
`UNITY_INDEX_KILLS=100 pytest tests/test_kills.py -k random`). Linux only: processes are found
through /proc.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import msgspec
import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.store.consistency import check_consistency
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths
from tests.bench.generator import generate

from .conftest import REPO

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds processes through /proc")

KILLS = int(os.environ.get("UNITY_INDEX_KILLS", "8"))
SCRIPTS = 150  # about 450 files: enough for the scanner processes, small enough for many rounds
MARK = "UNITY_INDEX_TEST_RUN"
EDGES = "SELECT a.path, b.path, e.kind FROM edges e JOIN files a ON a.id = e.src JOIN files b ON b.id = e.dst"
TYPES = (
    "SELECT f.path, t.qualified, t.line, t.name, t.kind, t.container, t.bases, t.partial, t.test, t.namespace,"
    " t.category FROM types t JOIN files f ON f.id = t.file_id"
)
GUIDS = "SELECT f.path, g.guid FROM guids g JOIN files f ON f.id = g.meta_id"
READER_LIMIT = 10.0
TARGETS = ("index", "index --full", "watch", "serve")
SIGNALS = ("SIGKILL main", "SIGKILL group", "SIGTERM main", "SIGINT group")


def start(root: Path, *args: str, marker: str = "", stdin: int | None = subprocess.DEVNULL) -> subprocess.Popen:
    """A unity-index command in its own process group, its processes marked by `marker`."""
    return subprocess.Popen(
        [sys.executable, "-m", "indexer.cli", *args, "--project", str(root)],
        cwd=REPO,
        stdin=stdin,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1", MARK: marker},
        start_new_session=True,
    )


def marked(marker: str) -> list[int]:
    """Pids of the live processes started with `marker` (a scanner, fork server or resource
    tracker inherits it: they are found after their parent died)."""
    needle = f"{MARK}={marker}\0".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            environ = Path(f"/proc/{entry}/environ").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if needle in environ and state != "Z":
            found.append(int(entry))
    return found


def snapshot(index_dir: Path) -> dict:
    """What an index holds, independent of how and when it was written."""
    records = Records(IndexPaths(index_dir))
    try:
        c = records.conn
        return {
            "records": [msgspec.to_builtins(r) for r in records.records()],
            "types": sorted(c.execute(TYPES).fetchall()),
            "guids": sorted(c.execute(GUIDS).fetchall()),
            "edges": sorted(c.execute(EDGES).fetchall()),
        }
    finally:
        records.close()


class Project:
    """A generated project with two contents (a third of its scripts changed), each with fixed
    mtimes, and the records of a clean rebuild of each."""

    def __init__(self, root: Path, refs: Path) -> None:
        summary = generate(root, SCRIPTS, seed=3)
        self.root = root
        self.config = Config()
        self.changed = [root / p for p in summary.script_paths[::3]]
        self.original = {p: p.read_bytes() for p in self.changed}
        self.type_name = summary.type_names[0]
        self.variant = 0
        self.reference = {}
        for variant in (1, 0):
            self.switch(variant)
            update(root, Config(workers=1, index_dir=str(refs / f"v{variant}")), full=True)
            self.reference[variant] = snapshot(refs / f"v{variant}")

    def switch(self, variant: int) -> None:
        for i, p in enumerate(self.changed):
            data = self.original[p] + (f"\npublic class Extra{i} {{ public int x; }}\n".encode() if variant else b"")
            p.write_bytes(data)
            t = 1_700_000_000_000_000_000 + variant * 10_000_000_000 + i
            os.utime(p, ns=(t, t))
        self.variant = variant

    @property
    def index_dir(self) -> Path:
        return self.config.index_path(self.root)


# --no-refresh: a reader, not a second writer racing the killed one for the lock (a query updates
# the index itself when files changed since it was)
READER = [sys.executable, "-m", "indexer.cli", "query"]


class Readers(threading.Thread):
    """`unity-index query` run again and again: every answer's exit code and duration."""

    def __init__(self, root: Path, term: str) -> None:
        super().__init__(daemon=True)
        self.root, self.term = root, term
        self.stop = threading.Event()
        self.answers: list[tuple[int, float, str]] = []

    def run(self) -> None:
        while not self.stop.is_set():
            t0 = time.monotonic()
            try:
                out = subprocess.run(
                    [*READER, self.term, "--project", str(self.root), "--json", "--no-refresh"],
                    cwd=REPO,
                    capture_output=True,
                    text=True,
                    env={**os.environ, "PYTHONPATH": str(REPO)},
                    timeout=60,
                )
                code = out.returncode
                if code == 0 and not json.loads(out.stdout)["results"]:
                    code = -1  # an answer without the type every state of the project declares
                self.answers.append((code, time.monotonic() - t0, out.stderr))
            except subprocess.TimeoutExpired:
                self.answers.append((-2, time.monotonic() - t0, "no answer in 60 s"))

    def failures(self) -> list[tuple[int, float, str]]:
        return [a for a in self.answers if a[0] != 0 or a[1] > READER_LIMIT]


def kill(proc: subprocess.Popen, how: str) -> None:
    name, whom = how.split()
    sig = getattr(signal, name)
    try:
        if whom == "group":
            os.killpg(proc.pid, sig)
        else:
            os.kill(proc.pid, sig)
    except ProcessLookupError:
        pass


def one_round(project: Project, target: str, how: str, delay: float) -> bool:
    """Start `target`, kill it after `delay` s, check what the kill left; True if it was running."""
    if target != "index --full":
        project.switch(1 - project.variant)  # work for the update, the watch's catch-up, the refresh
    marker = uuid.uuid4().hex
    proc = start(project.root, *target.split(), marker=marker, stdin=subprocess.PIPE)
    time.sleep(delay)
    running = proc.poll() is None
    t_kill = time.monotonic()
    kill(proc, how)
    proc.wait(timeout=READER_LIMIT)
    proc.stdin.close()  # type: ignore[union-attr]
    err = proc.stderr.read().decode(errors="replace")  # type: ignore[union-attr]
    proc.stderr.close()  # type: ignore[union-attr]
    assert "multiprocessing" not in err, err  # no traceback of a scanner process
    while marked(marker) and time.monotonic() - t_kill < 10:
        time.sleep(0.05)
    assert not marked(marker), f"{target} / {how}: processes of the killed run are alive: {marked(marker)}"
    after = start(project.root, "index", "--no-wait")
    _, err = after.communicate(timeout=120)
    assert after.returncode == 0, f"{target} / {how}: the next index failed: {err.decode()}"
    assert time.monotonic() - t_kill < 10 + 30, "the next index ran long"
    assert snapshot(project.index_dir) == project.reference[project.variant], f"{target} / {how}"
    assert check_consistency(IndexPaths(project.index_dir), project.root, project.config) == []
    return running


def timed(root: Path, *args: str) -> float:
    t0 = time.monotonic()
    proc = start(root, *args)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err.decode()
    return time.monotonic() - t0


def test_random_kills_lose_nothing_and_leave_nothing_running(tmp_path: Path) -> None:
    project = Project(tmp_path / "Game", tmp_path / "refs")
    full = timed(project.root, "index", "--full")
    project.switch(1)
    incremental = timed(project.root, "index")
    windows = {"index --full": full, "index": incremental, "watch": incremental + 1.5, "serve": incremental + 3.0}
    rng = random.Random(int(os.environ.get("UNITY_INDEX_KILL_SEED", "14")))
    readers = Readers(project.root, project.type_name)
    readers.start()
    running = 0
    try:
        for i in range(KILLS):
            target, how = TARGETS[i % len(TARGETS)], SIGNALS[(i // len(TARGETS)) % len(SIGNALS)]
            running += one_round(project, target, how, rng.uniform(0.05, windows[target]))
    finally:
        readers.stop.set()
        readers.join(timeout=90)
    print(f"{KILLS} kills, {running} while running; {len(readers.answers)} reader answers; full {full:.1f}s")
    assert readers.answers and readers.failures() == []
    assert running >= KILLS // 2


def test_scanner_processes_die_with_a_killed_indexer_and_never_hold_the_lock(tmp_path: Path) -> None:
    project = Project(tmp_path / "Game", tmp_path / "refs")
    marker = uuid.uuid4().hex
    proc = start(project.root, "index", "--full", marker=marker)
    lock = project.index_dir / "write.lock"
    deadline = time.monotonic() + 60
    scanners: list[int] = []
    while time.monotonic() < deadline and len(scanners) < 2 and proc.poll() is None:
        scanners = [p for p in marked(marker) if p != proc.pid]
        time.sleep(0.02)
    assert scanners, "the full build did not start scanner processes"
    for pid in scanners:
        fds = []
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):  # closed meanwhile
                fds.append(os.readlink(f"/proc/{pid}/fd/{fd}"))
        assert str(lock) not in fds, f"scanner {pid} holds the writer lock's descriptor"
    os.kill(proc.pid, signal.SIGKILL)  # the main process alone, as the OOM killer would
    proc.wait()
    t0 = time.monotonic()
    while marked(marker) and time.monotonic() - t0 < 10:
        time.sleep(0.05)
    assert marked(marker) == []
    after = start(project.root, "index", "--no-wait")
    assert after.wait(timeout=120) == 0, after.stderr.read().decode()  # type: ignore[union-attr]
    assert snapshot(project.index_dir) == project.reference[0]


def test_ctrl_c_of_a_full_build_stops_at_once_without_tracebacks(tmp_path: Path) -> None:
    project = Project(tmp_path / "Game", tmp_path / "refs")
    timed(project.root, "index")

    def generations() -> list[str]:
        return sorted(p.name for p in project.index_dir.iterdir() if p.name.startswith("gen-"))

    for _attempt in range(5):  # on a fast machine the build may finish before the signal lands
        before = generations()
        marker = uuid.uuid4().hex
        proc = start(project.root, "index", "--full", marker=marker)
        while len(marked(marker)) < 3 and proc.poll() is None:  # scanning: the indexer and its scanners
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGINT)
        t0 = time.monotonic()
        _, err = proc.communicate(timeout=30)
        if proc.returncode != 0:
            break
    assert time.monotonic() - t0 < 3, "Ctrl-C waited for the queued scans"
    assert proc.returncode == 130 and err.decode().strip() == "error: interrupted", err.decode()
    assert generations() == before  # the interrupted build left nothing; the old generation answers
    assert snapshot(project.index_dir) == project.reference[0]
