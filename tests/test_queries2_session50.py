"""The commit-message benchmark's misses, round 2 (docs/retrieval.md, session 50): what was fixed,
each on a small project of its own."""

from __future__ import annotations

from pathlib import Path

from .conftest import meta, mono_script, write_project
from .conftest import ranked_paths as _ranked


def _menus(tmp_path: Path) -> Path:
    """A game's in-game menu: a manager in `UI/GameMenu/` opening its pages, each page's code in a
    folder of its own (`Options/`, `Quest/`, `Settings/`), and the quests' model elsewhere."""
    menu = "Assets/Scripts/UI/GameMenu"
    files = {
        f"{menu}/GameMenuManager.cs": mono_script(
            "GameMenuManager",
            "    // opens a page of the game menu: the options, the quest log, the settings\n"
            "    public GameMenuOptions options;\n    public QuestLogPage questLog;\n"
            "    public GameMenuSettings settings;",
        ),
        f"{menu}/Options/GameMenuOptions.cs": mono_script(
            "GameMenuOptions", "    // the options page: volume and language\n    public float volume;"
        ),
        f"{menu}/Quest/QuestLogPage.cs": mono_script(
            "QuestLogPage", "    // the quest log page of the game menu\n    public QuestLogRow rowPrefab;"
        ),
        f"{menu}/Quest/QuestLogRow.cs": mono_script(
            "QuestLogRow", "    // one quest in the log: its title and whether it is done\n    public bool done;"
        ),
        f"{menu}/Settings/GameMenuSettings.cs": mono_script(
            "GameMenuSettings", "    // the settings page: the graphics quality\n    public int quality;"
        ),
        "Assets/Scripts/Models/Player.cs": mono_script(
            "Player", "    // the player: takes a quest, opens the game menu\n    public int gold;"
        ),
    }
    for i, rel in enumerate(list(files)):
        files[f"{rel}.meta"] = meta(f"b6{i:030d}")
    return write_project(tmp_path, files)


def test_a_typed_folder_path_names_its_last_folder(tmp_path: Path) -> None:
    """ "StyleCop fixes in UI/DialogBox/Options/* and Quest/*" changed the files of those two
    folders; `MainScreenQuestList.cs` of `DialogBox/Quest/` was 14th, under every dialog box raised
    as in the quoted `DialogBox` folder. A path the task types with a glob names its last folder:
    a text match below it scores 1.5 times more (`named_folders.FOLDER_GAIN`), and an identifier
    inside the path (`GameMenu`) names no folder of its own: here the quest pages lead the
    settings page, which was 3rd above them, raised with them as in `GameMenu/`."""
    root = _menus(tmp_path)
    task = "Code cleanup in UI/GameMenu/Options/* and Quest/*"
    assert _ranked(root, task, 5) == [
        "Assets/Scripts/UI/GameMenu/Options/GameMenuOptions.cs",
        "Assets/Scripts/UI/GameMenu/GameMenuManager.cs",
        "Assets/Scripts/UI/GameMenu/Quest/QuestLogPage.cs",
        "Assets/Scripts/UI/GameMenu/Quest/QuestLogRow.cs",
        "Assets/Scripts/UI/GameMenu/Settings/GameMenuSettings.cs",
    ]
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    page = open_workspace(root, [(root, Config())]).search(task, 3)[2]
    assert page.reason.startswith("text match; in Quest/, which the task names")


def test_what_a_typed_path_is() -> None:
    """A glob or a slash after the last name makes a folder path; without either it needs a project
    root first, since words with slashes between are a choice; a file's path names no folder."""
    from indexer.query.named_folders import typed_folders

    assert typed_folders("StyleCop fixes in UI/DialogBox/Options/* and Quest/*")[0] == (
        ("ui", "dialogbox", "options"),
        ("quest",),
    )
    assert typed_folders("tidy Scripts/UI/ and Assets/Scripts/Enemies.")[0] == (
        ("scripts", "ui"),
        ("assets", "scripts", "enemies"),
    )
    assert typed_folders("Editor/**/*.cs")[0] == (("editor",),)
    for text in ("Localize weapon/armor format strings", "small/medium/large", "fix Assets/Scripts/Player.cs"):
        assert typed_folders(text) == ((), text)
