"""Type roles follow base classes across files, through partial parts, without recursion."""

from __future__ import annotations

from indexer.build.roles import categorize
from indexer.model import TypeRow


def _type(name: str, bases: list[str], *, kind: str = "class", test: bool = False, partial: bool = False) -> TypeRow:
    return TypeRow(f"Assets/{name}.cs", name, name, kind, "", tuple(bases), partial, test, "", kind)


def test_roles_follow_bases_and_kinds() -> None:
    types = [
        _type("Enemy", ["Character"]),
        _type("Character", ["UnityEngine.MonoBehaviour"]),
        _type("Config", ["ScriptableObject"]),
        _type("Stats", [], kind="struct"),
        _type("EnemyTests", ["Character"], test=True),
        _type("Plain", ["System.Object"]),
    ]
    assert categorize(types) == {
        ("Assets/Enemy.cs", "Enemy"): "monobehaviour",
        ("Assets/Character.cs", "Character"): "monobehaviour",
        ("Assets/Config.cs", "Config"): "scriptableobject",
        ("Assets/Stats.cs", "Stats"): "struct",
        ("Assets/EnemyTests.cs", "EnemyTests"): "test",
        ("Assets/Plain.cs", "Plain"): "class",
    }


def test_a_partial_part_declares_the_base_for_all_parts() -> None:
    a = TypeRow("Assets/A.cs", "Door", "Door", "class", "", (), True, False, "", "class")
    b = TypeRow("Assets/B.cs", "Door", "Door", "class", "", ("MonoBehaviour",), True, False, "", "class")
    assert categorize([a, b]) == {("Assets/A.cs", "Door"): "monobehaviour", ("Assets/B.cs", "Door"): "monobehaviour"}


def test_a_cycle_of_bases_is_a_plain_class() -> None:
    assert set(categorize([_type("A", ["B"]), _type("B", ["A"])]).values()) == {"class"}


def test_a_chain_deeper_than_the_python_stack_is_resolved() -> None:
    """Generated or hostile code: 5,000 classes each deriving from the next, the deepest first."""
    n = 5000
    types = [_type(f"C{i}", [f"C{i - 1}"]) for i in reversed(range(1, n))] + [_type("C0", ["MonoBehaviour"])]
    roles = categorize(types)
    assert roles[(f"Assets/C{n - 1}.cs", f"C{n - 1}")] == "monobehaviour"
    assert set(roles.values()) == {"monobehaviour"}
