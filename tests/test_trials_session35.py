"""Defects found by new users' trials (docs/retrieval.md, "session 35"), each a test seen failing
before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.query.lookup import find_references
from indexer.query.workspace import open_workspace, projects_at

from .conftest import meta, write_project

UNIT = "using UnityEngine;\npublic class Unit : MonoBehaviour\n{\n    public virtual void Attack() { }\n}\n"
ENEMY = "public class Enemy : Unit\n{\n    public new void Attack() { }\n}\n"  # hides Unit's
BRUTE = "public class Brute : Enemy\n{\n    void Update() { Attack(); }\n}\n"  # below the hiding one
ORC = "public class Orc : Unit\n{\n    public override void Attack() { }\n}\n"
TURRET = (
    "public interface IAttacker { void Attack(); }\n"
    "public class Turret : IAttacker\n{\n    public void Attack() { }\n}\n"
)
GAME = """using UnityEngine;
public class Game : MonoBehaviour
{
    public Unit unit;
    public Enemy enemy;
    public IAttacker attacker;
    void Update()
    {
        unit.Attack();
        enemy.Attack();
        attacker.Attack();
    }
}
"""


@pytest.fixture(scope="module")
def hiding(tmp_path_factory: pytest.TempPathFactory):
    root = write_project(
        tmp_path_factory.mktemp("hiding") / "P",
        {
            "Assets/Unit.cs": UNIT,
            "Assets/Enemy.cs": ENEMY,
            "Assets/Brute.cs": BRUTE,
            "Assets/Orc.cs": ORC,
            "Assets/Turret.cs": TURRET,
            "Assets/Game.cs": GAME,
        },
    )
    update(root, Config(workers=1))
    return open_workspace(root, projects_at(root))


def _code_lines(ws, name: str) -> list[tuple[str, int]]:
    _target, usages = find_references(ws, name)
    return [(u.path, u.line) for u in usages if u.where == "code"]


def test_a_method_declared_anew_is_not_called_through_its_base(hiding) -> None:
    """`public new void Attack()` hides `Unit.Attack`: `unit.Attack()` runs Unit's, so it is no
    usage of `Enemy.Attack` (a trial's `refs` listed every call through the base class)."""
    assert _code_lines(hiding, "Enemy.Attack") == [("Assets/Brute.cs", 3), ("Assets/Game.cs", 10)]


def test_the_base_s_usages_leave_out_the_calls_on_a_class_that_hides_it(hiding) -> None:
    """`enemy.Attack()` on an `Enemy` runs Enemy's own `Attack`, and so does a subclass's bare
    `Attack()`; `unit.Attack()` may run Unit's or Orc's override."""
    assert _code_lines(hiding, "Unit.Attack") == [("Assets/Game.cs", 9)]


def test_an_override_is_still_called_through_its_base(hiding) -> None:
    assert _code_lines(hiding, "Orc.Attack") == [("Assets/Game.cs", 9)]


def test_an_interface_s_member_is_implemented_without_override(hiding) -> None:
    assert _code_lines(hiding, "Turret.Attack") == [("Assets/Game.cs", 11)]


RECEIVERS = {
    "Assets/SceneLoader.cs": """using UnityEngine;
using UnityEngine.SceneManagement;
public class SceneLoader : MonoBehaviour
{
    public void LoadScene(int index)
    {
        SceneManager.LoadScene(index);
    }
}
""",
    "Assets/Menu.cs": """using UnityEngine;
public class Menu : MonoBehaviour
{
    public SceneLoader loader;
    void Start() { loader.LoadScene(2); }
}
""",
    "Assets/EnemyCounter.cs": "public class EnemyCounter\n{\n    public int Count;\n    public void Add() { }\n}\n",
    "Assets/Spawner.cs": """using System;
using System.Collections.Generic;
public class EnemySpawner
{
    public bool TrySpawn() { return true; }
}
public class SpawnLogic
{
    private readonly Dictionary<Type, object> _states = new Dictionary<Type, object>();
    private readonly Dictionary<int, EnemySpawner> Spawners = new Dictionary<int, EnemySpawner>();
    private EnemySpawner[] _all;
    private EnemyCounter _counter;
    public bool TrySpawn(int kind)
    {
        _states.Add(typeof(int), null);
        List<int> stats = new List<int>();
        stats.Add(kind);
        _counter.Add();
        return Spawners[kind].TrySpawn() || _all[0].TrySpawn();
    }
    public bool Next() { return TrySpawn(1); }
}
""",
    "Assets/Data.cs": """public class PlayerTransformData { public int Position; }
public class MapObjectData { public int Position; }
""",
    "Assets/MapChunk.cs": """using System.Collections.Generic;
public class MapChunk
{
    PlayerTransformData m_Player;
    List<PlayerTransformData> m_Saved;
    void Place(MapObjectData data)
    {
        int p = data.Position;
    }
    void Save()
    {
        foreach (var data in m_Saved) { int q = data.Position; }
        int r = m_Player.Position;
    }
}
""",
}


@pytest.fixture(scope="module")
def receivers(tmp_path_factory: pytest.TempPathFactory):
    root = write_project(tmp_path_factory.mktemp("receivers") / "P", RECEIVERS)
    update(root, Config(workers=1))
    return open_workspace(root, projects_at(root))


def test_a_static_call_on_a_unity_class_is_not_the_project_member_of_its_name(receivers) -> None:
    """`SceneManager.LoadScene(index)` in SceneLoader.cs was listed as a call of
    `SceneLoader.LoadScene` (a trial: three lines, none of them one)."""
    assert _code_lines(receivers, "SceneLoader.LoadScene") == [("Assets/Menu.cs", 5)]


def test_a_collection_s_add_is_not_a_project_class_s_add(receivers) -> None:
    """`Dictionary<Type, object> _states; _states.Add(...)` and a local `List<int>`'s `Add` were
    listed under `EnemyCounter.Add` (17 lines, 3 of them its)."""
    assert _code_lines(receivers, "EnemyCounter.Add") == [("Assets/Spawner.cs", 18)]


def test_an_element_of_a_collection_is_of_its_element_type(receivers) -> None:
    """`Spawners[kind].TrySpawn()` on a `Dictionary<int, EnemySpawner>` (and an array's element)
    calls EnemySpawner's, not SpawnLogic's own `TrySpawn`."""
    assert _code_lines(receivers, "SpawnLogic.TrySpawn") == [("Assets/Spawner.cs", 21)]
    assert _code_lines(receivers, "EnemySpawner.TrySpawn") == [("Assets/Spawner.cs", 19)]


def test_a_variable_is_of_the_type_its_own_method_declares_it(receivers) -> None:
    """`data.Position` on a `MapObjectData data` parameter was listed under
    `PlayerTransformData.Position`: another method's `foreach (var data ...)` had made `data`
    anything. (Since session 36 the loop's `var data` is an element of `List<PlayerTransformData>`.)"""
    assert _code_lines(receivers, "PlayerTransformData.Position") == [
        ("Assets/MapChunk.cs", 12),
        ("Assets/MapChunk.cs", 13),
    ]
    assert _code_lines(receivers, "MapObjectData.Position") == [("Assets/MapChunk.cs", 8)]


def test_a_static_member_of_a_generic_base_is_each_class_s_own(tmp_path: Path) -> None:
    """`refs PlayerController.Instance` listed every singleton's `Instance` (100 lines, 20 its):
    `SingletonMono<T>.Instance` is a field of each closed type. The base's own code sets it."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/SingletonMono.cs": """using UnityEngine;
public abstract class SingletonMono<T> : MonoBehaviour where T : SingletonMono<T>
{
    public static T Instance;
    protected virtual void Awake()
    {
        Instance = this as T;
    }
}
""",
            "Assets/PlayerController.cs": "public class PlayerController : SingletonMono<PlayerController>\n{\n"
            "    public void Stop() { }\n}\n",
            "Assets/InputManager.cs": "public class InputManager : SingletonMono<InputManager>\n{\n"
            "    void Update()\n    {\n        if (Instance != null) PlayerController.Instance.Stop();\n    }\n}\n",
            "Assets/Ui.cs": "using UnityEngine;\npublic class Ui : MonoBehaviour\n{\n"
            "    void Start()\n    {\n        InputManager.Instance.enabled = false;\n    }\n}\n",
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _code_lines(ws, "PlayerController.Instance") == [
        ("Assets/InputManager.cs", 5),
        ("Assets/SingletonMono.cs", 7),
    ]
    assert _code_lines(ws, "InputManager.Instance") == [
        ("Assets/InputManager.cs", 5),
        ("Assets/SingletonMono.cs", 7),
        ("Assets/Ui.cs", 6),
    ]


def test_a_scene_name_beginning_with_a_digit_and_a_map_s_label(tmp_path: Path) -> None:
    """`scene: 3_Map` was passed over as a number (`refs 3_Map.unity` listed the build settings
    only), and `mapName: Map 3`, the label the menu shows, was said `(no scene of that name)`."""
    from indexer.query.describe import describe

    from .test_trials_session34 import _behaviour, _header, _object

    map_data = "c6" * 16
    fields = "  mapName: Map 3\n  scene: 3_Map\n  nextLevel: 4_Map\n"
    asset = _header() + _object(100, "3_Map", [110]) + _behaviour(110, 100, map_data, fields)
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/MapData.cs": "using UnityEngine;\n\npublic class MapData : ScriptableObject\n{\n"
            "    public string mapName;\n    public string scene;\n    public string nextLevel;\n}\n",
            "Assets/Scripts/MapData.cs.meta": meta(map_data),
            "Assets/Resources/MapData/3_Map.asset": asset,
            "Assets/Scenes/3_Map.unity": _header(),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    text = describe(ws.projects[0].graph, "Assets/Resources/MapData/3_Map.asset").text.split("\n")
    assert text[text.index("references:") + 1 :] == [
        "  Assets/Scenes/3_Map.unity (scene)",
        "  4_Map (no scene of that name) (nextLevel)",
        "uses: Assets/Scripts/MapData.cs (script)",
    ]
    _target, usages = find_references(ws, "Assets/Scenes/3_Map.unity")
    assert [(u.path, u.detail) for u in usages] == [("Assets/Resources/MapData/3_Map.asset", "scene: 3_Map")]


def test_a_comment_or_attribute_above_a_member_names_that_member(tmp_path: Path) -> None:
    """`query "最大饥饿值"` (the label above `MaxHungry`) pointed at `MaxHp`, the member before it:
    a member's body ran from its line to the next declaration's, taking the next one's comments
    and attributes."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/PlayerConfig.cs": """using UnityEngine;
public class PlayerConfig : ScriptableObject
{
    [Header("最大生命值")]
    public float MaxHp;
    [Header("最大饥饿值")]
    public float MaxHungry;
    /// <summary>
    /// Checks the remaining time of the phase
    /// </summary>
    public bool CheckPhase() { return true; }
    // how fast hunger drains
    public float DrainSpeed;
}
""",
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert [(h.name, h.line) for h in ws.search("最大饥饿值", 1)] == [("PlayerConfig.MaxHungry", 7)]
    assert [(h.name, h.line) for h in ws.search("remaining phase time", 1)] == [("PlayerConfig.CheckPhase", 11)]
    assert [(h.name, h.line) for h in ws.search("how fast does it drain", 1)] == [("PlayerConfig.DrainSpeed", 13)]


def test_an_array_of_a_primitive_type_written_as_hex_is_shown_as_its_values(tmp_path: Path) -> None:
    """`describe WaveData.asset` printed `_maxMonsters: 080000000c0000001000000014000000`, the
    table of each wave's enemies (8, 12, 16, 20) as Unity writes an `int[]`; `refs` too."""
    from indexer.query.describe import describe

    from .test_trials_session34 import _behaviour, _header, _object

    wave = "c7" * 16
    fields = (
        "  _maxMonsters: 080000000c0000001000000014000000\n  _delays: 0000803f0000c03f\n"
        "  _flags: 0100\n  _odd: 0800\n  _name: 0800\n"
    )
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/WaveData.cs": "using System.Collections.Generic;\nusing UnityEngine;\n\n"
            "public class WaveData : ScriptableObject\n{\n    [SerializeField] private int[] _maxMonsters;\n"
            "    public List<float> _delays;\n    public bool[] _flags;\n    public int[] _odd;\n"
            "    public string _name;\n}\n",
            "Assets/Scripts/WaveData.cs.meta": meta(wave),
            "Assets/Data/WaveData.asset": _header()
            + _object(100, "WaveData", [110])
            + _behaviour(110, 100, wave, fields),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    text = describe(ws.projects[0].graph, "Assets/Data/WaveData.asset").text
    assert "_maxMonsters: [4 items: 8, 12, 16, 20]" in text
    assert "_delays: [2 items: 1, 1.5]" in text
    assert "_flags: [2 items: 1, 0]" in text
    assert "_odd: 0800" in text  # half an int: not whole elements, shown as written
    assert "_name: 0800" in text  # a string is no array
    _target, usages = find_references(ws, "WaveData._maxMonsters")
    assert [u.detail for u in usages if u.where == "asset"] == [
        "WaveData > WaveData._maxMonsters: [4 items: 8, 12, 16, 20]"
    ]


def test_a_folder_path_is_said_a_folder_not_a_guid_left_behind(tmp_path: Path) -> None:
    """`describe Assets/Scripts` answered "GUID ce21… is that of the folder", a GUID the user never
    typed: the folder's `.meta` was read as a file's left behind. `refs` said the same path was a
    deleted file."""
    from .test_paths import describe as cli_describe

    folder = "c8" * 16
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scripts.meta": f"fileFormatVersion: 2\nguid: {folder}\nfolderAsset: yes\n",
            "Assets/Scripts/Wave.cs": "public class Wave { }\n",
        },
    )
    update(root, Config(workers=1))
    code, _, err = cli_describe(root, "Assets/Scripts", root)
    assert (code, err) == (
        2,
        "error: Assets/Scripts is a folder: give a file in it; `unity-index query WORDS --path Assets/Scripts`"
        f" searches its files, `unity-index refs {folder}` lists what uses the folder\n",
    )


def test_a_member_of_one_of_two_same_named_classes_is_only_that_one_s(tmp_path: Path) -> None:
    """`refs EnemySpawner.TrySpawn` was headed "of EnemySpawner, Zenject.SpaceFighter.EnemySpawner",
    a sample's class declaring no `TrySpawn`."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scripts/EnemySpawner.cs": "public class EnemySpawner\n{\n    public bool TrySpawn() => true;\n}\n",
            "Assets/Plugins/Zenject/EnemySpawner.cs": "namespace Zenject.SpaceFighter\n{\n"
            "    public class EnemySpawner\n    {\n        public void Tick() { }\n    }\n}\n",
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    target, _usages = find_references(ws, "EnemySpawner.TrySpawn")
    assert (target.kind, target.types) == ("member", ["EnemySpawner"])


def test_a_target_found_nowhere_is_offered_what_it_may_have_meant(tmp_path: Path) -> None:
    """`refs checkpoint`, `refs CarLapCountr` and `refs GameManager.instance.GetNumberOfLaps` (as the
    project's code calls it) each exited "no type ... of that name" with nothing offered."""
    from indexer.query.lookup import unknown_target_hint

    from .conftest import run_cli

    root = write_project(
        tmp_path / "P",
        {
            "Assets/CheckPoint.cs": "using UnityEngine;\npublic class CheckPoint : MonoBehaviour { }\n",
            "Assets/CarLapCounter.cs": "using UnityEngine;\npublic class CarLapCounter : MonoBehaviour { }\n",
            "Assets/GameManager.cs": "using UnityEngine;\npublic class GameManager : MonoBehaviour\n{\n"
            "    public static GameManager instance;\n    public int GetNumberOfLaps() => 3;\n}\n",
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert unknown_target_hint(ws, "checkpoint") == ("; did you mean CheckPoint?", ["CheckPoint"])
    assert unknown_target_hint(ws, "CarLapCountr")[1] == ["CarLapCounter"]
    assert unknown_target_hint(ws, "GameManager.instance.GetNumberOfLaps")[1] == ["GameManager.GetNumberOfLaps"]
    assert unknown_target_hint(ws, "gamemanager.getnumberoflaps")[1] == ["GameManager.GetNumberOfLaps"]
    assert unknown_target_hint(ws, "Nowhere") == ("", [])
    r = run_cli("refs", "checkpoint", "--project", str(root))
    assert (r.returncode, r.stderr) == (
        2,
        "error: checkpoint: no type, member, file, GUID or assembly of that name; did you mean CheckPoint?"
        " (`unity-index refs CheckPoint`); `unity-index query checkpoint` searches by words\n",
    )


def test_a_member_set_by_an_object_initializer_is_a_usage(tmp_path: Path) -> None:
    """`refs PlayerCoreData.Hungry` missed `new PlayerCoreData { Hp = ..., Hungry = ... }`, the
    line setting a new game's hunger, on one line or several."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Data.cs": "public class PlayerCoreData\n{\n    public float Hp;\n    public float Hungry;\n}\n"
            "public class Other\n{\n    public float Hungry;\n}\n",
            "Assets/Archive.cs": """public class Archive
{
    PlayerCoreData a = new PlayerCoreData { Hp = 1, Hungry = 2 };
    PlayerCoreData b = new PlayerCoreData()
    {
        Hp = 3,
        Hungry = 4,
    };
    Other c = new Other { Hungry = 5 };
    bool Full(float Hungry) { return Hungry == 1; }
}
""",
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _code_lines(ws, "PlayerCoreData.Hungry") == [("Assets/Archive.cs", 3), ("Assets/Archive.cs", 7)]


def test_a_script_whose_assembly_cannot_see_the_type_is_no_usage(tmp_path: Path) -> None:
    """`refs EnemyHealth.TakeDamage` listed `player.TakeDamage(...)` of a Zenject sample compiled into
    Zenject's asmdef, which cannot reference Assembly-CSharp; firstpass (Plugins) cannot either,
    an Editor script can."""
    call = "    void Hit(object o) {{ var player = {}; player.TakeDamage(1); }}\n"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scripts/EnemyHealth.cs": "using UnityEngine;\npublic class EnemyHealth : MonoBehaviour\n{\n"
            "    public void TakeDamage(int n) { }\n}\n",
            "Assets/Scripts/Bullet.cs": "public class Bullet\n{\n" + call.format("new EnemyHealth()") + "}\n",
            "Assets/Plugins/Zenject/Zenject.asmdef": '{ "name": "Zenject" }\n',
            "Assets/Plugins/Zenject/Sample/Bullet2.cs": "public class Bullet2\n{\n"
            + call.format("(EnemyHealth)o")
            + "}\n",
            "Assets/Plugins/Old/Bullet3.cs": "public class Bullet3\n{\n" + call.format("(EnemyHealth)o") + "}\n",
            "Assets/Editor/Tool.cs": "public class Tool\n{\n" + call.format("(EnemyHealth)o") + "}\n",
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _code_lines(ws, "EnemyHealth.TakeDamage") == [("Assets/Editor/Tool.cs", 3), ("Assets/Scripts/Bullet.cs", 3)]


def test_an_emptied_override_is_said_empty_and_a_stale_one_unused(tmp_path: Path) -> None:
    """`describe` of a level printed `_startPoint: ; m_Name: Player`: an override set to None read as
    a value cut off, and it was of a field the script no longer has, which nothing said."""
    from indexer.query.describe import describe

    from .test_trials_session34 import _behaviour, _header, _instance, _object

    mover, player = "c9" * 16, "ca" * 16
    fields = "  speed: 2\n  target: {fileID: 0}\n"
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Mover.cs": "using UnityEngine;\npublic class Mover : MonoBehaviour\n{\n"
            "    public float speed;\n    public Transform target;\n}\n",
            "Assets/Mover.cs.meta": meta(mover),
            "Assets/Player.prefab": _header() + _object(100, "Player", [110]) + _behaviour(110, 100, mover, fields),
            "Assets/Player.prefab.meta": meta(player, "PrefabImporter"),
            "Assets/Level.unity": _header()
            + _instance(
                500,
                player,
                [
                    (110, "speed", "3", "{fileID: 0}"),
                    (110, "target", "", "{fileID: 0}"),
                    (110, "_startPoint", "", "{fileID: 0}"),
                ],
            ),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    text = describe(ws.projects[0].graph, "Assets/Level.unity").text
    assert "overrides: speed: 3; target: (empty); _startPoint: (empty) (unused: no such field in the script)" in text


def test_a_value_of_a_field_unity_does_not_serialize_is_said_unused(tmp_path: Path) -> None:
    """`refs Health.healthPoints` printed `Enemy sets healthPoints: 40` of a private
    `LazyValue<float> healthPoints` Unity never reads (health came from a progression table); a
    pack showed it as the enemy's health."""
    from indexer.query.describe import describe

    from .test_trials_session34 import _behaviour, _header, _instance, _object

    health, enemy = "cb" * 16, "cc" * 16
    fields = "  healthPoints: 100\n  armor: 2\n  level: 3\n"
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Health.cs": "using UnityEngine;\npublic class Health : MonoBehaviour\n{\n"
            "    LazyValue<float> healthPoints;\n    public float armor;\n    [SerializeField] private int level;\n"
            "    public static int count;\n}\npublic class LazyValue<T> { }\n",
            "Assets/Health.cs.meta": meta(health),
            "Assets/Enemy.prefab": _header() + _object(100, "Enemy", [110]) + _behaviour(110, 100, health, fields),
            "Assets/Enemy.prefab.meta": meta(enemy, "PrefabImporter"),
            "Assets/Level.unity": _header()
            + _instance(500, enemy, [(110, "healthPoints", "40", "{fileID: 0}"), (110, "armor", "5", "{fileID: 0}")]),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    graph = ws.projects[0].graph
    assert (
        "Health: healthPoints: 100 (unused: not serialized); armor: 2; level: 3"
        in describe(graph, "Assets/Enemy.prefab").text
    )
    assert (
        # an override Unity ignores after those it applies, since session 40
        "overrides: armor: 5; healthPoints: 40 (unused: not serialized)" in describe(graph, "Assets/Level.unity").text
    )
    _target, usages = find_references(ws, "Health.healthPoints")
    assert [u.detail for u in usages if u.where == "asset"] == [
        "Enemy > Health.healthPoints: 100 (unused: not serialized)",
        "Enemy sets healthPoints: 40 (unused: not serialized) (via Assets/Enemy.prefab)",
    ]


def test_a_script_named_otherwise_than_its_class_is_bound_to_it(tmp_path: Path) -> None:
    """`refs ResourceDisplay` (in `RessourceDisplay.cs`) and `refs NPCConversant` (in
    `npcConversant.cs`) found no object carrying them: Unity 6 binds such a file's class all the
    same (its one class, or the one named like it but for case)."""
    from .test_trials_session34 import _behaviour, _header, _object

    display, npc, two = "cd" * 16, "ce" * 16, "cf" * 16
    root = write_project(
        tmp_path / "p",
        {
            "Assets/RessourceDisplay.cs": "using UnityEngine;\npublic class ResourceDisplay : MonoBehaviour { }\n",
            "Assets/RessourceDisplay.cs.meta": meta(display),
            "Assets/npcConversant.cs": "using UnityEngine;\npublic class NPCConversant : MonoBehaviour { }\n"
            "public class Line { }\n",
            "Assets/npcConversant.cs.meta": meta(npc),
            "Assets/Helpers.cs": "using UnityEngine;\npublic class A : MonoBehaviour { }\npublic class B : A { }\n",
            "Assets/Helpers.cs.meta": meta(two),
            "Assets/Ui.unity": _header()
            + _object(100, "Wood", [110])
            + _behaviour(110, 100, display)
            + _object(200, "Guard", [210])
            + _behaviour(210, 200, npc)
            + _object(300, "Both", [310])
            + _behaviour(310, 300, two),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    for name, line in (("ResourceDisplay", 23), ("NPCConversant", 46)):  # their `m_Script` lines
        _target, usages = find_references(ws, name)
        assert [(u.path, u.line, u.kind) for u in usages if u.where == "asset"] == [("Assets/Ui.unity", line, "script")]
    _target, usages = find_references(ws, "A")  # two classes, neither named like the file: Unity binds none
    assert [u for u in usages if u.where == "asset"] == []


def test_an_assignment_in_a_block_comment_is_not_said_to_set_a_value_at_start(tmp_path: Path) -> None:
    """A pack said `InitScript.Awake sets it when the component starts: ...:231 enableUnityAds =
    true;` of a line inside `/* ... */`: Awake never sets it."""
    from indexer.query.serialized import pack_values

    from .test_trials_session34 import _behaviour, _header, _object

    init = "d1" * 16
    code = (
        "using UnityEngine;\n\npublic class InitScript : MonoBehaviour\n{\n    public bool enableUnityAds;\n"
        "    void Awake()\n    {\n        /*\n        enableUnityAds = true;\n        */\n    }\n}\n"
    )
    root = write_project(
        tmp_path / "p",
        {
            "Assets/InitScript.cs": code,
            "Assets/InitScript.cs.meta": meta(init),
            "Assets/Game.unity": _header()
            + _object(100, "Init", [110])
            + _behaviour(110, 100, init, "  enableUnityAds: 1\n"),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    project, local = ws.owner("Assets/InitScript.cs")
    assert pack_values(project, local, {"enabl", "unity", "ad"}) == [
        "values set in assets (the game runs with these, not the defaults in code):",
        "  Assets/Game.unity:26  Init > InitScript.enableUnityAds: 1",
    ]


def test_defines_under_no_build_target_are_not_said_to_apply_everywhere(tmp_path: Path) -> None:
    """Every pack's tier 1 said `Scripting defines: FACEBOOK, GAMESPARKS, UNITY_INAPPS, ...` of
    defines under an empty platform key, which no build compiles (code needing them did not
    compile), beside the active `iPhone: GOOGLE_MOBILE_ADS`."""
    from indexer.query.context import build_context
    from indexer.query.tokens import counter

    settings = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!129 &1\nPlayerSettings:\n  productName: Match\n"
        "  scriptingDefineSymbols:\n    : FACEBOOK;GAMESPARKS\n    iPhone: GOOGLE_MOBILE_ADS\n"
    )
    root = write_project(
        tmp_path / "p",
        {"ProjectSettings/ProjectSettings.asset": settings, "Assets/Game.cs": "public class Game { }\n"},
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    tier1 = build_context(ws, "game", 4000, counter()).tier1.text
    none = "(no build target: applies to none)"
    assert f"Scripting defines: FACEBOOK {none}, GAMESPARKS {none}, GOOGLE_MOBILE_ADS (iPhone)" in tier1


def test_references_said_as_describe_says_them(tmp_path: Path) -> None:
    """`refs AdEvents.gameEvent` printed `gameEvent: {fileID: 0}` (describe: None); `describe`
    listed a font asset a checkout lacks (only its .meta) as any other reference; a variant's
    base was said to be "placed in" the variant."""
    from indexer.query.describe import describe

    from .test_trials_session34 import _behaviour, _header, _instance, _object

    init, font, turret = "d2" * 16, "d3" * 16, "d4" * 16
    events = "  adsEvents:\n  - gameEvent: {fileID: 0}\n    everyLevel: 4\n"
    font_field = f"  font: {{fileID: 11400000, guid: {font}, type: 2}}\n"
    variant = _header() + _instance(500, turret, [(100, "m_Name", "Elite Turret", "{fileID: 0}")])
    variant = variant.replace("  m_SourcePrefab:", "  m_TransformParent: {fileID: 0}\n  m_SourcePrefab:")
    root = write_project(
        tmp_path / "p",
        {
            "Assets/InitScript.cs": "using UnityEngine;\npublic class InitScript : MonoBehaviour\n{\n"
            "    public AdEvents[] adsEvents;\n    public Object font;\n}\n"
            "[System.Serializable]\npublic class AdEvents\n{\n    public Object gameEvent;\n"
            "    public int everyLevel;\n}\n",
            "Assets/InitScript.cs.meta": meta(init),
            "Assets/Fonts/Lilita SDF.asset.meta": meta(font, "NativeFormatImporter"),
            "Assets/Game.unity": _header()
            + _object(100, "Init", [110])
            + _behaviour(110, 100, init, events + font_field),
            "Assets/Turret.prefab": _header() + _object(100, "Turret", []),
            "Assets/Turret.prefab.meta": meta(turret, "PrefabImporter"),
            "Assets/Elite Turret Variant.prefab": variant,
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    _target, usages = find_references(ws, "AdEvents.gameEvent")
    assert [u.detail for u in usages if u.where == "asset"] == ["Init > InitScript.adsEvents[0].gameEvent: None"]
    text = describe(ws.projects[0].graph, "Assets/Game.unity").text
    assert "  Assets/Fonts/Lilita SDF.asset (missing: only its .meta is left) (font)" in text.split("\n")
    hits = {h.path: h.reason for h in ws.search("elite turret", 5)}
    assert hits["Assets/Turret.prefab"] == "text match; base prefab of the variant Assets/Elite Turret Variant.prefab"


def test_an_override_of_a_component_the_prefab_no_longer_holds_is_unused_and_no_other_script_s(tmp_path: Path) -> None:
    """`refs PlayerDashState.DashSpeed` listed `Player sets DashSpeed: 1`, an override of the old
    `Player` component removed since (Unity ignores it); `describe` said it was `(in a nested
    prefab)`, the player nesting a hands prefab. An override of another script's field of that
    name on the prefab is that script's."""
    from indexer.query.describe import describe

    from .test_trials_session34 import _behaviour, _header, _instance, _object

    dash, other, player, hands = "d5" * 16, "d6" * 16, "d7" * 16, "d8" * 16
    nested = _instance(500, hands, []).replace("m_TransformParent: {fileID: 0}", "m_TransformParent: {fileID: 101}")
    body = _object(100, "Player", [110, 120]) + _behaviour(110, 100, dash, "  DashSpeed: 23\n")
    body += _behaviour(120, 100, other, "  DashSpeed: 4\n") + nested
    overrides = [
        (110, "DashSpeed", "30"),
        (120, "DashSpeed", "5"),
        (847, "DashSpeed", "1"),
        (500 ^ 200, "m_IsActive", "0"),
    ]
    root = write_project(
        tmp_path / "p",
        {
            "Assets/PlayerDashState.cs": "using UnityEngine;\npublic class PlayerDashState : MonoBehaviour\n{\n"
            "    public float DashSpeed;\n}\n",
            "Assets/PlayerDashState.cs.meta": meta(dash),
            "Assets/Glider.cs": "using UnityEngine;\npublic class Glider : MonoBehaviour { public float DashSpeed; }\n",
            "Assets/Glider.cs.meta": meta(other),
            "Assets/Hands.prefab": _header() + _object(200, "Hands", []),
            "Assets/Hands.prefab.meta": meta(hands, "PrefabImporter"),
            "Assets/Player.prefab": _header() + body,
            "Assets/Player.prefab.meta": meta(player, "PrefabImporter"),
            "Assets/Level.unity": _header()
            + _instance(900, player, [(t, p, v, "{fileID: 0}") for t, p, v in overrides]),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    _target, usages = find_references(ws, "PlayerDashState.DashSpeed")
    assert sorted(u.detail for u in usages if u.where == "asset") == [
        "Player > PlayerDashState.DashSpeed: 23",
        "Player sets DashSpeed: 30 (via Assets/Player.prefab)",
    ]
    text = describe(ws.projects[0].graph, "Assets/Level.unity").text
    assert "DashSpeed: 1 (unused: no such object in the prefab)" in text
    assert "m_IsActive: 0 (in a nested prefab)" in text


def test_a_numbered_asset_loaded_by_its_name_before_the_number_has_those_loads(tmp_path: Path) -> None:
    """`refs Assets/Resources/Targets/Level5.asset` said no usages (and `describe` no user) though
    four scripts load `Resources.Load<TargetLevel>("Targets/Level" + currentLevel)`."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Resources/Targets/Level5.asset": "%YAML 1.1\n--- !u!114 &1\nMonoBehaviour:\n  m_Name: Level5\n",
            "Assets/Resources/Targets/Bonus.asset": "%YAML 1.1\n--- !u!114 &1\nMonoBehaviour:\n  m_Name: Bonus\n",
            "Assets/GameManager.cs": "using UnityEngine;\npublic class GameManager : MonoBehaviour\n{\n"
            "    int currentLevel;\n    void Load()\n    {\n"
            '        var tar = Resources.Load<ScriptableObject>("Targets/Level" + currentLevel);\n'
            '        var map = Resources.Load<ScriptableObject>($"Targets/Level{currentLevel}");\n    }\n}\n',
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    _target, usages = find_references(ws, "Assets/Resources/Targets/Level5.asset")
    assert [(u.path, u.line, u.context) for u in usages] == [
        ("Assets/GameManager.cs", 7, "path prefix"),
        ("Assets/GameManager.cs", 8, "path prefix"),
    ]
    _target, usages = find_references(ws, "Assets/Resources/Targets/Bonus.asset")
    assert usages == []


def test_an_event_trigger_s_calls_are_said_by_their_event(tmp_path: Path) -> None:
    """`describe MainMenuSystem.prefab` printed two identical `Confirm > EventTrigger.callback(...)
    -> AudioSource.PlayOneShot` lines, one on hover (eventID 0) and one on select (9)."""
    from indexer.query.describe import describe

    from .test_trials_session34 import _behaviour, _header, _object

    trigger, sfx = "d0b148fe25e99eb48b9724523833bab1", "d9" * 16  # com.unity.ugui's EventTrigger
    entries = "".join(
        f"  - eventID: {event}\n    callback:\n      m_PersistentCalls:\n        m_Calls:\n"
        "        - m_Target: {fileID: 210}\n          m_TargetAssemblyTypeName: Sfx, Assembly-CSharp\n"
        "          m_MethodName: Play\n          m_Mode: 1\n          m_CallState: 2\n"
        for event in (0, 9)
    )
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Sfx.cs": "using UnityEngine;\npublic class Sfx : MonoBehaviour { public void Play() { } }\n",
            "Assets/Sfx.cs.meta": meta(sfx),
            "Assets/Menu.prefab": _header()
            + _object(100, "Confirm", [110])
            + _behaviour(110, 100, trigger, "  m_Delegates:\n" + entries)
            + _object(200, "Audio", [210])
            + _behaviour(210, 200, sfx),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    text = describe(ws.projects[0].graph, "Assets/Menu.prefab").text
    assert "Confirm > EventTrigger.PointerEnter(void) on Audio -> Sfx.Play" in text
    assert "Confirm > EventTrigger.Select(void) on Audio -> Sfx.Play" in text
    _target, usages = find_references(ws, "Sfx.Play")
    assert [u.detail for u in usages if u.where == "asset"] == [
        "Confirm > EventTrigger.PointerEnter(void) on Audio",
        "Confirm > EventTrigger.Select(void) on Audio",
    ]


def test_a_path_typed_in_the_other_unicode_normal_form_names_its_file(tmp_path: Path) -> None:
    """`describe Entrepôt.asset` typed decomposed (NFD, as macOS writes names) answered "is not an
    indexed file; did you mean .../Entrepôt.asset?", a suggestion looking the same as the input."""
    import unicodedata

    from .test_paths import describe as cli_describe

    name = unicodedata.normalize("NFC", "Entrepôt.asset")
    root = write_project(tmp_path / "P", {f"Assets/Buildings/{name}": "%YAML 1.1\n--- !u!114 &1\nMonoBehaviour:\n"})
    update(root, Config(workers=1))
    for typed in (unicodedata.normalize("NFD", name), f"Assets/Buildings/{unicodedata.normalize('NFD', name)}"):
        code, path, err = cli_describe(root, typed, root)
        assert (code, path, err) == (0, f"Assets/Buildings/{name}", ""), typed


def test_hunger_and_thirst_meet_code_saying_hungry_and_thirsty() -> None:
    """`query "hunger"` printed "no results" on a survival game whose code says `Hungry`
    (`HungryReducingSpeed`): the stemmer keeps "hunger" and "hungri" apart."""
    from indexer.query.synonyms import synonym_words

    assert "hungry" in synonym_words(["hunger"])
    assert "thirsty" in synonym_words(["thirst"])


def test_a_member_nested_two_classes_deep_in_a_data_asset_has_its_values(tmp_path: Path) -> None:
    """`refs ResourceAmount.amount` and `refs ResourceType.Iron` said no usages: every building's
    `cost:` then `resourceCosts:` then `- type: 13` / `amount: 20` sets them, two [Serializable]
    classes below the script's field (one, `BuildingCost`, in a file of its own name)."""
    from .test_trials_session34 import _behaviour, _header, _object

    data = "da" * 16
    cost = "  cost:\n    resourceCosts:\n    - type: 0\n      amount: 20\n    - type: 13\n      amount: 5\n"
    root = write_project(
        tmp_path / "p",
        {
            "Assets/BuildingData.cs": "using UnityEngine;\npublic class BuildingData : ScriptableObject\n{\n"
            "    public BuildingCost cost;\n}\n",
            "Assets/BuildingData.cs.meta": meta(data),
            "Assets/BuildingCost.cs": "using System.Collections.Generic;\n[System.Serializable]\n"
            "public class BuildingCost\n{\n    public List<ResourceAmount> resourceCosts;\n}\n",
            "Assets/RessourceAmount.cs": "[System.Serializable]\npublic class ResourceAmount\n{\n"
            "    public ResourceType type;\n    public int amount;\n}\npublic enum ResourceType { Wood, Iron = 13 }\n",
            "Assets/Forge.asset": _header() + _object(100, "Forge", [110]) + _behaviour(110, 100, data, cost),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    _target, usages = find_references(ws, "ResourceAmount.amount")
    assert [(u.line, u.detail) for u in usages if u.where == "asset"] == [
        (29, "Forge > BuildingData.cost.resourceCosts[0].amount: 20"),
        (31, "Forge > BuildingData.cost.resourceCosts[1].amount: 5"),
    ]
    _target, usages = find_references(ws, "ResourceType.Iron")
    assert [(u.line, u.detail) for u in usages if u.where == "asset"] == [
        (30, "Forge > BuildingData.cost.resourceCosts[1].type: 13 (Iron)")
    ]


def test_a_unityevent_s_invoke_is_not_a_project_class_s(tmp_path: Path) -> None:
    """`refs MatchSoftReset.Invoke` listed `onBallThrow.Invoke();` of a `UnityEvent onBallThrow`."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/MatchSoftReset.cs": "public class MatchSoftReset\n{\n    public void Invoke() { }\n}\n",
            "Assets/Thrower.cs": "using UnityEngine.Events;\npublic class Thrower\n{\n"
            "    public UnityEvent onBallThrow;\n    public MatchSoftReset reset;\n"
            "    void Throw()\n    {\n        onBallThrow.Invoke();\n"
            "        reset.Invoke();\n    }\n}\n",
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _code_lines(ws, "MatchSoftReset.Invoke") == [("Assets/Thrower.cs", 9)]


def test_a_class_from_outside_the_project_is_no_package_s_unless_it_is_installed(tmp_path: Path) -> None:
    """`refs NetworkBehaviour` answered Netcode's component, a package the project does not
    install (its `Ivyyy.Network.NetworkBehaviour` lives in a submodule not checked out), and
    found nothing; `refs GameEvent` said only "no type ... of that name"."""
    from indexer.query.lookup import unknown_target_hint

    ball = "using Ivyyy.Network;\npublic class Ball : NetworkBehaviour\n{\n    public GameEvent onGoal;\n}\n"
    ugui = '{"dependencies": {"com.unity.ugui": "1.0.0"}}\n'
    root = write_project(tmp_path / "P", {"Assets/Ball.cs": ball, "Packages/manifest.json": ugui})
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert ws.projects[0].graph.target("NetworkBehaviour").kind == "unknown"
    assert unknown_target_hint(ws, "GameEvent") == (
        "; scripts name it as a type (Assets/Ball.cs) but nothing here declares it",
        [],
    )
    manifest = '{"dependencies": {"com.unity.netcode.gameobjects": "1.7.1"}}\n'
    (root / "Packages").mkdir(exist_ok=True)
    (root / "Packages/manifest.json").write_text(manifest)
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert ws.projects[0].graph.target("NetworkBehaviour").kind == "package_script"


def test_a_guid_written_as_a_node_s_id_is_no_missing_asset(tmp_path: Path) -> None:
    """`describe Voidmask.asset` listed 69 `guid:2e6e… (not in project) (data)` lines: a behaviour
    tree's nodes, in a [SerializeReference] list, each hold their own ID as `guid: <32 hex>`. A
    reference naming a GUID no file has is still said missing."""
    from indexer.query.describe import describe

    from .test_trials_session34 import _behaviour, _header, _object

    tree = "db" * 16
    nodes = (
        "  references:\n    version: 2\n    RefIds:\n    - rid: 611\n      type: {class: Switch, ns: AI, asm: Game}\n"
        "      data:\n        guid: 2e6e3be1f7c4d65488f4b079c2c694a2\n        position: {x: 0, y: 100}\n"
        "  sound: {fileID: 8300000, guid: 0123456789abcdef0123456789abcdef, type: 3}\n"
    )
    root = write_project(
        tmp_path / "p",
        {
            "Assets/BehaviourTree.cs": "using UnityEngine;\npublic class BehaviourTree : ScriptableObject\n{\n"
            "    public AudioClip sound;\n}\n",
            "Assets/BehaviourTree.cs.meta": meta(tree),
            "Assets/Voidmask.asset": _header() + _object(100, "Voidmask", [110]) + _behaviour(110, 100, tree, nodes),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    text = describe(ws.projects[0].graph, "Assets/Voidmask.asset").text
    assert "2e6e3be1f7c4d65488f4b079c2c694a2" not in text.split("references:")[1]
    assert "  guid:0123456789abcdef0123456789abcdef (not in project) (sound)" in text.split("\n")


def test_a_class_named_as_the_method_is_no_call_of_it(tmp_path: Path) -> None:
    """`refs SaveManager.SaveGame` listed 7 lines using the class `SaveGame` (`private SaveGame
    _activeSave;`, `new SaveGame()`, `List<SaveGame>`, a parameter) beside the 13 calls."""
    manager = """using System.Collections.Generic;
public class SaveManager
{
    private SaveGame _activeSave;
    private List<SaveGame> _saves = new List<SaveGame>();
    void Start() { _activeSave = new SaveGame(); }
    public void SaveGame() { }
    void Load(SaveGame save) { if (save is SaveGame) SaveGame(); }
}
public class SaveGame { }
"""
    caller = "public class Door\n{\n    SaveManager saves;\n    void Open() { saves.SaveGame(); }\n}\n"
    root = write_project(tmp_path / "P", {"Assets/SaveManager.cs": manager, "Assets/Door.cs": caller})
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _code_lines(ws, "SaveManager.SaveGame") == [("Assets/Door.cs", 4), ("Assets/SaveManager.cs", 8)]


def test_a_word_of_four_letters_is_not_cut_to_a_part_of_other_words() -> None:
    """`context "the ball does not come back"` said `matched: come` of nearly every file: "come"
    was cut to `com`, which matches inside `GetComponent`; "plays" still meets `Player`'s `play`."""
    from indexer.identifiers import stem, stem_pattern

    assert [stem(w) for w in ("come", "comes", "coming", "make", "making", "hides", "damage")] == [
        "come", "come", "come", "make", "make", "hide", "damag",
    ]  # fmt: skip
    pattern = stem_pattern(frozenset({stem("comes")}))
    assert pattern is not None and pattern.search("var body = getcomponent<rigidbody>();") is None
    assert pattern.search("if (ballcomesback) return;") is not None


def test_a_scene_reached_as_placing_a_prefab_points_at_that_prefab_s_instance(tmp_path: Path) -> None:
    """`query "jump"` showed `Level 24.unity ... Jump Ring Blue (3)` beside "why: the scene places an
    instance of .../Jump Ring Red.prefab": the object named was another prefab's instance."""
    from .test_trials_session34 import _header, _instance, _object

    red, blue = "dc" * 16, "dd" * 16
    scene = (
        _header()
        + _instance(500, blue, [(100, "m_Name", "Jump Ring Blue (3)", "{fileID: 0}")])
        + _instance(600, red, [(100, "m_Name", "Jump Ring Red", "{fileID: 0}")])
    )
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Jump Ring Red.prefab": _header() + _object(100, "Jump Ring Red", []),
            "Assets/Jump Ring Red.prefab.meta": meta(red, "PrefabImporter"),
            "Assets/Jump Ring Blue.prefab": _header() + _object(100, "Jump Ring Blue", []),
            "Assets/Jump Ring Blue.prefab.meta": meta(blue, "PrefabImporter"),
            "Assets/Level 24.unity": scene,
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    hit = next(h for h in ws.search("jump ring red", 5) if h.path == "Assets/Level 24.unity")
    assert hit.reason == "text match; the scene places an instance of Assets/Jump Ring Red.prefab"
    assert (hit.name, hit.snippet) == ("Jump Ring Red", "prefab instance of Assets/Jump Ring Red.prefab")


def test_a_kind_is_read_in_its_plural_and_common_names() -> None:
    """`query locker --kind prefabs` listed every kind instead of searching the prefabs."""
    from indexer.kinds import kind_named

    named = {w: kind_named(w) for w in ("prefabs", "Prefab", "scenes", "scripts", "cs", "materials", "shaders", "x")}
    assert named == {
        "prefabs": "prefab", "Prefab": "prefab", "scenes": "scene", "scripts": "csharp", "cs": "csharp",
        "materials": "material", "shaders": "shader", "x": None,
    }  # fmt: skip


def test_an_object_variable_may_hold_a_project_class_whose_override_it_calls(tmp_path: Path) -> None:
    """receivers.foreign_types leaves out `object`: `object o; o.ToString()` may run `Item.ToString`
    (an override of object's), where a `List<Item>`'s `Count` is never `Item.Count`."""
    item = 'public class Item\n{\n    public int Count;\n    public override string ToString() => "item";\n}\n'
    shop = (
        "using System.Collections.Generic;\npublic class Shop\n{\n    object o;\n    List<Item> items;\n"
        "    void Show()\n    {\n        var s = o.ToString();\n        var n = items.Count;\n    }\n}\n"
    )
    root = write_project(tmp_path / "P", {"Assets/Item.cs": item, "Assets/Shop.cs": shop})
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _code_lines(ws, "Item.ToString") == [("Assets/Shop.cs", 8)]
    assert _code_lines(ws, "Item.Count") == []


def test_a_member_named_as_a_class_compared_or_passed_is_still_a_usage(tmp_path: Path) -> None:
    """`_type_use` leaves out `SaveGame save;` and `<int, SaveGame>`, not `Health > 0` nor
    `Apply(1, Health)`, where the name is the member's."""
    code = """using System.Collections.Generic;
public class Player
{
    public int Health;
    Dictionary<int, Health> byId;
    void Tick()
    {
        if (Health > 0) Apply(1, Health);
    }
    void Apply(int a, int b) { }
}
public class Health { }
"""
    root = write_project(tmp_path / "P", {"Assets/Player.cs": code})
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _code_lines(ws, "Player.Health") == [("Assets/Player.cs", 8)]


def test_a_receiver_declared_as_a_property_is_of_its_type(tmp_path: Path) -> None:
    """`refs PlayerController.IsActive` listed `PlayRule.IsActive = true;`, `PlayRule` a property
    `public BasePlayRule PlayRule { get; private set; }` of the same file."""
    code = """public class PlayGround
{
    public BasePlayRule PlayRule { get; private set; }
    public PlayerController Player => null;
    void Start()
    {
        PlayRule.IsActive = true;
        Player.IsActive = true;
    }
}
public class BasePlayRule { public bool IsActive; }
public class PlayerController { public bool IsActive; }
"""
    root = write_project(tmp_path / "P", {"Assets/PlayGround.cs": code})
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _code_lines(ws, "PlayerController.IsActive") == [("Assets/PlayGround.cs", 8)]


def test_the_review_s_promises_kept(tmp_path: Path) -> None:
    """references._held: a folder a field names is said as its path, not as missing;
    override_targets.every_id: a prefab nesting one the project lacks claims no override unused;
    package_classes.package_named: a package's component an asset uses is that package's though
    the manifest does not list the package."""
    from indexer.query.describe import describe
    from indexer.query.package_classes import NEWEST

    from .test_trials_session34 import _behaviour, _header, _instance, _object

    holder, room, lost, folder = "e1" * 16, "e2" * 16, "e3" * 16, "e4" * 16
    button = next(g for g, (name, _) in NEWEST.items() if name == "UnityEngine.UI.Button")
    nested = _instance(500, lost, []).replace("m_TransformParent: {fileID: 0}", "m_TransformParent: {fileID: 101}")
    fields = f"  levels: {{fileID: 102900000, guid: {folder}, type: 3}}\n"
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Holder.cs": "using UnityEngine;\npublic class Holder : MonoBehaviour { public Object levels; }\n",
            "Assets/Holder.cs.meta": meta(holder),
            "Assets/Levels.meta": f"fileFormatVersion: 2\nguid: {folder}\nfolderAsset: yes\n",
            "Assets/Levels/One.txt": "one\n",
            "Assets/Room.prefab": _header()
            + _object(100, "Room", [110])
            + _behaviour(110, 100, holder, fields)
            + nested,
            "Assets/Room.prefab.meta": meta(room, "PrefabImporter"),
            "Assets/Level.unity": _header() + _instance(900, room, [(4242, "m_IsActive", "0", "{fileID: 0}")]),
            "Assets/Menu.prefab": _header() + _object(300, "Play", [310]) + _behaviour(310, 300, button),
            "Packages/manifest.json": '{"dependencies": {"com.unity.timeline": "1.7.6"}}\n',
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    graph = ws.projects[0].graph
    assert "  Assets/Levels (levels)" in describe(graph, "Assets/Room.prefab").text.split("\n")
    assert "overrides: m_IsActive: 0 (in a nested prefab)\n" in describe(graph, "Assets/Level.unity").text + "\n"
    assert graph.target("Button").kind == "package_script"


def test_a_member_three_serializable_classes_below_a_script_s_field_has_its_values(tmp_path: Path) -> None:
    """nested_values: NESTING = 3, `stats[2].levels[0].value` of a progression's class."""
    from .test_trials_session34 import _behaviour, _header, _object

    data = "e5" * 16
    yaml = "  classes:\n  - stats:\n    - levels:\n      - value: 60\n      - value: 75\n"
    code = (
        "using System.Collections.Generic;\nusing UnityEngine;\n"
        "public class Progression : ScriptableObject { public List<ClassEntry> classes; }\n"
        "[System.Serializable] public class ClassEntry { public List<StatEntry> stats; }\n"
        "[System.Serializable] public class StatEntry { public List<Level> levels; }\n"
        "[System.Serializable] public class Level { public int value; }\n"
    )
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Progression.cs": code,
            "Assets/Progression.cs.meta": meta(data),
            "Assets/Progression.asset": _header()
            + _object(100, "Progression", [110])
            + _behaviour(110, 100, data, yaml),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    _target, usages = find_references(ws, "Level.value")
    assert [u.detail for u in usages if u.where == "asset"] == [
        "Progression > Progression.classes[0].stats[0].levels[0].value: 60",
        "Progression > Progression.classes[0].stats[0].levels[1].value: 75",
    ]
