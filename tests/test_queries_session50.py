"""The commit-message benchmark's misses (docs/retrieval.md, session 50): what was fixed, each on a
small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.query.priors import vendor_package

from .conftest import meta, write_project
from .conftest import ranked_paths as _ranked


def _tests(name: str, body: str) -> str:
    """An NUnit test class `name` with `body` as its members."""
    return f"using NUnit.Framework;\npublic class {name}\n{{\n{body}\n}}\n"


def _input_package(tmp_path: Path) -> Path:
    """A package's test project, as an input library's repository holds one: the core tests in
    `Assets/Tests/`, the tests of its touch and user plugins in `Assets/Tests/Plugins/`, a kit's own
    tests shipped under `Assets/Plugins/`."""
    files = {
        "Assets/Tests/CoreTests.cs": _tests(
            "CoreTests",
            "    [Test] public void Devices_CanAddDevice() { }\n"
            "    [Test] public void Devices_TouchscreenHasPrimaryTouch() { } // a touch device\n"
            "    [Test] public void State_CanReadTapCount() { }\n"
            "    [Test] public void Events_FocusLossResetsDevices() { } // on focus loss\n"
            "    [Test] public void Devices_TouchesCanceledWhenRemoved() { } // touch, touches canceled\n"
            "    [Test] public void Devices_ActiveTouchIdsAreUnique() { } // active touches",
        ),
        "Assets/Tests/CoreTests.cs.meta": meta("a5000000000000000000000000000001"),
        "Assets/Tests/Plugins/TouchTests.cs": _tests(
            "TouchTests",
            "    [Test] public void Touch_ActiveTouchesAreCanceledOnFocusLoss() { }\n"
            "    [Test] public void Touch_TapCountIsKept() { }",
        ),
        "Assets/Tests/Plugins/TouchTests.cs.meta": meta("a5000000000000000000000000000002"),
        "Assets/Tests/Plugins/UserTests.cs": _tests(
            "UserTests",
            "    [Test] public void Users_CanPairDevice() { }\n    [Test] public void Users_InvalidUser() { }",
        ),
        "Assets/Tests/Plugins/UserTests.cs.meta": meta("a5000000000000000000000000000003"),
        "Assets/Plugins/TouchKit/Tests/TouchKitTests.cs": _tests(
            "TouchKitTests", "    [Test] public void Swipe_TouchesGiveDirection() { }"
        ),
        "Assets/Plugins/TouchKit/Tests/TouchKitTests.cs.meta": meta("a5000000000000000000000000000004"),
    }
    return write_project(tmp_path, files)


def test_a_plugins_folder_inside_a_test_folder_is_the_projects_own() -> None:
    """`Plugins` names a folder of third-party code, except below a test folder: there it groups
    the project's tests by what they test (no kit is dropped into a test folder). A kit's own tests,
    below its `Plugins` folder, stay the kit's."""
    assert vendor_package("Assets/Tests/InputSystem/Plugins/UITests.cs", ()) is None
    assert vendor_package("Assets/Tests/Plugins/UserTests.cs", ()) is None
    assert vendor_package("Assets/Test/External/ExternalTests.cs", ()) is None
    assert vendor_package("Assets/Plugins/TouchKit/Tests/TouchKitTests.cs", ()) == "TouchKit"
    assert vendor_package("Assets/Plugins/TouchKit/Touch.cs", ()) == "TouchKit"
    assert vendor_package("Assets/Game/Plugins/DOTween/Tween.cs", ()) == "DOTween"


def test_the_tests_of_a_plugin_rank_with_the_other_tests(tmp_path: Path) -> None:
    """ "Touch.activeTouches not canceled on focus loss" changed the touch plugin's tests, in
    `Assets/Tests/Plugins/`, which ranked at the third-party prior (0.4) below the core tests that
    mention touch and focus loss in passing (InputSystem's `UITests.cs`, `UserTests.cs`,
    `XRTests.cs`: 15th to 38th). Now the plugin's tests lead; the kit's own tests, under
    `Assets/Plugins/`, stay at the third-party prior below the project's."""
    root = _input_package(tmp_path)
    assert _ranked(root, "FIX: Touch.activeTouches not canceled on focus loss", 5) == [
        "Assets/Tests/Plugins/TouchTests.cs",
        "Assets/Tests/CoreTests.cs",
        "Assets/Plugins/TouchKit/Tests/TouchKitTests.cs",
    ]
