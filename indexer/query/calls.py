"""The class a stored UnityEvent call names, and the files that declare it.

The scanner writes a call's target as `script:<guid>.Method` when the file holds the target
object's script (Unity binds the call to that object's type), else as the saved type name
(`Namespace.Type.Method`), a built-in component's or GameObject's
(`UnityEngine.AudioSource.Play`), or `?.Method` (`scanners/unity_yaml.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from indexer.query.graph import Graph

SCRIPT = "script:"


def call_text(graph: Graph, target: str) -> str:
    """How an outline shows a call's target: a script by its qualified class, as a type name is.
    A call on a class the project lacks says so: Unity calls nothing there (a menu's button naming
    `GameManagerSO.LoadStore`, a class deleted since)."""
    owner, _, method = target.rpartition(".")
    cls = graph.script_class(owner[len(SCRIPT) :]) if owner.startswith(SCRIPT) else ""
    if cls:
        return f"{cls}.{method}"
    if owner.startswith((SCRIPT, "UnityEngine.", "?")) or graph.types_named(owner) or owner in graph.package_classes:
        return graph.readable(target)
    return f"{graph.readable(target)} (no class {owner} in the project)"


def called_files(graph: Graph, target: str) -> list[str]:
    """The project files declaring the class a call is on: every part of a partial class (the
    method may be in any of them), or the script alone when its class is not known."""
    owner = target.rpartition(".")[0]
    if not owner.startswith(SCRIPT):
        return [t.path for t in graph.types_named(owner)]
    guid = owner[len(SCRIPT) :]
    path = graph.path_of_guid(guid)
    if not path:
        return []
    cls = graph.script_class(guid)
    parts = [t.path for t in graph.types_named(cls) if t.qualified == cls] if cls else []
    return sorted({path, *parts})
