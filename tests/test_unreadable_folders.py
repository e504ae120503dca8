"""A folder inside the project that cannot be read (`chmod 000`, another user's): it is recorded
as skipped with the reason, in place of its files, by every way an update finds changes (a walk,
git, the paths watch or the editor's journal name), and its files come back once it can be read.

Root reads any folder; these tests drop that power with `setpriv` (see test_environment_errors)
and skip where that cannot be arranged."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO, write_project
from .test_environment_errors import _without_write_permission

REASON = "folder cannot be read: Permission denied; its files are left out of the index"


def _prefix() -> list[str]:
    prefix = _without_write_permission()
    if prefix is None:
        pytest.skip("cannot drop root's power to read any folder here")
    return prefix


def _project(tmp_path: Path) -> Path:
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Open.cs": "public class OpenThing { }\n",
            "Assets/Secret/Hidden.cs": "public class HiddenThing { }\n",
            "Assets/Secret/Deep/Deeper.cs": "public class DeeperThing { }\n",
        },
    )
    git = ["git", "-C", str(root), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "x"], check=True)
    return root


def _run(prefix: list[str], *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}
    return subprocess.run([*prefix, sys.executable, *args], capture_output=True, text=True, env=env, timeout=300)


def test_an_unreadable_folder_is_reported_by_index_and_status_and_its_files_come_back(tmp_path: Path) -> None:
    """Through the CLI in a git work tree, where git finds the changes: git lists neither the
    files it cannot see nor their deletion, so the update walks and records the folder."""
    prefix = _prefix()
    root = _project(tmp_path)
    secret = root / "Assets" / "Secret"

    def cli(*args: str) -> str:
        """What the command printed (`index` reports on stderr, answers go to stdout)."""
        r = _run(prefix, "-m", "indexer.cli", *args, "--project", str(root))
        assert r.returncode == 0, (args, r.stderr)
        return r.stderr + r.stdout

    assert "0 skipped in all" in cli("index")
    assert '"walked":false' in cli("index", "--json")  # git finds the changes from now on
    secret.chmod(0o000)
    try:
        assert "(1 added, 0 changed), 2 deleted, 1 skipped in all" in cli("index")
        assert f"skipped   1\n  Assets/Secret: {REASON}\n" in cli("status")
        status = json.loads(cli("status", "--json"))
        assert status["skipped"] == [{"path": "Assets/Secret", "reason": REASON}]
        assert status["stale_files"] == 0 and status["by_kind"]["folder"] == 1
        assert "HiddenThing" not in cli("query", "HiddenThing DeeperThing")
        found = json.loads(cli("query", "Secret", "--json"))["results"]  # the folder is not searched
        assert "Assets/Secret" not in [h["path"] for h in found]
    finally:
        secret.chmod(0o755)
    out = cli("index")  # git sees nothing: it never stopped tracking them
    assert "(2 added, 0 changed), 1 deleted, 0 skipped in all" in out
    assert "Assets/Secret/Deep/Deeper.cs" in cli("query", "DeeperThing")
    assert json.loads(cli("status", "--json"))["skipped"] == []


DRIVER = """
import json, os, sys, anyio
from pathlib import Path
from mcp import Client
from indexer.build.update import update
from indexer.config import Config
from indexer.query.workspace import open_workspace, projects_at
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths
from mcp_adapter.server.app import create_server

root = Path(sys.argv[1])
secret = root / "Assets" / "Secret"
config = Config(workers=1)

def step(name, **kw):
    s = update(root, config, **kw)
    r = Records(IndexPaths(config.index_path(root)))
    paths = sorted(r.stats())
    r.close()
    print(json.dumps([name, s.walked, s.skipped, [p for p in paths if p.startswith("Assets/")]]), flush=True)

async def index_status():
    server = create_server(open_workspace(root, projects_at(root)), refresh_interval=0, tokenizer="estimate")
    async with Client(server) as c:
        return (await c.call_tool("index_status", {})).content[0].text

step("first")
secret.chmod(0o000)
step("a file in it named", paths=["Assets/Secret/Hidden.cs"])
step("another file named", paths=["Assets/Open.cs"])
print(json.dumps(["mcp", anyio.run(index_status)]), flush=True)
secret.chmod(0o755)
step("readable, another file named", paths=["Assets/Open.cs"])
step("again", paths=["Assets/Open.cs"])
"""


def test_updates_of_named_paths_record_an_unreadable_folder_and_bring_its_files_back(tmp_path: Path) -> None:
    """Watch, the MCP server and the editor's journal name paths: a file of a folder that became
    unreadable cannot be looked at, so the update walks; a folder readable again (a chmod nobody
    names) is noticed at the next update, which walks to list its files. MCP index_status shows it."""
    prefix = _prefix()
    root = _project(tmp_path)
    r = _run(prefix, "-c", DRIVER, str(root))
    assert r.returncode == 0, r.stderr
    steps = [json.loads(line) for line in r.stdout.splitlines()]
    every = ["Assets/Open.cs", "Assets/Secret/Deep/Deeper.cs", "Assets/Secret/Hidden.cs"]
    closed = ["Assets/Open.cs", "Assets/Secret"]
    assert steps[:3] == [
        ["first", True, 0, every],
        ["a file in it named", True, 1, closed],
        ["another file named", False, 1, closed],
    ]
    name, text = steps[3]
    assert name == "mcp" and f"Assets/Secret: {REASON}" in text, text
    assert steps[4:] == [["readable, another file named", True, 0, every], ["again", False, 0, every]]


WATCHED = """
import sys
from pathlib import Path
from watchdog.events import DirModifiedEvent
from indexer.changes.watch import WALK, Collector

root = Path(sys.argv[1])
secret = root / "Assets" / "Secret"
collector = Collector(root)
collector.on_any_event(DirModifiedEvent(str(secret)))  # a file created in it: it reports itself
print(sorted(collector.pending) == [], flush=True)
secret.chmod(0o000)
collector.on_any_event(DirModifiedEvent(str(secret)))  # the chmod, as inotify reports it
print(sorted(collector.pending) == [WALK], flush=True)
secret.chmod(0o755)
"""


def test_watch_walks_when_a_folder_becomes_unreadable(tmp_path: Path) -> None:
    """A chmod reaches watch as the folder's own modification, which it otherwise leaves to the
    files' events: a folder it can no longer read makes the batch a walk, which records it."""
    prefix = _prefix()
    root = _project(tmp_path)
    r = _run(prefix, "-c", WATCHED, str(root))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True", "True"]


def test_the_unreadable_folders_are_found_by_their_index_not_a_scan_of_every_file(indexed_fixture: Path) -> None:
    """Every update of listed paths asks for them (indexer/store/schema.py): a partial index."""
    from indexer.config import Config
    from indexer.store.reader import Records
    from indexer.store.schema import IndexPaths

    records = Records(IndexPaths(Config().index_path(indexed_fixture)))
    plan = records.conn.execute("EXPLAIN QUERY PLAN SELECT path FROM files WHERE kind = 'folder'").fetchall()
    assert "USING INDEX folders_by_path" in plan[0][3]
    assert records.folder_paths() == []


def test_the_vendor_marks_and_libraries_are_found_by_their_index_not_a_scan_of_every_path(tmp_path: Path) -> None:
    """Every process's first query asks for them (indexer/store/schema.py): one partial index,
    made by a rebuild and by the next update of an index written before it existed."""
    import sqlite3

    from indexer.build.update import update
    from indexer.config import Config
    from indexer.store.reader import Records
    from indexer.store.schema import THIRD_PARTY_SIGNS, VENDOR_MARKS, IndexPaths

    from .conftest import copy_fixture

    root = copy_fixture(tmp_path / "Game")
    (root / "Assets/Plugins/Tweens").mkdir(parents=True)
    (root / "Assets/Plugins/Tweens/LICENSE.md").write_text("MIT\n")
    (root / "Assets/Plugins/Tweens/Tweens.dll").write_bytes(b"MZ\x90\x00" + bytes(60))
    (root / "Assets/Docs").mkdir()
    (root / "Assets/Docs/Quick Start Guide.pdf").write_bytes(b"%PDF-1.4\n")
    update(root, Config(workers=1), full=True)
    paths = IndexPaths(Config().index_path(root))
    for which in (VENDOR_MARKS, "kind = 'plugin'"):  # the queries `Records._signs` makes
        sql = f"EXPLAIN QUERY PLAN SELECT path FROM files WHERE ({THIRD_PARTY_SIGNS}) AND ({which})"
        plan = " ".join(r[3] for r in Records(paths).conn.execute(sql))
        assert "INDEX files_marking_vendors" in plan and "SCAN files" not in plan.replace("SCAN files USING", "")
    marks = {"Assets/Docs/Quick Start Guide.pdf", "Assets/Plugins/Tweens/LICENSE.md"}
    assert marks <= set(Records(paths).vendor_mark_paths())
    assert Records(paths).plugin_paths() == ["Assets/Plugins/Tweens/Tweens.dll"]

    with sqlite3.connect(Records(paths).paths.records) as c:  # an index from before the partial index
        c.execute("DROP INDEX files_marking_vendors")
    assert marks <= set(Records(paths).vendor_mark_paths())  # read by a scan meanwhile
    assert Records(paths).plugin_paths() == ["Assets/Plugins/Tweens/Tweens.dll"]
    (root / "Assets/Scripts/Added.cs").write_text("public class Added {}\n")
    update(root, Config(workers=1))
    with sqlite3.connect(Records(paths).paths.records) as c:
        names = {n for (n,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "files_marking_vendors" in names
