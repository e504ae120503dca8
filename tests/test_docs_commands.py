"""Every `unity-index` command shown in README.md and docs/*.md runs, on a copy of the fixture.

The convention (also in docs/cli.md, "Examples in these docs are tested"):
- in a ```sh block every line is a command; in a ```console block the lines starting with `$ `
  are, and the lines under one are output that must appear in what it prints (`...` stands for
  lines left out; ranking scores, `(12.34)`, are not compared);
- a command must exit 0 unless it ends with `# exit N`;
- it runs in the fixture copy (the project), or at the root of a scratch checkout that holds
  `fixtures/DungeonCrawler` (the copy) and `.venv/bin/unity-index` when it names either;
  `/path/to/YourGame` names the copy; HOME is a scratch folder; the copy is a git repository;
- only lines that mention `unity-index` are taken; a command (or a `&&` part of one) that
  cannot run here is listed in NOT_RUN with the reason. A documented command that is neither
  run nor listed fails the test.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import REPO, copy_fixture

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]

# (pattern matching the start of a command, why it is not run here)
NOT_RUN: tuple[tuple[str, str], ...] = (
    (r"sh \.ci/setup\b", "installs system and Python packages; the tests run inside what it set up"),
    (
        r"(pipx|uv tool) install\b",
        "installs from a checkout or a wheel; tests/e2e/first_hour.sh runs the pipx installs from a clean"
        " clone (docs/examples/first-hour.md); uv 0.13.9 was tried by hand",
    ),
    (r"claude mcp add\b", "needs the Claude Code CLI"),
    (r"unity-index serve\b", "serves until the client disconnects; tests/test_mcp_transports.py drives it"),
    (r"unity-index watch\b", "runs until Ctrl-C; tests/test_watch.py drives it"),
    (r"unity-index editor (tools|call)\b", "needs a running Unity editor with the bridge package"),
)
# Documents whose commands are all recipes for data sets that are not in this repository.
NOT_RUN_FILES = {
    "docs/performance.md": "measurements on real projects that are not in this repository (tests/bench/ scripts)",
}
PLACEHOLDER = "/path/to/YourGame"
SCORE = re.compile(r"\(\d+\.\d+\)")


@dataclass(frozen=True)
class Documented:
    source: str  # file:line
    command: str  # as written, without the `$ ` prompt
    expected_output: tuple[str, ...]
    exit_code: int


def _blocks(text: str):
    """(language, first line number, lines) of each fenced block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^\s*```(\w*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        start, lang, body = i + 2, m.group(1), []
        i += 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append(lines[i])
            i += 1
        i += 1
        yield lang, start, body


MENTIONS = re.compile(r"(^|[\s/])unity-index\b")


def documented() -> list[Documented]:
    """The lines of sh and console blocks that mention `unity-index` (other programs' commands,
    such as the benchmark and Mono commands, are not this test's business)."""
    return [d for d in _commands() if MENTIONS.search(d.command)]


def _commands() -> list[Documented]:
    out = []
    for doc in DOCS:
        rel = doc.relative_to(REPO).as_posix()
        for lang, first, body in _blocks(doc.read_text(encoding="utf-8")):
            if lang == "sh":
                for n, line in enumerate(body):
                    if line.strip() and not line.lstrip().startswith("#"):
                        out.append(Documented(f"{rel}:{first + n}", line.strip(), (), _exit_code(line)))
            elif lang == "console":
                n = 0
                while n < len(body):
                    if not body[n].startswith("$ "):
                        n += 1
                        continue
                    command, start = body[n][2:].strip(), n
                    n += 1
                    shown = []
                    while n < len(body) and not body[n].startswith("$ "):
                        shown.append(body[n])
                        n += 1
                    expected = tuple(s for s in shown if s.strip() and s.strip() != "...")
                    out.append(Documented(f"{rel}:{first + start}", command, expected, _exit_code(command)))
    return out


def _exit_code(line: str) -> int:
    m = re.search(r"#\s*exit\s+(\d+)\s*$", line)
    return int(m.group(1)) if m else 0


def _parts(command: str) -> list[str]:
    return [p.strip() for p in re.sub(r"\s+#.*$", "", command).split(" && ")]


def _not_run(part: str) -> str | None:
    plain = part.removeprefix(".venv/bin/")
    for pattern, why in NOT_RUN:
        if re.match(pattern, part) or re.match(pattern, plain):
            return why
    return None


COMMANDS = documented()


def test_the_quick_start_commands_come_first() -> None:
    """The two commands the README promises stay first and exactly as written."""
    first = [d.command for d in _commands() if d.source.startswith("README.md:")][:2]
    assert first == [
        "sh .ci/setup && .venv/bin/unity-index index --project fixtures/DungeonCrawler && .venv/bin/unity-index query"
        ' "player takes damage and dies" --project fixtures/DungeonCrawler && .venv/bin/unity-index context'
        ' "add a shield that absorbs damage" --project fixtures/DungeonCrawler --budget 2000',
        "sh .ci/setup --dev && .venv/bin/python -m pytest",
    ]


def test_every_documented_command_is_run_or_listed() -> None:
    unknown = [
        (d.source, part)
        for d in COMMANDS
        if d.source.split(":")[0] not in NOT_RUN_FILES
        for part in _parts(d.command)
        if _not_run(part) is None and not re.match(r"(\.venv/bin/)?unity-index\b", part)
    ]
    assert unknown == [], "add these to NOT_RUN with a reason, or make them unity-index commands"
    parts = [p.removeprefix(".venv/bin/") for d in COMMANDS for p in _parts(d.command)]
    unused = [pattern for pattern, _ in NOT_RUN if not any(re.match(pattern, p) for p in parts)]
    assert unused == [], "NOT_RUN lists commands no document shows any more"


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch checkout: fixtures/DungeonCrawler (a git repository) and .venv/bin/unity-index."""
    root = tmp_path_factory.mktemp("docs") / "checkout"
    project = root / "fixtures" / "DungeonCrawler"
    copy_fixture(project)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    shim = bin_dir / "unity-index"
    shim.write_text(f'#!/bin/sh\nexec {sys.executable} -m indexer.cli "$@"\n')
    shim.chmod(0o755)
    (root / "home").mkdir()
    (root / "home" / ".config" / "fish" / "completions").mkdir(parents=True)
    return root


def _run(checkout: Path, d: Documented) -> tuple[subprocess.CompletedProcess, list[str]]:
    project = checkout / "fixtures" / "DungeonCrawler"
    runnable, skipped = [], []
    for part in _parts(d.command):
        why = _not_run(part)
        (skipped.append(f"{part}: {why}") if why else runnable.append(part))
    if not runnable:
        return subprocess.CompletedProcess([], 0, "", ""), skipped
    script = " && ".join(runnable).replace(PLACEHOLDER, str(project))
    cwd = checkout if ("fixtures/DungeonCrawler" in script or ".venv/bin/" in script) else project
    env = {
        **os.environ,
        "PATH": f"{checkout / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(REPO),
        "HOME": str(checkout / "home"),
        "NO_COLOR": "1",
    }
    r = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    return r, skipped


@pytest.mark.parametrize("doc", COMMANDS, ids=[d.source for d in COMMANDS])
def test_documented_command(checkout: Path, doc: Documented) -> None:
    if doc.source.split(":")[0] in NOT_RUN_FILES:
        pytest.skip(NOT_RUN_FILES[doc.source.split(":")[0]])
    r, skipped = _run(checkout, doc)
    if not r.args:
        pytest.skip("; ".join(skipped))
    assert r.returncode == doc.exit_code, f"{doc.command}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
    if doc.expected_output:
        project = str(checkout / "fixtures" / "DungeonCrawler")
        printed = {
            SCORE.sub("(N)", line.replace(project, "fixtures/DungeonCrawler")).rstrip()
            for line in (r.stdout + r.stderr).splitlines()
        }
        missing = [line for line in doc.expected_output if SCORE.sub("(N)", line).rstrip() not in printed]
        assert missing == [], f"{doc.source}: documented output not printed by `{doc.command}`:\n{r.stdout}{r.stderr}"
