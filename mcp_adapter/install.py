"""`unity-index mcp install`: write a coding agent's MCP configuration so it starts `unity-index serve`.

Each client keeps its servers in its own file and format (JSON `mcpServers`, VS Code `servers`,
Codex TOML `[mcp_servers.NAME]`). The writers merge into what is there: other servers and unrelated
keys are kept, a second run changes nothing, a file that does not parse is never overwritten, and
the new file replaces the old one atomically (temporary file, then rename)."""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

SERVER_NAME = "unity-index"


class InstallError(Exception):
    """A configuration the installer will not write (unparseable file, unsupported scope)."""


@dataclass(frozen=True)
class Client:
    name: str
    fmt: str  # "json" or "toml"
    key: str  # the JSON object (or TOML table) holding the servers
    project: str | None  # path relative to the project root, if the client has a project scope
    user: str | None  # path relative to the home directory ("{desktop}" is resolved per platform)
    typed: bool = False  # the entry carries "type": "stdio" (VS Code)

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
        Client("cursor", "json", "mcpServers", ".cursor/mcp.json", ".cursor/mcp.json"),
        Client("vscode", "json", "servers", ".vscode/mcp.json", None, typed=True),
        Client("codex", "toml", "mcp_servers", None, ".codex/config.toml"),
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


def server_command(project_root: Path) -> tuple[str, list[str]]:
    """This installation's own executable: the `unity-index` script beside the running Python,
    else that Python running `-m indexer.cli`."""
    python = Path(sys.executable).absolute()
    script = python.parent / ("unity-index.exe" if os.name == "nt" else "unity-index")
    serve = ["serve", "--project", str(project_root)]
    if script.is_file():
        return str(script), serve
    return str(python), ["-m", "indexer.cli", *serve]


def _desktop_config(home: Path, platform: str) -> Path:
    if platform == "darwin":
        return home / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
    if platform.startswith("win"):
        appdata = os.environ.get("APPDATA")
        base = Path(appdata) if appdata else home / "AppData" / "Roaming"
        return base / "Claude" / "claude_desktop_config.json"
    return home / ".config" / "Claude" / "claude_desktop_config.json"


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
    home = Path.home() if home is None else home
    if client.user == "{desktop}":
        return _desktop_config(home, platform or sys.platform)
    return home / str(client.user)


def server_entry(client: Client, project_root: Path) -> dict:
    command, args = server_command(project_root)
    entry: dict = {"type": "stdio"} if client.typed else {}
    entry.update(command=command, args=args)
    return entry


# JSON ---------------------------------------------------------------------------------------------


def merge_json(text: str | None, key: str, entry: dict, path: Path) -> str | None:
    """The new file content, or None when `text` already holds this entry (nothing to write)."""
    if text is None or not text.strip():
        data: dict = {}
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InstallError(
                f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
                "nothing was written: fix the file (comments and trailing commas are not supported) or move it away"
            ) from None
        if not isinstance(data, dict):
            raise InstallError(f"{path}: the top level is not a JSON object; nothing was written")
    servers = data.setdefault(key, {})
    if not isinstance(servers, dict):
        raise InstallError(f'{path}: "{key}" is not a JSON object; nothing was written')
    old = servers.get(SERVER_NAME)
    # Keys the user added to our entry (env, disabled, ...) stay; ours are set.
    new = {**old, **entry} if isinstance(old, dict) else dict(entry)
    if text is not None and text.strip() and old == new:
        return None
    servers[SERVER_NAME] = new
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# TOML ---------------------------------------------------------------------------------------------

_HEADER = re.compile(r"^\s*\[\[?[^\[\]]*\]\]?\s*(#.*)?$")
_OUR_HEADER = re.compile(r"^\s*\[\s*mcp_servers\s*\.\s*(unity-index|\"unity-index\"|'unity-index')\s*\]\s*(#.*)?$")


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


def toml_table(entry: dict, nl: str = "\n") -> str:
    args = ", ".join(_toml_str(a) for a in entry["args"])
    return (
        nl.join([f"[mcp_servers.{SERVER_NAME}]", f"command = {_toml_str(entry['command'])}", f"args = [{args}]"]) + nl
    )


def _parse_toml(text: str, path: Path, what: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InstallError(f"{path}: {what} ({exc}); nothing was written") from None


def merge_toml(text: str | None, entry: dict, path: Path) -> str | None:
    """Replace (or append) the `[mcp_servers.unity-index]` table, keeping every other byte."""
    text = text or ""
    _parse_toml(text, path, "not valid TOML: fix the file or move it away")
    nl = "\r\n" if "\r\n" in text else "\n"
    block = toml_table(entry, nl)
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if _OUR_HEADER.match(line)), None)
    if start is None:
        if not text:
            new = block
        else:
            new = text if text.endswith(("\n", "\r")) else text + nl
            new += nl + block
    else:
        end = next((i for i in range(start + 1, len(lines)) if _HEADER.match(lines[i])), len(lines))
        # Blank lines and comments just before the next table belong to it.
        while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
            end -= 1
        new = "".join(lines[:start]) + block + "".join(lines[end:])
    if new == text:
        return None
    parsed = _parse_toml(
        new,
        path,
        f"[mcp_servers.{SERVER_NAME}] is defined in a form this installer does not edit (inline or dotted keys): "
        "remove that definition and run again",
    )
    got = parsed.get("mcp_servers", {}).get(SERVER_NAME, {})
    if got.get("command") != entry["command"] or got.get("args") != entry["args"]:
        raise InstallError(f"{path}: could not place [mcp_servers.{SERVER_NAME}] safely; nothing was written")
    return new


# Writing ------------------------------------------------------------------------------------------


def atomic_write(path: Path, content: str) -> None:
    if path.is_symlink():
        path = path.resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o7777 if path.exists() else None
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(content)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def install(
    client_name: str,
    project_root: Path,
    scope: str | None = None,
    dry_run: bool = False,
    home: Path | None = None,
    platform: str | None = None,
) -> Result:
    client = CLIENTS[client_name]
    scope = check_scope(client, scope)
    project_root = project_root.resolve()
    path = config_path(client, scope, project_root, home, platform)
    try:
        text = path.read_bytes().decode("utf-8") if path.exists() else None
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"{path}: cannot read it ({exc}); nothing was written") from None
    entry = server_entry(client, project_root)
    new = merge_toml(text, entry, path) if client.fmt == "toml" else merge_json(text, client.key, entry, path)
    if new is None:
        return Result(path, text or "", changed=False, written=False)
    if not dry_run:
        atomic_write(path, new)
    return Result(path, new, changed=True, written=not dry_run)
