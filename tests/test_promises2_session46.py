"""Promises of the docstrings and comments of mcp_adapter/ and indexer/cli/ that no test pinned yet
(session 46, second audit), each checked against the real mechanism:

- mcp_adapter/stdio.py: after stdin closes, the wait for the requests still unanswered is bounded
  by the drain timeout; then the server stops without their answers.
- mcp_adapter/cli.py (`cmd_editor`): the editor works on one project; a folder of several is a
  usage error saying so.
- mcp_adapter/server/tools_editor.py (`_project`): a `project` the workspace does not hold is a
  tool error naming the projects.
- mcp_adapter/editor/direct.py (`_gone`): a direct editor tool the running editor does not offer is
  said to be not offered (its editor is there), not "not available"; over HTTP without the secret,
  that name is refused as an offered one is (access.py), where it told the editor's state (fixed).
- mcp_adapter/server/freshness.py (`describe`): poll mode says why: no session served yet, or the
  server stopped watching.
- mcp_adapter/server/app.py (`create_server`): an editor-tools mode other than compact or direct is
  refused.
- mcp_adapter/server/live.py (`on_stop_signals`): a signal ignored or left to its default is left
  alone; the others run the action, then the handler in place, and are put back.
- mcp_adapter/doctor_checks.py (`mcp_clients`): a configuration file that does not parse turns a
  pass into a warning naming it.
- indexer/cli/doctor.py: a contributed check that does not load, or that raises, is a failed check
  naming it; an editor heartbeat that cannot be read fails saying to check its permissions.
- indexer/cli/common.py (`_build_missing`): an index that cannot be used (damaged or incomplete)
  is rebuilt before the answer, saying why.
- indexer/cli/asking.py: `describe` of a blank target is a usage error, nothing built; `refs` cut
  by `--limit` says how many more and how to see them, on stderr only; `context` says the pack's
  size on stderr only (console.py: stderr for people, stdout for data).
"""

from __future__ import annotations

import importlib.metadata
import json
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from indexer.build.update import update
from indexer.cli import doctor
from indexer.cli.checks import Check, Target
from indexer.config import Config
from indexer.query.workspace import open_workspace, projects_at
from mcp_adapter.doctor_checks import mcp_clients
from mcp_adapter.server.access import REFUSED
from mcp_adapter.server.app import create_server
from mcp_adapter.server.freshness import Freshness
from mcp_adapter.server.live import on_stop_signals

from .conftest import REPO, copy_fixture, run_cli, write_project
from .json_http import JsonHandler, serving_editor
from .test_mcp_transports import _env, _http_session, _start_http

# -- stdio: the drain after EOF is bounded ---------------------------------------------------------

SLOW_CALL = 6.0  # seconds the fake editor takes to answer a call: longer than the drain bound below
DRAIN = 1.0


class _SlowBridge(JsonHandler):
    """A fake editor bridge that answers a call only after SLOW_CALL seconds."""

    token = "c" * 64

    def do_GET(self) -> None:
        self._answer(200, {"ok": True, "tools": []})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        time.sleep(SLOW_CALL)
        self._answer(200, {"ok": True, "result": {"late": body["tool"]}})


@pytest.fixture
def slow_editor(tmp_path: Path) -> Iterator[Path]:
    root = write_project(tmp_path / "Slow", {"Assets/Player.cs": "public class Player {}\n"})
    with serving_editor(root, _SlowBridge, _SlowBridge.token):
        yield root


def test_stdio_stops_after_the_drain_timeout_without_the_answers_still_pending(slow_editor: Path) -> None:
    """stdio.py: after EOF the stream is held open "until every request read has been answered
    (or cancelled by the client), bounded by DRAIN_TIMEOUT; then the server sees EOF and stops".
    The bound (300 s by default) is set to 1 s here, with an editor call that takes 6 s: the
    server stops without answering it, where without the bound it waits and writes the answer."""
    script = (
        "import sys, mcp_adapter.stdio as s\n"
        f"s.serve_stdio.__defaults__ = ({DRAIN},)\n"
        "from indexer.cli.main import main\n"
        "raise SystemExit(main(sys.argv[1:]))\n"
    )
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    call = {"name": "editor_call", "arguments": {"name": "spawn"}}
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call},
    ]
    started = time.monotonic()
    r = subprocess.run(
        [sys.executable, "-c", script, "serve", "--project", str(slow_editor), "--no-watch"],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=REPO,
        env=_env(),
        timeout=120,
    )
    answers = [json.loads(line) for line in r.stdout.splitlines()]
    assert r.returncode == 0, r.stderr
    assert [a.get("id") for a in answers] == [1], answers  # the call's answer was not waited for
    assert time.monotonic() - started < 60


# -- the editor: one project, a project named, a tool the editor does not offer ---------------------


def test_the_editor_command_refuses_a_folder_of_several_projects(tmp_path: Path) -> None:
    """cli.py `cmd_editor`: "the editor works on one project"; a folder holding two projects is a
    usage error (exit 2) saying to pass a single project, where it would ask the first one's editor."""
    write_project(tmp_path / "Repo" / "A", {})
    write_project(tmp_path / "Repo" / "B", {})
    for action in (("tools",), ("call", "spawn")):
        r = run_cli("editor", *action, "--project", str(tmp_path / "Repo"))
        said = "error: the editor works on one project: pass --project with a single Unity project\n"
        assert (r.returncode, r.stdout, r.stderr) == (2, "", said), action


def _call(server: Any, tool: str, arguments: dict[str, Any]) -> Any:
    """One tool call over an in-memory MCP session (the server's lifespan runs around it)."""

    async def go() -> Any:
        async with Client(server) as c:
            return await c.call_tool(tool, arguments)

    return anyio.run(go)


def test_an_editor_tool_given_a_project_the_workspace_does_not_hold_names_the_projects(tmp_path: Path) -> None:
    """tools_editor.py `_project`: a `project` that is neither a project's name nor its folder is
    a tool error naming the projects, before any editor is asked."""
    root = write_project(tmp_path / "Proj", {})
    server = create_server(open_workspace(root, projects_at(root)), watch=False, tokenizer="estimate")
    for tool, arguments in (("editor_tools", {"project": "Nope"}), ("editor_call", {"name": "x", "project": "Nope"})):
        result = _call(server, tool, arguments)
        assert result.is_error is True, tool
        said = f"Error executing tool {tool}: no project 'Nope'; projects: Proj"
        assert [c.text for c in result.content] == [said], tool


class _OneToolBridge(JsonHandler):
    """A fake editor bridge offering one tool, `echo`."""

    token = "d" * 64

    def do_GET(self) -> None:
        echo = {"name": "echo", "description": "echoes", "input_schema": {"type": "object"}}
        self._answer(200, {"ok": True, "tools": [echo]})

    def do_POST(self) -> None:
        self._answer(200, {"ok": True, "result": "echoed"})


def test_a_direct_editor_tool_the_running_editor_does_not_offer_is_said_not_offered(tmp_path: Path) -> None:
    """direct.py `_gone`: "A direct editor tool that is not offered (any more): say why": with the
    editor running, `editor_nope` is a tool error saying the editor does not offer it (the SDK said
    "Unknown tool"); the tool it offers is called through."""
    root = write_project(tmp_path / "Proj", {})
    with serving_editor(root, _OneToolBridge, _OneToolBridge.token):
        server = create_server(
            open_workspace(root, projects_at(root)), watch=False, editor_tools_mode="direct", editor_poll=0.05
        )

        async def go() -> tuple[Any, Any]:
            async with Client(server) as c:
                with anyio.fail_after(15):
                    while "editor_echo" not in {t.name for t in (await c.list_tools()).tools}:
                        await anyio.sleep(0.05)
                return await c.call_tool("editor_nope", {}), await c.call_tool("editor_echo", {})

        gone, echoed = anyio.run(go)
    assert gone.is_error is True
    assert [c.text for c in gone.content] == [
        "editor_nope: the running Unity editor does not offer this tool; editor_tools lists what it offers"
    ]
    assert echoed.is_error is False and echoed.structured_content == {
        "project": "Proj",
        "tool": "echo",
        "result": "echoed",
    }


def test_over_http_a_direct_editor_tool_name_is_refused_without_the_secret_whether_offered_or_not(
    tmp_path: Path,
) -> None:
    """access.py: over HTTP "the direct `editor_*` tools" run only for a request carrying the secret;
    "Without it ... a call is refused with what to send". A name the editor does not offer was
    answered from the editor's state instead ("does not offer this tool", or "not available" with
    its heartbeat's pid and state), to anyone on the machine; it is refused as an offered one is."""
    root = write_project(tmp_path / "Proj", {})
    with serving_editor(root, _OneToolBridge, _OneToolBridge.token):
        proc, port = _start_http(root, "--no-watch", "--editor-tools", "direct")

        async def go(bearer: str | None) -> list[Any]:
            async with _http_session(port, bearer) as c:
                return [await c.call_tool(name, {}) for name in ("editor_echo", "editor_nope")]

        try:
            with_secret = anyio.run(go, _OneToolBridge.token)
            without = anyio.run(go, None)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    assert with_secret[1].content[0].text.startswith("editor_nope: the running Unity editor does not offer")
    for name, refused in zip(("editor_echo", "editor_nope"), without, strict=True):
        assert refused.is_error is True
        assert refused.content[0].text == REFUSED.format(name=name)


# -- the server: its freshness note, its editor-tools mode, its stop signals -------------------------


def test_poll_mode_says_no_session_is_served_yet_and_then_that_the_server_stopped_watching(tmp_path: Path) -> None:
    """freshness.py: `poll` when there is "no server session yet" or "a watcher that died"; the
    note `describe` gives (index_status's freshness_note) says which: before `start`, no session
    is being served; after `stop`, the server stopped watching (not "watching is off")."""
    root = write_project(tmp_path / "Proj", {"Assets/Player.cs": "public class Player {}\n"})
    fresh = Freshness(open_workspace(root, projects_at(root)), 2.0, watch=True)
    head = "poll: files are checked on disk before answering, at most every 2 s"
    assert (fresh.mode, fresh.describe()) == ("poll", f"{head} (no session is being served)")
    fresh.start()
    try:
        assert fresh.mode == "watch"
    finally:
        fresh.stop()
    assert (fresh.mode, fresh.describe()) == ("poll", f"{head} (the server stopped watching)")


def test_an_editor_tools_mode_other_than_compact_or_direct_is_refused(tmp_path: Path) -> None:
    """app.py `create_server`: `editor_tools_mode` is `compact` or `direct`; anything else is a
    ValueError naming both, not a server silently in compact mode."""
    root = write_project(tmp_path / "Proj", {})
    with pytest.raises(ValueError) as raised:
        create_server(open_workspace(root, projects_at(root)), watch=False, editor_tools_mode="full")
    assert str(raised.value) == "editor_tools_mode must be one of ('compact', 'direct'), not 'full'"


def test_stop_signals_leave_a_signal_ignored_or_left_to_its_default_alone() -> None:
    """live.py `on_stop_signals`: SIGINT and SIGTERM run the action before the handler in place,
    "nor for a signal ignored or left to its default (SIGTERM over stdio ends the process)"; the
    returned function puts the handlers back. Run in pytest's main thread."""
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    ran: list[str] = []
    try:
        for sigterm in (signal.SIG_DFL, signal.SIG_IGN):
            signal.signal(signal.SIGINT, signal.default_int_handler)
            signal.signal(signal.SIGTERM, sigterm)
            restore = on_stop_signals(lambda: ran.append("stop"))
            assert signal.getsignal(signal.SIGTERM) is sigterm  # not replaced
            handler = signal.getsignal(signal.SIGINT)
            assert callable(handler) and handler is not signal.default_int_handler
            with pytest.raises(KeyboardInterrupt):  # the action, then the handler that was there
                handler(signal.SIGINT, None)
            assert ran[-1] == "stop"
            restore()
            assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
            assert signal.getsignal(signal.SIGTERM) is sigterm
    finally:
        for s, h in before.items():
            signal.signal(s, h)
    assert ran == ["stop", "stop"]


# -- doctor's checks of the adapter and of the project ----------------------------------------------


def test_a_configuration_that_does_not_parse_turns_the_mcp_clients_pass_into_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """doctor_checks.py `mcp_clients`: a client's file that is no JSON is not read as "no entry":
    it is named as not parsed, beside the clients configured (a warning, not a pass), or beside
    none."""
    (tmp_path / "home").mkdir()  # (an empty home: a missing one is said as such, attack 18)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = write_project(tmp_path / "Proj", {}).resolve()
    target = Target(root, Config())
    (root / ".mcp.json").write_text('{"mcpServers": {"unity-index": ')  # cut short
    none = "no coding agent is configured to start unity-index for this project"
    assert [(c.status, c.detail) for c in mcp_clients(target)] == [("warn", f"{none}; not parsed: {root}/.mcp.json")]
    servers = {"unity-index": {"command": "true", "args": ["serve", "--project", "${workspaceFolder}"]}}
    (root / ".cursor").mkdir()
    (root / ".cursor" / "mcp.json").write_text(json.dumps({"mcpServers": servers}))
    configured = f"configured for this project: cursor ({root}/.cursor/mcp.json)"
    assert [(c.status, c.detail) for c in mcp_clients(target)] == [
        ("warn", f"{configured}; not parsed: {root}/.mcp.json")
    ]
    (root / ".mcp.json").unlink()
    assert [(c.status, c.detail) for c in mcp_clients(target)] == [("pass", configured)]


def _raising_check(target: Target) -> list[Check]:
    """A contributed doctor check with a bug."""
    raise RuntimeError("boom")


def test_a_contributed_check_that_does_not_load_or_raises_is_a_failed_check_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """doctor.py: checks arrive through the `unity_index.doctor_checks` entry points; one that does
    not load, or raises, is a failed check naming it and saying what to do, and the other checks
    still run (doctor ends with its report, not a traceback)."""
    root = write_project(tmp_path / "Proj", {})
    group = doctor.CHECKS_GROUP
    points = [
        importlib.metadata.EntryPoint("broken", "no_such_module_of_unity_index:check", group),
        importlib.metadata.EntryPoint("raising", f"{__name__}:_raising_check", group),
    ]
    monkeypatch.setattr(
        importlib.metadata, "entry_points", lambda group: points if group == doctor.CHECKS_GROUP else []
    )
    found = {c.name: c for c in doctor.run(str(root), Path.cwd()).checks}
    assert (found["broken"].status, found["broken"].fix) == ("fail", "reinstall unity-index")
    assert found["broken"].detail == (
        "the check broken does not load: ModuleNotFoundError: No module named 'no_such_module_of_unity_index'"
    )
    assert (found["raising"].status, found["raising"].detail, found["raising"].fix) == (
        "fail",
        "the check raising failed: RuntimeError: boom",
        "report this as a bug",
    )
    assert found["config"].status == "pass" and "git-hooks" in found and "editor-heartbeat" in found


def test_an_editor_heartbeat_that_cannot_be_read_fails_saying_to_check_its_permissions(tmp_path: Path) -> None:
    """doctor.py `check_heartbeat`: "absent (fine), fresh, left behind, or malformed", and one that
    cannot be read (here a folder in its place) fails with what to check, not as malformed."""
    root = write_project(tmp_path / "Proj", {})
    (root / "Library" / "UnityIndex" / "editor.json").mkdir(parents=True)
    check = doctor.check_heartbeat(root)
    assert (check.name, check.status, check.fix) == ("editor-heartbeat", "fail", "check the file's permissions")
    assert check.detail.startswith(f"cannot read {root}/Library/UnityIndex/editor.json: "), check.detail


# -- the CLI: an index that cannot be used, blank targets, what is said on stderr ---------------------


def test_an_index_that_cannot_be_used_is_rebuilt_before_the_answer_saying_why(tmp_path: Path) -> None:
    """common.py `_build_missing`: a project whose index "this version cannot read" is built
    first, "saying why": one whose record store is gone is "damaged or incomplete", not "no index
    yet", and the answer comes from the rebuilt index (exit 0)."""
    root = copy_fixture(tmp_path / "DungeonCrawler")
    update(root, Config(workers=1))
    (records,) = (root / "Library" / "UnityIndex").glob("gen-*/records.db")
    records.unlink()
    r = run_cli("query", "player health", "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines()[0] == f"the index of {root} cannot be used (damaged or incomplete): building it"
    assert json.loads(r.stdout)["results"], r.stdout


def test_describe_of_a_blank_target_is_a_usage_error(tmp_path: Path) -> None:
    """asking.py `cmd_describe`: a blank target is refused before any index is opened or built
    (exit 2, one line saying what to give), where it would describe the project's folder."""
    root = write_project(tmp_path / "Proj", {"Assets/Player.cs": "public class Player {}\n"})
    for blank in ("", "   "):
        r = run_cli("describe", blank, "--project", str(root))
        assert (r.returncode, r.stdout, r.stderr) == (2, "", "error: give a project path or a GUID to describe\n")
    assert not (root / "Library").exists()  # nothing was built


def test_refs_cut_by_limit_says_how_many_more_on_stderr_only(indexed_fixture: Path) -> None:
    """asking.py `cmd_refs` and console.py ("Terminal output for humans on stderr ... stdout is for
    data"): usages left out by `--limit` are counted on stderr with how to see them all; the JSON
    has no such line (its total says it)."""
    project = ("--project", str(indexed_fixture))
    whole = json.loads(run_cli("refs", "PlayerHealth", "--limit", "0", "--json", *project).stdout)
    assert len(whole["usages"]) == whole["total"] > 2
    r = run_cli("refs", "PlayerHealth", "--limit", "2", *project)
    assert (r.returncode, r.stderr) == (0, f"[{whole['total'] - 2} more; --limit 0 shows all]\n")
    assert "more; --limit 0" not in r.stdout
    limited = run_cli("refs", "PlayerHealth", "--limit", "2", "--json", *project)
    assert (limited.returncode, limited.stderr) == (0, "")
    assert (json.loads(limited.stdout)["total"], len(json.loads(limited.stdout)["usages"])) == (whole["total"], 2)


def test_context_says_the_packs_size_on_stderr_and_prints_only_the_pack_on_stdout(indexed_fixture: Path) -> None:
    """asking.py `cmd_context` with console.py's rule (stderr for people, stdout for data): the
    pack's size and file count are one line on stderr; stdout holds the pack alone; with `--json`
    stderr is empty."""
    project = ("--project", str(indexed_fixture))
    asked = ("context", "player health", "--budget", "3000", "--tokenizer", "estimate", *project)
    r, quiet = run_cli(*asked), run_cli(*asked, "--json")
    assert (r.returncode, quiet.returncode, quiet.stderr) == (0, 0, ""), r.stderr + quiet.stderr
    pack = json.loads(quiet.stdout)
    said = re.fullmatch(r"\[(\d+)/3000 tokens, (\S+); (\d+) files? in tier 2\]\n", r.stderr)
    assert said is not None, r.stderr
    assert int(said[1]) <= 3000 and (said[2], int(said[3])) == (pack["tokenizer"], len(pack["tier2"]["files"]))
    assert "tokens, estimate" not in r.stdout and r.stdout.strip()
