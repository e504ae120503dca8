"""A ninth trial on two unseen games (docs/retrieval.md, session 50): what it found wrong, on a
small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.query import synonyms

from .conftest import data_asset, meta, write_project
from .conftest import ranked_paths as _ranked

_RACE = "b5090000000000000000000000000001"
_LIFESPAN = "b5090000000000000000000000000002"
_MATERIAL = "b5090000000000000000000000000003"
_SPANS = {  # name -> (GUID, dice count, modifier)
    "01_Short Lived_Very": ("b5090000000000000000000000000011", 2, 10),
    "02_Short Lived": ("b5090000000000000000000000000012", 4, 20),
    "03_Medium Lived": ("b5090000000000000000000000000013", 6, 40),
    "04_Long Lived": ("b5090000000000000000000000000014", 10, 60),
    "05_Long Lived_Very": ("b5090000000000000000000000000015", 14, 80),
}


# what a race's asset holds besides: six attributes' starting values and potentials
_ATTRIBUTES = "".join(
    f"  {part}:\n"
    + "".join(
        f"  - attribute: {{fileID: 11400000, guid: b50900000000000000000000000001{i:02d}, type: 2}}\n    value: {v}\n"
        for i in range(6)
    )
    for part, v in (("baseAttributes", 5), ("attributePotentials", 50))
)


def _races(tmp_path: Path) -> Path:
    """A fantasy RPG's data: a race ScriptableObject per race (`Elf_Wood`, `Dwarf_Hill`, `Human`)
    with its attributes, naming the lifespan asset it lives by (five `LifeExpectancy` assets from
    `01_Short Lived_Very` to `05_Long Lived_Very`, each holding its dice of years), and crafting
    materials of three woods. The lifespan assets say "long", "lived" and "lifespan"; the wood
    elves' asset says "elf" and "wood", never "elves"."""
    race_cs = (
        'using UnityEngine;\n[CreateAssetMenu(menuName = "Characters/Race")]\n'
        "public class Race : ScriptableObject\n{\n    public string raceName;\n"
        "    public AttributeValue[] baseAttributes;\n    public AttributeValue[] attributePotentials;\n"
        "    public LifeExpectancy lifeExpectancy;\n}\n"
    )
    span_cs = (
        'using UnityEngine;\n[CreateAssetMenu(menuName = "Characters/Life Expectancy")]\n'
        "public class LifeExpectancy : ScriptableObject\n{\n    public string displayName;\n"
        "    public DiceCombo lifespan;\n}\n"
    )
    files: dict[str, str] = {
        "Assets/Scripts/Race.cs": race_cs,
        "Assets/Scripts/Race.cs.meta": meta(_RACE),
        "Assets/Scripts/LifeExpectancy.cs": span_cs,
        "Assets/Scripts/LifeExpectancy.cs.meta": meta(_LIFESPAN),
    }
    for name, (guid, dice, years) in _SPANS.items():
        fields = f"  displayName: {name[3:]}\n  lifespan: {{diceCount: {dice}, diceSides: 10, modifier: {years}}}\n"
        files[f"Assets/Data/Lifespan/{name}.asset"] = data_asset(_LIFESPAN, name, fields)
        files[f"Assets/Data/Lifespan/{name}.asset.meta"] = meta(guid, "NativeFormatImporter")
    for i, (race, span) in enumerate(
        (("Elf_Wood", "05_Long Lived_Very"), ("Dwarf_Hill", "04_Long Lived"), ("Human", "03_Medium Lived"))
    ):
        ref = f"  lifeExpectancy: {{fileID: 11400000, guid: {_SPANS[span][0]}, type: 2}}\n"
        files[f"Assets/Data/Races/{race}.asset"] = data_asset(_RACE, race, f"  raceName: {race}\n{_ATTRIBUTES}{ref}")
        files[f"Assets/Data/Races/{race}.asset.meta"] = meta(
            f"b50900000000000000000000000000{i + 21}", "NativeFormatImporter"
        )
    files["Assets/Scripts/CraftingMaterial.cs"] = (
        "using UnityEngine;\npublic class CraftingMaterial : ScriptableObject\n{\n    public int hardness;\n}\n"
    )
    files["Assets/Scripts/CraftingMaterial.cs.meta"] = meta(_MATERIAL)
    for i, wood in enumerate(("Wood_Oak", "Wood_Pine", "Wood_Ash")):
        files[f"Assets/Data/Materials/{wood}.asset"] = data_asset(_MATERIAL, wood, f"  hardness: {i + 2}\n")
        files[f"Assets/Data/Materials/{wood}.asset.meta"] = meta(
            f"b50900000000000000000000000000{i + 31}", "NativeFormatImporter"
        )
    return write_project(tmp_path, files)


def test_an_irregular_plural_searches_its_singular(tmp_path: Path) -> None:
    """ "How long do wood elves live? Where is their lifespan set?" had the wood elves' race asset
    8th under the seven lifespan assets of the trial's roguelike: the stemmers make "elves" `elv`
    and `Elf_Wood` `elf`, so only "wood" met it. A noun's irregular plural is searched as its
    singular, as a verb's irregular forms are (`synonyms._PLURALS`): 6th -> 1st here, the five
    lifespan assets below it; a plural that is a verb as often ("leaves", "lives") is not joined."""
    assert synonyms.forms("elves") == ("elf",)
    assert synonyms.forms("children") == ("child",)
    assert synonyms.forms("leaves") == synonyms.forms("lives") == ()
    root = _races(tmp_path)
    assert _ranked(root, "How long do wood elves live? Where is their lifespan set?", 3) == [
        "Assets/Data/Races/Elf_Wood.asset",
        "Assets/Data/Lifespan/05_Long Lived_Very.asset",
        "Assets/Data/Lifespan/04_Long Lived.asset",
    ]
