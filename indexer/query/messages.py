"""Methods Unity calls by name: `SendMessage("TakeDamage")`, `Invoke("Respawn", 2f)`,
`StartCoroutine("Fade")`, and an animation clip's events (`functionName: Footstep`).

No type ties such a call to its method: Unity finds the method by name on the receiving object's
components at run time, so a usage search by type (and a GUID graph) misses it, and the method
looks unused. The C# scanner keeps literals shaped like names (`csharp_strings`) and the YAML
scanner the events' function names; here those meet the member asked about. Which component
receives a message is known only at run time, so these usages are by name: every method of that
name may be the one called, and each lists them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.model import Usage

if TYPE_CHECKING:
    from indexer.query.graph import Graph

# Unity's calls that name a method of a MonoBehaviour by a string, the name their first argument.
_BY_NAME = (
    r"\b(SendMessage|SendMessageUpwards|BroadcastMessage|Invoke|InvokeRepeating|CancelInvoke|IsInvoking"
    r"|StartCoroutine|StopCoroutine)\s*\(\s*\"{}\""
)


def message_usages(graph: Graph, member: str) -> list[Usage]:
    """Code lines calling `member` by name, and animation events calling it."""
    call = re.compile(_BY_NAME.format(re.escape(member)))
    out: list[Usage] = []
    sql = "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.kind = 'string' AND r.key = ?"
    for (path,) in graph.records.conn.execute(sql, (member,)):
        for n, text in enumerate(graph.file_lines(path), 1):
            if (m := call.search(text)) is not None:
                out.append(Usage(path, n, "code", "message", m[1], text.strip()[:200]))
    sql = (
        "SELECT f.path, r.line, r.context, r.detail FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.kind = 'animation_event' AND r.key = ?"
    )
    for path, line, context, clip in graph.records.conn.execute(sql, (member,)):  # an .anim's or a model's
        out.append(Usage(path, line, "asset", "animation_event", context, f"{clip} calls {member}"))
    return out
