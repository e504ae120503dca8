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
