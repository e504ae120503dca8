"""A name code keeps in a constant, followed to where the constant is used.

`SendMessageUpwards(EventConstants.DAMAGE, ...)` calls `Damage` by name and
`Animator.StringToHash(AnimatorConstants.IS_KNOCKED_BACK)` names an animator parameter, though
neither line holds the literal: `EventConstants.DAMAGE = "Damage"` does, in another file. The C#
scanner keeps literals shaped like names (`csharp_strings`); here the fields declared with one
(`const string`, `static readonly`, a hash of it) give the forms a line may name it by: the field
bare in its own file, `Class.FIELD` anywhere.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from indexer.query.graph import Graph

# a field or variable set to the literal, or to its hash (`static readonly int Speed = Animator.StringToHash("Speed")`)
_HOLDER = r"\b([A-Za-z_]\w*)\s*=\s*(?:Animator\s*\.\s*StringToHash\s*\(\s*)?{}"


class Holder(NamedTuple):
    path: str  # the file declaring it
    owner: str  # its class's simple name ('' outside one)
    name: str


def holders(graph: Graph, value: str) -> list[Holder]:
    """The fields and variables the project's code sets to the literal `value`."""
    literal = re.escape(f'"{value}"')
    declared = re.compile(_HOLDER.format(literal))
    sql = "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.kind = 'string' AND r.key = ?"
    out: list[Holder] = []
    for (path,) in graph.records.conn.execute(sql, (value,)):
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
