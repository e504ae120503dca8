"""A UnityEvent call on an object of another file, read as the class Unity binds it to.

Files saved before Unity 2020.2 write no `m_TargetAssemblyTypeName`: a call is bound by its target
object alone. When that object is in another file (`{fileID: 11400000, guid: <an event asset>}`,
a prefab's component), the scanner, which reads one file, writes the call's target as
`object:<guid>:<fileID>.Method` (scanners/unity_yaml.py). That file's record says what the object
is: a ScriptableObject or a component with a script, read as `script:<guid>` as a call on an object
of the caller's own file is written; Unity's own component (`UnityEngine.AudioSource`) or a
GameObject; or `?` when the record does not hold it (an object of a prefab nested there). Every
reader of a call's target (`refs`, `describe`, the graph's edges) splits it through `call_parts`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.model import CALL_OBJECT as OBJECT
from indexer.query.kept_records import kept_on
from indexer.query.override_targets import DOCUMENT_HEADER

if TYPE_CHECKING:
    from indexer.query.graph import Graph

UNKNOWN = "?"
SCRIPT_TOKEN = "script:"  # a call's owner named by its script's GUID
_MEMO = "_call_objects"  # kept in the graph's dict (one index state), as calls.py does


def call_parts(graph: Graph, target: str) -> tuple[str, str]:
    """A call's stored target as (owner, method), an object of another file read as its owner."""
    owner, _, method = target.rpartition(".")
    return (object_owner(graph, owner) if owner.startswith(OBJECT) else owner), method


def owner_class(graph: Graph, owner: str) -> str:
    """A call's owner as the class it names: `script:<guid>` the script's class, any other as written."""
    return graph.script_class(owner[len(SCRIPT_TOKEN) :]) if owner.startswith(SCRIPT_TOKEN) else owner


def object_owner(graph: Graph, owner: str) -> str:
    """`object:<guid>:<fileID>` as `script:<guid>`, `UnityEngine.<Class>` or `?`, once a graph."""
    known: dict[str, str] = kept_on(graph, _MEMO)
    if owner not in known:
        guid, _, file_id = owner[len(OBJECT) :].partition(":")
        path = graph.path_of_guid(guid)
        known[owner] = (_owner_in(graph, path, file_id) if path else "") or UNKNOWN
    return known[owner]


def _owner_in(graph: Graph, path: str, file_id: str) -> str:
    """What the object at `file_id` of the file at `path` is, by its record ('' when not there):
    a component by its fileID; a ScriptableObject or GameObject by its document's header line."""
    rec = graph.records.record(path)
    if rec is None:
        return ""
    for s in rec.symbols:
        if s.kind == "component" and s.type == file_id:
            return f"script:{s.detail}" if s.detail else f"UnityEngine.{s.name}"
    lines = graph.file_lines(path)
    for s in rec.symbols:
        if s.kind not in ("scriptable_object", "gameobject") or not 0 < s.line <= len(lines):
            continue
        header = DOCUMENT_HEADER.match(lines[s.line - 1])
        if header is None or header.group(1) != file_id:
            continue
        if s.kind == "gameobject":
            return "UnityEngine.GameObject"
        return f"script:{s.detail}" if s.detail and not s.detail.startswith("builtin:") else ""
    return ""


def object_file(graph: Graph, target: str) -> list[str]:
    """The file of a call's object in another file (`object:<guid>:<fileID>.Raise`): the edge
    stored for it, which the batch writing that file keeps exact; its script's class, which an
    edit of that file alone changes, is reached through it."""
    if not target.startswith(OBJECT):
        return []
    path = graph.path_of_guid(target[len(OBJECT) :].partition(":")[0])
    return [path] if path else []
