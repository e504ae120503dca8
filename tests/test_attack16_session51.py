"""Attack 16 of session 51: each test failed before the fix it names.

1. A file moved outside Unity with a copy of its `.meta` beside it and the old `.meta` left behind
   (`git mv Knight.prefab` without its `.meta`, then `cp` of the `.meta`: two `.meta` files holding
   one GUID, one of them beside no file, until Unity deletes it on import) led its GUID to the
   `.meta` left behind whenever that one's path sorted first: the scene's instance of the prefab
   was "prefab instance of Assets/Prefabs/Knight.prefab", a file not in the project, `refs` of the
   prefab found no usage, `refs` of the GUID said "only Assets/Prefabs/Knight.prefab.meta is in the
   project", and a prefab carrying the moved script named a script not in the project. A GUID
   leads to a file in the project before one that is not (`Records._guid_rows`), and the note
   names the `.meta` left behind as such.
2. Two projects whose `unity-index.toml` name one index folder (an absolute `index_dir` in a
   copied file) shared it without a word: each update of one replaced the other's index (208 of
   213 files "deleted"), and an MCP server of the other, trusting its file events, answered from
   it: `search` found a file of the other project, `describe` of its own files said "not an
   indexed file". Each update records the project it serves (`settings.json`), and a project
   whose index folder holds the index of another project, still there and naming that folder
   too, is refused on every command (exit 2) naming both; a project moved or copied away from
   the one recorded takes the index over.
3. An exclude pattern naming a folder whose name holds `[` (`Assets/[Old]/**`, a common way to
   sort a folder first) matched nothing of it, fnmatch reading `[Old]` as one of the characters
   O, l and d, and the folder was indexed without a word. Such a pattern is an invalid file (exit
   2) saying so and how to write it (`[[]` for a `[`), where a name of the project on disk is
   what it would name read literally.
"""

from __future__ import annotations

import json
from pathlib import Path

from indexer.cli.main import main

from .conftest import meta, mono_script, run_cli, script_prefab, write_project
from .test_shared_guid import PREFAB_GUID, SCRIPT_GUID
from .test_shared_guid import SCENE_TEXT as SCENE


def moved_without_meta(root: Path) -> Path:
    """The prefab moved from Assets/Prefabs to Assets/Units and the script from Assets/Old to
    Assets/Scripts, each with a copy of its .meta; the old .meta files, left behind, sort first."""
    return write_project(
        root,
        {
            "Assets/Prefabs/Knight.prefab.meta": meta(PREFAB_GUID, "PrefabImporter"),
            "Assets/Units/Knight.prefab": script_prefab("Knight", SCRIPT_GUID, "  hp: 5\n"),
            "Assets/Units/Knight.prefab.meta": meta(PREFAB_GUID, "PrefabImporter"),
            "Assets/Old/Knight.cs.meta": meta(SCRIPT_GUID),
            "Assets/Scripts/Knight.cs": mono_script("Knight", "    public int hp;"),
            "Assets/Scripts/Knight.cs.meta": meta(SCRIPT_GUID),
            "Assets/Scenes/Castle.unity": SCENE,
            "Assets/Scenes/Castle.unity.meta": meta("c3" * 16, "DefaultImporter"),
        },
    )


def ask(capsys, root: Path, *args: str) -> dict:
    assert main([*args, "--json", "--project", str(root)]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_guid_left_behind_by_a_move_outside_unity_leads_to_the_file_in_the_project(tmp_path: Path, capsys) -> None:
    root = moved_without_meta(tmp_path / "P")
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    refs = ask(capsys, root, "refs", "Assets/Units/Knight.prefab")
    assert [(u["path"], u["kind"]) for u in refs["usages"]] == [("Assets/Scenes/Castle.unity", "prefab")]
    assert refs["target"]["note"] == (
        f"GUID {PREFAB_GUID} is also held by Assets/Prefabs/Knight.prefab.meta, whose file is not in the"
        " project (moved or deleted without it?): Unity deletes such a .meta on import; usages by it are"
        " listed for Assets/Units/Knight.prefab"
    )
    by_guid = ask(capsys, root, "refs", PREFAB_GUID)
    assert (by_guid["target"]["path"], len(by_guid["usages"])) == ("Assets/Units/Knight.prefab", 1)
    assert main(["describe", "Assets/Scenes/Castle.unity", "--project", str(root)]) == 0
    assert "(prefab instance of Assets/Units/Knight.prefab)" in capsys.readouterr().out
    script = ask(capsys, root, "refs", "Knight")
    assert sorted({u["path"] for u in script["usages"] if u["where"] == "asset"}) == [
        "Assets/Scenes/Castle.unity",
        "Assets/Units/Knight.prefab",
    ]
    assert main(["describe", "Assets/Units/Knight.prefab", "--project", str(root)]) == 0
    out = capsys.readouterr().out
    assert "Knight: hp: 5" in out and "not in project" not in out


def test_two_projects_naming_one_index_folder_are_refused_not_mixed(tmp_path: Path) -> None:
    shared = tmp_path / "index"
    toml = {"unity-index.toml": f'index_dir = "{shared.as_posix()}"\n'}
    first = write_project(tmp_path / "First", {**toml, "Assets/Hero.cs": "public class Hero { }\n"})
    second = write_project(tmp_path / "Second", {**toml, "Assets/Ogre.cs": "public class Ogre { }\n"})
    assert run_cli("index", "--quiet", "--project", str(first)).returncode == 0
    said = (
        f"error: {second / 'unity-index.toml'}: the index folder {shared} holds the index of another project,"
        f" {first}, whose unity-index.toml names that folder too: two projects cannot share one (each update"
        " would replace the other's index); set index_dir in unity-index.toml of one of them to a folder of its"
        " own\n"
    )
    for command in (("index",), ("query", "ogre"), ("status",)):
        r = run_cli(*command, "--project", str(second))
        assert (r.returncode, r.stderr) == (2, said), command
    r = run_cli("query", "hero", "--project", str(first))
    assert (r.returncode, "Assets/Hero.cs" in r.stdout) == (0, True)
    first.rename(tmp_path / "Moved")  # the project recorded is gone: the other takes the index over
    r = run_cli("query", "ogre", "--project", str(second))
    took = "files changed since the index of Second was updated (1 added, 1 deleted): updated it\n"
    assert (r.returncode, "Assets/Ogre.cs" in r.stdout, r.stderr) == (0, True, took)


def test_an_exclude_pattern_naming_a_bracketed_folder_says_how_to_write_it(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "P",
        {
            "Assets/[Old] Art/Statue.cs": "public class Statue { }\n",
            "Assets/Scripts/Hero.cs": "public class Hero { }\n",
            "Assets/O Art/Keep.cs": "public class Keep { }\n",
        },
    )
    toml = root / "unity-index.toml"
    toml.write_text('exclude = ["/Assets/[Old] Art/**"]\n')
    r = run_cli("index", "--project", str(root))
    assert (r.returncode, r.stderr) == (
        2,
        f"error: {toml}: the exclude pattern '/Assets/[Old] Art/**' reads `[...]` as one character of a set, so"
        " it matches nothing of Assets/[Old] Art, which is in the project: write `[[]` for a `[` of a name"
        " (/Assets/[[]Old] Art/**)\n",
    )
    for taken in ("Assets/[[]Old] Art/**", "Assets/[OP] Art/**", "Assets/Scripts/[H]ero.cs", "Assets/[New]/**"):
        toml.write_text(f'exclude = ["{taken}"]\n')
        assert run_cli("index", "--quiet", "--project", str(root)).returncode == 0, taken
    toml.write_text('exclude = ["Assets/[[]Old] Art/**"]\n')
    r = run_cli("query", "statue keep", "--project", str(root))
    assert ("Statue.cs" in r.stdout, "Keep.cs" in r.stdout) == (False, True)
