"""What a scene's, prefab's or asset's outline says it references: each target once, with the fields
naming it, GUIDs as paths (a file only its `.meta` holds, or none, said so)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.model import FileRecord
from indexer.query.call_objects import call_parts
from indexer.query.package_shaders import shader_label
from indexer.unity import built_in_resource

if TYPE_CHECKING:
    from indexer.query.graph import Graph
    from indexer.query.outline import Section


# A field shown to the player rather than loaded: `mapName`, `levelTitle`, `stageLabel`
_LABEL = re.compile(r"name|title|label|display|desc|text|caption", re.I)


def references_part(rec: FileRecord, graph: Graph, exclude: tuple[str, ...]) -> Section | None:
    """What the file references, a line a target with the fields naming it (GUIDs as paths)."""
    seen = referenced(rec, graph, exclude)
    if not seen:
        return None
    lines = []
    for target, contexts in seen.items():
        named = f" ({', '.join(contexts[:4])})" if contexts else ""
        lines.append((f"  {target}{named}", f"{target.rsplit('/', 1)[-1]}{named}"))
    from indexer.query.outline import Section  # outline imports this module

    return Section("references:", tuple(lines))


def referenced(rec: FileRecord, graph: Graph, exclude: tuple[str, ...]) -> dict[str, list[str]]:
    """Each target the file references (a path, or what a GUID outside the project is), in the
    order first referenced, with the fields naming it."""
    seen: dict[str, list[str]] = {}
    for r in rec.refs:
        if r.kind in exclude:
            continue
        context = r.context
        if r.kind in ("guid", "script", "prefab"):
            found = graph.path_of_guid(r.target)
            if not found and r.kind == "guid" and _an_id(graph, rec.path, r.line, r.target):
                continue  # `guid: 2e6e…` of a behaviour tree's node: its own ID, no asset it lacks
            target = _held(graph, found) or outside(r.target, graph)
        elif r.kind == "assembly":  # an asmdef's or asmref's, by name or GUID: a package's stays as written
            target = graph.asmdef_named(r.target) or r.target
        elif r.kind == "string" and r.context == "field":  # a field naming a scene (`roomToLoad: Room1`)
            context = r.detail.partition(":")[0]  # the field (`offlineScene`), not the word `field`
            target = ", ".join(graph.scenes_named(r.target))
            if not target and _LABEL.search(context) and "scene" not in context.lower():
                continue  # a map's or level's label (`mapName: Map 3`, shown to the player) is no missing scene
            target = target or f"{r.target} (no scene of that name)"
        elif r.kind == "address":  # a name an Addressables group gives the asset: on the asset's line
            target = graph.path_of_guid(r.detail) or outside(r.detail, graph)
            context = f'{r.context} "{r.target}"'
        elif r.kind == "method":  # a UnityEvent call (an asset's): on its object's script, another file's too
            target = graph.readable(".".join(call_parts(graph, r.target)))
        else:
            target = graph.readable(r.target)
        seen.setdefault(target, [])
        if context and context not in seen[target]:
            seen[target].append(context)
    return seen


def _held(graph: Graph, path: str | None) -> str | None:
    """A referenced file's path, said missing when only its `.meta` is in the project (a font asset
    a checkout lacks read as any other reference); a folder's path as is."""
    if not path or graph.records.stats_of([path]) or graph.records.has_folder(path):
        return path
    return f"{path} (missing: only its .meta is left)"


def outside(guid: str, graph: Graph) -> str:
    """A GUID no file of the project holds: a known package's script by its class or shader by its
    name, else the GUID."""
    known = graph.package_scripts.get(guid.lower())
    if known:
        return f"{known[0]} (script of {known[1]}, not in project)"
    return built_in_resource(guid) or shader_label(guid) or f"guid:{guid} (not in project)"


def _an_id(graph: Graph, path: str, line: int, guid: str) -> bool:
    """A GUID written alone as a field's value inside a [SerializeReference] object's data
    (`references:` ... `data:` ... `guid: 2e6e3be1…`, a behaviour-tree node's own ID), not as a
    reference (`{fileID: …, guid: …}`) nor a list of assets by GUID (an Addressables group's
    `m_GUID`, a build scene's `guid`): no file of the project has it, and none is missing (69 nodes
    of a behaviour tree read as missing assets)."""
    lines = graph.file_lines(path)
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    if "{" in text or not text.rstrip().endswith(guid):
        return False
    for above in reversed(lines[: line - 1]):
        if above.startswith("--- "):
            return False
        if above.startswith("  ") and not above.startswith("   ") and not above.startswith("  - "):
            return above.startswith("  references:")  # the document's top-level key holding it
    return False
