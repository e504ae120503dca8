"""Checks `unity-index doctor` gets from the adapter, through the `unity_index.doctor_checks` entry
point group: whether the live editor answers (the bridge client lives here), and which coding
agents are configured to start `unity-index serve` for the project (the installer knows where)."""

from __future__ import annotations

import json
import shutil
import time
import tomllib
from pathlib import Path

from indexer.cli.common import quoted
from indexer.cli.doctor import FAIL, PASS, WARN, Check, Target
from indexer.files import read_regular
from indexer.home import home_folder, no_home
from mcp_adapter.editor import bridge as eb
from mcp_adapter.install import CLIENTS, SERVER_NAME, Client, config_path


def editor_reachable(target: Target) -> list[Check]:
    """Ping the bridge the heartbeat names; the heartbeat file itself is the editor-heartbeat check."""
    name = "editor-reachable"
    bridge = eb.EditorBridge(target.root, reload_wait=2.0, call_timeout=3.0, poll_interval=0.2)
    try:
        hb = bridge.heartbeat()
    except eb.EditorNotRunning:
        return [Check(name, PASS, "no editor to reach (see editor-heartbeat)")]
    except eb.EditorBridgeError as exc:
        return [Check(name, WARN, f"not tried: {exc}", "see the editor-heartbeat check")]
    started = time.monotonic()
    try:
        answer = bridge.ping()
    except eb.EditorBridgeError as exc:
        return [
            Check(
                name,
                FAIL,
                f"the heartbeat names 127.0.0.1:{hb.port} (pid {hb.pid}) but the bridge does not answer: {exc}",
                "look at the Unity console for bridge errors; reimport com.unityindex.bridge or restart Unity",
            )
        ]
    ms = (time.monotonic() - started) * 1000
    tools = answer.get("tools", "?")
    return [Check(name, PASS, f"the bridge on 127.0.0.1:{hb.port} answered ping in {ms:.0f} ms ({tools} tools)")]


def _entries(client: Client, data: dict, root: Path, base: Path) -> list[tuple[dict, Path]]:
    """The unity-index entries of one parsed configuration file, each with the folder its relative
    paths start from: `base` (the project for a project's own file, home for a user file), but the
    folder for Claude Code's per-project servers in its user file (where `claude mcp add` writes
    them), which it starts in that folder: the project's, or one above it (a repository's root
    holding the project in a subfolder)."""
    groups = [(data.get(client.key), base)]
    projects = data.get("projects") if client.name == "claude-code" else None
    for key, local in projects.items() if isinstance(projects, dict) else ():
        folder = Path(key)
        if isinstance(local, dict) and (folder == root or folder in root.parents):
            groups.append((local.get("mcpServers"), folder))
    return [
        (entry, folder)
        for servers, folder in groups
        if isinstance(servers, dict)
        for name, entry in servers.items()
        if name.startswith(SERVER_NAME) and isinstance(entry, dict)  # `unity-index`, `unity-index-<project>`
    ]


def _serves(entry: dict, root: Path, base: Path) -> bool:
    """Whether the entry serves this project: its `--project` (a relative path from `base`, the
    folder the client starts it in), or none when that folder is the project (`serve` finds the
    project from the client's folder)."""
    args = entry.get("args")
    if not isinstance(args, list) or "serve" not in args:
        return False
    if "--project" not in args:
        return base == root
    i = args.index("--project")
    if i + 1 >= len(args) or not isinstance(args[i + 1], str):
        return False
    value = args[i + 1].replace("${workspaceFolder}", str(root))
    path = Path(value).expanduser()
    return (path if path.is_absolute() else base / path).resolve() == root


def _runnable(command: object) -> bool:
    return isinstance(command, str) and bool(shutil.which(command) or Path(command).is_file())


def _unsafe(entry: dict) -> bool:
    """Whether the entry runs `python -m indexer.cli` without `-P`, as `mcp install` wrote it before
    session 56: started in the project, it imports a module of that folder before its own."""
    args = entry.get("args")
    if not isinstance(args, list) or "indexer.cli" not in args:
        return False
    i = args.index("indexer.cli")
    return i > 0 and args[i - 1] == "-m" and "-P" not in args[: i - 1]


def mcp_clients(target: Target) -> list[Check]:
    """Which clients start unity-index for this project, and whether their command still exists."""
    name = "mcp-clients"
    root = target.root
    good: list[str] = []
    broken: list[str] = []
    unreadable: list[str] = []
    unsafe: list[str] = []  # the module run without -P (`_unsafe`)
    home = home_folder()
    for client in CLIENTS.values():
        for scope in client.scopes:
            if home is None and scope != "project":  # not looked for: where they are is unknown
                continue
            path = config_path(client, scope, root, home)
            try:
                text = read_regular(path).decode("utf-8")
            except (FileNotFoundError, NotADirectoryError):  # (a folder on its way is a file: none can be there)
                continue
            except (OSError, UnicodeDecodeError):
                unreadable.append(str(path))
                continue
            try:
                data = tomllib.loads(text) if client.fmt == "toml" else json.loads(text or "{}")
            except (ValueError, RecursionError):
                unreadable.append(str(path))
                continue
            if not isinstance(data, dict):
                continue
            for entry, base in _entries(client, data, root, root if scope == "project" or home is None else home):
                if not _serves(entry, root, base):
                    continue
                label = f"{client.name} ({path})"
                (good if _runnable(entry.get("command")) else broken).append(label)
                if _unsafe(entry):
                    unsafe.append(label)
    again = f"run `unity-index mcp install --client CLIENT --project {quoted(root)}` again for each"
    if broken:
        return [Check(name, FAIL, f"configured, but the command it runs does not exist: {', '.join(broken)}", again)]
    if unsafe:
        said = "configured, but run as `python -m indexer.cli` without -P, which imports a module of the folder"
        return [
            Check(name, WARN, f"{said} it starts in first (a cloned project's indexer.py): {', '.join(unsafe)}", again)
        ]
    return [_configured(name, root, home, good, unreadable)]


def _configured(name: str, root: Path, home: Path | None, good: list[str], unreadable: list[str]) -> Check:
    """The check's verdict once no entry is broken: which clients serve the project, if any."""
    install = f"unity-index mcp install --client claude-code --project {quoted(root)}"
    extra = f"; not parsed: {', '.join(unreadable)}" if unreadable else ""
    if home is None:
        extra += f"; the clients' files in the home folder were not looked at: it is unknown ({no_home()})"
    elif not home.is_dir():
        extra += f"; the home folder {home} is {'a file' if home.exists() else 'missing'}: no client's file is there"
    if good:
        return Check(name, WARN if unreadable else PASS, f"configured for this project: {', '.join(good)}{extra}")
    return Check(
        name,
        WARN,
        f"no coding agent is configured to start unity-index for this project{extra}",
        f"{install} (or --client cursor, vscode, codex, gemini, windsurf, claude-desktop)",
    )
