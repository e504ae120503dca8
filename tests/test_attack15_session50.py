"""Attack 15 of session 50: each test failed before the fix it names.

1. A folder named in the other Unicode normal form than the one on disk (`--path Assets/전투`
   typed composed, NFC, as keyboards write it, for a folder macOS wrote decomposed, NFD; or the
   other way) was "no indexed file is under this folder; did you mean Assets/전투?", a suggestion
   looking the same as what was typed, by `query --path` and the MCP tools' `path`. A file was
   found in the other form only when every name of its path was in one form: a file added on
   Linux (NFC) into a folder made on a Mac (NFD) was "not an indexed file; did you mean ...?" in
   either form. Paths are now compared without normal form wherever they are without case
   (`paths.fold`).
2. A folder that took a file's place between the walk and the file's read (a checkout replacing
   `Config.asset` by a `Config.asset/` folder, an unpacked archive) was recorded as skipped, "not
   a regular file (a pipe, socket or device)": no pipe, socket or device was there. It is "a
   folder, not a file: it took the file's place since the project was walked", and the next
   update, walking the folder, indexes its files and drops the record.
3. `refs Type.Member` read a line starting with `namespace N` or `using X;` as a directive
   whole: a script written on one line (`namespace N { class C { void M(Door d) { d.Open(); } } }`,
   generated or minified code) or a `using` followed by code on its line hid its usages. The
   directives leading a line are passed over and the code after them read.
4. An index of no file (an `exclude` leaving out every file: `"**"`, `"*"`, one pattern per
   content folder; a project whose folders hold nothing) answered every query "no results: try
   other words", every context pack "no file matches the task: try other words", and the MCP
   `search` tool likewise: no word could match, and the cause went unsaid. Each says the index
   holds no file and why (`query/empty.py`).
5. An empty exclude pattern (`""`, or `"/"`, whose slash is dropped) matched no path and was
   taken without a word, where every other pattern that can match no path is an invalid file
   (exit 2, since session 44): it is one too.
6. `doctor` of a project with no index whose index folder cannot be made (a read-only checkout
   or volume: `Library/` not writable) warned "no index yet" and gave `unity-index index` as the
   fix, which failed "Permission denied". It fails the check naming the folder that cannot be
   written, and says to make it writable or set `index_dir`.
7. A prefab or scene merged by keeping both sides (a merge tool's "take both": every object
   written twice under its fileID, no conflict marker) was indexed `ok`, its note saying only
   "duplicate fileID N" five times over (in the JSON alone), and `describe` listed every
   component and field twice without a word of why. It is `partial`, "N duplicate fileIDs (...)
   held by more than one object: the file looks merged keeping both sides, what it holds twice
   read twice", which `status` lists and `describe` says (none of 19,034 scenes, prefabs and assets
   of the 81 mirrored projects holds a fileID twice).
8. `refs` of a GUID of Unity's built-in resources (`0000000000000000e000000000000000`, which every
   prefab's default font and mesh name) said "GUID not found in this project (a package asset, or
   a missing one)", and `describe` "it may belong to a package, or the asset is missing": neither.
   Both name the resources, as `describe` already did where a file names them.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

from indexer.build.update import update
from indexer.build.workers import process
from indexer.changes.diff import Job
from indexer.cli.main import main
from indexer.config import Config
from indexer.paths import fold, folders_by_case, folders_ending, pick
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths

from .conftest import write_project


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


COMBAT = nfd("Assets/스크립트/전투")  # "Scripts/Combat", as macOS writes Hangul: decomposed
SWORD = COMBAT + "/Sword.cs"
SHIELD = COMBAT + nfc("/방패.cs")  # "Shield", added on Linux: composed, in the Mac's folder


def test_fold_compares_without_case_and_normal_form() -> None:
    assert fold(nfc("Assets/Épée.cs")) == fold(nfd("ASSETS/ÉPÉE.CS")) == "assets/" + nfc("épée.cs")
    assert fold(nfd("전투")) == fold(nfc("전투")) == nfc("전투")
    assert fold("Assets/Util.cs") == "assets/util.cs"


def test_a_folder_and_a_file_in_the_other_normal_form_are_found_by_the_pure_rules() -> None:
    paths = [SWORD, SHIELD, "Assets/Other/A.cs"]
    for typed in (nfc(COMBAT), nfd(COMBAT), nfc(COMBAT) + "/"):
        assert folders_by_case([typed], paths) == [COMBAT], typed
    assert folders_ending(nfc("전투"), paths) == [COMBAT]
    assert folders_ending(nfc("스크립트/전투/"), paths) == [COMBAT]
    for typed in (nfc(SHIELD), nfd(SHIELD), nfc("방패.cs"), nfd("전투/방패.cs")):
        assert pick(typed, [typed], lambda _: False, lambda: paths) == SHIELD, typed


def test_query_path_and_describe_find_a_folder_typed_in_the_other_normal_form(tmp_path: Path, capsys) -> None:
    root = write_project(
        tmp_path / "P",
        {
            SWORD: "public class Sword { public void Swing() { } }\n",
            SHIELD: "public class Shield { public void Swing() { } }\n",
            "Assets/Other/Axe.cs": "public class Axe { public void Swing() { } }\n",
        },
    )
    update(root, Config(workers=1))
    capsys.readouterr()
    for typed in (nfc(COMBAT), nfc("전투"), nfd(COMBAT)):
        assert main(["query", "swing", "--path", typed, "--no-refresh", "--project", str(root)]) == 0, typed
        out, err = capsys.readouterr()
        assert (SWORD in out, SHIELD in out, "Axe" in out, err) == (True, True, False, ""), typed
    for typed in (nfc(SHIELD), nfd(SHIELD)):
        assert main(["describe", typed, "--json", "--no-refresh", "--project", str(root)]) == 0, typed
        assert f'"path":"{SHIELD}"' in capsys.readouterr().out, typed


FOLDER_SAID = "a folder, not a file: it took the file's place since the project was walked"


def test_a_folder_swapped_in_for_a_file_between_the_walk_and_the_read_is_said_a_folder(tmp_path: Path) -> None:
    kinds = {"Assets/Config.asset": "asset", "Assets/Player.cs": "csharp", "Assets/A.cs.meta": "meta"}
    texts = ("%YAML 1.1\n", "class Player {}", "fileFormatVersion: 2\n")
    files = dict(zip(kinds, texts, strict=True))
    root = write_project(tmp_path / "P", files)
    jobs = [Job(str(root), rel, kinds[rel], len(text), 0, "", 50 << 20) for rel, text in files.items()]
    for rel in files:  # after the walk's lstat: each file becomes a folder holding one
        (root / rel).unlink()
        (root / rel).mkdir()
        (root / rel / "Inside.cs").write_text("class Inside {}")
    for job in jobs:
        record = process(job).record
        assert (record.path, record.status, record.note) == (job.path, "skipped", FOLDER_SAID)
    update(root, Config(workers=1))  # the next update walks the folders
    records = Records(IndexPaths(Config().index_path(root)))
    try:
        assert sorted(records.kinds()) == sorted(f"{rel}/Inside.cs" for rel in files)
    finally:
        records.close()


DOOR = "namespace Game.Open { public class Door { public void Open() { } } }\n"


def test_member_usages_after_a_namespace_or_using_on_their_line_are_found(tmp_path: Path, capsys) -> None:
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Door.cs": DOOR,
            "Assets/OneLine.cs": "namespace Game { public class Knock { void M(Game.Open.Door d) { d.Open(); } } }\n",
            "Assets/Used.cs": "using Game.Open; public class Kick { void M(Door d) { d.Open(); } }\n",
            "Assets/Named.cs": "using Game.Open;\nnamespace Game.Open {\n public class Look { Door d; }\n}\n",
        },
    )
    update(root, Config(workers=1))
    capsys.readouterr()
    assert main(["refs", "Game.Open.Door.Open", "--json", "--no-refresh", "--project", str(root)]) == 0
    usages = json.loads(capsys.readouterr().out)["usages"]
    assert [(u["path"], u["line"], u["kind"], u["context"]) for u in usages] == [
        ("Assets/OneLine.cs", 1, "text", "member"),
        ("Assets/Used.cs", 1, "text", "member"),
    ]


EMPTY_BY_EXCLUDE = (
    "the index of P holds no file: the exclude patterns of unity-index.toml ('Assets/**', '*') leave out every file"
)


def test_an_index_of_no_file_says_why_instead_of_try_other_words(tmp_path: Path, capsys) -> None:
    import anyio
    from mcp import Client

    from indexer.query.workspace import open_workspace, projects_at
    from mcp_adapter.server.app import create_server

    root = write_project(tmp_path / "P", {"Assets/Door.cs": DOOR, "ProjectSettings/TagManager.asset": "%YAML 1.1\n"})
    (root / "unity-index.toml").write_text('exclude = ["Assets/**", "*"]\n')
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    capsys.readouterr()
    assert main(["query", "door", "--project", str(root)]) == 0
    assert capsys.readouterr().err == f"no results: {EMPTY_BY_EXCLUDE}\n"
    assert main(["context", "open the door", "--json", "--project", str(root)]) == 0
    assert json.loads(capsys.readouterr().out)["note"] == f"no file matches the task: {EMPTY_BY_EXCLUDE}"

    async def search() -> str:
        ws = open_workspace(root, projects_at(root))
        server = create_server(ws, refresh_interval=60, tokenizer="estimate", watch=False)
        async with Client(server, mode="legacy") as c:
            return (await c.call_tool("search", {"query": "door"})).content[0].text

    assert anyio.run(search) == f"no results for 'door': {EMPTY_BY_EXCLUDE}"

    bare = write_project(tmp_path / "Bare", {})
    assert main(["query", "door", "--project", str(bare)]) == 0
    said = "the index of Bare holds no file: Assets/, Packages/, ProjectSettings/ hold nothing to index"
    assert capsys.readouterr().err.endswith(f"no results: {said}\n")
    (root / "unity-index.toml").unlink()  # files indexed: words that match nothing are said so
    assert main(["query", "zzyzx", "--project", str(root)]) == 0
    assert capsys.readouterr().err.endswith("no results: try other words (identifiers, file names)\n")


def test_an_empty_exclude_pattern_is_an_invalid_config(tmp_path: Path, capsys) -> None:
    root = write_project(tmp_path / "P", {"Assets/Door.cs": DOOR})
    for pattern in ("", "/", "//"):
        (root / "unity-index.toml").write_text(f'exclude = ["Assets/Other/**", "{pattern}"]\n')
        assert main(["index", "--project", str(root)]) == 2, pattern
        assert capsys.readouterr().err == (
            f"error: {root / 'unity-index.toml'}: the exclude pattern {pattern!r} is empty: it matches no path;"
            " give a glob such as Assets/ThirdParty/**\n"
        )


def test_doctor_says_when_the_index_folder_cannot_be_made(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    import pytest

    from .conftest import REPO, copy_fixture
    from .test_environment_errors import _without_write_permission

    prefix = _without_write_permission()
    if prefix is None:
        pytest.skip("cannot drop the permission to write as root here")
    root = copy_fixture(tmp_path / "P")
    library = root / "Library"
    library.mkdir()
    library.chmod(0o555)
    try:
        r = subprocess.run(
            [*prefix, sys.executable, "-m", "indexer.cli", "doctor", "--json", "--project", str(root)],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"},
            timeout=120,
        )
    finally:
        library.chmod(0o755)
    assert r.returncode == 1, r.stderr
    index = next(c for c in json.loads(r.stdout)["checks"] if c["name"] == "index")
    assert index == {
        "name": "index",
        "status": "fail",
        "detail": f"no index yet at {library / 'UnityIndex'}, and none can be made there: {library} cannot be written",
        "fix": f"make {library} writable, or set index_dir in {root / 'unity-index.toml'} to a folder you can write",
    }


PLAYER = (
    "--- !u!1 &100\nGameObject:\n  m_Component:\n  - component: {fileID: 200}\n  m_Name: Player\n"
    "--- !u!4 &200\nTransform:\n  m_GameObject: {fileID: 100}\n  m_Father: {fileID: 0}\n"
)
MERGED_TWICE = (
    "partial: 4 documents; 2 duplicate fileIDs (100, 200) held by more than one object: the file looks merged"
    " keeping both sides, what it holds twice read twice"
)


def test_a_file_merged_keeping_both_sides_is_partial_saying_so(tmp_path: Path, capsys) -> None:
    head = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
    files = {"Assets/Player.prefab": head + PLAYER + PLAYER, "Assets/Once.prefab": head + PLAYER}
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    capsys.readouterr()
    assert main(["describe", "Assets/Player.prefab", "--no-refresh", "--project", str(root)]) == 0
    assert capsys.readouterr().out.split("\n")[1] == MERGED_TWICE
    assert main(["status", "--json", "--project", str(root)]) == 0
    assert json.loads(capsys.readouterr().out)["partial_files"] == ["Assets/Player.prefab"]


def test_a_guid_of_unity_s_built_in_resources_is_said_to_be_one(tmp_path: Path, capsys) -> None:
    root = write_project(tmp_path / "P", {"Assets/Door.cs": DOOR})
    update(root, Config(workers=1))
    capsys.readouterr()
    assert main(["refs", "0000000000000000E000000000000000", "--json", "--project", str(root)]) == 0
    target = json.loads(capsys.readouterr().out)["target"]
    assert (target["kind"], target["name"], target["path"], target["note"]) == (
        "guid",
        "0000000000000000e000000000000000",
        "",
        "Unity's built-in extra resources: no file of the project (what names them is not recorded)",
    )
    assert main(["describe", "guid: 0000000000000000f000000000000000", "--project", str(root)]) == 2
    assert capsys.readouterr().err == (
        "error: GUID 0000000000000000f000000000000000 is Unity's built-in default resources: no file of the"
        " project, so there is nothing to describe\n"
    )
