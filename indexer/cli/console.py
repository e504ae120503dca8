"""Terminal output for humans on stderr: messages, errors, a progress bar. stdout is for data."""

from __future__ import annotations

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

    def info(self, msg: str) -> None:
        if not self.quiet:
            print(msg, file=self.stream)

    def warn(self, msg: str) -> None:
        print(f"{self._paint('warning:', '33')} {msg}", file=self.stream)

    def error(self, msg: str) -> None:
        print(f"{self._paint('error:', '31;1')} {msg}", file=self.stream)

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
            self.stream.write(f"\r{label} [{bar}] {done}/{total}{end}")
            self.stream.flush()

        return draw
