"""An object's serialized fields past the first MAX_FIELDS_PER_OBJECT: Unity writes a base class's
fields first, so a subclass's own come last and are kept (`yaml_facts.fields_left_out`, session 43)."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.workspace import open_workspace
from indexer.scanners.unity_yaml import scan
from indexer.scanners.yaml_facts import LAST_FIELDS_KEPT, MAX_FIELDS_PER_OBJECT, fields_left_out

from .conftest import meta, write_project

SCRIPT = "30d44321003fdc44da9528d2c6da3438"
# an inventory item's 40 fields (the base class), then a melee weapon's own
BASE = [f"  itemStat{i}: {i}" for i in range(MAX_FIELDS_PER_OBJECT)]
MELEE = ["  canDualWield: 1", "  minDamageRange: {x: 2, y: 4}", "  maxDamageRange: {x: 5, y: 6}"]
HEAD = f"""%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!114 &11400000
MonoBehaviour:
  m_ObjectHideFlags: 0
  m_CorrespondingSourceObject: {{fileID: 0}}
  m_PrefabInstance: {{fileID: 0}}
  m_PrefabAsset: {{fileID: 0}}
  m_GameObject: {{fileID: 0}}
  m_Enabled: 1
  m_EditorHideFlags: 0
  m_Script: {{fileID: 11500000, guid: {SCRIPT}, type: 3}}
  m_Name: Dagger - Iron
  m_EditorClassIdentifier:
"""


def asset(fields: list[str]) -> bytes:
    return (HEAD + "\n".join(fields) + "\n").encode()


def field_names(data: bytes) -> list[str]:
    return [s.name for s in scan("Assets/Items/Dagger - Iron.asset", data).symbols if s.kind == "field"]


def test_the_positions_left_out_are_between_the_first_forty_and_the_last_twenty() -> None:
    assert (MAX_FIELDS_PER_OBJECT, LAST_FIELDS_KEPT) == (40, 20)
    assert list(fields_left_out(60)) == []
    assert list(fields_left_out(12)) == []
    assert list(fields_left_out(63)) == [40, 41, 42]


def test_a_subclass_s_own_fields_after_forty_of_its_base_are_kept() -> None:
    """Before, the record stopped at the 40th field: a dagger's damage was in no record."""
    assert field_names(asset(BASE + MELEE)) == [f"itemStat{i}" for i in range(40)] + [
        "canDualWield",
        "minDamageRange",
        "maxDamageRange",
    ]


def test_past_sixty_fields_the_first_forty_and_the_last_twenty_are_kept() -> None:
    many = BASE + [f"  subclassStat{i}: {i}" for i in range(30)]
    assert field_names(asset(many)) == [f"itemStat{i}" for i in range(40)] + [f"subclassStat{i}" for i in range(10, 30)]


def test_both_yaml_readers_keep_the_same_fields(tmp_path: Path) -> None:
    from tests import yaml_differential

    many = BASE + [f"  subclassStat{i}: {{x: {i}, y: 1}}" for i in range(30)]
    files = {"Assets/A.asset": asset(many).decode(), "Assets/B.asset": asset(BASE + MELEE).decode()}
    root = write_project(tmp_path / "P", files)
    result = yaml_differential.run([root], show=3)
    assert (result.compared, result.differing) == (result.documents, 0), yaml_differential.report(result)


def test_the_dagger_is_found_and_described_by_its_damage(tmp_path: Path) -> None:
    """ "how much damage does the iron dagger do" finds the item asset by its `minDamageRange` (its
    42nd field), and `describe` shows it with its line."""
    from indexer.query.describe import describe

    root = write_project(
        tmp_path,
        {
            "Assets/Items/Dagger - Iron.asset": asset(BASE + MELEE).decode(),
            "Assets/Items/Dagger - Iron.asset.meta": meta("5831dfb90757e1042a06b642f27604bf", "NativeFormatImporter"),
            "Assets/Scripts/Item_MeleeWeapon.cs": (
                "public class Item_MeleeWeapon : Item { public Vector2 minDamageRange; }"
            ),
            "Assets/Scripts/Item_MeleeWeapon.cs.meta": meta(SCRIPT),
            "Assets/Scripts/Item.cs": "public class Item : ScriptableObject { }",
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    hits = ws.search("how much damage does the iron dagger do", 5)
    dagger = next(h for h in hits if h.path == "Assets/Items/Dagger - Iron.asset")
    assert "minDamageRange" in dagger.snippet
    text = describe(ws.projects[0].graph, "Assets/Items/Dagger - Iron.asset").text
    assert "  L56 minDamageRange: {x: 2, y: 4}" in text.splitlines()
