"""Racily clean files: a second write of the same size within the file system's time tick leaves
the stat the index recorded; the update, `index --check` and the consistency check hash such a
file again instead of trusting its stat (changes/diff.py)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.changes.diff import check
from indexer.store.consistency import check_consistency

from .conftest import run_cli, write_project
from .test_indexing import CONFIG, FILES, HEALTH, paths_of, records

HEALTH_CS = "Assets/Scripts/Health.cs"
SAME_SIZE = HEALTH.replace("TakeDamage", "MakeDamage")  # another method, the same number of bytes


def _rewrite_keeping_stat(project: Path, text: str) -> None:
    """A second write within the same tick: new content, same size, same modification time."""
    f = project / HEALTH_CS
    before = f.stat()
    f.write_text(text)
    os.utime(f, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = f.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)


def _methods(project: Path) -> list[str]:
    r = records(project)
    try:
        rec = r.record(HEALTH_CS)
    finally:
        r.close()
    assert rec is not None
    return sorted(s.name for s in rec.symbols if s.kind == "method")


@pytest.mark.parametrize("how", ["walk", "paths"])
def test_a_same_size_rewrite_in_the_same_tick_is_found(tmp_path: Path, how: str) -> None:
    project = write_project(tmp_path / "Game", FILES)
    update(project, CONFIG)  # the files were just written: their records are racily clean
    assert _methods(project) == ["Die", "TakeDamage"]
    _rewrite_keeping_stat(project, SAME_SIZE)

    assert check(project, CONFIG).changed == [HEALTH_CS]
    differs = [f"{HEALTH_CS}: recorded content differs from the file"]
    assert check_consistency(paths_of(project), project, CONFIG) == differs
    out = run_cli("index", "--check", "--project", str(project))
    assert out.returncode == 1 and HEALTH_CS in out.stdout + out.stderr, out.stdout + out.stderr

    stats = update(project, CONFIG, paths=[HEALTH_CS] if how == "paths" else None)
    assert (stats.changed, stats.scanned) == (1, 1)
    assert _methods(project) == ["Die", "MakeDamage"]
    assert not check(project, CONFIG).stale
    assert check_consistency(paths_of(project), project, CONFIG) == []


def test_an_unchanged_racily_clean_file_is_hashed_and_nothing_is_written(tmp_path: Path) -> None:
    from indexer.changes.diff import racily_clean

    project = write_project(tmp_path / "Game", FILES)
    first = update(project, CONFIG)
    r = records(project)
    try:
        racy = sorted(p for p, st in r.stats().items() if racily_clean(st))
    finally:
        r.close()
    assert HEALTH_CS in racy
    _rewrite_keeping_stat(project, HEALTH)  # the same bytes again, in the same tick
    store = paths_of(project).header.read_bytes()
    again = update(project, CONFIG)
    assert (again.generation, again.scanned, again.touched, again.changed) == (first.generation, 0, 0, 0)
    assert paths_of(project).header.read_bytes() == store
    assert not check(project, CONFIG).stale


def test_a_racily_clean_record_settles_with_the_next_write(tmp_path: Path) -> None:
    """Found unchanged once its stat is a tick old, a record is trusted again: an update that
    writes anyway stores when it looked, so later no-op updates read nothing."""
    from indexer.changes.diff import racily_clean
    from indexer.files import FILE_TICK_NS

    project = write_project(tmp_path / "Game", FILES)
    old = time.time_ns() - FILE_TICK_NS // 2  # within a tick of the first update: racily clean
    for f in (project / "Assets").rglob("*"):
        os.utime(f, ns=(old, old))
    update(project, CONFIG)
    r = records(project)
    try:
        assert racily_clean(r.stats()[HEALTH_CS])
    finally:
        r.close()
    time.sleep((old + FILE_TICK_NS - time.time_ns()) / 1e9 + 0.05)  # now a tick past the write
    (project / "Assets/Scripts/Extra.cs").write_text("public class Extra { }")
    update(project, CONFIG)
    r = records(project)
    try:
        stats = r.stats()
    finally:
        r.close()
    assert not racily_clean(stats[HEALTH_CS])
    assert racily_clean(stats["Assets/Scripts/Extra.cs"])  # written just now


def test_a_no_op_update_settles_racily_clean_records_once(tmp_path: Path, monkeypatch) -> None:
    """A project indexed right after its files were written: every record is racily clean. The
    first update a tick later hashes them, finds them unchanged and stores when it looked (a
    commit of their stats alone, nothing rescanned, the generation kept: no answer changed); the
    updates after it trust their stat and hash nothing."""
    from indexer.changes import diff
    from indexer.files import FILE_TICK_NS

    project = write_project(tmp_path / "Game", FILES)
    now = time.time_ns()
    for f in (project / "Assets").rglob("*"):
        os.utime(f, ns=(now, now))
    first = update(project, CONFIG)
    time.sleep((now + FILE_TICK_NS - time.time_ns()) / 1e9 + 0.05)  # a tick past the writes
    hashed = []
    real = diff.content_differs
    monkeypatch.setattr(diff, "content_differs", lambda *a: hashed.append(a[1]) or real(*a))
    store = paths_of(project).header.read_bytes()
    settling = update(project, CONFIG)
    assert HEALTH_CS in hashed
    assert (settling.generation, settling.scanned, settling.changed) == (first.generation, 0, 0)
    assert paths_of(project).header.read_bytes() == store  # (until session 53, a new generation)
    hashed.clear()
    again = update(project, CONFIG)
    assert hashed == []
    assert (again.generation, again.scanned, again.changed) == (settling.generation, 0, 0)
    assert paths_of(project).header.read_bytes() == store
    assert not check(project, CONFIG).stale
