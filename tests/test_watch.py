"""Watch mode through real file events in a temp project, in a `unity-index watch --json` subprocess."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from indexer.store.consistency import check_consistency

from .conftest import meta, run_cli, start_cli, write_project
from .test_indexing import CONFIG, HEALTH, paths_of, search_paths


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen, list[dict]]]:
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Scripts/Health.cs": HEALTH,
            "Assets/Scripts/Health.cs.meta": meta("11111111111111111111111111111111"),
            "ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2021.3.15f1\n",
        },
    )
    proc = start_cli("watch", "--json", "--project", str(root))
    batches: list[dict] = []
    threading.Thread(target=lambda: [batches.append(json.loads(x)) for x in proc.stdout], daemon=True).start()
    watching(proc)
    yield root, proc, batches
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def watching(proc: subprocess.Popen, seconds: float = 60.0) -> list[str]:
    """The watch's stderr lines, read on a thread, once one says "watching" (its first update is
    done). A line before it (a writer busy) is allowed; none within `seconds` fails with what
    was said, where reading the rest of a live process's stderr would wait for ever."""
    assert proc.stderr is not None
    lines: list[str] = []
    threading.Thread(target=lambda: [lines.append(x) for x in proc.stderr], daemon=True).start()  # type: ignore[union-attr]
    assert eventually(lambda: any("watching" in x for x in lines), seconds), lines
    return lines


def eventually(cond: Callable[[], bool], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


def hits(root: Path, text: str) -> list[str]:
    return search_paths(root, text)


def test_watch_applies_saves_moves_and_deletions(watched: tuple[Path, subprocess.Popen, list[dict]]) -> None:
    root, proc, batches = watched
    scripts = root / "Assets/Scripts"

    # a plain save
    (scripts / "Shield.cs").write_text("public class Shield { public int absorb; }\n")
    assert eventually(lambda: hits(root, "shield absorb") == ["Assets/Scripts/Shield.cs"])
    assert eventually(lambda: len(batches) >= 1)
    assert batches[0]["walked"] is False and batches[0]["schema_version"] == 1

    # an atomic save: temp file + rename over the target
    tmp = scripts / ".Health.cs.tmp"
    tmp.write_text(HEALTH.replace("TakeDamage", "ApplyDamage"))
    os.replace(tmp, scripts / "Health.cs")
    assert eventually(lambda: hits(root, "apply damage")[:1] == ["Assets/Scripts/Health.cs"])

    # a file written outside the project and moved in
    outside = root.parent / "Armor.cs"
    outside.write_text("public class Armor { public int plating; }\n")
    shutil.move(outside, scripts / "Armor.cs")
    assert eventually(lambda: hits(root, "armor plating") == ["Assets/Scripts/Armor.cs"])

    # a folder move, then a deletion
    shutil.move(scripts, root / "Assets/Code")
    assert eventually(lambda: hits(root, "shield absorb") == ["Assets/Code/Shield.cs"])
    (root / "Assets/Code/Armor.cs").unlink()
    assert eventually(lambda: hits(root, "armor plating") == [])
    assert eventually(lambda: check_consistency(paths_of(root), root, CONFIG) == [])

    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0
    assert all(b["generation"] > 0 for b in batches)


def test_watch_follows_a_content_folder_created_after_it_started(
    watched: tuple[Path, subprocess.Popen, list[dict]],
) -> None:
    root, proc, _ = watched
    assert not (root / "Packages").exists()
    runtime = root / "Packages/com.studio.loot/Runtime"
    runtime.mkdir(parents=True)  # all at once: the new folder's own watch starts after this
    (runtime / "LootTable.cs").write_text("public class LootTable { public int rolls; }\n")
    assert eventually(lambda: hits(root, "loot table rolls") == ["Packages/com.studio.loot/Runtime/LootTable.cs"])
    # and later writes inside it arrive as events of their own
    (runtime / "LootDrop.cs").write_text("public class LootDrop { public float chance; }\n")
    assert eventually(lambda: hits(root, "loot drop chance")[:1] == ["Packages/com.studio.loot/Runtime/LootDrop.cs"])
    # a content folder removed and restored (a checkout) is followed again
    shutil.rmtree(root / "Packages")
    assert eventually(lambda: hits(root, "loot table rolls") == [])
    runtime.mkdir(parents=True)
    (runtime / "LootTable.cs").write_text("public class LootTable { public int rolls; }\n")
    assert eventually(lambda: hits(root, "loot table rolls") == ["Packages/com.studio.loot/Runtime/LootTable.cs"])
    (runtime / "LootDrop.cs").write_text("public class LootDrop { public float chance; }\n")
    assert eventually(lambda: hits(root, "loot drop chance")[:1] == ["Packages/com.studio.loot/Runtime/LootDrop.cs"])
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0


def test_watch_stops_cleanly_on_ctrl_c(watched: tuple[Path, subprocess.Popen, list[dict]]) -> None:
    _, proc, _ = watched
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=10) == 0
    assert proc.stderr is not None
    assert "Traceback" not in proc.stderr.read()


def test_watch_text_names_the_files_of_each_batch(tmp_path: Path) -> None:
    root = write_project(tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH})
    proc = start_cli("watch", "--project", str(root))
    try:
        assert proc.stderr is not None
        assert "watching" in proc.stderr.readline()
        (root / "Assets/Scripts/Shield.cs").write_text("public class Shield {}\n")
        line = proc.stderr.readline()
        assert line.startswith("1 added, 0 changed, 0 moved, 0 deleted in "), line
        assert line.rstrip().endswith(": Assets/Scripts/Shield.cs"), line
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)


def test_watch_ignores_what_the_index_leaves_out(tmp_path: Path) -> None:
    """Hidden files (editors' swap files, another server's sync cookies) and excluded folders are
    no batch. (The index folder configured inside Assets/ was, each commit's files a batch and so
    another commit, forever: such an index_dir is refused since session 38.)"""
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Scripts/Health.cs": HEALTH,
            "ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2021.3.15f1\n",
            "unity-index.toml": 'exclude = ["Assets/Generated"]\n',
        },
    )
    proc = start_cli("watch", "--json", "--project", str(root))
    try:
        batches: list[dict] = []
        threading.Thread(target=lambda: [batches.append(json.loads(x)) for x in proc.stdout], daemon=True).start()
        watching(proc)
        (root / "Assets/Scripts/.Health.cs.swp").write_bytes(b"swap")
        (root / "Assets/Generated").mkdir()
        (root / "Assets/Generated/Codegen.cs").write_text("public class Codegen {}\n")
        time.sleep(2)
        assert batches == []
        (root / "Assets/Scripts/Shield.cs").write_text("public class Shield { public int absorb; }\n")
        assert eventually(lambda: len(batches) == 1)
        time.sleep(2)
        assert [(b["paths"], b["added"]) for b in batches] == [(["Assets/Scripts/Shield.cs"], 1)]
    finally:
        proc.kill()
        proc.wait()


def _until_it_stops(root: Path, act: Callable[[], None], edited: Path) -> list[str]:
    """A watch of `root` told of `act()`, then of an edit of `edited`'s Health.cs: its lines, once it
    ended with exit 2 (as it must)."""
    proc = start_cli("watch", "--project", str(root))
    try:
        lines = watching(proc)
        act()
        time.sleep(0.5)
        (edited / "Assets" / "Scripts" / "Health.cs").write_text(HEALTH + "\n// edited\n")
        assert proc.wait(timeout=30) == 2, lines
        return lines
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_watch_stops_when_its_project_is_moved_and_leaves_nothing_at_the_old_place(tmp_path: Path) -> None:
    """A project folder renamed while `watch` ran: the next batch made the old path again, with an
    empty index in `<old>/Library/UnityIndex` (generation 1, every file deleted), and the watch
    went on. Now the update refuses a project folder that is gone: exit 2, said."""
    root = write_project(tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH})
    moved = tmp_path / "Renamed"
    lines = _until_it_stops(root, lambda: root.rename(moved), moved)
    assert not root.exists()
    assert any(f"{root}: the project folder is gone" in x for x in lines), lines
    assert not any("Traceback" in x for x in lines), lines


def test_watch_follows_the_files_of_a_local_package(tmp_path: Path) -> None:
    """docs/indexing.md, "Which files": a local package the manifest installs is watched like
    `Assets/` (an edit inside it is indexed as it is saved), and one the manifest adds while the
    watch runs is indexed by the walk that change makes."""
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Player.cs": "public class Player { }\n",
            "Packages/manifest.json": '{"dependencies": {"com.own.tools": "file:../Local/com.own.tools"}}',
            "Local/com.own.tools/Runtime/Toolbox.cs": "public class Toolbox { }\n",
            "Local/com.own.extra/Runtime/Spanner.cs": "public class Spanner { public int torque; }\n",
        },
    )
    proc = start_cli("watch", "--project", str(root))
    try:
        watching(proc)
        assert hits(root, "toolbox") == ["Local/com.own.tools/Runtime/Toolbox.cs"]
        (root / "Local/com.own.tools/Runtime/Whetstone.cs").write_text("public class Whetstone { public int grit; }\n")
        assert eventually(lambda: hits(root, "whetstone grit") == ["Local/com.own.tools/Runtime/Whetstone.cs"])
        manifest = '{"dependencies": {"a": "file:../Local/com.own.tools", "b": "file:../Local/com.own.extra"}}'
        (root / "Packages/manifest.json").write_text(manifest)
        assert eventually(lambda: hits(root, "spanner torque") == ["Local/com.own.extra/Runtime/Spanner.cs"])
    finally:
        proc.kill()
        proc.wait()


def test_watch_stops_when_its_folder_loses_project_settings_and_writes_nothing(tmp_path: Path) -> None:
    """docs/cli.md: a folder that lost `ProjectSettings/` (a recursive delete under way, a move)
    ends the watch at the next batch, exit 2, said, with the index as it was."""
    root = write_project(tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH})
    index = root / "Library" / "UnityIndex"
    before: list = []

    def lose() -> None:
        before.extend(sorted((p.relative_to(index), p.stat().st_mtime_ns) for p in index.rglob("*") if p.is_file()))
        (root / "ProjectSettings").rename(tmp_path / "ProjectSettings.moved")

    lines = _until_it_stops(root, lose, root)
    said = f"{root}: the project folder is no longer a Unity project (ProjectSettings/ is gone: moved or deleted)"
    assert any(said in x for x in lines), lines
    after = sorted((p.relative_to(index), p.stat().st_mtime_ns) for p in index.rglob("*") if p.is_file())
    assert after == before


def test_events_lost_or_watches_run_out_make_the_watch_walk(tmp_path: Path, monkeypatch) -> None:
    """inotify's queue overflowing (a big checkout on a loaded machine) lost a file added and one
    deleted, and the system's watches running out left new folders unwatched, while the watch went
    on as if all was told (session 39). Now the batch walks; after the watches ran out every batch
    walks, and a walk comes every BLIND_WALK_SECONDS without events."""
    import logging
    import threading

    from watchdog.events import EventsLostEvent, FileModifiedEvent

    from indexer.changes import watch as watching_module
    from indexer.changes.watch import WALK, Collector, start_observer, stop_observer
    from indexer.config import Config
    from indexer.project import Coverage

    root = write_project(tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH})
    collector = Collector(root, Coverage(root, Config()))
    collector.on_any_event(EventsLostEvent(str(root / "Assets")))
    assert collector.pending == {WALK}
    collector.pending.clear()
    observer = start_observer(root, Config(), collector)
    try:
        logging.getLogger("watchdog.observers.inotify").warning(
            "Unable to watch %r: %s", os.fsencode(root / "Assets" / "New"), OSError(28, "No space left on device")
        )
        assert collector.blind and collector.pending == {WALK}
    finally:
        stop_observer(observer)
    collector.pending.clear()
    collector.on_any_event(FileModifiedEvent(str(root / "Assets/Scripts/Health.cs")))
    assert collector.pending == {WALK}
    collector.pending.clear()
    monkeypatch.setattr(watching_module, "BLIND_WALK_SECONDS", 0.0)
    stop = threading.Event()
    assert collector.take(stop) == {WALK}


def test_a_changed_config_ends_the_watch_rather_than_rebuilding_under_the_old_one(tmp_path: Path) -> None:
    """A watch kept the settings it started with: after `index` applied a new `exclude`, its next
    batch rebuilt the index under the old ones, and every query after rebuilt it back (session
    39). Its update now stops, exit 2, saying to restart; the index stays as `index` built it."""
    from indexer.build.update import update
    from indexer.changes.settings import SettingsChanged
    from indexer.config import Config

    root = write_project(
        tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH, "Assets/Old/Legacy.cs": "class Legacy {}"}
    )

    def reconfigure() -> None:
        (root / "unity-index.toml").write_text('exclude = ["Assets/Old/**"]\n')
        assert run_cli("index", "--project", str(root)).returncode == 0

    lines = _until_it_stops(root, reconfigure, root)
    assert any("unity-index.toml changed since this process started" in x for x in lines), lines
    found = run_cli("query", "Legacy", "--json", "--no-refresh", "--project", str(root))
    assert [r["path"] for r in json.loads(found.stdout or '{"results": []}')["results"]] == []
    with pytest.raises(SettingsChanged):
        update(root, Config(workers=1), background=True)


def test_watches_run_out_in_a_project_named_in_any_script_and_not_in_its_sibling(tmp_path: Path) -> None:
    """watchdog logs the folder it could not watch as bytes, whose repr escapes `É`: a project named
    `Jeu Été` never learnt its watches ran out, and `Game` took `Game2`'s for its own (a review of
    session 39)."""
    import logging

    from indexer.changes.watch import Collector, start_observer, stop_observer
    from indexer.config import Config
    from indexer.project import Coverage

    log = logging.getLogger("watchdog.observers.inotify")
    for name, other in (("Jeu Été", "Jeu Été/Assets/New"), ("Game", "Game2/Assets/New")):
        root = write_project(tmp_path / name, {"Assets/Scripts/Health.cs": HEALTH})
        collector = Collector(root, Coverage(root, Config()))
        observer = start_observer(root, Config(), collector)
        try:
            log.warning("Unable to watch %r: %s", os.fsencode(tmp_path / other), OSError(28, "No space left"))
        finally:
            stop_observer(observer)
        assert collector.blind is (name == "Jeu Été"), name


def test_a_config_made_invalid_stops_a_long_running_update_saying_so(tmp_path: Path) -> None:
    """settings.check_unchanged: a `unity-index.toml` broken while a watch or server runs is no
    settings to keep updating under: its next update says so, and nothing is written."""
    from indexer.build.update import update
    from indexer.changes.settings import SettingsChanged
    from indexer.config import Config

    root = write_project(tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH})
    update(root, Config(workers=1))
    (root / "unity-index.toml").write_text("exclude = [\n")
    with pytest.raises(SettingsChanged, match=r"unity-index\.toml changed and is no longer valid \(.*\); fix it"):
        update(root, Config(workers=1), background=True)
    assert update(root, Config(workers=1)).scanned == 0  # a user's own `index` is not held up by it


def test_a_stopped_observer_takes_its_log_handler_and_lost_watches_are_said_once(tmp_path: Path, caplog) -> None:
    """start_observer adds a handler to watchdog's logger for its collector, stop_observer takes it
    away (a server restarting its watch would pile them up); the warning that the system's watches
    ran out is logged once, however many folders go unwatched."""
    import logging

    from indexer.changes.watch import _WATCHDOG_LOG, Collector, start_observer, stop_observer
    from indexer.config import Config
    from indexer.project import Coverage

    root = write_project(tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH})
    before = list(_WATCHDOG_LOG.handlers)
    collector = Collector(root, Coverage(root, Config()))
    observer = start_observer(root, Config(), collector)
    try:
        assert len(_WATCHDOG_LOG.handlers) == len(before) + 1
        with caplog.at_level(logging.WARNING, logger="unity_index.watch"):
            for name in ("A", "B", "C"):
                _WATCHDOG_LOG.warning("Unable to watch %r: %s", os.fsencode(root / "Assets" / name), "[Errno 28]")
        said = [r for r in caplog.records if r.name == "unity_index.watch"]
        assert len(said) == 1 and "inotify watches ran out" in said[0].getMessage()
    finally:
        stop_observer(observer)
    assert _WATCHDOG_LOG.handlers == before
