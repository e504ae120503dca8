"""The MCP server in-process: every tool, resource and prompt against the fixture, both protocol
eras, bad input as tool errors, freshness after a file changes on disk, and the editor tools
against a fake editor (a Python HTTP server speaking the bridge protocol)."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from indexer.query.workspace import open_workspace, projects_at
from mcp_adapter.server.app import create_server
from mcp_adapter.server.freshness import Freshness

from .conftest import copy_fixture, write_project
from .json_http import JsonHandler

INDEX_TOOLS = ["search", "get_context", "find_references", "describe", "project_overview", "index_status", "refresh"]
ALL_TOOLS = [*INDEX_TOOLS, "editor_tools", "editor_call"]
DUNGEON_GUID = "e3f6cf2710d31fe957ef62913a791f61"
PLAYER_PREFAB_GUID = "502fdc0478969faaae9939a5a003717d"


def make_server(root: Path, **kw: Any):
    return create_server(open_workspace(root, projects_at(root)), refresh_interval=0, tokenizer="estimate", **kw)


def run(coro_fn) -> Any:
    return anyio.run(coro_fn)


@pytest.fixture(scope="module")
def server(indexed_fixture: Path):
    return make_server(indexed_fixture)


def text(result) -> str:
    assert len(result.content) == 1
    return result.content[0].text


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_every_tool_listed_with_schemas_and_annotations(server, mode: str) -> None:
    async def go():
        async with Client(server, mode=mode) as c:
            assert c.protocol_version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
            return (await c.list_tools()).tools

    tools = {t.name: t for t in run(go)}
    assert sorted(tools) == sorted(ALL_TOOLS)
    for name in ALL_TOOLS:
        assert tools[name].output_schema is not None and tools[name].output_schema["type"] == "object", name
        assert tools[name].description
    for name in [*INDEX_TOOLS[:6], "editor_tools"]:
        assert tools[name].annotations.read_only_hint is True, name
    assert tools["refresh"].annotations.read_only_hint is False
    assert tools["editor_call"].annotations.read_only_hint is False
    assert tools["search"].input_schema["required"] == ["query"]
    assert tools["search"].input_schema["properties"]["limit"]["default"] == 10
    assert tools["get_context"].input_schema["properties"]["budget"]["default"] == 8000
    assert tools["find_references"].input_schema["properties"]["limit"]["default"] == 50
    assert sorted(tools["search"].output_schema["properties"]) == ["query", "results"]


def test_a_quoted_text_ranks_the_file_holding_it_first_over_mcp(server) -> None:
    """The server's instructions tell agents to quote a text the game shows: `search` then puts
    the file holding it first, says so, and points at its line."""
    from mcp_adapter.server.app import INSTRUCTIONS

    assert "quote a text" in INSTRUCTIONS

    async def go():
        async with Client(server) as c:
            return await c.call_tool("search", {"query": 'clicking "Heal (+25)" does nothing', "limit": 3})

    first = run(go).structured_content["results"][0]
    assert (first["path"], first["line"], first["snippet"]) == (
        "Assets/Scenes/Dungeon.unity",
        1393,
        "m_Text: Heal (+25)",
    )
    assert 'holds "heal (+25)"' in first["reason"]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_calls_every_index_tool(server, mode: str) -> None:
    async def go():
        out = {}
        async with Client(server, mode=mode) as c:
            out["search"] = await c.call_tool("search", {"query": "apply damage", "limit": 5})
            out["search_kind"] = await c.call_tool("search", {"query": "player", "kind": "prefab", "path": "Assets"})
            out["context"] = await c.call_tool("get_context", {"task": "add a shield that absorbs damage"})
            out["refs"] = await c.call_tool("find_references", {"target": "PlayerHealth"})
            out["refs_page"] = await c.call_tool("find_references", {"target": "PlayerHealth", "limit": 2, "offset": 2})
            out["refs_past"] = await c.call_tool("find_references", {"target": "PlayerHealth", "offset": 10})
            out["describe"] = await c.call_tool("describe", {"target": "Assets/Scenes/Dungeon.unity"})
            out["describe_guid"] = await c.call_tool("describe", {"target": PLAYER_PREFAB_GUID})
            out["describe_type"] = await c.call_tool("describe", {"target": "PlayerHealth"})
            out["overview"] = await c.call_tool("project_overview", {})
            out["status"] = await c.call_tool("index_status", {})
            out["refresh"] = await c.call_tool("refresh", {})
        return out

    r = run(go)
    for key, res in r.items():
        assert res.is_error is False, (key, res.content)
        assert res.structured_content is not None, key

    s = r["search"].structured_content
    assert s["query"] == "apply damage" and len(s["results"]) == 5
    assert s["results"][0]["path"] == "Assets/Scripts/Combat/DamageDealer.cs"
    assert "Assets/Scripts/Combat/Health.cs" in [h["path"] for h in s["results"]]
    assert text(r["search"]).startswith(" 1. Assets/Scripts/Combat/DamageDealer.cs:10  [csharp]")
    kinds = {h["kind"] for h in r["search_kind"].structured_content["results"]}
    assert kinds == {"prefab"}
    assert "Assets/Prefabs/Player.prefab" in [h["path"] for h in r["search_kind"].structured_content["results"]]

    c = r["context"].structured_content
    assert c["budget"] == 8000 and 0 < c["tokens"] <= 8000 and c["tokenizer"] == "estimate-v2"
    assert c["query"] == "add a shield that absorbs damage"
    assert c["tier1"]["tokens"] + c["tier2"]["tokens"] <= c["tokens"]
    paths = [f["path"] for f in c["tier2"]["files"]]
    assert "Assets/Scripts/Combat/Health.cs" in paths and "Assets/Scripts/Player/PlayerHealth.cs" in paths
    assert c["tier1"]["text"].startswith("# Unity project")
    assert text(r["context"]).startswith(c["tier1"]["text"] + "\n\n" + c["tier2"]["text"])
    assert text(r["context"]).endswith(f"[{c['tokens']}/8000 tokens (estimate-v2); {len(paths)} files]")

    refs = r["refs"].structured_content
    assert refs["target"]["kind"] == "type" and refs["target"]["types"] == ["DungeonCrawler.Player.PlayerHealth"]
    assert refs["total"] == 6 and refs["offset"] == 0 and refs["next_offset"] is None
    assets = sorted((u["path"], u["context"]) for u in refs["usages"] if u["where"] == "asset")
    assert assets == [
        ("Assets/Prefabs/Player.prefab", "m_Script"),
        ("Assets/Scenes/Dungeon.unity", "instance"),  # the scene's Player instance carries it too
        ("Assets/Scenes/Dungeon.unity", "m_OnClick"),
    ]
    assert "DungeonCrawler.Player.PlayerHealth.Heal" in text(r["refs"])
    page = r["refs_page"].structured_content
    assert page["total"] == 6 and page["offset"] == 2 and page["next_offset"] == 4 and len(page["usages"]) == 2
    assert page["usages"] == refs["usages"][2:4]
    assert "call again with offset=4" in text(r["refs_page"])
    past = r["refs_past"]
    assert past.structured_content["usages"] == [] and past.structured_content["next_offset"] is None
    assert text(past).endswith("\n[6 usages; none from offset=10: call again with an offset below 6]")

    d = r["describe"].structured_content
    assert (d["path"], d["kind"], d["guid"], d["status"]) == (
        "Assets/Scenes/Dungeon.unity",
        "scene",
        DUNGEON_GUID,
        "ok",
    )
    assert "Player  (prefab instance of Assets/Prefabs/Player.prefab)" in d["text"]
    assert d["project"] == "DungeonCrawler" and d["schema_version"] == 1
    assert {"kind": "prefab_instance", "name": "Player", "line": 417, "detail": PLAYER_PREFAB_GUID} in d["symbols"]
    assert {"path": "Assets/Prefabs/Player.prefab", "edge": "prefab"} in d["uses"] or any(
        e["path"] == "Assets/Prefabs/Player.prefab" for e in d["uses"]
    )
    assert text(r["describe"]) == d["text"]
    dg = r["describe_guid"].structured_content
    assert dg["path"] == "Assets/Prefabs/Player.prefab" and dg["kind"] == "prefab"
    # docs/mcp.md: `describe`'s target may be a type's name, the file declaring it.
    dt = r["describe_type"].structured_content
    assert (dt["path"], dt["kind"]) == ("Assets/Scripts/Player/PlayerHealth.cs", "csharp")

    o = r["overview"].structured_content
    assert len(o["projects"]) == 1
    assert o["projects"][0]["unity_version"] == "2021.3.15f1" and o["projects"][0]["product"] == "Dungeon Crawler"
    assert o["projects"][0]["scenes_in_build"] == ["Assets/Scenes/MainMenu.unity", "Assets/Scenes/Dungeon.unity"]
    assert "## Project tree" in o["tree"]

    st = r["status"].structured_content
    assert st["projects"][0]["indexed"] is True and st["projects"][0]["files"] == 213
    assert st["projects"][0]["skipped"] == []
    assert st["projects"][0]["stale_files"] == 0 and st["auto_refresh_seconds"] == 0

    rf = r["refresh"].structured_content["projects"][0]
    assert (rf["files"], rf["scanned"], rf["deleted"], rf["full"]) == (213, 0, 0, False)
    assert rf["walked"] is True
    assert text(r["refresh"]).startswith(f"updated index of {rf['project']}: 213 files; scanned 0")


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("search", {"query": "   "}, "the query is empty"),
        ("search", {"query": "x", "path": "../elsewhere"}, "is outside the project"),
        ("search", {"query": "x", "path": "Assets/Scriptz"}, "Assets/Scriptz: no indexed file is under this folder"),
        ("search", {"query": "x", "limit": 0}, "limit"),
        ("search", {"query": "x", "kind": "sprite"}, "kind 'sprite': no such kind; use one of animation, animator,"),
        ("get_context", {"task": ""}, "the task is empty"),
        ("find_references", {"target": ""}, "the target is empty"),
        ("find_references", {"target": "NoSuchTypeAnywhere"}, "no type, member, file, GUID or assembly"),
        (  # a bare member name: the types declaring a member so named (session 32)
            "find_references",
            {"target": "TakeDamage"},
            "members so named: DungeonCrawler.Combat.Health.TakeDamage, DungeonCrawler.Combat.IDamageable.TakeDamage,",
        ),
        ("find_references", {"target": "/etc/passwd"}, "'/etc/passwd' is outside the project"),
        ("describe", {"target": "../x"}, "'../x' is outside the project"),
        ("describe", {"target": "Assets/../../x"}, "is outside the project"),
        ("describe", {"target": "/etc/passwd"}, "'/etc/passwd' is outside the project"),
        ("describe", {"target": "C:\\Windows\\win.ini"}, "is outside the project"),
        ("describe", {"target": "Assets/Scripts/Missing.cs"}, "is not an indexed file; the `search` tool finds"),
        ("describe", {"target": "Assets/Nope.cs"}, "Assets/Nope.cs is not an indexed file"),
        ("describe", {"target": "0123456789abcdef0123456789abcdef"}, "GUID 0123456789abcdef0123456789abcdef is not"),
        ("describe", {"target": ""}, "give a project path"),
    ],
)
def test_bad_input_is_a_tool_error(server, tool: str, args: dict, message: str) -> None:
    async def go():
        async with Client(server) as c:
            return await c.call_tool(tool, args)

    res = run(go)
    assert res.is_error is True
    assert message in text(res)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("search", {"query": "x", "limit": 1000}, "search: `limit` must be at most 100 (got 1000)."),
        ("search", {"query": "x", "limit": 0}, "search: `limit` must be at least 1 (got 0)."),
        ("search", {"query": "x", "limit": "ten"}, "search: `limit` must be a whole number (got 'ten')."),
        ("search", {"query": 5}, "search: `query` must be a string (got 5)."),
        (
            "search",
            {"qurey": "health"},
            "search: unknown argument `qurey`; `query` is required (words, identifiers or a task, e.g. 'apply damage')."
            " It takes: query, kind, path, limit.",
        ),
        ("get_context", {"task": "x", "budget": 10}, "get_context: `budget` must be at least 200 (got 10)."),
        (
            "find_references",
            {"target": "X", "offset": -1, "limit": 2.5},
            "find_references: `limit` must be a whole number (got 2.5); `offset` must be at least 0 (got -1).",
        ),
        ("editor_call", {"name": "e", "arguments": [1]}, "editor_call: `arguments` must be a JSON object (got [1])."),
        (
            "describe",
            {},
            "describe: `target` is required (a path (Assets/Scenes/Dungeon.unity, absolute in the project",
        ),
    ],
)
def test_argument_errors_are_short_sentences(server, mode: str, tool: str, args: dict, message: str) -> None:
    async def go():
        async with Client(server, mode=mode) as c:
            return await c.call_tool(tool, args)

    res = run(go)
    assert res.is_error is True
    assert text(res).startswith(message)
    assert text(res).endswith("Correct the arguments and call it again.")
    assert "pydantic" not in text(res) and "http" not in text(res) and "validation error" not in text(res)


def test_lax_coercions_of_the_sdk_are_as_documented(server) -> None:
    """docs/mcp.md: the SDK's validation (pydantic, lax mode) reads "5" as 5 and true as 1, then
    checks the range; 5.0 is 5."""

    async def go():
        async with Client(server, mode="legacy") as c:
            calls = [{"limit": "2"}, {"limit": True}, {"limit": 3.0}, {"limit": False}]
            return [await c.call_tool("search", {"query": "damage", **args}) for args in calls]

    as_string, as_true, as_float, as_false = run(go)
    assert [len(r.structured_content["results"]) for r in (as_string, as_true, as_float)] == [2, 1, 3]
    assert as_false.is_error and text(as_false).startswith("search: `limit` must be at least 1 (got False).")


def test_describe_takes_paths_as_agents_give_them(server, indexed_fixture: Path) -> None:
    """Absolute inside the project, Windows separators, another case, a bare file name: one file."""
    given = [
        str(indexed_fixture / "Assets" / "Scripts" / "Combat" / "Health.cs"),
        "Assets\\Scripts\\Combat\\Health.cs",
        "assets/scripts/combat/health.cs",
        "Health.cs",
        "Combat/Health.cs",
    ]

    async def go():
        async with Client(server) as c:
            return [await c.call_tool("describe", {"target": t}) for t in given]

    for t, res in zip(given, run(go), strict=True):
        assert res.is_error is False, (t, text(res))
        assert res.structured_content["path"] == "Assets/Scripts/Combat/Health.cs", t


def test_names_of_several_files_unindexed_paths_and_unknown_arguments(tmp_path: Path) -> None:
    """docs/mcp.md: a file name that fits several files is refused listing them; an unindexed path
    gets "did you mean" suggestions; an unknown argument name is ignored when the call succeeds."""
    from .conftest import write_project

    root = write_project(
        tmp_path / "P",
        {"Assets/A/Util.cs": "class UtilA {}", "Assets/B/Util.cs": "class UtilB {}", "Assets/Health.cs": "class H {}"},
    )

    async def go():
        async with Client(make_server(root)) as c:
            return [
                await c.call_tool("describe", {"target": "Util.cs"}),
                await c.call_tool("find_references", {"target": "Assets/Helth.cs"}),
                await c.call_tool("search", {"query": "UtilB", "limt": 3}),
            ]

    several, unindexed, ignored = run(go)
    assert several.is_error and text(several).endswith(
        "Util.cs names 2 files: Assets/A/Util.cs, Assets/B/Util.cs; give more of the path"
    )
    assert unindexed.is_error and text(unindexed).endswith(
        "Assets/Helth.cs is not an indexed file; did you mean Assets/Health.cs?"
    )
    assert not ignored.is_error and ignored.structured_content["results"][0]["path"] == "Assets/B/Util.cs"


def test_resources_and_prompt(server) -> None:
    async def go():
        async with Client(server, mode="legacy") as c:
            listed = [str(r.uri) for r in (await c.list_resources()).resources]
            templates = [t.uri_template for t in (await c.list_resource_templates()).resource_templates]
            overview = await c.read_resource("unity://project/overview")
            file = await c.read_resource("unity://file/Assets/Scenes/Dungeon.unity")
            asset = await c.read_resource(f"unity://asset/{PLAYER_PREFAB_GUID}")
            prompts = (await c.list_prompts()).prompts
            prompt = await c.get_prompt("unity_task", {"task": "add a shield that absorbs damage"})
            errors = []
            for uri in ("unity://file/Assets/Nope.cs", "unity://asset/nothex", "unity://file/../secret"):
                with pytest.raises(MCPError) as info:
                    await c.read_resource(uri)
                errors.append(str(info.value))
            return listed, templates, overview, file, asset, prompts, prompt, errors

    listed, templates, overview, file, asset, prompts, prompt, errors = run(go)
    assert listed == ["unity://project/overview"]
    assert sorted(templates) == ["unity://asset/{guid}", "unity://file/{+path}"]
    assert overview.contents[0].text.startswith("# Unity project DungeonCrawler — Dungeon Crawler (Unity 2021.3.15f1)")
    assert file.contents[0].text.startswith(f"Assets/Scenes/Dungeon.unity  (scene, guid {DUNGEON_GUID})")
    assert asset.contents[0].text.startswith(f"Assets/Prefabs/Player.prefab  (prefab, guid {PLAYER_PREFAB_GUID})")
    assert [p.name for p in prompts] == ["unity_task"]
    body = prompt.messages[0].content.text
    assert body.startswith("Task: add a shield that absorbs damage")
    assert "Assets/Scripts/Combat/Health.cs" in body and "`find_references`" in body
    assert len(errors) == 3
    assert "Assets/Nope.cs is not an indexed file" in errors[0]
    assert "is not a GUID" in errors[1]


def test_a_prompt_request_without_a_task_is_refused_by_the_sdk_itself(server) -> None:
    """docs/mcp.md, Prompt: a request with no `task` never reaches the prompt; the SDK answers it
    with its own error (code 0, "Missing required arguments"). Fails if the SDK changes that."""

    async def go():
        async with Client(server, mode="legacy") as c:
            with pytest.raises(MCPError) as info:
                await c.get_prompt("unity_task", {})
            return info.value.error

    error = anyio.run(go)
    assert error.code == 0 and "Missing required arguments" in error.message


@pytest.mark.parametrize(
    ("budget", "message"),
    [
        ("lots", "`budget` must be a whole number of tokens from 200 to 200000 (got 'lots')"),
        ("-1", "`budget` must be a whole number of tokens from 200 to 200000 (got '-1')"),
        ("300000", "`budget` must be a whole number of tokens from 200 to 200000 (got '300000')"),
        ("+-300", "`budget` must be a whole number of tokens from 200 to 200000 (got '+-300')"),
        ("²²²", "`budget` must be a whole number of tokens from 200 to 200000 (got '²²²')"),
        # more digits than int() converts (4300): was code 0 "Error rendering prompt unity_task"
        ("9" * 4301, f"`budget` must be a whole number of tokens from 200 to 200000 (got '{'9' * 40}')"),
        ("-" + "9" * 4301, f"`budget` must be a whole number of tokens from 200 to 200000 (got '-{'9' * 39}')"),
    ],
)
def test_the_prompt_says_what_is_wrong_with_its_arguments(server, budget: str, message: str) -> None:
    """MCP passes prompt arguments as strings; a bad one used to be "Error rendering prompt
    unity_task" (code 0, the reason only in the server's log), and any budget was taken."""

    async def go():
        async with Client(server, mode="legacy") as c:
            errors = []
            for args in ({"task": "add a shield", "budget": budget}, {"task": "  "}):
                with pytest.raises(MCPError) as info:
                    await c.get_prompt("unity_task", args)
                errors.append((info.value.error.code, info.value.error.message))
            fits = await c.get_prompt("unity_task", {"task": "add a shield", "budget": "500"})
            return errors, fits

    errors, fits = run(go)
    assert errors == [(-32602, f"unity_task: {message}"), (-32602, "unity_task: the task is empty: describe it")]
    assert fits.messages[0].content.text.startswith("Task: add a shield\n\nHere is the context")


@pytest.mark.parametrize("watch", [True, False])
def test_a_project_whose_index_cannot_be_written_says_why(tmp_path: Path, watch: bool) -> None:
    """A failure that is not a bug reaches the client with the CLI's reason: here the index
    folder cannot be made (`Library` is a file). Every tool, resource and the prompt used to
    answer "Error executing tool search" / "Error reading resource ..." and nothing else."""
    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { void Jump() {} }", "Library": "x"})
    server = make_server(root, watch=watch)
    reason = f"Not a directory: {root / 'Library/UnityIndex'}; check that this file or folder can be read and written"

    async def go():
        async with Client(server, mode="legacy") as c:
            calls = {
                "search": {"query": "jump"},
                "get_context": {"task": "make the hero jump"},
                "find_references": {"target": "Hero"},
                "describe": {"target": "Assets/Hero.cs"},
                "project_overview": {},
                "refresh": {},
            }
            answers = {name: await c.call_tool(name, args) for name, args in calls.items()}
            errors = {}
            for uri in ("unity://project/overview", "unity://file/Assets/Hero.cs"):
                with pytest.raises(MCPError) as info:
                    await c.read_resource(uri)
                errors[uri] = info.value.error
            with pytest.raises(MCPError) as info:
                await c.get_prompt("unity_task", {"task": "make the hero jump"})
            errors["prompt"] = info.value.error
            return answers, errors

    answers, errors = run(go)
    for name, answer in answers.items():
        assert answer.is_error and reason in text(answer), (name, text(answer))
    for what, error in errors.items():
        assert (error.code, reason in error.message) == (-32603, True), (what, error)
    if watch:  # the watcher's first build failed: the readers find no index and say why
        assert text(answers["search"]).startswith("Error executing tool search: no index of this version at ")
        assert ": building it failed (" in text(answers["search"])
        assert text(answers["refresh"]).startswith("Error executing tool refresh: no update ran: it failed (")


@pytest.mark.parametrize(("mode", "not_found"), [("legacy", -32002), ("auto", -32602)])
def test_resource_read_errors_carry_the_spec_codes(server, mode: str, not_found: int) -> None:
    """Not indexed: resource-not-found (-32002 in 2025-11-25; -32602 with data.uri from 2026-07-28,
    SEP-2164). A malformed or out-of-project argument: invalid params (-32602)."""
    cases = {
        "unity://file/Assets/Nope.cs": not_found,
        f"unity://asset/{'0' * 32}": not_found,
        "unity://asset/nothex": -32602,
        "unity://file/0123456789abcdef0123456789abcdef": -32602,
        "unity://file/Assets/../../secret": -32602,
    }

    async def go():
        got = {}
        async with Client(server, mode=mode) as c:
            for uri in cases:
                with pytest.raises(MCPError) as info:
                    await c.read_resource(uri)
                got[uri] = (info.value.code, info.value.data)
        return got

    got = run(go)
    assert {uri: code for uri, (code, _) in got.items()} == cases
    assert all(data == {"uri": uri} for uri, (_, data) in got.items())


def test_changed_file_shows_up_in_next_search(tmp_path: Path) -> None:
    root = tmp_path / "DungeonCrawler"
    copy_fixture(root)
    server = make_server(root)
    script = root / "Assets" / "Scripts" / "Combat" / "ShieldAbsorber.cs"

    async def go():
        async with Client(server) as c:
            first = await c.call_tool("search", {"query": "ZanzibarShield"})  # builds the index
            script.write_text(
                "using UnityEngine;\nnamespace DungeonCrawler.Combat {\n"
                "public class ZanzibarShield : MonoBehaviour { public float absorb = 5f; }\n}\n"
            )
            second = await c.call_tool("search", {"query": "ZanzibarShield"})
            script.unlink()
            third = await c.call_tool("search", {"query": "ZanzibarShield"})
            return first, second, third

    first, second, third = run(go)
    assert first.structured_content["results"] == []
    hits = second.structured_content["results"]
    assert hits[0]["path"] == "Assets/Scripts/Combat/ShieldAbsorber.cs"
    assert hits[0]["name"] == "DungeonCrawler.Combat.ZanzibarShield"
    assert third.structured_content["results"] == []


def test_describe_caps_the_outline_at_300_lines_and_its_records_at_400(tmp_path: Path) -> None:
    """docs/mcp.md: `describe`'s `text` is capped at 300 lines and its `symbols` and `refs` at 400
    each, with their totals (an agent's context is finite: a 9 MB scene's 40,000 symbols were 3 MB
    of structured content); `unity-index describe --json` keeps them whole."""
    from .conftest import write_project

    methods = "\n".join(f"    public void Step{i}() {{}}" for i in range(400))
    root = write_project(tmp_path / "P", {"Assets/Big.cs": f"public class Big {{\n{methods}\n}}"})

    async def go():
        async with Client(make_server(root)) as c:
            return await c.call_tool("describe", {"target": "Big.cs"})

    res = run(go)
    assert not res.is_error
    outline = res.structured_content["text"].splitlines()
    # the class and 400 methods: 401 outline lines (the hint, in tool terms, since session 33; what
    # the structured content holds of them since session 38: it said all, and 400 were)
    listed = len(res.structured_content["symbols"])  # 400 at most, fewer to keep the answer in 20k tokens
    assert outline[-1] == (
        f"… 101 more lines (the structured content's symbols list the first {listed} of 401;"
        " `unity-index describe --json Assets/Big.cs` lists all)"
    )
    assert len([line for line in outline if "void Step" in line]) == 299
    assert 300 < listed <= 400
    assert (res.structured_content["symbols_total"], res.structured_content["refs_total"]) == (401, 0)


def test_refresh_interval_throttles_the_stat_walk(indexed_fixture: Path) -> None:
    fresh = Freshness(open_workspace(indexed_fixture, projects_at(indexed_fixture)), 3600, watch=False)
    assert len(fresh.ensure()) == 1  # first call: checks
    assert fresh.ensure() == []  # within the interval: no walk
    assert len(fresh.ensure(force=True)) == 1


# -- editor tools ----------------------------------------------------------------------------


def test_editor_tools_without_editor_say_what_to_do(server) -> None:
    async def go():
        async with Client(server) as c:
            return await c.call_tool("editor_tools", {}), await c.call_tool("editor_call", {"name": "console_read"})

    for res in run(go):
        assert res.is_error is True
        msg = text(res)
        assert "No Unity editor is serving" in msg and "[editor_not_running]" in msg
        assert "com.unityindex.bridge" in msg and "Package Manager" in msg


class _FakeEditor(JsonHandler):
    token = "t" * 64
    tools: ClassVar[list[dict]] = [
        {"name": "echo", "description": "echoes its arguments", "input_schema": {"type": "object"}}
    ]

    def _authorized(self) -> bool:
        if self.headers.get("Authorization") != f"Bearer {self.token}":
            self._answer(401, {"ok": False, "error": {"code": "invalid_token", "message": "bad token"}})
            return False
        return True

    def do_GET(self) -> None:
        if self._authorized():
            self._answer(200, {"ok": True, "tools": self.tools})

    def do_POST(self) -> None:
        if not self._authorized():
            return
        req = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if req["tool"] != "echo":
            err = {"code": "unknown_tool", "message": f"no tool {req['tool']}", "started": False}
            self._answer(404, {"ok": False, "error": err})
            return
        self._answer(200, {"ok": True, "result": {"echo": req["arguments"]}, "elapsed_ms": 1})


@pytest.fixture
def fake_editor(tmp_path: Path) -> Iterator[Path]:
    root = tmp_path / "Proj"
    (root / "Assets").mkdir(parents=True)
    (root / "ProjectSettings").mkdir()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _FakeEditor)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    hb = root / "Library" / "UnityIndex" / "editor.json"
    hb.parent.mkdir(parents=True)
    beat = {
        "protocol": 1,
        "port": httpd.server_address[1],
        "token": _FakeEditor.token,
        "pid": os.getpid(),
        "state": "ready",
        "unity_version": "2021.3.15f1",
        "project_path": str(root),
        "updated_at": time.time(),
    }
    hb.write_text(json.dumps(beat))
    try:
        yield root
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_editor_tools_and_call_through_a_fake_editor(fake_editor: Path) -> None:
    server = make_server(fake_editor)

    async def go():
        async with Client(server) as c:
            listed = await c.call_tool("editor_tools", {})
            called = await c.call_tool("editor_call", {"name": "echo", "arguments": {"x": 1}})
            unknown = await c.call_tool("editor_call", {"name": "nope"})
            search = await c.call_tool("search", {"query": "anything"})  # index tools work beside it
            return listed, called, unknown, search

    listed, called, unknown, search = run(go)
    assert listed.is_error is False
    assert listed.structured_content == {
        "project": "Proj",
        "tools": [{"name": "echo", "description": "echoes its arguments", "input_schema": {"type": "object"}}],
    }
    assert text(listed) == "echo: echoes its arguments"
    assert called.is_error is False
    assert called.structured_content == {"project": "Proj", "tool": "echo", "result": {"echo": {"x": 1}}}
    assert json.loads(text(called)) == {"echo": {"x": 1}}
    assert unknown.is_error is True and "editor: no tool nope [unknown_tool]" in text(unknown)
    assert search.is_error is False and search.structured_content["results"] == []


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("describe", {"target": "Assets/" + "x" * 100_000}),
        ("describe", {"target": "Health." * 20_000}),
        ("find_references", {"target": "Health." * 20_000}),
        ("find_references", {"target": "Assets/" + "x" * 100_000}),
        ("search", {"query": "zzqx " * 20_000, "kind": "k" * 50_000}),
    ],
)
def test_a_tool_error_repeats_at_most_200_characters_of_the_input(server, tool: str, args: dict) -> None:
    async def go():
        async with Client(server) as c:
            return await c.call_tool(tool, args)

    res = run(go)
    given = args.get("kind") or args["target"]
    assert res.is_error is True
    assert f"{given[:200]}… ({len(given):,} characters)" in text(res)
    assert len(text(res)) < 1000, text(res)[:1000]


def test_the_overview_tree_marks_third_party_folders_as_tier_1s_does(tmp_path: Path) -> None:
    """project_overview's tree is tier 1's (docs/cli.md): an Asset Store kit is said to be
    third-party at its outermost folder, and the project's own folders expand before it."""
    from indexer.build.update import update
    from indexer.config import Config

    files = {f"Assets/Behavior Kit/Runtime/Task{i}.cs": f"public class Task{i} {{ }}" for i in range(3)}
    files |= {"Assets/Behavior Kit/LICENSE.md": "MIT", "Assets/Scripts/Game.cs": "public class Game { }"}
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))

    async def go():
        async with Client(make_server(root)) as c:
            return await c.call_tool("project_overview", {})

    tree = run(go).structured_content["tree"].split("## Project tree\n")[1].split("\n")
    assert tree[:4] == [
        "Assets/ — 5 files (4 .cs, 1 .md)",
        "  Behavior Kit/ — 4 files (3 .cs, 1 .md), third-party",
        "    Runtime/ — 3 files (3 .cs)",
        "      files: Task0.cs, Task1.cs, Task2.cs",
    ]
