"""What a task asks for, read from how it is put (`indexer/query/asking.py`, docs/retrieval.md)."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.identifiers import said_words
from indexer.query.asking import asked_amounts, asks_value
from indexer.query.workspace import open_workspace

from .conftest import data_asset, meta, mono_script, write_project

SPAWN = "3e5f7a9b1c2d4e6f8a0b2c4d6e8f0a1b"
SNIPER = "4f6a8b0c2d3e5f7a9b1c3d5e7f9a1b2c"
SNIPER_PREFAB = "5a7b9c1d3e4f6a8b0c2d4e6f8a0b2c3d"


def _asks(text: str) -> bool:
    return asks_value(said_words(text), text)


def test_a_value_is_asked_where_set_by_quantity_or_by_data() -> None:
    assert _asks("Where is the jump height set?")
    assert _asks("How much health does the tank bug have?")
    assert _asks("Which data decides how often the sniper enemy spawns?")
    assert _asks("What data holds the shop's prices")
    assert _asks("I want to tweak how hard each weapon hits without touching code.")
    assert _asks("change the prices without changing any code")
    assert not _asks("Where does the game save data to disk?")
    assert not _asks("the data is lost when the level reloads")
    assert not _asks("Where does the game work out how many toppings fall off?")


def test_the_amount_asked_is_read_from_the_quantity_opening() -> None:
    assert asked_amounts("How many rows and columns does the board have?") == ["rows", "columns"]
    assert asked_amounts("The boss is too tough. How much health does it have?") == ["health"]
    assert asked_amounts("how fast does the rhino beetle move") == ["duration", "speed"]
    assert asked_amounts("Where does the game work out how many toppings fall off?") == []
    assert asked_amounts("where is the jump height set") == []


def _prefab(name: str, script: str) -> str:
    return f"""%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &1000
GameObject:
  m_ObjectHideFlags: 0
  m_Component:
  - component: {{fileID: 1001}}
  - component: {{fileID: 1002}}
  m_Name: {name}
  m_IsActive: 1
--- !u!4 &1001
Transform:
  m_GameObject: {{fileID: 1000}}
  m_Children: []
  m_Father: {{fileID: 0}}
--- !u!114 &1002
MonoBehaviour:
  m_GameObject: {{fileID: 1000}}
  m_Enabled: 1
  m_Script: {{fileID: 11500000, guid: {script}, type: 3}}
  m_Name:
  aimTime: 1.5
"""


def test_which_data_decides_ranks_the_data_asset_above_the_code(tmp_path: Path) -> None:
    """ "Which data decides how often the sniper enemy spawns and what rifles it can carry?" ranked
    four scripts above `SniperEnemy.asset`, whose `Rarity` and `Weapons` are the answer (5th in a
    real game, 1st now): asking which data is asking where it is set."""
    root = write_project(
        tmp_path,
        {
            "Assets/Scripts/EnemySpawner.cs": mono_script(
                "EnemySpawner",
                "public GameObject sniperEnemy; public float spawnInterval;\n"
                "public void SpawnEnemy(GameObject enemy) { }\n"
                "public void SpawnSniperEnemy() { SpawnEnemy(sniperEnemy); }",
            ),
            "Assets/Scripts/EnemyWeapon.cs": mono_script(
                "EnemyWeapon", "public GameObject rifle; public void CarryRifle() { } public void SpawnRifle() { }"
            ),
            "Assets/Scripts/SniperEnemy.cs": mono_script(
                "SniperEnemy", "public float aimTime; public void Aim() { } public void ShootRifle() { }"
            ),
            "Assets/Scripts/SniperEnemy.cs.meta": meta(SNIPER),
            "Assets/Prefabs/SniperEnemy.prefab": _prefab("SniperEnemy", SNIPER),
            "Assets/Prefabs/SniperEnemy.prefab.meta": meta(SNIPER_PREFAB, "PrefabImporter"),
            "Assets/Scripts/EnemySpawnInfo.cs": "using UnityEngine;\npublic class EnemySpawnInfo : ScriptableObject\n"
            "{\n    public GameObject Enemy;\n    public float Rarity;\n    public GameObject[] Weapons;\n}\n",
            "Assets/Scripts/EnemySpawnInfo.cs.meta": meta(SPAWN),
            "Assets/Data/SniperEnemy.asset": data_asset(
                SPAWN,
                "SniperEnemy",
                f"  Enemy: {{fileID: 1000, guid: {SNIPER_PREFAB}, type: 3}}\n  Rarity: 0.25\n  Weapons: []\n",
            ),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    question = "Which data decides how often the sniper enemy spawns and what rifles it can carry?"
    paths = [h.path for h in ws.search(question, 10)]
    data = paths.index("Assets/Data/SniperEnemy.asset")
    assert data < paths.index("Assets/Scripts/EnemySpawnInfo.cs"), paths
    assert data < paths.index("Assets/Scripts/SniperEnemy.cs"), paths
