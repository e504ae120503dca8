"""Promises session 50 made in docstrings and docs that no test pinned, each tested here and each
test seen failing with its promise broken (the commit messages say how it was broken):

1. A prefab that is a variant of itself (its `m_SourcePrefab` its own GUID) gets the cycle note a
   cycle through other prefabs gets, in `refs` (of it, of its scripts and their members),
   `describe` and the MCP tools; before, nothing said why it was outlined "Prefab variant of" itself.
2. Under a small address-space limit `watch` ends, exit 2, writing nothing (it waited "every 2 s"
   for ever, saying to run the command again, for a limit no wait raises); `index` keeps the
   committed index; `context` and `refs` answer from the index as it is, as a query does; a
   MemoryError under a limit names it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.store.schema import IndexPaths

from .conftest import REPO, indexed_copy, meta, run_cli, write_project
from .test_address_space_session50 import REFUSED, _cli
from .test_trust_session49 import A_GUID, B_GUID, CYCLE_A, HEAD, HP, SCRIPT, _instance

LINUX = sys.platform.startswith("linux")
SELF_CYCLE = (
    "a cycle of prefabs: Assets/A.prefab is an instance or variant of itself (Unity never saves one: a merge or"
    " a hand edit made it), not followed round"
)


def _self_variant(root: Path) -> Path:
    """A (adding `Hp`) a variant of itself, as a hand edit or a merge can leave it; a level places A."""
    write_project(
        root,
        {
            "Assets/Hp.cs": HP,
            "Assets/Hp.cs.meta": meta(SCRIPT),
            "Assets/A.prefab": CYCLE_A.replace(B_GUID, A_GUID),
            "Assets/A.prefab.meta": meta(A_GUID, "PrefabImporter"),
            "Assets/Level.unity": HEAD + _instance(900, A_GUID, {}),
        },
    )
    update(root, Config(workers=1))
    return root


def test_a_prefab_variant_of_itself_gets_the_cycle_note(tmp_path: Path) -> None:
    root = _self_variant(tmp_path / "P")
    refs = {t: run_cli("refs", t, "--project", str(root)).stdout for t in ("Hp", "Hp.hp", "Assets/A.prefab")}
    assert refs["Hp"].split("\n") == [
        f"type Hp  ({SELF_CYCLE})",
        "in assets (2):",
        "  Assets/A.prefab:22 [m_Script]  A",
        "  Assets/Level.unity:3 [instance]  A (via Assets/A.prefab)",
        "",
    ]
    assert refs["Hp.hp"].split("\n")[0] == f"member hp of Hp  ({SELF_CYCLE})"
    assert refs["Assets/A.prefab"].split("\n") == [
        f"file Assets/A.prefab  ({SELF_CYCLE})",
        "in assets (1):",
        "  Assets/Level.unity:3 [instance]  A",
        "",
    ]
    data = json.loads(run_cli("refs", "Assets/A.prefab", "--json", "--project", str(root)).stdout)
    assert data["target"]["note"] == SELF_CYCLE
    desc = run_cli("describe", "Assets/A.prefab", "--project", str(root)).stdout.split("\n")
    assert desc[1:3] == [f"note: {SELF_CYCLE}", "Prefab variant of Assets/A.prefab"]
    # the walk, which says no cycle of either kind, lists the level through A once, A not through itself
    reasons = run_cli("query", "Hp", "--project", str(root)).stdout.split("\n")
    assert "      why: carries script Assets/Hp.cs via Assets/A.prefab" in reasons
    assert [line for line in reasons if "A.prefab > Assets/A.prefab" in line] == []


def test_mcp_says_the_self_variants_cycle_note(tmp_path: Path) -> None:
    import anyio
    from mcp import Client

    from indexer.query.workspace import open_workspace, projects_at
    from mcp_adapter.server.app import create_server

    root = _self_variant(tmp_path / "P")

    async def answers() -> tuple[str, str]:
        server = create_server(open_workspace(root, projects_at(root)), refresh_interval=60, watch=False)
        async with Client(server, mode="legacy") as c:
            refs = await c.call_tool("find_references", {"target": "Hp"})
            desc = await c.call_tool("describe", {"target": "Assets/A.prefab"})
            return refs.content[0].text, desc.content[0].text

    refs, desc = anyio.run(answers)
    assert refs.split("\n")[0] == f"type Hp  ({SELF_CYCLE})"
    assert f"note: {SELF_CYCLE}" in desc.split("\n")


def test_a_cycle_through_others_is_still_said_through_them(tmp_path: Path) -> None:
    """The self-variant's note drops "through ..."; A variant of B, B of A keeps it."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Hp.cs": HP,
            "Assets/Hp.cs.meta": meta(SCRIPT),
            "Assets/A.prefab": CYCLE_A,
            "Assets/A.prefab.meta": meta(A_GUID, "PrefabImporter"),
            "Assets/B.prefab": HEAD + _instance(100100000, A_GUID, {"m_Name": "B"}),
            "Assets/B.prefab.meta": meta(B_GUID, "PrefabImporter"),
        },
    )
    update(root, Config(workers=1))
    first = run_cli("refs", "Assets/A.prefab", "--project", str(root)).stdout.split("\n")[0]
    assert first == f"file Assets/A.prefab  ({SELF_CYCLE.replace('of itself', 'of itself through Assets/B.prefab')})"


# -- address space: every writing command refuses, every answering one answers -------------------


@pytest.mark.skipif(not LINUX, reason="RLIMIT_AS as Linux applies it")
def test_watch_under_a_small_address_space_ends_writing_nothing(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/Player.cs": "public class Player { }\n"})
    r = _cli("watch", "--project", str(root))
    assert (r.returncode, r.stdout, r.stderr) == (2, "", REFUSED)
    assert not IndexPaths(Config().index_path(root)).root.exists()


@pytest.mark.skipif(not LINUX, reason="RLIMIT_AS as Linux applies it")
def test_context_and_refs_under_a_small_address_space_answer_from_the_index_as_it_is(tmp_path: Path) -> None:
    root = indexed_copy(tmp_path)
    script = root / "Assets/Scripts/Player/PlayerHealth.cs"
    script.write_text(script.read_text() + "\n// changed\n")
    refused = REFUSED[len("error: ") : -1]
    said = f"the index of DungeonCrawler could not be updated: {refused}; answering from it as it is\n"
    for args in (("context", "player health", "--budget", "2000"), ("refs", "PlayerHealth")):
        r = _cli(*args, "--project", str(root))
        assert (r.returncode, r.stderr.splitlines(keepends=True)[0]) == (0, said), args
        assert "PlayerHealth" in r.stdout, args


@pytest.mark.skipif(not LINUX, reason="RLIMIT_AS as Linux applies it")
def test_index_under_a_small_address_space_keeps_the_committed_index(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/Player.cs": "public class Player { }\n"})
    update(root, Config(workers=1))
    index = IndexPaths(Config().index_path(root)).root

    def state() -> list[tuple[str, int]]:
        return sorted((str(p.relative_to(index)), p.stat().st_mtime_ns) for p in index.rglob("*") if p.is_file())

    before = state()
    (root / "Assets/Enemy.cs").write_text("public class Enemy { }\n")
    for args in (("index",), ("index", "--full")):
        r = _cli(*args, "--project", str(root))
        assert (r.returncode, r.stderr) == (2, REFUSED), args
    assert state() == before


@pytest.mark.skipif(not LINUX, reason="RLIMIT_AS as Linux applies it")
def test_a_memory_error_under_a_limit_names_the_limit() -> None:
    code = (
        "import resource; from indexer.cli.common import explain_failure\n"
        "resource.setrlimit(resource.RLIMIT_AS, (3000 * 1024 * 1024, resource.RLIM_INFINITY))\n"
        "print(explain_failure(MemoryError()))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    r = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True)
    assert r.stdout == (
        "the process ran out of memory; its address space is limited to 3000 MB (`ulimit -v`): raise the limit"
        " and run the command again (the index keeps its last commit)\n"
    ), r.stderr
