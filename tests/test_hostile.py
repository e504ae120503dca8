"""Hostile project content: names that are not text, symbolic links (swapped in, looping, leading
outside), pipes, binary and non-UTF-8 content, Git LFS pointers, files over the size cap. Each
is recorded (skipped with its reason, or indexed), nothing stops the index, nothing outside the
project is read, and every command and MCP tool keeps working."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import anyio
import msgspec
from mcp import Client

from indexer.build.update import update
from indexer.config import Config
from indexer.query.workspace import open_workspace, projects_at
from mcp_adapter.server.app import create_server

from .conftest import meta, run_cli, write_project

BAD_NAME = os.fsdecode(b"bad\xff\xfename.cs")  # undecodable bytes, as Python lists them
SECRET = "class LeakedSecret { void TopSecretMethod() { PlayerHealth h; } }"


def hostile_project(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "Secret.cs").write_text(SECRET)
    root = write_project(
        tmp_path / "P",
        {
            "Assets/PlayerHealth.cs": "public class PlayerHealth : UnityEngine.MonoBehaviour { public int hp; }",
            "Assets/PlayerHealth.cs.meta": meta("a" * 32),
            "Assets/Uses.cs": "public class Uses { PlayerHealth health; void Heal() {} }",
            "Assets/Latin1.cs": "// caf\xe9\npublic class Latin1 {}".encode("latin-1"),
            "Assets/Binary.cs": b"\x00\x01\x02MZ\x90\x00" * 50,
            "Assets/Level.unity": b"version https://git-lfs.github.com/spec/v1\noid sha256:ab\nsize 99\n",
            "Assets/Huge.txt": "word " * 2000,  # 10 kB, over the 0.005 MB cap below
            "unity-index.toml": "max_file_mb = 0.005\n",
        },
    )
    assets = root / "Assets"
    (assets / BAD_NAME).write_text("public class BadName {}")
    (assets / "tab\there.cs").write_text("public class Tabbed {}")
    (assets / "back\\slash.cs").write_text("public class Backslash {}")
    (assets / "Outside.cs").symlink_to(outside / "Secret.cs")
    (assets / "OutsideFolder").symlink_to(outside)
    (assets / "Loop").symlink_to(assets / "Loop")  # a link to itself
    (assets / "Up").symlink_to(root)  # a folder link that would loop through Assets
    os.mkfifo(assets / "Pipe.cs")  # reading it would block forever
    return root


EXPECTED_SKIPS = {
    "Assets/Binary.cs": "binary content",
    "Assets/Huge.txt": "too large: 0.0 MB, over the 0.005 MB cap (max_file_mb)",
    "Assets/Level.unity": "Git LFS pointer, content not checked out",
    "Assets/Loop": "symbolic link: not followed (it may point outside the project)",
    "Assets/Outside.cs": "symbolic link: not followed (it may point outside the project)",
    "Assets/OutsideFolder": "symbolic link: not followed (it may point outside the project)",
    "Assets/Pipe.cs": "not a regular file (a pipe, socket or device)",
    "Assets/Up": "symbolic link: not followed (it may point outside the project)",
    "Assets/back\\\\slash.cs": "name is not plain UTF-8 text (undecodable bytes, a control character or a"
    " backslash); shown with \\xNN escapes, rename the file to index it",
    "Assets/bad\\xff\\xfename.cs": "name is not plain UTF-8 text (undecodable bytes, a control character or a"
    " backslash); shown with \\xNN escapes, rename the file to index it",
    "Assets/tab\\x09here.cs": "name is not plain UTF-8 text (undecodable bytes, a control character or a"
    " backslash); shown with \\xNN escapes, rename the file to index it",
}


def test_printable_names_are_reversible() -> None:
    from indexer.project import fs_name, printable

    for raw in (BAD_NAME, "tab\there.cs", "back\\slash.cs", "x\\x41y", "plain.cs", "caf\xe9.cs", "\\"):
        shown = printable(raw)
        assert shown.isprintable() and fs_name(shown) == raw, raw
    assert printable(BAD_NAME) == "bad\\xff\\xfename.cs"
    assert printable("plain.cs") == "plain.cs" and printable("caf\xe9.cs") == "caf\xe9.cs"


def test_hostile_files_are_recorded_with_their_reasons_and_nothing_breaks(tmp_path: Path) -> None:
    root = hostile_project(tmp_path)
    for args in (("index",), ("index", "--full")):
        r = run_cli(*args, "--project", str(root), "--json")  # run_cli: bounded by a 300 s timeout
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["skipped"] == len(EXPECTED_SKIPS)
    st = json.loads(run_cli("status", "--json", "--project", str(root)).stdout)
    assert {s["path"]: s["reason"] for s in st["skipped"]} == EXPECTED_SKIPS
    assert st["stale_files"] == 0
    assert run_cli("index", "--check", "--project", str(root)).returncode == 0
    hits = json.loads(run_cli("query", "latin1 uses health", "--json", "--project", str(root)).stdout)["results"]
    assert {"Assets/Latin1.cs", "Assets/Uses.cs", "Assets/PlayerHealth.cs"} <= {h["path"] for h in hits}
    bad = json.loads(run_cli("query", "bad name", "--json", "--project", str(root)).stdout)["results"]
    assert "Assets/bad\\xff\\xfename.cs" in [h["path"] for h in bad]
    for args in (("context", "heal player health"), ("refs", "PlayerHealth"), ("describe", "Assets/Uses.cs")):
        r = run_cli(*args, "--project", str(root))
        assert r.returncode == 0, (args, r.stderr)
        assert "LeakedSecret" not in r.stdout and "TopSecret" not in r.stdout
    assert run_cli("doctor", "--project", str(root)).returncode == 0


def test_a_file_with_an_escaped_name_is_described_by_its_raw_or_its_shown_name(tmp_path: Path) -> None:
    """docs/indexing.md: a name that is not plain text is stored and shown escaped and commands work
    on it: `describe` finds it by the name on disk (undecodable bytes, a tab) and by the escaped form
    `status` and `query` show (which reading backslashes as separators missed); an argument with
    undecodable bytes that names nothing is unknown (exit 2), never an internal error (exit 3)."""
    root = hostile_project(tmp_path)
    project = ("--project", str(root))
    assert run_cli("index", *project).returncode == 0
    for shown, given in (
        ("Assets/bad\\xff\\xfename.cs", f"Assets/{BAD_NAME}"),
        ("Assets/tab\\x09here.cs", "Assets/tab\there.cs"),
        ("Assets/back\\\\slash.cs", "Assets/back\\slash.cs"),
    ):
        for text in (given, shown):
            r = run_cli("describe", text, *project)
            assert (r.returncode, r.stdout.splitlines()[0]) == (0, f"{shown}  (csharp)"), (text, r.stderr)
            r = run_cli("refs", text, *project)
            assert (r.returncode, r.stdout.splitlines()[0]) == (0, f"file {shown}"), (text, r.stderr)
    bad = os.fsdecode(b"x\xff.cs")
    for args in (("describe", bad), ("refs", os.fsdecode(b"Pl\xffayer")), ("query", "heal", "--path", f"Assets/{bad}")):
        r = run_cli(*args, *project)
        assert r.returncode == 2 and "internal error" not in r.stderr, (args, r.stderr)
    # the escaped form is escaped once: its backslash was doubled in the message
    assert "error: Pl\\xffayer is not an indexed file" in run_cli("refs", os.fsdecode(b"Pl\xffayer"), *project).stderr


def test_a_project_folder_named_with_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    """The search engine's library opens only UTF-8 paths: an index folder inside such a project
    is refused with a clear error (exit 2, not an internal error), which says how to move it; with
    `index_dir` elsewhere the commands work, JSON showing the folder's odd bytes as `\\xNN`."""
    hero = "public class Hero { void Jump() {} }"
    root = write_project(tmp_path / os.fsdecode(b"Game\xff"), {"Assets/Hero.cs": hero})
    project = ("--project", str(root))
    r = run_cli("index", *project)
    assert r.returncode == 2 and "is not UTF-8 text" in r.stderr and "set index_dir" in r.stderr, r.stderr
    (root / "unity-index.toml").write_text(f'index_dir = "{(tmp_path / "idx").as_posix()}"\n')
    assert run_cli("index", *project).returncode == 0
    status = json.loads(run_cli("status", "--json", *project).stdout)
    assert (status["project"], status["files"]) == (f"{tmp_path.as_posix()}/Game\\xff", 1)
    hits = json.loads(run_cli("query", "jump", "--json", *project).stdout)["results"]
    assert [h["path"] for h in hits] == ["Assets/Hero.cs"]


def test_mcp_tools_answer_over_hostile_files(tmp_path: Path) -> None:
    root = hostile_project(tmp_path)
    server = create_server(open_workspace(root, projects_at(root)), refresh_interval=0, tokenizer="estimate")

    async def go():
        async with Client(server) as c:
            return [
                await c.call_tool("refresh", {}),
                await c.call_tool("search", {"query": "bad name"}),
                await c.call_tool("get_context", {"task": "heal player health"}),
                await c.call_tool("find_references", {"target": "PlayerHealth"}),
                await c.call_tool("describe", {"target": "Assets/Uses.cs"}),
                await c.call_tool("project_overview", {}),
                await c.call_tool("index_status", {}),
            ]

    for res in anyio.run(go):
        assert res.is_error is False, res.content
        assert "LeakedSecret" not in res.content[0].text


def test_changes_to_a_file_with_an_undecodable_name_are_seen_by_git(tmp_path: Path) -> None:
    root = write_project(tmp_path / "G", {"Assets/A.cs": "class A {}"})
    (root / "Assets" / BAD_NAME).write_text("class B {}")
    git = ["git", "-C", str(root), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "x"], check=True)
    config = Config(workers=1)
    assert update(root, config).skipped == 1
    assert update(root, config).scanned == 0
    (root / "Assets" / BAD_NAME).write_text("class B { int more; }")
    stats = update(root, config)
    assert (stats.walked, stats.changed, stats.skipped) == (False, 1, 1)


def test_a_symlink_swapped_in_for_an_indexed_file_is_not_read(tmp_path: Path) -> None:
    """Between the swap and the next `index`, the records still name the file: context and refs
    must not show the file the link points to (outside the project)."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "Secret.cs").write_text(SECRET)
    root = write_project(
        tmp_path / "P",
        {
            "Assets/PlayerHealth.cs": "public class PlayerHealth : UnityEngine.MonoBehaviour { public int hp; }",
            "Assets/Uses.cs": "public class Uses { PlayerHealth health; void Heal() {} }",
        },
    )
    (root / "Assets" / "OutsideFolder").symlink_to(outside)
    os.mkfifo(root / "Assets" / "Pipe.cs")
    assert run_cli("index", "--project", str(root)).returncode == 0
    target = root / "Assets" / "Uses.cs"
    target.unlink()
    target.symlink_to(tmp_path / "outside" / "Secret.cs")
    for args in (("context", "uses heal health player"), ("refs", "PlayerHealth"), ("refs", "Uses.Heal")):
        r = run_cli(*args, "--project", str(root))
        assert r.returncode in (0, 2), r.stderr
        assert "LeakedSecret" not in r.stdout and "TopSecretMethod" not in r.stdout, args

    from indexer.project import read_project_file

    assert read_project_file(root, "Assets/Uses.cs", 1000) is None
    assert read_project_file(root, "Assets/PlayerHealth.cs", 1000) is not None
    assert read_project_file(root, "Assets/OutsideFolder/Secret.cs", 1000) is None  # through a linked folder
    assert read_project_file(root, "Assets/Pipe.cs", 1000) is None  # returns at once, never blocks


def test_a_pipe_or_link_swapped_in_between_the_walk_and_the_read_is_skipped_not_read(tmp_path: Path) -> None:
    """The walk's lstat saw regular files; before a scanner read them, one became a named pipe
    (the scanner blocked in open() for ever, and `index` with it, holding the write lock), one a
    link to a file outside the project and one sat below a folder swapped for a link outside (both
    read through the link, their text indexed)."""
    import concurrent.futures
    import threading

    from indexer.build.workers import process
    from indexer.changes.diff import Job

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "Secret.cs").write_text(SECRET)
    (outside / "Below.cs").write_text(SECRET)
    files = {
        "Assets/Piped.cs": "class Piped {}",
        "Assets/Linked.cs": "class Linked {}",
        "Assets/Sub/Below.cs": "class B {}",
    }
    root = write_project(tmp_path / "P", files)
    jobs = [Job(str(root), rel, "csharp", len(text), 0, "", 50 << 20) for rel, text in files.items()]
    assets = root / "Assets"
    (assets / "Piped.cs").unlink()
    os.mkfifo(assets / "Piped.cs")
    (assets / "Linked.cs").unlink()
    (assets / "Linked.cs").symlink_to(outside / "Secret.cs")
    (assets / "Sub" / "Below.cs").unlink()
    (assets / "Sub").rmdir()
    (assets / "Sub").symlink_to(outside)

    pool = concurrent.futures.ThreadPoolExecutor(1)
    future = pool.submit(lambda: [process(job) for job in jobs])
    try:
        results = future.result(timeout=20)
    except concurrent.futures.TimeoutError:
        # let the blocked open() return (a writer opens the pipe), or the test run never ends
        threading.Thread(target=lambda: open(assets / "Piped.cs", "wb").close(), daemon=True).start()
        raise AssertionError("reading a pipe swapped in after the walk blocked") from None
    finally:
        pool.shutdown(wait=False)
    records = {r.record.path: r.record for r in results}
    assert records["Assets/Piped.cs"].note == "not a regular file (a pipe, socket or device)"
    for rel in ("Assets/Linked.cs", "Assets/Sub/Below.cs"):
        assert records[rel].status == "skipped", rel
        assert records[rel].note == "symbolic link: not followed (it may point outside the project)", rel
        assert "LeakedSecret" not in json.dumps(msgspec.to_builtins(records[rel])), rel


def test_a_small_file_nesting_thousands_deep_costs_neither_memory_nor_index_space(tmp_path: Path) -> None:
    """A 119 KB script of 6,000 nested namespaces is scanned in the indexer's own process (few,
    small files): its records were quadratic in the depth (every container named in full), and
    `index` took 12.6 s, 2.5 GB of memory and left a 218 MB index. It is skipped with the reason."""
    from tests.scanner_stress import nested_namespaces

    root = write_project(tmp_path / "P", {"Assets/Deep.cs": nested_namespaces(6000), "Assets/A.cs": "class A {}"})
    r = run_cli("index", "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    st = json.loads(run_cli("status", "--json", "--project", str(root)).stdout)
    reason = "namespaces and types nested over 64 deep: not indexed"
    assert st["skipped"] == [{"path": "Assets/Deep.cs", "reason": reason}]
    assert st["index_bytes"] < 5_000_000


# The files unity-index writes in its own folder, `Library/UnityIndex` (git-view.json in a git work tree).
INDEX_FOLDER_FILES = ("write.lock", "index.json", "settings.json", "progress.json", "integrity.json", "git-view.json")


def test_links_planted_in_the_index_folder_are_replaced_never_written_through(tmp_path: Path) -> None:
    """A project from elsewhere (a clone, an archive) may hold `Library/UnityIndex/write.lock ->
    ~/.bashrc`: `index`, which the git hooks run on every checkout, truncated the file the link
    named and wrote its pid there, and wrote the header, settings and progress through their
    links too. The index folder is unity-index's own: a link in place of one of its files is
    replaced, and the file it points to is left as it was."""
    from .test_hooks import git

    outside = tmp_path / "home"
    outside.mkdir()
    root = write_project(
        tmp_path / "P",
        {"Assets/PlayerHealth.cs": "public class PlayerHealth : UnityEngine.MonoBehaviour { public int hp; }"},
    )
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x")
    folder = root / "Library" / "UnityIndex"
    folder.mkdir(parents=True)
    for name in INDEX_FOLDER_FILES:
        (outside / name).write_text(f"precious {name}\n")
        (folder / name).symlink_to(outside / name)
    for args in (("index",), ("index", "--full"), ("index",)):
        r = run_cli(*args, "--project", str(root))
        assert r.returncode == 0, r.stderr
    for name in INDEX_FOLDER_FILES:
        assert (outside / name).read_text() == f"precious {name}\n", name
        assert not (folder / name).is_symlink(), name
    assert run_cli("index", "--check", "--project", str(root)).returncode == 0
    assert "PlayerHealth.cs" in run_cli("query", "player health", "--project", str(root)).stdout


def test_a_package_named_indexer_in_the_working_directory_is_never_run(tmp_path: Path) -> None:
    """Run from a folder that holds a package called `indexer` (a checkout, a downloaded repository),
    the scanner processes used to import and run it: the fork server's `python -c` puts the working
    directory first on its path. They run the indexer's own code, and the index is the real one."""
    import sys

    evil = tmp_path / "cwd"
    (evil / "indexer").mkdir(parents=True)
    marker = tmp_path / "ran"
    (evil / "indexer" / "__init__.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    root = write_project(
        tmp_path / "P", {f"Assets/S{i}.cs": f'class S{i} {{ string k = "UI/Panel{i}"; }}' for i in range(250)}
    )
    cli = Path(sys.executable).parent / "unity-index"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    done = subprocess.run(
        [str(cli), "index", "--project", str(root), "--json"],
        cwd=evil,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["added"] == 250
    assert not marker.exists()
    ws = open_workspace(root, projects_at(root))
    assert ws.projects[0].records.record("Assets/S7.cs").refs[-1].target == "UI/Panel7"


def test_escape_sequences_in_a_project_s_files_reach_the_terminal_escaped(tmp_path: Path) -> None:
    """A cloned project may hold terminal escapes (retitle, clear the screen) in a C# comment or a
    GameObject's name: `query`, `context`, `refs` and `describe` print them as `\\xNN`, as file names
    are shown; `--json` keeps the text itself (JSON escapes it); a CRLF file prints plain lines."""
    evil = "\x1b]0;pwned\x07\x1b[2J\x9b"
    shown = "\\x1b]0;pwned\\x07\\x1b[2J\\x9b"
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Trap.cs": f"// lantern {evil}\r\npublic class Lantern : UnityEngine.MonoBehaviour {{ }}\r\n",
            "Assets/Trap.cs.meta": meta("a" * 32),
        },
    )
    assert run_cli("index", "--project", str(root)).returncode == 0
    for args in (
        ("query", "lantern"),
        ("context", "lantern", "--budget", "2000"),
        ("refs", "Lantern"),
        ("describe", "Assets/Trap.cs"),
    ):
        r = run_cli(*args, "--project", str(root))
        assert r.returncode == 0, (args, r.stderr)
        assert not any(c in r.stdout for c in "\x1b\x07\x9b\r"), args
    context = run_cli("context", "lantern", "--budget", "2000", "--project", str(root)).stdout
    assert f"L1: // lantern {shown}" in context
    as_json = json.loads(run_cli("context", "lantern", "--budget", "2000", "--json", "--project", str(root)).stdout)
    assert f"L1: // lantern {evil}" in as_json["tier2"]["text"]
