"""Session 56's three small misses (docs/retrieval.md, "Session 56, three small misses"): a word
the task joins by hyphens outside quotes is looked for as written in the data assets (quotes.hyphenated);
a task asking which file lists every item of a kind is read as saying "asset" (asking.said_asked)."""

from __future__ import annotations

from pathlib import Path

from indexer.query.asking import said_asked
from indexer.query.quotes import hyphenated

from .conftest import data_asset, filler_scripts, meta, mono_script, write_project
from .conftest import ranked_paths as _ranked

UPGRADE = "a5600000000000000000000000000001"


def _upgrades(tmp_path: Path) -> Path:
    """An idle game's upgrades: `BotTasks.asset` is named for the task's "bots"; `Automation.asset`
    holds "auto-bots" and "auto-research" in its description; scripts say auto, bots and research
    (one of them "auto-bots" in a comment, which is code, not the text a player reads)."""
    files = {
        "Assets/Scripts/Upgrade.cs": (
            "using UnityEngine;\npublic class Upgrade : ScriptableObject\n{\n"
            "  public string upgradeName;\n  public string description;\n  public int cost = 1;\n}\n"
        ),
        "Assets/Scripts/Upgrade.cs.meta": meta(UPGRADE),
        "Assets/Scripts/BotManager.cs": mono_script(
            "BotManager", "public int bots; public bool autoBots; // auto-bots buy bots\nvoid Update() { }"
        ),
        "Assets/Scripts/BotManager.cs.meta": meta("a5600000000000000000000000000002"),
        "Assets/Scripts/ResearchManager.cs": mono_script(
            "ResearchManager", "public bool autoResearch; public int research; // research points\nvoid Update() { }"
        ),
        "Assets/Scripts/ResearchManager.cs.meta": meta("a5600000000000000000000000000003"),
        "Assets/Data/BotTasks.asset": data_asset(
            UPGRADE, "BotTasks", "  upgradeName: Bot Tasks\n  description: Bots work two tasks at once\n  cost: 3\n"
        ),
        "Assets/Data/BotTasks.asset.meta": meta("a5600000000000000000000000000004", "NativeFormatImporter"),
        "Assets/Data/Automation.asset": data_asset(
            UPGRADE,
            "Automation",
            "  upgradeName: Automation\n  description: Enables auto-bots and auto-research\n  cost: 4\n",
        ),
        "Assets/Data/Automation.asset.meta": meta("a5600000000000000000000000000005", "NativeFormatImporter"),
    }
    for i, words in enumerate(("Auto research for bots", "Bots research auto", "Research turns bots auto")):
        files[f"Assets/Data/Research{i}.asset"] = data_asset(
            UPGRADE, f"Research{i}", f"  upgradeName: Research {i}\n  description: {words}\n  cost: 2\n"
        )
        files[f"Assets/Data/Research{i}.asset.meta"] = meta(f"b{i}" + "56" * 15, "NativeFormatImporter")
    said = lambda i: f"public bool autoBots{i}, autoResearch{i}; // turns on auto bots, auto research"  # noqa: E731
    files |= filler_scripts("Assets/Scripts/Ui", "Panel", said, "a")
    return write_project(tmp_path, files)


TASK = "Which asset makes the upgrade that turns on auto-bots and auto-research cost one point?"


def test_the_words_a_task_joins_by_hyphens() -> None:
    """Letters joined by hyphens outside quotes, each run two letters or more; not a quoted one,
    a single letter's ("x-axis"), a number's ("2-player") or a file name's."""
    assert hyphenated(TASK) == ["auto-bots", "auto-research"]
    assert hyphenated('the "power-up" gives a double-jump on the x-axis in 2-player, see Foo-Bar.prefab') == [
        "double-jump"
    ]


def test_a_data_asset_holding_a_hyphenated_word_rises(tmp_path: Path) -> None:
    """`Automation.asset` holds "auto-bots": raised by half a quote's gain it is 3rd (6th without
    the rule, under three assets saying the words); `BotManager.cs`, holding it in a comment, is
    not raised for it (8th either way)."""
    assert _ranked(_upgrades(tmp_path), TASK, 8) == [
        "Assets/Data/BotTasks.asset",
        "Assets/Data/Research2.asset",
        "Assets/Data/Automation.asset",
        "Assets/Scripts/Upgrade.cs",
        "Assets/Data/Research1.asset",
        "Assets/Data/Research0.asset",
        "Assets/Scripts/ResearchManager.cs",
        "Assets/Scripts/BotManager.cs",
    ]


CONFIG = "a5600000000000000000000000000011"


def _fishing(tmp_path: Path) -> Path:
    """A fishing game: shops and a spawner say fish, boat and hook in code; `GameConfig.asset`
    lists each fish, boat and hook definition (its class's fields say `fishDefinitions`...); an
    input reader handles the keys."""
    files = {
        "Assets/Scripts/GameConfig.cs": (
            "using UnityEngine;\npublic class GameConfig : ScriptableObject\n{\n"
            "  public Definition[] fishDefinitions;\n  public Definition[] shipDefinitions;\n"
            "  public Definition[] hookDefinitions;\n}\n[System.Serializable]\npublic class Definition\n"
            "{\n  public string id;\n  public int price;\n}\n"
        ),
        "Assets/Scripts/GameConfig.cs.meta": meta(CONFIG),
        "Assets/Resources/GameConfig.asset": data_asset(
            CONFIG,
            "GameConfig",
            "  fishDefinitions:\n  - id: fish_cod\n    price: 3\n  - id: fish_eel\n    price: 5\n"
            "  shipDefinitions:\n  - id: ship_skiff\n    price: 100\n"
            "  hookDefinitions:\n  - id: hook_basic\n    price: 10\n",
        ),
        "Assets/Resources/GameConfig.asset.meta": meta("a5600000000000000000000000000012", "NativeFormatImporter"),
        "Assets/Scripts/PlayerInput.cs": mono_script(
            "PlayerInput",
            "void Update() { if (Input.GetKeyDown(KeyCode.Space)) Cast(); } // handles input\nvoid Cast() { }",
        ),
        "Assets/Scripts/PlayerInput.cs.meta": meta("a5600000000000000000000000000013"),
    }
    shop = lambda i: f"public int fish{i}; public int boat{i}; public int hook{i}; // lists every fish, boat and hook"  # noqa: E731
    files |= filler_scripts("Assets/Scripts/Shops", "Shop", shop, "c")
    return write_project(tmp_path, files)


def test_a_task_asking_which_file_lists_every_item_reads_as_asking_an_asset(tmp_path: Path) -> None:
    """ "Which file lists every fish, boat and hook?" is read as saying "asset": the config asset
    listing their definitions leads (out of the five without it, under the shops saying the
    words); "which file handles input" still has the input script first."""
    root = _fishing(tmp_path)
    assert _ranked(root, "Which file lists every fish, boat and hook?", 2)[0] == "Assets/Resources/GameConfig.asset"
    assert _ranked(root, "Which file handles input?", 1) == ["Assets/Scripts/PlayerInput.cs"]
    assert said_asked(["file", "lists", "fish"], "Which file lists every fish?") == ["file", "lists", "fish", "asset"]
    assert said_asked(["file", "sets", "fish"], "Which file sets the fish?") == ["file", "sets", "fish"]
