"""The commit-message benchmark's misses (docs/retrieval.md, session 50): what was fixed, each on a
small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.query.vendored import vendor_package

from .conftest import meta, mono_script, write_project
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


def _farm(tmp_path: Path) -> Path:
    """A farming game grouping its crop code in `Assets/Scripts/CropGrowth/` (no file of that
    name), its storage and its weather elsewhere, saying some of the task's other words."""
    files = {
        "Assets/Scripts/CropGrowth/Seedling.cs": mono_script(
            "Seedling",
            "    // a planted seed: grows a stage a day while watered\n    public int stage;\n    public bool watered;",
        ),
        "Assets/Scripts/CropGrowth/Seedling.cs.meta": meta("a5000000000000000000000000000011"),
        "Assets/Scripts/CropGrowth/Harvest.cs": mono_script(
            "Harvest", "    // picks a ripe crop\n    public int yield;"
        ),
        "Assets/Scripts/CropGrowth/Harvest.cs.meta": meta("a5000000000000000000000000000012"),
        "Assets/Scripts/FarmStorage.cs": mono_script(
            "FarmStorage",
            "    // saves and loads the farm: the stage of every plot\n"
            "    public void Save() { }\n    public void Load() { }\n    public int savedDay;",
        ),
        "Assets/Scripts/FarmStorage.cs.meta": meta("a5000000000000000000000000000013"),
        "Assets/Scripts/Weather.cs": mono_script(
            "Weather", "    // rain waters every plot for the day\n    public bool raining;\n    public int dayOfRain;"
        ),
        "Assets/Scripts/Weather.cs.meta": meta("a5000000000000000000000000000014"),
    }
    return write_project(tmp_path, files)


def test_a_folder_named_like_an_identifier_the_task_quotes_holds_its_files(tmp_path: Path) -> None:
    """ "Active scene not being added to server side NetworkSceneManager scenes loaded" changed the
    tests in `Tests/Runtime/NetworkSceneManager/`, 6th under scenes saying "scene" more often;
    "InputDeviceTester only shows first touch contact" a script of the `InputDeviceTester/` sample,
    11th. A text match below a folder named like an identifier the task quotes scores 1.5 times
    more (`named_folders.FOLDER_GAIN`) and says so: here the seedling leads the farm's storage,
    which says "saves" and "stage" too."""
    root = _farm(tmp_path)
    assert _ranked(root, "fix: CropGrowth stage not saved after a day", 3) == [
        "Assets/Scripts/CropGrowth/Seedling.cs",
        "Assets/Scripts/FarmStorage.cs",
        "Assets/Scripts/CropGrowth/Harvest.cs",
    ]
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    best = open_workspace(root, [(root, Config())]).search("fix: CropGrowth stage not saved after a day", 1)[0]
    assert best.reason == "text match; in CropGrowth/, which the task names"


def test_a_plain_word_names_no_folder(tmp_path: Path) -> None:
    """Only a quoted identifier names a folder: "crop growth" said in words raises nothing, and the
    farm's storage leads as before."""
    root = _farm(tmp_path)
    assert _ranked(root, "fix: crop growth stage not saved after a day", 1) == ["Assets/Scripts/FarmStorage.cs"]


def test_an_acronyms_plural_quotes_no_name() -> None:
    """ "RPCs", "NPCs", "IDs" are words (identifier splitting takes them for two-part names): a
    held-out question "comparing network variables with RPCs" had the `RPCs/` use case's files
    raised over the answer in `NetvarVsRpc/`."""
    from indexer.identifiers import quoted_names

    assert quoted_names("the RPCs and NPCs of PlayerHealth, their IDs in snake_case") == {
        "playerhealth",
        "snake_case",
    }


def test_a_packages_own_folder_is_no_feature_folder() -> None:
    """A task naming a tool ("a second editor with ParrelSync") asks about the game's use of it:
    the package's own folder below `Packages/` is not one the task names; a folder inside it is."""
    from indexer.query.named_folders import _named_folder

    assert _named_folder("Packages/ParrelSync/Editor/ClonesManager.cs", frozenset({"parrelsync"})) is None
    assert _named_folder("Packages/com.game.farm/Runtime/CropGrowth/Seedling.cs", frozenset({"cropgrowth"})) == (
        "CropGrowth"
    )
    assert _named_folder("Assets/Scripts/CropGrowth/Seedling.cs", frozenset({"cropgrowth"})) == "CropGrowth"


def test_a_kit_the_task_names_gains_nothing_more(tmp_path: Path) -> None:
    """Third-party code in a folder the task names is not raised: the package rule already lifts
    the third-party prior of a kit the task names, and the answer is the game's use of it."""
    root = _farm(tmp_path)
    write_project(
        root,
        {
            "Assets/Plugins/WeatherKit/RainMaker.cs": mono_script(
                "RainMaker", "    // makes rain for a day\n    public float rainPerDay;"
            ),
            "Assets/Plugins/WeatherKit/RainMaker.cs.meta": meta("a5000000000000000000000000000015"),
        },
    )
    _ranked(root, "WeatherKit rain not saved after a day")
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    hits = open_workspace(root, [(root, Config())]).search("WeatherKit rain not saved after a day", 5, named=False)
    assert [(h.path, h.reason) for h in hits if h.path.startswith("Assets/Plugins/")] == [
        ("Assets/Plugins/WeatherKit/RainMaker.cs", "text match")
    ]
