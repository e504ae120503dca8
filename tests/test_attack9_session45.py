"""Attack 9 of session 45: cases an earlier attacker noticed and left, each test failing before its fix
(but item 3, which pins down what SQLite does and docs/cli.md explains).

1. MCP `resources/subscribe` took any URI (`http://x`, `unity://file/../x`, a file not indexed) and
   answered `{}`: it is refused as `resources/read` refuses it; a form a read accepts (`%20`, a bare
   file name) is notified by that form (only the raw path's exact string was).
2. MCP `prompts/get` of an unknown prompt was code 0 (2025 era) or -32603 with a traceback in the
   log (2026 era); it is -32602 naming the prompts there are.
3. `index --check` changes `records.db-shm`'s mtime (SQLite's wal-index), no byte and nothing else.
4. `index_dir = "Library"` (and Unity's own folders in it, Temp, Logs) was accepted.
5. A folder in place of an index file was "Is a directory" for ever, `index --full` too.
6. `index`'s line left out the files moved, which `--json` counted.
7. `describe` of an object of more than 60 fields left 20 out without a word.
8. `build_context` of a workspace without projects was a ZeroDivisionError.
Then: `watch` whose index folder was deleted said the saved file had added every file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from .conftest import data_asset, meta, mono_script, run_cli, write_project
from .test_attack8_session44 import INIT, _stdio
from .test_mcp_server import make_server, run

HEALTH = "Assets/Scripts/Combat/Health.cs"


def _session(*requests: dict) -> list[object]:
    opening = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": INIT},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    return [*opening, *({"jsonrpc": "2.0", "id": i + 1, **r} for i, r in enumerate(requests))]


# -- 1. resources/subscribe ------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:resources/subscribe is removed")
def test_subscribe_refuses_a_uri_the_server_does_not_serve(indexed_fixture: Path) -> None:
    """Each as `resources/read` says it (the SDK's `Unknown resource` for a scheme it does not
    serve; "not an indexed file" as resource not found, -32002 in the 2025 era)."""
    refused = {
        "http://example.com/x": -32602,
        "unity://elsewhere/x": -32602,
        "unity://file/../../etc/passwd": -32602,
        "unity://file/Assets/Nope.cs": -32002,
        "unity://asset/zz": -32602,
        "unity://asset/00000000000000000000000000000000": -32002,
        f"unity://file/{'a' * 32}": -32602,
        "unity://file/Assets/No%20such.cs": -32002,
    }

    async def go():
        answers = {}
        async with Client(make_server(indexed_fixture), mode="legacy") as c:
            for uri in refused:
                try:
                    await c.subscribe_resource(uri)
                except MCPError as exc:
                    answers[uri] = (exc.error.code, exc.error.message, exc.error.data)
            for uri in (f"unity://file/{HEALTH}", "unity://project/overview"):
                await c.subscribe_resource(uri)  # served: accepted as before
        return answers

    answers = run(go)
    assert {uri: a[0] for uri, a in answers.items()} == refused
    assert all(a[2] == {"uri": uri} for uri, a in answers.items())
    said = {uri: a[1] for uri, a in answers.items()}
    assert said["http://example.com/x"] == (
        "Unknown resource: http://example.com/x; this server serves unity://project/overview,"
        " unity://file/<path> and unity://asset/<guid>"
    )
    assert said["unity://file/Assets/Nope.cs"].startswith("Assets/Nope.cs is not an indexed file")
    assert "outside the project" in said["unity://file/../../etc/passwd"]
    assert said["unity://asset/zz"] == "'zz' is not a GUID (32 hexadecimal digits)"
    assert said["unity://asset/00000000000000000000000000000000"].startswith("GUID 0000")
    assert said[f"unity://file/{'a' * 32}"] == "unity://file/ takes a path; use unity://asset/{guid} for a GUID"


@pytest.mark.filterwarnings("ignore:resources/subscribe is removed")
def test_a_subscription_is_notified_in_the_form_the_client_gave(tmp_path: Path) -> None:
    """A read decodes `%20` and finds a bare file name; a subscription in those forms (accepted
    since the check above, refused as "not an indexed file" in its first version) is notified by
    that same URI, which the client compares with what it subscribed to; the URI notifications
    name the file by (raw, with its space) too."""
    from indexer.query.workspace import open_workspace, projects_at
    from mcp_adapter.server.app import create_server

    from .test_mcp_live import Inbox

    root = write_project(
        tmp_path / "Game",
        {
            "Assets/My Mover.cs": mono_script("Mover", "    public int speed;"),
            "Assets/My Mover.cs.meta": meta("c" * 32),
        },
    )
    assert run_cli("index", "--project", str(root)).returncode == 0
    forms = ["unity://file/Assets/My%20Mover.cs", "unity://file/My Mover.cs", "unity://file/Assets/My Mover.cs"]
    server = create_server(open_workspace(root, projects_at(root)), refresh_interval=0, watch=False)
    inbox = Inbox()

    async def go():
        async with Client(server, mode="legacy", message_handler=inbox) as c:
            for uri in forms:
                await c.subscribe_resource(uri)
            await c.unsubscribe_resource(forms[1])
            (root / "Assets/My Mover.cs").write_text(mono_script("Mover", "    public int speed = 3;"))
            await c.call_tool("search", {"query": "mover"})
            for uri in (forms[0], forms[2]):
                await inbox.wait_for("notifications/resources/updated", uri)

    run(go)
    assert sorted(u for m, u in inbox.seen if m == "notifications/resources/updated") == sorted([forms[0], forms[2]])


def test_subscribe_over_stdio_answers_an_error_with_the_request_id(indexed_fixture: Path) -> None:
    lines = _session(
        {"method": "resources/subscribe", "params": {"uri": "file:///etc/passwd"}},
        {"method": "resources/subscribe", "params": {"uri": f"unity://file/{HEALTH}"}},
    )
    answers = _stdio(indexed_fixture, lines)
    assert answers[1]["id"] == 1 and answers[1]["error"]["code"] == -32602
    assert answers[1]["error"]["message"].startswith("Unknown resource: file:///etc/passwd;")
    assert answers[2] == {"jsonrpc": "2.0", "id": 2, "result": {}}


# -- 2. prompts/get of an unknown prompt -----------------------------------------------------------


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_an_unknown_prompt_is_invalid_params_naming_the_prompts(indexed_fixture: Path, mode: str) -> None:
    async def go():
        async with Client(make_server(indexed_fixture), mode=mode) as c:
            with pytest.raises(MCPError) as caught:
                await c.get_prompt("unity_tsak", {"task": "x"})
            return caught.value.error

    error = run(go)
    assert (error.code, error.message) == (-32602, "unknown prompt 'unity_tsak': the prompts are unity_task")


def test_an_unknown_prompt_over_stdio(indexed_fixture: Path) -> None:
    answers = _stdio(indexed_fixture, _session({"method": "prompts/get", "params": {"name": "nope"}}))
    assert answers[1]["id"] == 1
    assert answers[1]["error"]["code"] == -32602
    assert answers[1]["error"]["message"] == "unknown prompt 'nope': the prompts are unity_task"


# -- 6. the summary line counts moves --------------------------------------------------------------


def test_the_summary_line_counts_files_moved(tmp_path: Path) -> None:
    """A file and its .meta moved unchanged keep their records: `--json` said `"moved": 2` while
    the line said `scanned 0 (0 added, 0 changed), 0 deleted`, as if nothing happened."""
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Old/Mover.cs": mono_script("Mover", "    public int speed;"),
            "Assets/Old/Mover.cs.meta": meta("c" * 32),
        },
    )
    assert run_cli("index", "--project", str(root)).returncode == 0
    (root / "Assets/New").mkdir()
    for name in ("Mover.cs", "Mover.cs.meta"):
        (root / "Assets/Old" / name).rename(root / "Assets/New" / name)
    r = run_cli("index", "--project", str(root))
    assert r.returncode == 0, r.stderr
    line = (r.stdout + r.stderr).strip()
    assert f"updated index of {root}: 2 files; scanned 0 (0 added, 0 changed), 2 moved, 0 deleted, 0 skipped" in line
    (root / "Assets/New/Mover.cs").write_text(mono_script("Mover", "    public int speed = 2;"))
    r = run_cli("index", "--project", str(root), "--json")
    stats = json.loads(r.stdout)
    assert (stats["changed"], stats["moved"]) == (1, 0)
    r = run_cli("index", "--project", str(root))
    assert "moved" not in r.stdout + r.stderr  # said only when there were moves


# -- 8. a context pack of a workspace without projects ---------------------------------------------


def test_a_pack_of_a_workspace_without_projects_says_why(tmp_path: Path) -> None:
    """It was a ZeroDivisionError from sharing the budget among no projects."""
    from indexer.query.context import build_context
    from indexer.query.tokens import counter
    from indexer.query.workspace import open_workspace

    ws = open_workspace(tmp_path, [])
    with pytest.raises(ValueError) as caught:
        build_context(ws, "add a shield", 1000, counter("estimate"))
    assert str(caught.value) == (
        f"the workspace at {tmp_path} holds no Unity project, so there is nothing to pack"
        " (`projects_at` lists the projects at a folder and below it)"
    )


# -- 4. an index_dir Unity owns --------------------------------------------------------------------

_UNITY_OWNS = {
    "Library": "Unity keeps its own files in Library (a folder of its own in it, as the default, is fine)",
    "Library/PackageCache/Idx": "Unity deletes and rebuilds Library/PackageCache",
    "Library/ScriptAssemblies": "Unity deletes and rebuilds Library/ScriptAssemblies",
    "Library/Artifacts/x": "Unity deletes and rebuilds Library/Artifacts",
    "Temp/Idx": "Unity empties Temp when the editor quits",
    "Temp": "Unity empties Temp when the editor quits",
    "Logs/idx": "Unity writes its logs in Logs",
}


@pytest.mark.parametrize("index_dir", sorted(_UNITY_OWNS))
def test_an_index_dir_unity_owns_is_refused(tmp_path: Path, index_dir: str) -> None:
    """`Library` was accepted: the index's files among Unity's, and a writer removing what it
    takes for a killed writer's leftovers there; `Temp/...` lost the index whenever the editor quit."""
    from indexer.config import ConfigError, load_config

    root = write_project(tmp_path / "Game", {"unity-index.toml": f'index_dir = "{index_dir}"\n'})
    with pytest.raises(ConfigError) as caught:
        load_config(root)
    where = root / index_dir
    assert str(caught.value) == (
        f"{root / 'unity-index.toml'}: index_dir must be a folder of its own (got {index_dir!r}, which is"
        f" {where}): {_UNITY_OWNS[index_dir]}; the default is Library/UnityIndex"
    )


def test_the_cli_refuses_index_dir_library_and_writes_nothing(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "Game",
        {"unity-index.toml": 'index_dir = "Library"\n', "Library/ArtifactDB": "unity's", "Assets/A.cs": "class A {}"},
    )
    r = run_cli("index", "--project", str(root))
    assert r.returncode == 2
    assert "index_dir must be a folder of its own (got 'Library'" in r.stderr
    assert sorted(p.name for p in (root / "Library").iterdir()) == ["ArtifactDB"]


@pytest.mark.parametrize("index_dir", ["Library/UnityIndex", "Library/Elsewhere/deeper", "Indexes/Game"])
def test_a_folder_of_its_own_in_library_is_fine(tmp_path: Path, index_dir: str) -> None:
    from indexer.config import load_config

    root = write_project(tmp_path / "Game", {"unity-index.toml": f'index_dir = "{index_dir}"\n'})
    assert load_config(root).index_dir == index_dir


# -- 7. describe says how many fields the index left out -------------------------------------------

BIG = "d" * 32
_FIELDS = 80  # the record keeps the first 40 and the last 20: 20 left out


def _big_project(root: Path) -> Path:
    body = "\n".join(f"    public int field{i:02d} = {i};" for i in range(_FIELDS))
    values = "".join(f"  field{i:02d}: {i}\n" for i in range(_FIELDS))
    behaviour = (
        "--- !u!114 &114000\nMonoBehaviour:\n  m_ObjectHideFlags: 0\n  m_GameObject: {fileID: 100000}\n"
        f"  m_Enabled: 1\n  m_Script: {{fileID: 11500000, guid: {BIG}, type: 3}}\n  m_Name: \n"
        f"  m_EditorClassIdentifier: \n{values}"
    )
    prefab = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &100000\nGameObject:\n  m_ObjectHideFlags: 0\n"
        "  serializedVersion: 6\n  m_Component:\n  - component: {fileID: 400000}\n  - component: {fileID: 114000}\n"
        "  m_Layer: 0\n  m_Name: Big\n  m_TagString: Untagged\n  m_IsActive: 1\n"
        "--- !u!4 &400000\nTransform:\n  m_ObjectHideFlags: 0\n  m_GameObject: {fileID: 100000}\n"
        "  m_LocalPosition: {x: 0, y: 0, z: 0}\n  m_Children: []\n  m_Father: {fileID: 0}\n" + behaviour
    )
    files = {
        "Assets/Big.cs": mono_script("Big", body),
        "Assets/Big.cs.meta": meta(BIG),
        "Assets/Big.asset": data_asset(BIG, "Big", values),
        "Assets/Big.asset.meta": meta("e" * 32, "NativeFormatImporter"),
        "Assets/Big.prefab": prefab,
        "Assets/Big.prefab.meta": meta("f" * 32, "PrefabImporter"),
    }
    return write_project(root, files)


def test_describe_says_how_many_fields_the_index_left_out(tmp_path: Path) -> None:
    """A data asset's 80 fields were shown as 60 (field39 at L50, then field60 at L71) without a
    word; a component's `… 48 more` counted the 60 kept."""
    root = _big_project(tmp_path / "Game")
    r = run_cli("describe", "--project", str(root), "Assets/Big.asset")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    at = lines.index("  L50 field39: 39")
    assert lines[at + 1 : at + 3] == ["  … 20 more fields (L51-L70), not in the index", "  L71 field60: 60"]
    r = run_cli("describe", "--project", str(root), "Assets/Big.prefab")
    line = next(x for x in r.stdout.splitlines() if x.lstrip().startswith("Big: "))
    assert line.endswith("field11: 11; … 68 more")


# -- 5. an index file replaced by a folder ---------------------------------------------------------

_STATE_FILES = ("write.lock", "index.json", "settings.json", "integrity.json", "git-view.json", "journal.pos")


def _entries(folder: Path) -> dict[str, tuple[int, bytes | None]]:
    """Every entry under `folder`: its mtime and, for a file, its bytes."""
    return {
        str(p.relative_to(folder)): (p.lstat().st_mtime_ns, p.read_bytes() if p.is_file() else None)
        for p in sorted(folder.rglob("*"))
    }


@pytest.fixture
def small_indexed(tmp_path: Path) -> Path:
    root = write_project(
        tmp_path / "Game",
        {"Assets/Mover.cs": mono_script("Mover", "    public int speed;"), "Assets/Mover.cs.meta": meta("c" * 32)},
    )
    assert run_cli("index", "--project", str(root)).returncode == 0
    (root / "Library/UnityIndex/notes.txt").write_text("mine")  # a user's file in the index folder
    return root


@pytest.mark.parametrize("name", _STATE_FILES)
def test_an_index_file_that_is_a_folder_is_named_and_index_full_repairs_it(small_indexed: Path, name: str) -> None:
    """`index` said `Is a directory: .../index.json (replacing it with .../.index.json.x.tmp)`
    and to check access, and `index --full` said the same, for ever (settings.json: after
    rebuilding the index into a new generation folder)."""
    root, index = small_indexed, small_indexed / "Library/UnityIndex"
    where = index / name
    where.unlink(missing_ok=True)
    where.mkdir()
    before = _entries(index)
    r = run_cli("index", "--project", str(root))
    assert r.returncode == 2
    assert r.stderr.strip() == (
        f"error: {where} is a folder where the index keeps its file {name}: run `unity-index index --full"
        f" --project {root}`, which removes the folder (it is empty) and rebuilds the index"
    )
    assert _entries(index) == before  # nothing written
    r = run_cli("index", "--full", "--project", str(root))
    assert r.returncode == 0, r.stderr
    done = r.stderr.strip()  # "built" without index.json: its generations start again
    assert done.startswith((f"rebuilt index of {root}: 2 files;", f"built index of {root}: 2 files;")), done
    assert not where.is_dir()
    assert (index / "notes.txt").read_text() == "mine"
    assert run_cli("index", "--check", "--project", str(root)).returncode == 0
    assert "Assets/Mover.cs" in run_cli("query", "--project", str(root), "mover speed").stdout


def test_a_folder_holding_files_in_place_of_an_index_file_is_kept(small_indexed: Path) -> None:
    """`--full` removes no folder it did not make that holds something: it says to move it away."""
    root, index = small_indexed, small_indexed / "Library/UnityIndex"
    where = index / "index.json"
    where.unlink()
    where.mkdir()
    (where / "keep.txt").write_text("mine too")
    for args in (("index",), ("index", "--full")):
        r = run_cli(*args, "--project", str(root))
        assert r.returncode == 2
        assert r.stderr.strip() == (
            f"error: {where} is a folder where the index keeps its file index.json, and it holds files: move"
            f" it out of {index} (unity-index removes no folder it did not make), then run `unity-index index"
            f" --full --project {root}`"
        )
    assert (where / "keep.txt").read_text() == "mine too"


@pytest.mark.parametrize("name", ["records.db-wal", "records.db-shm", "records.db", "tantivy/meta.json"])
def test_a_generation_file_that_is_a_folder_is_damage_index_rebuilds(small_indexed: Path, name: str) -> None:
    """Its generation folder is the index's own: `index` rebuilds, saying so (records.db-shm as a
    folder was `the index's record store cannot be written (attempt to write a readonly database)`
    and to check access; records.db as one was "records.db is missing")."""
    root, index = small_indexed, small_indexed / "Library/UnityIndex"
    gen = next(index.glob("gen-*"))
    where = gen / name
    where.unlink(missing_ok=True)
    where.mkdir()
    r = run_cli("index", "--project", str(root))
    assert r.returncode == 0, r.stderr
    said = name.rsplit("/", 1)[-1] if name.startswith("records") else name
    assert r.stderr.splitlines()[0] == (f"the index of {root} was damaged ({said} is a folder, not a file): rebuilt it")
    assert not gen.exists() and (index / "notes.txt").read_text() == "mine"
    assert run_cli("index", "--check", "--project", str(root)).returncode == 0


# -- 3. index --check writes nothing but SQLite's shared-memory index's time -----------------------


def test_index_check_changes_no_byte_in_the_index_folder(small_indexed: Path) -> None:
    """docs/cli.md: the only change is `records.db-shm`'s mtime, which SQLite's first connection
    to a WAL database truncates and writes again (its bytes the same); every other entry keeps
    its time and bytes."""
    root, index = small_indexed, small_indexed / "Library/UnityIndex"
    assert run_cli("query", "--project", str(root), "mover").returncode == 0  # the -shm exists
    before = _entries(index)
    r = run_cli("index", "--check", "--project", str(root))
    assert r.returncode == 0, r.stderr
    after = _entries(index)
    assert after.keys() == before.keys()
    assert {k: v[1] for k, v in after.items()} == {k: v[1] for k, v in before.items()}  # every byte
    moved = {k for k in after if after[k][0] != before[k][0]}
    assert moved <= {str(next(index.glob("gen-*/records.db-shm")).relative_to(index))}


# -- attack: watch while its index folder is deleted -----------------------------------------------


def test_watch_says_it_rebuilt_an_index_deleted_under_it(tmp_path: Path) -> None:
    """The next batch rebuilds the index; its line read `2 added, 0 changed, ...: Assets/Mover.cs`,
    as if the one file saved had added two."""
    import shutil
    import signal

    from .conftest import start_cli

    root = write_project(
        tmp_path / "Game",
        {"Assets/Mover.cs": mono_script("Mover", "    public int speed;"), "Assets/Mover.cs.meta": meta("c" * 32)},
    )
    proc = start_cli("watch", "--project", str(root))
    try:
        assert proc.stderr is not None
        assert "watching" in proc.stderr.readline()
        shutil.rmtree(root / "Library/UnityIndex")
        (root / "Assets/Mover.cs").write_text(mono_script("Mover", "    public int speed = 3;"))
        line = proc.stderr.readline()
        assert line.startswith("rebuilt the index (it was gone): 2 added, 0 changed, 0 moved, 0 deleted in "), line
        assert line.rstrip().endswith(": Assets/Mover.cs"), line
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
