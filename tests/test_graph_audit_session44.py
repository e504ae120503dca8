"""The asset graph audited against real projects (session 44): what the audit found, each on a
small project written here (docs/indexing.md, "Asset graph audited against real projects")."""

from pathlib import Path

from indexer.query.carriers import carried, carriers

from .conftest import meta, write_project
from .test_graph import graph_for
from .test_unity_event_targets import _behaviour, _header, _object, _on_click

MENU = "a1" * 16
BUTTON = "b2" * 16  # a package script (not in the project): the button calling the menu
PANEL = "c3" * 16
SCENE = "d4" * 16


def _panel_project(tmp_path: Path) -> Path:
    """Panel.prefab: a button (written first, as Unity orders objects by fileID) whose click calls
    `Menu.Open` on the Menu component of the same prefab; Main.unity places the panel."""
    panel = (
        _header()
        + _object(100, "Panel", [110, 120])
        + _behaviour(110, 100, BUTTON, _on_click(120, "Menu, Assembly-CSharp", "Open"))
        + _behaviour(120, 100, MENU)
    )
    scene = (
        _header()
        + "--- !u!1001 &700\nPrefabInstance:\n  m_ObjectHideFlags: 0\n  serializedVersion: 2\n"
        + "  m_Modification:\n    serializedVersion: 3\n    m_TransformParent: {fileID: 0}\n"
        + "    m_Modifications: []\n    m_RemovedComponents: []\n"
        + f"  m_SourcePrefab: {{fileID: 100100000, guid: {PANEL}, type: 3}}\n"
    )
    return write_project(
        tmp_path / "P",
        {
            "Assets/UI/Menu.cs": "public class Menu : UnityEngine.MonoBehaviour { public void Open() {} }",
            "Assets/UI/Menu.cs.meta": meta(MENU),
            "Assets/UI/Panel.prefab": panel,
            "Assets/UI/Panel.prefab.meta": meta(PANEL, "PrefabImporter"),
            "Assets/Scenes/Main.unity": scene,
            "Assets/Scenes/Main.unity.meta": meta(SCENE, "DefaultImporter"),
        },
    )


def test_a_script_component_whose_method_an_earlier_event_calls_is_a_script_edge(tmp_path: Path) -> None:
    """The edge a file has to a script was the kind of the first reference read: a button's call
    to the script's method, written before the script's component, made the prefab's edge to
    `Menu.cs` `unity_event`, so nothing carried Menu through the prefab (the walk, the scripts a
    scene runs): 15 prefabs of BossRoom, BoatAttack and PaddleGameSO."""
    g = graph_for(_panel_project(tmp_path))
    assert ("Assets/UI/Menu.cs", "script") in g.uses("Assets/UI/Panel.prefab")
    assert ("Assets/UI/Panel.prefab", "carries_script") in g.used_by("Assets/UI/Menu.cs")
    assert ("Assets/Scenes/Main.unity", ("Assets/UI/Panel.prefab",)) in carriers(g, "Assets/UI/Menu.cs")
    assert "Assets/UI/Menu.cs" in {p for p, _ in carried(g, "Assets/Scenes/Main.unity")}


def test_a_prefab_a_field_names_before_the_scene_places_it_is_an_instance_edge(tmp_path: Path) -> None:
    """A spawner's field naming the panel prefab, written before the scene's instance of it, made
    the scene's edge `asset`: the scene did not carry the panel's script."""
    root = _panel_project(tmp_path)
    spawner = _object(10, "Spawner", [20]) + _behaviour(
        20, 10, BUTTON, f"  prefab: {{fileID: 100, guid: {PANEL}, type: 3}}\n"
    )
    scene = root / "Assets/Scenes/Main.unity"
    text = scene.read_text(encoding="utf-8")
    scene.write_text(_header() + spawner + text[len(_header()) :], encoding="utf-8")
    g = graph_for(root)
    assert ("Assets/UI/Panel.prefab", "prefab") in g.uses("Assets/Scenes/Main.unity")
    assert ("Assets/Scenes/Main.unity", ("Assets/UI/Panel.prefab",)) in carriers(g, "Assets/UI/Menu.cs")
