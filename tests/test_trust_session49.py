"""Trust defects of session 48's closing note, session 49: each test failed before the fix it names.

1. A prefab variant chain 1,500 levels deep printed lines of 14,048 characters in `refs` (the
   usage's "via" named each of the 400 prefabs followed) and `query` reasons of thousands, and the
   values its instances set were found by parsing that text back into paths. The chain is a
   structured value (`Usage.via`, the JSON's `via`, whole); a line prints its first and last three
   links around how many more (`… 35 more …`).
2. A cycle of prefab variants (A a variant of B, B of A: Unity never saves one, a merge conflict
   or a hand edit can) listed A as a variant of itself in `refs A.prefab` (`A.prefab:3 A (via
   B.prefab)`) and as carrying a script through itself in `refs` of the script. The usage is left
   out and the target's note names the cycle, in `refs` and `describe`.
3. `query --path Scripts/Enemy` (or `Enemy/`) of a folder at `Assets/Game/Scripts/Enemy` was "no
   indexed file is under this folder; give a folder of the project", where a file is found by the
   tail of its path. A folder's tail names the one folder ending with it by whole names (not
   `EnemyBoss/` beside it), several are listed, and a partial name (`Scripts/Enem`) matches none
   but is offered (`did you mean ...`); the same in MCP `search`'s `path`.
4. MCP `get_context` with a small budget: a task of control characters or quotes (each escaped in
   JSON) echoed in `query` ran the structured content past the budget (449 tokens of JSON for a
   budget of 200) and left the pack empty, "no file fits in 300 tokens" though files did; and the
   structured content, which Claude Code gives the model instead of the text, never said why the
   pack held no file, nor that files were left out to fit the JSON. The echo is cut to half the
   budget, and the pack's `note` (the context JSON's, the CLI's too) says why.
"""

from __future__ import annotations

import json
from pathlib import Path

from indexer.build.update import update
from indexer.config import Config

from .conftest import meta, run_cli, script_prefab, write_project

SCRIPT = "5c" * 16
BASE = "ba" * 16
HEAD = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
HP = "using UnityEngine;\npublic class Hp : MonoBehaviour { public int hp; }\n"


def _instance(anchor: int, source: str, changes: dict[str, str]) -> str:
    """A prefab instance of `source` (a variant's root when `anchor` is 100100000) setting `changes`
    on the object or component of file ID 100."""
    mods = "".join(
        f"    - target: {{fileID: 100, guid: {source}, type: 3}}\n      propertyPath: {k}\n"
        f"      value: {v}\n      objectReference: {{fileID: 0}}\n"
        for k, v in changes.items()
    )
    return (
        f"--- !u!1001 &{anchor}\nPrefabInstance:\n  m_Modification:\n    m_TransformParent: {{fileID: 0}}\n"
        f"    m_Modifications:\n{mods}    m_RemovedComponents: []\n"
        f"  m_SourcePrefab: {{fileID: 100100000, guid: {source}, type: 3}}\n"
    )


def _chain(root: Path, depth: int) -> Path:
    """`Hp` on Base.prefab, `depth` variants each of the one before (V000 of Base), and a level
    placing the last one with `hp` set to 9; indexed."""
    files = {
        "Assets/Hp.cs": HP,
        "Assets/Hp.cs.meta": meta(SCRIPT),
        "Assets/Base.prefab": script_prefab("Base", SCRIPT, "  hp: 1\n"),
        "Assets/Base.prefab.meta": meta(BASE, "PrefabImporter"),
    }
    source = BASE
    for i in range(depth):
        guid = f"{i + 1:032x}"
        files[f"Assets/V/V{i:03}.prefab"] = HEAD + _instance(100100000, source, {"m_Name": f"V{i:03}"})
        files[f"Assets/V/V{i:03}.prefab.meta"] = meta(guid, "PrefabImporter")
        source = guid
    files["Assets/Level.unity"] = HEAD + _instance(900, source, {"hp": "9"})
    write_project(root, files)
    update(root, Config(workers=1))
    return root


def test_a_deep_variant_chain_prints_its_ends_and_keeps_it_whole_in_json(tmp_path: Path) -> None:
    root = _chain(tmp_path / "P", 40)
    whole = [f"Assets/V/V{i:03}.prefab" for i in range(39, -1, -1)] + ["Assets/Base.prefab"]
    shown = "Assets/V/V039.prefab > Assets/V/V038.prefab > Assets/V/V037.prefab > … 35 more … > " + (
        "Assets/V/V001.prefab > Assets/V/V000.prefab > Assets/Base.prefab"
    )
    r = run_cli("refs", "Hp", "--limit", "0", "--project", str(root))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split("\n")
    assert f"  Assets/Level.unity:3 [instance]  V039 (via {shown})" in lines
    assert max(map(len, lines)) < 400
    data = json.loads(run_cli("refs", "Hp", "--json", "--limit", "0", "--project", str(root)).stdout)
    level = next(u for u in data["usages"] if u["path"] == "Assets/Level.unity")
    assert (level["detail"], level["via"]) == (f"V039 (via {shown})", whole)
    # the value the level sets, through every variant (read from the chain, not its printed ends)
    values = json.loads(run_cli("refs", "Hp.hp", "--json", "--project", str(root)).stdout)["usages"]
    assert [(u["path"], u["detail"], u["via"]) for u in values if u["context"] == "override"] == [
        ("Assets/Level.unity", f"V039 sets hp: 9 (via {shown})", whole)
    ]
    # the prefab's own usages: the chain from the variant nearest the level to Base's first variant
    below = "Assets/V/V039.prefab > Assets/V/V038.prefab > Assets/V/V037.prefab > … 34 more … > " + (
        "Assets/V/V002.prefab > Assets/V/V001.prefab > Assets/V/V000.prefab"
    )
    desc = run_cli("describe", "Assets/Base.prefab", "--project", str(root)).stdout.split("\n")
    assert f"  Assets/Level.unity:3  V039 (via {below}) (sets hp: 9)" in desc
    # so do the reasons `query` gives for the files it reaches through the chain
    reasons = run_cli("query", "Hp", "--limit", "50", "--project", str(root)).stdout.split("\n")
    assert f"      why: text match; the scene carries script Assets/Hp.cs via {shown}" in reasons
    assert max(map(len, reasons)) < 400
    # a chain of seven links is printed whole, as every chain was
    short = json.loads(run_cli("refs", "Hp", "--json", "--project", str(_chain(tmp_path / "S", 6))).stdout)
    level = next(u for u in short["usages"] if u["path"] == "Assets/Level.unity")
    assert level["detail"] == "V005 (via " + " > ".join(level["via"]) + ")" and len(level["via"]) == 7


def test_a_chain_in_a_project_of_a_workspace_names_workspace_paths(tmp_path: Path) -> None:
    """A project inside another's folder: its usages' chains name paths `describe` takes, as their
    printed form does."""
    from indexer.query.lookup import find_references
    from indexer.query.workspace import open_workspace, projects_at

    outer = write_project(tmp_path / "repo", {"Assets/Menu.cs": "public class Menu { }"})
    _chain(outer / "Sample", 2)
    update(outer, Config(workers=1))
    _, usages = find_references(open_workspace(outer, projects_at(outer)), "Hp")
    level = next(u for u in usages if u.path == "Sample/Assets/Level.unity")
    chain = ("Sample/Assets/V/V001.prefab", "Sample/Assets/V/V000.prefab", "Sample/Assets/Base.prefab")
    assert (level.detail, level.via) == (f"V001 (via {' > '.join(chain)})", chain)


A_GUID, B_GUID = "a1" * 16, "b1" * 16
# A: a variant of B adding `Hp` to its root, as Unity writes an added component
CYCLE_A = (
    HEAD
    + _instance(100100000, B_GUID, {"m_Name": "A"})
    + (
        f"--- !u!1 &5 stripped\nGameObject:\n  m_CorrespondingSourceObject: {{fileID: 100, guid: {B_GUID}, type: 3}}\n"
        "  m_PrefabInstance: {fileID: 100100000}\n--- !u!114 &6\nMonoBehaviour:\n  m_GameObject: {fileID: 5}\n"
        f"  m_Enabled: 1\n  m_Script: {{fileID: 11500000, guid: {SCRIPT}, type: 3}}\n  m_Name: \n  hp: 3\n"
    )
)


def test_a_cycle_of_variants_lists_no_prefab_as_its_own_variant(tmp_path: Path) -> None:
    """A variant of B, B (its base, hand-merged) a variant of A, a level placing B."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Hp.cs": HP,
            "Assets/Hp.cs.meta": meta(SCRIPT),
            "Assets/A.prefab": CYCLE_A,
            "Assets/A.prefab.meta": meta(A_GUID, "PrefabImporter"),
            "Assets/B.prefab": HEAD + _instance(100100000, A_GUID, {"m_Name": "B"}),
            "Assets/B.prefab.meta": meta(B_GUID, "PrefabImporter"),
            "Assets/Level.unity": HEAD + _instance(900, B_GUID, {}),
        },
    )
    update(root, Config(workers=1))
    said = "(Unity never saves one: a merge or a hand edit made it), not followed round"
    a_cycle = f"a cycle of prefabs: Assets/A.prefab is an instance or variant of itself through Assets/B.prefab {said}"
    b_cycle = f"a cycle of prefabs: Assets/B.prefab is an instance or variant of itself through Assets/A.prefab {said}"
    refs = {t: run_cli("refs", t, "--project", str(root)).stdout for t in ("Hp", "Assets/A.prefab", "Assets/B.prefab")}
    assert refs["Hp"].split("\n") == [
        f"type Hp  ({a_cycle})",
        "in assets (3):",
        "  Assets/A.prefab:22 [m_Script]  A",
        "  Assets/B.prefab:3 [variant_base]  B (via Assets/A.prefab)",
        "  Assets/Level.unity:3 [instance]  B (via Assets/B.prefab > Assets/A.prefab)",
        "",
    ]
    assert refs["Assets/A.prefab"].split("\n") == [
        f"file Assets/A.prefab  ({a_cycle})",
        "in assets (2):",
        "  Assets/B.prefab:3 [variant_base]  B",
        "  Assets/Level.unity:3 [instance]  B (via Assets/B.prefab)",
        "",
    ]
    assert refs["Assets/B.prefab"].split("\n") == [
        f"file Assets/B.prefab  ({b_cycle})",
        "in assets (2):",
        "  Assets/A.prefab:3 [variant_base]  A",
        "  Assets/Level.unity:3 [instance]  B",
        "",
    ]
    desc = run_cli("describe", "Assets/A.prefab", "--project", str(root)).stdout.split("\n")
    assert desc[1] == f"note: {a_cycle}"
    assert "used by: Assets/Level.unity, Assets/B.prefab" in desc


def _folders(root: Path) -> Path:
    """Two folders named Enemy, one beside EnemyBoss; each file holds `health`."""
    files = {
        f"Assets/{folder}/{name}.cs": f"public class {name} {{ public int health; }}\n"
        for folder, name in (
            ("Game/Scripts/Enemy", "Grunt"),
            ("Game/Scripts/EnemyBoss", "Boss"),
            ("Game/Scripts/Player", "Hero"),
            ("Other/Enemy", "Ghost"),
        )
    }
    write_project(root, files)
    update(root, Config(workers=1))
    return root


def test_query_path_takes_a_folder_by_its_tail_by_whole_names(tmp_path: Path) -> None:
    root = _folders(tmp_path / "P")

    def found(typed: str) -> tuple[int, list[str], str]:
        r = run_cli("query", "health", "--path", typed, "--json", "--project", str(root))
        return r.returncode, [h["path"] for h in json.loads(r.stdout)["results"]] if r.stdout else [], r.stderr

    grunt = (0, ["Assets/Game/Scripts/Enemy/Grunt.cs"], "")
    for typed in (
        "Scripts/Enemy",
        "Scripts/Enemy/",
        "Game/Scripts/Enemy",
        "scripts/enemy",
        "Assets/Game/Scripts/Enemy",
    ):
        assert found(typed) == grunt, typed
    assert found("Other/Enemy/") == (0, ["Assets/Other/Enemy/Ghost.cs"], "")
    assert found("Enemy/") == (
        2,
        [],
        "error: Enemy/ names 2 folders: Assets/Game/Scripts/Enemy, Assets/Other/Enemy; give more of the path\n",
    )
    said = "no indexed file is under this folder; did you mean Assets/Game/Scripts/Enemy?\n"
    assert found("Scripts/Enem") == (2, [], f"error: Scripts/Enem: {said}")
    assert found("Assets/Game/Scripts/Enem") == (2, [], f"error: Assets/Game/Scripts/Enem: {said}")
    assert found("Boss")[0] == 2  # a partial name matches nothing


def test_mcp_search_takes_a_folder_by_its_tail(tmp_path: Path) -> None:
    import anyio
    from mcp import Client

    from indexer.query.workspace import open_workspace, projects_at
    from mcp_adapter.server.app import create_server

    root = _folders(tmp_path / "P")
    server = create_server(open_workspace(root, projects_at(root)), refresh_interval=0, tokenizer="estimate")

    async def go():
        async with Client(server) as c:
            return [await c.call_tool("search", {"query": "health", "path": p}) for p in ("Scripts/Enemy", "Enemy")]

    tail, two = anyio.run(go)
    assert [h["path"] for h in tail.structured_content["results"]] == ["Assets/Game/Scripts/Enemy/Grunt.cs"]
    assert (
        two.is_error and "Enemy names 2 folders: Assets/Game/Scripts/Enemy, Assets/Other/Enemy" in two.content[0].text
    )


FIRST_ROOM = "add a shield that absorbs damage"


def test_get_context_with_a_small_budget_is_within_it_and_says_why_it_holds_fewer_files(indexed_fixture: Path) -> None:
    import anyio
    import msgspec
    from mcp import Client

    from indexer.query.context import build_context
    from indexer.query.tokens import counter
    from indexer.query.workspace import open_workspace, projects_at
    from mcp_adapter.server.app import create_server

    tok = counter("estimate")
    ws = open_workspace(indexed_fixture, projects_at(indexed_fixture))
    server = create_server(ws, refresh_interval=0, tokenizer="estimate")
    ctrl, quotes = "damage " + "\x01" * 300, "damage " + '"\\' * 200
    calls = [(ctrl, 200), (ctrl, 300), (quotes, 300), (FIRST_ROOM, 300), (FIRST_ROOM, 600), ("zzqqxx", 300)]

    async def go():
        async with Client(server) as c:
            return [await c.call_tool("get_context", {"task": task, "budget": budget}) for task, budget in calls]

    for (task, budget), answer in zip(calls, anyio.run(go), strict=True):
        pack, text = answer.structured_content, answer.content[0].text
        assert tok.count(msgspec.json.encode(pack).decode()) <= budget and tok.count(text) <= budget, (task, budget)
        files = len(pack["tier2"]["files"])
        if task == "zzqqxx":
            assert (files, pack["note"]) == (0, "no file matches the task: try other words (identifiers, file names)")
            continue
        if budget == 200:  # the task echoed takes half of it
            assert (files, pack["note"]) == (0, "no file fits in 200 tokens: try a larger budget")
            continue
        # the first try: the text alone in the budget less its closing line
        room = budget - tok.count(f"\n\n[{budget}/{budget} tokens (estimate-v2); {10 * budget} files]") - 1
        found = len(build_context(ws, task, room, tok).tier2.files)
        assert 0 < files < found, (task, budget)
        them = "it" if found - files == 1 else "them"
        said = f"{found - files} more file{'s' if found - files > 1 else ''} found left out to keep this answer's"
        assert pack["note"] == f"{said} JSON within the budget; a larger budget holds {them}"
        assert text.split("\n")[-3] == pack["note"]
    quoted = anyio.run(_first_query, server, calls[2])
    assert quoted == "damage " + '"\\' * 46 + '"' + "… (407 characters)"  # its first 100 characters: 200 halved


async def _first_query(server, call: tuple[str, int]) -> str:
    from mcp import Client

    async with Client(server) as c:
        answer = await c.call_tool("get_context", {"task": call[0], "budget": call[1]})
    return answer.structured_content["query"]


def test_context_json_says_why_its_pack_holds_no_file(indexed_fixture: Path) -> None:
    def pack(task: str) -> dict:
        return json.loads(run_cli("context", task, "--json", "--project", str(indexed_fixture)).stdout)

    assert pack("zzqqxx")["note"] == "no file matches the task: try other words (identifiers, file names)"
    assert pack(FIRST_ROOM)["note"] == ""
