"""UnityEvent calls a prefab holds whose object its instances set by an override, and nothing else
of the call: the method stays the prefab's (`Lever.prefab`: `OnActivate -> RemotelyActivatedDoor.Activate
on None`), the door is the scene's (`OnActivate.m_PersistentCalls.m_Calls.Array.data[0].m_Target`).

The scanner records each such override as a `CALL_TARGET` ref of the instance (model.py); here its
call is found in the source prefab by the component's fileID, the event and the call's index, read
from the prefab's lines at the call's `- m_Target:` line, or at the override setting it on an object
of a prefab nested in the source (a menu's button prefab). A call of a variant's base, through the
variant, is not matched."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from indexer.model import CALL_TARGET, FileRecord, Ref, Usage
from indexer.query.call_objects import call_parts, owner_class
from indexer.query.override_targets import FILE_ID_MASK, document_at

if TYPE_CHECKING:
    from indexer.query.graph import Graph

_OVERRIDE = re.compile(r" *propertyPath: (.+)\.m_PersistentCalls\.m_Calls\.Array\.data\[(\d+)\]\.")
_TARGET = re.compile(r" *- target: \{fileID: (-?\d+)")


def call_key(lines: list[str], line: int, event: str) -> str:
    """`<fileID>:<event>:<index>` of the call whose item starts at `line` (1-based), or which an
    override there sets on an object of a prefab nested in this one; '' when the lines do not hold
    it (a file past what is read)."""
    if not 0 < line <= len(lines):
        return ""
    if (nested := _OVERRIDE.match(lines[line - 1])) and line > 1 and (changed := _TARGET.match(lines[line - 2])):
        instance = document_at(lines, line - 2)
        # the object's fileID in this prefab, as Unity derives it from the instance's and the source's
        file_id = (instance ^ int(changed.group(1))) & FILE_ID_MASK if instance is not None else 0
        return f"{file_id}:{_last(nested.group(1))}:{nested.group(2)}" if file_id else ""
    if not lines[line - 1].lstrip(" ").startswith("- "):
        return ""
    indent = len(lines[line - 1]) - len(lines[line - 1].lstrip(" "))
    index, i = 0, line - 2
    while i >= 0:  # the items before it, up to `m_Calls:` (written at the items' indent)
        text = lines[i].lstrip(" ")
        depth = len(lines[i]) - len(text)
        if depth < indent or (depth == indent and not text.startswith("- ")):
            break
        index += depth == indent
        i -= 1
    document = document_at(lines, i + 1)
    return f"{document}:{_last(event)}:{index}" if document is not None else ""


def _last(event: str) -> str:
    return event.rsplit(".", 1)[-1]


def _keyed(context: str) -> str:
    """A `CALL_TARGET` ref's context as `call_key` writes it (an event's path by its last name)."""
    changed, _, rest = context.partition("@")[0].partition(":")
    event, _, index = rest.rpartition(":")
    return f"{changed}:{_last(event)}:{index}"


def instance_calls(graph: Graph, usages: list[Usage], owned: Callable[[str, str], str] | None = None) -> list[Usage]:
    """For each UnityEvent call of a prefab among `usages`, the overrides of its instances setting
    its object: each a usage of the method too, the object it is set on said. With `owned`, the
    calls naming no type (saved before Unity 2020.2, `resolved` `?.Method`): only the overrides
    whose object's owner (`@<owner>`) it takes, `owned(owner, method)` giving what the usage
    resolves to ('' for none)."""
    out: list[Usage] = []
    sql = (
        "SELECT f.path, r.line, r.context, r.detail FROM refs r JOIN files f ON f.id = r.file_id"
        f" WHERE r.kind = '{CALL_TARGET}' AND r.key = ?"
    )
    setting: dict[str, dict[str, list[tuple]]] = {}  # prefab -> call key -> its instances' overrides
    for u in usages:
        if u.kind != "method" or not u.path.endswith(".prefab"):
            continue
        if u.path not in setting:  # a prefab's calls share one lookup (a menu holds dozens)
            guid = graph.records.guid_naming(u.path)
            rows = graph.records.conn.execute(sql, (guid,)).fetchall() if guid else []
            setting[u.path] = {}
            for path, line, context, detail in rows:
                setting[u.path].setdefault(_keyed(context), []).append((path, line, detail, context.partition("@")[2]))
        if setting[u.path] and (key := call_key(graph.file_lines(u.path), u.line, u.context)):
            for path, line, detail, owner in setting[u.path].get(key, ()):
                resolved = u.resolved if owned is None else (owned(owner, u.resolved[2:]) if owner else "")
                if resolved:
                    out.append(
                        Usage(path, line, "asset", "method", u.context, graph.readable(detail), resolved=resolved)
                    )
    return out


def owned_calls(graph: Graph, untyped: list[Usage], owners: set[str]) -> list[Usage]:
    """The overrides setting the object of a prefab's call naming no type (`untyped`, resolved
    `?.Method`) to an object of one of `owners` (a class, `script:<guid>`): a start button's call
    a pre-2020.2 menu prefab holds, whose object each scene sets."""

    def owned(token: str, method: str) -> str:
        owner = call_parts(graph, f"{token}.{method}")[0]
        return f"{owner_class(graph, owner)}.{method}" if owner in owners else ""

    return instance_calls(graph, untyped, owned)


def set_calls(graph: Graph, rec: FileRecord) -> list[tuple[Ref, Ref]]:
    """The overrides of `rec` setting the object of a call of their source prefab, each with that
    call (a method ref of the source)."""
    out: list[tuple[Ref, Ref]] = []
    calls: dict[str, dict[str, list[Ref]]] = {}  # source -> call key -> its calls, read once a source
    for r in rec.refs:
        source = graph.path_of_guid(r.target) if r.kind == CALL_TARGET else None
        if source and source not in calls:  # a level's levers are instances of one prefab
            held = graph.records.record(source)
            lines = graph.file_lines(source) if held is not None else []
            calls[source] = {}
            for c in held.refs if held is not None else ():
                if c.kind == "method":
                    calls[source].setdefault(call_key(lines, c.line, c.context), []).append(c)
        if source:
            out += [(r, typed(c, r.context)) for c in calls[source].get(_keyed(r.context), ())]
    return out


def typed(call: Ref, context: str) -> Ref:
    """A source prefab's call naming no type (`?.TransitionToScene`, saved before Unity 2020.2)
    with the owner the instance's object gives it (`@<owner>` of a `CALL_TARGET` context)."""
    owner = context.partition("@")[2]
    if not owner or not call.target.startswith("?."):
        return call
    return Ref(call.kind, f"{owner}{call.target[1:]}", call.line, call.context, call.detail)
