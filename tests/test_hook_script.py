"""The git hook script runs under any POSIX sh, Git for Windows' included (#18 item 3).

Git for Windows runs hooks with its own `sh` (bash in POSIX mode, MSYS2): no GNU-only tools can
be assumed, and the installed `unity-index` is a `Scripts\\unity-index.exe` shim, not a POSIX
venv's `bin/unity-index`. The script therefore uses no external command but unity-index itself:
here it runs under sh, dash, busybox sh and `bash --posix` with a PATH that holds nothing but a
`unity-index` shim, after the path it recorded (a Windows one) turned out not to exist.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sysconfig
from pathlib import Path, PureWindowsPath

import pytest

from indexer.changes import hooks
from indexer.changes.hooks import recorded_command, script, sh_path

SHELLS = {
    "sh": ["sh"],
    "dash": ["dash"],
    "busybox": ["busybox", "sh"],
    "bash-posix": ["bash", "--posix"],
}
WINDOWS_SHIM = "C:/Users/dev/pipx/venvs/unity-index/Scripts/unity-index.exe"


def _shell(name: str) -> list[str]:
    argv = SHELLS[name]
    exe = shutil.which(argv[0])
    if exe is None:
        if name == "sh":
            pytest.fail("no sh on PATH")
        pytest.skip(f"{argv[0]} not installed (Debian: apt-get install {argv[0]})")
    return [exe, *argv[1:]]


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8", newline="\n")
    path.chmod(0o755)
    return path


def _shim(folder: Path, log: Path) -> Path:
    """A `unity-index` that records its arguments and its stdin, using shell builtins only."""
    folder.mkdir(parents=True, exist_ok=True)
    return _write(
        folder / "unity-index",
        f'#!/bin/sh\nfor a in "$@"; do echo "arg:$a"; done >> {log}\n'
        f'while IFS= read -r line; do echo "stdin:$line"; done >> {log}\nexit 7\n',
    )


@pytest.fixture
def hook_dir(tmp_path: Path) -> Path:
    d = tmp_path / "hooks"
    d.mkdir()
    return d


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_parses_under_each_shell(shell: str, hook_dir: Path) -> None:
    hook = _write(hook_dir / "pre-commit", script(Path("/p/My Game"), command=WINDOWS_SHIM))
    r = subprocess.run([*_shell(shell), "-n", str(hook)], capture_output=True, text=True, timeout=30)
    assert (r.returncode, r.stderr) == (0, "")


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_runs_with_only_a_shim_on_path(shell: str, hook_dir: Path, tmp_path: Path) -> None:
    """The recorded (Windows) path is missing: the `unity-index` on PATH refreshes, with nothing
    else on PATH; then the chained hook gets the arguments, stdin and the last word."""
    sh = _shell(shell)
    log, chained_log = tmp_path / "shim.log", tmp_path / "chained.log"
    project = tmp_path / "My Game"
    shims = tmp_path / "shims"
    _shim(shims, log)
    hook = _write(hook_dir / "post-checkout", script(project, command=WINDOWS_SHIM))
    _write(
        hook_dir / "post-checkout.local",
        f'#!/bin/sh\nfor a in "$@"; do echo "arg:$a"; done > {chained_log}\n'
        f'while IFS= read -r line; do echo "stdin:$line"; done >> {chained_log}\nexit 3\n',
    )
    r = subprocess.run(
        [*sh, str(hook), "old", "new sha", "1"],
        input="ref line\n",
        capture_output=True,
        text=True,
        env={"PATH": str(shims)},
        timeout=60,
    )
    assert (r.returncode, r.stdout, r.stderr) == (3, "", "")  # the chained hook's status; the shim's 7 ignored
    assert log.read_text().splitlines() == [
        *("arg:index", "arg:--quiet", "arg:--wait", "arg:2", "arg:--time-limit", "arg:5"),
        *("arg:--project", f"arg:{project}"),
    ]
    assert chained_log.read_text().splitlines() == ["arg:old", "arg:new sha", "arg:1", "stdin:ref line"]


@pytest.mark.parametrize("shell", ["sh", "busybox"])
def test_the_recorded_command_comes_first(shell: str, hook_dir: Path, tmp_path: Path) -> None:
    recorded = _shim(tmp_path / "venv" / "Scripts", tmp_path / "recorded.log")
    _shim(tmp_path / "shims", tmp_path / "path.log")
    hook = _write(hook_dir / "pre-commit", script(tmp_path, command=str(recorded)))
    r = subprocess.run([*_shell(shell), str(hook)], env={"PATH": str(tmp_path / "shims")}, timeout=60)
    assert r.returncode == 0
    assert (tmp_path / "recorded.log").read_text().startswith("arg:index\n")
    assert not (tmp_path / "path.log").exists()


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_no_unity_index_anywhere_says_so_once(shell: str, hook_dir: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    hook = _write(hook_dir / "pre-commit", script(tmp_path / "Game", command=WINDOWS_SHIM))
    r = subprocess.run(
        [*_shell(shell), str(hook)], capture_output=True, text=True, env={"PATH": str(empty)}, timeout=60
    )
    assert (r.returncode, r.stdout) == (0, "")  # git goes on
    assert r.stderr == (
        f"unity-index: not found, so the index of {tmp_path / 'Game'} was not refreshed:"
        " put unity-index on PATH, or run: unity-index hook uninstall\n"
    )


def test_no_gnu_only_tools() -> None:
    text = script(Path("/p"), command="/x/unity-index")
    for tool in ("timeout", "readlink", "realpath", "sed", "flock", "stat", "xargs", "mktemp", "seq", "date"):
        assert not re.search(rf"\b{tool}\b", text), tool


def test_windows_paths_are_written_for_sh() -> None:
    assert sh_path(r"C:\Users\dev\My Game", windows=True) == "C:/Users/dev/My Game"
    assert sh_path("/home/dev/My Game", windows=False) == "/home/dev/My Game"
    text = script(
        PureWindowsPath(r"C:\Users\dev\My Game"),  # type: ignore[arg-type]
        command=r"C:\Users\dev\pipx\venvs\unity-index\Scripts\unity-index.exe",
        windows=True,
    )
    lines = text.splitlines()
    assert lines[2] == "unity_index=C:/Users/dev/pipx/venvs/unity-index/Scripts/unity-index.exe"
    assert "project='C:/Users/dev/My Game'" in lines
    assert "\\" not in text.replace("\\n", "")
    assert recorded_command(text) == "C:/Users/dev/pipx/venvs/unity-index/Scripts/unity-index.exe"


def test_installed_command_is_found_in_any_scripts_layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scripts = tmp_path / "venv" / "Scripts"  # the Windows layout, not bin/
    _shim(scripts, tmp_path / "log")
    monkeypatch.setattr(sysconfig, "get_path", lambda name: str(scripts) if name == "scripts" else "")
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    assert hooks.installed_command() == str(scripts / "unity-index")
    monkeypatch.setattr(sysconfig, "get_path", lambda name: str(tmp_path / "none"))
    assert hooks.installed_command() is None
    monkeypatch.setenv("PATH", str(scripts))
    assert hooks.installed_command() == str(scripts / "unity-index")


def test_recorded_command_of_other_texts() -> None:
    assert recorded_command("#!/bin/sh\nexit 0\n") is None
    assert recorded_command(script(Path("/p"), command="")) is None
    assert recorded_command(script(Path("/p"), command="/opt/u i/unity-index")) == "/opt/u i/unity-index"


def test_installed_hook_names_this_installation(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    hooks.install(tmp_path)
    text = (tmp_path / ".git" / "hooks" / "pre-commit").read_bytes()
    assert b"\r" not in text
    found = recorded_command(text.decode())
    assert found is not None and os.access(found, os.X_OK) and Path(found).name.startswith("unity-index")
