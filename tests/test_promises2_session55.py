"""Promises of docs/indexing.md ("Keeping the index fresh", "Guarantees", "Crash safety and
concurrency"), docs/editor-bridge.md, docs/architecture.md and the docstrings of store/, changes/
and build/ that no test held (session 55's second audit): each names the sentence it checks, and
was seen failing with the code that keeps it broken (the commit messages say how)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from indexer.changes import diff
from indexer.cli.main import main

from .conftest import REPO, run_cli, write_project
from .json_http import Dripping, serving_editor

OLD_NS = 499_162_500 * 10**9  # a modification time long settled (no file is racily clean)


def _records_db(root: Path) -> sqlite3.Connection:
    """The record store of the index `root` has, the generation its header names."""
    index = root / "Library/UnityIndex"
    data = json.loads((index / "index.json").read_text())["data"]
    return sqlite3.connect(index / data / "records.db")


def _index_json(root: Path) -> dict:
    r = run_cli("index", "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


# -- docs/indexing.md, "Keeping the index fresh" -------------------------------------------------


def test_a_chmod_of_every_file_costs_each_one_read_at_the_next_update_and_none_after(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """indexing.md: "A `chmod -R` or `chown -R` (a new ctime, the content kept) costs each file one
    read, at the next update, which records it as checked." A texture, recorded by its stat
    alone, is never read; nothing is rescanned and no answer changes (the generation stays)."""
    files = {f"Assets/S{i}.cs": f"public class S{i} {{ }}\n" for i in range(3)} | {"Assets/Hero.png": b"\x89PNG"}
    root = write_project(tmp_path / "P", files)
    for rel in files:
        os.utime(root / rel, ns=(OLD_NS, OLD_NS))
    project = ["--project", str(root)]
    assert main(["index", "--quiet", *project]) == 0
    read: list[str] = []
    real = diff.content_differs
    monkeypatch.setattr(diff, "content_differs", lambda r, rel, *a: read.append(rel) or real(r, rel, *a))
    time.sleep(0.05)  # the chmod's ctime is past the update's start whatever the clock's tick
    for rel in files:
        (root / rel).chmod(0o600)
    capsys.readouterr()
    assert main(["index", "--json", *project]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert sorted(read) == ["Assets/S0.cs", "Assets/S1.cs", "Assets/S2.cs"]
    assert (stats["scanned"], stats["changed"], stats["touched"], stats["generation"]) == (0, 0, 0, 1)
    read.clear()
    assert main(["index", "--json", *project]) == 0
    assert read == []  # recorded as checked: the next update reads none of them again
    assert json.loads(capsys.readouterr().out)["generation"] == 1


# -- docs/indexing.md, "Guarantees" ---------------------------------------------------------------


def _garble_a_segment_in_place(root: Path) -> None:
    """A byte of a full-text segment flipped with the file's size, mtime and inode kept (a bit
    flipped on disk): the writer's fingerprint still matches it."""
    store = sorted((root / "Library/UnityIndex").glob("gen-*/tantivy/*.store"))[0]
    data, st = bytearray(store.read_bytes()), store.stat()
    data[len(data) // 2] ^= 0xFF
    with store.open("r+b") as f:
        f.write(bytes(data))
    os.utime(store, ns=(st.st_atime_ns, st.st_mtime_ns))


@pytest.mark.parametrize("reader", [("status", "--check"), ("doctor",)])
def test_damage_status_check_or_doctor_finds_is_rebuilt_by_the_next_index(tmp_path: Path, reader: tuple) -> None:
    """indexing.md: "On the command line a reader, `index --check`, `status --check` or `doctor`
    that finds damage behind a matching fingerprint ... drops the fingerprint, so the `index` it
    asks for runs the full check and rebuilds" (tests held a query, `describe` and `index
    --check`). After either, `index` says it rebuilt the damaged index, and the check passes."""
    files = {f"Assets/S{i}.cs": f"public class S{i} {{ public int health{i}; }}\n" for i in range(30)}
    root = write_project(tmp_path / "P", files)
    project = ("--project", str(root))
    assert run_cli("index", "--quiet", *project).returncode == 0
    _garble_a_segment_in_place(root)
    found = run_cli(*reader, *project)
    assert found.returncode == 1 and "is damaged" in found.stdout, (found.stdout, found.stderr)
    assert not (root / "Library/UnityIndex/integrity.json").exists()
    rebuilt = run_cli("index", *project)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert rebuilt.stderr.startswith(f"the index of {root} was damaged ("), rebuilt.stderr
    assert rebuilt.stderr.splitlines()[0].endswith("): rebuilt it"), rebuilt.stderr
    assert run_cli(*reader, *project).returncode == 0


# -- docs/indexing.md, "Crash safety and concurrency" -------------------------------------------

PHASES = ["walk", "scan_wait", "write", "roles", "adjacency", "commit", "remember", "read", "scan", "documents"]


def test_every_update_reports_the_ten_documented_phases_in_their_order(tmp_path: Path) -> None:
    """indexing.md, "Where an update's time goes": "Every update records its phases in
    `UpdateStats.phases` (in `index --json`): ... `walk`, `scan_wait`, `write`, `roles`,
    `adjacency`, `commit` and `remember`; and the scanner processes' CPU seconds in `read`, `scan`
    and `documents`"; build/phases.py: "The order phases happen in; what `index --json` ... list
    them by". A cold build with scanner processes, an edit and a no-op update each give the ten,
    in that order (a phase that did not run: 0.0). Before, a no-op update gave six, and every
    update listed them in the order they first ran (`scan_wait` first, `walk` ninth)."""
    files = {f"Assets/S{i}.cs": f"public class S{i} {{ public int f{i}; }}\n" for i in range(210)}
    root = write_project(tmp_path / "P", files)
    cold = _index_json(root)
    assert (cold["full"], cold["scanned"]) == (True, 210)  # over 200 files: scanner processes
    (root / "Assets/S1.cs").write_text("public class S1 { public int g; }\n")
    edit = _index_json(root)
    assert edit["changed"] == 1
    noop = _index_json(root)
    assert (noop["scanned"], noop["changed"], noop["touched"]) == (0, 0, 0)
    for stats in (cold, edit, noop):
        assert list(stats["phases"]) == PHASES, stats["phases"]
        assert all(isinstance(v, float) and v >= 0 for v in stats["phases"].values())
    assert noop["phases"]["scan"] == noop["phases"]["scan_wait"] == 0.0  # nothing was scanned
    assert cold["phases"]["scan"] > 0


def _blob_dictionaries(root: Path) -> tuple[dict[str, bytes], dict[str, int]]:
    """The inflated dictionaries by group, and each C# file's blob's first byte (its dictionary)."""
    conn = _records_db(root)
    try:
        dicts = {g: zlib.decompress(d) for _, g, d in conn.execute("SELECT id, grp, dict FROM zdicts")}
        ids = {g: i for i, g, _ in conn.execute("SELECT id, grp, dict FROM zdicts")}
        firsts = dict(
            conn.execute("SELECT f.path, substr(b.record, 1, 1) FROM files f JOIN blobs b ON b.file_id = f.id")
        )
    finally:
        conn.close()
    return dicts, {p: b[0] for p, b in firsts.items()} | {"@" + g: i for g, i in ids.items()}


def test_a_kinds_dictionary_is_made_from_the_first_24_blobs_one_update_stored_at_most_32_kb(tmp_path: Path) -> None:
    """indexing.md, "Record store layout": "a preset dictionary per kind ... made from the first 24
    blobs of that kind one update stored (its last 32 KB) ... The samples are not kept between
    updates" (it said "the index stored": an index grown by small updates never had one). 23 C#
    files make no `csharp` dictionary (every blob says 0), nor does a 24th added by an update;
    a rebuild makes one, which the 24th file's own blob is deflated with; 24 records of about 2 KB
    make one of exactly 32,768 bytes."""
    small = {f"Assets/S{i:02}.cs": f"public class S{i:02} {{ }}\n" for i in range(23)}
    root = write_project(tmp_path / "P", small)
    assert run_cli("index", "--quiet", "--project", str(root)).returncode == 0
    dicts, firsts = _blob_dictionaries(root)
    assert "csharp" not in dicts and {firsts[p] for p in small} == {0}
    (root / "Assets/S23.cs").write_text("public class S23 { }\n")
    assert run_cli("index", "--quiet", "--project", str(root)).returncode == 0
    dicts, firsts = _blob_dictionaries(root)
    assert "csharp" not in dicts and firsts["Assets/S23.cs"] == 0
    assert run_cli("index", "--full", "--quiet", "--project", str(root)).returncode == 0
    dicts, firsts = _blob_dictionaries(root)
    assert len(dicts["csharp"]) < 32_768 and firsts["Assets/S23.cs"] == firsts["@csharp"] > 0
    assert {firsts[p] for p in small} == {0}  # stored before it was made
    fields = " ".join(f"public int longFieldName{j};" for j in range(80))  # about 2 KB a record
    big = {f"Assets/B{i:02}.cs": f"public class B{i:02} {{ {fields} }}\n" for i in range(24)}
    root = write_project(tmp_path / "Q", big)
    assert run_cli("index", "--quiet", "--project", str(root)).returncode == 0
    dicts, _ = _blob_dictionaries(root)
    assert len(dicts["csharp"]) == 32_768


def test_scanner_processes_get_60_s_a_file_and_an_equal_share_of_640_mb(tmp_path: Path, monkeypatch) -> None:
    """indexing.md, "Per-file bounds": "A scanner process may spend 60 s on one file, and on POSIX
    its address space is limited (RLIMIT_AS) to 640 MB shared among the scanner processes (320 MB
    each with two) ... A file over its process's share of memory is first scanned again by one
    process alone with the whole 640 MB"; "At most 4 run at once". The budget a real `index`
    gives its pool, for 1, 2, 4 and 8 configured workers (tests held the pool with budgets of
    their own, and `RLIMIT_AS` set from one, not the numbers an index uses)."""
    from indexer.build import workers
    from indexer.build.pool import FileBudget

    given: list[tuple[int, FileBudget]] = []
    real = workers.Pool
    monkeypatch.setattr(workers, "Pool", lambda n, budget, *rest: given.append((n, budget)) or real(n, budget, *rest))
    root = write_project(tmp_path / "P", {f"Assets/S{i}.cs": f"public class S{i} {{ }}\n" for i in range(210)})
    for n in (1, 2, 4, 8):
        (root / "unity-index.toml").write_text(f"workers = {n}\n")
        assert main(["index", "--full", "--quiet", "--project", str(root)]) == 0
    assert given == [
        (1, FileBudget(seconds=60.0, memory_mb=640, alone_mb=640)),
        (2, FileBudget(seconds=60.0, memory_mb=320, alone_mb=640)),
        (4, FileBudget(seconds=60.0, memory_mb=160, alone_mb=640)),
        (4, FileBudget(seconds=60.0, memory_mb=160, alone_mb=640)),
    ]


# -- docs/architecture.md ------------------------------------------------------------------------

_PROBE_PLUGIN = """import os
from pathlib import Path

with Path(os.environ["PROBE_MARK"]).open("a") as mark:
    mark.write("loaded\\n")


def register(sub, api):
    p = sub.add_parser("probe", help="a probe plugin")
    p.set_defaults(func=lambda args, console: print("probed") or 0)
"""


def test_command_plugins_are_loaded_only_for_other_commands_help_and_completion(tmp_path: Path) -> None:
    """architecture.md, "Start-up cost": "Command plugins are loaded only for commands that are not
    built in (and for `--help` and `completion`)". A package on the path contributing `probe`
    (its module notes each import): `status` and `query` never import it; `--help`,
    `completion bash` and `probe` itself do, and `probe` runs."""
    site = tmp_path / "site"
    (site / "probe_plugin-1.0.dist-info").mkdir(parents=True)
    (site / "probe_plugin-1.0.dist-info/METADATA").write_text(
        "Metadata-Version: 2.1\nName: probe-plugin\nVersion: 1.0\n"
    )
    (site / "probe_plugin-1.0.dist-info/entry_points.txt").write_text(
        "[unity_index.commands]\nprobe = probe_plugin:register\n"
    )
    (site / "probe_plugin.py").write_text(_PROBE_PLUGIN)
    root = write_project(tmp_path / "P", {"Assets/A.cs": "public class Alpha { }\n"})
    mark = tmp_path / "mark"
    env = {
        **os.environ,
        "NO_COLOR": "1",
        "PYTHONPATH": os.pathsep.join((str(REPO), str(site))),
        "PROBE_MARK": str(mark),
    }

    def loads(*args: str) -> tuple[int, bool, str]:
        mark.unlink(missing_ok=True)
        r = subprocess.run([sys.executable, "-m", "indexer.cli", *args], capture_output=True, text=True, env=env)
        return r.returncode, mark.exists(), r.stdout

    assert loads("index", "--quiet", "--project", str(root))[:2] == (0, False)
    assert loads("status", "--project", str(root))[:2] == (0, False)
    assert loads("query", "alpha", "--project", str(root))[:2] == (0, False)
    code, loaded, out = loads("--help")
    assert (code, loaded) == (0, True) and "probe" in out
    assert loads("completion", "bash")[:2] == (0, True)
    assert loads("probe") == (0, True, "probed\n")


# -- docs/editor-bridge.md -----------------------------------------------------------------------


@pytest.mark.parametrize(("size", "refused"), [(256, False), (257, True)])
def test_a_heartbeat_token_of_256_characters_is_taken_and_one_of_257_refused(
    tmp_path: Path, size: int, refused: bool
) -> None:
    """editor-bridge.md, the heartbeat's `token`: "A token that cannot be sent in a header (empty,
    longer than 256, or not visible ASCII) makes the file malformed (`bad_heartbeat`)". Tests
    held an empty one and a control character, not the length: `doctor` fails a token of 257
    characters, `editor tools` exits 2 saying so; one of 256 passes the heartbeat check."""
    root = write_project(tmp_path / "P", {"Assets/A.cs": "public class A { }\n"})
    beat = {"protocol": 1, "port": 4242, "token": "t" * size, "pid": os.getpid(), "state": "ready"}
    heartbeat = root / "Library/UnityIndex/editor.json"
    heartbeat.parent.mkdir(parents=True)
    heartbeat.write_text(json.dumps({**beat, "updated_at": time.time()}))
    r = run_cli("doctor", "--json", "--project", str(root))
    check = next(c for c in json.loads(r.stdout)["checks"] if c["name"] == "editor-heartbeat")
    said = f"{heartbeat}: the token is not 1-256 visible ASCII characters"
    if refused:
        assert (check["status"], check["detail"]) == ("fail", f"malformed: {said}")
        tools = run_cli("editor", "tools", "--project", str(root))
        assert (tools.returncode, tools.stdout, tools.stderr) == (2, "", f"error: {said}\n")
    else:
        assert check["status"] == "pass", check


def test_editor_tools_gives_up_on_a_dripping_bridge_after_3_s_plus_5(tmp_path: Path) -> None:
    """editor-bridge.md, the client's rules: "an answer is read whole within the call's time plus
    5 s (3 s + 5 for `/v1/ping` and `/v1/tools`)". Tests timed a client made with a 0.5 s call
    time, under the 3 s cap, so the cap itself was held by nothing: `editor tools` (the default
    30 s call time) on a bridge dribbling its answer ends after 8 s, exit 2, saying so."""
    root = write_project(tmp_path / "P", {"Assets/A.cs": "public class A { }\n"})
    with serving_editor(root, Dripping, "a" * 64):
        time.sleep(0.3)  # the first heartbeat is written
        t0 = time.monotonic()
        r = run_cli("editor", "tools", "--project", str(root))
        seconds = time.monotonic() - t0
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == (
        "error: no answer from the editor within 8 s: its bridge is hung; look at the Unity editor and its"
        " console, and restart it if it stays\n"
    )
    assert 7.5 < seconds < 20, seconds
