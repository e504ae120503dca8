"""What session 31's three new users' trials found wrong or missing, each on a small project
written for it (a farming RPG, a Bomberman driven by event channels, a tactics RPG with
cutscenes): the fixes' behaviour, exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.cli import doctor
from indexer.config import Config
from indexer.query.describe import describe
from indexer.query.locate import references_of
from indexer.query.lookup import LookupFailed
from indexer.query.quotes import quoted_phrases
from indexer.query.startup import asks_startup
from indexer.query.synonyms import synonym_words
from indexer.query.workspace import open_workspace, projects_at

from .conftest import meta, write_project
from .test_graph import graph_for
from .test_unity_event_targets import _behaviour, _header, _object, _on_click

MANAGER, BUTTON, PLAYER, ITEM = "a" * 32, "b" * 32, "c" * 32, "d" * 32


def _workspace(root: Path):
    update(root, Config(workers=1))
    return open_workspace(root, projects_at(root))


def test_a_scene_named_with_a_space_is_loaded_by_the_code_naming_it(tmp_path: Path) -> None:
    """csharp_strings: a literal with a space is a key only in a path or after the word scene;
    `LoadScene("Loading Screen")` loads `Loading Screen.unity`, a log line loads nothing."""
    code = (
        "using UnityEngine.SceneManagement;\nclass Menu {\n"
        '  void Play() { SceneManager.LoadScene("Loading Screen"); }\n'
        '  void Log() { Debug.Log("Loading Screen"); }\n}\n'
    )
    scene = _header() + _object(1, "Root", [])
    root = write_project(
        tmp_path / "P", {"Assets/Menu.cs": code, "Assets/Scenes/Loading Screen.unity": scene, "Assets/Log.unity": scene}
    )
    g = graph_for(root)
    found = [(u.path, u.line, u.kind) for u in g.references(g.target("Assets/Scenes/Loading Screen.unity"))]
    # since session 32 every other line writing the name is listed as naming it, not loading it
    assert found == [("Assets/Menu.cs", 3, "loads"), ("Assets/Menu.cs", 4, "names")]


def _buttons(tmp_path: Path, base: str = "MonoBehaviour") -> Path:
    """A manager whose buttons call a method it has, one it inherits from a project base, one
    Unity's Behaviour gives it (a property's setter) and one deleted since."""
    calls = {
        110: "Open",
        120: "Close",  # declared by the project's base class
        130: "set_enabled",
        140: "CheatItems",  # no such method
    }
    objects = _header() + _object(100, "Manager", [101]) + _behaviour(101, 100, MANAGER)
    for file_id, method in calls.items():
        objects += _object(file_id * 10, f"Button{file_id}", [file_id * 10 + 1])
        objects += _behaviour(
            file_id * 10 + 1, file_id * 10, BUTTON, _on_click(101, "Manager, Assembly-CSharp", method)
        )
    return write_project(
        tmp_path / "P",
        {
            "Assets/Panel.cs": f"public class Panel : {base} {{ public void Close() {{ }} }}\n",
            "Assets/Manager.cs": "public class Manager : Panel { public void Open() { } }\n",
            "Assets/Manager.cs.meta": meta(MANAGER),
            "Assets/Menu.prefab": objects,
        },
    )


def test_a_unity_event_calling_a_method_no_class_declares_says_so(tmp_path: Path) -> None:
    """calls._missing: a button bound to a method deleted since calls nothing; one the class
    inherits from its project base or from Unity's own classes is there."""
    g = graph_for(_buttons(tmp_path))
    calls = [line.split(" -> ")[1] for line in describe(g, "Assets/Menu.prefab").text.splitlines() if " -> " in line]
    assert calls == [
        "Manager.Open",
        "Manager.Close",
        "Manager.set_enabled",
        "Manager.CheatItems (no method CheatItems in Manager)",
    ]


def test_a_method_is_not_said_missing_on_a_class_deriving_from_a_package_class(tmp_path: Path) -> None:
    """A base outside the project and Unity's own (a package's `NetworkBehaviour`) may declare it."""
    g = graph_for(_buttons(tmp_path, base="NetworkBehaviour"))
    assert "(no method" not in describe(g, "Assets/Menu.prefab").text


def test_refs_of_a_member_no_class_declares_lists_the_buttons_still_bound_to_it(tmp_path: Path) -> None:
    ws = _workspace(_buttons(tmp_path))
    with pytest.raises(LookupFailed) as failed:
        references_of(ws, "Manager.CheatItems")
    assert str(failed.value) == (
        "Manager is a type, but neither it nor a base class declares CheatItems; UnityEvent calls still name it,"
        " bound to nothing: Assets/Menu.prefab:166; `unity-index refs Manager` lists the type's usages"
    )


def _instance(file_id: int, source: str, overrides: list[tuple[int, str, str]]) -> str:
    mods = "".join(
        f"    - target: {{fileID: {target}, guid: {source}, type: 3}}\n      propertyPath: {prop}\n"
        f"      value: {value}\n      objectReference: {{fileID: 0}}\n"
        for target, prop, value in overrides
    )
    return (
        f"--- !u!1001 &{file_id}\nPrefabInstance:\n  m_Modification:\n    m_TransformParent: {{fileID: 0}}\n"
        f"    m_Modifications:\n{mods}    m_RemovedComponents: []\n"
        f"  m_SourcePrefab: {{fileID: 100100000, guid: {source}, type: 3}}\n"
    )


def _player_project(tmp_path: Path, overrides: list[tuple[int, str, str]]) -> Path:
    player = _header() + _object(100, "Player", [102]) + _behaviour(102, 100, ITEM, "  speed: 1\n")
    return write_project(
        tmp_path / "P",
        {
            "Assets/Mover.cs": "public class Mover : UnityEngine.MonoBehaviour\n{\n    public float speed;\n"
            + "".join(f"    public int extra{i};\n" for i in range(7))
            + "}\n",
            "Assets/Mover.cs.meta": meta(ITEM),
            "Assets/Player.prefab": player,
            "Assets/Player.prefab.meta": meta(PLAYER, "PrefabImporter"),
            "Assets/Level.unity": _header() + _instance(900, PLAYER, overrides),
        },
    )


def test_an_instance_is_named_by_its_root_s_rename_past_one_of_an_object_deleted_since(tmp_path: Path) -> None:
    """instances.editor_name: the scanner named the instance by its first `m_Name` override, of
    an object the prefab no longer holds; the editor shows the root's rename."""
    root = _player_project(tmp_path, [(555, "m_Name", "Tile Check"), (100, "m_Name", "Hero"), (102, "speed", "3")])
    g = graph_for(root)
    assert describe(g, "Assets/Level.unity").text.splitlines()[1] == (
        "Hero  (prefab instance of Assets/Player.prefab)  L3"
    )


def test_an_instance_s_overrides_past_eight_are_counted_and_its_placement_said_last(tmp_path: Path) -> None:
    placement = [(101, f"m_LocalPosition.{axis}", "0") for axis in "xyz"]
    fields = [(102, f"extra{i}", str(i)) for i in range(7)]
    g = graph_for(_player_project(tmp_path, [*placement, *fields]))
    overrides = describe(g, "Assets/Level.unity").text.splitlines()[2]
    assert overrides == (
        "  overrides: extra0: 0; extra1: 1; extra2: 2; extra3: 3; extra4: 4; extra5: 5; extra6: 6;"
        " m_LocalPosition.x: 0; … 2 more"
    )


def test_describe_says_how_a_scene_uses_each_file(tmp_path: Path) -> None:
    """A placed prefab is an instance, a field naming one a reference (both read `(prefab)` and
    `(asset)` before, as if two kinds of file)."""
    scene = _header() + _instance(900, PLAYER, []) + _object(10, "Spawner", [11])
    scene += _behaviour(11, 10, ITEM, f"  prefab: {{fileID: 100100000, guid: {'f' * 32}, type: 3}}\n")
    root = _player_project(tmp_path, [])
    (root / "Assets/Level.unity").write_text(scene)
    (root / "Assets/Coin.prefab").write_text(_header() + _object(1, "Coin", []))
    (root / "Assets/Coin.prefab.meta").write_text(meta("f" * 32, "PrefabImporter"))
    text = describe(graph_for(root), "Assets/Level.unity").text
    assert text.splitlines()[-1] == (
        "uses: Assets/Coin.prefab (reference), Assets/Mover.cs (script), Assets/Player.prefab (instance)"
    )


def test_a_file_is_used_wherever_any_type_it_declares_is(tmp_path: Path) -> None:
    """graph._path_target: `Void` beside `VoidChannel`; a file whose one class is named otherwise."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/VoidChannel.cs": "public class VoidChannel { }\npublic class Void { }\n",
            "Assets/Helpers.cs": "public static class Tools { public static void Go() { } }\n",
            "Assets/Game.cs": "public class Game {\n  Void v;\n  void A() { Tools.Go(); }\n}\n",
        },
    )
    g = graph_for(root)
    assert [(u.path, u.line) for u in g.references(g.target("Assets/VoidChannel.cs"))] == [("Assets/Game.cs", 2)]
    assert [(u.path, u.line) for u in g.references(g.target("Assets/Helpers.cs"))] == [("Assets/Game.cs", 3)]
    assert describe(g, "Assets/VoidChannel.cs").text.endswith("used by: Assets/Game.cs")


def test_a_variant_of_a_variant_says_what_it_sets(tmp_path: Path) -> None:
    """carriers.with_settings(through=True): describe's values of a prefab list every variant down
    the chain with what it sets."""
    root = _player_project(tmp_path, [])
    (root / "Assets/Level.unity").unlink()
    (root / "Assets/Elite.prefab").write_text(_header() + _instance(900, PLAYER, [(102, "speed", "5")]))
    (root / "Assets/Elite.prefab.meta").write_text(meta("e" * 32, "PrefabImporter"))
    (root / "Assets/Boss.prefab").write_text(_header() + _instance(800, "e" * 32, [(900 ^ 102, "speed", "9")]))
    text = describe(graph_for(root), "Assets/Player.prefab").text
    assert text.split("values set by its instances and variants:\n")[1].splitlines() == [
        "  Assets/Boss.prefab:3  Elite (via Assets/Elite.prefab) (sets speed: 9)",
        "  Assets/Elite.prefab:3  Player (sets speed: 5)",
    ]


def test_doctor_says_which_files_have_no_meta_and_why_it_matters(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "P",
        {
            "Assets/A.cs": "class A {}",
            "Assets/A.cs.meta": meta(MANAGER),
            "Assets/B.cs": "class B {}",
            "Assets/Hero.prefab": _header() + _object(1, "Hero", []),
            ".gitignore": "Library/\n*.meta\n",
        },
    )
    update(root, Config(workers=1))
    check = {c.name: c for c in doctor.run(str(root), Path.cwd()).checks}["meta-files"]
    assert (check.status, check.detail, check.fix) == (
        "warn",
        "2 files under Assets/ have no .meta (1 csharp, 1 prefab; e.g. Assets/B.cs): Unity gives each a new GUID"
        " on import, so the scenes and prefabs naming them by GUID lose them, and `refs` and `describe` cannot"
        " resolve those references",
        "remove `*.meta` from .gitignore and commit the .meta files Unity wrote for them",
    )


def test_a_name_pasted_alone_is_looked_for_as_written() -> None:
    """quotes.quoted_phrases: a task that is one joined name (an animation's, a state's) quotes it."""
    assert quoted_phrases("GhostZombieRun_Normal") == ["ghostzombierun_normal"]
    assert quoted_phrases("the GhostZombieRun_Normal clip") == []


def test_a_quoted_name_is_found_in_a_file_s_names_not_only_its_text(tmp_path: Path) -> None:
    """search.holding: an animation clip holds its name among its names."""
    clip = _header() + "--- !u!74 &7400000\nAnimationClip:\n  m_Name: ZombieRun_Normal\n  m_WrapMode: 0\n"
    root = write_project(tmp_path / "P", {"Assets/ZombieRun_Normal.anim": clip, "Assets/Run.cs": "class Run {}"})
    searcher = _workspace(root).projects[0].fresh().searcher
    assert [c.path for c in searcher.holding(["zombierun", "normal"], 5, None, None)] == [
        "Assets/ZombieRun_Normal.anim"
    ]


@pytest.mark.parametrize(
    ("task", "asked"),
    [
        ("what happens when the game starts", True),
        ("The first time I launch the game it asks for a folder", True),
        ("where is the bootstrap code", True),
        ("what runs on startup", True),
        ("which is the entry point", True),
        ("the round starts too early", False),
        ("my boots give no armour", False),
        ("with the 'load bootstrap scene' option off nothing renders", False),  # a quoted option's words
    ],
)
def test_a_task_asking_what_happens_as_the_game_starts(task: str, asked: bool) -> None:
    assert asks_startup(task) is asked


def test_the_first_scene_of_the_build_and_its_scripts_answer_what_happens_at_start(tmp_path: Path) -> None:
    build = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1045 &1\nEditorBuildSettings:\n  m_Scenes:\n"
        "  - enabled: 1\n    path: Assets/Boot.unity\n    guid: 1111\n"
        "  - enabled: 1\n    path: Assets/Game.unity\n    guid: 2222\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "ProjectSettings/EditorBuildSettings.asset": build,
            "Assets/Loader.cs": "public class Loader : UnityEngine.MonoBehaviour { void Awake() { } }\n",
            "Assets/Loader.cs.meta": meta(MANAGER),
            "Assets/Boot.unity": _header() + _object(1, "Root", [2]) + _behaviour(2, 1, MANAGER),
            "Assets/Game.unity": _header() + _object(1, "Game", []),
            "Assets/Round.cs": "public class Round { void Start() { } void GameStarts() { } }\n",
        },
    )
    ws = _workspace(root)
    hits = ws.search("what happens when the game starts", 4)
    assert [(h.path, h.reason) for h in hits] == [
        ("Assets/Round.cs", "text match"),
        ("Assets/Boot.unity", "the first scene of the build: where the game starts; carries script Assets/Loader.cs"),
        ("Assets/Loader.cs", "script on Assets/Boot.unity"),  # above Game.unity since session 32's ALONE_GAIN
        ("Assets/Game.unity", "text match"),
    ]


def test_cutscene_searches_the_cinematics_it_is_written_as() -> None:
    assert synonym_words(["cutscene"]) == ("cinematic", "cinematics")


def test_a_component_added_to_an_object_below_an_instance_s_root_says_which(tmp_path: Path) -> None:
    """Schema 35: the scanner records the stripped object a component added to an instance sits
    on; the outline names it from the source prefab (one on the root says nothing more)."""
    root_object = _object(100, "Player", [102]).replace("m_Children: []", "m_Children:\n  - {fileID: 201}")
    child = _object(200, "Model", []).replace("m_Father: {fileID: 0}", "m_Father: {fileID: 101}")
    player = _header() + root_object + child + _behaviour(102, 100, ITEM, "  speed: 1\n")
    level = (
        _header()
        + _instance(900, PLAYER, [(100, "m_Name", "Hero")])
        + f"--- !u!1 &950 stripped\nGameObject:\n  m_CorrespondingSourceObject: {{fileID: 200, guid: {PLAYER},"
        " type: 3}\n  m_PrefabInstance: {fileID: 900}\n"
        + f"--- !u!1 &960 stripped\nGameObject:\n  m_CorrespondingSourceObject: {{fileID: 100, guid: {PLAYER},"
        " type: 3}\n  m_PrefabInstance: {fileID: 900}\n"
        + "--- !u!95 &951\nAnimator:\n  m_GameObject: {fileID: 950}\n  m_Enabled: 1\n"
        + "--- !u!82 &961\nAudioSource:\n  m_GameObject: {fileID: 960}\n  m_Enabled: 0\n"
    )
    root = _player_project(tmp_path, [])
    (root / "Assets/Player.prefab").write_text(player)
    (root / "Assets/Level.unity").write_text(level)
    text = describe(graph_for(root), "Assets/Level.unity").text
    assert "  added components: Animator (on Hero/Model), AudioSource (disabled)\n" in text


def test_each_object_of_a_timeline_is_outlined_by_its_name_and_script(tmp_path: Path) -> None:
    """Schema 35: a `.playable` holds the timeline, its tracks and markers, each a MonoBehaviour
    with no GameObject; all read as the first one's fields."""
    objects = (
        _header()
        + _behaviour(11, 0, "1" * 32).replace("m_Name: \n", "m_Name: Intro\n")
        + _behaviour(12, 0, "2" * 32, "  m_Locked: 0\n").replace("m_Name: \n", "m_Name: Mayor\n")
        + _behaviour(13, 0, "3" * 32, "  m_Time: 2.5\n").replace("m_Name: \n", "m_Name: 'Like hell you were!'\n")
    )
    root = write_project(tmp_path / "P", {"Assets/Intro.playable": objects})
    lines = describe(graph_for(root), "Assets/Intro.playable").text.splitlines()
    assert [line.split(": script")[0] for line in lines if line.startswith("ScriptableObject")] == [
        "ScriptableObject Intro",
        "ScriptableObject Mayor",
        "ScriptableObject Like hell you were!",
    ]


def test_a_bare_name_written_alone_loads_only_in_a_file_using_resources(tmp_path: Path) -> None:
    """loads.Loadable.resolve: `return "Wood";` (a footstep's surface) is no load of
    `Resources/Wood.asset`; a constant a `Resources.Load` reads is, and so is any call's argument."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Resources/Wood.asset": _header() + "--- !u!114 &1\nMonoBehaviour:\n  m_Name: Wood\n",
            "Assets/Steps.cs": 'class Steps {\n  string Surface() { return "Wood"; }\n}\n',
            "Assets/Crafting.cs": (
                'using UnityEngine;\nclass Crafting {\n  const string Item = "Wood";\n'
                "  Object Get() { return Resources.Load(Item); }\n}\n"
            ),
            "Assets/Shop.cs": 'class Shop {\n  void Buy() { Catalog.Find("Wood"); }\n}\n',
        },
    )
    g = graph_for(root)
    found = [(u.path, u.line) for u in g.references(g.target("Assets/Resources/Wood.asset")) if u.kind == "loads"]
    assert found == [("Assets/Crafting.cs", 3), ("Assets/Shop.cs", 2)]
    assert [p for p, e in g.used_by("Assets/Resources/Wood.asset") if e == "loaded_by"] == [
        "Assets/Crafting.cs",
        "Assets/Shop.cs",
    ]


def test_an_override_s_own_base_call_is_not_a_usage_of_it(tmp_path: Path) -> None:
    """member_text: `base.Open()` inside `Inventory.Open` runs `Panel.Open`, never the override;
    a subclass's `base.Open()` runs `Inventory.Open`."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Panel.cs": "public class Panel {\n  public virtual void Open() { }\n}\n",
            "Assets/Inventory.cs": (
                "public class Inventory : Panel {\n  public override void Open() {\n    base.Open();\n  }\n}\n"
            ),
            "Assets/Chest.cs": (
                "public class Chest : Inventory {\n  public override void Open() {\n    base.Open();\n  }\n}\n"
            ),
        },
    )
    g = graph_for(root)
    found = [(u.path, u.line) for u in g.references(g.target("Inventory.Open")) if u.where == "code"]
    assert found == [("Assets/Chest.cs", 3)]


def test_matched_lines_show_each_word_of_the_task_before_more_of_a_common_one() -> None:
    """textmatch.matched_lines: a player script's forty `player` lines crowded out the one line
    handling a powerup."""
    from indexer.query.textmatch import matched_lines

    text = "".join(f"int player{i} = {i};\n" for i in range(40)) + 'if (tag == "PlusPowerup") Take();\n'
    lines = matched_lines(text, text.lower(), frozenset({"player", "powerup"}))
    assert lines == [f"  L{i + 1}: int player{i} = {i};" for i in range(7)] + [
        '  L41: if (tag == "PlusPowerup") Take();'
    ]


def test_a_path_built_on_a_folder_of_the_asset_may_load_it(tmp_path: Path) -> None:
    """loads._prefix_loads: `Resources.Load("Props/Projectiles/" + id)` may load every projectile;
    `refs` said no code used them. A folder's name written alone loads nothing."""
    prefab = _header() + _object(1, "FireBall", [])
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Resources/Props/Projectiles/FireBall.prefab": prefab,
            "Assets/Spells.cs": (
                "using UnityEngine;\nclass Spells {\n"
                '  Object Cast(string id) { return Resources.Load("Props/Projectiles/" + id); }\n'
                '  string Folder() { return "Props/Projectiles/"; }\n}\n'
            ),
        },
    )
    g = graph_for(root)
    found = [
        (u.path, u.line, u.context)
        for u in g.references(g.target("Assets/Resources/Props/Projectiles/FireBall.prefab"))
    ]
    assert found == [("Assets/Spells.cs", 3, "path prefix")]


def test_refs_of_an_enum_member_lists_the_assets_holding_it(tmp_path: Path) -> None:
    """enum_values.enum_member_usages: Unity writes the chosen member as its number."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/CinematicId.cs": "public enum CinematicId { Intro, MeetTheMayor, Outro }\n",
            "Assets/Moment.cs": "public class Moment : UnityEngine.MonoBehaviour { public CinematicId Id; }\n",
            "Assets/Moment.cs.meta": meta(ITEM),
            "Assets/Town.unity": _header()
            + _object(1, "Gate", [2])
            + _behaviour(2, 1, ITEM, "  Id: 1\n")
            + _object(3, "Hall", [4])
            + _behaviour(4, 3, ITEM, "  Id: 2\n"),
        },
    )
    g = graph_for(root)
    found = [(u.path, u.line, u.detail) for u in g.references(g.target("CinematicId.MeetTheMayor"))]
    assert found == [("Assets/Town.unity", 26, "Gate > Moment.Id: 1 (MeetTheMayor)")]


def test_async_as_a_name_is_no_syntax_error() -> None:
    """csharp_recover.reparsed: C# allows `async` as a parameter's name; the grammar does not, and
    a valid message router read as three syntax error regions."""
    from indexer.scanners import scan

    source = (
        b"class Router {\n  public void Send(int m, bool async = true) { if (async) { Go(); } }\n"
        b"  async void Go() { var f = async () => 1; }\n}\n"
    )
    rec = scan("Assets/Router.cs", "csharp", source)
    assert (rec.status, rec.error_lines) == ("ok", ())
    assert [(s.name, s.signature) for s in rec.symbols] == [
        ("Router", "class Router"),
        ("Send", "public void Send(int m, bool async = true)"),
        ("Go", "async void Go()"),
    ]


def test_describe_lists_objects_in_the_hierarchy_s_order(tmp_path: Path) -> None:
    """yaml_hierarchy.in_order: a file's objects are in fileID order; the Inspector shows roots by
    `SceneRoots` and children by their parent's `m_Children` (a layout group's rows)."""

    def obj(go: int, name: str, father: int, children: list[int]) -> str:
        kids = "".join(f"\n  - {{fileID: {c}}}" for c in children) or " []"
        return (
            f"--- !u!1 &{go}\nGameObject:\n  m_Component:\n  - component: {{fileID: {go + 1}}}\n  m_Name: {name}\n"
            f"--- !u!4 &{go + 1}\nTransform:\n  m_GameObject: {{fileID: {go}}}\n  m_Children:{kids}\n"
            f"  m_Father: {{fileID: {father}}}\n"
        )

    scene = (
        _header()
        + obj(10, "Zeta", 0, [])
        + obj(20, "Menu", 0, [61, 41, 51])
        + obj(40, "Second", 21, [])
        + obj(50, "Third", 21, [])
        + obj(60, "First", 21, [])
        + "--- !u!1660057539 &9923460\nSceneRoots:\n  m_Roots:\n  - {fileID: 21}\n  - {fileID: 11}\n"
    )
    assert _objects_listed(write_project(tmp_path / "P", {"Assets/Menu.unity": scene}), "Assets/Menu.unity") == [
        "Menu",
        "  First",
        "  Second",
        "  Third",
        "Zeta",
    ]


def _objects_listed(root: Path, path: str) -> list[str]:
    """The objects `describe` lists, indented as it indents them."""
    lines = describe(graph_for(root), path).text.splitlines()
    return [line.split("  L")[0] for line in lines if "  L" in line and "components" not in line]


def test_roots_without_scene_roots_are_in_their_root_order(tmp_path: Path) -> None:
    """Before Unity 2022 each root transform says its place, `m_RootOrder`."""
    scene = _header()
    for go, name, order in ((10, "Last", 2), (20, "First", 0), (30, "Middle", 1)):
        scene += (
            f"--- !u!1 &{go}\nGameObject:\n  m_Component:\n  - component: {{fileID: {go + 1}}}\n  m_Name: {name}\n"
            f"--- !u!4 &{go + 1}\nTransform:\n  m_GameObject: {{fileID: {go}}}\n  m_Children: []\n"
            f"  m_Father: {{fileID: 0}}\n  m_RootOrder: {order}\n"
        )
    assert _objects_listed(write_project(tmp_path / "P", {"Assets/Old.unity": scene}), "Assets/Old.unity") == [
        "First",
        "Middle",
        "Last",
    ]


def _nesting_project(tmp_path: Path) -> Path:
    """A soldier prefab nesting a rifle prefab; a level placing the soldier, overriding the layer
    of three objects of the nested rifle and a joint's anchor."""
    rifle = _header() + _object(100, "Rifle", []) + _object(200, "Barrel", []) + _object(300, "Stock", [])
    nested = _instance(500, "f" * 32, [(100, "m_Name", "Rifle")]).replace(
        "m_TransformParent: {fileID: 0}", "m_TransformParent: {fileID: 11}"
    )
    soldier = _header() + _object(10, "Soldier", []) + nested
    # the rifle's objects as the soldier holds them: (instance ^ object) & (2**63 - 1)
    overrides = [(500 ^ go, "m_Layer", "18") for go in (100, 200, 300)] + [(500 ^ 301, "m_ConnectedAnchor.x", "0.25")]
    return write_project(
        tmp_path / "P",
        {
            "Assets/Rifle.prefab": rifle,
            "Assets/Rifle.prefab.meta": meta("f" * 32, "PrefabImporter"),
            "Assets/Soldier.prefab": soldier,
            "Assets/Soldier.prefab.meta": meta(PLAYER, "PrefabImporter"),
            "Assets/Level.unity": _header() + _instance(900, PLAYER, [(10, "m_Name", "Guard"), *overrides]),
        },
    )


def test_one_value_set_on_several_nested_objects_is_said_once(tmp_path: Path) -> None:
    """override_targets.pieces: `m_Layer: 18` four times read as the root's layer set four times;
    a joint's anchor goes last with the placement."""
    text = describe(graph_for(_nesting_project(tmp_path)), "Assets/Level.unity").text
    assert text.splitlines()[2] == (  # (since session 33 said to be in the nested prefab, not the root's)
        "  overrides: m_Name: Guard; m_Layer: 18 (in a nested prefab) (on 3 objects); m_ConnectedAnchor.x: 0.25"
        " (in a nested prefab)"
    )


def test_an_instance_of_a_prefab_nesting_the_target_sets_nothing_of_it(tmp_path: Path) -> None:
    """carriers.with_settings: through variants only; a soldier's overrides are not the rifle's."""
    _, usages = references_of(_workspace(_nesting_project(tmp_path)), "Assets/Rifle.prefab")
    assert [(u.path, u.detail) for u in usages] == [
        ("Assets/Level.unity", "Guard (via Assets/Soldier.prefab)"),
        ("Assets/Soldier.prefab", "Soldier/Rifle"),
    ]


def test_sight_searches_vision() -> None:
    """An enemy's `AiVisionSensor` for "how far can enemies sight the player"."""
    assert synonym_words(["sight"]) == ("eyesight", "vision")


@pytest.mark.parametrize(
    ("version", "named"),
    [
        ("2.7.2", "Cinemachine.CinemachineBlendListCamera"),
        ("3.1.0", "Unity.Cinemachine.CinemachineSequencerCamera"),
        (None, "Unity.Cinemachine.CinemachineSequencerCamera"),
    ],
)
def test_a_package_component_is_named_as_the_project_s_version_names_it(
    tmp_path: Path, version: str | None, named: str
) -> None:
    """package_classes: Cinemachine 3 renamed 2's classes under the same GUIDs; a 2.x project's
    code writes `Cinemachine.CinemachineBlendListCamera`."""
    files = {"Assets/A.cs": "class A {}"}
    if version:
        files["Packages/manifest.json"] = f'{{"dependencies": {{"com.unity.cinemachine": "{version}"}}}}\n'
    g = graph_for(write_project(tmp_path / "P", files))
    assert g.script_class("53258ad9ad6e71e48bb8643c9522112e") == named
    assert g.target(named.rsplit(".", 1)[1]).name == named


def test_a_method_signature_chosen_by_if_is_no_syntax_error() -> None:
    """csharp_recover.first_branches: `#if UNITY_6000_0_OR_NEWER` and `#else` each opening a
    signature, one body for both; the first branch is read."""
    from indexer.scanners import scan

    source = (
        b"class GradientText : TMP_Text {\n#if UNITY_6000_0_OR_NEWER\n"
        b"  protected override void Fill(int i)\n#else\n  protected override void Fill(int i, int x4)\n#endif\n"
        b"  {\n    Paint(i);\n  }\n}\n"
    )
    rec = scan("Assets/GradientText.cs", "csharp", source)
    assert (rec.status, rec.error_lines) == ("ok", ())
    assert [(s.name, s.line, s.signature) for s in rec.symbols] == [
        ("GradientText", 1, "class GradientText : TMP_Text"),
        ("Fill", 3, "protected override void Fill(int i)"),
    ]


def test_an_address_built_on_a_folder_of_the_asset_may_load_it(tmp_path: Path) -> None:
    """loads._prefix_loads: an Addressables address is a key too (`"CardTemplates/" + id`)."""
    from .test_addressables import GROUP, ORC

    root = write_project(
        tmp_path / "P",
        {
            "Assets/AddressableAssetsData/AssetGroups/Enemies.asset": GROUP,
            "Assets/Orc.prefab": _header() + _object(1, "Orc", []),
            "Assets/Orc.prefab.meta": meta(ORC, "PrefabImporter"),
            "Assets/Spawner.cs": (
                "class Spawner {\n  void Spawn(string id) {\n"
                '    Addressables.LoadAssetAsync<GameObject>("Enemies/" + id);\n  }\n}\n'
            ),
        },
    )
    g = graph_for(root)
    found = [(u.path, u.line, u.context) for u in g.references(g.target("Assets/Orc.prefab")) if u.where == "code"]
    assert found == [("Assets/Spawner.cs", 3, "path prefix")]


def test_refs_of_a_file_name_two_files_have_says_so(tmp_path: Path) -> None:
    """locate.references_of: `refs --UI--.prefab` with two of them said "no file of that name"."""
    from indexer.query.lookup import AmbiguousFile

    prefab = _header() + _object(1, "UI", [])
    ws = _workspace(write_project(tmp_path / "P", {"Assets/A/--UI--.prefab": prefab, "Assets/B/--UI--.prefab": prefab}))
    with pytest.raises(AmbiguousFile) as failed:
        references_of(ws, "--UI--.prefab")
    assert str(failed.value) == (
        "--UI--.prefab names 2 files: Assets/A/--UI--.prefab, Assets/B/--UI--.prefab; give more of the path"
    )


def test_the_query_a_failed_refs_suggests_can_be_pasted_for_a_name_starting_with_a_dash(tmp_path: Path) -> None:
    from .conftest import run_cli

    root = write_project(tmp_path / "P", {"Assets/A.cs": "class A {}"})
    r = run_cli("refs", "--project", str(root), "--", "--Nothing--.prefab")
    assert (r.returncode, r.stderr.strip().splitlines()[-1]) == (
        2,
        "error: --Nothing--.prefab: no type, member, file, GUID or assembly of that name;"
        " `unity-index query -- --Nothing--.prefab` searches by words",
    )


def test_refs_of_a_class_built_into_unity_lists_its_objects_and_code(tmp_path: Path) -> None:
    """builtin_refs: `refs NavMeshAgent` exited "no type ... of that name"."""
    enemy = _header() + _object(1, "Enemy", []) + "--- !u!195 &3\nNavMeshAgent:\n  m_GameObject: {fileID: 1}\n"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Enemy.prefab": enemy,
            "Assets/Enemy.prefab.meta": meta(PLAYER, "PrefabImporter"),
            "Assets/Level.unity": _header() + _instance(900, PLAYER, [(1, "m_Name", "Imp")]),
            "Assets/Chase.cs": "using UnityEngine.AI;\nclass Chase {\n  NavMeshAgent agent;\n}\n",
        },
    )
    target, usages = references_of(_workspace(root), "NavMeshAgent")
    assert (target.kind, target.name) == ("builtin", "NavMeshAgent")
    assert [(u.path, u.line, u.kind, u.detail) for u in usages] == [
        ("Assets/Enemy.prefab", 17, "component", "Enemy > NavMeshAgent"),
        ("Assets/Level.unity", 3, "prefab", "Imp (via Assets/Enemy.prefab)"),  # an instance carries it too
        ("Assets/Chase.cs", 3, "type", "NavMeshAgent agent;"),
    ]


def test_a_project_class_named_as_unity_s_is_the_project_s(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/Rigidbody.cs": "class Rigidbody {}\nclass Ship { Rigidbody r; }\n"})
    target, _ = references_of(_workspace(root), "Rigidbody")
    assert (target.kind, target.types) == ("type", ["Rigidbody"])


def test_doctor_says_commit_the_metas_when_git_does_not_ignore_them_and_passes_with_all(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class A {}", "Assets/B.cs": "class B {}"})
    update(root, Config(workers=1))
    check = {c.name: c for c in doctor.run(str(root), Path.cwd()).checks}["meta-files"]
    assert (check.status, check.fix) == ("warn", "commit the .meta files Unity wrote for them")
    (root / "Assets/A.cs.meta").write_text(meta(MANAGER))
    (root / "Assets/B.cs.meta").write_text(meta(BUTTON))
    update(root, Config(workers=1))
    check = {c.name: c for c in doctor.run(str(root), Path.cwd()).checks}["meta-files"]
    assert (check.status, check.detail) == ("pass", "every file under Assets/ has its .meta")
