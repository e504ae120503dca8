"""A task asking for more or less of something asks about a value (asking.asks_change; docs/retrieval.md,
session 47)."""

from __future__ import annotations

from pathlib import Path

from indexer.identifiers import said_words
from indexer.query.asking import asks_change

from .conftest import data_asset, meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked

UNIT, DEFENDER, HEALTH = (f"ea000000000000000000000000000{n:03d}" for n in range(1, 4))
HEAVY, LIGHT = "ea000000000000000000000000000101", "ea000000000000000000000000000102"


def _kingdom(tmp_path: Path) -> Path:
    """Defenders: each heavy defender's prefab holds its unit data (`LocalsHeavy.asset`, its
    `health`), the light ones theirs; the scripts handling hit points and defenders say the task's
    words throughout."""
    files = {
        "Assets/Scripts/UnitData.cs": (
            "using UnityEngine;\npublic class UnitData : ScriptableObject\n{\n"
            "public float health;\npublic float attackPower;\n}\n"
        ),
        "Assets/Scripts/UnitData.cs.meta": meta(UNIT),
        "Assets/Scripts/Defender.cs": mono_script(
            "Defender",
            "public UnitData data;\n// a defender guards its post\npublic void Guard() { }",
        ),
        "Assets/Scripts/Defender.cs.meta": meta(DEFENDER),
        "Assets/Scripts/HitPoints.cs": mono_script(
            "HitPoints",
            "// the hit points of a defender or an enemy\npublic float points;\n"
            "public void Hit(float damage) { points -= damage; }\n"
            "public void GiveHitPoints(float more) { points += more; }",
        ),
        "Assets/Scripts/HitPoints.cs.meta": meta(HEALTH),
        "Assets/Scripts/DefenderSpawner.cs": mono_script(
            "DefenderSpawner",
            "// spawns the defenders: heavy ones with an axe or a sword, light ones with a bow\n"
            "public Defender heavyAxe, heavySword, lightBow;\npublic void SpawnDefenders() { }",
        ),
        "Assets/Scripts/DefenderSpawner.cs.meta": meta("ea000000000000000000000000000004"),
        "Assets/Scripts/Weapons.cs": mono_script(
            "Weapons",
            "// the axe and the sword a heavy defender wields: their hit reach\npublic float axeReach, swordReach;",
        ),
        "Assets/Scripts/Weapons.cs.meta": meta("ea000000000000000000000000000005"),
        "Assets/Data/LocalsHeavy.asset": data_asset(UNIT, "LocalsHeavy", "  health: 20\n  attackPower: 2\n"),
        "Assets/Data/LocalsHeavy.asset.meta": meta(HEAVY, "NativeFormatImporter"),
        "Assets/Data/LocalsLight.asset": data_asset(UNIT, "LocalsLight", "  health: 8\n  attackPower: 1\n"),
        "Assets/Data/LocalsLight.asset.meta": meta(LIGHT, "NativeFormatImporter"),
    }
    for n, (name, data) in enumerate((("Heavy_Axe", HEAVY), ("Heavy_Sword", HEAVY), ("Light_Bow", LIGHT))):
        fields = f"  data: {{fileID: 11400000, guid: {data}, type: 2}}\n"
        files[f"Assets/Prefabs/Defender_{name}.prefab"] = script_prefab(f"Defender_{name}", DEFENDER, fields)
        files[f"Assets/Prefabs/Defender_{name}.prefab.meta"] = meta(
            f"ea0000000000000000000000000002{n:02d}", "PrefabImporter"
        )
    return write_project(tmp_path, files)


def test_more_of_a_thing_asks_its_value() -> None:
    """ "more", "less" and "fewer" ask for a change of an amount, as "faster" does."""
    for text in (
        "give the defenders more hit points",
        "the boss should take less damage",
        "spawn fewer rocks",
    ):
        assert asks_change(said_words(text), text), text
    assert not asks_change(said_words("the defenders guard the gate"), "the defenders guard the gate")


def test_the_data_a_top_prefab_holds_answers_more_of_its_value(tmp_path: Path) -> None:
    """ "Where do I give the heavy axe and sword defenders more hit points?" led with the heavy
    defenders' prefabs and had their unit data, `LocalsHeavy.asset` (`health: 20`), low: "more"
    was not read as asking a value, so the data a top prefab holds was not raised with it."""
    ranked = _ranked(
        _kingdom(tmp_path),
        "Where do I give the heavy axe and sword defenders more hit points?",
    )
    assert ranked == [
        "Assets/Scripts/HitPoints.cs",
        "Assets/Scripts/DefenderSpawner.cs",
        "Assets/Prefabs/Defender_Heavy_Axe.prefab",
        "Assets/Prefabs/Defender_Heavy_Sword.prefab",
        "Assets/Data/LocalsHeavy.asset",  # 7th when "more" asked no value
        "Assets/Scripts/Defender.cs",
        "Assets/Scripts/Weapons.cs",
        "Assets/Prefabs/Defender_Light_Bow.prefab",
        "Assets/Scripts/UnitData.cs",
        "Assets/Data/LocalsLight.asset",
    ]
