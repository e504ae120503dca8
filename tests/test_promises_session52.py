"""Session 52's audit of the promises sessions 48-51 wrote (docs/cli.md, docs/mcp.md,
docs/configuration.md and the docstrings of the modules they changed): each test here holds one
that no test held, and each was seen failing with the code path it names broken.

1. A message stderr cannot take (`2>/dev/full`) ended the command: `query` printed no answer and
   exited 1, an error's exit 2 became 1 (console.py; the exit codes of docs/cli.md).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import CLI_ENV, REPO, write_project


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
