"""The command line as a user meets it when something is off: clear messages, consistent codes."""

import json
import os
from pathlib import Path

import pytest

from .conftest import copy_fixture, run_cli, write_project


def test_no_project_exits_2_and_lists_projects_below(tmp_path: Path) -> None:
    write_project(tmp_path / "games" / "Alpha", {})
    r = run_cli("query", "health", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stdout == ""
    assert "error: no Unity project at or above" in r.stderr
    assert str((tmp_path / "games" / "Alpha").resolve()) in r.stderr
    assert "Traceback" not in r.stderr


def test_project_option_must_be_a_unity_project(tmp_path: Path) -> None:
    r = run_cli("index", "--project", str(tmp_path))
    assert r.returncode == 2
    assert "not a Unity project (it needs Assets/ and ProjectSettings/)" in r.stderr
    r = run_cli("index", "--project", str(tmp_path / "missing"))
    assert r.returncode == 2
    assert "no such folder" in r.stderr
    (tmp_path / "notes.txt").write_text("a file")
    for command in (("index",), ("query", "x"), ("hook", "install")):
        r = run_cli(*command, "--project", str(tmp_path / "notes.txt"))
        assert (r.returncode, r.stderr) == (2, f"error: --project {tmp_path / 'notes.txt'}: a file, not a folder\n")


def test_a_path_filter_over_no_indexed_file_is_refused(tmp_path: Path) -> None:
    """A mistyped --path used to read as a search that found nothing."""
    root = write_project(tmp_path / "P", {"Assets/Scripts/A.cs": "class Alpha {}"})
    assert run_cli("index", "--project", str(root)).returncode == 0
    r = run_cli("query", "Alpha", "--path", "Assets/Scriptz", "--project", str(root))
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == "error: Assets/Scriptz: no indexed file is under this folder; did you mean Assets/Scripts?\n"
    r = run_cli("query", "Alpha", "--path", "Tools/Editor", "--project", str(root))  # nothing close: an example
    assert r.stderr == (
        "error: Tools/Editor: no indexed file is under this folder; give a folder of the project, e.g. Assets/Scripts\n"
    )
    r = run_cli("query", "Alpha", "--path", "Assets/Scripts", "--project", str(root), "--json")
    assert [h["path"] for h in json.loads(r.stdout)["results"]] == ["Assets/Scripts/A.cs"]


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class A {}"})
    assert run_cli("query", "   ", "--project", str(root)).returncode == 2
    assert run_cli("query", "x", "--limit", "0", "--project", str(root)).returncode == 2
    assert run_cli("context", "x", "--budget", "0", "--project", str(root)).returncode == 2
    assert run_cli("context", "x", "--tokenizer", "nope", "--project", str(root)).returncode == 2
    assert run_cli("frobnicate").returncode == 2
    assert run_cli("query").returncode == 2


def test_durations_and_ports_out_of_range_are_usage_errors(tmp_path: Path) -> None:
    """`--wait nan` waited for a busy index forever (no time is past a nan deadline), `--time-limit
    -1` ended `index` at once as "interrupted" (exit 130) and `serve --port 70000` was an internal
    error (exit 3, a bug); each is now refused before anything runs, as argparse refuses a value."""
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class A {}"})
    cases = {
        ("index", "--wait", "nan"): "argument --wait: must be a number of seconds, 0 or more (got 'nan')",
        ("index", "--wait", "-1"): "argument --wait: must be a number of seconds, 0 or more (got '-1')",
        ("index", "--time-limit", "-1"): "argument --time-limit: must be a number of seconds, 0 or more (got '-1')",
        ("index", "--time-limit", "inf"): "argument --time-limit: must be a number of seconds, 0 or more (got 'inf')",
        ("serve", "--refresh-interval", "nan"): "argument --refresh-interval: must be a number of seconds, 0 or more"
        " (got 'nan')",
        ("serve", "--transport", "http", "--port", "70000"): "argument --port: must be a port number from 0 to 65535"
        " (got '70000')",
    }
    for args, message in cases.items():
        r = run_cli(*args, "--project", str(root))
        assert (r.returncode, r.stdout) == (2, ""), args
        assert r.stderr.endswith(f"error: {message}\n") and "Traceback" not in r.stderr, r.stderr
    assert not (root / "Library").exists()  # refused before anything ran
    assert run_cli("index", "--wait", "0", "--time-limit", "30", "--project", str(root)).returncode == 0


def test_query_builds_a_missing_index_and_finds_nothing_gracefully(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class Alpha { void Run() {} }"})
    r = run_cli("query", "zebra giraffe", "--project", str(root), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"schema_version": 1, "query": "zebra giraffe", "results": []}
    assert "building it" in r.stderr


def test_status_check_reports_stale_index(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class Alpha {}"})
    assert run_cli("status", "--check", "--project", str(root)).returncode == 1  # no index yet
    assert run_cli("index", "--project", str(root)).returncode == 0
    assert run_cli("status", "--check", "--project", str(root)).returncode == 0
    (root / "Assets/B.cs").write_text("class Beta {}")
    r = run_cli("status", "--check", "--json", "--project", str(root))
    assert r.returncode == 1
    assert json.loads(r.stdout)["stale_files"] == 1
    r = run_cli("status", "--project", str(root))
    assert "stale     1 file has changed since the last update; run `unity-index index`" in r.stdout.splitlines()
    r = run_cli("index", "--check", "--project", str(root))
    assert r.stdout.startswith(f"{root.resolve()}: stale, 1 file differs from the index")


def test_status_check_counts_a_damaged_index_as_stale_as_index_check_does(tmp_path: Path) -> None:
    """docs/cli.md: `status` makes the same comparison as `index --check`, for which a damaged
    index is stale; a byte of the search index changed behind its back passed `status --check`."""
    root = copy_fixture(tmp_path / "P")
    assert run_cli("index", "--project", str(root)).returncode == 0
    store = sorted((root / "Library/UnityIndex").glob("gen-*/tantivy/*.store"))[0]
    data, st = bytearray(store.read_bytes()), store.stat()
    data[len(data) // 2] ^= 0xFF
    with store.open("r+b") as f:  # in place, its time put back: only reading it tells
        f.write(bytes(data))
    os.utime(store, ns=(st.st_atime_ns, st.st_mtime_ns))
    r = run_cli("status", "--check", "--project", str(root))
    assert r.returncode == 1 and "is damaged" in r.stdout, (r.stdout, r.stderr)
    assert run_cli("index", "--check", "--project", str(root)).returncode == 1


def test_index_check_json_says_what_differs_and_exits_1_unless_current(tmp_path: Path) -> None:
    """docs/cli.md, `index --check --json`: missing, stale and damaged are exit 1 with the files
    (or the damage) named; current is exit 0. Nothing is written."""
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class A {}", "Assets/C.cs": "class C {}"})
    project = ["--project", str(root)]

    def check() -> tuple[int, dict]:
        r = run_cli("index", "--check", "--json", *project)
        assert "Traceback" not in r.stderr
        return r.returncode, json.loads(r.stdout)

    def entry(stale: bool, indexed: bool, added=(), changed=(), deleted=(), damaged: str = "") -> dict:
        files = {"added": list(added), "changed": list(changed), "deleted": list(deleted)}
        return {"project": str(root.resolve()), "stale": stale, "indexed": indexed, **files, "damaged": damaged}

    assert check() == (1, {"schema_version": 1, "stale": True, "projects": [entry(True, False)]})
    assert not (root / "Library").exists()
    assert run_cli("index", *project).returncode == 0
    assert check() == (0, {"schema_version": 1, "stale": False, "projects": [entry(False, True)]})
    (root / "Assets/B.cs").write_text("class B {}")
    (root / "Assets/A.cs").write_text("class A2 {}")
    (root / "Assets/C.cs").unlink()
    stale = entry(True, True, ["Assets/B.cs"], ["Assets/A.cs"], ["Assets/C.cs"])
    assert check() == (1, {"schema_version": 1, "stale": True, "projects": [stale]})
    assert run_cli("index", *project).returncode == 0
    records = next((root / "Library/UnityIndex").glob("gen-*/records.db"))
    records.write_bytes(records.read_bytes()[: records.stat().st_size // 2])
    code, data = check()
    assert code == 1 and data["projects"][0]["damaged"].endswith(
        "records.db was changed by something other than unity-index"
    )


def test_broken_inputs_are_recorded_not_fatal(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Good.cs": "public class Good { public void Run() {} }",
            "Assets/Broken.cs": "public class Broken { void Update() { if (x > \n public int After; }",
            "Assets/Latin1.cs": "// caf\xe9\npublic class Latin1 {}".encode("latin-1"),
            "Assets/Binary.cs": b"\x00\x01\x02MZ\x90\x00",
            "Assets/Level.unity": b"version https://git-lfs.github.com/spec/v1\noid sha256:ab\nsize 99\n",
        },
    )
    r = run_cli("index", "--project", str(root), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["skipped"] == 2
    st = json.loads(run_cli("status", "--json", "--project", str(root)).stdout)
    assert (st["partial"], st["partial_files"]) == (1, ["Assets/Broken.cs"])
    text = run_cli("status", "--project", str(root)).stdout.splitlines()
    partial = text.index("partial   1 read in part (syntax errors; binary-serialized assets: their references only)")
    assert text[partial + 1 : partial + 3] == ["  Assets/Broken.cs", "skipped   2"]
    assert text[partial + 3 : partial + 5] == [
        "  Assets/Binary.cs: binary content",
        "  Assets/Level.unity: Git LFS pointer, content not checked out",
    ]
    assert sorted((s["path"], s["reason"]) for s in st["skipped"]) == [
        ("Assets/Binary.cs", "binary content"),
        ("Assets/Level.unity", "Git LFS pointer, content not checked out"),
    ]
    hits = json.loads(run_cli("query", "Latin1 Broken", "--json", "--project", str(root)).stdout)["results"]
    assert {h["path"] for h in hits} == {"Assets/Latin1.cs", "Assets/Broken.cs"}


def test_debug_shows_the_traceback_of_an_expected_failure_wherever_it_is_placed(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class A {}"})
    plain = run_cli("refs", "Nope", "--project", str(root))
    assert plain.returncode == 2 and "Traceback" not in plain.stderr
    assert plain.stderr.endswith(
        "error: Nope: no type, member, file, GUID or assembly of that name;"
        " `unity-index query Nope` searches by words\n"
    )
    words = run_cli("refs", "the boss's shield", "--project", str(root))
    assert words.stderr.endswith("""`unity-index query 'the boss'"'"'s shield'` searches by words\n""")
    for argv in (("--debug", "query", "  "), ("query", "  ", "--debug")):
        r = run_cli(*argv, "--project", str(root))
        assert r.returncode == 2
        assert "Traceback (most recent call last)" in r.stderr and "UsageError" in r.stderr
        assert r.stderr.rstrip().endswith(
            'error: the query is empty: say what you are looking for, e.g. unity-index query "player health"'
        )


def test_environment_errors_exit_2_with_a_next_step(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class A {}"})
    (root / "Library").write_text("a file where Unity keeps a folder")
    r = run_cli("index", "--project", str(root))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr == (
        f"error: Not a directory: {root}/Library/UnityIndex; check that this file or folder can be read and"
        " written (and that the disk has room), then run the command again\n"
    )


def test_a_failed_rename_names_the_file_it_would_replace(tmp_path: Path) -> None:
    """A folder in place of the index header: the rename over it fails, and the message named only
    the temporary file ("Is a directory: .../.index.json.x1y2.tmp", which is no folder). Since
    session 45 the folder is found before anything is written, and named with the repair."""
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class A {}"})
    (root / "Library/UnityIndex/index.json").mkdir(parents=True)
    r = run_cli("index", "--project", str(root))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    said = f"{root}/Library/UnityIndex/index.json is a folder where the index keeps its file index.json: run"
    assert said in r.stderr, r.stderr


def test_commands_run_with_their_error_stream_closed(tmp_path: Path) -> None:
    """A launcher (a daemon, an editor's task runner, an MCP client) may start the command with
    file descriptor 2 closed: Python then has no sys.stderr, and every command, `serve` included,
    printed nothing and exited 1. The closed standard streams are opened on the null device, so
    no file the command opens takes their number (a library's message would be written into it)."""
    import os
    import subprocess
    import sys

    from .conftest import REPO

    root = write_project(tmp_path / "P", {"Assets/PlayerHealth.cs": "public class PlayerHealth {}"})
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}

    def closed_stderr(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "indexer.cli", *args, "--project", str(root)],
            input=stdin,
            stdout=subprocess.PIPE,
            env=env,
            timeout=120,
            preexec_fn=lambda: os.close(2),
        )

    for args in (("index",), ("query", "player health"), ("status",)):
        r = closed_stderr(*args)
        assert r.returncode == 0, args
    assert b"PlayerHealth" in closed_stderr("query", "player health").stdout
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
    r = closed_stderr("serve", stdin=(json.dumps(hello) + "\n").encode())
    assert r.returncode == 0 and b'"id":1,"result"' in r.stdout, r.stdout


def test_internal_errors_exit_3_and_debug_raises(monkeypatch, capsys) -> None:
    import pytest

    from indexer.cli import indexing
    from indexer.cli import main as cli

    def broken(args, console) -> int:
        raise RuntimeError("boom")

    monkeypatch.setattr(indexing, "cmd_status", broken)
    assert cli.main(["status"]) == 3
    assert capsys.readouterr().err == (
        "error: internal error: RuntimeError: boom (a bug: run again with --debug and report the traceback)\n"
    )
    with pytest.raises(RuntimeError, match="boom"):
        cli.main(["status", "--debug"])


def test_hook_outside_git_says_what_to_do(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {})
    r = run_cli("hook", "install", "--project", str(root))
    assert r.returncode == 2
    assert r.stderr == (
        f"error: {root} is not inside a git repository: the hooks refresh the index on git events;"
        " run `git init` first, or keep the index current with `unity-index watch`\n"
    )


def test_hook_json(tmp_path: Path) -> None:
    import subprocess

    root = write_project(tmp_path / "P", {})
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    r = run_cli("hook", "install", "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert (data["schema_version"], data["action"], data["hooks_dir"]) == (1, "install", f"{root}/.git/hooks")
    assert data["done"][0] == f"pre-commit: installed in {root}/.git/hooks"
    r = run_cli("hook", "uninstall", "--json", "--project", str(root))
    assert json.loads(r.stdout)["done"] == [
        "pre-commit: removed",
        "post-checkout: removed",
        "post-merge: removed",
        "post-rewrite: removed",
    ]


def test_mcp_install_and_editor_call_json(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {})
    r = run_cli("mcp", "install", "--client", "cursor", "--dry-run", "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert {k: data[k] for k in ("schema_version", "client", "scope", "path", "changed", "written")} == {
        "schema_version": 1,
        "client": "cursor",
        "scope": "project",
        "path": f"{root}/.cursor/mcp.json",
        "changed": True,
        "written": False,
    }
    assert json.loads(data["content"])["mcpServers"]["unity-index"]["args"] == [
        "serve",
        "--project",
        "${workspaceFolder}",
    ]
    r = run_cli("editor", "call", "hierarchy", "--json", "--project", str(root))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"error: No Unity editor is serving {root}:")


def test_every_command_exits_0_on_help_and_data_commands_take_json() -> None:
    from indexer.cli.completion import commands
    from indexer.cli.main import _debug_everywhere, _load_plugins, build_parser

    parser = build_parser()
    _load_plugins(parser)
    _debug_everywhere(parser)
    leaves = {" ".join(c.path): c for c in commands(parser) if c.path and not c.subcommands}
    assert sorted(leaves) == sorted(
        [
            "index",
            "query",
            "context",
            "refs",
            "describe",
            "status",
            "watch",
            "hook",
            "agents install",
            "agents uninstall",
            "doctor",
            "completion",
            "serve",
            "mcp install",
            "editor tools",
            "editor call",
        ]
    )
    no_data = {"serve", "completion"}  # a protocol stream; a shell script
    for name, cmd in leaves.items():
        flags = {f for o in cmd.options for f in o.flags}
        assert "--debug" in flags, name
        assert ("--json" in flags) == (name not in no_data), name
    for name in leaves:
        r = run_cli(*name.split(), "--help")
        assert r.returncode == 0 and r.stdout.startswith(f"usage: unity-index {name}"), name


def test_unknown_kind_is_a_usage_error_and_no_results_says_what_to_try(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class Alpha {}"})
    r = run_cli("query", "alpha", "--kind", "sprite", "--project", str(root))
    assert r.returncode == 2
    assert r.stderr.startswith("error: --kind sprite: no such kind; use one of animation, animator, asmdef, asmref,")
    r = run_cli("query", "alpha", "--kind", "scripts", "--project", str(root), "--json")  # a plural, a common name
    assert [h["path"] for h in json.loads(r.stdout)["results"]] == ["Assets/A.cs"]
    r = run_cli("query", "alpha", "--kind", "scene", "--project", str(root))
    assert (r.returncode, r.stdout) == (0, "")
    assert r.stderr.endswith("no results: try other words (identifiers, file names) or drop --kind/--path\n")


def test_global_options_on_either_side_of_the_command(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class Alpha {}"})
    assert run_cli("--project", str(root), "index").returncode == 0
    before = run_cli("--project", str(root), "status", "--json")
    assert before.returncode == 0, before.stderr
    assert json.loads(before.stdout)["project"] == str(root.resolve())
    after = run_cli("status", "--json", "--project", str(root))
    assert json.loads(after.stdout)["project"] == json.loads(before.stdout)["project"]
    r = run_cli("--debug", f"--project={root}", "query", "alpha", "--json")
    assert r.returncode == 0, r.stderr
    assert [h["path"] for h in json.loads(r.stdout)["results"]] == ["Assets/A.cs"]
    # The value after the command wins over the one before it.
    r = run_cli("--project", str(tmp_path / "missing"), "status", "--project", str(root))
    assert r.returncode == 0, r.stderr
    # Commands contributed by plugins take it too.
    r = run_cli("--project", str(root), "mcp", "install", "--client", "cursor", "--dry-run", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["path"] == str(root.resolve() / ".cursor" / "mcp.json")


def test_quiet_prints_errors_only(tmp_path: Path) -> None:
    """docs/cli.md, `index --quiet`: errors only (the git hooks run it on every commit)."""
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class Alpha {}"})
    loud = run_cli("index", "--full", "--project", str(root))
    assert loud.returncode == 0 and "\nbuilt index of" in "\n" + loud.stdout + loud.stderr  # the first
    again = run_cli("index", "--full", "--project", str(root))
    assert again.returncode == 0 and "rebuilt index of" in again.stdout + again.stderr
    quiet = run_cli("index", "--full", "--quiet", "--project", str(root))
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
    (root / "unity-index.toml").write_text("workers = -1\n")
    failed = run_cli("index", "--quiet", "--project", str(root))
    assert (failed.returncode, failed.stdout) == (2, "")
    assert failed.stderr.startswith(f"error: {root}/unity-index.toml: workers must be 0")


def test_watch_refuses_a_folder_of_several_projects(tmp_path: Path) -> None:
    write_project(tmp_path / "W" / "A", {"Assets/A.cs": "class Alpha {}"})
    write_project(tmp_path / "W" / "B", {"Assets/B.cs": "class Beta {}"})
    r = run_cli("watch", "--project", str(tmp_path / "W"))
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == "error: watch works on one project: pass --project with a single Unity project\n"


def test_refs_lists_200_usages_unless_told_otherwise(tmp_path: Path) -> None:
    """docs/cli.md, `refs --limit`: default 200; 0 = all; `total` counts them all."""
    uses = "\n".join(f"    Target t{i};" for i in range(230))
    root = write_project(
        tmp_path / "P",
        {"Assets/Target.cs": "public class Target {}", "Assets/User.cs": f"public class User {{\n{uses}\n}}"},
    )
    data = json.loads(run_cli("refs", "Target", "--json", "--project", str(root)).stdout)
    assert (data["total"], len(data["usages"])) == (230, 200)
    data = json.loads(run_cli("refs", "Target", "--json", "--limit", "0", "--project", str(root)).stdout)
    assert (data["total"], len(data["usages"])) == (230, 230)
    data = json.loads(run_cli("refs", "Target", "--json", "--limit", "7", "--project", str(root)).stdout)
    assert [u["line"] for u in data["usages"]] == [2, 3, 4, 5, 6, 7, 8]


def test_projects_are_looked_for_four_levels_deep(tmp_path: Path) -> None:
    """docs/cli.md: without a project at or above the working directory, the error lists the
    projects found below it, up to four levels deep; a folder of several projects is searched the
    same way. Hidden folders and a project's own content folders are not searched."""
    work = tmp_path / "work"
    for rel in ("One", "a/b/Three", "a/b/c/Four", "a/b/c/d/Five", ".hidden/Two"):
        write_project(work / rel, {"Assets/Mark.cs": f"public class Mark{rel.count('/')} {{}}"})
    r = run_cli("status", cwd=work)
    assert r.returncode == 2, r.stderr
    listed = [line.strip() for line in r.stderr.splitlines() if line.startswith("  ")]
    assert listed == [str((work / p).resolve()) for p in ("One", "a/b/Three", "a/b/c/Four")]
    r = run_cli("status", "--json", "--project", str(work))
    assert r.returncode == 0, r.stderr
    assert sorted(p["project"] for p in json.loads(r.stdout)["projects"]) == listed


def _stderr_on_a_terminal(args: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    """Run the CLI with stderr on a pseudo-terminal (stdout a pipe): exit code, stdout, stderr."""
    import os
    import pty
    import subprocess
    import sys

    from .conftest import REPO

    leader, follower = pty.openpty()
    full_env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | {"PYTHONPATH": str(REPO), **env}
    proc = subprocess.Popen(
        [sys.executable, "-m", "indexer.cli", *args], cwd=REPO, stdout=subprocess.PIPE, stderr=follower, env=full_env
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # EIO: the other end closed
            break
        if not data:
            break
        chunks.append(data)
    out = proc.stdout.read().decode() if proc.stdout else ""
    code = proc.wait(timeout=120)
    os.close(leader)
    return code, out, b"".join(chunks).decode()


def test_colour_and_progress_only_on_a_terminal_and_never_with_no_color(tmp_path: Path) -> None:
    """docs/cli.md: a progress bar only when stderr is a terminal; colour only then, and never when
    `NO_COLOR` is set (to anything but the empty string). stdout (data) never holds either."""
    root = write_project(tmp_path / "P", {f"Assets/S{i}.cs": f"public class S{i} {{}}" for i in range(30)})
    project = ["--project", str(root)]
    term = {"TERM": "xterm"}
    code, out, err = _stderr_on_a_terminal(["index", "--full", *project], term)
    assert code == 0 and "\r" in err and "indexing P [" in err and "30/30" in err, err
    code, out, err = _stderr_on_a_terminal(["describe", "Missing.cs", *project], term)
    assert code == 2 and "\033[31;1merror:\033[0m" in err, err
    code, out, err = _stderr_on_a_terminal(["describe", "Missing.cs", *project], {**term, "NO_COLOR": "1"})
    assert code == 2 and "\033" not in err and err.startswith("error: "), err
    code, out, err = _stderr_on_a_terminal(["index", "--full", *project], {**term, "NO_COLOR": "1"})
    assert code == 0 and "\033" not in err and "30/30" in err, err  # the bar stays, uncoloured
    # no-color.org: an empty NO_COLOR is as if it were not set
    code, out, err = _stderr_on_a_terminal(["describe", "Missing.cs", *project], {**term, "NO_COLOR": ""})
    assert code == 2 and "\033[31;1merror:\033[0m" in err, err
    code, out, err = _stderr_on_a_terminal(["query", "S1", "--json", *project], term)
    assert code == 0 and "\033" not in out and json.loads(out)["results"]
    # stderr a pipe: no bar, no colour, even without NO_COLOR.
    import os
    import subprocess
    import sys

    from .conftest import REPO

    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | term | {"PYTHONPATH": str(REPO)}
    cli = [sys.executable, "-m", "indexer.cli"]
    r = subprocess.run([*cli, "index", "--full", *project], capture_output=True, text=True, env=env, cwd=REPO)
    r2 = subprocess.run([*cli, "describe", "Missing.cs", *project], capture_output=True, text=True, env=env, cwd=REPO)
    assert r.returncode == 0 and "\r" not in r.stderr and "[" not in r.stderr and "\033" not in r.stderr, r.stderr
    assert r2.returncode == 2 and r2.stderr.startswith("error: ") and "\033" not in r2.stderr


def test_a_limit_larger_than_the_index_lists_every_match(indexed_fixture: Path) -> None:
    """tantivy sizes its heap of hits by the limit: 2**32 aborted the process (64 GB), 2**64-1
    was called a damaged index, more than that an internal error."""
    r = run_cli("query", "player health", "--json", "--limit", "10", "--project", str(indexed_fixture))
    assert r.returncode == 0, r.stderr
    every = run_cli("query", "player health", "--json", "--limit", "1000", "--project", str(indexed_fixture))
    assert every.returncode == 0 and len(json.loads(every.stdout)["results"]) > 10, every.stderr
    for limit in (2**32, 2**64 - 1, 10**20):
        r = run_cli("query", "player health", "--json", "--limit", str(limit), "--project", str(indexed_fixture))
        assert (r.returncode, r.stderr, r.stdout) == (0, "", every.stdout), limit


def test_errors_repeat_at_most_200_characters_of_a_long_input(tmp_path: Path) -> None:
    """A pasted file given as a name comes back as its start, an ellipsis and its length."""
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class Alpha {}"})
    long_name = "Alpha." * 20_000  # 120,000 characters
    long_path = "Assets/" + "x" * 100_000
    for args in (("describe", long_name), ("refs", long_name), ("describe", long_path), ("refs", long_path)):
        r = run_cli(*args, "--project", str(root))
        assert r.returncode == 2, r.stderr
        given = args[1]
        assert f"{given[:200]}… ({len(given):,} characters)" in r.stderr
        assert given[:201] not in r.stderr and len(r.stderr) < 600, r.stderr[:1000]
    r = run_cli("refs", "Nothing" * 10, "--project", str(root))  # a short input stays whole
    assert f"error: {'Nothing' * 10}: no type," in r.stderr and f"`unity-index query {'Nothing' * 10}`" in r.stderr


def test_describe_of_a_guid_whose_asset_is_gone_says_so_and_where_its_users_are(tmp_path: Path) -> None:
    """A script deleted outside Unity leaves its .meta: `refs GUID` lists the prefabs that still
    carry it (Unity's missing scripts), but `describe GUID` answered "error: Assets/...cs is not an
    indexed file", naming a file the user never gave."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Gone.cs.meta": "fileFormatVersion: 2\nguid: 0123456789abcdef0123456789abcdef\n",
            "Assets/Kept.prefab": (
                "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &1\nGameObject:\n  m_Name: Kept\n"
                "  m_Component:\n  - component: {fileID: 2}\n--- !u!114 &2\nMonoBehaviour:\n"
                "  m_GameObject: {fileID: 1}\n"
                "  m_Script: {fileID: 11500000, guid: 0123456789abcdef0123456789abcdef, type: 3}\n"
            ),
        },
    )
    assert run_cli("index", "--project", str(root)).returncode == 0
    r = run_cli("describe", "0123456789abcdef0123456789abcdef", "--project", str(root))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (
        "error: GUID 0123456789abcdef0123456789abcdef is that of Assets/Gone.cs.meta, but Assets/Gone.cs is not"
        " in the project (deleted or moved without its .meta?); `unity-index refs"
        " 0123456789abcdef0123456789abcdef` lists what still uses it\n"
    )
    refs = run_cli("refs", "0123456789abcdef0123456789abcdef", "--project", str(root))
    assert refs.returncode == 0 and "Assets/Kept.prefab" in refs.stdout
    # By the gone file's path (a texture missing from a checkout, its .meta kept): its .meta's GUID,
    # where it was "is not an indexed file; did you mean Assets/Gone.cs.meta?".
    by_path = run_cli("refs", "Assets/Gone.cs", "--project", str(root))
    assert by_path.stdout == refs.stdout and by_path.stdout.split("\n")[:2] == [
        "GUID Assets/Gone.cs  (only Assets/Gone.cs.meta is in the project: the file was deleted or moved without it)",
        "in assets (1):",
    ]
    assert run_cli("describe", "Assets/Gone.cs", "--project", str(root)).stderr == r.stderr
    # The prefab's outline named the component `Gone.cs`, as if the script were there.
    kept = run_cli("describe", "Assets/Kept.prefab", "--project", str(root)).stdout
    assert "components: Gone.cs (missing: only its .meta is left)" in kept, kept
    from mcp_adapter.server.wording import mcp_wording

    assert mcp_wording(r.stderr).endswith(
        "the `find_references` tool (target 0123456789abcdef0123456789abcdef) lists what still uses it\n"
    )


def test_a_time_limit_longer_than_a_timer_can_wait_is_no_limit(tmp_path: Path) -> None:
    """`--time-limit` takes any finite number of seconds; past threading.TIMEOUT_MAX (about 292
    years) its timer thread died with a traceback on stderr ("OverflowError: timestamp out of range
    for platform time_t"). Such a limit is none."""
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class A {}"})
    for limit in ("1e10", "1e308"):
        r = run_cli("index", "--time-limit", limit, "--project", str(root))
        assert r.returncode == 0 and "Traceback" not in r.stderr and "Exception" not in r.stderr, r.stderr


def test_a_folder_of_more_than_ten_projects_is_refused_not_indexed_whole(tmp_path: Path) -> None:
    """`--project ~` or `--project /` by mistake built the index of every project four levels down,
    each in its own Library: a folder that is no project is a workspace of at most ten."""
    from indexer.cli.common import MAX_WORKSPACE_PROJECTS

    folder = tmp_path / "Projects"
    for i in range(MAX_WORKSPACE_PROJECTS + 1):
        write_project(folder / f"Game{i:02d}", {"Assets/A.cs": "class A {}"})
    r = run_cli("query", "player", "--project", str(folder))
    assert r.returncode == 2
    assert f"not a Unity project, and {MAX_WORKSPACE_PROJECTS + 1} projects lie below it" in r.stderr
    assert f"{folder / 'Game00'}, {folder / 'Game01'}" in r.stderr and "give one of them" in r.stderr
    assert not any((folder / f"Game{i:02d}" / "Library").exists() for i in range(MAX_WORKSPACE_PROJECTS + 1))
    (folder / "Game10" / "ProjectSettings").rename(folder / "Game10" / "Settings")  # ten projects
    assert run_cli("index", "--project", str(folder)).returncode == 0


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_output_that_cannot_be_written_is_said_to_be_the_output(tmp_path: Path) -> None:
    """`query > /dev/full` said "the disk is full: the index keeps its last committed state": the
    output's failure is told apart from the index's own writes."""
    import os
    import subprocess
    import sys

    from .conftest import REPO

    root = write_project(tmp_path / "P", {"Assets/PlayerHealth.cs": "public class PlayerHealth {}"})
    assert run_cli("index", "--project", str(root)).returncode == 0
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}
    for args in (["query", "player health"], ["query", "player health", "--json"], ["context", "player health"]):
        with open("/dev/full", "w") as full:
            r = subprocess.run(
                [sys.executable, "-m", "indexer.cli", *args, "--project", str(root)],
                stdout=full, stderr=subprocess.PIPE, text=True, env=env, timeout=120,
            )  # fmt: skip
        assert (r.returncode, r.stderr) == (2, "error: cannot write the output: No space left on device\n"), args


def test_a_reader_that_stops_early_ends_the_command_quietly(tmp_path: Path) -> None:
    """docs/cli.md: `| head -1` closing the pipe before the output is written is exit 0, no message
    (the output's other failures are errors: the test above)."""
    import os
    import subprocess
    import sys

    from .conftest import REPO

    root = write_project(tmp_path / "P", {"Assets/PlayerHealth.cs": "public class PlayerHealth {}"})
    assert run_cli("index", "--project", str(root)).returncode == 0
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}
    read, write = os.pipe()
    proc = subprocess.Popen(
        [sys.executable, "-m", "indexer.cli", "query", "player health", "--project", str(root)],
        stdout=write, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    os.close(write)
    os.close(read)  # the reader is gone before the command writes (it starts Python first)
    _, err = proc.communicate(timeout=120)
    assert (proc.returncode, err) == (0, "")


def test_a_path_filter_naming_a_file_says_it_is_a_file(tmp_path: Path) -> None:
    """`--path Assets/Scripts/A.cs` was refused as "no indexed file is under this folder", of a file
    the index holds."""
    root = write_project(tmp_path / "P", {"Assets/Scripts/A.cs": "class Alpha {}"})
    assert run_cli("index", "--project", str(root)).returncode == 0
    r = run_cli("query", "Alpha", "--path", "Assets/Scripts/A.cs", "--project", str(root))
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == (
        "error: Assets/Scripts/A.cs is a file, not a folder: give the folder holding it, Assets/Scripts\n"
    )


def test_a_name_starting_with_a_dash_is_told_to_go_after_double_dash(tmp_path: Path) -> None:
    """`describe -dash.cs` said only "the following arguments are required: target"; a number
    (`--limit 3 -1`'s -1 is the text) is no option and passes."""
    root = write_project(tmp_path / "P", {"Assets/-dash.cs": "class Dash {}\n"})
    r = run_cli("describe", "-dash.cs", "--project", str(root))
    assert r.returncode == 2 and r.stderr.splitlines()[-1] == (
        "unity-index describe: error: -dash.cs is no option of `describe`; a TARGET starting with '-' goes"
        " after `--`: unity-index describe -- -dash.cs"
    )
    ok = run_cli("describe", "--project", str(root), "--", "-dash.cs")
    assert ok.returncode == 0 and ok.stdout.startswith("Assets/-dash.cs  (csharp")
    assert run_cli("query", "--project", str(root), "--limit", "3", "-1").returncode == 0


def test_a_member_a_type_does_not_declare_is_told_apart_from_an_unknown_name(tmp_path: Path) -> None:
    """`refs Portal.Teleport` said "no type, member, file, GUID or assembly of that name" though
    `Portal` is a type (the method is its travellers'); a file name with a dot is still a file."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Portal.cs": "public class Portal : Gate { void Render() {} }\n",
            "Assets/Gate.cs": "public class Gate { public void Open() {} }\n",
        },
    )
    assert run_cli("index", "--project", str(root)).returncode == 0
    r = run_cli("refs", "Portal.Teleport()", "--project", str(root))
    assert r.returncode == 2 and r.stderr == (
        "error: Portal is a type, but neither it nor a base class declares Teleport; `unity-index refs Portal`"
        " lists the type's usages\n"
    )
    assert run_cli("refs", "Portal.Open", "--project", str(root)).returncode == 0  # a base class's member
    assert run_cli("refs", "Portal.cs", "--project", str(root)).stdout.startswith("file Assets/Portal.cs")
    assert "no type, member, file" in run_cli("refs", "Nothing.Here", "--project", str(root)).stderr
