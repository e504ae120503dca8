"""Promises of docs/indexing.md, docs/architecture.md and the docstrings of build/, store/ and
scanners/ that no other test held: each test names the sentence it checks."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.store.consistency import check_consistency

from .conftest import REPO, meta, write_project
from .test_environment_errors import _without_write_permission
from .test_incremental import (
    LOADER,
    _contents,
    project,  # noqa: F401 (its fixture)
    snapshot,
)
from .test_indexing import CONFIG, FILES, comparable, paths_of, records, search_paths

GRAPH = (Path(__file__).parent / "asset_cases" / "Lava.shadergraph").read_bytes()
CONTROLS = b'{"maps": [{"name": "Ship", "actions": [{"name": "Fire", "type": "Button"}], "bindings": []}]}'


def _move(root: Path, src: str, dst: str) -> None:
    (root / dst).parent.mkdir(parents=True, exist_ok=True)
    shutil.move(root / src, root / dst)


def _equals_a_rebuild(root: Path) -> dict:
    """The index after an incremental update, asserted equal to a rebuild of the same files."""
    assert check_consistency(paths_of(root), root, CONFIG) == []
    incremental = comparable(root)
    update(root, CONFIG, full=True)
    assert comparable(root) == incremental
    return incremental


# indexing.md, "Keeping the index fresh": a file moved unchanged keeps its record, and "Kinds whose
# scan depends on the path (...) are rescanned"; "Incremental results equal a full rebuild after
# ... file and folder moves". A Shader Graph is named by its file (shadergraph.py: "name =
# <m_Path>/<file stem>") and an action asset without a `name` by its file (inputactions.py).
@pytest.mark.parametrize(
    ("old", "new", "data", "symbol"),
    [
        ("Assets/FX/Lava.shadergraph", "Assets/FX/Magma.shadergraph", GRAPH, "Dungeon/Effects/Magma"),
        ("Assets/FX/Lava.shadergraph", "Assets/FX/Lava.shadersubgraph", GRAPH, "Lava"),
        ("Assets/Input/Ship.inputactions", "Assets/Input/Boat.inputactions", CONTROLS, "Boat"),
    ],
)
def test_a_file_named_by_its_path_renamed_unchanged_is_named_by_its_new_path(
    tmp_path: Path, old: str, new: str, data: bytes, symbol: str
) -> None:
    root = write_project(tmp_path / "P", {**FILES, old: data, old + ".meta": meta("c" * 32, "ScriptedImporter")})
    update(root, CONFIG)
    _move(root, old, new)
    _move(root, old + ".meta", new + ".meta")
    update(root, CONFIG)
    assert records(root).record(new).symbols[0].name == symbol
    _equals_a_rebuild(root)


# indexing.md: "A deleted file and an added file of the same kind with the same content hash in
# one update are a move": of another kind, the same bytes are scanned as the new kind.
def test_a_script_renamed_to_a_text_file_is_a_text_file_not_a_moved_script(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", FILES)
    update(root, CONFIG)
    _move(root, "Assets/Scripts/Health.cs", "Assets/Scripts/Health.txt")
    stats = update(root, CONFIG)
    assert (stats.moved, stats.added, stats.deleted) == (0, 1, 1)
    rec = records(root).record("Assets/Scripts/Health.txt")
    assert (rec.kind, rec.symbols) == ("text", ())
    assert "Assets/Scripts/Health.cs::Game.Combat.Health" not in records(root).categories()
    _equals_a_rebuild(root)


# indexing.md, "The reference graph": edges are "kept exact on every update: a batch re-resolves
# ... every file whose references name a ... load key (a Resources path ...) the batch ...
# moved". The asset is moved unchanged (a move, no rescan) out of its Resources folder, then back
# into another one under the same key.
def test_a_resource_moved_out_of_and_into_resources_moves_the_loaders_edge(tmp_path: Path) -> None:
    sword = "Assets/Resources/Icons/Sword.txt"
    root = write_project(
        tmp_path / "P",
        {**FILES, "Assets/Scripts/Icons.cs": LOADER, sword: "a sword", sword + ".meta": meta("d" * 32)},
    )
    update(root, CONFIG)

    def loads() -> set[tuple[str, str, str]]:
        return {e for e in comparable(root)["edges"] if e[0] == "Assets/Scripts/Icons.cs"}

    assert loads() == {("Assets/Scripts/Icons.cs", sword, "loads")}
    _move(root, sword, "Assets/Data/Sword.txt")
    _move(root, sword + ".meta", "Assets/Data/Sword.txt.meta")
    assert update(root, CONFIG).moved == 2
    assert loads() == set()
    _equals_a_rebuild(root)
    _move(root, "Assets/Data/Sword.txt", "Assets/Art/Resources/Icons/Sword.txt")
    _move(root, "Assets/Data/Sword.txt.meta", "Assets/Art/Resources/Icons/Sword.txt.meta")
    update(root, CONFIG)
    assert loads() == {("Assets/Scripts/Icons.cs", "Assets/Art/Resources/Icons/Sword.txt", "loads")}
    _equals_a_rebuild(root)


# indexing.md, "Skips": "Files that cannot be read meaningfully are recorded with `status:
# skipped` and a reason, listed by `unity-index status`: ... unreadable files"; and a file that
# can be read again is indexed by the next update, as the folder is ("Bad input"), by a walk and
# when git does the finding (a chmod changes neither the stat compared nor what git lists).
@pytest.mark.parametrize("git", [False, True])
def test_an_unreadable_file_is_skipped_with_the_reason_and_indexed_once_readable(tmp_path: Path, git: bool) -> None:
    prefix = _without_write_permission()
    if prefix is None:
        pytest.skip("cannot drop root's power to read any file here")
    root = write_project(
        tmp_path / "P",
        {"Assets/Open.cs": "public class OpenThing { }\n", "Assets/Secret.cs": "class SecretThing { }\n"},
    )
    if git:
        run = ["git", "-C", str(root), "-c", "user.email=t@t", "-c", "user.name=t"]
        subprocess.run([*run, "init", "-q"], check=True)
        subprocess.run([*run, "add", "-A"], check=True)
        subprocess.run([*run, "commit", "-qm", "x"], check=True)
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}

    def cli(*args: str) -> dict:
        r = subprocess.run(
            [*prefix, sys.executable, "-m", "indexer.cli", *args, "--json", "--project", str(root)],
            capture_output=True, text=True, env=env, timeout=300,
        )  # fmt: skip
        assert r.returncode == 0, (args, r.stderr)
        return json.loads(r.stdout)

    secret = root / "Assets" / "Secret.cs"
    secret.chmod(0o000)
    cli("index")
    status = cli("status")
    assert [(s["path"], s["reason"]) for s in status["skipped"]] == [
        ("Assets/Secret.cs", "unreadable: Permission denied")
    ]
    assert cli("index")["scanned"] == 0  # still unreadable: nothing to do
    secret.chmod(0o644)
    assert cli("status")["stale_files"] == 1
    stats = cli("index")
    assert (stats["scanned"], stats["skipped"]) == (1, 0)
    assert cli("status")["skipped"] == []
    assert [h["path"] for h in cli("query", "SecretThing")["results"]][:1] == ["Assets/Secret.cs"]
    assert records(root).record("Assets/Secret.cs").symbols[0].name == "SecretThing"


# indexing.md, "Record store layout": "Schema version N: an index of any other version is rebuilt"
# (it said 10 while the index wrote 15); the header names the version the index was written by.
def test_the_documented_schema_version_is_the_one_the_index_writes(tmp_path: Path) -> None:
    from indexer.model import SCHEMA_VERSION

    text = (REPO / "docs" / "indexing.md").read_text(encoding="utf-8")
    assert [int(n) for n in re.findall(r"Schema version (\d+) \(`model.SCHEMA_VERSION`\)", text)] == [SCHEMA_VERSION]
    root = write_project(tmp_path / "P", FILES)
    update(root, CONFIG)
    header = json.loads(paths_of(root).header.read_text())
    assert (header["schema_version"], header["generation"], header["data"]) == (SCHEMA_VERSION, 1, "gen-1")


# indexing.md, "Which files": "Every file gets a record with its kind ..., size, mtime and, for
# files whose content is read, a content hash"; "Binary asset kinds (textures, models, audio,
# fonts, plugins) are recorded but not read".
def test_binary_asset_kinds_are_recorded_by_their_stat_and_never_read(tmp_path: Path) -> None:
    words = b"class TellingWord { void Xyzzy() {} }\n"
    art = {"Assets/Art/hero.png": "texture", "Assets/Art/hero.fbx": "model", "Assets/Sfx/hit.wav": "audio"}
    art |= {"Assets/Fonts/Main.ttf": "font", "Assets/Plugins/native.dll": "plugin", "Assets/Notes.xyz": "other"}
    root = write_project(tmp_path / "P", {**{p: words for p in art}, "Assets/Read.cs": words})
    update(root, CONFIG)
    r = records(root)
    for p, kind in art.items():
        rec = r.record(p)
        st = (root / p).stat()
        assert (rec.kind, rec.status, rec.size, rec.mtime_ns, rec.digest, rec.symbols) == (
            kind, "ok", st.st_size, st.st_mtime_ns, "", ()
        ), p  # fmt: skip
    assert len(r.record("Assets/Read.cs").digest) == 32
    assert search_paths(root, "xyzzy") == ["Assets/Read.cs"]


# indexing.md, "Crash safety": "Before anything else, every writer removes what a killed writer
# left (a half-built or superseded generation folder, a temporary header)"; "A rebuild ... writes a
# new folder beside the current one ...; the old folder is then removed."
def test_a_writer_removes_what_a_killed_writer_left_and_a_rebuild_the_old_generation(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", FILES)
    update(root, CONFIG)
    index = paths_of(root).root
    (index / "gen-7" / "tantivy").mkdir(parents=True)  # a rebuild killed before its header's rename
    (index / "gen-7" / "records.db").write_bytes(b"half")
    (index / f".index.json.{os.getpid()}.tmp").write_text("{}")
    assert update(root, CONFIG).full is False  # nothing changed: the update still cleans up
    assert sorted(p.name for p in index.iterdir() if p.name.startswith(("gen-", ".index"))) == ["gen-1"]
    update(root, CONFIG, full=True)
    assert sorted(p.name for p in index.iterdir() if p.name.startswith("gen-")) == ["gen-2"]
    assert json.loads(paths_of(root).header.read_text())["data"] == "gen-2"
    assert search_paths(root, "TakeDamage") == ["Assets/Scripts/Health.cs"]


# indexing.md, "One writer": "The descriptor is opened close-on-exec and non-inheritable ... so no
# other process ever holds it": a program the holder starts does not keep the index locked.
def test_a_program_started_by_the_lock_holder_does_not_hold_the_lock(tmp_path: Path) -> None:
    from indexer.store.lock import IndexBusy, writer_lock

    root = write_project(tmp_path / "P", FILES)
    paths = paths_of(root)
    sleeper = "import time; print('up', flush=True); time.sleep(30)"
    with writer_lock(paths):
        child = subprocess.Popen([sys.executable, "-c", sleeper], stdout=subprocess.PIPE, close_fds=False)
    try:
        # Once it runs: Linux wakes a vfork parent before the exec closes close-on-exec descriptors.
        assert child.stdout is not None and child.stdout.readline() == b"up\n"
        # taken at once: the sleeping child has no copy of the descriptor (a second one is refused)
        with writer_lock(paths), pytest.raises(IndexBusy), writer_lock(paths):
            pass
    finally:
        child.kill()
        child.wait()


# scanners/__init__.py: "Scanner modules are imported lazily: tree-sitter is only loaded when C#
# is actually scanned" (architecture.md: "tree-sitter is imported by the C# scanner module alone").
def test_indexing_a_project_without_scripts_never_loads_tree_sitter(tmp_path: Path) -> None:
    files = {p: c for p, c in FILES.items() if not p.endswith(".cs")}
    root = write_project(tmp_path / "P", {**files, "Assets/Glow.shader": 'Shader "Game/Glow" { }'})
    code = (
        "import sys; from pathlib import Path; from indexer.build.update import update;"
        " from indexer.config import Config; update(Path(sys.argv[1]), Config(workers=1));"
        " print(sorted(m for m in sys.modules if m.startswith(('tree_sitter', 'indexer.scanners.csharp'))))"
    )
    r = subprocess.run([sys.executable, "-c", code, str(root)], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert (r.returncode, r.stdout) == (0, "[]\n"), r.stderr
    assert records(root).record("Assets/Glow.shader").symbols[0].name == "Game/Glow"


# indexing.md, "Scanner processes": "files are scanned in the indexer's own process only when they
# are fewer than 200, under 2 MB together and each under 256 KB" (build/workers.py).
@pytest.mark.parametrize(
    ("sizes", "in_process"),
    [
        ([1_000] * 199, True),
        ([1_000] * 200, False),
        ([255_999], True),
        ([256_000], False),
        ([199_999] * 10, True),
        ([200_000] * 10, False),
    ],
)
def test_few_small_files_are_scanned_in_the_indexers_process(monkeypatch, sizes: list[int], in_process: bool) -> None:
    from indexer.build import workers
    from indexer.changes.diff import Job

    class NoPool:
        def __init__(self, *args: object) -> None:
            raise LookupError("a scanner process was started")

    monkeypatch.setattr(workers, "Pool", NoPool)
    jobs = [Job("/nowhere", f"Assets/T{i}.png", "texture", n, 0, "", 10**9) for i, n in enumerate(sizes)]
    if in_process:
        assert [r.record.path for r in workers.run_jobs(jobs, 2)] == [j.path for j in jobs]
    else:
        with pytest.raises(LookupError):
            list(workers.run_jobs(jobs, 2))


# indexing.md, Unity YAML "hierarchy": "siblings that share a name are numbered in file order,
# `---------- #2`, so they stay apart", with their components under the numbered path.
def test_siblings_sharing_a_name_are_numbered_in_file_order() -> None:
    from indexer.scanners import scan

    def go(fid: int, name: str, transform: int) -> str:
        return (
            f"--- !u!1 &{fid}\nGameObject:\n  m_Name: {name}\n  m_Component:\n  - component: {{fileID: {transform}}}\n"
        )

    def tf(fid: int, go_id: int, father: int) -> str:
        return f"--- !u!4 &{fid}\nTransform:\n  m_GameObject: {{fileID: {go_id}}}\n  m_Father: {{fileID: {father}}}\n"

    objects = [go(1, "HUD", 11), tf(11, 1, 0), go(2, "Panel", 12), tf(12, 2, 11), go(3, "Panel", 13)]
    objects += [tf(13, 3, 11), go(4, "Panel", 14), tf(14, 4, 11), go(5, "Text", 15), tf(15, 5, 13)]
    text = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n" + "".join(objects)
    rec = scan("Assets/UI.unity", "scene", text.encode())
    assert [(s.container, s.name) for s in rec.symbols if s.kind == "gameobject"] == [
        ("", "HUD"),
        ("HUD", "Panel"),
        ("HUD", "Panel #2"),
        ("HUD/Panel #2", "Text"),
        ("HUD", "Panel #3"),
    ]  # numbered in file order, listed in the tree's: a child after its parent
    assert [s.container for s in rec.symbols if s.kind == "component"][-1] == "HUD/Panel #2/Text"


# indexing.md, C#: roles "`test` (NUnit attributes on the class or its methods)", through a real
# index: a class with only a `[UnityTest]` method is a test, so is a `[TestFixture]` class.
def test_a_class_is_a_test_by_an_nunit_attribute_on_it_or_on_one_of_its_methods(tmp_path: Path) -> None:
    code = {
        "Assets/Tests/DoorTests.cs": "using UnityEngine.TestTools; public class DoorTests"
        " { [UnityTest] public System.Collections.IEnumerator Opens() { yield break; } void Helper() {} }",
        "Assets/Tests/KeyTests.cs": "[NUnit.Framework.TestFixtureAttribute] public class KeyTests : Door { }",
        "Assets/Door.cs": "public class Door : UnityEngine.MonoBehaviour { [System.Obsolete] void Test() {} }",
    }
    root = write_project(tmp_path / "P", code)
    update(root, CONFIG)
    assert records(root).categories() == {
        "Assets/Door.cs::Door": "monobehaviour",
        "Assets/Tests/DoorTests.cs::DoorTests": "test",
        "Assets/Tests/KeyTests.cs::KeyTests": "test",
    }


LATIN1 = "caf\xe9".encode("latin-1")
UNITY_YAML_HEAD = b"%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"


# indexing.md, "Bad input": "content that is not UTF-8 (Latin-1) | indexed, undecodable bytes
# replaced" for the text kinds; JSON kinds are skipped with the byte named (the row said all were
# indexed).
@pytest.mark.parametrize(
    ("path", "kind", "data", "status", "note", "name"),
    [
        ("Assets/A.cs", "csharp", b"public class A { string s = \"" + LATIN1 + b"\"; }", "ok", "", "A"),
        ("Assets/A.prefab", "prefab", UNITY_YAML_HEAD + b"--- !u!1 &1\nGameObject:\n  m_Name: " + LATIN1 + b"\n",
         "ok", "1 documents", "caf\ufffd"),
        ("Assets/A.shader", "shader", b'Shader "' + LATIN1 + b'" { }', "partial",
         "invalid UTF-8 at byte 11, decoded with replacement characters", "caf\ufffd"),
        ("ProjectSettings/TagManager.asset", "settings",
         UNITY_YAML_HEAD + b"--- !u!78 &1\nTagManager:\n  tags:\n  - " + LATIN1 + b"\n", "partial",
         "invalid UTF-8 at byte 81, decoded with replacement characters", "caf\ufffd"),
        ("Packages/manifest.json", "json", b'{"dependencies": {"com.a": "' + LATIN1 + b'"}}', "skipped",
         "invalid UTF-8 at byte 31", None),
        ("Assets/A.asmdef", "asmdef", b'{"name": "' + LATIN1 + b'"}', "skipped", "invalid UTF-8 at byte 13", None),
        ("Assets/A.shadergraph", "shadergraph", b'{"m_Path": "' + LATIN1 + b'"}', "skipped",
         "invalid UTF-8 at byte 15", None),
        ("Assets/A.inputactions", "input_actions", b'{"name": "' + LATIN1 + b'"}', "skipped",
         "invalid UTF-8 at byte 13", None),
    ],
)  # fmt: skip
def test_latin1_content_is_indexed_with_replacement_characters_and_json_is_skipped(
    path: str, kind: str, data: bytes, status: str, note: str, name: str | None
) -> None:
    from indexer.scanners import scan

    rec = scan(path, kind, data)
    assert (rec.status, rec.note) == (status, note)
    assert [s.name for s in rec.symbols][:1] == ([name] if name else [])
    if kind == "csharp":
        assert len(rec.symbols) == 2  # the class and its field, the literal decoded


# indexing.md, "Assemblies": "-firstpass under Plugins and Standard Assets" (Unity: those folders
# directly under Assets/ only; an Editor folder anywhere below adds -Editor).
def test_standard_assets_compile_first_and_a_plugins_folder_deeper_down_does_not(tmp_path: Path) -> None:
    from .test_graph import graph_for

    scripts = ("Standard Assets/S.cs", "Standard Assets/Cameras/Editor/SE.cs", "Pro Standard Assets/P.cs")
    scripts += ("Game/Plugins/G.cs", "Game/Plugins/Editor/GE.cs")
    root = write_project(tmp_path / "P", {f"Assets/{s}": "class X {}" for s in scripts})
    g = graph_for(root)
    assert [g.assembly_of(f"Assets/{s}")[0] for s in scripts] == [
        "Assembly-CSharp-firstpass",
        "Assembly-CSharp-Editor-firstpass",
        "Assembly-CSharp-firstpass",
        "Assembly-CSharp",
        "Assembly-CSharp-Editor",
    ]


# indexing.md, "Progress while writing": "An update that has no index to answer from (a first
# build, a rebuild) writes `progress.json` in the index folder at once, and any other update once
# it has run half a second"; "removed when the update ends" (a quick update never wrote it: each
# one-file update of watch wrote and removed it twice).
def test_progress_is_written_by_builds_at_once_and_by_other_updates_only_after_half_a_second(
    tmp_path: Path, monkeypatch
) -> None:
    from indexer.store import progress

    written: list[str] = []
    atomic_write = progress.atomic_write

    def spy(path: Path, text: str, **kw: object) -> None:
        written.append(json.loads(text)["phase"])
        atomic_write(path, text, **kw)

    monkeypatch.setattr(progress, "atomic_write", spy)
    root = write_project(tmp_path / "P", FILES)
    update(root, CONFIG)
    assert written[0] == "planning"  # a first build: at once
    written.clear()
    (root / "Assets/Scripts/Shield.cs").write_text("public class Shield { }")
    update(root, CONFIG)
    assert written == []  # quick: never written
    monkeypatch.setattr(progress, "EVERY", 0.0)  # as if each step came half a second after the last
    (root / "Assets/Scripts/Sword.cs").write_text("public class Sword { }")
    update(root, CONFIG)
    assert written == ["scanning", "linking", "committing"]
    assert not (paths_of(root).root / "progress.json").exists()


def _move_listing_asset(p: Path) -> None:
    """The data asset that lists Hero.prefab moves unchanged: its document keeps the listed name."""
    _move(p, "Assets/Data/Party.asset", "Assets/Teams/Party.asset")
    _move(p, "Assets/Data/Party.asset.meta", "Assets/Teams/Party.asset.meta")


def _delete_listed_meta(p: Path) -> None:
    """Hero.prefab's .meta alone is deleted: its GUID names no file, so Party.asset lists nothing."""
    (p / "Assets/Prefabs/Hero.prefab.meta").unlink()


def _swap_scripts(p: Path) -> None:
    """Two scripts trade contents: no deletion, no move, two changed files."""
    a, b = p / "Assets/Scripts/Health.cs", p / "Assets/Scripts/Armor.cs"
    text_a, text_b = a.read_bytes(), b.read_bytes()
    a.write_bytes(text_b)
    b.write_bytes(text_a)


def _move_and_refill(p: Path) -> None:
    """A script moves away and a new one takes its old path in the same update."""
    _move(p, "Assets/Scripts/PlayerHealth.cs", "Assets/Gameplay/PlayerHealth.cs")
    (p / "Assets/Scripts/PlayerHealth.cs").write_text("namespace Game.Player { public class Medic { } }")


def _swap_guids(p: Path) -> None:
    """Two .meta files trade GUIDs: every reference to either now means the other file."""
    a, b = p / "Assets/Scripts/Health.cs.meta", p / "Assets/Scripts/PlayerHealth.cs.meta"
    text_a, text_b = a.read_text(), b.read_text()
    a.write_text(text_b)
    b.write_text(text_a)


# indexing.md: "Incremental results equal a full rebuild after adds, edits, deletes, file and
# folder moves, class renames and `.meta` GUID changes", for changes tests/test_incremental.py
# does not make; by a walk and by given paths.
MORE_CHANGES = {
    "move_listing_asset": _move_listing_asset,
    "delete_listed_meta": _delete_listed_meta,
    "swap_scripts": _swap_scripts,
    "move_and_refill": _move_and_refill,
    "swap_guids": _swap_guids,
}


@pytest.mark.parametrize("name", list(MORE_CHANGES))
@pytest.mark.parametrize("how", ["walk", "paths"])
def test_more_incremental_changes_equal_a_rebuild(project: Path, name: str, how: str) -> None:  # noqa: F811
    update(project, CONFIG)
    before = _contents(project)
    MORE_CHANGES[name](project)
    after = _contents(project)
    changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
    stats = update(project, CONFIG, paths=changed if how == "paths" else None)
    assert not stats.full
    assert check_consistency(paths_of(project), project, CONFIG) == []
    incremental = snapshot(project)
    update(project, CONFIG, full=True)
    assert snapshot(project) == incremental


# indexing.md, "Which files": the kinds `--kind` takes include `texture`, `meta`, ...; the binary
# kinds, `meta` and `other` have no search document: no search returns them, by name either, and
# `describe` still knows them.
def test_files_of_kinds_without_a_search_document_are_described_but_never_searched(tmp_path: Path) -> None:
    from indexer.query.lookup import describe_target
    from indexer.query.workspace import open_workspace, projects_at
    from indexer.store.schema import UNSEARCHED_KINDS

    files = {"Assets/Art/dragon_hero.png": b"\x89PNG", "Assets/Art/dragon_hero.png.meta": meta("e" * 32)}
    files |= {"Assets/Sfx/dragon_roar.wav": b"RIFF", "Assets/Notes/dragon.xyz": b"dragon", "Assets/Dragon.cs": ""}
    root = write_project(tmp_path / "P", files)
    update(root, CONFIG)
    assert {"meta", "texture", "model", "audio", "font", "plugin", "other", "folder"} == UNSEARCHED_KINDS
    assert search_paths(root, "dragon hero roar") == ["Assets/Dragon.cs"]
    assert search_paths(root, "hero roar xyz") == []
    ws = open_workspace(root, projects_at(root))
    described = [describe_target(ws, p)[1].kind for p in files if p != "Assets/Dragon.cs"]
    assert described == ["texture", "meta", "audio", "other"]


# indexing.md, "Record store layout" and architecture.md, "The index on disk": "Every table names a
# file by its integer id (`files.id`), never by repeating its path" (but `delta_docs`, keyed by the
# path tantivy knows a document by); `refs` is a `WITHOUT ROWID` table with "no index beside it".
def test_only_files_and_delta_docs_hold_paths_and_refs_has_no_index(tmp_path: Path) -> None:
    import sqlite3

    root = write_project(tmp_path / "P", FILES)
    update(root, CONFIG)
    (root / "Assets/Scripts/Shield.cs").write_text("public class Shield { }")
    update(root, CONFIG)  # a delta document
    db = sqlite3.connect(paths_of(root).records)
    tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    assert sorted(tables) == sorted(
        ["header", "files", "blobs", "guids", "types", "refs", "edges", "delta_docs", "outlines", "zdicts"]
    )
    with_paths = [t for t in tables if "path" in [c[1] for c in db.execute(f"PRAGMA table_info({t})")]]
    assert sorted(with_paths) == ["delta_docs", "files"]
    assert [p for (p,) in db.execute("SELECT path FROM delta_docs")] == ["Assets/Scripts/Shield.cs"]
    indexed = {t for (t,) in db.execute("SELECT tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}
    assert "refs" not in indexed
    assert "WITHOUT ROWID" in db.execute("SELECT sql FROM sqlite_master WHERE name = 'refs'").fetchone()[0]
    db.close()


# indexing.md, "Bad input": `Assets/` itself a link (a ParrelSync clone) is not supported: the files
# below it are listed by name, none is read through the link, each is skipped saying why.
def test_a_content_folder_that_is_a_link_is_listed_but_never_read_through(tmp_path: Path) -> None:
    shared = write_project(tmp_path / "Original", {"Assets/Sub/Hero.cs": "public class Hero {}\n"})
    clone = tmp_path / "Clone"
    (clone / "ProjectSettings").mkdir(parents=True)
    (clone / "Assets").symlink_to(shared / "Assets", target_is_directory=True)
    update(clone, CONFIG)
    # since session 40 the link is recorded once, in place of its files, saying what to do
    assert records(clone).record("Assets/Sub/Hero.cs") is None
    rec = records(clone).record("Assets")
    assert rec is not None and (rec.status, rec.symbols) == ("skipped", ())
    assert rec.note == (
        f"symbolic link (to {shared / 'Assets'}): the project's Assets folder is a link, not followed, so none of its"
        " files is indexed; give --project the folder holding the real files, or replace the link with the folder"
    )
