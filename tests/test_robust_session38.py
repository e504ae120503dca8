"""Session 38's robustness findings: a project folder's name never reaches the terminal raw, an
index another version wrote is not called damaged, paths into a folder named with a control
character resolve, a writer lock that is no regular file is replaced, and a file name typed in
its exact case picks that file among others differing only in case."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import run_cli, write_project

ESCAPE = "Sample\x1b]0;owned\x07\x1b[2J"  # a sample project's folder in a cloned repository
SHOWN = "Sample\\x1b]0;owned\\x07\\x1b[2J"


def _sample(root: Path) -> Path:
    return write_project(root, {"Assets/SampleThing.cs": "public class SampleThing {}\n"})


def test_projects_found_below_are_listed_escaped(tmp_path: Path) -> None:
    """ProjectNotFound lists the projects below the folder: their names as file names are shown."""
    from indexer.project import ProjectNotFound

    message = str(ProjectNotFound(tmp_path / "a\x1b[2J", [tmp_path / ESCAPE]))
    assert "\x1b" not in message and "\x07" not in message
    assert f"  {tmp_path / SHOWN}\n" in message and str(tmp_path / "a\\x1b[2J") in message


def test_a_windows_path_keeps_its_backslashes_when_shown() -> None:
    """Messages show a folder's path with its names escaped, not its separators doubled."""
    from indexer.project import printable_path

    assert printable_path("C:\\Users\\" + ESCAPE) == "C:\\Users\\" + SHOWN


def test_messages_and_status_show_an_escaped_project_folder(tmp_path: Path) -> None:
    """ "no index for ... yet", "files changed since the index of ...", `status`'s project and
    index lines: an escape sequence in a folder's name is shown as `\\xNN`."""
    root = _sample(tmp_path / ESCAPE)
    first = run_cli("query", "SampleThing", "--limit", "1", "--project", str(tmp_path))
    assert first.returncode == 0, first.stderr
    assert "\x1b" not in first.stderr and f"no index for {tmp_path / SHOWN} yet: building it" in first.stderr
    with (root / "Assets/SampleThing.cs").open("a") as f:
        f.write("// edit\n")
    again = run_cli("query", "SampleThing", "--limit", "1", "--project", str(tmp_path))
    assert again.returncode == 0, again.stderr
    assert "\x1b" not in again.stderr and f"files changed since the index of {SHOWN} was updated" in again.stderr
    status = run_cli("status", "--project", str(root))
    assert status.returncode == 0, status.stderr
    lines = status.stdout.splitlines()
    assert "\x1b" not in status.stdout and lines[0] == f"project   {tmp_path / SHOWN}"
    assert lines[1].startswith(f"index     {tmp_path / SHOWN}/Library/UnityIndex (")
    assert json.loads(run_cli("status", "--json", "--project", str(root)).stdout)["project"] == str(root)


def _older_index(root: Path) -> int:
    """An index of `root` whose header says another (older) version wrote it; its format."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.model import SCHEMA_VERSION
    from indexer.store.schema import IndexPaths

    update(root, Config(workers=1))
    header = IndexPaths(Config().index_path(root)).header
    header.write_text(json.dumps({**json.loads(header.read_text()), "schema_version": SCHEMA_VERSION - 1}))
    return SCHEMA_VERSION - 1


def test_status_and_index_check_say_another_version_not_damaged(tmp_path: Path) -> None:
    """docs/indexing.md: an index another version wrote is not damage; `doctor` says so, and
    `status` and `index --check` said "damaged (no usable index)"."""
    from indexer.model import SCHEMA_VERSION

    root = _sample(tmp_path / "P")
    older = _older_index(root)
    said = f"written by another version of unity-index (format {older}, this one reads {SCHEMA_VERSION})"
    status = run_cli("status", "--project", str(root))
    assert status.returncode == 0 and "damaged" not in status.stdout.replace("not damaged", ""), status.stdout
    assert said in status.stdout and "rebuilds it" in status.stdout
    data = json.loads(run_cli("status", "--json", "--project", str(root)).stdout)
    assert (data["indexed"], data["damaged"], data["other_version"]) == (False, "", older)
    check = run_cli("index", "--check", "--project", str(root))
    assert check.returncode == 1 and said in check.stdout and "is damaged" not in check.stdout, check.stdout
    report = json.loads(run_cli("index", "--check", "--json", "--project", str(root)).stdout)["projects"][0]
    assert (report["stale"], report["damaged"], report["other_version"]) == (True, "", older)
    assert run_cli("index", "--project", str(root)).returncode == 0
    assert "other_version" not in json.loads(run_cli("status", "--json", "--project", str(root)).stdout)


def test_an_absolute_path_into_a_folder_named_with_a_tab_is_inside_the_project(tmp_path: Path) -> None:
    """The folder's name was escaped with the path typed, then compared with the raw folder."""
    root = write_project(tmp_path / "odd\tdir", {"Assets/Health.cs": "public class Health {}\n"})
    for typed in (str(root / "Assets/Health.cs"), "Assets/Health.cs"):
        r = run_cli("describe", typed, "--project", str(root))
        assert r.returncode == 0, r.stderr
        assert r.stdout.startswith("Assets/Health.cs  (csharp")
    outside = run_cli("describe", str(tmp_path / "Elsewhere.cs"), "--project", str(root))
    assert outside.returncode == 2 and "\t" not in outside.stderr and "odd\\x09dir" in outside.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("plant", ["fifo", "socket"])
def test_a_write_lock_that_is_no_regular_file_is_replaced(tmp_path: Path, plant: str) -> None:
    """A FIFO (or socket) in write.lock's place failed with a bare "Invalid argument"."""
    import socket
    import stat

    from indexer.store.lock import writer_lock
    from indexer.store.schema import IndexPaths

    paths = IndexPaths(tmp_path / "UnityIndex")
    paths.root.mkdir()
    if plant == "fifo":
        os.mkfifo(paths.lock)
    else:
        if len(str(paths.lock)) > 100:
            pytest.skip("socket path too long")
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(paths.lock))
        sock.close()
    with writer_lock(paths):
        assert stat.S_ISREG(paths.lock.lstat().st_mode)
        assert paths.lock.read_text() == str(os.getpid())


def test_a_name_in_its_exact_case_picks_that_file() -> None:
    """Util.cs and util.cs side by side: giving more of the path could not tell them apart. A name
    in neither case (or in the case of two files) is still ambiguous."""
    from indexer.paths import PathAmbiguous, pick

    paths = ["Assets/Scripts/Util.cs", "Assets/Scripts/util.cs", "Assets/Other.cs"]
    for typed in ("Util.cs", "Scripts/Util.cs", "util.cs", "Scripts/util.cs"):
        assert pick(typed, [typed], lambda r: r in paths, lambda: paths) == "Assets/Scripts/" + typed.split("/")[-1]
    for typed, more in (("UTIL.cs", []), ("Util.cs", ["Assets/A/Util.cs"])):
        with pytest.raises(PathAmbiguous):
            pick(typed, [typed], lambda r: False, lambda: [*paths, *more])  # noqa: B023


def test_the_home_folder_is_no_index_folder(tmp_path: Path) -> None:
    """`index_dir = "~"` was taken: the index was written into the home folder itself, whose
    `gen-1` folder a writer would remove as a killed writer's (session 39)."""
    home = tmp_path / "home"
    (home / "gen-1").mkdir(parents=True)
    (home / "gen-1" / "notes.txt").write_text("mine\n")
    root = write_project(tmp_path / "Game", {"Assets/A.cs": "class A {}"})
    (root / "unity-index.toml").write_text('index_dir = "~"\n')
    r = run_cli("index", "--project", str(root), env={"HOME": str(home)})
    assert r.returncode == 2 and "the home folder or one above it" in r.stderr, r.stderr
    assert (home / "gen-1" / "notes.txt").read_text() == "mine\n"


def test_a_name_holding_a_bidirectional_control_is_escaped_and_skipped(tmp_path: Path) -> None:
    """`Admin\\u202egnp.cs` (a right-to-left override) was indexed and printed raw by `query` and
    `status`, where a terminal shows it as `Adminsc.png`: it is escaped and skipped like a name
    holding any other control (session 39)."""
    from indexer.project import fs_name, printable

    spoof = "Admin\u202egnp.cs"
    assert printable(spoof) == "Admin\\xe2\\x80\\xaegnp.cs" and fs_name(printable(spoof)) == spoof
    assert printable("\u2066x\u2069.cs") == "\\xe2\\x81\\xa6x\\xe2\\x81\\xa9.cs"
    root = write_project(tmp_path / "P", {"Assets/Open.cs": "public class OpenThing {}\n"})
    (root / "Assets" / spoof).write_text("public class Spoofed {}\n")
    assert run_cli("index", "--project", str(root)).returncode == 0
    status = run_cli("status", "--project", str(root)).stdout
    assert "Assets/Admin\\xe2\\x80\\xaegnp.cs: name is not plain UTF-8 text" in status
    assert "\u202e" not in status


def test_a_config_saved_with_a_bom_is_read_and_one_nested_too_deep_is_refused(tmp_path: Path) -> None:
    """A `unity-index.toml` saved by a Windows editor starts with a BOM: every command failed "not
    valid TOML: Invalid statement (at line 1, column 1)". One nested a thousand deep died with an
    internal error (RecursionError) instead of saying what is wrong (session 39)."""
    root = write_project(tmp_path / "P", {"Assets/Open.cs": "public class OpenThing {}\n"})
    config = root / "unity-index.toml"
    config.write_bytes(b'\xef\xbb\xbfexclude = ["Assets/Old/**"]\n')
    assert run_cli("index", "--project", str(root)).returncode == 0
    config.write_text("a = " + "[" * 3000 + "]" * 3000 + "\n")
    r = run_cli("index", "--project", str(root))
    assert (r.returncode, r.stderr) == (2, f"error: {config}: not valid TOML: nested too deep\n")


def _nested(head: str = "", tail: str = "") -> str:
    return head + "[" * 1200 + "]" * 1200 + tail


def test_json_nested_too_deep_for_the_parser_is_bad_input_not_an_internal_error(tmp_path: Path) -> None:
    """JSON nested a thousand deep makes Python's parser raise RecursionError, which no site caught:
    a `Packages/manifest.json` so nested made every command exit 3 ("internal error ... a bug"), a
    so nested `index.json` was no "damaged: rebuilt", `mcp install` died over such a config (session 39)."""
    root = write_project(tmp_path / "P", {"Assets/Open.cs": "public class OpenThing {}\n"})
    (root / "Packages").mkdir()
    (root / "Packages" / "manifest.json").write_text(_nested('{"dependencies": {}, "x": ', "}"))
    for args in (("index",), ("query", "open thing"), ("status",), ("refs", "OpenThing")):
        r = run_cli(*args, "--project", str(root))
        assert r.returncode == 0, (args, r.stderr)
    (root / "Library" / "UnityIndex" / "index.json").write_text(_nested())
    r = run_cli("index", "--project", str(root))
    assert r.returncode == 0 and "was damaged (index.json is unreadable): rebuilt" in r.stderr, r.stderr
    (root / ".vscode").mkdir()
    (root / ".vscode" / "mcp.json").write_text(_nested('{"servers": {"a": ', "}}"))
    r = run_cli("mcp", "install", "--client", "vscode", "--project", str(root))
    assert (r.returncode, r.stderr) == (
        2,
        f"error: {root / '.vscode' / 'mcp.json'}: not valid JSON (nested too deep); nothing was written\n",
    )


def test_an_mcp_request_nested_too_deep_is_a_parse_error_and_the_session_goes_on(tmp_path: Path) -> None:
    """One stdio request line nested a thousand deep ended the whole MCP session (exit 3)."""
    import subprocess
    import sys

    from tests.conftest import CLI_ENV, REPO

    root = write_project(tmp_path / "P", {"Assets/Open.cs": "public class OpenThing {}\n"})
    assert run_cli("index", "--project", str(root)).returncode == 0
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    lines = [
        json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        _nested('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":', "}}}"),
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"}),
    ]
    out = subprocess.run(
        [sys.executable, "-m", "indexer.cli", "serve", "--project", str(root)],
        input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60, cwd=REPO,
        env={**os.environ, **CLI_ENV},
    )  # fmt: skip
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert out.returncode == 0, out.stderr
    assert [a.get("id") for a in answers] == [0, None, 2]
    assert answers[1]["error"]["code"] == -32700


def test_a_chain_of_a_thousand_folders_is_walked(tmp_path: Path) -> None:
    """`Assets/a/a/.../a` 1,000 deep (2 KB of path) made every command exit 3: the walk recursed a
    generator a folder (session 39)."""
    root = write_project(tmp_path / "P", {"Assets/Open.cs": "public class OpenThing {}\n"})
    import subprocess

    deep = root / "Assets" / "/".join(["a"] * 1000)
    subprocess.run(["mkdir", "-p", str(deep)], check=True)  # (pathlib's mkdir recurses a folder too)
    (deep / "Deep.cs").write_text("public class DeepThing {}\n")
    try:
        r = run_cli("index", "--project", str(root))
        assert r.returncode == 0, r.stderr
        found = run_cli("query", "DeepThing", "--limit", "1", "--json", "--project", str(root))
        assert json.loads(found.stdout)["results"][0]["path"] == "Assets/" + "a/" * 1000 + "Deep.cs"
    finally:  # shutil.rmtree, which cleans pytest's old temporary folders, recurses a folder too
        subprocess.run(["rm", "-rf", str(root / "Assets" / "a")], check=True)


def test_refs_of_an_inherited_member_decodes_each_file_once(tmp_path: Path, monkeypatch) -> None:
    """`refs Msg.id` of a file of 2,000 classes deriving from one base took 38 s: the class tree's
    walks decoded the file's record once a class visited (session 39). Counted, not timed."""
    from collections import Counter

    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.lookup import find_references
    from indexer.query.workspace import open_workspace
    from indexer.store.reader import Records

    sub = "public class Msg{0} : Msg {{ public override void Apply() {{ id = {0}; }} }}\n"
    classes = "".join(sub.format(i) for i in range(300))
    root = write_project(
        tmp_path / "P",
        {"Assets/Messages.cs": "public class Msg { public int id; public virtual void Apply() {} }\n" + classes},
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    decoded: Counter[str] = Counter()
    record, symbols = Records.record, Records.symbols
    monkeypatch.setattr(Records, "record", lambda self, path: decoded.update([path]) or record(self, path))
    monkeypatch.setattr(Records, "symbols", lambda self, path: decoded.update([path]) or symbols(self, path))
    target, usages = find_references(ws, "Msg.id")
    assert target is not None and len(usages) == 300  # each subclass setting it
    assert decoded["Assets/Messages.cs"] <= 10, decoded  # a few readers, not one a class (hundreds)


def test_the_editor_heartbeat_and_a_toml_client_config_nested_too_deep_are_bad_input(tmp_path: Path) -> None:
    """msgspec raises RecursionError too: a nested `editor.json` made `doctor` an internal error, as
    a nested `~/.codex/config.toml` made `mcp install --client codex` (a review of session 39)."""
    from indexer.changes.heartbeat import HeartbeatError, parse_heartbeat

    with pytest.raises(HeartbeatError, match="nested too deep"):
        parse_heartbeat(_nested('{"protocol": ', "}").encode(), Path("editor.json"))
    root = write_project(tmp_path / "P", {"Assets/Open.cs": "public class OpenThing {}\n"})
    beat = root / "Library" / "UnityIndex" / "editor.json"
    beat.parent.mkdir(parents=True)
    beat.write_text(_nested('{"protocol": ', "}"))
    r = run_cli("doctor", "--project", str(root))
    assert r.returncode in (0, 1) and "internal error" not in r.stderr, r.stderr
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    (home / ".codex" / "config.toml").write_text("a = " + "[" * 3000 + "]" * 3000 + "\n")
    r = run_cli("mcp", "install", "--client", "codex", "--project", str(root), env={"HOME": str(home)})
    assert r.returncode == 2 and "nested too deep" in r.stderr, r.stderr


def test_the_index_folders_state_files_nested_too_deep_are_unreadable_not_an_internal_error(tmp_path: Path) -> None:
    """msgspec raises RecursionError on a thousand levels: the settings an index was built with,
    the journal's position, a build's progress, git's view and a journal line so nested are read
    as missing or unreadable (the update walks or rebuilds), never an internal error (session 39)."""
    from tests.test_gitview import git

    root = write_project(tmp_path / "P", {"Assets/Open.cs": "public class OpenThing {}\n"})
    (root / ".gitignore").write_text("Library/\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    assert run_cli("index", "--project", str(root)).returncode == 0
    index = root / "Library" / "UnityIndex"
    for name in ("settings.json", "journal.pos", "progress.json", "git-view.json"):
        (index / name).write_text(_nested('{"a": ', "}"))
    (index / "journal.jsonl").write_text(_nested() + "\n")
    for args in (("index",), ("status",), ("query", "open thing"), ("index", "--check")):
        r = run_cli(*args, "--project", str(root))
        assert r.returncode in (0, 1) and "internal error" not in r.stderr, (args, r.stderr)
