"""A quiet HTTP handler answering JSON: the base of the fake Unity editors the tests serve."""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


class JsonHandler(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def _answer(self, status: int, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class Dripping(JsonHandler):
    """An answer announced whole (100,000 bytes), then sent a byte every 0.1 s, for longer than any
    call waits: a client must give up on its own deadline."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "100000")
        self.end_headers()
        with contextlib.suppress(OSError):
            for _ in range(100000):
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(0.1)

    do_POST = do_GET


def write_heartbeat(root: Path, **fields: Any) -> None:
    """An editor heartbeat for the project at `root`, written whole at once (a reader never sees
    half of it): ready, dated now, this process's pid, unless `fields` say otherwise."""
    beat = {"protocol": 1, "port": 1, "token": "a" * 64, "pid": os.getpid(), "state": "ready"}
    path = root / "Library/UnityIndex/editor.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = path.with_name(f"editor.json.{threading.get_ident()}.tmp")
    fresh.write_text(json.dumps({**beat, "updated_at": time.time(), **fields}))
    os.replace(fresh, path)


@contextmanager
def serving_editor(root: Path, handler: type[BaseHTTPRequestHandler], token: str) -> Iterator[None]:
    """A fake editor bridge for `root` on loopback: `handler` answers, and a heartbeat naming its
    port and `token` is kept fresh every second, as the editor keeps it (one dated ahead would be
    refused as stale)."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    stop = threading.Event()

    def beat_on() -> None:
        while True:
            write_heartbeat(root, port=httpd.server_address[1], token=token)
            if stop.wait(1.0):
                return

    beating = threading.Thread(target=beat_on, daemon=True)
    beating.start()
    try:
        yield
    finally:
        stop.set()
        beating.join()
        httpd.shutdown()
        httpd.server_close()
