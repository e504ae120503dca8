"""A GUID two .meta files hold (a file copied with its .meta outside Unity) leads to one file, the
first by path (`Records.guid_naming`, docs/indexing.md), in every answer: `refs`, `describe`, the
retriever's walk and its reasons, and the MCP tools. A small project with each kind of copy: a
script copied with its class (`Old/Knight.cs` sorts first, so the GUID leads to it), a prefab copied
and given another script, an asmdef copied and renamed."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from mcp import Client

from indexer.query.workspace import open_workspace, projects_at
from mcp_adapter.server.app import create_server

from .conftest import meta, run_cli, write_project

SCRIPT_GUID, PREFAB_GUID, ARCHER_GUID, CORE_GUID, FOLDER_GUID = ("a1" * 16, "b2" * 16, "d4" * 16, "e5" * 16, "f6" * 16)
ORIGINAL, COPY = "Assets/Scripts/Knight.cs", "Assets/Old/Knight.cs"  # the GUID leads to the copy
PREFAB, PREFAB_COPY, SCENE = (
    "Assets/Prefabs/Knight.prefab",
    "Assets/Prefabs/Knight2.prefab",
    "Assets/Scenes/Castle.unity",
)
KNIGHT = "using UnityEngine;\npublic class {} : MonoBehaviour {{ public int hp; }}\n"
PREFAB_TEXT = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &100
GameObject:
  m_Name: {name}
  m_Component:
  - component: {{fileID: 200}}
--- !u!114 &200
MonoBehaviour:
  m_GameObject: {{fileID: 100}}
  m_Script: {{fileID: 11500000, guid: {script}, type: 3}}
  hp: 5
"""
SCENE_TEXT = f"""%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1001 &900
PrefabInstance:
  m_Modification:
    m_TransformParent: {{fileID: 0}}
    m_Modifications: []
  m_SourcePrefab: {{fileID: 100100000, guid: {PREFAB_GUID}, type: 3}}
"""
ASMDEF = "AssemblyDefinitionImporter"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_project(
        tmp_path_factory.mktemp("shared") / "Castle",
        {
            ORIGINAL: KNIGHT.format("Knight"),
            f"{ORIGINAL}.meta": meta(SCRIPT_GUID),
            COPY: KNIGHT.format("Knight"),  # copied before the class was renamed
            f"{COPY}.meta": meta(SCRIPT_GUID),
            "Assets/Scripts/Archer.cs": KNIGHT.format("Archer"),
            "Assets/Scripts/Archer.cs.meta": meta(ARCHER_GUID),
            PREFAB: PREFAB_TEXT.format(name="Knight", script=SCRIPT_GUID),
            f"{PREFAB}.meta": meta(PREFAB_GUID, "PrefabImporter"),
            PREFAB_COPY: PREFAB_TEXT.format(name="Archer", script=ARCHER_GUID),  # copied, then given Archer
            f"{PREFAB_COPY}.meta": meta(PREFAB_GUID, "PrefabImporter"),
            SCENE: SCENE_TEXT,
            f"{SCENE}.meta": meta("c3" * 16, "DefaultImporter"),
            "Assets/Core/Core.asmdef": '{"name": "Game.Core"}',
            "Assets/Core/Core.asmdef.meta": meta(CORE_GUID, ASMDEF),
            "Assets/Tools/Tools.asmdef": '{"name": "Game.Tools"}',  # copied from Core, then renamed
            "Assets/Tools/Tools.asmdef.meta": meta(CORE_GUID, ASMDEF),
            "Assets/Extra/Extra.asmref": f'{{"reference": "GUID:{CORE_GUID}"}}',
            "Assets/Extra/Loot.cs": "public class Loot {}\n",
            "Assets/Editor/Ed.asmdef": f'{{"name": "Game.Ed", "references": ["GUID:{CORE_GUID}"]}}',
            "Assets/Enemies/Orc.txt": "orc\n",
            "Assets/Enemies.meta": meta(FOLDER_GUID, "folderAsset: yes\nDefaultImporter"),
            "Assets/Enemies 1/Orc.txt": "orc\n",  # the folder copied with its .meta
            "Assets/Enemies 1.meta": meta(FOLDER_GUID, "folderAsset: yes\nDefaultImporter"),
        },
    )
    assert run_cli("index", "--project", str(root)).returncode == 0
    return root


def ask(root: Path, *args: str) -> dict:
    r = run_cli(*args, "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def asset_users(refs: dict) -> list[str]:
    return sorted({u["path"] for u in refs["usages"] if u["where"] == "asset"})


def test_refs_describe_and_the_walk_name_the_file_a_shared_script_guid_leads_to(project: Path) -> None:
    """The original names the class too, but assets name the GUID, and the GUID leads to the copy:
    the prefab and the scene placing it are the copy's users only."""
    assert ask(project, "refs", SCRIPT_GUID)["target"]["path"] == COPY
    assert asset_users(ask(project, "refs", COPY)) == [PREFAB, SCENE]
    assert asset_users(ask(project, "refs", ORIGINAL)) == []
    assert asset_users(ask(project, "refs", "Knight")) == [PREFAB, SCENE]
    assert {e["path"] for e in ask(project, "describe", COPY)["used_by"]} == {PREFAB, SCENE}
    assert ask(project, "describe", ORIGINAL)["used_by"] == []
    assert {"path": COPY, "edge": "script"} in ask(project, "describe", PREFAB)["uses"]
    reasons = {h["path"]: h["reason"] for h in ask(project, "query", "knight castle")["results"]}
    assert "script on Assets/Prefabs/Knight.prefab" in reasons[COPY]
    assert f"carries script {COPY} via {PREFAB}" in reasons[SCENE]
    assert ORIGINAL not in " ".join(reasons.values()) and "script on" not in reasons[ORIGINAL]


def test_a_prefab_copy_sharing_a_guid_is_not_placed_where_the_original_is(project: Path) -> None:
    """The scene places the prefab the GUID leads to: the copy's script is in no scene."""
    assert asset_users(ask(project, "refs", "Archer")) == [PREFAB_COPY]
    assert ask(project, "describe", "Assets/Scripts/Archer.cs")["used_by"] == [{"path": PREFAB_COPY, "edge": "script"}]
    assert asset_users(ask(project, "refs", PREFAB)) == [SCENE]
    assert asset_users(ask(project, "refs", PREFAB_COPY)) == []
    reasons = {h["path"]: h["reason"] for h in ask(project, "query", "archer castle")["results"]}
    assert "Archer" not in reasons.get(SCENE, "")


def test_an_asmdef_copy_sharing_a_guid_is_not_the_assembly_its_guid_names(project: Path) -> None:
    """`GUID:` references (an asmref, another asmdef's) name the asmdef the GUID leads to."""
    assert ask(project, "describe", "Assets/Extra/Loot.cs")["text"].splitlines()[1] == (
        "assembly Game.Core (Assets/Extra/Extra.asmref)"
    )
    users = ["Assets/Editor/Ed.asmdef", "Assets/Extra/Extra.asmref"]
    assert asset_users(ask(project, "refs", "Assets/Core/Core.asmdef")) == users
    assert asset_users(ask(project, "refs", "Assets/Tools/Tools.asmdef")) == []


def test_first_by_path_means_the_files_path_not_its_metas(project: Path) -> None:
    """`Assets/Enemies` sorts before `Assets/Enemies 1`, though `Assets/Enemies 1.meta` sorts
    before `Assets/Enemies.meta`."""
    assert ask(project, "refs", FOLDER_GUID)["target"]["path"] == "Assets/Enemies"


def test_the_mcp_tools_name_the_same_files(project: Path) -> None:
    server = create_server(open_workspace(project, projects_at(project)), refresh_interval=0, tokenizer="estimate")

    async def go() -> dict[str, dict]:
        async with Client(server) as c:
            calls = {
                "guid": ("find_references", {"target": SCRIPT_GUID}),
                "copy": ("find_references", {"target": COPY}),
                "original": ("find_references", {"target": ORIGINAL}),
                "archer": ("find_references", {"target": "Archer"}),
                "describe": ("describe", {"target": ORIGINAL}),
                "prefab": ("describe", {"target": PREFAB_GUID}),
            }
            return {k: (await c.call_tool(tool, args)).structured_content for k, (tool, args) in calls.items()}

    out = anyio.run(go)
    assert out["guid"]["target"]["path"] == COPY and asset_users(out["guid"]) == [PREFAB, SCENE]
    assert asset_users(out["copy"]) == [PREFAB, SCENE]
    assert asset_users(out["original"]) == []
    assert asset_users(out["archer"]) == [PREFAB_COPY]
    assert out["describe"]["used_by"] == []
    assert out["prefab"]["path"] == PREFAB and {"path": COPY, "edge": "script"} in out["prefab"]["uses"]
