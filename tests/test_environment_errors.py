"""Failures of the environment, not of unity-index: a full disk and a read-only index folder.
Each says what happened and what to do (exit 2), or just works where it can."""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from indexer.cli.main import main

from .conftest import copy_fixture, run_cli

DISK_FULL = "error: the disk is full"


def test_disk_full_while_writing_records_is_reported_not_a_bug(tmp_path: Path, monkeypatch, capsys) -> None:
    from indexer.store.writer import Writer

    root = copy_fixture(tmp_path / "P")

    def full(self, *args, **kwargs):
        exc = sqlite3.OperationalError("database or disk is full")
        exc.sqlite_errorcode = sqlite3.SQLITE_FULL  # as SQLite raises it
        raise exc

    monkeypatch.setattr(Writer, "put", full)
    monkeypatch.setattr(Writer, "put_prepared", full)  # what a build writes scanned files with
    assert main(["index", "--project", str(root)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(DISK_FULL) and "free some space" in err and "bug" not in err


def test_disk_full_while_writing_a_file_names_it(tmp_path: Path, monkeypatch, capsys) -> None:
    import indexer.store.header as header

    root = copy_fixture(tmp_path / "P")

    def full(path: Path, data: bytes, durable: bool = True, **_) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(header, "atomic_write", full)  # the header's write, the last of a commit
    assert main(["index", "--project", str(root)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{DISK_FULL} ({root}/Library/UnityIndex/index.json)") and "bug" not in err


def test_disk_full_after_the_commit_does_not_say_the_update_was_lost(tmp_path: Path, monkeypatch, capsys) -> None:
    """The disk fills while the settings are recorded, after the commit: the message must not
    claim the update stopped before it, and the committed files answer."""
    import indexer.changes.settings as settings

    root = copy_fixture(tmp_path / "P")
    (root / "Assets" / "Shield.cs").write_text("public class ShieldAbsorber { }\n")

    def full(path: Path, data: bytes, durable: bool = True, **_) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(settings, "atomic_write", full)
    assert main(["index", "--project", str(root)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{DISK_FULL} ({root}/Library/UnityIndex/settings.json)") and "free some space" in err
    assert "before its commit" not in err and "the index keeps its last committed state" in err
    monkeypatch.undo()
    assert main(["query", "ShieldAbsorber", "--json", "--project", str(root)]) == 0
    assert '"path":"Assets/Shield.cs"' in capsys.readouterr().out


def _mount_tmpfs(where: Path, size: str) -> bool:
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    where.mkdir()
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)]).returncode == 0


def test_disk_full_on_a_real_small_file_system(tmp_path: Path) -> None:
    """A 200 kB tmpfs holds the index folder: the real errors SQLite and tantivy raise."""
    disk = tmp_path / "disk"
    if not _mount_tmpfs(disk, "200k"):
        pytest.skip("mounting a tmpfs needs root")
    try:
        root = copy_fixture(tmp_path / "P")
        (root / "unity-index.toml").write_text(f'index_dir = "{disk}/index"\n')
        for args in (("index",), ("query", "player")):
            r = run_cli(*args, "--project", str(root))
            assert r.returncode == 2, r.stderr
            assert DISK_FULL in r.stderr and "internal error" not in r.stderr and "Traceback" not in r.stderr
        assert not [p.name for p in (disk / "index").iterdir() if p.name.endswith(".tmp")]
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def test_an_update_the_disk_stopped_does_not_block_the_next_ones(tmp_path: Path, capsys) -> None:
    """The disk fills during an update's full-text commit: tantivy has written a segment's
    `<id>.<opstamp>.del` but not meta.json. Once space returns, the next update (same opstamp)
    must not trip over that file, and must answer with the edit."""
    disk = tmp_path / "disk"
    if not _mount_tmpfs(disk, "2m"):
        pytest.skip("mounting a tmpfs needs root")
    try:
        root = copy_fixture(tmp_path / "P")
        (root / "unity-index.toml").write_text(f'index_dir = "{disk}/index"\n')
        assert main(["index", "--quiet", "--project", str(root)]) == 0
        health = root / "Assets" / "Scripts" / "Combat" / "Health.cs"
        for kb in (16, 32, 48, 64, 96):
            filler = disk / "filler"
            free = shutil.disk_usage(disk).free
            filler.write_bytes(b"\0" * max(free - kb * 1024, 0))
            health.write_text(health.read_text() + f"class FullDisk{kb} {{ }}\n")
            assert main(["index", "--quiet", "--project", str(root)]) in (0, 2)
            filler.unlink()
            capsys.readouterr()
            assert main(["index", "--quiet", "--project", str(root)]) == 0, (kb, capsys.readouterr().err)
            assert main(["query", f"FullDisk{kb}", "--json", "--project", str(root)]) == 0
            assert '"path":"Assets/Scripts/Combat/Health.cs"' in capsys.readouterr().out, kb
    finally:
        subprocess.run(["umount", "--lazy", str(disk)], check=False)  # this process still maps files


def _without_write_permission() -> list[str] | None:
    """A command prefix that runs without the power to ignore file permissions; None if this
    cannot be arranged (root without setpriv)."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv"):  # root keeps its uid, loses the capabilities that bypass permissions
        return ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"]
    return None


def test_a_read_only_index_folder_answers_queries(tmp_path: Path) -> None:
    """A CI cache or a read-only volume: readers must not need to write (tantivy's lock file,
    SQLite's shared-memory file) and must leave the folder exactly as it was."""
    import sys

    prefix = _without_write_permission()
    if prefix is None:
        pytest.skip("cannot drop the permission to write as root here")
    root = copy_fixture(tmp_path / "P")
    assert run_cli("index", "--project", str(root)).returncode == 0
    library = root / "Library"
    before = sorted((p.relative_to(library), p.stat().st_mtime_ns) for p in library.rglob("*"))
    subprocess.run(["chmod", "-R", "a-w", str(library)], check=True)
    try:
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent), "NO_COLOR": "1"}
        for args in (("query", "player health"), ("context", "heal the player"), ("refs", "PlayerHealth")):
            r = subprocess.run(
                [*prefix, sys.executable, "-m", "indexer.cli", *args, "--project", str(root)],
                capture_output=True,
                text=True,
                env=env,
                timeout=120,
            )
            assert r.returncode == 0, (args, r.stderr)
            assert "PlayerHealth" in r.stdout, args
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(library)], check=True)
    assert sorted((p.relative_to(library), p.stat().st_mtime_ns) for p in library.rglob("*")) == before


def test_a_folder_that_cannot_be_entered_beside_the_project_is_passed_over(tmp_path: Path) -> None:
    """Another user's private folder (a container's volume, `lost+found`) in the repository or the
    workspace is no project: looking below the project for others must not stop every command."""
    import sys

    prefix = _without_write_permission()
    if prefix is None or os.geteuid() != 0:
        pytest.skip("needs root to make a folder another user's, and setpriv to drop root's powers")
    root = copy_fixture(tmp_path / "ws" / "Game")
    closed = [root / "Tools" / "cache", tmp_path / "ws" / "private"]
    for folder in closed:
        folder.mkdir(parents=True)
        os.chown(folder, 65534, 65534)
        folder.chmod(0o700)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent), "NO_COLOR": "1"}

    def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
        return subprocess.run(
            [*prefix, sys.executable, "-m", "indexer.cli", *args], cwd=cwd, capture_output=True, text=True, env=env,
            timeout=120,
        )  # fmt: skip

    r = run("query", "player health", "--limit", "1", "--project", str(root), cwd=tmp_path)
    assert r.returncode == 0 and "PlayerHealth" in r.stdout, r.stderr
    r = run("refs", "PlayerHealth", cwd=root / "Assets")
    assert r.returncode == 0 and "Player.prefab" in r.stdout, r.stderr
    r = run("status", "--project", str(tmp_path / "ws"), cwd=tmp_path)
    assert r.returncode == 0 and str(root) in r.stdout, r.stderr
    r = run("status", cwd=tmp_path / "ws")  # no project here: the one below is named
    assert r.returncode == 2 and f"Unity projects found below it:\n  {root}\n" in r.stderr, r.stderr


@pytest.mark.parametrize("made_read_only", ["tantivy", "records.db"])
def test_an_index_file_made_read_only_is_said_so_not_a_bug_nor_damage(tmp_path: Path, made_read_only: str) -> None:
    """The full-text folder or the record store made read-only under an index (a volume remounted,
    a permission changed mid-run): tantivy's writer thread failed with "An index writer was
    killed.. (io::Error most likely)", an internal error (exit 3), and SQLite's "attempt to write a
    readonly database" was called damage, to be rebuilt. Both are exit 2 with what to check, the
    index keeps its last commit, and once writable again the next update goes through."""
    import sys

    prefix = _without_write_permission()
    if prefix is None:
        pytest.skip("cannot drop the permission to write as root here")
    root = copy_fixture(tmp_path / "P")
    assert run_cli("index", "--project", str(root)).returncode == 0
    (root / "Assets/Shield.cs").write_text("public class ShieldAbsorber { }\n")
    target = pinned_data(root) / made_read_only
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent), "NO_COLOR": "1"}
    target.chmod(0o555 if target.is_dir() else 0o444)
    try:
        r, q = (
            subprocess.run(
                [*prefix, sys.executable, "-m", "indexer.cli", *args, "--project", str(root)],
                capture_output=True,
                text=True,
                env=env,
                timeout=120,
            )
            for args in (["index"], ["query", "ShieldAbsorber"])
        )
    finally:
        target.chmod(0o755 if target.is_dir() else 0o644)
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith("error: ") and "can be read and written" in r.stderr, r.stderr
    assert "bug" not in r.stderr and "damaged" not in r.stderr, r.stderr
    # a query, which updates the index first, answers from it as it is, saying why
    assert q.returncode == 0 and "ShieldAbsorber" not in q.stdout, q.stderr
    assert "could not be updated" in q.stderr and "answering from it as it is" in q.stderr, q.stderr
    assert "ShieldAbsorber" not in run_cli("query", "ShieldAbsorber", "--no-refresh", "--project", str(root)).stdout
    assert run_cli("index", "--project", str(root)).returncode == 0
    assert "ShieldAbsorber" in run_cli("query", "ShieldAbsorber", "--project", str(root)).stdout


def pinned_data(root: Path) -> Path:
    """The current generation folder of the project's index."""
    from indexer.config import Config
    from indexer.store.header import pin
    from indexer.store.schema import IndexPaths

    return pin(IndexPaths(Config().index_path(root))).records.parent
