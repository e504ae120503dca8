"""A key the task says is pressed, read from the Input System's keyboard straight
(`Keyboard.current.enterKey.wasPressedThisFrame`, `keyboard[Key.Space]`): a held-out question,
"pressing Enter shoots out physics cubes", had the thrower system outside the top 20 while the
key-readers rule saw only the Input Manager's `KeyCode` (session 49's trial named it, session 50)."""

from __future__ import annotations

from pathlib import Path

from indexer.config import Config
from indexer.query.keys_pressed import key_readers
from indexer.query.workspace import open_workspace

from .conftest import meta, mono_script, write_project
from .conftest import ranked_paths as _ranked

THROWER = (
    "    public GameObject cube;\n    void Update()\n    {\n"
    "        if (Keyboard.current.enterKey.wasPressedThisFrame) { Instantiate(cube); }\n    }"
)


def _lab(tmp_path: Path) -> Path:
    """A physics sample: cube scripts talk of cubes and their lifetime; the thrower reads Enter."""
    files = {
        "Assets/Scripts/CubeLifetime.cs": mono_script(
            "CubeLifetime", "    // physics cubes vanish after their lifetime\n    public float cubeLifetime = 3f;"
        ),
        "Assets/Scripts/CubeColor.cs": mono_script(
            "CubeColor", "    // tints the physics cubes\n    public Color cubeColor;"
        ),
        "Assets/Scripts/CubeSpin.cs": mono_script(
            "CubeSpin", "    // spins the physics cubes\n    public float cubeSpin;"
        ),
        "Assets/Scripts/Thrower.cs": mono_script("Thrower", THROWER),
        "Assets/Scripts/Jumper.cs": mono_script(
            "Jumper", "    void Update() { if (Keyboard.current[Key.Space].wasPressedThisFrame) { } }"
        ),
        "Assets/Scripts/FlyCam.cs": mono_script(
            "FlyCam", "    void Update() { if (Keyboard.current.wKey.isPressed) { } }"
        ),
    }
    for i, name in enumerate(["CubeLifetime", "CubeColor", "CubeSpin", "Thrower", "Jumper", "FlyCam"]):
        files[f"Assets/Scripts/{name}.cs.meta"] = meta(f"b50000000000000000000000000000{i:02d}")
    return write_project(tmp_path, files)


def test_the_scripts_reading_a_key_from_the_input_systems_keyboard(tmp_path: Path) -> None:
    root = _lab(tmp_path)
    _ranked(root, "index it")
    project = open_workspace(root, [(root, Config())]).projects[0]
    assert key_readers(project, {"enter", "numpadenter"}) == {"Assets/Scripts/Thrower.cs": "enterKey"}
    assert key_readers(project, {"space"}) == {"Assets/Scripts/Jumper.cs": "Key.Space"}
    assert key_readers(project, {"w"}) == {"Assets/Scripts/FlyCam.cs": "wKey"}
    assert key_readers(project, {"q"}) == {}


def test_a_key_pressed_ranks_the_script_reading_it_from_the_keyboard(tmp_path: Path) -> None:
    """The thrower says no word of the task but the key: unranked -> 2nd."""
    root = _lab(tmp_path)
    assert _ranked(root, "pressing Enter shoots out physics cubes that vanish after a while", 3)[1] == (
        "Assets/Scripts/Thrower.cs"
    )
