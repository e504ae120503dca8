"""Attack 13 of session 48: each test failed before the fix it names.

1. `refs` of a script or prefab follows the instances and variants of at most 400 prefabs
   carrying it (`carriers.MAX_FOLLOWED`, breadth first), and `describe`'s `used by` at most 400
   carriers (`carriers.MAX_CARRIERS`); past them nothing said so: a base prefab with 450 variants,
   each placed in a level, had `refs` count 852 usages (`--json` `total` too) and `describe` end
   its `used by` with `… 832 more` of 902, the levels placing the last variants missing from both.
   The target's note now says how many prefabs carrying it were left unfollowed (at least: those
   have variants of their own unseen).
2. The MCP `get_context` of a task no file matches answered the project's overview and
   `[1128/8000 tokens (estimate-v2); 0 files]`, nothing saying why no file was in it, where
   `unity-index context` says "no file matches the task: try other words ..." (or that none fits
   the budget). The tool's text says it too, in the words of its argument (`budget`).
3. `refs global::DungeonCrawler.Player.PlayerHealth` (C#'s alias qualifier, as generated code such
   as the Input System's writes every name, and as an agent copies it) was "no type, member, file,
   GUID or assembly of that name", and `describe` of it "not an indexed file", though the scanner
   drops that prefix from the references it records. Both read the name without it.
4. An index folder reached through a loop of symbolic links (`Library/UnityIndex -> UnityIndex`,
   or `index_dir` naming one) made every command but `doctor` an internal error, "RuntimeError:
   Symlink loop ... (a bug: ...)", exit 3; and a link to nothing in its place (the index kept on a
   disk not mounted, which docs/configuration.md allows) made `index` and every query fail with
   "File exists: .../Library/UnityIndex; check that this file or folder can be read and written",
   while `status` and `doctor` said to run `index`. Both stop every command with exit 2 saying
   what the link is, as a file in that place does, and `doctor` fails its config check so.
5. A GUID copied as Unity writes it, `guid: 37ff...` (a `.meta`'s line, with its space) or a whole
   reference, `{fileID: 11500000, guid: 37ff..., type: 3}` (a prefab's `m_Script`), was "no type,
   member, file, GUID or assembly of that name" in `refs` and "not an indexed file" in `describe`,
   where `guid:37ff...` (as our output prints it) named the file. Each names it now.
6. A file modified after 2262 by its stat (`touch -d 2300-01-01`: an archive or a file system
   with a broken clock writes such times) has a modification time in nanoseconds past SQLite's
   64-bit integers: every `index`, and every query building the index first, was an internal error
   ("OverflowError: Python int too large to convert to SQLite INTEGER"), so the project could not
   be indexed at all. Such a time is recorded as the largest one the store holds; the record then
   always reads as possibly changed within its tick (racily clean), so its content is compared at
   every update and an edit keeping the time is still found.
7. A path with a line, as `query` and `refs` print one (`Assets/Scripts/Combat/Health.cs:11`),
   as grep prints one (`...:11:5`) or as Unity's console and the C# compiler do
   (`Assets/Scripts/Combat/Health.cs(11,5)`), was "not an indexed file; did you mean ..." in
   `describe` and `refs` (and the MCP tools): an agent pasting a line of our own output got an
   error. The path before the position names the file; a file so named on disk is still itself.
8. A writer suspended mid-update (Ctrl-Z on `unity-index index --full`, `kill -STOP`) holds the
   writer lock for as long as it stays stopped: `index` said "unity-index process N is updating the
   index ...: waiting for it (up to 300 s)" and waited the 300 s out, queries waited their 10 s,
   and nothing said the writer was suspended, nor how to resume it. The message says so now, with
   the command that resumes it, and a suspended writer is not waited for (Linux, where /proc tells
   the state; elsewhere as before). So does the MCP `index_status` line of the build it runs,
   which read "building the index: 2,195 of 3,211 files scanned, started 600 s ago; search and the
   other tools answer once it is done".
9. `index` under a low limit of open files (`ulimit -n 16`: a CI runner's, a launcher's) ended
   "error: Too many open files; check that this file or folder can be read and written (and that
   the disk has room)", naming no file and the wrong fix. It names the limit and how to raise it.
10. `refs ::`, `refs a::b` (C#'s alias qualifier) or `describe 1:x` were "'::' is outside the project
   ...: give a path relative to the project": any character before a colon was read as a Windows
   drive, which is a letter. They name nothing, and are said to.
11. `exclude` is checked for at most 8 `**/` a pattern, each doubling the forms tried on every path,
   but not in all: 200 patterns of 8 (a cloned project's `unity-index.toml`) are 51,200 forms, past
   fnmatch's cache of 32,768 compiled patterns, and `index` of the 213-file fixture ran past 5
   minutes, as did every query (which brings the index up to date first, walking). The forms of
   all the patterns together may be at most 1,024 (4 patterns of 8 `**/`, or 1,024 plain ones);
   more is an invalid file, exit 2, as one pattern of 9 is.
12. `refs Tile.kind` of a level placing a prefab 2,000 times, each instance setting the field (tiles,
   coins, trees), took 10 s, and of 20,000 (a 13 MB scene) over 5 minutes: the scene's records were
   decoded again for every instance (`dict.setdefault` evaluates its default each time). They are
   decoded once a file.
"""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.carriers import MAX_FOLLOWED
from indexer.query.describe import describe
from indexer.query.lookup import find_references
from indexer.query.workspace import open_workspace, projects_at

from .conftest import meta, write_project

SCRIPT = "5c" * 16
BASE = "ba" * 16
HEAD = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"


def _variant(name: str, base: str) -> str:
    return (
        f"{HEAD}--- !u!1001 &100100000\nPrefabInstance:\n  m_Modification:\n    m_TransformParent: {{fileID: 0}}\n"
        f"    m_Modifications:\n    - target: {{fileID: 100, guid: {base}, type: 3}}\n      propertyPath: m_Name\n"
        f"      value: {name}\n      objectReference: {{fileID: 0}}\n    m_RemovedComponents: []\n"
        f"  m_SourcePrefab: {{fileID: 100100000, guid: {base}, type: 3}}\n"
    )


def _placing(guid: str) -> str:
    return (
        f"{HEAD}--- !u!1001 &900\nPrefabInstance:\n  m_Modification:\n    m_TransformParent: {{fileID: 0}}\n"
        f"    m_Modifications: []\n  m_SourcePrefab: {{fileID: 100100000, guid: {guid}, type: 3}}\n"
    )


def _many_variants(root: Path, n: int) -> Path:
    """A base prefab carrying `Hp`, `n` variants of it, and a level placing each variant."""
    from .conftest import script_prefab

    files: dict[str, str] = {
        "Assets/Hp.cs": "using UnityEngine;\npublic class Hp : MonoBehaviour { public int hp; }\n",
        "Assets/Hp.cs.meta": meta(SCRIPT),
        "Assets/Base.prefab": script_prefab("Base", SCRIPT, "  hp: 1\n"),
        "Assets/Base.prefab.meta": meta(BASE, "PrefabImporter"),
    }
    for i in range(n):
        guid = f"{i + 1:032x}"
        files[f"Assets/V/V{i:03}.prefab"] = _variant(f"V{i:03}", BASE)
        files[f"Assets/V/V{i:03}.prefab.meta"] = meta(guid, "PrefabImporter")
        files[f"Assets/L/L{i:03}.unity"] = _placing(guid)
    write_project(root, files)
    update(root, Config(workers=1))
    return root


def test_refs_and_describe_say_when_prefabs_carrying_a_script_were_left_unfollowed(tmp_path: Path) -> None:
    n = MAX_FOLLOWED + 50
    root = _many_variants(tmp_path / "P", n)
    ws = open_workspace(root, [(root, Config())])
    target, usages = find_references(ws, "Hp")
    assert target is not None
    # the base's component, its variants, and the levels placing the variants followed
    assert len(usages) == 1 + n + (MAX_FOLLOWED - 1)
    assert "Assets/L/L449.unity" not in {u.path for u in usages}
    said = (
        f"instances and variants listed of the first {MAX_FOLLOWED} prefabs carrying it (breadth first):"
        " at least 51 more prefabs carry it, whose instances and variants are not listed"
    )
    assert target.note == said
    desc = describe(ws.projects[0].fresh().graph, "Assets/Hp.cs")
    assert f"note: {said}" in desc.text.split("\n")
    # a project under the bound says nothing
    small = _many_variants(tmp_path / "S", 3)
    target, usages = find_references(open_workspace(small, [(small, Config())]), "Hp")
    assert target is not None and target.note == "" and len(usages) == 1 + 3 + 3


def test_get_context_says_why_its_pack_holds_no_file(indexed_fixture: Path) -> None:
    import anyio
    from mcp import Client

    from mcp_adapter.server.app import create_server

    root = indexed_fixture
    server = create_server(open_workspace(root, projects_at(root)), refresh_interval=0, tokenizer="estimate")

    async def go():
        async with Client(server) as c:
            return [
                await c.call_tool("get_context", {"task": task, "budget": budget})
                for task, budget in (("zzqqxx", 8000), ("player health", 8000))
            ]

    empty, full = anyio.run(go)
    said = "no file matches the task: try other words (identifiers, file names)"
    lines = empty.content[0].text.split("\n")
    assert lines[-3:] == [said, "", "[1128/8000 tokens (estimate-v2); 0 files]"]
    assert empty.structured_content["tier2"]["files"] == []
    assert said not in full.content[0].text


def test_a_name_written_with_the_global_alias_qualifier_is_the_name(ws) -> None:
    from indexer.query.locate import locate_file, references_of

    for name in ("DungeonCrawler.Player.PlayerHealth", "PlayerHealth.TakeDamage", "@PlayerHealth"):
        plain, usages = references_of(ws, name)
        qualified, qualified_usages = references_of(ws, f"global::{name}")
        assert plain is not None and qualified is not None
        assert (qualified.kind, qualified.types, qualified.member) == (plain.kind, plain.types, plain.member)
        assert qualified_usages == usages and usages
    path = "Assets/Scripts/Player/PlayerHealth.cs"
    assert locate_file(ws, "global::DungeonCrawler.Player.PlayerHealth") == path


def test_an_index_folder_that_is_a_broken_or_looping_link_is_named(tmp_path: Path) -> None:
    import os

    import pytest

    from indexer.config import ConfigError, load_config

    from .conftest import run_cli

    root = write_project(tmp_path / "P", {"Assets/A.cs": "class A {}\n"})
    folder = root / "Library/UnityIndex"
    folder.parent.mkdir()
    for lead, said in (
        ("UnityIndex", f"the index folder {folder} is reached through a loop of symbolic links"),
        ("/nonexistent/unity-index", f"the index folder {folder} is a link to /nonexistent/unity-index, which"),
    ):
        folder.unlink(missing_ok=True)
        os.symlink(lead, folder)
        with pytest.raises(ConfigError, match=said):
            load_config(root)
        for command in (["index"], ["query", "player"], ["status"]):
            r = run_cli(*command, "--project", str(root))
            assert (r.returncode, r.stderr.split("\n")[0][: len(said) + 7]) == (2, f"error: {said}"), command
        r = run_cli("doctor", "--project", str(root))
        assert r.returncode == 1 and "  fail  config " in r.stdout and said in r.stdout
    (root / "unity-index.toml").write_text('index_dir = "Library/Loop"\n')
    os.symlink("Loop", root / "Library/Loop")
    with pytest.raises(ConfigError, match="is reached through a loop of symbolic links"):
        load_config(root)


def test_a_guid_copied_as_unity_writes_it_names_its_file(ws) -> None:
    from indexer.query.locate import locate_file, references_of

    guid = "37ff862a6b9f757ca68eb080acb58bce"
    path = "Assets/Scripts/Player/PlayerController.cs"
    target, usages = references_of(ws, guid)
    assert target is not None and target.path == path and usages
    for written in (f"guid: {guid}", f"{{fileID: 11500000, guid: {guid.upper()}, type: 3}}", f"guid:{guid}"):
        found, found_usages = references_of(ws, written)
        assert (found, found_usages) == (target, usages), written
        assert locate_file(ws, written) == guid
    assert [h.path for h in ws.search(f"guid: {guid}", limit=1)] == [path]


def test_a_file_dated_past_2262_is_indexed_and_its_edits_found(tmp_path: Path) -> None:
    import os

    from indexer.changes.diff import check

    root = write_project(tmp_path / "P", {"Assets/Future.cs": "class Future {}\n", "Assets/Past.cs": "class Past {}\n"})
    future, past = 10_413_792_000 * 10**9, -2_208_988_800 * 10**9  # 2300-01-01 and 1900-01-01
    os.utime(root / "Assets/Future.cs", ns=(future, future))
    os.utime(root / "Assets/Past.cs", ns=(past, past))
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    assert ws.projects[0].fresh().records.types_named("Future")
    assert check(root, Config()).changed == []
    (root / "Assets/Future.cs").write_text("class Later {}\n")  # the same size, the same time
    os.utime(root / "Assets/Future.cs", ns=(future, future))
    assert check(root, Config()).changed == ["Assets/Future.cs"]
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].fresh()
    assert graph.records.types_named("Later") and not graph.records.types_named("Future")


def test_a_path_with_a_line_as_our_output_prints_it_names_the_file(ws) -> None:
    from indexer.query.locate import LookupFailed, locate_file, references_of

    path = "Assets/Scripts/Combat/Health.cs"
    target, usages = references_of(ws, path)
    for written in (f"{path}:11", f"{path}:11:5", f"{path}(11,5)", "Health.cs:11", f"./{path}:3"):
        assert locate_file(ws, written) == path, written
        assert references_of(ws, written) == (target, usages), written
    import pytest

    for wrong in ("Assets/Scripts/Combat/Nothing.cs:11", f"{path}:11:5:1", path + ":1:1" * 3000):
        with pytest.raises(LookupFailed, match="is not an indexed file"):
            locate_file(ws, wrong)


def test_a_suspended_writer_is_said_to_be_stopped(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    import pytest

    from indexer.store.lock import IndexBusy, writer_lock
    from indexer.store.schema import IndexPaths

    if not Path("/proc/self/stat").exists():
        pytest.skip("the process state is read from /proc")
    paths = IndexPaths(tmp_path / "index")
    holding = "import sys, time; from pathlib import Path; from indexer.store.lock import writer_lock;"
    holding += "from indexer.store.schema import IndexPaths\nwith writer_lock(IndexPaths(Path(sys.argv[1]))):\n"
    holding += "    print('held', flush=True); time.sleep(120)"
    holder = subprocess.Popen([sys.executable, "-c", holding, str(paths.root)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(IndexBusy) as running, writer_lock(paths):
            pass
        assert str(running.value) == f"unity-index process {holder.pid} is updating the index at {paths.root}"
        holder.send_signal(signal.SIGSTOP)
        for _ in range(100):  # a hang guard: the state changes at once
            if Path(f"/proc/{holder.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "Tt":
                break
            time.sleep(0.05)
        from .test_corruption import deadline

        told: list[str] = []
        with deadline(120), pytest.raises(IndexBusy) as stopped, writer_lock(paths, 600, told.append):
            pass  # not waited for: it goes on only once resumed (the hang guard is a fifth of the wait)
        assert told == []
        assert str(stopped.value) == (
            f"unity-index process {holder.pid} is stopped (suspended, as Ctrl-Z does) while updating the index at"
            f" {paths.root}: resume it (`kill -CONT {holder.pid}`, or `fg` in its terminal) or end it"
        )
    finally:
        holder.kill()
        holder.wait()


def test_index_status_says_a_build_s_writer_is_stopped(tmp_path: Path) -> None:
    import signal
    import subprocess
    import time

    import pytest

    from mcp_adapter.server.results import ProjectProgress
    from mcp_adapter.server.tools_index import render_progress

    if not Path("/proc/self/stat").exists():
        pytest.skip("the process state is read from /proc")
    sleeper = subprocess.Popen(["sleep", "120"])
    try:
        build = ProjectProgress(
            pid=sleeper.pid,
            rebuild=True,
            started_at=time.time() - 600,
            phase="scanning",
            done=2195,
            total=3211,
            project="/p/Game",
        )
        running = "/p/Game: building the index: 2,195 of 3,211 files scanned, started 600 s ago; search and the other"
        assert render_progress(build, False) == running + " tools answer once it is done"
        sleeper.send_signal(signal.SIGSTOP)
        for _ in range(100):  # a hang guard: the state changes at once
            if Path(f"/proc/{sleeper.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "Tt":
                break
            time.sleep(0.05)
        assert render_progress(build, False) == (
            running + " tools answer once it is done; but its process"
            f" {sleeper.pid} is stopped (suspended, as Ctrl-Z does): it goes on once resumed (`kill -CONT"
            f" {sleeper.pid}`, or `fg` in its terminal)"
        )
    finally:
        sleeper.kill()
        sleeper.wait()


def test_too_many_open_files_names_the_limit(tmp_path: Path) -> None:
    import resource
    import subprocess
    import sys

    from .conftest import REPO, copy_fixture

    root = copy_fixture(tmp_path / "Game")

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (16, 16))

    r = subprocess.run(
        [sys.executable, "-m", "indexer.cli", "index", "--project", str(root)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(REPO), "NO_COLOR": "1", "PATH": "/usr/bin:/bin"},
        preexec_fn=low_limit,
        timeout=300,
    )
    assert (r.returncode, r.stderr) == (
        2,
        "error: the process may have no more files open (Too many open files): raise its limit (`ulimit -n`,"
        " 16 now) and run the command again\n",
    )


def test_only_a_letter_and_a_colon_is_a_windows_drive(ws) -> None:
    import pytest

    from indexer.paths import is_absolute
    from indexer.query.locate import BadPath, LookupFailed, locate_file, references_of

    assert [is_absolute(p, True) for p in ("C:/x", "c:", "//srv/share", "/x")] == [True] * 4
    assert [is_absolute(p, True) for p in ("::", "a::b", "1:x", ":x", "é:/x", "Assets/A.cs")] == [False] * 6
    assert references_of(ws, "::") == references_of(ws, "a::b") == (None, [])
    for text in ("::", "a::b", "1:x"):
        with pytest.raises(LookupFailed) as raised:
            locate_file(ws, text)
        assert not isinstance(raised.value, BadPath) and "is not an indexed file" in str(raised.value)
    with pytest.raises(BadPath, match="is outside the project"):
        locate_file(ws, "C:/Windows/x.cs")


def test_the_exclude_patterns_together_may_try_at_most_1024_forms(tmp_path: Path) -> None:
    import pytest

    from indexer.config import ConfigError, load_config

    from .conftest import run_cli

    root = write_project(tmp_path / "P", {"Assets/A.cs": "class A {}\n"})
    config = root / "unity-index.toml"

    def patterns(count: int, stars: int) -> str:
        return "exclude = [" + ", ".join(f'"Assets/{"**/a/" * stars}x{i}"' for i in range(count)) + "]\n"

    for fine in (patterns(4, 8), patterns(1024, 0)):
        config.write_text(fine)
        load_config(root)
    said = (
        f"{config}: the exclude patterns are tried in 1,280 forms on every path (each `**/` doubles its"
        " pattern's), more than 1,024: use fewer patterns, with fewer `**/`, or leave out whole folders"
        " (Assets/ThirdParty/**)"
    )
    config.write_text(patterns(5, 8))
    with pytest.raises(ConfigError) as raised:
        load_config(root)
    assert str(raised.value) == said
    config.write_text(patterns(200, 8))
    r = run_cli("index", "--project", str(root))
    assert (r.returncode, r.stderr) == (2, f"error: {said.replace('1,280', '51,200')}\n")
    config.write_text(patterns(1025, 0))
    with pytest.raises(ConfigError, match="tried in 1,025 forms on every path"):
        load_config(root)


def test_the_values_instances_set_decode_each_file_once(tmp_path: Path, monkeypatch) -> None:
    from indexer.store.reader import Records

    from .conftest import script_prefab

    tile = "7e" * 16
    mod = "    - target: {{fileID: {obj}, guid: {tile}, type: 3}}\n      propertyPath: {key}\n      value: {value}\n"
    level = [HEAD]
    for i in range(300):
        level.append(
            f"--- !u!1001 &{1000 + i}\nPrefabInstance:\n  m_Modification:\n    m_TransformParent: {{fileID: 0}}\n"
            "    m_Modifications:\n"
            + mod.format(obj=102, tile=tile, key="kind", value=i % 7)
            + mod.format(obj=100, tile=tile, key="m_Name", value=f"Tile ({i})")
            + f"  m_SourcePrefab: {{fileID: 100100000, guid: {tile}, type: 3}}\n"
        )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Tile.cs": "using UnityEngine;\npublic class Tile : MonoBehaviour { public int kind; }\n",
            "Assets/Tile.cs.meta": meta(SCRIPT),
            "Assets/Tile.prefab": script_prefab("Tile", SCRIPT, "  kind: 1\n"),
            "Assets/Tile.prefab.meta": meta(tile, "PrefabImporter"),
            "Assets/Level.unity": "".join(level),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    read: list[str] = []
    symbols = Records.symbols
    monkeypatch.setattr(Records, "symbols", lambda self, path: read.append(path) or symbols(self, path))
    target, usages = find_references(ws, "Tile.kind")
    assert target is not None and read.count("Assets/Level.unity") == 1  # was 300: once an instance
    said = [u.detail for u in usages if u.path == "Assets/Level.unity"]
    assert len(said) == 300 and said[:2] == [
        "Tile (0) sets kind: 0 (via Assets/Tile.prefab)",
        "Tile (1) sets kind: 1 (via Assets/Tile.prefab)",
    ]
