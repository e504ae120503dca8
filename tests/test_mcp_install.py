"""`unity-index mcp install`: each client's configuration file against golden text, merging into
existing files, idempotence, dry runs, and refusing files that do not parse."""

from __future__ import annotations

import hashlib
import json
import os
import shlex
from pathlib import Path, PureWindowsPath

import pytest

from mcp_adapter.install import (
    CLIENTS,
    InstallError,
    command_line,
    config_path,
    install,
    own_executable,
    server_command,
    user_config_path,
)

from .conftest import run_cli, write_project


@pytest.fixture
def env(tmp_path: Path):
    home = tmp_path / "home"
    home.mkdir()
    root = write_project(tmp_path / "Game", {})
    return home, root


@pytest.fixture
def on_path(tmp_path: Path) -> Path:
    """A folder holding a `unity-index` program, for PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "unity-index"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    return bin_dir


def cli(home: Path, root: Path, *args: str, path: Path | None = None):
    """`mcp install` with HOME at `home` and, when given, `path` first on PATH."""
    env = {"HOME": str(home), "CODEX_HOME": ""}
    if path is not None:
        env["PATH"] = f"{path}{os.pathsep}{os.environ['PATH']}"
    return run_cli("mcp", "install", "--project", str(root), *args, env=env)


def golden_json(key: str, name: str, cmd: str, args: list[str], typed: bool = False) -> str:
    entry = {"type": "stdio"} if typed else {}
    entry.update(command=cmd, args=args)
    return json.dumps({key: {name: entry}}, indent=2) + "\n"


def where(rel: str, home: Path, root: Path) -> Path:
    return home / rel[2:] if rel.startswith("~/") else root / rel


def own(root: Path) -> tuple[str, list[str]]:
    return server_command(root.resolve())


# (client, file, key, args written into a project's own file)
PROJECT_CASES = [
    ("claude-code", ".mcp.json", "mcpServers", ["serve"]),
    ("cursor", ".cursor/mcp.json", "mcpServers", ["serve", "--project", "${workspaceFolder}"]),
    ("vscode", ".vscode/mcp.json", "servers", ["serve", "--project", "${workspaceFolder}"]),
    ("gemini", ".gemini/settings.json", "mcpServers", ["serve"]),
]
USER_CASES = [
    ("claude-code", ".claude.json", "mcpServers"),
    ("claude-desktop", ".config/Claude/claude_desktop_config.json", "mcpServers"),
    ("cursor", ".cursor/mcp.json", "mcpServers"),
    ("gemini", ".gemini/settings.json", "mcpServers"),
    ("windsurf", ".codeium/windsurf/mcp_config.json", "mcpServers"),
]


@pytest.mark.parametrize(("client", "rel", "key", "args"), PROJECT_CASES)
def test_project_file_is_portable_and_idempotent(env, on_path, client, rel, key, args):
    """No path of this machine in a file the team commits: `unity-index` from PATH, the project as
    the client's workspace variable or its working folder."""
    home, root = env
    r = cli(home, root, "--client", client, "--scope", "project", path=on_path)
    assert r.returncode == 0, r.stderr
    path = root / rel
    assert (
        r.stdout == f"wrote {path} ({client}, project scope): unity-index runs {shlex.join(['unity-index', *args])}\n"
    )
    assert r.stderr == ""
    first = path.read_text()
    assert first == golden_json(key, "unity-index", "unity-index", args, typed=client == "vscode")
    assert str(root) not in first and str(home) not in first
    again = cli(home, root, "--client", client, "--scope", "project", path=on_path)
    assert again.returncode == 0, again.stderr
    assert "already configured" in again.stdout and "nothing changed" in again.stdout
    assert path.read_text() == first
    created = sorted(p for p in (*home.rglob("*"), *root.rglob("*")) if p.is_file())
    assert created == [path]


def test_project_file_says_when_an_absolute_path_is_unavoidable(env):
    home, root = env
    cmd, prefix = own_executable()
    r = cli(home, root, "--client", "claude-code")
    assert r.returncode == 0, r.stderr
    data = json.loads((root / ".mcp.json").read_text())
    assert data["mcpServers"]["unity-index"] == {"command": cmd, "args": [*prefix, "serve"]}
    assert r.stderr == (
        f"warning: `unity-index` is not on PATH, so the file names this machine's {cmd}: others cannot use it;"
        " install with pipx (or add its folder to PATH) and run this again to write `unity-index`\n"
    )


def test_project_file_for_a_folder_of_projects_names_the_folder(tmp_path, on_path):
    home = tmp_path / "home"
    home.mkdir()
    repo = tmp_path / "repo"
    write_project(repo / "Client", {})
    write_project(repo / "Server", {})
    r = cli(home, repo, "--client", "claude-code", path=on_path)
    assert r.returncode == 0, r.stderr
    entry = json.loads((repo / ".mcp.json").read_text())["mcpServers"]["unity-index"]
    assert entry == {"command": "unity-index", "args": ["serve", "--project", "."]}


@pytest.mark.parametrize(("client", "rel", "key"), USER_CASES)
def test_user_file_golden_and_idempotent(env, client, rel, key):
    home, root = env
    cmd, args = own(root)
    r = cli(home, root, "--client", client, "--scope", "user")
    assert r.returncode == 0, r.stderr
    path = home / rel
    assert r.stdout == f"wrote {path} ({client}, user scope): unity-index-game runs {shlex.join([cmd, *args])}\n"
    first = path.read_bytes()
    assert first.decode() == golden_json(key, "unity-index-game", cmd, args)
    again = cli(home, root, "--client", client, "--scope", "user")
    assert again.returncode == 0 and "already configured" in again.stdout
    assert path.read_bytes() == first


def test_user_file_keeps_one_entry_per_project(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    first = write_project(tmp_path / "Game", {})
    second = write_project(tmp_path / "Tools", {})
    twin = write_project(tmp_path / "other" / "Game", {})  # the same folder name as the first
    for root in (first, second, twin):
        r = cli(home, root, "--client", "cursor", "--scope", "user")
        assert r.returncode == 0 and r.stderr == "", r.stderr
    servers = json.loads((home / ".cursor" / "mcp.json").read_text())["mcpServers"]
    digest = hashlib.sha1(str(twin.resolve()).encode()).hexdigest()[:6]
    assert {name: e["args"][-1] for name, e in servers.items()} == {
        "unity-index-game": str(first.resolve()),
        "unity-index-tools": str(second.resolve()),
        f"unity-index-game-{digest}": str(twin.resolve()),
    }
    # Running again for any of them changes nothing.
    for root in (first, second, twin):
        assert "already configured" in cli(home, root, "--client", "cursor", "--scope", "user").stdout


def test_user_file_reports_what_it_replaced(env):
    home, root = env
    cmd, args = own(root)
    path = home / ".cursor" / "mcp.json"
    path.parent.mkdir()
    old = {"command": "/old/venv/bin/unity-index", "args": ["serve", "--project", str(root.resolve())]}
    other = {"command": "/old/venv/bin/unity-index", "args": ["serve", "--project", "/elsewhere/Other"]}
    path.write_text(json.dumps({"mcpServers": {"unity-index": old}}))
    r = cli(home, root, "--client", "cursor", "--scope", "user")
    assert r.returncode == 0, r.stderr
    # an entry of an earlier version for this project is renamed to the project's own
    assert r.stderr == f"replaced unity-index: /old/venv/bin/unity-index serve --project {root.resolve()}\n"
    assert json.loads(path.read_text())["mcpServers"] == {"unity-index-game": {"command": cmd, "args": args}}
    path.write_text(json.dumps({"mcpServers": {"unity-index": other, "unity-index-game": old}}))
    r = cli(home, root, "--client", "cursor", "--scope", "user")
    assert r.stderr == f"replaced unity-index-game: /old/venv/bin/unity-index serve --project {root.resolve()}\n"
    # another project's entry is kept
    assert json.loads(path.read_text())["mcpServers"] == {
        "unity-index": other,
        "unity-index-game": {"command": cmd, "args": args},
    }
    r = cli(home, root, "--client", "cursor", "--scope", "user", "--json")
    assert json.loads(r.stdout)["replaced"] == []


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
    cmd, _ = own(root)
    r = cli(home, root, "--client", "codex")
    assert r.returncode == 0, r.stderr
    path = home / ".codex" / "config.toml"
    first = path.read_bytes()
    assert first.decode() == (
        f'[mcp_servers.unity-index-game]\ncommand = "{cmd}"\nargs = ["serve", "--project", "{root.resolve()}"]\n'
    )
    assert cli(home, root, "--client", "codex").returncode == 0
    assert path.read_bytes() == first


def test_codex_home_is_honoured(env, tmp_path):
    home, root = env
    codex_home = tmp_path / "codex-home"
    r = run_cli(
        "mcp",
        "install",
        "--client",
        "codex",
        "--project",
        str(root),
        env={"HOME": str(home), "CODEX_HOME": str(codex_home)},
    )
    assert r.returncode == 0, r.stderr
    assert (codex_home / "config.toml").is_file() and not (home / ".codex").exists()


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
        "[mcp_servers.unity-index-game]\n"
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
        '[mcp_servers.unity-index-game]\ncommand = "/old/unity-index"\nargs = ["serve"]\n',
        f'[mcp_servers.unity-index-game]\ncommand = "{cmd}"\nargs = ["serve", "--project", "{root.resolve()}"]\n',
    )
    assert expected != before
    assert path.read_text() == expected
    assert cli(home, root, "--client", "codex").returncode == 0
    assert path.read_text() == expected


def test_codex_keeps_the_keys_a_user_added_to_our_entry_and_to_the_one_it_renames(env):
    """docs/mcp.md: keys you added to the entry (`env`, a timeout) stay, with their comments; an
    `args` array over several lines is replaced whole; the keys of an earlier version's
    `[mcp_servers.unity-index]` move to the entry that replaces it."""
    home, root = env
    cmd, _ = server_command(root)
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    ours = f'command = "{cmd}"\nargs = ["serve", "--project", "{root.resolve()}"]\n'
    user = 'startup_timeout_sec = 60\n# my note\nenv = { UNITY_X = "1" }\n'
    path.write_text(
        f'[mcp_servers.unity-index-game]\ncommand = "/old/unity-index"\nargs = [\n  "serve",\n  "--x",\n]\n{user}'
    )
    assert cli(home, root, "--client", "codex").returncode == 0
    assert path.read_text() == f"[mcp_servers.unity-index-game]\n{ours}{user}"
    earlier = f'command = "/old/unity-index"\nargs = ["serve", "--project", "{root.resolve()}"]\n'
    path.write_text(f"[mcp_servers.unity-index]\n{earlier}{user}")
    r = cli(home, root, "--client", "codex")
    assert r.returncode == 0, r.stderr
    assert path.read_text() == f"[mcp_servers.unity-index-game]\n{ours}{user}"


def test_codex_appends_to_existing_file(env):
    home, root = env
    cmd, _ = server_command(root)
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    before = '[mcp_servers.other]\ncommand = "x"\n\n[tui]\nnotifications = true'  # no final newline
    path.write_text(before)
    assert cli(home, root, "--client", "codex").returncode == 0
    assert path.read_text() == before + (
        f'\n\n[mcp_servers.unity-index-game]\ncommand = "{cmd}"\nargs = ["serve", "--project", "{root.resolve()}"]\n'
    )


def test_codex_crlf_kept(env, tmp_path):
    home, root = env
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    path.write_bytes(b'model = "o3"\r\n')
    install("codex", root, home=home)
    data = path.read_bytes()
    assert data.startswith(b'model = "o3"\r\n\r\n[mcp_servers.unity-index-game]\r\n')
    assert b"\n" not in data.replace(b"\r\n", b"")


def test_codex_inline_definition_refused(env):
    home, root = env
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    before = '[mcp_servers]\nunity-index-game = { command = "x" }\n'
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
            "unity-index-game": {"command": "/old", "args": ["serve"], "env": {"A": "1"}},
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
        '    "unity-index-game": {\n'
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


def test_already_configured_file_in_other_formatting_untouched(env, on_path):
    home, root = env
    path = root / ".mcp.json"
    text = json.dumps({"mcpServers": {"unity-index": {"command": "unity-index", "args": ["serve"]}}}, indent=4)
    path.write_text(text)
    r = cli(home, root, "--client", "claude-code", path=on_path)
    assert r.returncode == 0, r.stderr
    assert "already configured" in r.stdout
    assert path.read_text() == text


def test_dry_run_writes_nothing(env):
    home, root = env
    cmd, args = own(root)
    r = cli(home, root, "--client", "cursor", "--scope", "user", "--dry-run")
    assert r.returncode == 0, r.stderr
    path = home / ".cursor" / "mcp.json"
    assert r.stdout == f"would write {path} (cursor, user scope):\n" + golden_json(
        "mcpServers", "unity-index-game", cmd, args
    )
    assert not path.exists() and not path.parent.exists()
    r = cli(home, root, "--client", "codex", "--dry-run")
    assert r.returncode == 0 and "[mcp_servers.unity-index-game]" in r.stdout
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


def test_claude_desktop_paths(tmp_path):
    c = CLIENTS["claude-desktop"]
    assert config_path(c, "user", tmp_path, home=tmp_path, platform="linux") == (
        tmp_path / ".config/Claude/claude_desktop_config.json"
    )
    assert config_path(c, "user", tmp_path, home=tmp_path, platform="darwin") == (
        tmp_path / "Library/Application Support/Claude/claude_desktop_config.json"
    )


WIN_HOME = PureWindowsPath("C:\\Users\\Ana")
WIN_ENV = {"APPDATA": "C:\\Users\\Ana\\AppData\\Roaming", "USERPROFILE": "C:\\Users\\Ana"}


@pytest.mark.parametrize(
    ("client", "expected"),
    [
        ("claude-code", "C:\\Users\\Ana\\.claude.json"),
        ("claude-desktop", "C:\\Users\\Ana\\AppData\\Roaming\\Claude\\claude_desktop_config.json"),
        ("cursor", "C:\\Users\\Ana\\.cursor\\mcp.json"),
        ("codex", "C:\\Users\\Ana\\.codex\\config.toml"),
        ("gemini", "C:\\Users\\Ana\\.gemini\\settings.json"),
        ("windsurf", "C:\\Users\\Ana\\.codeium\\windsurf\\mcp_config.json"),
    ],
)
def test_windows_user_config_locations(client, expected):
    """The documented Windows locations (%USERPROFILE%, %APPDATA%), computed on any platform."""
    got = user_config_path(CLIENTS[client], WIN_HOME, "win32", WIN_ENV)
    assert isinstance(got, PureWindowsPath) and str(got) == expected


def test_windows_fallbacks_and_overrides():
    no_appdata = user_config_path(CLIENTS["claude-desktop"], WIN_HOME, "win32", {})
    assert str(no_appdata) == "C:\\Users\\Ana\\AppData\\Roaming\\Claude\\claude_desktop_config.json"
    codex = user_config_path(CLIENTS["codex"], WIN_HOME, "win32", {"CODEX_HOME": "D:\\codex"})
    assert str(codex) == "D:\\codex\\config.toml"


def test_command_line_pastes_into_cmd_and_powershell():
    argv = ["unity-index", "serve", "--project", "C:\\Users\\Ana\\My Game"]
    assert command_line(argv, windows=True) == 'unity-index serve --project "C:\\Users\\Ana\\My Game"'
    assert command_line([*argv[:3], "/home/ana/My Game"], windows=False) == (
        "unity-index serve --project '/home/ana/My Game'"
    )


def test_server_command_falls_back_to_module(tmp_path, monkeypatch):
    monkeypatch.setattr("sys.executable", str(tmp_path / "bin" / "python"))
    cmd, args = server_command(Path("/p"))
    assert cmd == str(tmp_path / "bin" / "python")
    assert args == ["-P", "-m", "indexer.cli", "serve", "--project", "/p"]


def test_codex_escapes_strings(tmp_path, monkeypatch):
    import tomllib

    root = write_project(tmp_path / 'we"ird\\name', {})
    home = tmp_path / "home"
    result = install("codex", root, home=home)
    assert tomllib.loads(result.content)["mcp_servers"]["unity-index-we-ird-name"]["args"][-1] == str(root.resolve())


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


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_a_new_file_gets_the_mode_the_umask_gives(env, umask):
    """`.mcp.json` is shared with a team and committed: a new file is made as `open` would make it
    (0666 less the umask), not with the temporary file's 0600; an existing file keeps its mode."""
    home, root = env
    old = os.umask(umask)
    try:
        install("claude-code", root, scope="project", home=home)
    finally:
        os.umask(old)
    assert (root / ".mcp.json").stat().st_mode & 0o777 == 0o666 & ~umask


def test_json_with_a_bom_and_crlf_is_merged_and_keeps_both(env, on_path):
    """A file saved by a Windows editor (UTF-8 BOM, CRLF) is valid JSON to the clients: it is
    merged, not refused with Python's `decode using utf-8-sig`, and keeps its BOM and line ends."""
    home, root = env
    path = root / ".vscode" / "mcp.json"
    path.parent.mkdir()
    path.write_bytes(b'\xef\xbb\xbf{\r\n  "servers": {\r\n    "py": {"command": "p"}\r\n  }\r\n}\r\n')
    r = cli(home, root, "--client", "vscode", path=on_path)
    assert r.returncode == 0, r.stderr
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf{\r\n") and data.count(b"\n") == data.count(b"\r\n")
    assert list(json.loads(data.decode("utf-8-sig"))["servers"]) == ["py", "unity-index"]
    assert cli(home, root, "--client", "vscode", path=on_path).returncode == 0
    assert path.read_bytes() == data


def test_json_number_python_cannot_write_back_is_refused(env):
    """`1e400` is valid JSON that Python reads as infinity and would write as `Infinity`, which is
    not JSON: the file is refused, not corrupted."""
    home, root = env
    path = root / ".mcp.json"
    text = '{"mcpServers": {}, "limits": {"huge": 1e400}}\n'
    path.write_text(text)
    r = cli(home, root, "--client", "claude-code")
    assert r.returncode == 2 and "1e400" in r.stderr and "nothing was written" in r.stderr
    assert path.read_text() == text


def test_codex_toml_with_a_bom_is_merged_and_keeps_it(env):
    """A BOM is no TOML statement (`Invalid statement (at line 1, column 1)` named nothing the
    user could see): read past, and kept."""
    home, root = env
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    path.write_bytes(b'\xef\xbb\xbfmodel = "o3"\n')
    install("codex", root, home=home)
    data = path.read_bytes()
    assert data.startswith(b'\xef\xbb\xbfmodel = "o3"\n\n[mcp_servers.unity-index-game]\n')
    assert not install("codex", root, home=home).changed
