"""Trust defects left open by session 49's first trust pass: each test failed before the fix it names.

1. A prefab placed in a scene with no override was listed by its file ID in `refs`
   (`Assets/Level.unity:3 [instance]  &900`): an unnamed instance was known only by the overrides
   it holds. It is named as the editor names it and as `describe` does, by its source (`Crate`).
"""

from __future__ import annotations

import json
from pathlib import Path

from indexer.build.update import update
from indexer.config import Config

from .conftest import meta, run_cli, script_prefab, write_project
from .test_trust_session49 import A_GUID, B_GUID, _folders, _instance

SCRIPT = "5c" * 16
CRATE = "c7" * 16
HEAD = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
HP = "using UnityEngine;\npublic class Hp : MonoBehaviour { public int hp; }\n"


def _placed(anchor: int, source: str, name: str = "") -> str:
    """A prefab instance of `source` at the scene's root, renamed `name` if given, else with no override."""
    mods = (
        f"    - target: {{fileID: 100, guid: {source}, type: 3}}\n      propertyPath: m_Name\n"
        f"      value: {name}\n      objectReference: {{fileID: 0}}\n"
        if name
        else ""
    )
    return (
        f"--- !u!1001 &{anchor}\nPrefabInstance:\n  m_Modification:\n    m_TransformParent: {{fileID: 0}}\n"
        f"    m_Modifications:{' []' if not name else ''}\n{mods}    m_RemovedComponents: []\n"
        f"  m_SourcePrefab: {{fileID: 100100000, guid: {source}, type: 3}}\n"
    )


def test_an_instance_with_no_override_is_named_by_its_source(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Hp.cs": HP,
            "Assets/Hp.cs.meta": meta(SCRIPT),
            "Assets/Crate.prefab": script_prefab("Crate", SCRIPT, "  hp: 1\n"),
            "Assets/Crate.prefab.meta": meta(CRATE, "PrefabImporter"),
            "Assets/Level.unity": HEAD + _placed(900, CRATE) + _placed(901, CRATE, "Bonus"),
        },
    )
    update(root, Config(workers=1))
    refs = run_cli("refs", "Assets/Crate.prefab", "--project", str(root)).stdout
    assert refs.split("\n") == [
        "file Assets/Crate.prefab",
        "in assets (2):",
        "  Assets/Level.unity:3 [instance]  Crate",
        "  Assets/Level.unity:10 [instance]  Bonus",
        "",
    ]
    data = json.loads(run_cli("refs", "Assets/Crate.prefab", "--json", "--project", str(root)).stdout)
    assert [(u["line"], u["detail"]) for u in data["usages"]] == [(3, "Crate"), (10, "Bonus")]
    script = run_cli("refs", "Hp", "--project", str(root)).stdout
    assert script.split("\n")[3:5] == [
        "  Assets/Level.unity:3 [instance]  Crate (via Assets/Crate.prefab)",
        "  Assets/Level.unity:10 [instance]  Bonus (via Assets/Crate.prefab)",
    ]
    desc = run_cli("describe", "Assets/Level.unity", "--project", str(root)).stdout
    assert desc.split("\n")[1] == "Crate  (prefab instance of Assets/Crate.prefab)  L3"


def test_the_unity_task_prompt_says_why_its_pack_holds_no_file(tmp_path: Path) -> None:
    """2. The prompt answered a task no file matches (or one no file had room for: a script 20
    long folders deep, its path past 200 tokens) with the project's overview and its next steps,
    silent where `get_context`'s note and the CLI say why."""
    import anyio
    from mcp import Client

    from indexer.query.workspace import open_workspace, projects_at
    from mcp_adapter.server.app import create_server

    deep = "Assets/" + "/".join(f"VeryLongFolderNameNumber{i}ForTheGame" for i in range(20))
    root = write_project(
        tmp_path / "P", {f"{deep}/Health.cs": HP.replace("Hp", "Health"), f"{deep}/Health.cs.meta": meta(SCRIPT)}
    )
    update(root, Config(workers=1))
    server = create_server(open_workspace(root, projects_at(root)), refresh_interval=0, tokenizer="estimate")
    calls = [("zzqqxx", "8000"), ("player health", "200"), ("player health", "8000")]

    async def go():
        async with Client(server) as c:
            return [await c.get_prompt("unity_task", {"task": t, "budget": b}) for t, b in calls]

    none, small, found = (p.messages[0].content.text.split("\n\n") for p in anyio.run(go))
    assert none[-2] == "no file matches the task: try other words (identifiers, file names)"
    assert small[-2] == "no file fits in 200 tokens: try a larger budget"
    assert found[-2].startswith(f"## Files for this task\n### {deep}/Health.cs  (csharp")
    for text in (none, small, found):
        assert text[-1].startswith("Next steps: `describe` a file above")


BIG = "b9" * 16
CYCLE_A = (
    HEAD
    + _instance(100100000, B_GUID, {"m_Name": "A"})
    + f"--- !u!1 &5 stripped\nGameObject:\n  m_CorrespondingSourceObject: {{fileID: 100, guid: {B_GUID}, type: 3}}\n"
    "  m_PrefabInstance: {fileID: 100100000}\n--- !u!114 &6\nMonoBehaviour:\n  m_GameObject: {fileID: 5}\n"
    f"  m_Enabled: 1\n  m_Script: {{fileID: 11500000, guid: {BIG}, type: 3}}\n  m_Name: \n  hp: 3\n  armor: 2\n"
)


def test_every_answer_that_skips_a_cycle_of_variants_says_so_once(tmp_path: Path) -> None:
    """`BigHp : Hp` on A, a variant of B, B a variant of A; a level places B setting hp and armor."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Hp.cs": HP,
            "Assets/Hp.cs.meta": meta(SCRIPT),
            "Assets/BigHp.cs": "public class BigHp : Hp { public int armor; }\n",
            "Assets/BigHp.cs.meta": meta(BIG),
            "Assets/A.prefab": CYCLE_A,
            "Assets/A.prefab.meta": meta(A_GUID, "PrefabImporter"),
            "Assets/B.prefab": HEAD + _instance(100100000, A_GUID, {"m_Name": "B"}),
            "Assets/B.prefab.meta": meta(B_GUID, "PrefabImporter"),
            "Assets/Level.unity": HEAD + _instance(900, B_GUID, {"hp": "9", "armor": "4"}),
        },
    )
    update(root, Config(workers=1))
    cycle = (
        "(a cycle of prefabs: Assets/A.prefab is an instance or variant of itself through Assets/B.prefab"
        " (Unity never saves one: a merge or a hand edit made it), not followed round)"
    )
    refs = {t: run_cli("refs", t, "--project", str(root)).stdout.split("\n") for t in ("Hp", "Hp.hp", "BigHp.armor")}
    assert refs["Hp"][:5] == [
        f"type Hp  {cycle}",
        "in assets (3):",
        "  Assets/A.prefab:22 [m_Script]  A -> BigHp",
        "  Assets/B.prefab:3 [variant_base]  B (via Assets/A.prefab) -> BigHp",
        "  Assets/Level.unity:3 [instance]  B (via Assets/B.prefab > Assets/A.prefab) -> BigHp",
    ]
    assert refs["Hp.hp"] == [
        f"member hp of Hp  {cycle}",
        "in assets (2):",
        "  Assets/A.prefab:24 [value]  A > BigHp.hp: 3",
        "  Assets/Level.unity:9 [override]  B sets hp: 9 (via Assets/B.prefab > Assets/A.prefab)",
        "",
    ]
    assert refs["BigHp.armor"][0] == f"member armor of BigHp  {cycle}"
    data = json.loads(run_cli("refs", "Hp", "--json", "--project", str(root)).stdout)
    assert data["target"]["note"] == cycle[1:-1]


def test_a_mistyped_path_is_offered_a_folder_holding_only_folders(tmp_path: Path) -> None:
    root = _folders(tmp_path / "P")  # Assets/Game/Scripts holds Enemy, EnemyBoss and Player, no file

    def said(typed: str) -> tuple[int, str]:
        r = run_cli("query", "health", "--path", typed, "--project", str(root))
        return r.returncode, r.stderr

    for typed in ("Scriptz", "Game/Scriptz", "Assets/Gme/Scripts"):
        assert said(typed) == (
            2,
            f"error: {typed}: no indexed file is under this folder; did you mean Assets/Game/Scripts?\n",
        ), typed
    assert said("Asets") == (2, "error: Asets: no indexed file is under this folder; did you mean Assets?\n")
    assert said("Zzzq") == (
        2,
        "error: Zzzq: no indexed file is under this folder; give a folder of the project, e.g. Assets/Scripts\n",
    )
