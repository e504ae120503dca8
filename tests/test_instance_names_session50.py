"""A prefab instance no `m_Name` override renames is named as Unity shows it: its source prefab's
root object's `m_Name`, which may differ from the prefab's file name (`Enemy.prefab` whose root is
`Goblin`); before session 50 `describe` and the answers naming objects inside it used the file name."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.lookup import describe_target
from indexer.query.workspace import open_workspace

from .conftest import meta, write_project

ENEMY = "e1" * 16
HEADER = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
# The prefab's root is `Goblin` (renamed in the prefab, the file kept), with a child `Club`.
PREFAB = (
    HEADER
    + "--- !u!1 &100\nGameObject:\n  m_Component:\n  - component: {fileID: 101}\n  m_Name: Goblin\n  m_IsActive: 1\n"
    + "--- !u!4 &101\nTransform:\n  m_GameObject: {fileID: 100}\n  m_Children:\n  - {fileID: 201}\n"
    + "  m_Father: {fileID: 0}\n"
    + "--- !u!1 &200\nGameObject:\n  m_Component:\n  - component: {fileID: 201}\n  m_Name: Club\n  m_IsActive: 1\n"
    + "--- !u!4 &201\nTransform:\n  m_GameObject: {fileID: 200}\n  m_Children: []\n  m_Father: {fileID: 101}\n"
)


def _instance(anchor: int, x: str, name: str = "") -> str:
    """A scene's instance of Enemy.prefab moved to `x`, renamed `name` when given."""
    mods = [("m_LocalPosition.x", x)] + ([("m_Name", name)] if name else [])
    target = {"m_Name": 100}
    listed = "".join(
        f"    - target: {{fileID: {target.get(p, 101)}, guid: {ENEMY}, type: 3}}\n"
        f"      propertyPath: {p}\n      value: {v}\n      objectReference: {{fileID: 0}}\n"
        for p, v in mods
    )
    return (
        f"--- !u!1001 &{anchor}\nPrefabInstance:\n  m_Modification:\n    m_TransformParent: {{fileID: 0}}\n"
        f"    m_Modifications:\n{listed}  m_SourcePrefab: {{fileID: 100100000, guid: {ENEMY}, type: 3}}\n"
    )


def _project(tmp_path: Path, scene: str) -> Path:
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Prefabs/Enemy.prefab": PREFAB,
            "Assets/Prefabs/Enemy.prefab.meta": meta(ENEMY, "PrefabImporter"),
            "Assets/Scenes/Cave.unity": HEADER + scene,
        },
    )
    update(root, Config(workers=1))
    return root


def _describe(root: Path) -> list[str]:
    _, desc = describe_target(open_workspace(root, [(root, Config())]), "Assets/Scenes/Cave.unity")
    return desc.text.split("\n")


def test_an_unnamed_instance_is_named_by_its_source_prefabs_root(tmp_path: Path) -> None:
    lines = _describe(_project(tmp_path, _instance(900, "3") + _instance(950, "5", name="Boss")))
    assert [line for line in lines if "prefab instance of" in line] == [
        "Goblin  (prefab instance of Assets/Prefabs/Enemy.prefab)  L3",
        "Boss  (prefab instance of Assets/Prefabs/Enemy.prefab)  L13",
    ], "\n".join(lines)


def test_instances_only_placed_are_listed_by_their_source_prefabs_root(tmp_path: Path) -> None:
    lines = _describe(_project(tmp_path, _instance(900, "3") + _instance(950, "5") + _instance(990, "7")))
    assert [line for line in lines if "instances of" in line] == [
        "Goblin  (3 instances of Assets/Prefabs/Enemy.prefab, placed)  L3"
    ], "\n".join(lines)


TORCH = "70" * 16


def test_an_object_inside_an_unnamed_instance_is_named_by_its_source_prefabs_root(tmp_path: Path) -> None:
    """`refs` of a script added to the instance's child: `Goblin/Club`, where it read `Enemy/Club`."""
    from indexer.query.locate import references_of

    added = (
        f"--- !u!1 &300 stripped\nGameObject:\n  m_CorrespondingSourceObject: {{fileID: 200, guid: {ENEMY}, type: 3}}\n"
        "  m_PrefabInstance: {fileID: 900}\n"
        f"--- !u!114 &310\nMonoBehaviour:\n  m_GameObject: {{fileID: 300}}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {TORCH}, type: 3}}\n  m_Name: \n"
    )
    root = _project(tmp_path, _instance(900, "3") + added)
    (root / "Assets/Torch.cs").write_text("public class Torch : UnityEngine.MonoBehaviour { }\n")
    (root / "Assets/Torch.cs.meta").write_text(meta(TORCH))
    update(root, Config(workers=1))
    _, usages = references_of(open_workspace(root, [(root, Config())]), "Torch")
    assert [(u.path, u.detail) for u in usages if u.where == "asset"] == [("Assets/Scenes/Cave.unity", "Goblin/Club")]


def test_a_query_hit_on_an_unnamed_instance_is_named_by_its_source_prefabs_root(tmp_path: Path) -> None:
    """A query's scene hit naming the instance (`pointing.pointed`, `_at_carrier`): `Goblin`, where
    it read `Enemy`."""
    root = _project(tmp_path, _instance(900, "3"))
    hits = open_workspace(root, [(root, Config())]).search("Club", 5)
    assert [(h.path, h.line, h.name, h.snippet) for h in hits if h.path.endswith(".unity")] == [
        ("Assets/Scenes/Cave.unity", 3, "Goblin", "prefab instance of Assets/Prefabs/Enemy.prefab")
    ]
