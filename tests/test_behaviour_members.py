"""`refs Gun.enabled`: a member a script inherits from Unity's `Behaviour`, which UnityEvents call
on the script's components (`set_enabled`), found as the script's own members are (29 such calls in
real projects were listed by `refs Gun` only)."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.query.locate import references_of
from indexer.query.lookup import LookupFailed
from indexer.query.workspace import open_workspace, projects_at

from .conftest import meta, write_project
from .test_unity_event_targets import _behaviour, _header, _object, _on_click

GUN, BUTTON, AMMO = "a1" * 16, "b2" * 16, "c3" * 16
NOTE = (
    "enabled is Unity's Behaviour.enabled, which Game.Gun inherits: the UnityEvent calls setting it"
    " on its components (set_enabled) and the code naming it"
)


def _armory(tmp_path: Path):
    """A turret whose Gun a Disarm button switches off (`set_enabled`, false) and a Reload button fires."""
    off = _on_click(111, "Game.Gun, Assembly-CSharp", "set_enabled").replace("m_Mode: 1", "m_Mode: 6")
    prefab = (
        _header()
        + _object(110, "Turret", [111])
        + _behaviour(111, 110, GUN)
        + _object(120, "Disarm", [121])
        + _behaviour(121, 120, BUTTON, off)
        + _object(130, "Reload", [131])
        + _behaviour(131, 130, BUTTON, _on_click(111, "Game.Gun, Assembly-CSharp", "Fire"))
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Gun.cs": (
                "using UnityEngine;\nnamespace Game {\npublic class Gun : MonoBehaviour { public void Fire() { } }\n}\n"
            ),
            "Assets/Gun.cs.meta": meta(GUN),
            "Assets/Trap.cs": (
                "using UnityEngine;\nusing Game;\npublic class Trap : MonoBehaviour {\n"
                "  public Gun gun; public Light lamp;\n"
                "  void Spring() { gun.enabled = false; }\n  void Light() { lamp.enabled = true; }\n}\n"
            ),
            "Assets/Ammo.cs": "using UnityEngine;\npublic class Ammo : ScriptableObject { }\n",
            "Assets/Ammo.cs.meta": meta(AMMO),
            "Assets/Armory.prefab": prefab,
        },
    )
    update(root, Config(workers=1))
    return open_workspace(root, projects_at(root))


def test_refs_of_enabled_lists_the_unity_event_calls_setting_it(tmp_path: Path) -> None:
    target, usages = references_of(_armory(tmp_path), "Gun.enabled")
    assert target is not None
    assert (target.kind, target.name, target.member, target.types, target.note) == (
        "member",
        "Gun.enabled",
        "enabled",
        ["Game.Gun"],
        NOTE,
    )
    # the Disarm button's call (its m_Target line), and the line switching a Gun off, not a Light
    assert [(u.path, u.line, u.kind, u.resolved) for u in usages] == [
        ("Assets/Armory.prefab", 52, "method", "Game.Gun.set_enabled"),
        ("Assets/Trap.cs", 5, "text", ""),
    ]


def test_a_class_that_is_no_behaviour_has_no_enabled(tmp_path: Path) -> None:
    """A ScriptableObject inherits no `enabled`: still refused, as any member no class declares."""
    with pytest.raises(LookupFailed):
        references_of(_armory(tmp_path), "Ammo.enabled")
