"""`unity-index completion bash|zsh|fish`: scripts generated from the whole parser (plugin commands
included) that the shells accept and that complete what the parser knows."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from indexer.cli.completion import commands
from indexer.cli.main import _debug_everywhere, _load_plugins, build_parser

from .conftest import run_cli

TOP = ["index", "query", "context", "refs", "describe", "status", "watch", "hook", "agents", "doctor", "completion"]
PLUGINS = ["editor", "serve", "mcp"]


def _tree():
    parser = build_parser()
    _load_plugins(parser)
    _debug_everywhere(parser)
    return commands(parser)


def _script(shell: str) -> str:
    r = run_cli("completion", shell)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_the_tree_holds_builtin_and_plugin_commands() -> None:
    tree = {" ".join(c.path): c for c in _tree()}
    assert list(tree[""].subcommands) == TOP + PLUGINS
    assert tree["mcp"].subcommands == ("install",) and tree["editor"].subcommands == ("tools", "call")
    assert tree["hook"].positional_choices == ("install", "uninstall")
    client = next(o for o in tree["mcp install"].options if "--client" in o.flags)
    assert client.choices == ("claude-code", "claude-desktop", "cursor", "vscode", "codex", "gemini", "windsurf")


def _complete(tmp_path: Path, *words: str) -> list[str]:
    """What bash offers after `words` (the last one being completed)."""
    script = tmp_path / "c.bash"
    script.write_text(_script("bash"))
    quoted = " ".join(f"'{w}'" for w in words)
    probe = (
        f"source {script}; COMP_WORDS=(unity-index {quoted}); COMP_CWORD={len(words)}; _unity_index; "
        'printf "%s\\n" "${COMPREPLY[@]}"'
    )
    out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, check=True).stdout
    return out.split()


def test_bash_script_is_valid_and_completes(tmp_path: Path) -> None:
    text = _script("bash")
    (tmp_path / "c.bash").write_text(text)
    assert subprocess.run(["bash", "-n", str(tmp_path / "c.bash")], capture_output=True).returncode == 0
    assert text.endswith("complete -o default -F _unity_index unity-index\n")
    for cmd in _tree():  # every command (built-in or contributed) has its branch
        assert f"\n        {shlex.quote(' '.join(cmd.path))})\n" in text, cmd.path
    assert _complete(tmp_path, "") == TOP + PLUGINS
    assert _complete(tmp_path, "mcp", "") == ["install"]
    assert _complete(tmp_path, "editor", "") == ["tools", "call"]
    assert _complete(tmp_path, "hook", "") == ["install", "uninstall"]
    assert _complete(tmp_path, "completion", "") == ["bash", "zsh", "fish"]
    assert _complete(tmp_path, "serve", "--transport", "") == ["stdio", "http"]
    assert _complete(tmp_path, "mcp", "install", "--scope", "") == ["project", "user"]
    assert _complete(tmp_path, "query", "health", "--l") == ["--limit"]
    assert _complete(tmp_path, "query", "health", "--kind", "pre") == ["prefab"]
    assert "csharp" in _complete(tmp_path, "query", "health", "--kind", "")
    assert _complete(tmp_path, "context", "task", "--tokenizer", "") == [
        "auto",
        "estimate",
        "o200k_base",
        "cl100k_base",
    ]
    assert _complete(tmp_path, "--project", str(tmp_path), "st") == ["status"]
    assert _complete(tmp_path, "doctor", "--") == ["--help", "--project", "--json", "--debug"]
    folders = _complete(tmp_path, "index", "--project", str(tmp_path) + "/")
    assert folders == []  # no sub-folders there; files are never offered for --project
    (tmp_path / "Game").mkdir()
    assert _complete(tmp_path, "status", "--project", str(tmp_path / "Ga")) == [str(tmp_path / "Game")]


def test_zsh_script(tmp_path: Path) -> None:
    text = _script("zsh")
    assert text.startswith("#compdef unity-index\n")
    assert "autoload -U +X bashcompinit && bashcompinit\n" in text
    assert "complete -o default -F _unity_index unity-index\n" in text
    if shutil.which("zsh") is None:
        pytest.skip("zsh is not installed here: its syntax check did not run (the content was checked)")
    (tmp_path / "c.zsh").write_text(text)
    assert subprocess.run(["zsh", "-n", str(tmp_path / "c.zsh")], capture_output=True).returncode == 0


def test_fish_script(tmp_path: Path) -> None:
    text = _script("fish")
    lines = text.splitlines()
    for name in TOP + PLUGINS:
        assert f"complete -c unity-index -n __fish_use_subcommand -a {name}" in lines
    assert (
        "complete -c unity-index -n '__fish_seen_subcommand_from mcp; and not __fish_seen_subcommand_from install'"
        " -a install"
    ) in lines
    assert (
        "complete -c unity-index -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from install'"
        " -l client -x -a 'claude-code claude-desktop cursor vscode codex gemini windsurf'"
    ) in lines
    assert (
        "complete -c unity-index -n '__fish_seen_subcommand_from query'"
        " -l project -x -a '(__fish_complete_directories)'"
    ) in lines
    assert "complete -c unity-index -n '__fish_seen_subcommand_from describe' -F" in lines
    if shutil.which("fish") is None:
        pytest.skip("fish is not installed here: its syntax check did not run (the content was checked)")
    (tmp_path / "c.fish").write_text(text)
    assert subprocess.run(["fish", "-n", str(tmp_path / "c.fish")], capture_output=True).returncode == 0


def test_the_zsh_script_declares_no_variable_zsh_ties_to_path() -> None:
    """zsh runs the bash function through bashcompinit; a `local path` there is zsh's array tied
    to PATH, emptied for the function (zsh itself is not installed here to run it)."""
    import re

    script = run_cli("completion", "zsh").stdout
    assert script.startswith("#compdef unity-index")
    assert not re.search(r"\blocal\b[^\n]*\bpath=", script)
    assert not re.search(r"(?<![\w_])\$path\b", script)


def test_bash_offers_a_folder_with_spaces_in_its_name_as_one_word(tmp_path: Path) -> None:
    """`--project My<Tab>` offers `My Game`, not the two words `My` and `Game` (unity projects are
    often named so); each offer is one line of COMPREPLY."""
    (tmp_path / "My Game").mkdir()
    (tmp_path / "My Other Game").mkdir()
    script = tmp_path / "c.bash"
    script.write_text(_script("bash"))
    probe = (
        f"source {script}; COMP_WORDS=(unity-index status --project {shlex.quote(str(tmp_path / 'My'))}); "
        'COMP_CWORD=3; _unity_index 2>/dev/null; printf "%s\\n" "${COMPREPLY[@]}"'
    )
    out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, check=True).stdout
    assert sorted(out.splitlines()) == [str(tmp_path / "My Game"), str(tmp_path / "My Other Game")]


def _zsh_tab(tmp_path: Path, typed: str) -> bytes:
    """What an interactive zsh, with our `_unity-index` on $fpath and compinit, echoes after the
    first Tab of the session (through a pseudo-terminal)."""
    import os
    import pty
    import select
    import time

    (tmp_path / "fn").mkdir()
    (tmp_path / "fn" / "_unity-index").write_text(_script("zsh"))
    (tmp_path / ".zshrc").write_text(f"fpath=({tmp_path / 'fn'} $fpath); autoload -Uz compinit; compinit -u\n")
    pid, fd = pty.fork()
    if pid == 0:  # the child: an interactive zsh reading our .zshrc
        os.chdir(tmp_path)
        os.execve(shutil.which("zsh"), ["zsh", "-i"], {**os.environ, "ZDOTDIR": str(tmp_path), "PS1": "$ "})

    def read(seconds: float, until: bytes = b"") -> bytes:
        out, end = b"", time.time() + seconds
        while time.time() < end and not (until and until in out):
            if select.select([fd], [], [], 0.1)[0]:
                try:
                    out += os.read(fd, 4096)
                except OSError:
                    break
        return out

    try:
        read(3, b"$ ")
        os.write(fd, typed.encode() + b"\t")
        return read(5, b"status")
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed here")
def test_zsh_completes_on_the_first_tab_of_a_session(tmp_path: Path) -> None:
    """docs/cli.md: the zsh script goes in a file `_unity-index` on $fpath. compinit loads it on
    the first Tab, which defined the functions and completed nothing (a beep); it completes."""
    assert b"unity-index status" in _zsh_tab(tmp_path, "unity-index sta")
