"""What a user's trial on a real game found (session 39), each a test seen failing before its fix:
UnityEvent calls saved with no type name on an object of another file (an event asset, a prefab's
component) read `?.Raise` and were missing from `refs`; a component of a DLL's class read as a
missing script."""

from __future__ import annotations

from pathlib import Path

from indexer.query.dll_classes import class_file_id
from indexer.scanners.yaml_nodes import NodeDoc
from indexer.scanners.yaml_reader import split

from .conftest import meta, run_cli, write_project

EVENT_SCRIPT = "a1" * 16
HEALTH = "b2" * 16
DOOR_SCRIPT = "c3" * 16
RELAY = "d4" * 16
HIT = "e5" * 16  # the event asset
DOOR = "f6" * 16  # the door prefab
DLL = "07" * 16
SOUND = "18" * 16
MACHINE = class_file_id("StateGraph")  # a class of the DLL the code names (global namespace)
UNNAMED = class_file_id("Tools.Hidden")  # one it does not
HEADER = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"


def _call(target: str, method: str, type_name: str | None = None, old: bool = False) -> str:
    """A persistent call as Unity 2019 writes it (no `m_TargetAssemblyTypeName` unless given), or as
    older versions did (`old`: its target and method alone)."""
    typed = f"        m_TargetAssemblyTypeName: {type_name}\n" if type_name is not None else ""
    if old:
        return f"      - m_Target: {target}\n        m_MethodName: {method}\n"
    return (
        f"      - m_Target: {target}\n{typed}        m_MethodName: {method}\n        m_Mode: 1\n"
        "        m_Arguments:\n          m_ObjectArgument: {fileID: 0}\n"
        "          m_ObjectArgumentAssemblyTypeName: UnityEngine.Object, UnityEngine\n"
        "          m_IntArgument: 0\n          m_FloatArgument: 0\n          m_StringArgument: \n"
        "          m_BoolArgument: 0\n        m_CallState: 2\n"
    )


def _event(key: str, calls: list[str]) -> str:
    return f"  {key}:\n    m_PersistentCalls:\n      m_Calls:\n" + "".join(calls)


def _object(go: int, name: str, components: list[int]) -> str:
    listed = "".join(f"  - component: {{fileID: {c}}}\n" for c in [go + 1, *components])
    return (
        f"--- !u!1 &{go}\nGameObject:\n  m_Component:\n{listed}  m_Name: {name}\n  m_IsActive: 1\n"
        f"--- !u!4 &{go + 1}\nTransform:\n  m_GameObject: {{fileID: {go}}}\n  m_Children: []\n"
        "  m_Father: {fileID: 0}\n"
    )


def _behaviour(file_id: int, go: int, script: str, rest: str = "", script_id: int = 11500000) -> str:
    return (
        f"--- !u!114 &{file_id}\nMonoBehaviour:\n  m_GameObject: {{fileID: {go}}}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: {script_id}, guid: {script}, type: 3}}\n  m_Name: \n{rest}"
    )


def _asset(script: str, name: str, rest: str = "") -> str:
    return (
        HEADER + f"--- !u!114 &11400000\nMonoBehaviour:\n  m_GameObject: {{fileID: 0}}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {script}, type: 3}}\n  m_Name: {name}\n{rest}"
    )


HIT_REF = f"{{fileID: 11400000, guid: {HIT}, type: 2}}"
GHOST = (
    HEADER
    + _object(100, "Ghost", [110, 120, 130])
    + _behaviour(
        110,
        100,
        HEALTH,
        _event(
            "onDamaged",
            [
                _call(HIT_REF, "Raise"),  # line 26
                _call(HIT_REF, "Raise", "Signals.GameEvent, Assembly-CSharp"),  # line 37
                _call(HIT_REF, "Raise", old=True),  # line 49
                _call(f"{{fileID: 200, guid: {DOOR}, type: 3}}", "Open"),  # line 51
                _call(f"{{fileID: 100, guid: {DOOR}, type: 3}}", "SetActive"),  # line 62: the door's GameObject
                _call(f"{{fileID: 200, guid: {DOOR}, type: 3}}", "Close"),  # line 73: renamed since
            ],
        ),
    )
    + _behaviour(120, 100, DLL, f"  clip: {{fileID: 8300000, guid: {SOUND}, type: 3}}\n", script_id=MACHINE)
    + _behaviour(130, 100, DLL, "", script_id=UNNAMED)
)
DOOR_PREFAB = HEADER + _object(100, "Door", [200]) + _behaviour(200, 100, DOOR_SCRIPT)
CODE = {
    "Assets/Scripts/GameEvent.cs": (
        "using UnityEngine;\nnamespace Signals {\npublic class GameEvent : ScriptableObject {\n"
        "  public void Raise() { }\n}\n}\n"
    ),
    "Assets/Scripts/Health.cs": (
        "using UnityEngine;\nusing UnityEngine.Events;\npublic class Health : MonoBehaviour {\n"
        "  public UnityEvent onDamaged;\n  StateGraph graph;\n}\n"
    ),
    "Assets/Scripts/Door.cs": "using UnityEngine;\npublic class Door : MonoBehaviour {\n  public void Open() { }\n}\n",
    "Assets/Scripts/Relay.cs": (
        "using UnityEngine;\nusing UnityEngine.Events;\npublic class Relay : ScriptableObject {\n"
        "  public UnityEvent onFired;\n}\n"
    ),
}


def _project(root: Path) -> Path:
    files: dict[str, str | bytes] = dict(CODE)
    for path, guid in (
        ("Assets/Scripts/GameEvent.cs", EVENT_SCRIPT),
        ("Assets/Scripts/Health.cs", HEALTH),
        ("Assets/Scripts/Door.cs", DOOR_SCRIPT),
        ("Assets/Scripts/Relay.cs", RELAY),
    ):
        files[path + ".meta"] = meta(guid)
    files |= {
        "Assets/Events/Hit.asset": _asset(EVENT_SCRIPT, "Hit"),
        "Assets/Events/Hit.asset.meta": meta(HIT, "NativeFormatImporter"),
        # an event asset relaying to another: its main object's fileID is the target's too
        "Assets/Events/Relay.asset": _asset(RELAY, "Relay", _event("onFired", [_call(HIT_REF, "Raise")])),
        "Assets/Events/Relay.asset.meta": meta("29" * 16, "NativeFormatImporter"),
        "Assets/Prefabs/Ghost.prefab": GHOST,
        "Assets/Prefabs/Ghost.prefab.meta": meta("3a" * 16, "PrefabImporter"),
        "Assets/Prefabs/Door.prefab": DOOR_PREFAB,
        "Assets/Prefabs/Door.prefab.meta": meta(DOOR, "PrefabImporter"),
        "Assets/Plugins/Flow/FlowKit.dll": b"MZ\x90\x00\x03\x00not a real assembly",
        "Assets/Plugins/Flow/FlowKit.dll.meta": meta(DLL, "PluginImporter"),
        "Assets/Sounds/Hum.wav": b"RIFF\x00\x00\x00\x00WAVE",
        "Assets/Sounds/Hum.wav.meta": meta(SOUND, "AudioImporter"),
    }
    return write_project(root, files)


def _ask(root: Path, *args: str) -> list[str]:
    r = run_cli(*args, "--project", str(root))
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def test_a_call_with_no_type_on_an_event_asset_is_a_usage_of_its_script_s_method(tmp_path: Path) -> None:
    """`refs GameEvent.Raise` listed the call that names its type and none of those saved before
    Unity 2020.2 (no `m_TargetAssemblyTypeName`, or only `m_Target` and `m_MethodName`): all read
    `?.Raise`. Each now says the asset it is on, with the same line shape."""
    root = _project(tmp_path / "P")
    on = "on Assets/Events/Hit.asset -> Signals.GameEvent.Raise"
    assert _ask(root, "refs", "GameEvent.Raise") == [
        "member Raise of Signals.GameEvent",
        "in assets (4):",
        f"  Assets/Events/Relay.asset:12 [onFired]  Relay > Relay.onFired(void) {on}",
        f"  Assets/Prefabs/Ghost.prefab:26 [onDamaged]  Ghost > Health.onDamaged(void) {on}",
        f"  Assets/Prefabs/Ghost.prefab:37 [onDamaged]  Ghost > Health.onDamaged(void) {on}",
        f"  Assets/Prefabs/Ghost.prefab:49 [onDamaged]  Ghost > Health.onDamaged() {on}",
    ]


def test_describe_names_the_class_of_another_file_s_object_a_call_is_on(tmp_path: Path) -> None:
    """`-> ?.Raise` and `-> ?.Open`; a prefab's component by its script, its GameObject as Unity's,
    a method renamed since said missing, and the scripts so called are what the prefab uses."""
    root = _project(tmp_path / "P")
    lines = _ask(root, "describe", "Assets/Prefabs/Ghost.prefab")
    calls = lines[lines.index("UnityEvent calls:") + 1 : lines.index("references:")]
    hit, door = "on Assets/Events/Hit.asset", "on Assets/Prefabs/Door.prefab"
    assert calls == [
        f"  L26 Ghost > Health.onDamaged(void) {hit} -> Signals.GameEvent.Raise",
        f"  L37 Ghost > Health.onDamaged(void) {hit} -> Signals.GameEvent.Raise",
        f"  L49 Ghost > Health.onDamaged() {hit} -> Signals.GameEvent.Raise",
        f"  L51 Ghost > Health.onDamaged(void) {door} -> Door.Open",
        f"  L62 Ghost > Health.onDamaged(void) {door} -> UnityEngine.GameObject.SetActive",
        f"  L73 Ghost > Health.onDamaged(void) {door} -> Door.Close (no method Close in Door)",
    ]
    # the files of the calls' objects (the scripts' classes are a step on: an edit of the asset alone
    # changes them, which the batch re-resolving the asset's own edges keeps exact)
    uses = next(line for line in lines if line.startswith("uses: "))
    assert "Assets/Events/Hit.asset (reference)" in uses and "Assets/Prefabs/Door.prefab (reference)" in uses


def test_an_asset_s_call_on_another_asset_is_not_read_as_on_itself(tmp_path: Path) -> None:
    """Both main objects have fileID 11400000: the relay's call read as on the relay's own script,
    `Relay.Raise`."""
    root = _project(tmp_path / "P")
    lines = _ask(root, "describe", "Assets/Events/Relay.asset")
    assert lines[lines.index("references:") + 1 :] == [
        "  Assets/Scripts/Relay.cs (m_Script)",
        "  Assets/Events/Hit.asset (m_Target)",
        "  GameEvent.Raise (onFired)",
        "uses: Assets/Events/Hit.asset (reference), Assets/Scripts/Relay.cs (script)",
    ]


def test_a_prefab_component_s_callers_count_for_the_method_and_for_a_renamed_one(tmp_path: Path) -> None:
    """`refs Door.Open` found no caller (the method read as unused), and a method renamed since,
    `Door.Close`, named no call still bound to it."""
    root = _project(tmp_path / "P")
    assert _ask(root, "refs", "Door.Open") == [
        "member Open of Door",
        "in assets (1):",
        "  Assets/Prefabs/Ghost.prefab:51 [onDamaged]  Ghost > Health.onDamaged(void)"
        " on Assets/Prefabs/Door.prefab -> Door.Open",
    ]
    r = run_cli("refs", "Door.Close", "--project", str(root))
    assert "UnityEvent calls still name it, bound to nothing: Assets/Prefabs/Ghost.prefab:73" in r.stderr


def test_both_readers_keep_the_file_a_call_s_object_is_in() -> None:
    """The line reader and the YAML parser give the same calls, the target's GUID with each."""
    text = GHOST.split("--- !u!114 &120")[0]
    doc = split(text)[-1]
    parsed = NodeDoc(doc.class_id, doc.file_id, doc.stripped, doc.line, doc.body)
    assert doc.calls() == parsed.calls()
    assert [(c.target, c.target_guid) for c in doc.calls()] == [
        (11400000, HIT),
        (11400000, HIT),
        (11400000, HIT),
        (200, DOOR),
        (100, DOOR),
        (200, DOOR),
    ]


def test_a_dll_s_component_is_its_class_not_a_missing_script(tmp_path: Path) -> None:
    """`FlowKit.dll (declares no class)`, a missing script in Unity's words, for each component of a
    DLL's class: now the class the project's code names, by the file ID Unity derives from its name,
    else that file ID."""
    assert class_file_id("PlayMakerFSM") == 1384774831  # as a real prefab holds it, with PlayMaker.dll's GUID
    root = _project(tmp_path / "P")
    lines = _ask(root, "describe", "Assets/Prefabs/Ghost.prefab")
    assert f"  components: Transform, Health, StateGraph (FlowKit.dll), class {UNNAMED} of FlowKit.dll" in lines
    assert _ask(root, "refs", "Assets/Sounds/Hum.wav")[-1] == (
        "  Assets/Prefabs/Ghost.prefab:90 [clip]  Ghost > StateGraph (FlowKit.dll)"
    )


def test_an_edit_of_the_object_s_file_alone_leaves_the_callers_edges_exact(tmp_path: Path) -> None:
    """The caller's edge went to the event asset's script as the asset named it when the caller
    was indexed: an incremental update after the asset's `m_Script` changed kept the old script,
    where `index --full` gave the new one. The edge goes to the asset's file, whose own edges its
    batch re-resolves."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.store.reader import Records
    from indexer.store.schema import IndexPaths

    root = _project(tmp_path / "P")
    update(root, Config(workers=1))
    hit = root / "Assets/Events/Hit.asset"
    hit.write_text(_asset(RELAY, "Hit"))  # now an instance of another script

    def edges() -> dict[str, list[tuple[str, str]]]:
        reader = Records(IndexPaths(Config().index_path(root)))
        try:
            return {p: reader.edges_from(p) for p in ("Assets/Prefabs/Ghost.prefab", "Assets/Events/Hit.asset")}
        finally:
            reader.close()

    update(root, Config(workers=1))
    incremental = edges()
    update(root, Config(workers=1), full=True)
    assert incremental == edges()
    assert ("Assets/Scripts/Relay.cs", "script") in incremental["Assets/Events/Hit.asset"]


def test_dll_class_names_are_hashed_once_under_a_lock_and_never_of_the_projects_own_types(
    tmp_path: Path, monkeypatch
) -> None:
    """dll_classes.DllClasses: the MCP server asks on several threads (a shared generator raised
    "generator already executing"); a file ID no written name gives is answered from memory the
    second time (every name was hashed again on each component, seconds on a large project); the
    project's own types are no DLL's, so their names are not hashed."""
    import threading

    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query import dll_classes
    from indexer.store.reader import Records
    from indexer.store.schema import IndexPaths

    code = "using HutongGames.PlayMaker;\npublic class Brain {\n  " + " ".join(f"Kit{i} k{i};" for i in range(200))
    root = write_project(tmp_path / "P", {"Assets/Brain.cs": code + "\n  StateGraph graph;\n  Brain next;\n}\n"})
    update(root, Config(workers=1))
    hashed: list[str] = []
    real = dll_classes.class_file_id
    monkeypatch.setattr(dll_classes, "class_file_id", lambda name: hashed.append(name) or real(name))
    records = Records(IndexPaths(Config().index_path(root)))
    try:
        classes = dll_classes.DllClasses(records)
        found: list[str] = []
        threads = [threading.Thread(target=lambda: found.append(classes.named(MACHINE))) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert found == ["StateGraph"] * 8
        assert classes.named(UNNAMED) == ""
        done = len(hashed)
        assert classes.named(UNNAMED) == "" and len(hashed) == done  # not hashed again
        assert "Brain" not in hashed and len(hashed) == len(set(hashed))
    finally:
        records.close()
