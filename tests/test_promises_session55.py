"""Promises of docs/configuration.md, docs/mcp.md and docs/cli.md that no test held (session 55's
audit): each asserted through the real CLI or a real MCP session, and seen failing with the code
that keeps it broken (the commit messages say how)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .conftest import REPO, run_cli, write_project

HERO = {"Assets/Hero.cs": "public class Hero { }\n"}


def _stdio(root: Path, lines: list[dict]) -> dict:
    """The answers, by id, of a stdio server given `lines` (stdin then closed)."""
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    cmd = [sys.executable, "-m", "indexer.cli", "serve", "--project", str(root), "--no-watch"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    return {a["id"]: a for a in map(json.loads, r.stdout.splitlines())}


_HANDSHAKE = [
    {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
]


# -- docs/configuration.md ---------------------------------------------------------------------

_LIBRARY_OWN = (
    *("PackageCache", "ScriptAssemblies", "Artifacts", "Bee", "ShaderCache", "StateCache", "PlayerDataCache"),
    *("BuildPlayerData", "TempArtifacts", "APIUpdater", "Il2cppBuildCache", "BurstCache", "Search"),
)


def test_every_folder_unity_owns_in_library_is_refused_as_index_dir(tmp_path: Path) -> None:
    """configuration.md: "one of Unity's own folders in `Library` or a folder in them (`PackageCache`,
    ..., `Search`: Unity deletes and rebuilds them)" is refused, exit 2 (tests held three of the
    thirteen); a folder of its own beside them (`Library/MyIndex`) is fine."""
    root = write_project(tmp_path / "Game", HERO)
    toml = root / "unity-index.toml"
    for name in _LIBRARY_OWN:
        toml.write_text(f'index_dir = "Library/{name}/Index"\n')
        r = run_cli("status", "--project", str(root))
        where = root / "Library" / name / "Index"
        assert (r.returncode, r.stdout, r.stderr) == (
            2,
            "",
            f"error: {toml}: index_dir must be a folder of its own (got 'Library/{name}/Index', which is {where}):"
            f" Unity deletes and rebuilds Library/{name}; the default is Library/UnityIndex\n",
        ), name
    toml.write_text('index_dir = "Library/BurstCacheOfMine"\n')
    assert run_cli("index", "--quiet", "--project", str(root)).returncode == 0
    assert (root / "Library/BurstCacheOfMine/index.json").is_file()


def _folder_of(tmp_path: Path, size: int) -> Path:
    """A folder path under `tmp_path` exactly `size` bytes long (not made)."""
    where = tmp_path / "I"
    while len(os.fsencode(where)) < size:
        room = size - len(os.fsencode(where)) - 1
        where = where / ("x" * min(room, 200) if room > 1 else "y")
    assert len(os.fsencode(where)) == size
    return where


def test_an_index_folder_of_483_bytes_is_taken_and_one_of_484_refused(tmp_path: Path) -> None:
    """configuration.md: "An index folder ... whose path is over 483 bytes is refused (exit 2) ...
    (gen-99,999 is allowed for)": one of 483 bytes builds and answers, one byte more is refused
    with the documented message."""
    root = write_project(tmp_path / "Game", HERO)
    toml = root / "unity-index.toml"
    taken = _folder_of(tmp_path, 483)
    toml.write_text(f'index_dir = "{taken}"\n')
    r = run_cli("index", "--quiet", "--project", str(root))
    assert (r.returncode, r.stderr) == (0, "")
    r = run_cli("describe", "Assets/Hero.cs", "--project", str(root))
    assert (r.returncode, r.stdout) == (0, "Assets/Hero.cs  (csharp)\nassembly Assembly-CSharp\nL1 public class Hero\n")
    refused = _folder_of(tmp_path / "J", 484)
    toml.write_text(f'index_dir = "{refused}"\n')
    r = run_cli("index", "--project", str(root))
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == (
        f"error: {toml}: the index folder's path is 484 bytes long ({str(refused)[:80]}...), and its record store,"
        " SQLite, opens no file whose path is over 504 bytes (its files are gen-N/records.db in that folder);"
        " set index_dir in unity-index.toml to a folder of a path of at most 483 bytes (an absolute one)\n"
    )
    assert not refused.exists()


# -- docs/mcp.md ---------------------------------------------------------------------------------


def test_parameters_failing_the_schema_are_named_the_first_three_then_how_many_more(tmp_path: Path) -> None:
    """mcp.md: "Parameters that fail MCP's schema are `-32602` naming each (the first three) with
    pydantic's reason": a fourth is counted, `; and 1 more`, not named; three are all named."""
    root = write_project(tmp_path / "P", HERO)
    three = {"name": 5, "arguments": 5, "_meta": 5}
    lines = [
        *_HANDSHAKE,
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {**three, "task": 5}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": three},
    ]
    answers = _stdio(root, lines)
    named = (
        "Invalid request parameters of tools/call: `params._meta`: Input should be a valid dictionary or instance"
        " of Meta; `params.arguments`: Input should be a valid dictionary; `params.name`: Input should be a valid"
        " string"
    )
    assert answers[1]["error"] == {"code": -32602, "message": named + "; and 1 more"}
    assert answers[2]["error"] == {"code": -32602, "message": named}


def test_a_web_page_s_origin_is_refused_with_the_documented_answer_and_a_log_line(tmp_path: Path) -> None:
    """mcp.md: a request carrying an `Origin` header is refused "(403, `Origin http://localhost:5173 is
    not allowed: ...`, and a log line) unless `--allow-origin ORIGIN` lists it"."""
    import httpx2 as httpx

    from .test_mcp_transports import _start_http

    root = write_project(tmp_path / "P", HERO)
    proc, port = _start_http(root, "--no-watch")
    try:
        body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": _HANDSHAKE[0]["params"]}
        headers = {"Accept": "application/json, text/event-stream", "Origin": "http://localhost:5173"}
        r = httpx.post(f"http://127.0.0.1:{port}/mcp", json=body, headers=headers, timeout=30)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert (r.status_code, r.text) == (
        403,
        "Origin http://localhost:5173 is not allowed: MCP clients send no Origin, a browser page does;"
        " `unity-index serve --allow-origin http://localhost:5173` lets this one\n",
    )
    said = "refused a request from the web page at http://localhost:5173 (--allow-origin http://localhost:5173 lets it)"
    assert [line for line in err.decode().splitlines() if "web page" in line] == [f"unity-index: {said}"]


def test_a_call_in_watch_mode_makes_a_hidden_sync_cookie_in_each_watched_folder_and_leaves_none(
    tmp_path: Path,
) -> None:
    """mcp.md: before answering, a call "creates a hidden cookie file `.unity-index-sync-<pid>-<n>-<i>`
    in each watched folder (Unity imports no file whose name starts with a dot) and deletes it at
    once", the project folder among them (watched, not recursively, for its content folders coming
    and going): seen by an observer of the test's own, over a real stdio session in watch mode."""
    import re

    from watchdog.events import FileSystemEvent, FileSystemEventHandler
    from watchdog.observers import Observer

    root = write_project(tmp_path / "P", {**HERO, "Packages/manifest.json": '{"dependencies": {}}\n'})
    seen: list[str] = []

    class Made(FileSystemEventHandler):
        def on_created(self, event: FileSystemEvent) -> None:
            seen.append(os.path.relpath(os.fsdecode(event.src_path), root))

    observer = Observer()
    observer.schedule(Made(), str(root), recursive=True)
    observer.start()
    call = {"name": "search", "arguments": {"query": "hero"}}
    lines = [*_HANDSHAKE, *({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": call} for i in (1, 2))]
    cmd = [sys.executable, "-m", "indexer.cli", "serve", "--project", str(root)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        out, err = proc.communicate("".join(json.dumps(line) + "\n" for line in lines).encode(), timeout=120)
    finally:
        observer.stop()
        observer.join()
    assert proc.returncode == 0, err
    answers = {a["id"]: a["result"] for a in map(json.loads, out.splitlines()) if "id" in a}
    assert [answers[i].get("isError", False) for i in (1, 2)] == [False, False], out
    cookies = [rel for rel in seen if ".unity-index-sync-" in rel]
    shape = re.compile(rf"(?:(Assets|Packages|ProjectSettings)/)?\.unity-index-sync-{proc.pid}-(\d+)-[0-3]")
    assert cookies and all(shape.fullmatch(rel) for rel in cookies), cookies
    calls = {shape.fullmatch(rel).group(2) for rel in cookies}
    folders = sorted(shape.fullmatch(rel).group(1) or "." for rel in cookies)
    assert folders == sorted([".", "Assets", "Packages", "ProjectSettings"] * len(calls)), cookies
    assert [p for p in root.rglob(".unity-index-sync-*")] == []


# -- docs/cli.md ---------------------------------------------------------------------------------


def test_watch_applies_a_batch_at_least_every_second_while_events_never_stop(tmp_path: Path) -> None:
    """cli.md, `watch`: "changed paths are collected until 100 ms pass without an event (at most 1 s
    per batch)": a file saved every 50 ms for 6 s (a game writing into Assets/ in play mode) has
    batches applied while the writes go on, not one after they stop."""
    import threading
    import time

    from .conftest import start_cli
    from .test_watch import watching

    root = write_project(tmp_path / "Game", HERO)
    proc = start_cli("watch", "--json", "--project", str(root))
    arrived: list[tuple[float, dict]] = []
    reader = threading.Thread(target=lambda: [arrived.append((time.monotonic(), json.loads(x))) for x in proc.stdout])
    reader.start()
    try:
        watching(proc)
        started = time.monotonic()
        i = 0
        while time.monotonic() - started < 6.0:
            (root / "Assets/Log.cs").write_text(f"public class Log {{ }} // {i}\n")
            i += 1
            time.sleep(0.05)
        stopped = time.monotonic()
        time.sleep(1.5)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        reader.join(timeout=30)
    during = [batch for at, batch in arrived if at < stopped]
    assert len(during) >= 2, [(round(at - started, 2), batch["paths"]) for at, batch in arrived]
    assert all(batch["paths"] == ["Assets/Log.cs"] for batch in during), during


def test_index_exit_zero_turns_an_internal_error_and_a_time_limit_into_exit_0(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """cli.md, `index`: "`--exit-zero` exits 0 instead of 2 or 3 when the update fails or gives up
    (the error still printed)": a bug in the update (exit 3 without it) and a `--time-limit`
    reached (exit 2 without it) both exit 0 with it, their one line printed as before."""
    import time

    import indexer.build.update
    from indexer.cli.main import main

    root = write_project(tmp_path / "Game", HERO)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in the update")

    def slow(*args: object, **kwargs: object) -> None:
        for _ in range(300):  # a long scan, in short steps (the limit interrupts between them)
            time.sleep(0.1)

    bug = "error: internal error: RuntimeError: a bug in the update (a bug: run again with --debug and report the"
    late = f"error: the index of {root} was not brought up to date within 0.2 s (--time-limit; it keeps its last state)"
    for update, extra, code, said in ((broken, (), 3, bug), (slow, ("--time-limit", "0.2"), 2, late)):
        monkeypatch.setattr(indexer.build.update, "update", update)
        for zero, expected in (((), code), (("--exit-zero",), 0)):
            assert main(["index", *extra, *zero, "--project", str(root)]) == expected, (update, zero)
            out, err = capsys.readouterr()
            assert (out, err.startswith(said), err.count("\n")) == ("", True, 1), err


def test_an_empty_task_target_or_path_and_a_budget_under_one_token_are_exit_2_saying_so(tmp_path: Path) -> None:
    """cli.md, exit codes: 2 is "a bad option or value, ... an empty query" for every command;
    held for `query`, here for `context`, `refs` and `describe` (a blank argument, a script's
    unset variable) and `context --budget 0`, each one line saying what to give, nothing written."""
    root = write_project(tmp_path / "Game", HERO)
    cases = {
        ("context", "  "): "the task is empty: describe it, e.g. unity-index context"
        ' "add a shield that absorbs damage"',
        ("refs", ""): "the target is empty: give a type, Type.Member, a path or a GUID",
        ("describe", ""): "give a project path or a GUID to describe",
        ("context", "add a shield", "--budget", "0"): "--budget must be at least 1 token",
    }
    for args, said in cases.items():
        r = run_cli(*args, "--project", str(root))
        assert (r.returncode, r.stdout, r.stderr) == (2, "", f"error: {said}\n"), args
    assert not (root / "Library").exists()


def test_doctor_after_an_invalid_config_says_the_index_is_not_checked_and_what_to_fix(tmp_path: Path) -> None:
    """cli.md, doctor: a check depending on one that did not pass is left out, "but for `index`
    after an invalid `config`: it is a warning, `not checked: the configuration is invalid` (fix:
    `fix the config check first`)"; the config check fails (exit 1) naming the file and the key."""
    root = write_project(tmp_path / "Game", {"unity-index.toml": "excludes = []\n"})
    r = run_cli("doctor", "--json", "--project", str(root), env={"HOME": str(tmp_path / "home")})
    assert r.returncode == 1, r.stderr
    checks = {c["name"]: c for c in json.loads(r.stdout)["checks"]}
    toml = root / "unity-index.toml"
    assert checks["config"] == {
        "name": "config",
        "status": "fail",
        "detail": f"{toml}: Object contains unknown field `excludes`; the keys are index_dir (a folder), max_file_mb"
        " (a number), exclude (a list of globs), include_package_cache (true or false), workers (an integer)",
        "fix": f"correct or remove the setting in {toml}",
    }
    assert checks["index"] == {
        "name": "index",
        "status": "warn",
        "detail": "not checked: the configuration is invalid",
        "fix": "fix the config check first",
    }
    assert not {"index-intact", "index-current", "index-consistent"} & set(checks)


def test_a_token_holding_a_control_character_is_refused_before_anything_listens(tmp_path: Path) -> None:
    """mcp.md: "A token that no client can send (a space, a control character or one outside ASCII
    ...) is exit 2 before anything listens": the space and non-ASCII forms are held in
    test_mcp_transports; here a tab and a control character."""
    root = write_project(tmp_path / "P", HERO)
    from .conftest import start_cli

    for token in ("s3cret\x01token-0123456789", "s3cret\ttoken-0123456789", "s3cret-token-0123456789\x7f"):
        proc = start_cli("serve", "--project", str(root), "--transport", "http", "--port", "0", "--token", token)
        try:
            out, err = proc.communicate(timeout=20)  # a server that took the token would run on
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        assert (proc.returncode, out, err) == (
            2,
            "",
            "error: --token must be visible ASCII characters, no spaces: clients send it in a header,"
            " 'Authorization: Bearer SECRET'\n",
        ), repr(token)
