"""Questions a Unity developer asks, on the fixture: each case is a failure seen on a real project
(issue #17), rebuilt from the fixture's own structure: a variant chain carrying a script, art-only
prefabs, tests beside the code they test, a method named as one word for two."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.config import Config
from indexer.model import Hit
from indexer.query.describe import describe
from indexer.query.workspace import Workspace, open_workspace

ENEMY = "Assets/Prefabs/Enemies/Enemy.prefab"
BRUTE = "Assets/Prefabs/Enemies/EnemyBrute.prefab"
BOSS = "Assets/Prefabs/Enemies/EnemyBruteBoss.prefab"
ENEMY_AI = "Assets/Scripts/Enemies/EnemyAI.cs"


@pytest.fixture(scope="module")
def ws(indexed_fixture: Path) -> Workspace:
    return open_workspace(indexed_fixture, [(indexed_fixture, Config())])


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
    hits = ranked(ws, "health take damage")
    test = position(hits, "Assets/Tests/EditMode/HealthTests.cs")
    for code in (
        "Assets/Scripts/Combat/Health.cs",
        "Assets/Scripts/Player/PlayerHealth.cs",
        "Assets/Scripts/Combat/IDamageable.cs",
    ):
        assert position(hits, code) < test, code
    # unless the question is about tests
    assert ranked(ws, "health tests")[0].path == "Assets/Tests/EditMode/HealthTests.cs"


def test_art_only_prefabs_rank_below_game_logic(ws: Workspace) -> None:
    """FX_EnemyHit carries no project script: a question about the behaviour wants the code and the
    prefabs that carry it; one about the effect wants the effect."""
    hits = ranked(ws, "enemy gets hit")
    fx = position(hits, "Assets/Prefabs/VFX/FX_EnemyHit.prefab")
    for logic in (ENEMY, ENEMY_AI, "Assets/Scripts/Enemies/EnemyHealth.cs", "Assets/Scripts/Combat/DamageDealer.cs"):
        assert position(hits, logic) < fx, logic
    assert ranked(ws, "enemy hit effect")[0].path == "Assets/Prefabs/VFX/FX_EnemyHit.prefab"


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


def test_describe_keeps_same_named_siblings_apart(ws: Workspace) -> None:
    """Four root separators called `----------` used to merge into one object with four Transforms."""
    text = describe(ws.projects[0].fresh().graph, "Assets/Scenes/MainMenu.unity").text
    assert "\n----------  L1119\n  components: Transform\n" in text
    assert "\n---------- #2  [inactive]  L1150\n  components: Transform, AudioListener\n" in text
