"""`describe` of a prefab whose root is an unnamed instance of a model: what it adds shows."""

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.model import Declared, Symbol
from indexer.query.lookup import describe_target
from indexer.query.search import short_name
from indexer.query.workspace import open_workspace

from .conftest import meta, write_project

MODEL, SCRIPT = "30de1" + "0" * 27, "5c41" + "0" * 28
# A variant of a model whose name it never overrides: Unity writes the instance without a name,
# the objects it adds under it (a stripped GameObject and a child) name it by its fileID.
DIGGER = f"""%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &10
GameObject:
  m_Component:
  - component: {{fileID: 11}}
  m_Name: Anchor
--- !u!4 &11
Transform:
  m_GameObject: {{fileID: 10}}
  m_Father: {{fileID: 21}}
--- !u!1 &20 stripped
GameObject:
  m_CorrespondingSourceObject: {{fileID: 100130, guid: {MODEL}, type: 3}}
  m_PrefabInstance: {{fileID: 900}}
--- !u!4 &21 stripped
Transform:
  m_CorrespondingSourceObject: {{fileID: 400130, guid: {MODEL}, type: 3}}
  m_PrefabInstance: {{fileID: 900}}
--- !u!114 &30
MonoBehaviour:
  m_GameObject: {{fileID: 20}}
  m_Enabled: 1
  m_Script: {{fileID: 11500000, guid: {SCRIPT}, type: 3}}
  m_Name: ""
  pointIndex: 2
--- !u!1001 &900
PrefabInstance:
  m_Modification:
    m_TransformParent: {{fileID: 0}}
    m_Modifications:
    - target: {{fileID: 400130, guid: {MODEL}, type: 3}}
      propertyPath: m_LocalPosition.x
      value: -72.15
      objectReference: {{fileID: 0}}
  m_SourcePrefab: {{fileID: 100100000, guid: {MODEL}, type: 3}}
"""


def _digger_project(tmp_path: Path) -> Path:
    """A project holding the model, the script and the prefab of DIGGER, indexed."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Models/Digger.fbx": "",
            "Assets/Models/Digger.fbx.meta": meta(MODEL, "ModelImporter"),
            "Assets/Scripts/PointRef.cs": "class PointRef : UnityEngine.MonoBehaviour { public int pointIndex; }",
            "Assets/Scripts/PointRef.cs.meta": meta(SCRIPT),
            "Assets/Prefabs/Digger.prefab": DIGGER,
            "Assets/Prefabs/Digger.prefab.meta": meta("d1" * 16, "PrefabImporter"),
        },
    )
    update(root, Config(workers=1))
    return root


def test_an_unnamed_model_instance_shows_its_overrides_added_objects_and_components(tmp_path: Path) -> None:
    """They used to be left out: the instance was keyed by its line, what it holds by its fileID."""
    root = _digger_project(tmp_path)
    _, desc = describe_target(open_workspace(root, [(root, Config())]), "Assets/Prefabs/Digger.prefab")
    lines = desc.text.split("\n")
    assert lines[2].startswith("Digger  (prefab instance of Assets/Models/Digger.fbx)"), desc.text
    assert lines[3:7] == [
        "  overrides: m_LocalPosition.x: -72.15",
        "  added components: PointRef",
        "    PointRef: pointIndex: 2",
        "  Anchor  L3",
    ], desc.text


def test_a_query_hit_names_an_unnamed_instance_as_describe_does(tmp_path: Path) -> None:
    """A hit on what the instance holds was named by its fileID (`&900.Anchor`, audit 24): it is
    named by its model, as `describe` names the instance, in the name and in the JSON alike."""
    root = _digger_project(tmp_path)
    hits = open_workspace(root, [(root, Config())]).search("digger anchor", limit=5, kind="prefab")
    assert [(h.path, h.name, h.line) for h in hits] == [("Assets/Prefabs/Digger.prefab", "Digger/Anchor", 3)]


def test_refs_names_an_unnamed_instance_as_describe_does(tmp_path: Path) -> None:
    """`refs PointRef` listed the component on the model's instance as `&900`: now `Digger`."""
    from indexer.query.lookup import find_references

    root = _digger_project(tmp_path)
    _, usages = find_references(open_workspace(root, [(root, Config())]), "PointRef")
    assert [(u.path, u.line, u.context, u.detail) for u in usages if u.where == "asset"] == [
        ("Assets/Prefabs/Digger.prefab", 24, "m_Script", "Digger")
    ]


def test_a_hit_on_a_gameobject_is_named_by_its_path_as_unity_writes_it(ws) -> None:
    """A scene's object is `HUD/HealthBar` in a hit, as in `describe`, `refs` and `Transform.Find`
    (it was `HUD.HealthBar`); a name holding a dot (`Mesh.001`, Blender's copies) stays whole."""
    hit = ws.search("health bar", limit=5, kind="scene")[0]
    assert (hit.path, hit.name) == ("Assets/Scenes/Dungeon.unity", "HUD/HealthBar")
    obj = Symbol("gameobject", "Mesh.001", 3, container="Body/Armature")
    assert obj.qualified == "Body/Armature/Mesh.001"
    assert short_name(Declared(3, obj.kind, obj.qualified, "")) == "Mesh.001"
    assert Symbol("method", "Heal", 9, container="Game.Health").qualified == "Game.Health.Heal"


def test_a_material_on_a_render_pipelines_shader_names_it(tmp_path: Path) -> None:
    """URP's Lit lives in its package, not the project: a material on it showed `shader
    guid:933532a4...` (a trial: "what shader does the dino use" had no answer); it is named, in the
    material's line and its references; an unknown package shader keeps its GUID."""
    mat = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!21 &2100000\nMaterial:\n  m_Name: {name}\n"
        "  m_Shader: {{fileID: 4800000, guid: {guid}, type: 3}}\n  m_SavedProperties:\n    m_Floats:\n"
        "    - _Smoothness: 0.5\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Dino.mat": mat.format(name="Dino", guid="933532a4fcc9baf4fa0491de14d08ed7"),
            "Assets/Odd.mat": mat.format(name="Odd", guid="1" * 32),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    lit = "Universal Render Pipeline/Lit (shader of com.unity.render-pipelines.universal, not in project)"
    text = describe_target(ws, "Assets/Dino.mat")[1].text
    assert f"Material Dino: shader {lit}" in text and f"  {lit} (m_Shader)" in text
    assert f"Material Odd: shader guid:{'1' * 32}" in describe_target(ws, "Assets/Odd.mat")[1].text


PLAYER_GUID = "9a7e" + "0" * 28
PLAYER = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &100
GameObject:
  m_Component:
  - component: {fileID: 101}
  m_Layer: 10
  m_Name: Player
--- !u!4 &101
Transform:
  m_GameObject: {fileID: 100}
  m_Children:
  - {fileID: 201}
  m_Father: {fileID: 0}
--- !u!1 &200
GameObject:
  m_Component:
  - component: {fileID: 201}
  - component: {fileID: 202}
  m_Layer: 10
  m_Name: Main Camera
--- !u!4 &201
Transform:
  m_GameObject: {fileID: 200}
  m_Father: {fileID: 101}
--- !u!20 &202
Camera:
  m_GameObject: {fileID: 200}
  m_Enabled: 1
"""


def _mod(file_id: int, prop: str, value: str) -> str:
    return (
        f"    - target: {{fileID: {file_id}, guid: {PLAYER_GUID}, type: 3}}\n      propertyPath: {prop}\n"
        f"      value: {value}\n      objectReference: {{fileID: 0}}\n"
    )


def test_an_instance_s_override_says_which_object_of_its_prefab_it_changes(tmp_path: Path) -> None:
    """A trial's scene showed `Player (prefab instance) overrides: m_Layer: 9; m_Enabled: 0` as if
    the player's own, where one was its camera's (the player stayed on layer 10) and one an object
    the prefab no longer has: an override of an object below the prefab's root names that object,
    one of no object of a prefab that nests none says it is unused."""
    scene = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1001 &900\nPrefabInstance:\n  m_Modification:\n"
        "    m_TransformParent: {fileID: 0}\n    m_Modifications:\n"
        + _mod(100, "m_Name", "Hero")
        + _mod(200, "m_Layer", "9")
        + _mod(202, "m_Enabled", "0")
        + _mod(999, "m_IsActive", "0")  # an object the prefab no longer has: Unity keeps the override, unused
        + f"  m_SourcePrefab: {{fileID: 100100000, guid: {PLAYER_GUID}, type: 3}}\n"
    )
    root = write_project(
        tmp_path / "P",
        {"Assets/Player.prefab": PLAYER, "Assets/Player.prefab.meta": meta(PLAYER_GUID), "Assets/Level.unity": scene},
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    text = describe_target(ws, "Assets/Level.unity")[1].text
    overrides = next(line for line in text.split("\n") if "overrides: " in line)
    # since session 32 `m_Enabled` says which component too: an object may hold several
    assert overrides.split("overrides: ")[1] == (
        "m_Name: Hero; m_Layer: 9 (on Player/Main Camera); m_Enabled: 0 (on Player/Main Camera (Camera)); m_IsActive: 0"
        " (unused: no such object in the prefab)"
    )
    from indexer.query.lookup import find_references

    _, usages = find_references(ws, "Assets/Player.prefab")  # refs: what each instance sets
    assert [u.detail for u in usages if u.path == "Assets/Level.unity"] == [
        "Hero (sets m_Layer: 9 (on Player/Main Camera), m_Enabled: 0 (on Player/Main Camera (Camera)), m_IsActive: 0"
        " (unused: no such object in the prefab))"
    ]


def test_an_override_of_an_object_a_nesting_prefab_may_hold_is_not_called_unused(tmp_path: Path) -> None:
    """docs/cli.md: "unused" only when the prefab nests no other prefab: one that does holds objects
    of the nested prefab no document of its own names, so an unknown fileID may be one of those."""
    from indexer.model import Symbol
    from indexer.query.override_targets import OverrideTargets

    nested = (
        PLAYER + f"--- !u!1001 &300\nPrefabInstance:\n  m_SourcePrefab: {{fileID: 100100000, guid: {MODEL}, type: 3}}\n"
    )
    root = write_project(tmp_path / "P", {"Assets/Player.prefab": PLAYER, "Assets/Nest.prefab": nested})
    update(root, Config(workers=1))
    targets = OverrideTargets(open_workspace(root, [(root, Config())]).projects[0].graph)
    stale = Symbol("override", "m_IsActive", 9, signature="m_IsActive: 0", detail="999")
    assert targets.said("Assets/Player.prefab", stale) == "m_IsActive: 0 (unused: no such object in the prefab)"
    assert targets.said("Assets/Nest.prefab", stale) == "m_IsActive: 0"
    camera = Symbol("override", "m_Layer", 9, signature="m_Layer: 9", detail="200")
    assert targets.said("Assets/Nest.prefab", camera) == "m_Layer: 9 (on Player/Main Camera)"
