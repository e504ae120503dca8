"""Promises of docstrings in modules changed over sessions 48-49 that no test held: each test
was seen failing with the mechanism it pins broken (the commit that added it says how)."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.model import Ranked
from indexer.query import keys_pressed
from indexer.query.workspace import open_workspace

from .conftest import mono_script, write_project
from .test_trials2_session47 import _shop


def _project(root: Path):
    update(root, Config(workers=1))
    return open_workspace(root, [(root, Config())]).projects[0]


def test_past_readers_read_files_saying_keycode_no_key_reader_is_found(tmp_path: Path) -> None:
    """keys_pressed.key_readers: "none when more than READERS_READ do" (40 files saying `KeyCode`
    or `GetKey`): their texts are not read; at 40 the one reading M is found."""
    assert keys_pressed.READERS_READ == 40
    files = {"Assets/Hud.cs": mono_script("Hud", "    void Update() { if (Input.GetKey(KeyCode.M)) { } }")}
    files |= {
        f"Assets/Debug{i:02}.cs": mono_script(f"Debug{i:02}", "    void Update() { Input.GetKey(KeyCode.F1); }")
        for i in range(39)
    }
    at = write_project(tmp_path / "At", files)
    assert keys_pressed.key_readers(_project(at), {"m"}) == {"Assets/Hud.cs": "KeyCode.M"}
    past = write_project(
        tmp_path / "Past", {**files, "Assets/Debug39.cs": files["Assets/Debug00.cs"].replace("00", "39")}
    )
    assert keys_pressed.key_readers(_project(past), {"m"}) == {}


def _receivers(tmp_path: Path, n: int) -> dict[str, list[str]]:
    """The shop's project with `n` scripts more receiving `OnBuyMenu`: the reasons of those
    `raise_pressed_keys` raised for "press B", from a ranking holding the shop's menu alone."""
    extra = {
        f"Assets/Scripts/Listener{i}.cs": (
            "using UnityEngine;\nusing UnityEngine.InputSystem;\n"
            f"public class Listener{i} : MonoBehaviour\n{{\n    void OnBuyMenu(InputValue value) {{ }}\n}}\n"
        )
        for i in range(n)
    }
    root = _shop(tmp_path)
    write_project(root, extra)
    ranked = {"Assets/Scripts/TowerShopMenu.cs": Ranked("Assets/Scripts/TowerShopMenu.cs", 10.0, ["text match"])}
    keys_pressed.raise_pressed_keys(_project(root), ranked, "When I press B, what opens the tower shop?")
    return {p: r.reasons for p, r in ranked.items() if p != "Assets/Scripts/TowerShopMenu.cs" and r.score == 8.0}


def test_a_keys_action_received_by_more_than_most_receivers_raises_none(tmp_path: Path) -> None:
    """keys_pressed.raise_pressed_keys: "at most MOST_RECEIVERS (3), each to KEY_SHARE (0.8) of the
    best match's score": three receivers of B's action are raised, four none."""
    assert (keys_pressed.MOST_RECEIVERS, keys_pressed.KEY_SHARE) == (3, 0.8)
    said = ["receives input action BuyMenu (<Keyboard>/b) as OnBuyMenu"]
    assert _receivers(tmp_path / "three", 2) == {
        "Assets/Scripts/Listener0.cs": said,
        "Assets/Scripts/Listener1.cs": said,
        "Assets/Scripts/PlayerEventListener.cs": said,
    }
    assert _receivers(tmp_path / "four", 3) == {}
