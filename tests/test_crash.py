"""Crash safety and readers during writes: kill -9 an indexer at random points; query while re-indexing."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.store.consistency import check_consistency
from indexer.store.lock import writer_lock
from indexer.store.schema import IndexPaths

from .conftest import REPO, meta, run_cli, write_project

FILES = 1500  # scripts, each with a .meta: 3,000 files
CONFIG = Config()


def generate(root: Path, n: int = FILES, variant: int = 0) -> Path:
    files: dict[str, str] = {"ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2021.3.15f1\n"}
    for i in range(n):
        folder = f"Assets/Gen/F{i % 30}"
        body = f"public class C{i} : UnityEngine.MonoBehaviour {{ public int v{variant}; void M{i}() {{ }} }}\n"
        files[f"{folder}/C{i}.cs"] = body
        files[f"{folder}/C{i}.cs.meta"] = meta(f"{i:032x}")
    return write_project(root, files)


def start_index(root: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "indexer.cli", "index", "--project", str(root), *args],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        start_new_session=True,  # its own process group: the kill takes the scanner workers too
    )


def test_kill_9_at_random_points_leaves_a_recoverable_index(tmp_path: Path) -> None:
    root = generate(tmp_path / "Game")
    t0 = time.monotonic()
    assert start_index(root, "--full").wait(timeout=120) == 0
    full_seconds = time.monotonic() - t0
    rng = random.Random(20240607)
    killed_running = attempts = 0
    while killed_running < 8:  # kills that hit a running indexer, whatever the machine's speed
        attempts += 1
        assert attempts <= 40, f"only {killed_running} of {attempts} kills hit a running indexer"
        incremental = attempts % 2 == 0
        if incremental:  # change a third of the scripts so the kill hits an incremental update
            for i in range(0, FILES, 3):
                p = root / f"Assets/Gen/F{i % 30}/C{i}.cs"
                p.write_text(p.read_text().replace("void M", f"int r{attempts}; void M"))
        proc = start_index(root, *([] if incremental else ["--full"]))
        time.sleep(rng.uniform(0.05, max(0.1, full_seconds * (0.4 if incremental else 0.9))))
        if proc.poll() is not None:
            continue  # it finished first: not a kill, try again
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        killed_running += 1
        # Readers answer from the last committed generation: never an error, never empty.
        out = run_cli("query", "C7 M7", "--project", str(root), "--json")
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["results"], "a query after the kill finds the class"
        assert run_cli("index", "--project", str(root)).returncode == 0
        assert check_consistency(IndexPaths(CONFIG.index_path(root)), root, CONFIG) == [], f"kill {killed_running}"


def test_a_second_writer_without_wait_fails_with_exit_2(tmp_path: Path) -> None:
    root = generate(tmp_path / "Game", n=3)
    paths = IndexPaths(CONFIG.index_path(root))
    with writer_lock(paths):
        out = run_cli("index", "--no-wait", "--project", str(root))
    assert out.returncode == 2
    assert f"unity-index process {os.getpid()} is updating" in out.stderr and "--no-wait" in out.stderr


READER = """
import json, sys, time
from pathlib import Path
from indexer.query.search import Searcher
from indexer.store.schema import IndexPaths
paths = IndexPaths(Path(sys.argv[1]))
states = [set(json.loads(sys.argv[2])), set(json.loads(sys.argv[3]))]
deadline = time.monotonic() + float(sys.argv[4])
queries = errors = torn = 0
searcher = Searcher(paths)
while time.monotonic() < deadline:
    try:
        if queries % 2:
            searcher = Searcher(paths)  # a new reader, like a CLI query
        else:
            searcher.reload()  # a long-lived reader, like the MCP server
        found = {h.path for h in searcher.search("marker", limit=1000)}
        queries += 1
        if found not in states:
            torn += 1
    except Exception as exc:
        errors += 1
        print(repr(exc), file=sys.stderr)
print(json.dumps({"queries": queries, "errors": errors, "torn": torn}))
"""


@pytest.mark.parametrize("rounds", [12])
def test_readers_never_see_half_an_update(tmp_path: Path, rounds: int) -> None:
    root = write_project(tmp_path / "Game", {"ProjectSettings/ProjectVersion.txt": "x\n"})
    names = {"a": [f"Assets/A/A{i}.cs" for i in range(40)], "b": [f"Assets/B/B{i}.cs" for i in range(40)]}

    def switch(to: str) -> None:
        for rel in names["a" if to == "b" else "b"]:
            (root / rel).unlink(missing_ok=True)
        for i, rel in enumerate(names[to]):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(f"class {to.upper()}{i} {{ int marker; }}\n")

    config = Config(workers=1)
    switch("a")
    update(root, config)
    reader = subprocess.Popen(
        [
            sys.executable,
            "-c",
            READER,
            str(config.index_path(root)),
            json.dumps(names["a"]),
            json.dumps(names["b"]),
            "4",
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    generations = 0
    deadline = time.monotonic() + 3.5
    while time.monotonic() < deadline or generations < rounds:
        switch("b" if generations % 2 == 0 else "a")
        update(root, config, wait=10.0)
        generations += 1
    out, err = reader.communicate(timeout=60)
    result = json.loads(out)
    assert result["queries"] > 50, result
    assert (result["errors"], result["torn"]) == (0, 0), err
