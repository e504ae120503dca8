"""Attack 17 of session 51: each test failed before the fix it names.

1. A shell whose working folder was removed after it entered it (the index's `gen-N/`, which
   `index --full` replaces; a project deleted or checked out again in another terminal) made
   every command say "No such file or directory; check that this file or folder can be read and
   written (and that the disk has room)", naming nothing: `query` and `status` without
   --project, and `describe`, `refs`, `query --path` and `doctor` even with the project given
   as an absolute path, which need no working folder (Path.cwd() raised). Those answer; a
   command that needs the working folder (no --project, or a relative one) says it is gone and
   what to do (exit 2), `doctor` fails its project check so.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from indexer.cli.main import main

from .conftest import write_project

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
        import json

        check = next(c for c in json.loads(capsys.readouterr().out)["checks"] if c["name"] == "project")
        assert check["status"] == "fail"
        assert check["detail"] == GONE[len("error: ") : GONE.index("; `cd`")] + "; no project is found from it"
        assert check["fix"] == "`cd` into the project again, or pass --project as an absolute path"
