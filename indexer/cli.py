"""The `unity-index` command line. Parsing here; each command's work lives in its module.

Exit codes: 0 success, 1 a check failed or the index is stale, 2 usage or configuration error,
3 an internal error (a bug: please report it with the --debug traceback).
Imports are lazy so a query never loads the scanners.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from .console import Console

EXIT_OK, EXIT_STALE, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
JSON_SCHEMA_VERSION = 1


class UsageError(Exception):
    """An expected failure with a message that says what to do; exit code 2, no traceback."""


def _workspace(args: argparse.Namespace):
    """The project(s) a command works on: --project DIR (a project, or a folder holding several),
    else the nearest project at or above the working directory."""
    from .config import ConfigError
    from .project import ProjectNotFound, find_root
    from .workspace import open_workspace, projects_at

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
    from .indexing import update
    from .store import IndexBusy

    ws = _workspace(args)
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


def _ensure_index(ws, console: Console) -> None:
    """Build the index of any project of the workspace that has none yet."""
    from .indexing import update
    from .store import header_ok

    for p in ws.projects:
        if not header_ok(p.paths):
            console.info(f"no index for {p.root} yet: building it")
            update(p.root, p.config, wait=True, progress=console.progress(f"indexing {p.name}"))


def cmd_query(args: argparse.Namespace, console: Console) -> int:
    if not args.text.strip():
        raise UsageError('the query is empty: say what you are looking for, e.g. unity-index query "player health"')
    if args.limit < 1:
        raise UsageError("--limit must be at least 1")
    ws = _workspace(args)
    _ensure_index(ws, console)
    hits = ws.search(args.text, limit=args.limit, kind=args.kind, path_prefix=args.path)
    if args.json:
        _print_json({"schema_version": JSON_SCHEMA_VERSION, "query": args.text, "results": hits})
        return EXIT_OK
    if not hits:
        console.info("no results")
    for i, h in enumerate(hits, 1):
        loc = f"{h.path}:{h.line}" if h.line else h.path
        print(f"{i:>2}. {loc}  [{h.kind}] {h.name}  ({h.score:.2f})")
        if h.snippet:
            print(f"      {h.snippet}")
    return EXIT_OK


def cmd_context(args: argparse.Namespace, console: Console) -> int:
    from .context import build_context
    from .tokens import counter

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
        print(pack.render())
        console.info(f"[{pack.tokens}/{pack.budget} tokens, {pack.tokenizer}; {len(pack.tier2.files)} files in tier 2]")
    return EXIT_OK


def _inside(ws, text: str) -> str:
    """A user path as a workspace-relative path; refuses paths outside it."""
    from .graph import GUID_RE
    from .project import resolve_inside

    if GUID_RE.match(text.strip()):
        return text.strip()
    try:
        return resolve_inside(ws.base, text)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def cmd_refs(args: argparse.Namespace, console: Console) -> int:
    import msgspec

    if not args.target.strip():
        raise UsageError("the target is empty: give a type, Type.Member, a path or a GUID")
    ws = _workspace(args)
    _ensure_index(ws, console)
    text = args.target.strip()
    projects = ws.projects
    if "/" in text or "\\" in text:
        text = _inside(ws, text)
        owner = ws.owner(text)
        if owner is None:
            raise UsageError(f"{args.target} is in none of the projects of {ws.base}")
        projects, text = [owner[0]], owner[1]
    target = None
    usages = []
    for p in projects:
        graph = p.fresh().graph
        t = graph.target(text)
        if t.kind == "unknown":
            continue
        if target is None:
            target = msgspec.structs.replace(t, path=p.prefix + t.path if t.path else "")
        usages += [msgspec.structs.replace(u, path=p.prefix + u.path) for u in graph.references(t)]
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
    import msgspec

    from .describe import NotFound, describe, resolve_file
    from .graph import GUID_RE

    text = args.target.strip()
    if not text:
        raise UsageError("give a project path or a GUID to describe")
    ws = _workspace(args)
    _ensure_index(ws, console)
    text = _inside(ws, text)
    if GUID_RE.match(text):
        candidates = [(p.fresh(), text) for p in ws.projects]
    else:
        owner = ws.owner(text)
        if owner is None:
            raise UsageError(f"{args.target} is in none of the projects of {ws.base}")
        candidates = [owner]
    error = None
    for p, local in candidates:
        try:
            desc = describe(p.graph, resolve_file(p.graph, local))
        except NotFound as exc:
            error = exc
            continue
        if p.prefix:
            desc = msgspec.structs.replace(desc, path=p.prefix + desc.path)
        if args.json:
            _print_json(desc)
        else:
            print(desc.text if not p.prefix else f"[project {p.name}]\n{desc.text}")
        return EXIT_OK
    raise UsageError(str(error))


def cmd_status(args: argparse.Namespace, console: Console) -> int:
    from .status import project_status

    ws = _workspace(args)
    statuses = [project_status(p.root, p.config) for p in ws.projects]
    if args.json:
        if ws.single:
            _print_json({"schema_version": JSON_SCHEMA_VERSION, **_struct_dict(statuses[0])})
        else:
            _print_json({"schema_version": JSON_SCHEMA_VERSION, "workspace": str(ws.base), "projects": statuses})
    else:
        print("\n\n".join(st.render() for st in statuses))
    bad = any(not st.indexed or st.stale_files for st in statuses)
    return EXIT_STALE if args.check and bad else EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="unity-index",
        description="Index a Unity project and hand back the context a task needs.",
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks for errors")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def project_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--project", metavar="DIR", help="Unity project root (default: nearest one above the working directory)"
        )

    p = sub.add_parser("index", help="build or update the index")
    project_arg(p)
    p.add_argument("--full", action="store_true", help="rebuild from scratch instead of updating")
    p.add_argument("--wait", action="store_true", help="wait for another indexer instead of failing")
    p.add_argument("--json", action="store_true", help="print what was done as JSON")
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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    console = Console()
    func: Callable[[argparse.Namespace, Console], int] = args.func
    try:
        return func(args, console)
    except UsageError as exc:
        console.error(str(exc))
        return EXIT_USAGE
    except KeyboardInterrupt:
        console.error("interrupted")
        return 130
    except Exception as exc:
        if args.debug:
            raise
        console.error(f"internal error: {type(exc).__name__}: {exc} (run again with --debug for the traceback)")
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
