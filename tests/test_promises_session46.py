"""Promises of the docstrings of indexer/store/, indexer/build/ and indexer/changes/ that no test
pinned yet (session 46 audit), each checked against the real mechanism:

- store/lock.py: a lock whose writer has ended but is still held (a process it left behind has
  the descriptor) is said to be held by "a process left behind by unity-index process N, which
  has ended"; a wait tells `on_wait` once, when it starts, and ends at its deadline.
- store/generations.py: a writer removes the temporary files of the files only writers write,
  never the editor's own beside them; a generation folder that could not be removed (a reader
  holds it) makes a rebuild write `gen-N.1`, and the next writer removes the leftover.
- store/header.py: `header_stamp` changes when an index is removed and built again from
  generation 1, so a reader of the old one moves on; `open_current` reads the header again when
  a rebuild removed the folder it named between the read and the open.
- store/writer.py: an update failed mid-way whose traceback a process keeps does not leave the
  full-text index locked for the next one.
- store/codec.py: once the 255 ids a blob's first byte can name are taken, blobs of a new group
  are packed without a dictionary, and read back whole.
- store/integrity.py: git's view changed in place from outside is dropped and the update walks;
  it is no damage (no rebuild).
- build/update.py: an update of given paths looks at those and their .meta only, and walks when
  one is a folder (made or gone).
- build/remember.py: after a walk git is asked again: a file dirty before the walk and restored
  while it ran is looked at by the next update, and a sparse checkout changed while it ran makes
  the next update walk.
- build/pool.py: scanners run at most WINDOW_CHUNKS chunks a worker ahead of the first unfinished
  file, however slow that one is.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
import zlib
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
import pytest

from indexer.build.update import update
from indexer.changes.diff import Job
from indexer.store.header import header_stamp, read_header
from indexer.store.lock import IndexBusy, writer_lock

from .conftest import REPO, write_project
from .test_gitview import equals_rebuild, git, repo  # noqa: F401  (`repo`: a fixture)
from .test_indexing import CONFIG, FILES, HEALTH, paths_of, search_paths
from .test_waits import held_by_a_thread

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from indexer.changes.gitview import GitStatus

# -- store/lock.py --------------------------------------------------------------------------------

# Takes the writer lock, forks a child that keeps the descriptor (as a program forked from the
# holder would), prints its own pid and the child's and ends: the lock is held, by no process whose pid it names.
_LEAVE_A_HOLDER_BEHIND = """
import os, sys, time
from pathlib import Path
from indexer.store.lock import writer_lock
from indexer.store.schema import IndexPaths

with writer_lock(IndexPaths(Path(sys.argv[1]))):
    child = os.fork()
    if child == 0:  # off the pipes of the one who waits for the writer's output
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        time.sleep(120)
        os._exit(0)
    print(os.getpid(), child, flush=True)
os._exit(0)
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a descriptor shared by fork")
def test_a_lock_held_by_a_process_its_ended_writer_left_behind_says_so(tmp_path: Path) -> None:
    """store/lock.py: the OS frees the lock when its holder dies "provided no other process shares
    the descriptor"; when one does, `busy_message` says the writer named in the file has ended and
    a process it left behind holds the lock, rather than naming the dead writer as updating."""
    root = write_project(tmp_path / "P", FILES)
    paths = paths_of(root)
    writer = subprocess.run(
        [sys.executable, "-c", _LEAVE_A_HOLDER_BEHIND, str(paths.root)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        check=True,
    )
    ended, left_behind = (int(pid) for pid in writer.stdout.split())
    try:
        assert paths.lock.read_text() == str(ended)  # the writer's pid, and it has ended
        with pytest.raises(IndexBusy) as busy, writer_lock(paths):
            pass
        assert busy.value.holder == ended
        assert str(busy.value) == (
            f"a process left behind by unity-index process {ended}, which has ended, is updating the index"
            f" at {paths.root}"
        )
    finally:
        os.kill(left_behind, 9)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # the lock goes with the last process holding it
        try:
            with writer_lock(paths):
                break
        except IndexBusy:
            time.sleep(0.05)
    else:
        raise AssertionError("the lock outlived the process left behind")


def test_a_wait_for_the_lock_tells_on_wait_once_and_ends_at_its_deadline(tmp_path: Path) -> None:
    """store/lock.py `writer_lock`: "wait up to `wait` seconds (`on_wait(message)` once, when
    waiting starts), then IndexBusy" (the lock is tried every POLL_SECONDS meanwhile)."""
    root = write_project(tmp_path / "P", FILES)
    paths = paths_of(root)
    told: list[str] = []
    with held_by_a_thread(paths):
        t0 = time.monotonic()
        with pytest.raises(IndexBusy) as busy, writer_lock(paths, wait=1.0, on_wait=told.append):
            pass
        waited = time.monotonic() - t0
    message = f"unity-index process {os.getpid()} is updating the index at {paths.root}"
    assert told == [message] and str(busy.value) == message
    assert 1.0 <= waited < 5.0


# -- store/generations.py -------------------------------------------------------------------------


def test_a_writer_removes_its_own_temporary_files_and_never_the_editors(tmp_path: Path) -> None:
    """store/generations.py: a writer removes the temporary files `atomic_write` leaves of "the files
    only writers write, under the lock (the editor's heartbeat and journal, beside them, are not
    ours to touch)": the editor may be writing its heartbeat's temporary file right then."""
    root = write_project(tmp_path / "P", FILES)
    update(root, CONFIG)
    index = paths_of(root).root
    ours = [f".{name}.123.tmp" for name in ("index.json", "git-view.json", "journal.pos", "integrity.json")]
    ours += [".progress.json.9x.tmp", ".settings.json.abc.tmp"]
    theirs = ["editor.json.4242.1.tmp", "journal.jsonl.4242.1.tmp", ".notes.tmp"]  # the editor's, a user's
    for name in ours + theirs:
        (index / name).write_text("{}")
    assert not update(root, CONFIG).full  # nothing changed: the writer still cleans up
    assert sorted(p.name for p in index.iterdir() if p.name.endswith(".tmp")) == sorted(theirs)


def test_a_generation_folder_a_reader_holds_is_written_beside_and_removed_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """store/generations.py `new_generation`: "a leftover that could not be removed (a reader holds
    it)" (Windows refuses to remove open files) makes the rebuild write `gen-N.1` beside it; and
    `retire`: "Best effort: where open files cannot be removed ..., the next writer tries again"."""
    import indexer.store.generations as generations

    root = write_project(tmp_path / "P", FILES)
    update(root, CONFIG)
    index = paths_of(root).root
    (index / "gen-2" / "tantivy").mkdir(parents=True)  # a killed rebuild's, opened by a reader
    remove = shutil.rmtree
    held = {str(index / "gen-2")}

    def rmtree(path: str | Path, ignore_errors: bool = False) -> None:
        if str(path) not in held:
            remove(path, ignore_errors)

    monkeypatch.setattr(generations.shutil, "rmtree", rmtree)
    assert update(root, CONFIG, full=True).generation == 2
    assert read_header(paths_of(root))["data"] == "gen-2.1"
    assert sorted(p.name for p in index.iterdir() if p.name.startswith("gen-")) == ["gen-2", "gen-2.1"]
    assert search_paths(root, "TakeDamage") == ["Assets/Scripts/Health.cs"]
    held.clear()  # the reader let go
    assert not update(root, CONFIG).full
    assert sorted(p.name for p in index.iterdir() if p.name.startswith("gen-")) == ["gen-2.1"]
    assert search_paths(root, "TakeDamage") == ["Assets/Scripts/Health.cs"]


# -- store/header.py ------------------------------------------------------------------------------


def test_a_reader_of_an_index_removed_and_built_again_answers_from_the_new_one(tmp_path: Path) -> None:
    """store/header.py `header_stamp`: "changes with every commit, also when an index removed and
    built again starts its generations over (a reader of the old one must see that)": the new
    index is at generation 1 too, and the old reader's open files still read the old records."""
    from indexer.query.workspace import ProjectIndex

    root = write_project(tmp_path / "P", {"Assets/Alpha.cs": "public class Alpha {}\n"})
    update(root, CONFIG)
    project = ProjectIndex(root, CONFIG)
    assert project.fresh().records.record("Assets/Alpha.cs") is not None
    before = header_stamp(paths_of(root))
    shutil.rmtree(paths_of(root).root)
    (root / "Assets/Alpha.cs").unlink()
    (root / "Assets/Beta.cs").write_text("public class Beta {}\n")
    assert update(root, CONFIG).generation == 1
    assert header_stamp(paths_of(root))[0] == before[0] == 1
    assert header_stamp(paths_of(root)) != before
    records = project.fresh().records
    assert records.record("Assets/Alpha.cs") is None
    assert records.record("Assets/Beta.cs") is not None


def test_an_open_whose_generation_a_rebuild_removed_meanwhile_reads_the_header_again(tmp_path: Path) -> None:
    """store/header.py `open_current`: "A rebuild that switches generations and removes the old
    folder between the header read and the open makes the open fail: the header is then read
    again". Made to happen every time here, not by chance (test_waits races readers with rebuilds)."""
    from indexer.store.header import open_current
    from indexer.store.reader import _connect
    from indexer.store.schema import IndexPaths

    root = write_project(tmp_path / "P", FILES)
    update(root, CONFIG)
    opened: list[str | None] = []

    def rebuilt_in_between(view: IndexPaths) -> tuple[IndexPaths, sqlite3.Connection]:
        opened.append(view.data)
        if len(opened) == 1:
            update(root, CONFIG, full=True)  # switches to gen-2 and removes gen-1
        return _connect(view)

    view, conn = open_current(paths_of(root), rebuilt_in_between)
    try:
        assert opened == ["gen-1", "gen-2"] and view.data == "gen-2"
        assert conn.execute("SELECT value FROM header WHERE key = 'generation'").fetchone() == ("2",)
    finally:
        conn.close()


# -- store/writer.py ------------------------------------------------------------------------------


def test_an_update_failed_mid_way_whose_traceback_is_kept_does_not_lock_the_next_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """store/writer.py `Writer.close`: "The tantivy writer goes with the store: it holds the index's
    lock while it lives, and an update killed mid-way (its traceback keeping this object) left the
    next one `LockBusy`". A long-running process (watch, the MCP server) keeps such a traceback
    while it reports the failure and tries again."""
    from indexer.store.writer import Writer

    root = write_project(tmp_path / "P", FILES)
    update(root, CONFIG)
    (root / "Assets/Scripts/Health.cs").write_text(HEALTH.replace("TakeDamage", "SufferDamage"))

    def full_disk(self: Writer) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as m:
        m.setattr(Writer, "commit", full_disk)
        with pytest.raises(OSError) as failed:
            update(root, CONFIG)
    assert failed.value.__traceback__ is not None  # kept: it holds the frames that held the writer
    assert update(root, CONFIG).changed == 1
    assert search_paths(root, "SufferDamage") == ["Assets/Scripts/Health.cs"]


# -- store/codec.py -------------------------------------------------------------------------------


def test_past_the_ids_a_blobs_first_byte_can_name_a_new_group_is_packed_without_a_dictionary() -> None:
    """store/codec.py `Packer.next_id`: "None when the ids a blob's first byte can name ran out";
    `BlobCodec.pack` then deflates without a dictionary (first byte 0), and nothing is stored."""
    from indexer.store.codec import MAX_DICTS, SAMPLE_BLOBS, BlobCodec
    from indexer.store.schema import SQL_TABLES

    conn = sqlite3.connect(":memory:")
    conn.executescript(SQL_TABLES)
    conn.executemany(
        "INSERT INTO zdicts VALUES (?, ?, ?)",
        ((i, f"group{i}", zlib.compress(f"words of group {i} ".encode() * 50)) for i in range(1, MAX_DICTS + 1)),
    )
    codec = BlobCodec(conn)
    blobs = [(f"a record of a new kind, number {n}".encode() * 20) for n in range(SAMPLE_BLOBS * 2)]
    packed = [codec.pack("newkind", data) for data in blobs]
    assert {blob[0] for blob in packed} == {0}
    assert [codec.unpack(blob) for blob in packed] == blobs
    assert conn.execute("SELECT count(*), max(id) FROM zdicts").fetchone() == (MAX_DICTS, MAX_DICTS)


def _settle(path: Path, _after: object = None) -> None:
    """`path` as if written a while ago: its stat is trusted, by our records and by git's index,
    neither "racily clean" (whose content every look reads again, git's status rewriting its index)."""
    settled = time.time() - 100
    os.utime(path, (settled, settled))


def _settle_work_tree(root: Path) -> GitStatus:
    """Every file of the work tree holding `root` as if written a while ago (`_settle`), and git's
    status once its index is settled: from then on git rewrites its index only for what changes."""
    top = root.parent
    for path in top.rglob("*"):
        if path.is_file() and ".git" not in path.relative_to(top).parts:
            _settle(path)
    return _git_index_settled(root)


def _git_index_settled(root: Path) -> GitStatus:
    """Git's status once it no longer rewrites its own index: `git status` rewrites it while files
    written in the index's second are there (git's racy entries), up to a second after a write."""
    from indexer.changes.gitview import status

    mark: list[int] | None = None
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        now = status(root)
        assert now is not None
        if now.git_index == mark:
            return now
        mark = now.git_index
        time.sleep(0.1)
    raise AssertionError("git kept rewriting its index")


# -- store/integrity.py ---------------------------------------------------------------------------


def test_gits_view_changed_from_outside_is_dropped_and_the_update_walks_without_a_rebuild(
    repo: Path,  # noqa: F811
) -> None:
    """store/integrity.py: of the index files, those that "only speed up finding changes: changed
    from outside, they are dropped (the next update walks), not a reason to rebuild". A view
    rewritten to say nothing is dirty would hide a file restored since it was indexed dirty."""
    from indexer.changes.gitview import GitView

    health = repo / "Assets/Scripts/Health.cs"
    update(repo, CONFIG)  # a walk
    update(repo, CONFIG)  # git's view from now on
    health.write_text(HEALTH + "// edited\n")
    update(repo, CONFIG)  # recorded edited: the view lists it as dirty
    git(repo, "checkout", "--", "Assets/Scripts/Health.cs")  # restored: clean to git
    _settle(health)
    view_file = paths_of(repo).root / "git-view.json"
    view = msgspec.json.decode(view_file.read_bytes(), type=GitView)
    assert "Assets/Scripts/Health.cs" in view.dirty
    now = _git_index_settled(repo)
    assert "Assets/Scripts/Health.cs" not in now.dirty
    view.dirty, view.git_index = now.dirty, now.git_index  # what git says now, written from outside
    view_file.write_bytes(msgspec.json.encode(view))
    stats = update(repo, CONFIG)
    assert (stats.walked, stats.full, stats.repaired, stats.changed) == (True, False, "", 1)
    assert equals_rebuild(repo)


# -- build/update.py ------------------------------------------------------------------------------


def test_an_update_of_given_paths_looks_at_those_and_their_meta_and_walks_for_a_folder(tmp_path: Path) -> None:
    """build/update.py `update`: "`paths`: project-relative paths known to have changed (watch
    mode); only those (and their .meta) are looked at, unless a folder is involved, then the
    project is walked"."""
    from indexer.changes.diff import check
    from indexer.store.reader import Records

    from .conftest import meta

    root = write_project(tmp_path / "P", FILES)
    update(root, CONFIG)
    (root / "Assets/Scripts/Health.cs.meta").write_text(meta("4" * 32))  # its .meta alone changed
    (root / "Assets/Scripts/PlayerHealth.cs").write_text("public class PlayerHealth { }\n")  # not named
    stats = update(root, CONFIG, paths=["Assets/Scripts/Health.cs"])
    assert (stats.walked, stats.scanned, stats.changed, stats.touched) == (False, 1, 1, 0)
    assert Records(paths_of(root)).guid_of_path("Assets/Scripts/Health.cs") == "4" * 32
    assert check(root, CONFIG).changed == ["Assets/Scripts/PlayerHealth.cs"]  # left for a later update
    (root / "Assets/Scripts/More").mkdir()
    (root / "Assets/Scripts/More/Shield.cs").write_text("public class Shield { }\n")
    stats = update(root, CONFIG, paths=["Assets/Scripts/More"])  # a folder made: its files are not named
    assert (stats.walked, stats.added, stats.changed) == (True, 1, 1)
    shutil.rmtree(root / "Assets/Scripts/More")
    stats = update(root, CONFIG, paths=["Assets/Scripts/More"])  # a folder gone: its files are not named
    assert (stats.walked, stats.deleted) == (True, 1)
    assert check(root, CONFIG).changed == []


# -- build/remember.py ----------------------------------------------------------------------------


def _walk_then(monkeypatch: pytest.MonkeyPatch, after_the_walk) -> None:
    """The update's walk of the project, with `after_the_walk()` run as it ends (between the git
    status an update takes first and the one `remember` takes after a walk)."""
    import indexer.changes.diff as diff

    walk = diff.walk

    def walk_then(root: Path, config):
        yield from walk(root, config)
        after_the_walk()

    monkeypatch.setattr(diff, "walk", walk_then)


def test_a_file_restored_while_a_walk_ran_is_looked_at_by_the_next_update(
    repo: Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """build/remember.py: "After a walk git is asked again, and what was dirty before or after
    counts: a file edited or restored while the walk ran is looked at next time". Here a file
    indexed while edited is restored by git as the walk ends: clean to git after the walk, its
    record still of the edit."""
    health = repo / "Assets/Scripts/Health.cs"
    update(repo, CONFIG)
    _settle_work_tree(repo)  # git rewrites its index for no other file meanwhile
    health.write_text(HEALTH + "// edited\n")
    _settle(health)
    update(repo, CONFIG, use_git=False)  # recorded edited, by a writer that leaves git no view: next, a walk
    with monkeypatch.context() as m:
        _walk_then(m, lambda: _settle(health, git(repo, "checkout", "--", "Assets/Scripts/Health.cs")))
        stats = update(repo, CONFIG)
    assert (stats.walked, stats.changed) == (True, 0)  # the walk saw the file as recorded
    stats = update(repo, CONFIG)
    assert (stats.walked, stats.changed) == (False, 1)
    assert equals_rebuild(repo)


def test_a_sparse_checkout_changed_while_a_walk_ran_makes_the_next_update_walk(
    repo: Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """build/remember.py: after a walk, `if after.hidden != git_now.hidden:  # a sparse checkout
    changed while the walk ran` the view says so, and the next update walks: the files a sparse
    checkout leaves out are deleted without git ever listing them."""
    top = repo.parent
    _settle_work_tree(repo)  # git rewrites its index for no other file meanwhile
    update(repo, CONFIG, use_git=False)  # no view of git: the next update walks
    with monkeypatch.context() as m:
        _walk_then(m, lambda: git(top, "sparse-checkout", "set", "--no-cone", "/*", "!/Game/Assets/Prefabs/"))
        stats = update(repo, CONFIG)
    assert (stats.walked, stats.deleted) == (True, 0)  # the walk listed the prefab before it went
    assert not (repo / "Assets/Prefabs/Hero.prefab").exists()
    stats = update(repo, CONFIG)
    assert (stats.walked, stats.deleted) == (True, 2)
    assert equals_rebuild(repo)


# -- build/pool.py --------------------------------------------------------------------------------

_JOBS = msgspec.msgpack.Decoder(list[Job])


def held_serve(conn: Connection) -> None:
    """A scanner process's loop (as `workers.serve`) whose file `slow` takes until the file
    `release` is in its folder; every other file answers at once with its path."""
    while True:
        try:
            blob = conn.recv_bytes()
        except (EOFError, OSError):
            return
        for job in _JOBS.decode(blob):
            while job.path == "slow" and not os.path.exists(os.path.join(job.root, "release")):
                time.sleep(0.02)
            conn.send_bytes(job.path.encode())


def test_scanners_run_at_most_a_window_ahead_of_a_slow_file(tmp_path: Path) -> None:
    """build/pool.py: `WINDOW_CHUNKS`: "chunks a worker may run ahead of the first unfinished file
    (bounds the buffer)"; `_in_window`: "results past the first unfinished file wait in the
    caller's memory until it is done, so a slow file must not let the others run far ahead". With
    two scanners and the first file held, the other scans exactly the chunks starting within
    WINDOW_CHUNKS * 2 * MAX_CHUNK_FILES files of it, then waits."""
    from indexer.build.pool import MAX_CHUNK_FILES, WINDOW_CHUNKS, FileBudget, Pool

    n, files = 2, MAX_CHUNK_FILES * 20
    jobs = [Job(str(tmp_path), "slow" if i == 0 else f"f{i}", "text", 0, 0, "", 1) for i in range(files)]
    chunks = deque([list(enumerate(jobs))[i : i + MAX_CHUNK_FILES] for i in range(0, files, MAX_CHUNK_FILES)])
    pool = Pool(n, FileBudget(), f"{__name__}.held_serve", lambda chunk, sent: msgspec.msgpack.encode(chunk))
    got: list[int] = []
    before_release: list[int] = []

    def release_once_idle() -> None:
        seen, since = -1, time.monotonic()
        while time.monotonic() - since < 1.5:  # no result for 1.5 s: the window is full
            if len(got) != seen:
                seen, since = len(got), time.monotonic()
            time.sleep(0.05)
        before_release.extend(got)
        (tmp_path / "release").touch()

    releaser = threading.Thread(target=release_once_idle, daemon=True)
    releaser.start()
    try:
        for index, path in pool.run(chunks, bytes.decode, lambda job, why: f"lost: {why}"):
            assert path == jobs[index].path
            got.append(index)
    finally:
        pool.close()
    releaser.join(10)
    window = WINDOW_CHUNKS * n * MAX_CHUNK_FILES
    assert sorted(before_release) == list(range(MAX_CHUNK_FILES, MAX_CHUNK_FILES + window))
    assert sorted(got) == list(range(files))
