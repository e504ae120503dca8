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


def _string_table(name: str, shared_guid: str, texts: list[str]) -> str:
    """The English table of the string table collection `name`, as Unity's Localization package
    writes it: each entry's id and text, and the collection's shared data by GUID."""
    item = "  - m_Id: {}\n    m_Localized: {}\n    m_Metadata:\n      m_Items: []\n"
    entries = "".join(item.format(i, t) for i, t in enumerate(texts))
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n"
        "  m_ObjectHideFlags: 0\n  m_GameObject: {fileID: 0}\n  m_Enabled: 1\n"
        "  m_Script: {fileID: 11500000, guid: e9620f8c34305754d8cc9a7e49e852d9, type: 3}\n"
        f"  m_Name: {name}_en\n  m_EditorClassIdentifier: \n  m_LocaleId:\n    m_Code: en\n"
        f"  m_SharedData: {{fileID: 11400000, guid: {shared_guid}, type: 2}}\n"
        f"  m_Metadata:\n    m_Items: []\n  m_TableData:\n{entries}"
    )


def _shared_data(name: str, keys: list[str]) -> str:
    """The shared data of the string table collection `name`: its keys by id."""
    item = "  - m_Id: {}\n    m_Key: {}\n    m_Metadata:\n      m_Items: []\n"
    entries = "".join(item.format(i, k) for i, k in enumerate(keys))
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n"
        "  m_ObjectHideFlags: 0\n  m_GameObject: {fileID: 0}\n  m_Enabled: 1\n"
        "  m_Script: {fileID: 11500000, guid: 5b11a58205ec3474ca216360e9fa74a8, type: 3}\n"
        f"  m_Name: {name} Shared Data\n  m_EditorClassIdentifier: \n  m_TableCollectionName: {name}\n"
        "  m_TableCollectionNameGuidString: 3bc310f2421c1a740ae0f7372d787911\n"
        f"  m_Entries:\n{entries}  m_Metadata:\n    m_Items: []\n  m_KeyGenerator:\n    rid: 0\n"
    )


def _guilds(tmp_path: Path) -> Path:
    """A role-playing game's guilds, whose rank titles are still written in the code, beside the
    string table collection `UI_Strings` (its English table and its shared data) holding the
    texts localized so far, and a second collection for the books."""
    guild = (
        "    // a guild the player joins: its rank titles and the reputation each needs\n"
        '    public string[] rankTitles = { "Apprentice", "Journeyman", "Master" };\n'
        "    public int[] rankReputation = { 0, 10, 40 };\n    public string RankTitle(int rank) => rankTitles[rank];"
    )
    table_dir = "Assets/Localization/StringTables"
    files = {
        "Assets/Scripts/Guilds/Guild.cs": mono_script("Guild", guild),
        "Assets/Scripts/Guilds/ThievesGuild.cs": mono_script(
            "ThievesGuild", "    // the thieves guild: ranks by stolen gold, not reputation\n    public int stolenGold;"
        ),
        "Assets/Scripts/Guilds/GuildWindow.cs": mono_script(
            "GuildWindow", "    // shows the guild, the player's rank and the next title\n    public Guild guild;"
        ),
        f"{table_dir}/UI_Strings_en.asset": _string_table(
            "UI_Strings", "c7000000000000000000000000000002", ["Join the guild?", "Promoted to the next rank"]
        ),
        f"{table_dir}/UI_Strings Shared Data.asset": _shared_data("UI_Strings", ["joinGuild", "promoted"]),
        f"{table_dir}/Books_en.asset": _string_table(
            "Books", "c7000000000000000000000000000004", ["The history of the realm"]
        ),
        f"{table_dir}/Books Shared Data.asset": _shared_data("Books", ["historyOfRealm"]),
    }
    guids = {f"{table_dir}/UI_Strings Shared Data.asset": 2, f"{table_dir}/Books Shared Data.asset": 4}
    for i, rel in enumerate(list(files)):
        files[f"{rel}.meta"] = meta(f"c7{guids.get(rel, 10 + i):030d}", "NativeFormatImporter")
    return write_project(tmp_path, files)


def test_a_task_localizing_text_has_the_string_tables_it_adds_to(tmp_path: Path) -> None:
    """ "Localize ranks of Temples, Thieves Guild" changed the two guilds' code and the string
    table collection the texts moved to: its English table 23rd, its shared data (the keys) out of
    the 60 best. A task whose verb is to localize ranks the string table its words match best and
    that table's shared data at 0.95 of the best match (`localizing.TABLE_SHARE`), saying so: here
    `UI_Strings` under the guild's code, above the window showing it; the books' table stays."""
    root = _guilds(tmp_path)
    tables = "Assets/Localization/StringTables"
    assert _ranked(root, "Localize rank titles of the guilds", 5) == [
        "Assets/Scripts/Guilds/Guild.cs",
        f"{tables}/UI_Strings Shared Data.asset",
        f"{tables}/UI_Strings_en.asset",
        "Assets/Scripts/Guilds/GuildWindow.cs",
        "Assets/Scripts/Guilds/ThievesGuild.cs",
    ]
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    best, hit = open_workspace(root, [(root, Config())]).search("feat(guilds): localise rank titles", 2)
    assert hit.path == f"{tables}/UI_Strings Shared Data.asset"
    assert "a string table: the task localizes text" in hit.reason
    assert round(hit.score / best.score, 3) == 0.95


def test_a_task_using_localized_text_reads_the_tables(tmp_path: Path) -> None:
    """Only the verb first makes a task localizing: "Use localized rank titles ..." reads the
    tables it names, and they keep their text match's rank, under the code."""
    from indexer.query.localizing import asks_localizing

    root = _guilds(tmp_path)
    assert _ranked(root, "Use localized rank titles of the guilds", 3) == [
        "Assets/Scripts/Guilds/Guild.cs",
        "Assets/Scripts/Guilds/GuildWindow.cs",
        "Assets/Scripts/Guilds/ThievesGuild.cs",
    ]
    assert [asks_localizing(t) for t in ("Localized the shop", "fix: localize prices", "Use localized names")] == [
        True,
        True,
        False,
    ]


def _waves(tmp_path: Path) -> Path:
    """A tower defence game's waves: the spawner, the HUD and the level director saying its name
    and the task's words more often than it does, and a package's timer the game uses."""
    files = {
        "Assets/Scripts/WaveSpawner.cs": mono_script(
            "WaveSpawner", "    public int[] enemiesPerWave;\n    int current;\n    public void Next() { current++; }"
        ),
        "Assets/Scripts/UI/WaveCounter.cs": mono_script(
            "WaveCounter",
            "    // shows the wave the WaveSpawner is on, and 'last wave' on the last wave; skips the\n"
            "    // counter's animation on the last wave\n    public WaveSpawner spawner;\n"
            '    public string lastWaveText = "Last wave";\n    public bool skipOnLastWave;',
        ),
        "Assets/Scripts/LevelDirector.cs": mono_script(
            "LevelDirector",
            "    // starts the WaveSpawner, ends the level after the last wave; skips the outro\n"
            "    public WaveSpawner spawner;\n    public WaveTimer timer;\n    public bool lastWaveDone;",
        ),
        "Packages/com.vendor.timers/Runtime/WaveTimer.cs": mono_script(
            "WaveTimer", "    // counts down seconds\n    public float seconds;"
        ),
    }
    for i, rel in enumerate(list(files)):
        files[f"{rel}.meta"] = meta(f"d8{i:030d}")
    return write_project(tmp_path, files)


def test_a_script_named_like_an_identifier_the_task_quotes_ranks_near_the_best(tmp_path: Path) -> None:
    """ "Fix for ProjectWideActionsExample scene" changed `ProjectWideActionsExample.cs`, 7th under
    test scenes saying the task's words more often; "Migrate OnClientConnectedCallback ... Updating
    the NetworkManagerTests" changed `NetworkManagerTests.cs`, 30th. A script of the project's own
    named like an identifier the task quotes ranks at 0.9 of the best match at least
    (`rank.QUOTED_SCRIPT_SHARE`): here the spawner 4th -> 2nd. Not a package's script: the
    `WaveTimer` it quotes is the package's API the game uses, and keeps its text match's score."""
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    root = _waves(tmp_path)
    task = "fix: WaveSpawner skips the last wave when the WaveTimer ends"
    assert _ranked(root, task, 4) == [
        "Assets/Scripts/LevelDirector.cs",
        "Assets/Scripts/WaveSpawner.cs",
        "Packages/com.vendor.timers/Runtime/WaveTimer.cs",
        "Assets/Scripts/UI/WaveCounter.cs",
    ]
    best, spawner, timer = open_workspace(root, [(root, Config())]).search(task, 3, named=False)
    assert round(spawner.score / best.score, 3) == 0.9
    assert timer.score < 0.89 * best.score


def _calibration(tmp_path: Path) -> Path:
    """A rhythm game's calibration guide, the app's context knowing whether it runs in the editor,
    and editor tools (an inspector of the guide, a build step) saying "editor" in their paths."""
    files = {
        "Assets/Scripts/CalibrationGuide.cs": mono_script(
            "CalibrationGuide",
            "    // the calibration guide shown before the first game: taps to a beat to measure the offset\n"
            "    public float offset;\n    public void Show() { }",
        ),
        "Assets/Scripts/AppContext.cs": mono_script(
            "AppContext",
            "    // the app's context: whether the guide was shown, whether we run in the editor\n"
            "    public static bool guideShown;\n    public static bool InEditor => Application.isEditor;",
        ),
        "Assets/Scripts/Game.cs": mono_script("Game", "    // plays a chart\n    public float offset;"),
        "Assets/Scripts/Tools/Editor/CalibrationGuideInspector.cs": mono_script(
            "CalibrationGuideInspector", "    // the inspector of the calibration guide: a button to show it\n"
        ),
        "Assets/Scripts/Tools/Editor/SkipSplashBuildStep.cs": mono_script(
            "SkipSplashBuildStep", "    // a build step: skip the splash screen\n"
        ),
    }
    for i, rel in enumerate(list(files)):
        files[f"{rel}.meta"] = meta(f"e9{i:030d}")
    return write_project(tmp_path, files)


def test_in_editor_is_where_the_game_runs_not_editor_code(tmp_path: Path) -> None:
    """ "chore(dx): skip calibration guide in editor" changed `Context.cs` (runtime code asking
    whether it runs in the editor), 12th under third-party editor scripts matching "editor" by
    their folder, unranked since the task said "editor". Said only as where the game runs ("in
    editor", "in the Unity editor"; `file_roles.role_terms`), the word leaves editor scripts their
    prior: here the app's context 4th -> 3rd, above the editor's build step."""
    from indexer.query.file_roles import role_terms

    root = _calibration(tmp_path)
    assert _ranked(root, "chore: skip calibration guide in editor", 4) == [
        "Assets/Scripts/CalibrationGuide.cs",
        "Assets/Scripts/Tools/Editor/CalibrationGuideInspector.cs",
        "Assets/Scripts/AppContext.cs",
        "Assets/Scripts/Tools/Editor/SkipSplashBuildStep.cs",
    ]
    terms = ["fix", "editor"]
    assert role_terms(terms, "fix: the guide shows twice when testing in the Unity editor") == ["fix"]
    for text in ("crash in the editor window", "In the editor's Quick Actions window", "level editor in editor"):
        assert role_terms(terms, text) == terms
