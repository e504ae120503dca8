"""Failures that are not bugs, told to the client in words it can act on.

The SDK answers an exception a tool did not raise as a `ToolError` with "Error executing tool
search" and nothing else (the reason stays in the server's log), and a resource or the prompt
with "Error reading resource ..." / "Error rendering prompt ...". A project whose index cannot be
written (a read-only folder, a full disk), a damaged index that cannot be rebuilt, or no index
yet because building it failed, are not bugs: they get the CLI's message for the same failure
(`explain_failure`), which says what happened and what to do.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from mcp.server.mcpserver.exceptions import ToolError

from indexer.cli.common import explain_failure
from indexer.store.header import IndexMissing
from mcp_adapter.server.freshness import Freshness

F = TypeVar("F", bound=Callable[..., Any])


def explain(exc: BaseException, fresh: Freshness | None) -> str | None:
    """What to tell the client about `exc`; None for a bug (the SDK's generic answer stays)."""
    if isinstance(exc, IndexMissing):
        failed = fresh.failures() if fresh is not None else []
        if failed:
            return f"{exc}: building it failed ({'; '.join(failed)})"
        return f"{exc}: it is being built (`index_status` shows how far); call again once it is done"
    return explain_failure(exc)


def fresh_of(kwargs: dict[str, Any]) -> Freshness | None:
    """The server's freshness from a handler's `ctx` argument, if it has one."""
    ctx = kwargs.get("ctx")
    state = getattr(getattr(ctx, "request_context", None), "lifespan_context", None)
    return getattr(state, "fresh", None)


def explained(fn: F) -> F:
    """`fn` (a tool) with the failures `explain` knows raised as a `ToolError` saying why."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ToolError:
            raise
        except Exception as exc:
            message = explain(exc, fresh_of(kwargs))
            if message is None:
                raise
            raise ToolError(message) from exc

    return run  # type: ignore[return-value]
