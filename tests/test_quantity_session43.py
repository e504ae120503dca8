"""A question opening with a quantity asks for a value: the data asset or prefab setting it ranks
as for "where is it set" (`asking.asks_quantity`, docs/retrieval.md, session 43)."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.asking import asks_quantity
from indexer.query.workspace import open_workspace

from .conftest import data_asset, meta, mono_script, write_project

DATA = "5a1e0c3b9d7f4e2a8c6b1d0e3f2a4b5c"


def test_a_quantity_asked_is_one_a_question_opens_with() -> None:
    assert asks_quantity("How much health does the tank bug have?")
    assert asks_quantity("The boss is too tough. how many hit points does it have")
    assert asks_quantity("how fast does the player run")
    assert not asks_quantity("Where does the game work out how many toppings fall off?")
    assert not asks_quantity("the enemy shows how much damage it took")


def _enemy_data(name: str, health: int, damage: int) -> str:
    fields = (
        f"  <Health>k__BackingField: {health}\n  <Protection>k__BackingField: 5\n"
        f"  <Damage>k__BackingField: {damage}\n  <Cost>k__BackingField: 5\n"
    )
    return data_asset(DATA, name, fields)


def test_the_enemy_s_data_asset_answers_how_much_health_it_has(tmp_path: Path) -> None:
    """Four scripts about health and damage took the first places; the tank bug's data asset, its
    name and its fields the question's words, was below them all."""
    root = write_project(
        tmp_path,
        {
            "Assets/Scripts/HealthController.cs": mono_script(
                "HealthController",
                "public float health; public float maxHealth;\n"
                "public void TakeDamage(float damage) { health -= damage; if (health <= 0) Die(); }\n"
                "public void Heal(float amount) { health = Mathf.Min(maxHealth, health + amount); }\nvoid Die() { }",
            ),
            "Assets/Scripts/HealthHUD.cs": mono_script(
                "HealthHUD",
                "public Sprite fullHealthSprite; public Sprite damagedHealthSprite;\n"
                "public void ShowHealth(float health) { } public void ShowDamage(float damage) { }",
            ),
            "Assets/Scripts/IDamagable.cs": (
                "public interface IDamagable { void Damage(float damage); float Health { get; } }"
            ),
            "Assets/Scripts/Turret.cs": mono_script(
                "Turret",
                "public float health = 20; public float damage = 1;\n"
                "public void TakeDamage(float damage) { health -= damage; }",
            ),
            "Assets/Scripts/EnemyData.cs": "using UnityEngine;\npublic class EnemyData : ScriptableObject\n{\n"
            "[field: SerializeField] public float Health { get; private set; }\n"
            "[field: SerializeField] public float Protection { get; private set; }\n"
            "[field: SerializeField] public float Damage { get; private set; }\n"
            "[field: SerializeField] public int Cost { get; private set; }\n}\n",
            "Assets/Scripts/EnemyData.cs.meta": meta(DATA),
            "Assets/Resources/Enemy/Bug Tank Enemy data.asset": _enemy_data("Bug Tank Enemy data", 5, 2),
            "Assets/Resources/Enemy/Bug Enemy data.asset": _enemy_data("Bug Enemy data", 2, 1),
            "Assets/Resources/Enemy/Bug Spitter Enemy data.asset": _enemy_data("Bug Spitter Enemy data", 3, 1),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    question = "How much health and armour does the big tank bug have, and how much damage does it do?"
    paths = [h.path for h in ws.search(question, 10)]
    assert paths[0] == "Assets/Resources/Enemy/Bug Tank Enemy data.asset", paths


def test_a_furnace_is_an_oven() -> None:
    """ "What do I put into the furnace to get an ingot?": the crafting config is `Oven Config.asset`."""
    from indexer.query.synonyms import synonym_words

    assert {"oven", "smelter", "kiln"} <= set(synonym_words(["furnace"]))
    assert "furnace" in synonym_words(["oven"])


def test_an_animation_too_slow_asks_for_its_duration() -> None:
    """ "the candy swap animation is too slow": a match-three game's `AnimationDuration = 0.2f` ranked
    8th (4th now) under scripts saying "candy" and "swap": slow and fast (and slower, faster) search
    a duration beside a speed (`synonyms._COMPARATIVES`, `_ADJECTIVES`)."""
    from indexer.query.synonyms import excess, expansions

    too_slow = expansions(["animation", "slow"], excess("the animation is too slow"))
    assert too_slow == [("slow", ("speed", "duration"))]
    assert expansions(["animation", "faster"]) == [("faster", ("speed", "duration"))]
