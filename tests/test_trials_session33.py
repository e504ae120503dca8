"""Defects found by new users' trials in session 33 (docs/retrieval.md, "session 33"), each a test
seen failing before its fix."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.lookup import find_references
from indexer.query.workspace import open_workspace, projects_at

from .conftest import meta, write_project
from .test_unity_event_targets import _behaviour, _header, _object

SPAWNER, AUTHORING, MOVE, PLAYER, SPAWNER_PREFAB = "a1" * 16, "a2" * 16, "a3" * 16, "a4" * 16, "a5" * 16

WAVES_CS = """using System;
using System.Collections.Generic;
using UnityEngine;

public enum WaveKind { Normal, Swarm, Boss }

[Serializable]
public class Wave
{
    public string name;
    public WaveKind kind;
    public int enemyCount;
    [SerializeField] private float delay;
    public int Total() => enemyCount;
}

public class WaveSpawner : MonoBehaviour
{
    public List<Wave> waves = new List<Wave>();
    public Wave bossWave;
    void Start() { foreach (var w in waves) Debug.Log(w.enemyCount); }
}
"""
MOVE_CS = """using System;

[Serializable]
public struct MoveSettings
{
    public float AirJumpSpeed;
    public int MaxAirJumps;
}
"""
AUTHORING_CS = """using UnityEngine;

public class PlayerAuthoring : MonoBehaviour
{
    public MoveSettings Character;
}
"""


def _nested_project(tmp_path: Path) -> Path:
    waves = (
        "  waves:\n  - name: First\n    kind: 0\n    enemyCount: 5\n    delay: 1.5\n  - name: Second\n    kind: 1\n"
        "    enemyCount: 8\n    delay: 2\n  bossWave:\n    name: Boss\n    kind: 2\n    enemyCount: 1\n    delay: 0\n"
    )
    player = "  Character:\n    AirJumpSpeed: 10\n    MaxAirJumps: 1\n"
    level = (
        _header()
        + "--- !u!1001 &700\nPrefabInstance:\n  m_ObjectHideFlags: 0\n  serializedVersion: 2\n"
        + "  m_Modification:\n    serializedVersion: 3\n    m_TransformParent: {fileID: 0}\n"
        + f"    m_Modifications:\n    - target: {{fileID: 12, guid: {PLAYER}, type: 3}}\n"
        + "      propertyPath: Character.AirJumpSpeed\n      value: 12\n      objectReference: {fileID: 0}\n"
        + f"    - target: {{fileID: 12, guid: {PLAYER}, type: 3}}\n"
        + "      propertyPath: Character.MaxAirJumps\n      value: 2\n      objectReference: {fileID: 0}\n"
        + "    m_RemovedComponents: []\n    m_RemovedGameObjects: []\n"
        + f"  m_SourcePrefab: {{fileID: 100100000, guid: {PLAYER}, type: 3}}\n"
        + "--- !u!1001 &800\nPrefabInstance:\n  m_ObjectHideFlags: 0\n  serializedVersion: 2\n"
        + "  m_Modification:\n    serializedVersion: 3\n    m_TransformParent: {fileID: 0}\n"
        + f"    m_Modifications:\n    - target: {{fileID: 3, guid: {SPAWNER_PREFAB}, type: 3}}\n"
        + "      propertyPath: waves.Array.data[1].kind\n      value: 2\n      objectReference: {fileID: 0}\n"
        + "    m_RemovedComponents: []\n    m_RemovedGameObjects: []\n"
        + f"  m_SourcePrefab: {{fileID: 100100000, guid: {SPAWNER_PREFAB}, type: 3}}\n"
    )
    return write_project(
        tmp_path / "P",
        {
            "Assets/Scripts/WaveSpawner.cs": WAVES_CS,
            "Assets/Scripts/WaveSpawner.cs.meta": meta(SPAWNER),
            "Assets/Scripts/MoveSettings.cs": MOVE_CS,
            "Assets/Scripts/MoveSettings.cs.meta": meta(MOVE),
            "Assets/Scripts/PlayerAuthoring.cs": AUTHORING_CS,
            "Assets/Scripts/PlayerAuthoring.cs.meta": meta(AUTHORING),
            "Assets/Prefabs/Spawner.prefab": _header() + _object(1, "Spawner", [3]) + _behaviour(3, 1, SPAWNER, waves),
            "Assets/Prefabs/Spawner.prefab.meta": meta(SPAWNER_PREFAB, "PrefabImporter"),
            "Assets/Prefabs/Player.prefab": _header()
            + _object(10, "Player", [12])
            + _behaviour(12, 10, AUTHORING, player),
            "Assets/Prefabs/Player.prefab.meta": meta(PLAYER, "PrefabImporter"),
            "Assets/Scenes/Level.unity": level,
        },
    )


def _asset_lines(ws, name: str) -> list[tuple[str, int, str, str]]:
    _target, usages = find_references(ws, name)
    return [(u.path, u.line, u.context, u.detail) for u in usages if u.where == "asset"]


def test_refs_of_a_member_of_a_serializable_class_lists_the_values_assets_nest_under_its_holders_field(
    tmp_path: Path,
) -> None:
    """`Levels[].Cost`: a trial's `refs` of a [Serializable] class's field listed code only, though
    every prefab carrying the spawner sets it, one line a list element (session 32's list)."""
    root = _nested_project(tmp_path)
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _asset_lines(ws, "Wave.enemyCount") == [
        ("Assets/Prefabs/Spawner.prefab", 29, "value", "Spawner > WaveSpawner.waves[0].enemyCount: 5"),
        ("Assets/Prefabs/Spawner.prefab", 33, "value", "Spawner > WaveSpawner.waves[1].enemyCount: 8"),
        ("Assets/Prefabs/Spawner.prefab", 38, "value", "Spawner > WaveSpawner.bossWave.enemyCount: 1"),
    ]
    assert _asset_lines(ws, "Wave.delay") == [
        ("Assets/Prefabs/Spawner.prefab", 30, "value", "Spawner > WaveSpawner.waves[0].delay: 1.5"),
        ("Assets/Prefabs/Spawner.prefab", 34, "value", "Spawner > WaveSpawner.waves[1].delay: 2"),
        ("Assets/Prefabs/Spawner.prefab", 39, "value", "Spawner > WaveSpawner.bossWave.delay: 0"),
    ]
    assert _asset_lines(ws, "Wave.Total") == []  # a method: no asset sets it


def test_refs_of_a_struct_s_field_lists_the_prefab_value_and_a_scene_s_override_of_it(tmp_path: Path) -> None:
    """An ECS authoring component holding a settings struct (`Character: {AirJumpSpeed: 10}`): "where
    is the air jump set" is the prefab, and the level's instance that overrides it."""
    root = _nested_project(tmp_path)
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _asset_lines(ws, "MoveSettings.AirJumpSpeed") == [
        ("Assets/Prefabs/Player.prefab", 27, "value", "Player > PlayerAuthoring.Character.AirJumpSpeed: 10"),
        (
            "Assets/Scenes/Level.unity",
            12,
            "override",
            "Player sets Character.AirJumpSpeed: 12 (via Assets/Prefabs/Player.prefab)",
        ),
    ]


def test_refs_of_an_enum_member_lists_the_elements_of_a_serializable_list_holding_it(tmp_path: Path) -> None:
    """A trial's `refs SaveDataNames.Points` listed code only: every value sat in a list of
    [Serializable] entries (`_saveData: - _saveDataName: 1`), which decides the key a counter is
    saved under. A scene's override of one element counts too, named as the Inspector shows it."""
    root = _nested_project(tmp_path)
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _asset_lines(ws, "WaveKind.Boss") == [
        ("Assets/Prefabs/Spawner.prefab", 37, "value", "Spawner > WaveSpawner.bossWave.kind: 2 (Boss)"),
        (
            "Assets/Scenes/Level.unity",
            31,
            "override",
            "Spawner sets waves.Array.data[1].kind: 2 (Boss) (via Assets/Prefabs/Spawner.prefab)",
        ),
    ]
    assert [line for *_, line in _asset_lines(ws, "Wave.kind")] == [
        "Spawner > WaveSpawner.waves[0].kind: 0 (Normal)",
        "Spawner > WaveSpawner.waves[1].kind: 1 (Swarm)",
        "Spawner > WaveSpawner.bossWave.kind: 2 (Boss)",
        "Spawner sets waves.Array.data[1].kind: 2 (Boss) (via Assets/Prefabs/Spawner.prefab)",
    ]


def _code_project(tmp_path: Path) -> Path:
    return write_project(
        tmp_path / "C",
        {
            "Assets/Scripts/Loading/GameStateMachine.cs": (
                "namespace Infrastructure.Loading\n{\n    public class GameStateMachine\n    {\n"
                "        public void Enter<T>() { }\n    }\n}\n"
            ),
            "Assets/Scripts/Player/StateMachine.cs": (
                "namespace Hero.Player\n{\n    public class StateMachine\n    {\n        public void Enter<T>() { }\n"
                "    }\n}\n"
            ),
            "Assets/Scripts/Game.cs": (
                "using Infrastructure.Loading;\n\npublic class Game\n{\n"
                "    public readonly GameStateMachine StateMachine = new GameStateMachine();\n}\n"
            ),
            "Assets/Scripts/Bootstrapper.cs": (
                "using UnityEngine;\n\npublic class Bootstrapper : MonoBehaviour\n{\n    private Game _game;\n"
                "    private Hero.Player.StateMachine _fsm;\n\n"
                "    void Awake()\n    {\n        _game.StateMachine.Enter<int>();\n"
                "        _fsm.Enter<int>();\n    }\n}\n"
            ),
            "Assets/Scripts/Triggers/Enter/Door.cs": (
                "using Infrastructure.Loading;\n\nnamespace World.Triggers.Enter\n{\n    public class Door\n    {\n"
                "        private GameStateMachine _machine;\n        void Open() { _machine.Enter<int>(); }\n    }\n}\n"
            ),
            "Assets/Scripts/Triggers/CanvasToggle.cs": (
                "using World.Triggers.Enter;\nusing static World.Triggers.Enter.Door;\n"
                "using Infrastructure.Loading;\n\n"
                "public class CanvasToggle\n{\n    private GameStateMachine _machine;\n"
                '    void Show() { using (var s = new System.IO.StringReader("")) { _machine.Enter<int>(); } }\n}\n'
            ),
            "Assets/Scripts/GunSelector.cs": (
                "using UnityEngine;\n\npublic enum GunType { Glock, Rifle }\n\n"
                "public class Weapon { public GunType Type; }\n\n"
                "public class GunSelector : MonoBehaviour\n{\n    public GunType Gun;\n\n"
                "    public void Pick(Weapon Gun)\n    {\n        Debug.Log(Gun.Type);\n        this.Gun = Gun.Type;\n"
                "    }\n\n    void Start() { Debug.Log(Gun); }\n}\n"
            ),
        },
    )


def _code_lines(ws, name: str) -> list[tuple[str, int]]:
    _target, usages = find_references(ws, name)
    return [(u.path, u.line) for u in usages if u.where == "code"]


def test_a_member_s_usages_are_no_namespace_or_using_lines_naming_it(tmp_path: Path) -> None:
    """Two trials: `refs GameStateMachine.Enter` listed `namespace World.Triggers.Enter` and
    `using World.Triggers.Enter;`, and `refs PlayerGunSelector.Guns` 19 such lines of 23."""
    root = _code_project(tmp_path)
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _code_lines(ws, "GameStateMachine.Enter") == [
        ("Assets/Scripts/Bootstrapper.cs", 10),
        ("Assets/Scripts/Triggers/CanvasToggle.cs", 8),
        ("Assets/Scripts/Triggers/Enter/Door.cs", 8),
    ]


def test_a_member_reached_through_a_field_of_a_variable_s_class_is_not_taken_for_a_same_named_class(
    tmp_path: Path,
) -> None:
    """`_game.StateMachine.Enter<InitializeServicesState>()`, the first call of a boot sequence, was
    left out: another class is named `StateMachine`, though `Game _game` holds a GameStateMachine."""
    root = _code_project(tmp_path)
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert ("Assets/Scripts/Bootstrapper.cs", 10) in _code_lines(ws, "GameStateMachine.Enter")
    assert _code_lines(ws, "Hero.Player.StateMachine.Enter") == [("Assets/Scripts/Bootstrapper.cs", 11)]


def test_a_parameter_named_as_the_member_is_not_the_member(tmp_path: Path) -> None:
    """`refs PlayerGunSelector.Gun` listed five lines naming a parameter `GunScriptableObject Gun`."""
    root = _code_project(tmp_path)
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _code_lines(ws, "GunSelector.Gun") == [
        ("Assets/Scripts/GunSelector.cs", 14),
        ("Assets/Scripts/GunSelector.cs", 17),
    ]


def test_a_constant_handed_to_a_call_loads_and_an_input_lookup_or_a_new_object_names(tmp_path: Path) -> None:
    """Three trials: `asset.FindActionMap("Player")` read as code loading the prefab addressed
    `Player`, while the factory's `InstantiateNoCash(Player, at)` through `const string Player` was
    left out; `new GameObject("ProjectContext")` read as the load of `Resources/ProjectContext.prefab`
    and `Resources.LoadAll(ProjectContextResourcePath, …)` was left out; an editor helper's
    `"Assets/" + assetPath` read as code loading every asset."""
    from .test_addressables import BANNER, GOBLIN, GROUP

    group = GROUP.replace("m_Address: Goblin", "m_Address: Player")
    prefab = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &1\nGameObject:\n  m_Name: Hugo\n"
    root = write_project(
        tmp_path / "L",
        {
            "Assets/AddressableAssetsData/Enemies.asset": group,
            "Assets/Prefabs/Hugo.prefab": prefab,
            "Assets/Prefabs/Hugo.prefab.meta": meta(GOBLIN, "PrefabImporter"),
            "Assets/Resources/ProjectContext.prefab": prefab.replace("Hugo", "ProjectContext"),
            "Assets/Scripts/InputActions.cs": (
                "public class InputActions\n{\n    void Bind()\n    {\n"
                '        m_Player = asset.FindActionMap("Player", throwIfNotFound: true);\n    }\n}\n'
            ),
            "Assets/Scripts/PlayerFactory.cs": (
                'public class PlayerFactory\n{\n    private const string Player = "Player";\n\n'
                "    public void Create(Vector3 at) => _assets.InstantiateNoCash(Player, at);\n}\n"
            ),
            "Assets/Scripts/ProjectContext.cs": (
                "using UnityEngine;\n\npublic class ProjectContext\n{\n"
                '    public const string ProjectContextResourcePath = "ProjectContext";\n\n'
                "    static void Load()\n    {\n"
                "        var found = Resources.LoadAll(ProjectContextResourcePath, typeof(GameObject));\n"
                '        if (found.Length == 0) { var o = new GameObject("ProjectContext"); }\n    }\n}\n'
            ),
            "Assets/Art/Banner.png": b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
            "Assets/Art/Banner.png.meta": meta(BANNER, "TextureImporter"),
            "Assets/Editor/EditorUtil.cs": (
                "public static class EditorUtil\n{\n"
                '    public static string ToAssetPath(string assetPath) { return "Assets/" + assetPath; }\n}\n'
            ),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _code_lines(ws, "Assets/Prefabs/Hugo.prefab") == [("Assets/Scripts/PlayerFactory.cs", 3)]
    assert _code_lines(ws, "Assets/Resources/ProjectContext.prefab") == [("Assets/Scripts/ProjectContext.cs", 5)]
    assert _code_lines(ws, "Assets/Art/Banner.png") == []  # its address is its path: `"Assets/" + p` builds it


def test_refs_of_an_animator_parameter_lists_calls_through_a_constant_or_its_hash(tmp_path: Path) -> None:
    """`refs IsWalking` listed no code: the enemy sets it through `const string IsWalking` (and
    `Animator.StringToHash` into a field is as common)."""
    from indexer.query.locate import references_of

    from .test_animator import CONTROLLER

    root = write_project(
        tmp_path / "P",
        {
            "Assets/Knight.controller": CONTROLLER,
            "Assets/Knight.cs": (
                "using UnityEngine;\npublic class Knight : MonoBehaviour\n{\n"
                '    private const string Hurt = "Hurt";\n'
                '    private static readonly int SpeedHash = Animator.StringToHash("Speed");\n'
                "    Animator anim;\n\n    void Update() { anim.SetFloat(SpeedHash, 1f); }\n"
                "    void Hit() { anim.SetTrigger(Hurt); }\n    void Log() { Debug.Log(Hurt); }\n}\n"
            ),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    _target, usages = references_of(ws, "Hurt")
    assert [(u.line, u.context) for u in usages if u.where == "code"] == [(9, "SetTrigger")]
    _target, usages = references_of(ws, "Speed")
    assert [(u.line, u.context) for u in usages if u.where == "code"] == [(5, "StringToHash"), (8, "SetFloat")]


def test_a_method_named_as_a_message_but_taking_parameters_unity_never_passes_is_no_message(tmp_path: Path) -> None:
    """`Reset(Card card)`, a card game's own method, was marked `[unity message]`: Unity's `Reset()`
    takes none, so the mark told a reader Unity calls it."""
    from indexer.query.lookup import describe_target

    root = write_project(
        tmp_path / "P",
        {
            "Assets/Board.cs": (
                "using UnityEngine;\n\npublic class Board : MonoBehaviour\n{\n    void Reset() { }\n"
                "    private void Reset(Card card) { }\n    void OnCollisionEnter(Collision c) { }\n"
                "    void OnTriggerEnter(Collider a, int b) { }\n    IEnumerator Start ( ) { yield break; }\n}\n"
            ),
        },
    )
    update(root, Config(workers=1))
    text = describe_target(open_workspace(root, projects_at(root)), "Assets/Board.cs")[1].text
    assert [line.strip() for line in text.splitlines() if line.startswith("  L")] == [
        "L5 void Reset()  [unity message]",
        "L6 private void Reset(Card card)",
        "L7 void OnCollisionEnter(Collision c)  [unity message]",
        "L8 void OnTriggerEnter(Collider a, int b)",
        "L9 IEnumerator Start( )  [unity message]",
    ]


def _placed(file_id: int, name: str, order: int, script: str = "") -> str:
    comps = f"  - component: {{fileID: {file_id + 1}}}\n" + (
        f"  - component: {{fileID: {file_id + 2}}}\n" if script else ""
    )
    text = (
        f"--- !u!1 &{file_id}\nGameObject:\n  m_ObjectHideFlags: 0\n  serializedVersion: 6\n  m_Component:\n"
        f"{comps}  m_Layer: 0\n  m_Name: {name}\n  m_IsActive: 1\n"
        f"--- !u!4 &{file_id + 1}\nTransform:\n  m_GameObject: {{fileID: {file_id}}}\n  m_Children: []\n"
        f"  m_Father: {{fileID: 0}}\n  m_RootOrder: {order}\n"
    )
    return text + (_behaviour(file_id + 2, file_id, script) if script else "")


def test_a_hit_in_a_big_scene_is_named_by_its_own_object_and_says_the_scene_s_edges_as_the_scene_s(
    tmp_path: Path,
) -> None:
    """`query "BGM_Manager"` pointed at the object's `m_Name` line but named it `Level1Bukit/Teleport`
    (the scene's outline is its first objects in the Hierarchy's order, and the nearest one above the
    line was another), with "carries script DialogManager.cs" read as that object's."""
    dialog = "d1" * 16
    scene = _header() + "".join(_placed(1000 + 10 * i, f"Prop{i}", 1000 + i) for i in range(300))
    scene += _placed(9000, "BGM_Manager", 2000)
    scene += "".join(_placed(20000 + 10 * i, f"Late{i}", i, dialog if i == 0 else "") for i in range(10))
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scenes/Level.unity": scene,
            "Assets/Scripts/DialogManager.cs": "using UnityEngine;\npublic class DialogManager : MonoBehaviour { }\n",
            "Assets/Scripts/DialogManager.cs.meta": meta(dialog),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    hit = next(h for h in ws.search('"BGM_Manager" dialog manager', 5) if h.path == "Assets/Scenes/Level.unity")
    line = scene.split("\n").index("  m_Name: BGM_Manager") + 1
    assert (hit.line, hit.name) == (line, "BGM_Manager")
    assert "the scene carries script Assets/Scripts/DialogManager.cs" in hit.reason


def test_an_instance_renamed_with_a_slash_in_its_name_is_one_object_not_a_path(tmp_path: Path) -> None:
    """`NPC_CiluBintang(QuestPerluMod/set)`, an instance's name, was printed as the path
    `NPC_CiluBintang(QuestPerluMod/NPC_CiluBintang(QuestPerluMod/set)`: the scanner had split it
    into a parent `NPC_CiluBintang(QuestPerluMod` and a name `set)`."""
    from indexer.scanners.unity_yaml import scan

    npc, script = "b1" * 16, "b2" * 16
    source = _header() + _object(100, "NPC", [102]) + _behaviour(102, 100, script, "  isHaveQuest: 1\n")
    scene = (
        _header()
        + "--- !u!1001 &700\nPrefabInstance:\n  m_ObjectHideFlags: 0\n  serializedVersion: 2\n"
        + "  m_Modification:\n    serializedVersion: 3\n    m_TransformParent: {fileID: 0}\n"
        + f"    m_Modifications:\n    - target: {{fileID: 100, guid: {npc}, type: 3}}\n"
        + "      propertyPath: m_Name\n      value: NPC_Cilu(Quest/set)\n      objectReference: {fileID: 0}\n"
        + f"    - target: {{fileID: 102, guid: {npc}, type: 3}}\n"
        + "      propertyPath: isHaveQuest\n      value: 0\n      objectReference: {fileID: 0}\n"
        + "    m_RemovedComponents: []\n    m_RemovedGameObjects: []\n"
        + f"  m_SourcePrefab: {{fileID: 100100000, guid: {npc}, type: 3}}\n"
    )
    rec = scan("Assets/Scenes/Level.unity", scene.encode(), "scene")
    assert [(s.container, s.name) for s in rec.symbols if s.kind == "prefab_instance"] == [("", "NPC_Cilu(Quest/set)")]
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scripts/NPCController.cs": "using UnityEngine;\npublic class NPCController : MonoBehaviour\n{\n"
            "    public bool isHaveQuest;\n}\n",
            "Assets/Scripts/NPCController.cs.meta": meta(script),
            "Assets/Prefabs/NPC.prefab": source,
            "Assets/Prefabs/NPC.prefab.meta": meta(npc, "PrefabImporter"),
            "Assets/Scenes/Level.unity": scene,
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert [d for p, _line, _c, d in _asset_lines(ws, "NPCController.isHaveQuest") if p.endswith(".unity")] == [
        "NPC_Cilu(Quest/set) sets isHaveQuest: 0 (via Assets/Prefabs/NPC.prefab)"
    ]


def test_a_data_asset_s_value_no_field_of_its_script_reads_is_said_unused(tmp_path: Path) -> None:
    """`describe ZombieData.asset` showed `Damage: 10` as live: the script serializes `_damage` now,
    the key is a leftover Unity never reads (a prefab's component said so; a data asset did not)."""
    from indexer.query.lookup import describe_target

    data = "c1" * 16
    asset = (
        _header() + "--- !u!114 &11400000\nMonoBehaviour:\n  m_ObjectHideFlags: 0\n  m_GameObject: {fileID: 0}\n"
        f"  m_Enabled: 1\n  m_Script: {{fileID: 11500000, guid: {data}, type: 3}}\n  m_Name: ZombieData\n"
        "  m_EditorClassIdentifier: \n  _damage: 3\n  Damage: 10\n  Health: 5\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scripts/EnemyData.cs": "using UnityEngine;\npublic class EnemyData : ScriptableObject\n{\n"
            "    [SerializeField] private int _damage;\n    public int Health;\n}\n",
            "Assets/Scripts/EnemyData.cs.meta": meta(data),
            "Assets/Data/ZombieData.asset": asset,
        },
    )
    update(root, Config(workers=1))
    text = describe_target(open_workspace(root, projects_at(root)), "Assets/Data/ZombieData.asset")[1].text
    assert [line.strip() for line in text.splitlines() if line.startswith("  L")] == [
        "L11 _damage: 3",
        "L12 Damage: 10 (unused: no such field in the script)",
        "L13 Health: 5",
    ]


def test_refs_of_a_scene_the_build_leaves_out_says_so(tmp_path: Path) -> None:
    """`refs GameScene.unity` listed `EditorBuildSettings.asset:8 [scene_in_build]` for an entry with
    `enabled: 0`: the scene never loads in a player (`describe` said `[disabled]`, `refs` did not)."""
    build = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1045 &1\nEditorBuildSettings:\n  m_Scenes:\n"
        f"  - enabled: 0\n    path: Assets/Scenes/Game.unity\n    guid: {'e1' * 16}\n"
        f"  - enabled: 1\n    path: Assets/Scenes/Menu.unity\n    guid: {'e2' * 16}\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "ProjectSettings/EditorBuildSettings.asset": build,
            "Assets/Scenes/Game.unity": _header() + _object(1, "Root", []),
            "Assets/Scenes/Game.unity.meta": meta("e1" * 16, "DefaultImporter"),
            "Assets/Scenes/Menu.unity": _header() + _object(1, "Root", []),
            "Assets/Scenes/Menu.unity.meta": meta("e2" * 16, "DefaultImporter"),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert [d for *_, d in _asset_lines(ws, "Assets/Scenes/Game.unity")] == [
        "Assets/Scenes/Game.unity (disabled: left out of the build)"
    ]
    assert [d for *_, d in _asset_lines(ws, "Assets/Scenes/Menu.unity")] == ["Assets/Scenes/Menu.unity"]


def test_an_instance_emptying_a_text_is_listed_as_setting_it(tmp_path: Path) -> None:
    """`refs Counter._additionalText` listed the prefab's `x` only: each of the three counters in
    the scene empties it (`value: ` in the override), which is what the game runs with."""
    counter, prefab = "f1" * 16, "f2" * 16
    source = _header() + _object(100, "Counter", [102]) + _behaviour(102, 100, counter, "  _additionalText: x\n")
    scene = (
        _header()
        + "--- !u!1001 &700\nPrefabInstance:\n  m_ObjectHideFlags: 0\n  serializedVersion: 2\n"
        + "  m_Modification:\n    serializedVersion: 3\n    m_TransformParent: {fileID: 0}\n"
        + f"    m_Modifications:\n    - target: {{fileID: 102, guid: {prefab}, type: 3}}\n"
        + "      propertyPath: _additionalText\n      value: \n      objectReference: {fileID: 0}\n"
        + "    m_RemovedComponents: []\n    m_RemovedGameObjects: []\n"
        + f"  m_SourcePrefab: {{fileID: 100100000, guid: {prefab}, type: 3}}\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scripts/Counter.cs": "using UnityEngine;\npublic class Counter : MonoBehaviour\n{\n"
            "    [SerializeField] private string _additionalText;\n}\n",
            "Assets/Scripts/Counter.cs.meta": meta(counter),
            "Assets/Prefabs/Counter.prefab": source,
            "Assets/Prefabs/Counter.prefab.meta": meta(prefab, "PrefabImporter"),
            "Assets/Scenes/Game.unity": scene,
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert [d for *_, d in _asset_lines(ws, "Counter._additionalText")] == [
        "Counter > Counter._additionalText: x",
        "Counter sets _additionalText: (empty) (via Assets/Prefabs/Counter.prefab)",
    ]


def test_an_instance_whose_root_an_override_switches_off_is_described_inactive(tmp_path: Path) -> None:
    """`describe SampleScene.unity` showed the player's instance as active: the scene sets its root's
    `m_IsActive: 0` (the menu's Play button turns it on), an override past the forty the index kept."""
    from indexer.query.lookup import describe_target

    player = "f3" * 16
    source = (
        _header()
        + _object(100, "PlayerArmature", []).replace("m_Children: []", "m_Children:\n  - {fileID: 201}")
        + _object(200, "Hips", []).replace("m_Father: {fileID: 0}", "m_Father: {fileID: 101}")
    )
    moved = "".join(
        f"    - target: {{fileID: 201, guid: {player}, type: 3}}\n      propertyPath: m_LocalPosition.{axis}{n}\n"
        f"      value: {n}\n      objectReference: {{fileID: 0}}\n"
        for n in range(25)
        for axis in "xy"
    )
    off = "      propertyPath: m_IsActive\n      value: 0\n      objectReference: {fileID: 0}\n"
    scene = (
        _header()
        + "--- !u!1001 &700\nPrefabInstance:\n  m_ObjectHideFlags: 0\n  serializedVersion: 2\n"
        + "  m_Modification:\n    serializedVersion: 3\n    m_TransformParent: {fileID: 0}\n"
        + f"    m_Modifications:\n{moved}    - target: {{fileID: 100, guid: {player}, type: 3}}\n{off}"
        + "    m_RemovedComponents: []\n    m_RemovedGameObjects: []\n"
        + f"  m_SourcePrefab: {{fileID: 100100000, guid: {player}, type: 3}}\n"
        + "--- !u!1001 &800\nPrefabInstance:\n  m_ObjectHideFlags: 0\n  serializedVersion: 2\n"
        + "  m_Modification:\n    serializedVersion: 3\n    m_TransformParent: {fileID: 0}\n"
        + f"    m_Modifications:\n    - target: {{fileID: 200, guid: {player}, type: 3}}\n{off}"
        + "    - target: {fileID: 100, guid: "
        + player
        + ", type: 3}\n      propertyPath: m_Name\n"
        + "      value: Spare\n      objectReference: {fileID: 0}\n"
        + "    m_RemovedComponents: []\n    m_RemovedGameObjects: []\n"
        + f"  m_SourcePrefab: {{fileID: 100100000, guid: {player}, type: 3}}\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Prefabs/PlayerArmature.prefab": source,
            "Assets/Prefabs/PlayerArmature.prefab.meta": meta(player, "PrefabImporter"),
            "Assets/Scenes/Sample.unity": scene,
        },
    )
    update(root, Config(workers=1))
    text = describe_target(open_workspace(root, projects_at(root)), "Assets/Scenes/Sample.unity")[1].text
    heads = [line for line in text.splitlines() if "(prefab instance of" in line]
    assert heads == [
        "PlayerArmature  (prefab instance of Assets/Prefabs/PlayerArmature.prefab)  [inactive]  L3",
        "Spare  (prefab instance of Assets/Prefabs/PlayerArmature.prefab)  L218",  # a child switched off
    ]


def test_a_style_sheet_s_images_are_its_references_and_its_rules_are_searched(tmp_path: Path) -> None:
    """`refs Glock.png` said no file used it, though `Root Styles.uss:45` sets it as a loadout
    icon's background; `describe "Root Styles.uss"` showed nothing, `query "glock icon"` missed it."""
    from indexer.query.lookup import describe_target

    glock = "ea83b90d" * 4
    uss = (
        "/* the loadout screen */\n.loadout-icon {\n    width: 64px;\n}\n\n#Glock,\n.gun-icon .small {\n"
        '    background-image: url("project://database/Assets/Textures/Glock.png?fileID=2800000&guid='
        f'{glock}&type=3#Glock");\n}}\n'
        f'/* .old {{ background-image: url("x?guid={"ff" * 16}"); }} */\n'
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Textures/Glock.png": b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
            "Assets/Textures/Glock.png.meta": meta(glock, "TextureImporter"),
            "Assets/Resources/UI/Root Styles.uss": uss,
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _asset_lines(ws, "Assets/Textures/Glock.png") == [
        ("Assets/Resources/UI/Root Styles.uss", 8, "background-image", "#Glock, .gun-icon .small")
    ]
    text = describe_target(ws, "Assets/Resources/UI/Root Styles.uss")[1].text
    assert "uss rule #Glock, .gun-icon .small  L6" in text and "uss rule .loadout-icon  L2" in text
    hit = ws.search("glock icon", 3)[0]
    assert (hit.path, hit.name) == (
        "Assets/Resources/UI/Root Styles.uss",
        "#Glock, .gun-icon .small",
    )


def test_a_quoted_label_finds_the_scene_showing_it_among_code_saying_its_words(tmp_path: Path, monkeypatch) -> None:
    """`query '"New Game"'` missed the menu's button label (`m_text: New Game`): forty scripts
    writing `new GameObject(` held both words, matched the phrase inside `gameobject`, and ranked
    above the scene, which a code task's prior kept below them anyway."""
    tmp_text = "f4" * 16
    label = _behaviour(3, 1, tmp_text, "  m_text: New Game\n  m_fontSize: 36\n")
    files: dict[str, str | bytes] = {
        "Assets/Scenes/MainMenu.unity": _header()
        + _object(1, "Button (1)", [3])
        + label
        + "".join(_object(100 + 10 * i, f"Decor{i}", []) for i in range(40)),
        "Assets/Scenes/Game.unity": _header() + _object(1, "Board", []),
    }
    for i in range(40):
        files[f"Assets/Scripts/Spawn/ByNewGameObject{i}.cs"] = (
            f"using UnityEngine;\npublic class ByNewGameObject{i} : MonoBehaviour\n{{\n"
            f'    void Start() {{ var holder = new GameObject("Holder{i}"); }}\n}}\n'
        )
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    hit, *others = ws.search('"New Game"', 5)
    assert not any("holds" in h.reason for h in others)  # `new GameObject(` holds no "new game"
    assert (hit.path, hit.line, hit.snippet) == ("Assets/Scenes/MainMenu.unity", 26, "m_text: New Game")
    assert hit.reason == 'text match; holds "new game"'
    # the scenes and prefabs holding its words are read for it past the files BM25 ranks first
    import indexer.query.quotes as quotes

    monkeypatch.setattr(quotes, "QUOTED_FILES", 1)
    first = ws.projects[0].searcher.holding(["new", "game"], 1, None, None)
    assert [c.path for c in first] != ["Assets/Scenes/MainMenu.unity"]
    found = [c.path for c, *_ in quotes.quoted_files(ws.projects[0], '"New Game"', None, None)]
    assert found == ["Assets/Scenes/MainMenu.unity"]


def test_a_call_set_through_overrides_keeps_its_argument(tmp_path: Path) -> None:
    """`refs PindahScene.PindahKeSceneTujuan` printed `override.m_OnClick(int)`: the button's
    `m_IntArgument: 1`, the build index of the scene Play loads, was dropped."""
    from indexer.scanners.unity_yaml import scan

    button = "f5" * 16
    calls = "m_OnClick.m_PersistentCalls.m_Calls.Array.data[0]"
    mods = [
        ("m_MethodName", "PindahKeSceneTujuan"),
        ("m_TargetAssemblyTypeName", "PindahScene, Assembly-CSharp"),
        ("m_Mode", "3"),
        ("m_Arguments.m_IntArgument", "1"),
        ("m_CallState", "2"),
    ]
    written = "".join(
        f"    - target: {{fileID: 114, guid: {button}, type: 3}}\n      propertyPath: {calls}.{key}\n"
        f"      value: {value}\n      objectReference: {{fileID: 0}}\n"
        for key, value in mods
    )
    scene = (
        _header()
        + "--- !u!1001 &700\nPrefabInstance:\n  m_ObjectHideFlags: 0\n  serializedVersion: 2\n"
        + "  m_Modification:\n    serializedVersion: 3\n    m_TransformParent: {fileID: 0}\n"
        + f"    m_Modifications:\n{written}    m_RemovedComponents: []\n    m_RemovedGameObjects: []\n"
        + f"  m_SourcePrefab: {{fileID: 100100000, guid: {button}, type: 3}}\n"
    )
    rec = scan("Assets/Scenes/MainMenu.unity", scene.encode(), "scene")
    assert [(r.target, r.detail) for r in rec.refs if r.kind == "method"] == [
        ("PindahScene.PindahKeSceneTujuan", f"&700/source:{button}:114 > override.m_OnClick(int 1)")
    ]


def test_ui_toolkit_s_own_components_and_panel_settings_are_named_by_their_class(tmp_path: Path) -> None:
    """`describe Main_Menu.unity` listed the menu's UIDocument as `MonoBehaviour` and a field holding
    it as `(script 00000000… (not in project))`; its PanelSettings asset read as "a class built into
    Unity (fileID 19101)"."""
    from indexer.query.lookup import describe_target

    builtin = "0000000000000000e000000000000000"
    facade = "f6" * 16
    ui_document = (
        f"--- !u!114 &3\nMonoBehaviour:\n  m_ObjectHideFlags: 0\n  m_GameObject: {{fileID: 1}}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 19102, guid: {builtin}, type: 0}}\n  m_Name: \n  m_EditorClassIdentifier: \n"
        "  m_ParentUI: {fileID: 0}\n  m_SortingOrder: 0\n"
    )
    scene = (
        _header() + _object(1, "StartMenuUIDocument", [3, 4]) + ui_document
        + _behaviour(4, 1, facade, "  _uiDocument: {fileID: 3}\n")
    )  # fmt: skip
    panel = (
        _header() + "--- !u!114 &11400000\nMonoBehaviour:\n  m_ObjectHideFlags: 0\n  m_GameObject: {fileID: 0}\n"
        f"  m_Enabled: 1\n  m_Script: {{fileID: 19101, guid: {builtin}, type: 0}}\n  m_Name: MainMenu\n"
        "  m_EditorClassIdentifier: \n  m_TargetDisplay: 0\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scripts/UIElementGetterFacade.cs": "using UnityEngine;\nusing UnityEngine.UIElements;\n"
            "public class UIElementGetterFacade : MonoBehaviour\n{\n    [SerializeField] UIDocument _uiDocument;\n}\n",
            "Assets/Scripts/UIElementGetterFacade.cs.meta": meta(facade),
            "Assets/Scenes/Main_Menu.unity": scene,
            "Assets/UI/MainMenu.asset": panel,
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    text = describe_target(ws, "Assets/Scenes/Main_Menu.unity")[1].text
    assert "  components: Transform, UIDocument, UIElementGetterFacade\n" in text
    assert "UIElementGetterFacade: _uiDocument: StartMenuUIDocument (UIDocument)" in text
    text = describe_target(ws, "Assets/UI/MainMenu.asset")[1].text
    assert "ScriptableObject MainMenu: UnityEngine.UIElements.PanelSettings (built into Unity)" in text


def test_ai_navigation_and_animation_rigging_components_are_named(tmp_path: Path) -> None:
    """A scene's NavMeshSurface and rig constraints read `script 7a5ac11c… (not in project)`, as a
    genuinely missing script does, though both packages were in the manifest."""
    from indexer.query.lookup import describe_target

    surface, rig = "7a5ac11cc976e418e8d13136b07e1f52", "70b342d8ce5c2fd48b8fa3147d48d1d1"
    scene = _header() + _object(1, "Level", [3, 4]) + _behaviour(3, 1, surface) + _behaviour(4, 1, rig)
    root = write_project(tmp_path / "P", {"Assets/Scenes/Level.unity": scene})
    update(root, Config(workers=1))
    text = describe_target(open_workspace(root, projects_at(root)), "Assets/Scenes/Level.unity")[1].text
    assert "\n  components: Transform, NavMeshSurface, Rig" in text


def test_a_long_path_in_an_outline_keeps_its_file_name() -> None:
    """`_enemyData: Assets/Scripts/Game/…/BaseData/Schooler…` cut the name of the asset, the part
    that says which it is; a path loses its middle folders first."""
    from indexer.query.outline import short

    text = "_enemyData: Assets/Scripts/Game/CharactersSettingsSO/Characters/Enemy/EnemyParams/BaseData/Schooler.asset"
    assert (
        short(text)
        == "_enemyData: Assets/…/Game/CharactersSettingsSO/Characters/Enemy/EnemyParams/BaseData/Schooler.asset"
    )
    assert short(text, 60) == "_enemyData: Assets/…/EnemyParams/BaseData/Schooler.asset"
    assert short("x" * 120) == "x" * 99 + "…"


def test_a_reference_to_unity_s_built_in_resources_is_not_said_missing(tmp_path: Path) -> None:
    """An instance's editor icon, `m_Icon: {…, guid: 0000000000000000d000000000000000}`, read
    `guid:0000… (not in project)`, as a deleted asset does."""
    from indexer.query.references import outside
    from indexer.query.workspace import open_workspace

    editor = "0000000000000000d000000000000000"
    root = write_project(tmp_path / "P", {"Assets/Scenes/Level.unity": _header() + _object(1, "Root", [])})
    update(root, Config(workers=1))
    graph = open_workspace(root, projects_at(root)).projects[0].graph
    assert outside(editor, graph) == f"guid:{editor} (Unity's built-in editor resources)"
    assert graph.readable(f"m_Icon: guid:{editor}") == f"m_Icon: guid:{editor} (Unity's built-in editor resources)"
    assert outside("ab" * 16, graph) == f"guid:{'ab' * 16} (not in project)"


def test_a_scene_too_long_to_describe_whole_is_folded_to_the_objects_that_do_something(tmp_path: Path) -> None:
    """`describe TestReact.unity` stopped after 400 lines of a level's collider objects, before its
    GameController, Player and canvas: folded, each object carrying a project script (or placing a
    prefab) is shown whole and the others are counted with their classes. (The walls are named
    apart: copies numbered as Unity numbers duplicates are one line, `alike`.)"""
    from indexer.query.describe import describe

    game = "f7" * 16
    walls = "".join(
        f"--- !u!1 &{100 + 10 * i}\nGameObject:\n  m_Component:\n  - component: {{fileID: {101 + 10 * i}}}\n"
        f"  - component: {{fileID: {102 + 10 * i}}}\n  m_Name: {i} Wall\n  m_IsActive: 1\n"
        f"--- !u!4 &{101 + 10 * i}\nTransform:\n  m_GameObject: {{fileID: {100 + 10 * i}}}\n  m_Children: []\n"
        f"  m_Father: {{fileID: 0}}\n  m_RootOrder: {i}\n"
        f"--- !u!61 &{102 + 10 * i}\nBoxCollider2D:\n  m_GameObject: {{fileID: {100 + 10 * i}}}\n  m_IsTrigger: 0\n"
        for i in range(30)
    )
    controller = _object(5000, "GameController", [5002]).replace(
        "m_Father: {fileID: 0}", "m_Father: {fileID: 0}\n  m_RootOrder: 40"
    ) + _behaviour(5002, 5000, game, "  lettersPerSecond: 40\n")
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scripts/DialogManager.cs": "using UnityEngine;\npublic class DialogManager : MonoBehaviour\n{\n"
            "    public int lettersPerSecond;\n}\n",
            "Assets/Scripts/DialogManager.cs.meta": meta(game),
            "Assets/Scenes/Level.unity": _header() + walls + controller,
        },
    )
    update(root, Config(workers=1))
    graph = open_workspace(root, projects_at(root)).projects[0].graph
    whole = describe(graph, "Assets/Scenes/Level.unity").text
    assert "29 Wall  [layer 0]" not in whole and "  components: Transform, BoxCollider2D" in whole  # short: all
    text = describe(graph, "Assets/Scenes/Level.unity", max_lines=20).text
    assert text.splitlines()[1:5] == [
        "… 30 more objects (BoxCollider2D 30)",
        "GameController  [layer 5]  L513",
        "  components: Transform, DialogManager",
        "    DialogManager: lettersPerSecond: 40",
    ]


def test_an_override_of_an_object_inside_a_nested_prefab_does_not_read_as_the_root_s(tmp_path: Path) -> None:
    """`describe "Ambulance Variant.prefab"` showed `m_IsActive: 0` with no object: it hides the mesh
    of the model the car nests, and read as every AI car switched off."""
    from .test_trials_session31 import _nesting_project

    root = _nesting_project(tmp_path)
    update(root, Config(workers=1))
    graph = open_workspace(root, projects_at(root)).projects[0].graph
    from indexer.model import Symbol

    hidden = Symbol("override", "m_IsActive", 9, signature="m_IsActive: 0", detail=str(500 ^ 200))
    own = Symbol("override", "m_IsActive", 9, signature="m_IsActive: 0", detail="10")
    assert graph.targets.said("Assets/Soldier.prefab", hidden) == "m_IsActive: 0 (in a nested prefab)"
    assert graph.targets.said("Assets/Soldier.prefab", own) == "m_IsActive: 0"  # its root's


def test_a_member_s_usages_are_no_lines_inside_a_block_comment(tmp_path: Path) -> None:
    """`refs SpiritSpawner.SpawnSpirits` listed `SpawnSpirits();` inside `/* [TargetRpc] … */`, a
    server path that does not exist (`//` lines were already left out)."""
    source = (
        "using UnityEngine;\n\npublic class SpiritSpawner : MonoBehaviour\n{\n    void SpawnSpirits() { }\n\n"
        "    void Start()\n    {\n        SpawnSpirits();\n        // SpawnSpirits();\n    }\n"
        "    /*\n    void CmdActivate() { SpawnSpirits(); }\n    */\n"
        '    void Log() { Debug.Log("/* not a comment */"); SpawnSpirits(); /* SpawnSpirits(); */ }\n}\n'
    )
    root = write_project(tmp_path / "P", {"Assets/Scripts/SpiritSpawner.cs": source})
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _code_lines(ws, "SpiritSpawner.SpawnSpirits") == [
        ("Assets/Scripts/SpiritSpawner.cs", 9),
        ("Assets/Scripts/SpiritSpawner.cs", 15),
    ]


def test_a_word_everywhere_in_a_file_that_is_all_the_task_says_still_names_its_members(tmp_path: Path) -> None:
    """`query "hunger"` showed `Player.CheckAge`, which never says hunger: the word is everywhere in
    `Player.cs`, so it named no member, and the first one with a body stood for the file."""
    uses = "\n".join(f"        hunger -= {i};" for i in range(60))
    source = (
        "using UnityEngine;\n\npublic class Player : MonoBehaviour\n{\n    float hunger;\n\n"
        "    void CheckAge() { if (age > 70) Die(); }\n\n"
        f"    void CheckHunger()\n    {{\n{uses}\n    }}\n}}\n"
    )
    root = write_project(tmp_path / "P", {"Assets/Scripts/Player.cs": source})
    update(root, Config(workers=1))
    hit = open_workspace(root, projects_at(root)).search("hunger", 1)[0]
    assert (hit.name, hit.line) == ("Player.CheckHunger", 9)


def test_a_scene_named_in_a_list_a_file_loads_by_variable_lists_that_line(tmp_path: Path) -> None:
    """`refs Spirits.unity` left out `GameManager.cs`'s `{"Part01", …, "Spirits"}`, loaded by
    `LoadScene(scenes[i], LoadSceneMode.Additive)`: "Part01" was listed, a plain word was not."""
    manager = (
        "using UnityEngine.SceneManagement;\n\npublic class GameManager\n{\n"
        '    string[] scenes = { "Part01", "Spirits" };\n\n'
        "    void Start()\n    {\n        for (int i = 0; i < scenes.Length; i++)\n"
        "            SceneManager.LoadScene(scenes[i], LoadSceneMode.Additive);\n    }\n}\n"
    )
    other = 'public class Label\n{\n    string title = "Spirits";\n}\n'
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scripts/GameManager.cs": manager,
            "Assets/Scripts/Label.cs": other,
            "Assets/Scenes/Spirits.unity": _header() + _object(1, "Root", []),
            "Assets/Scenes/Part01.unity": _header() + _object(1, "Root", []),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _code_lines(ws, "Assets/Scenes/Spirits.unity") == [("Assets/Scripts/GameManager.cs", 5)]
    assert _code_lines(ws, "Assets/Scenes/Part01.unity") == [("Assets/Scripts/GameManager.cs", 5)]


def test_a_member_read_through_an_interface_the_type_does_not_implement_is_not_its_usage(tmp_path: Path) -> None:
    """`refs TurretData.Cost` listed `_repository.Cost` on an `ITurretRepository _repository` and
    `_model.Cost` on an `IUpgradeOptionModel`: TurretData implements neither. One it does implement
    may hold it, and stays."""
    files = {
        "Assets/Scripts/TurretData.cs": (
            "using UnityEngine;\npublic interface IPriced { int Cost { get; } }\n"
            "public class TurretData : ScriptableObject, IPriced\n{\n    public int Cost { get; set; }\n}\n"
        ),
        "Assets/Scripts/ITurretRepository.cs": "public interface ITurretRepository\n{\n    int Cost { get; }\n}\n",
        "Assets/Scripts/TurretRepository.cs": (
            "public class TurretRepository : ITurretRepository\n{\n    private TurretData _turretData;\n"
            "    public int Cost => _turretData.Cost;\n}\n"
        ),
        "Assets/Scripts/UnitDetector.cs": (
            "public class UnitDetector\n{\n    private ITurretRepository _repository;\n    private TurretData _data;\n"
            "    private IPriced _priced;\n\n    void Show()\n    {\n        var a = _repository.Cost;\n"
            "        var b = _priced.Cost;\n    }\n}\n"
        ),
    }
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _code_lines(ws, "TurretData.Cost") == [
        ("Assets/Scripts/TurretRepository.cs", 4),
        ("Assets/Scripts/UnitDetector.cs", 10),
    ]
