"""Session 40: what `describe` and packs show of a scene's prefab instances first."""

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.lookup import describe_target
from indexer.query.workspace import open_workspace

from .conftest import meta, write_project

TURRET, SCRIPT = "7e7" + "0" * 29, "5c7" + "0" * 29
PREFAB = f"""%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &100
GameObject:
  m_Component:
  - component: {{fileID: 101}}
  - component: {{fileID: 102}}
  - component: {{fileID: 103}}
  - component: {{fileID: 104}}
  m_Name: Turret
--- !u!4 &101
Transform:
  m_GameObject: {{fileID: 100}}
  m_Father: {{fileID: 0}}
--- !u!114 &102
MonoBehaviour:
  m_GameObject: {{fileID: 100}}
  m_Enabled: 1
  m_Script: {{fileID: 11500000, guid: {SCRIPT}, type: 3}}
  range: 8
  muzzle: {{fileID: 0}}
--- !u!23 &103
MeshRenderer:
  m_GameObject: {{fileID: 100}}
  m_CastShadows: 1
  m_Materials:
  - {{fileID: 0}}
--- !u!114 &104
MonoBehaviour:
  m_GameObject: {{fileID: 100}}
  m_Script: {{fileID: 11500000, guid: fe1d8deb2e1e4b6d99d45d1a3b1e2f01, type: 3}}
  m_Color: {{r: 1, g: 1, b: 1, a: 1}}
"""
CODE = (
    "using UnityEngine;\npublic class Turret : MonoBehaviour\n{\n    public float range;\n"
    "    public GameObject muzzle;\n}\n"
)


def _mod(file_id: int, prop: str, value: str) -> str:
    return (
        f"    - target: {{fileID: {file_id}, guid: {TURRET}, type: 3}}\n      propertyPath: {prop}\n"
        f"      value: {value}\n      objectReference: {{fileID: 0}}\n"
    )


def test_an_instance_s_script_fields_come_before_its_engine_properties(tmp_path: Path) -> None:
    """A trial's ship scene listed a door instance's eight overrides shown as a VFX renderer's
    material slots and property sheet, its script's `MaxDistance` among the `… 30 more`: what a
    designer set on a script comes first, then the object's name, then engine properties, then
    references emptied, the placement last, whatever order the file keeps them in."""
    scene = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1001 &900\nPrefabInstance:\n  m_Modification:\n"
        "    m_TransformParent: {fileID: 0}\n    m_Modifications:\n"
        + _mod(101, "m_LocalPosition.x", "5")
        + _mod(104, "m_Color.r", "0.5")  # a package's component (a UI Image): an engine property
        + _mod(103, "m_Materials.Array.data[0]", "")
        + _mod(103, "m_CastShadows", "0")
        + _mod(100, "m_Name", "Turret East")
        + _mod(102, "muzzle", "")
        + _mod(102, "range", "12")
        + f"  m_SourcePrefab: {{fileID: 100100000, guid: {TURRET}, type: 3}}\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Turret.prefab": PREFAB,
            "Assets/Turret.prefab.meta": meta(TURRET),
            "Assets/Turret.cs": CODE,
            "Assets/Turret.cs.meta": meta(SCRIPT),
            "Assets/Level.unity": scene,
        },
    )
    update(root, Config(workers=1))
    text = describe_target(open_workspace(root, [(root, Config())]), "Assets/Level.unity")[1].text
    overrides = next(line for line in text.split("\n") if "overrides: " in line)
    assert overrides.split("overrides: ")[1] == (
        "range: 12; m_Name: Turret East; m_Color.r: 0.5; m_CastShadows: 0; m_Materials.Array.data[0]: (empty);"
        " muzzle: (empty);"
        " m_LocalPosition.x: 5"
    )
