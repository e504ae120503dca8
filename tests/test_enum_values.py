"""Serialized enum fields shown by their members' names (indexer/query/enum_values.py)."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.describe import describe
from indexer.query.enum_values import Enum, EnumFields, member_values
from indexer.query.workspace import open_workspace

from .conftest import meta, write_project

MOVER = "22222222222222222222222222222222"
PREFAB = "11111111111111111111111111111111"


def test_members_are_numbered_as_csharp_numbers_them() -> None:
    assert member_values(["None", "Fast = 4", "Slow", "Hidden = 1 << 3", "Both = Fast | Hidden", "Alias = 4"]) == {
        0: "None",
        4: "Fast",
        5: "Slow",
        8: "Hidden",
        12: "Both",
    }
    assert member_values(["A = -1", "B", "C = 0x10", "D = 2u", "E = ~0"]) == {-1: "A", 0: "B", 16: "C", 2: "D"}
    # a value it cannot work out stops the numbering: later members are unnamed, not misnamed
    assert member_values(["A", "B = (int)KeyCode.Space", "C"]) == {0: "A"}
    assert member_values(["A = 1 << 99999"]) == {}


def test_a_flags_value_is_its_bits_and_a_plain_enum_s_unknown_value_is_unnamed() -> None:
    flags = Enum({0: "Nothing", 1: "Ground", 2: "Air", 4: "Water"}, flags=True)
    assert [flags.label(v) for v in (0, 5, 7, 8, -1)] == ["Nothing", "Ground | Water", "Ground | Air | Water", "", ""]
    assert Enum({0: "A", 1: "B"}, flags=False).label(3) == ""


def test_describe_and_refs_name_an_enum_field_s_number(tmp_path: Path) -> None:
    """A trial: fifteen prefabs said `mod: 4`, the enum's fifth member, which reordering the enum
    would silently change; the field of a base class and a property's backing field too."""
    source = (
        "using UnityEngine;\n"
        "namespace Game {\n"
        "  public enum Mode { Walk, Fast = 4, Slow }\n"
        "  [System.Flags] public enum Layers { Ground = 1, Air = 2, Water = 4 }\n"
        "  public class Body : MonoBehaviour { public Layers layers; }\n"
        "  public class Mover : Body {\n"
        "    public Mode mode;\n"
        "    [field: SerializeField] public Mode Next { get; set; }\n"
        "    public int count;\n"
        "  }\n"
        "}\n"
    )
    prefab = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        "--- !u!1 &100\nGameObject:\n  m_Component:\n  - component: {fileID: 200}\n  m_Name: Runner\n"
        "--- !u!114 &200\nMonoBehaviour:\n  m_GameObject: {fileID: 100}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {MOVER}, type: 3}}\n"
        "  layers: 5\n  mode: 4\n  <Next>k__BackingField: 5\n  count: 4\n"
    )
    scene = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1001 &7\nPrefabInstance:\n  m_Modification:\n"
        "    m_Modifications:\n"
        f"    - target: {{fileID: 200, guid: {PREFAB}, type: 3}}\n"
        "      propertyPath: mode\n      value: 0\n      objectReference: {fileID: 0}\n"
        f"  m_SourcePrefab: {{fileID: 100100000, guid: {PREFAB}, type: 3}}\n"
    )
    files = {
        "Assets/Mover.cs": source,
        "Assets/Mover.cs.meta": meta(MOVER),
        "Assets/Runner.prefab": prefab,
        "Assets/Runner.prefab.meta": meta(PREFAB, "PrefabImporter"),
        "Assets/Level.unity": scene,
    }
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    text = describe(graph, "Assets/Runner.prefab").text
    assert "    Mover: layers: 5 (Ground | Water); mode: 4 (Fast); <Next>k__BackingField: 5 (Slow); count: 4" in text
    mode = [u.detail for u in graph.references(graph.target("Game.Mover.mode")) if u.kind == "value"]
    assert mode == ["Runner sets mode: 0 (Walk) (via Assets/Runner.prefab)", "Runner > Mover.mode: 4 (Fast)"]
    assert text.splitlines()[-1] == "  Assets/Level.unity:3  Runner (sets mode: 0 (Walk))"


def test_a_script_s_field_types_are_each_resolved_once(tmp_path: Path, monkeypatch) -> None:
    """The enum fields, enum lists and structs holding enums of a script, each type its fields are
    written with resolved once (an enum's, a list's element's and a struct's lookups share it)."""
    types = "public enum Mode { Walk, Run }\n[System.Serializable] public struct Gait { public Mode mode; }\n"
    source = (
        "using System.Collections.Generic;\nusing UnityEngine;\n"
        "public class Mover : MonoBehaviour {\n"
        "  public Mode first; public Mode second; public List<Mode> modes; public Mode[] more;\n"
        "  public Gait gait; public Gait other; public float speed; public float height;\n"
        "}\n"
    )
    files = {"Assets/Mover.cs": source, "Assets/Mover.cs.meta": meta(MOVER), "Assets/Types.cs": types}
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    real, asked = type(graph).resolve_type_ref, []

    def noting(self, written, rec):
        asked.append((written, getattr(rec, "path", None)))
        return real(self, written, rec)

    monkeypatch.setattr(type(graph), "resolve_type_ref", noting)
    enums = EnumFields(graph).of(MOVER)
    assert sorted(enums.fields) == ["first", "second"] and sorted(enums.elements) == ["modes", "more"]
    members = EnumFields(graph).members_of(enums)
    assert list(members) == ["gait", "other"] and list(members["gait"]) == ["mode"]
    own = [w for w, path in asked if path == "Assets/Mover.cs"]
    assert sorted(own) == sorted(set(own)) and {"Mode", "List<Mode>", "Gait", "float"} <= set(own)
