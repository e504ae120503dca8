"""Defects found by a second user's trial on two more unseen games in session 42 (docs/retrieval.md,
"A second user's trial on two more unseen games (session 42)"), each a test seen failing before its
fix."""

from __future__ import annotations

from pathlib import Path

from indexer.identifiers import TASK_WORD_WEIGHT, weighted_terms
from indexer.query.synonyms import excess, expansions

from .conftest import write_project
from .test_trials_session32 import _workspace


def _player_files() -> dict[str, str]:
    """A platformer's player scripts, each saying "player", none about water."""
    return {
        f"Assets/Scripts/Player{part}.cs": (
            f"using UnityEngine;\npublic class Player{part} : MonoBehaviour\n{{\n"
            f"    public Transform player;\n    void Start() {{ player.position = Vector3.zero; }}\n}}\n"
        )
        for part in ("Start", "Spawn", "Camera", "Start2")
    }


def test_water_is_searched_as_the_liquid_code_names_it(tmp_path: Path) -> None:
    """A platformer's "how do I make the player float more in water" ranked its `Liquid` tile
    (`buoyancy`) 7th, under four `PlayerStart*` files: the code says liquid where players say water."""
    assert expansions(["player", "float", "water"]) == [("water", ("fluid", "liquid"))]
    files = _player_files()
    files["Assets/Scripts/Tiles/Liquid.cs"] = (
        "using UnityEngine;\npublic class Liquid : MonoBehaviour\n{\n"
        "    public float viscosity = 1;\n    public Vector2 buoyancy = Vector2.zero;\n"
        "    void OnTriggerEnter2D(Collider2D o) { }\n}\n"
    )
    ws = _workspace(write_project(tmp_path / "P", files))
    hits = [h.path for h in ws.search("how do I make the player float more in water", 10)]
    assert hits.index("Assets/Scripts/Tiles/Liquid.cs") == 0


def test_how_long_asks_for_a_duration_not_for_the_word(tmp_path: Path) -> None:
    """A rhythm game's "how long is the player immune after being hit" ranked a `LongPuzzleEnemy`
    second and its `ritual_long_puzzle_vfx` prefab fourth, on "long": said only in "how long", the
    word weighs as a task word and searches a duration's nouns as "too long" does."""
    assert ("long", TASK_WORD_WEIGHT) in weighted_terms("how long is the player immune")
    assert ("long", 1.0) in weighted_terms("how long is the long enemy's trail")
    assert excess("How long does the shield last?") == ("long",)
    assert expansions(["shield", "last", "long"], ("long",))[-1] == ("long", ("length", "duration"))
    files = {
        f"Assets/Scripts/{name}.cs": f"using UnityEngine;\npublic class {name} : MonoBehaviour\n{{\n    {body}\n}}\n"
        for name, body in (
            ("ShieldLong", "public Sprite icon;"),
            ("Shield", "public GameObject shield;\n    public float duration = 2f;"),
            ("Fade", "public float duration = 1f;"),
            ("LongTrail", "public ParticleSystem effect;"),
        )
    }
    ws = _workspace(write_project(tmp_path / "P", files))
    hits = [h.path for h in ws.search("how long does the shield last", 5)]
    assert hits[:2] == ["Assets/Scripts/Shield.cs", "Assets/Scripts/ShieldLong.cs"]
