"""A name code keeps in a constant, followed to where the constant is used.

`SendMessageUpwards(EventConstants.DAMAGE, ...)` calls `Damage` by name and
`Animator.StringToHash(AnimatorConstants.IS_KNOCKED_BACK)` names an animator parameter, though
neither line holds the literal: `EventConstants.DAMAGE = "Damage"` does, in another file. The C#
scanner keeps literals shaped like names (`csharp_strings`); here the fields and variables set to
one (`const string`, `static readonly`, a local, a hash of it; not a member of another object,
`enemy.name = "Damage"`) give the forms a line may name it by: the name bare in its own file,
`Class.FIELD` anywhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from indexer.query.graph import Graph

# a field or variable set to the literal, or to its hash (`static readonly int Speed = Animator.StringToHash("Speed")`)
_HOLDER = r"(?<![\w.])([A-Za-z_]\w*)\s*=\s*(?:Animator\s*\.\s*StringToHash\s*\(\s*)?{}"


class Holder(NamedTuple):
    path: str  # the file declaring it
    owner: str  # its class's simple name ('' outside one)
    name: str


def holders(graph: Graph, value: str) -> list[Holder]:
    """The fields and variables the project's code sets to the literal `value`."""
    declared = re.compile(_HOLDER.format(re.escape(f'"{value}"')))
    out: list[Holder] = []
    for path in sorted(_literal_files(graph, value)):
        types = [s for s in graph.records.symbols(path) if s.is_type and s.end_line]
        for n, text in enumerate(graph.file_lines(path), 1):
            if f'"{value}"' in text and (m := declared.search(text)):
                inner = [t for t in types if t.line <= n <= t.end_line]
                out.append(Holder(path, max(inner, key=lambda t: t.line).name if inner else "", m[1]))
    return out


def named_forms(held: list[Holder], path: str) -> list[str]:
    """Patterns of the ways a line of `path` names one of the holders: `Class.FIELD`, or the field
    bare in the file declaring it."""
    forms = {rf"\b{re.escape(h.owner)}\s*\.\s*{re.escape(h.name)}\b" for h in held if h.owner}
    forms |= {rf"(?<![\w.]){re.escape(h.name)}\b" for h in held if h.path == path}
    return sorted(forms)


def naming_files(graph: Graph, held: list[Holder]) -> set[str]:
    """The files that may name a holder: those declaring one, and those naming a holder's class."""
    owners = sorted({h.owner for h in held if h.owner})
    files = {h.path for h in held}
    if owners:
        marks = ",".join("?" * len(owners))
        sql = (
            "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id"
            f" WHERE r.kind = 'type' AND r.key IN ({marks})"
        )
        files |= {p for (p,) in graph.records.conn.execute(sql, owners)}
    return files


def _literal_files(graph: Graph, value: str) -> set[str]:
    """The files holding `value` as a `string` ref: a C# literal (or an asset's field naming a scene,
    whose lines no holder's or call's pattern matches)."""
    sql = "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.kind = 'string' AND r.key = ?"
    return {p for (p,) in graph.records.conn.execute(sql, (value,))}


def lines_naming(graph: Graph, value: str, call: str) -> Iterator[tuple[str, int, str, re.Match[str]]]:
    """Each code line where `call` (a regex with one `{}`, for the ways of naming the value) names
    `value`, as its literal or through a holder: (path, line, text, the match), by path and line."""
    held = holders(graph, value)
    for path in sorted(_literal_files(graph, value) | naming_files(graph, held)):
        found = re.compile(call.format("|".join([re.escape(f'"{value}"'), *named_forms(held, path)])))
        for n, text in enumerate(graph.file_lines(path), 1):
            if (m := found.search(text)) is not None:
                yield path, n, text, m
