"""A thirty-seventh trial on two unseen games (docs/retrieval.md, session 57): what it found
wrong, on a small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.query import synonyms

from .conftest import data_asset, meta, write_project
from .conftest import ranked_paths as _ranked

_UNIT = "b5370000000000000000000000000001"
_ATTACK = "b5370000000000000000000000000002"


def _troops(tmp_path: Path) -> Path:
    """An auto-battler's data: a unit asset and an attack asset per troop (`SpearmanMainAttack`,
    `ArcherMainAttack`, `KnightMainAttack`...), each unit naming its attack; the spearman's
    files say "spearman", never "spearmen", and every attack asset says "attack" and "damage"."""
    unit_cs = (
        "using UnityEngine;\npublic class UnitSO : ScriptableObject\n{\n"
        "    public float unitMoveSpeed;\n    public AttackSO mainAttackSO;\n}\n"
    )
    attack_cs = (
        "using UnityEngine;\npublic class AttackSO : ScriptableObject\n{\n"
        "    public int attackDamage;\n    public float attackRate;\n}\n"
    )
    files: dict[str, str] = {
        "Assets/Scripts/UnitSO.cs": unit_cs,
        "Assets/Scripts/UnitSO.cs.meta": meta(_UNIT),
        "Assets/Scripts/AttackSO.cs": attack_cs,
        "Assets/Scripts/AttackSO.cs.meta": meta(_ATTACK),
    }
    for i, troop in enumerate(("Spearman", "Archer", "Knight", "Giant", "Cavalry", "Mage")):
        attack = f"b53700000000000000000000000001{i:02d}"
        files[f"Assets/Data/Attacks/{troop}MainAttack.asset"] = data_asset(
            _ATTACK, f"{troop}MainAttack", f"  attackDamage: {i + 4}\n  attackRate: 1.5\n"
        )
        files[f"Assets/Data/Attacks/{troop}MainAttack.asset.meta"] = meta(attack, "NativeFormatImporter")
        ref = f"  unitMoveSpeed: 70\n  mainAttackSO: {{fileID: 11400000, guid: {attack}, type: 2}}\n"
        files[f"Assets/Data/Units/{troop}.asset"] = data_asset(_UNIT, troop, ref)
        files[f"Assets/Data/Units/{troop}.asset.meta"] = meta(
            f"b53700000000000000000000000002{i:02d}", "NativeFormatImporter"
        )
    return write_project(tmp_path, files)


def test_a_compounds_men_plural_searches_its_man_singular(tmp_path: Path) -> None:
    """ "I want the human spearmen to hit harder and walk faster" had neither of the spearman's
    assets in the twenty of the trial's auto-battler: the stemmer keeps "spearmen" whole, the code
    says `SpearmanMainAttack`. A compound's "-men" plural searches its "-man" singular
    (`synonyms.forms`), as an irregular plural does; "men" itself and "omen" do not."""
    assert synonyms.forms("spearmen") == ("spearman",)
    assert synonyms.forms("Horsemen") == ("horseman",)
    assert synonyms.forms("men") == synonyms.forms("omen") == synonyms.forms("women") == ()
    root = _troops(tmp_path)
    assert _ranked(root, "The spearmen should hit harder", 2) == [
        "Assets/Data/Units/Spearman.asset",
        "Assets/Data/Attacks/SpearmanMainAttack.asset",
    ]
