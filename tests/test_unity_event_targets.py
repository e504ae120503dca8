"""Which class a UnityEvent call is on. Unity binds a persistent call to the type of its target
object (`m_Target`); `m_TargetAssemblyTypeName` is read only when the target is gone, and stays as
last saved: a class renamed or moved to another namespace leaves the old name in every asset until
each is saved again. So the target's script names the class whenever the file holds the target."""

from pathlib import Path

from indexer.build.update import update
from indexer.query.file_edges import file_uses
from indexer.scanners.yaml_facts import written_type

from .conftest import meta, write_project
from .test_graph import graph_for
from .test_indexing import CONFIG, comparable

PANEL = "1" * 32
SINGLETON = "2" * 32
AUDIO = "3" * 32
BUTTON = "4" * 32  # a package script (not in the project): the call's source component
BASE = "5" * 32
GENERIC_TYPE = (  # as Unity writes it: wrapped at the comma
    "Game.Audio.Singleton`1[[Game.Audio.AudioManager,\n          Assembly-CSharp, Version=0.0.0.0,"
    " Culture=neutral, PublicKeyToken=null]], Assembly-CSharp"
)


def _header() -> str:
    return "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"


def _object(go: int, name: str, behaviours: list[int]) -> str:
    comps = "".join(f"  - component: {{fileID: {c}}}\n" for c in [go + 1, *behaviours])
    return (
        f"--- !u!1 &{go}\nGameObject:\n  m_ObjectHideFlags: 0\n  serializedVersion: 6\n  m_Component:\n"
        f"{comps}  m_Layer: 5\n  m_Name: {name}\n  m_IsActive: 1\n"
        f"--- !u!4 &{go + 1}\nTransform:\n  m_GameObject: {{fileID: {go}}}\n  m_Children: []\n"
        "  m_Father: {fileID: 0}\n"
    )


def _behaviour(file_id: int, go: int, script: str, rest: str = "") -> str:
    return (
        f"--- !u!114 &{file_id}\nMonoBehaviour:\n  m_ObjectHideFlags: 0\n  m_GameObject: {{fileID: {go}}}\n"
        f"  m_Enabled: 1\n  m_Script: {{fileID: 11500000, guid: {script}, type: 3}}\n  m_Name: \n"
        f"  m_EditorClassIdentifier: \n{rest}"
    )


def _on_click(target: int, type_name: str, method: str) -> str:
    return (
        "  m_OnClick:\n    m_PersistentCalls:\n      m_Calls:\n"
        f"      - m_Target: {{fileID: {target}}}\n"
        f"        m_TargetAssemblyTypeName: {type_name}\n"
        f"        m_MethodName: {method}\n        m_Mode: 1\n        m_Arguments:\n"
        "          m_ObjectArgument: {fileID: 0}\n"
        "          m_ObjectArgumentAssemblyTypeName: UnityEngine.Object, UnityEngine\n"
        "          m_IntArgument: 0\n          m_FloatArgument: 0\n          m_StringArgument: \n"
        "          m_BoolArgument: 0\n        m_CallState: 2\n"
    )


def _project(tmp_path: Path) -> Path:
    # Menu.prefab: a Close button whose call was saved when PanelView was Game.UI.Old.PanelController;
    # a Mute button calling a method AudioManager inherits from the generic Singleton<T>, which
    # Unity names `Singleton`1[[Game.Audio.AudioManager, ...]]` (a long value, wrapped).
    menu = (
        _header()
        + _object(100, "Menu", [110])
        + _behaviour(110, 100, PANEL)
        + _object(200, "Close", [210])
        + _behaviour(210, 200, BUTTON, _on_click(110, "Game.UI.Old.PanelController, Assembly-CSharp", "Hide"))
        + _object(300, "Audio", [310])
        + _behaviour(310, 300, AUDIO)
        + _object(400, "Mute", [410])
        + _behaviour(
            410,
            400,
            BUTTON,
            _on_click(
                310,
                GENERIC_TYPE,
                "Mute",
            ),
        )
    )
    # Hud.prefab: an instance of Base.prefab whose button's call is set by overrides: the target an
    # object of this file (its PanelView), no type name (as Unity writes many override sets).
    prop = "m_OnClick.m_PersistentCalls.m_Calls.Array.data[0]"
    mods = f"    - target: {{fileID: 900, guid: {BASE}, type: 3}}\n      propertyPath: m_Name\n      value: Base\n"
    mods += "      objectReference: {fileID: 0}\n" + "".join(
        f"    - target: {{fileID: 910, guid: {BASE}, type: 3}}\n      propertyPath: {prop}.{key}\n"
        f"      value: {value}\n      objectReference: {ref}\n"
        for key, value, ref in (
            ("m_Target", "", "{fileID: 510}"),
            ("m_MethodName", "Hide", "{fileID: 0}"),
            ("m_Mode", "1", "{fileID: 0}"),
        )
    )
    hud = (
        _header()
        + _object(500, "Hud", [510])
        + _behaviour(510, 500, PANEL)
        + "--- !u!1001 &600\nPrefabInstance:\n  m_ObjectHideFlags: 0\n  serializedVersion: 2\n"
        + "  m_Modification:\n    serializedVersion: 3\n    m_TransformParent: {fileID: 501}\n"
        + f"    m_Modifications:\n{mods}    m_RemovedComponents: []\n"
        + f"  m_SourcePrefab: {{fileID: 100100000, guid: {BASE}, type: 3}}\n"
    )
    base = _header() + _object(900, "Base", [910]) + _behaviour(910, 900, BUTTON)
    return write_project(
        tmp_path / "P",
        {
            "Assets/UI/PanelView.cs": "namespace Game.UI { public class PanelView : UnityEngine.MonoBehaviour"
            " { public void Hide() {} } }",
            "Assets/UI/PanelView.cs.meta": meta(PANEL),
            "Assets/Audio/Singleton.cs": "namespace Game.Audio { public class Singleton<T> : UnityEngine.MonoBehaviour"
            " { public void Mute() {} } }",
            "Assets/Audio/Singleton.cs.meta": meta(SINGLETON),
            "Assets/Audio/AudioManager.cs": "namespace Game.Audio { public class AudioManager : Singleton<AudioManager>"
            " {} }",
            "Assets/Audio/AudioManager.cs.meta": meta(AUDIO),
            "Assets/UI/Menu.prefab": menu,
            "Assets/UI/Menu.prefab.meta": meta("6" * 32, "PrefabImporter"),
            "Assets/UI/Base.prefab": base,
            "Assets/UI/Base.prefab.meta": meta(BASE, "PrefabImporter"),
            "Assets/UI/Hud.prefab": hud,
            "Assets/UI/Hud.prefab.meta": meta("7" * 32, "PrefabImporter"),
        },
    )


def _asset_usages(g, name: str) -> list[tuple[str, int, str]]:
    return [(u.path, u.line, u.resolved) for u in g.references(g.target(name)) if u.where == "asset"]


def test_a_call_is_on_its_target_objects_class_whatever_type_name_was_saved(tmp_path: Path) -> None:
    g = graph_for(_project(tmp_path))
    hide = _asset_usages(g, "PanelView.Hide")
    assert ("Assets/UI/Menu.prefab", 52, "Game.UI.PanelView.Hide") in hide
    assert ("Assets/UI/Menu.prefab", 52) in {(p, line) for p, line, _ in _asset_usages(g, "Assets/UI/PanelView.cs")}
    assert "Assets/UI/PanelView.cs" in {p for p, _ in file_uses(g, g.records.record("Assets/UI/Menu.prefab"))}


def test_a_call_on_a_method_of_a_generic_base_is_a_usage_of_it(tmp_path: Path) -> None:
    g = graph_for(_project(tmp_path))
    assert [(p, line) for p, line, _ in _asset_usages(g, "Singleton.Mute")] == [("Assets/UI/Menu.prefab", 113)]
    assert [(p, line) for p, line, _ in _asset_usages(g, "AudioManager.Mute")] == [("Assets/UI/Menu.prefab", 113)]


def test_a_call_set_by_overrides_is_on_the_object_its_target_override_names(tmp_path: Path) -> None:
    g = graph_for(_project(tmp_path))
    hud = [(p, r) for p, _, r in _asset_usages(g, "PanelView.Hide") if p == "Assets/UI/Hud.prefab"]
    assert hud == [("Assets/UI/Hud.prefab", "Game.UI.PanelView.Hide")]


def test_a_part_added_to_the_called_class_is_an_edge_of_the_caller_as_after_a_rebuild(tmp_path: Path) -> None:
    """The files a call's class is declared in are its edges (the method may be in any part of a
    partial class); a part added later re-resolves the callers named by script GUID too."""
    root = _project(tmp_path)
    view = root / "Assets/UI/PanelView.cs"
    view.write_text(view.read_text().replace("public class PanelView", "public partial class PanelView"))
    update(root, CONFIG)
    (root / "Assets/UI/PanelView.Fade.cs").write_text(
        "namespace Game.UI { partial class PanelView { void Fade() {} } }"
    )
    update(root, CONFIG)
    incremental = comparable(root)
    uses = {(s, d) for s, d, kind in incremental["edges"] if kind == "unity_event"}
    assert ("Assets/UI/Menu.prefab", "Assets/UI/PanelView.Fade.cs") in uses
    update(root, CONFIG, full=True)
    assert comparable(root) == incremental


def test_a_type_name_saved_with_a_call_reads_as_csharp_writes_it() -> None:
    """`m_TargetAssemblyTypeName` is read (when the file does not hold the target's script) as
    the C# name: a nested class's `+` is a `.`, a generic class is named without its arguments."""
    assert written_type("Game.UI.Menu+Tab, Assembly-CSharp") == "Game.UI.Menu.Tab"
    assert written_type("Game.Audio.Singleton`1[[Game.Audio.AudioManager, Assembly-CSharp]], Assembly-CSharp") == (
        "Game.Audio.Singleton"
    )
    assert written_type("Game.Audio.Singleton`1[[Game.Audio.AudioManager") == "Game.Audio.Singleton"
    assert written_type("Door") == "Door"


def test_a_call_on_no_object_or_on_a_class_the_project_lacks_says_so(tmp_path: Path) -> None:
    """A trial: `describe` listed a store button's call `-> GameManagerSO.LoadStore` like a working
    one, though no class of that name is left (Unity calls nothing), and a Start button's call on
    no object (`m_Target: {fileID: 0}`, a static method Unity still calls by the class) like one on
    an object of the file."""
    from indexer.query.describe import describe

    root = _project(tmp_path)
    shop = (
        _header()
        + _object(100, "Start", [110])
        + _behaviour(110, 100, BUTTON, _on_click(0, "Game.UI.PanelView, Assembly-CSharp", "Hide"))
        + _object(200, "Store", [210])
        + _behaviour(210, 200, BUTTON, _on_click(11400000, "GameManagerSO, Assembly-CSharp", "LoadStore"))
    )
    (root / "Assets/UI/Shop.prefab").write_text(shop)
    g = graph_for(root)
    text = describe(g, "Assets/UI/Shop.prefab").text
    calls = text.split("UnityEvent calls:\n")[1].splitlines()[:2]
    button = "script 44444444… (not in project)"
    assert calls == [
        f"  L29 Start > {button}.m_OnClick(void) on None -> Game.UI.PanelView.Hide",
        f"  L67 Store > {button}.m_OnClick(void) -> GameManagerSO.LoadStore (no class GameManagerSO in the project)",
    ]
