"""Commands that answer from the index: query, context, refs, describe."""

from __future__ import annotations

import argparse
import shlex

from indexer.cli.common import (
    EXIT_OK,
    JSON_SCHEMA_VERSION,
    UsageError,
    answer_current,
    kinds,
    print_json,
    project_arg,
    refresh_arg,
    working_folder,
    workspace,
)
from indexer.cli.console import Console
from indexer.kinds import kind_named
from indexer.query.render import render_context, render_description, render_hits, render_refs
from indexer.words import echoed, for_terminal, plural


def cmd_query(args: argparse.Namespace, console: Console) -> int:
    if not args.text.strip():
        raise UsageError('the query is empty: say what you are looking for, e.g. unity-index query "player health"')
    if args.limit < 1:
        raise UsageError("--limit must be at least 1")
    if args.kind is not None and (kind := kind_named(args.kind)) is None:
        raise UsageError(f"--kind {echoed(args.kind)}: no such kind; use one of {', '.join(sorted(kinds()))}")
    args.kind = kind if args.kind is not None else None
    ws = workspace(args)
    hits = answer_current(
        ws, console, args.refresh, lambda ws: ws.search(args.text, args.limit, args.kind, _folder(ws, args.path))
    )
    if args.json:
        print_json({"schema_version": JSON_SCHEMA_VERSION, "query": args.text, "results": hits})
        return EXIT_OK
    if not hits:
        from indexer.query.empty import empty_index_note

        narrowed = " or drop --kind/--path" if args.kind or args.path else ""
        why = empty_index_note(ws) or f"try other words (identifiers, file names){narrowed}"
        console.info(f"no results: {why}")
    else:
        print(for_terminal(render_hits(hits)))
    return EXIT_OK


def _folder(ws, text: str | None) -> str | None:
    """--path as typed (from the working directory, the project, or absolute), as a workspace folder."""
    from indexer.query.locate import LookupFailed, locate_folder

    if not text or not text.strip():
        return None
    try:
        return locate_folder(ws, text, working_folder()) or None
    except LookupFailed as exc:
        raise UsageError(str(exc)) from None


def cmd_context(args: argparse.Namespace, console: Console) -> int:
    import msgspec

    from indexer.query.context import build_context, why_no_files
    from indexer.query.tokens import counter, printed

    if not args.text.strip():
        raise UsageError('the task is empty: describe it, e.g. unity-index context "add a shield that absorbs damage"')
    if args.budget < 1:
        raise UsageError("--budget must be at least 1 token")
    try:
        tok = counter(args.tokenizer)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    ws = workspace(args)
    count = tok if args.json else printed(tok)
    pack = answer_current(ws, console, args.refresh, lambda ws: build_context(ws, args.text, args.budget, count))
    if not pack.tier2.files:  # say why the pack holds no file: no match, or no room
        pack = msgspec.structs.replace(pack, note=why_no_files(ws, args.text, args.budget, "--budget"))
    if args.json:
        print_json(pack)
    else:
        print(for_terminal(render_context(pack)))
        files = plural(len(pack.tier2.files), "file")
        console.info(f"[{pack.tokens}/{pack.budget} tokens, {pack.tokenizer}; {files} in tier 2]")
        if pack.note:
            console.info(pack.note)
    return EXIT_OK


def cmd_refs(args: argparse.Namespace, console: Console) -> int:
    from indexer.query.locate import LookupFailed, references_of
    from indexer.query.lookup import unknown_target_hint

    if not args.target.strip():
        raise UsageError("the target is empty: give a type, Type.Member, a path or a GUID")
    if args.limit < 0:  # a slice would drop usages from the end
        raise UsageError("--limit must be 0 (every usage) or more")
    ws = workspace(args)
    text = args.target.strip()
    try:
        target, usages = answer_current(ws, console, args.refresh, lambda ws: references_of(ws, text, working_folder()))
    except LookupFailed as exc:
        raise UsageError(str(exc)) from None
    if target is None:
        # the command as it can be pasted: the words quoted for the shell
        words = ("-- " if args.target.startswith("-") else "") + shlex.quote(args.target)  # not an option
        search = "unity-index query" + (f" {words}" if echoed(args.target) == args.target else "")
        said, names = unknown_target_hint(ws, text)
        said += f" (`unity-index refs {names[0]}`)" if names else ""
        raise UsageError(
            f"{echoed(args.target)}: no type, member, file, GUID or assembly of that name{said}; `{search}` searches"
            " by words"
        )
    shown = usages[: args.limit] if args.limit else usages
    if args.json:
        print_json({"schema_version": JSON_SCHEMA_VERSION, "target": target, "total": len(usages), "usages": shown})
        return EXIT_OK
    print(for_terminal(render_refs(target, usages, shown)))
    if len(shown) < len(usages):
        console.info(f"[{len(usages) - len(shown)} more; --limit 0 shows all]")
    return EXIT_OK


def cmd_describe(args: argparse.Namespace, console: Console) -> int:
    from indexer.query.locate import LookupFailed, locate_file
    from indexer.query.lookup import describe_target

    text = args.target.strip()
    if not text:
        raise UsageError("give a project path or a GUID to describe")
    ws = workspace(args)
    try:
        project, desc = answer_current(
            ws, console, args.refresh, lambda ws: describe_target(ws, locate_file(ws, text, working_folder()))
        )
    except LookupFailed as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print_json(desc)
    else:
        print(for_terminal(render_description(desc, None if ws.single else project)))
    return EXIT_OK


def _add_query(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("query", help="rank the project's files for a query")
    p.add_argument("text", help="what you are looking for: words, identifiers or a task description")
    project_arg(p)
    p.add_argument("--limit", type=int, default=10, help="number of results (default 10)")
    kind = p.add_argument(
        "--kind", help="only files of this kind (csharp, scene, prefab, asset, material, shader, ...)"
    )
    kind.completions = sorted(kinds())  # checked by the command, so the error can list them
    p.add_argument("--path", help="only files under this folder (from here, from the project, or absolute)")
    p.add_argument("--json", action="store_true", help="print results as JSON")
    refresh_arg(p)
    p.set_defaults(func=cmd_query)


def _add_context(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("context", help="a two-tier context pack for a task, under a token budget")
    p.add_argument("text", help="the task, in words")
    project_arg(p)
    p.add_argument("--budget", type=int, default=8000, help="token budget, never exceeded (default 8000)")
    from indexer.query.tokens import NAMES

    tokenizer = p.add_argument(
        "--tokenizer", default="auto", help="auto (default), estimate, o200k_base or cl100k_base"
    )
    tokenizer.completions = NAMES
    p.add_argument("--json", action="store_true", help="print the pack as JSON")
    refresh_arg(p)
    p.set_defaults(func=cmd_context)


def _add_refs(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("refs", help="usages of a type, Type.Member, file, GUID or assembly in code and assets")
    p.add_argument("target", help="PlayerHealth, PlayerHealth.Heal, Assets/Prefabs/Player.prefab, a GUID, an assembly")
    project_arg(p)
    p.add_argument("--limit", type=int, default=200, help="most usages to print (default 200; 0 = all)")
    p.add_argument("--json", action="store_true", help="print usages as JSON")
    refresh_arg(p)
    p.set_defaults(func=cmd_refs)


def _add_describe(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "describe",
        help="outline of a file (script, scene, prefab, asset, material, shader, ...) by path, GUID or type name",
    )
    p.add_argument(
        "target", help="a path (from here, from the project, absolute, or a file name), a GUID or a type's name"
    )
    project_arg(p)
    p.add_argument("--json", action="store_true", help="print the outline and records as JSON")
    refresh_arg(p)
    p.set_defaults(func=cmd_describe)


# The commands of this module, by name; the CLI adds them in its own order.
COMMANDS = {"query": _add_query, "context": _add_context, "refs": _add_refs, "describe": _add_describe}
