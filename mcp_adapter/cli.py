"""`unity-index serve`: contributed to the CLI through the `unity_index.commands` entry point,
so that `indexer` never imports this package. The MCP SDK is imported only when serving."""

from __future__ import annotations

import argparse


def port_number(text: str) -> int:
    """A TCP port for argparse: 0 to 65535 (a larger one was an internal error when binding)."""
    value = int(text) if text.strip().isdigit() else -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 0 to 65535 (got {text!r})")
    return value


def register(sub: argparse._SubParsersAction, api) -> None:
    p = sub.add_parser("serve", help="serve the index to coding agents over MCP (stdio or HTTP)")
    api.project_arg(p)
    p.add_argument("--transport", choices=("stdio", "http"), default="stdio", help="stdio (default) or http")
    p.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1; others need --allow-remote)")
    p.add_argument("--port", type=port_number, default=8765, help="HTTP port (default 8765; 0: any free port)")
    p.add_argument("--allow-remote", action="store_true", help="allow binding an address other than loopback")
    p.add_argument("--token", help="bearer token HTTP clients must send (required with --allow-remote)")
    p.add_argument(
        "--allow-origin",
        action="append",
        metavar="ORIGIN",
        help="HTTP: a web page's origin allowed to call the server, e.g. http://localhost:5173 (repeatable;"
        " by default a request with an Origin header, which browsers send, is refused)",
    )
    p.add_argument(
        "--refresh-interval",
        type=api.seconds,
        default=2.0,
        help="without a file watcher, check files on disk at most every N seconds (default 2)",
    )
    p.add_argument("--no-watch", action="store_true", help="no file watcher: check files on disk before answering")
    p.add_argument(
        "--editor-tools",
        choices=("compact", "direct"),
        default="compact",
        help="compact: the editor behind editor_tools/editor_call (default); direct: also each editor tool as a tool",
    )
    p.set_defaults(func=lambda args, console: cmd_serve(args, api))

    from mcp_adapter.install import CLIENTS

    mcp = sub.add_parser("mcp", help="set up coding agents to use unity-index over MCP")
    mcp_sub = mcp.add_subparsers(dest="mcp_command", metavar="COMMAND", required=True)
    p = mcp_sub.add_parser(
        "install",
        help="write a client's MCP configuration so it starts `unity-index serve` for this project",
        description="Write (merge) the unity-index server into a coding agent's MCP configuration file.",
    )
    p.add_argument("--client", required=True, choices=tuple(CLIENTS), help="the coding agent to configure")
    p.add_argument(
        "--scope",
        choices=("project", "user"),
        help="project (the default where the client has one) or user (the home directory)",
    )
    p.add_argument("--dry-run", action="store_true", help="print the file path and its new content; write nothing")
    p.add_argument("--json", action="store_true", help="print what was (or would be) written as JSON")
    api.project_arg(p)
    p.set_defaults(func=lambda args, console: cmd_mcp_install(args, api, console))


def cmd_mcp_install(args: argparse.Namespace, api, console) -> int:
    import json
    import sys

    from mcp_adapter.install import CLIENTS, InstallError, check_scope, command_line, install

    try:
        scope = check_scope(CLIENTS[args.client], args.scope)
        ws = api.workspace(args)
        result = install(args.client, ws.base.resolve(), scope, dry_run=args.dry_run, single_project=ws.single)
    except InstallError as exc:  # it names the configuration file
        raise api.UsageError(api.shown(str(exc))) from None
    where = f"{args.client}, {scope} scope"
    if args.json:
        data = {"schema_version": 1, "client": args.client, "scope": scope, "path": str(result.path)}
        data.update(name=result.name, command=result.command, changed=result.changed, written=result.written)
        data.update(replaced=result.replaced, notes=result.notes, content=result.content)
        sys.stdout.write(json.dumps(data) + "\n")
        return api.EXIT_OK
    runs = api.shown(f"{result.name} runs {command_line(result.command)}")
    path = api.shown(result.path)  # the JSON content is escaped as JSON is
    if not result.changed:
        sys.stdout.write(f"{path}: already configured ({where}): {runs}; nothing changed\n")
    elif args.dry_run:
        sys.stdout.write(f"would write {path} ({where}):\n{result.content}")
    else:
        sys.stdout.write(f"wrote {path} ({where}): {runs}\n")
    for old in result.replaced:
        console.info(f"{'would replace' if args.dry_run else 'replaced'} {api.shown(old)}")
    for note in result.notes:
        console.warn(api.shown(note))
    return api.EXIT_OK


def register_editor(sub: argparse._SubParsersAction, api) -> None:
    p = sub.add_parser("editor", help="reach the live Unity editor's tools (needs the editor package running)")
    esub = p.add_subparsers(dest="editor_command", required=True, metavar="ACTION")
    t = esub.add_parser("tools", help="list the editor's tools with their argument schemas")
    api.project_arg(t)
    t.add_argument("--json", action="store_true", help="print the tools as JSON")
    t.set_defaults(func=lambda args, console: cmd_editor(args, api))
    c = esub.add_parser("call", help="call one editor tool")
    c.add_argument("name", help="the tool's name (see `unity-index editor tools`)")
    c.add_argument("--args", default="{}", help='the arguments as a JSON object, e.g. \'{"path": "Player"}\'')
    c.add_argument("--json", action="store_true", help='print {"schema_version", "tool", "result"} on one line')
    api.project_arg(c)
    c.set_defaults(func=lambda args, console: cmd_editor(args, api))


def cmd_editor(args: argparse.Namespace, api) -> int:
    """The same bridge the MCP server uses, from a terminal or a script."""
    import json

    from mcp_adapter.editor import bridge as eb

    ws = api.workspace(args)
    if len(ws.projects) != 1:
        raise api.UsageError("the editor works on one project: pass --project with a single Unity project")
    bridge = eb.EditorBridge(ws.projects[0].root)
    try:
        if args.editor_command == "tools":
            tools = bridge.list_tools()
            if args.json:
                print(json.dumps({"schema_version": 1, "tools": tools}))
            else:
                for tool in tools:
                    print(f"{tool['name']}: {tool.get('description', '')}")
            return api.EXIT_OK
        try:
            arguments = json.loads(args.args)
        except (ValueError, RecursionError) as exc:
            raise api.UsageError(f"--args is not valid JSON: {exc}") from None
        if not isinstance(arguments, dict):
            raise api.UsageError("--args must be a JSON object, e.g. '{}'")
        result = bridge.call_tool(args.name, arguments)
        if args.json:
            print(json.dumps({"schema_version": 1, "tool": args.name, "result": result}))
        else:
            print(json.dumps(result, indent=2))
        return api.EXIT_OK
    except eb.EditorBridgeError as exc:  # it names the project and its heartbeat file
        raise api.UsageError(api.shown(str(exc))) from None


def cmd_serve(args: argparse.Namespace, api) -> int:
    from mcp_adapter.http_guards import OriginRefused, origin_allowed
    from mcp_adapter.serve import ServeRefused, check_bind, serve

    origins: list[str] = []
    if args.transport == "http":
        try:
            check_bind(args.host, args.allow_remote, args.token)
            origins = [origin_allowed(o) for o in args.allow_origin or ()]
        except (ServeRefused, OriginRefused) as exc:
            raise api.UsageError(api.shown(str(exc))) from None
    ws = api.workspace(args)
    try:
        serve(
            ws,
            transport=args.transport,
            host=args.host,
            port=args.port,
            token=args.token,
            allow_remote=args.allow_remote,
            refresh_interval=args.refresh_interval,
            watch=not args.no_watch,
            editor_tools_mode=args.editor_tools,
            allow_origins=origins,
        )
    except ServeRefused as exc:  # the port is in use, or the address is not this machine's
        raise api.UsageError(str(exc)) from None
    return api.EXIT_OK
