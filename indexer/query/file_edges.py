"""The files a record points at, resolved at index time: the edges `build.adjacency` stores for
`uses`/`used_by`, which the retriever walks on every query (query/graph.py reads them back)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.model import FileRecord, TypeRow
from indexer.project import is_script
from indexer.query.call_objects import object_file
from indexer.query.calls import called_files
from indexer.query.loads import loads_resources

if TYPE_CHECKING:
    from indexer.query.graph import Graph

# A file's one edge to another is the kind saying most of its references to it, not the first read: a
# prefab calling a method of its own component carries the script (the audit of session 44); a file
# holding an object a call is on stays a reference (its `m_Target`), its script's an event call
_EDGE_RANK = {k: i for i, k in enumerate(("script", "prefab", "base", "asset", "unity_event", "type", "loads"))}


def _keep(out: dict[str, str], path: str, edge: str) -> None:
    if path not in out or _EDGE_RANK[edge] < _EDGE_RANK[out[path]]:
        out[path] = edge


def file_uses(graph: Graph, rec: FileRecord) -> list[tuple[str, str]]:
    """(path, edge kind) of each file `rec` points at, by path."""
    path = rec.path
    out: dict[str, str] = {}
    resolved: dict[str, list[TypeRow]] = {}  # a file names the same types many times
    resources: bool | None = None  # whether it names `Resources`: asked once (a pass over its refs)
    for r in rec.refs:
        if r.kind in ("guid", "script", "prefab"):
            p = graph.path_of_guid(r.target)
            if p and p != path:
                # a binary file's are GUIDs alone: a script's, one of its MonoBehaviours' (unity_binary.py)
                edge = "script" if r.kind == "script" or (r.context == "external" and is_script(p)) else None
                _keep(out, p, edge or {"prefab": "prefab"}.get(r.kind, "asset"))
        elif r.kind == "type":
            if r.target not in resolved:
                resolved[r.target] = (
                    graph.resolve_type_ref(r.target, rec) if rec.kind == "csharp" else _asset_type(graph, r.target)
                )
            for t in resolved[r.target]:
                if t.path != path:
                    _keep(out, t.path, "base" if r.context == "base" else "type")
        elif r.kind == "method":  # (a call on another file's object: that file, which leads on)
            for p in object_file(graph, r.target) or called_files(graph, r.target):
                if p != path:
                    _keep(out, p, "unity_event")
        elif r.kind == "string":
            if resources is None:
                resources = loads_resources(rec)
            for p in graph.loadable.resolve(r.target, r.context, resources):
                _keep(out, p, "loads")
    return sorted(out.items())


def _asset_type(graph: Graph, written: str) -> list[TypeRow]:
    """A type an asset names (a [SerializeReference] value): qualified, so a unique match."""
    return rows if len(rows := graph.types_named(written)) == 1 else [t for t in rows if t.qualified == written]
