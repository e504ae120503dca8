"""Defects found by new users' trials in session 34 (docs/retrieval.md, "session 34"), each a test
seen failing before its fix."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.lookup import find_references
from indexer.query.workspace import open_workspace, projects_at

from .conftest import meta, write_project
from .test_unity_event_targets import BUTTON, _behaviour, _header, _object, _on_click

SETTINGS, MENU = "b1" * 16, "b2" * 16

SETTINGS_CS = """using UnityEngine;

public class GameSettings : MonoBehaviour
{
    public float BackgroundVolume { get; set; }
    void Apply() { AudioListener.volume = BackgroundVolume; }
}
"""


def _asset_lines(ws, name: str) -> list[tuple[str, int, str]]:
    _target, usages = find_references(ws, name)
    return [(u.path, u.line, u.kind) for u in usages if u.where == "asset"]


def test_a_property_s_usages_include_the_unityevent_calls_setting_it(tmp_path: Path) -> None:
    """`refs GameSettings.BackgroundVolume` listed the code reading it, not the slider whose event
    sets it (`set_BackgroundVolume`), which `refs GameSettings` and `describe` of the scene showed."""
    menu = (
        _header()
        + _object(100, "Settings", [110])
        + _behaviour(110, 100, SETTINGS)
        + _object(200, "Volume", [210])
        + _behaviour(210, 200, BUTTON, _on_click(110, "GameSettings, Assembly-CSharp", "set_BackgroundVolume"))
    )
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/GameSettings.cs": SETTINGS_CS,
            "Assets/Scripts/GameSettings.cs.meta": meta(SETTINGS),
            "Assets/Scenes/Menu.unity": menu,
            "Assets/Scenes/Menu.unity.meta": meta(MENU, "DefaultImporter"),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    line = menu.splitlines().index("      - m_Target: {fileID: 110}") + 1  # a call is listed at its first line
    assert _asset_lines(ws, "GameSettings.BackgroundVolume") == [("Assets/Scenes/Menu.unity", line, "method")]


def test_a_script_file_s_usages_include_those_of_the_types_nested_in_it(tmp_path: Path) -> None:
    """`refs Weapon.cs` listed the installers naming `Weapon`, not `Player.cs` and `EnemySpawner.cs`
    holding a `Weapon.Factory`, a type Weapon.cs declares: the files that create weapons (docs/cli.md:
    "a script file's usages are those of every type it declares")."""
    root = write_project(
        tmp_path / "p",
        {
            "Assets/Scripts/Weapon.cs": (
                "using UnityEngine;\n\npublic class Weapon : MonoBehaviour\n{\n"
                "    public class Factory\n    {\n        public Weapon Create() => null;\n    }\n}\n"
            ),
            "Assets/Scripts/Weapon.cs.meta": meta("c1" * 16),
            "Assets/Scripts/Player.cs": (
                "using UnityEngine;\n\npublic class Player : MonoBehaviour\n{\n"
                "    private Factory _factory;\n    private Weapon.Factory _weapons;\n}\n"
            ),
            "Assets/Scripts/Player.cs.meta": meta("c2" * 16),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    _target, usages = find_references(ws, "Assets/Scripts/Weapon.cs")
    assert [(u.path, u.line) for u in usages if u.where == "code" and u.path != "Assets/Scripts/Weapon.cs"] == [
        ("Assets/Scripts/Player.cs", 6)
    ]
