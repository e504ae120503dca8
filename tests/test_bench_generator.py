"""The benchmark's synthetic projects: exact counts, byte-identical for a seed, valid for the
fixture checker, and every reference the scanners extract resolves in the project's own graph."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections import Counter
from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths
from tests.bench.generator import EXTERNAL_TYPES, Summary, generate
from tests.bench.resolution import unresolved

from .fixture_tools.check_fixture import check

SCRIPTS = 120


def tree_digest(root: Path) -> dict[str, str]:
    out = {}
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != "Library"]
        for n in names:
            p = Path(folder, n)
            out[p.relative_to(root).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Summary]:
    root = tmp_path_factory.mktemp("gen") / "P"
    summary = generate(root, SCRIPTS, seed=7)
    update(root, Config(workers=1))
    return root, summary


def on_disk(root: Path) -> Counter[str]:
    exts = Counter()
    for _folder, dirs, names in os.walk(root / "Assets"):
        for n in names:
            exts[n.rsplit(".", 1)[-1]] += 1
        exts["folder"] += len(dirs)
    return exts


def test_counts_match_the_files_written(project: tuple[Path, Summary]) -> None:
    root, s = project
    c = s.counts
    exts = on_disk(root)
    assert c["scripts"] == SCRIPTS == exts["cs"] == len(s.script_paths)
    assert exts["prefab"] == c["prefabs"] + c["variants"] == len(s.prefab_paths)
    assert exts["unity"] == c["scenes"]
    assert exts["asset"] == c["assets"]
    assert exts["mat"] == c["materials"]
    assert exts["shader"] == c["shaders"]
    assert exts["asmdef"] == c["asmdefs"]
    assert exts["folder"] == c["folders"]
    assert exts["meta"] == sum(v for k, v in exts.items() if k != "meta")  # every file and folder
    assert c["modules"] == 2 and c["scenes"] == 2
    assert c["nested_instances"] > 0 and c["variants"] > 0 and c["unity_event_calls"] > 0


def test_same_seed_same_bytes_other_seed_other_project(tmp_path: Path, project: tuple[Path, Summary]) -> None:
    root, _ = project
    again = generate(tmp_path / "again", SCRIPTS, seed=7)
    assert tree_digest(tmp_path / "again") == {k: v for k, v in tree_digest(root).items()}
    assert again.counts == project[1].counts
    generate(tmp_path / "other", SCRIPTS, seed=8)
    assert tree_digest(tmp_path / "other") != tree_digest(root)


def test_fixture_checker_finds_nothing(project: tuple[Path, Summary]) -> None:
    """GUIDs 32 hex, unique, every GUID and local fileID resolves, hierarchy consistent, every
    document loads as YAML, every script parses without tree-sitter errors."""
    root, _ = project
    assert check(root) == []


def test_indexed_records_match_the_counts(project: tuple[Path, Summary]) -> None:
    root, s = project
    r = Records(IndexPaths(Config().index_path(root)))
    kinds = r.count_by("kind")
    assert r.count_by("status") == {"ok": sum(kinds.values())}
    assert kinds["csharp"] == SCRIPTS
    assert kinds["prefab"] == s.counts["prefabs"] + s.counts["variants"]
    assert kinds["scene"] == s.counts["scenes"]
    assert kinds["asset"] == s.counts["assets"]
    assert kinds["material"] == s.counts["materials"]
    assert kinds["shader"] == s.counts["shaders"]
    r.close()


def test_every_reference_resolves(project: tuple[Path, Summary]) -> None:
    root, s = project
    checked, problems = unresolved(root, EXTERNAL_TYPES)
    assert problems == []
    c = s.counts
    assert checked["method"] == c["unity_event_calls"]  # every UnityEvent call names a real method
    assert checked["prefab"] == c["nested_instances"] + c["variants"] + c["scene_instances"]
    assert checked["script"] >= c["prefabs"] + c["assets"]
    asmdef_refs = [r for p in root.rglob("*.asmdef") for r in json.loads(p.read_text())["references"]]
    assert checked["assembly"] == len(asmdef_refs) >= c["asmdefs"] - 1  # every asmdef but Core's uses one
    assert all(r.startswith("GUID:") for r in asmdef_refs)
    assert checked["type"] > SCRIPTS and checked["guid"] > c["materials"]


def test_the_resolution_check_catches_dangling_references(tmp_path: Path, project: tuple[Path, Summary]) -> None:
    """Negative control: a UnityEvent naming a missing method and a script GUID without a .meta."""
    root, s = project
    broken = tmp_path / "broken"
    shutil.copytree(root, broken, ignore=shutil.ignore_patterns("Library"))
    prefab = next(p for p in s.prefab_paths if "m_MethodName: " in (broken / p).read_text())
    text = (broken / prefab).read_text()
    at = text.index("m_MethodName: ") + len("m_MethodName: ")
    text = text[:at] + "NoSuchMethod" + text[text.index("\n", at) :]
    guid = text.split("m_Script: {fileID: 11500000, guid: ", 1)[1][:32]
    (broken / prefab).write_text(text.replace(guid, "ab" * 16, 1))
    update(broken, Config(workers=1))
    _, problems = unresolved(broken, EXTERNAL_TYPES)
    assert any("NoSuchMethod" in p and "no such method" in p for p in problems)
    assert any("ab" * 16 in p and "script GUID names no class" in p for p in problems)
