"""Attack 17 of session 51: each test failed before the fix it names.

1. A shell whose working folder was removed after it entered it (the index's `gen-N/`, which
   `index --full` replaces; a project deleted or checked out again in another terminal) made
   every command say "No such file or directory; check that this file or folder can be read and
   written (and that the disk has room)", naming nothing: `query` and `status` without
   --project, and `describe`, `refs`, `query --path` and `doctor` even with the project given
   as an absolute path, which need no working folder (Path.cwd() raised). Those answer; a
   command that needs the working folder (no --project, or a relative one) says it is gone and
   what to do (exit 2), `doctor` fails its project check so.
2. A request sent over stdio before the `initialize` handshake (a hand-written client, a proxy
   restarted mid-session) got the SDK's -32602 "Invalid request parameters" with empty data,
   whatever its parameters were; its message now says the session is not initialized and what
   to send first (the code is kept). `ping`, which MCP allows before it, and every request after
   it answer as before. So did every request whose parameters fail MCP's schema (`tools/call`
   without `name`, `resources/read` without `uri`, `initialize` without params): each names the
   parameter and pydantic's reason.
3. Run by a user the password database does not know, HOME unset (a container started with
   `--user 12345`), every command on a project with a `unity-index.toml` was an internal error
   (exit 3, "RuntimeError: Could not determine home directory"), and so were `mcp install` and
   `doctor`'s mcp-clients check; with HOME set but empty, `mcp install --client codex` wrote
   `/.codex/config.toml`, which no client reads. The home folder is found as the clients find
   theirs (`indexer/home.py`): HOME when not empty, else the password database's; where there is
   none, the index works, `doctor` says the clients' files in the home folder were not looked
   at, and `mcp install` of a user-scope file says why it cannot (exit 2).
4. Where Python does not read file names as UTF-8 (the C locale with PYTHONUTF8=0, a Latin-1
   locale), every UTF-8 name of a project (`Assets/Ünï/Héro.cs`) was skipped as "name is not plain
   UTF-8 text ...; rename the file to index it", and a project in a folder named `p é` was
   refused, "the index folder's path is not UTF-8 text". The command line runs itself again in
   UTF-8 mode (`-X utf8`). Likewise PYTHONOPTIMIZE=2 (a container image's setting) stripped the
   docstrings that describe the MCP server's tools and prompt: `tools/list` gave each tool with
   no description; the command runs again without that variable.
5. A `unity-index.toml` was read whole: a sparse file of 600 MB planted in a project took every
   command 3 s and 1.2 GB of memory before "not valid TOML". At most 1 MB is read; a larger file
   is refused at once as one that cannot be read, saying why.
6. SQLite opens no database whose path is over 504 bytes: a project folder of some 470
   characters (CI workspaces nest deep) made every command say "the index ... is damaged (record
   store: unable to open database file); run `unity-index index` to rebuild it", and `index` fail
   so for ever. Such an index folder is refused (exit 2) saying why and what to set.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from indexer.cli.main import main

from .conftest import REPO, write_project

GONE = (
    "error: the working folder no longer exists (deleted or replaced since the shell entered it: `index"
    " --full` replaces the index's generation folder, gen-N/, a checkout or `rm -rf` others); `cd` into the"
    " project again, or give --project as an absolute path\n"
)


@contextlib.contextmanager
def removed_working_folder(folder: Path) -> Iterator[None]:
    """The process's working folder is `folder`, removed after it was entered."""
    before = os.getcwd()
    folder.mkdir()
    os.chdir(folder)
    folder.rmdir()
    try:
        yield
    finally:
        os.chdir(before)


def test_a_removed_working_folder_is_said_and_an_absolute_project_answers(tmp_path: Path, capsys) -> None:
    hero, team = "public class Hero { public int hp; }\n", "public class Team { public Hero lead; }\n"
    root = write_project(tmp_path / "P", {"Assets/Scripts/Hero.cs": hero, "Assets/Scripts/Team.cs": team})
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    capsys.readouterr()
    with removed_working_folder(root / "Library" / "gone"):
        answers = {}
        for command in (["describe", "Hero"], ["refs", "Hero"], ["query", "hero", "--path", "Assets/Scripts"]):
            assert main([*command, "--project", str(root)]) == 0, command
            answers[command[0]] = capsys.readouterr().out
        for command in (["query", "hero"], ["status"], ["index", "--project", ".."], ["hook", "install"]):
            assert main(command) == 2, command
            assert capsys.readouterr().err == GONE, command
        assert answers["describe"] == (
            "Assets/Scripts/Hero.cs  (csharp)\nassembly Assembly-CSharp\nL1 public class Hero\n  L1 public int hp\n"
            "used by: Assets/Scripts/Team.cs\n"
        )
        assert answers["refs"] == "type Hero\nin code (1):\n  Assets/Scripts/Team.cs:1 [field]  " + team
        hits = {line.split()[1] for line in answers["query"].splitlines() if line[:4].strip().endswith(".")}
        assert hits == {"Assets/Scripts/Hero.cs:1", "Assets/Scripts/Team.cs:1"}
        assert main(["doctor", "--json"]) == 1
        check = next(c for c in json.loads(capsys.readouterr().out)["checks"] if c["name"] == "project")
        assert check["status"] == "fail"
        assert check["detail"] == GONE[len("error: ") : GONE.index("; `cd`")] + "; no project is found from it"
        assert check["fix"] == "`cd` into the project again, or pass --project as an absolute path"


def test_a_request_before_initialize_says_the_session_is_not_initialized(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { }\n"})
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "printf", "version": "1"}}
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "search", "arguments": {"query": "x"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "nonsense/list"},
        {"jsonrpc": "2.0", "id": 4, "method": "ping"},
        {"jsonrpc": "2.0", "id": 5, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 6, "method": "prompts/list"},
        {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"arguments": {}}},
        {"jsonrpc": "2.0", "id": 8, "method": "resources/read", "params": {"uri": 5}},
        {"jsonrpc": "2.0", "id": 9, "method": "initialize"},
    ]
    cmd = [sys.executable, "-m", "indexer.cli", "serve", "--project", str(root), "--no-watch"]
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    answers = {a["id"]: a for a in map(json.loads, r.stdout.splitlines())}
    refused = {
        "code": -32602,
        "message": "the session is not initialized: send an `initialize` request first (MCP's handshake), then the"
        " `notifications/initialized` notification, then this request",
    }
    assert answers[1]["error"] == refused
    assert answers[2]["error"] == refused
    assert answers[3]["error"] == {"code": -32601, "message": "Method not found", "data": "nonsense/list"}
    assert answers[4]["result"] == {}
    assert answers[5]["result"]["serverInfo"]["name"] == "unity-index"
    assert [p["name"] for p in answers[6]["result"]["prompts"]] == ["unity_task"]
    said = "Invalid request parameters of "
    assert answers[7]["error"] == {"code": -32602, "message": said + "tools/call: `params.name`: Field required"}
    wrong = "resources/read: `params.uri`: Input should be a valid string"
    assert answers[8]["error"] == {"code": -32602, "message": said + wrong}
    assert answers[9]["error"] == {"code": -32602, "message": said + "initialize: `params`: Field required"}


def _cli(*args: str, env: dict[str, str], cwd: Path, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """The command line run with exactly `env` (and what Python needs to find the code)."""
    env = {**env, "PYTHONPATH": str(REPO), "PATH": os.environ.get("PATH", "")}
    command = [*prefix, sys.executable, "-m", "indexer.cli", *args]
    return subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_an_empty_home_is_the_home_the_password_database_gives(tmp_path: Path) -> None:
    import pwd

    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { }\n"})
    r = _cli("mcp", "install", "--client", "codex", "--dry-run", "--project", str(root), env={"HOME": ""}, cwd=root)
    home = pwd.getpwuid(os.getuid()).pw_dir
    assert (r.returncode, r.stdout.splitlines()[0]) == (
        0,
        f"would write {home}/.codex/config.toml (codex, user scope):",
    )


def test_a_user_without_a_home_folder_indexes_and_is_told_what_needs_one(tmp_path: Path) -> None:
    unknown = ("unshare", "--user", "--map-user=54321", "--map-group=54321")
    if shutil.which("unshare") is None or subprocess.run([*unknown, "true"], capture_output=True).returncode != 0:
        pytest.skip("needs `unshare --user` to run as a user the password database does not know")
    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { }\n"})
    toml = root / "unity-index.toml"
    toml.write_text('index_dir = "Library/Elsewhere"\n')
    r = _cli("index", "--quiet", "--project", str(root), env={}, cwd=root, prefix=unknown)
    assert (r.returncode, r.stderr) == (0, "")
    why = "HOME is not set and user 54321 has no home folder in the password database"
    r = _cli("mcp", "install", "--client", "codex", "--project", str(root), env={}, cwd=root, prefix=unknown)
    said = f"error: --client codex keeps its user configuration in the home folder, which is unknown ({why}):"
    assert (r.returncode, r.stderr) == (2, said + " set HOME to your home folder\n")
    r = _cli("doctor", "--json", "--project", str(root), env={}, cwd=root, prefix=unknown)
    check = next(c for c in json.loads(r.stdout)["checks"] if c["name"] == "mcp-clients")
    assert (check["status"], check["detail"]) == (
        "warn",
        "no coding agent is configured to start unity-index for this project; the clients' files in the home"
        f" folder were not looked at: it is unknown ({why})",
    )
    toml.write_text('index_dir = "~/Index"\n')
    r = _cli("index", "--project", str(root), env={}, cwd=root, prefix=unknown)
    assert (r.returncode, r.stderr) == (
        2,
        f"error: {toml}: index_dir names the home folder, which is unknown ({why}) (got '~/Index'); give a folder,"
        " e.g. Library/UnityIndex\n",
    )


def test_a_locale_reading_names_as_ascii_still_reads_the_projects_utf8_names(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p é", {"Assets/Ünï/Héro.cs": "public class Héro { public int vie; }\n"})
    env = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    r = _cli("index", "--quiet", "--project", str(root), env=env, cwd=REPO)
    assert (r.returncode, r.stderr) == (0, "")
    r = _cli("describe", "Assets/Ünï/Héro.cs", "--project", str(root), env=env, cwd=REPO)
    out = "Assets/Ünï/Héro.cs  (csharp)\nassembly Assembly-CSharp\nL1 public class Héro\n  L1 public int vie\n"
    assert (r.returncode, r.stdout, r.stderr) == (0, out, "")


def test_a_huge_configuration_file_is_refused_without_reading_it(tmp_path: Path, capsys) -> None:
    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { }\n"})
    toml = root / "unity-index.toml"
    with toml.open("wb") as f:
        f.truncate(600 * 1024 * 1024)  # sparse: no disk taken
    assert main(["status", "--project", str(root)]) == 2
    said = f"error: {toml}: cannot read it (larger than 1 MB, where a configuration is a few lines)\n"
    assert capsys.readouterr().err == said
    toml.write_text("# a configuration of 1 MB, comments and all\n" + "#" * (1024 * 1024 - 60) + "\nworkers = 1\n")
    assert main(["index", "--quiet", "--project", str(root)]) == 0


def served_descriptions(root: Path, flags: list[str], env: dict[str, str]) -> list[tuple[str, str | None]]:
    """Each MCP tool's and prompt's (name, description) as `serve` over stdio lists them, run by
    Python with `flags` in `env`."""
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "printf", "version": "1"}}
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "prompts/list"},
    ]
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    cmd = [sys.executable, *flags, "-m", "indexer.cli", "serve", "--project", str(root), "--no-watch"]
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
    answers = {a["id"]: a["result"] for a in map(json.loads, r.stdout.splitlines())}
    described = [(t["name"], t.get("description")) for t in answers[2]["tools"]]
    return described + [(p["name"], p.get("description")) for p in answers[3]["prompts"]]


def test_pythonoptimize_2_keeps_the_tools_descriptions(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { }\n"})
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    listed = [served_descriptions(root, [], env | optimize) for optimize in ({}, {"PYTHONOPTIMIZE": "2"})]
    assert all(description for _, description in listed[0])
    assert listed[1] == listed[0]


def test_an_index_folder_too_long_for_sqlite_is_refused_saying_why(tmp_path: Path, capsys) -> None:
    deep = tmp_path
    while len(os.fsencode(deep)) < 470:
        deep = deep / ("d" * 60)
    root = write_project(deep, {"Assets/Hero.cs": "public class Hero { }\n"})
    where = root / "Library" / "UnityIndex"
    assert main(["index", "--project", str(root)]) == 2
    n = len(os.fsencode(where))
    assert capsys.readouterr().err == (
        f"error: the index folder's path is {n} bytes long ({str(where)[:80]}...), and its record store, SQLite,"
        " opens no file whose path is over 504 bytes (its files are gen-N/records.db in that folder); set"
        " index_dir in unity-index.toml to a folder of a path of at most 483 bytes (an absolute one)\n"
    )
    (root / "unity-index.toml").write_text(f'index_dir = "{tmp_path / "Index"}"\n')
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    assert main(["describe", "Assets/Hero.cs", "--project", str(root)]) == 0
    assert capsys.readouterr().out == "Assets/Hero.cs  (csharp)\nassembly Assembly-CSharp\nL1 public class Hero\n"
