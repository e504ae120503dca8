"""Attack 10 of session 46: each test failed before the fix it names.

1. A write the file system refuses (a full disk, a file size limit, an I/O error) was called
   damage: SQLite answers "disk I/O error" (SQLITE_IOERR_WRITE when a page cannot be written,
   SQLITE_IOERR_SHMSIZE when a reader cannot grow the `records.db-shm` beside it, whatever the
   errno, ENOSPC included), and every command said "the index ... is damaged; run `unity-index
   index` to rebuild it", a rebuild that failed the same way; `query` dropped the index's
   fingerprint, and an update threw its index away to rebuild it from scratch.
2. MCP notifications named a file by its raw path: `Assets/%41.cs` as a URI that reads
   `Assets/A.cs`, `Assets/What?.cs` as one no read accepts.
3. A `.meta` whose guid line holds no GUID (`guid: abc`) was recorded as "no guid line".
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO, copy_fixture, run_cli
from .test_environment_errors import _mount_tmpfs

HEALTH = "Assets/Scripts/Combat/Health.cs"


def _run_limited(limit: int, *args: str) -> subprocess.CompletedProcess:
    """The CLI in a subprocess whose files cannot grow past `limit` bytes (RLIMIT_FSIZE, with
    SIGXFSZ ignored so a write past it fails with EFBIG): a full disk, as far as SQLite can tell."""

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "indexer.cli", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(REPO)},
        preexec_fn=limited,
        timeout=300,
    )


def _indexed(tmp_path: Path) -> Path:
    root = copy_fixture(tmp_path / "DungeonCrawler")
    r = run_cli("index", "--project", str(root))
    assert r.returncode == 0, r.stderr
    return root


def _says_it_cannot_write(r: subprocess.CompletedProcess) -> None:
    assert r.returncode == 2, r.stderr
    assert "damaged" not in r.stderr
    assert "cannot be written (disk I/O error)" in r.stderr, r.stderr
    assert "the disk has room" in r.stderr


def test_a_reader_that_cannot_write_the_shared_memory_file_is_told_so_not_damage(tmp_path: Path) -> None:
    root = _indexed(tmp_path)
    fingerprint = root / "Library/UnityIndex/integrity.json"
    assert fingerprint.is_file()
    for command in (("query", "health", "--no-refresh"), ("describe", HEALTH, "--no-refresh")):
        r = _run_limited(4096, *command, "--project", str(root))
        _says_it_cannot_write(r)
        assert r.stdout == ""
    r = _run_limited(4096, "doctor", "--project", str(root))  # a failed check, the report whole
    assert r.returncode == 1, r.stderr
    assert "fail  index-intact         the index's record store cannot be written (disk I/O error)" in r.stdout
    assert fingerprint.is_file()  # kept: nothing says the files are damaged
    r = run_cli("index", "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["repaired"] == ""
    assert json.loads(r.stdout)["scanned"] == 0


def test_a_reader_of_an_index_on_a_disk_that_filled_is_told_so(tmp_path: Path) -> None:
    """The same on a real full disk (a 3 MB tmpfs holding the index, filled once it is built)."""
    disk = tmp_path / "disk"
    if not _mount_tmpfs(disk, "3m"):
        pytest.skip("mounting a tmpfs needs root")
    try:
        root = copy_fixture(tmp_path / "P")
        (root / "unity-index.toml").write_text(f'index_dir = "{disk}/index"\n')
        assert run_cli("index", "--project", str(root)).returncode == 0
        with contextlib.suppress(OSError), open(disk / "filler", "wb", buffering=0) as f:
            while True:  # to the last block
                f.write(b"\0" * 4096)
        _says_it_cannot_write(run_cli("query", "health", "--no-refresh", "--project", str(root)))
        assert (disk / "index/integrity.json").is_file()
    finally:
        subprocess.run(["umount", "--lazy", str(disk)], check=False)


def test_an_update_whose_writes_fail_keeps_the_index_and_says_why(tmp_path: Path) -> None:
    root = _indexed(tmp_path)
    with open(root / HEALTH, "a", encoding="utf-8") as f:
        f.write("// edited\n")
    _says_it_cannot_write(_run_limited(4096, "index", "--project", str(root)))
    r = run_cli("index", "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    stats = json.loads(r.stdout)
    assert (stats["full"], stats["repaired"], stats["scanned"]) == (False, "", 1)


def test_a_build_whose_writes_fail_says_why(tmp_path: Path) -> None:
    root = copy_fixture(tmp_path / "DungeonCrawler")
    _says_it_cannot_write(_run_limited(50_000, "index", "--project", str(root)))


def test_a_notified_file_uri_reads_back_the_file_it_names(tmp_path: Path) -> None:
    """A read decodes `%XX` and the URI template stops at `?` and `#`: a file named `%41.cs` was
    notified as `unity://file/Assets/%41.cs`, which reads `Assets/A.cs`, another file, and one
    named `What?.cs` by a URI no read accepts. Notifications (and a subscription's own name for
    the file) escape those three characters, so each reads back its file."""
    from mcp import Client

    from mcp_adapter.server.changes import IndexChange

    from .conftest import meta, mono_script, write_project
    from .test_mcp_server import make_server, run

    names = ["Assets/A.cs", "Assets/%41.cs", "Assets/What?.cs", "Assets/Hash#1.cs", "Assets/My Mover.cs"]
    files = {}
    for i, name in enumerate(names):
        files[name] = mono_script(f"C{i}", "")
        files[f"{name}.meta"] = meta(f"{i}" * 32)
    root = write_project(tmp_path / "Game", files)
    assert run_cli("index", "--project", str(root)).returncode == 0
    uris = IndexChange(changed=frozenset(names)).updated_uris()
    assert "unity://file/Assets/%2541.cs" in uris and "unity://file/Assets/My Mover.cs" in uris

    async def go() -> dict[str, str]:
        async with Client(make_server(root), mode="legacy") as c:
            return {uri: (await c.read_resource(uri)).contents[0].text.split("  (")[0] for uri in uris}

    read = run(go)
    assert sorted(read.values()) == sorted(names)
    assert all(
        uri.endswith(path[len("Assets/") :].replace("%", "%25").replace("?", "%3F").replace("#", "%23"))
        for uri, path in read.items()
    )


def test_a_meta_whose_guid_line_holds_no_guid_says_what_it_holds() -> None:
    """`guid: abc` (a hand edit, a merge tool's cut) was "no guid line": the user opening the
    file finds one. The note names the value and what a GUID is."""
    from indexer.scanners import meta

    rec = meta.scan("Assets/A.cs.meta", b"fileFormatVersion: 2\nguid: abc\nMonoImporter:\n")
    assert (rec.status, rec.note) == ("skipped", "the guid line holds no GUID: 'abc' (32 hexadecimal digits expected)")
    rec = meta.scan("Assets/A.cs.meta", b"fileFormatVersion: 2\nguid: " + b"a" * 300 + b"\n")
    assert rec.note == f"the guid line holds no GUID: '{'a' * 40}… (300 characters)' (32 hexadecimal digits expected)"
    assert meta.scan("a.meta", b"fileFormatVersion: 2\n").note == "no guid line"
