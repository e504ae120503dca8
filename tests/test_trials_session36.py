"""Defects found by new users' trials (docs/retrieval.md, "session 36"), each a test seen failing
before its fix."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from indexer.query.lookup import find_references

from .conftest import meta, write_project
from .test_trials_session32 import _workspace
from .test_trials_session34 import _instance
from .test_unity_event_targets import _behaviour, _header, _object

RECEIVERS = {
    "Assets/GameSettings.cs": """public class GameSettings
{
    public ItemSettings itemSettings;
    public PigSettings[] players;
}
public class ItemSettings { public float relicTime; }
public class PigSettings { public int weapon; }
public class AlterableStats { public float relicTime; }
""",
    "Assets/GameController.cs": """using UnityEngine;
public class GameController : MonoBehaviour
{
    public static GameSettings gameSettings;
}
""",
    "Assets/Player.cs": """using System.Collections.Generic;
public class Player
{
    public int playerNum;
    public static Player GetPlayerFromDevice(int device) { return null; }
}
""",
    "Assets/PlayerController.cs": """using UnityEngine;
public class PlayerController : MonoBehaviour
{
    public float relicTime;
    public int weapon;
    public int playerNum;
    public void Destroy() { }
    public void Spell() { }
    #region Setup
    public void Setup() { }
    #endregion
    void Update()
    {
        Destroy(gameObject);
        Destroy();
    }
}
""",
    "Assets/Station.cs": """using System.Collections.Generic;
public class Station { public void UpgradeProfit(float value) { } }
public class StationManager
{
    List<Station> stations;
    Dictionary<int, Station> byId;
    void UpgradeProfit(int level) { }
    void Upgrade(float value)
    {
        UpgradeProfit(1);
        foreach (var station in stations)
        {
            station.UpgradeProfit(value);
        }
        foreach (var pair in byId)
        {
            pair.UpgradeProfit(value);
        }
    }
}
""",
    "Assets/Modes.cs": """using System;
public class WeaponType { public WeaponType(Action<PlayerController> use) { } }
public static class WeaponTypes
{
    public static WeaponType Spell = new WeaponType((player) =>
    {
        player.Spell();
    });
}
public class Modes
{
    GameController gameController;
    void End(PlayerController[] players, int device)
    {
        foreach (PlayerController player in players)
        {
            if (player.relicTime > GameController.gameSettings.itemSettings.relicTime) { }
        }
        GameController.gameSettings.players[device].weapon = 1;
        int n = Player.GetPlayerFromDevice(device).playerNum;
        PlayerController p = null;
        p.Setup();
        WeaponType w = WeaponTypes.Spell;
    }
}
""",
}


@pytest.fixture(scope="module")
def receivers(tmp_path_factory: pytest.TempPathFactory):
    root = write_project(tmp_path_factory.mktemp("receivers") / "P", RECEIVERS)
    return _workspace(root)


def _code_lines(ws, name: str) -> list[tuple[str, int]]:
    _target, usages = find_references(ws, name)
    return [(u.path, u.line) for u in usages if u.where == "code"]


def test_a_receiver_chain_is_read_step_by_step(receivers) -> None:
    """`GameController.gameSettings.itemSettings.relicTime` is ItemSettings', `...players[i].weapon`
    PigSettings', `Player.GetPlayerFromDevice(d).playerNum` Player's: each was listed under
    PlayerController's or AlterableStats' member of that name (a trial: six wrong usages)."""
    assert _code_lines(receivers, "ItemSettings.relicTime") == [("Assets/Modes.cs", 17)]
    assert _code_lines(receivers, "AlterableStats.relicTime") == []
    assert _code_lines(receivers, "PlayerController.relicTime") == [("Assets/Modes.cs", 17)]
    assert _code_lines(receivers, "PigSettings.weapon") == [("Assets/Modes.cs", 19)]
    assert _code_lines(receivers, "PlayerController.weapon") == []
    assert _code_lines(receivers, "Player.playerNum") == [("Assets/Modes.cs", 20)]
    assert _code_lines(receivers, "PlayerController.playerNum") == []


def test_a_loop_variable_is_an_element_of_what_it_loops_over(receivers) -> None:
    """`foreach (var station in stations)` over a `List<Station>` calls Station's `UpgradeProfit`,
    not the manager's own; a dictionary's items are pairs, of no project class."""
    assert _code_lines(receivers, "Station.UpgradeProfit") == [("Assets/Station.cs", 13), ("Assets/Station.cs", 17)]
    assert _code_lines(receivers, "StationManager.UpgradeProfit") == [
        ("Assets/Station.cs", 10),
        ("Assets/Station.cs", 17),
    ]


def test_a_call_with_arguments_no_declaration_takes_is_another_method(receivers) -> None:
    """`Destroy(gameObject)` in a class declaring `void Destroy()` is `Object.Destroy`."""
    assert _code_lines(receivers, "PlayerController.Destroy") == [("Assets/PlayerController.cs", 15)]


def test_a_static_member_is_not_reached_through_a_variable(receivers) -> None:
    """`player.Spell()` (a lambda's parameter) is no use of `static WeaponType Spell`."""
    assert _code_lines(receivers, "WeaponTypes.Spell") == [("Assets/Modes.cs", 23)]
    assert _code_lines(receivers, "PlayerController.Spell") == [("Assets/Modes.cs", 7)]


def test_a_region_label_is_no_usage(receivers) -> None:
    """`#region Setup` was listed under `PlayerController.Setup`."""
    assert _code_lines(receivers, "PlayerController.Setup") == [("Assets/Modes.cs", 22)]


SKILL, BUTTON, GATE, BUTTON_PREFAB = "1" * 32, "2" * 32, "3" * 32, "4" * 32


def test_a_partial_class_is_the_script_of_the_file_named_as_it(tmp_path: Path) -> None:
    """`CookingSkill.Debug.cs` repeats `partial class CookingSkill : StaffSkill`: `refs CookingSkill`
    said "no usages found" though two prefabs carry `CookingSkill.cs`, and their values were lost."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Skill/CookingSkill.cs": "using UnityEngine;\n"
            "public partial class CookingSkill : MonoBehaviour\n{\n    public float cookMultiplier = 1f;\n}\n",
            "Assets/Skill/CookingSkill.cs.meta": meta(SKILL),
            "Assets/Cooking/CookingSkill.Debug.cs": "using UnityEngine;\n"
            "public partial class CookingSkill : MonoBehaviour\n{\n    void OnGUI() { }\n}\n",
            "Assets/Cooking/CookingSkill.Debug.cs.meta": meta("5" * 32),
            "Assets/Chef.prefab": _header()
            + _object(100, "Chef", [110])
            + _behaviour(110, 100, SKILL, "  cookMultiplier: 3\n"),
        },
    )
    ws = _workspace(root)
    _target, usages = find_references(ws, "CookingSkill")
    assert [(u.path, u.line, u.context) for u in usages if u.where == "asset"] == [
        ("Assets/Chef.prefab", 23, "m_Script")  # its `m_Script` line
    ]
    _target, usages = find_references(ws, "CookingSkill.cookMultiplier")
    assert [(u.path, u.detail) for u in usages if u.where == "asset"] == [
        ("Assets/Chef.prefab", "Chef > CookingSkill.cookMultiplier: 3")
    ]


def _calls(n: int) -> str:
    items = "".join(
        f"      - m_Target: {{fileID: 0}}\n        m_TargetAssemblyTypeName: Gate, Assembly-CSharp\n"
        f"        m_MethodName: Open{i}\n        m_Mode: 1\n        m_CallState: 2\n"
        for i in range(n)
    )
    return f"  interactionEvent:\n    m_PersistentCalls:\n      m_Calls:\n{items}"


def test_calls_an_override_leaves_past_the_count_it_sets_are_no_calls(tmp_path: Path) -> None:
    """An instance's overrides set `m_Calls.Array.size: 2` and still hold `data[2]` and `data[3]`
    from before: Unity drops those, and `refs` listed them as callers (2 real callers, 4 listed)."""
    call = "interactionEvent.m_PersistentCalls.m_Calls.Array"
    overrides = [(110, f"{call}.size", "2", "{fileID: 0}")]
    overrides += [(110, f"{call}.data[{i}].m_Target", "", "{fileID: 910}") for i in range(4)]
    overrides += [(110, f"{call}.data[{i}].m_MethodName", "Close", "{fileID: 0}") for i in range(4)]
    level = (
        _header() + _object(900, "Gate", [910]) + _behaviour(910, 900, GATE) + _instance(500, BUTTON_PREFAB, overrides)
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Gate.cs": "using UnityEngine;\npublic class Gate : MonoBehaviour\n{\n"
            "    public void Close() { }\n}\n",
            "Assets/Gate.cs.meta": meta(GATE),
            "Assets/Button.cs": "using UnityEngine;\nusing UnityEngine.Events;\n"
            "public class Button : MonoBehaviour\n{\n    public UnityEvent interactionEvent;\n}\n",
            "Assets/Button.cs.meta": meta(BUTTON),
            "Assets/Button.prefab": _header() + _object(100, "Button", [110]) + _behaviour(110, 100, BUTTON, _calls(1)),
            "Assets/Button.prefab.meta": meta(BUTTON_PREFAB, "PrefabImporter"),
            "Assets/Level.unity": level,
        },
    )
    ws = _workspace(root)
    _target, usages = find_references(ws, "Gate.Close")
    lines = level.split("\n")
    expected = [
        i + 1 for i, text in enumerate(lines) if f"{call}.data[0].m_Target" in text or "data[1].m_Target" in text
    ]
    assert [(u.path, u.line) for u in usages if u.where == "asset"] == [("Assets/Level.unity", n) for n in expected]
    assert len(expected) == 2


def test_a_list_of_references_says_which_slots_are_empty(tmp_path: Path) -> None:
    """`enemy2List: [4 items]` hid that slots 0 and 1 are `{fileID: 0}`, which `SetActive` on each
    throws on: the bug a trial asked about."""
    from indexer.query.describe import describe

    rest = "  enemy2List:\n  - {fileID: 0}\n  - {fileID: 0}\n  - {fileID: 100}\n  - {fileID: 100}\n"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Level.cs": "using UnityEngine;\npublic class Level : MonoBehaviour\n{\n"
            "    public GameObject[] enemy2List;\n}\n",
            "Assets/Level.cs.meta": meta(GATE),
            "Assets/Game.unity": _header() + _object(100, "Level", [110]) + _behaviour(110, 100, GATE, rest),
        },
    )
    ws = _workspace(root)
    assert "enemy2List: [4 items, empty at 0, 1]" in describe(ws.projects[0].graph, "Assets/Game.unity").text


def test_an_input_action_named_with_a_space_is_shown_so_on_its_line(tmp_path: Path) -> None:
    """`" CameraZoom"` (the generated code calls `FindAction(" CameraZoom")`) was shown trimmed, at
    the line of the action before it."""
    from indexer.query.describe import describe

    actions = (
        '{\n    "name": "Controls",\n    "maps": [\n        {\n            "name": "Player",\n'
        '            "actions": [\n                {\n                    "name": "CameraRotate",\n'
        '                    "type": "Value"\n                },\n                {\n'
        '                    "name": " CameraZoom",\n                    "type": "Value"\n                }\n'
        '            ],\n            "bindings": [\n                {\n'
        '                    "path": "<Mouse>/scroll/y",\n'
        '                    "action": " CameraZoom"\n                }\n            ]\n        }\n    ]\n}\n'
    )
    root = write_project(tmp_path / "P", {"Assets/Controls.inputactions": actions})
    text = describe(_workspace(root).projects[0].graph, "Assets/Controls.inputactions").text
    assert (
        '  input action CameraRotate (Value)  L8\n  input action " CameraZoom" (Value): <Mouse>/scroll/y  L12' in text
    )


def test_a_prefab_placed_nowhere_says_so(tmp_path: Path) -> None:
    """`describe Manager_Reputation.prefab` printed no "used by" line at all: that nothing places
    the prefab is why its behaviour never runs."""
    from indexer.query.describe import describe

    root = write_project(tmp_path / "P", {"Assets/Manager.prefab": _header() + _object(100, "Manager", [])})
    text = describe(_workspace(root).projects[0].graph, "Assets/Manager.prefab").text
    assert text.endswith("used by: nothing found (no scene or prefab places it, no asset or code names it)")


CONSTANTS = {
    "Assets/EventConstants.cs": "public static class EventConstants\n{\n"
    '    public const string DAMAGE = "Damage";\n}\n',
    "Assets/AnimatorConstants.cs": "public static class AnimatorConstants\n{\n"
    '    public const string IS_HURT = "IsHurt";\n}\n',
    "Assets/Health.cs": "using UnityEngine;\npublic class Health : MonoBehaviour\n{\n"
    "    public bool IsHurt { get; private set; }\n    void Damage(int amount) { IsHurt = true; }\n}\n",
    "Assets/Combat.cs": "using UnityEngine;\npublic class Combat : MonoBehaviour\n{\n"
    '    const string PLATFORM = "Assets/Platform.prefab";\n'
    "    int hurtHash = Animator.StringToHash(AnimatorConstants.IS_HURT);\n"
    "    void Hit(GameObject other)\n    {\n"
    "        other.SendMessageUpwards(EventConstants.DAMAGE, 3);\n"
    "        var prefab = UnityEditor.AssetDatabase.LoadAssetAtPath<GameObject>(PLATFORM);\n    }\n}\n",
    "Assets/Hurt.controller": _header() + "--- !u!91 &9100000\nAnimatorController:\n  m_Name: Hurt\n"
    "  m_AnimatorParameters:\n  - m_Name: IsHurt\n    m_Type: 4\n    m_DefaultFloat: 0\n    m_DefaultInt: 0\n"
    "    m_DefaultBool: 0\n    m_Controller: {fileID: 9100000}\n  m_AnimatorLayers: []\n",
    "Assets/Platform.prefab": _header() + _object(100, "Platform", []),
}


@pytest.fixture(scope="module")
def constants(tmp_path_factory: pytest.TempPathFactory):
    root = write_project(tmp_path_factory.mktemp("constants") / "P", CONSTANTS)
    return _workspace(root)


def test_a_method_called_by_a_name_kept_in_a_constant_has_that_caller(constants) -> None:
    """`SendMessageUpwards(EventConstants.DAMAGE, ...)` with `DAMAGE = "Damage"` in another file:
    `refs Health.Damage` said "no usages found" (the game's only way of dealing damage)."""
    assert _code_lines(constants, "Health.Damage") == [("Assets/Combat.cs", 8)]


def test_an_animator_parameter_named_as_a_member_says_so_and_its_constant_s_use(constants) -> None:
    """`refs IsHurt` gave the animator parameter alone, not saying `Health.IsHurt` is a property too,
    and missed `Animator.StringToHash(AnimatorConstants.IS_HURT)`."""
    target, usages = find_references(constants, "IsHurt")
    assert (target.kind, target.note) == (
        "animator_parameter",
        "a parameter of 1 animator controller; members so named too: Health.IsHurt",
    )
    assert [(u.path, u.line) for u in usages if u.where == "code"] == [("Assets/Combat.cs", 5)]


def test_an_asset_loaded_by_its_project_path_lists_that_load(constants) -> None:
    """`LoadAssetAtPath<GameObject>("Assets/Prefabs/Platform.prefab")` (through a constant): `refs` of
    the prefab said "no usages found"."""
    _target, usages = find_references(constants, "Assets/Platform.prefab")
    assert [(u.path, u.line, u.kind, u.context) for u in usages] == [
        ("Assets/Combat.cs", 4, "loads", "literal"),
        ("Assets/Combat.cs", 9, "loads", "constant"),
    ]


def _clip(name: str, function: str) -> str:
    return (
        _header() + f"--- !u!74 &7400000\nAnimationClip:\n  m_Name: {name}\n"
        f"  m_Events:\n  - time: 0.25\n    functionName: {function}\n    data: \n    intParameter: 0\n"
    )


def _controller(name: str, clip: str) -> str:
    return (
        _header() + f"--- !u!91 &9100000\nAnimatorController:\n  m_Name: {name}\n  m_AnimatorParameters: []\n"
        "  m_AnimatorLayers: []\n--- !u!1102 &1102000\nAnimatorState:\n  m_Name: Attack\n"
        f"  m_Motion: {{fileID: 7400000, guid: {clip}, type: 2}}\n"
    )


def _animated(name: str, controller: str, script: str) -> str:
    animator = (
        f"--- !u!95 &120\nAnimator:\n  m_GameObject: {{fileID: 100}}\n  m_Enabled: 1\n"
        f"  m_Controller: {{fileID: 9100000, guid: {controller}, type: 2}}\n"
    )
    return _header() + _object(100, name, [110, 120]) + _behaviour(110, 100, script) + animator


def test_a_clip_s_event_calls_the_scripts_on_the_objects_playing_it(tmp_path: Path) -> None:
    """The player's and the worm's attack clips both call `FinishAttack`: `refs
    PlayerAnimations.FinishAttack` listed the worm's clip, played only by the worm's Animator,
    whose object carries `WormAnimations` alone. A clip nothing is found playing stays listed."""
    guids = {k: c * 32 for k, c in zip(("pa", "wa", "pc", "wc", "pclip", "wclip", "loose"), "6789abc", strict=True)}
    method = "    public void FinishAttack() { }\n}\n"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/PlayerAnimations.cs": "using UnityEngine;\npublic class PlayerAnimations : MonoBehaviour\n{\n"
            + method,
            "Assets/PlayerAnimations.cs.meta": meta(guids["pa"]),
            "Assets/WormAnimations.cs": "using UnityEngine;\npublic class WormAnimations : MonoBehaviour\n{\n" + method,
            "Assets/WormAnimations.cs.meta": meta(guids["wa"]),
            "Assets/Player_Attack.anim": _clip("Player_Attack", "FinishAttack"),
            "Assets/Player_Attack.anim.meta": meta(guids["pclip"], "NativeFormatImporter"),
            "Assets/Worm_Attack.anim": _clip("Worm_Attack", "FinishAttack"),
            "Assets/Worm_Attack.anim.meta": meta(guids["wclip"], "NativeFormatImporter"),
            "Assets/Loose.anim": _clip("Loose", "FinishAttack"),
            "Assets/Loose.anim.meta": meta(guids["loose"], "NativeFormatImporter"),
            "Assets/Player.controller": _controller("Player", guids["pclip"]),
            "Assets/Player.controller.meta": meta(guids["pc"], "NativeFormatImporter"),
            "Assets/Worm.controller": _controller("Worm", guids["wclip"]),
            "Assets/Worm.controller.meta": meta(guids["wc"], "NativeFormatImporter"),
            "Assets/Player.prefab": _animated("Player", guids["pc"], guids["pa"]),
            "Assets/Worm.prefab": _animated("Worm", guids["wc"], guids["wa"]),
        },
    )
    ws = _workspace(root)
    for name, clip in (
        ("PlayerAnimations", "Assets/Player_Attack.anim"),
        ("WormAnimations", "Assets/Worm_Attack.anim"),
    ):
        _target, usages = find_references(ws, f"{name}.FinishAttack")
        assert [u.path for u in usages if u.kind == "animation_event"] == ["Assets/Loose.anim", clip]


def test_a_nested_class_s_member_is_offered_by_its_own_path(tmp_path: Path) -> None:
    """`refs Scanner.inputParams.scanTime` (the property path the scene writes) offered
    `Scanner.scanTime`, which failed in turn: the field is `Scanner.InputParams.scanTime`."""
    from indexer.query.lookup import unknown_target_hint

    scanner = (
        "using UnityEngine;\npublic class Scanner : MonoBehaviour\n{\n"
        "    [System.Serializable] public class InputParams { public float scanTime = 2f; }\n"
        "    public InputParams inputParams;\n    public float range;\n}\n"
    )
    root = write_project(tmp_path / "P", {"Assets/Scanner.cs": scanner})
    ws = _workspace(root)
    assert unknown_target_hint(ws, "Scanner.inputParams.scanTime")[1] == ["Scanner.InputParams.scanTime"]
    assert unknown_target_hint(ws, "Scanner.rnge")[1] == ["Scanner.range"]
    target, _usages = find_references(ws, "Scanner.InputParams.scanTime")
    assert (target.kind, target.types, target.member) == ("member", ["Scanner.InputParams"], "scanTime")


def test_a_verbatim_name_is_its_class(tmp_path: Path) -> None:
    """`refs @Controls` (the generated input class is declared `public class @Controls`) was an error."""
    root = write_project(tmp_path / "P", {"Assets/Controls.cs": "public partial class @Controls { }\n"})
    ws = _workspace(root)
    assert find_references(ws, "@Controls")[0] == find_references(ws, "Controls")[0]
    assert find_references(ws, "@Controls")[0].kind == "type"


def test_a_reference_to_an_object_under_a_long_named_parent_keeps_the_object_s_name(tmp_path: Path) -> None:
    """`_guestPool: __________Gameplay (Dynamic)______…`: the parent's name filled the value and
    the object it points at (`Pool_Guest`) went unsaid."""
    from indexer.query.describe import describe

    parent = "__________Gameplay (Dynamic)" + "_" * 60
    scene = _header() + _object(100, parent, []) + _object(200, "Pool_Guest", []) + _object(300, "Pools", [310])
    scene += _behaviour(310, 300, GATE, "  _guestPool: {fileID: 201}\n")
    scene = scene.replace(
        "&101\nTransform:\n  m_GameObject: {fileID: 100}\n  m_Children: []",
        "&101\nTransform:\n  m_GameObject: {fileID: 100}\n  m_Children:\n  - {fileID: 201}",
    )
    scene = scene.replace(
        "{fileID: 200}\n  m_Children: []\n  m_Father: {fileID: 0}",
        "{fileID: 200}\n  m_Children: []\n  m_Father: {fileID: 101}",
    )
    pools = "public class Pools : UnityEngine.MonoBehaviour\n{\n    public UnityEngine.Transform _guestPool;\n}\n"
    root = write_project(
        tmp_path / "P", {"Assets/Pools.cs": pools, "Assets/Pools.cs.meta": meta(GATE), "Assets/Game.unity": scene}
    )
    text = describe(_workspace(root).projects[0].graph, "Assets/Game.unity").text
    said = re.search(r"_guestPool: (__________Gameplay \(Dynamic\)_+…/Pool_Guest \(Transform\))", text)
    assert said is not None and len(said.group(0)) <= 100  # the parent's name cut, the object's kept


def test_a_query_of_a_file_s_name_alone_ranks_that_file_first(tmp_path: Path, monkeypatch) -> None:
    """`query "Unit.prefab"` ranked `UnitRagdoll.prefab` (more `unit` words) above `Unit.prefab`."""
    from indexer.query import rank

    ragdoll = _header() + "".join(_object(100 * i, f"Unit Ragdoll Unit Bone {i}", []) for i in range(1, 9))
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Prefabs/Unit.prefab": _header() + _object(100, "Body", []),
            "Assets/Prefabs/UnitRagdoll.prefab": ragdoll,
        },
    )
    ws = _workspace(root)
    first = lambda text: ws.search(text, 5)[0].path  # noqa: E731
    assert first("Unit.prefab") == first("assets/prefabs/unit.PREFAB") == "Assets/Prefabs/Unit.prefab"
    monkeypatch.setattr(rank, "NAMED_FILE_LEAD", 0.0)  # the rule's own work: the other file first without it
    assert first("Unit.prefab") == "Assets/Prefabs/UnitRagdoll.prefab"


def test_a_key_question_finds_the_input_actions_not_dead_input_manager_axes(tmp_path: Path) -> None:
    """`query "which key is bound to interact"` ranked the Input Manager's `Interact` axis (dead:
    the player settings run the Input System alone, `activeInputHandler: 1`) and not the actions
    asset binding Interact to F."""
    repo = Path(__file__).parent.parent
    manager = (repo / "fixtures/DungeonCrawler/ProjectSettings/InputManager.asset").read_text()
    actions = (
        '{\n  "name": "Controls",\n  "maps": [\n    {\n      "name": "Player",\n      "actions": [\n'
        '        {\n          "name": "Interact",\n          "type": "Button"\n        }\n      ],\n'
        '      "bindings": [\n        {\n          "path": "<Keyboard>/f",\n          "action": "Interact"\n'
        "        }\n      ]\n    }\n  ]\n}\n"
    )
    player = (
        "using UnityEngine;\npublic class Player : MonoBehaviour\n{\n"
        '    void Update() { if (Input.GetButtonDown("Jump")) Interact(); }\n    void Interact() { }\n}\n'
    )
    files = {
        "Assets/Player.cs": player,
        "Assets/Controls.inputactions": actions,
        "ProjectSettings/InputManager.asset": manager.replace("Jump", "Interact"),
        "ProjectSettings/ProjectSettings.asset": "%YAML 1.1\n--- !u!129 &1\nPlayerSettings:\n  activeInputHandler: 1\n",
    }
    hits = {}
    for handler in ("1", "2"):  # the Input System alone; both
        root = write_project(
            tmp_path / handler,
            {
                **files,
                "ProjectSettings/ProjectSettings.asset": files["ProjectSettings/ProjectSettings.asset"].replace(
                    "1\n", f"{handler}\n"
                ),
            },
        )
        ws = _workspace(root)
        hits[handler] = {h.path: (i, h.reason) for i, h in enumerate(ws.search("which key is bound to interact", 10))}
    assert hits["1"]["Assets/Controls.inputactions"][1].endswith("input action Interact")
    assert hits["1"]["Assets/Controls.inputactions"][0] < hits["1"]["ProjectSettings/InputManager.asset"][0]
    assert "input axis" not in hits["1"]["ProjectSettings/InputManager.asset"][1]
    assert "input axis Interact" in hits["2"]["ProjectSettings/InputManager.asset"][1]  # both read: both said


def test_a_type_qualifying_its_nested_type_is_a_usage_of_it(tmp_path: Path) -> None:
    """`refs ShootAction` left out `ShootAction.OnShootEventArgs e` (listed only under the nested
    type): a rename of ShootAction changes that line too."""
    shoot = (
        "public class ShootAction\n{\n    public class OnShootEventArgs : System.EventArgs { }\n"
        "    public event System.EventHandler<OnShootEventArgs> OnShoot;\n}\n"
    )
    animator = "public class UnitAnimator\n{\n    void Shot(object sender, ShootAction.OnShootEventArgs e) { }\n}\n"
    root = write_project(tmp_path / "P", {"Assets/ShootAction.cs": shoot, "Assets/UnitAnimator.cs": animator})
    ws = _workspace(root)
    _target, usages = find_references(ws, "ShootAction")
    assert [(u.path, u.line, u.context) for u in usages] == [("Assets/UnitAnimator.cs", 3, "qualifier")]
    _target, usages = find_references(ws, "ShootAction.OnShootEventArgs")
    assert ("Assets/UnitAnimator.cs", 3) in [(u.path, u.line) for u in usages]


def test_a_reference_into_a_prefab_nested_in_the_source_names_its_object(tmp_path: Path) -> None:
    """`_coreStation: Level 1 (CoreStation)`: the component is BaseLevel's nested CoreStation_1's,
    which Unity names in BaseLevel by a fileID derived from the nesting instance's
    (`(instance ^ object) & (2**63 - 1)`); the reference was read as the instance's root."""
    from indexer.query.describe import describe

    station_script, base_guid, station_guid, tutorial_script = "a1" * 16, "b2" * 16, "c3" * 16, "d4" * 16
    station = (
        _header()
        + _object(100, "Station", [110]).replace("m_Children: []", "m_Children:\n  - {fileID: 201}", 1)
        + _behaviour(110, 100, station_script)
        + _object(200, "Button", []).replace("m_Father: {fileID: 0}", "m_Father: {fileID: 101}")
    )
    base = (
        _header()
        + _object(300, "Base", [])
        + _instance(500, station_guid, [(100, "m_Name", "Station", "{fileID: 0}")]).replace(
            "m_TransformParent: {fileID: 0}", "m_TransformParent: {fileID: 301}"
        )
    )
    derived = (500 ^ 110) & ((1 << 63) - 1)
    scene = (
        _header()
        + _instance(700, base_guid, [(300, "m_Name", "Base", "{fileID: 0}")])
        + f"--- !u!114 &800 stripped\nMonoBehaviour:\n  m_CorrespondingSourceObject: {{fileID: {derived}, "
        f"guid: {base_guid}, type: 3}}\n  m_PrefabInstance: {{fileID: 700}}\n  m_PrefabAsset: {{fileID: 0}}\n"
        f"  m_GameObject: {{fileID: 0}}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {station_script}, type: 3}}\n"
        + _object(900, "Tutorial", [910])
        + _behaviour(910, 900, tutorial_script, "  _station: {fileID: 800}\n")
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Station.cs": "public class Station : UnityEngine.MonoBehaviour { }\n",
            "Assets/Station.cs.meta": meta(station_script),
            "Assets/Tutorial.cs": "public class Tutorial : UnityEngine.MonoBehaviour\n{\n"
            "    public Station _station;\n}\n",
            "Assets/Tutorial.cs.meta": meta(tutorial_script),
            "Assets/Station.prefab": station,
            "Assets/Station.prefab.meta": meta(station_guid, "PrefabImporter"),
            "Assets/Base.prefab": base,
            "Assets/Base.prefab.meta": meta(base_guid, "PrefabImporter"),
            "Assets/Level.unity": scene,
        },
    )
    text = describe(_workspace(root).projects[0].graph, "Assets/Level.unity").text
    assert "_station: Base/Station (Station)" in text


def test_a_return_in_a_property_declares_nothing(tmp_path: Path) -> None:
    """`return brainModelContainer;` in a property's getter read as a declaration of the field, of
    a type `return`: `brainModelContainer.Model` in its setter was listed under six other classes'
    `Model`."""
    setup = (
        "public class BrainModelContainer { public int Model; }\n"
        "public class JumpModelContainer { public int Model; }\n"
        "public class PlayerSetup\n{\n    private BrainModelContainer brainModelContainer;\n"
        "    public BrainModelContainer BrainModelContainer\n    {\n        get { return brainModelContainer; }\n"
        "        set { brainModelContainer = value; int m = brainModelContainer.Model; }\n    }\n}\n"
    )
    root = write_project(tmp_path / "P", {"Assets/PlayerSetup.cs": setup})
    ws = _workspace(root)
    assert _code_lines(ws, "JumpModelContainer.Model") == []
    assert _code_lines(ws, "BrainModelContainer.Model") == [("Assets/PlayerSetup.cs", 9)]


def test_a_name_found_nowhere_is_offered_the_files_and_every_member_so_named(tmp_path: Path) -> None:
    """`refs Golem` said "no type ... of that name" where `describe` offered `Golem.prefab`; `refs Model`
    listed five of eighteen members so named without saying the list was cut; `refs "Weapon.Fire("`
    (a call as written) was "no type ...", and `refs "Weapon.Fire()"` worked."""
    from indexer.query.lookup import unknown_target_hint

    classes = "".join(f"public class C{i} {{ public int Model; }}\n" for i in range(7))
    weapon = "public class Weapon\n{\n    public void Fire() { }\n    void Update() { Fire(); }\n}\n"
    files = {"Assets/Classes.cs": classes, "Assets/Weapon.cs": weapon}
    files["Assets/Prefabs/Zombie Wave Data.asset"] = (
        _header() + "--- !u!114 &1\nMonoBehaviour:\n  m_Name: Zombie Wave Data\n"
    )
    root = write_project(tmp_path / "P", files)
    ws = _workspace(root)
    assert unknown_target_hint(ws, "zombie wave data") == (
        "; files so named: Assets/Prefabs/Zombie Wave Data.asset",
        ["Assets/Prefabs/Zombie Wave Data.asset"],
    )
    clause, offered = unknown_target_hint(ws, "Model")
    assert clause == "; members so named: C0.Model, C1.Model, C2.Model, C3.Model, C4.Model, … 2 more"
    assert offered == ["C0.Model", "C1.Model", "C2.Model", "C3.Model", "C4.Model"]
    for written in ("Weapon.Fire(", "Weapon.Fire()", "Weapon.Fire(gameObject, dir)"):
        target, usages = find_references(ws, written)
        assert (target.kind, [(u.path, u.line) for u in usages]) == ("member", [("Assets/Weapon.cs", 4)]), written


def test_a_trigger_s_radius_is_read_with_it(tmp_path: Path) -> None:
    """A tower's targeting range is its trigger's `m_Radius: 8`, which `describe` left out (it showed
    `m_IsTrigger: 1` alone); a solid collider's size stays unread (a scene's thousand colliders)."""
    from indexer.query.describe import describe

    def collider(file_id: int, go: int, trigger: int) -> str:
        return (
            f"--- !u!135 &{file_id}\nSphereCollider:\n  m_GameObject: {{fileID: {go}}}\n  m_Material: {{fileID: 0}}\n"
            f"  m_IsTrigger: {trigger}\n  m_Enabled: 1\n  serializedVersion: 2\n  m_Radius: 8\n"
            "  m_Center: {x: 0, y: 0, z: 0}\n"
        )

    tower = _header() + _object(100, "Targeting", [120]) + collider(120, 100, 1)
    tower += _object(200, "Body", [220]) + collider(220, 200, 0)
    root = write_project(tmp_path / "P", {"Assets/Tower.prefab": tower})
    text = describe(_workspace(root).projects[0].graph, "Assets/Tower.prefab").text
    assert "SphereCollider: m_IsTrigger: 1; m_Radius: 8" in text
    assert text.count("m_Radius") == 1


def test_an_asset_named_by_its_guid_as_a_plain_value_is_used_there(tmp_path: Path) -> None:
    """A dialogue's condition names the Sword by its GUID (`parameters: - 2ec3…`, the item's `id`, as
    save systems do): `refs Sword.asset` left that dialogue out, and `query <the GUID>` ranked
    first files holding no part of it (the GUID split into words)."""
    from tests import yaml_differential

    sword_guid, item_script = "2ec392eda0786f649a77c41913f25ea0", "ab" * 16
    item = f"  id: {sword_guid}\n  itemName: Sword\n"
    condition = f"  condition:\n    and:\n    - predicate: 0\n      parameters:\n      - {sword_guid}\n      - 1\n"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Item.cs": "public class Item : UnityEngine.ScriptableObject { public string id; }\n",
            "Assets/Item.cs.meta": meta(item_script),
            "Assets/Items/Sword.asset": _header() + _behaviour(11400000, 0, item_script, item),
            "Assets/Items/Sword.asset.meta": meta(sword_guid, "NativeFormatImporter"),
            "Assets/Dialogues/Ambush.asset": _header() + _behaviour(11400000, 0, item_script, condition),
            "Assets/Dialogues/Noise.asset": _header()
            + _behaviour(11400000, 0, item_script, "  text: 2 ec 392 eda 0786 f 649 a 77 c 41913 f 25 ea 0\n"),
        },
    )
    ws = _workspace(root)
    _target, usages = find_references(ws, "Assets/Items/Sword.asset")
    assert [(u.path, u.line, u.context) for u in usages if u.kind == "guid"] == [
        ("Assets/Dialogues/Ambush.asset", 15, "parameters")  # not the Sword's own `id`
    ]
    assert [(h.path, h.line) for h in ws.search(sword_guid, 5)] == [
        ("Assets/Items/Sword.asset", 0),
        ("Assets/Dialogues/Ambush.asset", 15),
    ]
    result = yaml_differential.run([root], show=3)
    assert (result.compared, result.differing) == (result.documents, 0), yaml_differential.report(result)


def test_a_method_a_field_names_is_called_there_on_the_class_it_names(tmp_path: Path) -> None:
    """Fungus's InvokeMethod command names its method in a field (`targetMethod:
    CheckAllStatsAboveThreshold`, the class in `targetComponentText`): `refs` said "no usages found"
    of the game's win check; a `Show` of another class named so is no usage of this one's."""
    command = "  targetComponentText: {}\n  targetMethod: {}\n  targetMethodText: '{} (): Void'\n"
    scene = _header() + _object(100, "Flowchart", [110, 120, 130])
    scene += _behaviour(110, 100, GATE, command.format("PrepMenu", "Show", "Show"))
    scene += _behaviour(120, 100, GATE, command.format("BracketMenu", "Show", "Show"))
    scene += _behaviour(130, 100, GATE, "  method: CheckStats\n")
    menus = (
        "public class PrepMenu : UnityEngine.MonoBehaviour\n{\n    public void Show() { }\n"
        "    public bool CheckStats() { return true; }\n}\n"
        "public class BracketMenu : UnityEngine.MonoBehaviour\n{\n    public void Show() { }\n}\n"
    )
    root = write_project(tmp_path / "P", {"Assets/Menus.cs": menus, "Assets/Day.unity": scene})
    ws = _workspace(root)
    lines = scene.split("\n")
    at = [i + 1 for i, text in enumerate(lines) if text.startswith(("  targetMethod:", "  method:"))]
    for name, line in (("PrepMenu.Show", at[0]), ("BracketMenu.Show", at[1]), ("PrepMenu.CheckStats", at[2])):
        _target, usages = find_references(ws, name)
        assert [(u.path, u.line, u.context) for u in usages if u.where == "asset"] == [
            ("Assets/Day.unity", line, "method" if "Check" in name else "targetMethod")
        ], name


def test_a_scene_name_a_data_class_wraps_in_a_field_is_a_use_of_that_scene(tmp_path: Path) -> None:
    """Fungus's LoadDay command holds its scene as `_sceneName: {stringRef: None, stringVal: Friday}`:
    `refs` of the scene listed only the build settings, not the scene that loads it."""
    field = "  _sceneName:\n    stringRef: {fileID: 0}\n    stringVal: Friday - 4 vs 3\n"
    day = _header() + _object(100, "Flowchart", [110]) + _behaviour(110, 100, GATE, field)
    root = write_project(
        tmp_path / "P",
        {"Assets/Thursday.unity": day, "Assets/Friday - 4 vs 3.unity": _header() + _object(100, "Stage", [])},
    )
    _target, usages = find_references(_workspace(root), "Assets/Friday - 4 vs 3.unity")
    line = day.split("\n").index("  _sceneName:") + 1
    assert [(u.path, u.line) for u in usages] == [("Assets/Thursday.unity", line)]


def test_a_type_s_refs_say_a_call_on_a_method_it_lacks_and_two_types_so_named(tmp_path: Path) -> None:
    """`refs ScrimResultsMenu` listed a button's call of `next`, which the class lacks, as any other
    (`describe` said `(no method next ...)`); `refs Menu` merged Fungus's `Menu` and the game's."""
    from tests.test_unity_event_targets import _on_click

    scene = _header() + _object(100, "Results", [110]) + _behaviour(110, 100, GATE)
    ugui_button = "4e29b1a8efbd4b44bb3f3716e73f07ff"  # com.unity.ugui's Button script
    scene += _object(200, "Next", [210]) + _behaviour(210, 200, ugui_button, _on_click(110, "ScrimResultsMenu", "next"))
    root = write_project(
        tmp_path / "P",
        {
            "Assets/ScrimResultsMenu.cs": "public class ScrimResultsMenu : UnityEngine.MonoBehaviour { }\n",
            "Assets/ScrimResultsMenu.cs.meta": meta(GATE),
            "Assets/Gallery.unity": scene,
            "Assets/Fungus/Menu.cs": "namespace Fungus { public class Menu { } }\n",
            "Assets/Menus/Menu.cs": "public class Menu { }\n",
        },
    )
    ws = _workspace(root)
    _target, usages = find_references(ws, "ScrimResultsMenu")
    assert [u.detail for u in usages if u.kind == "method"] == [
        "Next > Button.m_OnClick(void) on Results (no method next in ScrimResultsMenu)"
    ]
    target, _usages = find_references(ws, "Menu")
    assert target.note == "2 types so named; a file's path gives one: Assets/Fungus/Menu.cs, Assets/Menus/Menu.cs"


def test_text_mesh_pro_s_classes_are_its_package_s_where_the_project_installs_it(tmp_path: Path) -> None:
    """`TMPro.TMP_SpriteAsset (script of com.unity.ugui, ...)` on a Unity 2019 project installing
    com.unity.textmeshpro 2.1.6: TextMesh Pro moved into ugui with Unity 2023.2 only."""
    for package, said in (("com.unity.textmeshpro", "com.unity.textmeshpro"), ("com.unity.ugui", "com.unity.ugui")):
        manifest = json.dumps({"dependencies": {package: "2.1.6"}})
        root = write_project(tmp_path / package, {"Packages/manifest.json": manifest})
        target, _usages = find_references(_workspace(root), "TMPro.TMP_SpriteAsset")
        assert (target.kind, target.note.split(",")[0]) == ("package_script", f"a script of the package {said}")


def test_a_property_s_backing_array_written_as_hex_shows_its_values(tmp_path: Path) -> None:
    """`describe` printed `<SceneIndexes>k__BackingField: 06000000` (the scene loaded by build index
    6) where `refs` decoded `[1 item: 6]`: a `[field: SerializeField]` property's array."""
    from indexer.query.describe import describe

    script = (
        "using UnityEngine;\npublic class SceneryLoadId : ScriptableObject\n{\n"
        "    [field: SerializeField] public int[] SceneIndexes { get; private set; }\n}\n"
    )
    data = _behaviour(11400000, 0, SKILL, "  <SceneIndexes>k__BackingField: 06000000\n")
    root = write_project(
        tmp_path / "P",
        {
            "Assets/SceneryLoadId.cs": script,
            "Assets/SceneryLoadId.cs.meta": meta(SKILL),
            "Assets/Level2.asset": _header() + data,
        },
    )
    text = describe(_workspace(root).projects[0].graph, "Assets/Level2.asset").text
    assert "<SceneIndexes>k__BackingField: [1 item: 6]" in text
