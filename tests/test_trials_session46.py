"""A new user's trial on two unseen games (docs/retrieval.md, session 46): what it found wrong,
each on a small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.query.named_files import titles_said

from .conftest import data_asset, meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked

PICKUP = "5e6f708192a3b4c5d6e7f8091a2b3c4d"
PICKUP_BACON = "6f708192a3b4c5d6e7f8091a2b3c4d5e"
ENEMY = "708192a3b4c5d6e7f8091a2b3c4d5e6f"
BACON_HEALTH = "92a3b4c5d6e7f8091a2b3c4d5e6f7081"
DROP = "a3b4c5d6e7f8091a2b3c4d5e6f708192"


def _ref(guid: str) -> str:
    return f"{{fileID: 100, guid: {guid}, type: 3}}"


def _pickups(tmp_path: Path) -> Path:
    """A shooter whose invaders drop a bacon health pickup (`BaconHealth.prefab`, small), beside a
    larger prefab of the pickups any enemy may drop, whose name and fields say more of the task's
    words, none of them as the bacon's name says them."""
    return write_project(
        tmp_path,
        {
            "Assets/Scripts/Pickup.cs": mono_script(
                "Pickup", "public float health; public float chance; public GameObject enemy; public string pickupName;"
            ),
            "Assets/Scripts/Pickup.cs.meta": meta(PICKUP),
            "Assets/Scripts/PickupBacon.cs": mono_script("PickupBacon", "public float amount = 10;"),
            "Assets/Scripts/PickupBacon.cs.meta": meta(PICKUP_BACON),
            "Assets/Scripts/Enemy.cs": mono_script(
                "Enemy", "public Transform BaconHealthDrop;\nvoid Die() { Instantiate(BaconHealthDrop); }"
            ),
            "Assets/Scripts/Enemy.cs.meta": meta(ENEMY),
            "Assets/Prefabs/BaconHealth.prefab": script_prefab("BaconHealth", PICKUP_BACON, "  amount: 10\n"),
            "Assets/Prefabs/BaconHealth.prefab.meta": meta(BACON_HEALTH, "PrefabImporter"),
            "Assets/Prefabs/HealthPickupDrop.prefab": script_prefab(
                "HealthPickupDrop",
                PICKUP,
                "  health: 25\n  chance: 0.5\n  enemy: {fileID: 0}\n  pickupName: Health pickup enemies drop\n"
                + "".join(f"  mesh{i}: {{fileID: {i}}}\n" for i in range(200)),
            ),
            "Assets/Prefabs/HealthPickupDrop.prefab.meta": meta(DROP, "PrefabImporter"),
            "Assets/Prefabs/PigAlien_Enemy.prefab": script_prefab(
                "PigAlien_Enemy", ENEMY, f"  BaconHealthDrop: {_ref(BACON_HEALTH)}\n"
            ),
        },
    )


def test_a_prefab_whose_name_the_task_says_word_for_word_ranks_first(tmp_path: Path) -> None:
    """ "Which prefab is the bacon health pickup that enemies drop?" ranked `BaconHealth.prefab` 6th,
    under the Baconator gun's pickup and enemy prefabs (larger, saying "pickup" and "enemy" often,
    raised by the walk from one another); here under a larger prefab of any enemy's health drops.
    A file of the kind the task names whose name of two words or more the task
    says word for word is the one it names (`named_files.titles_said`): it ranks first."""
    ranked = _ranked(_pickups(tmp_path), "Which prefab is the bacon health pickup that enemies drop?")
    assert ranked[:2] == ["Assets/Prefabs/BaconHealth.prefab", "Assets/Prefabs/HealthPickupDrop.prefab"]


def test_a_name_said_out_of_order_or_in_part_names_no_file() -> None:
    """The words must be the name's, in its order and side by side: "health" and "bacon" apart, or
    "bacon" alone, or a one-word name, name nothing."""
    paths = ["Assets/P/BaconHealth.prefab", "Assets/P/Baconator Pickup.prefab", "Assets/P/Bacon.prefab"]
    assert titles_said(paths, "Which prefab is the bacon health pickup?") == ["Assets/P/BaconHealth.prefab"]
    assert titles_said(paths, "Which prefab heals with health from bacon?") == []
    assert titles_said(paths, "Which prefab is the baconator's pickup?") == []


HEALTH = "c5d6e7f8091a2b3c4d5e6f708192a3b4"
LIVES_UI = "d6e7f8091a2b3c4d5e6f708192a3b4c5"


def _pigeon(tmp_path: Path) -> Path:
    """An arcade game whose player's lives are a health ScriptableObject (`PlayerHealth.asset`:
    `maxHealth`, `initialHealth`), shown as hearts by a UI script that says "lives"."""
    return write_project(
        tmp_path,
        {
            "Assets/Scripts/PlayerHealth.cs": "using UnityEngine;\npublic class PlayerHealth : ScriptableObject\n"
            "{\n    public int maxHealth; public float healthValue; public float initialHealth;\n"
            "    public void TakeDamage(float amount) { healthValue -= amount; }\n}\n",
            "Assets/Scripts/PlayerHealth.cs.meta": meta(HEALTH),
            "Assets/Scripts/LivesUI.cs": mono_script(
                "LivesUI",
                "public PlayerHealth playerHealth; public GameObject heartPrefab; private int lives;\n"
                "void Start() { lives = playerHealth.maxHealth; DrawLives(); }\nvoid DrawLives() { }",
            ),
            "Assets/Scripts/LivesUI.cs.meta": meta(LIVES_UI),
            "Assets/Scripts/PlayerMovement.cs": mono_script(
                "PlayerMovement", "public float speed = 5; void Start() { } // the player starts still"
            ),
            "Assets/Data/PlayerHealth.asset": data_asset(
                HEALTH, "PlayerHealth", "  maxHealth: 5\n  healthValue: 3\n  initialHealth: 3\n"
            ),
            "Assets/Data/Score.asset": data_asset(LIVES_UI, "Score", "  value: 0\n"),
        },
    )


def test_lives_are_health(tmp_path: Path) -> None:
    """ "Which asset sets how many lives the player starts with and the maximum number of lives?"
    ranked `PlayerHealth.asset` 15th: "lives" met the lives UI's words and no health. A player's
    lives are its health in game code (`synonyms._GROUPS`): the asset holding `maxHealth` is 2nd,
    under the lives UI (before: 5th, under `Score.asset`). Since session 52 it is 1st, level with
    the lives UI, which loads it (`read_data.raise_read_data`: the one data asset named as the
    class a best script uses holds the value asked; the tie goes by path)."""
    ranked = _ranked(
        _pigeon(tmp_path), "Which asset sets how many lives the player starts with and the maximum number of lives?"
    )
    assert ranked[:2] == ["Assets/Data/PlayerHealth.asset", "Assets/Scripts/LivesUI.cs"]
