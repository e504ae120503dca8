"""What every command shares: exit codes, the usage error, the workspace from --project, JSON
output."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from indexer.cli.console import Console

EXIT_OK, EXIT_STALE, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
JSON_SCHEMA_VERSION = 1


class UsageError(Exception):
    """An expected failure with a message that says what to do; exit code 2, no traceback."""


def workspace(args: argparse.Namespace):
    """The project(s) a command works on: --project DIR (a project, or a folder holding several),
    else the nearest project at or above the working directory."""
    from indexer.config import ConfigError
    from indexer.project import ProjectNotFound, find_root
    from indexer.query.workspace import open_workspace, projects_at

    try:
        if args.project:
            base = Path(args.project).expanduser()
            if not base.is_dir():
                raise UsageError(f"--project {args.project}: no such folder")
            projects = projects_at(base)
            if not projects:
                raise UsageError(
                    f"--project {args.project}: not a Unity project (it needs Assets/ and ProjectSettings/)"
                    " and no Unity project below it"
                )
            return open_workspace(base.resolve(), projects)
        try:
            root = find_root(Path.cwd())
        except ProjectNotFound as exc:
            raise UsageError(str(exc)) from None
        return open_workspace(root, projects_at(root))
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def print_json(obj: object) -> None:
    import msgspec

    sys.stdout.write(msgspec.json.encode(obj).decode() + "\n")


def struct_dict(s: object) -> dict:
    import msgspec

    return msgspec.to_builtins(s)


def ensure_index(ws, console: Console) -> None:
    """Build the index of any project of the workspace that has none yet."""
    from indexer.store.header import header_ok
    from indexer.store.lock import DEFAULT_WAIT, IndexBusy

    for p in ws.projects:
        if not header_ok(p.paths):
            from indexer.build.update import update  # a writer's import: only when there is no index

            console.info(f"no index for {p.root} yet: building it")
            try:
                update(
                    p.root,
                    p.config,
                    wait=DEFAULT_WAIT,
                    on_wait=lambda msg: console.info(f"{msg}: waiting for it (up to {DEFAULT_WAIT:g} s)"),
                    progress=console.progress(f"indexing {p.name}"),
                )
            except IndexBusy as exc:
                raise UsageError(f"{exc}; no index yet: ask again when it is done") from None


def kinds() -> frozenset[str]:
    from indexer.project import KINDS, SETTINGS_KIND

    return frozenset({*KINDS.values(), SETTINGS_KIND, "other"})


PROJECT_HELP = "Unity project root, or a folder holding several (default: nearest project above the working directory)"


def project_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--project", metavar="DIR", help=PROJECT_HELP)
