"""A registry reached through the items it lists (docs/retrieval.md, "Session 55, a registry
reached through what it lists"): a data asset whose list holds the prefabs of the best hits."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.query import registries
from indexer.query.registries import asks_items, raise_item_registries
from indexer.query.walk import reason
from indexer.query.workspace import open_workspace

from .conftest import FakePairs, data_asset, meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked

CATALOG_GUID = "6c3f1d6c8e3f5f7b9cad1e2f3a4b5c01"
KINDS = ("Cannon", "Mortar", "Laser", "Frost")
SCRIPT_GUIDS = {k: f"6c3f1d6c8e3f5f7b9cad1e2f3a4b5d{i:02d}" for i, k in enumerate(KINDS)}
MENU_GUID = "6c3f1d6c8e3f5f7b9cad1e2f3a4b5c02"
TOWER_GUID = "6c3f1d6c8e3f5f7b9cad1e2f3a4b5c03"
PREFAB_GUIDS = {k: f"6c3f1d6c8e3f5f7b9cad1e2f3a4b5e{i:02d}" for i, k in enumerate(KINDS)}


def test_a_task_asking_a_list_a_new_item_or_each_one_asks_for_items() -> None:
    """Words the search drops as common ("each", "add", "another", "every") and the listing words."""
    for text in ("how much each tower costs", "Add a fifth tower type", "which asset lists every gem", "another enemy"):
        assert asks_items(text), text
    for text in ("why does the cannon tower miss", "where is the laser's damage set"):
        assert not asks_items(text), text


def _towers(tmp_path: Path, holders: dict[str, tuple[str, ...]] | None = None, base: str = "Tower") -> Path:
    """A tower defense: one script per tower kind, each on its own prefab, and a catalog data
    asset (its class saying nothing of towers) whose list holds each prefab with its price.
    `holders`: more files holding prefabs (path -> kinds held); `base`: the class the tower
    classes derive from (`Tower`, the project's; `MonoBehaviour`: things of no one kind)."""
    files: dict[str, str] = {
        "Assets/Scripts/Catalog.cs": (
            "using UnityEngine;\nusing System.Collections.Generic;\n"
            "public class Catalog : ScriptableObject\n{\n    public List<Entry> entries;\n}\n"
            "[System.Serializable]\npublic class Entry\n{\n    public GameObject prefab;\n    public int price;\n}\n"
        ),
        "Assets/Scripts/Catalog.cs.meta": meta(CATALOG_GUID),
        "Assets/Scripts/Tower.cs": "using UnityEngine;\npublic abstract class Tower : MonoBehaviour\n{\n}\n",
        "Assets/Scripts/Tower.cs.meta": meta(TOWER_GUID),
    }
    for kind in KINDS:
        body = f"    public float range;\n    public float fireRate;\n    // the {kind.lower()} tower builds and shoots"
        files[f"Assets/Scripts/{kind}Tower.cs"] = mono_script(f"{kind}Tower", body).replace("MonoBehaviour", base)
        files[f"Assets/Scripts/{kind}Tower.cs.meta"] = meta(SCRIPT_GUIDS[kind])
        files[f"Assets/Prefabs/{kind}.prefab"] = script_prefab(kind, SCRIPT_GUIDS[kind], "  range: 4\n  fireRate: 1\n")
        files[f"Assets/Prefabs/{kind}.prefab.meta"] = meta(PREFAB_GUIDS[kind], "PrefabImporter")
    for path, kinds in {"Assets/Data/Shop.asset": KINDS, **(holders or {})}.items():
        rows = "".join(f"  - prefab: {{fileID: 100, guid: {PREFAB_GUIDS[k]}, type: 3}}\n    price: 50\n" for k in kinds)
        files[path] = data_asset(CATALOG_GUID, Path(path).stem, f"  entries:\n{rows}")
    return write_project(tmp_path, files)


def test_the_asset_listing_the_best_hits_prefabs_ranks_for_each_one_s_value(tmp_path: Path, monkeypatch) -> None:
    """ "Where do I change how much each tower costs to build?": the four tower scripts say
    "tower", the shop asset listing their prefabs with prices says nothing of towers; it ranks
    5th, 9th without the rule (ITEMS_LEAST out of reach)."""
    root = _towers(tmp_path)
    task = "Where do I change how much each tower costs to build?"
    assert "Assets/Data/Shop.asset" in _ranked(root, task, 5)
    monkeypatch.setattr(registries, "ITEMS_LEAST", 99)
    assert "Assets/Data/Shop.asset" not in _ranked(root, task, 5)


def _raised(root: Path, best: list[str]) -> dict:
    update(root, Config(workers=1))
    pairs = FakePairs(open_workspace(root, [(root, Config())]).projects[0], best)
    raise_item_registries(pairs)
    return pairs.raised


SCRIPTS = [f"Assets/Scripts/{k}Tower.cs" for k in KINDS]


def test_a_data_asset_holding_items_of_three_best_hits_is_raised_from_the_best(tmp_path: Path) -> None:
    """Scripts reach it through the prefabs carrying them, prefabs directly; 0.9 of the best
    reaching hit's score, and its class (`Catalog.cs`, where a new item's fields are declared) 0.9
    of that, since session 56. A prefab holding the same items (a menu) is no registry; two hits
    are too few."""
    rows = "".join(f"  - {{fileID: 100, guid: {PREFAB_GUIDS[k]}, type: 3}}\n" for k in KINDS)
    menu = {
        "Assets/Scripts/Menu.cs": mono_script("Menu", "    public GameObject[] shown;"),
        "Assets/Scripts/Menu.cs.meta": meta(MENU_GUID),
        "Assets/Prefabs/Menu.prefab": script_prefab("Menu", MENU_GUID, f"  shown:\n{rows}"),
    }
    root = write_project(_towers(tmp_path), menu)
    best = ["Assets/Scripts/Catalog.cs", SCRIPTS[0], "Assets/Prefabs/Mortar.prefab", SCRIPTS[2]]
    assert _raised(root, best) == {
        "Assets/Data/Shop.asset": (pytest.approx(8.1), ("lists_items_of", SCRIPTS[0], ())),
        "Assets/Scripts/Catalog.cs": (pytest.approx(7.29), ("script", "Assets/Data/Shop.asset", ())),  # session 56
    }
    assert _raised(root, SCRIPTS[:2]) == {}
    assert reason("lists_items_of", SCRIPTS[0], ()) == f"lists the items of {SCRIPTS[0]} and other hits"


def test_many_holders_or_a_common_component_raise_nothing(tmp_path: Path, monkeypatch) -> None:
    """More than REGISTRY_HOLDERS data assets holding the items: none is the registry. A script
    more than ITEMS_CARRIERS prefabs carry is a common component, no item."""
    extra = {f"Assets/Data/Wave{i}.asset": KINDS[:3] for i in range(2)}
    assert _raised(_towers(tmp_path / "a", extra), SCRIPTS[:3]) == {}
    monkeypatch.setattr(registries, "ITEMS_CARRIERS", 0)
    assert _raised(_towers(tmp_path / "b"), SCRIPTS[:3]) == {}


def test_a_list_of_things_of_no_one_kind_is_no_registry(tmp_path: Path) -> None:
    """Session 56: the same shop whose four prefabs carry scripts sharing no project class (each
    its own `MonoBehaviour`, as a bootstrap list of the game's managers) lists no kind of item:
    not raised. Towers sharing a project base class, or one script on two of them, are a kind."""
    assert _raised(_towers(tmp_path / "a", base="MonoBehaviour"), SCRIPTS[:3]) == {}
    assert list(_raised(_towers(tmp_path / "b"), SCRIPTS[:3])) == [
        "Assets/Data/Shop.asset",
        "Assets/Scripts/Catalog.cs",
    ]
    shared = {"Assets/Prefabs/Laser.prefab": script_prefab("Laser", SCRIPT_GUIDS["Cannon"])}
    assert list(
        _raised(
            write_project(_towers(tmp_path / "c", base="MonoBehaviour"), shared),
            [*SCRIPTS[:1], "Assets/Prefabs/Mortar.prefab", "Assets/Prefabs/Laser.prefab"],
        )
    ) == ["Assets/Data/Shop.asset", "Assets/Scripts/Catalog.cs"]
