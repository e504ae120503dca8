"""Values inside data assets a new user's trial in session 41 found unreadable (docs/retrieval.md,
"session 41"), each a test seen failing before its fix: a key list Unity packed as hex, enums inside
a list's items and a struct, a list of records cut to nothing in a pack, a hit on a nested field."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.query.lookup import describe_target
from indexer.query.tokens import counter
from indexer.query.views import cut_lines, file_view, weighted

from .conftest import meta, write_project
from .test_trials_session32 import _workspace

KEYS, SHOP, LEVELS, SKIN = "a1" * 16, "b2" * 16, "c3" * 16, "d4" * 16
PREFABS = ["e5" * 15 + f"{i:02d}" for i in range(10)]


def _asset(guid: str, name: str, body: str) -> str:
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n"
        f"  m_Script: {{fileID: 11500000, guid: {guid}, type: 3}}\n  m_Name: {name}\n  m_EditorClassIdentifier: \n"
        + body
    )


def _levels() -> str:
    items = "".join(
        f"  - Time: {90 + 30 * (i // 4)}\n    Loot: {100 + 25 * i}\n"
        f"    Prefab: {{fileID: 100100000, guid: {PREFABS[i]}, type: 3}}\n"
        for i in range(10)
    )
    return _asset(LEVELS, "LevelData", "  Levels:\n" + items)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prefab = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &1\nGameObject:\n  m_Name: Level\n"
    files: dict[str, str | bytes] = {
        "Assets/Scripts/SavedKeys.cs": (
            "using System.Collections.Generic;\nusing UnityEngine;\n"
            "public class SavedKeys : ScriptableObject\n{\n"
            "    public List<KeyCode> KeyCodesList = new List<KeyCode>();\n"
            "    public Lane[] Lanes;\n    public int[] Counts;\n    public int[] Waves;\n}\n"
        ),
        "Assets/Scripts/SavedKeys.cs.meta": meta(KEYS),
        "Assets/Scripts/Enums.cs": (
            "public enum SkinType { Basic, Hero, Alien, Cowboy }\npublic enum Lane : byte { Left, Middle, Right }\n"
        ),
        "Assets/Scripts/ShopData.cs": (
            "using System;\nusing System.Collections.Generic;\nusing UnityEngine;\n"
            "public class ShopData : ScriptableObject\n{\n    public List<SkinShopData> SkinsShopData;\n"
            "    public SkinShopData Featured;\n    public SkinType Default;\n}\n"
            "[Serializable]\npublic struct SkinShopData\n{\n    public SkinType SkinType;\n    public int Cost;\n}\n"
        ),
        "Assets/Scripts/ShopData.cs.meta": meta(SHOP),
        "Assets/Scripts/LevelData.cs": (
            "using UnityEngine;\npublic class LevelData : ScriptableObject\n{\n    public Level[] Levels;\n}\n"
            "[System.Serializable]\npublic struct Level\n{\n    public int Time;\n    public int Loot;\n"
            "    public GameObject Prefab;\n}\n"
        ),
        "Assets/Scripts/LevelData.cs.meta": meta(LEVELS),
        "Assets/Scripts/SkinCharacteristicData.cs": (
            "using UnityEngine;\npublic class SkinCharacteristicData : ScriptableObject\n{\n"
            "    public SkinType SkinType;\n    public SkinCharacteristic SkinCharacteristic;\n}\n"
            "[System.Serializable]\npublic struct SkinCharacteristic\n{\n    public int BaseHealth;\n"
            "    public float BaseSpeed;\n}\n"
        ),
        "Assets/Scripts/SkinCharacteristicData.cs.meta": meta(SKIN),
        "Assets/Data/SavedKeys.asset": _asset(
            KEYS,
            "SavedKeys",
            "  KeyCodesList: 77000000730000006400000061000000200000000d0000003001000044010000\n"
            "  Lanes: 000102\n  Counts: 0800000010000000\n"
            f"  Waves: {''.join(f'{n:02x}000000' for n in range(1, 26))}\n",
        ),
        "Assets/Data/ShopData.asset": _asset(
            SHOP,
            "ShopData",
            "  SkinsShopData:\n  - SkinType: 0\n    Cost: 0\n  - SkinType: 2\n    Cost: 1500\n"
            "  Featured:\n    SkinType: 3\n    Cost: 2000\n  Default: 1\n",
        ),
        "Assets/Data/LevelData.asset": _levels(),
        "Assets/Data/AlienData.asset": _asset(
            SKIN, "AlienData", "  SkinType: 2\n  SkinCharacteristic:\n    BaseHealth: 5\n    BaseSpeed: 3.5\n"
        ),
    }
    for skin in ("Basic", "Hero", "Cowboy", "Chicken"):  # the hits past the best three too
        files[f"Assets/Data/{skin}Data.asset"] = _asset(
            SKIN, f"{skin}Data", "  SkinType: 1\n  SkinCharacteristic:\n    BaseHealth: 10\n    BaseSpeed: 3.5\n"
        )
    for i, guid in enumerate(PREFABS):
        files[f"Assets/Prefabs/Level_{i + 1:02d}.prefab"] = prefab
        files[f"Assets/Prefabs/Level_{i + 1:02d}.prefab.meta"] = meta(guid, "PrefabImporter")
    return write_project(tmp_path_factory.mktemp("values41") / "P", files)


@pytest.fixture(scope="module")
def ws(game: Path):
    return _workspace(game)


def _described(ws, path: str) -> list[str]:
    return [line.strip() for line in describe_target(ws, path)[1].text.split("\n")]


def test_a_key_list_unity_packed_as_hex_reads_as_its_keys(ws) -> None:
    """`SavedKeys.asset` printed `KeyCodesList: 7700000073000000…`: a `List<KeyCode>` Unity writes as
    one hex string of int32s. Read by the field's declared element type: Unity's KeyCode by its
    names, a project enum (byte-backed: one byte an item) by its members, all that fit the line; a
    string longer than the index keeps read whole from the file."""
    lines = _described(ws, "Assets/Data/SavedKeys.asset")
    assert "L8 KeyCodesList: [8 items: W, S, D, A, Space, Return, LeftShift, Mouse1]" in lines
    assert "L9 Lanes: [3 items: Left, Middle, Right]" in lines
    assert "L10 Counts: [2 items: 8, 16]" in lines
    (waves,) = [line for line in lines if line.startswith("L11 ")]  # past the 80 characters the index keeps
    assert waves.startswith("L11 Waves: [25 items: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,") and waves.endswith(", …]")


def test_enums_inside_a_list_s_items_and_a_struct_are_named(ws) -> None:
    """A shop's items showed `{SkinType: 2, Cost: 1500}`, where a top-level field said `Default: 1
    (Hero)`: the enum inside an item or a struct field is named the same way."""
    lines = _described(ws, "Assets/Data/ShopData.asset")
    assert "[0] {SkinType: 0 (Basic), Cost: 0}" in lines
    assert "[1] {SkinType: 2 (Alien), Cost: 1500}" in lines
    assert "L13 Featured: {SkinType: 3 (Cowboy), Cost: 2000}" in lines
    assert "L16 Default: 1 (Hero)" in lines


def test_a_cut_data_asset_shows_its_list_s_first_item(ws) -> None:
    """A pack showed `LevelData.asset` as `L8 Levels: [10 items]` then `… 2 more items`: its items'
    lines, indented under the field, weighed least and were too wide for the file's room. The first
    item weighs as its field (less each next one), narrowed to the values that fit, and a count of
    more items is not shown without an item before it."""
    project = ws.projects[0]
    view = file_view(project, "Assets/Data/LevelData.asset")
    stems = {"level", "time", "reward"}
    lines, weights = weighted(view, project.graph, stems)
    head = "### Assets/Data/LevelData.asset  (asset; matched: level)"
    cut = cut_lines([head], lines, weights, 70, counter("estimate"), titled=True)
    assert cut is not None
    shown = [line.strip() for line in cut]
    assert "L8 Levels: [10 items]" in shown
    first = next((line for line in shown if line.startswith("[0] ")), "")
    assert first.startswith("[0] {Time: 90, Loot: 100"), shown
    at = shown.index(first)
    assert not any(line.startswith("… ") and line.endswith("more items") for line in shown[:at])


def test_a_hit_on_a_nested_field_points_at_its_line(ws) -> None:
    """`query BaseHealth` put the skin assets at `:1` with no snippet, though `BaseHealth: 5` is a
    line of each, nested in the struct field `SkinCharacteristic`."""
    hits = {h.path: h for h in ws.search("BaseHealth", 10) if h.path.endswith("Data.asset")}
    assert len(hits) == 5
    hit = hits["Assets/Data/AlienData.asset"]
    assert (hit.line, hit.snippet) == (10, "BaseHealth: 5")
    assert hit.name == "AlienData.SkinCharacteristic.BaseHealth"
    assert {(h.line, h.snippet) for h in hits.values()} == {(10, "BaseHealth: 5"), (10, "BaseHealth: 10")}
