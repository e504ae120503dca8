"""Components of common Unity packages, whose scripts live outside the project, are named by the
script GUIDs their packages' `.meta` files give them (indexer/query/package_scripts.json)."""

from __future__ import annotations

import re
from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.package_classes import PACKAGES
from indexer.query.workspace import open_workspace, projects_at

from .conftest import write_project
from .test_graph import graph_for

_NETWORK_OBJECT = "d5a57f767e5e46a458fc5d3c628d0cbb"  # com.unity.netcode.gameobjects
_NETWORK_TRANSFORM = "e96cb6065543e43c4a752faaa1468eb1"
_VIRTUAL_CAMERA = "45e653bab7fb20e499bda25e1b646fea"  # com.unity.cinemachine, 2.x and 3.x
_UNKNOWN = "0123456789abcdef0123456789abcdef"


def _component(file_id: int, guid: str) -> str:
    return (
        f"--- !u!114 &{file_id}\nMonoBehaviour:\n  m_GameObject: {{fileID: 1}}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {guid}, type: 3}}\n  m_Name: \n"
    )


def _ship_prefab() -> str:
    components = [2, 3, 4, 5, 6]
    head = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &1\nGameObject:\n  m_Name: Ship\n  m_Component:\n"
        + "".join(f"  - component: {{fileID: {c}}}\n" for c in components)
        + "  m_IsActive: 1\n--- !u!4 &2\nTransform:\n  m_GameObject: {fileID: 1}\n  m_Children: []\n"
        "  m_Father: {fileID: 0}\n"
    )
    guids = (_NETWORK_OBJECT, _NETWORK_TRANSFORM, _VIRTUAL_CAMERA, _UNKNOWN)
    return head + "".join(_component(c, g) for c, g in zip(components[1:], guids, strict=True))


def test_a_prefab_names_package_components_and_refs_finds_their_users(tmp_path: Path) -> None:
    root = write_project(tmp_path / "Game", {"Assets/Ship.prefab": _ship_prefab()})
    update(root, Config(workers=1))
    ws = open_workspace(root, projects_at(root))
    graph = ws.projects[0].graph
    from indexer.query.describe import describe

    text = describe(graph, "Assets/Ship.prefab").text
    assert (
        "components: Transform, NetworkObject, NetworkTransform, CinemachineVirtualCamera,"
        " script 01234567… (not in project)"
    ) in text
    target = graph.target("NetworkObject")
    assert (target.kind, target.name, target.guid) == ("package_script", "Unity.Netcode.NetworkObject", _NETWORK_OBJECT)
    assert [(u.path, u.context, u.detail) for u in graph.references(target)] == [
        ("Assets/Ship.prefab", "m_Script", "Ship")
    ]
    assert graph.target(_UNKNOWN).kind == "guid"  # a GUID no known package gives: still listed by GUID
    assert graph.target("NoSuchComponent").kind == "unknown"


def test_the_package_table_holds_lower_case_guids_each_once() -> None:
    seen: dict[str, str] = {}
    for package, scripts in PACKAGES.items():
        for guid, name in scripts.items():
            assert re.fullmatch(r"[0-9a-f]{32}", guid), (package, guid)
            assert guid not in seen, (guid, seen.get(guid), package)
            assert re.fullmatch(r"[A-Za-z_][\w.]*", name), name
            seen[guid] = package
    assert sorted(PACKAGES) == [
        "com.unity.ai.navigation",  # (session 33: a trial's NavMeshSurface and rig constraints read as missing)
        "com.unity.animation.rigging",
        "com.unity.cinemachine",
        "com.unity.inputsystem",
        "com.unity.netcode.gameobjects",
        "com.unity.postprocessing",
        "com.unity.probuilder",
        "com.unity.render-pipelines.core",
        "com.unity.render-pipelines.universal",
        "com.unity.timeline",
        "com.unity.ugui",
    ]


def test_a_data_asset_of_a_package_class_lists_its_script_by_that_class(tmp_path: Path) -> None:
    """`describe` of a package's ScriptableObject (Netcode's prefab list) named the class in its
    header and the GUID in its references (`guid:e651dbb3... (not in project)`): both name it now."""
    asset = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n"
        "  m_Script: {fileID: 11500000, guid: e651dbb3fbac04af2b8f5abf007ddc23, type: 3}\n"
        "  m_Name: NetworkPrefabs\n  List: []\n"
    )
    other = asset.replace("e651dbb3fbac04af2b8f5abf007ddc23", _UNKNOWN).replace("NetworkPrefabs", "Other")
    root = write_project(tmp_path / "Game", {"Assets/NetworkPrefabs.asset": asset, "Assets/Other.asset": other})
    update(root, Config(workers=1))
    graph = open_workspace(root, projects_at(root)).projects[0].graph
    from indexer.query.describe import describe

    def references(path: str) -> list[str]:
        return describe(graph, path).text.split("references:\n", 1)[1].split("\n")[:1]

    assert references("Assets/NetworkPrefabs.asset") == [
        "  Unity.Netcode.NetworkPrefabsList (script of com.unity.netcode.gameobjects, not in project) (m_Script)"
    ]
    assert references("Assets/Other.asset") == [f"  guid:{_UNKNOWN} (not in project) (m_Script)"]


def test_a_tile_is_made_of_unitys_own_tile_class_not_a_missing_script(tmp_path: Path) -> None:
    """A tile palette's tiles are `{fileID: 13312, guid: 0000000000000000e000000000000000}`: Unity's
    built-in `Tile`. `describe` said `script 00000000 (script not in project)` of all 166 tiles of a
    trial's game, and `refs` listed each as a missing script; a class built into Unity that this
    table does not name is said to be one, by its fileID."""
    tile = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n  m_GameObject: {fileID: 0}\n"
        "  m_Script: {fileID: 13312, guid: 0000000000000000e000000000000000, type: 0}\n"
        "  m_Name: Rock_10\n  m_EditorClassIdentifier: \n  m_Color: {r: 1, g: 1, b: 1, a: 1}\n  m_ColliderType: 1\n"
    )
    other = tile.replace("13312", "13399").replace("Rock_10", "Odd")
    graph = graph_for(
        write_project(tmp_path / "Game", {"Assets/Tiles/Rock_10.asset": tile, "Assets/Tiles/Odd.asset": other})
    )
    from indexer.query.describe import describe

    assert describe(graph, "Assets/Tiles/Rock_10.asset").text.split("\n")[1:4] == [
        "ScriptableObject Rock_10: UnityEngine.Tilemaps.Tile (built into Unity)",
        "  L9 m_Color: {r: 1, g: 1, b: 1, a: 1}",
        "  L10 m_ColliderType: 1",
    ]
    assert (
        "ScriptableObject Odd: a class built into Unity (fileID 13399)"
        in describe(graph, "Assets/Tiles/Odd.asset").text
    )
    assert "not in project" not in describe(graph, "Assets/Tiles/Rock_10.asset").text
    assert graph.used_by("Assets/Tiles/Rock_10.asset") == () and graph.uses("Assets/Tiles/Rock_10.asset") == ()
