"""`unity-index serve`: contributed to the CLI through the `unity_index.commands` entry point,
so that `indexer` never imports this package. The MCP SDK is imported only when serving."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction, api) -> None:
    p = sub.add_parser("serve", help="serve the index to coding agents over MCP (stdio or HTTP)")
    api.project_arg(p)
    p.add_argument("--transport", choices=("stdio", "http"), default="stdio", help="stdio (default) or http")
    p.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1; others need --allow-remote)")
    p.add_argument("--port", type=int, default=8765, help="HTTP port (default 8765)")
    p.add_argument("--allow-remote", action="store_true", help="allow binding an address other than loopback")
    p.add_argument("--token", help="bearer token HTTP clients must send (required with --allow-remote)")
    p.add_argument(
        "--refresh-interval", type=float, default=2.0, help="check files on disk at most every N seconds (default 2)"
    )
    p.set_defaults(func=lambda args, console: cmd_serve(args, api))


def cmd_serve(args: argparse.Namespace, api) -> int:
    from .serve import ServeRefused, check_bind, serve

    if args.transport == "http":
        try:
            check_bind(args.host, args.allow_remote, args.token)
        except ServeRefused as exc:
            raise api.UsageError(str(exc)) from None
    ws = api.workspace(args)
    serve(
        ws,
        transport=args.transport,
        host=args.host,
        port=args.port,
        token=args.token,
        allow_remote=args.allow_remote,
        refresh_interval=args.refresh_interval,
    )
    return api.EXIT_OK
