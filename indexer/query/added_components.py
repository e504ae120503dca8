"""The scripts that add a component at run time (`AddComponent<T>()`).

A MonoBehaviour no prefab or scene carries is attached by code: `gameObject.AddComponent<DeathEndsGame>()`
in the block whose type says the game ends on its death. The script adding it is where it is wired,
as a prefab is for a component it carries (`pairing._Pairs.adders_of_scripts`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.project import is_script
from indexer.store.schema import REF_TARGET

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
    when more than USERS_MOST scripts use it). The generic references are read from the refs
    table by the names `script` declares: no user's text is read nor record decoded but an adder's
    (reading forty users' texts was a first query's 6 ms on UnityCsReference)."""
    graph = project.graph
    users = {user for user, edge in graph.used_by(script) if edge == "uses_type" and is_script(user)}
    if not users or len(users) > USERS_MOST:
        return []
    names = [n for (n,) in graph.records.conn.execute(_DECLARED, (script,))]
    marks = ",".join("?" * len(names))
    out: set[str] = set()
    for user, line, target, key in graph.records.conn.execute(_GENERIC.format(marks=marks), names):
        if user in out or user not in users:
            continue
        added = (m.group(1) for m in _ADDING.finditer(graph.source_line(user, line)))
        if key not in added or (rec := graph.records.record(user)) is None:
            continue
        if any(t.path == script for t in graph.resolve_type_ref(target, rec)):
            out.add(user)
    return sorted(out)


_DECLARED = "SELECT DISTINCT t.name FROM types t JOIN files f ON f.id = t.file_id WHERE f.path = ?"
_GENERIC = (
    f"SELECT f.path, r.line, {REF_TARGET}, r.key FROM refs r JOIN files f ON f.id = r.file_id"
    " WHERE r.kind = 'type' AND r.key IN ({marks}) AND r.context = 'generic'"
)
