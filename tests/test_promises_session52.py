"""Session 52's audit of the promises sessions 48-51 wrote (docs/cli.md, docs/mcp.md,
docs/configuration.md and the docstrings of the modules they changed): each test here holds one
that no test held, and each was seen failing with the code path it names broken.

1. A message stderr cannot take (`2>/dev/full`) ended the command: `query` printed no answer and
   exited 1, an error's exit 2 became 1 (console.py; the exit codes of docs/cli.md).
2. `--allow-origin null` lets a `null` Origin in; a request without a session is the SDK's 400
   (docs/mcp.md; that part pins the SDK's behaviour, which no code of ours makes).
3. `"7"` and `7` are one request id over stdio (docs/mcp.md, stdio.py `InFlight`).
4. (`python -OO` given on the command line was kept, as docs/cli.md said; attack 19 made it run
   again without the `-O` options: tests/test_attack19_session52.py holds that.)
5. `~name/...` is under that user's home folder (home.py `expand_home`).
6. Every folder of Unity's own in `Library` that docs/configuration.md lists is refused as
   `index_dir`.
7. A `--path` tail two folders end with, in two cases, is the one in the case typed
   (paths.py `folders_ending`).
8. The HTTP server's waiting connections: a quarter of the limit of open files, at least 8, at
   most 2,048 (docs/mcp.md, http_connections.py `connection_share`).
9. Each tool's structured content holds the fields docs/mcp.md's table gives it, nested ones too.
10. The `unity_task` prompt repeats the task up to as many characters as its budget has tokens.
11. The server's options (`host`, `token`, `allow_origin`...) are refused in `unity-index.toml`.
12. `serve` over stdio ended by SIGTERM or SIGHUP leaves its scanners' folder, which the next command
    starting scanner processes removes (docs/mcp.md said: not measured on `serve` itself).
13. Over HTTP two 2026-07-28 requests of one id in flight are each answered on their own POST
    (docs/mcp.md said: read from the SDK's code, no test here).
"""

from __future__ import annotations

import json
import os
import pwd
import re
import resource
import subprocess
import sys
from pathlib import Path

import anyio
import httpx2 as httpx
import pytest

from .conftest import CLI_ENV, REPO, SLOW_CSHARP, mono_script, write_project
from .test_mcp_transports import _start_http
from .test_trust_session48 import INIT, _call, _serve_stdio

DOCS = REPO / "docs"


def _cli(*args: str, stderr: object) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "indexer.cli", *args]
    env = {**os.environ, **CLI_ENV}
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=stderr, text=True, env=env, cwd=REPO, timeout=120)


# -- 1. a stderr that cannot take a message ------------------------------------------------------


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_message_stderr_cannot_take_is_dropped_and_the_command_goes_on(tmp_path: Path) -> None:
    """`query` after a change says "files changed since ...: updated it" on stderr: onto a full
    disk that write failed, and the command exited 1 with no answer. An error's exit code is 2
    however its message fares (docs/cli.md, exit codes)."""
    root = write_project(tmp_path / "Game", {"Assets/Hero.cs": "public class Hero { }\n"})
    assert _cli("index", "--project", str(root), stderr=subprocess.PIPE).returncode == 0
    (root / "Assets/Foe.cs").write_text("public class Foe { }\n")
    with open("/dev/full", "w") as full:
        answered = _cli("query", "Hero", "--limit", "1", "--project", str(root), stderr=full)
        refused = _cli("query", "Hero", "--project", str(tmp_path / "nowhere"), stderr=full)
    again = _cli("query", "Hero", "--limit", "1", "--project", str(root), stderr=subprocess.PIPE)
    assert (again.returncode, again.stderr) == (0, "")  # the first brought the index up to date
    assert answered.returncode == 0
    assert answered.stdout == again.stdout and again.stdout.startswith(" 1. Assets/Hero.cs:1  [csharp] Hero  (")
    (root / "Assets/Imp.cs").write_text("public class Imp { }\n")
    with open("/dev/full", "w") as full:
        indexed = _cli("index", "--project", str(root), stderr=full)
    assert (refused.returncode, refused.stdout) == (2, "")
    assert (indexed.returncode, indexed.stdout) == (0, "")


# -- 2. HTTP: a `null` origin listed, a request with no session ---------------------------------


HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def test_allow_origin_null_lets_a_null_origin_in_and_a_request_without_session_is_400(tmp_path: Path) -> None:
    """docs/mcp.md: "`null` only when listed" (a sandboxed page, a file), and "Over HTTP a request
    without a session is refused by the SDK, `400`, `Bad Request: Missing session ID`"."""
    root = write_project(tmp_path / "Game", {"Assets/Hero.cs": "public class Hero { }\n"})
    proc, port = _start_http(root, "--no-watch", "--allow-origin", "null")
    try:
        url = f"http://127.0.0.1:{port}/mcp"
        opening = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT}
        assert httpx.post(url, json=opening, headers={**HEADERS, "Origin": "null"}, timeout=30).status_code == 200
        other = httpx.post(url, json=opening, headers={**HEADERS, "Origin": "http://localhost:5173"}, timeout=30)
        assert other.status_code == 403
        listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
        r = httpx.post(url, json=listing, headers=HEADERS, timeout=30)
        assert (r.status_code, r.json()["error"]["message"]) == (400, "Bad Request: Missing session ID")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


# -- 3. stdio: "7" and 7 are one id ---------------------------------------------------------------


def test_stdio_a_string_id_equal_to_a_number_in_flight_is_a_duplicate(tmp_path: Path) -> None:
    """docs/mcp.md: "`"7"` and `7` count as one id, as the SDK correlates them": the second is
    refused naming the id as sent, the first answered."""
    files = {"Assets/Spawner.cs": mono_script("Spawner", "public int hp;"), "Assets/Slow.cs": SLOW_CSHARP}
    root = write_project(tmp_path / "Game", files)  # the slow script keeps the first call in flight
    answers = _serve_stdio(
        root,
        [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            _call(7, "search", {"query": "spawner"}),
            _call("7", "index_status", {}),
        ],
    )
    by_id = {json.dumps(a["id"]): a for a in answers}
    assert sorted(by_id) == ['"7"', "1", "7"], answers
    assert by_id['"7"']["error"] == {
        "code": -32600,
        "message": 'Invalid Request: duplicate request id "7" while one is in flight',
    }
    assert by_id["7"]["result"]["structuredContent"]["results"][0]["path"] == "Assets/Spawner.cs"


# -- 5. ~name ------------------------------------------------------------------------------------------


def test_a_tilde_and_a_user_name_is_under_that_users_home_folder() -> None:
    """home.py `expand_home`: "`~name/...` under that user's"; None for a user unknown."""
    from indexer.home import expand_home

    entry = pwd.getpwuid(os.getuid())
    assert expand_home(f"~{entry.pw_name}/idx/p") == str(Path(entry.pw_dir) / "idx" / "p")
    assert expand_home(f"~{entry.pw_name}") == entry.pw_dir
    assert expand_home("~no-such-user-here/idx") is None


# -- 6. Unity's own folders in Library, as docs/configuration.md lists them --------------------------


def _documented_unity_folders() -> list[str]:
    text = " ".join((DOCS / "configuration.md").read_text().split())
    listed = re.search(r"one of Unity's own folders in `Library` or a folder in them \((.*?): Unity deletes", text)
    assert listed is not None
    return re.findall(r"`([A-Za-z0-9]+)`", listed.group(1))


def test_every_folder_of_unity_s_own_in_library_the_docs_list_is_refused(tmp_path: Path) -> None:
    from indexer.config import ConfigError, load_config

    names = _documented_unity_folders()
    assert len(names) == 13 and names[0] == "PackageCache" and names[-1] == "Search"
    for name in names:
        for index_dir in (f"Library/{name}", f"Library/{name}/Idx"):
            root = write_project(tmp_path / name / "Game", {"unity-index.toml": f'index_dir = "{index_dir}"\n'})
            with pytest.raises(ConfigError) as caught:
                load_config(root)
            assert f"Unity deletes and rebuilds Library/{name}; the default is" in str(caught.value), index_dir
    root = write_project(tmp_path / "Mine" / "Game", {"unity-index.toml": 'index_dir = "Library/MyIndex"\n'})
    assert load_config(root).index_dir == "Library/MyIndex"


# -- 7. a folder's tail in the case typed ----------------------------------------------------------


def test_a_folder_tail_two_folders_end_with_in_two_cases_is_the_one_in_the_case_typed() -> None:
    """paths.py `folders_ending`: "of several, the one in the case typed if only one is"; typed in
    neither case, both are listed (the caller refuses it as ambiguous)."""
    from indexer.paths import folders_ending

    paths = ["Assets/A/Enemy/Boss.cs", "Assets/B/enemy/Imp.cs", "Assets/C/EnemyBoss/X.cs"]
    assert folders_ending("Enemy", paths) == ["Assets/A/Enemy"]
    assert folders_ending("enemy/", paths) == ["Assets/B/enemy"]
    assert folders_ending("ENEMY", paths) == ["Assets/A/Enemy", "Assets/B/enemy"]


# -- 8. how many connections wait --------------------------------------------------------------------


def _share_under(soft: int) -> int:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    code = "from mcp_adapter.http_connections import connection_share; print(connection_share())"
    env = {**os.environ, **CLI_ENV}
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env, preexec_fn=limit, timeout=60
    )
    assert r.returncode == 0, r.stderr
    return int(r.stdout)


def test_connections_waiting_are_a_quarter_of_the_open_files_limit_at_least_8_at_most_2048() -> None:
    """docs/mcp.md: "at most a quarter of the limit of open files (`ulimit -n`; at most 2,048)";
    http_connections.py: at least MIN_SHARE, 8."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    assert [_share_under(n) for n in (256, 1024, 24)] == [64, 256, 8]
    if hard == resource.RLIM_INFINITY or hard >= 16384:
        assert _share_under(16384) == 2048


# -- 9. the fields of each tool's structured content, as docs/mcp.md's table gives them ------------


def _fields(text: str, i: int = 0) -> tuple[dict[str, object], int]:
    """`{a, b: {c}, d: [{e}], f: [Hit]}` read into {name: None | fields | [fields] | [name]}, and
    where it ends."""
    assert text[i] == "{", text[i:]
    out: dict[str, object] = {}
    i += 1
    while text[i] != "}":
        name = re.match(r"\s*(\w+)", text[i:])
        assert name is not None, text[i:]
        i += name.end()
        value: object = None
        if text[i] == ":":
            i += 1 + len(text[i + 1 :]) - len(text[i + 1 :].lstrip())
            if text[i] == "{":
                value, i = _fields(text, i)
            elif text[i] == "[" and text[i + 1] == "{":
                inner, i = _fields(text, i + 1)
                value, i = [inner], i + 1
            else:
                word = re.match(r"\[?(\w+)\]?", text[i:])
                assert word is not None, text[i:]
                value, i = [word.group(1)], i + word.end()
        out[name.group(1)] = value
        i += 1 if text[i] == "," else 0
    return out, i + 1


def _documented_outputs() -> dict[str, dict[str, object]]:
    """tool -> the fields of its structured content, from the table's third column."""
    rows = re.findall(r"^\| `(\w+)` \| [^|]* \| (.*?) \|", (DOCS / "mcp.md").read_text(), re.M)
    out = {}
    for tool, column in rows:
        braces = re.search(r"`(\{.*?\})`", column)
        if braces is not None:
            out[tool] = _fields(braces.group(1))[0]
    hit = re.search(r"Hit = `(\{.*?\})`", (DOCS / "mcp.md").read_text())
    assert hit is not None
    out["search"]["results"] = [_fields(hit.group(1))[0]]
    return out


def _same_fields(doc: dict[str, object], answer: dict, where: str) -> None:
    assert sorted(answer) == sorted(doc), where
    for name, inner in doc.items():
        if isinstance(inner, dict):
            _same_fields(inner, answer[name], f"{where}.{name}")
        elif isinstance(inner, list) and isinstance(inner[0], dict) and answer[name]:
            for i, item in enumerate(answer[name]):
                _same_fields(inner[0], item, f"{where}.{name}[{i}]")


def test_each_tool_answers_the_fields_the_table_of_docs_mcp_md_gives(indexed_fixture: Path) -> None:
    """docs/mcp.md's table of tools, third column: every field, nested ones too, and no
    other, in any order (the editor tools need an editor: tests/test_promises_mcp.py)."""
    from mcp import Client

    from indexer.query.workspace import open_workspace, projects_at
    from mcp_adapter.server.app import create_server

    doc = _documented_outputs()
    calls = {
        "search": {"query": "player health"},
        "get_context": {"task": "player takes damage", "budget": 2000},
        "find_references": {"target": "PlayerHealth"},
        "describe": {"target": "Assets/Prefabs/Player.prefab"},
        "project_overview": {},
        "index_status": {},
        "refresh": {},
    }
    assert sorted(doc) == sorted([*calls, "editor_tools", "editor_call"])
    server = create_server(
        open_workspace(indexed_fixture, projects_at(indexed_fixture)), refresh_interval=0, tokenizer="estimate"
    )

    async def go() -> dict[str, dict]:
        async with Client(server) as c:
            return {tool: (await c.call_tool(tool, args)).structured_content for tool, args in calls.items()}

    for tool, answer in anyio.run(go).items():
        _same_fields(doc[tool], answer, tool)


# -- 10. the prompt repeats the task up to the budget's tokens in characters -------------------------


def test_the_prompt_repeats_the_task_up_to_as_many_characters_as_the_budget_has_tokens(tmp_path: Path) -> None:
    """prompts.py `unity_task`: "The task is repeated up to as many characters as the budget has
    tokens (200 at least)": 1,000 at a budget of 1,000 (tests/test_mcp_session38.py checks 200 at a
    budget of 200, the least a budget may be)."""
    from mcp import Client

    from indexer.query.workspace import open_workspace, projects_at
    from indexer.words import echoed
    from mcp_adapter.server.app import create_server

    root = write_project(tmp_path / "Game", {"Assets/Hero.cs": "public class Hero { public int hp; }\n"})
    server = create_server(open_workspace(root, projects_at(root)), refresh_interval=0, tokenizer="estimate")
    whole, cut = "hero " * 190, "hero " * 300  # 950 and 1,500 characters

    async def go() -> list[str]:
        async with Client(server) as c:
            prompts = [await c.get_prompt("unity_task", {"task": t, "budget": "1000"}) for t in (whole, cut)]
            return [p.messages[0].content.text for p in prompts]

    texts = anyio.run(go)
    assert texts[0].startswith(f"Task: {whole}\n\n")
    assert texts[1].startswith(f"Task: {echoed(cut, 1000)}\n\n") and echoed(cut, 1000).endswith("… (1,500 characters)")


# -- 11. the server's options are no settings of unity-index.toml --------------------------------------


@pytest.mark.parametrize("key", ["host", "token", "allow_origin", "allow_remote", "port"])
def test_the_server_s_options_are_refused_in_unity_index_toml(tmp_path: Path, key: str) -> None:
    """docs/configuration.md: "The server's own options (`serve --host`, `--token`,
    `--allow-origin`) are not read from this file": a cloned project must not choose who may reach
    your server. Such a key is an unknown one, exit 2 on every command."""
    root = write_project(tmp_path / "Game", {"Assets/Hero.cs": "public class Hero { }\n"})
    (root / "unity-index.toml").write_text(f'{key} = "x"\n')
    r = _cli("status", "--project", str(root), stderr=subprocess.PIPE)
    assert r.returncode == 2
    assert r.stderr.startswith(f"error: {root / 'unity-index.toml'}: Object contains unknown field `{key}`; the keys")


# -- 12. serve over stdio killed by SIGTERM: its scanners' folder goes at the next command ----------


def _big_script(name: str) -> str:
    """A script over 256 KB: scanned in a scanner process (build/workers.py), so the fork server
    and its folder are started."""
    fields = "".join(f"    public int field{i} = {i};\n" for i in range(9000))
    return f"public class {name} : UnityEngine.MonoBehaviour\n{{\n{fields}}}\n"


def _scratch_folders(pid: int) -> list[Path]:
    import tempfile

    bases = {Path(tempfile.gettempdir()), Path("/tmp")}
    return sorted(p for base in bases for p in base.glob(f"unity-index-{pid}-*"))


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_serve_over_stdio_ended_by_a_signal_leaves_a_folder_the_next_command_removes(tmp_path: Path, name: str) -> None:
    """docs/mcp.md: "Over stdio SIGTERM keeps its default action ...: the scanners' fork server's
    temporary folder it leaves, `unity-index-<pid>-XXXX`, is removed by the next run of any command
    that starts scanner processes, as after a SIGKILL" (it said: not measured on `serve` itself).
    "SIGHUP over stdio likewise"."""
    import signal

    stop = getattr(signal, name)
    served = write_project(tmp_path / "Served", {"Assets/Huge.cs": _big_script("Huge")})
    other = write_project(tmp_path / "Other", {"Assets/Vast.cs": _big_script("Vast")})
    cmd = [sys.executable, "-m", "indexer.cli", "serve", "--project", str(served), "--no-watch"]
    proc = subprocess.Popen(
        cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=REPO,
        env={**os.environ, **CLI_ENV}, text=True,
    )  # fmt: skip
    try:
        for message in (
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            _call(2, "search", {"query": "huge"}),
        ):
            proc.stdin.write(json.dumps(message) + "\n")  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]
        answer = {}
        while answer.get("id") != 2:  # the answers and notifications before it
            answer = json.loads(proc.stdout.readline())  # type: ignore[union-attr]
        assert answer["result"]["structuredContent"]["results"][0]["path"] == "Assets/Huge.cs"
        left = _scratch_folders(proc.pid)
        assert len(left) == 1 and (left[0] / "owner.lock").exists()
        proc.send_signal(stop)
        assert proc.wait(timeout=30) == -stop  # its default action: the process ends at once
    finally:
        proc.kill()
    assert _scratch_folders(proc.pid) == left  # left behind
    assert _cli("index", "--quiet", "--project", str(other), stderr=subprocess.PIPE).returncode == 0
    assert _scratch_folders(proc.pid) == []


# -- 13. HTTP of the 2026-07-28 era: no session, so two requests of one id cannot cross -------------

_MODERN = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def test_http_2026_requests_of_one_id_in_flight_are_each_answered_on_their_own_post(tmp_path: Path) -> None:
    """docs/mcp.md: "A 2026-07-28 request has no session and is left to the SDK, which answers each
    POST on its own response, so two with one id cannot cross" (it said: read from the SDK's code,
    no test here)."""
    files = {"Assets/Spawner.cs": mono_script("Spawner", "public int hp;"), "Assets/Slow.cs": SLOW_CSHARP}
    root = write_project(tmp_path / "Game", files)  # the slow script keeps the first search in flight
    proc, port = _start_http(root, "--no-watch")
    url = f"http://127.0.0.1:{port}/mcp"

    async def post(c: httpx.AsyncClient, tool: str, arguments: dict) -> httpx.Response:
        body = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
        body["params"]["_meta"] = _MODERN
        routing = {"mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": tool}
        return await c.post(url, json=body, headers={**HEADERS, **routing})

    async def go() -> dict[str, httpx.Response]:
        answers: dict[str, httpx.Response] = {}
        async with httpx.AsyncClient(timeout=60) as c:

            async def call(tool: str, arguments: dict) -> None:
                answers[tool] = await post(c, tool, arguments)

            with anyio.fail_after(60):
                async with anyio.create_task_group() as tg:
                    tg.start_soon(call, "search", {"query": "spawner"})  # builds the index: a while
                    await anyio.sleep(0.1)
                    tg.start_soon(call, "index_status", {})
        return answers

    try:
        answers = anyio.run(go)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    found, status = answers["search"].json(), answers["index_status"].json()
    assert (answers["search"].status_code, found["id"]) == (200, 7)
    assert found["result"]["structuredContent"]["results"][0]["path"] == "Assets/Spawner.cs"
    assert (answers["index_status"].status_code, status["id"]) == (200, 7)
    assert list(status["result"]["structuredContent"]) == [
        "projects", "freshness", "freshness_note", "auto_refresh_seconds", "building",
    ]  # fmt: skip
