"""The settings an index was built with, kept beside it (`settings.json`).

`exclude`, `include_package_cache` and `max_file_mb` decide which files are indexed and which are
parsed, yet changing them changes no file's stat, and git lists none of the files a new pattern
covers: without this record the next update would find nothing to do. An update under other
settings rebuilds; `index --check` counts the files a new size cap parses or skips as changed.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from indexer.config import CONFIG_FILE, Config, ConfigError, load_config, served_project
from indexer.files import atomic_write, read_state
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths

_FILE = "settings.json"


class BuiltWith(msgspec.Struct, frozen=True):
    exclude: tuple[str, ...]
    include_package_cache: bool
    max_file_mb: float


def of(config: Config) -> BuiltWith:
    return BuiltWith(config.exclude, config.include_package_cache, config.max_file_mb)


def load(ipaths: IndexPaths) -> BuiltWith | None:
    """The settings of the last update; None when unknown (no index, or a writer stopped before it recorded them)."""
    try:
        return msgspec.json.decode(read_state(ipaths.root / _FILE), type=BuiltWith)
    except (OSError, msgspec.DecodeError, RecursionError):
        return None


def differ(ipaths: IndexPaths, config: Config) -> bool:
    """Whether the index was built under other settings, or under unknown ones: every index of
    this format records them, so none recorded means a writer was stopped between its commit and
    `save` (they counted as the same, and in a git work tree, which lists none of the files a new
    `exclude` covers, those files were kept for good while `index --check` called it stale)."""
    return load(ipaths) != of(config)


class _Saved(BuiltWith, frozen=True):
    project: str = ""  # the project the index serves (config._served_project reads it)


def save(ipaths: IndexPaths, config: Config, root: Path) -> None:
    """Record the settings, and the project, once an update under them is committed."""
    built = of(config)
    saved = _Saved(*msgspec.structs.astuple(built), project=served_project(root))
    try:
        if msgspec.json.decode(read_state(ipaths.root / _FILE), type=_Saved) == saved:
            return
    except (OSError, msgspec.DecodeError, RecursionError):
        pass
    atomic_write(ipaths.root / _FILE, msgspec.json.encode(saved), follow_symlinks=False)


def recapped(ipaths: IndexPaths, config: Config, reader: Records) -> list[str]:
    """The recorded files that a changed `max_file_mb` now parses or skips: those sized between
    the old cap and the new one."""
    saved = load(ipaths)
    if saved is None or saved.max_file_mb == config.max_file_mb:
        return []
    low, high = sorted(int(mb * 1024 * 1024) for mb in (saved.max_file_mb, config.max_file_mb))
    return sorted(p for p, s in reader.stats().items() if low < s.size <= high)


class SettingsChanged(Exception):
    """`unity-index.toml` now chooses other files than the settings a long-running process (watch,
    the MCP server) started with: its next update would rebuild the index under the old ones,
    undoing the `index` a user ran under the new, and every query after would rebuild it back."""


def check_unchanged(root: Path, config: Config) -> None:
    """SettingsChanged when the project's `unity-index.toml` no longer gives `config`'s settings."""
    try:
        now = of(load_config(root))
    except ConfigError as exc:
        raise SettingsChanged(f"{CONFIG_FILE} changed and is no longer valid ({exc}); fix it and restart") from None
    if now != of(config):
        raise SettingsChanged(
            f"{CONFIG_FILE} changed since this process started (exclude, include_package_cache or max_file_mb):"
            " restart it to index under the new settings"
        )
