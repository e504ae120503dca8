"""Components a prefab instance or variant removes from its prefab (`m_RemovedComponents`).

Unity leaves a removed component out of the instance, so a script the prefab holds only on
components the instance removed is not carried through it (`carriers.py`). The scanner records
each removed component as a `removed` ref of the instance: target the source prefab's GUID, line
the instance document's, context the component's fileID in that prefab. Only a prefab's own
components are matched: one it holds through a prefab nested in it has another fileID."""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from indexer.query.graph import Graph

Removals = dict[tuple[str, int], frozenset[str]]


def removals(graph: Graph, prefab: str) -> Removals:
    """(file, line of the instance) -> the fileIDs it removes, for the instances of `prefab` that
    remove any (almost always none: one query)."""
    guid = graph.records.guid_naming(prefab)
    if not guid:
        return {}
    sql = (
        "SELECT f.path, r.line, r.context FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.kind = 'removed' AND r.key = ?"
    )
    out: dict[tuple[str, int], set[str]] = {}
    for path, line, file_id in graph.records.conn.execute(sql, (guid,)):
        out.setdefault((path, line), set()).add(file_id)
    return {key: frozenset(ids) for key, ids in out.items()}


def components_at(graph: Graph, prefab: str, lines: set[int] | None = None, script: str = "") -> frozenset[str]:
    """The fileIDs of the components of `prefab` whose documents hold `lines` (their `m_Script`
    lines), or that are the script `script` (a path)."""
    guid = graph.records.guid_naming(script) if script else ""
    if script and not guid:
        return frozenset()
    components = [s for s in graph.records.symbols(prefab) if s.kind == "component"]  # refs not decoded
    if lines is None:
        return frozenset(s.type for s in components if s.detail == guid)
    starts = sorted((s.line, s.type) for s in components)
    at = [bisect.bisect_right(starts, (line, "\uffff")) - 1 for line in lines]  # the document around each
    return frozenset(starts[i][1] for i in at if i >= 0)


def dropped(removed: frozenset[str] | None, components: frozenset[str]) -> bool:
    """Whether an instance removing `removed` leaves none of `components` (a prefab's fileIDs)."""
    return bool(removed) and bool(components) and components <= removed
