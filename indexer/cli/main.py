"""The `unity-index` command line. Parsing here; each command's work lives in its module.

Exit codes: 0 success, 1 a check failed or the index is stale, 2 usage or configuration error,
3 an internal error (a bug: please report it with the --debug traceback).
Imports are lazy so a query never loads the scanners.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from indexer.cli.console import Console
from indexer.query.render import render_context, render_status

EXIT_OK, EXIT_STALE, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
JSON_SCHEMA_VERSION = 1


class UsageError(Exception):
    """An expected failure with a message that says what to do; exit code 2, no traceback."""


def _workspace(args: argparse.Namespace):
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


def _print_json(obj: object) -> None:
    import msgspec

    sys.stdout.write(msgspec.json.encode(obj).decode() + "\n")


def _struct_dict(s: object) -> dict:
    import msgspec

    return msgspec.to_builtins(s)


def cmd_index(args: argparse.Namespace, console: Console) -> int:
    from indexer.build.update import update
    from indexer.store.lock import IndexBusy

    ws = _workspace(args)
    if args.check:
        return _check_index(ws, args.json)
    results = []
    for p in ws.projects:
        try:
            stats = update(
                p.root, p.config, full=args.full, wait=args.wait, progress=console.progress(f"indexing {p.name}")
            )
        except IndexBusy as exc:
            raise UsageError(str(exc)) from None
        results.append({"project": str(p.root), **_struct_dict(stats)})
        if not args.json:
            what = "rebuilt" if stats.full else "updated"
            console.info(
                f"{what} index of {p.root}: {stats.files} files; scanned {stats.scanned} "
                f"({stats.added} added, {stats.changed} changed), {stats.deleted} deleted, "
                f"{stats.skipped} skipped in all, in {stats.seconds:.2f}s"
            )
    if args.json:
        if ws.single:
            _print_json({"schema_version": JSON_SCHEMA_VERSION, **results[0]})
        else:
            _print_json({"schema_version": JSON_SCHEMA_VERSION, "workspace": str(ws.base), "projects": results})
    return EXIT_OK


def _check_index(ws, as_json: bool) -> int:
    """`index --check`: exit 1 when an index is missing or stale, listing what; never writes."""
    from indexer.changes.diff import check

    stale = False
    reports = []
    for p in ws.projects:
        st = check(p.root, p.config)
        stale = stale or st.stale
        reports.append({"project": str(p.root), "stale": st.stale, **_struct_dict(st)})
        if as_json:
            continue
        if not st.indexed:
            print(f"{p.root}: no index yet; run `unity-index index`")
        elif st.stale:
            n = len(st.added) + len(st.changed) + len(st.deleted)
            print(f"{p.root}: stale, {n} files differ from the index; run `unity-index index`")
            for what, group in (("added", st.added), ("changed", st.changed), ("deleted", st.deleted)):
                for path in group[:50]:
                    print(f"  {what:<8} {path}")
                if len(group) > 50:
                    print(f"  ... and {len(group) - 50} more {what}")
        else:
            print(f"{p.root}: up to date")
    if as_json:
        _print_json({"schema_version": JSON_SCHEMA_VERSION, "stale": stale, "projects": reports})
    return EXIT_STALE if stale else EXIT_OK


def _ensure_index(ws, console: Console) -> None:
    """Build the index of any project of the workspace that has none yet."""
    from indexer.build.update import update
    from indexer.store.header import header_ok

    for p in ws.projects:
        if not header_ok(p.paths):
            console.info(f"no index for {p.root} yet: building it")
            update(p.root, p.config, wait=True, progress=console.progress(f"indexing {p.name}"))


def cmd_query(args: argparse.Namespace, console: Console) -> int:
    if not args.text.strip():
        raise UsageError('the query is empty: say what you are looking for, e.g. unity-index query "player health"')
    if args.limit < 1:
        raise UsageError("--limit must be at least 1")
    if args.kind is not None and args.kind not in _kinds():
        raise UsageError(f"--kind {args.kind}: no such kind; use one of {', '.join(sorted(_kinds()))}")
    ws = _workspace(args)
    _ensure_index(ws, console)
    hits = ws.search(args.text, limit=args.limit, kind=args.kind, path_prefix=args.path)
    if args.json:
        _print_json({"schema_version": JSON_SCHEMA_VERSION, "query": args.text, "results": hits})
        return EXIT_OK
    if not hits:
        narrowed = " or drop --kind/--path" if args.kind or args.path else ""
        console.info(f"no results: try other words (identifiers, file names){narrowed}")
    for i, h in enumerate(hits, 1):
        loc = f"{h.path}:{h.line}" if h.line else h.path
        print(f"{i:>2}. {loc}  [{h.kind}] {h.name}  ({h.score:.2f})")
        if h.snippet:
            print(f"      {h.snippet}")
    return EXIT_OK


def _kinds() -> frozenset[str]:
    from indexer.project import KINDS, SETTINGS_KIND

    return frozenset({*KINDS.values(), SETTINGS_KIND, "other"})


def cmd_context(args: argparse.Namespace, console: Console) -> int:
    from indexer.query.context import build_context
    from indexer.query.tokens import counter

    if not args.text.strip():
        raise UsageError('the task is empty: describe it, e.g. unity-index context "add a shield that absorbs damage"')
    if args.budget < 1:
        raise UsageError("--budget must be at least 1 token")
    try:
        tok = counter(args.tokenizer)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    ws = _workspace(args)
    _ensure_index(ws, console)
    pack = build_context(ws, args.text, args.budget, tok)
    if args.json:
        _print_json(pack)
    else:
        print(render_context(pack))
        console.info(f"[{pack.tokens}/{pack.budget} tokens, {pack.tokenizer}; {len(pack.tier2.files)} files in tier 2]")
    return EXIT_OK


def cmd_refs(args: argparse.Namespace, console: Console) -> int:
    from indexer.query.lookup import LookupFailed, find_references, inside

    if not args.target.strip():
        raise UsageError("the target is empty: give a type, Type.Member, a path or a GUID")
    ws = _workspace(args)
    _ensure_index(ws, console)
    text = args.target.strip()
    try:
        if "/" in text or "\\" in text:
            text = inside(ws, text)
        target, usages = find_references(ws, text)
    except LookupFailed as exc:
        raise UsageError(str(exc)) from None
    if target is None:
        raise UsageError(
            f"{args.target}: no type, member, file, GUID or assembly of that name;"
            f" `unity-index query {args.target}` searches by words"
        )
    shown = usages[: args.limit] if args.limit else usages
    if args.json:
        _print_json({"schema_version": JSON_SCHEMA_VERSION, "target": target, "total": len(usages), "usages": shown})
        return EXIT_OK
    what = {"type": "type", "member": "member", "path": "file", "guid": "GUID", "assembly": "assembly"}[target.kind]
    label = ", ".join(target.types) if target.kind in ("type", "member") else target.path or target.name
    if target.kind == "member":
        label = f"{target.member} of {label}"
    print(f"{what} {label}" + (f"  ({target.note})" if target.note else ""))
    if not usages:
        print("no usages found")
    for where in ("asset", "code"):
        group = [u for u in shown if u.where == where]
        if group:
            print(f"{'in assets' if where == 'asset' else 'in code'} ({sum(1 for u in usages if u.where == where)}):")
        for u in group:
            extra = f" -> {u.resolved}" if u.resolved else ""
            ctx = f" [{u.context}]" if u.context else ""
            print(f"  {u.path}:{u.line}{ctx}  {u.detail}{extra}")
    if len(shown) < len(usages):
        console.info(f"[{len(usages) - len(shown)} more; --limit 0 shows all]")
    return EXIT_OK


def cmd_describe(args: argparse.Namespace, console: Console) -> int:
    from indexer.query.lookup import LookupFailed, describe_target, inside

    text = args.target.strip()
    if not text:
        raise UsageError("give a project path or a GUID to describe")
    ws = _workspace(args)
    _ensure_index(ws, console)
    try:
        project, desc = describe_target(ws, inside(ws, text))
    except LookupFailed as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        _print_json(desc)
    else:
        print(desc.text if ws.single else f"[project {project}]\n{desc.text}")
    return EXIT_OK


def cmd_status(args: argparse.Namespace, console: Console) -> int:
    from indexer.query.status import project_status

    ws = _workspace(args)
    statuses = [project_status(p.root, p.config) for p in ws.projects]
    if args.json:
        if ws.single:
            _print_json({"schema_version": JSON_SCHEMA_VERSION, **_struct_dict(statuses[0])})
        else:
            _print_json({"schema_version": JSON_SCHEMA_VERSION, "workspace": str(ws.base), "projects": statuses})
    else:
        print("\n\n".join(render_status(st) for st in statuses))
    bad = any(not st.indexed or st.stale_files for st in statuses)
    return EXIT_STALE if args.check and bad else EXIT_OK


def cmd_watch(args: argparse.Namespace, console: Console) -> int:
    """Keep the index current from file events until Ctrl-C or SIGTERM."""
    import threading

    from indexer.changes.watch import install_stop_handlers, watch
    from indexer.store.lock import IndexBusy

    ws = _workspace(args)
    if not ws.single:
        raise UsageError("watch works on one project: pass --project with a single Unity project")
    p = ws.projects[0]
    stop = threading.Event()
    install_stop_handlers(stop)

    def on_batch(stats, events: int) -> None:
        if args.json:
            _print_json({"schema_version": JSON_SCHEMA_VERSION, "events": events, **_struct_dict(stats)})
            sys.stdout.flush()
        else:
            console.info(
                f"{stats.added} added, {stats.changed} changed, {stats.moved} moved, {stats.deleted} deleted"
                f" in {stats.seconds * 1000:.0f} ms (generation {stats.generation})"
            )

    def ready() -> None:
        console.info(f"watching {p.root} (Ctrl-C to stop)")

    try:
        watch(p.root, p.config, on_batch, stop, ready)
    except IndexBusy as exc:
        raise UsageError(str(exc)) from None
    return EXIT_OK


def cmd_hook(args: argparse.Namespace, console: Console) -> int:
    """Install or remove the git hooks that refresh the index, chaining existing hooks."""
    from indexer.changes.hooks import HookError, hooks_dir, install, uninstall

    base = Path(args.project).expanduser().resolve() if args.project else Path.cwd()
    if not base.is_dir():
        raise UsageError(f"--project {args.project}: no such folder")
    try:
        folder = hooks_dir(base)
    except HookError:
        raise UsageError(
            f"{base} is not inside a git repository: the hooks refresh the index on git events;"
            " run `git init` first, or keep the index current with `unity-index watch`"
        ) from None
    try:
        done = install(base) if args.action == "install" else uninstall(base)
    except HookError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        _print_json(
            {"schema_version": JSON_SCHEMA_VERSION, "action": args.action, "hooks_dir": str(folder), "done": done}
        )
        return EXIT_OK
    for line in done:
        console.info(line)
    if not done:
        console.info(f"nothing to do in {folder}")
    return EXIT_OK


def cmd_doctor(args: argparse.Namespace, console: Console) -> int:
    """Check the installation and the project; exit 1 when a check fails."""
    from indexer.cli.doctor import FAIL, render, run

    report = run(args.project, Path.cwd())
    if args.json:
        _print_json(report)
    else:
        print(render(report))
    return EXIT_STALE if any(c.status == FAIL for c in report.checks) else EXIT_OK


def cmd_completion(args: argparse.Namespace, console: Console) -> int:
    """Print a completion script for the shell, built from the full parser (plugins included)."""
    from indexer.cli.completion import script

    parser = build_parser()
    _load_plugins(parser)
    _debug_everywhere(parser)
    sys.stdout.write(script(args.shell, parser))
    return EXIT_OK


BUILTIN_COMMANDS = frozenset(
    {"index", "query", "context", "refs", "describe", "status", "watch", "hook", "doctor", "completion"}
)


def _project_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--project",
        metavar="DIR",
        help="Unity project root, or a folder holding several (default: nearest project above the working directory)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="unity-index",
        description="Index a Unity project and hand back the context a task needs.",
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks for errors")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    project_arg = _project_arg

    p = sub.add_parser("index", help="build or update the index")
    project_arg(p)
    p.add_argument("--full", action="store_true", help="rebuild from scratch instead of updating")
    p.add_argument("--wait", action="store_true", help="wait for another indexer instead of failing")
    p.add_argument("--json", action="store_true", help="print what was done as JSON")
    p.add_argument("--check", action="store_true", help="only report: exit 1 if the index is missing or stale")
    p.set_defaults(func=cmd_index)

    p = sub.add_parser("query", help="rank the project's files for a query")
    p.add_argument("text", help="what you are looking for: words, identifiers or a task description")
    project_arg(p)
    p.add_argument("--limit", type=int, default=10, help="number of results (default 10)")
    p.add_argument("--kind", help="only files of this kind (csharp, scene, prefab, asset, material, shader, ...)")
    p.add_argument("--path", help="only files under this project-relative folder")
    p.add_argument("--json", action="store_true", help="print results as JSON")
    p.set_defaults(func=cmd_query)

    p = sub.add_parser("context", help="a two-tier context pack for a task, under a token budget")
    p.add_argument("text", help="the task, in words")
    project_arg(p)
    p.add_argument("--budget", type=int, default=8000, help="token budget, never exceeded (default 8000)")
    p.add_argument("--tokenizer", default="auto", help="auto (default), estimate, o200k_base or cl100k_base")
    p.add_argument("--json", action="store_true", help="print the pack as JSON")
    p.set_defaults(func=cmd_context)

    p = sub.add_parser("refs", help="usages of a type, Type.Member, file or GUID in code and assets")
    p.add_argument("target", help="PlayerHealth, PlayerHealth.Heal, Assets/Prefabs/Player.prefab, a GUID, an assembly")
    project_arg(p)
    p.add_argument("--limit", type=int, default=200, help="most usages to print (default 200; 0 = all)")
    p.add_argument("--json", action="store_true", help="print usages as JSON")
    p.set_defaults(func=cmd_refs)

    p = sub.add_parser("describe", help="outline of a script, scene, prefab, asset, material or shader")
    p.add_argument("target", help="a project path (Assets/...) or a GUID")
    project_arg(p)
    p.add_argument("--json", action="store_true", help="print the outline and records as JSON")
    p.set_defaults(func=cmd_describe)

    p = sub.add_parser("status", help="what the index holds and whether it is current")
    project_arg(p)
    p.add_argument("--json", action="store_true", help="print status as JSON")
    p.add_argument("--check", action="store_true", help="exit 1 when the index is missing or stale")
    p.set_defaults(func=cmd_status)

    p = sub.add_parser("watch", help="keep the index current from file events (Ctrl-C stops)")
    project_arg(p)
    p.add_argument("--json", action="store_true", help="print one JSON line per applied batch")
    p.set_defaults(func=cmd_watch)

    p = sub.add_parser("hook", help="install git hooks that refresh the index (for repos without pre-commit)")
    p.add_argument("action", choices=("install", "uninstall"))
    project_arg(p)
    p.add_argument("--json", action="store_true", help="print what was done as JSON")
    p.set_defaults(func=cmd_hook)

    p = sub.add_parser("doctor", help="check the installation, the project and its index; say how to fix problems")
    project_arg(p)
    p.add_argument("--json", action="store_true", help="print the checks as JSON")
    p.set_defaults(func=cmd_doctor)

    p = sub.add_parser("completion", help="print a shell completion script (bash, zsh or fish)")
    p.add_argument("shell", choices=("bash", "zsh", "fish"))
    p.set_defaults(func=cmd_completion)
    return parser


def _debug_everywhere(parser: argparse.ArgumentParser) -> None:
    """Accept --debug after the command too (`unity-index query x --debug`); SUPPRESS keeps the
    top-level value when it is not given there."""
    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    if sub is None:
        return
    for child in sub.choices.values():
        if not any("--debug" in a.option_strings for a in child._actions):
            child.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks")
        _debug_everywhere(child)


PLUGIN_GROUP = "unity_index.commands"


class CommandAPI:
    """What a command contributed by another package (the MCP adapter's `serve`) may use.

    Commands arrive through the `unity_index.commands` entry point group, so `indexer` names no
    package that builds on it."""

    UsageError = UsageError
    EXIT_OK = EXIT_OK
    workspace = staticmethod(lambda args: _workspace(args))

    @staticmethod
    def project_arg(p: argparse.ArgumentParser) -> None:
        _project_arg(p)


def _load_plugins(parser: argparse.ArgumentParser) -> None:
    from importlib.metadata import entry_points

    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for ep in sorted(entry_points(group=PLUGIN_GROUP), key=lambda e: e.name):
        ep.load()(sub, CommandAPI)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    if command not in BUILTIN_COMMANDS:  # help, or a command another package contributes
        _load_plugins(parser)
    _debug_everywhere(parser)
    args = parser.parse_args(argv)
    console = Console()
    func: Callable[[argparse.Namespace, Console], int] = args.func
    try:
        return func(args, console)
    except UsageError as exc:
        _traceback_if(args.debug)
        console.error(str(exc))
        return EXIT_USAGE
    except KeyboardInterrupt:
        console.error("interrupted")
        return 130
    except BrokenPipeError:  # `unity-index query x | head -1`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except OSError as exc:  # the environment (permissions, a full disk), not a bug
        _traceback_if(args.debug)
        where = f": {exc.filename}" if exc.filename else ""
        console.error(
            f"{exc.strerror or exc}{where}; check that this file or folder can be read and written"
            " (and that the disk has room), then run the command again"
        )
        return EXIT_USAGE
    except Exception as exc:
        if args.debug:
            raise
        console.error(
            f"internal error: {type(exc).__name__}: {exc} (a bug: run again with --debug and report the traceback)"
        )
        return EXIT_INTERNAL


def _traceback_if(debug: bool) -> None:
    if debug:
        import traceback

        traceback.print_exc()


if __name__ == "__main__":
    sys.exit(main())
