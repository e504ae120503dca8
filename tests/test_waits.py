"""Every wait is bounded and interruptible; readers never fail during a rebuild; a header left
behind its records is repaired; one file over its time or memory budget fails alone; the lock
and the scanner processes are chosen per platform without importing POSIX-only modules."""

from __future__ import annotations

import ast
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from indexer.build.pool import FileBudget, parent_watch, start_method
from indexer.build.update import update
from indexer.build.workers import OUT_OF_MEMORY, run_jobs
from indexer.changes.diff import Job
from indexer.changes.hooks import install
from indexer.model import FileRecord
from indexer.store.consistency import check_consistency
from indexer.store.header import read_header
from indexer.store.lock import lock_backend, open_flags, writer_lock
from indexer.store.reader import Records

from .conftest import REPO, SLOW_CSHARP, meta, run_cli, start_cli, write_project
from .test_crash import generate
from .test_hooks import git
from .test_indexing import CONFIG, HEALTH, paths_of

POSIX_ONLY_MODULES = {"fcntl", "termios", "resource", "pwd", "grp", "posix", "msvcrt", "winreg"}
POSIX_ONLY_SIGNALS = {"SIGKILL", "SIGHUP", "SIGALRM", "SIGUSR1", "SIGUSR2", "SIGCHLD", "SIGPIPE", "SIGQUIT"}


def small_project(tmp_path: Path) -> Path:
    return write_project(
        tmp_path / "Game",
        {
            "Assets/Scripts/Health.cs": HEALTH,
            "Assets/Scripts/Health.cs.meta": meta("11111111111111111111111111111111"),
            "ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2021.3.15f1\n",
        },
    )


def first_line(proc: subprocess.Popen, seconds: float = 30.0) -> str:
    """The first stderr line of `proc`, or "" if none came in time (a hang fails, not blocks)."""
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(proc.stderr.readline()), daemon=True)  # type: ignore[union-attr]
    reader.start()
    reader.join(seconds)
    return lines[0] if lines else ""


# -- portability ---------------------------------------------------------------------------------


def test_lock_and_scanner_processes_are_chosen_per_platform() -> None:
    assert (lock_backend("linux"), lock_backend("darwin"), lock_backend("win32")) == ("flock", "flock", "msvcrt")
    assert (start_method("linux"), start_method("darwin"), start_method("win32")) == (
        "forkserver",
        "forkserver",
        "spawn",
    )
    assert (parent_watch("linux"), parent_watch("darwin"), parent_watch("win32")) == ("pdeathsig", "poll", "poll")
    assert open_flags("linux") == os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW


def _import_time_names(tree: ast.Module) -> set[str]:
    """Modules imported and signal names read outside any function (run at import time)."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            return
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
            if node.module == "signal":
                names.update(a.name for a in node.names)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "signal":
            names.add(node.attr)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return names


def test_no_module_imports_platform_only_names_at_import_time() -> None:
    bad = {}
    for package in ("indexer", "mcp_adapter"):
        for path in sorted((REPO / package).rglob("*.py")):
            found = _import_time_names(ast.parse(path.read_text())) & (POSIX_ONLY_MODULES | POSIX_ONLY_SIGNALS)
            if found:
                bad[str(path.relative_to(REPO))] = sorted(found)
    assert bad == {}


# -- waiting for the lock ------------------------------------------------------------------------


@contextmanager
def held_by_a_thread(paths) -> Iterator[threading.Thread]:
    """The writer lock, held by another thread of this process until the block ends."""
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with writer_lock(paths):
            held.set()
            release.wait(60)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(10)
    try:
        yield holder
    finally:
        release.set()
        holder.join()


def test_index_waits_for_a_live_writer_by_default_and_no_wait_fails_fast(tmp_path: Path) -> None:
    root = small_project(tmp_path)
    paths = paths_of(root)
    with held_by_a_thread(paths):
        t0 = time.monotonic()
        fast = run_cli("index", "--no-wait", "--project", str(root))
        assert fast.returncode == 2 and time.monotonic() - t0 < 10
        assert f"unity-index process {os.getpid()} is updating" in fast.stderr
        waiting = start_cli("index", "--project", str(root))
        assert "waiting for it (up to 300 s" in first_line(waiting)
        assert waiting.poll() is None
    _, err = waiting.communicate(timeout=60)
    assert waiting.returncode == 0, err
    bounded = None
    with writer_lock(paths):
        t0 = time.monotonic()
        bounded = run_cli("index", "--wait", "1", "--project", str(root))
    assert bounded.returncode == 2 and 1 <= time.monotonic() - t0 < 15


@pytest.mark.parametrize("command", [("index",), ("query", "health")])
def test_ctrl_c_ends_a_wait_for_the_lock_at_once(tmp_path: Path, command: tuple[str, ...]) -> None:
    """docs/indexing.md: every wait polls a non-blocking attempt, so Ctrl-C ends it; `index`
    waiting for a live writer, and a query that must build the first index, alike. Exit 130 with
    one line, no traceback, and the holder's lock and index untouched."""
    root = small_project(tmp_path)
    paths = paths_of(root)
    if command[0] == "index":
        update(root, CONFIG)
    with held_by_a_thread(paths) as holder:
        waiting = start_cli(*command, "--project", str(root), start_new_session=True)
        lines = [first_line(waiting) for _ in range(1 if command[0] == "index" else 2)]
        assert "waiting for it" in lines[-1], lines  # a query first says it builds the index
        t0 = time.monotonic()
        os.killpg(waiting.pid, signal.SIGINT)  # Ctrl-C reaches the terminal's process group
        _, err = waiting.communicate(timeout=30)
        assert time.monotonic() - t0 < 10
        assert waiting.returncode == 130, err
        assert err.strip() == "error: interrupted", err
        assert holder.is_alive()  # the writer we held was not disturbed
    assert run_cli(*command, "--no-wait" if command[0] == "index" else "--json", "--project", str(root)).returncode == 0


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_watch_stops_on_a_signal_while_it_waits_for_the_lock(tmp_path: Path, sig: str) -> None:
    root = small_project(tmp_path)
    with writer_lock(paths_of(root)):
        proc = start_cli("watch", "--project", str(root))
        line = first_line(proc)
        if "is updating the index" not in line:
            proc.kill()
        assert "is updating the index" in line, line
        proc.send_signal(getattr(signal, sig))
        t0 = time.monotonic()
        try:
            proc.wait(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
        assert time.monotonic() - t0 < 5
    assert proc.returncode == 0, proc.stderr.read()  # type: ignore[union-attr]


def test_a_git_hook_gives_up_behind_a_held_lock_in_seconds(tmp_path: Path) -> None:
    root = small_project(tmp_path)
    (root / ".gitignore").write_text("Library/\n")
    git(root, "init", "-q")
    install(root)
    with writer_lock(paths_of(root)):
        git(root, "add", "-A")
        t0 = time.monotonic()
        out = subprocess.run(
            ["git", "commit", "-q", "-m", "x"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
                 "GIT_COMMITTER_EMAIL": "t@e"},
        )  # fmt: skip
        seconds = time.monotonic() - t0
    assert out.returncode == 0 and seconds < 8, (seconds, out.stderr)
    (line,) = out.stderr.strip().splitlines()
    assert "is updating the index" in line and f"`unity-index index --project {root}`" in line


def test_a_time_limit_gives_up_keeping_the_last_index(tmp_path: Path) -> None:
    root = generate(tmp_path / "Game", n=600)
    assert run_cli("index", "--project", str(root)).returncode == 0
    before = read_header(paths_of(root))
    out = run_cli("index", "--full", "--time-limit", "0.1", "--project", str(root))
    assert out.returncode == 2, out.stderr
    assert "not brought up to date within 0.1 s" in out.stderr and "Traceback" not in out.stderr
    assert read_header(paths_of(root))["generation"] == before["generation"]
    assert check_consistency(paths_of(root), root, CONFIG) == []


# -- what a writer killed at the wrong moment leaves -----------------------------------------------


def test_a_header_behind_its_records_is_repaired_by_index(tmp_path: Path) -> None:
    root = small_project(tmp_path)
    update(root, CONFIG)
    paths = paths_of(root)
    behind = paths.header.read_bytes()
    (root / "Assets/Scripts/Shield.cs").write_text("public class Shield {}\n")
    update(root, CONFIG)
    paths.header.write_bytes(behind)  # as if killed between the records' commit and the header's rename
    assert check_consistency(paths, root, CONFIG) == ["header generation 1 != record store generation 2"]
    assert run_cli("index", "--project", str(root)).returncode == 0
    assert check_consistency(paths, root, CONFIG) == []
    # Repaired in place: index.json is checked by its content, not by the integrity fingerprint.
    assert read_header(paths)["generation"] == 2


READER = """
import json, sys, time
from pathlib import Path
from indexer.query.workspace import ProjectIndex
from indexer.config import Config
root, stop, files = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
deadline = time.monotonic() + 120
answers = errors = 0
project = ProjectIndex(root, Config())
while time.monotonic() < deadline and not stop.exists():
    try:
        fresh = project.fresh()
        found = [h for h in fresh.searcher.search("C7", limit=5)]
        n = len(fresh.records.stats())
        answers += bool(found) and n == files
    except Exception as exc:
        errors += 1
        print(repr(exc), file=sys.stderr)
print(json.dumps({"answers": answers, "errors": errors}))
"""


def test_readers_answer_from_the_last_generation_during_full_rebuilds(tmp_path: Path) -> None:
    root = generate(tmp_path / "Game", n=600)
    files = update(root, CONFIG).files
    reader = subprocess.Popen(
        [sys.executable, "-c", READER, str(root), str(tmp_path / "stop"), str(files)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    queries = []
    for _ in range(3):
        update(root, CONFIG, full=True)
        out = run_cli("query", "C7", "--project", str(root), "--json")
        queries.append((out.returncode, bool(out.returncode == 0 and json.loads(out.stdout)["results"])))
    (tmp_path / "stop").touch()
    out, err = reader.communicate(timeout=60)
    result = json.loads(out)
    assert result["answers"] > 10, result
    assert result["errors"] == 0, err
    assert all(q == (0, True) for q in queries), queries
    assert [p.name for p in paths_of(root).root.iterdir() if p.name.startswith("gen-")] == [
        read_header(paths_of(root))["data"]
    ]


def test_an_old_layout_index_is_read_then_replaced_by_a_generation_folder(tmp_path: Path) -> None:
    root = small_project(tmp_path)
    update(root, CONFIG)
    paths = paths_of(root)
    data = paths.root / read_header(paths)["data"]
    for entry in data.iterdir():  # the layout before generation folders: files in the index folder
        entry.rename(paths.root / entry.name)
    data.rmdir()
    header = read_header(paths)
    del header["data"]
    paths.header.write_text(json.dumps(header))
    assert Records(paths).record("Assets/Scripts/Health.cs") is not None
    update(root, CONFIG, full=True)
    assert sorted(p.name for p in paths.root.iterdir()) == [
        "gen-2",
        "index.json",
        "integrity.json",
        "settings.json",
        "write.lock",
    ]
    assert check_consistency(paths, root, CONFIG) == []


# -- per-file budgets ----------------------------------------------------------------------------


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS as Linux enforces it")
def test_a_file_over_its_time_or_memory_budget_is_skipped_and_the_rest_scanned(tmp_path: Path) -> None:
    root = tmp_path / "P"
    (root / "Assets").mkdir(parents=True)
    names = [f"Assets/K{i}.cs" for i in range(300)]
    for n in names:
        (root / n).write_text(f"public class {Path(n).stem} {{ void M() {{ }} }}\n")
    # A scan far over the time budget (a named pipe served once, but a scanner opens none: refused)
    (root / "Assets/Hang.cs").write_bytes(SLOW_CSHARP)
    scene = b"%YAML 1.1\n" + b"".join(
        b"--- !u!1 &%d\nGameObject:\n  m_Name: Object%d\n  m_Component:\n  - component: {fileID: %d}\n" % (i, i, i + 1)
        for i in range(400_000)
    )
    (root / "Assets/Huge.unity").write_bytes(scene)

    def scanned(extra: str, budget: FileBudget) -> dict[str, FileRecord]:
        paths = [*names[:5], extra, *names[5:]]
        jobs = [
            Job(str(root), n, "scene" if n.endswith(".unity") else "csharp", (root / n).stat().st_size, 0, "", 50 << 20)
            for n in paths
        ]
        t0 = time.monotonic()
        results = list(run_jobs(jobs, 2, budget))
        assert time.monotonic() - t0 < 60
        assert [r.record.path for r in results] == paths
        by_path = {r.record.path: r.record for r in results}
        assert all(by_path[n].status == "ok" and by_path[n].symbols for n in names)
        return by_path

    # Its share of memory is ample: the time budget stops it. (SLOW_CSHARP takes 200 MB.)
    slow = scanned("Assets/Hang.cs", FileBudget(seconds=1.0, memory_mb=600))["Assets/Hang.cs"]
    assert (slow.status, slow.note) == ("skipped", "scanning took over 1 s, the time a scanner may take: stopped")
    # Python's MemoryError, wherever the allocation fails: the worker makes the record once the
    # error's frames are freed. (Made inside the `except`, it failed again and the process died,
    # and a process dying near its limit took seconds to exit, past the time budget.)
    huge = scanned("Assets/Huge.unity", FileBudget(seconds=3.0, memory_mb=150))["Assets/Huge.unity"]
    assert (huge.status, huge.note) == ("skipped", "scanning needed more memory than a scanner may use: stopped")


def test_a_file_over_its_share_of_memory_is_scanned_again_alone_with_the_whole_budget(tmp_path: Path) -> None:
    """indexing.md, Per-file bounds: the scanner processes share 640 MB (160 MB each with four,
    one per core on a 4-core machine); a file that needs more than its share is scanned again by
    one process alone with the whole budget. A 30 MB level scene of 70,000 objects (about 250 MB
    to scan) was skipped on any machine with 4 cores or more."""
    from tests.scanner_stress import _HEAD, _object

    scene = _HEAD + "".join(_object(100_000 + 2 * i, 100_001 + 2 * i, f"Obj{i}", 0, 0) for i in range(70_000))
    root = write_project(
        tmp_path / "Game",
        {"Assets/Scenes/Level.unity": scene, "Assets/A.cs": "public class A {}", "unity-index.toml": "workers = 4\n"},
    )
    r = run_cli("index", "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    status = json.loads(run_cli("status", "--json", "--project", str(root)).stdout)
    assert status["skipped"] == []
    described = json.loads(run_cli("describe", "Assets/Scenes/Level.unity", "--json", "--project", str(root)).stdout)
    assert described["status"] == "ok"
    assert sum(s["kind"] == "gameobject" for s in described["symbols"]) == 70_000


def raising_serve(conn) -> None:
    """A scanner loop with a bug: it takes a chunk and raises (run by a worker, by its dotted name)."""
    conn.recv_bytes()
    raise RuntimeError("a bug in the scanner loop")


def test_a_scanner_process_that_fails_is_named_by_how_it_ended() -> None:
    """indexing.md: the file a scanner process was on when it died is skipped with how it ended
    (its loop raised: exit code 1, at once, not after the time budget)."""
    from collections import deque

    from indexer.build.pool import Pool

    job = Job("/nonexistent", "Assets/A.cs", "csharp", 10, 0, "", 50 << 20)
    pool = Pool(1, FileBudget(seconds=60.0, memory_mb=0), f"{__name__}.raising_serve", lambda jobs, sent: b"x")
    try:
        results = list(pool.run(deque([[(0, job)]]), bytes, lambda j, why: (j.path, why)))
    finally:
        pool.close()
    assert results == [(0, ("Assets/A.cs", "scanning stopped: the scanner process ended with exit code 1"))]


def dies_below_400_mb_serve(conn) -> None:
    """A scanner loop whose process dies (SIGSEGV, as tree-sitter's failed allocations end it)
    on every file while its address space is limited below 400 MB; above, it answers the limit."""
    import resource

    soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    limited = soft != resource.RLIM_INFINITY and soft < 400 << 20
    while True:
        for _ in range(int(conn.recv_bytes())):
            if limited:
                os.kill(os.getpid(), signal.SIGSEGV)
            conn.send_bytes(b"%d MB" % (soft >> 20))


@pytest.mark.skipif(sys.platform == "win32", reason="the memory limit is POSIX only")
def test_a_file_whose_scanner_died_at_its_share_is_scanned_again_alone() -> None:
    """pool.Pool: a file whose process died over its share of memory is scanned again by one
    process alone with `alone_mb`, in order with the others; one that fails alone too is lost,
    named by the whole budget."""
    from collections import deque

    from indexer.build.pool import Pool

    jobs = [Job("/nonexistent", f"Assets/{i}.unity", "scene", 10, 0, "", 50 << 20) for i in range(3)]

    def scan(alone_mb: int) -> list:
        pool = Pool(
            2,
            FileBudget(seconds=60.0, memory_mb=200, alone_mb=alone_mb),
            f"{__name__}.dies_below_400_mb_serve",
            lambda chunk, sent: b"%d" % len(chunk),
        )
        try:
            chunks = deque([[(0, jobs[0]), (1, jobs[1])], [(2, jobs[2])]])
            return sorted(pool.run(chunks, bytes, lambda j, why: (j.path, why)))
        finally:
            pool.close()

    assert scan(640) == [(0, b"640 MB"), (1, b"640 MB"), (2, b"640 MB")]
    died = "scanning stopped: the scanner process ended with signal 11, likely over the 200 MB a scanner may use"
    assert scan(0) == [(i, (f"Assets/{i}.unity", died)) for i in range(3)]
    died_alone = died.replace("200 MB", "300 MB")
    assert scan(300) == [(i, (f"Assets/{i}.unity", died_alone)) for i in range(3)]


def _scan_in_workers(root: Path, names: tuple[str, ...], kinds: tuple[str, ...]) -> list[FileRecord]:
    jobs = [Job(str(root), n, k, (root / n).stat().st_size, 0, "", 50 << 20) for n, k in zip(names, kinds, strict=True)]
    return [r.record for r in run_jobs(jobs, 1, FileBudget(seconds=30.0, memory_mb=200))]


def test_a_file_that_runs_its_scanner_out_of_memory_says_so(tmp_path: Path) -> None:
    """An asset whose one document the YAML parser must read (a block scalar) and which holds a
    list of a million entries: the parser's nodes take more than a scanner process may (Python
    raises MemoryError inside the YAML scanner, which must not take it for invalid YAML and keep
    the line reader's reading). The record gives the worker's reason, and the small file in the
    same chunk is still scanned."""
    root = tmp_path / "P"
    (root / "Assets").mkdir(parents=True)
    head = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n  m_Name: Big\n"
    items = "".join(f"  - v{i}\n" for i in range(1_000_000))
    (root / "Assets/Big.asset").write_text(head + "  note: |\n    a block scalar\n  data:\n" + items)
    (root / "Assets/Small.cs").write_text("public class Small { void M() { } }\n")
    results = _scan_in_workers(root, ("Assets/Big.asset", "Assets/Small.cs"), ("asset", "csharp"))
    assert [(r.path, r.status, r.note) for r in results] == [
        ("Assets/Big.asset", "skipped", "scanning needed more memory than a scanner may use: stopped"),
        ("Assets/Small.cs", "ok", ""),
    ]
    assert [s.name for s in results[1].symbols] == ["Small", "M"]


def test_a_csharp_file_that_runs_its_scanner_out_of_memory_says_so(tmp_path: Path) -> None:
    """A C# file of 100 MB, nearly all one comment: the tree is small, but the C# scanner's own
    copies of the text take more than the 200 MB a scanner may use. The scanner lets MemoryError
    through (it would otherwise say "scanner error: MemoryError: "), so the record gives the
    worker's reason."""
    root = tmp_path / "P"
    (root / "Assets").mkdir(parents=True)
    (root / "Assets/Blob.cs").write_bytes(b"public class Blob { }\n/* " + b"word " * 20_000_000 + b"*/\n")
    job = Job(str(root), "Assets/Blob.cs", "csharp", (root / "Assets/Blob.cs").stat().st_size, 0, "", 500 << 20)
    (result,) = run_jobs([job], 1, FileBudget(seconds=60.0, memory_mb=200))
    assert (result.record.status, result.record.note) == ("skipped", OUT_OF_MEMORY)


def test_a_csharp_string_literal_of_megabytes_scans_within_a_scanners_memory(tmp_path: Path) -> None:
    """A one-line file holding a 2 MB string literal (embedded data): reading the literals out
    of it once took more than the 200 MB a scanner may use (the regex kept a backtracking state
    per character). It is scanned whole, and the literal, too long to name an asset, is no ref."""
    root = tmp_path / "P"
    (root / "Assets").mkdir(parents=True)
    (root / "Assets/Blob.cs").write_text('public class Blob { string s = "' + "a" * 2_000_000 + '"; }')
    (root / "Assets/Small.cs").write_text("public class Small { void M() { } }\n")
    results = _scan_in_workers(root, ("Assets/Blob.cs", "Assets/Small.cs"), ("csharp", "csharp"))
    assert [(r.path, r.status, r.note) for r in results] == [
        ("Assets/Blob.cs", "ok", ""),
        ("Assets/Small.cs", "ok", ""),
    ]
    assert [(s.name, s.kind) for s in results[0].symbols] == [("Blob", "class"), ("s", "field")]
    assert [r for r in results[0].refs if r.kind == "string"] == []


def _fake_forkserver_start(monkeypatch, during: Callable[[], None]) -> list[bool]:
    """`forkserver.ensure_running` replaced by `during`; the list says, once it ran, whether
    SIGINT was blocked meanwhile (the mask a fork server started then inherits)."""
    from multiprocessing import forkserver

    blocked: list[bool] = []

    def start() -> None:
        blocked.append(signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set()))
        during()

    monkeypatch.setattr(forkserver, "ensure_running", start)
    return blocked


def test_a_ctrl_c_while_the_fork_server_starts_is_kept_and_raised_once_it_runs(monkeypatch) -> None:
    """`build/pool.py`: the fork server starts with SIGINT blocked, and the indexer's own Ctrl-C
    falling then is acted on once it runs. It used to start with SIGINT ignored, and such a
    Ctrl-C was lost: the build ran on."""
    from indexer.build.pool import _start_forkserver

    ran: list[str] = []

    def during() -> None:
        os.kill(os.getpid(), signal.SIGINT)  # the terminal's Ctrl-C
        time.sleep(0.05)
        ran.append("started")

    blocked = _fake_forkserver_start(monkeypatch, during)
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            _start_forkserver()
        assert ran == ["started"] and blocked == [True]
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        with_ignored = signal.signal(signal.SIGINT, signal.SIG_IGN)  # a process started with Ctrl-C ignored
        _start_forkserver()  # raises nothing
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
        signal.signal(signal.SIGINT, with_ignored)
    finally:
        signal.signal(signal.SIGINT, old)


def test_a_time_limit_reached_while_the_fork_server_starts_interrupts_once_it_runs(monkeypatch) -> None:
    """A limit reached while the fork server started was dropped (`interrupt_main` does nothing
    for an ignored signal), and on a busy machine `index --full --time-limit 0.1` ran on to the
    end and exited 0; it is now kept and acted on as soon as the server runs."""
    from indexer.build.pool import _start_forkserver
    from indexer.cli.indexing import _TimeLimit

    blocked = _fake_forkserver_start(monkeypatch, lambda: time.sleep(0.3))  # the limit passes meanwhile
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt), _TimeLimit(0.05) as expired:
            t0 = time.monotonic()
            _start_forkserver()
        assert expired() and blocked == [True] and time.monotonic() - t0 >= 0.3
    finally:
        signal.signal(signal.SIGINT, old)


def test_a_time_limit_reached_as_the_work_ends_interrupts_inside_the_block_or_not_at_all() -> None:
    """The limit's timer, woken just as the work ended, interrupted whatever ran after the block:
    `index --full --time-limit 0.01` of a small project on a loaded machine exited 130
    ("interrupted") instead of 2 with the command to run again (seen: 63 of 300 such blocks). The
    interrupt now comes from inside the `with` (its entry and exit included) or never, and the
    limit made before the `with` says it expired."""
    from indexer.cli.indexing import _TimeLimit

    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    escaped = 0
    try:
        for _ in range(200):
            try:
                limit = _TimeLimit(0.002)
                try:
                    with limit:
                        _busy(0.002)  # ends as the limit does
                except KeyboardInterrupt:
                    assert limit.expired()  # (also when it came as the timer started)
                    continue
                _busy(0.01)  # what runs next: an interrupt here escaped the limit
            except KeyboardInterrupt:
                escaped += 1
    finally:
        signal.signal(signal.SIGINT, old)
    assert escaped == 0


def _busy(seconds: float) -> None:
    """Hold the interpreter for `seconds` (a sleep would let the timer run at once)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_a_time_limit_works_in_a_process_started_with_ctrl_c_ignored(tmp_path: Path) -> None:
    """A background job or a hook run by a tool starts with SIGINT ignored; the limit, an
    interrupt of the main thread, was dropped there and `index --time-limit` ran to its end."""
    root = generate(tmp_path / "Game", n=600)
    assert run_cli("index", "--project", str(root)).returncode == 0
    before = read_header(paths_of(root))
    out = subprocess.run(
        [sys.executable, "-m", "indexer.cli", "index", "--full", "--time-limit", "0.1", "--project", str(root)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    assert out.returncode == 2, out.stderr
    assert "not brought up to date within 0.1 s" in out.stderr and "Traceback" not in out.stderr
    assert read_header(paths_of(root))["generation"] == before["generation"]


def test_the_ctrl_c_tests_hold_in_a_test_run_started_with_ctrl_c_ignored() -> None:
    """`tests/conftest.py`: pytest started in the background (`pytest &` from a script) ignores
    Ctrl-C, and the commands a test starts inherited that, so a test sending them Ctrl-C failed
    (five did in a background run of the suite)."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            f"{__file__}::test_ctrl_c_ends_a_wait_for_the_lock_at_once",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    assert out.returncode == 0 and "2 passed" in out.stdout, out.stdout[-2000:]
