"""How answers name the script of a component or asset: its class, or what it is when no class of
the project's code is: a package's, a DLL's, or a missing script (one whose file is gone, or that
declares no class, which Unity shows as "Missing (Mono Script)")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.model import Symbol
from indexer.query.dll_classes import DllClasses

if TYPE_CHECKING:
    from indexer.query.graph import Graph

_MEMO = "_dll_classes"  # kept in the graph's dict (one index state), as calls.py does


def script_label(graph: Graph, guid: str, dll_class: str = "") -> str:
    """The class behind a script GUID by its last name; else the file, said missing when Unity finds
    no class there; a DLL's class (`dll_class`, its file ID there) by its name when the project's
    code names it, `PlayMakerFSM (PlayMaker.dll)`, else as one of the DLL's."""
    cls = graph.script_class(guid)
    if cls:
        return cls.rsplit(".", 1)[-1]
    path = graph.path_of_guid(guid)
    if not path:
        return f"script {guid[:8]}… (not in project)"
    name = path.rsplit("/", 1)[-1]
    if not graph.records.stats_of([path]):  # a .meta left by a script deleted outside Unity: a missing script
        return f"{name} (missing: only its .meta is left)"
    if name.lower().endswith(".dll"):  # a managed DLL declares classes the index does not read
        return _dll_label(graph, name, dll_class)
    rec = graph.records.record(path)  # one declaring no class (all commented out) is a missing script too
    declared = rec is None or rec.status != "ok" or any(s.is_type for s in rec.symbols)  # (unparsed: unknown)
    return name if declared else f"{name} (declares no class)"


def component_label(graph: Graph, c: Symbol) -> str:
    """A component symbol's class: its script's, the class Unity 6 writes beside it (a package's),
    or Unity's own (`Transform`)."""
    if not c.detail:
        return c.name
    if cls := graph.script_class(c.detail):
        return cls.rsplit(".", 1)[-1]
    if c.signature:  # Unity 6 writes the class into m_EditorClassIdentifier
        return c.signature.rsplit(".", 1)[-1]
    return script_label(graph, c.detail, c.modifiers[0] if c.modifiers else "")


def _dll_label(graph: Graph, name: str, dll_class: str) -> str:
    """`PlayMakerFSM (PlayMaker.dll)`, `class 1384774831 of PlayMaker.dll` (no code names it)."""
    if not dll_class.lstrip("-").isdigit():
        return f"a class of {name}"
    classes: DllClasses = graph.__dict__.setdefault(_MEMO, DllClasses(graph.records))
    found = classes.named(int(dll_class))
    return f"{found.rsplit('.', 1)[-1]} ({name})" if found else f"class {dll_class} of {name}"
