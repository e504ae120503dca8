"""A twenty-second trial on unseen games (docs/retrieval.md, "Session 53, a twenty-second trial"):
what it found wrong, on small projects of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.identifiers import said_words
from indexer.query.asking import asks_change, asks_value

from .conftest import data_asset, meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked

BUILDING_GUID = "3a1e0c5b7d2f4e6a8b9c0d1e2f3a4b51"
SHOP_UI_GUID = "3a1e0c5b7d2f4e6a8b9c0d1e2f3a4b52"


def test_where_an_amount_is_asks_for_its_value() -> None:
    """ "Where is the material cost?" and "where is that number?" ask where an amount is set, as
    "where is it set" does; a clause going on after the amount's word ("where is the cost
    calculated", "where is the number of lives shown") asks for code."""
    for text in (
        "Rebuilding the shop asks for too many bricks. Where is the material cost?",
        "The orc archers have too much health. Where is that number?",
        "where are the enemy stats, and how are they loaded",
    ):
        assert asks_value(said_words(text), text), text
        assert asks_change(said_words(text), text), text
    for text in (
        "where is the cost calculated",
        "where is the number of lives shown on the HUD",
        "where is the shop",
        "where are values (cost, price) read from the save",
    ):
        assert not asks_value(said_words(text), text), text


def _town(tmp_path: Path) -> Path:
    """A village to rebuild: each building's data asset lists the materials it costs; a shop's
    window sells goods at a cost, its prefab carrying it; the shop building's own prefab plays its
    construction."""
    files = {
        "Assets/Scripts/BuildingData.cs": (
            "using System.Collections.Generic;\nusing UnityEngine;\n[CreateAssetMenu]\n"
            "public class BuildingData : ScriptableObject\n{\n"
            "    public int id;\n    public List<int> requiredMaterials = new List<int>();\n"
            "    public GameObject buildingPrefab;\n}\n"
        ),
        "Assets/Scripts/BuildingData.cs.meta": meta(BUILDING_GUID),
        "Assets/Scripts/UI/ShopWindow.cs": mono_script(
            "ShopWindow",
            "    public int materialCost;\n    public UnityEngine.UI.Text costText;\n"
            "    // show the shop's goods, each with its cost in material or gold\n"
            "    public void ShowShopGoods() { costText.text = materialCost.ToString(); }\n"
            "    public void BuyFromShop(int cost) { }",
        ),
        "Assets/Scripts/UI/ShopWindow.cs.meta": meta(SHOP_UI_GUID),
        "Assets/Prefabs/UI/ShopWindow.prefab": script_prefab("ShopWindow", SHOP_UI_GUID, "  materialCost: 3\n"),
        "Assets/Scripts/UI/ShopGoodsButton.cs": mono_script(
            "ShopGoodsButton",
            "    public ShopWindow shop;\n    public int cost;\n    void OnClick() { shop.BuyFromShop(cost); }",
        ),
    }
    for name, materials in (("Shop", "  - 0\n  - 1\n"), ("Town Hall", "  - 1\n  - 1\n"), ("Teleporter", "  - 0\n")):
        files[f"Assets/Data/Buildings/{name}.asset"] = data_asset(
            BUILDING_GUID, name, f"  id: 1\n  requiredMaterials:\n{materials}  buildingPrefab: {{fileID: 0}}\n"
        )
    return write_project(tmp_path, files)


def test_the_data_asset_named_by_the_word_leads_where_its_amount_is_asked(tmp_path: Path) -> None:
    """ "Rebuilding the shop asks for too many bricks. Where is the material cost?": the shop's own
    building data ranks first, above the shop window saying "shop", "material" and "cost" (it
    ranked below the window's scripts and prefab, as for a question asking for code)."""
    root = _town(tmp_path)
    ranked = _ranked(root, "Rebuilding the shop asks for too many bricks. Where is the material cost?", 3)
    assert ranked[0] == "Assets/Data/Buildings/Shop.asset"


ENEMY_TABLE = "Assets/Resources/Json/EnemyData.json"
STATE_GUID = "3a1e0c5b7d2f4e6a8b9c0d1e2f3a4b53"
_ROWS = (("1", "Slime", "20", "0.8"), ("2", "Orc_Melee", "30", "1"), ("3", "Orc_Archer", "40", "1.2"))


def _enemy_json() -> str:
    """The enemies' numbers as a JSON list of records, as a spreadsheet's export writes them."""
    rows = ",\n".join(
        f'    {{\n      "ID": "{i}",\n      "Name": "{n}",\n      "HP": "{hp}",\n      "Speed": "{speed}"\n    }}'
        for i, n, hp, speed in _ROWS
    )
    return f'{{\n  "EnemyDatas": [\n{rows}\n  ]\n}}\n'


def test_a_json_list_of_records_is_a_table() -> None:
    """A JSON list of records is a table: its first record's keys are the columns, each record is
    keyed by its name (else by its first value when that is a text); a settings object, a
    package's manifest or a single record is none."""
    from indexer.table_text import json_records

    assert json_records(_enemy_json()) == (["ID", "Name", "HP", "Speed"], ["Slime", "Orc_Melee", "Orc_Archer"])
    assert json_records('[{"key": "jump", "label": "Jump"}, {"key": "fire", "label": "Fire"}]') == (
        ["key", "label"],
        ["jump", "fire"],
    )
    for text in (
        '{"name": "com.game.sdk", "version": "1.0.0", "dependencies": {"com.unity.ugui": "1.0.0"}}',
        '{"musicVolume": 0.5, "sfxVolume": 0.8}',
        '{"levels": [{"id": 1, "stars": 3}]}',
    ):
        assert json_records(text) == ([], []), text


def _orcs(tmp_path: Path) -> Path:
    """A side-scroller whose enemies' numbers are a JSON file a manager loads from Resources and
    reads into a plain class; each enemy's prefab carries a state machine naming its record by id.
    The player's health bar and a wall's hit points say "health" and "HP" too."""
    files = {
        ENEMY_TABLE: _enemy_json(),
        "Assets/Resources/Json/Settings.json": '{"musicVolume": 0.5, "sfxVolume": 0.8}\n',
        "Assets/Scripts/Enemies/EnemyData.cs": (
            "[System.Serializable]\npublic class EnemyData\n{\n    public string Name { get; set; }\n"
            "    public int HP { get; set; }\n    public float Speed { get; set; }\n}\n"
        ),
        "Assets/Scripts/Managers/EnemyDataManager.cs": (
            "using UnityEngine;\npublic class EnemyDataManager\n{\n    private TextAsset json;\n"
            "    // read every enemy's record once\n"
            '    public void Load() { json = Resources.Load<TextAsset>("Json/" + "EnemyData"); }\n}\n'
        ),
        "Assets/Scripts/Enemies/EnemyStateMachine.cs": mono_script(
            "EnemyStateMachine", "    public int id;\n    // chase the player, attack when close\n    void Update() { }"
        ),
        "Assets/Scripts/Enemies/EnemyStateMachine.cs.meta": meta(STATE_GUID),
        "Assets/Scripts/UI/HealthBar.cs": mono_script(
            "HealthBar",
            "    public UnityEngine.UI.Slider bar;\n    // the player's health, full at the start\n"
            "    public void SetHealth(float health, float maxHealth) { bar.value = health / maxHealth; }",
        ),
        "Assets/Scripts/Stages/WallHP.cs": mono_script(
            "WallHP",
            "    public int wallHP = 5;\n    // a wall the player breaks by hitting it; its HP counts the hits left",
        ),
    }
    for i, name, _hp, _speed in _ROWS:
        files[f"Assets/Resources/Enemies/{name}.prefab"] = script_prefab(name, STATE_GUID, f"  id: {i}\n")
    return write_project(tmp_path, files)


def test_a_json_table_has_its_record_class_and_the_prefabs_its_records_name(tmp_path: Path) -> None:
    """The JSON list whose keys a plain class's fields are is that class's rows, and a record named
    as a prefab holds that prefab's numbers; a settings object keys nothing."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.tables import keyed_tables, row_table
    from indexer.query.workspace import open_workspace

    root = _orcs(tmp_path)
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    assert row_table(project, "Assets/Scripts/Enemies/EnemyData.cs") == ENEMY_TABLE
    assert keyed_tables(project, "Assets/Resources/Enemies/Orc_Archer.prefab") == [ENEMY_TABLE]
    assert row_table(project, "Assets/Scripts/UI/HealthBar.cs") is None


def test_the_json_record_of_a_prefab_ranks_with_it(tmp_path: Path) -> None:
    """ "How much health does the orc archer have?": the enemies' JSON file, whose `Orc_Archer`
    record holds its HP, ranks right under the archer's prefab (no GUID or literal ties it to the
    prefab: it ranked sixth, under the health bar, the state machine, the other orc and the wall's
    HP)."""
    root = _orcs(tmp_path)
    ranked = _ranked(root, "How much health does the orc archer have?", 2)
    assert ranked == ["Assets/Resources/Enemies/Orc_Archer.prefab", ENEMY_TABLE]


def test_a_language_is_a_lang() -> None:
    """Code names a language `Lang` (`LangType`, `LangManager`) as it names a maximum `max`: the
    word and its short form search each other."""
    from indexer.query.synonyms import forms

    assert forms("language") == forms("languages") == ("lang",)
    assert forms("lang") == ("language",)


def _settings(tmp_path: Path) -> Path:
    """A game whose languages are an enum and a config listing those the player may pick; a
    settings panel switches music, sound and language; a dialogue panel picks an answer."""
    files = {
        "Assets/Scripts/Lang/LangType.cs": "public enum LangType\n{\n    English = 0,\n    Japanese = 1,\n}\n",
        "Assets/Scripts/Lang/LangConfig.cs": (
            "using System.Collections.Generic;\npublic static class LangConfig\n{\n"
            "    // the ones a player may select in the settings\n"
            "    public static List<LangType> GetSelectableLangTypeList() => new List<LangType> { LangType.English };\n"
            '    public static string GetLangCode(LangType lang) => lang == LangType.English ? "en-us" : "ja-jp";\n}\n'
        ),
        "Assets/Scripts/Lang/LangManager.cs": (
            "public static class LangManager\n{\n    public static LangType CurrentLang;\n"
            "    public static string GetText(string key) => key;\n}\n"
        ),
        "Assets/Scripts/UI/SettingsPanel.cs": mono_script(
            "SettingsPanel",
            "    public UnityEngine.UI.Text bgmText, sfxText, langText;\n"
            "    // the settings players pick: music on or off, sound on or off, the next language\n"
            "    public void PickNextSetting() { }\n    public void ApplySettings() { }",
        ),
        "Assets/Scripts/UI/DialogPanel.cs": mono_script(
            "DialogPanel",
            "    // players pick an answer; the panel shows it in the settings' language\n"
            "    public void PickAnswer(int index) { }",
        ),
        "Assets/Scripts/Player/PickUp.cs": mono_script(
            "PickUp", "    // players pick up items\n    void OnTriggerEnter2D(UnityEngine.Collider2D other) { }"
        ),
        "Assets/Scripts/UI/CharacterPicker.cs": mono_script(
            "CharacterPicker", "    // players pick their character before a run\n    public void Pick(int index) { }"
        ),
        "Assets/Scripts/UI/GraphicsSettings.cs": mono_script(
            "GraphicsSettings", "    // the quality settings players pick\n    public void PickQuality(int level) { }"
        ),
    }
    return write_project(tmp_path, files)


def test_the_lang_classes_answer_a_task_about_languages(tmp_path: Path) -> None:
    """ "Add Korean as a language players can pick in the settings": the config listing the
    languages a player may select ranks in the first three, beside the settings panel (it ranked
    sixth, under the panels and pickers saying "players", "pick" and "settings")."""
    root = _settings(tmp_path)
    ranked = _ranked(root, "Add Korean as a language players can pick in the settings.", 3)
    assert "Assets/Scripts/Lang/LangConfig.cs" in ranked


SPAWN_GUID = "3a1e0c5b7d2f4e6a8b9c0d1e2f3a4b54"


def _rooms(tmp_path: Path) -> Path:
    """A metroidvania whose rooms each have a spawn list, a data asset named by its stage and
    room (`Stage01Room02`); a spawner spawns a room's monsters when the player enters, a pool
    keeps them, a reset respawns them."""
    files = {
        "Assets/Scripts/Spawn/MonsterSpawnData.cs": (
            "using UnityEngine;\n[CreateAssetMenu]\npublic class MonsterSpawnData : ScriptableObject\n{\n"
            "    [System.Serializable] public struct MonsterSpawnInfo { public GameObject monsterPrefab; "
            "public Vector3[] spawnPositions; }\n    public MonsterSpawnInfo[] spawnInfos;\n}\n"
        ),
        "Assets/Scripts/Spawn/MonsterSpawnData.cs.meta": meta(SPAWN_GUID),
        "Assets/Scripts/Spawn/MonsterSpawner.cs": mono_script(
            "MonsterSpawner",
            "    public MonsterSpawnData spawnData;\n"
            "    // when the player enters the room, spawn every monster of its spawn list at its position\n"
            "    void OnTriggerEnter2D(UnityEngine.Collider2D other) { SpawnMonsters(); }\n"
            "    void SpawnMonsters() { }",
        ),
        "Assets/Scripts/Spawn/MonsterPool.cs": mono_script(
            "MonsterPool",
            "    // the room's spawned monsters, kept to spawn again\n    public void Spawn(string monster) { }",
        ),
        "Assets/Scripts/Spawn/ResetSpawn.cs": mono_script(
            "ResetSpawn",
            "    // the room's monsters spawn again when the player rests\n    public void ResetRoom() { }",
        ),
    }
    for stage in (1, 2):
        for room in range(1, 13):
            name = f"Stage{stage:02d}Room{room:02d}"
            positions = "".join(f"    - {{x: {room * 10 + i}, y: -4, z: 0}}\n" for i in range(room % 3 + 1))
            files[f"Assets/Data/Stage{stage:02d}/{name}.asset"] = data_asset(
                SPAWN_GUID, name, f"  spawnInfos:\n  - monsterPrefab: {{fileID: 0}}\n    spawnPositions:\n{positions}"
            )
    return write_project(tmp_path, files)


def test_an_ordinal_numbers_the_word_after_it() -> None:
    """ "The second room of the first stage" says room 2 and stage 1, as "room 2" does; a word and
    its number are still read."""
    from indexer.query.named_files import _said_numbered

    assert _said_numbered("one more monster in the second room of the first stage") == {("room", 2), ("stag", 1)}
    assert _said_numbered("loading level 7, then the Third Boss") == {("level", 7), ("bos", 3)}


def test_a_name_of_words_and_numbers_is_named_by_each_said(tmp_path: Path) -> None:
    """`Stage01Room02` is named by "the second room of the first stage" and by "room 2 of stage 1"
    (each of its words with its number), not by "room 2 of stage 2" nor by "room 2" alone."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.named_files import files_numbered
    from indexer.query.workspace import open_workspace

    root = _rooms(tmp_path)
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    own = "Assets/Data/Stage01/Stage01Room02.asset"
    assert files_numbered(project, "the second room of the first stage") == [own]
    assert files_numbered(project, "room 2 of stage 1 spawns too many") == [own]
    assert files_numbered(project, "room 2 of stage 2 spawns too many") == ["Assets/Data/Stage02/Stage02Room02.asset"]
    assert files_numbered(project, "room 2 spawns too many") == []


def test_the_room_a_task_numbers_by_ordinals_leads_its_siblings(tmp_path: Path) -> None:
    """ "I want one more monster in the second room of the first stage. Where are that room's spawns
    listed?": that room's spawn list ranks in the first two, under the spawner (it ranked under the
    spawn scripts and the other rooms' lists)."""
    root = _rooms(tmp_path)
    text = "I want one more monster in the second room of the first stage. Where are that room's spawns listed?"
    assert "Assets/Data/Stage01/Stage01Room02.asset" in _ranked(root, text, 2)
