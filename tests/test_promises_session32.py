"""Promises session 32's docstrings and docs make that its trial tests did not pin, each seen
failing with its rule changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.model import Overview
from indexer.query import tags
from indexer.query.locate import references_of
from indexer.query.render import fitted_overview
from indexer.query.tokens import counter
from indexer.query.workspace import open_workspace, projects_at

from .conftest import write_project
from .test_unity_event_targets import _behaviour, _header, _object

TAGS = (
    "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!78 &1\nTagManager:\n  serializedVersion: 2\n  tags:\n"
    "  - Enemy\n  layers:\n" + "".join(f"  - L{i}\n" for i in range(8))
)


def _workspace(root: Path):
    update(root, Config(workers=1))
    return open_workspace(root, projects_at(root))


def test_build_scenes_not_in_the_project_are_counted_past_two() -> None:
    """render: named when few, counted past two (a list of eleven deleted levels filled tier 1)."""
    missing = [f"Assets/Scenes/Level{i}.unity" for i in range(3)]
    overview = Overview("G", "", "6000.0", [], [], ["Assets/Scenes/Boot.unity"], [], {}, missing)
    line = fitted_overview(overview, counter("estimate"), 200).split("\n")[1]
    assert line == "Scenes in build: Assets/Scenes/Boot.unity, listed but not in the project: 3 scenes"


def test_a_layer_mask_of_every_layer_or_of_many_says_so_shortly(tmp_path: Path) -> None:
    """layers.masks_named: all bits are `Everything`; past NAMES_SHOWN layers the rest are counted."""
    player = (
        _header()
        + _object(100, "Player", [102])
        + _behaviour(
            102,
            100,
            "a" * 32,
            "  all: {serializedVersion: 2, m_Bits: 4294967295}\n  many: {serializedVersion: 2, m_Bits: 63}\n",
        )
    )
    ws = _workspace(
        write_project(tmp_path / "P", {"ProjectSettings/TagManager.asset": TAGS, "Assets/P.prefab": player})
    )
    graph = ws.projects[0].fresh().graph
    assert graph.readable("all: {serializedVersion: 2, m_Bits: 4294967295}") == "all: 4294967295 (Everything)"
    assert graph.readable("many: {serializedVersion: 2, m_Bits: 63}") == "many: 63 (L0 | L1 | L2 | L3 | … 2 more)"


def test_a_tag_built_into_unity_is_a_refs_target_without_a_declaration(tmp_path: Path) -> None:
    """tags.BUILTIN_TAGS: `Player` needs no line in the tag manager."""
    player = _header() + _object(1, "Hero", []).replace("  m_Layer: 5\n", "  m_Layer: 5\n  m_TagString: Player\n")
    root = write_project(
        tmp_path / "P",
        {
            "ProjectSettings/TagManager.asset": TAGS,
            "Assets/Hero.prefab": player,
            "Assets/Trap.cs": 'class Trap { void Hit(UnityEngine.Collider c) { if (c.CompareTag("Player")) { } } }\n',
        },
    )
    target, usages = references_of(_workspace(root), "Player")
    assert target.kind == "tag"
    assert [(u.path, u.kind) for u in usages] == [("Assets/Hero.prefab", "tagged"), ("Assets/Trap.cs", "tag")]


def test_refs_of_a_tag_says_when_it_read_the_objects_of_only_some_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tags.tag_usages: the objects are read from builtin_refs.MAX_FILES scenes and prefabs, said so."""
    tagged = _object(1, "E", []).replace("  m_Layer: 5\n", "  m_Layer: 5\n  m_TagString: Enemy\n")
    files = {f"Assets/E{i}.prefab": _header() + tagged for i in range(3)}
    ws = _workspace(write_project(tmp_path / "P", {"ProjectSettings/TagManager.asset": TAGS, **files}))
    monkeypatch.setattr(tags, "MAX_FILES", 2)
    target, usages = references_of(ws, "Enemy")
    assert [u.path for u in usages if u.kind == "tagged"] == ["Assets/E0.prefab", "Assets/E1.prefab"]
    assert target.note.endswith("; objects read from the first 2 of 3 scenes and prefabs")


def test_a_name_handed_to_a_call_naming_no_asset_loads_nothing(tmp_path: Path) -> None:
    """loads.Loadable.resolve: context "name" resolves to no asset (`GameObject.Find("LapCheckPoints")`
    beside `Resources/LapCheckPoints.prefab`, in a file using Resources)."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Resources/LapCheckPoints.prefab": _header() + _object(1, "LapCheckPoints", []),
            "Assets/Laps.cs": (
                'using UnityEngine;\nclass Laps {\n  void A() { GameObject.Find("LapCheckPoints"); }\n'
                '  void B() { Resources.Load("Icons/Lap"); }\n}\n'
            ),
        },
    )
    ws = _workspace(root)
    assert references_of(ws, "Assets/Resources/LapCheckPoints.prefab")[1] == []
    assert ws.projects[0].fresh().graph.uses("Assets/Laps.cs") == ()
