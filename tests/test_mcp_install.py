"""`unity-index mcp install`: each client's configuration file against golden text, merging into
existing files, idempotence, dry runs, and refusing files that do not parse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcp_adapter.install import CLIENTS, InstallError, config_path, install, server_command

from .conftest import run_cli, write_project


@pytest.fixture
def env(tmp_path: Path):
    home = tmp_path / "home"
    home.mkdir()
    root = write_project(tmp_path / "Game", {})
    return home, root


def cli(home: Path, root: Path, *args: str):
    return run_cli("mcp", "install", "--project", str(root), *args, env={"HOME": str(home)})


def golden_json(key: str, cmd: str, root: Path, typed: bool = False) -> str:
    type_line = '      "type": "stdio",\n' if typed else ""
    return (
        "{\n"
        f'  "{key}": {{\n'
        '    "unity-index": {\n'
        f"{type_line}"
        f'      "command": "{cmd}",\n'
        '      "args": [\n'
        '        "serve",\n'
        '        "--project",\n'
        f'        "{root}"\n'
        "      ]\n"
        "    }\n"
        "  }\n"
        "}\n"
    )


CASES = [
    ("claude-code", "project", ".mcp.json", "mcpServers"),
    ("claude-code", "user", "~/.claude.json", "mcpServers"),
    ("claude-desktop", "user", "~/.config/Claude/claude_desktop_config.json", "mcpServers"),
    ("cursor", "project", ".cursor/mcp.json", "mcpServers"),
    ("cursor", "user", "~/.cursor/mcp.json", "mcpServers"),
    ("vscode", "project", ".vscode/mcp.json", "servers"),
    ("gemini", "project", ".gemini/settings.json", "mcpServers"),
    ("gemini", "user", "~/.gemini/settings.json", "mcpServers"),
    ("windsurf", "user", "~/.codeium/windsurf/mcp_config.json", "mcpServers"),
]


def where(rel: str, home: Path, root: Path) -> Path:
    return home / rel[2:] if rel.startswith("~/") else root / rel


@pytest.mark.parametrize(("client", "scope", "rel", "key"), CASES)
def test_json_clients_golden_and_idempotent(env, client, scope, rel, key):
    home, root = env
    cmd, _ = server_command(root)
    assert cmd.endswith("unity-index")
    r = cli(home, root, "--client", client, "--scope", scope)
    assert r.returncode == 0, r.stderr
    path = where(rel, home, root)
    assert f"wrote {path} ({client}, {scope} scope)" in r.stdout
    first = path.read_bytes()
    assert first.decode() == golden_json(key, cmd, root.resolve(), typed=client == "vscode")
    again = cli(home, root, "--client", client, "--scope", scope)
    assert again.returncode == 0, again.stderr
    assert "already configured" in again.stdout
    assert path.read_bytes() == first
    # Only that one file was created.
    created = sorted(p for p in (*home.rglob("*"), *root.rglob("*")) if p.is_file())
    assert created == [path]


@pytest.mark.parametrize(
    ("client", "scope"),
    [
        ("claude-code", "project"),
        ("vscode", "project"),
        ("codex", "user"),
        ("claude-desktop", "user"),
        ("windsurf", "user"),
        ("gemini", "project"),
    ],
)
def test_default_scope(env, client, scope):
    home, root = env
    r = cli(home, root, "--client", client)
    assert r.returncode == 0, r.stderr
    assert f"({client}, {scope} scope)" in r.stdout


def test_codex_golden_and_idempotent(env):
    home, root = env
    cmd, _ = server_command(root)
    r = cli(home, root, "--client", "codex")
    assert r.returncode == 0, r.stderr
    path = home / ".codex" / "config.toml"
    first = path.read_bytes()
    assert first.decode() == (
        f'[mcp_servers.unity-index]\ncommand = "{cmd}"\nargs = ["serve", "--project", "{root.resolve()}"]\n'
    )
    assert cli(home, root, "--client", "codex").returncode == 0
    assert path.read_bytes() == first


def test_codex_keeps_other_tables_and_replaces_ours(env):
    home, root = env
    cmd, _ = server_command(root)
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    before = (
        'model = "o3"  # keep this comment\n'
        "\n"
        "[mcp_servers.other]\n"
        'command = "other-server"\n'
        'args = ["--x"]\n'
        "\n"
        "[mcp_servers.unity-index]\n"
        'command = "/old/unity-index"\n'
        'args = ["serve"]\n'
        "enabled = true\n"
        "\n"
        "# profiles below\n"
        "[profiles.fast]\n"
        'model = "o4-mini"\n'
    )
    path.write_text(before)
    r = cli(home, root, "--client", "codex")
    assert r.returncode == 0, r.stderr
    expected = before.replace(
        '[mcp_servers.unity-index]\ncommand = "/old/unity-index"\nargs = ["serve"]\nenabled = true\n',
        f'[mcp_servers.unity-index]\ncommand = "{cmd}"\nargs = ["serve", "--project", "{root.resolve()}"]\n',
    )
    assert expected != before
    assert path.read_text() == expected
    assert cli(home, root, "--client", "codex").returncode == 0
    assert path.read_text() == expected


def test_codex_appends_to_existing_file(env):
    home, root = env
    cmd, _ = server_command(root)
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    before = '[mcp_servers.other]\ncommand = "x"\n\n[tui]\nnotifications = true'  # no final newline
    path.write_text(before)
    assert cli(home, root, "--client", "codex").returncode == 0
    assert path.read_text() == before + (
        f'\n\n[mcp_servers.unity-index]\ncommand = "{cmd}"\nargs = ["serve", "--project", "{root.resolve()}"]\n'
    )


def test_codex_crlf_kept(env, tmp_path):
    home, root = env
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    path.write_bytes(b'model = "o3"\r\n')
    install("codex", root, home=home)
    data = path.read_bytes()
    assert data.startswith(b'model = "o3"\r\n\r\n[mcp_servers.unity-index]\r\n')
    assert b"\n" not in data.replace(b"\r\n", b"")


def test_codex_inline_definition_refused(env):
    home, root = env
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    before = '[mcp_servers]\nunity-index = { command = "x" }\n'
    path.write_text(before)
    r = cli(home, root, "--client", "codex")
    assert r.returncode == 2
    assert "does not edit" in r.stderr
    assert path.read_text() == before


def test_json_merge_keeps_other_servers_and_keys(env):
    home, root = env
    cmd, _ = server_command(root)
    path = home / ".claude.json"
    existing = {
        "numStartups": 12,
        "projects": {"/x": {"allowedTools": []}},
        "mcpServers": {
            "github": {"command": "gh-mcp", "args": []},
            "unity-index": {"command": "/old", "args": ["serve"], "env": {"A": "1"}},
        },
        "theme": "dark",
    }
    path.write_text(json.dumps(existing))  # compact: reformatted with indent 2 on write
    r = cli(home, root, "--client", "claude-code", "--scope", "user")
    assert r.returncode == 0, r.stderr
    assert path.read_text() == (
        "{\n"
        '  "numStartups": 12,\n'
        '  "projects": {\n'
        '    "/x": {\n'
        '      "allowedTools": []\n'
        "    }\n"
        "  },\n"
        '  "mcpServers": {\n'
        '    "github": {\n'
        '      "command": "gh-mcp",\n'
        '      "args": []\n'
        "    },\n"
        '    "unity-index": {\n'
        f'      "command": "{cmd}",\n'
        '      "args": [\n'
        '        "serve",\n'
        '        "--project",\n'
        f'        "{root.resolve()}"\n'
        "      ],\n"
        '      "env": {\n'
        '        "A": "1"\n'
        "      }\n"
        "    }\n"
        "  },\n"
        '  "theme": "dark"\n'
        "}\n"
    )
    first = path.read_bytes()
    assert cli(home, root, "--client", "claude-code", "--scope", "user").returncode == 0
    assert path.read_bytes() == first


def test_vscode_merge_keeps_inputs(env):
    home, root = env
    path = root / ".vscode" / "mcp.json"
    path.parent.mkdir()
    path.write_text(
        '{\n  "inputs": [],\n  "servers": {\n    "py": {\n      "type": "stdio",\n      "command": "p"\n    }\n  }\n}\n'
    )
    assert cli(home, root, "--client", "vscode").returncode == 0
    data = json.loads(path.read_text())
    assert list(data) == ["inputs", "servers"]
    assert list(data["servers"]) == ["py", "unity-index"]
    assert data["servers"]["unity-index"]["type"] == "stdio"


def test_already_configured_file_in_other_formatting_untouched(env):
    home, root = env
    cmd, args = server_command(root.resolve())
    path = root / ".mcp.json"
    text = json.dumps({"mcpServers": {"unity-index": {"command": cmd, "args": args}}}, indent=4)
    path.write_text(text)
    r = cli(home, root, "--client", "claude-code")
    assert r.returncode == 0, r.stderr
    assert "already configured" in r.stdout
    assert path.read_text() == text


def test_dry_run_writes_nothing(env):
    home, root = env
    cmd, _ = server_command(root)
    r = cli(home, root, "--client", "cursor", "--scope", "user", "--dry-run")
    assert r.returncode == 0, r.stderr
    path = home / ".cursor" / "mcp.json"
    assert r.stdout == f"would write {path} (cursor, user scope):\n" + golden_json("mcpServers", cmd, root.resolve())
    assert not path.exists() and not path.parent.exists()
    r = cli(home, root, "--client", "codex", "--dry-run")
    assert r.returncode == 0 and "[mcp_servers.unity-index]" in r.stdout
    assert list(home.iterdir()) == []
    # An existing file is not touched either.
    existing = root / ".mcp.json"
    existing.write_text('{"mcpServers": {"other": {"command": "o"}}}')
    r = cli(home, root, "--client", "claude-code", "--dry-run")
    assert r.returncode == 0 and '"other"' in r.stdout and '"unity-index"' in r.stdout
    assert existing.read_text() == '{"mcpServers": {"other": {"command": "o"}}}'


@pytest.mark.parametrize(
    ("client", "rel", "content", "message"),
    [
        ("claude-code", ".mcp.json", '{"mcpServers": {,}}', "not valid JSON"),
        ("vscode", ".vscode/mcp.json", '{\n  // a comment\n  "servers": {}\n}\n', "not valid JSON"),
        ("cursor", ".cursor/mcp.json", "[1, 2]", "top level is not a JSON object"),
        ("gemini", ".gemini/settings.json", '{"mcpServers": []}', '"mcpServers" is not a JSON object'),
        ("codex", "~/.codex/config.toml", "[mcp_servers\ncommand = 1\n", "not valid TOML"),
    ],
)
def test_unparseable_file_refused(env, client, rel, content, message):
    home, root = env
    path = where(rel, home, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    r = cli(home, root, "--client", client)
    assert r.returncode == 2
    assert message in r.stderr and "nothing was written" in r.stderr
    assert path.read_text() == content
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]  # no temporary file left


def test_unsupported_scope(env):
    home, root = env
    r = cli(home, root, "--client", "vscode", "--scope", "user")
    assert r.returncode == 2
    assert "--client vscode has no user scope: use --scope project" in r.stderr
    r = cli(home, root, "--client", "codex", "--scope", "project")
    assert r.returncode == 2
    assert "use --scope user" in r.stderr
    assert list(home.iterdir()) == [] and not (root / ".mcp.json").exists()


def test_not_a_project(tmp_path):
    (tmp_path / "empty").mkdir()
    r = cli(tmp_path, tmp_path / "empty", "--client", "cursor")
    assert r.returncode == 2 and "not a Unity project" in r.stderr


def test_claude_desktop_paths(tmp_path, monkeypatch):
    c = CLIENTS["claude-desktop"]
    assert config_path(c, "user", tmp_path, home=tmp_path, platform="linux") == (
        tmp_path / ".config/Claude/claude_desktop_config.json"
    )
    assert config_path(c, "user", tmp_path, home=tmp_path, platform="darwin") == (
        tmp_path / "Library/Application Support/Claude/claude_desktop_config.json"
    )
    monkeypatch.setenv("APPDATA", str(tmp_path / "Roaming"))
    assert config_path(c, "user", tmp_path, home=tmp_path, platform="win32") == (
        tmp_path / "Roaming/Claude/claude_desktop_config.json"
    )


def test_server_command_falls_back_to_module(tmp_path, monkeypatch):
    monkeypatch.setattr("sys.executable", str(tmp_path / "bin" / "python"))
    cmd, args = server_command(Path("/p"))
    assert cmd == str(tmp_path / "bin" / "python")
    assert args == ["-m", "indexer.cli", "serve", "--project", "/p"]


def test_codex_escapes_strings(tmp_path, monkeypatch):
    import tomllib

    root = write_project(tmp_path / 'we"ird\\name', {})
    home = tmp_path / "home"
    result = install("codex", root, home=home)
    assert tomllib.loads(result.content)["mcp_servers"]["unity-index"]["args"][-1] == str(root.resolve())


def test_install_error_for_bad_scope_direct(tmp_path):
    with pytest.raises(InstallError):
        install("windsurf", tmp_path, scope="project", home=tmp_path)


def test_existing_file_mode_kept(env):
    home, root = env
    path = home / ".claude.json"
    path.write_text("{}")
    path.chmod(0o600)
    install("claude-code", root, scope="user", home=home)
    assert path.stat().st_mode & 0o777 == 0o600
