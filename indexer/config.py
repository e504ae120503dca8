"""Per-project settings. Passed in explicitly; nothing reads global state."""

from __future__ import annotations

from pathlib import Path

import msgspec

DEFAULT_INDEX_DIR = "Library/UnityIndex"
DEFAULT_MAX_FILE_BYTES = 50 * 1024 * 1024


class Config(msgspec.Struct, frozen=True):
    index_dir: str = DEFAULT_INDEX_DIR  # relative to the project root, or absolute
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES  # larger files are recorded, not parsed
    exclude: tuple[str, ...] = ()  # extra glob patterns (project-relative, forward slashes)
    workers: int = 0  # scanner processes; 0 = one per core

    def index_path(self, root: Path) -> Path:
        p = Path(self.index_dir)
        return p if p.is_absolute() else root / p
