"""The prompt: a task turned into a context pack, with what to do next."""

from __future__ import annotations

from mcp.server import MCPServer
from mcp.server.mcpserver import Context

from indexer.query.context import build_context
from indexer.query.render import render_context
from mcp_adapter.server.state import state_of


def unity_task(task: str, ctx: Context, budget: int = 8000) -> str:
    """Turn a task into a ready context pack, with guidance on which tools to use next."""
    if not task.strip():
        raise ValueError("the task is empty: describe it")
    state = state_of(ctx)
    state.fresh.ensure()
    pack = build_context(state.ws, task, budget, state.tok)
    return (
        f"Task: {task}\n\nHere is the context of this Unity project for the task "
        f"({pack.tokens} tokens):\n\n{render_context(pack)}\n\n"
        "Next steps: `describe` a file above to see its outline, what it uses and what uses it; "
        "`find_references` a type or Type.Member to find every script, prefab, scene and UnityEvent "
        "that depends on it before changing it; `search` for anything the pack missed. "
        "If a Unity editor is running, `editor_tools` lists what it can do live."
    )


def register(mcp: MCPServer) -> None:
    mcp.prompt(title="Start a Unity task")(unity_task)
