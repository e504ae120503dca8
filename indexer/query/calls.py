"""The class a stored UnityEvent call names, and the files that declare it.

The scanner writes a call's target as `script:<guid>.Method` when the file holds the target
object's script (Unity binds the call to that object's type), else as the saved type name
(`Namespace.Type.Method`), a built-in component's or GameObject's
(`UnityEngine.AudioSource.Play`), another file's object (`object:<guid>:<fileID>.Method`, read as
its script by `call_objects.call_parts`), or `?.Method` (`scanners/unity_yaml.py`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.model import Symbol, Usage
from indexer.query.call_objects import call_parts, owner_class
from indexer.query.event_triggers import trigger_named
from indexer.query.kept_records import kept_on, kept_record
from indexer.query.override_calls import instance_calls, owned_calls
from indexer.query.type_tree import type_arguments
from indexer.query.unity_members import CALLABLE
from indexer.store.schema import REF_TARGET
from indexer.unity import bare_type_name

if TYPE_CHECKING:
    from indexer.query.graph import Graph

SCRIPT = "script:"
# The bases a script's class ends in whose members a UnityEvent can call are Unity's own, and
# those members are `unity_members.CALLABLE`; any other base outside the project may declare the
# method, so a call on a class deriving from it is never said to be missing.
_UNITY_ROOTS = frozenset({"MonoBehaviour", "ScriptableObject", "Behaviour", "Component", "Object"})
_INTERFACE = re.compile(r"I[A-Z]")
_MEMO = "_missing_methods"  # kept in the graph's dict (one index state), as enum_values does


def call_text(graph: Graph, target: str, detail: str = "") -> str:
    """How an outline shows a call's target: a script by its qualified class, as a type name is.
    A call on a class the project lacks says so: Unity calls nothing there (a menu's button naming
    `GameManagerSO.LoadStore`, a class deleted since); so does one whose argument (in `detail`, the
    call's ref's) no overload of the method takes (`call_note`)."""
    owner, method = call_parts(graph, target)
    target = f"{owner}.{method}"
    cls = graph.script_class(owner[len(SCRIPT) :]) if owner.startswith(SCRIPT) else ""
    if cls or (not owner.startswith(("UnityEngine.", "?")) and graph.types_named(owner)):
        said = f"{cls}.{method}" if cls else graph.readable(target)
        return said + call_note(graph, cls or owner, method, detail)
    if owner.startswith((SCRIPT, "UnityEngine.", "?")) or graph.types_named(owner) or owner in graph.package_classes:
        return graph.readable(target)
    return f"{graph.readable(target)} (no class {owner} in the project)"


def called_files(graph: Graph, target: str) -> list[str]:
    """The project files declaring the class a call is on: every part of a partial class (the
    method may be in any of them), or the script alone when its class is not known."""
    owner = call_parts(graph, target)[0]
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
    known: dict[tuple[str, str], bool] = kept_on(graph, _MEMO)
    if (cls, method) not in known:
        member = method[4:] if method.startswith("set_") else method  # a property's setter
        known[cls, method] = method not in CALLABLE and _declarations(graph, cls, member) == []
    return known[cls, method]


def call_note(graph: Graph, cls: str, method: str, detail: str, asked: bool = False) -> str:
    """What to say of a call on `cls`'s `method` that does nothing: no such method (`missing`; not
    looked at when the method is the one `refs` was `asked` for), or one no overload of which takes
    the call's argument (`_unbound`); '' otherwise."""
    if not asked and missing(graph, cls, method):
        return f" (no method {method} in {cls})"
    return _unbound(graph, cls, method, detail)


def _unbound(graph: Graph, cls: str, method: str, detail: str) -> str:
    """What to say of a call whose argument no overload of `method` the class and its project bases
    declare takes (`Button.m_OnClick(int 0)` naming `CompleteContract(Contract c)`): Unity binds a
    persistent call by its exact parameter types, and the button does nothing. '' when one may take
    it, or a base outside the project may declare another overload."""
    kind = _ARGUMENT.search(detail)
    if kind is None or kind[1] == "event" or method.startswith("set_"):
        return ""
    found = _declarations(graph, cls, method)
    if not found or any(s.kind != "method" for s in found):
        return ""
    if any(_takes(s.signature, kind[1]) for s in found):
        return ""
    return f" (no {method}({'' if kind[1] == 'void' else kind[1]}) in {cls}: the call binds to nothing)"


# A call's argument kind as the scanner writes it after the event's name (`.m_OnClick(int 0)`)
_ARGUMENT = re.compile(r"\.\w+\((void|event|object|int|float|string|bool)\b")
_SIMPLE = {
    "int": {"int", "Int32", "System.Int32"},
    "float": {"float", "Single", "System.Single"},
    "string": {"string", "String", "System.String"},
    "bool": {"bool", "Boolean", "System.Boolean"},
}
_VALUE_TYPES = frozenset(t for names in _SIMPLE.values() for t in names) | {"double", "long", "byte", "char"}


def _takes(signature: str, kind: str) -> bool:
    """Whether a method of this signature takes a call's argument of `kind` (`void`: none)."""
    params = type_arguments("f<" + signature[signature.find("(") + 1 : signature.rfind(")")] + ">")
    params = [p for p in params if p]
    if kind == "void":
        return not params
    if len(params) != 1 or params[0].split()[0] in ("ref", "out", "params", "this"):
        return False
    written = params[0].split("=")[0].split()[0].removesuffix("?") if params[0].split() else ""
    return written in _SIMPLE[kind] if kind in _SIMPLE else written not in _VALUE_TYPES


def _declarations(graph: Graph, cls: str, member: str) -> list[Symbol] | None:
    """The members named `member` of the project class and its project bases; None when a class of
    the chain is not the project's (what it declares is unknown)."""
    out: list[Symbol] = []
    todo, seen = [cls], set()
    while todo:
        q = todo.pop()
        if q in seen:
            continue
        seen.add(q)
        rows = [t for t in graph.types_named(q) if t.qualified == q or t.qualified.endswith("." + q)]
        if not rows:
            return None
        for t in rows:
            rec = kept_record(graph, t.path)
            if rec is None:
                return None
            out += [m for m in rec.symbols if m.name == member and m.container == t.qualified]
            for base in t.bases:
                found = graph.resolve_type_ref(base, rec)
                if (
                    not found
                    and bare_type_name(base) not in _UNITY_ROOTS
                    and not _INTERFACE.match(bare_type_name(base))
                ):
                    return None
                todo += [b.qualified for b in found]
    return out


def method_usages(graph: Graph, family: set[str], member: str | None, script_guids: set[str]) -> list[Usage]:
    """UnityEvent calls on members of a type in `family` (one and its subclasses), by type or
    `script_guids`; and those a prefab holds naming no type whose object an instance sets to one."""
    owners = set(family) | {q.rsplit(".", 1)[-1] for q in family} | {f"script:{g}" for g in script_guids}
    sql = f"SELECT f.path, r.line, {REF_TARGET}, r.context, r.detail FROM refs r JOIN files f ON f.id = r.file_id"
    sql += " WHERE r.kind = 'method'" + (" AND r.key = ?" if member else "")
    out, untyped = [], []
    for p, line, target, ctx, detail in graph.records.conn.execute(sql, (member,) if member else ()):
        owner, method = call_parts(graph, target)  # (an event asset's call: its script's)
        if owner in owners:
            cls = owner_class(graph, owner)
            said = trigger_named(graph.file_lines(p) if ".callback(" in detail else [], line, graph.readable(detail))
            said += call_note(graph, cls, method, detail, asked=member is not None) if cls else ""
            out.append(Usage(p, line, "asset", "method", ctx, said, resolved=f"{cls}.{method}"))
        elif owner == "?" and p.endswith(".prefab"):  # a prefab's call naming no type: its instances'
            untyped.append(Usage(p, line, "asset", "method", ctx, "", resolved=f"?.{method}"))  # objects may
    return out + instance_calls(graph, out) + (owned_calls(graph, untyped, owners) if untyped else [])
