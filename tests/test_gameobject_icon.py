"""A GameObject's editor icon (`m_Icon`, set in the Inspector's icon menu) is a texture of the
project named by GUID: the object uses it as any field naming an asset does."""

from pathlib import Path

from indexer.model import Ref
from indexer.query.file_edges import file_uses
from indexer.scanners import scan

from .conftest import meta, write_project
from .test_graph import graph_for

ICON = "9" * 32
BUILTIN = "0000000000000000d000000000000000"  # the editor's own icons (a built-in resource)

PREFAB = f"""%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &100
GameObject:
  m_ObjectHideFlags: 0
  serializedVersion: 6
  m_Component:
  - component: {{fileID: 101}}
  m_Layer: 0
  m_Name: Spawner
  m_TagString: Untagged
  m_Icon: {{fileID: 2800000, guid: {ICON}, type: 3}}
  m_NavMeshLayer: 0
  m_StaticEditorFlags: 0
  m_IsActive: 1
--- !u!4 &101
Transform:
  m_GameObject: {{fileID: 100}}
  m_Children:
  - {{fileID: 201}}
  m_Father: {{fileID: 0}}
--- !u!1 &200
GameObject:
  m_ObjectHideFlags: 0
  serializedVersion: 6
  m_Component:
  - component: {{fileID: 201}}
  m_Layer: 0
  m_Name: Marker
  m_TagString: Untagged
  m_Icon: {{fileID: 5132851093641282708, guid: {BUILTIN}, type: 0}}
  m_NavMeshLayer: 0
  m_StaticEditorFlags: 0
  m_IsActive: 1
--- !u!4 &201
Transform:
  m_GameObject: {{fileID: 200}}
  m_Children: []
  m_Father: {{fileID: 101}}
"""


def test_a_game_objects_icon_is_a_reference_to_its_texture() -> None:
    rec = scan("Assets/Spawner.prefab", "prefab", PREFAB.encode())
    assert [r for r in rec.refs if r.kind == "guid"] == [Ref("guid", ICON, 12, "m_Icon", "Spawner > GameObject")]


def test_refs_of_the_texture_and_describe_of_the_prefab_say_so(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Spawner.prefab": PREFAB,
            "Assets/Spawner.prefab.meta": meta("8" * 32, "PrefabImporter"),
            "Assets/Gizmos/Spawn.png": b"\x89PNG\r\n\x1a\n",
            "Assets/Gizmos/Spawn.png.meta": meta(ICON, "TextureImporter"),
        },
    )
    g = graph_for(root)
    assert [(u.path, u.line, u.context) for u in g.references(g.target("Assets/Gizmos/Spawn.png"))] == [
        ("Assets/Spawner.prefab", 12, "m_Icon")
    ]
    assert ("Assets/Gizmos/Spawn.png", "asset") in file_uses(g, g.records.record("Assets/Spawner.prefab"))
