"""Assets that code loads by name (`Resources.Load`, `Shader.Find`): recorded literals, their
resolution into edges, `refs` on the asset, and the walk's reason, on the fixture."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.model import Ref
from indexer.query.describe import describe
from indexer.query.workspace import Workspace
from indexer.scanners.csharp import scan
from indexer.scanners.csharp_strings import asset_literals
from indexer.unity import resources_key, scene_keys

LOOT = "Assets/Resources/Loot/LootTable.json"
DROPPER = "Assets/Scripts/Enemies/LootDropper.cs"
DISSOLVE = "Assets/Shaders/Dissolve.shader"


def test_literals_shaped_like_asset_keys_are_recorded_once_with_their_first_line() -> None:
    """Outside comments only (commented-out code loads nothing); of a literal's lines, the first
    handed to a call (context "call") before the first of all."""
    source = b"""class A {
    const char Q = '"';
    string a = "UI/Health Bar", b = "UI/Health Bar";   // a path may hold a space
    string c = "Hello world";                          // a sentence is not a key
    string d = "x", e = "42", f = "Prefabs/Enemy";
    string g = "a\\"b", u = "http://host/x", w = "Assets/*.png";
    // Resources.Load("Commented/Out")
    void M() { Shader.Find("Game/Dissolve"); Debug.Log($"hp {hp}"); }
    /* Resources.Load("Block/Out");
       Resources.Load("Prefabs/Enemy"); */
    void N() { Resources.Load(
        "Prefabs/Enemy"); Resources.Load("Commented/Out"); }
}"""
    assert asset_literals(source) == (
        Ref(kind="string", target="UI/Health Bar", line=3, context="literal"),
        Ref(kind="string", target="Prefabs/Enemy", line=12, context="call"),
        Ref(kind="string", target="Game/Dissolve", line=8, context="call"),
        Ref(kind="string", target="Commented/Out", line=12, context="call"),
    )
    assert [r for r in scan("A.cs", source).refs if r.kind == "string"] == list(asset_literals(source))


@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("Assets/Resources/WeatherTable.json", "WeatherTable"),
        ("Assets/Art/Resources/UI/Bar.prefab", "UI/Bar"),
        ("Assets/Resources/Sub/Resources/A.mat", "A"),  # the nearest Resources folder counts
        ("Assets/Resources/Icons/Sword.png.meta", None),
        ("Assets/Resources/Loader.cs", None),  # scripts are compiled, never loaded
        ("Assets/Scripts/Resources.cs", None),
        ("Assets/MyResources/A.png", None),
    ],
)
def test_resources_keys_follow_unitys_rule(path: str, key: str | None) -> None:
    assert resources_key(path) == key


def test_refs_on_a_resource_and_a_shader_list_the_code_loading_them(ws: Workspace) -> None:
    graph = ws.projects[0].fresh().graph
    loot = graph.references(graph.target(LOOT))
    assert [(u.path, u.line, u.where, u.kind, u.context, u.detail) for u in loot] == [
        (DROPPER, 11, "code", "loads", "literal", 'private const string LootTablePath = "Loot/LootTable";'),
        (DROPPER, 35, "code", "loads", "constant", "var json = Resources.Load<TextAsset>(LootTablePath);"),
    ]
    shader = [(u.path, u.line, u.kind) for u in graph.references(graph.target(DISSOLVE))]
    assert shader == [
        ("Assets/Materials/Enemy.mat", 11, "guid"),
        ("Assets/Materials/EnemyDissolve.mat", 11, "guid"),
        (DROPPER, 59, "loads"),
    ]


def test_the_graph_ties_the_loader_to_what_it_loads_both_ways(ws: Workspace) -> None:
    graph = ws.projects[0].fresh().graph
    assert [e for e in graph.uses(DROPPER) if e[1] == "loads"] == [(LOOT, "loads"), (DISSOLVE, "loads")]
    assert (DROPPER, "loaded_by") in graph.used_by(LOOT)
    assert [(e.path, e.edge) for e in describe(graph, LOOT).used_by] == [(DROPPER, "loads")]


def test_a_search_reaches_the_loaded_asset_and_says_why(ws: Workspace) -> None:
    top = ws.search("which loot table does the enemy roll its drop from", limit=10)[:2]
    assert [(h.path, h.reason) for h in top] == [
        (DROPPER, f"text match; the script loads {LOOT} by name"),  # (session 33: named by a member)
        (LOOT, f"text match; the file is loaded by name in {DROPPER}"),
    ]


def test_at_most_500_literals_a_file_are_recorded() -> None:
    """A generated table of strings must not flood the refs table."""
    source = "class T { string[] keys = { " + ", ".join(f'"Key{i}"' for i in range(800)) + " }; }"
    refs = asset_literals(source.encode())
    assert len(refs) == 500 and refs[-1].target == "Key499"


def test_a_key_that_several_assets_answer_to_ties_the_code_to_each(tmp_path: Path) -> None:
    """`Resources.Load("Icons/Sword")` with Sword.png and Sword.asset: Unity picks by type at run time."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    from .conftest import write_project

    root = write_project(
        tmp_path / "P",
        {
            "Assets/UI/Icons.cs": 'class Icons { void A() { UnityEngine.Resources.Load("Icons/Sword"); } }',
            "Assets/Resources/Icons/Sword.png": b"\x89PNG\r\n\x1a\n",
            "Assets/Resources/Icons/Sword.asset": "%YAML 1.1\n--- !u!114 &1\nMonoBehaviour:\n  m_Name: Sword\n",
            "Assets/Resources/Icons/Shield.png": b"\x89PNG\r\n\x1a\n",
        },
    )
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    assert graph.uses("Assets/UI/Icons.cs") == (
        ("Assets/Resources/Icons/Sword.asset", "loads"),
        ("Assets/Resources/Icons/Sword.png", "loads"),
    )


def test_a_literal_on_a_line_that_speaks_of_a_scene_says_so() -> None:
    """A scene's name is as often a tag or a key: only a literal on a line saying "scene" (the
    call, or the field or constant holding it) may name one; a later such line marks a literal
    seen before on another line."""
    source = b"""class Menu {
    [SerializeField] private string gameScene = "Dungeon";
    void A() { if (other.CompareTag("Player")) Resources.Load("UI/Bar"); }
    void B() { SceneManager.LoadScene("Player"); }
    void C() { SceneManager.LoadSceneAsync(
        "Assets/Scenes/Boss"); }
}"""
    assert asset_literals(source) == (
        Ref(kind="string", target="Dungeon", line=2, context="scene"),
        Ref(kind="string", target="Player", line=4, context="scene"),
        Ref(kind="string", target="UI/Bar", line=3, context="call"),
        Ref(kind="string", target="Assets/Scenes/Boss", line=6, context="call"),  # its call a line above
    )


def test_a_long_line_of_repeated_keys_is_read_in_linear_time() -> None:
    """Each key-shaped literal read its statement back to the last `;`, `{`, `}` or line break to
    look for "scene": a generated table of repeated names on one line (240 KB, under the size the
    indexer scans in its own process, with no time budget) took 6 s, a megabyte a minute and a half."""
    import time

    source = b"class Anim { string[] states = { " + b'"Idle", "Run", ' * 20_000 + b"};\n"
    source += b'  void Go() { SceneManager.LoadScene("Run"); } }\n'
    t0 = time.monotonic()
    refs = asset_literals(source)
    assert time.monotonic() - t0 < 2
    assert refs == (
        Ref(kind="string", target="Idle", line=1, context="literal"),
        Ref(kind="string", target="Run", line=2, context="scene"),
    )


@pytest.mark.parametrize(
    ("path", "keys"),
    [
        ("Assets/Scenes/Dungeon.unity", {"Dungeon", "Scenes/Dungeon", "Assets/Scenes/Dungeon"}),
        ("Assets/Level 1.unity", {"Level 1", "Assets/Level 1"}),
        ("Packages/com.x/Scenes/Demo.unity", {"Demo", "Packages/com.x/Scenes/Demo"}),
        ("Assets/Scenes/Boss.UNITY", {"Boss", "Scenes/Boss", "Assets/Scenes/Boss"}),
        ("Assets/Scenes/.unity", set()),
        ("Assets/Scenes/Dungeon.unity.meta", set()),
        ("Assets/Prefabs/Dungeon.prefab", set()),
    ],
)
def test_a_scene_is_loaded_by_its_name_or_its_path_without_the_extension(path: str, keys: set[str]) -> None:
    assert scene_keys(path) == keys


def test_code_that_loads_a_scene_by_name_uses_it_and_a_tag_of_the_same_name_does_not(tmp_path: Path) -> None:
    """`LoadScene("Level1")`, `LoadScene("Scenes/Boss")` and a field `menuScene = "Menu"` tie the
    code to those scenes; `CompareTag("Player")` does not tie it to `Player.unity`. `refs` on the
    scene lists the line; renaming the scene drops the edge as a rebuild would."""
    import shutil

    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    from .conftest import write_project

    scene = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &1\nGameObject:\n  m_Name: Root\n"
    source = """using UnityEngine.SceneManagement;
class Flow : UnityEngine.MonoBehaviour {
    [UnityEngine.SerializeField] string menuScene = "Menu";
    void OnTriggerEnter(UnityEngine.Collider other) {
        if (other.CompareTag("Player")) SceneManager.LoadScene("Level1");
    }
    void Boss() { SceneManager.LoadScene("Scenes/Boss"); }
}
"""
    files = {"Assets/Flow.cs": source}
    for name in ("Level1", "Player", "Menu", "Boss"):
        files[f"Assets/Scenes/{name}.unity"] = scene
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    assert [p for p, e in graph.uses("Assets/Flow.cs") if e == "loads"] == [
        "Assets/Scenes/Boss.unity",
        "Assets/Scenes/Level1.unity",
        "Assets/Scenes/Menu.unity",
    ]
    level = [(u.path, u.line, u.kind, u.detail) for u in graph.references(graph.target("Assets/Scenes/Level1.unity"))]
    assert level == [
        ("Assets/Flow.cs", 5, "loads", 'if (other.CompareTag("Player")) SceneManager.LoadScene("Level1");')
    ]
    assert [u for u in graph.references(graph.target("Assets/Scenes/Player.unity")) if u.kind == "loads"] == []

    shutil.move(root / "Assets/Scenes/Level1.unity", root / "Assets/Scenes/Level2.unity")
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    assert [p for p, e in graph.uses("Assets/Flow.cs") if e == "loads"] == [
        "Assets/Scenes/Boss.unity",
        "Assets/Scenes/Menu.unity",
    ]
    shutil.move(root / "Assets/Scenes/Level2.unity", root / "Assets/Scenes/Level1.unity")
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    assert "Assets/Scenes/Level1.unity" in [p for p, e in graph.uses("Assets/Flow.cs") if e == "loads"]


def test_a_scene_name_two_scenes_share_ties_the_code_to_each(tmp_path: Path) -> None:
    """docs/indexing.md: a name shared by several scenes is each of them (Unity loads the first in
    the build list, which the index does not decide for it)."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    from .conftest import write_project

    scene = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &1\nGameObject:\n  m_Name: Root\n"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Menu.cs": 'class Menu { void Back() { SceneManager.LoadScene("Menu"); } }',
            "Assets/Levels/Menu.unity": scene,
            "Assets/UI/Menu.unity": scene,
        },
    )
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    assert graph.uses("Assets/Menu.cs") == (("Assets/Levels/Menu.unity", "loads"), ("Assets/UI/Menu.unity", "loads"))


def test_refs_on_an_asset_list_every_line_making_the_same_load(tmp_path: Path) -> None:
    """A trial: a menu loading its button prefab in four methods was listed once (the index keeps
    one line a literal). Every line making the same call with the key is listed; a bare name the
    file writes elsewhere (`"Level1"` in a log line) is not a load of the scene."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    from .conftest import write_project

    source = """using UnityEngine;
class Menu : MonoBehaviour {
    void A() { Resources.Load<GameObject>("UI/Button"); }
    // void Old() { Resources.Load<GameObject>("UI/Button"); }
    void B() { var b = Resources.Load<GameObject>( "UI/Button"); }
    void C() { UnityEngine.SceneManagement.SceneManager.LoadScene("Level1"); }
    void D() { Debug.Log("Level1"); }
}
"""
    scene = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &1\nGameObject:\n  m_Name: Root\n"
    files = {"Assets/Menu.cs": source, "Assets/Resources/UI/Button.prefab": scene, "Assets/Level1.unity": scene}
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    button = graph.references(graph.target("Assets/Resources/UI/Button.prefab"))
    assert [(u.path, u.line) for u in button if u.kind == "loads"] == [("Assets/Menu.cs", 3), ("Assets/Menu.cs", 5)]
    level = graph.references(graph.target("Assets/Level1.unity"))
    assert [(u.path, u.line) for u in level if u.kind == "loads"] == [("Assets/Menu.cs", 6)]
