"""Input System action assets (`.inputactions`): scanned into maps, actions with their bindings and
control schemes (scanners/inputactions.py), searchable and linked to their generated class."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.model import Ref, Symbol
from indexer.project import kind_of
from indexer.query.workspace import open_workspace, projects_at
from indexer.scanners import scan

from .conftest import meta, write_project
from .test_indexing import CONFIG

CONTROLS = """{
    "name": "CrawlerControls",
    "maps": [
        {
            "name": "Gameplay",
            "id": "0b8e4c8a-1d1e-4c1a-9b55-2f3a8f0e6a01",
            "actions": [
                {
                    "name": "Move",
                    "type": "Value",
                    "id": "5d0f3a7e-2f7c-4b4e-a0d3-6c1b7c2e9f11",
                    "expectedControlType": "Vector2"
                },
                {
                    "name": "Attack",
                    "type": "Button",
                    "id": "9a7c1e22-3b44-4d0e-8f5a-1c2d3e4f5a61"
                },
                {
                    "name": "Dodge",
                    "type": "Button",
                    "id": "1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a51"
                }
            ],
            "bindings": [
                {
                    "name": "WASD",
                    "id": "aa000000-0000-0000-0000-000000000001",
                    "path": "2DVector",
                    "action": "Move",
                    "isComposite": true,
                    "isPartOfComposite": false
                },
                {
                    "name": "up",
                    "id": "aa000000-0000-0000-0000-000000000002",
                    "path": "<Keyboard>/upArrow",
                    "groups": "Keyboard",
                    "action": "Move",
                    "isComposite": false,
                    "isPartOfComposite": true
                },
                {
                    "name": "down",
                    "id": "aa000000-0000-0000-0000-000000000003",
                    "path": "<Keyboard>/downArrow",
                    "groups": "Keyboard",
                    "action": "Move",
                    "isComposite": false,
                    "isPartOfComposite": true
                },
                {
                    "name": "",
                    "id": "aa000000-0000-0000-0000-000000000004",
                    "path": "<Keyboard>/space",
                    "groups": "Keyboard;Gamepad",
                    "action": "Attack",
                    "isComposite": false,
                    "isPartOfComposite": false
                },
                {
                    "name": "",
                    "id": "aa000000-0000-0000-0000-000000000005",
                    "path": "<Gamepad>/buttonSouth",
                    "groups": "",
                    "action": "Attack",
                    "isComposite": false,
                    "isPartOfComposite": false
                },
                {
                    "name": "",
                    "id": "aa000000-0000-0000-0000-000000000006",
                    "path": "<Keyboard>/q",
                    "action": "Nowhere",
                    "isComposite": false,
                    "isPartOfComposite": false
                }
            ]
        },
        {
            "name": "Menus",
            "id": "0b8e4c8a-1d1e-4c1a-9b55-2f3a8f0e6a02",
            "actions": [
                {
                    "name": "Pause",
                    "type": "Button",
                    "id": "77777777-0000-0000-0000-000000000001"
                },
                "not an action",
                {
                    "type": "Button"
                }
            ],
            "bindings": []
        }
    ],
    "controlSchemes": [
        {
            "name": "Keyboard",
            "bindingGroup": "Keyboard",
            "devices": [
                {"devicePath": "<Keyboard>", "isOptional": false, "isOR": false},
                {"devicePath": "<Mouse>", "isOptional": true, "isOR": false}
            ]
        }
    ]
}
"""
WRAPPER = """using UnityEngine.InputSystem;
public partial class @CrawlerControls : IInputActionCollection2
{
    public InputActionAsset asset { get; }
}
"""
PATH = "Assets/Input/CrawlerControls.inputactions"


def test_an_inputactions_file_is_its_own_kind() -> None:
    assert kind_of(PATH) == "input_actions"


def test_maps_actions_bindings_and_schemes_are_read_with_their_lines() -> None:
    rec = scan(PATH, "input_actions", CONTROLS.encode())
    assert (rec.kind, rec.status, rec.note) == ("input_actions", "ok", "")
    assert rec.symbols == (
        Symbol("input_actions", "CrawlerControls", 2),
        Symbol("action_map", "Gameplay", 5, container="CrawlerControls"),
        Symbol(
            "input_action", "Move", 9, container="CrawlerControls.Gameplay",
            signature="Move (Value): WASD(up: <Keyboard>/upArrow, down: <Keyboard>/downArrow)",
        ),
        Symbol(
            "input_action", "Attack", 15, container="CrawlerControls.Gameplay",
            signature="Attack (Button): <Keyboard>/space [Keyboard, Gamepad], <Gamepad>/buttonSouth",
        ),
        Symbol("input_action", "Dodge", 20, container="CrawlerControls.Gameplay", signature="Dodge (Button)"),
        Symbol("action_map", "Menus", 81, container="CrawlerControls"),
        Symbol("input_action", "Pause", 85, container="CrawlerControls.Menus", signature="Pause (Button)"),
        Symbol(
            "control_scheme", "Keyboard", 99, container="CrawlerControls",
            signature="Keyboard: <Keyboard>, <Mouse> (optional)",
        ),
    )  # fmt: skip
    assert rec.refs == (Ref("type", "CrawlerControls", 2),)


def test_lines_are_those_of_each_name_in_the_text() -> None:
    lines = CONTROLS.splitlines()
    rec = scan(PATH, "input_actions", CONTROLS.encode())
    for s in rec.symbols:
        assert f'"name": "{s.name}"' in lines[s.line - 1]


def test_an_asset_without_a_name_is_named_by_its_file() -> None:
    rec = scan(PATH, "input_actions", b'{"maps": []}')
    assert rec.symbols == (Symbol("input_actions", "CrawlerControls", 1),)


def test_what_is_not_an_action_asset_is_skipped_with_a_reason() -> None:
    assert scan(PATH, "input_actions", b"[1, 2]").note == "input actions are not a JSON object"
    broken = scan(PATH, "input_actions", b'{"name": "X", "maps": [')
    assert broken.status == "skipped" and broken.note.startswith("invalid JSON")
    assert scan(PATH, "input_actions", b'{"name": "\xff"}').status == "skipped"


def test_the_arrow_keys_find_the_asset_linked_to_its_generated_class(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "Game",
        {
            PATH: CONTROLS,
            f"{PATH}.meta": meta("c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1", "ScriptedImporter"),
            "Assets/Input/CrawlerControls.cs": WRAPPER,
            "Assets/Input/CrawlerControls.cs.meta": meta("c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2"),
        },
    )
    update(root, CONFIG)
    ws = open_workspace(root, projects_at(root))
    hits = ws.search("change the arrow keys that move the player", 5)
    assert hits[0].path == PATH
    assert (hits[0].name, hits[0].line) == ("CrawlerControls.Gameplay.Move", 9)
    assert ("Assets/Input/CrawlerControls.cs", "type") in ws.projects[0].graph.uses(PATH)


def test_a_player_input_sending_messages_is_a_usage_of_the_methods_named_after_its_actions(tmp_path: Path) -> None:
    """A trial: a player's `OnMove`, `OnAttack` and `OnRestart`, which a PlayerInput set to Send
    Messages calls by name, read "no usages found". A PlayerInput invoking UnityEvents calls none
    by name; an action named "quick dodge" is sent as `OnQuickDodge`."""
    from indexer.query.messages import PLAYER_INPUT, action_message

    controls = CONTROLS.replace('"name": "Dodge"', '"name": "quick dodge"')
    hero = (
        "using UnityEngine;\npublic class Hero : MonoBehaviour {\n"
        "  void OnAttack() { }\n  void OnQuickDodge() { }\n  void OnJump() { }\n}\n"
    )

    def prefab(behaviour: int) -> str:
        return (
            "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
            "--- !u!1 &100\nGameObject:\n  m_Component:\n  - component: {fileID: 200}\n  m_Name: Hero\n"
            "--- !u!114 &200\nMonoBehaviour:\n  m_GameObject: {fileID: 100}\n  m_Enabled: 1\n"
            f"  m_Script: {{fileID: 11500000, guid: {PLAYER_INPUT}, type: 3}}\n"
            "  m_Actions: {fileID: -944628639613478452, guid: 55555555555555555555555555555555, type: 3}\n"
            f"  m_NotificationBehavior: {behaviour}\n  m_DefaultActionMap: Gameplay\n"
        )

    files = {
        "Assets/Controls.inputactions": controls,
        "Assets/Controls.inputactions.meta": meta("55555555555555555555555555555555", "ScriptedImporter"),
        "Assets/Hero.cs": hero,
        "Assets/Hero.prefab": prefab(0),
        "Assets/HeroEvents.prefab": prefab(2),
    }
    root = write_project(tmp_path / "P", files)
    update(root, CONFIG)
    graph = open_workspace(root, projects_at(root)).projects[0].graph
    assert action_message("quick dodge") == "OnQuickDodge"

    def sent(member: str) -> list[tuple[str, int, str]]:
        return [
            (u.path, u.line, u.detail) for u in graph.references(graph.target(member)) if u.context == "PlayerInput"
        ]

    assert sent("Hero.OnAttack") == [
        ("Assets/Hero.prefab", 13, "Hero > PlayerInput (Send Messages) calls OnAttack for action Gameplay/Attack")
    ]
    assert [p for p, _, _ in sent("Hero.OnQuickDodge")] == ["Assets/Hero.prefab"]
    assert sent("Hero.OnJump") == []  # no action named Jump
