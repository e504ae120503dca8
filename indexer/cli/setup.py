"""Commands about the installation: doctor, completion."""

from __future__ import annotations

import argparse
import sys

from indexer.cli.common import EXIT_OK, EXIT_STALE, print_json, project_arg, working_folder
from indexer.cli.console import Console


def cmd_doctor(args: argparse.Namespace, console: Console) -> int:
    """Check the installation and the project; exit 1 when a check fails."""
    from indexer.cli.doctor import FAIL, render, run

    report = run(args.project, working_folder())
    if args.json:
        print_json(report)
    else:
        print(render(report))
    return EXIT_STALE if any(c.status == FAIL for c in report.checks) else EXIT_OK


def cmd_completion(args: argparse.Namespace, console: Console) -> int:
    """Print a completion script for the shell, built from the full parser (plugins included)."""
    from indexer.cli.completion import script
    from indexer.cli.main import _debug_everywhere, _load_plugins, build_parser

    parser = build_parser()
    _load_plugins(parser)
    _debug_everywhere(parser)
    sys.stdout.write(script(args.shell, parser))
    return EXIT_OK


def _add_doctor(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("doctor", help="check the installation, the project and its index; say how to fix problems")
    project_arg(p)
    p.add_argument("--json", action="store_true", help="print the checks as JSON")
    p.set_defaults(func=cmd_doctor)


def _add_completion(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("completion", help="print a shell completion script (bash, zsh or fish)")
    p.add_argument("shell", choices=("bash", "zsh", "fish"))
    project_arg(p)  # read by no completion, but taken after the command as by every other (README)
    p.set_defaults(func=cmd_completion)


# The commands of this module, by name; the CLI adds them in its own order.
COMMANDS = {"doctor": _add_doctor, "completion": _add_completion}
