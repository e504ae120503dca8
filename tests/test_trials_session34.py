"""Defects found by new users' trials in session 34 (docs/retrieval.md, "session 34"), each a test
seen failing before its fix."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.lookup import find_references
from indexer.query.workspace import open_workspace, projects_at

from .conftest import meta, write_project
from .test_unity_event_targets import BUTTON, _behaviour, _header, _object, _on_click

SETTINGS, MENU = "b1" * 16, "b2" * 16

SETTINGS_CS = """using UnityEngine;

public class GameSettings : MonoBehaviour
{
    public float BackgroundVolume { get; set; }
    void Apply() { AudioListener.volume = BackgroundVolume; }
}
"""


def _asset_lines(ws, name: str) -> list[tuple[str, int, str]]:
    _target, usages = find_references(ws, name)
    return [(u.path, u.line, u.kind) for u in usages if u.where == "asset"]


def test_a_property_s_usages_include_the_unityevent_calls_setting_it(tmp_path: Path) -> None:
    """`refs GameSettings.BackgroundVolume` listed the code reading it, not the slider whose event
    sets it (`set_BackgroundVolume`), which `refs GameSettings` and `describe` of the scene showed."""
    menu = (
        _header()
        + _object(100, "Settings", [110])
        + _behaviour(110, 100, SETTINGS)
        + _object(200, "Volume", [210])
        + _behaviour(210, 200, BUTTON, _on_click(110, "GameSettings, Assembly-CSharp", "set_BackgroundVolume"))
    )
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/GameSettings.cs": SETTINGS_CS,
            "Assets/Scripts/GameSettings.cs.meta": meta(SETTINGS),
            "Assets/Scenes/Menu.unity": menu,
            "Assets/Scenes/Menu.unity.meta": meta(MENU, "DefaultImporter"),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    line = menu.splitlines().index("      - m_Target: {fileID: 110}") + 1  # a call is listed at its first line
    assert _asset_lines(ws, "GameSettings.BackgroundVolume") == [("Assets/Scenes/Menu.unity", line, "method")]


def test_a_script_file_s_usages_include_those_of_the_types_nested_in_it(tmp_path: Path) -> None:
    """`refs Weapon.cs` listed the installers naming `Weapon`, not `Player.cs` and `EnemySpawner.cs`
    holding a `Weapon.Factory`, a type Weapon.cs declares: the files that create weapons (docs/cli.md:
    "a script file's usages are those of every type it declares")."""
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/Weapon.cs": (
                "using UnityEngine;\n\npublic class Weapon : MonoBehaviour\n{\n"
                "    public class Factory\n    {\n        public Weapon Create() => null;\n    }\n}\n"
            ),
            "Assets/Scripts/Weapon.cs.meta": meta("c1" * 16),
            "Assets/Scripts/Player.cs": (
                "using UnityEngine;\n\npublic class Player : MonoBehaviour\n{\n"
                "    private Factory _factory;\n    private Weapon.Factory _weapons;\n}\n"
            ),
            "Assets/Scripts/Player.cs.meta": meta("c2" * 16),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    _target, usages = find_references(ws, "Assets/Scripts/Weapon.cs")
    assert [(u.path, u.line) for u in usages if u.where == "code" and u.path != "Assets/Scripts/Weapon.cs"] == [
        ("Assets/Scripts/Player.cs", 6)
    ]


LEVER, DOOR, LEVER_PREFAB, BUTTON_PREFAB, MENU_PREFAB, PAUSE = (f"d{i}" * 16 for i in range(1, 7))


def _instance(file_id: int, source: str, overrides: list[tuple[int, str, str, str]]) -> str:
    """A PrefabInstance document of `source` with (target fileID, propertyPath, value, reference) overrides."""
    mods = "".join(
        f"    - target: {{fileID: {t}, guid: {source}, type: 3}}\n      propertyPath: {prop}\n"
        f"      value: {value}\n      objectReference: {ref}\n"
        for t, prop, value, ref in overrides
    )
    return (
        f"--- !u!1001 &{file_id}\nPrefabInstance:\n  m_ObjectHideFlags: 0\n  serializedVersion: 2\n"
        f"  m_Modification:\n    serializedVersion: 3\n    m_TransformParent: {{fileID: 0}}\n"
        f"    m_Modifications:\n{mods}    m_RemovedComponents: []\n    m_RemovedGameObjects: []\n"
        f"  m_SourcePrefab: {{fileID: 100100000, guid: {source}, type: 3}}\n"
    )


CALL = ".m_PersistentCalls.m_Calls.Array.data[0]."


def _levers(tmp_path: Path) -> Path:
    """Lever.prefab calls `RemotelyActivatedDoor.Activate` on None; the scene's instance sets the
    call's object only, to its door. Menu.prefab nests Button.prefab and sets its button's call,
    `PauseMenu.Resume`, through overrides; the scene's menu sets only that call's object."""
    door_cs = (
        "using UnityEngine;\n\npublic class RemotelyActivatedDoor : MonoBehaviour\n"
        "{\n    public void Activate() { }\n}\n"
    )
    lever_cs = (
        "using UnityEngine;\nusing UnityEngine.Events;\n\n"
        "public class Lever : MonoBehaviour\n{\n    public UnityEvent OnActivate;\n}\n"
    )
    pause_cs = "using UnityEngine;\n\npublic class PauseMenu : MonoBehaviour\n{\n    public void Resume() { }\n}\n"
    on_none = _on_click(0, "RemotelyActivatedDoor, Assembly-CSharp", "Activate").replace("m_OnClick", "OnActivate")
    lever = _header() + _object(100, "Lever", [110]) + _behaviour(110, 100, LEVER, on_none)
    button = _header() + _object(200, "Button", [210]) + _behaviour(210, 200, BUTTON, _on_click(0, "", ""))
    pressed = [
        (210, f"m_OnClick{CALL}m_TargetAssemblyTypeName", "PauseMenu, Assembly-CSharp", "{fileID: 0}"),
        (210, f"m_OnClick{CALL}m_MethodName", "Resume", "{fileID: 0}"),
    ]
    menu = _header() + _object(300, "Menu", [310]) + _behaviour(310, 300, PAUSE)
    menu += _instance(5000, BUTTON_PREFAB, pressed)
    scene = (
        _header()
        + _object(400, "Door", [410])
        + _behaviour(410, 400, DOOR)
        + _instance(600, LEVER_PREFAB, [(110, f"OnActivate{CALL}m_Target", "", "{fileID: 410}")])
        + _object(700, "UI", [710])
        + _behaviour(710, 700, PAUSE)
        + _instance(800, MENU_PREFAB, [(5000 ^ 210, f"m_OnClick{CALL}m_Target", "", "{fileID: 710}")])
    )
    return write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/RemotelyActivatedDoor.cs": door_cs,
            "Assets/Scripts/RemotelyActivatedDoor.cs.meta": meta(DOOR),
            "Assets/Scripts/Lever.cs": lever_cs,
            "Assets/Scripts/Lever.cs.meta": meta(LEVER),
            "Assets/Scripts/PauseMenu.cs": pause_cs,
            "Assets/Scripts/PauseMenu.cs.meta": meta(PAUSE),
            "Assets/Prefabs/Lever.prefab": lever,
            "Assets/Prefabs/Lever.prefab.meta": meta(LEVER_PREFAB, "PrefabImporter"),
            "Assets/Prefabs/Button.prefab": button,
            "Assets/Prefabs/Button.prefab.meta": meta(BUTTON_PREFAB, "PrefabImporter"),
            "Assets/Prefabs/Menu.prefab": menu,
            "Assets/Prefabs/Menu.prefab.meta": meta(MENU_PREFAB, "PrefabImporter"),
            "Assets/Scenes/Level.unity": scene,
            "Assets/Scenes/Level.unity.meta": meta("d7" * 16, "DefaultImporter"),
        },
    )


def test_an_instance_setting_only_the_object_of_its_prefab_s_call_is_a_usage_of_the_method(tmp_path: Path) -> None:
    """Three trials: `refs RemotelyActivatedDoor.Activate` listed `Lever.prefab ... on None` and
    none of the scenes whose levers set the call's object to a door (`OnActivate...m_Target`), and
    `refs PauseMenu.Resume` missed the level whose menu set only its buttons' object: a call of a
    button prefab nested in the menu. `describe` of the scene listed no UnityEvent call."""
    from indexer.query.describe import describe

    root = _levers(tmp_path)
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    scene = (root / "Assets/Scenes/Level.unity").read_text().split("\n")
    lever_line = scene.index(f"      propertyPath: OnActivate{CALL}m_Target") + 1
    menu_line = scene.index(f"      propertyPath: m_OnClick{CALL}m_Target") + 1
    lever = (root / "Assets/Prefabs/Lever.prefab").read_text().split("\n")
    prefab_line = lever.index("      - m_Target: {fileID: 0}") + 1
    menu = (root / "Assets/Prefabs/Menu.prefab").read_text().split("\n")
    set_line = menu.index(f"      propertyPath: m_OnClick{CALL}m_TargetAssemblyTypeName") + 1
    _target, usages = find_references(ws, "RemotelyActivatedDoor.Activate")
    assert [(u.path, u.line, u.detail) for u in usages] == [
        ("Assets/Prefabs/Lever.prefab", prefab_line, "Lever > Lever.OnActivate(void) on None"),
        ("Assets/Scenes/Level.unity", lever_line, "Lever > override.OnActivate on Door"),
    ]
    assert [(u.path, u.line) for u in find_references(ws, "PauseMenu.Resume")[1] if u.where == "asset"] == [
        ("Assets/Prefabs/Menu.prefab", set_line),
        ("Assets/Scenes/Level.unity", menu_line),
    ]
    text = describe(ws.projects[0].graph, "Assets/Scenes/Level.unity").text
    calls = text.split("UnityEvent calls:\n", 1)[1].split("\n")[:2]
    assert calls == [
        f"  L{lever_line} Lever > override.OnActivate on Door -> RemotelyActivatedDoor.Activate",
        f"  L{menu_line} Menu/Button > override.m_OnClick on UI -> PauseMenu.Resume",  # its button, since session 37
    ]


def test_describe_says_an_interface_a_script_implements_is_one(tmp_path: Path) -> None:
    """`describe Player.cs` said `IStateTrackable.cs (base class)` of an interface, which `context`
    called "interface of Player.cs": the two commands disagreed."""
    from indexer.query.describe import describe

    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/IStateTrackable.cs": "public interface IStateTrackable\n{\n    void Save();\n}\n",
            "Assets/Scripts/Actor.cs": "using UnityEngine;\n\npublic class Actor : MonoBehaviour\n{\n}\n",
            "Assets/Scripts/Player.cs": "public class Player : Actor, IStateTrackable\n{\n    void Save() { }\n}\n",
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    text = describe(ws.projects[0].graph, "Assets/Scripts/Player.cs").text
    uses = "uses: Assets/Scripts/Actor.cs (base class), Assets/Scripts/IStateTrackable.cs (interface)"
    assert text.split("\n")[-1] == uses


def test_an_empty_reference_in_a_field_named_for_a_level_names_no_scene() -> None:
    """`describe "Persistent Data.unity"` listed `references: None (field)`: `LevelBounds: {fileID:
    0}`, an empty Collider2D, read as a string field naming a scene called None."""
    from indexer.scanners.yaml_facts import scene_named

    fields = [("LevelBounds", "None"), ("levelMusic", "built-in resource")]
    assert [scene_named(key, value) for key, value in fields] == [None, None]
    assert scene_named("nextLevel", "Level2") == "Level2"


def test_a_list_of_records_without_names_shows_their_first_key_s_words(tmp_path: Path) -> None:
    """`describe WeaponUISetting.asset` printed `_weaponIcons: [8 items]`, hiding that the Uzi's
    `_id: Riffle_1` matched no `Uzi_1` entry; an arena list, `[2 items]`, hid its scenes' names. An
    item with no `name` is named by its first key's value when that is a word; the readers agree."""
    from . import yaml_differential
    from .test_yaml_reference import HEAD, SIGN, field_rows, scan_sign

    fields = (
        "  _weaponIcons:\n  - _id: Uzi_1\n    _icon: {fileID: 0}\n  - _id: 'Riffle_1'\n    _icon: {fileID: 0}\n"
        "  _arenas:\n  - <SceneName>k__BackingField: LevelBaseSize\n    <Weight>k__BackingField: 1\n"
        "  - <SceneName>k__BackingField: Level3\n    <Weight>k__BackingField: 2\n"
        "  _waves:\n  - count: 5\n    delay: 1\n  - count: 8\n    delay: 2\n"
        "  m_PhysicsShape:\n  - - {x: -0.39999998, y: -1.4499999}\n    - {x: -0.63, y: -1.26}\n"
    )
    assert field_rows(scan_sign(fields)) == [
        ("_weaponIcons", 14, "_weaponIcons: [2 items: Uzi_1, Riffle_1]"),
        ("_arenas", 19, "_arenas: [2 items: LevelBaseSize, Level3]"),
        ("_waves", 24, "_waves: [2 items]"),
        ("m_PhysicsShape", 29, "m_PhysicsShape: [1 item]"),  # a list of lists: no record
    ]
    (tmp_path / "Assets").mkdir()
    (tmp_path / "Assets" / "Sign.prefab").write_text(HEAD + SIGN + fields)
    result = yaml_differential.run([tmp_path], show=3)
    assert (result.compared, result.differing) == (2, 0), yaml_differential.report(result)


def test_refs_of_a_tag_lists_the_code_comparing_it_through_a_constant(tmp_path: Path) -> None:
    """`refs ProjectileIgnore` listed the objects tagged so and no code: `Projectile.cs` compares by
    `CompareTag(ProjectileIgnore)`, a constant it declares; another file by `Tags.Enemy`."""
    from indexer.query.locate import references_of

    tags = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!78 &1\nTagManager:\n  serializedVersion: 2\n"
        "  tags:\n  - Enemy\n  - ProjectileIgnore\n  layers:\n  - Default\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "ProjectSettings/TagManager.asset": tags,
            "Assets/Scripts/Projectile.cs": (
                "using UnityEngine;\n\npublic class Projectile : MonoBehaviour\n{\n"
                '    private const string ProjectileIgnore = "ProjectileIgnore";\n\n'
                "    void OnTriggerEnter(Collider other)\n    {\n"
                "        if (other.CompareTag(ProjectileIgnore)) return;\n        Destroy(gameObject);\n    }\n}\n"
            ),
            "Assets/Scripts/Tags.cs": 'public static class Tags\n{\n    public const string Enemy = "Enemy";\n}\n',
            "Assets/Scripts/Bullet.cs": (
                "using UnityEngine;\n\npublic class Bullet : MonoBehaviour\n{\n"
                "    void OnTriggerEnter(Collider other)\n    {\n"
                "        if (other.gameObject.CompareTag(Tags.Enemy)) Destroy(other.gameObject);\n    }\n}\n"
            ),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert [(u.path, u.line) for u in references_of(ws, "ProjectileIgnore")[1] if u.where == "code"] == [
        ("Assets/Scripts/Projectile.cs", 9)
    ]
    assert [(u.path, u.line) for u in references_of(ws, "Enemy")[1] if u.where == "code"] == [
        ("Assets/Scripts/Bullet.cs", 7)
    ]


def test_a_pack_s_asset_values_say_when_the_component_sets_the_field_as_it_starts(tmp_path: Path) -> None:
    """Two trials: a pack said the cannon prefab's `ShootDelay: 4` was what "the game runs with",
    though `Tower.Awake` sets `ShootDelay = data.ShootDelay` from its data asset: editing the
    prefab changes nothing. The values stay, with the line setting the field as it starts."""
    from indexer.query.serialized import pack_values

    tower_cs = (
        "using UnityEngine;\n\npublic class Tower : MonoBehaviour\n{\n    public float ShootDelay = 2f;\n"
        "    public TowerData data;\n\n    void Awake()\n    {\n        if (data == null) return;\n"
        "        ShootDelay = data.ShootDelay;\n    }\n\n    void Update() { ShootDelay -= 0; }\n}\n"
    )
    plain_cs = "using UnityEngine;\n\npublic class Wall : MonoBehaviour\n{\n    public float ShootDelay = 2f;\n}\n"
    fields = "  ShootDelay: 4\n"
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/Tower.cs": tower_cs,
            "Assets/Scripts/Tower.cs.meta": meta("e1" * 16),
            "Assets/Scripts/Wall.cs": plain_cs,
            "Assets/Scripts/Wall.cs.meta": meta("e2" * 16),
            "Assets/Prefabs/Cannon.prefab": _header()
            + _object(100, "Cannon", [110])
            + _behaviour(110, 100, "e1" * 16, fields),
            "Assets/Prefabs/Wall.prefab": _header()
            + _object(100, "Wall", [110])
            + _behaviour(110, 100, "e2" * 16, fields),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    project, local = ws.owner("Assets/Scripts/Tower.cs")
    assert pack_values(project, local, {"shoot", "delay"}) == [
        "values set in assets (the game runs with these, not the defaults in code):",
        "  Assets/Prefabs/Cannon.prefab:26  Cannon > Tower.ShootDelay: 4 (nothing uses this prefab)",
        "  … Tower.Awake sets it when the component starts: Assets/Scripts/Tower.cs:11  ShootDelay = data.ShootDelay;",
    ]
    project, local = ws.owner("Assets/Scripts/Wall.cs")
    assert pack_values(project, local, {"shoot", "delay"})[1:] == [
        "  Assets/Prefabs/Wall.prefab:26  Wall > Wall.ShootDelay: 4 (nothing uses this prefab)"
    ]


def test_a_script_added_to_a_child_of_a_prefab_instance_is_listed_on_that_child(tmp_path: Path) -> None:
    """`refs PlayerAnimation` listed `SampleScene.unity:37035 [m_Script] Player`: the component is
    added to the instance's child `Player/Animation`, as `describe` of the scene said."""
    anim, player = "f1" * 16, "f2" * 16
    source = _header() + _object(100, "Player", []) + _object(200, "Animation", [])
    source = source.replace(
        "  m_Father: {fileID: 0}\n--- !u!1 &200",
        "  m_Father: {fileID: 0}\n  m_Children:\n  - {fileID: 201}\n--- !u!1 &200",
        1,
    )
    source = source.replace(
        "  m_Children: []\n  m_Father: {fileID: 0}\n", "  m_Children: []\n  m_Father: {fileID: 101}\n", 2
    )
    scene = (
        _header()
        + _instance(500, player, [(100, "m_Name", "Player", "{fileID: 0}")])
        + "--- !u!1 &600 stripped\nGameObject:\n"
        + f"  m_CorrespondingSourceObject: {{fileID: 200, guid: {player}, type: 3}}\n"
        + "  m_PrefabInstance: {fileID: 500}\n  m_PrefabAsset: {fileID: 0}\n"
        + _behaviour(700, 600, anim)
    )
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/PlayerAnimation.cs": "public class PlayerAnimation : UnityEngine.MonoBehaviour { }\n",
            "Assets/Scripts/PlayerAnimation.cs.meta": meta(anim),
            "Assets/Prefabs/Player.prefab": source,
            "Assets/Prefabs/Player.prefab.meta": meta(player, "PrefabImporter"),
            "Assets/Scenes/Sample.unity": scene,
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    lines = scene.split("\n")
    start = lines.index("--- !u!114 &700")
    line = next(i for i, text in enumerate(lines) if i > start and text.startswith("  m_Script:")) + 1
    assert [(u.path, u.line, u.detail) for u in find_references(ws, "PlayerAnimation")[1] if u.where == "asset"] == [
        ("Assets/Scenes/Sample.unity", line, "Player/Animation")
    ]


def test_a_value_naming_a_variant_s_root_says_the_root_s_name_not_a_renamed_child_s(tmp_path: Path) -> None:
    """`describe "Character Variant Player.prefab"` said `PlayerInstaller: _player: ProjectileRoot
    (Player)` and `refs PlayerInstaller._player` the same: the components sit on the variant's root,
    renamed `Character Variant Player`; `ProjectileRoot` is a child's rename, the first `m_Name`
    override. The override renaming the child still says which object it renames."""
    from indexer.query.describe import describe

    installer, character = "f3" * 16, "f4" * 16
    child = _object(200, "Projectile", []).replace("m_Father: {fileID: 0}", "m_Father: {fileID: 101}")
    root_object = _object(100, "Character", []).replace("m_Children: []", "m_Children:\n  - {fileID: 201}")
    source = _header() + root_object + child
    renames = [
        (200, "m_Name", "ProjectileRoot", "{fileID: 0}"),
        (100, "m_Name", "Character Variant Player", "{fileID: 0}"),
    ]
    variant = (
        _header()
        + _instance(500, character, renames)
        + "--- !u!1 &600 stripped\nGameObject:\n"
        + f"  m_CorrespondingSourceObject: {{fileID: 100, guid: {character}, type: 3}}\n"
        + "  m_PrefabInstance: {fileID: 500}\n  m_PrefabAsset: {fileID: 0}\n"
        + _behaviour(700, 600, installer, "  _player: {fileID: 700}\n")
    )
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/PlayerInstaller.cs": (
                "using UnityEngine;\n\npublic class PlayerInstaller : MonoBehaviour\n{\n"
                "    [SerializeField] private PlayerInstaller _player;\n}\n"
            ),
            "Assets/Scripts/PlayerInstaller.cs.meta": meta(installer),
            "Assets/Prefabs/Character.prefab": source,
            "Assets/Prefabs/Character.prefab.meta": meta(character, "PrefabImporter"),
            "Assets/Prefabs/Character Variant Player.prefab": variant,
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    text = describe(ws.projects[0].graph, "Assets/Prefabs/Character Variant Player.prefab").text.split("\n")
    assert [line.strip() for line in text if "_player" in line or "m_Name" in line] == [
        "overrides: m_Name: ProjectileRoot (on Character/Projectile); m_Name: Character Variant Player",
        "PlayerInstaller: _player: Character Variant Player (PlayerInstaller)",
    ]
    usages = find_references(ws, "PlayerInstaller._player")[1]
    assert [u.detail for u in usages if u.where == "asset"] == [
        "Character Variant Player > PlayerInstaller._player: Character Variant Player (PlayerInstaller)"
    ]


def test_a_scene_reached_from_a_prefab_it_places_says_it_places_an_instance(indexed_fixture: Path) -> None:
    """A trial: scene hits read "the scene is an instance or variant of Assets/Prefabs/Objects/Gold.prefab";
    a scene places instances, it is no variant. A prefab reached so is said a variant, or to nest one."""
    ws = open_workspace(indexed_fixture, [(indexed_fixture, Config())])
    reasons = {h.path: h.reason for h in ws.search("brute enemy", 10)}
    assert reasons["Assets/Scenes/Dungeon.unity"] == (
        "text match; the scene places an instance of Assets/Prefabs/Enemies/EnemyBrute.prefab"
    )
    assert reasons["Assets/Prefabs/Enemies/EnemyBruteBoss.prefab"] == (
        "text match; variant of Assets/Prefabs/Enemies/EnemyBrute.prefab"
    )
    # a trial: Warrok.prefab "is an instance or variant of EnemyHp.prefab", a health bar it nests
    top = ws.search("player sword", 1)[0]
    # named by the nested sword itself since session 42 (its parents' words count: `Player/.../Sword`)
    assert (top.path, top.name, top.reason) == (
        "Assets/Prefabs/Player.prefab",
        "Player/WeaponSocket/Sword",
        "text match; the prefab nests an instance of Assets/Prefabs/Weapons/Sword.prefab",
    )


def test_a_name_without_its_extension_suggests_every_file_of_that_name() -> None:
    """`describe Uzi` said "`unity-index query` finds files by name" though `Uzi.asset` and
    `Uzi.prefab` exist, and `describe Weapon` suggested `Weapon.cs` alone, not `Weapon.prefab`."""
    import pytest

    from indexer.paths import PathNotFound, candidates, pick

    indexed = ["Assets/Data/Uzi.asset", "Assets/Prefabs/Uzi.prefab", "Assets/Prefabs/Uzi.prefab.meta",
               "Assets/Prefabs/Weapon.prefab", "Assets/Scripts/Weapon.cs"]  # fmt: skip
    for name, similar in [
        ("Uzi", "Assets/Data/Uzi.asset, Assets/Prefabs/Uzi.prefab"),
        ("weapon", "Assets/Prefabs/Weapon.prefab, Assets/Scripts/Weapon.cs"),
    ]:
        with pytest.raises(PathNotFound) as nf:
            pick(name, candidates(name, "/home/me/Game", None, False), indexed.__contains__, lambda: indexed)
        assert str(nf.value) == f"{name} is not an indexed file; did you mean {similar}?"


def test_an_animator_s_states_written_above_its_controller_are_listed_under_it(tmp_path: Path) -> None:
    """`describe "Player AC.controller"` printed `state Run`, `state Dash` and `state Jump` above
    `animator controller Player AC`, outside its layer: Unity wrote them first (their fileIDs are
    negative). The controller, its parameters and layers come first, then every state."""
    from indexer.query.describe import describe

    from .test_animator import CONTROLLER
    from .test_graph import graph_for

    head, _, docs = CONTROLLER.partition("--- !u!91 &9100000\n")
    controller, _, rest = docs.partition("--- !u!1107 ")
    moved = head + "--- !u!1107 " + rest + "--- !u!91 &9100000\n" + controller  # the states first
    graph = graph_for(write_project(tmp_path / "P", {"Assets/Knight.controller": moved}))
    lines = describe(graph, "Assets/Knight.controller").text.split("\n")[1:]
    heads = [
        line.split("  L")[0].split(" (")[0].strip() for line in lines if line.strip().startswith(("animator", "state"))
    ]
    assert heads[:4] == [
        "animator controller Knight",
        "animator parameter Speed [Float]",
        "animator parameter Hurt [Trigger]",
        "animator layer Base Layer",
    ]
    assert heads[4:] == ["state Idle", "state Move", "state Hurt"]


def test_a_guid_no_file_holds_is_said_missing_wherever_a_value_names_it(tmp_path: Path) -> None:
    """`describe Level1.unity` and `refs EnemySpawner._enemySettings` printed `_weaponSettings:
    guid:4f092de5…` as any reference, though no `.meta` holds it: the level's enemies get no weapon.
    The outline's references said `(not in project)`; every value naming it says so now."""
    from .test_graph import graph_for

    graph = graph_for(write_project(tmp_path / "P", {"Assets/A.cs": "class A {}\n"}))
    missing = "4f092de5fcee75d4aa8f5fa8122a9636"
    assert graph.readable(f"Spawner > EnemySpawner._weaponSettings: guid:{missing}") == (
        f"Spawner > EnemySpawner._weaponSettings: guid:{missing} (not in project)"
    )


def test_a_type_name_means_the_innermost_namespace_s_type_as_csharp_looks_it_up(tmp_path: Path) -> None:
    """Two trials: `describe Player.cs` listed 40 Photon files under "used by", and `refs` of the
    game's `PlayerInfo.cs` 20 lines of Mirror's example: inside `namespace Photon.Realtime`,
    `Player` is Photon's own, as `PlayerInfo` inside `namespace Mirror.Examples.MultipleMatch` is
    that namespace's struct. A global type still wins over one a using directive imports."""
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/Player.cs": "using UnityEngine;\n\npublic class Player : MonoBehaviour { }\n",
            "Assets/Photon/Player.cs": "namespace Photon.Realtime\n{\n    public class Player { }\n}\n",
            "Assets/Photon/Room.cs": (
                "namespace Photon.Realtime\n{\n    public class Room\n    {\n        public Player Master;\n    }\n}\n"
            ),
            "Assets/Scripts/Hud.cs": (
                "using Photon.Realtime;\n\npublic class Hud\n{\n    public Player Local;\n    public Room Room;\n}\n"
            ),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    game = [(u.path, u.line) for u in find_references(ws, "Assets/Scripts/Player.cs")[1] if u.where == "code"]
    photon = [(u.path, u.line) for u in find_references(ws, "Assets/Photon/Player.cs")[1] if u.where == "code"]
    assert (game, photon) == ([("Assets/Scripts/Hud.cs", 5)], [("Assets/Photon/Room.cs", 5)])
    graph = ws.projects[0].graph
    assert dict(graph.used_by("Assets/Scripts/Player.cs")) == {"Assets/Scripts/Hud.cs": "uses_type"}


def test_refs_of_a_nested_class_suggests_no_member_of_the_same_name(tmp_path: Path) -> None:
    """`refs RaceManager.RaceProgress` said `(also a member: unity-index refs
    RaceManager.RaceProgress)`: the command just typed, for the nested class itself."""
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/RaceManager.cs": (
                "public class RaceManager\n{\n    public class RaceProgress { }\n    public RaceProgress Progress;\n}\n"
            ),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    target = ws.projects[0].graph.target("RaceManager.RaceProgress")
    assert (target.kind, target.types, target.note) == ("type", ["RaceManager.RaceProgress"], "")


def test_a_field_naming_a_scene_is_listed_as_the_scene_under_its_field(tmp_path: Path) -> None:
    """`describe Lobby.unity` listed `Assets/Scenes/DevRoom/Movement (field)` among its references,
    a path no file has: the field's value, `Assets/Scenes/DevRoom/Movement.unity`, less `.unity`."""
    from indexer.query.describe import describe

    lobby = "c5" * 16
    fields = "  GameplayScene: Assets/Scenes/Movement.unity\n  nextRoom: Arena\n  bonusLevel: Nowhere\n"
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/Lobby.cs": "using UnityEngine;\n\npublic class Lobby : MonoBehaviour { }\n",
            "Assets/Scripts/Lobby.cs.meta": meta(lobby),
            "Assets/Scenes/Lobby.unity": _header() + _object(100, "Lobby", [110]) + _behaviour(110, 100, lobby, fields),
            "Assets/Scenes/Movement.unity": _header(),
            "Assets/Scenes/Arena.unity": _header(),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    text = describe(ws.projects[0].graph, "Assets/Scenes/Lobby.unity").text.split("\n")
    assert text[text.index("references:") + 1 :][:3] == [
        "  Assets/Scenes/Movement.unity (GameplayScene)",
        "  Assets/Scenes/Arena.unity (nextRoom)",
        "  Nowhere (no scene of that name) (bonusLevel)",
    ]


def test_a_folded_scene_cut_for_length_keeps_its_unityevent_calls(tmp_path: Path) -> None:
    """`describe CrashCove.unity` spent its 400 lines on 79 waypoints carrying a script and ended
    `… 3638 more lines`, its eight button calls (`RestartRound`, `LoadTrack1`) gone unsaid. The
    objects are cut to the room the parts after them leave."""
    from indexer.query.describe import describe

    point, menu = "a7" * 16, "a8" * 16
    waypoints = "".join(
        _object(100 + 10 * i, f"{i} Waypoint", [102 + 10 * i]) + _behaviour(102 + 10 * i, 100 + 10 * i, point)
        for i in range(30)
    )
    pause = _object(5000, "Pause", [5002]) + _behaviour(5002, 5000, menu)
    button = _object(6000, "Restart", [6002]) + _behaviour(
        6002, 6000, BUTTON, _on_click(5002, "RacePauseMenu, Assembly-CSharp", "RestartRound")
    )
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/AiWaypoint.cs": "public class AiWaypoint : UnityEngine.MonoBehaviour { }\n",
            "Assets/Scripts/AiWaypoint.cs.meta": meta(point),
            "Assets/Scripts/RacePauseMenu.cs": (
                "public class RacePauseMenu : UnityEngine.MonoBehaviour\n{\n    public void RestartRound() { }\n}\n"
            ),
            "Assets/Scripts/RacePauseMenu.cs.meta": meta(menu),
            "Assets/Scenes/Track.unity": _header() + waypoints + pause + button,
        },
    )
    update(root, Config(workers=1))
    graph = open_workspace(root, projects_at(root)).projects[0].graph
    lines = describe(graph, "Assets/Scenes/Track.unity", max_lines=20).text.split("\nuses: ")[0].split("\n")
    line = (root / "Assets/Scenes/Track.unity").read_text().split("\n").index("      - m_Target: {fileID: 5002}") + 1
    assert lines[-3:] == [
        "… 46 more lines of objects (--json lists every object and field in its symbols)",
        "UnityEvent calls:",
        f"  L{line} Restart > script 44444444… (not in project).m_OnClick(void) on Pause -> RacePauseMenu.RestartRound",
    ]


def test_a_value_a_script_holds_is_said_without_its_semicolon(indexed_fixture: Path) -> None:
    """A trial: `why: text match; holds int lapsNeededToFinish = 2;; the script is on …`: the
    declaration's `;` beside the reasons' own separator."""
    ws = open_workspace(indexed_fixture, [(indexed_fixture, Config())])
    hit = next(h for h in ws.search("sword deals 10 damage", 10) if h.path == "Assets/Scripts/Combat/DamageDealer.cs")
    assert hit.reason.startswith("text match; holds int damage = 10; the script ")


def test_a_local_variable_named_as_the_member_is_no_usage_of_it(tmp_path: Path) -> None:
    """`refs IDamageable.damage` listed `float damage = 0;` and `return damage;` of a method of
    `PlayerInfo`: a local variable there. Its real callers stay, in that file too."""
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/IDamageable.cs": "public interface IDamageable\n{\n    void damage(float amount);\n}\n",
            "Assets/Scripts/PlayerInfo.cs": (
                "public class PlayerInfo : IDamageable\n{\n    public void damage(float amount) { }\n\n"
                "    float getDamageByPlayer()\n    {\n        float damage = 0;\n        damage += 1;\n"
                "        return damage;\n    }\n\n    void Hit()\n    {\n        damage(5);\n    }\n}\n"
            ),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert _code_lines(ws, "IDamageable.damage") == [("Assets/Scripts/PlayerInfo.cs", 14)]


def _code_lines(ws, name: str) -> list[tuple[str, int]]:
    return [(u.path, u.line) for u in find_references(ws, name)[1] if u.where == "code"]


def test_a_stale_value_of_a_script_on_a_third_party_base_in_the_project_is_said_unused(tmp_path: Path) -> None:
    """`describe PlayerBody.prefab` showed `CameraRotation: … mouseSensitivity: 6` as live: the
    field is gone from the script, which derives from Mirror's `NetworkBehaviour`, a third-party
    base in the project whose fields are known (they stay hidden). Only a base outside the project
    may declare any field."""
    from indexer.query.describe import describe

    camera = "a9" * 16
    files = {
        "Assets/Plugins/Mirror/Runtime/NetworkBehaviour.cs": (
            "using UnityEngine;\nnamespace Mirror\n{\n    public class NetworkBehaviour : MonoBehaviour\n    {\n"
            "        public float syncInterval = 0.1f;\n    }\n}\n"
        ),
        "Assets/Behaviour/CameraRotation.cs": (
            "using Mirror;\n\npublic class CameraRotation : NetworkBehaviour\n{\n    public float smoothing;\n}\n"
        ),
        "Assets/Behaviour/CameraRotation.cs.meta": meta(camera),
        "Assets/Prefabs/PlayerBody.prefab": _header()
        + _object(100, "PlayerBody", [110])
        + _behaviour(110, 100, camera, "  syncInterval: 0.1\n  smoothing: 2\n  mouseSensitivity: 6\n"),
    }
    root = write_project(tmp_path / "p", files)
    update(root, Config(workers=1))
    graph = open_workspace(root, projects_at(root)).projects[0].graph
    lines = describe(graph, "Assets/Prefabs/PlayerBody.prefab").text.splitlines()
    assert "    CameraRotation: smoothing: 2; mouseSensitivity: 6 (unused: no such field in the script)" in lines


def test_a_bare_number_of_the_task_is_no_matched_word_nor_line(tmp_path: Path) -> None:
    """Two trials: with "3 laps" in the task a pack showed `L84: case 3:` as a matched line and
    `matched: 3` on a menu scene; "matched: 2, 3" came from bare digits. A number is looked for as a
    value a file holds (`holds …`), not as a word."""
    from indexer.query.context import build_context
    from indexer.query.tokens import counter

    menu = (
        "using UnityEngine;\n\npublic class RacePauseMenu : MonoBehaviour\n{\n    public int laps;\n\n"
        "    void Pick(int choice)\n    {\n        switch (choice)\n        {\n            case 3:\n"
        "                break;\n        }\n    }\n\n    void ShowLaps()\n    {\n        Debug.Log(laps);\n    }\n}\n"
    )
    root = write_project(tmp_path / "p", {"Assets/Scripts/RacePauseMenu.cs": menu})
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    text = build_context(ws, "make a race 3 laps", 2000, counter("estimate")).tier2.text
    part = text.split("### Assets/Scripts/RacePauseMenu.cs", 1)[1]
    assert part.split("\n", 1)[0] == "  (csharp; matched: laps, race)"
    assert "case 3:" not in part


def test_a_quoted_key_written_as_code_is_looked_for_whole(tmp_path: Path) -> None:
    """`query '"TutorialCompleted"'` ranked two scripts holding no such text above the two holding
    the PlayerPrefs key, named by their class line: one quoted word written as code is a key, and
    the files holding it rank first, at its line. A quoted plain word stays a name."""
    from indexer.query.quotes import quoted_phrases

    assert quoted_phrases('"TutorialCompleted" and "selectedCar" and "Restart"') == ["tutorialcompleted", "selectedcar"]
    scripts = {
        "Assets/Scripts/MenuController.cs": (
            "using UnityEngine;\n\npublic class MenuController : MonoBehaviour\n{\n    void StartNewGame()\n"
            '    {\n        PlayerPrefs.SetInt("TutorialCompleted", 0);\n    }\n}\n'
        ),
        "Assets/Scripts/TutorialTextCycler.cs": (
            "using UnityEngine;\n\npublic class TutorialTextCycler : MonoBehaviour\n{\n"
            "    public bool completed;\n    public string[] tutorialTexts;\n}\n"
        ),
    }
    root = write_project(tmp_path / "p", scripts)
    update(root, Config(workers=1))
    top = open_workspace(root, projects_at(root)).search('"TutorialCompleted"', 2)
    assert [(h.path, h.line, h.reason) for h in top][:1] == [
        ("Assets/Scripts/MenuController.cs", 7, 'text match; holds "tutorialcompleted"')
    ]


def test_a_comparative_shows_the_fields_named_by_its_quality(tmp_path: Path) -> None:
    """`context "make the Suv faster"` showed the Suv prefab's components and `CarController`'s class
    line, never `topSpeed: 42.5`, the value to change: "faster" asks for more speed, as the search
    already knew (`speed (for faster)`); the fields named by it are shown as named ones are."""
    from indexer.query.context import build_context
    from indexer.query.tokens import counter

    car = "b3" * 16
    controller = (
        "using UnityEngine;\n\npublic class CarController : MonoBehaviour\n{\n"
        "    [SerializeField] private float topSpeed = 30f;\n    [SerializeField] private float grip = 1f;\n\n"
        "    void FixedUpdate() { }\n}\n"
    )
    suv = _header() + _object(100, "Suv", [110]) + _behaviour(110, 100, car, "  topSpeed: 42.5\n  grip: 2\n")
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/CarController.cs": controller,
            "Assets/Scripts/CarController.cs.meta": meta(car),
            "Assets/Prefabs/Vehicles/Suv.prefab": suv,
        },
    )
    update(root, Config(workers=1))
    text = build_context(open_workspace(root, projects_at(root)), "make the Suv faster", 4000, counter("estimate"))
    assert text.tier2.text.split("\n")[-2:] == [
        "values set in assets (the game runs with these, not the defaults in code):",
        "  Assets/Prefabs/Vehicles/Suv.prefab:26  Suv > CarController.topSpeed: 42.5 (nothing uses this prefab)",
    ]


def test_words_of_another_script_are_searched(tmp_path: Path) -> None:
    """A trial: `query '늑대가'`, a word of an NPC's dialogue, `'"아이고 모험가 양반!"'`, its first line,
    and `'중급 포션'`, a potion's name in its data asset, each printed "no results": the index and the
    query kept ASCII letters only. Words of any script are searched; a quoted line is held."""
    potion = "c6" * 16
    item = _behaviour(11400000, 0, potion, "  ItemName: 중급 포션\n  healAmount: 30\n")
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Resources/Dialogue/dialogues.csv": (
                "id,line,speaker,text\nnpc01_intro,0,행인,아이고 모험가 양반!\n"
                "npc01_intro,1,행인,길을 지나가야하는데 요즘 늑대가 많아서 큰일이여.\n"
            ),
            "Assets/Scripts/Item.cs": "public class Item : UnityEngine.ScriptableObject { public string ItemName; }\n",
            "Assets/Scripts/Item.cs.meta": meta(potion),
            "Assets/Data/Potion.asset": _header() + item,
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert ws.search("늑대가", 1)[0].path == "Assets/Resources/Dialogue/dialogues.csv"
    quoted = ws.search('"아이고 모험가 양반!"', 1)[0]
    assert (quoted.path, quoted.line, quoted.reason) == (
        "Assets/Resources/Dialogue/dialogues.csv",
        2,
        'text match; holds "아이고 모험가 양반"',
    )
    assert ws.search("중급 포션", 1)[0].path == "Assets/Data/Potion.asset"


def test_refs_of_a_tag_lists_an_instance_whose_override_tags_an_object(tmp_path: Path) -> None:
    """`refs Gate` listed the portal's root and missed the gate tower it nests, whose tag an
    override sets to Gate: the object that holds the trigger the player's code compares."""
    from indexer.query.locate import references_of

    tags = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!78 &1\nTagManager:\n  serializedVersion: 2\n"
        "  tags:\n  - Gate\n  layers:\n  - Default\n"
    )
    tower = "c7" * 16
    portal = _header() + _instance(500, tower, [(100, "m_TagString", "Gate", "{fileID: 0}")])
    root = write_project(
        tmp_path / "p",
        {
            "ProjectSettings/TagManager.asset": tags,
            "Assets/Prefabs/Tower.prefab": _header() + _object(100, "Tower", []),
            "Assets/Prefabs/Tower.prefab.meta": meta(tower, "PrefabImporter"),
            "Assets/Prefabs/CastlePortal.prefab": portal,
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    line = portal.split("\n").index("      propertyPath: m_TagString") + 1
    assert [(u.path, u.line, u.context) for u in references_of(ws, "Gate")[1] if u.path.endswith(".prefab")] == [
        ("Assets/Prefabs/CastlePortal.prefab", line, "override")
    ]


def test_a_pack_s_asset_value_says_when_nothing_uses_its_prefab(tmp_path: Path) -> None:
    """A trial: under "the game runs with these" a pack listed `PlayerBody.prefab … jumpForce: 1.4`
    beside the spawned player's `1`, though nothing uses PlayerBody.prefab: the game never runs
    with it. A prefab under `Resources/` may be loaded by a name built at run time: not said."""
    from indexer.query.serialized import pack_values

    mover = "c8" * 16
    prefab = _header() + _object(100, "Body", [110]) + _behaviour(110, 100, mover, "  jumpForce: JUMP\n")
    spawned = "c9" * 16
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/Mover.cs": "public class Mover : UnityEngine.MonoBehaviour { public float jumpForce; }\n",
            "Assets/Scripts/Mover.cs.meta": meta(mover),
            "Assets/Prefabs/Orphan.prefab": prefab.replace("JUMP", "1.4"),
            "Assets/Prefabs/Spawned.prefab": prefab.replace("JUMP", "1"),
            "Assets/Prefabs/Spawned.prefab.meta": meta(spawned, "PrefabImporter"),
            "Assets/Art/Resources/Loaded.prefab": prefab.replace("JUMP", "2"),
            "Assets/Scenes/Lobby.unity": _header() + _instance(500, spawned, []),
        },
    )
    update(root, Config(workers=1))
    project, local = open_workspace(root, projects_at(root)).owner("Assets/Scripts/Mover.cs")
    assert pack_values(project, local, {"jump", "forc"})[1:] == [
        "  Assets/Art/Resources/Loaded.prefab:26  Body > Mover.jumpForce: 2",
        "  Assets/Prefabs/Orphan.prefab:26  Body > Mover.jumpForce: 1.4 (nothing uses this prefab)",
        "  … 1 more (unity-index refs Mover.jumpForce)",
    ]


def test_a_folded_scene_s_objects_keep_half_the_lines_however_many_calls_follow(tmp_path: Path) -> None:
    """folding.folded: the objects are cut to the room the parts after them leave, but at least half
    the lines stay theirs: a menu of thirty buttons does not leave its scene's objects unsaid."""
    from indexer.query.describe import describe

    point, menu = "d7" * 16, "d8" * 16
    waypoints = "".join(
        _object(100 + 10 * i, f"{i} Waypoint", [102 + 10 * i]) + _behaviour(102 + 10 * i, 100 + 10 * i, point)
        for i in range(30)
    )
    buttons = "".join(
        _object(6000 + 10 * i, f"{i} Button", [6002 + 10 * i])
        + _behaviour(6002 + 10 * i, 6000 + 10 * i, BUTTON, _on_click(5002, "Menu, Assembly-CSharp", "Open"))
        for i in range(30)
    )
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/AiWaypoint.cs": "public class AiWaypoint : UnityEngine.MonoBehaviour { }\n",
            "Assets/Scripts/AiWaypoint.cs.meta": meta(point),
            "Assets/Scripts/Menu.cs": "public class Menu : UnityEngine.MonoBehaviour { public void Open() { } }\n",
            "Assets/Scripts/Menu.cs.meta": meta(menu),
            "Assets/Scenes/Track.unity": _header()
            + waypoints
            + _object(5000, "Menu", [5002])
            + _behaviour(5002, 5000, menu)
            + buttons,
        },
    )
    update(root, Config(workers=1))
    graph = open_workspace(root, projects_at(root)).projects[0].graph
    lines = describe(graph, "Assets/Scenes/Track.unity", max_lines=20).text.split("\n")[1:]
    cut = next(i for i, line in enumerate(lines) if line.startswith("… ") and "more lines of objects" in line)
    assert cut == 10 and lines[cut + 1] == "UnityEvent calls:"


def test_a_language_written_without_spaces_is_searched_by_its_runs(tmp_path: Path) -> None:
    """docs/indexing.md: Chinese or Japanese is searched by its runs between spaces and punctuation,
    not by word: the whole run finds its file, a word inside it does not."""
    root = write_project(tmp_path / "p", {"Assets/Data/skills.csv": "id,text\nfire,攻击力提高，持续三秒\n"})
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    assert [h.path for h in ws.search("攻击力提高", 3)] == ["Assets/Data/skills.csv"]
    assert ws.search("攻击力", 3) == []


def test_a_name_two_using_directives_give_means_both_types(tmp_path: Path) -> None:
    """docs/indexing.md: the usings are one level of the lookup: a name two of them give is both
    (C# calls it ambiguous; the index cannot tell which the author meant)."""
    root = write_project(
        tmp_path / "p",
        {
            "Assets/A/Player.cs": "namespace Alpha\n{\n    public class Player { }\n}\n",
            "Assets/B/Player.cs": "namespace Beta\n{\n    public class Player { }\n}\n",
            "Assets/Hud.cs": "using Alpha;\nusing Beta;\n\npublic class Hud\n{\n    public Player Local;\n}\n",
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    for path in ("Assets/A/Player.cs", "Assets/B/Player.cs"):
        assert [(u.path, u.line) for u in find_references(ws, path)[1] if u.where == "code"] == [("Assets/Hud.cs", 6)]
