"""`unity-index agents install|uninstall`: a marked section in AGENTS.md / CLAUDE.md and a Claude
Code skill, written around what is there, idempotent, removable, and cheap in tokens."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indexer.cli.agents import BEGIN, END, SECTION_TOKEN_LIMIT, SKILL, remove, section, upsert
from indexer.query.tokens import counter

from .conftest import run_cli, write_project

USER_AGENTS = "# Agents\n\nUse tabs in C#.\n"
USER_CLAUDE = "# Claude\n\nRun the edit-mode tests before committing.\n"


def agents(root: Path, *args: str):
    return run_cli("agents", *args, "--project", str(root))


@pytest.mark.parametrize("single", [True, False])
def test_the_section_stays_under_its_token_budget(single: bool) -> None:
    text = section(single)
    assert counter("estimate").count(text) < SECTION_TOKEN_LIMIT
    try:
        exact = counter("o200k_base")
    except ValueError:
        return  # bpe-openai is not installed: the estimate (which over-counts) was checked
    assert exact.count(text) < SECTION_TOKEN_LIMIT


def test_the_cost_docs_cli_md_gives_is_the_sections() -> None:
    """docs/cli.md names what the section costs a single project by the estimate; kept true."""
    import re

    docs = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text()
    said = re.search(r"The section costs (\d+) tokens by the project's estimate", docs.replace("\n", " "))
    assert said is not None
    assert counter("estimate").count(section(True)) == int(said.group(1))


def test_the_section_says_when_to_use_each_command() -> None:
    text = section(True)
    for command in ("unity-index query", "unity-index context", "unity-index refs", "unity-index describe"):
        assert f"`{command} " in text
    assert "--json" in text and "before grepping" in text
    assert text.startswith(BEGIN + "\n") and text.endswith(END + "\n")
    several = section(False)
    assert several.count("--project .") == 5 and "--project" not in text


def test_upsert_and_remove_are_inverse_and_idempotent() -> None:
    block = section(True)
    added = upsert(USER_AGENTS, block)
    assert added == USER_AGENTS + "\n" + block
    assert upsert(added, block) is None
    assert remove(added) == USER_AGENTS
    assert remove(USER_AGENTS) is None
    assert upsert(None, block) == block and remove(block) == ""
    # an older section in the middle is replaced where it is
    middle = f"# A\n\n{BEGIN}\nold text\n{END}\n\n# B\n"
    assert upsert(middle, block) == f"# A\n\n{block}\n# B\n"
    assert remove(middle) == "# A\n\n# B\n"


def test_install_update_and_uninstall(tmp_path: Path) -> None:
    root = write_project(tmp_path / "Game", {"AGENTS.md": USER_AGENTS, "CLAUDE.md": USER_CLAUDE})
    r = agents(root, "install")
    assert r.returncode == 0, r.stderr
    tokens = counter("auto").count(section(True))
    assert r.stderr == (
        "AGENTS.md: added\nCLAUDE.md: added\n.claude/skills/unity-index/SKILL.md: added\n"
        f"[the section costs {tokens} tokens ({counter('auto').name}) on every request that reads it]\n"
    )
    assert (root / "AGENTS.md").read_text() == USER_AGENTS + "\n" + section(True)
    assert (root / "CLAUDE.md").read_text() == USER_CLAUDE + "\n" + section(True)
    skill = (root / SKILL).read_text()
    assert skill.startswith("---\nname: unity-index\ndescription: Find code and assets in this Unity project")
    assert skill.endswith(section(True))
    snapshot = {p: p.read_bytes() for p in (root / "AGENTS.md", root / "CLAUDE.md", root / SKILL)}

    again = agents(root, "install", "--json")
    assert [f["change"] for f in json.loads(again.stdout)["files"]] == ["unchanged"] * 3
    assert {p: p.read_bytes() for p in snapshot} == snapshot

    # a section written by another version is brought up to date in place
    (root / "AGENTS.md").write_text(USER_AGENTS + f"\n{BEGIN}\nold advice\n{END}\n\n## Later notes\n")
    r = agents(root, "install", "--client", "agents")
    assert r.stderr.startswith("AGENTS.md: updated\n")
    assert (root / "AGENTS.md").read_text() == USER_AGENTS + "\n" + section(True) + "\n## Later notes\n"

    r = agents(root, "uninstall")
    assert r.returncode == 0, r.stderr
    assert r.stderr == "AGENTS.md: removed\nCLAUDE.md: removed\n.claude/skills/unity-index/SKILL.md: removed\n"
    assert (root / "AGENTS.md").read_text() == USER_AGENTS + "\n## Later notes\n"
    assert (root / "CLAUDE.md").read_text() == USER_CLAUDE
    assert not (root / ".claude").exists()
    assert agents(root, "uninstall").stderr == f"nothing to remove in {root.resolve()}\n"


def test_files_it_created_go_away_and_dry_run_writes_nothing(tmp_path: Path) -> None:
    root = write_project(tmp_path / "Game", {})
    r = agents(root, "install", "--dry-run")
    assert r.returncode == 0, r.stderr
    assert "AGENTS.md: would be added\n" in r.stderr and r.stdout == section(True)
    assert sorted(p.name for p in root.iterdir()) == ["Assets", "ProjectSettings"]
    assert agents(root, "install", "--client", "agents").returncode == 0
    assert (root / "AGENTS.md").read_text() == section(True)
    assert not (root / "CLAUDE.md").exists() and not (root / ".claude").exists()
    assert agents(root, "uninstall").returncode == 0
    assert sorted(p.name for p in root.iterdir()) == ["Assets", "ProjectSettings"]


def test_claude_md_that_imports_agents_md_is_not_repeated(tmp_path: Path) -> None:
    root = write_project(tmp_path / "Game", {"CLAUDE.md": "@AGENTS.md\n\nMore rules.\n"})
    r = agents(root, "install")
    assert "CLAUDE.md: skipped (it imports AGENTS.md, which holds the section)\n" in r.stderr
    assert (root / "CLAUDE.md").read_text() == "@AGENTS.md\n\nMore rules.\n"
    assert (root / "AGENTS.md").read_text() == section(True)
    # docs/cli.md: not twice either when Claude is installed after AGENTS.md, nor when the import
    # is inside a sentence (Claude Code follows it there too)
    assert "CLAUDE.md: skipped" in agents(root, "install", "--client", "claude").stderr
    (root / "CLAUDE.md").write_text("See @AGENTS.md for the rules.\n")
    assert "CLAUDE.md: skipped" in agents(root, "install").stderr
    assert (root / "CLAUDE.md").read_text() == "See @AGENTS.md for the rules.\n"


def test_claude_md_importing_an_agents_md_without_the_section_gets_it(tmp_path: Path) -> None:
    root = write_project(tmp_path / "Game", {"CLAUDE.md": "@AGENTS.md\n", "AGENTS.md": "Be brief.\n"})
    assert "CLAUDE.md: added" in agents(root, "install", "--client", "claude").stderr
    assert (root / "AGENTS.md").read_text() == "Be brief.\n"


def test_a_skill_it_did_not_write_is_left_alone(tmp_path: Path) -> None:
    root = write_project(tmp_path / "Game", {str(SKILL): "---\nname: unity-index\ndescription: mine\n---\n"})
    r = agents(root, "install", "--client", "claude")
    assert (
        ".claude/skills/unity-index/SKILL.md: skipped (a skill of that name that unity-index did not write" in r.stderr
    )
    assert (root / SKILL).read_text() == "---\nname: unity-index\ndescription: mine\n---\n"
    agents(root, "uninstall")
    assert (root / SKILL).is_file()


def test_folder_of_projects_gets_project_dot(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_project(repo / "Client", {})
    write_project(repo / "Server", {})
    assert agents(repo, "install", "--client", "agents").returncode == 0
    assert (repo / "AGENTS.md").read_text() == section(False)


def test_a_crlf_file_gets_one_section_and_loses_it_whole(tmp_path: Path) -> None:
    """AGENTS.md checked out with CRLF (Windows, core.autocrlf) after the section was added: a
    second install finds the section (it used to add a second one) and uninstall removes it;
    the section is written with the file's line ends."""
    crlf = USER_AGENTS.replace("\n", "\r\n")
    root = write_project(tmp_path / "Game", {})
    (root / "AGENTS.md").write_bytes((crlf + "\r\n" + section(True).replace("\n", "\r\n")).encode())
    r = agents(root, "install", "--client", "agents")
    assert r.returncode == 0 and "AGENTS.md: unchanged" in r.stderr, r.stderr
    assert (root / "AGENTS.md").read_bytes().count(BEGIN.encode()) == 1
    assert agents(root, "uninstall").returncode == 0
    assert (root / "AGENTS.md").read_bytes() == crlf.encode()
    assert agents(root, "install", "--client", "agents").returncode == 0
    data = (root / "AGENTS.md").read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n")


def test_a_file_that_is_not_utf8_is_a_clear_error_and_left_alone(tmp_path: Path) -> None:
    root = write_project(tmp_path / "Game", {})
    (root / "CLAUDE.md").write_bytes(b"caf\xe9\n")
    r = agents(root, "install")
    assert r.returncode == 2, r.stderr
    assert "CLAUDE.md: not UTF-8" in r.stderr and "nothing was written" in r.stderr
    assert (root / "CLAUDE.md").read_bytes() == b"caf\xe9\n" and not (root / "AGENTS.md").exists()


def test_lines_a_user_added_to_the_skill_are_kept(tmp_path: Path) -> None:
    """The skill is the user's to extend: install brings the section up to date around their
    lines, uninstall removes the section and keeps the file with their lines."""
    root = write_project(tmp_path / "Game", {})
    agents(root, "install", "--client", "claude")
    skill_file = root / SKILL
    mine = "\nAlso: our prefabs live in Assets/Game/Prefabs.\n"
    skill_file.write_text(skill_file.read_text().replace("Grep remains", "Grep is") + mine)
    r = agents(root, "install", "--client", "claude")
    assert "SKILL.md: updated" in r.stderr and skill_file.read_text().endswith(mine)
    assert "Grep remains" in skill_file.read_text()
    agents(root, "uninstall")
    assert skill_file.is_file() and BEGIN not in skill_file.read_text()
    assert skill_file.read_text().endswith(mine)
