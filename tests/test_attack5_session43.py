"""Attack of session 43: what a damaged index, the editor bridge and hostile MCP arguments did.

Each test failed before the fix it names (docs/editor-bridge.md, docs/indexing.md, docs/mcp.md)."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.cli.main import main
from mcp_adapter.editor import bridge as eb

from .json_http import Dripping, JsonHandler, serving_editor
from .test_corruption import CONFIG, small_project
from .test_corruption import deadline as _deadline
from .test_mcp_repair import garble_a_record_unseen

TOKEN = "a" * 64
HANG_GUARD = 30  # seconds: a hang guard, not a timing (each call here ends within about 6 s)


class Hung(BaseException):
    """The hang guard's own: no handler of the code under test catches it."""


def deadline(seconds: int) -> contextlib.AbstractContextManager[None]:
    return _deadline(seconds, Hung)


@contextlib.contextmanager
def editor(root: Path, handler: type[JsonHandler]) -> Iterator[eb.EditorBridge]:
    """A fake editor answering with `handler`, once its heartbeat is written."""
    with serving_editor(root, handler, TOKEN):
        beat = root / "Library/UnityIndex/editor.json"
        for _ in range(100):
            if beat.is_file():
                break
            time.sleep(0.05)
        yield eb.EditorBridge(root, reload_wait=1.0, call_timeout=0.5, poll_interval=0.05)


class _Flooding(JsonHandler):
    """An answer that never ends: a terabyte announced, spaces sent until the client leaves."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(2**40))
        self.end_headers()
        chunk = b" " * 2**20
        with contextlib.suppress(OSError):
            while True:
                self.wfile.write(chunk)

    do_POST = do_GET


@pytest.mark.parametrize("call", ["ping", "list_tools", "call_tool"])
def test_an_answer_sent_a_byte_at_a_time_ends_at_the_call_s_bound(tmp_path: Path, call: str) -> None:
    """The socket's timeout bounds each read, not the answer: a bridge dribbling its answer held a
    3 s ping (`doctor`, the MCP server's `editor_tools`) for as long as it dribbled."""
    with editor(tmp_path, Dripping) as bridge, deadline(HANG_GUARD), pytest.raises(eb.EditorCallError) as caught:
        getattr(bridge, call)(*(["x"] if call == "call_tool" else []))
    assert caught.value.code == "timeout"
    assert "no answer from the editor within 6 s" in caught.value.message


@pytest.mark.parametrize("call", ["ping", "call_tool"])
def test_an_answer_without_end_is_refused_past_its_size_bound(tmp_path: Path, call: str) -> None:
    """An answer was read whole into memory, however long: one that never ended took the MCP
    server's memory with it."""
    with editor(tmp_path, _Flooding) as bridge, deadline(HANG_GUARD), pytest.raises(eb.EditorProtocolError) as caught:
        getattr(bridge, call)(*(["x"] if call == "call_tool" else []))
    assert caught.value.code == "bad_response"
    assert "over 64 MiB" in caught.value.message


# -- damage behind the writer's fingerprint ---------------------------------------------------------
# A file of the index garbled in place with its size, mtime and inode kept (a bit flipped on disk)
# still matches the fingerprint the writer saved, so `index` trusts it (docs/indexing.md,
# Guarantees). Only reading shows the damage.


def _indexed(tmp_path: Path) -> Path:
    root = small_project(tmp_path / "Game")
    update(root, CONFIG)
    return root


def _gen(root: Path) -> Path:
    return next(CONFIG.index_path(root).glob("gen-*"))


def _garble_in_place(path: Path, start: int, length: int = 16) -> None:
    """XOR `length` bytes from `start`, the file's size, inode and mtime kept."""
    st = path.stat()
    with path.open("r+b") as f:
        f.seek(start)
        data = f.read(length)
        f.seek(start)
        f.write(bytes(b ^ 0x5A for b in data))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def _panicking_garble(tmp_path: Path, tantivy_dir: Path, suffix: str) -> int:
    """An offset in the segment file ending in `suffix` whose garbling makes `tantivy.Index.open`
    panic (tried on copies)."""
    import tantivy

    name = next(p.name for p in tantivy_dir.iterdir() if p.name.endswith(suffix))
    for start in range(0, (tantivy_dir / name).stat().st_size - 16, 2):
        trial = tmp_path / f"trial{start}"
        shutil.copytree(tantivy_dir, trial)
        _garble_in_place(trial / name, start)
        try:
            tantivy.Index.open(str(trial)).searcher()
        except BaseException as exc:
            if type(exc).__name__ == "PanicException":
                return start
        finally:
            shutil.rmtree(trial)
    pytest.skip("no garbling of the segment made tantivy panic")


def _run(capsys, *args: str) -> tuple[int, str, str]:
    with deadline(HANG_GUARD):
        code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_segment_that_makes_tantivy_panic_when_opened_is_called_damaged(tmp_path: Path, capsys) -> None:
    """`tantivy.Index.open` panicked on a segment garbled behind the fingerprint (its checksum is
    not read then): the PanicException, a BaseException, ended `query` with a raw traceback."""
    root = _indexed(tmp_path)
    tantivy_dir = _gen(root) / "tantivy"
    start = _panicking_garble(tmp_path, tantivy_dir, ".fast")
    _garble_in_place(next(tantivy_dir.glob("*.fast")), start)
    code, _, err = _run(capsys, "query", "player health", "--project", str(root))
    assert code == 2, err
    assert "is damaged (full-text index: tantivy failed reading it" in err
    assert "Traceback" not in err


def _garble_store(root: Path) -> None:
    store = next((_gen(root) / "tantivy").glob("*.store"))
    _garble_in_place(store, store.stat().st_size // 10)


def _garble_records_page(root: Path, table: str = "files_by_path") -> None:
    """The b-tree header of `table`'s root page (an index of paths): every read of it fails, "malformed"."""
    db = _gen(root) / "records.db"
    conn = sqlite3.connect(db)
    try:
        (page,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()
        (size,) = conn.execute("PRAGMA page_size").fetchone()
    finally:
        conn.close()
    _garble_in_place(db, (page - 1) * size, 8)


@pytest.mark.parametrize(
    ("damage", "reader"),
    [
        pytest.param(_garble_store, ("query", "player health"), id="segment-query"),
        pytest.param(_garble_store, ("index", "--check"), id="segment-check"),
        pytest.param(garble_a_record_unseen, ("describe", "Assets/Scripts/Enemy.cs"), id="record-describe"),
    ],
)
def test_damage_a_reader_finds_is_rebuilt_by_the_index_it_asks_for(tmp_path: Path, capsys, damage, reader) -> None:
    """The reader said "damaged ...; run `unity-index index` to rebuild it", and `index`, trusting
    the fingerprint, said "0 changed" and rebuilt nothing: the reader failed again, for ever (only
    `index --full` helped)."""
    root = _indexed(tmp_path)
    damage(root, *(["Assets/Scripts/Enemy.cs"] if damage is garble_a_record_unseen else []))
    code, out, err = _run(capsys, *reader, "--project", str(root))
    assert code in (1, 2) and "damaged" in out + err, out + err
    assert "run `unity-index index` to rebuild it" in out + err
    code, _, err = _run(capsys, "index", "--project", str(root))
    assert code == 0, err
    assert "was damaged" in err and "rebuilt it" in err, err
    code, out, err = _run(capsys, *reader, "--project", str(root))
    assert code == 0, out + err


def test_an_update_that_reads_damage_rebuilds_the_index(tmp_path: Path, capsys) -> None:
    """An update whose own reading hit a page garbled behind the fingerprint said "the index is
    damaged (record store: database disk image is malformed); run `unity-index index` to rebuild
    it": `index` itself, which can never get past it."""
    root = _indexed(tmp_path)
    (root / "Assets/Scripts/Spawner.cs").write_text("public class Spawner { int wave; }\n")
    _garble_records_page(root)
    code, _, err = _run(capsys, "index", "--project", str(root))
    assert code == 0, err
    assert "was damaged (reading it failed: database disk image is malformed): rebuilt it" in err
    code, out, err = _run(capsys, "query", "spawner wave", "--project", str(root))
    assert code == 0 and "Assets/Scripts/Spawner.cs" in out, out + err


class _NotHttp(JsonHandler):
    """Another program on the heartbeat's port: it greets with a line of its own and closes."""

    def handle(self) -> None:
        with contextlib.suppress(OSError):
            self.wfile.write(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")


@pytest.mark.parametrize("call", ["ping", "call_tool"])
def test_a_port_answering_no_http_is_named_at_once(tmp_path: Path, call: str) -> None:
    """A GET was retried for the whole reload wait, then blamed on "a long import or compilation";
    a POST said a domain reload may have interrupted it. Neither: another program answers."""
    with editor(tmp_path, _NotHttp) as bridge, deadline(HANG_GUARD), pytest.raises(eb.EditorProtocolError) as caught:
        getattr(bridge, call)(*(["x"] if call == "call_tool" else []))
    assert caught.value.code == "bad_response"
    assert "answered something that is not HTTP ('SSH-2.0-OpenSSH_9.2p1 Debian-2" in caught.value.message
    assert bridge.retries == 0


def test_an_unguarded_script_indexing_is_told_to_guard_its_call(tmp_path: Path) -> None:
    """A script of the user's own calling `update` with no `if __name__ == "__main__":` guard: each
    scanner process imports it again and fails, and the error said the processes were "likely over
    the 320 MB a scanner may use" (they never started). It names the guard now (docs/decisions.md)."""
    import subprocess
    import sys

    from .conftest import REPO, meta, write_project

    files = {f"Assets/Scripts/S{i}.cs": f"public class S{i} {{ public int f{i}; }}\n" for i in range(300)}
    files.update({f"Assets/Scripts/S{i}.cs.meta": meta(f"{i:032x}") for i in range(300)})
    root = write_project(tmp_path / "P", files)
    script = tmp_path / "embed.py"
    script.write_text(
        "from pathlib import Path\nfrom indexer.build.update import update\nfrom indexer.config import Config\n"
        f"update(Path({str(root)!r}), Config(workers=2), full=True)\n"
    )
    with deadline(HANG_GUARD * 4):
        done = subprocess.run(
            [sys.executable, str(script)], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)}
        )
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 1
    assert last == (
        "RuntimeError: scanner processes fail to start (scanning stopped: the scanner process ended with exit "
        'code 1); a script of your own that indexes must call it under `if __name__ == "__main__":`, since each '
        "scanner process imports that script (docs/decisions.md)"
    )
