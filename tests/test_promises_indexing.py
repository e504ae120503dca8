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
from .test_incremental import LOADER
from .test_indexing import CONFIG, FILES, comparable, paths_of, records

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
