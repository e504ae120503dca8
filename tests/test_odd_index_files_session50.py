"""A named pipe where the record store keeps its write-ahead log or shared memory (an archive of
a project with its Library/ may hold one): `index` failed with "the index's record store cannot be
written (disk I/O error); check that this file or folder can be read and written", naming no file.
It is damage the quick checks see (`integrity.quick_problems`): `index` says which file and
rebuilds."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from .conftest import indexed_copy, run_cli

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")


@pytest.mark.parametrize("name", ["records.db-wal", "records.db-shm"])
def test_a_pipe_beside_the_record_store_is_named_and_the_index_rebuilt(tmp_path: Path, name: str) -> None:
    root = indexed_copy(tmp_path)
    folder = root / "Library/UnityIndex"
    (gen,) = folder.glob("gen-*")
    (gen / name).unlink(missing_ok=True)
    os.mkfifo(gen / name)
    script = root / "Assets/Scripts/Player/PlayerHealth.cs"
    script.write_text(script.read_text() + "\n// changed\n")
    r = run_cli("index", "--project", str(root))
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines()[0] == (
        f"the index of {root} was damaged ({name} is not a regular file (a named pipe, socket or device)): rebuilt it"
    )
    for path in folder.glob("gen-*/records.db*"):
        assert stat.S_ISREG(path.stat().st_mode), path
    q = run_cli("query", "player health", "--project", str(root))
    assert q.returncode == 0 and "PlayerHealth.cs" in q.stdout, (q.stdout, q.stderr, sys.platform)
