"""A sixteenth trial on two unseen card games (docs/retrieval.md, session 51): what it found wrong,
on a small project of its own."""

from __future__ import annotations

import json
from pathlib import Path

from indexer.query.named_files import entries_said, titles_said

from .conftest import data_asset, mono_script, write_project
from .conftest import ranked_paths as _ranked

GUID = "5f3b2c1d0e9a48b7a6c5d4e3f2a1b0c9"


def test_a_name_said_before_its_folders_word_names_the_file() -> None:
    """ "The bat enemy" names `EnemyScheme/bat.json` and "the thunder bolt card" (its words joined)
    `CardScheme/thunderbolt.json`: a one-word name, said right before a word of its folder's name.
    Not said before it ("the bat" alone, "the enemy bat"), nor a word of the folder itself."""
    paths = ["Assets/Resources/EnemyScheme/bat.json", "Assets/Resources/CardScheme/thunderbolt.json"]
    assert titles_said(paths, "how much health does the bat enemy have") == paths[:1]
    assert titles_said(paths, "what does the thunder bolt card cost") == paths[1:]
    assert titles_said(paths, "the enemy bat flies too low") == []
    assert titles_said(paths, "how hard does a bat hit the player") == []
    assert titles_said(["Assets/Enemies/Enemy.prefab"], "which enemy enemy") == []


def test_an_entry_said_before_the_files_word_names_the_file(tmp_path: Path) -> None:
    """ "The Revitalize card" names `Cards.json`, whose list holds `"name": "Revitalize"`, "the
    Aegis artifact" `Artifacts.json` (`"title": "Aegis"`) and "the Poppy Seed bagel" the data asset
    `BagelTypePoppySeed.asset` (its own `displayName: Poppy Seed`): an entry's name said right
    before a word of the file's name. Not words of no meaning ("the card"), nor a name the file
    holds in its text alone, not as a name field's whole value (an address), nor a list item's
    name in an asset (Odin's serialized `- Name: Gravity`)."""
    files = {
        "Assets/Data/Cards.json": '{\n  "Cards": [\n    {\n      "name": "Revitalize",\n      "lifeCost": 6\n'
        '    },\n    {\n      "name": "Quick Study",\n      "description": "the card of a scholar"\n    }\n  ]\n}\n',
        "Assets/Data/Artifacts.json": '[\n  {"title": "Aegis", "description": "Weaken attacks"},\n'
        '  {"m_Address": "Bulwark", "title": "Shield"}\n]\n',
        "Assets/Data/BagelTypePoppySeed.asset": data_asset(GUID, "BagelTypePoppySeed", "  displayName: Poppy Seed\n"),
        "Assets/Data/PC_WaterBall.asset": data_asset(
            GUID, "PC_WaterBall", "  SerializationNodes:\n    - Name: Gravity\n      Entry: 4\n"
        ),
    }
    root = write_project(tmp_path, files)

    class _Texts:
        def get(self, path: str):
            return type("T", (), {"text": (root / path).read_text()})()

    project = type("P", (), {"texts": _Texts()})()
    paths = list(files)
    assert entries_said(project, paths, "what does the Revitalize card do") == paths[:1]
    assert entries_said(project, paths, "make the quick study card cheaper") == paths[:1]
    assert entries_said(project, paths, "what does the Aegis artifact need") == paths[1:2]
    assert entries_said(project, paths, "what does the card cost") == []
    assert entries_said(project, paths, "the scholar card is too strong") == []
    assert entries_said(project, paths, "which artifact weakens attacks") == []
    assert entries_said(project, paths, "what does the Bulwark artifact do") == []
    assert entries_said(project, paths, "the Poppy Seed bagel rolls too far") == paths[2:3]
    assert entries_said(project, paths, "the gravity ball never hits me") == []


def _cards(tmp_path: Path) -> Path:
    """A card game's data: each enemy and card a JSON file in a folder named by its class, read by
    `Resources.Load`, and a list of relics in one file; beside them the classes and renderers saying
    "health", "enemy", "card", "cost" and "relic" more often."""
    enemy = {"Health": {"Amount": 8}, "Name": {"Text": "Bat"}, "Abilities": [{"Script": "DealDamage", "Amount": 4}]}
    files = {
        "Assets/Resources/Schemes/EnemyScheme/bat.json": json.dumps(enemy, indent=4),
        "Assets/Resources/Schemes/EnemyScheme/slime.json": json.dumps({**enemy, "Name": {"Text": "Slime"}}, indent=4),
        "Assets/Resources/Schemes/CardScheme/thunderbolt.json": json.dumps(
            {"Name": {"Text": "Thunder Bolt"}, "Cost": 2, "Abilities": [{"Script": "DealDamage", "Amount": 5}]},
            indent=4,
        ),
        "Assets/Resources/Data/Relics.json": json.dumps(
            {"Relics": [{"name": "Aegis", "description": "Weaken enemy attacks by 1"}]}, indent=2
        ),
        "Assets/Scripts/Schemes/EnemyScheme.cs": (
            "public class EnemyScheme\n{\n    public int Health;\n    public int Damage;\n"
            "    public static string Load(string name) => UnityEngine.Resources.Load<UnityEngine.TextAsset>("
            '"Schemes/EnemyScheme/" + name).text;\n}\n'
        ),
        "Assets/Resources/Schemes/MatchScheme/basicroom.json": json.dumps(
            {"HealthPool": {"Amount": 15}, "PotentialEnemies": {"Items": ["bat", "slime"]}}, indent=4
        ),
        "Assets/Scripts/Schemes/MatchScheme.cs": (
            "public class MatchScheme\n{\n    public int HealthPool;\n    public string[] PotentialEnemies;\n"
            "    public static string Load(string name) => UnityEngine.Resources.Load<UnityEngine.TextAsset>("
            '"Schemes/MatchScheme/" + name).text;\n}\n'
        ),
        "Assets/Scripts/Schemes/CardScheme.cs": (
            "public class CardScheme\n{\n    public int Cost;\n    public int Damage;\n"
            "    // a card's cost and damage\n}\n"
        ),
        "Assets/Scripts/Enemies/EnemyHealthBar.cs": mono_script(
            "EnemyHealthBar", "    // the enemy's health: how much is left of its health\n    public int health;"
        ),
        "Assets/Scripts/Enemies/EnemyHealthData.cs": (
            "public class EnemyHealthData\n{\n    public int MaxHealth;\n    public int CurrentHealth;\n"
            "    public void DealDamage(int damage) { CurrentHealth -= damage; }\n}\n"
        ),
        "Assets/Scripts/Cards/CardCostRenderer.cs": mono_script(
            "CardCostRenderer", "    // shows how much a card costs and the damage it deals\n    public int cost;"
        ),
        "Assets/Scripts/Cards/DealDamage.cs": (
            "public class DealDamage\n{\n    public int Amount;\n    // deal damage to an enemy\n}\n"
        ),
        "Assets/Scripts/Relics/Relic.cs": (
            "public class Relic\n{\n    public string name;\n    public string description;\n"
            "    // what a relic does and what it needs\n    public void Activate() { }\n}\n"
        ),
        "Assets/Scripts/Relics/RelicView.cs": mono_script(
            "RelicView", "    // shows each relic: what it does and what it needs\n    public Relic relic;"
        ),
    }
    return write_project(tmp_path, files)


def test_the_data_file_of_the_named_enemy_ranks_first(tmp_path: Path) -> None:
    """ "How much health does the bat enemy have" had the trial's `EnemyScheme/bat.json` 11th under
    the health bars and data classes, and "the thunder bolt card" its `thunderbolt.json` 8th: a
    name of one word (or said as two) was no title. 1st here."""
    root = _cards(tmp_path)
    assert _ranked(root, "how much health does the bat enemy have and how hard does it hit", 1) == [
        "Assets/Resources/Schemes/EnemyScheme/bat.json"
    ]
    assert _ranked(root, "how much does the thunder bolt card cost and how much damage does it deal", 1) == [
        "Assets/Resources/Schemes/CardScheme/thunderbolt.json"
    ]


def test_the_list_holding_the_named_relic_ranks_first(tmp_path: Path) -> None:
    """ "What does the Aegis artifact do" had the trial's `Artifacts.json` 17th under the artifact
    classes, one of which names "Aegis" too: the list's entry named the file nowhere. 1st here."""
    root = _cards(tmp_path)
    assert _ranked(root, "what does the Aegis relic do and what does it need", 1) == [
        "Assets/Resources/Data/Relics.json"
    ]


def test_a_loaders_one_data_file_ranks_with_it(tmp_path: Path) -> None:
    """ "Which enemies can appear in the basic match and how big is the enemy health pool" had the
    trial's `MatchScheme/basicroom.json` out of the top 20, its loader `MatchScheme.cs` 3rd: the
    one file a class loads from a folder by a name (`"Schemes/MatchScheme/" + name`) holds its
    values, as a ScriptableObject's one asset does. 5th -> 4th here, above the enemies' loader.
    Not a folder of several files (the enemies'), nor a file below it."""
    root = _cards(tmp_path)
    (root / "Assets/Resources/Schemes/MatchScheme/Old").mkdir()
    (root / "Assets/Resources/Schemes/MatchScheme/Old/draft.json").write_text("{}")
    assert _ranked(root, "which enemies can appear in the basic match and how big is the enemy health pool", 4) == [
        "Assets/Scripts/Enemies/EnemyHealthBar.cs",
        "Assets/Scripts/Schemes/MatchScheme.cs",
        "Assets/Scripts/Enemies/EnemyHealthData.cs",
        "Assets/Resources/Schemes/MatchScheme/basicroom.json",
    ]

    from indexer.config import Config
    from indexer.query.loads import prefix_loaded
    from indexer.query.workspace import open_workspace

    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    assert prefix_loaded(graph, "Assets/Scripts/Schemes/MatchScheme.cs") == [
        "Assets/Resources/Schemes/MatchScheme/basicroom.json"
    ]
    assert prefix_loaded(graph, "Assets/Scripts/Schemes/EnemyScheme.cs") == [
        "Assets/Resources/Schemes/EnemyScheme/bat.json",
        "Assets/Resources/Schemes/EnemyScheme/slime.json",
    ]
    assert prefix_loaded(graph, "Assets/Scripts/Schemes/CardScheme.cs") == []


def test_a_load_commented_out_loads_nothing(tmp_path: Path) -> None:
    """`prefix_loaded` reads code, not comments: a load left in a comment names no file, though
    the folder's path is a string of the script's code."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.loads import prefix_loaded
    from indexer.query.workspace import open_workspace

    loader = (
        "using UnityEngine;\npublic class RoomScheme : MonoBehaviour {\n"
        '    const string Folder = "Schemes/RoomScheme/";\n'
        "    public string roomName;\n"
        "    void Load() {\n"
        '        // var text = Resources.Load<TextAsset>("Schemes/RoomScheme/" + roomName);\n'
        "    }\n}\n"
    )
    root = write_project(
        tmp_path / "Game",
        {"Assets/Scripts/RoomScheme.cs": loader, "Assets/Resources/Schemes/RoomScheme/hall.json": "{}"},
    )
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    assert prefix_loaded(graph, "Assets/Scripts/RoomScheme.cs") == []
    (root / "Assets/Scripts/RoomScheme.cs").write_text(loader.replace("    // var", "    var"))
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    assert prefix_loaded(graph, "Assets/Scripts/RoomScheme.cs") == ["Assets/Resources/Schemes/RoomScheme/hall.json"]
