"""Defects found by a new user's trial in session 40 (docs/retrieval.md, "session 40"), each a
test seen failing before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.query.locate import LookupFailed, locate_file, references_of
from indexer.query.lookup import AmbiguousFile, describe_target

from .conftest import meta, write_project
from .test_trials_session32 import BUILD, _workspace
from .test_unity_event_targets import _header, _object


def test_a_scene_loaded_by_application_load_level_is_used_by_that_line(tmp_path: Path) -> None:
    """A 2D farming game loads every scene with Unity 4's `Application.LoadLevel(4)`: `refs` of
    its Victory scene listed the build settings alone, which invites deleting it."""
    build = BUILD + "  - enabled: 1\n    path: Assets/Scenes/Victory.unity\n    guid: 3\n"
    root = write_project(
        tmp_path / "P",
        {
            "ProjectSettings/EditorBuildSettings.asset": build,
            "Assets/Scenes/Boot.unity": _header() + _object(1, "R", []),
            "Assets/Scenes/Victory.unity": _header() + _object(1, "R", []),
            "Assets/Clock.cs": (
                "using UnityEngine;\nclass Clock : MonoBehaviour {\n  void Win() { Application.LoadLevel(1); }\n"
                "  void Again() { Application.LoadLevelAsync(0); }\n  int x = Load(1);\n"
                "  void Hud() { Application.LoadLevelAdditive(1); }\n}\n"
            ),
        },
    )
    ws = _workspace(root)

    def code(scene: str) -> list[tuple[int, str, str]]:
        return [(u.line, u.context, u.detail) for u in references_of(ws, scene)[1] if u.where == "code"]

    assert code("Assets/Scenes/Victory.unity") == [
        (3, "build index", "void Win() { Application.LoadLevel(1); }"),
        (6, "build index", "void Hud() { Application.LoadLevelAdditive(1); }"),
    ]
    assert code("Assets/Scenes/Boot.unity") == [(4, "build index", "void Again() { Application.LoadLevelAsync(0); }")]


CROP = "c4" * 16
TILES = ["a1" * 16, "a2" * 16]


def test_a_list_of_references_shows_what_each_item_names(tmp_path: Path) -> None:
    """A crop's growth stages, `tiles:` a list of tile assets, were described `[0] {}` … `[7] {}`:
    each item is the path it names (a list with empty slots says where they are instead)."""
    asset = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n"
        f"  m_Script: {{fileID: 11500000, guid: {CROP}, type: 3}}\n  m_Name: Corn\n  tiles:\n"
        f"  - {{fileID: 11400000, guid: {TILES[0]}, type: 2}}\n"
        f"  - {{fileID: 11400000, guid: {TILES[1]},\n    type: 2}}\n  planted: 1\n"
    )
    tile = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n  m_Name: T\n"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/CropData.cs": (
                "using UnityEngine;\npublic class CropData : ScriptableObject\n"
                "{ public Object[] tiles; public int planted; }\n"
            ),
            "Assets/CropData.cs.meta": meta(CROP),
            "Assets/Corn.asset": asset,
            "Assets/Tiles/Corn_0.asset": tile,
            "Assets/Tiles/Corn_0.asset.meta": meta(TILES[0]),
            "Assets/Tiles/Corn 1.asset": tile,
            "Assets/Tiles/Corn 1.asset.meta": meta(TILES[1]),
        },
    )
    text = describe_target(_workspace(root), "Assets/Corn.asset")[1].text
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.endswith("tiles: [2 items]"))
    assert [line.strip() for line in lines[at + 1 : at + 4]] == [
        "[0] Assets/Tiles/Corn_0.asset",
        "[1] Assets/Tiles/Corn 1.asset",
        "L11 planted: 1",
    ]


def test_describe_takes_a_type_s_name(tmp_path: Path) -> None:
    """`describe DayTimeController` was refused, offering `DayTimeController.cs` and its `.meta`:
    a type's name, bare or qualified, names the file declaring it; a partial class declared in two
    files lists them; a name no file or type has is refused without offering a file's .meta."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scripts/DayTimeController.cs": "namespace Farm { public class DayTimeController { } }\n",
            "Assets/Scripts/DayTimeController.cs.meta": meta("d1" * 16),
            "Assets/Scripts/Game.cs": "public partial class Game { }\n",
            "Assets/Scripts/Game.Save.cs": "public partial class Game { }\n",
            "Assets/Scripts/Pool.cs": "namespace Util { public class Pool<T> { } }\n",
            "Assets/Enemy/Enemy.cs": "public class Enemy { }\n",
            "Assets/A/Player.cs": "namespace A { public class Player { } }\n",
            "Assets/B/Player.cs": "namespace B { public class Player { } }\n",
        },
    )
    ws = _workspace(root)
    # a review: a generic type as `refs` takes it; a folder named as the class, from `Assets/`
    assert locate_file(ws, "Pool<T>") == locate_file(ws, "Util.Pool<T>") == "Assets/Scripts/Pool.cs"
    assert locate_file(ws, "Enemy", root / "Assets") == "Assets/Enemy/Enemy.cs"
    with pytest.raises(AmbiguousFile, match=r"^Player names 2 types: A.Player, B.Player; give the qualified name$"):
        locate_file(ws, "Player")
    assert locate_file(ws, "DayTimeController") == "Assets/Scripts/DayTimeController.cs"
    assert locate_file(ws, "Farm.DayTimeController") == "Assets/Scripts/DayTimeController.cs"
    assert describe_target(ws, locate_file(ws, "DayTimeController"))[1].path == "Assets/Scripts/DayTimeController.cs"
    with pytest.raises(
        AmbiguousFile,
        match=r"^Game is declared in 2 files: Assets/Scripts/Game.Save.cs, Assets/Scripts/Game.cs; give one",
    ):
        locate_file(ws, "Game")
    with pytest.raises(LookupFailed) as refused:
        locate_file(ws, "DayTimeControler")
    assert str(refused.value) == (
        "DayTimeControler is not an indexed file; did you mean Assets/Scripts/DayTimeController.cs?"
    )


def test_a_query_word_is_matched_as_a_word_not_as_the_start_of_another() -> None:
    """ "how much mana does the player get back each turn": five files claimed `matched: mana` for
    `DeckManager`, and a turn script's `DeckManager` lines counted as its "mana" line, so the line
    that answers, `AddMana(player.RechargeMana)`, was not shown. A stem ends a word where the name's
    part ends, or before an ending of the word (`Damage`, `Spawner`, `stopped`), or before another
    word of four letters or more (`Fireball`)."""
    from indexer.query.textmatch import matched_lines, said_in_name

    assert said_in_name("DeckManager", {"mana"}) == set()
    assert said_in_name("Health", {"heal"}) == set()
    assert said_in_name("AddMana", {"mana"}) == {"mana"}
    assert said_in_name("TakeDamageEvent", {"damag"}) == {"damag"}
    assert said_in_name("EnemySpawner", {"spawn"}) == {"spawn"}
    assert said_in_name("stopped", {"stop"}) == {"stop"}
    assert said_in_name("Fireball", {"fire"}) == {"fire"}
    assert said_in_name("MANAGER", {"mana"}) == set()
    # a review: an acronym before the next word, a compound's short second word, another script
    for name, word in (("HUDManager", "hud"), ("NPCController", "npc"), ("Tilemap", "tile"), ("Hitbox", "hit")):
        assert said_in_name(name, {word}) == {word}
    assert said_in_name("damage伤害", {"damag"}) == {"damag"}
    assert said_in_name("Dialogue", {"dialog"}) == {"dialog"}
    text = "".join(f"    deckManager{i}.Draw(turn);\n" for i in range(40)) + "    AddMana(player.RechargeMana);\n"
    lines = matched_lines(text, text.lower(), frozenset({"mana", "turn"}))
    assert lines[-1] == "  L41: AddMana(player.RechargeMana);"


def test_a_big_scene_s_objects_name_its_hits_past_its_first_four_hundred_symbols(tmp_path: Path) -> None:
    """A playground scene's outline was its first 400 symbols, 294 of them overrides of floor
    tiles: `query Door --kind scene` named `Roguelike.unity:1`, not the door at L3506. Past the
    cut the outline keeps the scene's objects first."""
    tile = "ab" * 16
    mods = "".join(
        f"    - target: {{fileID: 100, guid: {tile}, type: 3}}\n      propertyPath: m_LocalPosition.x\n"
        f"      value: {i}\n      objectReference: {{fileID: 0}}\n"
        for i in range(5)
    )
    tiles = "".join(
        f"--- !u!1001 &{9000 + i}\nPrefabInstance:\n  m_Modification:\n    m_TransformParent: {{fileID: 0}}\n"
        f"    m_Modifications:\n{mods}  m_SourcePrefab: {{fileID: 100100000, guid: {tile}, type: 3}}\n"
        for i in range(90)
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Tile.prefab": _header() + _object(100, "Ground", []),
            "Assets/Tile.prefab.meta": meta(tile),
            "Assets/Roguelike.unity": _header() + tiles + _object(50, "Door", []),
        },
    )
    ws = _workspace(root)
    rec = ws.projects[0].records.record("Assets/Roguelike.unity")
    assert rec is not None and len(rec.symbols) > 400
    (hit,) = ws.search("Door", 1, kind="scene")
    door = next(s for s in rec.symbols if s.kind == "gameobject" and s.name == "Door")
    assert (hit.path, hit.name, hit.line) == ("Assets/Roguelike.unity", "Door", door.line)


def test_describe_of_a_meta_says_whose_it_is(tmp_path: Path) -> None:
    """`describe Key.prefab.meta` printed `(meta)` alone: it names its asset, GUID and importer,
    and the command describing the asset; a .meta left behind says its asset is gone."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    root = write_project(
        tmp_path / "P",
        {
            "Assets/My Key.prefab": _header() + _object(100, "Key", []),
            "Assets/My Key.prefab.meta": meta("ae" * 16, "PrefabImporter"),
            "Assets/Gone.prefab.meta": meta("90" * 16, "PrefabImporter"),
            "Assets/Art/A.txt": "a\n",
            "Assets/Art.meta": f"fileFormatVersion: 2\nguid: {'a0' * 16}\nfolderAsset: yes\nDefaultImporter:\n",
        },
    )
    ws = _workspace(root)
    text = describe_target(ws, "Assets/Art.meta")[1].text
    assert text.split("\n")[1] == f"the .meta of the folder Assets/Art (guid {'a0' * 16}, DefaultImporter)"
    text = describe_target(ws, "Assets/My Key.prefab.meta")[1].text
    assert text.split("\n")[1] == (
        f"the .meta of Assets/My Key.prefab (guid {'ae' * 16}, PrefabImporter):"
        " `unity-index describe 'Assets/My Key.prefab'`"
    )
    text = describe_target(ws, "Assets/Gone.prefab.meta")[1].text
    assert text.split("\n")[1] == (
        "the .meta of Assets/Gone.prefab, which is not in the project (deleted or moved without its .meta?)"
    )
    (root / "Assets/Big.bytes").write_bytes(b"\0" * 16)  # a review: excluded, not gone
    (root / "Assets/Big.bytes.meta").write_text(meta("af" * 16))
    config = Config(exclude=("*.bytes",), workers=1)
    update(root, config)
    text = describe_target(open_workspace(root, [(root, config)]), "Assets/Big.bytes.meta")[1].text
    assert text.split("\n")[1] == "the .meta of Assets/Big.bytes, which is not indexed (excluded in unity-index.toml?)"


def test_near_identical_data_assets_leave_room_for_the_code(tmp_path: Path) -> None:
    """ "I can't plant seeds on grass": five seed assets of one folder took places 3-7 and the code
    deciding it was tenth. Past the best two data assets of one folder the others rank at half
    their score, unless the task asks which asset or names them."""
    crop = "c5" * 16
    files = {
        "Assets/Scripts/SeedItem.cs": (
            "using UnityEngine;\npublic class SeedItem : ScriptableObject { public int seeds; }\n"
        ),
        "Assets/Scripts/SeedItem.cs.meta": meta(crop),
        "Assets/Scripts/ToolsController.cs": (
            "using UnityEngine;\npublic class ToolsController : MonoBehaviour\n{\n"
            "    public void UseTool(Vector3Int cell) { if (fields[cell].ableToSeed) Plant(cell); }\n"
            "    void Plant(Vector3Int cell) { }\n    Dictionary<Vector3Int, Field> fields;\n}\n"
        ),
    }
    for name in ("Corn", "Parsley", "Potato", "Strawberry", "Tomato"):
        files[f"Assets/Inventory/Seed_{name}.asset"] = (
            "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n"
            f"  m_Script: {{fileID: 11500000, guid: {crop}, type: 3}}\n  m_Name: Seed_{name}\n"
            f"  displayName: {name} seeds to plant on grass\n  seeds: 4\n"
        )
    ws = _workspace(write_project(tmp_path / "P", files))
    paths = [h.path for h in ws.search("planting seeds on grass does nothing", 10)]
    assert paths[:4] == [
        "Assets/Inventory/Seed_Corn.asset",
        "Assets/Inventory/Seed_Parsley.asset",
        "Assets/Scripts/ToolsController.cs",
        "Assets/Scripts/SeedItem.cs",
    ]
    # told as "can't", a fault (session 43, `file_roles.role_words`): the code first
    assert [h.path for h in ws.search("I can't plant seeds on grass", 1)] == ["Assets/Scripts/ToolsController.cs"]
    asked = [h for h in ws.search("which asset holds the seeds to plant on grass", 10) if h.path.endswith(".asset")]
    assert len(asked) == 5 and len({h.score for h in asked}) == 1  # none ranked below its siblings
    named = [h for h in ws.search("compare the corn, potato and tomato seeds", 10) if h.path.endswith(".asset")]
    said = {
        "Assets/Inventory/Seed_Corn.asset",
        "Assets/Inventory/Seed_Potato.asset",
        "Assets/Inventory/Seed_Tomato.asset",
    }
    assert len({h.score for h in named if h.path in said}) == 1  # a review: the third was halved


def test_an_empty_project_option_is_refused(tmp_path: Path) -> None:
    """`--project ""` (a script's unset `$PROJECT`) read as no `--project`: run from inside a
    project, the command answered on that one. Before or after the command, it is refused."""
    from .conftest import run_cli

    root = write_project(tmp_path / "P", {"Assets/A.cs": "class A { }\n"})
    for args in (("query", "A", "--project", ""), ("--project", " ", "status")):
        done = run_cli(*args, cwd=root / "Assets")
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.rstrip().endswith(
            "error: argument --project: is empty: give the project's folder, or leave --project out for the"
            " project above the working directory"
        )


def test_a_project_whose_assets_folder_is_a_link_says_so_once(tmp_path: Path) -> None:
    """`Assets` a link to a folder outside the project: `index` said `195 skipped in all` and
    `status` listed each file as a link, none saying that `Assets/` itself is one or what to do."""
    import json

    from .conftest import run_cli

    root = write_project(
        tmp_path / "P",
        {"ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2022.3.1f1\n", "Assets/A.cs": "class A { }\n"},
    )
    (root / "Assets").rename(tmp_path / "Shared")
    (root / "Assets").symlink_to(tmp_path / "Shared")
    done = run_cli("index", "--json", "--project", str(root))
    assert done.returncode == 0 and json.loads(done.stdout)["skipped"] == 1
    status = json.loads(run_cli("status", "--json", "--project", str(root)).stdout)
    assert status["skipped"] == [
        {
            "path": "Assets",
            "reason": f"symbolic link (to {tmp_path / 'Shared'}): the project's Assets folder is a link, not followed,"
            " so none of its files is indexed; give --project the folder holding the real files, or replace the link"
            " with the folder",
        }
    ]


WRAPPER, MENU, WRAPPER_CS = "a7" * 16, "b7" * 16, "c7" * 16
BUTTON = "4e29b1a8efbd4b44bb3f3716e73f07ff"  # UnityEngine.UI.Button's script, in a package


def _button(file_id: int, go: int, target: int, method: str) -> str:
    """A Button saved before Unity 2020.2: its call names no type (`m_TargetAssemblyTypeName`)."""
    return (
        f"--- !u!114 &{file_id}\nMonoBehaviour:\n  m_GameObject: {{fileID: {go}}}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {BUTTON}, type: 3}}\n  m_OnClick:\n    m_PersistentCalls:\n"
        f"      m_Calls:\n      - m_Target: {{fileID: {target}}}\n        m_MethodName: {method}\n        m_Mode: 1\n"
        "        m_Arguments:\n          m_ObjectArgument: {fileID: 0}\n        m_CallState: 2\n"
    )


def test_an_old_button_s_call_on_a_nested_prefab_s_object_is_a_usage_of_its_method(tmp_path: Path) -> None:
    """A 3D kit's title scene: its menu prefab's start button calls `TransitionToScene` on None,
    the scene sets the call's object to the `SceneControllerWrapper` of another prefab's instance
    (a stripped component), and the file, saved before Unity 2020.2, names no type: `refs
    SceneControllerWrapper.TransitionToScene` found nothing, `describe` said `-> ?.TransitionToScene`,
    and the scene had no edge to the script. A call of the scene's own on that object too."""
    from indexer.query.lookup import find_references

    from .test_trials_session34 import _instance

    wrapper = (
        _header()
        + _object(100, "SceneControllerWrapper", [102])
        + (
            f"--- !u!114 &102\nMonoBehaviour:\n  m_GameObject: {{fileID: 100}}\n"
            f"  m_Script: {{fileID: 11500000, guid: {WRAPPER_CS}, type: 3}}\n"
        )
    )
    menu = _header() + _object(200, "StartButton", [202]) + _button(202, 200, 0, "TransitionToScene")
    stripped = (
        f"--- !u!114 &950 stripped\nMonoBehaviour:\n  m_CorrespondingSourceObject: {{fileID: 102, guid: {WRAPPER},"
        " type: 3}\n  m_PrefabInstance: {fileID: 900}\n"
    )
    call = "m_OnClick.m_PersistentCalls.m_Calls.Array.data[0].m_Target"
    scene = (
        _header()
        + _instance(900, WRAPPER, [])
        + stripped
        + _instance(800, MENU, [(202, call, "", "{fileID: 950}")])
        + _object(300, "Retry", [302])
        + _button(302, 300, 950, "Reload")
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/SceneControllerWrapper.cs": (
                "using UnityEngine;\npublic class SceneControllerWrapper : MonoBehaviour\n{\n"
                "    public void TransitionToScene(Object point) { }\n    public void Reload() { }\n}\n"
            ),
            "Assets/SceneControllerWrapper.cs.meta": meta(WRAPPER_CS),
            "Assets/Wrapper.prefab": wrapper,
            "Assets/Wrapper.prefab.meta": meta(WRAPPER, "PrefabImporter"),
            "Assets/Menu.prefab": menu,
            "Assets/Menu.prefab.meta": meta(MENU, "PrefabImporter"),
            "Assets/Start.unity": scene,
        },
    )
    ws = _workspace(root)
    _, usages = find_references(ws, "SceneControllerWrapper.TransitionToScene")
    assert [(u.path, u.resolved) for u in usages] == [
        ("Assets/Start.unity", "SceneControllerWrapper.TransitionToScene")
    ]
    _, usages = find_references(ws, "SceneControllerWrapper")  # a review: the type's own refs too
    assert ("Assets/Start.unity", "SceneControllerWrapper.TransitionToScene") in [(u.path, u.resolved) for u in usages]
    _, usages = find_references(ws, "SceneControllerWrapper.Reload")
    assert [(u.path, u.resolved) for u in usages] == [("Assets/Start.unity", "SceneControllerWrapper.Reload")]
    text = describe_target(ws, "Assets/Start.unity")[1].text
    assert text.count("-> SceneControllerWrapper.") == 2 and "-> ?." not in text


def test_a_prefab_s_field_hit_says_whose_component_it_is(tmp_path: Path) -> None:
    """ "player walk speed" answered `BasicPlayer_Actions.speed  speed: 2`, the push action's speed
    on an object holding five actions, read as the walking speed: a field of a scene's or prefab's
    component is named by its script's class, as `refs` names it."""
    push, walk = "d1" * 16, "d2" * 16
    behaviour = "--- !u!114 &{0}\nMonoBehaviour:\n  m_GameObject: {{fileID: 100}}\n"
    behaviour += "  m_Script: {{fileID: 11500000, guid: {1}, type: 3}}\n  speed: {2}\n"
    prefab = _header() + _object(100, "Actions", [110, 120])
    prefab += behaviour.format(110, push, 2) + behaviour.format(120, walk, 6)
    root = write_project(
        tmp_path / "P",
        {
            "Assets/PushAction.cs": (
                "using UnityEngine;\npublic class PushAction : MonoBehaviour { public float speed; }\n"
            ),
            "Assets/PushAction.cs.meta": meta(push),
            "Assets/GroundMovement.cs": (
                "using UnityEngine;\npublic class GroundMovement : MonoBehaviour { public float speed; }\n"
            ),
            "Assets/GroundMovement.cs.meta": meta(walk),
            "Assets/Player.prefab": prefab,
        },
    )
    ws = _workspace(root)
    (hit,) = ws.search("speed", 1, kind="prefab")
    assert (hit.path, hit.name, hit.snippet) == ("Assets/Player.prefab", "Actions > PushAction.speed", "speed: 2")


def test_one_quoted_word_in_another_script_is_looked_for_whole() -> None:
    """`query '"만복도"'` (a card game's "satiety", a word of its messages) answered as unquoted; a
    quoted Latin word is still a name the words search (session 34)."""
    from indexer.query.quotes import quoted_phrases

    assert quoted_phrases('card unusable: "만복도"') == ["만복도"]
    assert quoted_phrases('"体力" 不足') == ["体力"]
    assert quoted_phrases('where is "Health" set') == []
    assert quoted_phrases('"Café" menu') == []


def test_a_scene_s_override_of_a_joined_name_the_task_says_names_the_hit(tmp_path: Path) -> None:
    """ "score to win in football": the football scene sets `scoreToWin: 3` on its interface prefab's
    instance, but its hit was pointed at the instance (`UserInterface  prefab instance of ...`),
    as if no word named the override: a joined name whose every word the task says is named."""
    from .test_trials_session34 import _instance

    ui, ui_cs = "e1" * 16, "e2" * 16
    prefab = _header() + _object(100, "UserInterface", [110])
    prefab += (
        "--- !u!114 &110\nMonoBehaviour:\n  m_GameObject: {fileID: 100}\n"
        f"  m_Script: {{fileID: 11500000, guid: {ui_cs}, type: 3}}\n  scoreToWin: 5\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/UIScript.cs": (
                "using UnityEngine;\npublic class UIScript : MonoBehaviour { public int scoreToWin = 5; }\n"
            ),
            "Assets/UIScript.cs.meta": meta(ui_cs),
            "Assets/UserInterface.prefab": prefab,
            "Assets/UserInterface.prefab.meta": meta(ui, "PrefabImporter"),
            "Assets/Football.unity": _header() + _instance(900, ui, [(110, "scoreToWin", "3", "{fileID: 0}")]),
        },
    )
    ws = _workspace(root)
    (hit,) = [h for h in ws.search("score to win in football", 5) if h.path == "Assets/Football.unity"]
    assert (hit.name, hit.snippet) == ("UserInterface.scoreToWin", "scoreToWin: 3")


def test_a_quoted_text_past_a_cut_outline_is_named_by_its_own_declaration(tmp_path: Path) -> None:
    """A review: with the stored outline's types kept first, a class of 420 fields whose nested
    class ends the file named a quoted text on line 423 by `Big.field397`, the last entry above it
    of the cut outline, not `Big.banner`, which holds it."""
    body = "".join(f"    public int field{i} = {i};\n" for i in range(420))
    body += '    public string banner = "the walrus sings at midnight";\n'
    body += "".join(f"    public int late{i};\n" for i in range(10)) + "    public class Nested { }\n"
    ws = _workspace(write_project(tmp_path / "P", {"Assets/Big.cs": "public class Big\n{\n" + body + "}\n"}))
    (hit,) = ws.search('"the walrus sings at midnight"', 1)
    assert (hit.path, hit.name, hit.line) == ("Assets/Big.cs", "Big.banner", 423)


def test_a_linked_project_folder_stays_said_after_updates_from_git(tmp_path: Path) -> None:
    """A review: in a git repository the next `index` (from git's view, path by path) dropped the
    `Assets` link's record, and nothing said why the index was empty; a broken link, and one into
    the project, say what to do about them."""
    import json
    import shutil
    import subprocess

    from indexer.project_walk import top_link_reason

    from .conftest import run_cli

    root = write_project(tmp_path / "P", {"ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2022.3.1f1\n"})
    (tmp_path / "Shared").mkdir()
    (tmp_path / "Shared" / "A.cs").write_text("class A { }\n")
    shutil.rmtree(root / "Assets", ignore_errors=True)
    (root / "Assets").symlink_to(tmp_path / "Shared")
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=root, check=True)
    subprocess.run([*git, "add", "-A"], cwd=root, check=True)
    subprocess.run([*git, "commit", "-qm", "x"], cwd=root, check=True)
    for _ in range(2):
        assert run_cli("index", "--project", str(root)).returncode == 0
        (tmp_path / "Shared" / "B.cs").write_text("class B { }\n")
    status = json.loads(run_cli("status", "--json", "--project", str(root)).stdout)
    assert [s["path"] for s in status["skipped"]] == ["Assets"]
    (root / "Packages").symlink_to(tmp_path / "nowhere")
    assert top_link_reason("Packages", root / "Packages") == (
        f"broken symbolic link (to {tmp_path / 'nowhere'}): the project's Packages folder is a link, not followed,"
        " so none of its files is indexed; point it at the folder or replace it with one"
    )
    (root / "Settings").mkdir()
    (root / "Packages").unlink()
    (root / "Packages").symlink_to("Settings")
    assert top_link_reason("Packages", root / "Packages") == (
        "symbolic link (to Settings, inside the project): the project's Packages folder is a link, not followed,"
        " so none of its files is indexed; replace the link with that folder"
    )


def test_an_old_prefab_s_call_set_by_an_instance_on_another_file_s_object_names_it(tmp_path: Path) -> None:
    """A review: a scene sets its menu prefab's untyped call (`Raise`, saved before Unity 2020.2) on
    an event asset; the override's reference names another file, which the scanner dropped: the
    call read `on None -> ?.Raise` and `refs GameEvent.Raise` found nothing."""
    from indexer.query.lookup import find_references

    from .test_trials_session34 import _instance

    menu, event, event_cs = "b8" * 16, "e8" * 16, "f8" * 16
    call = "m_OnClick.m_PersistentCalls.m_Calls.Array.data[0].m_Target"
    asset = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n"
        f"  m_Script: {{fileID: 11500000, guid: {event_cs}, type: 3}}\n  m_Name: GameStarted\n"
    )
    reference = f"{{fileID: 11400000, guid: {event}, type: 2}}"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/GameEvent.cs": (
                "using UnityEngine;\npublic class GameEvent : ScriptableObject { public void Raise() { } }\n"
            ),
            "Assets/GameEvent.cs.meta": meta(event_cs),
            "Assets/GameStarted.asset": asset,
            "Assets/GameStarted.asset.meta": meta(event, "NativeFormatImporter"),
            "Assets/Menu.prefab": _header() + _object(200, "StartButton", [202]) + _button(202, 200, 0, "Raise"),
            "Assets/Menu.prefab.meta": meta(menu, "PrefabImporter"),
            "Assets/Start.unity": _header() + _instance(800, menu, [(202, call, "", reference)]),
        },
    )
    ws = _workspace(root)
    _, usages = find_references(ws, "GameEvent.Raise")
    assert [(u.path, u.detail, u.resolved) for u in usages] == [
        # the instance is named by its source's root object, `StartButton`, as Unity shows it (session 50)
        ("Assets/Start.unity", "StartButton > override.m_OnClick on Assets/GameStarted.asset", "GameEvent.Raise")
    ]


def test_an_avatar_mask_is_a_look_as_an_animation_is() -> None:
    """A blind set's questions about a character named Ellen drew her avatar masks
    (`EllenHips.mask`, the bones an animation layer moves) into places 4-6 and into packs: animation
    data, as a clip or an animator is, ranked below behaviour unless looks are asked for."""
    from indexer.query.file_roles import _looks_by_name

    assert _looks_by_name("unity_yaml", "Assets/Art/Animations/AvatarMasks/EllenHips.mask")


def test_a_linked_project_folder_stays_said_after_a_watch_s_batch(tmp_path: Path) -> None:
    """docs/indexing.md: the link's record is kept by a watch's updates too, which pass the paths
    its events name (the link itself, a path below it)."""
    import shutil

    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    root = write_project(tmp_path / "P", {"ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2022.3.1f1\n"})
    (tmp_path / "Shared").mkdir()
    (tmp_path / "Shared" / "A.cs").write_text("class A { }\n")
    shutil.rmtree(root / "Assets", ignore_errors=True)
    (root / "Assets").symlink_to(tmp_path / "Shared")
    config = Config(workers=1)
    update(root, config)
    for paths in (["Assets"], ["Assets/A.cs", "Assets/B.cs"]):
        update(root, config, paths=paths, use_journal=False)
        records = open_workspace(root, [(root, config)]).projects[0].records
        assert sorted(records.kinds()) == ["Assets", "ProjectSettings/ProjectVersion.txt"], paths
        assert records.record("Assets").note.startswith("symbolic link (to ")


def test_a_word_only_ever_inside_other_words_is_looked_for_past_48_of_them_no_more() -> None:
    """textmatch._matching: a word the matched lines left out is looked for alone as a word, but a
    text where it is only ever part of another word (`mana` in 30,000 `deckManager` lines, a review
    measured 85 ms) is given up past 48 such places: what 40 of them hide is found, what 60 hide not."""
    from indexer.query.textmatch import matched_lines

    for hidden, found in ((40, True), (60, False)):
        text = "".join(f"    deckManager{i}.Draw(turn);\n" for i in range(hidden)) + "    AddMana(2);\n"
        lines = matched_lines(text, text.lower(), frozenset({"mana", "turn"}))
        assert (f"  L{hidden + 1}: AddMana(2);" in lines) is found
