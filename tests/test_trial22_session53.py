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
            "ShopGoodsButton", "    public ShopWindow shop;\n    public int cost;\n    void OnClick() { shop.BuyFromShop(cost); }"
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
