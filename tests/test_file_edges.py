"""The edges a rebuild resolves with every type read at once are those read name by name."""

from __future__ import annotations

from pathlib import Path

from indexer.query.file_edges import file_uses
from indexer.query.graph import Graph

from .conftest import meta, write_project
from .test_graph import graph_for


def _project(tmp_path: Path) -> Path:
    return write_project(
        tmp_path / "P",
        {
            "Assets/A/Enemy.cs": "namespace A { public class Enemy {} public class Shared {} }",
            "Assets/B/Enemy.cs": "namespace B { public class Enemy : A.Enemy {} }",
            "Assets/B/Shared.cs": "namespace B { public class Shared {} }",
            "Assets/Game/Spawner.cs": (
                "using UnityEngine;\nusing B;\nnamespace Game {\n public class Spawner : MonoBehaviour {\n"
                "  Enemy e; Shared s; A.Shared t; Missing m; System.Text.StringBuilder b;\n"
                '  void Start() { Resources.Load("Enemies/Boss"); }\n }\n}\n'
            ),
            "Assets/Resources/Enemies/Boss.prefab": "%YAML 1.1\n--- !u!1 &1\nGameObject:\n  m_Name: Boss\n",
            "Assets/Resources/Enemies/Boss.prefab.meta": meta("cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd", "PrefabImporter"),
        },
    )


def test_edges_with_every_type_read_at_once_are_those_read_name_by_name(tmp_path: Path) -> None:
    """`Graph.read_every_type` (a rebuild's one query) gives each name the types its own query
    gives, in the same order, and a name no type has none (`Missing`, `StringBuilder`)."""
    g = graph_for(_project(tmp_path))
    records = [rec for rec in g.records.records() if rec.refs]
    by_name = {rec.path: file_uses(g, rec) for rec in records}
    every = Graph(g.records, g.root)
    every.read_every_type()
    assert {rec.path: file_uses(every, rec) for rec in records} == by_name
    assert by_name["Assets/Game/Spawner.cs"] == [
        ("Assets/A/Enemy.cs", "type"),
        ("Assets/B/Enemy.cs", "type"),
        ("Assets/B/Shared.cs", "type"),
        ("Assets/Resources/Enemies/Boss.prefab", "loads"),
    ]
    assert [t.path for t in every.types_named("Enemy")] == ["Assets/A/Enemy.cs", "Assets/B/Enemy.cs"]
    assert every.types_named("Missing") == []
