"""What session 47's code-pairing rules cost a query that first names a class, bounded (docs/
performance.md, session 48): a plain class's builders are found once a generation, by a pattern
searched for as a string; a component's adders are found from the refs table's generic references
to it, with one pattern for every class, no user's text read; a scene hit's instance renamed as the editor
shows it reads only the source of the instance its name is in."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.model import Hit
from indexer.query import added_components, pairing
from indexer.query.pointing import _editor_named
from indexer.query.workspace import open_workspace

from .conftest import meta, write_project
from .test_query_costs_session47 import _scripts_using
from .test_trials2_session47 import _blocks
from .test_trials_session31 import ITEM, PLAYER, _behaviour, _header, _instance, _object
from .test_trials_session47 import _frost


def test_a_plain_classs_builders_are_found_once_a_generation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The frost class's builders (its users' texts searched) are kept for the index's
    generation: a second query ranking the class reads no text for them, and the builder still
    ranks; after an update they are found afresh."""
    root = _frost(tmp_path)
    update(root, Config(workers=1))
    calls: list[str] = []
    find = pairing._builders
    monkeypatch.setattr(pairing, "_builders", lambda project, script: calls.append(script) or find(project, script))
    ws = open_workspace(root, [(root, Config())])
    text = "Make the frost bullets' area of effect bigger"
    assert "Assets/Scripts/GunModifier.cs" in [h.path for h in ws.search(text, 6, named=False)]
    assert "Assets/Scripts/GunModifier.cs" in [h.path for h in ws.search(text + " please", 6, named=False)]
    assert calls.count("Assets/Scripts/Frost.cs") == 1
    (root / "Assets/Scripts/Frost.cs").write_text((root / "Assets/Scripts/Frost.cs").read_text() + "\n// colder\n")
    update(root, Config(workers=1))
    ws.search(text, 6, named=False)
    assert calls.count("Assets/Scripts/Frost.cs") == 2


@pytest.mark.parametrize(
    ("text", "builds"),
    [
        ("x = new Frost(1, 5);", True),
        ("x = new  Frost (0.75f, curve);", True),
        ("x = new Frost(\n    1, 5);", True),
        ("new Frost(2)", True),  # at the text's start
        ("x = new Frost(curve, other);", False),  # no number among its first arguments
        ("x = renew Frost(1);", False),  # `new` inside a longer word
        ("x = _new Frost(1);", False),
        ("x = new FrostBite(1);", False),
    ],
)
def test_a_builder_is_new_and_the_class_with_a_number_after_it(text: str, builds: bool) -> None:
    built = re.compile(r"new\s+Frost\s*\(")
    assert pairing._builds_with_number(text, built, "Frost") is builds


def test_a_components_adders_are_read_from_the_refs_table_and_only_an_adder_decoded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Of the scripts using the game-ending component, none has its text read (the generic
    references to the class come from the refs table) and only the one adding it has its record
    decoded; it is still the adder found."""
    root = _scripts_using(_blocks(tmp_path), 5, "DeathEndsGame")
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    project = ws.projects[0]
    decoded: list[str] = []
    record = project.graph.records.record
    monkeypatch.setattr(project.graph.records, "record", lambda path: decoded.append(path) or record(path))
    read: list[str] = []
    text = project.texts.get
    monkeypatch.setattr(project.texts, "get", lambda path: read.append(path) or text(path))
    assert added_components.adders(project, "Assets/Scripts/DeathEndsGame.cs") == ["Assets/Scripts/BlockManager.cs"]
    assert decoded == ["Assets/Scripts/BlockManager.cs"]
    assert read == []


@pytest.mark.parametrize(
    ("line", "names"),
    [
        ("gameObject.AddComponent<DeathEndsGame>();", ["DeathEndsGame"]),
        ("go.AddComponent < Game.Rules.DeathEndsGame >();", ["DeathEndsGame"]),
        ("a.AddComponent<Timer>(); b.AddComponent<DeathEndsGame>();", ["Timer", "DeathEndsGame"]),
        ("GetComponent<DeathEndsGame>();", []),
        ("MyAddComponent<DeathEndsGame>();", []),
    ],
)
def test_one_pattern_names_every_class_a_line_adds(line: str, names: list[str]) -> None:
    assert [m.group(1) for m in added_components._ADDING.finditer(line)] == names


def test_a_hit_is_named_as_the_editor_names_its_instance_reading_only_that_instances_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scene hit inside an instance the scanner named by a child's rename (`Tile Check`) is named
    as the editor shows it (`Hero`, the root's rename), reading that instance's source alone: the
    scene's other renamed instance, of another prefab, has its source unread; a hit inside no
    renamed instance reads none."""
    enemy = "e" * 32
    prefab = _header() + _object(100, "Player", [102]) + _behaviour(102, 100, ITEM, "  speed: 1\n")
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Mover.cs": "public class Mover : UnityEngine.MonoBehaviour\n{\n    public float speed;\n}\n",
            "Assets/Mover.cs.meta": meta(ITEM),
            "Assets/Player.prefab": prefab,
            "Assets/Player.prefab.meta": meta(PLAYER, "PrefabImporter"),
            "Assets/Enemy.prefab": prefab.replace("Player", "Enemy"),
            "Assets/Enemy.prefab.meta": meta(enemy, "PrefabImporter"),
            "Assets/Level.unity": _header()
            + _instance(900, PLAYER, [(555, "m_Name", "Tile Check"), (100, "m_Name", "Hero")])
            + _instance(901, enemy, [(556, "m_Name", "Claw"), (100, "m_Name", "Boss")]),
        },
    )
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    read: list[str] = []
    source = project.graph.targets.source
    monkeypatch.setattr(project.graph.targets, "source", lambda guid: read.append(guid) or source(guid))
    hit = Hit(path="Assets/Level.unity", line=3, kind="scene", name="Tile Check", snippet="", score=1.0)
    assert _editor_named(project, hit).name == "Hero"
    assert read == [PLAYER]
    assert _editor_named(project, msgspec.structs.replace(hit, name="Lights")).name == "Lights"
    assert read == [PLAYER]
