"""Under a small address-space limit (`ulimit -v`) the search engine's allocation failing aborted
`index` (Rust: "memory allocation of 4194304 bytes failed", exit 134) or it ended as "internal
error: MemoryError (a bug ...)": writing is refused beforehand, and a MemoryError is said as the
environment's (`indexer/build/address_space.py`). POSIX only (RLIMIT_AS)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from indexer.build.address_space import MIN_MB
from indexer.cli.common import explain_failure

from .conftest import REPO, indexed_copy, write_project

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS as Linux applies it")
LIMIT_KB = 400_000


def _limited(kb: int):
    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (kb * 1024, resource.RLIM_INFINITY))

    return limit


def _cli(*args: str, kb: int = LIMIT_KB) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "indexer.cli", *args],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_limited(kb),
    )


REFUSED = (
    f"error: the process's address space is limited to {LIMIT_KB // 1024} MB (`ulimit -v`); writing the index"
    f" needs {MIN_MB} MB or more (its search engine ends the process when an allocation fails): raise the limit"
    f" (`ulimit -v {MIN_MB * 1024}`, or `unlimited`) and run the command again; the index keeps its last"
    " committed state\n"
)


def test_index_under_a_small_address_space_is_refused_with_what_to_raise(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/Player.cs": "public class Player { }\n"})
    for args in (("index",), ("index", "--full")):
        r = _cli(*args, "--project", str(root))
        assert (r.returncode, r.stdout, r.stderr) == (2, "", REFUSED), args
    assert not (root / "Library/UnityIndex").exists()


def test_a_query_under_a_small_address_space_answers_from_the_index_as_it_is(tmp_path: Path) -> None:
    root = indexed_copy(tmp_path)
    script = root / "Assets/Scripts/Player/PlayerHealth.cs"
    script.write_text(script.read_text() + "\n// changed\n")
    r = _cli("query", "player health", "--project", str(root))
    assert r.returncode == 0 and "PlayerHealth.cs" in r.stdout, r.stderr
    said = REFUSED[len("error: ") : -1]
    assert r.stderr == f"the index of DungeonCrawler could not be updated: {said}; answering from it as it is\n"


def test_a_memory_error_is_the_environments_not_a_bug() -> None:
    assert explain_failure(MemoryError()) == (
        "the process ran out of memory; free memory and run the command again (the index keeps its last commit)"
    )


def test_a_small_state_file_is_read_without_setting_its_most_aside(tmp_path: Path) -> None:
    """files.read_state read up to 64 MB + 1 byte with `read(limit)`, which sets that much aside
    first: under a limit with less than 64 MB to spare, a 2-byte index.json failed (MemoryError)."""
    state = tmp_path / "index.json"
    state.write_text("{}")
    code = (
        "import re, resource; from pathlib import Path; from indexer.files import read_state\n"
        "kb = int(re.search(r'VmSize:\\s+(\\d+)', open('/proc/self/status').read())[1])\n"
        "resource.setrlimit(resource.RLIMIT_AS, ((kb + 32 * 1024) * 1024, resource.RLIM_INFINITY))\n"
        f"print(read_state(Path({str(state)!r})))\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (r.returncode, r.stdout) == (0, "b'{}'\n"), r.stderr
