"""Promises of docs/indexing.md ("Scanners at scale", "The reference graph"), the scanners'
docstrings and docs/retrieval.md ("How files are ranked") that no test held (the audit of session
56, /tmp/s56/promise3/promises.md): each asserted through the real scanner, graph or query."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.identifiers import weighted_terms
from indexer.model import Ranked, Ref
from indexer.query.file_edges import _keep
from indexer.query.rank import _near_words
from indexer.query.walk import walk
from indexer.query.workspace import open_workspace
from indexer.scanners import scan
from indexer.scanners.csharp_strings import asset_literals

from .conftest import meta, write_project
from .test_attack18_session51 import _chain_scene
from .test_graph import graph_for


def test_an_object_referring_to_one_nested_over_1000_levels_names_it_by_its_name_alone() -> None:
    """indexing.md, "Scanners at scale": "An object that refers to one of them names it `…/name`"
    (its whole path would cost its parents' paths too); one recorded keeps its path."""
    one = "m_Component:\n  - component: {fileID: 2}\n"
    text = _chain_scene(1003).replace(one, one + "  - component: {fileID: 5000}\n", 1)
    text += (
        "--- !u!114 &5000\nMonoBehaviour:\n  m_GameObject: {fileID: 1}\n"
        f"  m_Script: {{fileID: 11500000, guid: {'ab' * 16}, type: 3}}\n"
        "  target: {fileID: 2006}\n  near: {fileID: 4}\n"
    )
    rec = scan("Assets/Rope.unity", "scene", text.encode())
    assert rec.note == "2007 documents; 3 objects nested over 1000 levels deep: not recorded"
    fields = [(s.container, s.signature) for s in rec.symbols if s.kind == "field"]
    assert fields == [("L1", "target: …/L2005 (Transform)"), ("L1", "near: L1/L3 (Transform)")]


# The doc's examples of "a call that takes an object's, tag's, layer's, animator parameter's,
# method's, input axis's or saved setting's name ... which loads nothing", and of schema 37's
CODE_OF_NAMES = """public class Boss : MonoBehaviour {
  const string IsWalking = "IsWalking";
  void A() { Invoke("Respawn", 2f); float h = Input.GetAxis("Horizontal"); }
  void B() { int s = PlayerPrefs.GetInt("HighScore"); Debug.Log("Spawned"); }
  void C() { mat.SetColor("_Tint", c); if (name.Contains("Boss")) { } }
  void D() { var map = asset.FindActionMap("Player"); var h = new GameObject("Holder"); }
  void E() { anim.SetBool(IsWalking, true); }
}
"""


def test_a_literal_handed_to_a_call_taking_a_name_is_a_name_and_loads_nothing(tmp_path: Path) -> None:
    """indexing.md, "The reference graph": `Invoke`, `GetAxis`, `PlayerPrefs.GetInt`, `Debug.Log`,
    `SetColor("_Tint", c)`, `name.Contains("Boss")`, `FindActionMap("Player")`, `new
    GameObject("Holder")` and a constant handed to `SetBool(IsWalking, true)`: context `name`,
    so a prefab below `Resources` of that name is not loaded by it; `Resources.Load` of it is."""
    assert asset_literals(CODE_OF_NAMES.encode()) == (
        Ref("string", "IsWalking", 2, "name"),
        Ref("string", "Respawn", 3, "name"),
        Ref("string", "Horizontal", 3, "name"),
        Ref("string", "HighScore", 4, "name"),
        Ref("string", "Spawned", 4, "name"),
        Ref("string", "_Tint", 5, "name"),
        Ref("string", "Boss", 5, "name"),
        Ref("string", "Player", 6, "name"),
        Ref("string", "Holder", 6, "name"),
    )
    prefab = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &1\nGameObject:\n  m_Name: {}\n"
    files = {f"Assets/Resources/{n}.prefab": prefab.format(n) for n in ("Respawn", "Holder", "Player")}
    files["Assets/Scripts/Boss.cs"] = CODE_OF_NAMES
    files["Assets/Scripts/Loader.cs"] = 'class Loader { void L() { Resources.Load<GameObject>("Holder"); } }\n'
    g = graph_for(write_project(tmp_path / "P", files))
    assert g.uses("Assets/Scripts/Boss.cs") == ()
    assert g.used_by("Assets/Resources/Holder.prefab") == (("Assets/Scripts/Loader.cs", "loaded_by"),)


DOC_EDGE_ORDER = ("script", "prefab", "base", "asset", "unity_event", "type", "loads")


def test_one_edge_a_pair_of_files_is_the_kind_the_doc_puts_first() -> None:
    """indexing.md, "The reference graph": "one edge a pair of files, of the kind saying most of the
    file's references to the other: script component, prefab instance, base class, other asset,
    UnityEvent target, type, loaded by name, in that order" -- whichever is read first."""
    for first, second in itertools.permutations(DOC_EDGE_ORDER, 2):
        out: dict[str, str] = {}
        _keep(out, "Assets/B.cs", first)
        _keep(out, "Assets/B.cs", second)
        assert out == {"Assets/B.cs": min(first, second, key=DOC_EDGE_ORDER.index)}, (first, second)


def test_more_than_500_open_angles_in_a_run_skip_the_script_and_500_do_not() -> None:
    """indexing.md, "Scanners at scale": "More than 500 of them [`name <`] in a run ... skip the
    file unparsed" with the reason; 500 are parsed."""
    head = b"class A { void M() { ok = b < c; "  # a `<` of another run: the file holds 501
    at_most = scan("Assets/A.cs", "csharp", head + b"a <" * 500 + b" } }\n")
    assert (at_most.status, [s.name for s in at_most.symbols]) == ("partial", ["A", "M"])
    over = scan("Assets/A.cs", "csharp", head + b"a <" * 501 + b" } }\n")
    assert (over.status, over.note, over.symbols) == (
        "skipped",
        "501 `<` after a name between two of `;`, `{`, `}` (tree-sitter's memory grows with their square): not indexed",
        (),
    )


def test_a_larger_script_s_parse_is_given_10_s_of_cpu_a_megabyte(monkeypatch) -> None:
    """indexing.md, "Scanners at scale": a parse is given "at most 2 s of its thread's CPU, or 10 s
    a megabyte for a larger file": with the 2 s floor made nothing, a valid 1.9 MB script (about
    1.5 s to parse) is still read whole, on its 19 s."""
    import indexer.scanners.csharp_query as csharp_query

    monkeypatch.setattr(csharp_query, "PARSE_CPU_SECONDS", 0.01)
    body = "".join(f"public class C{i} {{ public int F{i}; void M{i}() {{ F{i} = {i}; }} }}\n" for i in range(25_000))
    rec = scan("Assets/Big.cs", "csharp", body.encode())
    assert (rec.status, rec.note, len(rec.symbols)) == ("ok", "", 75_000)


GRASS = b"""Shader "Game/Grass"
{
    SubShader
    {
        Pass
        {
            HLSLPROGRAM
            #pragma   geometry   geom
            #pragma hull hs
            #pragma domain ds
            #pragma require   geometry tessellation
            #pragma dynamic_branch_local _ _WIND
            #pragma only_renderers d3d11
            #pragma enable_d3d11_debug_symbols
            ENDHLSL
        }
    }
    CGPROGRAM
    #pragma surface surf Standard fullforwardshadows
    ENDCG
}
"""


def test_the_pragmas_a_shader_records_are_the_listed_keywords_with_the_rest_of_the_line() -> None:
    """shader.py: "pragma": name = the keyword (vertex, fragment, geometry, hull, domain, surface,
    target, require, multi_compile*, shader_feature*, dynamic_branch*), detail = the rest of the
    line, collapsed -- and no other pragma (`only_renderers`, a debug switch)."""
    rec = scan("Assets/Grass.shader", "shader", GRASS)
    assert [(s.name, s.line, s.container, s.detail) for s in rec.symbols if s.kind == "pragma"] == [
        ("geometry", 8, "Game/Grass", "geom"),
        ("hull", 9, "Game/Grass", "hs"),
        ("domain", 10, "Game/Grass", "ds"),
        ("require", 11, "Game/Grass", "geometry tessellation"),
        ("dynamic_branch_local", 12, "Game/Grass", "_ _WIND"),
        ("surface", 19, "Game/Grass", "surf Standard fullforwardshadows"),
    ]


def test_a_joystick_axis_without_buttons_is_named_by_its_axis_and_a_duplicate_name_kept() -> None:
    """settings.py: an input axis without buttons reads "mouse axis N"/"joystick axis N" (the mouse's
    was held; a joystick's, Input Manager type 2, was not), and "Duplicate names are kept" (Unity's
    default `Horizontal` is two axes, the keys' and the joystick's)."""
    axis = "  - serializedVersion: 3\n    m_Name: {}\n    positiveButton: {}\n    negativeButton: {}\n"
    axis += "    type: {}\n    axis: {}\n"
    src = "InputManager:\n  m_Axes:\n" + axis.format("Horizontal", "right", "left", 0, 0)
    src += axis.format("Horizontal", "", "", 2, 0) + axis.format("Look Vertical", "", "", 2, 4)
    rec = scan("ProjectSettings/InputManager.asset", "settings", src.encode())
    assert [(s.kind, s.name, s.line, s.detail) for s in rec.symbols] == [
        ("input_axis", "Horizontal", 4, "positive: right; negative: left"),
        ("input_axis", "Horizontal", 10, "joystick axis 0"),
        ("input_axis", "Look Vertical", 16, "joystick axis 4"),
    ]


HEADER = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
SOURCE = "b" * 32


def test_an_instance_records_each_component_it_removes_as_a_removed_ref() -> None:
    """unity_yaml.py: "removed target = source prefab GUID, line = the instance's, context = a
    removed component's fileID" -- one a component, beside the instance's `prefab` ref."""
    scene = HEADER + (
        "--- !u!1001 &700\nPrefabInstance:\n  m_ObjectHideFlags: 0\n  serializedVersion: 2\n  m_Modification:\n"
        "    serializedVersion: 3\n    m_TransformParent: {fileID: 0}\n    m_Modifications: []\n"
        f"    m_RemovedComponents:\n    - {{fileID: 101, guid: {SOURCE}, type: 3}}\n"
        f"    - {{fileID: 102, guid: {SOURCE}, type: 3}}\n"
        f"  m_SourcePrefab: {{fileID: 100100000, guid: {SOURCE}, type: 3}}\n"
    )
    rec = scan("Assets/Scenes/Main.unity", "scene", scene.encode())
    assert rec.refs == (
        Ref("prefab", SOURCE, 3, "instance", "&700"),
        Ref("removed", SOURCE, 3, "101", "&700"),
        Ref("removed", SOURCE, 3, "102", "&700"),
    )


def test_an_asset_of_one_of_unitys_own_classes_is_a_scriptable_object_named_builtin() -> None:
    """unity_yaml.py: scriptable_object "detail = script GUID ..., or "builtin:<fileID>" for one of
    Unity's own classes (a Tile)", whose script is no project script: no `script` ref."""
    tile = HEADER + (
        "--- !u!114 &11400000\nMonoBehaviour:\n  m_ObjectHideFlags: 0\n"
        "  m_Script: {fileID: 13312, guid: 0000000000000000e000000000000000, type: 0}\n  m_Name: Grass\n"
        f"  m_Sprite: {{fileID: 21300000, guid: {'a' * 32}, type: 3}}\n"
    )
    rec = scan("Assets/Tiles/Grass.asset", "asset", tile.encode())
    assert [(s.kind, s.name, s.line, s.detail) for s in rec.symbols] == [
        ("scriptable_object", "Grass", 3, "builtin:13312"),
        ("field", "m_Sprite", 8, "11400000"),
    ]
    assert rec.refs == (Ref("guid", "a" * 32, 8, "m_Sprite", "Grass > Tile"),)


def test_a_walked_file_gains_its_strongest_connection_and_a_hubs_neighbours_a_root_share(tmp_path: Path) -> None:
    """retrieval.md, step 5: "A neighbour gains `0.3 × (seed score / best score) × edge weight` of
    the best score; only its strongest connection counts, and a seed with more than 30 neighbours
    gives each √(30 / neighbours) of its weight" (a base class used: 0.6; a type's user: 0.35)."""
    files = {"Assets/Core.cs": "public class Core {}\n", "Assets/Mid.cs": "public class Mid : Core {}\n"}
    files["Assets/Hub.cs"] = "public class Hub {}\n"
    for i in range(31):
        files[f"Assets/U{i:02}.cs"] = f"public class U{i:02} {{ Hub h; }}\n"
    files["Assets/U00.cs"] = "public class U00 { Hub h; Mid m; }\n"  # also a user of the best seed
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    seeds = [Ranked("Assets/Mid.cs", 10.0, []), Ranked("Assets/Hub.cs", 4.0, [])]
    gained = walk(project, seeds, None, None, 1.0)
    assert gained["Assets/Core.cs"] == (0.3 * 1.0 * 0.6 * 10.0, "base", "Assets/Mid.cs", ())
    assert gained["Assets/U00.cs"] == (0.3 * 1.0 * 0.35 * 10.0, "uses_type", "Assets/Mid.cs", ())  # not the sum
    assert gained["Assets/U01.cs"][1:] == ("uses_type", "Assets/Hub.cs", ())
    assert math.isclose(gained["Assets/U01.cs"][0], 0.3 * 0.4 * 0.35 * 10.0 * math.sqrt(30 / 31))


def test_a_querys_terms_weigh_as_step_1_says() -> None:
    """retrieval.md, step 1: words describing a change (`fix`) 0.3, a kind of file said on its own
    (`prefab`) 0.3, bare numbers 0.3, parts of an identifier named in the query 0.6, the whole
    identifier 1.5, others and joined words ("pick up" -> `pickup`) 1."""
    assert weighted_terms("fix PlayerHealth at 16 when they pick up the prefab") == [
        ("fix", 0.3),
        ("playerhealth", 1.5),
        ("player", 0.6),
        ("health", 0.6),
        ("16", 0.3),
        ("016", 0.3),
        ("pick", 1.0),
        ("prefab", 0.3),
        ("pickup", 1.0),
    ]


def test_a_task_naming_one_project_of_a_workspace_halves_the_others_scores(tmp_path: Path) -> None:
    """retrieval.md, step 9: a task naming one project "ranks the other projects' files at half
    their score": the same script in two projects scores alike unnamed, and exactly half in the
    project the task does not name."""
    from .test_workspace import SETTINGS

    spawner = "public class Spawner { void SpawnWave() {} void StopSpawning() {} }"
    roots = []
    for folder, product in (("Basic/ClientKitchen", "Client Kitchen"), ("Basic/SpaceShooter", "Space Shooter")):
        files = {
            "Assets/Scripts/Spawner.cs": spawner,
            "ProjectSettings/ProjectSettings.asset": SETTINGS.format(product=product),
        }
        root = write_project(tmp_path / "repo" / folder, files)
        update(root, Config(workers=1))
        roots.append((root, Config()))
    ws = open_workspace(tmp_path / "repo", roots)
    kitchen, shooter = (f"Basic/{name}/Assets/Scripts/Spawner.cs" for name in ("ClientKitchen", "SpaceShooter"))
    unnamed = {h.path: h.score for h in ws.search("the waves stop spawning", 5)}
    assert unnamed[kitchen] == unnamed[shooter] > 0
    named = [(h.path, h.score) for h in ws.search("in the space shooter the waves stop spawning", 5)]
    assert [p for p, _ in named] == [shooter, kitchen]
    assert named[1][1] == round(named[0][1] * 0.5, 4)


def test_the_8_best_scripts_gain_by_the_task_s_words_held_near_each_other(tmp_path: Path) -> None:
    """retrieval.md, step 6: "each of the 8 best scripts gains `1 + 0.5 × (near − 1) / (words − 1)`",
    `near` the most of the task's words (less the words asking for a change: "fix") within 400
    characters of each other; "Assets are left out"; a script past the 8th gains nothing."""
    pad = "// " + "x" * 450 + "\n"
    files = {
        "Assets/All.cs": "class All { void Charge() { bank.loan += interest; } }\n",
        "Assets/Two.cs": "class Two { void Charge() { bank.loan = 1; }\n" + pad + " int interest; }\n",
        "Assets/Apart.cs": "class Apart { int bank;\n" + pad + " int loan;\n" + pad + " int interest; }\n",
        "Assets/Bank.prefab": HEADER + "--- !u!1 &1\nGameObject:\n  m_Name: bank loan interest\n",
        "Assets/Ninth.cs": "class Ninth { void Charge() { bank.loan += interest; } }\n",
    }
    files.update({f"Assets/F{i}.cs": f"class F{i} {{ int x; }}\n" for i in range(6)})
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    scores = {"Assets/All.cs": 10.0, "Assets/Two.cs": 9.0, "Assets/Apart.cs": 8.0, "Assets/Bank.prefab": 7.5}
    scores.update({f"Assets/F{i}.cs": 7.0 - i for i in range(6)})
    scores["Assets/Ninth.cs"] = 0.5  # the eleventh
    ranked = {p: Ranked(p, s, []) for p, s in scores.items()}
    with project.reading():
        _near_words(project, ranked, ["fix", "bank", "loans", "interest"])
    assert {p: r.score for p, r in ranked.items()} == {
        **scores,
        "Assets/All.cs": 10.0 * (1 + 0.5 * 2 / 2),
        "Assets/Two.cs": 9.0 * (1 + 0.5 * 1 / 2),
    }


ASKS_ASSETS = [
    "which asset opens the door",
    "the prefab of the door",
    "the scene of the door",
    "where is the door's speed configured",
    "where is the door's speed set",
    "where is the door's speed tuned",
    "where is the door's speed tweaked",
    "where is the door wired",
    "where is the door hooked up",
    "where is the door assigned",
    "where is the door placed",
]


def test_a_task_asking_for_assets_counts_the_carrier_edges_twice(tmp_path: Path, monkeypatch) -> None:
    """retrieval.md, step 5: "When the task asks for assets (says asset, names a prefab or scene, or
    asks where something is configured, set, tuned, tweaked, wired, hooked up, assigned or placed),
    the edges between a script and the assets carrying it count twice"; a task saying none, once."""
    from indexer.query import rank

    script = "public class Door : UnityEngine.MonoBehaviour { public float speed; void Open() {} }\n"
    prefab = HEADER + (
        "--- !u!1 &1\nGameObject:\n  m_Component:\n  - component: {fileID: 2}\n  m_Name: Gate\n"
        "--- !u!114 &2\nMonoBehaviour:\n  m_GameObject: {fileID: 1}\n"
        f"  m_Script: {{fileID: 11500000, guid: {'d' * 32}, type: 3}}\n"
        "  speed: 2\n"
    )
    files = {"Assets/Door.cs": script, "Assets/Door.cs.meta": meta("d" * 32), "Assets/Gate.prefab": prefab}
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    gains: list[float] = []
    real = rank.walk
    monkeypatch.setattr(rank, "walk", lambda *a: gains.append(a[-1]) or real(*a))
    for task in [*ASKS_ASSETS, "the door opens too early"]:
        ws.search(task, 5)
    assert gains == [2.0] * len(ASKS_ASSETS) + [1.0]
    project = ws.projects[0]
    seeds = [Ranked("Assets/Door.cs", 10.0, [])]
    with project.reading():
        once, twice = (walk(project, seeds, None, None, g) for g in (1.0, 2.0))
    assert once == {"Assets/Gate.prefab": (0.3 * 0.6 * 10.0, "carries_script", "Assets/Door.cs", ())}
    assert twice == {"Assets/Gate.prefab": (2 * 0.3 * 0.6 * 10.0, "carries_script", "Assets/Door.cs", ())}


def test_an_address_with_a_space_is_a_key_only_handed_to_a_loading_call(tmp_path: Path) -> None:
    """indexing.md, "The reference graph": an address "with a space and no `/`" is not resolved
    when handed to a call not named `...Load...` (`InstantiateAsync("Big Boss")`); the doc said
    so of every such address, but `LoadAssetAsync("Big Boss")` is tied to its asset, as the key
    rule above it ("spaces ... handed to a call named `...Load...`") says."""
    from .test_addressables import GOBLIN, GROUP

    prefab = HEADER + "--- !u!1 &1\nGameObject:\n  m_Name: Hugo\n"
    files = {
        "Assets/AddressableAssetsData/Enemies.asset": GROUP.replace("m_Address: Goblin", "m_Address: Big Boss"),
        "Assets/Prefabs/Hugo.prefab": prefab,
        "Assets/Prefabs/Hugo.prefab.meta": meta(GOBLIN, "PrefabImporter"),
        "Assets/Scripts/Load.cs": 'class Load { void S() { Addressables.LoadAssetAsync<GameObject>("Big Boss"); } }\n',
        "Assets/Scripts/Make.cs": 'class Make { void S() { Addressables.InstantiateAsync("Big Boss"); } }\n',
    }
    g = graph_for(write_project(tmp_path / "P", files))
    assert g.uses("Assets/Scripts/Load.cs") == (("Assets/Prefabs/Hugo.prefab", "loads"),)
    assert g.uses("Assets/Scripts/Make.cs") == ()


def test_an_empty_or_non_utf8_json_file_is_skipped_and_a_lenient_one_is_partial() -> None:
    """packages.py: "A file that does not parse is "partial" with the parser's note, its text still
    searched ... An empty file, or one that is not UTF-8, is skipped"."""
    said = [
        (r.status, r.note)
        for r in (
            scan("Assets/Data/Level.json", "json", data) for data in (b"", b"  \n", b'{"a": "\xff"}', b'{"hp": 3,}')
        )
    ]
    assert said == [
        ("skipped", "invalid JSON: Expecting value at line 1 column 1"),
        ("skipped", "invalid JSON: Expecting value at line 2 column 1"),
        ("skipped", "invalid UTF-8 at byte 7"),
        ("partial", "invalid JSON: Expecting property name enclosed in double quotes at line 1 column 10"),
    ]


def test_the_walk_starts_from_the_8_best_candidates_only(tmp_path: Path) -> None:
    """retrieval.md, step 5: "From the 8 best candidates, the reference graph is followed": nine
    scripts say the task's word, each derives from a base that does not; the bases of the first
    eight are reached ("base class of"), the ninth's is not."""
    files = {}
    for i in range(9):
        words = " ".join(["lantern"] * (10 - i))  # L0 says it most, L8 least
        files[f"Assets/L{i}.cs"] = (
            f"// {words}\npublic class L{i} : Base{i} {{ void Glow{i}() {{}} void Dim{i}() {{}} }}\n"
        )
        files[f"Assets/Base{i}.cs"] = f"public class Base{i} {{ public void Tick() {{}} }}\n"
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    hits = open_workspace(root, [(root, Config())]).search("lantern", 30)
    assert [h.path for h in hits[:9]] == [f"Assets/L{i}.cs" for i in range(9)]
    reached = {h.path: h.reason for h in hits[9:]}
    assert sorted(reached) == [f"Assets/Base{i}.cs" for i in range(8)]
    assert all(reached[f"Assets/Base{i}.cs"].endswith(f"base class of Assets/L{i}.cs") for i in range(8))
