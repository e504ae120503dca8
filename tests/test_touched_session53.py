"""A file only touched (its modification time changed, its bytes the same) changes nothing the
index holds: its content is hashed, found unchanged and its new stat recorded, with no new
generation (every cache kept per generation stays) and, under `watch`, no batch line. The same
for `index`, the git hooks' refresh and `watch`: one rule, in the update's write step
(`build/apply.py`). Each test failed before session 53, the generation moving on by one."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.cli.main import main

from .conftest import REPO, start_cli, write_project
from .test_indexing import CONFIG, FILES, paths_of, records
from .test_watch import eventually, watching

HEALTH_CS = "Assets/Scripts/Health.cs"


def _settled_project(tmp_path: Path) -> Path:
    """The test project with every file dated a minute back, indexed: no record is racily clean,
    so an update after it reads only what changed."""
    root = write_project(tmp_path / "Game", FILES)
    old = time.time_ns() - 60 * 10**9
    for f in root.rglob("*"):
        os.utime(f, ns=(old, old))
    update(root, CONFIG)
    return root


def _touch(root: Path, rel: str = HEALTH_CS, seconds_back: int = 30) -> int:
    """A new modification time for `rel`, its bytes kept (a `touch`, a checkout rewriting the
    same content); returns it."""
    when = time.time_ns() - seconds_back * 10**9
    os.utime(root / rel, ns=(when, when))
    return when


def _recorded_mtime(root: Path, rel: str) -> int:
    r = records(root)
    try:
        return r.stats()[rel].mtime_ns
    finally:
        r.close()


def test_an_update_of_a_touched_file_keeps_the_generation(tmp_path: Path) -> None:
    root = _settled_project(tmp_path)
    before = update(root, CONFIG)
    header = paths_of(root).header.read_bytes()
    when = _touch(root)
    for paths in (None, [HEALTH_CS]):  # a walk (`index`), then named paths (`watch`)
        touched = update(root, CONFIG, paths=paths)
        assert (touched.generation, touched.touched, touched.scanned, touched.changed) == (before.generation, 1, 0, 0)
        assert paths_of(root).header.read_bytes() == header  # readers see no new commit
        assert _recorded_mtime(root, HEALTH_CS) == when  # the stat is recorded: not hashed again
        again = update(root, CONFIG)
        assert (again.generation, again.touched) == (before.generation, 0)
        when = _touch(root, seconds_back=20)
    edited = root / HEALTH_CS
    edited.write_text(edited.read_text().replace("TakeDamage", "SufferDamage"))
    assert update(root, CONFIG).generation == before.generation + 1  # a change still moves it on


def test_a_touched_file_whose_content_is_not_read_is_a_change(tmp_path: Path) -> None:
    """A texture's record is its stat (its bytes are never read): a touch changes it."""
    root = _settled_project(tmp_path)
    before = update(root, CONFIG)
    _touch(root, "Assets/Art/hero.png")
    after = update(root, CONFIG)
    assert (after.generation, after.changed, after.touched) == (before.generation + 1, 1, 0)


def test_index_of_a_touched_file_prints_the_same_generation(tmp_path: Path, capsys) -> None:
    root = _settled_project(tmp_path)
    assert main(["index", "--json", "--project", str(root)]) == 0
    generation = json.loads(capsys.readouterr().out)["generation"]
    _touch(root)
    assert main(["index", "--json", "--project", str(root)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["generation"], out["touched"], out["changed"]) == (generation, 1, 0)


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),  # the hooks' unity-index runs this checkout's code
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, check=True)


def test_the_git_hooks_refresh_of_a_touched_file_keeps_the_generation(tmp_path: Path) -> None:
    root = _settled_project(tmp_path)
    (root / ".gitignore").write_text("Library/\n")
    _git(root, "init", "-q")
    assert main(["hook", "install", "--project", str(root)]) == 0
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "first")  # the pre-commit hook refreshes the index
    generation = update(root, CONFIG).generation
    _touch(root)
    (root / "README.md").write_text("a file beside the project's folders\n")
    _git(root, "add", "README.md")
    _git(root, "commit", "-q", "-m", "readme")  # its hook looks at the touched file, unchanged
    assert json.loads(paths_of(root).header.read_bytes())["generation"] == generation
    assert _recorded_mtime(root, HEALTH_CS) == (root / HEALTH_CS).stat().st_mtime_ns


@pytest.mark.parametrize("as_json", [True, False])
def test_watch_says_nothing_of_a_touched_file(tmp_path: Path, as_json: bool) -> None:
    root = _settled_project(tmp_path)
    generation = update(root, CONFIG).generation
    proc = start_cli("watch", *(["--json"] if as_json else []), "--project", str(root))
    try:
        said = watching(proc)  # stderr, read on a thread
        batches: list[str] = []
        out = proc.stdout
        assert out is not None
        threading.Thread(target=lambda: [batches.append(x) for x in out], daemon=True).start()
        _touch(root)
        assert eventually(lambda: _recorded_mtime(root, HEALTH_CS) == (root / HEALTH_CS).stat().st_mtime_ns)
        time.sleep(0.5)  # (a line would be printed as the batch is committed)
        assert batches == [] and [x for x in said if "watching" not in x] == []
        assert json.loads(paths_of(root).header.read_bytes())["generation"] == generation
        (root / "Assets/Scripts/Shield.cs").write_text("public class Shield { }\n")
        if as_json:
            assert eventually(lambda: len(batches) == 1)
            assert (json.loads(batches[0])["added"], json.loads(batches[0])["generation"]) == (1, generation + 1)
        else:
            assert eventually(lambda: len(said) == 2)
            assert said[1].startswith("1 added, 0 changed, 0 moved, 0 deleted in ")
            assert f"(generation {generation + 1})" in said[1]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
