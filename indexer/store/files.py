"""Writing files so that a reader or a crash never sees half of one."""

from __future__ import annotations

import os
from pathlib import Path


def atomic_write(path: Path, data: bytes, durable: bool = True) -> None:
    """Replace `path` with `data` at once; `durable`: on disk before it replaces (fsync)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            if durable:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)  # a full disk must not also leave a half-written temporary
        raise
