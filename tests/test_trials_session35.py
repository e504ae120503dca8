"""Defects found by new users' trials (docs/retrieval.md, "session 35"), each a test seen failing
before its fix."""

from __future__ import annotations

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.query.lookup import find_references
from indexer.query.workspace import open_workspace, projects_at

from .conftest import write_project

UNIT = "using UnityEngine;\npublic class Unit : MonoBehaviour\n{\n    public virtual void Attack() { }\n}\n"
ENEMY = "public class Enemy : Unit\n{\n    public new void Attack() { }\n}\n"  # hides Unit's
BRUTE = "public class Brute : Enemy\n{\n    void Update() { Attack(); }\n}\n"  # below the hiding one
ORC = "public class Orc : Unit\n{\n    public override void Attack() { }\n}\n"
TURRET = (
    "public interface IAttacker { void Attack(); }\n"
    "public class Turret : IAttacker\n{\n    public void Attack() { }\n}\n"
)
GAME = """using UnityEngine;
public class Game : MonoBehaviour
{
    public Unit unit;
    public Enemy enemy;
    public IAttacker attacker;
    void Update()
    {
        unit.Attack();
        enemy.Attack();
        attacker.Attack();
    }
}
"""


@pytest.fixture(scope="module")
def hiding(tmp_path_factory: pytest.TempPathFactory):
    root = write_project(
        tmp_path_factory.mktemp("hiding") / "P",
        {
            "Assets/Unit.cs": UNIT,
            "Assets/Enemy.cs": ENEMY,
            "Assets/Brute.cs": BRUTE,
            "Assets/Orc.cs": ORC,
            "Assets/Turret.cs": TURRET,
            "Assets/Game.cs": GAME,
        },
    )
    update(root, Config(workers=1))
    return open_workspace(root, projects_at(root))


def _code_lines(ws, name: str) -> list[tuple[str, int]]:
    _target, usages = find_references(ws, name)
    return [(u.path, u.line) for u in usages if u.where == "code"]


def test_a_method_declared_anew_is_not_called_through_its_base(hiding) -> None:
    """`public new void Attack()` hides `Unit.Attack`: `unit.Attack()` runs Unit's, so it is no
    usage of `Enemy.Attack` (a trial's `refs` listed every call through the base class)."""
    assert _code_lines(hiding, "Enemy.Attack") == [("Assets/Brute.cs", 3), ("Assets/Game.cs", 10)]


def test_the_base_s_usages_leave_out_the_calls_on_a_class_that_hides_it(hiding) -> None:
    """`enemy.Attack()` on an `Enemy` runs Enemy's own `Attack`, and so does a subclass's bare
    `Attack()`; `unit.Attack()` may run Unit's or Orc's override."""
    assert _code_lines(hiding, "Unit.Attack") == [("Assets/Game.cs", 9)]


def test_an_override_is_still_called_through_its_base(hiding) -> None:
    assert _code_lines(hiding, "Orc.Attack") == [("Assets/Game.cs", 9)]


def test_an_interface_s_member_is_implemented_without_override(hiding) -> None:
    assert _code_lines(hiding, "Turret.Attack") == [("Assets/Game.cs", 11)]
