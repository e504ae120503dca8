"""docs/cli.md, promise by promise: what the other CLI tests did not hold the command line to.

Each test quotes the sentence it checks. Read-only commands share the session's indexed fixture;
commands that write get a small project of their own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from . import bridge_host
from .conftest import CLI_ENV, REPO, run_cli, start_cli, write_project

# The live-editor stand-in's fixtures (a Mono host built once per session), by name.
host_exe, make_host, host = bridge_host.host_exe, bridge_host.make_host, bridge_host.host

# docs/cli.md, `index --json`: the example object's fields, in order, then "The object also holds
# `repaired` ..., `upgraded` ... and `phases`".
INDEX_FIELDS = [
    "schema_version", "project", "full", "files", "scanned", "added", "changed", "deleted", "moved", "touched",
    "skipped", "conflicted", "bytes_scanned", "seconds", "generation", "walked", "repaired", "upgraded", "phases",
]  # fmt: skip
OLD = 1_600_000_000  # an mtime far from "racily clean" (docs/indexing.md), so a touch is only a touch


def _json(*args: str) -> dict:
    r = run_cli(*args, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def _aged(root: Path) -> Path:
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, (OLD, OLD))
    return root


def test_every_data_command_prints_one_json_object_on_one_line(indexed_fixture: Path, tmp_path: Path) -> None:
    """docs/cli.md: "Every command whose output is data takes `--json` (one JSON object on one line with
    `"schema_version": 1`...)"."""
    project = ("--project", str(indexed_fixture))
    scratch = write_project(tmp_path / "P", {"Assets/A.cs": "class Alpha {}"})
    subprocess.run(["git", "init", "-q", str(scratch)], check=True)
    commands = [
        ("query", "player health", *project),
        ("context", "player health", "--budget", "500", *project),
        ("refs", "PlayerHealth", *project),
        ("describe", "Assets/Prefabs/Player.prefab", *project),
        ("status", *project),
        ("index", "--check", *project),
        ("doctor", *project),
        ("index", "--project", str(scratch)),
        ("hook", "install", "--project", str(scratch)),
        ("agents", "install", "--dry-run", "--project", str(scratch)),
        ("mcp", "install", "--client", "cursor", "--dry-run", "--project", str(scratch)),
    ]
    for args in commands:
        r = run_cli(*args, "--json")
        assert r.returncode == 0, (args, r.stderr)
        assert r.stdout.endswith("\n") and r.stdout.count("\n") == 1, args
        assert json.loads(r.stdout)["schema_version"] == 1, args


def test_errors_under_json_are_one_error_line_and_stdout_stays_empty(indexed_fixture: Path, tmp_path: Path) -> None:
    """docs/cli.md: "errors stay text on stderr, and stdout is then empty"; "Errors say what is wrong and what to
    do next, as one `error: ...` line on stderr, without a traceback"."""
    project = ("--project", str(indexed_fixture))
    cases = [
        ("query", "  ", *project),
        ("query", "x", "--limit", "0", *project),
        ("query", "x", "--kind", "nope", *project),
        ("context", "x", "--budget", "0", *project),
        ("refs", "NoSuchThing", *project),
        ("describe", "Assets/Nope.cs", *project),
        ("status", "--project", str(tmp_path / "empty")),
        ("index", "--check", "--project", str(tmp_path / "missing")),
        # contributed commands "follow the same rules"
        ("editor", "tools", "--project", str(tmp_path / "P")),
        ("mcp", "install", "--client", "claude-desktop", "--scope", "project", "--project", str(tmp_path / "P")),
        ("agents", "install", "--project", str(tmp_path / "missing")),
    ]
    write_project(tmp_path / "P", {})
    (tmp_path / "empty").mkdir()
    for args in cases:
        r = run_cli(*args, "--json")
        assert (r.returncode, r.stdout) == (2, ""), args
        assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, (args, r.stderr)


def test_a_malformed_command_line_shows_the_usage_then_one_error_line(tmp_path: Path) -> None:
    """argparse's own refusals (a missing argument, a bad value) print the command's usage, then
    one `unity-index COMMAND: error: ...` line: exit 2, nothing on stdout, no traceback."""
    r = run_cli("query", "--json", "--project", str(tmp_path))
    assert (r.returncode, r.stdout) == (2, "")
    lines = r.stderr.splitlines()
    assert lines[0].startswith("usage: unity-index query ")
    assert lines[-1] == "unity-index query: error: the following arguments are required: text"
    assert [line for line in lines if "error:" in line] == [lines[-1]] and "Traceback" not in r.stderr


def test_index_json_has_the_documented_fields_and_counts(tmp_path: Path) -> None:
    """`index --json`: the documented object, field by field; `touched`: "files whose stat changed
    but content did not"; `moved` counts "files moved unchanged"; `--full` rebuilds from scratch."""
    root = _aged(write_project(tmp_path / "P", {f"Assets/S{i}.cs": f"public class S{i} {{}}" for i in range(4)}))
    project = ("--project", str(root))
    first = _json("index", *project)
    assert list(first) == INDEX_FIELDS
    assert {k: v for k, v in first.items() if k not in ("seconds", "phases", "bytes_scanned")} == {
        "schema_version": 1, "project": str(root.resolve()), "full": True, "files": 4, "scanned": 4, "added": 4,
        "changed": 0, "deleted": 0, "moved": 0, "touched": 0, "skipped": 0, "conflicted": [], "generation": 1,
        "walked": True, "repaired": "", "upgraded": 0,
    }  # fmt: skip
    assert first["bytes_scanned"] == sum(len(f"public class S{i} {{}}") for i in range(4))
    assert isinstance(first["seconds"], float) and all(isinstance(v, float) for v in first["phases"].values())

    def counts(stats: dict) -> tuple:
        return tuple(stats[k] for k in ("full", "files", "scanned", "added", "changed", "deleted", "moved", "touched"))

    os.utime(root / "Assets/S0.cs", (OLD + 10, OLD + 10))  # touched: same content
    (root / "Assets/S1.cs").write_text("public class S1 { int changed; }")
    os.utime(root / "Assets/S1.cs", (OLD + 10, OLD + 10))
    (root / "Assets/S2.cs").unlink()
    (root / "Assets/Moved").mkdir()
    os.rename(root / "Assets/S3.cs", root / "Assets/Moved/S3.cs")
    second = _json("index", *project)
    assert counts(second) == (False, 3, 1, 0, 1, 1, 1, 1), second
    assert second["generation"] == 2
    full = _json("index", "--full", *project)
    assert counts(full) == (True, 3, 3, 3, 0, 0, 0, 0) and full["generation"] == 3, full


def test_a_time_limit_of_0_is_no_limit(tmp_path: Path) -> None:
    """docs/cli.md: "`--time-limit 0`: no limit"."""
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class Alpha {}"})
    r = run_cli("index", "--time-limit", "0", "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    assert (json.loads(r.stdout)["files"], r.stderr) == (1, "")


def test_refs_json_has_the_documented_fields(indexed_fixture: Path, tmp_path: Path) -> None:
    """`refs --json`: `{"schema_version": 1, "target": {"kind", "name", "path", "guid", "member",
    "types", "note"}, "total": N, "usages": [{"path", "line", "where": "code"|"asset", "kind",
    "context", "detail", "resolved", "via"}]}`; "an empty usage list" is success (exit 0)."""
    data = _json("refs", "PlayerHealth", "--limit", "0", "--project", str(indexed_fixture))
    assert list(data) == ["schema_version", "target", "total", "usages"]
    assert list(data["target"]) == ["kind", "name", "path", "guid", "member", "types", "note"]
    # a type declared in one file names it and its GUID (both were empty until session 26)
    guid = (indexed_fixture / "Assets/Scripts/Player/PlayerHealth.cs.meta").read_text().split("guid: ")[1].split()[0]
    assert (data["target"]["path"], data["target"]["guid"]) == ("Assets/Scripts/Player/PlayerHealth.cs", guid)
    assert data["total"] == len(data["usages"]) > 0
    for usage in data["usages"]:
        assert list(usage) == ["path", "line", "where", "kind", "context", "detail", "resolved", "via"]
    assert {u["where"] for u in data["usages"]} == {"code", "asset"}
    split = "public partial class Split {}"
    root = write_project(
        tmp_path / "P", {"Assets/Lonely.cs": "public class Lonely {}", "Assets/A.cs": split, "Assets/B.cs": split}
    )
    r = run_cli("refs", "Lonely", "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    assert (json.loads(r.stdout)["total"], json.loads(r.stdout)["usages"]) == (0, [])
    assert (json.loads(r.stdout)["target"]["path"], json.loads(r.stdout)["target"]["guid"]) == ("Assets/Lonely.cs", "")
    parts = json.loads(run_cli("refs", "Split", "--json", "--project", str(root)).stdout)["target"]
    assert parts["path"] == ""  # two files declare it: no one path


def test_a_negative_refs_limit_is_a_usage_error(indexed_fixture: Path) -> None:
    """`refs`: "`--limit` (default 200; 0 = all)"; a bad value is exit 2 ("a bad option or
    value"). `--limit -1` listed every usage but the last (a Python slice), `-2` all but two."""
    for limit in ("-1", "-200"):
        r = run_cli("refs", "PlayerHealth", "--limit", limit, "--json", "--project", str(indexed_fixture))
        assert (r.returncode, r.stdout, r.stderr) == (2, "", "error: --limit must be 0 (every usage) or more\n")


def test_describe_and_status_json_have_the_documented_fields(indexed_fixture: Path) -> None:
    """`describe --json`: `{"schema_version": 1, "path", "kind", "guid", "status", "note", "text",
    "uses": [{"path", "edge"}], "used_by": [{"path", "edge"}], "symbols": [...], "refs": [...]}`;
    `status --json`: `{"schema_version": 1, "project", "index_dir", "indexed", "generation",
    "files", "by_kind", "partial", "partial_files", "skipped", "stale_files", "index_bytes",
    "damaged"}`."""
    project = ("--project", str(indexed_fixture))
    desc = _json("describe", "Assets/Prefabs/Player.prefab", *project)
    assert list(desc) == [
        "schema_version", "path", "kind", "guid", "status", "note", "text", "uses", "used_by", "symbols", "refs",
    ]  # fmt: skip
    assert desc["uses"] and desc["used_by"]
    assert all(list(edge) == ["path", "edge"] for edge in desc["uses"] + desc["used_by"])
    status = _json("status", *project)
    assert list(status) == [
        "schema_version", "project", "index_dir", "indexed", "generation", "files", "by_kind", "partial",
        "partial_files", "skipped", "stale_files", "index_bytes", "damaged",
    ]  # fmt: skip
    assert status["index_dir"] == str(indexed_fixture / "Library/UnityIndex") and status["damaged"] == ""


def test_context_budget_defaults_to_8000(indexed_fixture: Path) -> None:
    """docs/cli.md: "never longer than `--budget` tokens (default 8000)"."""
    pack = _json("context", "player takes damage", "--project", str(indexed_fixture))
    assert pack["budget"] == 8000 and 2000 < pack["tokens"] <= 8000


def test_a_hit_without_declarations_is_at_line_0(tmp_path: Path) -> None:
    """`query --json`: "`line` 0 when the file has no declarations"."""
    root = write_project(tmp_path / "P", {"Assets/Notes.cs": "// the dragon lair is under the keep\n"})
    hits = _json("query", "dragon lair", "--project", str(root))["results"]
    assert [(h["path"], h["line"]) for h in hits] == [("Assets/Notes.cs", 0)]


def test_past_ten_projects_the_error_names_the_first_five(tmp_path: Path) -> None:
    """docs/cli.md: "past ten ... the command exits 2 and names the first five, to give one of them"."""
    folder = tmp_path / "Projects"
    for i in range(11):
        write_project(folder / f"Game{i:02d}", {})
    r = run_cli("status", "--project", str(folder))
    assert r.returncode == 2
    named = ", ".join(str(folder / f"Game{i:02d}") for i in range(5))
    assert f"(more than 10 answered together): {named}, ...; give one of them\n" in r.stderr, r.stderr
    assert "Game05" not in r.stderr


def test_editor_call_args_must_be_a_json_object(tmp_path: Path) -> None:
    """`editor call`: "`--args` is a JSON object (else exit 2)"."""
    root = write_project(tmp_path / "P", {})
    for value, message in (
        ("[1, 2]", "error: --args must be a JSON object, e.g. '{}'\n"),
        ("{oops", "error: --args is not valid JSON: Expecting property name enclosed in double quotes"),
    ):
        r = run_cli("editor", "call", "scene_hierarchy", "--args", value, "--project", str(root))
        assert (r.returncode, r.stdout) == (2, "") and r.stderr.startswith(message), r.stderr


def test_a_command_started_with_stdout_closed_still_runs(tmp_path: Path) -> None:
    """docs/cli.md: "A standard stream closed when the command starts ... is opened on the null device: the
    command runs, and what it would print there is dropped"."""
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class Alpha {}"})
    r = subprocess.run(
        [sys.executable, "-m", "indexer.cli", "index", "--json", "--project", str(root)],
        stderr=subprocess.PIPE, text=True, env={**os.environ, **CLI_ENV}, cwd=REPO, timeout=120,
        preexec_fn=lambda: os.close(1),
    )  # fmt: skip
    assert (r.returncode, r.stderr) == (0, "")
    assert _json("status", "--project", str(root))["files"] == 1


def test_watch_json_batches_are_index_json_plus_events_and_paths(tmp_path: Path) -> None:
    """`watch --json`: "one line per applied batch: the `index --json` fields plus `events` ...
    and `paths` (the project paths the batch's events named, sorted; `null` when a folder changed
    and the project was walked)"; it starts with "first an update"."""
    from .test_watch import eventually, watching

    root = write_project(tmp_path / "P", {"Assets/A.cs": "public class Alpha {}"})
    proc = start_cli("watch", "--json", "--project", str(root))
    batches: list[dict] = []
    threading.Thread(target=lambda: [batches.append(json.loads(x)) for x in proc.stdout], daemon=True).start()
    try:
        watching(proc)  # "first an update": the project had no index
        assert _json("status", "--project", str(root))["files"] == 1
        (root / "Assets/B.cs").write_text("public class Beta {}")
        (root / "Assets/C.cs").write_text("public class Gamma {}")
        assert eventually(lambda: sum(b["added"] for b in batches) == 2, 30), batches
        (tmp_path / "Folder").mkdir()  # a folder moved in, holding a file: a walk that adds it
        (tmp_path / "Folder/D.cs").write_text("public class Delta {}")
        (tmp_path / "Folder").rename(root / "Assets/Folder")  # (an empty one changes nothing: no line)
        assert eventually(lambda: any(b["paths"] is None for b in batches), 30), batches
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0
    first = batches[0]
    assert sorted(first) == sorted([*INDEX_FIELDS, "events", "paths"]), list(first)
    assert first["project"] == str(root.resolve()) and first["walked"] is False
    assert isinstance(first["events"], int) and first["events"] >= 1
    named = [p for b in batches if b["paths"] for p in b["paths"]]
    assert sorted(named) == ["Assets/B.cs", "Assets/C.cs"]
    assert all(b["paths"] == sorted(b["paths"]) for b in batches if b["paths"])
    walked = next(b for b in batches if b["paths"] is None)
    assert walked["walked"] is True


def test_doctor_runs_the_documented_checks_and_names_each_project_of_a_folder(
    indexed_fixture: Path, tmp_path: Path
) -> None:
    """docs/cli.md's table of `doctor` checks, in its order; "With a folder of several projects,
    the checks after `project` are repeated per project and each `detail` starts with the project's
    name" (`project` itself names them all, once)."""
    documented = [
        "python", "tree-sitter", "tree-sitter-c-sharp", "tantivy", "msgspec", "ruamel.yaml", "watchdog", "mcp",
        "project", "config", "index", "index-intact", "index-current", "index-consistent", "lfs-content", "meta-files",
        "git-hooks",
        "editor-heartbeat", "editor-reachable", "mcp-clients",
    ]  # fmt: skip
    data = _json("doctor", "--project", str(indexed_fixture))
    assert [c["name"] for c in data["checks"]] == documented
    folder = tmp_path / "Games"
    for name in ("Alpha", "Beta"):
        write_project(folder / name, {"Assets/A.cs": "class A {}"})
    r = run_cli("doctor", "--json", "--project", str(folder))
    checks = json.loads(r.stdout)["checks"]
    assert [c["detail"] for c in checks if c["name"] == "project"] == [
        f"2 projects: {folder / 'Alpha'} (Unity version unknown: no ProjectSettings/ProjectVersion.txt);"
        f" {folder / 'Beta'} (Unity version unknown: no ProjectSettings/ProjectVersion.txt)"
    ]
    after = [(c["name"], c["detail"].split(":")[0]) for c in checks if c["name"] in documented[9:]]
    shown = ["config", "index", "git-hooks", "editor-heartbeat", "editor-reachable", "mcp-clients"]  # no index
    assert after == [(name, "Alpha") for name in shown] + [(name, "Beta") for name in shown], after


def test_index_check_lists_what_differs_in_text(tmp_path: Path) -> None:
    """`index --check` "prints the added, changed and deleted files, and exits 1 when the index is
    missing or stale, 0 when it is current"."""
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class A {}", "Assets/C.cs": "class C {}"})
    project = ("--project", str(root))
    missing = run_cli("index", "--check", *project)
    assert (missing.returncode, missing.stdout) == (1, f"{root.resolve()}: no index yet; run `unity-index index`\n")
    assert run_cli("index", *project).returncode == 0
    current = run_cli("index", "--check", *project)
    assert (current.returncode, current.stdout) == (0, f"{root.resolve()}: up to date\n")
    (root / "Assets/B.cs").write_text("class B {}")
    (root / "Assets/A.cs").write_text("class A2 {}")
    (root / "Assets/C.cs").unlink()
    stale = run_cli("index", "--check", *project)
    assert (stale.returncode, stale.stdout.splitlines()) == (
        1,
        [
            f"{root.resolve()}: stale, 3 files differ from the index; run `unity-index index`",
            "  added    Assets/B.cs",
            "  changed  Assets/A.cs",
            "  deleted  Assets/C.cs",
        ],
    )


def test_a_time_limit_reached_is_one_line_naming_the_command_to_run(tmp_path: Path) -> None:
    """`--time-limit SECONDS` "gives up after that long in all (exit 2, one line naming the command
    to run ...)". (That the index keeps its last committed state: tests/test_waits.py.)"""
    from .test_crash import generate

    root = generate(tmp_path / "Game", n=600)
    assert run_cli("index", "--project", str(root)).returncode == 0
    r = run_cli("index", "--full", "--time-limit", "0.1", "--project", str(root))
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == (
        f"error: the index of {root} was not brought up to date within 0.1 s (--time-limit; it keeps its last"
        f" state): run `unity-index index --full --project {root}`\n"
    )


def test_serve_refuses_an_address_that_is_not_this_machines(indexed_fixture: Path) -> None:
    """`serve`: "a port in use, or an address that is not this machine's, is exit 2 before the
    server starts" (192.0.2.1 is TEST-NET-1, never a local address)."""
    r = run_cli(
        "serve", "--transport", "http", "--host", "192.0.2.1", "--allow-remote", "--token", "0123456789abcdef0123",
        "--project", str(indexed_fixture),
    )  # fmt: skip
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == (
        "error: cannot listen on 192.0.2.1 port 8765: Cannot assign requested address; choose another --port"
        " (or --host)\n"
    )


def test_mcp_install_and_agents_json_have_the_documented_fields(tmp_path: Path) -> None:
    """`mcp install --json`: `{"schema_version": 1, "client", "scope", "path", "name", "command",
    "changed", "written", "replaced", "notes", "content"}`; `agents --json`: `{"schema_version": 1,
    "action", "files": [{"path", "change", "note"}], "tokens"}` (`change`: added, updated,
    unchanged, skipped, removed)."""
    root = write_project(tmp_path / "P", {})
    data = _json("mcp", "install", "--client", "cursor", "--dry-run", "--project", str(root))
    assert list(data) == [
        "schema_version", "client", "scope", "path", "name", "command", "changed", "written", "replaced", "notes",
        "content",
    ]  # fmt: skip
    assert (data["name"], data["command"][-3:]) == ("unity-index", ["serve", "--project", "${workspaceFolder}"])
    changes = []
    for action in ("install", "install", "uninstall"):
        data = _json("agents", action, "--project", str(root))
        assert (list(data), data["action"]) == (["schema_version", "action", "files", "tokens"], action)
        assert all(list(f) == ["path", "change", "note"] for f in data["files"])
        changes.append([f["change"] for f in data["files"]])
    assert changes == [["added"] * 3, ["unchanged"] * 3, ["removed"] * 3]


def test_watch_behind_another_writer_says_so_once_and_keeps_the_batch(tmp_path: Path) -> None:
    """`watch`: "While another process writes the index it says so once and keeps the batch,
    trying again every second"."""
    import time

    from indexer.store.lock import writer_lock
    from indexer.store.schema import IndexPaths

    from .test_watch import eventually, watching

    root = write_project(tmp_path / "P", {"Assets/A.cs": "public class Alpha {}"})
    proc = start_cli("watch", "--json", "--project", str(root))
    batches: list[dict] = []
    threading.Thread(target=lambda: [batches.append(json.loads(x)) for x in proc.stdout], daemon=True).start()
    try:
        said = watching(proc)
        with writer_lock(IndexPaths(root / "Library/UnityIndex")):
            (root / "Assets/B.cs").write_text("public class Beta {}")
            assert eventually(lambda: any("is updating the index" in line for line in said), 30), said
            time.sleep(2.5)  # two more tries
            assert batches == []
        assert eventually(lambda: [b["paths"] for b in batches] == [["Assets/B.cs"]], 30), batches
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0
    busy = [line for line in said if "is updating the index" in line]
    assert len(busy) == 1 and busy[0].endswith(": the watch applies its changes once it is done (Ctrl-C stops)\n")


# Loaded before the CLI (a `sitecustomize` first on PYTHONPATH): every attempt to reach or look up
# another host is written down and fails, as it would on a machine without a network.
NO_NETWORK = """
import os, socket

def _refused(what):
    with open(os.environ["NETWORK_ATTEMPTS"], "a") as log:
        log.write(what + "\\n")
    raise OSError("no network in this test")

_connect = socket.socket.connect
_connect_ex = socket.socket.connect_ex

def connect(self, address):
    if self.family == socket.AF_UNIX:
        return _connect(self, address)
    _refused(f"connect {address!r}")

def connect_ex(self, address):
    if self.family == socket.AF_UNIX:
        return _connect_ex(self, address)
    _refused(f"connect_ex {address!r}")

socket.socket.connect = connect
socket.socket.connect_ex = connect_ex
socket.getaddrinfo = lambda *a, **k: _refused(f"getaddrinfo {a!r}")
socket.gethostbyname = lambda *a, **k: _refused(f"gethostbyname {a!r}")
"""


def test_indexing_and_answering_run_offline(tmp_path: Path) -> None:
    """README: "It runs offline": no command that indexes, answers or checks reaches for a network
    (each still succeeds with every connection refused, and none was tried)."""
    from .conftest import copy_fixture

    root = copy_fixture(tmp_path / "Game")
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(NO_NETWORK)
    attempts = tmp_path / "attempts.txt"
    env = {**os.environ, **CLI_ENV, "PYTHONPATH": f"{site}{os.pathsep}{REPO}", "NETWORK_ATTEMPTS": str(attempts)}
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for args in (
        ("index",),
        ("query", "player takes damage"),
        ("context", "add a shield that absorbs damage", "--budget", "2000"),
        ("refs", "PlayerHealth"),
        ("describe", "Assets/Prefabs/Player.prefab"),
        ("status",),
        ("index", "--check"),
        ("hook", "install"),
        ("doctor",),
    ):
        r = subprocess.run(
            [sys.executable, "-m", "indexer.cli", *args, "--project", str(root)],
            capture_output=True, text=True, env=env, cwd=REPO, timeout=300,
        )  # fmt: skip
        assert r.returncode == 0, (args, r.stderr)
    probe = subprocess.run(
        [sys.executable, "-c", "import socket; socket.create_connection(('192.0.2.1', 80))"],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert probe.returncode == 1 and "no network in this test" in probe.stderr  # the guard works
    (attempt,) = attempts.read_text().splitlines()  # nothing but the probe's
    assert attempt.startswith("getaddrinfo ('192.0.2.1', 80"), attempt


def test_a_damaged_index_is_exit_2_for_answers_stale_for_checks_and_rebuilt_by_index(tmp_path: Path) -> None:
    """Exit codes: 2 for "a damaged index (the message says to run `unity-index index`, which
    rebuilds it)"; `index --check`: "a damaged index counts as stale" (exit 1), and `status
    --check` "exits 1 when there is no index"; `index`: a damaged one "is rebuilt automatically,
    saying so" (`repaired` in `--json`)."""
    root = write_project(tmp_path / "P", {"Assets/PlayerHealth.cs": "public class PlayerHealth { void Heal() {} }"})
    project = ("--project", str(root))
    assert run_cli("index", *project).returncode == 0
    (records,) = (root / "Library/UnityIndex").glob("gen-*/records.db")
    records.write_bytes(records.read_bytes()[: records.stat().st_size // 2])
    index_dir = root / "Library/UnityIndex"
    for args in (("query", "heal"), ("context", "heal"), ("refs", "PlayerHealth"), ("describe", "PlayerHealth.cs")):
        r = run_cli(*args, *project)
        assert (r.returncode, r.stdout) == (2, ""), args
        assert r.stderr.startswith(f"error: the index at {index_dir} is damaged (") and r.stderr.endswith(
            "; run `unity-index index` to rebuild it (nothing in the project is lost: the index is derived from"
            " its files)\n"
        ), r.stderr
    assert run_cli("index", "--check", *project).returncode == 1
    status = run_cli("status", "--check", "--json", *project)
    assert status.returncode == 1 and json.loads(status.stdout)["damaged"], status.stdout
    said = run_cli("index", *project)
    assert said.returncode == 0 and f"the index of {root} was damaged (" in said.stderr, said.stderr
    assert "): rebuilt it\n" in said.stderr
    (records,) = (root / "Library/UnityIndex").glob("gen-*/records.db")
    records.write_bytes(records.read_bytes()[: records.stat().st_size // 2])
    rebuilt = _json("index", *project)
    assert rebuilt["full"] is True and "malformed" in rebuilt["repaired"], rebuilt
    assert [h["path"] for h in _json("query", "heal", *project)["results"]] == ["Assets/PlayerHealth.cs"]


def test_a_hook_hands_its_arguments_stdin_and_exit_code_to_the_chained_one(tmp_path: Path) -> None:
    """`hook install`: the hooks refresh the index "(never failing the git command ...) and then
    the hook that was there before, renamed to `<name>.local`, with the same arguments and stdin
    (its exit code is the hook's)"."""
    root = write_project(tmp_path / "Game", {"Assets/A.cs": "public class Alpha {}"})
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    hooks = root / ".git/hooks"
    seen = tmp_path / "seen"
    (hooks / "post-rewrite").write_text(f'#!/bin/sh\necho "$@" > {seen}.args\ncat > {seen}.stdin\nexit 3\n')
    (hooks / "post-rewrite").chmod(0o755)
    assert run_cli("hook", "install", "--project", str(root)).returncode == 0
    env = {**os.environ, **CLI_ENV}

    def as_git_runs_it(name: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(hooks / name), *args], input=stdin, capture_output=True, text=True, cwd=root, env=env, timeout=60
        )

    r = as_git_runs_it("post-rewrite", "rebase", stdin="abc123 def456\n0a0a0a 1b1b1b\n")
    assert (r.returncode, r.stdout, r.stderr) == (3, "", "")
    assert (Path(f"{seen}.args").read_text(), Path(f"{seen}.stdin").read_text()) == (
        "rebase\n",
        "abc123 def456\n0a0a0a 1b1b1b\n",
    )
    assert _json("index", "--check", "--project", str(root))["stale"] is False  # refreshed first
    # A refresh that fails (here: a broken unity-index.toml) says so in one line, and the git
    # command goes on: a hook with nothing chained exits 0.
    (root / "unity-index.toml").write_text("workers = -1\n")
    r = as_git_runs_it("post-merge", "0")
    assert (r.returncode, r.stdout) == (0, "")
    assert r.stderr == f"error: {root}/unity-index.toml: workers must be 0 (one per core) or more\n"


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_serve_over_http_stops_on_a_signal_with_exit_0(indexed_fixture: Path, sig: str) -> None:
    """`serve`: "It runs until the client closes stdin (stdio) or until Ctrl-C/SIGTERM (HTTP), then
    exits 0"; `--port` "0 for a free port the log line names". uvicorn raised the signal again
    once it had shut down: SIGTERM killed the process (exit -15) and Ctrl-C ended in "error:
    interrupted", exit 130. The server listens once the line is logged, so the signal comes as
    soon as a connection is taken: one before uvicorn took the signals killed it too (-15)."""
    import re
    import signal
    import socket
    import time

    proc = start_cli("serve", "--transport", "http", "--port", "0", "--project", str(indexed_fixture))
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
        served = re.fullmatch(rf"unity-index: serving {indexed_fixture} over streamable HTTP at (.*)\n", first)
        assert served, first
        port = int(re.fullmatch(r"http://127\.0\.0\.1:(\d+)/mcp", served.group(1)).group(1))  # type: ignore[union-attr]
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not listen within 20 s"
                time.sleep(0.1)
        proc.send_signal(getattr(signal, sig))
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "error:" not in err and "Traceback" not in err, err


def test_ctrl_c_of_serve_over_stdio_is_an_interruption_exit_130(indexed_fixture: Path) -> None:
    """docs/cli.md, exit codes: 130 is "interrupted (Ctrl-C) during a command other than `watch`
    and `serve --transport http`": over stdio the client ends a session by closing stdin, so a
    Ctrl-C is an interruption, said in one line, at once (its watcher running)."""
    import signal
    import time

    proc = start_cli("serve", "--project", str(indexed_fixture), stdin=subprocess.PIPE)
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
        assert first == f"unity-index: watching {indexed_fixture}\n", first
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        assert time.monotonic() - t0 < 10
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # the watcher's stop is logged unless the Ctrl-C came before the session's first steps were done
    stopped = f"unity-index: stopped watching {indexed_fixture}\n"
    assert (proc.returncode, out) == (130, "") and err in ("error: interrupted\n", stopped + "error: interrupted\n"), (
        err
    )


def test_the_shares_docs_cli_md_gives_for_a_context_pack_are_the_packs() -> None:
    """`context`: "Tier 1 (at most 15% of the budget)"; each file "in a fifth of tier 2 for the two
    best files, 6% for the rest"; "The ranked files take at most 85% of tier 2"; related files are
    "one reference from the three best"; of a long TEXT "only its first 400 distinct terms are
    used". tests/test_context.py holds packs to these constants; this holds the constants to the
    docs."""
    from indexer.identifiers import MAX_QUERY_TERMS
    from indexer.query import context, related

    assert (context.TIER1_SHARE, context.LEAD_FILES, context.LEAD_SHARE, context.FILE_SHARE) == (0.15, 2, 0.2, 0.06)
    assert (1 - context.RELATED_SHARE, related.RELATED_LEADS, MAX_QUERY_TERMS) == (0.85, 3, 400)


def test_editor_tools_and_call_print_the_documented_shapes(host: bridge_host.Host) -> None:
    """`editor`: "`tools` prints `name: description` lines, or `{"schema_version": 1, "tools":
    [{"name", "description", "input_schema"}]}`; `call` prints the tool's result as indented JSON,
    or with `--json` `{"schema_version": 1, "tool", "result"}` on one line"; "a tool error" is exit
    2 with the bridge's message."""
    for folder in ("Assets", "ProjectSettings"):
        (host.project / folder).mkdir(exist_ok=True)
    project = ("--project", str(host.project))
    listed = _json("editor", "tools", *project)
    assert list(listed) == ["schema_version", "tools"] and listed["schema_version"] == 1
    assert all(list(t) == ["name", "description", "input_schema"] for t in listed["tools"]), listed["tools"][0]
    text = run_cli("editor", "tools", *project)
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines() == [f"{t['name']}: {t['description']}" for t in listed["tools"]]
    called = run_cli("editor", "call", "echo", "--args", '{"text": "hi", "times": 2}', *project, "--json")
    assert called.returncode == 0 and called.stdout.count("\n") == 1, called.stderr
    data = json.loads(called.stdout)
    assert (list(data), data["schema_version"], data["tool"]) == (["schema_version", "tool", "result"], 1, "echo")
    indented = run_cli("editor", "call", "echo", "--args", '{"text": "hi", "times": 2}', *project)
    assert indented.stdout == json.dumps(data["result"], indent=2) + "\n"
    failed = run_cli("editor", "call", "nope", *project)
    assert (failed.returncode, failed.stdout) == (2, "") and failed.stderr.startswith("error: ")


def _documented_synopses() -> dict[str, str]:
    """docs/cli.md's `## unity-index ...` headings, by command path ("agents install"): the part of
    the heading after the path."""
    import re

    synopses = {}
    for heading in re.findall(r"^## (`unity-index .*)$", (REPO / "docs/cli.md").read_text(), re.M):
        for synopsis in re.findall(r"`unity-index ([^`]*)`", heading):
            words = synopsis.split()
            path = [words[0]]
            rest = words[1:]
            if rest and re.fullmatch(r"[a-z]+(\|[a-z]+)*", rest[0]) and words[0] in ("agents", "editor", "mcp"):
                for action in rest[0].split("|"):
                    synopses[f"{words[0]} {action}"] = " ".join(rest[1:])
                continue
            synopses[" ".join(path)] = " ".join(rest)
    return synopses


def test_each_commands_heading_names_its_options_and_choices() -> None:
    """docs/cli.md: each command's heading (`## unity-index index [--project DIR] [--full] ...`) is
    its synopsis: every option the parser takes (but --help and --debug, said at the top) is
    named there and none that it does not take, and the choices given (`--transport stdio|http`,
    `install|uninstall`) are the parser's."""
    import re

    from indexer.cli.completion import commands
    from indexer.cli.main import _load_plugins, build_parser

    parser = build_parser()
    _load_plugins(parser)
    leaves = {" ".join(c.path): c for c in commands(parser) if c.path and not c.subcommands}
    synopses = _documented_synopses()
    assert sorted(synopses) == sorted(leaves)
    for name, synopsis in synopses.items():
        cmd = leaves[name]
        taken = {f for o in cmd.options for f in o.flags if f.startswith("--")} - {"--help", "--debug"}
        assert set(re.findall(r"--[a-z][a-z-]*", synopsis)) == taken, name
        for flag, values in re.findall(r"(--[a-z-]+) ([a-z]+(?:\|[a-z]+)+)", synopsis):
            option = next(o for o in cmd.options if flag in o.flags)
            assert set(values.split("|")) == set(option.choices), (name, flag)
        positional = re.match(r"([a-z]+(?:\|[a-z]+)+)", synopsis)
        assert set(positional.group(1).split("|") if positional else ()) == set(cmd.positional_choices), name


def test_doctor_index_check_warns_of_another_version_and_fails_an_index_it_cannot_open(tmp_path: Path) -> None:
    """`doctor`'s `index` check: "the index folder holds an index of this version": present (pass),
    missing or another version (warn, exit 0), one it cannot open (fail, exit 1); "A check that
    depends on one that did not pass is left out"."""
    from indexer.model import SCHEMA_VERSION

    root = write_project(tmp_path / "P", {"Assets/A.cs": "public class Alpha {}"})
    project = ("--project", str(root))
    index_dir = root / "Library/UnityIndex"
    assert run_cli("index", *project).returncode == 0
    header = index_dir / "index.json"
    current = json.loads(header.read_text())

    def doctor() -> tuple[int, dict[str, dict]]:
        r = run_cli("doctor", "--json", *project)
        return r.returncode, {c["name"]: c for c in json.loads(r.stdout)["checks"]}

    code, checks = doctor()
    assert (code, checks["index"]["status"]) == (0, "pass") and "index-consistent" in checks
    header.write_text(json.dumps({**current, "schema_version": SCHEMA_VERSION - 1}))
    code, checks = doctor()
    assert (code, checks["index"]["status"]) == (0, "warn")
    assert checks["index"]["detail"] == (
        f"the index at {index_dir} was written by another version (schema {SCHEMA_VERSION - 1},"
        f" this one reads {SCHEMA_VERSION})"
    )
    assert not {"index-intact", "index-current", "index-consistent"} & set(checks)
    header.write_text(json.dumps(current))
    for part in index_dir.glob("gen-*/records.db*"):
        part.unlink()
    code, checks = doctor()
    assert (code, checks["index"]["status"]) == (1, "fail")
    assert checks["index"]["detail"] == f"the index at {index_dir} is damaged: records.db is missing"
    assert checks["index"]["fix"] == f"unity-index index --project {root} rebuilds it (any query would too)"
    assert not {"index-intact", "index-current", "index-consistent"} & set(checks)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_every_command_says_when_its_output_cannot_be_written(indexed_fixture: Path, tmp_path: Path) -> None:
    """docs/cli.md: "Output that cannot be written (`> /dev/full` ...) exits 2 with `error: cannot
    write the output: No space left on device`", for every command that prints data
    (tests/test_cli_errors.py checks `query` and `context`), contributed ones included."""
    project = ("--project", str(indexed_fixture))
    scratch = write_project(tmp_path / "P", {})
    for args in (
        ("status", *project),
        ("doctor", *project),
        ("refs", "PlayerHealth", *project),
        ("describe", "Assets/Prefabs/Player.prefab", *project),
        ("index", "--check", *project),
        ("index", "--json", "--project", str(scratch)),
        ("completion", "bash"),
        ("agents", "install", "--dry-run", "--project", str(scratch)),
        ("mcp", "install", "--client", "cursor", "--dry-run", "--json", "--project", str(scratch)),
    ):
        with open("/dev/full", "w") as full:
            r = subprocess.run(
                [sys.executable, "-m", "indexer.cli", *args],
                stdout=full, stderr=subprocess.PIPE, text=True, env={**os.environ, **CLI_ENV}, cwd=REPO, timeout=120,
            )  # fmt: skip
        assert r.returncode == 2, (args, r.stderr)
        assert r.stderr.endswith("error: cannot write the output: No space left on device\n"), (args, r.stderr)
        assert "Traceback" not in r.stderr


def test_every_command_ends_quietly_when_its_reader_is_gone(indexed_fixture: Path, tmp_path: Path) -> None:
    """docs/cli.md: "a reader that stops early (`| head -1`) ends the command quietly with exit 0",
    for every command that prints data (tests/test_cli_errors.py checks `query`)."""
    project = ("--project", str(indexed_fixture))
    scratch = write_project(tmp_path / "P", {})
    for args in (
        ("status", *project),
        ("doctor", *project),
        ("refs", "PlayerHealth", *project),
        ("describe", "Assets/Scenes/Dungeon.unity", *project),
        ("context", "player health", *project),
        ("completion", "bash"),
        ("agents", "install", "--dry-run", "--json", "--project", str(scratch)),
    ):
        read, write = os.pipe()
        proc = subprocess.Popen(
            [sys.executable, "-m", "indexer.cli", *args],
            stdout=write, stderr=subprocess.PIPE, text=True, env={**os.environ, **CLI_ENV}, cwd=REPO,
        )  # fmt: skip
        os.close(write)
        os.close(read)  # gone before the command writes
        _, err = proc.communicate(timeout=120)
        assert (proc.returncode, err) == (0, ""), args


def test_the_readme_s_version_wheel_and_python_are_the_package_s(monkeypatch: pytest.MonkeyPatch) -> None:
    """README: "unity-index needs Python 3.11 or newer", and `python -m build --wheel` "writes
    `dist/unity_index-0.1.0-py3-none-any.whl`": the package's declared Python, name and version
    (which `--version` prints), and the Python `doctor` fails below."""
    import re
    import tomllib

    from indexer.cli import doctor

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    readme = (REPO / "README.md").read_text()
    assert "unity-index needs Python 3.11 or newer" in readme and project["requires-python"] == ">=3.11"
    wheel = f"{project['name'].replace('-', '_')}-{project['version']}-py3-none-any.whl"
    assert set(re.findall(r"unity_index-[\w.]+-py3-none-any\.whl", readme)) == {wheel}
    assert run_cli("--version").stdout == f"unity-index {project['version']}\n"
    assert doctor.check_python().status == "pass"
    version = type("VersionInfo", (tuple,), {"major": 3, "minor": 10, "micro": 14})((3, 10, 14, "final", 0))
    monkeypatch.setattr(doctor.sys, "version_info", version)
    assert doctor.check_python().status == "fail"


def test_hook_install_refreshes_the_project_found_as_every_command_finds_it(tmp_path: Path) -> None:
    """docs/cli.md, **Project root**: "`--project DIR`, or else the nearest folder at or above the
    working directory that holds both `Assets/` and `ProjectSettings/`. When there is none, the
    command exits 2". `hook install` run in `Assets/Scripts` wrote hooks refreshing
    `Assets/Scripts`, and for a folder that is no project hooks refreshing it: each git command
    then printed "not a Unity project" and refreshed nothing."""
    repo = tmp_path / "repo"
    game = write_project(repo / "Game", {"Assets/Scripts/A.cs": "public class Alpha {}"})
    (repo / "docs").mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    hooks = repo / ".git/hooks"
    r = run_cli("hook", "install", cwd=game / "Assets/Scripts")
    assert r.returncode == 0, r.stderr
    assert "\nproject=Game\n" in (hooks / "pre-commit").read_text()
    r = run_cli("hook", "uninstall", cwd=game / "Assets")
    assert (r.returncode, sorted(p.name for p in hooks.iterdir() if not p.name.endswith(".sample"))) == (0, [])
    r = run_cli("hook", "install", "--project", str(repo / "docs"))
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == (
        f"error: --project {repo / 'docs'}: not a Unity project (it needs Assets/ and ProjectSettings/)"
        " and no Unity project below it\n"
    )
    r = run_cli("hook", "install", "--pre-commit", cwd=repo / "docs")
    assert r.returncode == 2 and r.stderr.startswith(f"error: no Unity project at or above {repo / 'docs'}")
    assert sorted(p.name for p in hooks.iterdir() if not p.name.endswith(".sample")) == []
    assert not (repo / ".pre-commit-config.yaml").exists()
    # A folder holding projects is one (`--project` of a repository's root).
    r = run_cli("hook", "install", "--project", str(repo))
    assert r.returncode == 0 and "\nproject=.\n" in (hooks / "pre-commit").read_text(), r.stderr


def test_a_path_filter_in_another_case_is_the_folder_it_names(indexed_fixture: Path) -> None:
    """docs/cli.md, **Paths** (`describe`, `refs`, `query --path`): "or another case (the index is
    searched without case when the exact path is not in it)". `describe` found
    `assets/scripts/player/playerhealth.cs`; `query --path assets/scripts/player` said no indexed
    file is under that folder."""
    project = ("--project", str(indexed_fixture))
    exact = _json("query", "health", "--path", "Assets/Scripts/Player", *project)["results"]
    assert exact and all(h["path"].startswith("Assets/Scripts/Player/") for h in exact)
    for typed in ("assets/scripts/player", "ASSETS\\Scripts\\PLAYER", str(indexed_fixture / "assets/scripts/Player")):
        assert _json("query", "health", "--path", typed, *project)["results"] == exact, typed
    r = run_cli("query", "health", "--path", "assets/scripts/playr", *project)
    assert (r.returncode, r.stdout) == (2, "") and "no indexed file is under this folder" in r.stderr


def test_doctor_and_dry_runs_write_only_into_the_index_folder(tmp_path: Path) -> None:
    """README: unity-index "writes only into `Library/UnityIndex/`" (but for git's own index, which
    a `git status` refreshes); "Commands that write elsewhere say so: `hook`, `agents` and `mcp
    install`", so not `doctor`, `completion`, nor those three's `--dry-run`
    (tests/test_footprint.py holds the indexing and answering commands to it)."""
    from .test_footprint import GIT_STATUS, changed, git_project, tree

    root = git_project(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home)}
    assert run_cli("index", "--project", str(root)).returncode == 0
    for args in (
        ("doctor", "--project", str(root)),
        ("doctor", "--json", "--project", str(root)),
        ("completion", "bash"),
        ("agents", "install", "--dry-run", "--project", str(root)),
        ("mcp", "install", "--client", "claude-code", "--dry-run", "--project", str(root)),
        ("mcp", "install", "--client", "codex", "--scope", "user", "--dry-run", "--project", str(root)),
    ):
        before, at_home = tree(root), tree(home)
        r = run_cli(*args, cwd=root, env=env)
        assert r.returncode == 0, (args, r.stderr)
        assert set(changed(before, tree(root))) <= GIT_STATUS, args
        assert changed(at_home, tree(home)) == [], args


def test_the_command_list_says_what_refs_and_describe_take_as_the_readme_does() -> None:
    """README.md's table: `refs` finds usages of "a type, `Type.Member`, file, GUID or assembly",
    and `describe` takes a path, a GUID or a type's name (docs/cli.md, **Paths**); `unity-index
    --help` lists the commands with the same words (it left out assemblies and type names)."""
    import re

    shown = " ".join(run_cli("--help").stdout.split())
    assert "refs usages of a type, Type.Member, file, GUID or assembly in code and assets" in shown
    assert (
        "describe outline of a file (script, scene, prefab, asset, material, shader, ...) by path, GUID or type name"
        in shown
    )
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "| `unity-index describe PATH\\|GUID\\|TYPE [--json]` |" in readme
    assert re.search(
        r"\| `unity-index refs TARGET .*\| usages of a type, `Type.Member`, file, GUID or assembly ", readme
    )
