"""Graph rules that the fixture does not exercise: Unity's predefined assemblies, asmrefs, type
name resolution by namespace when two types share a name."""

import gc
import itertools
from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.describe import describe
from indexer.query.graph import Graph
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths

from .conftest import meta, write_project


def graph_for(root: Path) -> Graph:
    update(root, Config(workers=1))
    return Graph(Records(IndexPaths(Config().index_path(root))), root)


def test_predefined_assemblies_and_asmref(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Game/A.cs": "class A {}",
            "Assets/Game/Editor/AEditor.cs": "class AEditor {}",
            "Assets/Plugins/P.cs": "class P {}",
            "Assets/Plugins/Editor/PE.cs": "class PE {}",
            "Assets/Core/Core.asmdef": '{"name": "Game.Core"}',
            "Assets/Core/Core.asmdef.meta": meta("abababababababababababababababab", "AssemblyDefinitionImporter"),
            "Assets/Core/C.cs": "class C {}",
            "Assets/Extra/Extra.asmref": '{"reference": "GUID:abababababababababababababababab"}',
            "Assets/Extra/Sub/E.cs": "class E {}",
            "Packages/com.x.y/Runtime/Loose.cs": "class Loose {}",
            "Assets/StreamingAssets/Mods/Mod.cs": "class Mod {}",  # a mod loader's source: copied, not compiled
        },
    )
    g = graph_for(root)
    assert g.assembly_of("Assets/Game/A.cs") == ("Assembly-CSharp", "")
    assert g.assembly_of("Assets/Game/Editor/AEditor.cs") == ("Assembly-CSharp-Editor", "")
    assert g.assembly_of("Assets/Plugins/P.cs") == ("Assembly-CSharp-firstpass", "")
    assert g.assembly_of("Assets/Plugins/Editor/PE.cs") == ("Assembly-CSharp-Editor-firstpass", "")
    assert g.assembly_of("Assets/Core/C.cs") == ("Game.Core", "Assets/Core/Core.asmdef")
    assert g.assembly_of("Assets/Extra/Sub/E.cs") == ("Game.Core", "Assets/Extra/Extra.asmref")
    assert g.assembly_of("Packages/com.x.y/Runtime/Loose.cs") == ("", "")
    assert g.assembly_of("Assets/StreamingAssets/Mods/Mod.cs") == ("", "")
    head = describe(g, "Assets/StreamingAssets/Mods/Mod.cs").text.splitlines()[1]
    assert head == "assembly (none: StreamingAssets is copied into the build, not compiled)"


def test_same_named_types_resolve_by_namespace_and_usings(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "P",
        {
            "Assets/UI/Button.cs": "namespace Game.UI { public class Button {} }",
            "Assets/Input/Button.cs": "namespace Game.Input { public class Button {} }",
            "Assets/UI/Menu.cs": "namespace Game.UI { class Menu { Button b; } }",
            "Assets/Other/Pad.cs": "using Game.Input;\nnamespace Other { class Pad { Button b; } }",
            "Assets/Other/Both.cs": "class Both { Game.UI.Button a; Game.Input.Button b; }",
        },
    )
    g = graph_for(root)
    ui = [(u.path, u.line) for u in g.references(g.target("Game.UI.Button"))]
    assert ui == [("Assets/Other/Both.cs", 1), ("Assets/UI/Menu.cs", 1)]
    inp = [(u.path, u.line) for u in g.references(g.target("Game.Input.Button"))]
    assert inp == [("Assets/Other/Both.cs", 1), ("Assets/Other/Pad.cs", 2)]
    assert g.target("Button").types == ["Game.Input.Button", "Game.UI.Button"]
    assert g.uses("Assets/Other/Pad.cs") == (("Assets/Input/Button.cs", "type"),)


def test_a_nested_type_named_in_its_own_file_is_that_file_s_not_every_same_named_one(tmp_path: Path) -> None:
    """C# looks in the enclosing types before the namespace: `Settings` written inside `Grenade`
    is `Grenade.Settings`, never `Rocket.Settings` (each ability of a shooter nests its own), so
    `refs Grenade.Settings` lists Grenade's usages and the files do not use each other."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Grenade.cs": "public class Grenade {\n  public class Settings { public float radius; }\n"
            "  public Settings settings;\n}\n",
            "Assets/Rocket.cs": "public class Rocket {\n  public class Settings { public float speed; }\n"
            "  public Settings settings;\n}\n",
            "Assets/Loadout.cs": "public class Loadout {\n  public Grenade.Settings grenade;\n}\n",
        },
    )
    g = graph_for(root)
    grenade = [(u.path, u.line) for u in g.references(g.target("Grenade.Settings")) if u.where == "code"]
    assert grenade == [("Assets/Grenade.cs", 3), ("Assets/Loadout.cs", 2)]
    assert g.uses("Assets/Rocket.cs") == ()
    assert g.uses("Assets/Loadout.cs") == (("Assets/Grenade.cs", "type"),)


def test_a_nested_type_inherited_from_another_file_is_the_base_class_s(tmp_path: Path) -> None:
    """`Settings` written in `Launcher : Weapon`, where `Weapon.Settings` is declared in another
    file, is the base class's, as C# takes it; `Rocket.Settings` is not seen there."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Weapon.cs": "public class Weapon { public class Settings { } }\n",
            "Assets/Rocket.cs": "public class Rocket { public class Settings { } }\n",
            "Assets/Launcher.cs": "public class Launcher : Weapon {\n  Settings settings;\n}\n",
        },
    )
    g = graph_for(root)
    assert g.uses("Assets/Launcher.cs") == (("Assets/Weapon.cs", "base"),)
    settings = [(u.path, u.line) for u in g.references(g.target("Weapon.Settings")) if u.where == "code"]
    assert settings == [("Assets/Launcher.cs", 2)]
    assert [u for u in g.references(g.target("Rocket.Settings")) if u.where == "code"] == []


def test_a_simple_name_the_file_sees_no_project_type_by_is_not_the_project_s(tmp_path: Path) -> None:
    """`Text` in a file using only `UnityEngine.UI` is uGUI's, not the one project `Text` (in a
    namespace it does not use); a nested `Chart.Note` is not the `Note` written elsewhere."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Story/Text.cs": "namespace Story {\n  public class Text { }\n}\n",
            "Assets/Story/Board.cs": "namespace Story {\n  public class Board { Text title; }\n}\n",
            "Assets/UI/ComboText.cs": "using UnityEngine.UI;\npublic class ComboText {\n  public Text text;\n}\n",
            "Assets/Reader.cs": "using Story;\npublic class Reader {\n  Text line;\n}\n",
            "Assets/Chart.cs": "public class Chart {\n  public class Note { }\n  Note first;\n}\n",
            "Assets/Note.cs": "public class Note { }\n",
            "Assets/Spawner.cs": "public class Spawner {\n  Note prefab;\n}\n",
        },
    )
    g = graph_for(root)
    text = [(u.path, u.line) for u in g.references(g.target("Story.Text")) if u.where == "code"]
    assert text == [("Assets/Reader.cs", 3), ("Assets/Story/Board.cs", 2)]
    assert g.uses("Assets/UI/ComboText.cs") == ()
    chart_note = [(u.path, u.line) for u in g.references(g.target("Chart.Note")) if u.where == "code"]
    assert chart_note == [("Assets/Chart.cs", 3)]
    assert g.uses("Assets/Spawner.cs") == (("Assets/Note.cs", "type"),)
    assert (g.target("Note").types, g.target("Chart.Note").types) == (["Note"], ["Chart.Note"])


def test_a_type_used_through_a_using_alias_is_used_by_that_file(tmp_path: Path) -> None:
    """docs/indexing.md: type references resolve "by C# name lookup: namespaces, usings, qualified
    names" -- `using Sp = Game.Util.Spawner;` too, for a field of the alias, a static call through
    it and a nested type; an alias to a type does not hide that type's own static calls."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Util/Spawner.cs": "namespace Game.Util { public class Spawner { public enum Kind { A } } }",
            "Assets/Util/MathUtil.cs": "namespace Game.Util { static class MathUtil { static int Clamp() => 1; } }",
            "Assets/Health.cs": "public class Health { public static void StaticThing() {} }",
            "Assets/UseAlias.cs": (
                "using Sp = Game.Util.Spawner;\nusing MU = Game.Util.MathUtil;\nusing H = Health;\n"
                "class UseAlias {\n  Sp spawner;\n  Sp.Kind kind;\n"
                "  void F() { int x = MU.Clamp(3); Health.StaticThing(); }\n}\n"
            ),
        },
    )
    g = graph_for(root)
    found = lambda target: [(u.path, u.line, u.context) for u in g.references(g.target(target))]  # noqa: E731
    assert found("Game.Util.Spawner") == [("Assets/UseAlias.cs", 5, "field")]
    assert found("Game.Util.Spawner.Kind") == [("Assets/UseAlias.cs", 6, "field")]
    assert found("Game.Util.MathUtil") == [("Assets/UseAlias.cs", 7, "static")]
    assert found("Health") == [("Assets/UseAlias.cs", 7, "static")]
    assert g.uses("Assets/UseAlias.cs") == (
        ("Assets/Health.cs", "type"),
        ("Assets/Util/MathUtil.cs", "type"),
        ("Assets/Util/Spawner.cs", "type"),
    )


def test_files_met_by_one_walk_after_another_are_each_named_by_their_own_path(tmp_path: Path) -> None:
    """Edges are read as file ids and named from what earlier reads met: files that share some
    of what they use (and files used by several) still list exactly their own neighbours."""
    files = {f"Assets/{n}.cs": f"public class {n} {{}}" for n in ("X", "Y", "Z")}
    files |= {"Assets/A.cs": "public class A { X x; Y y; }", "Assets/B.cs": "public class B { Y y; Z z; }"}
    g = graph_for(write_project(tmp_path / "P", files))
    assert g.uses("Assets/A.cs") == (("Assets/X.cs", "type"), ("Assets/Y.cs", "type"))
    assert g.uses("Assets/B.cs") == (("Assets/Y.cs", "type"), ("Assets/Z.cs", "type"))
    assert g.used_by("Assets/Y.cs") == (("Assets/A.cs", "uses_type"), ("Assets/B.cs", "uses_type"))
    assert g.used_by("Assets/Z.cs") == (("Assets/B.cs", "uses_type"),)
    assert g.uses("Assets/Missing.cs") == () and g.used_by("Assets/Missing.cs") == ()
    gc.collect(), gc.collect()  # kept per generation as tuples, which the collector then stops tracking
    assert not any(gc.is_tracked(g.uses(p)) or gc.is_tracked(g.used_by(p)) for p in ("Assets/A.cs", "Assets/Y.cs"))


def test_a_file_used_by_more_than_200_others_is_a_hub_whose_users_are_not_walked(tmp_path: Path) -> None:
    """docs/indexing.md: a file used by more than 200 others is a hub; the walk does not follow
    its users (`Graph.used_by` gives none), while a file with exactly 200 users keeps them all."""
    from indexer.query.graph import HUB_USERS

    assert HUB_USERS == 200  # the number the docs state
    files = {"Assets/Hub.cs": "public class Hub {}", "Assets/Edge.cs": "public class Edge {}"}
    files |= {f"Assets/Users/U{i}.cs": f"public class U{i} {{ Hub h; }}" for i in range(201)}
    files |= {f"Assets/Users/V{i}.cs": f"public class V{i} {{ Edge e; }}" for i in range(200)}
    g = graph_for(write_project(tmp_path / "P", files))
    assert g.used_by("Assets/Hub.cs") == ()
    assert g.used_by("Assets/Edge.cs") == tuple(sorted((f"Assets/Users/V{i}.cs", "uses_type") for i in range(200)))
    assert ("Assets/Hub.cs", "type") in g.uses("Assets/Users/U7.cs")  # the edges themselves are kept


def test_an_asmref_joins_a_folder_to_its_assembly_for_the_editor_rule_too(tmp_path: Path) -> None:
    """docs/retrieval.md (editor code): the nearest asmdef or asmref above a script decides. An
    asmref naming an editor-only asmdef (by GUID or by name) makes its folder editor code, for the
    editor prior as for `assembly_of`; one naming a runtime asmdef makes an `Editor` folder below
    it runtime code; an asmdef beside an asmref wins."""
    from indexer.query.priors import is_editor_script
    from indexer.query.workspace import open_workspace

    editor_asmdef = '{"name": "Game.Tools", "includePlatforms": ["Editor"]}'
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Tools/Tools.asmdef": editor_asmdef,
            "Assets/Tools/Tools.asmdef.meta": meta("cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd", "AssemblyDefinitionImporter"),
            "Assets/Runtime/Game.asmdef": '{"name": "Game.Runtime"}',
            "Assets/ByGuid/Tools.asmref": '{"reference": "GUID:cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"}',
            "Assets/ByGuid/Window.cs": "class Window {}",
            "Assets/ByName/Tools.asmref": '{"reference": "Game.Tools"}',
            "Assets/ByName/Inspector.cs": "class Inspector {}",
            "Assets/Joined/Game.asmref": '{"reference": "Game.Runtime"}',
            "Assets/Joined/Editor/Gizmo.cs": "class Gizmo {}",
            "Assets/Both/Own.asmdef": '{"name": "Own"}',
            "Assets/Both/Tools.asmref": '{"reference": "Game.Tools"}',
            "Assets/Both/Mine.cs": "class Mine {}",
        },
    )
    g = graph_for(root)
    assert g.assembly_of("Assets/ByGuid/Window.cs") == ("Game.Tools", "Assets/ByGuid/Tools.asmref")
    assert g.assembly_of("Assets/ByName/Inspector.cs") == ("Game.Tools", "Assets/ByName/Tools.asmref")
    assert g.assembly_of("Assets/Both/Mine.cs") == ("Own", "Assets/Both/Own.asmdef")
    assemblies = open_workspace(root, [(root, Config())]).projects[0].assemblies
    assert assemblies == {
        "Assets/Tools": True,
        "Assets/Runtime": False,
        "Assets/ByGuid": True,
        "Assets/ByName": True,
        "Assets/Joined": False,
        "Assets/Both": False,
    }
    scripts = [
        "Assets/ByGuid/Window.cs",
        "Assets/ByName/Inspector.cs",
        "Assets/Joined/Editor/Gizmo.cs",
        "Assets/Both/Mine.cs",
    ]
    assert [is_editor_script(p, assemblies) for p in scripts] == [True, True, False, False]


MOVER_PREFAB = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &100\nGameObject:\n  m_Name: Mover\n"
SCENE_HEAD = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"


def _instance(anchor: int, name: str, speed: str) -> str:
    """A PrefabInstance of Mover.prefab (GUID 1111...) named `name`, setting `speed`."""
    return _instance_of(anchor, [("m_Name", name), ("m_LocalPosition.x", "3"), ("speed", speed)])


def _instance_of(anchor: int, mods: list[tuple[str, str]]) -> str:
    """A PrefabInstance of Mover.prefab (GUID 1111...) with these (propertyPath, value) overrides."""
    lines = [f"--- !u!1001 &{anchor}", "PrefabInstance:", "  m_Modification:", "    m_Modifications:"]
    for prop, value in mods:
        lines += [
            "    - target: {fileID: 100, guid: 11111111111111111111111111111111, type: 3}",
            f"      propertyPath: {prop}",
            f"      value: {value}",
            "      objectReference: {fileID: 0}",
        ]
    return "\n".join(
        [*lines, "  m_SourcePrefab: {fileID: 100100000, guid: 11111111111111111111111111111111, type: 3}", ""]
    )


def test_each_instance_of_a_prefab_says_the_values_it_sets_even_named_as_a_copy(tmp_path: Path) -> None:
    """docs/cli.md (refs): a direct instance lists the values it sets over the prefab's, placement
    and the name left out; `Mover (1)`, the name Unity gives a copy, is an instance like another."""
    from indexer.query.lookup import find_references
    from indexer.query.workspace import open_workspace

    scene = SCENE_HEAD + _instance(7, "Mover", "4") + _instance(8, "Mover (1)", "9")
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Mover.prefab": MOVER_PREFAB,
            "Assets/Mover.prefab.meta": meta("11111111111111111111111111111111", "PrefabImporter"),
            "Assets/Level.unity": scene,
        },
    )
    update(root, Config(workers=1))
    _target, usages = find_references(open_workspace(root, [(root, Config())]), "Assets/Mover.prefab")
    assert [(u.path, u.context, u.detail) for u in usages] == [
        ("Assets/Level.unity", "instance", "Mover (sets speed: 4)"),
        ("Assets/Level.unity", "instance", "Mover (1) (sets speed: 9)"),
    ]


def test_the_values_instances_set_are_read_from_at_most_max_settings_files(tmp_path: Path, monkeypatch) -> None:
    """carriers.with_settings: a prefab placed everywhere reads the records of the first files only."""
    from indexer.query import carriers
    from indexer.query.lookup import find_references
    from indexer.query.workspace import open_workspace

    root = write_project(
        tmp_path / "P",
        {
            "Assets/Mover.prefab": MOVER_PREFAB,
            "Assets/Mover.prefab.meta": meta("11111111111111111111111111111111", "PrefabImporter"),
            "Assets/A.unity": SCENE_HEAD + _instance(7, "Mover", "4"),
            "Assets/B.unity": SCENE_HEAD + _instance(7, "Mover", "5"),
        },
    )
    update(root, Config(workers=1))
    monkeypatch.setattr(carriers, "MAX_SETTINGS_FILES", 1)
    _target, usages = find_references(open_workspace(root, [(root, Config())]), "Assets/Mover.prefab")
    assert [(u.path, u.detail) for u in usages] == [
        ("Assets/A.unity", "Mover (sets speed: 4)"),
        ("Assets/B.unity", "Mover"),
    ]


def test_an_instance_lists_at_most_six_values_once_each_and_counts_the_rest(tmp_path: Path) -> None:
    """docs/cli.md (refs): at most six values listed; a value set on two objects of the instance is
    listed once; the rest are counted."""
    from indexer.query.lookup import find_references
    from indexer.query.workspace import open_workspace

    mods = [("m_Name", "Mover"), ("speed", "2"), ("speed", "2"), *((f"f{i}", str(i)) for i in range(7))]
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Mover.prefab": MOVER_PREFAB,
            "Assets/Mover.prefab.meta": meta("11111111111111111111111111111111", "PrefabImporter"),
            "Assets/Level.unity": SCENE_HEAD + _instance_of(7, mods),
        },
    )
    update(root, Config(workers=1))
    _target, usages = find_references(open_workspace(root, [(root, Config())]), "Assets/Mover.prefab")
    assert [u.detail for u in usages] == ["Mover (sets speed: 2, f0: 0, f1: 1, f2: 2, f3: 3, f4: 4, … 2 more)"]


def test_member_text_usages_after_a_url_and_inside_interpolated_strings(tmp_path: Path) -> None:
    """A member's code usages are text matches outside comments and string literals. The line was
    cut at its first `//`, even one inside a string (`"https://..."`), so a usage after a URL was
    lost; and an interpolated string was dropped whole, its holes (`{hp.Current}`) too."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Hp.cs": "public class Hp { public int Current; }\n",
            "Assets/Use.cs": (
                "public class Use {\n"
                "  Hp hp;\n"
                '  void A() { Get("https://example.com/" + hp.Current); }\n'
                '  void B() { Log($"HP {hp.Current} of {{max}}"); }\n'
                '  void C() { Log(@$"C:\\{hp.Current}"); }\n'
                '  void D() { Log("Current"); } // hp.Current in a comment\n'
                '  void E() { Log("a // b"); var x = hp.Current; }\n'
                "  void F() { if (c == '\"') x = hp.Current; }\n"
                "}\n"
            ),
        },
    )
    g = graph_for(root)
    target = g.target("Hp.Current")
    got = [(u.path, u.line) for u in g.references(target) if u.kind == "text"]
    assert got == [
        ("Assets/Use.cs", 3),
        ("Assets/Use.cs", 4),
        ("Assets/Use.cs", 5),
        ("Assets/Use.cs", 7),
        ("Assets/Use.cs", 8),
    ]


def test_methods_unity_calls_by_name_are_used_by_those_calls_and_by_animation_events(tmp_path: Path) -> None:
    """`SendMessage("TakeDamage")`, `Invoke("Respawn")`, `StartCoroutine("Flash")` and an animation
    clip's event name a method by a string, which no type search finds (the method looked unused):
    each such call is a usage, labelled with the call, and each event with its clip; the same
    word in any other literal is not, and a line that is both a by-name call and a text match of
    the name is listed once."""
    player = (
        "using UnityEngine;\n"
        "public class Player : MonoBehaviour {\n"
        '  public void TakeDamage(int amount) { StartCoroutine("Flash"); }\n'
        "  System.Collections.IEnumerator Flash() { yield return null; }\n"
        "  void Footstep() { }\n"
        "  void Respawn() { }\n"
        '  void Start() { Invoke("Respawn", 2f); InvokeRepeating(nameof(Respawn), 1f, 5f); }\n'
        '  void OnDisable() { CancelInvoke( "Respawn" ); }\n'
        '  void Update() { if (!IsInvoking("Respawn")) StopCoroutine("Flash"); }\n'
        "}\n"
    )
    # another component with a method of that name: a message may reach either
    turret = "public class Turret : UnityEngine.MonoBehaviour { public void TakeDamage(int n) { } }\n"
    trap = (
        "using UnityEngine;\n"
        "public class Trap : MonoBehaviour {\n"
        "  void OnTriggerEnter(Collider other) {\n"
        '    other.SendMessage("TakeDamage", 5);\n'
        '    Debug.Log("TakeDamage");\n'
        '    other.gameObject.BroadcastMessage("TakeDamage", 1, SendMessageOptions.DontRequireReceiver);\n'
        '    SendMessageUpwards("TakeDamage", 2);\n'
        "  }\n"
        "}\n"
    )
    clip = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!74 &7400000\nAnimationClip:\n  m_Name: Walk\n"
        "  m_Events:\n  - time: 0.25\n    functionName: Footstep\n    data: \n    intParameter: 0\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Player.cs": player,
            "Assets/Trap.cs": trap,
            "Assets/Turret.cs": turret,
            "Assets/Walk.anim": clip,
            # a clip imported from a model keeps its events in the model's .meta
            "Assets/Hero.fbx.meta": (
                "fileFormatVersion: 2\nguid: 9f5858cf2c3ec59428254c8fff5e9130\nModelImporter:\n  animations:\n"
                "    clipAnimations:\n    - serializedVersion: 16\n      name: Run\n      events:\n"
                "      - time: 0.5\n        functionName: Footstep\n"
            ),
        },
    )
    g = graph_for(root)

    def found(name: str) -> list[tuple[str, int, str, str, str]]:
        return [(u.path, u.line, u.where, u.kind, u.context) for u in g.references(g.target(name))]

    messages = [
        ("Assets/Trap.cs", 4, "code", "message", "SendMessage"),
        ("Assets/Trap.cs", 6, "code", "message", "BroadcastMessage"),
        ("Assets/Trap.cs", 7, "code", "message", "SendMessageUpwards"),
    ]
    assert found("Player.TakeDamage") == found("Turret.TakeDamage") == messages
    assert found("Player.Respawn") == [
        ("Assets/Player.cs", 7, "code", "message", "Invoke"),
        ("Assets/Player.cs", 8, "code", "message", "CancelInvoke"),
        ("Assets/Player.cs", 9, "code", "message", "IsInvoking"),
    ]
    assert found("Player.Flash") == [
        ("Assets/Player.cs", 3, "code", "message", "StartCoroutine"),
        ("Assets/Player.cs", 9, "code", "message", "StopCoroutine"),
    ]
    footstep = g.references(g.target("Player.Footstep"))
    assert [(u.path, u.line, u.where, u.kind, u.detail) for u in footstep] == [
        ("Assets/Hero.fbx.meta", 10, "asset", "animation_event", "Run calls Footstep"),
        ("Assets/Walk.anim", 8, "asset", "animation_event", "Walk calls Footstep"),
    ]


def test_a_csharp_outline_nests_members_under_their_own_type(tmp_path: Path) -> None:
    """docs/cli.md, describe: C# types with "members with line numbers" -- each under its own type,
    a nested type indented in its outer one, an outer member after a nested type shown as the
    outer's, an `#else` copy's member under its type, each part of a partial class with its own."""
    from indexer.query.describe import describe

    root = write_project(
        tmp_path / "P",
        {
            "Assets/Nest.cs": (
                "namespace N {\n  public class Outer {\n    public int a;\n    public class Inner {\n"
                "      public int b;\n    }\n    public int c;\n  }\n#if UNITY_EDITOR\n"
                "  public class EditorOnly { void Foo() {} }\n#else\n  public class EditorOnly { void Bar() {} }\n"
                "#endif\n  public class AndroidOnly { void Baz() {} }\n"
                "  public partial class P { void One() {} }\n  public partial class P { void Two() {} }\n}\n"
            )
        },
    )
    assert describe(graph_for(root), "Assets/Nest.cs").text.splitlines()[3:] == [
        "L2 public class Outer",
        "  L3 public int a",
        "  L4 public class Inner",
        "    L5 public int b",
        "  L7 public int c",
        "L10 public class EditorOnly",
        "  L10 void Foo()",
        "  L12 void Bar()",
        "L14 public class AndroidOnly",
        "  L14 void Baz()",
        "L15 public partial class P",
        "  L15 void One()",
        "L16 public partial class P",
        "  L16 void Two()",
    ]


def test_an_asmref_describes_the_asmdef_it_joins_by_path(tmp_path: Path) -> None:
    """docs/cli.md, describe: an asmref's reference (by GUID or by name) is shown as the asmdef it
    names and listed under uses (edge `assembly`); one to an assembly not in the project stays as
    written and is no use."""
    from indexer.query.describe import describe

    root = write_project(
        tmp_path / "P",
        {
            "Assets/Core/Core.asmdef": '{"name": "Game.Core"}',
            "Assets/Core/Core.asmdef.meta": meta("ab" * 16, "AssemblyDefinitionImporter"),
            "Assets/ByGuid/ByGuid.asmref": '{"reference": "GUID:' + "ab" * 16 + '"}',
            "Assets/ByName/ByName.asmref": '{"reference": "Game.Core"}',
            "Assets/Elsewhere/Elsewhere.asmref": '{"reference": "Unity.Mathematics"}',
        },
    )
    g = graph_for(root)
    for asmref in ("Assets/ByGuid/ByGuid.asmref", "Assets/ByName/ByName.asmref"):
        desc = describe(g, asmref)
        assert "  Assets/Core/Core.asmdef (asmref)" in desc.text.splitlines(), desc.text
        assert [(e.path, e.edge) for e in desc.uses] == [("Assets/Core/Core.asmdef", "assembly")]
    elsewhere = describe(g, "Assets/Elsewhere/Elsewhere.asmref")
    assert "  Unity.Mathematics (asmref)" in elsewhere.text.splitlines()
    assert elsewhere.uses == []


def test_reference_lines_count_only_line_feeds_as_the_scanners_do(tmp_path: Path) -> None:
    """The scanners number lines by `\\n` (tree-sitter, the YAML reader). The text shown for a
    reference was read with `str.splitlines`, which also breaks at a form feed, `\\x1c`-`\\x1e`,
    U+0085 and U+2028: a comment holding one shifted every later line, so `refs` showed the
    line above the use and member usages were numbered off by one."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Hp.cs": "public class Hp { public int Current; }\n",
            "Assets/Use.cs": (
                "// page one\x0cpage two, a line\u2028separator\n"
                "public class Use {\n"
                "  Hp hp;\n"
                "  int Read() => hp.Current;\n"
                "}\n"
            ),
        },
    )
    g = graph_for(root)
    code = [(u.line, u.detail) for u in g.references(g.target("Hp")) if u.path == "Assets/Use.cs"]
    assert code == [(3, "Hp hp;")]
    text = [(u.line, u.detail) for u in g.references(g.target("Hp.Current")) if u.kind == "text"]
    assert text == [(4, "int Read() => hp.Current;")]


MOVER_SCRIPT = (
    "using UnityEngine;\npublic class Mover : MonoBehaviour\n{\n    public float speed;\n"
    "    [field: SerializeField] public int Range { get; private set; }\n}\n"
)
MOVER_WITH_SCRIPT = MOVER_PREFAB + (
    "  m_Component:\n  - component: {fileID: 101}\n--- !u!114 &101\nMonoBehaviour:\n  m_GameObject: {fileID: 100}\n"
    "  m_Script: {fileID: 11500000, guid: 22222222222222222222222222222222, type: 3}\n"
    "  speed: 2\n  <Range>k__BackingField: 5\n"
)


def _values_project(root: Path, scenes: dict[str, str]) -> Path:
    other = _instance_of(9, [("m_Name", "Rock"), ("speed", "7")]).replace("1" * 32, "3" * 32)
    return write_project(
        root,
        {
            "Assets/Mover.cs": MOVER_SCRIPT,
            "Assets/Mover.cs.meta": meta("22222222222222222222222222222222", "MonoImporter"),
            "Assets/Mover.prefab": MOVER_WITH_SCRIPT,
            "Assets/Mover.prefab.meta": meta("11111111111111111111111111111111", "PrefabImporter"),
            "Assets/Rock.prefab": MOVER_PREFAB.replace("Mover", "Rock"),
            "Assets/Rock.prefab.meta": meta("33333333333333333333333333333333", "PrefabImporter"),
            **{path: SCENE_HEAD + text + other for path, text in scenes.items()},
        },
    )


def test_a_field_lists_the_values_its_components_and_their_instances_set(tmp_path: Path) -> None:
    """serialized.value_usages: a field's own values (a `[field: SerializeField]` property's by its
    backing field), an instance's override once though Unity left it twice, and not the same-named
    field an instance of a prefab without the script sets."""
    stale_twice = _instance_of(
        7, [("m_Name", "Mover"), ("speed", "4"), ("speed", "4"), ("<Range>k__BackingField", "1")]
    )
    g = graph_for(_values_project(tmp_path / "P", {"Assets/Level.unity": stale_twice}))
    speed = [(u.path, u.line, u.context, u.detail) for u in g.references(g.target("Mover.speed")) if u.where == "asset"]
    assert speed == [
        ("Assets/Level.unity", 12, "override", "Mover sets speed: 4 (via Assets/Mover.prefab)"),
        ("Assets/Mover.prefab", 12, "value", "Mover > Mover.speed: 2"),
    ]
    ranged = [(u.path, u.detail) for u in g.references(g.target("Mover.Range")) if u.where == "asset"]
    assert ranged == [
        ("Assets/Level.unity", "Mover sets Range: 1 (via Assets/Mover.prefab)"),
        ("Assets/Mover.prefab", "Mover > Mover.Range: 5"),
    ]


def test_an_unnamed_instance_s_value_is_named_by_its_prefab_in_a_pack_as_in_refs(tmp_path: Path) -> None:
    """A trial's pack said `&1004821141 sets jumpProperties.initialVelocity: 25` where `refs` said
    `Jumpper`: an instance with no name of its own is its prefab's, in the values a pack shows too."""
    from indexer.query.serialized import values_of

    g = graph_for(_values_project(tmp_path / "P", {"Assets/Level.unity": _instance_of(7, [("speed", "4")])}))
    expected = ("Assets/Level.unity", "Mover sets speed: 4 (via Assets/Mover.prefab)")
    refs = [(u.path, u.detail) for u in g.references(g.target("Mover.speed")) if u.context == "override"]
    shown = values_of(g, ("speed",), {"2" * 32}, 200)["speed"]
    assert refs == [(u.path, u.detail) for u in shown if u.context == "override"] == [expected]


def test_the_values_a_field_holds_are_read_from_at_most_max_settings_files(tmp_path: Path, monkeypatch) -> None:
    from indexer.query import serialized

    scenes = {f"Assets/L{i}.unity": _instance_of(7, [("m_Name", "Mover"), ("speed", str(i))]) for i in range(3)}
    g = graph_for(_values_project(tmp_path / "P", scenes))
    monkeypatch.setattr(serialized, "MAX_SETTINGS_FILES", 2)
    speed = [(u.path, u.detail) for u in g.references(g.target("Mover.speed")) if u.kind == "value"]
    assert speed == [
        ("Assets/L0.unity", "Mover sets speed: 0 (via Assets/Mover.prefab)"),
        ("Assets/L1.unity", "Mover sets speed: 1 (via Assets/Mover.prefab)"),
        ("Assets/Mover.prefab", "Mover > Mover.speed: 2"),
    ]


def test_a_pack_shows_values_of_fields_unity_serializes_only(tmp_path: Path) -> None:
    """serialized.is_serialized: a stale value Unity left for a field it no longer serializes
    (private, static, const, readonly, a property without `[field: SerializeField]`) is not
    shown as the one the game runs with; a reference (`speedRef: None`) is wiring, not a value
    to tune, and takes no field's place."""
    from indexer.identifiers import stem
    from indexer.query.serialized import PACK_HEADER, pack_values
    from indexer.query.workspace import open_workspace

    script = (
        "using UnityEngine;\npublic class Mover : MonoBehaviour\n{\n"
        "    public GameObject speedRef;\n    public float speedUp;\n"
        "    [SerializeField] private float speedCap;\n    private float speedHidden;\n"
        "    public static float speedAll;\n    public readonly float speedFixed;\n"
        "    public float SpeedProp { get; set; }\n}\n"
    )
    fields = "  speedRef: {fileID: 0}\n"
    fields += "".join(f"  {f}: 1\n" for f in ("speedUp", "speedCap", "speedHidden", "speedAll", "speedFixed"))
    root = _values_project(tmp_path / "P", {})
    (root / "Assets/Mover.cs").write_text(script)
    (root / "Assets/Mover.prefab").write_text(MOVER_WITH_SCRIPT.replace("  speed: 2\n", fields))
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    project, local = ws.owner("Assets/Mover.cs")
    assert pack_values(project, local, {stem("speed"), stem("mover")}) == [
        PACK_HEADER,  # no level places the prefab here: said so since session 34
        "  Assets/Mover.prefab:13  Mover > Mover.speedUp: 1 (nothing uses this prefab)",
        "  Assets/Mover.prefab:14  Mover > Mover.speedCap: 1 (nothing uses this prefab)",
    ]


HERO_SCRIPT = (
    "using UnityEngine;\nusing UnityEngine.Serialization;\npublic class Hero : MonoBehaviour\n{\n"
    '    [FormerlySerializedAs("oldJump")] public float jump;\n    public void Boost() {}\n}\n'
)
BOOSTER_SCRIPT = "using UnityEngine;\npublic class Booster : MonoBehaviour\n{\n    public float Boost;\n}\n"
POWER_SCRIPTS = {
    "Assets/Base.cs": "using UnityEngine;\npublic class Base<T> : MonoBehaviour\n{\n    public int power;\n}\n",
    "Assets/Derived.cs": "public class Derived : Base<int>\n{\n}\n",
}


def _hero_project(root: Path) -> Path:
    """Hero.prefab (GUID 1111...) carrying Hero (whose `jump` Unity serialized as `oldJump`) and
    Booster (a field named as Hero's method), a level instance overriding both, and Derived.prefab
    carrying a subclass of a generic base."""
    component = "--- !u!114 &{id}\nMonoBehaviour:\n  m_GameObject: {{fileID: 100}}\n"
    component += "  m_Script: {{fileID: 11500000, guid: {guid}, type: 3}}\n  {field}: {value}\n"
    hero = MOVER_PREFAB.replace("Mover", "Hero") + "  m_Component:\n  - component: {fileID: 101}\n"
    hero += "  - component: {fileID: 102}\n" + component.format(id=101, guid="2" * 32, field="oldJump", value=7)
    hero += component.format(id=102, guid="4" * 32, field="Boost", value=1)
    derived = MOVER_PREFAB.replace("Mover", "Der") + "  m_Component:\n  - component: {fileID: 101}\n"
    derived += component.format(id=101, guid="6" * 32, field="power", value=42)
    level = SCENE_HEAD + _instance_of(7, [("m_Name", "Hero"), ("oldJump", "9"), ("Boost", "2")])
    return write_project(
        root,
        {
            "Assets/Hero.cs": HERO_SCRIPT,
            "Assets/Hero.cs.meta": meta("2" * 32),
            "Assets/Booster.cs": BOOSTER_SCRIPT,
            "Assets/Booster.cs.meta": meta("4" * 32),
            **POWER_SCRIPTS,
            "Assets/Base.cs.meta": meta("5" * 32),
            "Assets/Derived.cs.meta": meta("6" * 32),
            "Assets/Hero.prefab": hero,
            "Assets/Hero.prefab.meta": meta("1" * 32, "PrefabImporter"),
            "Assets/Derived.prefab": derived,
            "Assets/Derived.prefab.meta": meta("7" * 32, "PrefabImporter"),
            "Assets/Level.unity": level,
        },
    )


def test_values_are_a_serialized_fields_under_its_former_names_and_never_a_methods(tmp_path: Path) -> None:
    """A field renamed with `[FormerlySerializedAs]` is what Unity loads the old name into, so its
    values are those the assets hold under the old name; a method holds no value, though another
    component of the prefab has a field of its name (an instance's override names no component)."""
    g = graph_for(_hero_project(tmp_path / "P"))

    def values(target: str) -> list[tuple[str, str]]:
        return [(u.path, u.detail) for u in g.references(g.target(target)) if u.kind == "value"]

    assert values("Hero.jump") == [
        ("Assets/Hero.prefab", "Hero > Hero.oldJump: 7"),
        ("Assets/Level.unity", "Hero sets oldJump: 9 (via Assets/Hero.prefab)"),
    ]
    assert values("Hero.Boost") == []
    assert values("Booster.Boost") == [
        ("Assets/Hero.prefab", "Hero > Booster.Boost: 1"),
        ("Assets/Level.unity", "Hero sets Boost: 2 (via Assets/Hero.prefab)"),
    ]


def test_a_member_of_a_generic_type_written_with_its_type_parameters_is_that_member(tmp_path: Path) -> None:
    """`refs Base<T>.power` is the field, as `Base.power` is (it was taken for the type `Base`,
    the member dropped without a word)."""
    g = graph_for(_hero_project(tmp_path / "P"))
    for written in ("Base<T>.power", "Base<int>.power"):
        target = g.target(written)
        assert (target.kind, target.member, target.types) == ("member", "power", ["Base"])
        values = [u.detail for u in g.references(target) if u.kind == "value"]
        assert values == ["Der > Derived.power: 42"]


def test_a_pack_shows_the_values_a_field_holds_under_its_former_name(tmp_path: Path) -> None:
    from indexer.identifiers import stem
    from indexer.query.serialized import PACK_HEADER, pack_values
    from indexer.query.workspace import open_workspace

    root = _hero_project(tmp_path / "P")
    update(root, Config(workers=1))
    project, local = open_workspace(root, [(root, Config())]).owner("Assets/Hero.cs")
    assert pack_values(project, local, {stem("jump")}) == [
        PACK_HEADER,
        "  Assets/Hero.prefab:13  Hero > Hero.oldJump: 7",
        "  Assets/Level.unity:12  Hero sets oldJump: 9",
    ]


def test_a_field_whose_values_were_read_in_part_says_so(tmp_path: Path, monkeypatch) -> None:
    """Past MAX_SETTINGS_FILES files the values are not read: the target's note says how many
    files were not (`refs` showed the first ones as if they were all)."""
    from indexer.query import serialized
    from indexer.query.lookup import find_references
    from indexer.query.workspace import open_workspace

    scenes = {f"Assets/L{i}.unity": _instance_of(7, [("m_Name", "Mover"), ("speed", str(i))]) for i in range(3)}
    root = _values_project(tmp_path / "P", scenes)
    update(root, Config(workers=1))
    monkeypatch.setattr(serialized, "MAX_SETTINGS_FILES", 2)
    target, _ = find_references(open_workspace(root, [(root, Config())]), "Mover.speed")
    assert target.note == "values read from the first 2 of 3 files placing its prefabs"
    monkeypatch.setattr(serialized, "MAX_SETTINGS_FILES", 200)
    target, _ = find_references(open_workspace(root, [(root, Config())]), "Mover.speed")
    assert target.note == ""


def test_a_pack_says_more_values_exist_when_it_read_the_first_files_only(tmp_path: Path, monkeypatch) -> None:
    """A pack reads PACK_FILES files: past them it says there are more (`… 1+ more`), not a count
    of what it read as if it were all (`… 1 more` of 3,000 prefabs), nor nothing."""
    from indexer.identifiers import stem
    from indexer.query import serialized
    from indexer.query.workspace import open_workspace

    scenes = {f"Assets/L{i}.unity": _instance_of(7, [("m_Name", "Mover"), ("speed", str(i))]) for i in range(4)}
    root = _values_project(tmp_path / "P", scenes)
    update(root, Config(workers=1))

    def last_line(files: int) -> str:
        monkeypatch.setattr(serialized, "PACK_FILES", files)
        project, local = open_workspace(root, [(root, Config())]).owner("Assets/Mover.cs")
        return serialized.pack_values(project, local, {stem("speed")})[-1]

    assert last_line(8) == "  … 3 more (unity-index refs Mover.speed)"
    assert last_line(2) == "  … 1+ more (unity-index refs Mover.speed)"
    assert last_line(1) == "  … more (unity-index refs Mover.speed)"


def test_an_instance_that_removed_the_scripts_component_sets_none_of_its_values(tmp_path: Path) -> None:
    """serialized.values_of follows the carriers at their `m_Script` lines, so an instance whose
    `m_RemovedComponents` drops the script's component (`carriers.inherited_usages`) is left out."""
    removed = _instance_of(7, [("m_Name", "Mover"), ("speed", "4")]).replace(
        "  m_SourcePrefab:",
        "    m_RemovedComponents:\n    - {fileID: 101, guid: 11111111111111111111111111111111, type: 3}\n"
        "  m_SourcePrefab:",
    )
    g = graph_for(_values_project(tmp_path / "P", {"Assets/Level.unity": removed}))
    speed = [(u.path, u.detail) for u in g.references(g.target("Mover.speed")) if u.kind == "value"]
    assert speed == [("Assets/Mover.prefab", "Mover > Mover.speed: 2")]


def test_a_pack_shows_no_values_for_a_nested_class_or_another_file_of_the_same_name(tmp_path: Path) -> None:
    """serialized.pack_values: a nested `[Serializable]` class's field is no component's, though
    its name is the component's own field's; a class of the same name in another file has its own
    script, whichever pack is built first in the process (the cache is per file); `[NonSerialized]`
    public fields are not serialized."""
    from indexer.identifiers import stem
    from indexer.query.serialized import PACK_HEADER, pack_values
    from indexer.query.workspace import open_workspace

    mover = (
        "using UnityEngine;\npublic class Mover : MonoBehaviour\n{\n    public float speed;\n"
        "    [System.NonSerialized] public float speedLeft;\n"
        "    [System.Serializable] public class Gear\n    {\n        public float speed;\n    }\n}\n"
    )
    root = _values_project(tmp_path / "P", {})
    (root / "Assets/Mover.cs").write_text(mover)
    (root / "Assets/Mover.prefab").write_text(MOVER_WITH_SCRIPT + "  speedLeft: 8\n")
    other = {
        "Assets/B/Mover.cs": "using UnityEngine;\npublic class Mover : MonoBehaviour\n{\n    public float speed;\n}\n",
        "Assets/B/Mover.cs.meta": meta("44444444444444444444444444444444", "MonoImporter"),
        "Assets/B/Cart.prefab": MOVER_WITH_SCRIPT.replace("2" * 32, "4" * 32).replace("speed: 2", "speed: 22"),
    }
    for path, text in other.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    stems = {stem("speed"), stem("left")}
    b = ws.owner("Assets/B/Mover.cs")
    a = ws.owner("Assets/Mover.cs")
    assert pack_values(*b, stems) == [
        PACK_HEADER,
        "  Assets/B/Cart.prefab:12  Mover > Mover.speed: 22 (nothing uses this prefab)",
    ]
    assert pack_values(*a, stems) == [
        PACK_HEADER,
        "  Assets/Mover.prefab:12  Mover > Mover.speed: 2 (nothing uses this prefab)",
    ]


def test_a_pack_reaches_the_subclass_of_a_base_class_that_hundreds_of_files_use(tmp_path: Path) -> None:
    """serialized._family_guids reads a base class's users past the walk's hub cap (200): the
    value of its field sits on the subclass's component."""
    from indexer.identifiers import stem
    from indexer.query.serialized import PACK_HEADER, pack_values
    from indexer.query.workspace import open_workspace

    files = {
        "Assets/Unit.cs": "using UnityEngine;\npublic abstract class Unit : MonoBehaviour\n{\n    public int maxHp;\n}",
        "Assets/Orc.cs": "public class Orc : Unit {}\n",
        "Assets/Orc.cs.meta": meta("22222222222222222222222222222222", "MonoImporter"),
        "Assets/Orc.prefab": MOVER_WITH_SCRIPT.replace("  speed: 2\n  <Range>k__BackingField: 5\n", "  maxHp: 75\n"),
        **{f"Assets/Users/U{i}.cs": f"public class U{i} {{ Unit u; }}\n" for i in range(205)},
    }
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    assert pack_values(*ws.owner("Assets/Unit.cs"), {stem("max"), stem("hp")}) == [
        PACK_HEADER,
        "  Assets/Orc.prefab:12  Mover > Orc.maxHp: 75 (nothing uses this prefab)",
    ]


def test_a_target_of_two_same_named_types_says_once_that_values_were_left_unread(tmp_path: Path, monkeypatch) -> None:
    """serialized.value_usages runs once per type a target names (`Mover` and `B.Mover`), each
    reading the first MAX_SETTINGS_FILES of three carriers: the note says so once."""
    from indexer.query import serialized

    root = _values_project(tmp_path / "P", {})
    extra = {
        "Assets/B/Mover.cs": "namespace B { public class Mover : UnityEngine.MonoBehaviour { public float speed; } }",
        "Assets/B/Mover.cs.meta": meta("44444444444444444444444444444444", "MonoImporter"),
    }
    carts = [("Cart", "2" * 32), ("Cart2", "2" * 32), ("Sled", "4" * 32), ("Sled2", "4" * 32), ("Sled3", "4" * 32)]
    for name, guid in carts:
        extra[f"Assets/B/{name}.prefab"] = MOVER_WITH_SCRIPT.replace("2" * 32, guid)
    for path, text in extra.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    g = graph_for(root)
    monkeypatch.setattr(serialized, "MAX_SETTINGS_FILES", 2)
    target = g.target("Mover.speed")
    assert len(target.types) == 2
    g.references(target)
    assert target.note.count("values read from") == 1


def test_a_packs_values_are_read_once_per_index_generation(tmp_path: Path, monkeypatch) -> None:
    """serialized.pack_values keeps what it read per index generation (`ProjectIndex.remember`):
    a second pack of the same file reads no record again."""
    from indexer.identifiers import stem
    from indexer.query.serialized import pack_values
    from indexer.query.workspace import open_workspace
    from indexer.store.reader import Records

    root = _values_project(tmp_path / "P", {"Assets/Level.unity": _instance(7, "Mover", "4")})
    update(root, Config(workers=1))
    project, local = open_workspace(root, [(root, Config())]).owner("Assets/Mover.cs")
    first = pack_values(project, local, {stem("speed")})
    assert len(first) == 3  # the header, the prefab's value and the scene's override

    def unread(*_args):
        raise AssertionError("read again")

    monkeypatch.setattr(Records, "symbols", unread)
    assert pack_values(project, local, {stem("speed")}) == first


def test_an_override_of_a_same_named_field_of_another_component_is_listed_too(tmp_path: Path) -> None:
    """docs/cli.md (refs), a limit: an override names its property, not its component, so an
    instance's `speed` set on another component of a prefab carrying the script reads as the
    script's."""
    other_component = (
        "--- !u!114 &102\nMonoBehaviour:\n  m_GameObject: {fileID: 100}\n"
        "  m_Script: {fileID: 11500000, guid: 55555555555555555555555555555555, type: 3}\n  speed: 9\n"
    )
    root = _values_project(
        tmp_path / "P", {"Assets/Level.unity": _instance_of(7, [("m_Name", "Mover"), ("speed", "6")])}
    )
    (root / "Assets/Mover.prefab").write_text(MOVER_WITH_SCRIPT + other_component)
    g = graph_for(root)
    speed = [u.detail for u in g.references(g.target("Mover.speed")) if u.kind == "value"]
    assert speed == ["Mover sets speed: 6 (via Assets/Mover.prefab)", "Mover > Mover.speed: 2"]


def test_a_member_called_on_another_type_a_getter_names_is_no_usage(tmp_path: Path) -> None:
    """`refs Door.Open` listed `GetComponent<Chest>().Open()` (a trial on a real game: each of the
    two methods' refs held the other's call): a call on what a generic getter returns is a usage
    only when the type it names is one of the member's own (a subclass's too); a line calling
    both is kept. A call on a variable the file declares only as another class is not either
    (`Door door;` then `door.Open()` was listed for Chest.Open; a trial's `refs
    ScreenFaderBehaviour.color` listed `Image m_TrackBinding`'s `.color`); one declared as an
    interface, with `var`, or not in the file may hold the type, and stays a text match."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Door.cs": "public class Door : MonoBehaviour { public void Open() {} }\n",
            "Assets/BigDoor.cs": "public class BigDoor : Door { }\n",
            "Assets/Chest.cs": "public class Chest : MonoBehaviour { public void Open() {} }\n",
            "Assets/Player.cs": (
                "public class Player : MonoBehaviour {\n"
                "  Door door;\n"
                "  void A(Collider other) { other.gameObject.GetComponent<Chest>().Open(); }\n"
                "  void B(Collider other) { other.GetComponent<Door>().Open(); }\n"
                "  void C() { FindObjectOfType<BigDoor>()?.Open(); }\n"
                "  void D(Collider o) { o.GetComponent<Chest>().Open(); door.Open(); }\n"
                "  void E() { door.Open(); }\n"
                "  IOpen lid; void F() { lid.Open(); var box = Pick(); box.Open(); }\n"
                "}\n"
            ),
            "Assets/IOpen.cs": "public interface IOpen { void Open(); }\n",
        },
    )
    g = graph_for(root)
    lines = {
        name: [u.line for u in g.references(g.target(name)) if u.kind == "text"] for name in ("Door.Open", "Chest.Open")
    }
    assert lines == {"Door.Open": [4, 5, 6, 7, 8], "Chest.Open": [3, 6, 8]}


HITBOX = """public class HitBox : MonoBehaviour {
  internal Damage damage;
  CharacterHealth owner;
  public delegate void HurtCallback(Damage dt, CharacterHealth to);
  void A() { owner.Damage(GetComponent<Damage>()); }
  void B() { gameObject.AddComponent<Damage>(); var d = new Damage(); }
  void C() { owner?.Damage (damage); }
}
"""


def test_a_member_named_like_a_type_is_used_where_it_is_accessed_or_called(tmp_path: Path) -> None:
    """`refs CharacterHealth.Damage` listed every line naming the class `Damage` (a trial: 19 of 29
    lines were `Damage dt` parameters, fields and `AddComponent<Damage>()`): outside the type's own
    files a line counts when the name is reached through an object or called, not `new Damage()`."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Damage.cs": "public class Damage : MonoBehaviour { public int amount; }\n",
            "Assets/CharacterHealth.cs": (
                "public class CharacterHealth : MonoBehaviour {\n"
                "  public void Damage(Damage dt) { }\n"
                "  void Hurt(Damage d) { Damage(d); }\n"
                "}\n"
            ),
            "Assets/HitBox.cs": HITBOX,
        },
    )
    g = graph_for(root)
    got = [(u.path, u.line) for u in g.references(g.target("CharacterHealth.Damage")) if u.kind == "text"]
    assert got == [("Assets/CharacterHealth.cs", 3), ("Assets/HitBox.cs", 5), ("Assets/HitBox.cs", 7)]


def test_a_member_reached_through_an_inherited_or_another_types_field_is_used(tmp_path: Path) -> None:
    """A trial on a platformer framework: `refs PlatformerCollider2D.FallThroughPlatform` said "no
    usages found" and `refs Character.EnterState` listed 4 of 13 calls, all made as
    `character.X()` on a field the actions inherit from `CharacterAction`, whose files never name
    `Character`; `b.boxMovingPlatform.PlatformerUpdate()` (a field of `Box`) was missed too. Such
    files are searched, reaching the member only through an object: their own `base.X()` or a bare
    `X()` is their class's. A trial on an Addressables sample: `refs GameManager.Instance` listed
    `ApplyRemoteConfigSettings.Instance`, another project class's static member."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Body.cs": "public class Body : MonoBehaviour { public void Fall() {} static Body Instance; }",
            "Assets/Character.cs": "public class Character : Body { public Platform platform; }\n",
            "Assets/Platform.cs": "public class Platform : MonoBehaviour { public void Tick() {} }\n",
            "Assets/Box.cs": "public class Box : MonoBehaviour { public Platform boxPlatform; }\n",
            "Assets/Action.cs": "public class Action : MonoBehaviour { public Character character; }\n",
            "Assets/FallAction.cs": (
                "public class FallAction : Action {\n"
                "  void A() { character.Fall(); }\n"
                "  void B(Box b) { b.boxPlatform.Tick(); }\n"
                "}\n"
            ),
            "Assets/Enemy.cs": (
                "public class Enemy : Character {\n"
                "  void Update() { base.Fall(); this.Fall(); }\n"
                "  void C() { Other.Instance.Go(); }\n"
                "  void Tick() { }\n"
                "  void D() { Tick(); this.Tick(); }\n"
                "  void E() { Body.Instance.Fall(); }\n"
                "}\n"
            ),
            "Assets/Other.cs": "public class Other : MonoBehaviour { static Other Instance; public void Go() {} }",
        },
    )
    g = graph_for(root)

    def lines(name: str) -> list[tuple[str, int]]:
        return [(u.path, u.line) for u in g.references(g.target(name)) if u.kind == "text"]

    assert lines("Character.Fall") == [
        ("Assets/Enemy.cs", 2),  # Enemy is a Character: `base.Fall()` is the member
        ("Assets/Enemy.cs", 6),
        ("Assets/FallAction.cs", 2),
    ]
    assert lines("Platform.Tick") == [("Assets/FallAction.cs", 3)]  # not Enemy's own Tick
    assert lines("Body.Instance") == [("Assets/Enemy.cs", 6)]  # `Body.Instance`, not `Other.Instance`


def test_a_call_without_an_object_outside_the_type_s_files_is_another_method_s(tmp_path: Path) -> None:
    """A trial on a combat game: `refs EnemyScript.Attack` listed CombatScript's four `Attack(...)`
    calls (its own method) and a local function's declaration elsewhere; outside the type's files
    (and its subclasses') only a member reached through an object is the type's."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Enemy.cs": (
                "public class Enemy {\n  public Combat combat;\n  void Hit() { Attack(); }\n  void Attack() { }\n}\n"
            ),
            "Assets/Combat.cs": (
                "public class Combat {\n"
                "  public Enemy target;\n"
                "  void Update() { Attack(1); }\n"
                "  public void Attack(int n) {\n"
                "    System.Collections.IEnumerator Hit() { yield break; }\n"
                "    StartCoroutine(Hit());\n"
                "  }\n"
                "  void StartCoroutine(object o) { }\n"
                "}\n"
            ),
        },
    )
    g = graph_for(root)

    def lines(name: str) -> list[tuple[str, int]]:
        return [(u.path, u.line) for u in g.references(g.target(name)) if u.kind == "text"]

    assert lines("Enemy.Attack") == [("Assets/Enemy.cs", 3)]
    assert lines("Combat.Attack") == [("Assets/Combat.cs", 3)]
    assert lines("Enemy.Hit") == []  # Combat's local function, declared and called, is not Enemy's


def test_a_reference_to_an_object_inside_a_prefab_instance_names_that_object(tmp_path: Path) -> None:
    """A trial: a trail script's `rightHand`, `leftFoot` and `trail`, three bones and a child of
    the player's prefab instance, all read `JammoPrefab (Transform)`, the instance: the wiring could
    not be checked. The stripped object's source names it; the source's root is the instance."""
    hero, holder = "7" * 32, "8" * 32
    prefab = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        "--- !u!1 &100\nGameObject:\n  m_Component:\n  - component: {fileID: 101}\n  m_Name: Hero\n"
        "--- !u!4 &101\nTransform:\n  m_GameObject: {fileID: 100}\n  m_Children:\n  - {fileID: 201}\n"
        "  m_Father: {fileID: 0}\n"
        "--- !u!1 &200\nGameObject:\n  m_Component:\n  - component: {fileID: 201}\n  m_Name: Armature\n"
        "--- !u!4 &201\nTransform:\n  m_GameObject: {fileID: 200}\n  m_Children:\n  - {fileID: 301}\n"
        "  m_Father: {fileID: 101}\n"
        "--- !u!1 &300\nGameObject:\n  m_Component:\n  - component: {fileID: 301}\n  m_Name: Hand\n"
        "--- !u!4 &301\nTransform:\n  m_GameObject: {fileID: 300}\n  m_Children: []\n  m_Father: {fileID: 201}\n"
    )
    scene = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        "--- !u!1001 &900\nPrefabInstance:\n  m_Modification:\n    m_TransformParent: {fileID: 0}\n"
        "    m_Modifications:\n"
        f"    - target: {{fileID: 100, guid: {hero}, type: 3}}\n"
        "      propertyPath: m_Name\n      value: Player\n      objectReference: {fileID: 0}\n"
        f"  m_SourcePrefab: {{fileID: 100100000, guid: {hero}, type: 3}}\n"
        "--- !u!4 &901 stripped\nTransform:\n"
        f"  m_CorrespondingSourceObject: {{fileID: 301, guid: {hero}, type: 3}}\n"
        "  m_PrefabInstance: {fileID: 900}\n"
        "--- !u!4 &902 stripped\nTransform:\n"
        f"  m_CorrespondingSourceObject: {{fileID: 101, guid: {hero}, type: 3}}\n"
        "  m_PrefabInstance: {fileID: 900}\n"
        "--- !u!1 &10\nGameObject:\n  m_Component:\n  - component: {fileID: 11}\n  m_Name: Rig\n"
        "--- !u!114 &11\nMonoBehaviour:\n  m_GameObject: {fileID: 10}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {holder}, type: 3}}\n"
        "  hand: {fileID: 901}\n  body: {fileID: 902}\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Hero.prefab": prefab,
            "Assets/Hero.prefab.meta": meta(hero, "PrefabImporter"),
            "Assets/Holder.cs": "public class Holder : UnityEngine.MonoBehaviour {\n"
            "  public UnityEngine.Transform hand, body;\n}\n",
            "Assets/Holder.cs.meta": meta(holder),
            "Assets/Level.unity": scene,
        },
    )
    g = graph_for(root)

    def values(name: str) -> list[str]:
        return [u.detail for u in g.references(g.target(name)) if u.kind == "value"]

    assert values("Holder.hand") == ["Rig > Holder.hand: Player/Armature/Hand (Transform)"]
    assert values("Holder.body") == ["Rig > Holder.body: Player (Transform)"]


def test_an_editor_finding_a_field_by_name_is_a_usage_of_it(tmp_path: Path) -> None:
    """A trial: `refs ScreenFaderBehaviour.color` missed the drawer's `FindPropertyRelative("color")`,
    which renaming the field silently breaks; like a message, it is matched by name."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Fader.cs": "[System.Serializable] public class Fader {\n  public UnityEngine.Color color;\n}\n",
            "Assets/Editor/FaderDrawer.cs": (
                "using UnityEditor;\n"
                "public class FaderDrawer : PropertyDrawer {\n"
                "  void Draw(SerializedProperty property, SerializedObject o) {\n"
                '    var c = property.FindPropertyRelative("color");\n'
                '    var d = o.FindProperty( "color");\n'
                '    var e = o.FindProperty("colour");\n'
                "  }\n"
                "}\n"
            ),
        },
    )
    g = graph_for(root)
    found = [(u.path, u.line, u.kind, u.context) for u in g.references(g.target("Fader.color"))]
    assert found == [
        ("Assets/Editor/FaderDrawer.cs", 4, "message", "FindPropertyRelative"),
        ("Assets/Editor/FaderDrawer.cs", 5, "message", "FindProperty"),
    ]


def test_a_name_said_bare_in_a_sibling_nested_class_is_that_class_s(tmp_path: Path) -> None:
    """A trial: `refs UsableType.name` listed 59 lines of a wizard whose nested `Variable` and
    `UsableProperty` have a `name` of their own, said bare in their bodies; there it is theirs."""
    wizard = (
        "public class Wizard {\n"
        "  public class Variable {\n"
        "    public string name;\n"
        "    public Variable(string n) { name = n; }\n"
        "  }\n"
        "  public class UsableType {\n"
        "    public string name;\n"
        "    public UsableType(string n) { name = n; }\n"
        "  }\n"
        "  void Show(UsableType t, Variable v) {\n"
        "    Log(t.name);\n"
        "    Log(v.name);\n"
        "  }\n"
        "  void Log(string s) { }\n"
        "}\n"
    )
    g = graph_for(write_project(tmp_path / "P", {"Assets/Editor/Wizard.cs": wizard}))
    found = [(u.path, u.line) for u in g.references(g.target("Wizard.UsableType.name")) if u.kind == "text"]
    assert found == [("Assets/Editor/Wizard.cs", 8), ("Assets/Editor/Wizard.cs", 11)]


def test_the_project_s_lua_calling_a_member_is_a_usage_of_it(tmp_path: Path) -> None:
    """A trial: a colony sim's Lua (run through MoonSharp) called `Furniture.SetAnimationProgressValue`
    four times, and `refs` said "no usages found". Lua reaching it on an object counts, by name;
    a comment or a bare global of that name does not."""
    lua = (
        "function OnUpdate_Door(furniture, deltaTime)\n"
        "  furniture.SetAnimationProgressValue(0.5, 1)\n"
        "  -- furniture:SetAnimationProgressValue(0, 1)\n"
        "  SetAnimationProgressValue(1)\n"
        "  furniture:SetAnimationProgressValue(1, 1) -- again\n"
        "end\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Furniture.cs": "public class Furniture {\n  public void SetAnimationProgressValue() { }\n}\n",
            "Assets/StreamingAssets/LUA/Furniture.lua": lua,
        },
    )
    g = graph_for(root)
    found = [(u.path, u.line, u.context) for u in g.references(g.target("Furniture.SetAnimationProgressValue"))]
    assert found == [
        ("Assets/StreamingAssets/LUA/Furniture.lua", 2, "lua"),
        ("Assets/StreamingAssets/LUA/Furniture.lua", 5, "lua"),
    ]


def test_a_member_reached_through_two_fields_is_found(tmp_path: Path) -> None:
    """A trial: `refs DialogBox.ShowDialog` missed the main menu's Load button,
    `MainMenuController.Instance.dialogBoxManager.dialogBoxLoadGame.ShowDialog()`, in a file
    naming neither the dialog's type nor the class holding it (member_text.REACH_HOPS)."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Box.cs": "public class Box { public virtual void Show() { } }\n",
            "Assets/LoadBox.cs": "public class LoadBox : Box { }\n",
            "Assets/Boxes.cs": "public class Boxes { public LoadBox load; }\n",
            "Assets/Main.cs": "public class Main { public static Main Instance; public Boxes boxes; }\n",
            "Assets/Menu.cs": "public class Menu {\n  void OnLoad() {\n    Main.Instance.boxes.load.Show();\n  }\n}\n",
        },
    )
    g = graph_for(root)
    show = [(u.path, u.line) for u in g.references(g.target("Box.Show")) if u.kind == "text"]
    assert show == [("Assets/Menu.cs", 3)]


def test_a_member_of_a_property_named_as_its_class_or_of_a_new_local_is_that_class_s(tmp_path: Path) -> None:
    """A trial on a rhythm game: `refs GameState.Combo` listed `Context.TierState.Combo` (a static
    property named as its class, `TierState`) and `trigger.Combo` on `var trigger = new Trigger()`:
    5 of its 14 lines were other classes' members."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/GameState.cs": (
                "public class GameState {\n"
                "  public int Combo;\n"
                "  void Judge(bool miss) {\n"
                "    if (miss) Combo = 0;\n"
                "    Context.TierState.Combo++;\n"
                "  }\n"
                "}\n"
            ),
            "Assets/TierState.cs": "public class TierState { public int Combo; }\n",
            "Assets/Trigger.cs": "public class Trigger { public int Combo; }\n",
            "Assets/Context.cs": "public static class Context {\n  public static TierState TierState;\n}\n",
            "Assets/Board.cs": (
                "public class Board {\n"
                "  GameState state;\n"
                "  void Read() {\n"
                "    var trigger = new Trigger();\n"
                "    trigger.Combo = 2;\n"
                "    var copy = state;\n"
                "    copy.Combo = state.Combo;\n"
                "  }\n"
                "}\n"
            ),
        },
    )
    g = graph_for(root)
    combo = [(u.path, u.line) for u in g.references(g.target("GameState.Combo")) if u.kind == "text"]
    assert combo == [("Assets/Board.cs", 7), ("Assets/GameState.cs", 4)]


def test_a_member_called_on_what_find_object_of_type_returns_is_that_types(tmp_path: Path) -> None:
    """member_text: `FindObjectOfType<Chest>().Open()` is Chest's; `FindAnyObjectByType<Door>()`'s
    is Door's (the getters of `Find...Object...<T>()` like `GetComponent<T>()`)."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Door.cs": "public class Door : MonoBehaviour { public void Open() {} }\n",
            "Assets/Chest.cs": "public class Chest : MonoBehaviour { public void Open() {} }\n",
            "Assets/Level.cs": (
                "public class Level : MonoBehaviour {\n"
                "  Door d; Chest c;\n"
                "  void A() { FindObjectOfType<Chest>().Open(); }\n"
                "  void B() { FindAnyObjectByType<Door>().Open(); }\n"
                "}\n"
            ),
        },
    )
    g = graph_for(root)
    assert [u.line for u in g.references(g.target("Door.Open")) if u.kind == "text"] == [4]
    assert [u.line for u in g.references(g.target("Chest.Open")) if u.kind == "text"] == [3]


def test_an_override_is_used_where_code_calls_the_method_through_its_base_class(tmp_path: Path) -> None:
    """`refs FPSController.Teleport` found no usages (a trial on a portals game): the portal calls
    `traveller.Teleport(...)` on a `PortalTraveller`, whose virtual method the player's override
    replaces. A call through a base class declaring the member is a usage of the override; a
    class that merely shares the name is not."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/PortalTraveller.cs": "public class PortalTraveller : MonoBehaviour {\n"
            "  public virtual void Teleport(Transform to) {}\n}\n",
            "Assets/FPSController.cs": "public class FPSController : PortalTraveller {\n"
            "  public override void Teleport(Transform to) { base.Teleport(to); }\n}\n",
            "Assets/Portal.cs": "public class Portal : MonoBehaviour {\n  PortalTraveller traveller;\n"
            "  void LateUpdate() { traveller.Teleport(transform); }\n}\n",
            "Assets/Ferry.cs": "public class Ferry : MonoBehaviour {\n  Boat boat;\n"
            "  void Go() { boat.Teleport(null); }\n}\n",
            "Assets/Boat.cs": "public class Boat : MonoBehaviour { public void Teleport(Transform to) {} }\n",
        },
    )
    g = graph_for(root)
    lines = [(u.path, u.line) for u in g.references(g.target("FPSController.Teleport")) if u.kind == "text"]
    assert lines == [("Assets/Portal.cs", 3)]  # the override's own line declares it: no usage


def test_a_predefined_assembly_is_a_target_that_says_what_it_is(tmp_path: Path) -> None:
    """`refs Assembly-CSharp` exited 2, "no type, member, file, GUID or assembly of that name",
    while `describe` names it as a script's assembly (a trial): it is Unity's, with the scripts
    compiled into it counted, and no asmdef can reference it, so it has no usages."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Player.cs": "public class Player : UnityEngine.MonoBehaviour { }\n",
            "Assets/Enemy.cs": "public class Enemy : UnityEngine.MonoBehaviour { }\n",
            "Assets/Plugins/Tween.cs": "public class Tween { }\n",
        },
    )
    g = graph_for(root)
    t = g.target("Assembly-CSharp")
    assert (t.kind, t.name, t.path, t.note) == (
        "assembly",
        "Assembly-CSharp",
        "",
        "Unity's predefined assembly, of 2 scripts here: no asmdef can reference it",
    )
    assert g.references(t) == []
    assert g.target("Assembly-CSharp-firstpass").note.startswith("Unity's predefined assembly, of 1 script here")
    assert g.target("Assembly-CSharp-Editor").note.startswith("Unity's predefined assembly, of 0 scripts here")


def test_a_member_a_file_names_bare_through_using_static_is_used_there(tmp_path: Path) -> None:
    """A trial on a logic simulator: `refs DrawSettings.WireHighlightedThickness` said "no usages
    found", and `refs DrawSettings` listed none of the nine files that `using static` it: they name
    its members bare. The directive is a usage of the type, and a bare name in its file the member's."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/DrawSettings.cs": "namespace Gfx { static class DrawSettings { public const float Wire = 1; } }",
            "Assets/Drawer.cs": (
                "using static Gfx.DrawSettings;\npublic class Drawer {\n  float A() { return Wire * 2; }\n}\n"
            ),
            "Assets/Other.cs": "public class Other { float Wire; float B() { return Wire; } }\n",
        },
    )
    g = graph_for(root)
    assert [(u.path, u.line, u.context) for u in g.references(g.target("DrawSettings"))] == [
        ("Assets/Drawer.cs", 1, "using")
    ]
    assert [(u.path, u.line) for u in g.references(g.target("DrawSettings.Wire"))] == [("Assets/Drawer.cs", 3)]
    assert "Assets/DrawSettings.cs" in {p for p, _ in g.uses("Assets/Drawer.cs")}


PLAYER_PREFAB = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &100004
GameObject:
  m_Component:
  - component: {fileID: 400004}
  - component: {fileID: 11400000}
  m_Name: Player
--- !u!4 &400004
Transform:
  m_GameObject: {fileID: 100004}
  m_Children:
  - {fileID: 400008}
  m_Father: {fileID: 0}
--- !u!114 &11400000
MonoBehaviour:
  m_GameObject: {fileID: 100004}
  m_Script: {fileID: 11500000, guid: 22222222222222222222222222222222, type: 3}
  health: 15
--- !u!1 &100008
GameObject:
  m_Component:
  - component: {fileID: 400008}
  m_Name: Axe
--- !u!4 &400008
Transform:
  m_GameObject: {fileID: 100008}
  m_Children: []
  m_Father: {fileID: 400004}
"""


def test_an_instance_renaming_a_child_is_named_as_the_editor_shows_it(tmp_path: Path) -> None:
    """A trial: a level's player instance, whose only `m_Name` override renames the axe it holds,
    was `Axe` in `refs`, in the values it sets and in `describe`; the editor shows `Player`. One
    that renames its root too is shown by that name."""
    from indexer.query.describe import describe

    def level(*names: tuple[str, str]) -> str:
        mods = [("health", "50", "100004")]
        lines = ["--- !u!1001 &7", "PrefabInstance:", "  m_Modification:", "    m_Modifications:"]
        for prop, value, target in [*((("m_Name", n, t) for t, n in names)), *mods]:
            lines += [
                f"    - target: {{fileID: {target}, guid: 11111111111111111111111111111111, type: 3}}",
                f"      propertyPath: {prop}",
                f"      value: {value}",
                "      objectReference: {fileID: 0}",
            ]
        lines.append("  m_SourcePrefab: {fileID: 100100000, guid: 11111111111111111111111111111111, type: 3}")
        return SCENE_HEAD + "\n".join(lines) + "\n"

    root = write_project(
        tmp_path / "P",
        {
            "Assets/Player.cs": "public class Player : UnityEngine.MonoBehaviour { public int health; }\n",
            "Assets/Player.cs.meta": meta("22222222222222222222222222222222", "MonoImporter"),
            "Assets/Player.prefab": PLAYER_PREFAB,
            "Assets/Player.prefab.meta": meta("11111111111111111111111111111111", "PrefabImporter"),
            "Assets/Level.unity": level(("100008", "Axe")),
            "Assets/Arena.unity": level(("100008", "Axe"), ("100004", "Hero")),
            "Assets/Cave.unity": level(("999", "Miner")),  # an object the source does not hold: as written
        },
    )
    g = graph_for(root)
    usages = [(u.path, u.context, u.detail) for u in g.references(g.target("Player")) if u.where == "asset"]
    assert [u for u in usages if u[1] == "instance"] == [
        ("Assets/Arena.unity", "instance", "Hero (via Assets/Player.prefab)"),
        ("Assets/Cave.unity", "instance", "Miner (via Assets/Player.prefab)"),
        ("Assets/Level.unity", "instance", "Player (via Assets/Player.prefab)"),
    ]
    health = [u.detail for u in g.references(g.target("Player.health")) if u.context == "override"]
    via = "(via Assets/Player.prefab)"
    assert health == [f"Hero sets health: 50 {via}", f"Miner sets health: 50 {via}", f"Player sets health: 50 {via}"]
    text = describe(g, "Assets/Level.unity").text
    assert "Player  (prefab instance of Assets/Player.prefab)" in text and "Axe  (prefab" not in text
    assert "m_Name: Axe (on Player/Axe)" in text  # the child's rename, said of the child


def test_instances_a_scene_only_places_are_one_line(tmp_path: Path) -> None:
    """A trial: `describe` of a level listed 205 lines of clouds, trees and rocks (each instance
    with its position) before its cut, and never reached the player. Three or more siblings that
    are instances of one prefab, holding nothing and overriding only placement, are one line; one
    overriding a field of its own stays apart."""
    from indexer.query.describe import describe

    def placed(anchor: int, name: str, extra: list[tuple[str, str]]) -> str:
        return _instance_of(anchor, [("m_Name", name), ("m_LocalPosition.x", str(anchor)), *extra])

    level = "".join(
        [
            placed(11, "Tree_1", []),
            placed(12, "Tree_2", [("m_Layer", "9")]),
            placed(13, "Tree_1", []),
            placed(14, "Tree_4", [("speed", "6")]),
        ]
    )
    g = graph_for(_values_project(tmp_path / "P", {"Assets/Level.unity": level}))
    lines = [line for line in describe(g, "Assets/Level.unity").text.splitlines() if line.startswith("Tree")]
    assert lines == [
        "Tree_1, Tree_2, Tree_1 #2  (3 instances of Assets/Mover.prefab, placed; layer set)  L3",
        "Tree_4  (prefab instance of Assets/Mover.prefab)  L46",
    ]


def test_instances_of_a_prefab_of_looks_are_one_line_whatever_they_set(tmp_path: Path) -> None:
    """A trial: 144 decals, each sizing its projector, were a scene's first 300 lines and pushed the
    enemies and the player past `describe`'s cut. Siblings instancing a prefab that carries no
    project script are one line whatever they set, its properties named; a prefab with a script's
    instances setting a field stay apart (above)."""
    from indexer.query.describe import describe

    def rock(anchor: int, size: str) -> str:
        mods = [("m_Name", f"Rock ({anchor})"), ("m_Size.x", size), ("m_Material", "2"), ("m_Offset.y", "0")]
        return _instance_of(anchor, mods).replace("1" * 32, "3" * 32)

    g = graph_for(_values_project(tmp_path / "P", {"Assets/Level.unity": rock(11, "1.5") + rock(12, "3.3")}))
    lines = [line for line in describe(g, "Assets/Level.unity").text.splitlines() if line.startswith("Rock")]
    assert lines == [
        "Rock (11), Rock (12), Rock  (3 instances of Assets/Rock.prefab,"
        " placed; m_Size, m_Material, m_Offset, speed set)  L3"
    ]


def test_a_script_inherits_the_fields_of_at_most_four_classes_above_it(tmp_path: Path) -> None:
    """serialized.inherited_fields: the fields of the project's classes up the file's first derived
    class's chain, as that class's own, read from INHERITED_FILES files above it at most."""
    from indexer.query.serialized import inherited_fields

    chain = ["A", "B", "C", "D", "E", "F"]
    files = {"Assets/A.cs": "public class A : UnityEngine.MonoBehaviour { public int a; }\n"}
    for base, cls in itertools.pairwise(chain):
        files[f"Assets/{cls}.cs"] = f"public class {cls} : {base} {{ public int {cls.lower()}; }}\n"
    g = graph_for(write_project(tmp_path / "P", files))
    got = inherited_fields(g, g.records.outline_record("Assets/F.cs"))
    assert sorted((s.name, s.container) for s in got) == [("b", "F"), ("c", "F"), ("d", "F"), ("e", "F")]


def test_an_instance_of_a_prefab_not_in_the_project_keeps_its_name(tmp_path: Path) -> None:
    """instances.editor_name: without its source, which object an `m_Name` override renames is not
    known, so the instance keeps the name the scanner read."""
    ghost = "4" * 32
    lines = [
        "--- !u!1001 &7",
        "PrefabInstance:",
        "  m_Modification:",
        "    m_Modifications:",
        f"    - target: {{fileID: 100008, guid: {ghost}, type: 3}}",
        "      propertyPath: m_Name",
        "      value: Axe",
        "      objectReference: {fileID: 0}",
        f"  m_SourcePrefab: {{fileID: 100100000, guid: {ghost}, type: 3}}",
    ]
    g = graph_for(write_project(tmp_path / "P", {"Assets/Level.unity": SCENE_HEAD + "\n".join(lines) + "\n"}))
    assert [u.detail for u in g.references(g.target(ghost))] == ["Axe"]


def test_a_profile_variable_two_settings_assets_name_is_named_by_the_first_by_path() -> None:
    """profiles.profile_names: an id both settings assets name is named as the first by path does."""
    from indexer.query.profiles import profile_names

    def settings(name: str) -> list[str]:
        return ["  m_ProfileEntryNames:", f"  - m_Id: {'ab' * 16}", f"    m_Name: {name}"]

    texts = {
        "Assets/B/AddressableAssetSettings.asset": settings("Late"),
        "Assets/A/AddressableAssetSettings.asset": settings("Early"),
    }

    class Records:
        def kinds(self) -> dict[str, str]:
            return dict.fromkeys(texts, "asset")

    assert profile_names(Records(), texts.__getitem__) == {"ab" * 16: "Early"}  # type: ignore[arg-type]


def test_descendants_follow_each_same_named_base_to_the_type_it_means(tmp_path: Path) -> None:
    """`refs` of a member walks the family below its declarer by the bases' simple names: a type
    whose `Base` means `B.Base` joins once `B.Base` has (however the types are ordered), one whose
    `Base` means another namespace's does not; `declarer_of` finds a member on a partial class's
    other part."""
    from indexer.query.type_tree import declarer_of, descendants

    root = write_project(
        tmp_path / "P",
        {
            "Assets/A/Base.cs": "namespace A { public class Base { public virtual void Hit() {} } }",
            "Assets/B/Base.cs": "namespace B { public class Base : A.Base {} }",
            "Assets/C/Leaf.cs": "namespace C { using B; public class Leaf : Base {} }",
            "Assets/D/Base.cs": "namespace D { public class Base {} public class Other : Base {} }",
            "Assets/E/Part1.cs": "namespace E { public partial class Twin : C.Leaf {} }",
            "Assets/E/Part2.cs": "namespace E { public partial class Twin { public void Heal() {} } }",
        },
    )
    graph = graph_for(root)
    assert descendants(graph, "A.Base") == {"A.Base", "B.Base", "C.Leaf", "E.Twin"}
    assert descendants(graph, "D.Base") == {"D.Base", "D.Other"}
    assert declarer_of(graph, "E.Twin", "Heal") == "E.Twin"
    assert declarer_of(graph, "E.Twin", "Hit") == "A.Base"


def test_a_class_of_several_scripts_is_bound_to_the_one_named_as_it_else_the_first_by_path() -> None:
    """rows.scripts_by_class: of a partial class's files the one named as the class, whatever the
    order they come in; else the first by path; a class of one file, that file."""
    from indexer.store.rows import scripts_by_class

    found = scripts_by_class({
        "Assets/A/CookingSkill.Debug.cs": "G.CookingSkill",
        "Assets/B/CookingSkill.cs": "G.CookingSkill",
        "Assets/Z/Mover.Part.cs": "G.Mover",
        "Assets/Y/Mover.Other.cs": "G.Mover",
        "Assets/Enemy.cs": "G.Enemy",
    })  # fmt: skip
    assert found == {
        "G.CookingSkill": "Assets/B/CookingSkill.cs",
        "G.Mover": "Assets/Y/Mover.Other.cs",
        "G.Enemy": "Assets/Enemy.cs",
    }


def test_the_editor_share_decided_by_folder_is_the_share_of_editor_scripts() -> None:
    """`editor_share` decides each folder once: the same share as `is_editor_script` of each script,
    a dot file named `.cs` (no script) and a script's name holding `Editor/`'s letters included."""
    import sqlite3
    from types import SimpleNamespace

    from indexer.query.priors import editor_share, is_editor_script

    paths = [
        "Assets/Editor/A.cs",
        "Assets/Editor/.cs",
        "Assets/Editor/Deep/B.CS",
        "Assets/Game/Editor.cs",
        "Assets/Game/EditorTools/C.cs",
        "Assets/Tools/D.cs",
        "Assets/Tools/Runtime/E.cs",
        "Assets/Runtime/Editor/F.cs",
        "Assets/G.cs",
    ]
    assemblies = {"Assets/Tools": True, "Assets/Runtime": False}
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE files (path TEXT, kind TEXT)")
    conn.executemany("INSERT INTO files VALUES (?, 'csharp')", [(p,) for p in paths])
    expected = sum(is_editor_script(p, assemblies) for p in paths) / len(paths)
    assert editor_share(SimpleNamespace(conn=conn), assemblies) == expected == 4 / 9


def test_a_graphs_file_lines_are_bounded_least_recently_used_dropped_first(tmp_path: Path, monkeypatch) -> None:
    """A server's graph lives as long as its index generation: the lines of every file its queries
    read were kept, unbounded (135,654 lines of 275 files after 400 UnityCsReference queries)."""
    from indexer.query import graph as graph_module

    body = "class {0} {{ }}\n" + "// padding\n" * 40  # 457 bytes a file with a 1-letter name
    root = write_project(tmp_path / "P", {f"Assets/{c}.cs": body.format(c) for c in "ABC"})
    g = graph_for(root)
    size = len(body.format("A"))
    monkeypatch.setattr(graph_module, "FILE_LINES_KEPT", 2 * size)
    assert g.source_line("Assets/A.cs", 1) == "class A { }"
    assert g.source_line("Assets/B.cs", 1) == "class B { }"
    assert g.source_line("Assets/A.cs", 2) == "// padding"  # A used again: B is now the least recent
    assert g.source_line("Assets/C.cs", 1) == "class C { }"
    assert list(g._file_lines) == ["Assets/A.cs", "Assets/C.cs"]
    assert g._file_chars == 2 * size
    monkeypatch.setattr(graph_module, "FILE_LINES_KEPT", size - 1)  # one file over the bound: kept alone
    assert g.file_lines("Assets/B.cs")[0] == "class B { }"
    assert list(g._file_lines) == ["Assets/B.cs"]
