"""A prefab instance or variant that removes a component of its prefab (`m_RemovedComponents`)
does not carry that component's script: Unity leaves it out of the instance, so the file placing
the instance, and whatever places that file in turn, does not use the script through it."""

from pathlib import Path

from indexer.query.carriers import carried, carriers

from .conftest import meta, write_project
from .test_graph import graph_for

BEACON = "a" * 32  # Beacon.cs
BASE = "b" * 32  # Tower.prefab: a Beacon on its root
OUTER = "c" * 32  # Outpost.prefab: a Tower whose Beacon is removed

TOWER = f"""%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &100
GameObject:
  m_ObjectHideFlags: 0
  serializedVersion: 6
  m_Component:
  - component: {{fileID: 101}}
  - component: {{fileID: 102}}
  m_Layer: 0
  m_Name: Tower
  m_IsActive: 1
--- !u!4 &101
Transform:
  m_GameObject: {{fileID: 100}}
  m_Children: []
  m_Father: {{fileID: 0}}
--- !u!114 &102
MonoBehaviour:
  m_ObjectHideFlags: 0
  m_GameObject: {{fileID: 100}}
  m_Enabled: 1
  m_Script: {{fileID: 11500000, guid: {BEACON}, type: 3}}
  range: 12
"""


def _instance(file_id: int, name: str, parent: int, removed: bool) -> str:
    gone = f"\n    - {{fileID: 102, guid: {BASE}, type: 3}}" if removed else " []"
    return (
        f"--- !u!1001 &{file_id}\nPrefabInstance:\n  m_ObjectHideFlags: 0\n  serializedVersion: 2\n"
        f"  m_Modification:\n    serializedVersion: 3\n    m_TransformParent: {{fileID: {parent}}}\n"
        f"    m_Modifications:\n    - target: {{fileID: 100, guid: {BASE}, type: 3}}\n"
        f"      propertyPath: m_Name\n      value: {name}\n      objectReference: {{fileID: 0}}\n"
        f"    m_RemovedComponents:{gone}\n    m_RemovedGameObjects: []\n"
        f"  m_SourcePrefab: {{fileID: 100100000, guid: {BASE}, type: 3}}\n"
    )


def _project(tmp_path: Path) -> Path:
    head = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
    outpost = (
        head
        + "--- !u!1 &300\nGameObject:\n  m_Component:\n  - component: {fileID: 301}\n  m_Name: Outpost\n"
        + "--- !u!4 &301\nTransform:\n  m_GameObject: {fileID: 300}\n  m_Children: []\n  m_Father: {fileID: 0}\n"
        + _instance(400, "Ruin", 301, removed=True)
    )
    outer_scene = (
        head
        + "--- !u!1001 &500\nPrefabInstance:\n  m_Modification:\n    m_TransformParent: {fileID: 0}\n"
        + "    m_Modifications: []\n    m_RemovedComponents: []\n"
        + f"  m_SourcePrefab: {{fileID: 100100000, guid: {OUTER}, type: 3}}\n"
    )
    return write_project(
        tmp_path / "P",
        {
            "Assets/Beacon.cs": "public class Beacon : UnityEngine.MonoBehaviour { public float range; }",
            "Assets/Beacon.cs.meta": meta(BEACON),
            "Assets/Tower.prefab": TOWER,
            "Assets/Tower.prefab.meta": meta(BASE, "PrefabImporter"),
            "Assets/Outpost.prefab": outpost,
            "Assets/Outpost.prefab.meta": meta(OUTER, "PrefabImporter"),
            # one scene keeps the Beacon of its Tower, one removes it, one places only the Outpost
            "Assets/Kept.unity": head + _instance(200, "Tower", 0, removed=False),
            "Assets/Kept.unity.meta": meta("d" * 32, "DefaultImporter"),
            "Assets/Ruins.unity": head + _instance(200, "Ruin", 0, removed=True),
            "Assets/Ruins.unity.meta": meta("e" * 32, "DefaultImporter"),
            "Assets/Frontier.unity": outer_scene,
            "Assets/Frontier.unity.meta": meta("f" * 32, "DefaultImporter"),
        },
    )


def test_refs_of_a_script_skip_the_instances_that_removed_it(tmp_path: Path) -> None:
    g = graph_for(_project(tmp_path))
    users = sorted({u.path for u in g.references(g.target("Beacon")) if u.where == "asset"})
    assert users == ["Assets/Kept.unity", "Assets/Tower.prefab"]


def test_carriers_and_carried_skip_them_too(tmp_path: Path) -> None:
    g = graph_for(_project(tmp_path))
    assert [p for p, _ in carriers(g, "Assets/Beacon.cs")] == ["Assets/Kept.unity"]
    assert "Assets/Beacon.cs" not in {p for p, _ in carried(g, "Assets/Outpost.prefab")}
    assert "Assets/Beacon.cs" in {p for p, _ in carried(g, "Assets/Kept.unity")}


def test_the_prefab_itself_stays_used_by_the_instances_that_removed_a_component(tmp_path: Path) -> None:
    g = graph_for(_project(tmp_path))
    users = sorted({u.path for u in g.references(g.target("Assets/Tower.prefab")) if u.where == "asset"})
    assert users == ["Assets/Frontier.unity", "Assets/Kept.unity", "Assets/Outpost.prefab", "Assets/Ruins.unity"]
