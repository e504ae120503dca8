"""The class a stored UnityEvent call names, and the files that declare it.

The scanner writes a call's target as `script:<guid>.Method` when the file holds the target
object's script (Unity binds the call to that object's type), else as the saved type name
(`Namespace.Type.Method`), a built-in component's or GameObject's
(`UnityEngine.AudioSource.Play`), or `?.Method` (`scanners/unity_yaml.py`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.unity import bare_type_name

if TYPE_CHECKING:
    from indexer.query.graph import Graph

SCRIPT = "script:"
# The bases a script's class ends in whose members a UnityEvent can call are Unity's own, and
# those members are these (a property by its setter); any other base outside the project may
# declare the method, so a call on a class deriving from it is never said to be missing.
_UNITY_ROOTS = frozenset({"MonoBehaviour", "ScriptableObject", "Behaviour", "Component", "Object"})
_UNITY_CALLABLE = frozenset(
    {
        "SendMessage", "SendMessageUpwards", "BroadcastMessage", "CancelInvoke", "StopAllCoroutines",
        "StartCoroutine", "StopCoroutine", "IsInvoking", "CompareTag", "GetComponent", "ToString",
        "GetInstanceID", "set_enabled", "set_name", "set_tag", "set_hideFlags", "set_useGUILayout",
        "set_runInEditMode",
    }
)  # fmt: skip
_INTERFACE = re.compile(r"I[A-Z]")
_MEMO = "_missing_methods"  # kept in the graph's dict (one index state), as enum_values does


def call_text(graph: Graph, target: str) -> str:
    """How an outline shows a call's target: a script by its qualified class, as a type name is.
    A call on a class the project lacks says so: Unity calls nothing there (a menu's button naming
    `GameManagerSO.LoadStore`, a class deleted since)."""
    owner, _, method = target.rpartition(".")
    cls = graph.script_class(owner[len(SCRIPT) :]) if owner.startswith(SCRIPT) else ""
    if cls or (not owner.startswith(("UnityEngine.", "?")) and graph.types_named(owner)):
        said = f"{cls}.{method}" if cls else graph.readable(target)
        return f"{said} (no method {method} in {cls or owner})" if missing(graph, cls or owner, method) else said
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


def missing(graph: Graph, cls: str, method: str) -> bool:
    """Whether the project class and its bases up to Unity's own declare no `method`: a button
    bound to a method deleted or renamed since, which Unity calls nothing for. Worked out once a
    graph for each (class, method): a scene's hundred buttons call a handful."""
    known: dict[tuple[str, str], bool] = graph.__dict__.setdefault(_MEMO, {})
    if (cls, method) not in known:
        known[cls, method] = method not in _UNITY_CALLABLE and _declared_nowhere(graph, cls, method)
    return known[cls, method]


def _declared_nowhere(graph: Graph, cls: str, method: str) -> bool:
    member = method[4:] if method.startswith("set_") else method  # a property's setter
    todo, seen = [cls], set()
    while todo:
        q = todo.pop()
        if q in seen:
            continue
        seen.add(q)
        rows = [t for t in graph.types_named(q) if t.qualified == q or t.qualified.endswith("." + q)]
        if not rows:
            return False  # a class the project does not declare: what it holds is unknown
        for t in rows:
            rec = graph.records.record(t.path)
            if rec is None or any(m.name == member and m.container == t.qualified for m in rec.symbols):
                return False
            for base in t.bases:
                found = graph.resolve_type_ref(base, rec)
                if (
                    not found
                    and bare_type_name(base) not in _UNITY_ROOTS
                    and not _INTERFACE.match(bare_type_name(base))
                ):
                    return False
                todo += [b.qualified for b in found]
    return True
