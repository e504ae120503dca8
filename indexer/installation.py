"""How this copy of unity-index was installed, so messages give the command that works for it:
`pipx inject unity-index X` in a pipx environment, `uv tool install --with X` in a uv tool
environment, `<this python> -m pip install X` elsewhere."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import PurePath, PurePosixPath, PureWindowsPath


def _path(prefix: str, windows: bool) -> PurePath:
    return PureWindowsPath(prefix) if windows else PurePosixPath(prefix)


def manager(prefix: str = sys.prefix, windows: bool = os.name == "nt") -> str:
    """`pipx`, `uv` or `pip`, from the environment's folder: pipx keeps its environments in
    `.../pipx/venvs/<name>` (`%USERPROFILE%\\pipx\\venvs\\<name>` on Windows), uv in
    `.../uv/tools/<name>` (`%APPDATA%\\uv\\data\\tools\\<name>`)."""
    parts = [p.lower() for p in _path(prefix, windows).parts]
    if len(parts) >= 3 and parts[-2] == "venvs" and any("pipx" in p for p in parts[:-2]):
        return "pipx"
    if len(parts) >= 3 and parts[-2] == "tools" and "uv" in parts[:-2]:
        return "uv"
    return "pip"


def add_package(
    package: str, prefix: str = sys.prefix, executable: str = sys.executable, windows: bool = os.name == "nt"
) -> str:
    """The command that adds `package` to the environment unity-index runs in."""
    kind = manager(prefix, windows)
    if kind == "pipx":
        argv = ["pipx", "inject", _path(prefix, windows).name, package]
    elif kind == "uv":
        argv = ["uv", "tool", "install", "--with", package, "<the source you installed unity-index from>"]
    else:
        argv = [executable, "-m", "pip", "install", package]
    return subprocess.list2cmdline(argv) if windows else shlex.join(argv)
