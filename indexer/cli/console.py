"""Terminal output for humans on stderr: messages, errors, a progress bar. stdout is for data.

A message stderr cannot take (`2>/dev/full`, a full disk under a log's redirect, a closed pipe)
is dropped: it is no part of the answer, and the write's OSError ended every command that said
anything, exit 1, a query's answer unprinted and an error's exit 2 lost."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from typing import TextIO


class Console:
    def __init__(self, stream: TextIO | None = None, quiet: bool = False):
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.tty = self.stream.isatty()
        self.color = self.tty and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
        self._last_draw = 0.0

    def _paint(self, text: str, code: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.color else text

    def _say(self, text: str, end: str = "\n") -> None:
        with contextlib.suppress(OSError):
            self.stream.write(text + end)
            self.stream.flush()

    def info(self, msg: str) -> None:
        if not self.quiet:
            self._say(msg)

    def warn(self, msg: str) -> None:
        self._say(f"{self._paint('warning:', '33')} {msg}")

    def error(self, msg: str) -> None:
        self._say(f"{self._paint('error:', '31;1')} {msg}")

    def progress(self, label: str):
        """A callback (done, total) drawing a bar on a terminal; silent when stderr is not one."""

        def draw(done: int, total: int) -> None:
            if not self.tty or self.quiet:
                return
            now = time.monotonic()
            if done < total and now - self._last_draw < 0.1:
                return
            self._last_draw = now
            width = 30
            filled = width * done // max(total, 1)
            bar = "#" * filled + "-" * (width - filled)
            end = "\n" if done >= total else ""
            self._say(f"\r{label} [{bar}] {done}/{total}", end)

        return draw
