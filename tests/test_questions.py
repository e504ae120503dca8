"""Questions a Unity developer asks, on the fixture: each case is a failure seen on a real project
(issue #17), rebuilt from the fixture's own structure: a variant chain carrying a script, art-only
prefabs, tests beside the code they test, a method named as one word for two."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.model import Hit
from indexer.query.describe import describe
from indexer.query.file_roles import role_priors
from indexer.query.priors import EDITOR_PRIOR, GENERATED_PRIOR, TEST_PRIOR, input_wrappers, is_editor_script
from indexer.query.workspace import Workspace, open_workspace

from .conftest import meta, write_project

ENEMY = "Assets/Prefabs/Enemies/Enemy.prefab"
BRUTE = "Assets/Prefabs/Enemies/EnemyBrute.prefab"
BOSS = "Assets/Prefabs/Enemies/EnemyBruteBoss.prefab"
ENEMY_AI = "Assets/Scripts/Enemies/EnemyAI.cs"


def ranked(ws: Workspace, text: str, limit: int = 20) -> list[Hit]:
    return ws.search(text, limit=limit)


def position(hits: list[Hit], path: str) -> int:
    return next(i for i, h in enumerate(hits) if h.path == path)


def test_a_compound_word_meets_the_name_written_as_one(ws: Workspace) -> None:
    """ "picks up" is `PickUp` in code: the file and the method both answer the question."""
    top = ranked(ws, "player picks up an item")[0]
    assert (top.path, top.name, top.line) == (
        "Assets/Scripts/Inventory/ItemPickup.cs",
        "DungeonCrawler.Inventory.ItemPickup.PickUp",
        27,
    )


def test_the_snippet_is_the_member_whose_body_matches(ws: Workspace) -> None:
    """No declaration is named like the question; the method that does it is, in its body."""
    hit = next(h for h in ranked(ws, "inventory add item count") if h.path.endswith("ItemPickup.cs"))
    assert (hit.name, hit.line, hit.snippet) == (
        "DungeonCrawler.Inventory.ItemPickup.PickUp",
        27,
        "public void PickUp(Inventory inventory)",
    )


def test_tests_rank_below_the_code_they_test(ws: Workspace) -> None:
    for query, code, test in (
        # a test named after the behaviour matches best; the code under test comes first all the same
        ("heal is clamped to max", "Assets/Scripts/Combat/Health.cs", "Assets/Tests/EditMode/HealthTests.cs"),
        (
            "inventory remove fails when not enough items",
            "Assets/Scripts/Inventory/Inventory.cs",
            "Assets/Tests/EditMode/InventoryTests.cs",
        ),
    ):
        hits = ranked(ws, query)
        assert position(hits, code) < position(hits, test), query
    # unless the question is about tests
    assert ranked(ws, "health tests")[0].path == "Assets/Tests/EditMode/HealthTests.cs"


def test_tests_rank_below_game_code_unless_the_task_is_about_tests(ws: Workspace) -> None:
    """HealthTests is named after no file this task ranks, yet matches its words: in a project whose
    own scripts are mostly not tests it still ranks below the game code that matches as well."""
    hits = ranked(ws, "add a shield that absorbs damage")
    tests = [i for i, h in enumerate(hits) if h.path.startswith("Assets/Tests/")]
    for code in ("Assets/Scripts/Weapons/WeaponData.cs", "Assets/Scripts/Combat/Projectile.cs"):
        assert all(position(hits, code) < i for i in tests), code
    assert ranked(ws, "tests for taking damage")[0].path == "Assets/Tests/EditMode/HealthTests.cs"


def test_a_question_about_behaviour_ranks_scripts_above_the_prefabs_carrying_them(ws: Workspace) -> None:
    """ "player" names the Player prefab too; the behaviour asked about is in scripts. (The prefab
    alone carries the best script, PlayerHealth, so it follows that script at 0.8 of its score
    times the code task's prior for prefabs, 0.7: below the behaviour, above the damage dealer.)
    Asked where something is configured, the prefab is the answer again."""
    player = "Assets/Prefabs/Player.prefab"
    hits = ranked(ws, "player takes damage and dies")
    behaviour = ("Assets/Scripts/Player/PlayerHealth.cs", "Assets/Scripts/Combat/Health.cs", ENEMY_AI)
    for code in behaviour:
        assert position(hits, code) < position(hits, player), code
    assert hits[position(hits, player)].score == pytest.approx(hits[0].score * 0.8 * 0.7, abs=1e-3)
    assert ranked(ws, "where is the player prefab's health configured")[0].path == player
    # tuning or tweaking a value asks where it lives, as configuring does
    for verb in ("tune", "tweak"):
        assert ranked(ws, f"where do I {verb} how much health the player has")[0].path == player, verb
    # "asset" asks for one: the prefab holding the value comes right after the script defining it
    assert [h.path for h in ranked(ws, "which asset holds the player's max health")][:2] == [
        "Assets/Scripts/Combat/Health.cs",
        player,
    ]


def test_a_name_the_task_quotes_does_not_ask_for_its_kind_of_asset(ws: Workspace) -> None:
    """`LoadScene` and `enemyPrefab` are code: their parts "scene" and "prefab" are not the task
    naming scenes or prefabs (which would rank those files 1.5x and keep them first in a pack)."""
    hits = [h.path for h in ranked(ws, "LoadScene is called twice")]
    assert hits[0] == "Assets/Scripts/Core/GameManager.cs"
    assert hits.index("Assets/Scenes/Dungeon.unity") > 3
    assert ranked(ws, "the enemyPrefab is null")[0].path == "Assets/Scripts/Enemies/EnemySpawner.cs"
    assert ranked(ws, "which scene loads the dungeon")[0].path == "Assets/Scenes/Dungeon.unity"


def test_art_only_prefabs_rank_below_game_logic(ws: Workspace) -> None:
    """FX_EnemyHit carries no project script: a question about the behaviour wants the code and the
    prefabs that carry it; one about the effect wants the effect."""
    hits = ranked(ws, "enemy gets hit")
    fx = position(hits, "Assets/Prefabs/VFX/FX_EnemyHit.prefab")
    for logic in (ENEMY, ENEMY_AI, "Assets/Scripts/Enemies/EnemyHealth.cs", "Assets/Scripts/Combat/DamageDealer.cs"):
        assert position(hits, logic) < fx, logic
    assert ranked(ws, "enemy hit effect")[0].path == "Assets/Prefabs/VFX/FX_EnemyHit.prefab"
    # materials, animation clips and animators are looks by their kind
    hits = ranked(ws, "the enemy idles too long before it notices the player")
    for looks in ("Assets/Animations/EnemyIdle.anim", "Assets/Animations/Enemy.controller"):
        assert position(hits, looks) > position(hits, ENEMY), looks
    assert ranked(ws, "enemy outline glow material")[0].path == "Assets/Materials/Outline.mat"
    # words about how something looks, without naming effects: the effect is the answer
    assert ranked(ws, "the heal sparkle should be brighter")[0].path == "Assets/Prefabs/VFX/FX_Heal.prefab"
    assert ranked(ws, "make the enemy hit burst thicker")[0].path == "Assets/Prefabs/VFX/FX_EnemyHit.prefab"


def test_the_walk_reaches_every_variant_of_a_prefab_carrying_the_script(ws: Workspace) -> None:
    hits = {h.path: h for h in ranked(ws, "enemy AI")}
    assert hits[BRUTE].reason == f"text match; carries script {ENEMY_AI} via {ENEMY}"
    assert hits[BOSS].reason == f"text match; carries script {ENEMY_AI} via {BRUTE} > {ENEMY}"


def test_a_prefab_named_in_the_question_ranks_its_carriers_up(ws: Workspace) -> None:
    """ "which prefab": the prefabs carrying the AI come before code that merely mentions it."""
    hits = [h.path for h in ranked(ws, "which prefab has the enemy AI", limit=5)]
    assert hits[:3] == [ENEMY, ENEMY_AI, BRUTE]
    assert BOSS in hits


def test_describe_lists_variants_among_the_users_of_a_script(ws: Workspace) -> None:
    graph = ws.projects[0].fresh().graph
    users = {e.path for e in describe(graph, ENEMY_AI).used_by}
    assert {ENEMY, BRUTE, BOSS, "Assets/Scenes/Dungeon.unity"} <= users


def test_describe_says_which_instances_and_variants_set_values_over_a_prefab(ws: Workspace) -> None:
    """Where a prefab's value is really set is often a variant or a scene's instance: describe
    lists each with the values it overrides (an object of the same file by its name; placement
    and the name left out); those reached through another prefab with the chain (since session 31:
    a crop's seven variants of variants each set its data, and one was listed)."""
    text = describe(ws.projects[0].fresh().graph, ENEMY).text
    assert text.split("values set by its instances and variants:\n", 1)[1].splitlines() == [
        "  Assets/Prefabs/Enemies/EnemyBrute.prefab:3  EnemyBrute (sets maxHealth: 250,"
        " stats: Assets/Data/Enemies/Brute.asset, damage: 15, m_Speed: 2.2)",
        "  Assets/Prefabs/Enemies/EnemyBruteBoss.prefab:3  EnemyBruteBoss"
        " (via Assets/Prefabs/Enemies/EnemyBrute.prefab) (sets m_TagString: Boss)",
        "  Assets/Scenes/Dungeon.unity:609  Goblin (sets patrolPoints.Array.size: 2,"
        " patrolPoints.Array.data[0]: PatrolPoints/PatrolPoint_1 (Transform),"
        " patrolPoints.Array.data[1]: PatrolPoints/PatrolPoint_2 (Transform))",
        "  Assets/Scenes/Dungeon.unity:693  Brute (via Assets/Prefabs/Enemies/EnemyBrute.prefab) (sets maxHealth: 300)",
    ]
    assert "values set by" not in describe(ws.projects[0].fresh().graph, ENEMY_AI).text  # a script: no values


def test_describe_keeps_same_named_siblings_apart(ws: Workspace) -> None:
    """Four root separators called `----------` used to merge into one object with four Transforms."""
    text = describe(ws.projects[0].fresh().graph, "Assets/Scenes/MainMenu.unity").text
    assert "\n----------  L1119\n  components: Transform\n" in text
    assert "\n---------- #2  [inactive]  L1150\n  components: Transform, AudioListener\n" in text


PACKAGE_PREFAB = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &100
GameObject:
  m_Component:
  - component: {fileID: 400}
  - component: {fileID: 11400}
  - component: {fileID: 11500}
  m_Name: Crate
  m_IsActive: 1
--- !u!4 &400
Transform:
  m_GameObject: {fileID: 100}
  m_Children: []
  m_Father: {fileID: 0}
--- !u!114 &11400
MonoBehaviour:
  m_GameObject: {fileID: 100}
  m_Enabled: 1
  m_Script: {fileID: 11500000, guid: 0f0e0d0c0b0a09080706050403020100, type: 3}
  m_Name:
  m_EditorClassIdentifier: Unity.Netcode.Runtime::Unity.Netcode.NetworkObject
  GlobalObjectIdHash: 951099334
  <IsNested>k__BackingField: 0
  _componentIndexCache: 0
  AlwaysReplicateAsRoot: 0
--- !u!114 &11500
MonoBehaviour:
  m_GameObject: {fileID: 100}
  m_Enabled: 1
  m_Script: {fileID: 11500000, guid: 7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a, type: 3}
  m_Name:
  m_EditorClassIdentifier:
  loot: {fileID: 11400000, guid: 5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b, type: 2}
"""
VARIANT = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1001 &900
PrefabInstance:
  m_Modification:
    m_TransformParent: {fileID: 0}
    m_Modifications:
    - target: {fileID: 100, guid: 6c6c6c6c6c6c6c6c6c6c6c6c6c6c6c6c, type: 3}
      propertyPath: m_Name
      value: GoldCrate
      objectReference: {fileID: 0}
    - target: {fileID: 11500, guid: 6c6c6c6c6c6c6c6c6c6c6c6c6c6c6c6c, type: 3}
      propertyPath: loot
      value:
      objectReference: {fileID: 11400000, guid: 5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b, type: 2}
    m_RemovedComponents: []
  m_SourcePrefab: {fileID: 100100000, guid: 6c6c6c6c6c6c6c6c6c6c6c6c6c6c6c6c, type: 3}
"""


def test_describe_summarises_package_components_and_shows_paths_for_guids(tmp_path: Path) -> None:
    """A package component's internals (`<IsNested>k__BackingField`, `_componentIndexCache`) repeat on
    every object and say nothing about the project; an override's GUID is a path when it resolves."""
    from indexer.build.update import update

    from .conftest import meta, write_project

    root = write_project(
        tmp_path / "P",
        {
            "Assets/Crate.cs": "using UnityEngine;\npublic class Crate : MonoBehaviour { public Object loot; }",
            "Assets/Crate.cs.meta": meta("7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a"),
            "Assets/Loot.asset": "%YAML 1.1\n--- !u!114 &11400000\nMonoBehaviour:\n  m_Name: Loot\n",
            "Assets/Loot.asset.meta": meta("5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b", "NativeFormatImporter"),
            "Assets/Crate.prefab": PACKAGE_PREFAB,
            "Assets/Crate.prefab.meta": meta("6c6c6c6c6c6c6c6c6c6c6c6c6c6c6c6c", "PrefabImporter"),
            "Assets/GoldCrate.prefab": VARIANT,
            "Assets/GoldCrate.prefab.meta": meta("6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d", "PrefabImporter"),
        },
    )
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].fresh().graph
    crate = describe(graph, "Assets/Crate.prefab").text
    assert "  components: Transform, NetworkObject, Crate\n" in crate
    assert "k__BackingField" not in crate and "_componentIndexCache" not in crate
    assert "    Crate: loot: Assets/Loot.asset" in crate
    variant = describe(graph, "Assets/GoldCrate.prefab").text
    assert "  overrides: loot: Assets/Loot.asset; m_Name: GoldCrate\n" in variant


def test_a_task_naming_kinds_of_asset_gets_the_chain_between_them(ws: Workspace) -> None:
    """ "which prefab, material and shader": the prefab matches the words, its material and that
    material's shader only the kinds; both follow the prefab, each saying what refers to it."""
    hits = ranked(ws, "the enemy model looks wrong: which prefab, material and shader draw it", limit=8)
    reasons = {h.path: h.reason for h in hits}
    assert hits[0].path == ENEMY
    assert reasons["Assets/Materials/Enemy.mat"] == f"text match; asset referenced by {ENEMY}"
    # (since session 33 said of the file: the hit is named by one of its properties)
    assert (
        reasons["Assets/Shaders/Dissolve.shader"]
        == "text match; the shader is referenced by Assets/Materials/Enemy.mat"
    )


def test_each_link_of_the_chain_gets_half_the_score_of_the_file_it_is_reached_from(ws: Workspace) -> None:
    from indexer.model import Ranked
    from indexer.query.walk import named_chain as _named_chain

    boosts: dict = {}
    project = ws.projects[0].fresh()
    _named_chain(project, [Ranked(ENEMY, 100.0, [])], boosts, frozenset({"material", "shader"}), None)
    assert boosts["Assets/Materials/Enemy.mat"] == (50.0, "asset", ENEMY, ())
    assert boosts["Assets/Shaders/Dissolve.shader"] == (25.0, "asset", "Assets/Materials/Enemy.mat", ())


def test_a_quoted_test_class_still_makes_a_task_about_tests(ws: Workspace) -> None:
    """Intent is read from the words said, except whether a task is about tests: quoting
    `HealthTests` is (docs/retrieval.md, priors)."""
    from indexer.identifiers import query_terms, said_words
    from indexer.query.file_roles import role_priors

    project = ws.projects[0]
    kinds = {"Assets/Tests/EditMode/HealthTests.cs": "csharp"}
    quoted = "`HealthTests` fails after the heal change"
    assert role_priors(project, kinds, query_terms(quoted), said_words(quoted)) == {}
    plain = "heal fails after the change"
    assert role_priors(project, kinds, query_terms(plain), said_words(plain)) == {
        "Assets/Tests/EditMode/HealthTests.cs": 0.7
    }
    assert ws.search(quoted, limit=1, named=False)[0].path == "Assets/Tests/EditMode/HealthTests.cs"


def test_a_script_holding_the_task_words_together_outranks_one_that_shares_its_names(ws: Workspace) -> None:
    """ "scatter enemies around the spawner" is what `LevelToolsWindow` does, in one line of its
    summary and one method; `EnemySpawner` only shares the names (without the nearness factor it
    ranks first, 72.5 to 64.3, editor prior included)."""
    hits = ranked(ws, "scatter enemies around the spawner")
    assert [h.path for h in hits[:2]] == [
        "Assets/Scripts/Editor/LevelToolsWindow.cs",
        "Assets/Scripts/Enemies/EnemySpawner.cs",
    ]
    assert (hits[0].name, hits[0].line) == ("DungeonCrawler.Editor.LevelToolsWindow.ScatterEnemies", 59)


def test_nearness_is_left_out_when_the_task_asks_for_assets(ws: Workspace) -> None:
    """A prefab's lines are serialized fields, not behaviour: a task naming a kind of asset (or
    asking how things look) ranks as it would without the factor."""
    from indexer.query import rank

    text = "which prefab scatters enemies around the spawner"
    before = [(h.path, h.score) for h in ranked(ws, text)]
    saved = rank.NEAR_GAIN
    try:
        rank.NEAR_GAIN = 0.0
        assert [(h.path, h.score) for h in ranked(ws, text)] == before
        assert [h.path for h in ranked(ws, "scatter enemies around the spawner")[:1]] == [
            "Assets/Scripts/Enemies/EnemySpawner.cs"
        ]
    finally:
        rank.NEAR_GAIN = saved


def test_editor_code_ranks_below_the_game_code_it_serves_unless_the_task_is_about_the_editor(ws: Workspace) -> None:
    """`HealthEditor` (the custom inspector of `Health`) and `LevelToolsWindow` share the words of
    the game code they serve; a task about the game wants that code, one about the editor keeps
    the ranking (the editor file's own words then lead)."""
    inspector, window = "Assets/Scripts/Editor/HealthEditor.cs", "Assets/Scripts/Editor/LevelToolsWindow.cs"
    hits = ranked(ws, "the current health value resets")
    assert position(hits, "Assets/Scripts/Player/PlayerHealth.cs") < position(hits, inspector)
    hits = ranked(ws, "the current health value resets in the inspector")
    assert position(hits, inspector) < position(hits, "Assets/Scripts/Player/PlayerHealth.cs")
    assert [h.path for h in ranked(ws, "scatter enemies at spawners")[:2]] == [
        "Assets/Scripts/Enemies/EnemySpawner.cs",
        window,
    ]
    assert ranked(ws, "an editor window to scatter enemies")[0].path == window


def test_a_script_is_editor_code_by_its_assembly_or_else_an_editor_folder() -> None:
    """Unity's rule: the nearest asmdef above a script decides; with none, a folder named `Editor`
    anywhere above it makes it editor code."""
    assemblies = {"Assets/Tools": True, "Assets/Game": False, "Assets/Game/Debug": True}
    cases = {
        "Assets/Tools/Window.cs": True,  # an editor-only asmdef
        "Assets/Game/Editor/Gizmos.cs": False,  # a runtime asmdef holds its Editor folder
        "Assets/Game/Debug/Panel.cs": True,  # the nearest asmdef wins
        "Assets/Scripts/Editor/Inspector.cs": True,  # no asmdef: the folder name
        "Editor/Top.cs": True,
        "Assets/Scripts/EditorHelpers/Helper.cs": False,  # not a folder named Editor
        "Assets/Scripts/Player.cs": False,
        "Assets/Scripts/Editor/Icon.png": False,  # not a script
    }
    assert {p: is_editor_script(p, assemblies) for p in cases} == cases


def test_in_an_editor_extension_editor_code_keeps_its_rank(tmp_path: Path) -> None:
    """When two thirds or more of the project's own scripts are editor code, the project is an
    editor extension and its tasks are about that code: no editor prior, so an editor script and
    a runtime script with the same words score alike. With fewer editor scripts, the editor
    script's score is scaled by the prior."""
    files = {
        "Assets/Editor/Spin.cs": "public class Spin : EditorWindow { void Rotate() { } }\n",
        "Assets/Scripts/Spin.cs": "public class Spin : MonoBehaviour { void Rotate() { } }\n",
        "Assets/Editor/Align.cs": "public class Align : EditorWindow { }\n",
        "Assets/Editor/Grid.cs": "public class Grid : EditorWindow { }\n",
    }
    game = {f"Assets/Scripts/G{i}.cs": f"public class G{i} : MonoBehaviour {{ }}\n" for i in range(4)}
    ratios = {}
    for name, extra in (("tool", {}), ("game", game)):
        root = write_project(tmp_path / name, {**files, **extra})
        update(root, Config(workers=1))
        scores = {h.path: h.score for h in open_workspace(root, [(root, Config())]).search("rotate the spin", limit=5)}
        ratios[name] = scores["Assets/Editor/Spin.cs"] / scores["Assets/Scripts/Spin.cs"]
    assert ratios["tool"] > 0.95
    assert ratios["game"] == pytest.approx(EDITOR_PRIOR * ratios["tool"], rel=0.02)


# The class the Input System generates from an actions asset (1.0 names the interface without the
# 2), and a hand-written script using the same words.
CONTROLS_WRAPPERS = {
    "Assets/Input/CrawlerControls.cs": """// GENERATED AUTOMATICALLY FROM 'Assets/Input/CrawlerControls.inputactions'
using UnityEngine.InputSystem;
public class @CrawlerControls : IInputActionCollection, System.IDisposable
{
    public InputAction Dodge => m_Gameplay_Dodge;
    public InputAction Attack => m_Gameplay_Attack;
    public interface IGameplayActions { void OnDodge(InputAction.CallbackContext context); }
}
""",
    "Assets/Input/MenuControls.cs": """using UnityEngine.InputSystem;
public partial class @MenuControls : IInputActionCollection2, System.IDisposable { public InputAction Pause; }
""",
    "Assets/Scripts/PlayerDodge.cs": """using UnityEngine;
public class PlayerDodge : MonoBehaviour
{
    public float dodgeDistance = 3f;
    public void Dodge() { transform.position += transform.forward * dodgeDistance; }
}
""",
}


def test_the_input_systems_generated_class_ranks_below_hand_written_code_unless_the_task_is_about_input(
    tmp_path: Path,
) -> None:
    """docs/retrieval.md: a generated wrapper names every action of the game (`Dodge`) without
    holding what any does; a task about input (keys, buttons, bindings) wants it at its score."""
    from indexer.identifiers import query_terms, said_words

    root = write_project(tmp_path / "p", CONTROLS_WRAPPERS)
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    project = ws.projects[0]
    wrapper, menu = "Assets/Input/CrawlerControls.cs", "Assets/Input/MenuControls.cs"
    assert input_wrappers(project.records) == {wrapper, menu}
    kinds = dict.fromkeys(CONTROLS_WRAPPERS, "csharp")
    game, keys = "the dodge goes too far", "rebind the dodge key"
    assert role_priors(project, kinds, query_terms(game), said_words(game)) == dict.fromkeys(
        (wrapper, menu), GENERATED_PRIOR
    )
    assert role_priors(project, kinds, query_terms(keys), said_words(keys)) == {}
    assert [h.path for h in ws.search(game, limit=2)] == ["Assets/Scripts/PlayerDodge.cs", wrapper]


def test_a_test_in_an_editor_assembly_is_scaled_as_a_test_only(ws: Workspace) -> None:
    """docs/retrieval.md: the fixture's EditMode tests compile into an editor-only assembly, so
    they are editor code too; their prior is the test prior, not the test and the editor prior
    both. A runtime script has none, an editor script the editor prior."""
    project = ws.projects[0]
    tests, inspector = "Assets/Tests/EditMode/HealthTests.cs", "Assets/Scripts/Editor/HealthEditor.cs"
    assert is_editor_script(tests, project.assemblies)
    kinds = dict.fromkeys((tests, inspector, "Assets/Scripts/Combat/Health.cs"), "csharp")
    terms = ["health", "resets"]
    assert role_priors(project, kinds, terms, terms) == {tests: TEST_PRIOR, inspector: EDITOR_PRIOR}


def test_a_where_is_it_set_question_asks_for_the_assets_holding_the_value(ws: Workspace) -> None:
    """ "Where is ... set" asks where a value is configured, like "configured": the prefab holding
    it is not scaled as it is for a code task, and comes right after the script defining the value
    (seventh for the code task, whose scripts hold its words near each other)."""
    from indexer.identifiers import query_terms, said_words

    project = ws.projects[0]
    kinds = {"Assets/Prefabs/Player.prefab": "prefab", "Assets/Scripts/Combat/Health.cs": "csharp"}
    code = "the player's max health resets"
    assert role_priors(project, kinds, query_terms(code), said_words(code)) == {"Assets/Prefabs/Player.prefab": 0.7}
    where = "where is the player's max health set"
    assert role_priors(project, kinds, query_terms(where), said_words(where)) == {}
    assert position(ranked(ws, code), "Assets/Prefabs/Player.prefab") == 6
    assert [h.path for h in ranked(ws, where)][:2] == [
        "Assets/Scripts/Combat/Health.cs",
        "Assets/Prefabs/Player.prefab",
    ]


def test_filler_words_of_a_question_are_not_searched() -> None:
    """ "the next one", "doesn't", "instead": words of how people ask, in every question, that
    would match `OnePlayer` or nothing at all."""
    from indexer.identifiers import query_terms

    text = "the guard doesn't stop at the next one instead and it never really waits"
    assert query_terms(text) == ["guard", "stop", "next", "waits"]
    assert query_terms("OnePlayer mode") == ["oneplayer", "player", "mode"]  # a quoted name stays whole


def _prefab(objects: list[tuple[str, str, list[str]]]) -> str:
    """A prefab of GameObjects (name, parent name or "", components); a component named `script:GUID`
    is a MonoBehaviour of that script, the others are Unity's (ParticleSystem, MeshRenderer)."""
    class_ids = {"ParticleSystem": 198, "MeshRenderer": 23, "BoxCollider": 65}
    docs, ids = [], {name: 1000 + 100 * i for i, (name, _, _) in enumerate(objects)}
    for name, parent, components in objects:
        oid = ids[name]
        refs = "".join(f"  - component: {{fileID: {oid + k}}}\n" for k in range(1, len(components) + 2))
        docs.append(f"--- !u!1 &{oid}\nGameObject:\n  m_Component:\n{refs}  m_Name: {name}\n  m_IsActive: 1\n")
        father = ids[parent] + 1 if parent else 0
        kids = "".join(f"  - {{fileID: {ids[n] + 1}}}\n" for n, p, _ in objects if p == name) or "  []\n"
        docs.append(
            f"--- !u!4 &{oid + 1}\nTransform:\n  m_GameObject: {{fileID: {oid}}}\n  m_Children:\n{kids}"
            f"  m_Father: {{fileID: {father}}}\n"
        )
        for k, comp in enumerate(components, start=2):
            if comp.startswith("script:"):
                guid = comp.split(":", 1)[1]
                docs.append(
                    f"--- !u!114 &{oid + k}\nMonoBehaviour:\n  m_GameObject: {{fileID: {oid}}}\n  m_Enabled: 1\n"
                    f"  m_Script: {{fileID: 11500000, guid: {guid}, type: 3}}\n"
                )
            else:
                docs.append(f"--- !u!{class_ids[comp]} &{oid + k}\n{comp}:\n  m_GameObject: {{fileID: {oid}}}\n")
    return "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n" + "".join(docs)


def test_an_effect_prefab_is_art_even_when_it_carries_the_projects_effect_script(tmp_path: Path) -> None:
    """BossRoom's `FX_Boss_Charge_*` prefabs carry `SpecialFXGraphic` (a shutdown timer) and so
    counted as game logic: a prefab at least half of whose objects hold a particle system is a
    visual effect, ranked as art unless the task is about looks. A pickup with one glow among its
    objects is not."""
    from indexer.identifiers import query_terms, said_words
    from indexer.query.priors import ART_PRIOR, CODE_TASK_ASSET_PRIOR, is_effect

    destruct, pickup = "a" * 31 + "1", "b" * 31 + "2"
    fx, heal = "Assets/Prefabs/FX_HealBurst.prefab", "Assets/Prefabs/HealPickup.prefab"
    root = write_project(
        tmp_path,
        {
            "Assets/Scripts/SelfDestruct.cs": "public class SelfDestruct : MonoBehaviour { public float delay; }",
            "Assets/Scripts/SelfDestruct.cs.meta": meta(destruct),
            "Assets/Scripts/HealPickup.cs": "public class HealPickup : MonoBehaviour { public int amount; }",
            "Assets/Scripts/HealPickup.cs.meta": meta(pickup),
            fx: _prefab(
                [
                    ("FX_HealBurst", "", [f"script:{destruct}", "ParticleSystem"]),
                    ("Sparks", "FX_HealBurst", ["ParticleSystem"]),
                    ("Flash", "FX_HealBurst", ["MeshRenderer"]),
                ]
            ),
            heal: _prefab(
                [
                    ("HealPickup", "", [f"script:{pickup}", "BoxCollider"]),
                    ("Glow", "HealPickup", ["ParticleSystem"]),
                    ("Model", "HealPickup", ["MeshRenderer"]),
                ]
            ),
        },
    )
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    records = project.records
    assert is_effect(records.record(fx)) and not is_effect(records.record(heal))
    kinds = {fx: "prefab", heal: "prefab"}
    code = "heal the player when he walks over it"
    priors = role_priors(project, kinds, query_terms(code), said_words(code))
    assert priors == {fx: ART_PRIOR * CODE_TASK_ASSET_PRIOR, heal: CODE_TASK_ASSET_PRIOR}
    looks = "the heal burst should be brighter"
    assert role_priors(project, kinds, query_terms(looks), said_words(looks)) == {}


def test_the_one_prefab_carrying_a_best_script_ranks_right_after_it(ws: Workspace) -> None:
    """The Player prefab alone carries Inventory and PlayerController: when one is among the three
    best scripts, the prefab ranks at least 0.8 of its score times the prefab's prior (0.7 in a
    code task), reached from it; level with it when the task asks where something is set."""
    player = "Assets/Prefabs/Player.prefab"
    hits = ranked(ws, "inventory ui shows wrong items")  # a code task
    inventory = next(h for h in hits if h.path == "Assets/Scripts/Inventory/Inventory.cs")
    assert [h.path for h in hits[:6]][-1] == player  # above the inventory tests
    assert hits[5].score == pytest.approx(inventory.score * 0.8 * 0.7, abs=1e-3)
    # (since session 33 said of the file: the object a prefab's hit is named by may not carry it)
    assert hits[5].reason == "text match; the prefab carries script Assets/Scripts/Inventory/Inventory.cs"
    # never past the search's filters
    assert all(h.kind == "csharp" for h in ws.search("inventory ui shows wrong items", 10, kind="csharp"))
    hits = ws.search("inventory ui shows wrong items", 10, path_prefix="Assets/Scripts")
    assert hits and all(h.path.startswith("Assets/Scripts/") for h in hits)
    hits = ranked(ws, "where is the camera follow speed set")  # asks where a value lives
    controller = next(h for h in hits if h.path == "Assets/Scripts/Player/PlayerController.cs")
    assert hits[position(hits, player)].score == pytest.approx(controller.score, abs=1e-3)
    # a script several prefabs carry pairs with none of them: Health is on Player and every enemy
    hits = ranked(ws, "health regenerates over time")
    assert hits[0].path == "Assets/Scripts/Combat/Health.cs"
    assert not any(h.path.endswith(".prefab") for h in hits[:3])


def test_a_word_naming_the_files_kind_names_none_of_its_parts(ws: Workspace) -> None:
    """ "what scene holds the spawner prefab": every prefab is one, so `lootPrefab` is not what the
    Enemy prefab is shown by; with no other word in its names a prefab is shown by its root
    object (a variant by the instance of its base), a scene by its file (its first root object
    says nothing of it)."""
    hits = {h.path: (h.name, h.line, h.snippet) for h in ranked(ws, "what scene holds the spawner prefab")}
    assert hits[ENEMY] == ("Enemy", 3, "tag Enemy, layer 9")
    assert hits[BRUTE] == ("EnemyBrute", 3, "variant base")  # a variant's root: the instance of its base
    assert hits["Assets/Scenes/MainMenu.unity"] == ("MainMenu.unity", 1, "")


def test_a_word_everywhere_in_a_script_names_no_member_by_its_name(tmp_path: Path) -> None:
    """ "where does the player character take damage" in `Character.cs`, which says "character" on
    every other line: `SendCharacterInput` is named by that word only (and its body says "player");
    `ReceiveHP`, whose body takes the damage a player deals, is the member the question asks for."""
    lines = "\n".join(f"    public CharacterPart characterPart{i};" for i in range(25))
    source = f"""using UnityEngine;
public class Character : MonoBehaviour
{{
{lines}
    public void SendCharacterInput(Vector3 target)
    {{
        transform.position = target;  // where the player clicked
    }}

    void ReceiveHP(int hp)
    {{
        // take the damage the player deals straight
        int damage = -hp;
        Debug.Log(damage);
    }}
}}
"""
    root = write_project(tmp_path / "p", {"Assets/Scripts/Character.cs": source})
    update(root, Config(workers=1))
    top = open_workspace(root, [(root, Config())]).search("where does the player character take damage", limit=1)[0]
    assert (top.name, top.line, top.snippet) == ("Character.ReceiveHP", 34, "void ReceiveHP(int hp)")


def test_a_task_about_sounds_alone_ranks_visual_effects_as_art(ws: Workspace) -> None:
    """ "enemy hit sound": the hit effect's prefab (particles only) shares "enemy" and "hit" but
    plays no sound: it ranks below the sound code and data; a task about the look of the hit
    still finds it first."""
    fx, sounds = "Assets/Prefabs/VFX/FX_EnemyHit.prefab", "Assets/Scripts/Audio/SoundLibrary.cs"
    audio = [h.path for h in ranked(ws, "enemy hit sound")]
    # (session 34: the sound bank's list shows its entries' ids, `enemy_hit` among them, and may lead)
    assert (set(audio[:2]), audio[2]) == ({sounds, "Assets/Data/SoundLibrary.asset"}, fx)
    assert ranked(ws, "enemy hit sound and particles")[0].path == fx


KIT_BASE = """using UnityEngine;
namespace NetKit { public abstract class NetBehaviour : MonoBehaviour {
    [SerializeField] private int _componentIndexCache;
    [SerializeField] private NetObject _networkObjectCache;
    [SerializeField] private bool syncEnabled;
} }"""
KIT_OBJECT = """using UnityEngine;
namespace NetKit { public class NetObject : MonoBehaviour { public int _spawnIndex; } }"""
KIT_PREFAB = """%YAML 1.1
--- !u!1 &1
GameObject:
  m_Component:
  - component: {fileID: 2}
  - component: {fileID: 3}
  - component: {fileID: 4}
  m_Name: Drone
--- !u!4 &2
Transform:
  m_GameObject: {fileID: 1}
--- !u!114 &3
MonoBehaviour:
  m_GameObject: {fileID: 1}
  m_Script: {fileID: 11500000, guid: 0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b, type: 3}
  _spawnIndex: 4
--- !u!114 &4
MonoBehaviour:
  m_GameObject: {fileID: 1}
  m_Script: {fileID: 11500000, guid: 0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d, type: 3}
  _componentIndexCache: 0
  _networkObjectCache: {fileID: 3}
  syncEnabled: 1
  hoverHeight: 2.5
"""


def test_describe_leaves_out_what_a_project_script_inherits_from_a_third_party_base(tmp_path: Path) -> None:
    """A networking kit in the project's own folders (told third-party by its license): its
    component's internals are summarised away, and so are the fields every project script that
    derives from its base class serializes (`_componentIndexCache` on each networked component of
    SS3D's `Human.prefab`, 35 KB of its description); the script's own field stays, and so does a
    field the project's own code declares again."""
    from indexer.build.update import update

    from .conftest import meta, write_project

    drone = "using NetKit;\npublic class Drone : NetBehaviour { public float hoverHeight; private bool syncEnabled; }"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/NetKit/LICENSE.md": "MIT License\n",
            "Assets/NetKit/NetBehaviour.cs": KIT_BASE,
            "Assets/NetKit/NetObject.cs": KIT_OBJECT,
            "Assets/NetKit/NetObject.cs.meta": meta("0b" * 16),
            "Assets/Scripts/Drone.cs": drone,
            "Assets/Scripts/Drone.cs.meta": meta("0d" * 16),
            "Assets/Drone.prefab": KIT_PREFAB,
            "Assets/Drone.prefab.meta": meta("0e" * 16, "PrefabImporter"),
        },
    )
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].fresh().graph
    lines = describe(graph, "Assets/Drone.prefab").text.split("\n")
    assert lines[1:4] == [
        "Drone  L2",
        "  components: Transform, NetObject, Drone",
        "    Drone: syncEnabled: 1; hoverHeight: 2.5",
    ], lines


COLLIDER = """using UnityEngine;
public class CharacterCollider : MonoBehaviour
{
    public class DeathEvent { public string obstacleType; }
    public float laneChangeSpeed = 2f;
    public int currentLife = 3;
    void OnTriggerEnter(Collider c)
    {
        // the player hit an obstacle: one life lost
        if (c.CompareTag("Obstacle")) currentLife -= 1;
    }
    public void ChangeLane(int direction) { transform.position += Vector3.right * direction; }
}
"""


@pytest.mark.parametrize(
    ("question", "named"),
    [
        # a field named by one word loses to the method whose body holds three (session 26)
        ("where does the player lose a life when hitting an obstacle", "CharacterCollider.OnTriggerEnter"),
        # named alike, the member that does something wins over the one that holds a value
        ("change lane", "CharacterCollider.ChangeLane"),
    ],
)
def test_a_hit_is_named_by_the_member_that_does_what_is_asked_not_a_field_named_like_it(
    tmp_path: Path, question: str, named: str
) -> None:
    root = write_project(tmp_path / "P", {"Assets/CharacterCollider.cs": COLLIDER})
    update(root, Config(workers=1))
    hit = open_workspace(root, [(root, Config())]).search(question, limit=1)[0]
    assert (hit.path, hit.name) == ("Assets/CharacterCollider.cs", named)


def test_a_type_and_member_written_together_name_the_member(ws: Workspace) -> None:
    """ "Health.Heal" (as docs/cli.md writes a member) names the method, not the class whose name
    says "health": a member's type's words count for it when its own name matched; the class still
    wins a task about it alone."""
    hit = ranked(ws, "Health.Heal")[0]
    assert (hit.path, hit.name, hit.line) == (
        "Assets/Scripts/Combat/Health.cs",
        "DungeonCrawler.Combat.Health.Heal",
        66,
    )
    hit = ranked(ws, "health regenerates over time")[0]
    assert (hit.path, hit.name) == ("Assets/Scripts/Combat/Health.cs", "DungeonCrawler.Combat.Health")


def test_words_asking_for_a_change_match_nothing_in_a_pack(ws: Workspace) -> None:
    """ "add", "make", "fix" ask for a change (identifiers.TASK_WORDS): a pack's `matched:` named
    "add" for almost every file (a trial: `Box.prefab (matched: add, damage, invulnerability)`)."""
    from indexer.query.context import build_context
    from indexer.query.tokens import counter

    pack = build_context(ws, "add a shield that absorbs damage", 4000, counter("estimate"))
    heads = [line for line in pack.tier2.text.splitlines() if line.startswith("### ")]
    assert heads and any("matched: " in h for h in heads)
    assert not [h for h in heads if "matched: add" in h or ", add" in h]
