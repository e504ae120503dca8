"""Defects a review of session 36's changes found (docs/retrieval.md, "session 37"), each a test
seen failing before its fix."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.lookup import find_references
from indexer.query.workspace import open_workspace, projects_at

from .conftest import meta, write_project
from .test_trials_session32 import _workspace
from .test_unity_event_targets import _behaviour, _header, _object

LEVEL = "5" * 32


def _code_lines(ws, target: str) -> list[tuple[str, int]]:
    """Where code uses `target`, as `refs` lists it: (path, line) in order."""
    _target, usages = find_references(ws, target)
    return [(u.path, u.line) for u in usages if u.where == "code"]


def test_a_member_of_another_object_set_to_a_name_holds_no_name(tmp_path: Path) -> None:
    """`enemy.name = "Damage"` made `name` a holder of "Damage": every `SendMessage(name, …)` of
    the file was listed as a call of `Health.Damage`. A constant holding it still is."""
    combat = (
        "using UnityEngine;\npublic class Combat : MonoBehaviour\n{\n    public GameObject enemy;\n"
        '    const string HIT = "Damage";\n    void Hit()\n    {\n        enemy.name = "Damage";\n'
        "        SendMessage(name, 1);\n        SendMessage(HIT, 2);\n    }\n}\n"
    )
    health = "public class Health : UnityEngine.MonoBehaviour { public void Damage(int amount) { } }\n"
    root = write_project(tmp_path / "P", {"Assets/Combat.cs": combat, "Assets/Health.cs": health})
    assert _code_lines(_workspace(root), "Health.Damage") == [("Assets/Combat.cs", 10)]


def test_a_guid_an_item_s_key_holds_is_used_under_that_key(tmp_path: Path) -> None:
    """`- id: 2ec3…` (a list of items, each naming one by GUID) was said to be under the key `- id`,
    where the YAML parser reads `id`."""
    from tests import yaml_differential

    sword, item_script = "2ec392eda0786f649a77c41913f25ea0", "ab" * 16
    loot = f"  loot:\n  - id: {sword}\n    count: 2\n  other: {{fileID: 1, guid: {'cd' * 16}, type: 2}}\n"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Item.cs": "public class Item : UnityEngine.ScriptableObject { public string id; }\n",
            "Assets/Item.cs.meta": meta(item_script),
            "Assets/Items/Sword.asset": _header() + _behaviour(11400000, 0, item_script, "  id: x\n"),
            "Assets/Items/Sword.asset.meta": meta(sword, "NativeFormatImporter"),
            "Assets/Chest.asset": _header() + _behaviour(11400000, 0, item_script, loot),
        },
    )
    _target, usages = find_references(_workspace(root), "Assets/Items/Sword.asset")
    assert [(u.path, u.line, u.context) for u in usages if u.kind == "guid"] == [("Assets/Chest.asset", 12, "id")]
    result = yaml_differential.run([root], show=3)
    assert (result.compared, result.differing) == (result.documents, 0), yaml_differential.report(result)


def test_a_list_whose_every_slot_is_empty_says_so_alone(tmp_path: Path) -> None:
    """Five empty slots of five read `[5 items, all empty, …]`: no slot was left unsaid."""
    from indexer.query.describe import describe

    def field(name: str, slots: list[int]) -> str:
        return f"  {name}:\n" + "".join(f"  - {{fileID: {s}}}\n" for s in slots)

    rest = field("waves", [0] * 5) + field("spawns", [0, 0, 0, 0, 0, 100])
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Level.cs": "using UnityEngine;\npublic class Level : MonoBehaviour\n{\n"
            "    public GameObject[] waves;\n    public GameObject[] spawns;\n}\n",
            "Assets/Level.cs.meta": meta(LEVEL),
            "Assets/Game.unity": _header() + _object(100, "Level", [110]) + _behaviour(110, 100, LEVEL, rest),
        },
    )
    text = describe(_workspace(root).projects[0].graph, "Assets/Game.unity").text
    assert "waves: [5 items, all empty]" in text
    assert "spawns: [6 items, empty at 0, 1, 2, 3, …]" in text


def test_an_element_of_a_collection_of_collections_is_read_to_its_type(tmp_path: Path) -> None:
    """`byZone["a"]` of a `Dictionary<string, Dictionary<int, Station>>` was read as of type
    `Station>`, which names no class: its `Clear()` was listed as a call of `StationManager.Clear`."""
    code = (
        "using System.Collections.Generic;\npublic class Station { }\npublic class StationManager\n{\n"
        "    Dictionary<string, Dictionary<int, Station>> byZone;\n    public void Clear() { }\n"
        '    void Reset()\n    {\n        Clear();\n        byZone["a"].Clear();\n    }\n}\n'
    )
    ws = _workspace(write_project(tmp_path / "P", {"Assets/Station.cs": code}))
    assert _code_lines(ws, "StationManager.Clear") == [("Assets/Station.cs", 9)]


def test_same_named_types_of_a_workspace_project_are_offered_by_their_workspace_paths(tmp_path: Path) -> None:
    """In a repository of two projects, `refs Menu` offered `Assets/Fungus/Menu.cs`, a path `refs`
    then said was in none of the projects: the project's folder was left off."""
    write_project(tmp_path / "Repo" / "Game", {"Assets/Fungus/Menu.cs": "namespace Fungus { public class Menu { } }\n"})
    game = tmp_path / "Repo" / "Game"
    (game / "Assets" / "Menus").mkdir()
    (game / "Assets" / "Menus" / "Menu.cs").write_text("public class Menu { }\n")
    write_project(tmp_path / "Repo" / "Tools", {"Assets/Tool.cs": "public class Tool { }\n"})
    for root, _config in projects_at(tmp_path / "Repo"):
        update(root, Config(workers=1))
    ws = open_workspace(tmp_path / "Repo", projects_at(tmp_path / "Repo"))
    target, _usages = find_references(ws, "Menu")
    assert (
        target.note
        == "2 types so named; a file's path gives one: Game/Assets/Fungus/Menu.cs, Game/Assets/Menus/Menu.cs"
    )
    target, _usages = find_references(ws, "Game/Assets/Menus/Menu.cs")
    assert target.path == "Game/Assets/Menus/Menu.cs"


def test_a_scene_a_button_s_call_names_by_its_string_argument_is_used_there(tmp_path: Path) -> None:
    """`ChangeScene("Tuesday - 1")` set on a button (a UnityEvent's string argument, session 36's
    trials): `refs` of that scene said no asset named it. Set on an instance, through overrides, too."""
    from tests.test_trials_session34 import _instance
    from tests.test_unity_event_targets import _on_click

    call = _on_click(110, "Menu, Assembly-CSharp", "ChangeScene").replace("m_Mode: 1", "m_Mode: 5")
    call = call.replace("m_StringArgument: \n", "m_StringArgument: Tuesday - 1\n")
    menu_script, button = "6" * 32, "4e29b1a8efbd4b44bb3f3716e73f07ff"  # com.unity.ugui's Button
    scene = _header() + _object(100, "Menu", [110]) + _behaviour(110, 100, menu_script)
    scene += _object(200, "Next", [210]) + _behaviour(210, 200, button, call)
    prefix = "m_OnClick.m_PersistentCalls.m_Calls.Array.data[0]"
    overrides = [
        (210, f"{prefix}.m_MethodName", "LoadLevel", "{fileID: 0}"),
        (210, f"{prefix}.m_Mode", "5", "{fileID: 0}"),
        (210, f"{prefix}.m_Arguments.m_StringArgument", "Tuesday - 1", "{fileID: 0}"),
        (210, f"{prefix}.m_Arguments.m_IntArgument", "3", "{fileID: 0}"),  # not the mode's
    ]
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Menu.cs": "public class Menu : UnityEngine.MonoBehaviour { public void ChangeScene(string s){} }\n",
            "Assets/Menu.cs.meta": meta(menu_script),
            "Assets/Gallery.unity": scene,
            "Assets/Gallery.prefab": scene,
            "Assets/Gallery.prefab.meta": meta("7" * 32, "PrefabImporter"),
            "Assets/Hub.unity": _header() + _instance(500, "7" * 32, overrides),
            "Assets/Scenes/Tuesday - 1.unity": _header() + _object(100, "Root", []),
        },
    )
    _target, usages = find_references(_workspace(root), "Assets/Scenes/Tuesday - 1.unity")
    said = "Next > Button.m_OnClick calls ChangeScene: Tuesday - 1"
    assert [(u.path, u.line, u.kind, u.detail) for u in usages] == [
        ("Assets/Gallery.prefab", 52, "names", said),
        ("Assets/Gallery.unity", 52, "names", said),
        # the instance is named by its source's root object, `Menu`, as Unity shows it (session 50)
        ("Assets/Hub.unity", 12, "names", "Menu > override.m_OnClick calls LoadLevel: Tuesday - 1"),
    ]


def test_a_clip_whose_controllers_nest_past_the_walk_may_reach_every_method_of_the_name(tmp_path: Path) -> None:
    """A clip played through override controllers nested deeper than the walk reads: its receivers
    were the scripts found so far (the Walker's), and `refs Runner.Footstep` left the clip out,
    though the Runner's Animator plays it; who plays it is now not known, and every `Footstep` is."""
    from tests.test_trials_session36 import _animated, _clip, _controller

    guids = dict(zip(("walker", "runner", "clip", "ctrl", "o1", "o2", "o3"), "6789abc", strict=True))
    guids = {k: c * 32 for k, c in guids.items()}

    def override(name: str, base: str) -> str:
        return (
            _header() + f"--- !u!221 &22100000\nAnimatorOverrideController:\n  m_Name: {name}\n"
            f"  m_Controller: {{fileID: 9100000, guid: {base}, type: 2}}\n  m_Clips: []\n"
        )

    files = {
        "Assets/Step.anim": _clip("Step", "Footstep"),
        "Assets/Walk.controller": _controller("Walk", guids["clip"]),
        "Assets/O1.overrideController": override("O1", guids["ctrl"]),
        "Assets/O2.overrideController": override("O2", guids["o1"]),
        "Assets/O3.overrideController": override("O3", guids["o2"]),
        "Assets/Walker.prefab": _animated("Walker", guids["ctrl"], guids["walker"]),
        "Assets/Runner.prefab": _animated("Runner", guids["o3"], guids["runner"]),
    }
    for name in ("Walker", "Runner"):
        files[f"Assets/{name}.cs"] = f"public class {name} : UnityEngine.MonoBehaviour {{ void Footstep() {{ }} }}\n"
        files[f"Assets/{name}.cs.meta"] = meta(guids[name.lower()])
    for path, key in (
        ("Step.anim", "clip"),
        ("Walk.controller", "ctrl"),
        *((f"O{i}.overrideController", f"o{i}") for i in (1, 2, 3)),
    ):
        files[f"Assets/{path}.meta"] = meta(guids[key], "NativeFormatImporter")
    ws = _workspace(write_project(tmp_path / "P", files))
    for name in ("Walker", "Runner"):
        _target, usages = find_references(ws, f"{name}.Footstep")
        assert [u.path for u in usages if u.kind == "animation_event"] == ["Assets/Step.anim"], name


def test_a_lambda_s_parameter_over_a_collection_is_its_element(tmp_path: Path) -> None:
    """`team.ForEach(cb => cb.EndTurn())` over `var team = TurnController.Instance.GetActiveTeam()`,
    a `List<CharacterBase>`: `refs BattleUI.EndTurn` listed the line as a call of the UI's own
    `EndTurn` (a trial's wrong answer: a loop the code does not have)."""
    files = {
        "Assets/CharacterBase.cs": "public class CharacterBase : UnityEngine.MonoBehaviour\n"
        "{ public void EndTurn() {} }\n",
        "Assets/TurnController.cs": "using System.Collections.Generic;\npublic class TurnController\n{\n"
        "    public static TurnController Instance;\n"
        "    public List<CharacterBase> GetActiveTeam() { return null; }\n}\n",
        "Assets/BattleUI.cs": "public class BattleUI\n{\n    CharacterBase selected;\n    public void EndTurn() { }\n"
        "    public void ConfirmEndTurn()\n"
        "    {\n        var team = TurnController.Instance.GetActiveTeam();\n"
        "        team.ForEach(cb => cb.EndTurn());\n"
        "        foreach (var member in team) { member.EndTurn(); }\n"
        "        TurnController.Instance.GetActiveTeam().ForEach((c) => c.EndTurn());\n        EndTurn();\n    }\n}\n",
    }
    ws = _workspace(write_project(tmp_path / "P", files))
    assert _code_lines(ws, "BattleUI.EndTurn") == [("Assets/BattleUI.cs", 11)]
    assert _code_lines(ws, "CharacterBase.EndTurn") == [
        ("Assets/BattleUI.cs", 8),
        ("Assets/BattleUI.cs", 9),
        ("Assets/BattleUI.cs", 10),
    ]


def test_a_generic_singleton_s_instance_method_returns_the_singleton(tmp_path: Path) -> None:
    """`GoldIndicatorManager.Instance().UpdateCoins(GoldCoins)`, `Instance()` of `Singleton<T>`
    returning `T`: `refs CharacterInventory.UpdateCoins` listed it as a call of its own (a trial)."""
    files = {
        "Assets/Singleton.cs": "public class Singleton<T> : UnityEngine.MonoBehaviour where T : Singleton<T>\n"
        "{\n    static T _instance;\n    public static T Instance() { return _instance; }\n}\n",
        "Assets/GoldIndicatorManager.cs": "public class GoldIndicatorManager : Singleton<GoldIndicatorManager>\n"
        "{\n    public void UpdateCoins(int coins) { }\n}\n",
        "Assets/CharacterInventory.cs": "public class CharacterInventory : UnityEngine.MonoBehaviour\n{\n"
        "    int GoldCoins;\n    public void UpdateCoins(int coins)\n    {\n        GoldCoins += coins;\n"
        "        GoldIndicatorManager.Instance().UpdateCoins(GoldCoins);\n    }\n"
        "    void Start() { UpdateCoins(0); }\n}\n",
    }
    ws = _workspace(write_project(tmp_path / "P", files))
    assert _code_lines(ws, "CharacterInventory.UpdateCoins") == [("Assets/CharacterInventory.cs", 9)]
    assert _code_lines(ws, "GoldIndicatorManager.UpdateCoins") == [("Assets/CharacterInventory.cs", 7)]


def test_a_call_whose_argument_no_overload_takes_binds_to_nothing(tmp_path: Path) -> None:
    """Four buttons call `ContractManager.CompleteContract` with an int (`m_Mode: 3`), which only
    takes a `Contract`: Unity binds nothing and the buttons do nothing, but `refs` and `describe`
    read them as live calls (a trial). A call some overload takes says nothing more."""
    from indexer.query.describe import describe
    from tests.test_unity_event_targets import _on_click

    def call(method: str, mode: int) -> str:
        return _on_click(110, "ContractManager, Assembly-CSharp", method).replace("m_Mode: 1", f"m_Mode: {mode}")

    manager, button = "8" * 32, "4e29b1a8efbd4b44bb3f3716e73f07ff"  # com.unity.ugui's Button
    scene = _header() + _object(100, "Contracts", [110]) + _behaviour(110, 100, manager)
    for i, (method, mode) in enumerate((("CompleteContract", 3), ("Refresh", 1), ("Refresh", 3), ("Pick", 2))):
        scene += _object(200 + 100 * i, f"Button{i}", [210 + 100 * i]) + _behaviour(
            210 + 100 * i, 200 + 100 * i, button, call(method, mode)
        )
    code = (
        "public class Contract : UnityEngine.ScriptableObject { }\n"
        "public class ContractManager : UnityEngine.MonoBehaviour\n{\n"
        "    public void CompleteContract(Contract pCurrentContract) { }\n    public void Refresh() { }\n"
        "    public void Pick(Contract contract) { }\n}\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/ContractManager.cs": code,
            "Assets/ContractManager.cs.meta": meta(manager),
            "Assets/Shop.unity": scene,
        },
    )
    ws = _workspace(root)
    _target, usages = find_references(ws, "ContractManager.CompleteContract")
    assert [u.detail for u in usages if u.kind == "method"] == [
        "Button0 > Button.m_OnClick(int 0) on Contracts"
        " (no CompleteContract(int) in ContractManager: the call binds to nothing)"
    ]
    _target, usages = find_references(ws, "ContractManager.Refresh")
    assert [u.detail for u in usages if u.kind == "method"] == [
        "Button1 > Button.m_OnClick(void) on Contracts",
        "Button2 > Button.m_OnClick(int 0) on Contracts"
        " (no Refresh(int) in ContractManager: the call binds to nothing)",
    ]
    text = describe(ws.projects[0].graph, "Assets/Shop.unity").text
    assert (
        "-> ContractManager.CompleteContract (no CompleteContract(int) in ContractManager: the call binds to nothing)"
        in text
    )
    assert "-> ContractManager.Pick\n" in text + "\n"


def test_a_script_commented_out_whole_is_said_to_declare_nothing_and_a_dead_one_unused(tmp_path: Path) -> None:
    """`PauseMenuUI.cs`, commented out from its first line: `describe` of it said nothing of it, and
    the prefab's component read as `PauseMenuUI.cs` with each field `(unused: no such field)`, where
    Unity shows a missing script. `EnemyAttack.cs`, on no object and named by no code: `describe`
    of it had no "used by" line, and a trial edited it as the code hurting the player. Not said of a
    class that is no component (a static helper's extension methods are called unnamed)."""
    from indexer.query.describe import describe

    pause, attack = "9" * 32, "a" * 32
    root = write_project(
        tmp_path / "P",
        {
            "Assets/PauseMenuUI.cs": "// using UnityEngine;\n// public class PauseMenuUI : MonoBehaviour { }\n",
            "Assets/PauseMenuUI.cs.meta": meta(pause),
            "Assets/EnemyAttack.cs": "public class EnemyAttack : UnityEngine.MonoBehaviour { void Hit() { } }\n",
            "Assets/EnemyAttack.cs.meta": meta(attack),
            "Assets/UI_GamePause.prefab": _header() + _object(100, "Pause", [110]) + _behaviour(110, 100, pause),
            "Assets/Blob.cs": b"\x00\x01\x02 not text",  # skipped: what it declares is not known
            "Assets/MathUtil.cs": "public static class MathUtil { public static int Twice(this int x) => 2 * x; }\n",
        },
    )
    graph = _workspace(root).projects[0].graph
    script = describe(graph, "Assets/PauseMenuUI.cs").text
    assert "\ndeclares no type: a component naming this script is a missing script in Unity\n" in script
    assert (
        "components: Transform, PauseMenuUI.cs (declares no class)"
        in describe(graph, "Assets/UI_GamePause.prefab").text
    )
    dead = describe(graph, "Assets/EnemyAttack.cs").text
    assert dead.endswith(
        "\nused by: nothing found (no scene, prefab or asset carries it, no other code names its types)"
    )
    assert "used by" not in describe(graph, "Assets/MathUtil.cs").text  # extension methods run unnamed
    assert "declares no type" not in describe(graph, "Assets/Blob.cs").text
    lfs = "version https://git-lfs.github.com/spec/v1\noid sha256:" + "0" * 64 + "\nsize 73659\n"
    (root / "Assets" / "Menu.unity").write_text(lfs)  # an object there may carry it
    dead = describe(_workspace(root).projects[0].graph, "Assets/EnemyAttack.cs").text
    assert dead.endswith("types); but 1 scene, prefab or asset was not read (Git LFS pointers or files too large)")


def test_an_inherited_member_asked_of_a_subclass_leaves_out_its_siblings_calls(tmp_path: Path) -> None:
    """`refs RockHealth.TakeDamage`, a method RockHealth inherits from HealthManager: it listed the
    calls on `EnemyHealth` and `CharacterHealthManager` receivers and their `base.TakeDamage`, which
    never reach a rock (a trial: slimes read as damaging rocks). A call through the base stays."""
    files = {
        "Assets/HealthManager.cs": "public class HealthManager : UnityEngine.MonoBehaviour\n{\n"
        "    public virtual void TakeDamage(int d) { }\n}\n",
        "Assets/RockHealth.cs": "public class RockHealth : HealthManager { }\n",
        "Assets/EnemyHealth.cs": "public class EnemyHealth : HealthManager\n{\n"
        "    public override void TakeDamage(int d) { base.TakeDamage(d); }\n}\n",
        "Assets/Attacks.cs": "public class Attacks\n{\n    EnemyHealth enemy;\n    HealthManager target;\n"
        "    RockHealth rock;\n    void Hit()\n    {\n        enemy.TakeDamage(1);\n        target.TakeDamage(2);\n"
        "        rock.TakeDamage(3);\n    }\n}\n",
    }
    ws = _workspace(write_project(tmp_path / "P", files))
    assert _code_lines(ws, "RockHealth.TakeDamage") == [
        ("Assets/Attacks.cs", 9),
        ("Assets/Attacks.cs", 10),
    ]
    assert _code_lines(ws, "HealthManager.TakeDamage") == [
        ("Assets/Attacks.cs", 8),
        ("Assets/Attacks.cs", 9),
        ("Assets/Attacks.cs", 10),
        ("Assets/EnemyHealth.cs", 3),  # its one-line override's `base.TakeDamage(d)` (since session 47)
    ]


def test_a_name_is_matched_as_written_by_the_file_lookups(tmp_path: Path) -> None:
    """`_` and `%` are a file name's own characters, not SQL wildcards: `Player_Ship.prefab` names
    that file alone, not `PlayerXShip.prefab`."""
    from indexer.query.named_files import files_named, like_escaped

    assert like_escaped("a_b%c\\d") == "a\\_b\\%c\\\\d"
    head = _header() + _object(100, "Ship", [])
    root = write_project(tmp_path / "P", {"Assets/Player_Ship.prefab": head, "Assets/PlayerXShip.prefab": head})
    ws = _workspace(root)
    assert files_named(ws.projects[0].records, "Player_Ship.prefab") == ["Assets/Player_Ship.prefab"]


def test_a_guid_asked_alone_points_at_each_file_s_first_line_naming_it(tmp_path: Path) -> None:
    """A query of a GUID alone: a file naming it on two lines is shown at the first."""
    sword, item_script = "2ec392eda0786f649a77c41913f25ea0", "ab" * 16
    ref = f"{{fileID: 11400000, guid: {sword}, type: 2}}"
    both = f"  first: {ref}\n  second: {ref}\n"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Item.cs": "public class Item : UnityEngine.ScriptableObject { }\n",
            "Assets/Item.cs.meta": meta(item_script),
            "Assets/Sword.asset": _header() + _behaviour(11400000, 0, item_script),
            "Assets/Sword.asset.meta": meta(sword, "NativeFormatImporter"),
            "Assets/Chest.asset": _header() + _behaviour(11400000, 0, item_script, both),
        },
    )
    hits = _workspace(root).search(sword, 5)
    assert [(h.path, h.line) for h in hits] == [("Assets/Sword.asset", 0), ("Assets/Chest.asset", 11)]


def test_a_type_of_a_namespace_named_as_a_class_does_not_qualify_it(tmp_path: Path) -> None:
    """`Game.Inventory.UI.Slot` is a type of the namespace `Game.Inventory.UI`, not one nested in
    the class `Game.Inventory`: its line was listed as a qualifier usage of the class."""
    files = {
        "Assets/Inventory.cs": "namespace Game\n{\n    public class Inventory { public class Item { } }\n}\n",
        "Assets/Slot.cs": "namespace Game.Inventory.UI\n{\n    public class Slot { }\n}\n",
        "Assets/Shop.cs": "namespace Game\n{\n    public class Shop\n    {\n        Game.Inventory.UI.Slot slot;\n"
        "        Inventory.Item item;\n    }\n}\n",
    }
    _target, usages = find_references(_workspace(write_project(tmp_path / "P", files)), "Game.Inventory")
    assert [(u.path, u.line, u.context) for u in usages] == [("Assets/Shop.cs", 6, "qualifier")]
