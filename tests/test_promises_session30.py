"""Promises session 30's docstrings and docs make that its feature tests did not pin down."""

from __future__ import annotations

from pathlib import Path

from indexer.identifiers import TASK_WORD_WEIGHT, weighted_terms
from indexer.query.describe import describe
from indexer.scanners import scan

from .conftest import meta, write_project
from .test_graph import _instance_of, _values_project, graph_for


def test_a_kind_word_counts_less_said_on_its_own_and_scene_is_no_kind_word() -> None:
    """identifiers.KIND_TERMS: "scene" is as often `SceneLoader`; a quoted name holding a kind
    word (`AssetLoader`) keeps its part's weight."""
    weights = dict(weighted_terms("which asset does the scene load"))
    assert (weights["asset"], weights["scene"]) == (TASK_WORD_WEIGHT, 1.0)
    assert dict(weighted_terms("the AssetLoader fails"))["asset"] != TASK_WORD_WEIGHT


def test_a_type_nested_in_a_class_the_file_declares_part_of_is_seen(tmp_path: Path) -> None:
    """graph.resolve_type_ref: `Note` in a file declaring another part of `Chart` is `Chart.Note`."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Chart.cs": "public partial class Chart {\n  public class Note { }\n}\n",
            "Assets/ChartLoad.cs": "public partial class Chart {\n  Note first;\n}\n",
            "Assets/Other.cs": "public class Other {\n  Note n;\n}\n",
        },
    )
    g = graph_for(root)
    found = [(u.path, u.line) for u in g.references(g.target("Chart.Note")) if u.where == "code"]
    assert found == [("Assets/ChartLoad.cs", 2)]


def test_a_var_declared_otherwise_too_is_not_taken_for_the_new_class(tmp_path: Path) -> None:
    """member_text: `var x = new Other()` makes `x.Member` Other's only where the file declares `x`
    that way alone; a `foreach (var x in ...)` elsewhere may hold the type."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/State.cs": "public class State { public int Combo; }\n",
            "Assets/Trigger.cs": "public class Trigger { public int Combo; }\n",
            "Assets/Board.cs": (
                "public class Board {\n"
                "  State[] states;\n"
                "  void A() { var x = new Trigger(); x.Combo = 1; }\n"
                "  void B() { foreach (var x in states) x.Combo = 2; }\n"
                "}\n"
            ),
        },
    )
    g = graph_for(root)
    found = [(u.path, u.line) for u in g.references(g.target("State.Combo")) if u.kind == "text"]
    assert found == [("Assets/Board.cs", 3), ("Assets/Board.cs", 4)]


def test_a_literal_path_outside_a_call_is_listed_on_every_line(tmp_path: Path) -> None:
    """loads._lines_holding: a key that is a path is a load wherever the file writes it (a const
    handed to a loader later); the index keeps one line of it."""
    source = (
        "using UnityEngine;\nclass Menu : MonoBehaviour {\n"
        '  const string Button = "UI/Button";\n'
        '  string other = "UI/Button";\n'
        "  void A() { Resources.Load<GameObject>(Button); }\n"
        "}\n"
    )
    scene = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &1\nGameObject:\n  m_Name: Root\n"
    root = write_project(tmp_path / "P", {"Assets/Menu.cs": source, "Assets/Resources/UI/Button.prefab": scene})
    g = graph_for(root)
    button = g.references(g.target("Assets/Resources/UI/Button.prefab"))
    assert [(u.path, u.line) for u in button if u.kind == "loads"] == [
        ("Assets/Menu.cs", 3),
        ("Assets/Menu.cs", 4),
        ("Assets/Menu.cs", 5),  # through the constant holding it, since session 36
    ]


def test_a_script_with_a_partial_class_says_no_value_is_unused(tmp_path: Path) -> None:
    """component_fields: a partial class may declare fields in another file, so no value of its
    components is said unused."""
    guid = "3" * 32
    script = "public partial class Scanner : UnityEngine.MonoBehaviour {\n  public float speed;\n}\n"
    prefab = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        "--- !u!1 &100\nGameObject:\n  m_Component:\n  - component: {fileID: 200}\n  m_Name: Scanner\n"
        "--- !u!114 &200\nMonoBehaviour:\n  m_GameObject: {fileID: 100}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {guid}, type: 3}}\n  speed: 1\n  range: 4\n"
    )
    files = {"Assets/Scanner.cs": script, "Assets/Scanner.cs.meta": meta(guid), "Assets/Scanner.prefab": prefab}
    g = graph_for(write_project(tmp_path / "P", files))
    assert "    Scanner: speed: 1; range: 4" in describe(g, "Assets/Scanner.prefab").text.splitlines()


def test_a_player_input_broadcasting_messages_calls_them_too(tmp_path: Path) -> None:
    """messages._SENDS: Broadcast Messages (1) calls `On<Action>` as Send Messages (0) does."""
    from indexer.query.messages import PLAYER_INPUT

    from .test_inputactions import CONTROLS

    hero = "using UnityEngine;\npublic class Hero : MonoBehaviour {\n  void OnAttack() { }\n}\n"
    prefab = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        "--- !u!1 &100\nGameObject:\n  m_Component:\n  - component: {fileID: 200}\n  m_Name: Hero\n"
        "--- !u!114 &200\nMonoBehaviour:\n  m_GameObject: {fileID: 100}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {PLAYER_INPUT}, type: 3}}\n"
        "  m_Actions: {fileID: -944628639613478452, guid: 55555555555555555555555555555555, type: 3}\n"
        "  m_NotificationBehavior: 1\n"
    )
    files = {
        "Assets/Controls.inputactions": CONTROLS,
        "Assets/Controls.inputactions.meta": meta("5" * 32, "ScriptedImporter"),
        "Assets/Hero.cs": hero,
        "Assets/Hero.prefab": prefab,
    }
    g = graph_for(write_project(tmp_path / "P", files))
    details = [u.detail for u in g.references(g.target("Hero.OnAttack")) if u.context == "PlayerInput"]
    assert details == ["Hero > PlayerInput (Broadcast Messages) calls OnAttack for action Gameplay/Attack"]


def test_a_run_of_a_looks_prefab_names_four_properties_and_counts_the_rest(tmp_path: Path) -> None:
    """placed.placed_overrides: `placed; m_Size, …, … 2 more set` (docs/cli.md)."""
    mods = [("m_Size.x", "1"), ("m_Offset.y", "0"), ("m_UVBias.x", "0"), ("m_UVScale.x", "1"), ("m_Fade", "1")]
    mods.append(("m_DrawDistance", "5"))
    rocks = "".join(_instance_of(a, [("m_Name", f"Rock ({a})"), *mods]).replace("1" * 32, "3" * 32) for a in (11, 12))
    g = graph_for(_values_project(tmp_path / "P", {"Assets/Level.unity": rocks}))
    line = next(x for x in describe(g, "Assets/Level.unity").text.splitlines() if x.startswith("Rock"))
    assert "(3 instances of Assets/Rock.prefab, placed; m_Size, m_Offset, m_UVBias, m_UVScale, … 3 more set)" in line


def test_the_packs_related_lines_say_an_interface_is_implemented(tmp_path: Path) -> None:
    """walk.edge_said in related.related_files: a pack's line for a file one reference away says
    `implements` / `interface of`, not `subclass of` / `base class of`."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.related import related_files
    from indexer.query.workspace import open_workspace

    files = {
        "Assets/IDamageable.cs": "public interface IDamageable {\n  void TakeDamage(int amount);\n}\n",
        "Assets/Health.cs": "public class Health : IDamageable {\n  public void TakeDamage(int amount) { }\n}\n",
    }
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    assert related_files(ws, ["Assets/Health.cs"], {"Assets/Health.cs"}, []) == [
        ("Assets/IDamageable.cs", "interface of Health.cs")
    ]
    assert related_files(ws, ["Assets/IDamageable.cs"], {"Assets/IDamageable.cs"}, []) == [
        ("Assets/Health.cs", "implements IDamageable.cs")
    ]


def test_the_older_ui_dll_guid_and_an_old_prefab_parent_reference_are_read() -> None:
    """dll_scripts.UI_DLL_GUIDS holds Unity 4.6's DLL GUID too; yaml_facts.source_object reads an
    old scene's `m_PrefabParentObject` where `m_CorrespondingSourceObject` is missing."""
    scene = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        "--- !u!1001 &900\nPrefab:\n  m_Modification:\n    m_Modifications: []\n"
        "  m_ParentPrefab: {fileID: 100100000, guid: 77777777777777777777777777777777, type: 2}\n"
        "--- !u!4 &901 stripped\nTransform:\n"
        "  m_PrefabParentObject: {fileID: 301, guid: 77777777777777777777777777777777, type: 2}\n"
        "  m_PrefabInternal: {fileID: 900}\n"
        "--- !u!1 &10\nGameObject:\n  m_Component:\n  - component: {fileID: 11}\n  m_Name: Rig\n"
        "--- !u!114 &11\nMonoBehaviour:\n  m_GameObject: {fileID: 10}\n  m_Enabled: 1\n"
        "  m_Script: {fileID: 1392445389, guid: f70555f144d8491a825f0804e09c671c, type: 3}\n"
        "  target: {fileID: 901}\n"
    )
    rec = scan("Assets/Old.unity", "scene", scene.encode())
    assert [r.target for r in rec.refs if r.kind == "script"] == ["4e29b1a8efbd4b44bb3f3716e73f07ff"]  # Button
    target = next(s for s in rec.symbols if s.kind == "field" and s.name == "target")
    assert target.signature.endswith(f"/source:{'7' * 32}:301 (Transform)")
