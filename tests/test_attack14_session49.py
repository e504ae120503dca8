"""Attack 14 of session 49: each test failed before the fix it names.

1. `serve --transport http` kept every connection that had not sent a whole request for as long as
   the server ran: uvicorn starts no timer before a connection's first answer, and a byte received
   stops its keep-alive timer. Connections that send nothing or the start of a request and no more
   (slowloris, a client that crashed mid-request, a port scanner) each held a file descriptor;
   past the limit of open files (`ulimit -n`: 256 on macOS) the server accepted no one, a client's
   `initialize` went unanswered for good, and the log took hundreds of thousands of lines
   ("socket.accept() out of system resource" and its traceback). A connection that has not sent a
   whole request within `REQUEST_SECONDS` of opening (or of its last answer) is closed, at most a
   quarter of the limit of open files wait for their request or are accepted at once, and a
   failed accept is one log line a minute.
2. Output to a stream whose encoding cannot hold every character (Windows writes a redirected
   stdout, as coding agents read every command's, in its ANSI code page, cp1252 in the West;
   `PYTHONIOENCODING=ascii`) was an internal error, exit 3, for any answer naming a script,
   identifier or comment in Japanese, Chinese, Cyrillic or with an emoji: "UnicodeEncodeError:
   'charmap' codec can't encode characters ... (a bug: ...)", `--json` too. Text now writes such a
   character as its `\\uXXXX` escape (as Python's stderr already did), and `--json` writes it as
   JSON's `\\uXXXX` escape, the same JSON in the stream's encoding.
3. A named pipe in place of one of the index's own files (`index.json`, `settings.json`,
   `integrity.json`, `journal.pos`, `tantivy/meta.json`: an archive of a project with its
   `Library/` may hold one) made `status` and every query wait for good, opening it to read; an
   8 GB `index.json` (a sparse file) took `status` past 60 s and 16 GB of memory. Each is read
   as a regular file of at most `STATE_FILE_MAX` bytes; else it is damage, which `index` rebuilds.
4. `serve` over stdio read each line whole, however long: a 600 MB line (a file piped in by
   mistake, a client's runaway message) under 1.5 GB of address space failed the reading thread,
   which stopped reading, and the client waited for good for the answer to its next request. A
   line over `MAX_LINE` bytes (4 MB, as over HTTP) is read to its end and dropped, and answered.
"""

from __future__ import annotations

import json
import os
import resource
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx2 as httpx

from indexer.files import STATE_FILE_MAX
from mcp_adapter.http_connections import REQUEST_SECONDS
from mcp_adapter.stdio import MAX_LINE

from .conftest import REPO, indexed_copy, meta, mono_script, run_cli, write_project

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INIT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
OPEN = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT}
OPEN_FILES = 64  # the server's limit of open files (soft), far under the connections held
LIMIT_SAID = (
    f"too many open files ({OPEN_FILES}, `ulimit -n`): new connections wait until some close; raise the"
    " limit if this repeats (said at most once a minute)"
)


def _few_open_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (OPEN_FILES, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


def _serve_http(root: Path) -> tuple[subprocess.Popen, int, list[str]]:
    """`serve --transport http` on a port the system chooses, under OPEN_FILES; its log lines are
    read into the list returned as they come (a full pipe would stop the server)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "indexer.cli", "serve", "--transport", "http", "--port", "0", "--project", str(root)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_few_open_files,
    )
    first = proc.stderr.readline()
    while "/mcp" not in first and first:
        first = proc.stderr.readline()
    assert "/mcp" in first, first
    logs: list[str] = []
    threading.Thread(target=lambda: logs.extend(iter(proc.stderr.readline, "")), daemon=True).start()
    port = int(first.rsplit(":", 1)[1].split("/")[0])
    deadline = time.monotonic() + 20  # (it listens before the line is logged: one connect is enough)
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except ConnectionRefusedError:
            time.sleep(0.05)
    return proc, port, logs


def _project(tmp_path: Path) -> Path:
    return write_project(
        tmp_path / "Game",
        {"Assets/Player.cs": mono_script("Player", "public int hp;"), "Assets/Player.cs.meta": meta("a1" * 16)},
    )


def _closed_by_server(s: socket.socket, within: float) -> bool:
    """Whether the server closes `s` (unanswered) within `within` seconds: an end of stream, or a
    reset (a socket closed with what it was sent unread)."""
    s.settimeout(within)
    try:
        return s.recv(100) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def _refresh_out_of_files(line: str) -> bool:
    """The background refresh's one line when it ran out of open files in the burst (it is tried
    again later): the server's own work, not a line about the connections."""
    return "updating the index of" in line and "may have no more files open" in line


def test_connections_that_send_no_whole_request_never_keep_a_client_out(tmp_path: Path) -> None:
    """Twice as many connections as the server may open files, each sending the start of a request
    head and no more: a client's `initialize` is answered at once while they are still open on our
    side, each of them is closed by the server, and the log says nothing of them but, if a burst
    of them reached the limit of open files, one line saying so (and, if the index's background
    refresh ran then, its own line saying it had no more files: seen once in a CI run)."""
    proc, port, logs = _serve_http(_project(tmp_path))
    held: list[socket.socket] = []
    try:
        url = f"http://127.0.0.1:{port}/mcp"
        assert httpx.post(url, json=OPEN, headers=HEADERS, timeout=30).status_code == 200
        before = len(logs)
        for _ in range(2 * OPEN_FILES):
            held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
            held[-1].sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        started = time.monotonic()
        answer = httpx.post(url, json=OPEN, headers=HEADERS, timeout=REQUEST_SECONDS + 20)
        assert answer.status_code == 200 and "serverInfo" in answer.text
        assert time.monotonic() - started < 5
        assert all(_closed_by_server(s, REQUEST_SECONDS + 10) for s in held)
        said = [line for line in logs[before:] if "session ID" not in line and not _refresh_out_of_files(line)]
        assert said in ([], [f"unity-index: {LIMIT_SAID}\n"]), said[:8]
    finally:
        for s in held:
            s.close()
        proc.terminate()
        proc.wait(timeout=20)


def test_a_connection_without_a_whole_request_is_closed_after_its_deadline_and_an_event_stream_is_not(
    tmp_path: Path,
) -> None:
    """A connection that sent nothing and one that sent half a head are kept REQUEST_SECONDS and
    then closed; a session's event stream (GET, answered at once and open for good) stays open."""
    proc, port, _ = _serve_http(_project(tmp_path))
    try:
        opened = httpx.post(f"http://127.0.0.1:{port}/mcp", json=OPEN, headers=HEADERS, timeout=30)
        stream = socket.create_connection(("127.0.0.1", port), timeout=5)
        stream.sendall(
            f"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n"
            f"Mcp-Protocol-Version: 2025-11-25\r\nMcp-Session-Id: {opened.headers['mcp-session-id']}\r\n\r\n".encode()
        )
        assert stream.recv(100).startswith(b"HTTP/1.1 200 OK")
        silent = socket.create_connection(("127.0.0.1", port), timeout=5)
        half = socket.create_connection(("127.0.0.1", port), timeout=5)
        half.sendall(b"POST /mcp HTTP/1.1\r\nHost: 12")
        assert not _closed_by_server(silent, REQUEST_SECONDS - 2)
        assert _closed_by_server(silent, 5) and _closed_by_server(half, 1)
        assert not _closed_by_server(stream, 2)
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _run_in(encoding: str, *args: str) -> subprocess.CompletedProcess:
    """The CLI with its standard streams in `encoding`, their bytes kept as written."""
    return subprocess.run(
        [sys.executable, "-m", "indexer.cli", *args],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1", "PYTHONIOENCODING": encoding},
        capture_output=True,
        timeout=120,
    )


def test_answers_naming_characters_the_output_s_encoding_lacks_are_written_escaped(tmp_path: Path) -> None:
    """A script named in Japanese with an emoji in a comment: under cp1252 `query` and `describe`
    print the characters cp1252 lacks as `\\uXXXX` (exit 0), and `--json` is the JSON the UTF-8
    run prints, in ASCII."""
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/攻撃.cs": "using UnityEngine;\n// 攻撃 😀 café\n"
            "public class Kougeki : MonoBehaviour { public int 攻撃力; }\n",
            "Assets/攻撃.cs.meta": meta("b2" * 16),
        },
    )
    assert _run_in("utf-8", "index", "--project", str(root)).returncode == 0
    query = _run_in("cp1252", "query", "攻撃", "--project", str(root))
    assert (query.returncode, query.stderr) == (0, b"")
    assert query.stdout.decode("cp1252").splitlines()[0] == (" 1. Assets/\\u653b\\u6483.cs:3  [csharp] Kougeki  (1.61)")
    described = _run_in("cp1252", "describe", "Assets/攻撃.cs", "--project", str(root))
    assert described.returncode == 0 and "  L3 public int \\u653b\\u6483\\u529b" in described.stdout.decode("cp1252")
    for args in (("describe", "Assets/攻撃.cs"), ("query", "攻撃 😀")):
        utf8 = _run_in("utf-8", *args, "--json", "--project", str(root))
        ascii_json = _run_in("cp1252", *args, "--json", "--project", str(root))
        assert ascii_json.returncode == 0 and ascii_json.stdout.isascii()
        assert json.loads(ascii_json.stdout) == json.loads(utf8.stdout.decode("utf-8"))
    assert b'"query":"\\u653b\\u6483 \\ud83d\\ude00"' in ascii_json.stdout.split(b"}")[0]  # the last: query


def _memory_bounded() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def _run_bounded(*args: str) -> subprocess.CompletedProcess:
    """The CLI under 2 GB of address space, given 60 s."""
    return subprocess.run(
        [sys.executable, "-m", "indexer.cli", *args],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_memory_bounded,
    )


def test_a_pipe_or_a_huge_file_in_place_of_an_index_file_is_damage_index_rebuilds(tmp_path: Path) -> None:
    """Each state file in turn replaced by a named pipe, then index.json by an 8 GB sparse file:
    `status` says the index is damaged or answers (never waits), `query` answers after it rebuilds
    what it reads as damage, and `index` writes the file again (but the editor journal's position,
    which it leaves)."""
    root = indexed_copy(tmp_path)
    folder = root / "Library/UnityIndex"
    said = {}
    for name in ("index.json", "settings.json", "integrity.json", "journal.pos", "tantivy/meta.json"):
        if name.startswith("tantivy/"):
            name = f"{next(folder.glob('gen-*')).name}/{name}"
        (folder / name).unlink(missing_ok=True)
        os.mkfifo(folder / name)
        status = _run_bounded("status", "--project", str(root))
        query = _run_bounded("query", "player health", "--project", str(root))
        said[name.split("/", 1)[-1]] = (status.returncode, query.returncode, "PlayerHealth.cs" in query.stdout)
        if name == "index.json":
            assert "damaged (index.json is unreadable)" in status.stdout
        if name.endswith("meta.json"):
            assert "damaged (full-text index: tantivy/meta.json" in query.stderr
        assert run_cli("index", "--project", str(root)).returncode == 0
        if name == "journal.pos":  # written only beside a running editor: the pipe stays, harmless
            (folder / name).unlink()
        rewritten = folder / name.replace(name.split("/")[0], next(folder.glob("gen-*")).name, name.count("/") > 1)
        assert rewritten.is_file() or name == "journal.pos", name
    answered = (0, 0, True)
    assert said == {
        "index.json": answered,  # read as no index: the query builds one
        "settings.json": answered,  # read as unknown settings: the query rebuilds
        "integrity.json": answered,  # no fingerprint: the update checks the index in full
        "journal.pos": answered,  # no position in the editor's journal: none is running
        "tantivy/meta.json": (0, 2, False),  # damage that queries name and `index` rebuilds
    }
    with open(folder / "index.json", "r+b") as f:
        f.truncate(8 << 30)  # far past STATE_FILE_MAX
    assert STATE_FILE_MAX < 8 << 30
    status = _run_bounded("status", "--project", str(root))
    assert status.returncode == 0 and "damaged (index.json is unreadable)" in status.stdout
    query = _run_bounded("query", "player health", "--project", str(root))
    assert query.returncode == 0 and "PlayerHealth.cs" in query.stdout
    assert (folder / "index.json").stat().st_size < 1000


def _write_lines(stdin: object, megabytes: int) -> None:
    """A line of `megabytes` MB, then `initialize`, written to `stdin` (stopped by a closed pipe)."""
    chunk = b"x" * (1 << 20)
    try:
        for _ in range(megabytes):
            stdin.write(chunk)
        stdin.write(b"\n" + json.dumps(OPEN).encode() + b"\n")
        stdin.flush()
    except (BrokenPipeError, ValueError):
        return


def test_a_stdio_line_past_4_mb_is_dropped_and_answered_and_the_next_request_answered(tmp_path: Path) -> None:
    """A 600 MB line, then `initialize`, to a server under 1.5 GB of address space: the line is
    answered as an invalid request with no id, `initialize` as ever."""
    root = write_project(tmp_path / "Game", {"Assets/Player.cs": mono_script("Player", "public int hp;")})

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20))

    proc = subprocess.Popen(
        [sys.executable, "-m", "indexer.cli", "serve", "--project", str(root)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        preexec_fn=limited,
    )
    answers: list[bytes] = []
    threading.Thread(target=lambda: answers.extend(iter(proc.stdout.readline, b"")), daemon=True).start()
    try:
        writer = threading.Thread(target=_write_lines, args=(proc.stdin, 600), daemon=True)
        writer.start()  # in a thread: a server that stops reading blocks it, not the test
        deadline = time.monotonic() + 60
        while len(answers) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(answers) == 2, answers  # (none came: the server had stopped reading)
        assert json.loads(answers[0]) == {
            "jsonrpc": "2.0",
            "id": None,
            "error": {
                "code": -32600,
                "message": f"Invalid Request: a message may be at most {MAX_LINE:,} bytes (4 MB); a longer line"
                " was read to its end and dropped",
            },
        }
        assert json.loads(answers[1])["id"] == 1 and "serverInfo" in json.loads(answers[1])["result"]
    finally:
        proc.kill()
        proc.wait(timeout=20)
