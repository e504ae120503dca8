"""An animator controller's parameter as a `refs` target: `refs isRunning` lists the controllers
declaring it, the transitions it fires, and the code setting or reading it by name
(`animator.SetBool("isRunning", true)`). No type or member of the project has that name, so
`refs` had nothing to say of what drives an animation (two trials asked)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.model import Target, Usage
from indexer.query.held_strings import lines_naming
from indexer.words import excerpt

if TYPE_CHECKING:
    from indexer.query.graph import Graph

# Animator's calls taking a parameter's name (or a field holding it, or its hash) as their first argument
_CALLS = (
    r"\b(SetBool|SetFloat|SetInteger|SetTrigger|ResetTrigger|GetBool|GetFloat|GetInteger|StringToHash)"
    r"\s*\(\s*(?:{})"
)


def parameter_target(graph: Graph, name: str) -> Target | None:
    """The animator parameter named so in the project's controllers, if any declares it."""
    controllers = _declaring(graph, name)
    if not controllers:
        return None
    note = f"a parameter of {len(controllers)} animator controller{'s' if len(controllers) > 1 else ''}"
    return Target(kind="animator_parameter", name=name, note=note)


def _declaring(graph: Graph, name: str) -> list[str]:
    return [
        path
        for path in graph.records.paths_of_kind("animator")
        if any(s.kind == "animator_parameter" and s.name == name for s in graph.records.symbols(path))
    ]


def parameter_usages(graph: Graph, name: str) -> list[Usage]:
    """Its declarations and the transitions it fires, in the controllers; the code lines naming it
    in an Animator call."""
    word = re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)")
    out = []
    for path in _declaring(graph, name):
        for s in graph.records.symbols(path):
            if s.kind == "animator_parameter" and s.name == name:
                out.append(
                    Usage(path, s.line, "asset", "declaration", "parameter", f"{s.container}: {name} [{s.type}]")
                )
            elif s.kind == "animator_transition" and word.search(s.signature.partition(" when ")[2]):
                out.append(Usage(path, s.line, "asset", "condition", "transition", s.signature))
    # `SetBool("IsWalking", …)`, `SetBool(IsWalking, …)`, `StringToHash(AnimatorConstants.IS_WALKING)`
    return out + [
        Usage(p, n, "code", "animator", m[1], excerpt(text, name))
        for p, n, text, m in lines_naming(graph, name, _CALLS)
    ]
