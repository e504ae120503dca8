"""Failures that are not bugs, told to the client in words it can act on.

The SDK answers an exception a tool did not raise as a `ToolError` with "Error executing tool
search" and nothing else (the reason stays in the server's log), and a resource or the prompt
with "Error reading resource ..." / "Error rendering prompt ...". A project whose index cannot be
written (a read-only folder, a full disk), a damaged index that cannot be rebuilt, or no index
yet because building it failed, are not bugs: they get the CLI's message for the same failure
(`explain_failure`), in the server's words (wording.py), which says what happened and what to do.

A damaged index is not even a failure at first: damage that only reading shows (a page garbled
in place, which the fingerprint check before answering cannot see) makes the index be rebuilt
from scratch and the answer be made again (`repairing`).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent

from indexer.cli.common import explain_failure
from indexer.store.header import IndexMissing
from indexer.store.integrity import is_damage
from mcp_adapter.server.freshness import Freshness, Stopping, noting
from mcp_adapter.server.wording import mcp_wording

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

log = logging.getLogger("unity_index.mcp")


def explain(exc: BaseException, fresh: Freshness | None) -> str | None:
    """What to tell the client about `exc`; None for a bug (the SDK's generic answer stays)."""
    if isinstance(exc, IndexMissing) and not is_damage(exc):
        return _no_index(exc, fresh)
    if isinstance(exc, Stopping):
        return str(exc)
    message = explain_failure(exc)
    return None if message is None else mcp_wording(message)


def _no_index(exc: IndexMissing, fresh: Freshness | None) -> str:
    """No index to answer from: say why, and never claim a build that is not running."""
    failed = fresh.failures() if fresh is not None else []
    if failed:
        return f"{exc}: building it failed ({'; '.join(failed)})"
    if fresh is not None and fresh.building():
        return f"{exc}: it is being built (`index_status` shows how far); call again once it is done"
    return f"{exc}: no build of it is running; call again, and the call builds it first"


def repairing(fresh: Freshness | None, answer: Callable[[], T]) -> T:
    """`answer()`; if reading found the index damaged, once more after rebuilding it (when the
    rebuild does not run, the damage is raised as it was)."""
    try:
        return answer()
    except Exception as exc:
        if fresh is None or not is_damage(exc):
            raise
        seen = fresh.stamps()
        log.warning("the index is damaged (%s: %s); rebuilding it before answering", type(exc).__name__, exc)
        if not fresh.rebuild(seen):
            raise
    return answer()


def fresh_of(kwargs: dict[str, Any]) -> Freshness | None:
    """The server's freshness from a handler's `ctx` argument, if it has one."""
    ctx = kwargs.get("ctx")
    state = getattr(getattr(ctx, "request_context", None), "lifespan_context", None)
    return getattr(state, "fresh", None)


def explained(fn: F) -> F:
    """`fn` (a tool), answering again after rebuilding a damaged index, with the failures `explain`
    knows raised as a `ToolError` saying why; an answer from the last committed index while
    another process writes it ends with a text block saying so (`freshness.noting`)."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        fresh = fresh_of(kwargs)
        try:
            with noting() as notes:
                result = repairing(fresh, lambda: fn(*args, **kwargs))
            if notes and isinstance(result, CallToolResult):
                result.content.extend(TextContent(type="text", text=note) for note in notes)
            return result
        except ToolError:
            raise
        except Exception as exc:
            message = explain(exc, fresh)
            if message is None:
                raise
            raise ToolError(message) from exc

    return run  # type: ignore[return-value]
