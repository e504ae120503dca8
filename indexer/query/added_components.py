"""The scripts that add a component at run time (`AddComponent<T>()`).

A MonoBehaviour no prefab or scene carries is attached by code: `gameObject.AddComponent<DeathEndsGame>()`
in the block whose type says the game ends on its death. The script adding it is where it is wired,
as a prefab is for a component it carries (`pairing._Pairs.adders_of_scripts`).
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from indexer.project import is_script

if TYPE_CHECKING:
    from indexer.query.graph import Graph


@cache
def _adding(name: str) -> re.Pattern[str]:
    """`AddComponent<Name>(`, the call a generic reference to `Name` on a line may be."""
    return re.compile(rf"\bAddComponent\s*<\s*(?:[\w.]*\.)?{re.escape(name)}\s*>\s*\(")


# A class more scripts use than this is no component one of them adds: its users' records are not
# decoded (each a query's decode: a base class of hundreds of users cost every query that many).
USERS_MOST = 40


def adders(graph: Graph, script: str) -> list[str]:
    """The project scripts that add `script`'s class with `AddComponent<T>()`, by path: those using
    its type whose generic reference to it sits on a line calling `AddComponent` with it (none
    when more than USERS_MOST scripts use it)."""
    users = [user for user, edge in graph.used_by(script) if edge == "uses_type" and is_script(user)]
    if len(users) > USERS_MOST:
        return []
    out = []
    for user in users:
        if (rec := graph.records.record(user)) is None:
            continue
        for ref in rec.refs:
            if ref.kind != "type" or ref.context != "generic":
                continue
            name = ref.target.rsplit(".", 1)[-1]
            if _adding(name).search(graph.source_line(user, ref.line)) and any(
                t.path == script for t in graph.resolve_type_ref(ref.target, rec)
            ):
                out.append(user)
                break
    return out
