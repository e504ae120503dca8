"""Defects found by a second user's trial on two more unseen games in session 42 (docs/retrieval.md,
"A second user's trial on two more unseen games (session 42)"), each a test seen failing before its
fix."""

from __future__ import annotations

from pathlib import Path

from indexer.query.synonyms import expansions

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
