"""Install hints follow how unity-index was installed (pipx, uv, pip), on Linux and Windows paths."""

from __future__ import annotations

import pytest

from indexer.installation import add_package, manager

from .conftest import run_cli


@pytest.mark.parametrize(
    ("prefix", "windows", "expected"),
    [
        ("/home/ana/.local/share/pipx/venvs/unity-index", False, "pipx"),
        ("/home/ana/.local/pipx/venvs/unity-index", False, "pipx"),
        ("C:\\Users\\Ana\\pipx\\venvs\\unity-index", True, "pipx"),
        ("/home/ana/.local/share/uv/tools/unity-index", False, "uv"),
        ("C:\\Users\\Ana\\AppData\\Roaming\\uv\\data\\tools\\unity-index", True, "uv"),
        ("/home/ana/src/unity-index/.venv", False, "pip"),
        ("/usr", False, "pip"),
        ("C:\\Python311", True, "pip"),
    ],
)
def test_manager(prefix: str, windows: bool, expected: str) -> None:
    assert manager(prefix, windows) == expected


def test_add_package_commands() -> None:
    pipx = "/home/ana/.local/share/pipx/venvs/unity-index"
    assert add_package("bpe-openai", pipx, "/x/bin/python", windows=False) == "pipx inject unity-index bpe-openai"
    assert add_package("tree-sitter>=0.25,<0.27", pipx, "/x/bin/python", windows=False) == (
        "pipx inject unity-index 'tree-sitter>=0.25,<0.27'"
    )
    win = add_package("bpe-openai", "C:\\Users\\Ana\\pipx\\venvs\\unity-index", "python.exe", windows=True)
    assert win == "pipx inject unity-index bpe-openai"
    venv = add_package("bpe-openai", "/p/.venv", "/p/.venv/bin/python", windows=False)
    assert venv == "/p/.venv/bin/python -m pip install bpe-openai"
    spaced = add_package("bpe-openai", "C:\\My Tools\\venv", "C:\\My Tools\\venv\\Scripts\\python.exe", windows=True)
    assert spaced == '"C:\\My Tools\\venv\\Scripts\\python.exe" -m pip install bpe-openai'


def test_tokenizer_hint_names_the_command_for_this_installation(tmp_path) -> None:
    try:
        import bpe_openai  # noqa: F401

        pytest.skip("bpe-openai is installed here: there is no hint to give")
    except ImportError:
        pass
    from .conftest import write_project

    root = write_project(tmp_path / "P", {"Assets/A.cs": "class A {}"})
    r = run_cli("context", "x", "--tokenizer", "o200k_base", "--project", str(root))
    assert r.returncode == 2
    assert r.stderr == f"error: tokenizer o200k_base needs the bpe-openai package: {add_package('bpe-openai')}\n"
