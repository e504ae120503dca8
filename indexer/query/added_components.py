"""The scripts that add a component at run time (`AddComponent<T>()`).

A MonoBehaviour no prefab or scene carries is attached by code: `gameObject.AddComponent<DeathEndsGame>()`
in the block whose type says the game ends on its death. The script adding it is where it is wired,
as a prefab is for a component it carries (`pairing._Pairs.adders_of_scripts`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.project import is_script

if TYPE_CHECKING:
    from indexer.query.workspace import ProjectIndex


# `AddComponent<Name>(`, the call a generic reference to `Name` on a line may be: one pattern for
# every class (one a class cost each first query naming it a compile: 76 were a third of a query).
_ADDING = re.compile(r"\bAddComponent\s*<\s*(?:[\w.]*\.)?(\w+)\s*>\s*\(")


# A class more scripts use than this is no component one of them adds: its users' records are not
# decoded (each a query's decode: a base class of hundreds of users cost every query that many).
USERS_MOST = 40


def adders(project: ProjectIndex, script: str) -> list[str]:
    """The project scripts that add `script`'s class with `AddComponent<T>()`, by path: those using
    its type whose generic reference to it sits on a line calling `AddComponent` with it (none
    when more than USERS_MOST scripts use it)."""
    graph = project.graph
    users = [user for user, edge in graph.used_by(script) if edge == "uses_type" and is_script(user)]
    if len(users) > USERS_MOST:
        return []
    out = []
    for user in users:
        if "AddComponent" not in project.texts.get(user).text:  # most users never call it: no record decoded
            continue
        if (rec := graph.records.record(user)) is None:
            continue
        for ref in rec.refs:
            if ref.kind != "type" or ref.context != "generic":
                continue
            name = ref.target.rsplit(".", 1)[-1]
            added = (m.group(1) for m in _ADDING.finditer(graph.source_line(user, ref.line)))
            if name in added and any(t.path == script for t in graph.resolve_type_ref(ref.target, rec)):
                out.append(user)
                break
    return out
