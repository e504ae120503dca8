"""The `unity-index` command line. Parsing here; each command's work lives in its module.

Exit codes: 0 success, 1 a check failed or the index is stale, 2 usage or configuration error,
3 an internal error (a bug: please report it with the --debug traceback), 130 Ctrl-C, 143 SIGTERM,
129 SIGHUP (the terminal closed).
Imports are lazy so a query never loads the scanners.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from indexer.cli.common import (
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_USAGE,
    PROJECT_HELP,
    Terminated,
    UsageError,
    explain_failure,
    project_arg,
    project_dir,
    seconds,
    shown,
    workspace,
)
from indexer.cli.console import Console

# The built-in commands, in the order help lists them.
BUILTIN_COMMANDS = (
    "index",
    "query",
    "context",
    "refs",
    "describe",
    "status",
    "watch",
    "hook",
    "agents",
    "doctor",
    "completion",
)


class _Version(argparse.Action):
    """`--version`, read from the package metadata only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=str(kwargs.get("help")))

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        from indexer.version import version

        print(f"unity-index {version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    from indexer.cli import agents, asking, indexing, setup

    parser = argparse.ArgumentParser(
        prog="unity-index",
        description="Index a Unity project and hand back the context a task needs.",
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks for errors")
    parser.add_argument("--version", action=_Version, help="print the installed version and exit")
    parser.add_argument("--project", metavar="DIR", type=project_dir, help=PROJECT_HELP)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    adders = {**indexing.COMMANDS, **asking.COMMANDS, **setup.COMMANDS, **agents.COMMANDS}
    for name in BUILTIN_COMMANDS:
        adders[name](sub)
    return parser


def _debug_everywhere(parser: argparse.ArgumentParser) -> None:
    """Accept the global options on either side of the command (`unity-index --project X status`,
    `unity-index query x --debug`): --debug is added to every command; a command's own --project
    defaults to SUPPRESS, so a value given before the command is kept when none is given after it."""
    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    if sub is None:
        return
    for child in sub.choices.values():
        if not any("--debug" in a.option_strings for a in child._actions):
            child.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks")
        for action in child._actions:
            if action.dest == "project":
                action.default = argparse.SUPPRESS
        _debug_everywhere(child)


def _command_word(argv: list[str]) -> str | None:
    """The command named in `argv`, skipping the global options before it and their values."""
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--project":
            i += 2
            continue
        if not arg.startswith("-"):
            return arg
        i += 1
    return None


PLUGIN_GROUP = "unity_index.commands"


class CommandAPI:
    """What a command contributed by another package (the MCP adapter's `serve`) may use.

    Commands arrive through the `unity_index.commands` entry point group, so `indexer` names no
    package that builds on it."""

    UsageError = UsageError
    EXIT_OK = EXIT_OK
    workspace = staticmethod(workspace)
    seconds = staticmethod(seconds)
    shown = staticmethod(shown)  # a path in a message, as file names are shown

    @staticmethod
    def project_arg(p: argparse.ArgumentParser) -> None:
        project_arg(p)


def _load_plugins(parser: argparse.ArgumentParser) -> None:
    from importlib.metadata import entry_points

    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for ep in sorted(entry_points(group=PLUGIN_GROUP), key=lambda e: e.name):
        ep.load()(sub, CommandAPI)


def _open_closed_standard_streams() -> None:
    """A launcher may start the command with descriptor 0, 1 or 2 closed: Python then has None
    for that sys stream (every command printed nothing and exited 1), and the next file opened
    would take its number, where a library's message meant for stderr would be written. Each
    closed one is opened on the null device."""
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        if getattr(sys, name) is None:
            stream = open(fd, "r" if fd == 0 else "w", closefd=False, errors="backslashreplace")  # noqa: SIM115 (kept open)
            setattr(sys, name, stream)


class OutputFailed(Exception):
    """Writing the command's output failed (a full device, a closed file): not the index's doing,
    which a failed write of its own would be said to be (`explain_failure`)."""


class _Output:
    """sys.stdout while a command runs: a write or a flush that fails (but for a reader gone, a
    BrokenPipeError) is an OutputFailed."""

    def __init__(self, stream: Any):
        self._stream = stream

    def write(self, text: str) -> int:
        with _as_output_failure():
            return self._stream.write(text)

    def flush(self) -> None:
        with _as_output_failure():
            self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def _as_output_failure() -> Iterator[None]:
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputFailed(exc.strerror or str(exc)) from exc


def _escape_what_the_streams_cannot_encode() -> None:
    """stdout (and stderr) in an encoding that lacks characters (Windows' ANSI code page on a
    redirected stream, `PYTHONIOENCODING=ascii`) write each as its `\\uXXXX` escape, as Python's
    stderr does: an answer naming a Japanese script or an emoji was an internal error, exit 3."""
    from indexer.cli.common import holds_every_character

    for stream in (sys.stdout, sys.stderr):
        if not holds_every_character(stream) and getattr(stream, "errors", "") == "strict":
            with contextlib.suppress(AttributeError, ValueError):  # not a TextIOWrapper
                stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:  # a command line, not a caller in this process
        from indexer.cli.rerun import run_again_if_needed

        run_again_if_needed()
    _open_closed_standard_streams()
    _escape_what_the_streams_cannot_encode()
    real = sys.stdout
    sys.stdout = _Output(real)
    try:
        return _main(argv)
    finally:
        sys.stdout = real


def _main(argv: Sequence[str] | None) -> int:
    parsed = _parse_or_exit(list(sys.argv[1:] if argv is None else argv))
    if isinstance(parsed, int):
        return parsed
    args = parsed
    _undecodable_as_printable(args)
    with _sigterm_stops(args.command in BUILTIN_COMMANDS):
        code = _run(args, Console())
    if getattr(args, "exit_zero", False) and code in (EXIT_USAGE, EXIT_INTERNAL):
        return EXIT_OK  # `index --exit-zero`: a hook's failure must not fail the git command
    return code


def _parse_or_exit(argv: list[str]) -> argparse.Namespace | int:
    """The parsed arguments, or the exit code when parsing ended the command: `--help` and
    `--version` into a closed pipe or onto a full disk printed a traceback and exited 1, where a
    command's own output says so in one line (`_output_lost`)."""
    try:
        try:
            return _parse(argv)
        except SystemExit:  # --help, --version, a usage error: what they printed fails here, not at exit
            sys.stdout.flush()
            raise
    except KeyboardInterrupt:  # Ctrl-C while the commands load
        Console().error("interrupted")
        return 130
    except (OutputFailed, BrokenPipeError) as exc:
        return _output_lost(exc, Console())


def _output_lost(exc: OutputFailed | BrokenPipeError, console: Console) -> int:
    """A reader gone (`| head -1`: it has what it wanted) is success, said nowhere; a write that
    failed otherwise (a full disk) is said on stderr, exit 2. What is still buffered is dropped
    (written to the null device), so the exit's flush fails no more."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if isinstance(exc, BrokenPipeError):
        return EXIT_OK
    with contextlib.suppress(OSError):  # (stderr on the full disk too)
        console.error(f"cannot write the output: {exc}")
    return EXIT_USAGE


@contextlib.contextmanager
def _sigterm_stops(wanted: bool) -> Iterator[None]:
    """SIGTERM and SIGHUP (a closed terminal) raise `Terminated` in the main thread while a
    built-in command runs, when nothing else handles them (a parent that set one ignored, as
    `nohup` does SIGHUP, is obeyed); SIGHUP's default killed the command with no clean-up.
    `watch` puts its own stop in place; `serve` (another package's command) keeps its own ways.
    Restored after, for in-process callers."""
    import signal
    import threading

    if not wanted or threading.current_thread() is not threading.main_thread():
        yield
        return
    names = ("SIGTERM", "SIGHUP")
    signals = [s for s in (getattr(signal, n, None) for n in names) if s and signal.getsignal(s) == signal.SIG_DFL]

    def stop(signum: int, frame: object) -> None:
        raise Terminated(signum)

    for sig in signals:
        signal.signal(sig, stop)
    try:
        yield
    finally:
        for sig in signals:
            signal.signal(sig, signal.SIG_DFL)


def _undecodable_as_printable(args: argparse.Namespace) -> None:
    """An argument holding bytes that are not UTF-8 (Python's surrogate escapes) is read in the
    escaped form the index stores and shows such names in (`project.printable`): a file named so
    is found by it, anything else is unknown (exit 2), and no encoder meets the raw escapes. The
    project folder is a real path, passed on as given."""
    for name, value in vars(args).items():
        if name != "project" and isinstance(value, str) and not _encodes(value):
            from indexer.project import printable

            setattr(args, name, printable(value))


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _run(args: argparse.Namespace, console: Console) -> int:
    """The command's exit code; every failure said in one line on stderr."""
    func: Callable[[argparse.Namespace, Console], int] = args.func
    try:
        code = func(args, console)
        sys.stdout.flush()  # buffered output fails here, not at exit
        return code
    except (OutputFailed, BrokenPipeError) as exc:  # `unity-index query x | head -1`, a full disk
        return _output_lost(exc, console)
    except UsageError as exc:
        _traceback_if(args.debug)
        console.error(str(exc))
        return EXIT_USAGE
    except Terminated as exc:
        import signal

        with contextlib.suppress(OSError):  # (a closed terminal may refuse the message)
            console.error(f"stopped by {signal.Signals(exc.signum).name}")
        return 128 + exc.signum
    except KeyboardInterrupt:
        console.error("interrupted")
        return 130
    except Exception as exc:
        message = explain_failure(exc)  # the environment or a damaged index, not a bug
        if message is not None:
            _distrust_damaged(args, exc)
            _traceback_if(args.debug)
            console.error(message)
            return EXIT_USAGE
        if args.debug:
            raise
        console.error(
            f"internal error: {type(exc).__name__}: {shown(str(exc))}"
            " (a bug: run again with --debug and report the traceback)"
        )
        return EXIT_INTERNAL


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = build_parser()
    command = _command_word(argv)
    if command not in BUILTIN_COMMANDS:  # help, or a command another package contributes
        _load_plugins(parser)
    _debug_everywhere(parser)
    _refuse_dashed_names(parser, argv, command)
    return parser.parse_args(argv)


def _refuse_dashed_names(parser: argparse.ArgumentParser, argv: list[str], command: str | None) -> None:
    """`describe -dash.cs` read the file name as an unknown option and said only "the following
    arguments are required: target": say how to give a name starting with '-' (after `--`)."""
    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    child = sub.choices.get(command) if sub is not None and command else None
    positional = next((a for a in child._actions if not a.option_strings and a.nargs is None), None) if child else None
    if child is None or positional is None:
        return
    options = {o for a in (*child._actions, *parser._actions) for o in a.option_strings}
    rest = argv[argv.index(command) + 1 :]
    for arg in rest[: rest.index("--")] if "--" in rest else rest:
        number = arg[1:].replace(".", "", 1).isdigit()  # -1 or -0.5 is read as a value
        if arg[:1] == "-" and len(arg) > 1 and not number and arg.split("=")[0] not in options:
            child.error(
                f"{arg} is no option of `{command}`; a {positional.dest.upper()} starting with '-' goes"
                f" after `--`: unity-index {command} -- {arg}"
            )


def _distrust_damaged(args: argparse.Namespace, exc: Exception) -> None:
    """A damaged index found by reading it: its fingerprint goes (`integrity.distrust`), so the
    `unity-index index` the message asks for checks it in full and rebuilds it. Damage garbled in
    place with the files' stats kept was trusted by `index`, and the reader failed again."""
    from indexer.store.header import IndexBroken
    from indexer.store.integrity import distrust, is_damage

    if not is_damage(exc):
        return
    if isinstance(exc, IndexBroken):
        distrust(Path(exc.where))
        return
    with contextlib.suppress(Exception):  # which project's records: not said by SQLite's error
        for project in workspace(args).projects:
            distrust(project.paths.root)


def _traceback_if(debug: bool) -> None:
    if debug:
        import traceback

        traceback.print_exc()


if __name__ == "__main__":
    sys.exit(main())
