"""An index that is deleted, damaged or left behind while the server runs, over real MCP sessions.

The watcher sees no change inside `Library/` (it is not watched), so the server used to answer
"it is being built" for a deleted index although nothing built it, the SDK's bare "Error
executing tool search" for a garbled record store, and never said that a moved project was gone;
poll mode, between two of its updates, answered the same. Now the call that finds the index
missing or damaged has it rebuilt first (docs/mcp.md, Freshness; docs/indexing.md, Guarantees),
and the tool that finds none says why in the server's words (wording.py)."""

from __future__ import annotations

import os
import shutil
import sqlite3
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from indexer.build.update import update
from indexer.query.workspace import open_workspace, projects_at
from indexer.store.lock import writer_lock
from indexer.store.schema import IndexPaths
from mcp_adapter.server.app import create_server

from .conftest import copy_fixture, garble_records, indexed_copy

CALLS = {
    "search": {"query": "apply damage"},
    "describe": {"target": "Assets/Scripts/Player/PlayerHealth.cs"},
    "find_references": {"target": "PlayerHealth"},
}
MODES = [pytest.param(True, id="watch"), pytest.param(False, id="poll")]


def make_server(root: Path, watch: bool) -> Any:
    """Poll mode with a long interval: a damaged index must not wait for the next update."""
    ws = open_workspace(root, projects_at(root))
    return create_server(ws, refresh_interval=60, tokenizer="estimate", watch=watch)


def text(result) -> str:
    assert len(result.content) == 1
    return result.content[0].text


async def answers(c: Client) -> dict[str, tuple[bool, str]]:
    return {name: ((r := await c.call_tool(name, args)).is_error, text(r)) for name, args in CALLS.items()}


def session(root: Path, watch: bool, damage) -> tuple[dict, dict, str]:
    """The answers before and after `damage(root)`, and index_status's text after them."""

    async def go():
        async with Client(make_server(root, watch), mode="legacy") as c:
            before = await answers(c)
            damage(root)
            after = await answers(c)
            return before, after, text(await c.call_tool("index_status", {}))

    return anyio.run(go)


def records_db(root: Path) -> Path:
    return next((root / "Library/UnityIndex").glob("gen-*/records.db"))


def remove_index(root: Path) -> None:
    shutil.rmtree(root / "Library/UnityIndex")


def garble_a_record_unseen(root: Path, path: str = "Assets/Scripts/Player/PlayerHealth.cs") -> None:
    """One byte inside the stored record of `path`, in place, with the file's mtime put back: the
    fingerprint still matches, and only decoding the record shows the damage."""
    db = records_db(root)
    conn = sqlite3.connect(db)
    try:
        (blob,) = conn.execute(
            "SELECT b.record FROM blobs b JOIN files f ON b.file_id = f.id WHERE f.path = ?", (path,)
        ).fetchone()
    finally:
        conn.close()
    st = db.stat()
    data = db.read_bytes()
    at = data.index(blob[:32]) + 16
    with db.open("r+b") as f:
        f.seek(at)
        f.write(bytes([data[at] ^ 0x5A]))
    os.utime(db, ns=(st.st_atime_ns, st.st_mtime_ns))


@pytest.mark.parametrize("watch", MODES)
@pytest.mark.parametrize("damage", [remove_index, garble_records], ids=["removed", "garbled"])
def test_a_removed_or_garbled_index_is_rebuilt_by_the_next_call(tmp_path: Path, watch: bool, damage) -> None:
    """Every tool answers as before the damage, at once, and index_status shows a current index."""
    before, after, status = session(indexed_copy(tmp_path), watch, damage)
    assert all(not is_error for is_error, _ in before.values()), before
    assert after == before
    assert "\nstale     no: the index matches the files on disk" in status, status


@pytest.mark.parametrize("watch", MODES)
def test_damage_only_reading_shows_is_rebuilt_and_answered(tmp_path: Path, watch: bool) -> None:
    """A record garbled in place behind an unchanged fingerprint: the tool that decodes it has the
    index rebuilt from scratch and answers from it (it was the SDK's bare "Error executing tool
    describe", the zlib.error only in the server's log)."""
    root = indexed_copy(tmp_path)

    async def first_answers():
        async with Client(make_server(root, watch), mode="legacy") as c:
            return await answers(c)

    before = anyio.run(first_answers)
    garble_a_record_unseen(root)
    assert anyio.run(first_answers) == before  # a new server: no page of the old file cached


@pytest.mark.parametrize("watch", MODES)
def test_a_moved_project_says_it_is_gone(tmp_path: Path, watch: bool) -> None:
    """Not "it is being built" (watch mode said so, and only `refresh` told the truth)."""
    root = indexed_copy(tmp_path)
    _, after, _ = session(root, watch, lambda r: r.rename(r.with_name("Moved")))
    gone = (
        f"{root}: the project folder is gone (moved or deleted); nothing was written there: start the"
        " server again in the project's new place"
    )
    assert after == {name: (True, f"Error executing tool {name}: {gone}") for name in CALLS}


@pytest.mark.parametrize("watch", MODES)
def test_a_project_folder_being_deleted_is_not_written_again(tmp_path: Path, watch: bool) -> None:
    """`rm -rf` of the project while the server ran (here it took `ProjectSettings/` and then
    `Library/` before `Assets/`): the server made the index again in `Library/UnityIndex` while rm
    was emptying it (rm: "Directory not empty"), so the folder outlived its deletion, holding an
    index of 0 files, and every tool answered from that ("no results"). Now an update of a folder
    that is no longer a Unity project writes nothing; once the folder is gone, the tools say so."""
    root = indexed_copy(tmp_path)
    lost = (
        f"{root}: the project folder is no longer a Unity project (ProjectSettings/ is gone: moved or deleted);"
        " nothing was written there: start the server again in the project's new place"
    )
    gone = (
        f"{root}: the project folder is gone (moved or deleted); nothing was written there: start the"
        " server again in the project's new place"
    )

    async def go():
        async with Client(make_server(root, watch), mode="legacy") as c:
            before = await answers(c)
            for doomed in ("ProjectSettings", "Library"):  # as `rm -rf` goes, one folder after another
                shutil.rmtree(root / doomed)
                await anyio.sleep(0.5)  # the watcher's batch
            during = await answers(c), sorted(os.listdir(root))
            shutil.rmtree(root, ignore_errors=True)  # the rest; rm said "Directory not empty" here
            return before, during, await answers(c), root.exists()

    before, during, after, exists = anyio.run(go)
    assert all(not is_error for is_error, _ in before.values()), before
    assert during == ({name: (True, f"Error executing tool {name}: {lost}") for name in CALLS}, ["Assets", "Packages"])
    assert (after, exists) == ({name: (True, f"Error executing tool {name}: {gone}") for name in CALLS}, False)


@pytest.mark.parametrize("watch", MODES)
def test_an_update_broken_by_the_project_s_deletion_says_so(tmp_path: Path, monkeypatch, watch: bool) -> None:
    """`rm -rf` of the project reaching `Library/UnityIndex` while an update writes it: the search
    engine's "Directory does not exist" (and its rollback's own failure) was logged with its
    traceback as a bug, a different one at every try, and the tool answered with the engine's
    words. An update that fails once its project folder has gone says that instead."""
    import logging

    from indexer.build import apply as applying

    root = indexed_copy(tmp_path)
    tantivy = next((root / "Library/UnityIndex").glob("gen-*/tantivy"))

    def deleted_meanwhile(*args: Any, **kwargs: Any) -> Any:
        shutil.rmtree(root / "ProjectSettings")
        shutil.rmtree(tantivy)
        raise ValueError(f"Directory does not exist: '{tantivy}'.")

    monkeypatch.setattr(applying, "apply", deleted_meanwhile)  # imported by `update` once it has work
    lost = f"{root}: the project folder is no longer a Unity project (ProjectSettings/ is gone: moved or deleted);"
    lost += " nothing was written there: "

    async def go():
        async with Client(make_server(root, watch), mode="legacy") as c:
            script = root / "Assets/Scripts/Player/PlayerHealth.cs"
            script.write_text(script.read_text() + "\n// edited\n")  # an update that writes
            return text(await c.call_tool("refresh", {}))

    tracebacks: list[tuple] = []
    monkeypatch.setattr(logging.getLogger("unity_index.mcp"), "exception", lambda *a, **k: tracebacks.append(a))
    said = anyio.run(go)
    assert tracebacks == []
    if watch:
        expected = f"no update ran: it failed ({root}: ProjectGone: {lost}start the server again in the project's"
        expected += " new place); the index keeps its last committed state"
    else:
        expected = f"{lost}start the server again in the project's new place"
    assert said == f"Error executing tool refresh: {expected}"


def test_a_call_s_sync_cookie_never_keeps_a_folder_from_being_removed(tmp_path: Path, monkeypatch) -> None:
    """docs/mcp.md: a call's sync cookie is created in each watched folder "and deleted at once".
    It stayed until its event arrived (milliseconds, tens under load), so a folder removed meanwhile
    (`rm -rf Packages`, or the whole project while an agent kept calling: 8 of 10 tries) failed with
    "Directory not empty" and stayed. Here the event comes late, as under load, while `Packages/`,
    emptied before, is removed."""
    import time

    from mcp_adapter.server import watcher

    root = indexed_copy(tmp_path)
    packages = root / "Packages"
    noted = watcher._SyncingCollector.on_any_event

    def late(self: Any, event: Any) -> None:
        if os.path.basename(os.fsdecode(event.src_path)).startswith(watcher.COOKIE_PREFIX):
            time.sleep(0.5)  # the event reaches the collector late (a loaded machine)
        noted(self, event)

    monkeypatch.setattr(watcher._SyncingCollector, "on_any_event", late)

    async def go():
        async with Client(make_server(root, True), mode="legacy") as c:
            await c.call_tool("search", {"query": "apply damage"})
            for entry in list(packages.iterdir()):  # as rm goes: the content first, the folder last
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
            await anyio.sleep(1.5)  # those events are applied: the next call waits for nothing else
            async with anyio.create_task_group() as tg:
                tg.start_soon(c.call_tool, "search", {"query": "apply damage"})
                await anyio.sleep(0.2)  # the call is syncing: its cookies are made, their events late
                try:
                    packages.rmdir()
                    return None
                except OSError as exc:
                    return f"{exc.strerror}: {sorted(os.listdir(packages))}"

    assert anyio.run(go) is None
    assert not packages.exists()


def test_an_update_that_keeps_failing_is_logged_once(tmp_path: Path, monkeypatch, caplog) -> None:
    """The watcher tries a failed update again every 2 s: a project folder moved away while the
    server ran had the same warning logged every 2 s for as long as the server ran (43,200 lines a
    day on stderr). Now a failure is logged when it starts or its message changes; index_status
    still shows it."""
    import logging

    from mcp_adapter.server import watcher

    monkeypatch.setattr(watcher, "ERROR_RETRY", 0.05)
    root = indexed_copy(tmp_path)
    moved = root.with_name("Moved")

    async def go():
        async with Client(make_server(root, True), mode="legacy") as c:
            await c.call_tool("search", {"query": "apply damage"})
            root.rename(moved)
            script = moved / "Assets/Scripts/Player/PlayerHealth.cs"
            script.write_text(script.read_text() + "\n// edited\n")  # an event: the watcher's batch fails
            await anyio.sleep(1.5)  # about 30 tries
            return text(await c.call_tool("index_status", {}))

    with caplog.at_level(logging.INFO, logger="unity_index.mcp"):
        status = anyio.run(go)
    failed = [r.getMessage() for r in caplog.records if r.getMessage().startswith("updating the index of")]
    gone = f"{root}: the project folder is gone (moved or deleted); nothing was written there"
    assert failed == [f"updating the index of {root} failed: {gone}: run the command again in the project's new place"]
    assert f"ProjectGone: {gone}" in status, status


@pytest.mark.parametrize("watch", MODES)
def test_no_index_while_nothing_builds_it_is_not_called_a_build(tmp_path: Path, watch: bool) -> None:
    """Another process holds the writer lock without building (no progress file): the call cannot
    build the missing index, and says so instead of claiming a build that does not run."""
    root = indexed_copy(tmp_path)
    index = root / "Library/UnityIndex"

    def remove_and_lock(r: Path) -> None:
        remove_index(r)
        held.enter_context(writer_lock(IndexPaths(index), 0))

    with ExitStack() as held:
        _, after, _ = session(root, watch, remove_and_lock)
    missing = f"no index of this version at {index}: no build of it is running; call again, and the call"
    missing += " builds it first"
    assert after == {name: (True, f"Error executing tool {name}: {missing}") for name in CALLS}


def test_index_status_answers_at_once_while_more_calls_than_threads_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/mcp.md: index_status "answers at once while an update runs". The SDK runs a sync tool
    on anyio's pool of 40 threads; 45 searches waiting for a first build held them all, and
    index_status waited for the build too (21.7 s on an 11,802-file project)."""
    import threading
    import time

    from mcp_adapter.server import watcher

    root = copy_fixture(tmp_path / "DungeonCrawler")  # no index: every search waits for the first build
    release = threading.Event()

    def slow_update(*args: Any, **kwargs: Any) -> Any:
        release.wait(30)  # a long first build
        return update(*args, **kwargs)

    monkeypatch.setattr(watcher, "update", slow_update)

    async def go():
        async with Client(make_server(root, watch=True), mode="legacy") as c:
            searches: list = []

            async def search(i: int) -> None:
                searches.append(await c.call_tool("search", {"query": f"apply damage {i}"}))

            async with anyio.create_task_group() as tg:
                for i in range(45):
                    tg.start_soon(search, i)
                await anyio.sleep(1.0)  # every search is waiting
                t0, status = time.monotonic(), None
                with anyio.move_on_after(10):
                    status = await c.call_tool("index_status", {})
                seconds, waiting = time.monotonic() - t0, 45 - len(searches)
                release.set()
            return seconds, waiting, status and text(status), searches

    seconds, waiting, status, searches = anyio.run(go)
    assert (seconds < 2.0, waiting) == (True, 45), seconds
    index = root / "Library/UnityIndex"
    assert status.startswith(
        f"project {root}\nno index yet at {index}: the next call of a tool that reads it (`search`, `describe`, ...)"
        " builds it first\n\nfreshness: watch: "
    ), status
    assert [s.is_error for s in searches] == [False] * 45


@pytest.mark.parametrize("watch", [False, True], ids=["poll", "watch"])
def test_calls_that_all_read_the_damage_rebuild_the_index_once(tmp_path: Path, monkeypatch, watch: bool) -> None:
    """Twenty calls at once all reading a damaged record: the first rebuilds the index, the others
    answer from that rebuild (each used to run a full rebuild of its own, one after another)."""
    import threading

    from indexer.build import update as updating
    from mcp_adapter.server import watcher

    root = indexed_copy(tmp_path)
    fulls: list[str] = []
    real = updating.update

    def counting(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("full"):
            fulls.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(updating, "update", counting)
    monkeypatch.setattr(watcher, "update", counting)
    garble_a_record_unseen(root)

    async def go() -> list:
        async with Client(make_server(root, watch), mode="legacy") as c:
            results: list = []

            async def one() -> None:
                results.append(await c.call_tool("describe", {"target": "Assets/Scripts/Player/PlayerHealth.cs"}))

            async with anyio.create_task_group() as tg:
                for _ in range(20):
                    tg.start_soon(one)
            return results

    results = anyio.run(go)
    assert [r.is_error for r in results] == [False] * 20
    assert len(fulls) == 1, fulls


def test_a_call_during_the_watchers_own_update_does_not_walk_the_project(tmp_path: Path, monkeypatch) -> None:
    """While the server's watcher applies an edit, its fingerprint says a writer is at work: a
    call meeting it waits for that update, and does not walk the whole project after it."""
    import time

    from indexer.build import apply as applying
    from mcp_adapter.server import watcher

    root = indexed_copy(tmp_path)
    real_apply, real_update = applying.apply, watcher.update
    walked: list[Any] = []

    def slow_apply(*args: Any, **kwargs: Any) -> Any:
        time.sleep(1.5)  # an update that takes a while (a large file, a big project)
        return real_apply(*args, **kwargs)

    def counting(*args: Any, **kwargs: Any) -> Any:
        walked.append(kwargs.get("paths"))
        return real_update(*args, **kwargs)

    monkeypatch.setattr(applying, "apply", slow_apply)
    monkeypatch.setattr(watcher, "update", counting)

    async def go() -> Any:
        async with Client(make_server(root, True), mode="legacy") as c:
            await c.call_tool("search", {"query": "apply damage"})
            walked.clear()
            script = root / "Assets/Scripts/Player/PlayerHealth.cs"
            script.write_text(script.read_text() + "\n// touched\n")
            await anyio.sleep(1.0)  # the watcher has the event and is writing
            return await c.call_tool("search", {"query": "touched"})

    found = anyio.run(go)
    assert found.is_error is False
    assert walked and all(paths == ["Assets/Scripts/Player/PlayerHealth.cs"] for paths in walked), walked
