"""Every reference in an indexed project, resolved with the project's own reference graph.

The generator promises projects whose references all resolve; this is the check, run over what
the scanners extracted (not over the generator's own bookkeeping), so a generator bug and a
scanner bug both show up as a dangling reference.
"""

from __future__ import annotations

from pathlib import Path

from indexer.config import Config
from indexer.model import FileRecord, Ref
from indexer.query.graph import Graph
from indexer.query.type_tree import declarer_of
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths

BUILTIN_GUIDS = frozenset({"0000000000000000e000000000000000", "0000000000000000f000000000000000"})
BUILTIN_INCLUDES = frozenset({"UnityCG.cginc"})


def unresolved(root: Path, external_types: frozenset[str]) -> tuple[dict[str, int], list[str]]:
    """(references checked by kind, the ones that do not resolve). `external_types`: type names
    Unity or .NET declare, which the project's own graph cannot resolve."""
    records = Records(IndexPaths(Config().index_path(root)))
    graph = Graph(records, root)
    checked: dict[str, int] = {}
    problems: list[str] = []
    try:
        for rec in records.records():
            for r in rec.refs:
                why = _why_unresolved(graph, rec, r, external_types)
                if why is None:
                    continue
                checked[r.kind] = checked.get(r.kind, 0) + 1
                if why:
                    problems.append(f"{rec.path}:{r.line} {r.kind} {r.target}: {why}")
    finally:
        records.close()
    return checked, problems


def _why_unresolved(graph: Graph, rec: FileRecord, r: Ref, external: frozenset[str]) -> str | None:
    """'' when `r` resolves, a reason when it does not, None when it is not checkable here."""
    if r.kind in ("guid", "script", "prefab"):
        guid = r.target.lower()
        if guid in BUILTIN_GUIDS:
            return ""
        if r.kind == "script":
            return "" if graph.script_class(guid) else "script GUID names no class"
        path = graph.path_of_guid(guid)
        if not path:
            return "GUID has no .meta in the project"
        if r.kind == "prefab" and not path.endswith(".prefab"):
            return f"source prefab is {path}"
        return ""
    if r.kind == "method":
        return _method(graph, r.target)
    if r.kind == "type" and rec.kind == "csharp":
        if r.target in external:
            return ""
        found = graph.resolve_type_ref(r.target, rec)
        return "" if len(found) == 1 else f"{len(found)} project types match"
    if r.kind == "assembly":
        if r.target.startswith("GUID:"):
            path = graph.path_of_guid(r.target[5:])
            return "" if path and path.endswith(".asmdef") else "asmdef GUID does not resolve"
        return "" if graph.target(r.target).kind == "assembly" else "no asmdef of that name"
    if r.kind == "include":
        if r.target in BUILTIN_INCLUDES:
            return ""
        return "" if graph.target(r.target).kind == "path" else "included file not in the project"
    return None


def _method(graph: Graph, target: str) -> str:
    owner, _, method = target.rpartition(".")
    if owner.startswith("script:"):
        owners = [graph.script_class(owner[7:])]
    else:
        owners = [t.qualified for t in graph.types_named(owner)]
    for q in filter(None, owners):
        declaring = declarer_of(graph, q, method) or q
        for t in graph.types_named(declaring):
            rec = graph.records.record(t.path)
            if rec and any(s.kind == "method" and s.name == method and s.container == declaring for s in rec.symbols):
                return ""
    return "no such method on the target's class"
