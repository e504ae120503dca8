"""The user's home folder, found as the coding agents find theirs.

Python's `Path.home()` raised RuntimeError where HOME is unset and the user has no entry in the
password database (a container started with `--user 12345`), an internal error of every command
reading a `unity-index.toml`, of `doctor` and of `mcp install`; and where HOME is set but empty it
answered `/`, so `mcp install` wrote `/.codex/config.toml`, which no client reads. The clients
(Node's `os.homedir()`, Rust's `home_dir()`) take HOME when it is not empty, else the password
database's entry; so does `home_folder`, None when neither gives a folder.
"""

from __future__ import annotations

import os
from pathlib import Path


def home_folder() -> Path | None:
    """HOME when set and not empty, else the user's entry in the password database (on Windows,
    Python's own answer); None when there is no such folder to name."""
    if os.name == "nt":
        try:
            return Path.home()
        except RuntimeError:
            return None
    if os.environ.get("HOME"):
        return Path(os.environ["HOME"])
    import pwd

    try:
        entry = pwd.getpwuid(os.getuid()).pw_dir
    except KeyError:
        return None
    return Path(entry) if entry else None


def no_home() -> str:
    """Why `home_folder` found none, in words."""
    home = "empty" if "HOME" in os.environ else "not set"
    user = f"user {os.getuid()}" if hasattr(os, "getuid") else "the user"
    return f"HOME is {home} and {user} has no home folder in the password database"


def expand_home(text: str) -> str | None:
    """`~` or `~/...` under `home_folder`, `~name/...` under that user's; None for a home unknown."""
    head, sep, rest = text.partition("/")
    if head != "~":
        expanded = os.path.expanduser(text)
        return None if expanded.startswith("~") else expanded
    home = home_folder()
    return None if home is None else str(home / rest) if sep else str(home)
