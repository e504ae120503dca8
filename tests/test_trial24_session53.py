"""A twenty-fourth trial on unseen games (docs/retrieval.md, "Session 53, a twenty-fourth trial"):
what it found wrong, on small projects of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.query.close_parts import _KEEPER
from indexer.query.synonyms import synonym_words

from .conftest import meta, mono_script, write_project
from .conftest import ranked_paths as _ranked

MANAGER = "Assets/Code/Managers/EnemyIndicatorsManager.cs"
ITEM = "Assets/Code/UI/EnemyIndicator.cs"


def _indicator_game(tmp_path: Path, manager: str = "EnemyIndicatorsManager") -> Path:
    """A HUD whose manager places an arrow at the screen's edge for each monster off screen: the
    manager's script says the task's words, the arrow's own (`EnemyIndicator`) none of them, and
    twenty other scripts say some (six of them the manager's helpers: it is tied to many files)."""
    files: dict[str, str] = {
        f"Assets/Code/Managers/{manager}.cs": mono_script(
            manager,
            "    public EnemyIndicator indicatorPrefab;\n"
            + "".join(f"    public Helper{i} helper{i};\n" for i in range(6))
            + "    // place an arrow at the screen edge pointing at each monster off screen\n"
            "    void LateUpdate() { }",
        ),
        f"Assets/Code/Managers/{manager}.cs.meta": meta("0a1b2c3d4e5f40718293a4b5c6d7e8f9"),
        ITEM: mono_script(
            "EnemyIndicator", "    public RectTransform rect;\n    public void SetAngle(float angle) { }"
        ),
        f"{ITEM}.meta": meta("1b2c3d4e5f6a41829304b5c6d7e8f9a0"),
    }
    for i in range(20):
        name = f"Helper{i}"
        files[f"Assets/Code/Misc/{name}.cs"] = mono_script(
            name,
            f"    // arrows at the screen edge point at monsters off screen, placed each frame ({i})\n"
            f"    public float edge{i} = {i};",
        )
        files[f"Assets/Code/Misc/{name}.cs.meta"] = meta(f"{i:02d}c3d4e5f6a7b8492a3b4c5d6e7f8a9b0c"[:32])
    return write_project(tmp_path, files)


def test_the_item_a_keeper_places_ranks_in_the_ten_best(tmp_path: Path) -> None:
    """The arrows' manager ranks first and the arrow's own script, which says none of the task's
    words, in the ten best (it was not ranked at all)."""
    root = _indicator_game(tmp_path)
    ranked = _ranked(root, "Where do the arrows at the screen edge pointing at off-screen monsters get placed?", 10)
    assert ranked[0] == MANAGER
    assert ITEM in ranked


def test_a_manager_named_by_no_plural_keeps_no_item(tmp_path: Path) -> None:
    """`EnemyIndicatorManager` (no plural) is no keeper of many: its arrow is not raised."""
    root = _indicator_game(tmp_path, "EnemyIndicatorManager")
    ranked = _ranked(root, "Where do the arrows at the screen edge pointing at off-screen monsters get placed?", 10)
    assert ITEM not in ranked


def test_keeper_names() -> None:
    """The plural and the keeper's word; "ies" is a "y"."""
    assert _KEEPER.match("EnemyIndicatorsManager")["item"] == "EnemyIndicator"
    assert _KEEPER.match("EnemiesSpawner").group("item", "plural") == ("Enem", "ies")
    assert _KEEPER.match("BulletsPool")["item"] == "Bullet"
    assert _KEEPER.match("EnemyIndicatorManager") is None
    assert _KEEPER.match("GameManager") is None


def test_an_upgrade_is_an_enhancement(tmp_path: Path) -> None:
    """ "Add a new upgrade that makes the knight move faster": the game's upgrades are
    `Enhancement`s (a base class and one that quickens attacks), the knight's scripts say "knight"
    and "move"; the upgrades' base class ranks in the first three (it ranked past the tenth)."""
    files: dict[str, str] = {
        "Assets/Code/Enhancements/Enhancement.cs": mono_script(
            "Enhancement",
            "    public string enhancementName;\n    public int maxLevel;\n"
            "    public virtual float ApplyToMovementSpeed(float speed) => speed;",
        ),
        "Assets/Code/Enhancements/Enhancement.cs.meta": meta("2c3d4e5f6a7b4c8d9e0f1a2b3c4d5e6f"),
        "Assets/Code/Enhancements/AttackSpeed.cs": mono_script(
            "AttackSpeed",
            "    public float ratio;\n    // attacks recharge faster\n    public float Cooldown() => ratio;",
        ),
        "Assets/Code/Enhancements/AttackSpeed.cs.meta": meta("3d4e5f6a7b8c4d9e0f1a2b3c4d5e6f7a"),
    }
    for i, name in enumerate(("Knight", "KnightMover", "KnightAnimator", "KnightSword", "MoveInput", "Mover")):
        files[f"Assets/Code/Player/{name}.cs"] = mono_script(
            name, f"    // the knight: move faster when running\n    public float speed{i} = {i};"
        )
        files[f"Assets/Code/Player/{name}.cs.meta"] = meta(f"4e5f6a7b8c9d4e0f1a2b3c4d5e6f7a{i:02d}")
    root = write_project(tmp_path, files)
    assert "Assets/Code/Enhancements/Enhancement.cs" in _ranked(
        root, "Add a new upgrade that makes the knight move faster.", 3
    )
    assert "enhancement" in synonym_words(["upgrade"])
