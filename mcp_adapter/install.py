"""`unity-index mcp install`: write a coding agent's MCP configuration so it starts `unity-index serve`.

Each client keeps its servers in its own file and format (JSON `mcpServers`, VS Code `servers`,
Codex TOML `[mcp_servers.NAME]`). The writers merge into what is there: other servers and unrelated
keys are kept, a second run changes nothing, a file that does not parse is never overwritten, and
the new file replaces the old one atomically (temporary file, then rename).

A project-scope file is meant to be committed, so it names `unity-index` from PATH and the project
through the client's workspace variable (`${workspaceFolder}`) or the client's working folder,
never this machine's paths, unless there is no other way (then the result says so). A user-scope
file serves many projects: each gets its own entry, `unity-index-<folder name>`."""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath

from indexer.files import atomic_write, read_regular
from indexer.home import home_folder, no_home
from indexer.paths import relative_inside

SERVER_NAME = "unity-index"
WORKSPACE = "${workspaceFolder}"  # VS Code's and Cursor's variable for the folder they opened


class InstallError(Exception):
    """A configuration the installer will not write (unparseable file, unsupported scope)."""


@dataclass(frozen=True)
class Client:
    name: str
    fmt: str  # "json" or "toml"
    key: str  # the JSON object (or TOML table) holding the servers
    project: str | None  # path relative to the project root, if the client has a project scope
    user: str | None  # path relative to the home directory ("{desktop}", "{codex}": resolved per platform)
    typed: bool = False  # the entry carries "type": "stdio" (VS Code)
    workspace_var: str | None = None  # what the client expands to the folder it opened

    @property
    def scopes(self) -> tuple[str, ...]:
        return tuple(s for s in ("project", "user") if getattr(self, s))

    @property
    def default_scope(self) -> str:
        return self.scopes[0]


CLIENTS: dict[str, Client] = {
    c.name: c
    for c in (
        Client("claude-code", "json", "mcpServers", ".mcp.json", ".claude.json"),
        Client("claude-desktop", "json", "mcpServers", None, "{desktop}"),
        Client(
            "cursor", "json", "mcpServers", ".cursor/mcp.json", ".cursor/mcp.json", workspace_var="${workspaceFolder}"
        ),
        Client("vscode", "json", "servers", ".vscode/mcp.json", None, typed=True, workspace_var="${workspaceFolder}"),
        Client("codex", "toml", "mcp_servers", None, "{codex}"),
        Client("gemini", "json", "mcpServers", ".gemini/settings.json", ".gemini/settings.json"),
        Client("windsurf", "json", "mcpServers", None, ".codeium/windsurf/mcp_config.json"),
    )
}


@dataclass(frozen=True)
class Result:
    path: Path
    content: str
    changed: bool  # False: the file already held exactly this configuration
    written: bool  # False on a dry run or when nothing changed
    name: str = SERVER_NAME  # the entry's key in the file
    command: list[str] = field(default_factory=list)  # what the client will run
    replaced: list[str] = field(default_factory=list)  # entries this run replaced, as "name: command line"
    notes: list[str] = field(default_factory=list)  # what the user should know (machine-specific paths)


def own_executable() -> tuple[str, list[str]]:
    """This installation's own executable: the `unity-index` script beside the running Python,
    else that Python running `-P -m indexer.cli`: a client starts the server in the project, and
    `-m` alone searches the working folder first, so a project's `indexer.py` would run."""
    python = Path(sys.executable).absolute()
    script = python.parent / ("unity-index.exe" if os.name == "nt" else "unity-index")
    if script.is_file():
        return str(script), []
    return str(python), ["-P", "-m", "indexer.cli"]


def server_command(project_root: Path) -> tuple[str, list[str]]:
    """The absolute command of this installation serving `project_root` (user scope, and the
    project scope's fallback when `unity-index` is not on PATH)."""
    command, prefix = own_executable()
    return command, [*prefix, "serve", "--project", str(project_root)]


def portable_command(
    client: Client, single_project: bool, on_path: str | None, own: tuple[str, list[str]]
) -> tuple[str, list[str], list[str]]:
    """(command, args, notes) for a project-scope file: `unity-index` when PATH has it, the project
    as the client's workspace variable, or (one project) found from the client's working folder,
    or (a folder of projects) `.`, that folder."""
    notes = []
    if on_path:
        command, prefix = "unity-index", []
    else:
        command, prefix = own
        notes.append(
            f"`unity-index` is not on PATH, so the file names this machine's {command}: others cannot use it;"
            " install with pipx (or add its folder to PATH) and run this again to write `unity-index`"
        )
    if client.workspace_var:
        where = ["--project", client.workspace_var]
    elif single_project:
        where = []  # `serve` finds the project at or above the client's working folder
    else:
        where = ["--project", "."]
    return command, [*prefix, "serve", *where], notes


def entry_name(scope: str, project_root: PurePath, taken: Mapping[str, object]) -> str:
    """`unity-index` in a project's own file; `unity-index-<folder>` in a user file, with a short
    hash of the path when another project of the same folder name already has that entry."""
    if scope == "project":
        return SERVER_NAME
    slug = re.sub(r"[^a-z0-9_-]+", "-", project_root.name.lower()).strip("-") or "project"
    name = f"{SERVER_NAME}-{slug}"
    other = taken.get(name)
    if other is None or entry_project(other) in (None, str(project_root)):
        return name
    return f"{name}-{hashlib.sha1(str(project_root).encode()).hexdigest()[:6]}"


def entry_project(entry: object) -> str | None:
    """The `--project` an entry serves, or None."""
    args = entry.get("args") if isinstance(entry, dict) else None
    if not isinstance(args, list) or "--project" not in args:
        return None
    i = args.index("--project")
    return args[i + 1] if i + 1 < len(args) and isinstance(args[i + 1], str) else None


def command_line(argv: list[str], windows: bool = os.name == "nt") -> str:
    """A command as one line a user can paste: POSIX shell quoting, or on Windows double quotes,
    which cmd.exe and PowerShell both read (a quoted program needs `&` in PowerShell: the program
    here is `unity-index` from PATH, which needs no quotes)."""
    return subprocess.list2cmdline(argv) if windows else shlex.join(argv)


def user_config_path(
    client: Client, home: PurePath, platform: str = sys.platform, env: Mapping[str, str] = os.environ
) -> PurePath:
    """Where the client keeps its user-wide configuration, on Linux, macOS or Windows (pure: the
    home folder, platform and environment are given, so each platform's answer is testable)."""
    windows = platform.startswith("win")
    path_type = PureWindowsPath if windows else PurePosixPath
    home = path_type(home)
    if client.user == "{desktop}":
        if platform == "darwin":
            return home / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
        if windows:
            base = path_type(env["APPDATA"]) if env.get("APPDATA") else home / "AppData" / "Roaming"
            return base / "Claude" / "claude_desktop_config.json"
        return home / ".config" / "Claude" / "claude_desktop_config.json"
    if client.user == "{codex}":
        return (path_type(env["CODEX_HOME"]) if env.get("CODEX_HOME") else home / ".codex") / "config.toml"
    return home / str(client.user)


def check_scope(client: Client, scope: str | None) -> str:
    scope = scope or client.default_scope
    if scope not in client.scopes:
        supported = " or ".join(f"--scope {s}" for s in client.scopes)
        raise InstallError(f"--client {client.name} has no {scope} scope: use {supported}")
    return scope


def config_path(
    client: Client, scope: str, project_root: Path, home: Path | None = None, platform: str | None = None
) -> Path:
    scope = check_scope(client, scope)
    if scope == "project":
        return project_root / str(client.project)
    home = home_folder() if home is None else home
    if home is None:
        raise InstallError(
            f"--client {client.name} keeps its {scope} configuration in the home folder, which is unknown"
            f" ({no_home()}): set HOME to your home folder"
            + (", or use --scope project" if "project" in client.scopes else "")
        )
    return Path(user_config_path(client, home, platform or sys.platform))


def _entry(client: Client, command: str, args: list[str]) -> dict:
    entry: dict = {"type": "stdio"} if client.typed else {}
    entry.update(command=command, args=args)
    return entry


# JSON ---------------------------------------------------------------------------------------------


BOM = "\ufeff"  # a Windows editor's UTF-8 mark, which the clients read past


def _number(written: str) -> float:
    """A JSON number as Python holds it; refused when Python would write it back as something
    else than a number (`1e400` is read as infinity, written `Infinity`, which is not JSON)."""
    value = float(written)
    if math.isinf(value):
        raise ValueError(f"the number {written} is too large to write back unchanged")
    return value


def _constant(written: str) -> float:
    raise ValueError(f"{written} is not JSON")


def _json_servers(text: str | None, key: str, path: Path) -> tuple[dict, dict]:
    """(the whole document, its servers object) of a JSON configuration; refuses what it cannot edit."""
    text = (text or "").removeprefix(BOM)
    if not text.strip():
        data: dict = {}
    else:
        try:
            data = json.loads(text, parse_float=_number, parse_constant=_constant)
        except RecursionError:
            raise InstallError(f"{path}: not valid JSON (nested too deep); nothing was written") from None
        except ValueError as exc:
            if not isinstance(exc, json.JSONDecodeError):
                raise InstallError(f"{path}: {exc}; nothing was written: add the entry by hand") from None
            raise InstallError(
                f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
                "nothing was written: fix the file (comments and trailing commas are not supported) or move it away"
            ) from None
        if not isinstance(data, dict):
            raise InstallError(f"{path}: the top level is not a JSON object; nothing was written")
    servers = data.setdefault(key, {})
    if not isinstance(servers, dict):
        raise InstallError(f'{path}: "{key}" is not a JSON object; nothing was written')
    return data, servers


def merge_json(
    text: str | None, key: str, entry: dict, path: Path, name: str = SERVER_NAME, drop: str | None = None
) -> str | None:
    """The new file content with `entry` under `name` (and the entry `drop` removed), or None when
    `text` already holds exactly that (nothing to write)."""
    data, servers = _json_servers(text, key, path)
    old = servers.get(name)
    # Keys the user added to our entry (env, disabled, ...) stay; ours are set.
    new = {**old, **entry} if isinstance(old, dict) else dict(entry)
    if text is not None and text.strip() and old == new and drop not in servers:
        return None
    servers[name] = new
    servers.pop(drop or "", None)
    out = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    # as the file was: a BOM kept, CRLF line ends kept
    return out.replace("\n", "\r\n") if "\r\n" in (text or "") else out  # CRLF kept (a BOM: `install`)


# TOML ---------------------------------------------------------------------------------------------

_HEADER = re.compile(r"^\s*\[\[?[^\[\]]*\]\]?\s*(#.*)?$")


def _our_header(name: str) -> re.Pattern:
    n = re.escape(name)
    return re.compile(rf"^\s*\[\s*mcp_servers\s*\.\s*({n}|\"{n}\"|'{n}')\s*\]\s*(#.*)?$")


def _toml_str(s: str) -> str:
    out = []
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append({"\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(ch, f"\\u{ord(ch):04X}"))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


# A key's assignment at the start of a line of a table: `env = {...}`, `"quoted.key" = 1`.
_STATEMENT = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_-]+)\s*=""")


def toml_table(entry: dict, nl: str = "\n", name: str = SERVER_NAME) -> str:
    args = ", ".join(_toml_str(a) for a in entry["args"])
    return nl.join([f"[mcp_servers.{name}]", f"command = {_toml_str(entry['command'])}", f"args = [{args}]"]) + nl


def _parse_toml(text: str, path: Path, what: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InstallError(f"{path}: {what} ({exc}); nothing was written") from None
    except RecursionError:
        raise InstallError(f"{path}: {what} (nested too deep); nothing was written") from None


def _toml_span(lines: list[str], name: str) -> tuple[int, int] | None:
    """The lines of the `[mcp_servers.NAME]` table: its header up to the next table (blank lines
    and comments just before the next table belong to that one)."""
    header = _our_header(name)
    start = next((i for i, line in enumerate(lines) if header.match(line)), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if _HEADER.match(lines[i])), len(lines))
    while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return start, end


def _kept_lines(table: list[str]) -> list[str]:
    """A table's lines past its header but for its `command` and `args` (an array may run over
    several lines: a statement lasts until it parses): the keys a user added (`env`,
    `startup_timeout_sec`) and comments, which the installer keeps."""
    out: list[str] = []
    i = 0
    while i < len(table):
        m = _STATEMENT.match(table[i])
        j = i + 1
        if m is not None:
            while j < len(table) and not _parses("".join(table[i:j])):
                j += 1
        if m is None or m[1] not in ("command", "args"):
            out += table[i:j]
        i = j
    return out


def _parses(text: str) -> bool:
    try:
        tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return False
    return True


def merge_toml(
    text: str | None, entry: dict, path: Path, name: str = SERVER_NAME, drop: str | None = None
) -> str | None:
    """Replace (or append) the `[mcp_servers.NAME]` table's command and args, and remove
    `[mcp_servers.DROP]` (its other keys move to NAME's table), keeping every other byte; None
    when nothing changes."""
    text = text or ""
    _parse_toml(text, path, "not valid TOML: fix the file or move it away")
    nl = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    gone = _toml_span(lines, drop) if drop else None
    extra: list[str] = []
    if gone:
        extra = _kept_lines(lines[gone[0] + 1 : gone[1]])
        lines = lines[: gone[0]] + lines[gone[1] :]
    span = _toml_span(lines, name)
    if span is not None:
        extra = _kept_lines(lines[span[0] + 1 : span[1]]) or extra
    block = toml_table(entry, nl, name) + "".join(extra)
    if extra and not block.endswith(("\n", "\r")):
        block += nl
    if span is None:
        kept = "".join(lines)
        if not kept:
            new = block
        else:
            new = kept if kept.endswith(("\n", "\r")) else kept + nl
            new += nl + block
    else:
        new = "".join(lines[: span[0]]) + block + "".join(lines[span[1] :])
    if new == text:
        return None
    parsed = _parse_toml(
        new,
        path,
        f"[mcp_servers.{name}] is defined in a form this installer does not edit (inline or dotted keys): "
        "remove that definition and run again",
    )
    got = parsed.get("mcp_servers", {}).get(name, {})
    if got.get("command") != entry["command"] or got.get("args") != entry["args"]:
        raise InstallError(f"{path}: could not place [mcp_servers.{name}] safely; nothing was written")
    return new


def _servers(client: Client, text: str | None, path: Path) -> dict:
    if client.fmt == "toml":
        servers = _parse_toml(text or "", path, "not valid TOML: fix the file or move it away").get("mcp_servers")
        return servers if isinstance(servers, dict) else {}
    return _json_servers(text, client.key, path)[1]


def _described(name: str, entry: object) -> str:
    if not isinstance(entry, dict):
        return f"{name}: {entry!r}"
    args = entry.get("args") if isinstance(entry.get("args"), list) else []
    return f"{name}: {command_line([str(entry.get('command', '?')), *map(str, args)])}"


def _check_inside(path: Path, project_root: Path) -> None:
    """A project's file that is, or sits below, a link leading out of the project (a cloned
    repository's `.mcp.json -> ~/.claude.json`, a linked `.vscode/`) is not written: it was written
    through, as `agents install` no longer does either."""
    real = os.path.realpath(path)
    if relative_inside(os.path.realpath(project_root), real) is None:
        raise InstallError(f"{path}: a link to {real}, outside the project: nothing was written")


def install(
    client_name: str,
    project_root: Path,
    scope: str | None = None,
    dry_run: bool = False,
    home: Path | None = None,
    platform: str | None = None,
    single_project: bool = True,
) -> Result:
    """Merge the server for `project_root` into the client's file (`single_project`: the folder is
    one Unity project, not a folder holding several)."""
    client = CLIENTS[client_name]
    scope = check_scope(client, scope)
    project_root = project_root.resolve()
    path = config_path(client, scope, project_root, home, platform)
    if scope == "project":
        _check_inside(path, project_root)
    try:
        text = read_regular(path).decode("utf-8") if path.exists() else None
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"{path}: cannot read it ({exc}); nothing was written") from None
    bom = text is not None and text.startswith(BOM)  # read past, and kept
    text = text.removeprefix(BOM) if text is not None else None
    servers = _servers(client, text, path)
    name = entry_name(scope, project_root, servers)
    if scope == "project":
        command, args, notes = portable_command(client, single_project, shutil.which("unity-index"), own_executable())
    else:
        (command, args), notes = server_command(project_root), []
    entry = _entry(client, command, args)
    # An entry of an earlier version, named `unity-index`, for this project: renamed to ours.
    legacy = (
        SERVER_NAME if name != SERVER_NAME and entry_project(servers.get(SERVER_NAME)) == str(project_root) else None
    )
    replaced = [_described(n, servers[n]) for n in (name, legacy) if n and n in servers]
    if client.fmt == "toml":
        new = merge_toml(text, entry, path, name, legacy)
    else:
        new = merge_json(text, client.key, entry, path, name, legacy)
    found = Result(path, text or "", False, False, name, [command, *args], notes=notes)
    if new is None:
        return found
    new = BOM + new if bom else new
    if not dry_run:
        atomic_write(path, new)
    return Result(path, new, True, not dry_run, name, [command, *args], replaced, notes)
