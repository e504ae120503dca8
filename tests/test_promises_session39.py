"""Session 39's audit findings: `agents uninstall` gives back the user's file byte for byte, and
project folders' names in messages (and the commands they offer to paste) never reach the
terminal raw, quoted for a shell where a command is offered."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.cli.agents import BEGIN, END, section

from .conftest import run_cli, write_project


def _agents(root: Path, *args: str):
    r = run_cli("agents", *args, "--client", "agents", "--project", str(root))
    assert r.returncode == 0, r.stderr
    return r


def _uninstall(root: Path) -> None:
    r = run_cli("agents", "uninstall", "--project", str(root))
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize(
    "mine",
    [b"hello", b"hello\n", b"hello\n\n\n", b"", b"\n", b"a\r\nb", b"a\r\nb\r\n", b"a\r\n\r\n\r\n"],
    ids=["no-line-end", "line-end", "blank-lines", "empty", "one-line-end", "crlf-open", "crlf", "crlf-blank"],
)
def test_agents_uninstall_gives_back_the_file_byte_for_byte(tmp_path: Path, mine: bytes) -> None:
    """docs/cli.md: the rest of the file is never touched and uninstall removes exactly the
    section: install keeps the user's bytes and adds one line end before the section (in the
    file's line ends), uninstall takes both away. `hello` came back `hello\\n`, `hello\\n\\n\\n`
    came back `hello\\n`, and an empty AGENTS.md was deleted."""
    root = write_project(tmp_path / "Game", {"AGENTS.md": mine})
    agents_md = root / "AGENTS.md"
    _agents(root, "install")
    nl = b"\r\n" if mine.startswith(b"a\r\n") else b"\n"
    assert agents_md.read_bytes() == mine + nl + section(True).encode().replace(b"\n", nl)
    _agents(root, "install")  # current: unchanged
    _uninstall(root)
    assert agents_md.read_bytes() == mine


@pytest.mark.parametrize("mine", [b"hello", b"hello\n\n\n", b"", b"a\r\nb"], ids=["plain", "blank", "empty", "crlf"])
def test_agents_update_in_place_then_uninstall_gives_back_the_file(tmp_path: Path, mine: bytes) -> None:
    """A section another version wrote is updated where it is, its separator kept, so uninstall
    still gives back the user's bytes."""
    root = write_project(tmp_path / "Game", {"AGENTS.md": mine})
    agents_md = root / "AGENTS.md"
    _agents(root, "install")
    older = agents_md.read_bytes().replace(b"Grep remains right", b"Grep was right")
    agents_md.write_bytes(older)
    assert "AGENTS.md: updated\n" in _agents(root, "install").stderr
    nl = b"\r\n" if b"\r\n" in mine else b"\n"
    assert agents_md.read_bytes() == mine + nl + section(True).encode().replace(b"\n", nl)
    _uninstall(root)
    assert agents_md.read_bytes() == mine


def test_agents_file_install_created_is_removed_and_an_empty_one_stays(tmp_path: Path) -> None:
    """A file install created goes with the section; an empty file that was there stays, empty."""
    root = write_project(tmp_path / "Game", {"CLAUDE.md": ""})
    r = run_cli("agents", "install", "--project", str(root))
    assert r.returncode == 0, r.stderr
    assert (root / "AGENTS.md").read_text() == section(True)
    assert (root / "CLAUDE.md").read_text() == "\n" + section(True)
    _uninstall(root)
    assert not (root / "AGENTS.md").exists() and not (root / ".claude").exists()
    assert (root / "CLAUDE.md").read_bytes() == b""


def test_agents_remove_keeps_what_the_user_wrote_after_the_section() -> None:
    """Lines added after the section stay as they were; the separator before it goes."""
    from indexer.cli.agents import remove, upsert

    added = upsert("mine", section(True))
    assert added is not None
    assert remove(added + "\nlater\n") == "mine\nlater\n"
    assert remove(f"{BEGIN}\nold\n{END}\n\nlater\n") == "\nlater\n"


# -- F5: project folders' names in messages, and commands to paste ------------------------------

ODD = "My $Game \x1b[31mX"  # a space and a `$` for the shell, an escape sequence for the terminal
SHOWN = "My $Game \\x1b[31mX"


def _odd(tmp_path: Path) -> Path:
    return write_project(tmp_path / ODD, {"Assets/Health.cs": "public class Health {}\n"})


def _clean(text: str) -> str:
    assert "\x1b" not in text, text
    return text


def test_a_time_limit_names_the_full_rebuild_quoted_and_escaped(tmp_path: Path) -> None:
    """`index --full --time-limit` cut short named `unity-index index` (which rebuilds nothing),
    unquoted (a space split it) and with the folder's escape sequence raw."""
    root = _odd(tmp_path)
    r = run_cli("index", "--full", "--time-limit", "0.01", "--project", str(root))
    assert (r.returncode, r.stdout) == (2, "")
    assert _clean(r.stderr) == (
        f"error: the index of {tmp_path / SHOWN} was not brought up to date within 0.01 s (--time-limit;"
        f" it keeps its last state): run `unity-index index --full --project '{tmp_path / SHOWN}'`\n"
    )


def test_a_busy_writer_names_the_command_quoted_and_escaped(tmp_path: Path) -> None:
    import os

    from indexer.config import Config
    from indexer.store.schema import IndexPaths

    from .test_waits import held_by_a_thread

    root = _odd(tmp_path)
    with held_by_a_thread(IndexPaths(Config().index_path(root))):
        r = run_cli("index", "--no-wait", "--project", str(root))
    assert r.returncode == 2
    assert _clean(r.stderr) == (
        f"error: unity-index process {os.getpid()} is updating the index at {tmp_path / SHOWN}/Library/UnityIndex;"
        f" not updated: run `unity-index index --project '{tmp_path / SHOWN}'` when it is done"
        " (or without --no-wait, to wait for it)\n"
    )


def test_watch_says_what_it_watches_escaped(tmp_path: Path) -> None:
    import signal

    from .conftest import start_cli

    root = _odd(tmp_path)
    watch = start_cli("watch", "--project", str(root))
    try:
        assert watch.stderr is not None
        line = watch.stderr.readline()
    finally:
        watch.send_signal(signal.SIGINT)
        watch.communicate(timeout=60)
    assert _clean(line) == f"watching {tmp_path / SHOWN} (Ctrl-C to stop)\n"


def test_a_config_error_shows_its_file_escaped(tmp_path: Path) -> None:
    root = _odd(tmp_path)
    (root / "unity-index.toml").write_text("bogus = 1\n")
    r = run_cli("status", "--project", str(root))
    assert r.returncode == 2
    assert _clean(r.stderr).startswith(
        f"error: {tmp_path / SHOWN}/unity-index.toml: Object contains unknown field `bogus`; the keys are"
    )


def test_hook_messages_show_the_folder_escaped(tmp_path: Path) -> None:
    import json
    import subprocess

    from indexer.changes.hooks import HOOKS

    root = _odd(tmp_path)
    r = run_cli("hook", "install", "--project", str(root))
    assert r.returncode == 2
    assert _clean(r.stderr).startswith(f"error: {tmp_path / SHOWN} is not inside a git repository:")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    r = run_cli("hook", "install", "--project", str(root))
    assert r.returncode == 0, r.stderr
    assert _clean(r.stderr).splitlines() == [f"{name}: installed in {tmp_path / SHOWN}/.git/hooks" for name in HOOKS]
    done = json.loads(run_cli("hook", "uninstall", "--json", "--project", str(root)).stdout)
    assert done["hooks_dir"] == str(root / ".git" / "hooks")  # the JSON keeps the path itself
    assert _clean(run_cli("hook", "uninstall", "--project", str(root)).stderr) == (
        f"nothing to do in {tmp_path / SHOWN}/.git/hooks\n"
    )


def test_doctor_shows_the_folder_escaped_and_its_fixes_quoted(tmp_path: Path) -> None:
    import json

    root = _odd(tmp_path)
    r = run_cli("doctor", "--project", str(root))
    lines = _clean(r.stdout).splitlines()
    assert lines[0].endswith(f" doctor: {tmp_path / SHOWN}")
    assert f"  fix: unity-index index --project '{tmp_path / SHOWN}' (any query builds it too)" in r.stdout
    assert f"--client claude-code --project '{tmp_path / SHOWN}' (or" in r.stdout
    assert json.loads(run_cli("doctor", "--json", "--project", str(root)).stdout)["project"] == str(root)


def test_mcp_and_agents_lines_show_the_folder_escaped(tmp_path: Path) -> None:
    root = _odd(tmp_path)
    r = run_cli("mcp", "install", "--client", "cursor", "--dry-run", "--project", str(root))
    assert r.returncode == 0, r.stderr
    assert _clean(r.stdout).startswith(f"would write {tmp_path / SHOWN}/.cursor/mcp.json (cursor, project scope):\n")
    r = run_cli("agents", "uninstall", "--project", str(root))
    assert _clean(r.stderr) == f"nothing to remove in {tmp_path / SHOWN}\n"


def test_serve_logs_show_paths_escaped() -> None:
    import logging

    from mcp_adapter.serve import ShownFormatter

    record = logging.makeLogRecord({"msg": "watching %s", "args": ("/tmp/" + ODD,)})
    assert ShownFormatter("unity-index: %(message)s").format(record) == f"unity-index: watching /tmp/{SHOWN}"


def test_agents_install_writes_through_no_link_leading_out_of_the_project(tmp_path: Path) -> None:
    """`AGENTS.md -> ~/.bashrc` had the section appended to the shell's start-up file, and a
    `.claude` linked elsewhere got a skill folder there (session 39)."""
    outside = tmp_path / "home"
    outside.mkdir()
    (outside / ".bashrc").write_text("export A=1\n")
    (outside / "elsewhere").mkdir()
    root = write_project(tmp_path / "Game", {"Assets/A.cs": "class A {}"})
    (root / "AGENTS.md").symlink_to(outside / ".bashrc")
    (root / ".claude").symlink_to(outside / "elsewhere")
    r = run_cli("agents", "install", "--project", str(root))
    assert r.returncode == 0, r.stderr
    assert (outside / ".bashrc").read_text() == "export A=1\n"
    assert list((outside / "elsewhere").iterdir()) == []
    assert f"AGENTS.md: skipped (a link to {outside / '.bashrc'}, outside the project: not written)" in r.stderr
    assert (root / "CLAUDE.md").is_file()  # the project's own files are still written
