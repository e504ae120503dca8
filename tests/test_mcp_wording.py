"""The indexer's messages in the server's words (mcp_adapter/server/wording.py): each rewrite on
the message that carries it, exactly, and index_status of a damaged index over a real session.

`index_status` of a damaged index said "... is damaged (...): the `refresh` tool builds it (a
tool call waits for it) to rebuild it": the rewrite of "run `unity-index index`" was made for
"no index yet" and spliced into the damaged index's "run `unity-index index` to rebuild it"."""

from __future__ import annotations

import sqlite3
import zlib
from pathlib import Path

import anyio
import pytest
from mcp import Client

from indexer.cli.common import explain_failure
from indexer.model import SkippedFile, Status
from indexer.project import ProjectGone
from indexer.query.render import render_status
from indexer.query.workspace import open_workspace, projects_at
from indexer.store.header import IndexBroken
from mcp_adapter.server.app import create_server
from mcp_adapter.server.wording import mcp_wording

from .conftest import garble_records, indexed_copy

P = "/p"
INDEX = "/p/Library/UnityIndex"
REBUILDS = "the next call of a tool that reads it (`search`, `describe`, ...) rebuilds it first"
NOT_LOST = " (nothing in the project is lost: the index is derived from its files)"
FOLDER_GUID = "d105cc08a1598acabc91d3eee8964393"  # Assets/Animations


def make_server(root: Path):
    """Poll mode with a long interval: index_status answers before any update."""
    ws = open_workspace(root, projects_at(root))
    return create_server(ws, refresh_interval=60, tokenizer="estimate", watch=False)


def text(result) -> str:
    assert len(result.content) == 1
    return result.content[0].text


def status(**fields) -> str:
    return render_status(Status(project=P, index_dir=INDEX, **fields))


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        pytest.param(
            str(IndexBroken(INDEX, "records.db is truncated")),
            f"the index at {INDEX} is damaged (records.db is truncated); {REBUILDS}{NOT_LOST}",
            id="IndexBroken",
        ),
        pytest.param(
            explain_failure(sqlite3.DatabaseError("database disk image is malformed")),
            f"the index is damaged (record store: database disk image is malformed); {REBUILDS}{NOT_LOST}",
            id="record-store",
        ),
        pytest.param(
            explain_failure(zlib.error("a blob whose deflate stream or check is wrong (garbled)")),
            "the index is damaged (record store: a blob whose deflate stream or check is wrong (garbled));"
            f" {REBUILDS}{NOT_LOST}",
            id="garbled-blob",
        ),
        pytest.param(
            status(indexed=False, damaged="records.db was changed by something other than unity-index"),
            f"project {P}\nthe index at {INDEX} is damaged (records.db was changed by something other than"
            f" unity-index): {REBUILDS}",
            id="status-damaged",
        ),
        pytest.param(
            status(indexed=False),
            f"project {P}\nno index yet at {INDEX}: the next call of a tool that reads it (`search`, `describe`,"
            " ...) builds it first",
            id="status-no-index",
        ),
        pytest.param(
            status(indexed=True, files=3, stale_files=2).splitlines()[-1],
            "stale     2 files have changed since the last update; the next call of a tool that reads the index"
            " applies them first",
            id="status-stale",
        ),
        pytest.param(
            status(indexed=True, skipped=[SkippedFile(f"Assets/{i}.bin", "binary") for i in range(21)]),
            None,
            id="status-list-cut",
        ),
        pytest.param(
            str(ProjectGone(Path(P))),
            f"{P}: the project folder is gone (moved or deleted); nothing was written there: start the server"
            " again in the project's new place",
            id="ProjectGone",
        ),
        pytest.param(
            str(ProjectGone(Path(P), "ProjectSettings")),
            f"{P}: the project folder is no longer a Unity project (ProjectSettings/ is gone: moved or deleted);"
            " nothing was written there: start the server again in the project's new place",
            id="ProjectGone-not-a-project",
        ),
    ],
)
def test_each_cli_phrase_is_put_in_tool_terms(message: str, expected: str | None) -> None:
    if expected is None:  # a list cut at 20 items: the structured content has them all
        cut = [line for line in mcp_wording(message).splitlines() if line.startswith("  ... and")]
        assert cut == ["  ... and 1 more (the structured content lists all)"]
    else:
        assert mcp_wording(message) == expected


def test_describe_names_the_tools_over_mcp(indexed_fixture: Path) -> None:
    """describe's hints name `unity-index query --path`, `unity-index refs` and `unity-index query`."""

    async def go():
        async with Client(make_server(indexed_fixture), mode="legacy") as c:
            folder = await c.call_tool("describe", {"target": FOLDER_GUID})
            unknown = await c.call_tool("describe", {"target": "Assets/Nowhere/Zzyzx.cs"})
            return text(folder), text(unknown)

    folder, unknown = anyio.run(go)
    assert folder == (
        f"Error executing tool describe: GUID {FOLDER_GUID} is that of the folder Assets/Animations, which is"
        " not described: the `search` tool (path Assets/Animations) searches its files, the `find_references`"
        f" tool (target {FOLDER_GUID}) lists what uses it"
    )
    assert unknown == (
        "Error executing tool describe: Assets/Nowhere/Zzyzx.cs is not an indexed file; the `search` tool finds"
        " files by name"
    )


def test_index_status_of_a_damaged_index_reads_right(tmp_path: Path) -> None:
    """Poll mode and a long interval: nothing rebuilds the index before index_status reads it."""
    root = indexed_copy(tmp_path)
    garble_records(root)

    async def go():
        async with Client(make_server(root), mode="legacy") as c:
            return text(await c.call_tool("index_status", {}))

    first = anyio.run(go).split("\n\n")[0]
    assert first == (
        f"project {root}\nthe index at {root / 'Library/UnityIndex'} is damaged (record store: database disk image"
        f" is malformed): {REBUILDS}"
    )
