"""A fourteenth trial on two unseen games (docs/retrieval.md, session 51): what it found wrong, on
small projects of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.query import synonyms

from .conftest import ranked_paths as _ranked
from .conftest import write_project


def _dungeon(tmp_path: Path) -> Path:
    """A dungeon crawler's combat scripts: the player's health characteristic with its maximum
    (`ValueMax`, `AddValueMax`), the enemy's attack state lowering it, the enemy's data (its
    `maxHealth`), and the enemy's statistics, damage and death states, which say "enemy" and
    "health" everywhere but never "max"."""
    files = {
        "Assets/Scripts/Player/CharacteristicHealth.cs": (
            "public class CharacteristicHealth\n{\n    public int Value { get; set; }\n"
            "    public int ValueMax { get; set; }\n"
            "    public CharacteristicHealth(int value) { Value = value; ValueMax = value; }\n"
            "    public void AddValue(int value) { Value += value; }\n"
            "    public void AddValueMax(int value) { ValueMax += value; }\n}\n"
        ),
        "Assets/Scripts/Enemy/EnemyAttackState.cs": (
            "public class EnemyAttackState : EnemyState\n{\n    public override void Enter()\n    {\n"
            "        base.Enter();\n        PlayerStatistic.Instance.Health.AddValueMax(-1);\n"
            "        IsAbilityDone = true;\n    }\n}\n"
        ),
        "Assets/Scripts/Enemy/EnemyData.cs": (
            'using UnityEngine;\n[CreateAssetMenu(menuName = "Data/Enemy Data")]\n'
            "public class EnemyData : ScriptableObject\n{\n    public string raceName;\n    public float maxHealth;\n"
            "    public float movementSpeed;\n    public float attackDistance;\n}\n"
        ),
        "Assets/Scripts/Enemy/EnemyStatistic.cs": (
            "public class EnemyStatistic\n{\n    private float _health;\n"
            "    public float Health { get => _health; set => _health = value; }\n"
            "    public bool IsDead => Health <= 0;\n"
            "    // the enemy's health goes down when a weapon hits it\n"
            "    public void TakeHit(float damage) { Health -= damage; }\n}\n"
        ),
        "Assets/Scripts/Enemy/EnemyDamageState.cs": (
            "public class EnemyDamageState : EnemyState\n{\n"
            "    // the enemy flinches when hit; its health is already down\n"
            "    public override void Enter() { base.Enter(); Debug.Log(EnemyStatistic.Health); }\n}\n"
        ),
        "Assets/Scripts/Enemy/EnemyDeathState.cs": (
            "public class EnemyDeathState : EnemyState\n{\n"
            "    // no health left: the enemy stops and turns red\n"
            "    public override void Enter() { base.Enter(); Agent.isStopped = true; }\n}\n"
        ),
    }
    return write_project(tmp_path, files)


def test_maximum_searches_the_max_code_names_it_by(tmp_path: Path) -> None:
    """ "Enemies hit me but my health never goes down, only my maximum health drops by one" had the
    enemy's attack state (`Health.AddValueMax(-1)` where it means the health itself) 9th under
    the enemy's health and state scripts: the task's "maximum" met nothing, as code says `max`
    (`maxHealth`, `AddValueMax`). "maximum" and "minimum" are searched as `max` and `min`, and
    those as the whole words, as a verb's irregular forms are (`synonyms._SHORT`): here the
    attack state 6th -> 5th for the trial's words, the enemy's data 3rd -> 2nd for its maximum
    health, above the enemy's statistics saying "health" more."""
    assert synonyms.forms("maximum") == ("max",)
    assert synonyms.forms("max") == ("maximum",)
    assert synonyms.forms("minimum") == ("min",)
    assert synonyms.forms("min") == ("minimum",)
    root = _dungeon(tmp_path)
    bug = _ranked(root, "Enemies hit me but my health never goes down, only my maximum health drops by one", 5)
    assert bug[4] == "Assets/Scripts/Enemy/EnemyAttackState.cs"
    assert _ranked(root, "Where is an enemy's maximum health set?", 3) == [
        "Assets/Scripts/Player/CharacteristicHealth.cs",
        "Assets/Scripts/Enemy/EnemyData.cs",
        "Assets/Scripts/Enemy/EnemyStatistic.cs",
    ]
