"""Promises session 50 made in docstrings and docs that no test pinned, each tested here and each
test seen failing with its promise broken (the commit messages say how it was broken):

1. A prefab that is a variant of itself (its `m_SourcePrefab` its own GUID) gets the cycle note a
   cycle through other prefabs gets, in `refs` (of it, of its scripts and their members),
   `describe` and the MCP tools; before, nothing said why it was outlined "Prefab variant of" itself.
2. Under a small address-space limit `watch` ends, exit 2, writing nothing (it waited "every 2 s"
   for ever, saying to run the command again, for a limit no wait raises); `index` keeps the
   committed index; `context` and `refs` answer from the index as it is, as a query does; a
   MemoryError under a limit names it.
3. `scratch.reclaim` removes only folders of this user, never through a link, never a file.
4. SIGTERM stops `query`, `context` and `refs` as it stops `index` (exit 143, one line);
   `_sigterm_stops` gives in-process callers the default back, obeys a handler a parent set, and
   leaves signals alone in a thread that is not the main one.
5. A vendor folder of any of its names below a test folder is the project's own tests.
6. An index of no file names the first five exclude patterns, and hidden entries are nothing to
   index; a file of four duplicate fileIDs names three; a model's unnamed instance is named by
   the model's file.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from indexer.build import scratch
from indexer.build.update import update
from indexer.cli.main import main
from indexer.config import Config
from indexer.query.vendored import vendor_package
from indexer.store.schema import IndexPaths

from .conftest import REPO, indexed_copy, meta, run_cli, write_project
from .test_address_space_session50 import REFUSED, _cli
from .test_trust_session49 import A_GUID, B_GUID, CYCLE_A, HEAD, HP, SCRIPT, _instance

LINUX = sys.platform.startswith("linux")
SELF_CYCLE = (
    "a cycle of prefabs: Assets/A.prefab is an instance or variant of itself (Unity never saves one: a merge or"
    " a hand edit made it), not followed round"
)


def _self_variant(root: Path) -> Path:
    """A (adding `Hp`) a variant of itself, as a hand edit or a merge can leave it; a level places A."""
    write_project(
        root,
        {
            "Assets/Hp.cs": HP,
            "Assets/Hp.cs.meta": meta(SCRIPT),
            "Assets/A.prefab": CYCLE_A.replace(B_GUID, A_GUID),
            "Assets/A.prefab.meta": meta(A_GUID, "PrefabImporter"),
            "Assets/Level.unity": HEAD + _instance(900, A_GUID, {}),
        },
    )
    update(root, Config(workers=1))
    return root


def test_a_prefab_variant_of_itself_gets_the_cycle_note(tmp_path: Path) -> None:
    root = _self_variant(tmp_path / "P")
    refs = {t: run_cli("refs", t, "--project", str(root)).stdout for t in ("Hp", "Hp.hp", "Assets/A.prefab")}
    assert refs["Hp"].split("\n") == [
        f"type Hp  ({SELF_CYCLE})",
        "in assets (2):",
        "  Assets/A.prefab:22 [m_Script]  A",
        "  Assets/Level.unity:3 [instance]  A (via Assets/A.prefab)",
        "",
    ]
    assert refs["Hp.hp"].split("\n")[0] == f"member hp of Hp  ({SELF_CYCLE})"
    assert refs["Assets/A.prefab"].split("\n") == [
        f"file Assets/A.prefab  ({SELF_CYCLE})",
        "in assets (1):",
        "  Assets/Level.unity:3 [instance]  A",
        "",
    ]
    data = json.loads(run_cli("refs", "Assets/A.prefab", "--json", "--project", str(root)).stdout)
    assert data["target"]["note"] == SELF_CYCLE
    desc = run_cli("describe", "Assets/A.prefab", "--project", str(root)).stdout.split("\n")
    assert desc[1:3] == [f"note: {SELF_CYCLE}", "Prefab variant of Assets/A.prefab"]
    # the walk, which says no cycle of either kind, lists the level through A once, A not through itself
    reasons = run_cli("query", "Hp", "--project", str(root)).stdout.split("\n")
    assert "      why: carries script Assets/Hp.cs via Assets/A.prefab" in reasons
    assert [line for line in reasons if "A.prefab > Assets/A.prefab" in line] == []


def test_mcp_says_the_self_variants_cycle_note(tmp_path: Path) -> None:
    import anyio
    from mcp import Client

    from indexer.query.workspace import open_workspace, projects_at
    from mcp_adapter.server.app import create_server

    root = _self_variant(tmp_path / "P")

    async def answers() -> tuple[str, str]:
        server = create_server(open_workspace(root, projects_at(root)), refresh_interval=60, watch=False)
        async with Client(server, mode="legacy") as c:
            refs = await c.call_tool("find_references", {"target": "Hp"})
            desc = await c.call_tool("describe", {"target": "Assets/A.prefab"})
            return refs.content[0].text, desc.content[0].text

    refs, desc = anyio.run(answers)
    assert refs.split("\n")[0] == f"type Hp  ({SELF_CYCLE})"
    assert f"note: {SELF_CYCLE}" in desc.split("\n")


def test_a_cycle_through_others_is_still_said_through_them(tmp_path: Path) -> None:
    """The self-variant's note drops "through ..."; A variant of B, B of A keeps it."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Hp.cs": HP,
            "Assets/Hp.cs.meta": meta(SCRIPT),
            "Assets/A.prefab": CYCLE_A,
            "Assets/A.prefab.meta": meta(A_GUID, "PrefabImporter"),
            "Assets/B.prefab": HEAD + _instance(100100000, A_GUID, {"m_Name": "B"}),
            "Assets/B.prefab.meta": meta(B_GUID, "PrefabImporter"),
        },
    )
    update(root, Config(workers=1))
    first = run_cli("refs", "Assets/A.prefab", "--project", str(root)).stdout.split("\n")[0]
    assert first == f"file Assets/A.prefab  ({SELF_CYCLE.replace('of itself', 'of itself through Assets/B.prefab')})"


# -- address space: every writing command refuses, every answering one answers -------------------


@pytest.mark.skipif(not LINUX, reason="RLIMIT_AS as Linux applies it")
def test_watch_under_a_small_address_space_ends_writing_nothing(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/Player.cs": "public class Player { }\n"})
    r = _cli("watch", "--project", str(root))
    assert (r.returncode, r.stdout, r.stderr) == (2, "", REFUSED)
    assert not IndexPaths(Config().index_path(root)).root.exists()


@pytest.mark.skipif(not LINUX, reason="RLIMIT_AS as Linux applies it")
def test_context_and_refs_under_a_small_address_space_answer_from_the_index_as_it_is(tmp_path: Path) -> None:
    root = indexed_copy(tmp_path)
    script = root / "Assets/Scripts/Player/PlayerHealth.cs"
    script.write_text(script.read_text() + "\n// changed\n")
    refused = REFUSED[len("error: ") : -1]
    said = f"the index of DungeonCrawler could not be updated: {refused}; answering from it as it is\n"
    for args in (("context", "player health", "--budget", "2000"), ("refs", "PlayerHealth")):
        r = _cli(*args, "--project", str(root))
        assert (r.returncode, r.stderr.splitlines(keepends=True)[0]) == (0, said), args
        assert "PlayerHealth" in r.stdout, args


@pytest.mark.skipif(not LINUX, reason="RLIMIT_AS as Linux applies it")
def test_index_under_a_small_address_space_keeps_the_committed_index(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/Player.cs": "public class Player { }\n"})
    update(root, Config(workers=1))
    index = IndexPaths(Config().index_path(root)).root

    def state() -> list[tuple[str, int]]:
        return sorted((str(p.relative_to(index)), p.stat().st_mtime_ns) for p in index.rglob("*") if p.is_file())

    before = state()
    (root / "Assets/Enemy.cs").write_text("public class Enemy { }\n")
    for args in (("index",), ("index", "--full")):
        r = _cli(*args, "--project", str(root))
        assert (r.returncode, r.stderr) == (2, REFUSED), args
    assert state() == before


@pytest.mark.skipif(not LINUX, reason="RLIMIT_AS as Linux applies it")
def test_a_memory_error_under_a_limit_names_the_limit() -> None:
    code = (
        "import resource; from indexer.cli.common import explain_failure\n"
        "resource.setrlimit(resource.RLIMIT_AS, (3000 * 1024 * 1024, resource.RLIM_INFINITY))\n"
        "print(explain_failure(MemoryError()))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    r = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True)
    assert r.stdout == (
        "the process ran out of memory; its address space is limited to 3000 MB (`ulimit -v`): raise the limit"
        " and run the command again (the index keeps its last commit)\n"
    ), r.stderr


# -- scratch.reclaim: "the folders of this user whose lock it can take" ---------------------------


def _unowned(base: Path, name: str) -> Path:
    """A folder named as ours, its lock free and older than UNLOCKED_GRACE: what reclaim removes."""
    folder = base / name
    folder.mkdir()
    (folder / scratch.LOCK).touch()
    old = time.time() - 2 * scratch.UNLOCKED_GRACE
    os.utime(folder, (old, old))
    return folder


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX")
def test_reclaim_removes_a_dead_owners_folder_and_nothing_that_is_not_one(tmp_path: Path) -> None:
    dead = _unowned(tmp_path, f"{scratch.PREFIX}1-dead")
    target = _unowned(tmp_path, "elsewhere")
    (tmp_path / f"{scratch.PREFIX}2-link").symlink_to(target)  # a link named as ours: not followed
    (tmp_path / f"{scratch.PREFIX}3-file").write_text("a user's file")
    assert scratch.reclaim(str(tmp_path)) == [str(dead)]
    assert target.is_dir() and (target / scratch.LOCK).is_file()
    assert (tmp_path / f"{scratch.PREFIX}3-file").read_text() == "a user's file"


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="gives a folder to another user")
def test_reclaim_keeps_another_users_folder(tmp_path: Path) -> None:
    theirs = _unowned(tmp_path, f"{scratch.PREFIX}4-theirs")
    os.chown(theirs, 65534, 65534)
    assert scratch.reclaim(str(tmp_path)) == []
    assert theirs.is_dir()


# -- SIGTERM: exit 143 for every built-in command, the handler restored --------------------------


class _HeldLock:
    """The index's writer lock held by another process until closed: a command building the index
    waits for it, which is when the tests signal it."""

    def __init__(self, root: Path) -> None:
        index = Config().index_path(root)
        code = (
            "import sys; from pathlib import Path; from indexer.store.lock import writer_lock\n"
            "from indexer.store.schema import IndexPaths\n"
            "with writer_lock(IndexPaths(Path(sys.argv[1]))):\n    print('held', flush=True); sys.stdin.read()\n"
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, str(index)],
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout.readline() == "held\n"  # type: ignore[union-attr]

    def close(self) -> None:
        self.proc.communicate(timeout=30)


def _waiting(root: Path, *args: str) -> subprocess.Popen:
    """The command started without an index while the lock is held, seen waiting for it."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "indexer.cli", *args, "--project", str(root)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = proc.stderr.readline()  # type: ignore[union-attr]
    while line and "waiting for it" not in line:
        line = proc.stderr.readline()  # type: ignore[union-attr]
    assert "waiting for it" in line, line
    return proc


@pytest.mark.skipif(not LINUX, reason="the writer lock's waiting as Linux shows it")
@pytest.mark.parametrize("args", [("query", "door"), ("context", "open the door"), ("refs", "Door")])
def test_sigterm_stops_every_answering_command_as_it_stops_index(tmp_path: Path, args: tuple[str, ...]) -> None:
    root = write_project(tmp_path / "P", {"Assets/Door.cs": "public class Door { }\n"})
    held = _HeldLock(root)
    try:
        proc = _waiting(root, *args)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        held.close()
    assert (proc.returncode, out, err) == (143, "", "error: stopped by SIGTERM\n")


def test_the_default_sigterm_action_is_back_after_an_in_process_command(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/Door.cs": "public class Door { }\n"})
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


@pytest.mark.skipif(not LINUX, reason="the writer lock's waiting as Linux shows it")
def test_a_sigterm_handler_a_parent_set_is_obeyed(tmp_path: Path, capsys) -> None:
    """Ignored (`nohup`-like, a parent's SIG_IGN) or handled by the caller: a SIGTERM during the
    command neither stops it nor replaces what was set."""
    root = write_project(tmp_path / "P", {"Assets/Door.cs": "public class Door { }\n"})
    caught: list[int] = []

    def own(signum: int, _frame: object) -> None:
        caught.append(signum)

    for handler in (signal.SIG_IGN, own):
        held = _HeldLock(root)
        previous = signal.signal(signal.SIGTERM, handler)
        try:
            threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGTERM)).start()
            threading.Timer(2.0, held.close).start()  # the build goes on once the lock is free
            assert main(["query", "door", "--project", str(root)]) == 0, capsys.readouterr().err
            assert signal.getsignal(signal.SIGTERM) == handler
        finally:
            signal.signal(signal.SIGTERM, previous)
        assert "Door.cs" in capsys.readouterr().out
        (root / "Library").rename(tmp_path / f"old-{len(caught)}")  # no index again: the next one waits
    assert caught == [signal.SIGTERM]


def test_a_command_run_from_another_thread_leaves_signals_alone(tmp_path: Path) -> None:
    """Signal handlers belong to the main thread (`signal.signal` raises ValueError elsewhere): an
    in-process caller running a command from a thread gets its answer."""
    root = write_project(tmp_path / "P", {"Assets/Door.cs": "public class Door { }\n"})
    codes: list[int] = []
    thread = threading.Thread(target=lambda: codes.append(main(["index", "--quiet", "--project", str(root)])))
    thread.start()
    thread.join(120)
    assert codes == [0] and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


# -- a vendor folder below a test folder ----------------------------------------------------------


def test_any_vendor_folder_below_a_test_folder_is_the_projects_own() -> None:
    """`Plugins`, `External`, `Vendor`, `ThirdParty` below `Test/` or `Tests/` (any case) group the
    project's tests; a kit's own `Tests/` below its vendor folder stays the kit's."""
    for folder in ("Plugins", "External", "Vendor", "ThirdParty"):
        for tests in ("Tests", "Test", "tests"):
            assert vendor_package(f"Assets/{tests}/{folder}/KitTests.cs", ()) is None, (tests, folder)
        assert vendor_package(f"Assets/{folder}/Kit/Tests/KitTests.cs", ()) == "Kit", folder
    assert vendor_package("Assets/Contests/Plugins/Kit/Score.cs", ()) == "Kit"  # "Contests" is no test folder


# -- what an index of no file says ----------------------------------------------------------------


def test_an_empty_index_names_the_first_five_exclude_patterns(tmp_path: Path, capsys) -> None:
    root = write_project(tmp_path / "P", {"Assets/Door.cs": "public class Door { }\n"})
    patterns = ["Assets/A/**", "Assets/B/**", "Assets/C/**", "Assets/D/**", "Assets/**", "*"]
    (root / "unity-index.toml").write_text(f"exclude = {json.dumps(patterns)}\n")
    assert main(["query", "door", "--project", str(root)]) == 0
    said = "'Assets/A/**', 'Assets/B/**', 'Assets/C/**', 'Assets/D/**', 'Assets/**', ..."
    assert capsys.readouterr().err.endswith(
        f"no results: the index of P holds no file: the exclude patterns of unity-index.toml ({said}) leave out"
        " every file\n"
    )


def test_hidden_entries_are_nothing_to_index(tmp_path: Path, capsys) -> None:
    """Unity imports no `.name` nor `name~` entry: a project holding only those holds nothing."""
    root = write_project(tmp_path / "P", {"Assets/.git-keep": "", "Assets/Docs~/Notes.cs": "class Notes { }\n"})
    assert main(["query", "notes", "--project", str(root)]) == 0
    said = "the index of P holds no file: Assets/, Packages/, ProjectSettings/ hold nothing to index"
    assert capsys.readouterr().err.endswith(f"no results: {said}\n")


# -- a file merged keeping both sides: the first three of its duplicate fileIDs, and how many ------


def test_four_duplicate_file_ids_name_the_first_three() -> None:
    from indexer.scanners.unity_yaml import scan

    head = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
    objects = "".join(f"--- !u!1 &{i}\nGameObject:\n  m_Name: O{i}\n" for i in (400, 100, 300, 200))
    rec = scan("Assets/Twice.prefab", (head + objects + objects).encode())
    assert (rec.status, rec.note) == (
        "partial",
        "8 documents; 4 duplicate fileIDs (100, 200, 300, ...) held by more than one object: the file looks merged"
        " keeping both sides, what it holds twice read twice",
    )


# -- an instance of a model: the file's name, as Unity names a model's root ------------------------


def test_an_unnamed_instance_of_a_model_is_named_by_the_models_file(tmp_path: Path) -> None:
    from indexer.query.lookup import describe_target
    from indexer.query.workspace import open_workspace

    ship = "5e" * 16
    scene = HEAD + _instance(900, ship, {"m_LocalPosition.x": "3"})
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Models/Ship.fbx": b"Kaydara FBX Binary  \x00\x1a\x00",
            "Assets/Models/Ship.fbx.meta": meta(ship, "ModelImporter"),
            "Assets/Level.unity": scene,
        },
    )
    update(root, Config(workers=1))
    _, desc = describe_target(open_workspace(root, [(root, Config())]), "Assets/Level.unity")
    assert "Ship  (prefab instance of Assets/Models/Ship.fbx)  L3" in desc.text.split("\n")
