"""A twenty-sixth trial on unseen games (docs/retrieval.md, "Session 54, a twenty-sixth trial"):
what it found wrong, on small projects of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.query.linked_records import _linked
from indexer.query.synonyms import synonym_words

from .conftest import data_asset, meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked

BOARD = "Assets/Prefabs/CuttingBoard.prefab"
REGISTRY = "Assets/Prefabs/ItemRegistry.prefab"
ITEMS = ("Cabbage", "CabbageSlices", "Tomato", "TomatoSlices")
_NAMES = ("ItemData", "Item", "CuttingBoard", "ItemRegistry", *ITEMS)
_GUIDS = {name: f"{i + 1:02x}" + "ab" * 15 for i, name in enumerate(_NAMES)}


def _ref(name: str) -> str:
    return f"{{fileID: 11400000, guid: {_GUIDS[name]}, type: 2}}"


def _kitchen(tmp_path: Path, crates: int = 0) -> Path:
    """A kitchen: four items (a data asset and a prefab each), a cutting board whose prefab lists
    its recipes (each an `input` item, an `output` item and its `maxCuts`: no word of a task), a
    registry listing every item in one field, eight scripts telling of slices, and `crates`
    crates' prefabs each holding the cabbage."""
    files: dict[str, str] = {
        "Assets/Scripts/ItemData.cs": "using UnityEngine;\npublic class ItemData : ScriptableObject\n{\n"
        "    public GameObject prefab;\n    public Sprite icon;\n}\n",
        "Assets/Scripts/Item.cs": mono_script("Item", "    public ItemData data;"),
        "Assets/Scripts/CuttingBoard.cs": mono_script(
            "CuttingBoard",
            "    [System.Serializable] public class Recipe { public ItemData input; public ItemData output;"
            " public int maxCuts = 3; }\n    public Recipe[] recipes;\n    public void Cut() { }",
        ),
        "Assets/Scripts/ItemRegistry.cs": mono_script("ItemRegistry", "    public ItemData[] items;"),
        BOARD: script_prefab(
            "CuttingBoard",
            _GUIDS["CuttingBoard"],
            f"  recipes:\n  - input: {_ref('Cabbage')}\n    output: {_ref('CabbageSlices')}\n    maxCuts: 5\n"
            f"  - input: {_ref('Tomato')}\n    output: {_ref('TomatoSlices')}\n    maxCuts: 3\n",
        ),
        REGISTRY: script_prefab(
            "ItemRegistry", _GUIDS["ItemRegistry"], "  items:\n" + "".join(f"  - {_ref(n)}\n" for n in ITEMS)
        ),
    }
    for name in ("ItemData", "Item", "CuttingBoard", "ItemRegistry"):
        files[f"Assets/Scripts/{name}.cs.meta"] = meta(_GUIDS[name])
    for prefab in (BOARD, REGISTRY):
        files[f"{prefab}.meta"] = meta("cd" + _GUIDS[prefab.rsplit("/", 1)[1][:-7]][2:], "PrefabImporter")
    for name in ITEMS:
        files[f"Assets/Data/{name}.asset"] = data_asset(_GUIDS["ItemData"], name, "  icon: {fileID: 0}\n")
        files[f"Assets/Data/{name}.asset.meta"] = meta(_GUIDS[name], "NativeFormatImporter")
        files[f"Assets/Prefabs/Items/{name}.prefab"] = script_prefab(name, _GUIDS["Item"], f"  data: {_ref(name)}\n")
        files[f"Assets/Prefabs/Items/{name}.prefab.meta"] = meta("ef" + _GUIDS[name][2:], "PrefabImporter")
    for i in range(8):
        name = f"SlicesEffect{i}"
        files[f"Assets/Scripts/Effects/{name}.cs"] = mono_script(
            name, f"    // the slices fly off the board ({i})\n    public float slicesSpeed{i} = {i};"
        )
        files[f"Assets/Scripts/Effects/{name}.cs.meta"] = meta(f"{i:02x}" + "cd" * 15)
    for i in range(crates):
        files[f"Assets/Prefabs/Crates/Crate{i}.prefab"] = script_prefab(
            f"Crate{i}", _GUIDS["ItemRegistry"], f"  items:\n  - {_ref('Cabbage')}\n"
        )
    return write_project(tmp_path, files)


def test_the_recipe_between_two_best_items_ranks_with_them(tmp_path: Path) -> None:
    """ "How many chops before a cabbage turns into slices": the cabbage's and the slices' files
    rank first; the cutting board, whose one recipe holds both items (`input`, `output`) beside
    its cuts, ranks in the first five, right under them (it was not in the ten best, under eight
    scripts saying "slices"); the registry listing every item in one field is not raised."""
    root = _kitchen(tmp_path)
    ranked = _ranked(root, "How many chops does it take before a cabbage turns into slices?", 10)
    assert BOARD in ranked[:5]
    assert REGISTRY not in ranked


def test_the_recipe_says_what_ranks_it(tmp_path: Path) -> None:
    """The board's reason names the record, not the walk's edge to one item."""
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    root = _kitchen(tmp_path)
    _ranked(root, "How many chops does it take before a cabbage turns into slices?", 10)
    hits = open_workspace(root, [(root, Config())]).search(
        "How many chops does it take before a cabbage turns into slices?", 10
    )
    board = next(h for h in hits if h.path == BOARD)
    assert "links Assets/Data/CabbageSlices.asset to another hit in one record" in board.reason


def test_an_item_many_files_hold_links_nothing(tmp_path: Path) -> None:
    """With nine crates holding the cabbage, its references are a hub's: the board is not raised."""
    ranked = _ranked(
        _kitchen(tmp_path, crates=9), "How many chops does it take before a cabbage turns into slices?", 10
    )
    assert BOARD not in ranked[:5]


def test_one_record_links_two_fields_near_each_other() -> None:
    """Two references in one component, in two fields a few lines apart, are one record; two
    items of one list (a registry's `items`), another component's or lines far apart are not."""
    cabbage = (("a.prefab", 10, "input", "Board > script:1"), ("reg.prefab", 5, "items", "Reg > script:2"))
    slices = (("a.prefab", 11, "output", "Board > script:1"), ("reg.prefab", 6, "items", "Reg > script:2"))
    assert _linked(cabbage, slices) == {"a.prefab"}
    assert _linked(cabbage, (("a.prefab", 11, "output", "Other > script:3"),)) == set()
    assert _linked(cabbage, (("a.prefab", 30, "output", "Board > script:1"),)) == set()


def test_demolishing_is_removing() -> None:
    """ "Demolish" and "bulldoze" search the code's `Remove` and `Removal` (a city builder's
    `StructureRemovalHelper`, `_removalPrice`), and "remove" searches them."""
    assert {"remove", "removal"} <= set(synonym_words(["demolishing"]))
    assert {"remove", "removal"} <= set(synonym_words(["bulldoze"]))
    assert "demolish" in synonym_words(["remove"])
