"""`refs` of a member of Unity's own classes that UnityEvents call: inherited by a project script
(`Gun.SendMessage`, `Gun.name` set by `set_name`), or of a Unity component no project type is
(`GameObject.SetActive`, `AudioSource.Play`, uGUI's `Image.set_sprite`). Before session 50 the first
said "neither it nor a base class declares SendMessage; UnityEvent calls still name it, bound to
nothing" of calls Unity makes, and the second "no type, member, file, GUID or assembly of that name"."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.query.locate import references_of
from indexer.query.lookup import LookupFailed
from indexer.query.render import render_target
from indexer.query.workspace import open_workspace, projects_at

from .conftest import meta, write_project
from .test_unity_event_targets import _behaviour, _header, _object, _on_click

GUN, BUTTON, AMMO = "a1" * 16, "b2" * 16, "c3" * 16
IMAGE = "fe87c0e1cc204ed48ad3b37840f39efc"  # uGUI's Image, the same GUID in every project


def _component(class_id: int, name: str, file_id: int, go: int) -> str:
    return f"--- !u!{class_id} &{file_id}\n{name}:\n  m_ObjectHideFlags: 0\n  m_GameObject: {{fileID: {go}}}\n"


def _button(go: int, target: int, type_name: str, method: str) -> str:
    return _object(go, f"B{go // 100}", [go + 10]) + _behaviour(
        go + 10, go, BUTTON, _on_click(target, type_name, method)
    )


def _panel(tmp_path: Path):
    """A panel (a Gun, an AudioSource, an Animator, an Image) and a button for each call."""
    prefab = (
        _header()
        + _object(100, "Panel", [110, 150, 160, 170])
        + _behaviour(110, 100, GUN)
        + _component(82, "AudioSource", 150, 100)
        + _component(95, "Animator", 160, 100)
        + _behaviour(170, 100, IMAGE)
        + _button(200, 100, "UnityEngine.GameObject, UnityEngine", "SetActive")
        + _button(300, 101, "UnityEngine.Transform, UnityEngine", "SetParent")
        + _button(400, 150, "UnityEngine.AudioSource, UnityEngine.AudioModule", "Play")
        + _button(500, 160, "UnityEngine.Animator, UnityEngine.AnimationModule", "SetTrigger")
        + _button(600, 170, "UnityEngine.UI.Image, UnityEngine.UI", "set_sprite")
        + _button(700, 110, "Game.Gun, Assembly-CSharp", "SendMessage")
        + _button(800, 110, "Game.Gun, Assembly-CSharp", "set_name")
        + _button(900, 110, "Game.Gun, Assembly-CSharp", "Nope")
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Gun.cs": "using UnityEngine;\nnamespace Game {\npublic class Gun : MonoBehaviour { }\n}\n",
            "Assets/Gun.cs.meta": meta(GUN),
            "Assets/MyButton.cs": "using UnityEngine;\npublic class MyButton : MonoBehaviour { }\n",
            "Assets/MyButton.cs.meta": meta(BUTTON),
            "Assets/Ammo.cs": "using UnityEngine;\npublic class Ammo : ScriptableObject { }\n",
            "Assets/Ammo.cs.meta": meta(AMMO),
            "Assets/Panel.prefab": prefab,
        },
    )
    update(root, Config(workers=1))
    return open_workspace(root, projects_at(root))


def _calls(usages) -> list[tuple[str, int, str, str]]:
    return [(u.path, u.line, u.detail, u.resolved) for u in usages]


def test_a_member_a_script_inherits_from_unity_is_the_scripts_member(tmp_path: Path) -> None:
    ws = _panel(tmp_path)
    target, usages = references_of(ws, "Gun.SendMessage")
    assert render_target(target) == (
        "member SendMessage of Game.Gun  (SendMessage is Unity's Component.SendMessage, which Game.Gun inherits:"
        " the UnityEvent calls on its components and the code naming it)"
    )
    assert _calls(usages) == [
        ("Assets/Panel.prefab", 261, "B7 > MyButton.m_OnClick(void) on Panel", "Game.Gun.SendMessage")
    ]
    for asked in ("Gun.name", "Gun.set_name"):  # a property, asked by its name or as the call stores it
        target, usages = references_of(ws, asked)
        assert (target.kind, target.name, target.member, target.types) == ("member", "Gun.name", "name", ["Game.Gun"])
        assert target.note == (
            "name is Unity's Object.name, which Game.Gun inherits: the UnityEvent calls setting it on its objects"
            " (set_name) and the code naming it"
        )
        assert _calls(usages) == [
            ("Assets/Panel.prefab", 299, "B8 > MyButton.m_OnClick(void) on Panel", "Game.Gun.set_name")
        ]


def test_a_member_no_class_declares_is_still_refused(tmp_path: Path) -> None:
    """A project script's member that does not exist, and Component's members on a ScriptableObject."""
    ws = _panel(tmp_path)
    with pytest.raises(LookupFailed) as caught:
        references_of(ws, "Gun.Nope")
    assert str(caught.value) == (
        "Gun is a type, but neither it nor a base class declares Nope; UnityEvent calls still name it, bound to"
        " nothing: Assets/Panel.prefab:337; `unity-index refs Gun` lists the type's usages"
    )
    with pytest.raises(LookupFailed):
        references_of(ws, "Ammo.SendMessage")
    target, usages = references_of(ws, "Ammo.name")  # Object's: a ScriptableObject has it
    assert (target.kind, target.types, usages) == ("member", ["Ammo"], [])


@pytest.mark.parametrize(
    ("asked", "name", "member", "cls", "line", "button"),
    [
        ("GameObject.SetActive", "GameObject.SetActive", "SetActive", "UnityEngine.GameObject", 71, "B2"),
        ("Transform.SetParent", "Transform.SetParent", "SetParent", "UnityEngine.Transform", 109, "B3"),
        ("AudioSource.Play", "AudioSource.Play", "Play", "UnityEngine.AudioSource", 147, "B4"),
        (
            "UnityEngine.AudioSource.Play()",
            "UnityEngine.AudioSource.Play",
            "Play",
            "UnityEngine.AudioSource",
            147,
            "B4",
        ),
        ("Animator.SetTrigger", "Animator.SetTrigger", "SetTrigger", "UnityEngine.Animator", 185, "B5"),
        ("Image.set_sprite", "Image.sprite", "sprite", "UnityEngine.UI.Image", 223, "B6"),
    ],
)
def test_a_member_of_a_unity_component_lists_the_calls_on_it(
    tmp_path: Path, asked: str, name: str, member: str, cls: str, line: int, button: str
) -> None:
    target, usages = references_of(_panel(tmp_path), asked)
    bare = cls.rsplit(".", 1)[1]
    assert (target.kind, target.name, target.member, target.types) == ("builtin", name, member, [cls])
    assert render_target(target) == (
        f"Unity member {member} of {cls}  ({member} is Unity's {bare}.{member}, no member of the project's code:"
        f" the UnityEvent calls on {bare} objects (code calling it is not listed: `unity-index query"
        f" {bare}.{member}` searches the text))"
    )
    stored = f"{cls}.{'set_' if member == 'sprite' else ''}{member}"
    assert _calls(usages) == [("Assets/Panel.prefab", line, f"{button} > MyButton.m_OnClick(void) on Panel", stored)]


def test_a_unity_member_no_call_names_is_not_claimed(tmp_path: Path) -> None:
    """Only a saved call shows the member exists (the inspector offers no other): `AudioSource.Plya`
    stays unknown rather than "Unity's AudioSource.Plya"."""
    assert references_of(_panel(tmp_path), "AudioSource.Plya") == (None, [])  # the CLI: "no type, member, ..."


def test_a_member_code_uses_that_a_script_inherits_is_the_scripts_member(tmp_path: Path) -> None:
    """`Turret.transform`, `Turret.Invoke`, `Turret.Destroy`: Unity's members the code names, which
    no UnityEvent calls. "neither it nor a base class declares transform" was false."""
    code = (
        "using UnityEngine;\npublic class Turret : MonoBehaviour\n{\n    void Start()\n    {\n"
        '        transform.Rotate(0, 90, 0);\n        Invoke("Fire", 2f);\n    }\n'
        "    void Fire() { Destroy(gameObject); }\n}\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Turret.cs": code,
            "Assets/Turret.cs.meta": meta(GUN),
            "Assets/Ammo.cs": "using UnityEngine;\npublic class Ammo : ScriptableObject { }\n",
            "Assets/Ammo.cs.meta": meta(AMMO),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    for member, declarer, line in (
        ("transform", "Component", 6),
        ("Invoke", "MonoBehaviour", 7),
        ("Destroy", "Object", 9),
    ):
        target, usages = references_of(ws, f"Turret.{member}")
        assert render_target(target) == (
            f"member {member} of Turret  ({member} is Unity's {declarer}.{member}, which Turret inherits:"
            " the code naming it)"
        )
        assert [(u.path, u.line) for u in usages] == [("Assets/Turret.cs", line)]
    with pytest.raises(LookupFailed):  # a ScriptableObject is no Component
        references_of(ws, "Ammo.transform")
