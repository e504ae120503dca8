"""Addressables: the assets a group lists, and code loading them by address or label, tied to them
(scanners/addressables.py, query/loads.py)."""

from __future__ import annotations

import json
from pathlib import Path

from indexer.model import Ref
from indexer.scanners.addressables import GroupEntry, group_entries
from indexer.scanners.unity_yaml import scan

from .conftest import meta, run_cli, write_project

GOBLIN, ORC, BANNER, TROLL = "a1" * 16, "b2" * 16, "c3" * 16, "e5" * 16
GROUP = f"""%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!114 &11400000
MonoBehaviour:
  m_ObjectHideFlags: 0
  m_Script: {{fileID: 11500000, guid: bbb281ee3bf0b054c82ac2347e9e782c, type: 3}}
  m_Name: Enemies
  m_GroupName: Enemies
  m_Data:
    m_SerializedData: []
  m_GUID: 95a3c2cd5e0a1b745a3fd1ce16c01ff9
  m_SerializeEntries:
  - m_GUID: {GOBLIN.upper()}
    m_Address: Goblin
    m_ReadOnly: 0
    m_SerializedLabels:
    - enemies
    - melee
    FlaggedDuringContentUpdateRestriction: 0
  - m_GUID: {ORC}
    m_Address: 'Enemies/Orc: Chief'
    m_ReadOnly: 0
    m_SerializedLabels: [enemies]
  - m_GUID: {BANNER}
    m_Address: Assets/Art/Banner.png
    m_ReadOnly: 0
    m_SerializedLabels: []
  m_ReadOnly: 0
  m_Settings: {{fileID: 11400000, guid: 735e874f947d0e143a6b4e83f8a7283a, type: 2}}
"""


def test_a_group_lists_each_asset_with_its_address_and_labels_but_not_its_own_guid() -> None:
    body = GROUP.split("MonoBehaviour:\n", 1)[1]
    assert group_entries(body) == [
        GroupEntry(GOBLIN, "Goblin", ("enemies", "melee"), 8),
        GroupEntry(ORC, "Enemies/Orc: Chief", ("enemies",), 15),
        GroupEntry(BANNER, "Assets/Art/Banner.png", (), 19),
    ]
    refs = [r for r in scan("Assets/AddressableAssetsData/Enemies.asset", GROUP.encode(), "asset").refs]
    detail = "Enemies > script:bbb281ee3bf0b054c82ac2347e9e782c"
    assert [r for r in refs if r.context == "m_SerializeEntries" or r.kind == "address"] == [
        Ref("guid", GOBLIN, 13, "m_SerializeEntries", detail),
        Ref("address", "Goblin", 13, "address", GOBLIN),
        Ref("address", "enemies", 13, "label", GOBLIN),
        Ref("address", "melee", 13, "label", GOBLIN),
        Ref("guid", ORC, 20, "m_SerializeEntries", detail),
        Ref("address", "Enemies/Orc: Chief", 20, "address", ORC),
        Ref("address", "enemies", 20, "label", ORC),
        Ref("guid", BANNER, 24, "m_SerializeEntries", detail),
        Ref("address", "Assets/Art/Banner.png", 24, "address", BANNER),
    ]


TROLL_ENTRY = (
    f"  - m_GUID: {TROLL}\n    m_Address: Orc Chief\n    m_ReadOnly: 0\n    m_SerializedLabels: []\n"
    "  m_ReadOnly: 0\n  m_Settings"
)


def test_code_loading_by_address_or_label_is_tied_to_the_assets_and_listed_by_refs(tmp_path: Path) -> None:
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    prefab = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &1\nGameObject:\n  m_Name: {}\n"
    source = """using UnityEngine;
using UnityEngine.AddressableAssets;
public class Spawner : MonoBehaviour {
    void Start() {
        Addressables.InstantiateAsync("Goblin");
        Addressables.LoadAssetsAsync<GameObject>("enemies", null);
        Addressables.LoadAssetAsync<GameObject>("Troll");
        Addressables.LoadAssetAsync<GameObject>("Orc Chief");
    }
}
"""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/AddressableAssetsData/Enemies.asset": GROUP.replace("  m_ReadOnly: 0\n  m_Settings", TROLL_ENTRY),
            "Assets/AddressableAssetsData/Enemies.asset.meta": meta("d4" * 16, "NativeFormatImporter"),
            "Assets/Enemies/Goblin.prefab": prefab.format("Goblin"),
            "Assets/Enemies/Goblin.prefab.meta": meta(GOBLIN, "PrefabImporter"),
            "Assets/Enemies/Orc.prefab": prefab.format("Orc"),
            "Assets/Enemies/Orc.prefab.meta": meta(ORC, "PrefabImporter"),
            "Assets/Enemies/Troll.prefab": prefab.format("Troll"),
            "Assets/Enemies/Troll.prefab.meta": meta(TROLL, "PrefabImporter"),
            "Assets/Scripts/Spawner.cs": source,
        },
    )
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    # "Troll" is no address: a literal naming no asset is no edge; "Orc Chief", with a space and
    # no `/`, is a key only handed to a loading call (since session 32), which it is: Troll's address
    assert [p for p, e in graph.uses("Assets/Scripts/Spawner.cs") if e == "loads"] == [
        "Assets/Enemies/Goblin.prefab",
        "Assets/Enemies/Orc.prefab",
        "Assets/Enemies/Troll.prefab",
    ]
    target = graph.target("Assets/Enemies/Goblin.prefab")
    assert [(u.path, u.line, u.kind, u.context) for u in graph.references(target)] == [
        ("Assets/AddressableAssetsData/Enemies.asset", 13, "guid", "m_SerializeEntries"),
        ("Assets/Scripts/Spawner.cs", 5, "loads", "literal"),
        ("Assets/Scripts/Spawner.cs", 6, "loads", "literal"),
    ]
    # the group shows each asset it lists on one line, with the names it gives it
    out = run_cli("describe", "Assets/AddressableAssetsData/Enemies.asset", "--project", str(root))
    assert out.returncode == 0, out.stderr
    listed = [line for line in out.stdout.splitlines() if "(m_SerializeEntries" in line]
    assert listed == [
        '  Assets/Enemies/Goblin.prefab (m_SerializeEntries, address "Goblin", label "enemies", label "melee")',
        '  Assets/Enemies/Orc.prefab (m_SerializeEntries, address "Enemies/Orc: Chief", label "enemies")',
        f'  guid:{BANNER} (not in project) (m_SerializeEntries, address "Assets/Art/Banner.png")',
        '  Assets/Enemies/Troll.prefab (m_SerializeEntries, address "Orc Chief")',
    ]


def test_a_label_on_many_assets_ties_the_code_to_the_first_four_by_path(tmp_path: Path) -> None:
    """docs/indexing.md: a label names every asset it is on, "the first 4 by path as for any key"
    (query/loads.MAX_TARGETS: a key names candidates, and a loader of hundreds is no edge to each)."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    entries = "".join(
        f"  - m_GUID: {i:x}{'0' * 31}\n    m_Address: Coin{i}\n    m_ReadOnly: 0\n"
        "    m_SerializedLabels:\n    - coins\n"
        for i in range(1, 7)
    )
    group = GROUP.split("  m_SerializeEntries:\n")[0] + "  m_SerializeEntries:\n" + entries
    files = {
        "Assets/Groups/Coins.asset": group,
        "Assets/Scripts/Bank.cs": 'class Bank { void A() { Addressables.LoadAssetsAsync<Coin>("coins", null); } }',
    }
    for i in range(1, 7):
        files[f"Assets/Coins/Coin{i}.asset"] = f"%YAML 1.1\n--- !u!114 &1\nMonoBehaviour:\n  m_Name: Coin{i}\n"
        files[f"Assets/Coins/Coin{i}.asset.meta"] = meta(f"{i:x}{'0' * 31}", "NativeFormatImporter")
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    assert [p for p, e in graph.uses("Assets/Scripts/Bank.cs") if e == "loads"] == [
        f"Assets/Coins/Coin{i}.asset" for i in range(1, 5)
    ]


def test_only_a_call_or_a_scene_loads_by_address_and_a_commented_call_is_no_usage(tmp_path: Path) -> None:
    """An address is a common word: a literal loads by one when it opens a call's arguments or is
    said of a scene (scanners/csharp_strings.py), not a button's label equal to it; and a call in a
    comment loads nothing, so `refs` shows the line that does, not the commented one above it;
    the group listing the asset is shown by the names it gives it."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    prefab = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &1\nGameObject:\n  m_Name: Goblin\n"
    loader = """using UnityEngine.AddressableAssets;
public class Spawner {
    void Start() {
        // Addressables.InstantiateAsync("Goblin");
        /* Addressables.InstantiateAsync("Goblin"); */
        Addressables.InstantiateAsync(
            "Goblin");
    }
}
"""
    label = 'public class ShopUI { void Show() { title.text = "Goblin"; var all = new[] { "x", "Goblin" }; } }'
    root = write_project(
        tmp_path / "P",
        {
            "Assets/AddressableAssetsData/Enemies.asset": GROUP,
            "Assets/Enemies/Goblin.prefab": prefab,
            "Assets/Enemies/Goblin.prefab.meta": meta(GOBLIN, "PrefabImporter"),
            "Assets/Scripts/Spawner.cs": loader,
            "Assets/Scripts/ShopUI.cs": label,
        },
    )
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    assert [p for p, e in graph.uses("Assets/Scripts/ShopUI.cs") if e == "loads"] == []
    assert [p for p, e in graph.uses("Assets/Scripts/Spawner.cs") if e == "loads"] == ["Assets/Enemies/Goblin.prefab"]
    out = run_cli("refs", "Assets/Enemies/Goblin.prefab", "--project", str(root), "--json")
    assert out.returncode == 0, out.stderr
    usages = json.loads(out.stdout)["usages"]
    assert [(u["path"], u["line"]) for u in usages if u["where"] == "code"] == [("Assets/Scripts/Spawner.cs", 7)]
    # the group's line names the asset as the group does (it named the group's package script)
    assert [(u["path"], u["detail"]) for u in usages if u["where"] == "asset"] == [
        ("Assets/AddressableAssetsData/Enemies.asset", 'address "Goblin", label "enemies", label "melee"')
    ]


def test_a_literal_said_of_a_scene_loads_by_address_and_an_entry_without_one_says_so(tmp_path: Path) -> None:
    """query/loads.LOADING_CONTEXTS: a literal after the word scene (`string bossScene = "Goblin"`)
    answers to an address like a call's; a group entry giving no address or label is shown so."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    prefab = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &1\nGameObject:\n  m_Name: {}\n"
    bare = GROUP.replace("    m_Address: 'Enemies/Orc: Chief'\n", "").replace("    m_SerializedLabels: [enemies]\n", "")
    root = write_project(
        tmp_path / "P",
        {
            "Assets/AddressableAssetsData/Enemies.asset": bare,
            "Assets/Enemies/Goblin.prefab": prefab.format("Goblin"),
            "Assets/Enemies/Goblin.prefab.meta": meta(GOBLIN, "PrefabImporter"),
            "Assets/Enemies/Orc.prefab": prefab.format("Orc"),
            "Assets/Enemies/Orc.prefab.meta": meta(ORC, "PrefabImporter"),
            "Assets/Scripts/Boss.cs": 'public class Boss { string bossScene = "Goblin"; }\n',
        },
    )
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    assert [p for p, e in graph.uses("Assets/Scripts/Boss.cs") if e == "loads"] == ["Assets/Enemies/Goblin.prefab"]
    orc = [u.detail for u in graph.references(graph.target("Assets/Enemies/Orc.prefab")) if u.where == "asset"]
    assert orc == ["no address"]


def test_a_group_schema_s_paths_are_named_by_the_profile_variables_they_are(tmp_path: Path) -> None:
    """A trial: `describe Hats_BundledAssetGroupSchema.asset` showed `m_LoadPath: {m_Id}`, so which
    groups load remotely could not be told; the settings asset names each variable's id."""
    from indexer.query.describe import describe

    from .test_graph import graph_for

    remote, local = "2d" * 16, "cb" * 16
    settings = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n"
        "  m_Name: AddressableAssetSettings\n  m_ProfileSettings:\n    m_Profiles:\n    - m_InheritedParent: \n"
        f"      m_Id: 70a5a665e703a974cb424df99c72f798\n      m_ProfileName: Default\n      m_Values:\n"
        f"      - m_Id: {remote}\n        m_Value: http://localhost/[BuildTarget]\n    m_ProfileEntryNames:\n"
        f"    - m_Id: {local}\n      m_Name: LocalLoadPath\n      m_InlineUsage: 0\n"
        f"    - m_Id: {remote}\n      m_Name: RemoteLoadPath\n      m_InlineUsage: 0\n"
    )
    schema = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n"
        "  m_Script: {fileID: 11500000, guid: e5d17a21563eb0c4ab2e24dee6d28f6a, type: 3}\n"
        f"  m_Name: Hats_BundledAssetGroupSchema\n  m_BuildPath:\n    m_Id: {'8c' * 16}\n"
        f"  m_LoadPath:\n    m_Id: {remote}\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/AddressableAssetsData/AddressableAssetSettings.asset": settings,
            "Assets/AddressableAssetsData/AssetGroups/Schemas/Hats_BundledAssetGroupSchema.asset": schema,
        },
    )
    path = "Assets/AddressableAssetsData/AssetGroups/Schemas/Hats_BundledAssetGroupSchema.asset"
    lines = describe(graph_for(root), path).text.splitlines()
    assert [line for line in lines if "Path: " in line] == [
        f"  L7 m_BuildPath: {{m_Id: {'8c' * 16}}}",  # no variable of that id: as written
        f"  L9 m_LoadPath: {{m_Id: {remote}}} (RemoteLoadPath)",
    ]
