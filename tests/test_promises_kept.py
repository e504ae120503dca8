"""Promises of the docs, the help texts and the docstrings that no other test held (audit of
session 25), each test quoting the sentence it checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.query.describe import describe
from indexer.query.workspace import open_workspace, projects_at

from .conftest import meta, write_project
from .test_indexing import CONFIG


def test_describe_says_a_partial_scripts_status_once_under_its_header(tmp_path: Path) -> None:
    """docs/cli.md, `describe`: "A file read in part or skipped says so once, under its header, with
    its whole note". A script parsed with syntax errors said it twice: `partial: 3 syntax error
    regions` under the header, and again as the outline's last line, `(parsed with syntax errors
    near lines 1, 3, 6)`. The header now says it once, with the lines."""
    head = "public class Lantern : UnityEngine.MonoBehaviour\n{\n"
    broken = head + "    void Light( {\n    int fuel;\n    void Dim() { }\n    void X( { }\n}\n"
    root = write_project(tmp_path / "Game", {"Assets/Lantern.cs": broken, "Assets/Lantern.cs.meta": meta("a" * 32)})
    update(root, CONFIG)
    graph = open_workspace(root, projects_at(root)).projects[0].graph
    rec = graph.records.record("Assets/Lantern.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("partial", "3 syntax error regions", (1, 3, 6))
    lines = describe(graph, "Assets/Lantern.cs").text.split("\n")
    assert lines[:3] == [
        "Assets/Lantern.cs  (csharp, guid " + "a" * 32 + ")",
        "assembly Assembly-CSharp",
        "partial: 3 syntax error regions, near lines 1, 3, 6",
    ]
    assert sum("syntax error" in line for line in lines) == 1, lines
    (root / "Assets/Lantern.cs").write_text(head + "    void X( { }\n}\n")
    update(root, CONFIG)
    graph = open_workspace(root, projects_at(root)).projects[0].graph
    assert describe(graph, "Assets/Lantern.cs").text.split("\n")[2] == "partial: 1 syntax error region, near line 3"


# docs/configuration.md: "Scanner processes for large updates; 0 means one per core. At most 4 run
# at once. Default 0."
@pytest.mark.parametrize(("workers", "cores", "started"), [(0, 2, 2), (0, 16, 4), (1, 16, 1), (3, 1, 3), (64, 1, 4)])
def test_workers_is_one_scanner_process_per_core_by_default_and_never_more_than_4(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int, cores: int, started: int
) -> None:
    from indexer.build import apply
    from indexer.build import workers as scanning
    from indexer.config import Config

    asked: list[int] = []

    class CountedPool:
        def __init__(self, n: int, *args: object) -> None:
            asked.append(n)
            raise LookupError("counted")

    monkeypatch.setattr(scanning, "Pool", CountedPool)
    monkeypatch.setattr(apply.os, "cpu_count", lambda: cores)
    files = {f"Assets/S{i}.cs": f"public class S{i} {{ }}\n" for i in range(scanning.PARALLEL_MIN_FILES)}
    root = write_project(tmp_path / "Game", files)
    assert Config().workers == 0
    with pytest.raises(LookupError, match="counted"):
        update(root, Config(workers=workers))
    assert asked == [started]


# docs/cli.md, `agents install`: "The section says when to use `query`, `context`, `refs` and
# `describe` (with `--json`) ... and to run `index` after changing files"; "In a folder holding
# several projects the commands carry `--project .`". An agent copies them as they are written: each
# runs, from the folder the guidance file is in, with its placeholders filled, and `--json` is JSON.
PLACEHOLDERS = {
    '"<words, identifiers or a task>"': ['"player takes damage"'],
    '"<task>"': ['"add a shield that absorbs damage"'],
    "<Type | Type.Member | path | GUID>": [
        "PlayerHealth",
        "PlayerHealth.Heal",
        "{prefix}Assets/Prefabs/Player.prefab",
        "502fdc0478969faaae9939a5a003717d",
    ],
    "<path | GUID>": ["{prefix}Assets/Prefabs/Player.prefab", "502fdc0478969faaae9939a5a003717d"],
}


@pytest.mark.parametrize("single", [True, False])
def test_the_commands_the_agents_section_teaches_run_as_written(tmp_path: Path, single: bool) -> None:
    import json
    import re
    import shlex

    from indexer.cli.agents import section

    from .conftest import copy_fixture, run_cli

    folder = copy_fixture(tmp_path / "Game") if single else tmp_path / "Games"
    if not single:
        copy_fixture(folder / "Dungeon")
        copy_fixture(folder / "Crypt")
    commands = re.findall(r"`(unity-index [^`]+)`", section(single).split("\n", 1)[1])  # past the marker
    assert [c.split()[1] for c in commands] == ["query", "context", "refs", "describe", "index"]
    ran = 0
    for command in commands:
        filled = [command]
        for hole, values in PLACEHOLDERS.items():
            prefix = "" if single else "Dungeon/"
            filled = [c.replace(hole, v.format(prefix=prefix)) for c in filled for v in (values if hole in c else [""])]
        for line in filled:
            r = run_cli(*shlex.split(line)[1:], cwd=folder)
            assert r.returncode == 0, (line, r.stderr)
            assert r.stdout.strip() or line.split()[1] == "index", line
            if "--json" in line:
                assert json.loads(r.stdout)["schema_version"] == 1, line
            ran += 1
    assert ran == 1 + 1 + 4 + 2 + 1


# docs/indexing.md, "Which files": kinds without a search document are known, but "a search never
# returns them ... (`--kind texture` is accepted and finds nothing)"; docs/cli.md, `query`: "no
# results is not an error (exit 0, nothing on stdout, a hint on stderr)"; `folder` alone is no
# `--kind` ("another word is exit 2 listing them").
def test_kind_texture_is_taken_and_finds_nothing_and_kind_folder_is_refused(indexed_fixture: Path) -> None:
    from .conftest import run_cli

    texture = run_cli("query", "player", "--kind", "texture", "--project", str(indexed_fixture))
    assert (texture.returncode, texture.stdout) == (0, "")
    assert texture.stderr == "no results: try other words (identifiers, file names) or drop --kind/--path\n"
    folder = run_cli("query", "player", "--kind", "folder", "--project", str(indexed_fixture))
    assert (folder.returncode, folder.stdout) == (2, "")
    assert folder.stderr.startswith("error: --kind folder: no such kind; use one of animation, animator, asmdef,")
    assert "texture" in folder.stderr and "folder," not in folder.stderr


# README: "Every command takes `--project DIR` and `--debug`, before or after the command";
# docs/cli.md: "`--project` too goes before or after the command". `completion` took it only before
# (after it: "unrecognized arguments", exit 2). It reads no project: the script is the same.
def test_every_command_takes_project_after_it_completion_included(tmp_path: Path) -> None:
    from .conftest import run_cli

    before = run_cli("--project", str(tmp_path), "completion", "bash")
    after = run_cli("completion", "bash", "--project", str(tmp_path), "--debug")
    assert (after.returncode, after.stderr) == (0, "")
    assert after.stdout == before.stdout and "complete -o default -F _unity_index unity-index" in after.stdout
