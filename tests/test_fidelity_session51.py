"""Session 51, fidelity: `describe`, packs and the MCP tool list an object's components as the
Inspector does (its `m_Component` list; an instance's added ones by `m_AddedComponents`), not in
the order of their documents in the file (by fileID), and children as the Hierarchy does."""

from __future__ import annotations

from pathlib import Path

import anyio
import msgspec
from mcp import Client

from indexer.build.update import update
from indexer.config import Config
from indexer.query.context import build_context
from indexer.query.lookup import describe_target
from indexer.query.tokens import counter
from indexer.query.workspace import open_workspace, projects_at
from mcp_adapter.server.app import create_server

from .conftest import meta, mono_script, run_cli, write_project

MOVE, HEALTH = "4f1c2e7a9b3d4c5e8f6a7b8c9d0e1f2a", "8a2b3c4d5e6f47a8b9c0d1e2f3a4b5c6"
STEPS = "c3d4e5f6a7b84c9d0e1f2a3b4c5d6e7f"
PLAYER = "e5a1f0c3b2d94e8f7a6b5c4d3e2f1a0b"
HEAD = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"


def _go(fid: int, name: str, components: list[int]) -> str:
    listed = "".join(f"  - component: {{fileID: {c}}}\n" for c in components)
    return (
        f"--- !u!1 &{fid}\nGameObject:\n  m_ObjectHideFlags: 0\n  serializedVersion: 6\n  m_Component:\n{listed}"
        f"  m_Layer: 0\n  m_Name: {name}\n  m_TagString: Untagged\n  m_IsActive: 1\n"
    )


def _tf(fid: int, go: int, father: int, children: list[int]) -> str:
    kids = "".join(f"  - {{fileID: {c}}}\n" for c in children) if children else ""
    listed = f"  m_Children:\n{kids}" if children else "  m_Children: []\n"
    return (
        f"--- !u!4 &{fid}\nTransform:\n  m_ObjectHideFlags: 0\n  m_GameObject: {{fileID: {go}}}\n"
        f"  m_LocalPosition: {{x: 0, y: 0, z: 0}}\n{listed}  m_Father: {{fileID: {father}}}\n"
    )


def _part(cid: int, cls: str, fid: int, go: int, body: str = "") -> str:
    return f"--- !u!{cid} &{fid}\n{cls}:\n  m_ObjectHideFlags: 0\n  m_GameObject: {{fileID: {go}}}\n{body}"


def _behaviour(fid: int, go: int, script: str, fields: str) -> str:
    body = f"  m_Enabled: 1\n  m_Script: {{fileID: 11500000, guid: {script}, type: 3}}\n{fields}"
    return _part(114, "MonoBehaviour", fid, go, body)


# Unity writes a file's documents by fileID; the Inspector shows each object's `m_Component` order.
_PREFAB_DOCS = {
    1029384756102938475: _part(54, "Rigidbody", 1029384756102938475, 5178320946519273101, "  m_Mass: 70\n"),
    1501928374650192837: _part(23, "MeshRenderer", 1501928374650192837, 6601928374650192837, "  m_Enabled: 1\n"),
    2201928374650192837: _go(2201928374650192837, "Weapon", [5501928374650192837, 8801928374650192837]),
    2938475610293847561: _behaviour(
        2938475610293847561, 5178320946519273101, MOVE, "  speed: 6.5\n  jumpHeight: 1.2\n"
    ),
    3301928374650192837: _tf(3301928374650192837, 6601928374650192837, 7392018475610293847, []),
    4982734610928374650: _part(82, "AudioSource", 4982734610928374650, 5178320946519273101, "  m_Volume: 1\n"),
    5178320946519273101: _go(
        5178320946519273101,
        "Player",
        [7392018475610293847, 1029384756102938475, 8123498712340987123, 2938475610293847561, 4982734610928374650],
    ),
    5501928374650192837: _tf(5501928374650192837, 2201928374650192837, 7392018475610293847, []),
    6601928374650192837: _go(
        6601928374650192837, "Model", [3301928374650192837, 9001928374650192837, 1501928374650192837]
    ),
    7392018475610293847: _tf(7392018475610293847, 5178320946519273101, 0, [3301928374650192837, 5501928374650192837]),
    8123498712340987123: _part(136, "CapsuleCollider", 8123498712340987123, 5178320946519273101, "  m_Height: 2\n"),
    8801928374650192837: _part(65, "BoxCollider", 8801928374650192837, 2201928374650192837, "  m_IsTrigger: 1\n"),
    9001928374650192837: _part(33, "MeshFilter", 9001928374650192837, 6601928374650192837, "  m_Mesh: {fileID: 0}\n"),
}
PREFAB = HEAD + "".join(doc for _, doc in sorted(_PREFAB_DOCS.items()))


def _added(fid: int) -> str:
    return (
        f"    - targetCorrespondingSourceObject: {{fileID: 5178320946519273101, guid: {PLAYER}, type: 3}}\n"
        f"      insertIndex: -1\n      addedObject: {{fileID: {fid}}}\n"
    )


_STRIPPED = (
    "m_CorrespondingSourceObject: {{fileID: {src}, guid: {guid}, type: 3}}\n"
    "  m_PrefabInstance: {{fileID: 1203348851}}\n"
)
# A Unity 2022 scene: the camera's components written Camera first (fileID 705507994); the placed
# player given two scripts, Health then Footsteps (written Footsteps first); the roots by SceneRoots.
SCENE = (
    HEAD
    + _go(705507993, "Main Camera", [705507995, 705507994, 705507996])
    + _part(20, "Camera", 705507994, 705507993, "  m_Enabled: 1\n  field of view: 60\n")
    + _tf(705507995, 705507993, 0, [])
    + _part(81, "AudioListener", 705507996, 705507993, "  m_Enabled: 1\n")
    + "--- !u!1001 &1203348851\nPrefabInstance:\n  m_ObjectHideFlags: 0\n  serializedVersion: 2\n  m_Modification:\n"
    + "    serializedVersion: 3\n    m_TransformParent: {fileID: 0}\n    m_Modifications:\n"
    + f"    - target: {{fileID: 7392018475610293847, guid: {PLAYER}, type: 3}}\n      propertyPath: m_LocalPosition.x\n"
    + "      value: 3\n      objectReference: {fileID: 0}\n    m_RemovedComponents: []\n    m_RemovedGameObjects: []\n"
    + "    m_AddedGameObjects: []\n    m_AddedComponents:\n"
    + _added(1203348855)
    + _added(1203348853)
    + f"  m_SourcePrefab: {{fileID: 100100000, guid: {PLAYER}, type: 3}}\n"
    + "--- !u!1 &1203348852 stripped\nGameObject:\n  "
    + _STRIPPED.format(src=5178320946519273101, guid=PLAYER)
    + _behaviour(1203348853, 1203348852, STEPS, "  stepInterval: 0.4\n")
    + "--- !u!4 &1203348854 stripped\nTransform:\n  "
    + _STRIPPED.format(src=7392018475610293847, guid=PLAYER)
    + _behaviour(1203348855, 1203348852, HEALTH, "  maxHealth: 100\n")
    + "--- !u!1660057539 &9223372036854775807\nSceneRoots:\n  m_ObjectHideFlags: 0\n  m_Roots:\n"
    + "  - {fileID: 1203348854}\n  - {fileID: 705507995}\n"
)
# A Unity 5 prefab: `m_Component` items keyed by class ID, the Light written before the particles.
LEGACY = (
    HEAD
    + "--- !u!1 &100000\nGameObject:\n  m_ObjectHideFlags: 0\n  m_PrefabParentObject: {fileID: 0}\n"
    + "  m_PrefabInternal: {fileID: 100100000}\n  serializedVersion: 5\n  m_Component:\n"
    + "  - 4: {fileID: 400000}\n  - 198: {fileID: 19800000}\n  - 108: {fileID: 10800000}\n"
    + "  m_Layer: 0\n  m_Name: Torch\n  m_TagString: Untagged\n  m_IsActive: 1\n"
    + _tf(400000, 100000, 0, [])
    + _part(108, "Light", 10800000, 100000, "  m_Enabled: 1\n  m_Range: 6\n")
    + _part(198, "ParticleSystem", 19800000, 100000, "  lengthInSec: 5\n")
    + "--- !u!1001 &100100000\nPrefab:\n  m_ObjectHideFlags: 1\n  serializedVersion: 2\n"
    + "  m_ParentPrefab: {fileID: 0}\n  m_RootGameObject: {fileID: 100000}\n  m_IsPrefabParent: 1\n"
)


def project(root: Path) -> Path:
    """The project, indexed: a player prefab, an arena scene placing it, an old torch prefab."""
    write_project(
        root,
        {
            "Assets/Scripts/PlayerMovement.cs": mono_script(
                "PlayerMovement", "    public float speed;\n    public float jumpHeight;\n"
            ),
            "Assets/Scripts/PlayerMovement.cs.meta": meta(MOVE),
            "Assets/Scripts/Health.cs": mono_script("Health", "    public int maxHealth;\n"),
            "Assets/Scripts/Health.cs.meta": meta(HEALTH),
            "Assets/Scripts/Footsteps.cs": mono_script("Footsteps", "    public float stepInterval;\n"),
            "Assets/Scripts/Footsteps.cs.meta": meta(STEPS),
            "Assets/Prefabs/Player.prefab": PREFAB,
            "Assets/Prefabs/Player.prefab.meta": meta(PLAYER, "PrefabImporter"),
            "Assets/Prefabs/Torch.prefab": LEGACY,
            "Assets/Prefabs/Torch.prefab.meta": meta("0a1b2c3d4e5f40718293a4b5c6d7e8f9", "PrefabImporter"),
            "Assets/Scenes/Arena.unity": SCENE,
            "Assets/Scenes/Arena.unity.meta": meta("9f8e7d6c5b4a40312f1e0d9c8b7a6f5e", "DefaultImporter"),
        },
    )
    update(root, Config(workers=1))
    return root


def _text(root: Path, path: str) -> str:
    return describe_target(open_workspace(root, [(root, Config())]), path)[1].text


def test_describe_lists_an_object_s_components_in_the_inspector_s_order(tmp_path: Path) -> None:
    """The player's components as its Inspector shows them (Transform first), each component's
    fields in that order too; its children in the Transform's `m_Children` order (Model, then
    Weapon, though Weapon's document comes first)."""
    root = project(tmp_path / "P")
    assert _text(root, "Assets/Prefabs/Player.prefab") == (
        "Assets/Prefabs/Player.prefab  (prefab, guid e5a1f0c3b2d94e8f7a6b5c4d3e2f1a0b)\n"
        "Player  L44\n"
        "  components: Transform, Rigidbody, CapsuleCollider, PlayerMovement, AudioSource\n"
        "    Rigidbody: m_Mass: 70\n"
        "    PlayerMovement: speed: 6.5; jumpHeight: 1.2\n"
        "    AudioSource: m_Volume: 1\n"
        "  Model  L65\n"
        "    components: Transform, MeshFilter, MeshRenderer\n"
        "  Weapon  L13\n"
        "    components: Transform, BoxCollider\n"
        "      BoxCollider: m_IsTrigger: 1\n"
        "uses: Assets/Scripts/PlayerMovement.cs (script)\n"
        "used by: Assets/Scenes/Arena.unity"
    )


def test_describe_json_lists_each_object_s_components_in_the_inspector_s_order(tmp_path: Path) -> None:
    """`--json`'s symbols: each object's components (by container) in its `m_Component` order."""
    root = project(tmp_path / "P")
    desc = describe_target(open_workspace(root, [(root, Config())]), "Assets/Prefabs/Player.prefab")[1]
    listed: dict[str, list[tuple[str, str]]] = {}
    for s in desc.symbols:
        if s.kind == "component":
            listed.setdefault(s.container, []).append((s.name, s.type))
    assert listed == {
        "Player": [
            ("Transform", "7392018475610293847"),
            ("Rigidbody", "1029384756102938475"),
            ("CapsuleCollider", "8123498712340987123"),
            ("MonoBehaviour", "2938475610293847561"),
            ("AudioSource", "4982734610928374650"),
        ],
        "Player/Model": [
            ("Transform", "3301928374650192837"),
            ("MeshFilter", "9001928374650192837"),
            ("MeshRenderer", "1501928374650192837"),
        ],
        "Player/Weapon": [("Transform", "5501928374650192837"), ("BoxCollider", "8801928374650192837")],
    }


def test_an_instance_s_added_components_follow_m_added_components(tmp_path: Path) -> None:
    """The placed player's two scripts in `m_AddedComponents` order (Health, then Footsteps,
    written the other way round); the camera's Transform first; the roots by SceneRoots."""
    root = project(tmp_path / "P")
    assert _text(root, "Assets/Scenes/Arena.unity") == (
        "Assets/Scenes/Arena.unity  (scene, guid 9f8e7d6c5b4a40312f1e0d9c8b7a6f5e)\n"
        "Player  (prefab instance of Assets/Prefabs/Player.prefab)  L33\n"
        "  overrides: m_LocalPosition.x: 3\n"
        "  added components: Health, Footsteps\n"
        "    Health: maxHealth: 100\n"
        "    Footsteps: stepInterval: 0.4\n"
        "Main Camera  L3\n"
        "  components: Transform, Camera, AudioListener\n"
        "    Camera: field of view: 60\n"
        "uses: Assets/Prefabs/Player.prefab (instance), Assets/Scripts/Footsteps.cs (script),"
        " Assets/Scripts/Health.cs (script)"
    )


def test_a_unity_5_component_list_keyed_by_class_is_the_order(tmp_path: Path) -> None:
    root = project(tmp_path / "P")
    text = _text(root, "Assets/Prefabs/Torch.prefab")
    assert text.split("\n")[1:3] == ["Torch  L3", "  components: Transform, ParticleSystem, Light"]


def test_packs_and_the_mcp_describe_tool_say_the_same_order(tmp_path: Path) -> None:
    """A context pack's outline of the prefab and the MCP `describe` tool read the same records."""
    root = project(tmp_path / "P")
    ws = open_workspace(root, [(root, Config())])
    pack = build_context(ws, "player movement rigidbody", 4000, counter("estimate"))
    assert "  components: Transform, Rigidbody, CapsuleCollider, PlayerMovement, AudioSource" in pack.tier2.text
    server = create_server(open_workspace(root, projects_at(root)), tokenizer="estimate", watch=False)

    async def go():
        async with Client(server) as c:
            return await c.call_tool("describe", {"target": "Assets/Scenes/Arena.unity"})

    answer = anyio.run(go)
    text = "\n".join(getattr(block, "text", "") for block in answer.content)
    assert "  added components: Health, Footsteps\n" in text
    assert "  components: Transform, Camera, AudioListener\n" in text
    symbols = msgspec.to_builtins(answer.structured_content)["symbols"]
    assert [s["name"] for s in symbols if s["kind"] == "component" and s["container"] == "Main Camera"] == [
        "Transform",
        "Camera",
        "AudioListener",
    ]


_REFUSED = (
    ": no type, member, path, GUID or assembly is longer than 4,096 characters (a path's most; a C# name's"
    " part at most 512): give a type, Type.Member, a path or a GUID"
)


def test_refs_of_a_name_longer_than_any_path_is_refused_saying_why(tmp_path: Path) -> None:
    """A name longer than a path can be (4,096) names nothing: refused at once, where a 1 MB name
    was seconds of compiling patterns holding it. One of 4,096 is still looked up."""
    root = project(tmp_path / "P")
    name = "Move" * 1250
    r = run_cli("refs", name, "--project", str(root))
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == f"error: {'Move' * 50}… (5,000 characters){_REFUSED}\n"
    r = run_cli("refs", "Move" * 1024, "--project", str(root))
    assert r.returncode == 2
    assert r.stderr.startswith(f"error: {'Move' * 50}… (4,096 characters): no type, member, file, GUID or assembly")


def test_find_references_of_a_1_mb_name_is_refused(tmp_path: Path) -> None:
    root = project(tmp_path / "P")
    server = create_server(open_workspace(root, projects_at(root)), tokenizer="estimate", watch=False)

    async def go():
        async with Client(server) as c:
            return await c.call_tool("find_references", {"target": "Player" + "x" * 1_000_000})

    answer = anyio.run(go)
    assert answer.is_error is True
    text = "\n".join(getattr(block, "text", "") for block in answer.content)
    assert text == f"Error executing tool find_references: {'Player' + 'x' * 194}… (1,000,006 characters){_REFUSED}"
