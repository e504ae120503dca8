"""A twentieth trial on unseen games (docs/retrieval.md, session 52): what it found wrong, on a
small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.query.named_files import words_named

from .conftest import data_asset, meta, mono_script, write_project
from .conftest import ranked_paths as _ranked

RESOURCE_GUID = "7a1c2e3f4b5d6e7f8091a2b3c4d5e6f7"
CARD_GUID = "8b2d3f405c6e7f8091a2b3c4d5e6f708"
BONUS_GUID = "9c3e4051d6f708192a3b4c5d6e7f8091"


def test_a_data_file_named_by_one_word_the_task_says() -> None:
    """The file named by the word alone, not its card or bonus; none when two files have that name
    or another file names the thing and a second word the task says, nor for a word of no meaning."""
    farm = ["R/Wasabi.asset", "C/WasabiCard.asset", "B/WasabiBonus.asset", "R/Corn.asset"]
    assert words_named(farm, "how much does wasabi sell for") == ["R/Wasabi.asset"]
    assert words_named(farm, "how much does the potato sell for") == []
    assert words_named(["a/Ocean.asset", "b/Ocean.asset"], "how far does the ocean haze reach") == []
    guns = ["G/Shotgun.asset", "G/Shotgun Damage Config.asset"]
    assert words_named(guns, "how much damage does the shotgun deal per pellet") == []
    assert words_named(["S/Much.asset", "S/Update.asset"], "how much does the update change") == []
    alignments = ["A/Enemy.asset", "A/Player.asset"]
    assert words_named(alignments, "which prefab is the suicide enemy that blows up on the player") == []
    moves = ["M/Move.asset", "E/Test Enemy.asset"]
    assert words_named(moves, "which asset lists the moves the test enemy can use") == []
    assert words_named(["C/Chicken.asset"], "how many chickens does the game start with") == ["C/Chicken.asset"]
    assert words_named(["B/Boss.asset"], "how much health does the boss have") == ["B/Boss.asset"]
    assert words_named(["L/Levels.asset", "S/Seeded.asset"], "how many levels are there for each seed") == []


def _farm(tmp_path: Path) -> Path:
    """A farming card game: each crop is a resource sold in the shop (`Wasabi.asset`, its base
    price), a seed card planting it (`WasabiCard.asset`) and a bonus of the card's; the shop's
    code sells resources and shows their prices."""
    resource = (
        "using UnityEngine;\n[CreateAssetMenu]\npublic class ResourceSO : ScriptableObject\n{\n"
        "    public int basePrice;\n    public Sprite iconSprite;\n}\n"
    )
    card = (
        "using UnityEngine;\n[CreateAssetMenu]\npublic class SeedCard : ScriptableObject\n{\n"
        "    public string cardTitle;\n    public int cardCost;\n    public ResourceSO payoffResource;\n"
        "    public int payoffAmount;\n    public CardBonus bonus;\n}\n"
    )
    bonus = "using UnityEngine;\npublic class CardBonus : ScriptableObject\n{\n    public int bonusAmount;\n}\n"
    files = {
        "Assets/Scripts/ResourceSO.cs": resource,
        "Assets/Scripts/ResourceSO.cs.meta": meta(RESOURCE_GUID),
        "Assets/Scripts/SeedCard.cs": card,
        "Assets/Scripts/SeedCard.cs.meta": meta(CARD_GUID),
        "Assets/Scripts/CardBonus.cs": bonus,
        "Assets/Scripts/CardBonus.cs.meta": meta(BONUS_GUID),
        "Assets/Scripts/Shop/ShopSeller.cs": mono_script(
            "ShopSeller",
            "    public ShopManager shop;\n"
            "    // sell one of the selected resource at the shop's price for it\n"
            "    public void OnPressSell(ResourceSO resource) { shop.SellResource(resource); }\n"
            "    public void ShowSellPrice(ResourceSO resource) { }",
        ),
        "Assets/Scripts/Shop/ShopManager.cs": mono_script(
            "ShopManager",
            "    private int costBonus = 2;\n"
            "    // sell a resource: the player earns its price, more in its season\n"
            "    public void SellResource(ResourceSO resource) { }\n"
            "    public int GetPrice(ResourceSO resource) => resource.basePrice + costBonus;",
        ),
    }
    for crop, price, cost in (("Wasabi", 28, 12), ("Corn", 6, 3), ("Pumpkin", 9, 8)):
        files[f"Assets/Data/Resources/{crop}.asset"] = data_asset(RESOURCE_GUID, crop, f"  basePrice: {price}\n")
        files[f"Assets/Data/Cards/{crop}Card.asset"] = data_asset(
            CARD_GUID, f"{crop}Card", f"  cardTitle: {crop}\n  cardCost: {cost}\n  payoffAmount: 1\n"
        )
        files[f"Assets/Data/Bonus/{crop}Bonus.asset"] = data_asset(BONUS_GUID, f"{crop}Bonus", "  bonusAmount: 1\n")
    return write_project(tmp_path, files)


def test_the_data_asset_named_by_the_crop_leads(tmp_path: Path) -> None:
    """ "How much does wasabi sell for": the resource named by the word alone leads, above the
    shop's selling code and the card and bonus named by the crop and another word (the selling
    code led before)."""
    root = _farm(tmp_path)
    assert _ranked(root, "how much does wasabi sell for", 3) == [
        "Assets/Data/Resources/Wasabi.asset",
        "Assets/Scripts/Shop/ShopSeller.cs",
        "Assets/Data/Cards/WasabiCard.asset",
    ]


def test_a_data_file_holding_references_alone_does_not_lead(tmp_path: Path) -> None:
    """`values_named` (session 52, trials 20 and 21 merged): a file named by the one word said leads
    only when it holds a value of its own. The crop whose resource holds an icon alone, shown as a
    file's GUID, an object of its own (`&<fileID>`), a built-in resource or None, leads not; with
    a price beside the icon it does (`indexer.shown.shows_reference` tells the references)."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.named_files import values_named
    from indexer.query.workspace import open_workspace
    from indexer.shown import shows_reference

    assert [shows_reference(v) for v in ("guid:9ae90aec", "&11400000", "built-in resource", "None")] == [True] * 4
    assert [shows_reference(v) for v in ("28", "Wasabi", "{r: 1, g: 0, b: 0, a: 1}", "")] == [False] * 4
    root = _farm(tmp_path)
    icons = {
        "Corn": "  iconSprite: {fileID: 21300000, guid: 9ae90aec1096d0c4196803146b79c35c, type: 3}\n",
        "Pumpkin": "  iconSprite: {fileID: 0}\n",
    }
    for crop, icon in icons.items():
        (root / f"Assets/Data/Resources/{crop}.asset").write_text(data_asset(RESOURCE_GUID, crop, icon))
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    resources = [f"Assets/Data/Resources/{crop}.asset" for crop in ("Wasabi", "Corn", "Pumpkin")]
    with project.reading():
        assert values_named(project, resources, "how much does wasabi sell for") == [resources[0]]
        assert values_named(project, resources, "how much does corn sell for") == []
        assert values_named(project, resources, "how much does a pumpkin sell for") == []
