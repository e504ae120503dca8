"""Which object of its source prefab a prefab instance's override changes.

An instance's overrides name the object they change by its fileID in the source prefab (`target:
{fileID: 1535381020191089684, guid: ...}`): `m_Layer: 9` on a player instance may be its camera's,
a child's, not the player's own. The scanner keeps that fileID (the override symbol's `detail`);
the source prefab's own record names the object at that fileID's document, and the script of a
component there, by which an enum field's number is said with its member's name.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from indexer.model import Symbol
from indexer.query.enum_values import EnumFields
from indexer.query.script_labels import component_label

# a placement's coordinates, and a joint's anchor Unity works out from them
_PLACING = (
    "m_LocalPosition", "m_LocalRotation", "m_LocalScale", "m_LocalEulerAnglesHint", "m_RootOrder", "m_ConnectedAnchor",
)  # fmt: skip

# Properties every component of a kind has, whose override says nothing without which component
_EVERY_COMPONENTS = frozenset({"m_Enabled"})
# An object's own properties, which an instance's override changes in the editor's name field and
# checkbox
_OBJECT_FIELDS = frozenset({"m_Name", "m_IsActive"})
# What every script's component serializes besides its fields
_UNITY_FIELDS = frozenset({"m_Enabled", "m_Name", "m_Script", "m_EditorHideFlags", "m_EditorClassIdentifier"})

if TYPE_CHECKING:
    from indexer.query.component_fields import ComponentFields
    from indexer.query.graph import Graph

DOCUMENT_HEADER = re.compile(r"--- !u!\d+ &(-?\d+)")  # a document's class and fileID line
_HEADER_LINE = re.compile(f"\n{DOCUMENT_HEADER.pattern}")  # a line opening with one
_SOURCE = re.compile(r"/source:([0-9a-f]{32}):(-?\d+)")  # yaml_facts.source_object


NESTING_DEPTH = 8  # prefabs nested in prefabs followed for their objects' fileIDs
FILE_ID_MASK = (1 << 63) - 1


def document_at(lines: list[str], line: int) -> int | None:
    """The fileID of the document a line is in (its `--- !u!N &ID` header, at or above it)."""
    for i in range(min(line, len(lines)) - 1, -1, -1):
        if (m := DOCUMENT_HEADER.match(lines[i])) is not None:
            return int(m.group(1))
    return None


def emptied(signature: str) -> str:
    """An override's `name: value` with no value, an emptied text or a reference set to None (the
    file cannot tell them apart), said `(empty)`: `_startPoint: ` read as a value cut off."""
    return signature.rstrip() + " (empty)" if signature.rstrip().endswith(":") else signature


class OverrideTargets:
    """The objects of source prefabs by fileID, read once per prefab for one answer."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self._objects: dict[str, tuple[dict[str, str], frozenset[str] | None]] = {}
        self._roots: dict[str, str] = {}  # source prefab -> its root object's name, read with its objects
        self._nesting: dict[str, bool] = {}  # source prefab -> its root is its own and it nests a prefab
        self._every: dict[str, frozenset[str] | None] = {}  # source prefab -> every_id
        self._documents: dict[str, frozenset[str]] = {}  # source prefab -> its own documents' fileIDs
        self._scripts: dict[str, dict[str, str]] = {}  # source prefab -> component fileID -> script GUID
        self._components: dict[str, dict[str, str]] = {}  # source prefab -> component fileID -> its class
        self.enums = EnumFields(graph)
        self._fields: ComponentFields | None = None  # made when first asked (it reads these targets too)

    def said(self, source: str, override: Symbol) -> str:
        """`m_Layer: 9 (on Player/Main Camera)`: the override's value, with the object it changes when
        that is not the prefab's root (a nested prefab's object, not in the source's record, as
        `(in a nested prefab)`); an override of an object the prefab no longer has, which Unity keeps
        and ignores, is said to be unused (when the prefab nests no other, so every object it has is
        its own)."""
        if not override.detail or not source:
            return emptied(override.signature)
        objects, documents = self.objects(source)
        script = self._scripts[source].get(override.detail)
        value = emptied(self.enums.named(script, override.signature) if script else override.signature)
        if script and (why := self._unused(script, override.name)):
            value += f" (unused: {why})"
        target = objects.get(override.detail, "")
        if override.name in _EVERY_COMPONENTS and (component := self._components[source].get(override.detail)):
            # which component: a transport disabled read as its network manager disabled
            target = f"{target} ({component})" if target else component
        if target:
            return f"{value} (on {target})"
        every = documents if documents is not None else self.every_id(source)  # with its nested prefabs'
        if every is not None and override.detail not in every:
            return f"{value} (unused: no such object in the prefab)"
        if documents is None and override.detail not in objects and self._nesting.get(source):  # reached through
            return f"{value} (in a nested prefab)"  # another prefab (a model's mesh hidden read as the car off)
        return value

    def _unused(self, script: str, prop: str) -> str:
        """Why Unity ignores an override of a script's field, which it keeps in the file: the field
        is gone (`_startPoint` of a CheckpointManager that now has none) or not serialized; ''."""
        from indexer.query.component_fields import ComponentFields  # it reads these targets too

        field = prop.split(".", 1)[0]
        if field in _UNITY_FIELDS:
            return ""
        self._fields = self._fields or ComponentFields(self.graph)
        return self._fields.unused(script, field)

    def pieces(self, source: str, overrides: list[Symbol]) -> tuple[tuple[str, str], ...]:
        """An instance's overrides as an outline joins them, (name, text), in `_order`, and one value
        set on several objects of its nested prefabs once, `m_Layer: 18 (on 4 objects)` (it read as
        the root's layer set four times)."""
        texts = sorted(((o, self.said(source, o)) for o in overrides), key=lambda p: self._order(source, *p))
        said = [(o.name.split(".")[0], text) for o, text in texts]
        times = Counter(text for _, text in said)
        return tuple(dict.fromkeys((n, t if times[t] == 1 else f"{t} (on {times[t]} objects)") for n, t in said))

    def _order(self, source: str, override: Symbol, text: str) -> int:
        """Where an override goes among its instance's: what a designer set on a script's field,
        then the object's name and activity, before an engine property (a VFX renderer's material
        slots filled the eight shown), then references emptied and overrides Unity ignores, then
        the placement."""
        if override.name.startswith(_PLACING):
            return 4
        if " (empty)" in text or " (unused: " in text:
            return 3
        script = self._scripts.get(source, {}).get(override.detail)
        if not override.name.startswith("m_") or (script and self.graph.path_of_guid(script)):
            return 0  # a project script's field (one in a nested prefab known by its name alone), not a UI Image's
        return 1 if override.name in _OBJECT_FIELDS else 2

    def removed(self, source: str, file_ids: list[str], label: Callable[[Symbol], str]) -> list[str]:
        """The components an instance removes from `source`, named by `label` and by the object
        they were on below the root (`Mover (on Legs)`); those of prefabs it nests counted."""
        rec = self.graph.records.record(source) if source and file_ids else None
        components = {s.type: s for s in rec.symbols if s.kind == "component"} if rec is not None else {}
        out = []
        for file_id in file_ids:
            if (c := components.get(file_id)) is not None:
                where = self.below_root(source, file_id)
                out.append(label(c) + (f" (on {where})" if where else ""))
        if nested := len(file_ids) - len(out):
            out.append(f"{nested} from {'the prefab' if nested == 1 else 'the prefabs'} it nests")
        return out

    def objects(self, source: str) -> tuple[dict[str, str], frozenset[str] | None]:
        """fileID -> the path of the GameObject it is (or that holds it, a component), '' for the
        root object's; from the source prefab's record and the lines of its documents' headers.
        And the fileIDs of all its documents, None when it nests another prefab (whose objects an
        override may change through it)."""
        if source not in self._objects:
            rec = self.graph.records.record(source)
            out: dict[str, str] = {}
            documents: set[str] = set()
            if rec is not None:
                objects = {s.line: s.qualified for s in rec.symbols if s.kind == "gameobject"}
                top = [s for s in rec.symbols if s.kind == "gameobject" and not s.container]
                roots = {s.qualified for s in top}
                self._roots[source] = top[0].name if top else ""
                held = {s.type: s.container for s in rec.symbols if s.kind == "component"}
                self._scripts[source] = {s.type: s.detail for s in rec.symbols if s.kind == "component" and s.detail}
                self._components[source] = {
                    s.type: component_label(self.graph, s) for s in rec.symbols if s.kind == "component"
                }
                for number, m in document_headers(self.graph.file_lines(source)):
                    documents.add(m.group(1))
                    path = objects.get(number) or held.get(m.group(1), "")
                    if path:
                        out[m.group(1)] = "" if path in roots else path
            self._scripts.setdefault(source, {})
            self._components.setdefault(source, {})
            nests = rec is None or not documents or any(s.kind == "prefab_instance" for s in rec.symbols)
            # its root its own, and another prefab inside it: an unknown object is one of that prefab's
            variant = rec is not None and any(s.signature == "variant base" for s in rec.symbols)
            self._nesting[source] = bool(out) and nests and rec is not None and not variant
            self._documents[source] = frozenset(documents)
            self._objects[source] = (out, None if nests else self._documents[source])
        return self._objects[source]

    def aims_elsewhere(self, source: str, file_id: str, script_guids: set[str]) -> bool:
        """An override of an instance of `source` that cannot set a field of these scripts: its
        object is another script's component of the prefab, or no object the prefab holds (a
        component removed since: `DashSpeed: 1` of the old `Player` script read as the dash state's)."""
        if not source or not file_id:
            return False
        self.objects(source)  # reads its components' scripts
        script = self._scripts.get(source, {}).get(file_id)
        if script is not None:
            return script not in script_guids
        every = self.every_id(source)
        return every is not None and file_id not in every

    def every_id(self, source: str, depth: int = 0) -> frozenset[str] | None:
        """The fileIDs of every object a prefab holds, those of the prefabs it nests (and of its
        variant base) as Unity derives them, `(instance ^ object) & (2**63 - 1)`: an override of an
        object none holds (a component removed since) is unused, where it read as `(in a nested
        prefab)`. None when a nested prefab is not in the project, or nesting runs too deep."""
        if source in self._every:
            return self._every[source]
        self._every[source] = None  # a prefab nesting itself (never in Unity) stops here
        rec = self.graph.records.record(source)
        if rec is None or rec.kind != "prefab" or depth > NESTING_DEPTH:  # a model's objects are its importer's
            return None
        self.objects(source)
        ids, lines = set(self._documents[source]), self.graph.file_lines(source)
        for s in rec.symbols:
            if s.kind != "prefab_instance":
                continue
            nested = self.graph.path_of_guid(s.detail) if s.detail else None
            held = self.every_id(nested, depth + 1) if nested else None
            instance = document_at(lines, s.line)
            if held is None or instance is None:
                return None
            ids.update(str((instance ^ int(x)) & FILE_ID_MASK) for x in held)
        self._every[source] = frozenset(ids)
        return self._every[source]

    def below_root(self, source: str, file_id: str) -> str:
        """The path of the object at `file_id` in the source prefab below its root ('' for the root,
        or an object neither it nor a prefab it nests names)."""
        objects = self.objects(source)[0]  # '' the root's path: not looked for in nested prefabs
        path = objects[file_id] if file_id in objects else self._nested_path(source, int(file_id))
        return _below(self._roots.get(source, ""), path)

    def _nested_path(self, source: str, file_id: int, depth: int = 0) -> str:
        """The path in `source` of an object of a prefab it nests, by the fileID Unity derives for
        it there (`every_id`): `Level 1`'s reference to BaseLevel's `CoreStation_1/Button`, which
        BaseLevel holds through its BaseCoreStation instance, read as the root alone."""
        rec = self.graph.records.record(source)
        if rec is None or rec.kind != "prefab" or depth > NESTING_DEPTH:
            return ""
        lines = self.graph.file_lines(source)
        for s in rec.symbols:
            nested = self.graph.path_of_guid(s.detail) if s.kind == "prefab_instance" and s.detail else None
            instance = document_at(lines, s.line) if nested else None
            if nested is None or instance is None:
                continue
            inner = (instance ^ file_id) & FILE_ID_MASK  # the object's own fileID in the nested prefab
            named = {int(k) & FILE_ID_MASK: v for k, v in self.objects(nested)[0].items()}  # '': the root's
            path = named[inner] if inner in named else self._nested_path(nested, inner, depth + 1)
            if inner in named or path:
                root = self._roots.get(nested, "")
                placed = s.qualified if s.name else f"{s.container}/{root}".lstrip("/")
                below = _below(root, path)
                return f"{placed}/{below}" if below else placed
        return ""

    def source(self, guid: str) -> tuple[dict[str, str], str] | None:
        """A source prefab's objects by fileID (`objects`) and its root object's name, by the
        source's GUID (`instances.SourceObjects`); None when it is not in the project."""
        path = self.graph.path_of_guid(guid)
        if path is None:
            return None
        objects = self.objects(path)[0]  # reads the record once, its root's name with it
        root = self._roots.get(path, "")
        return (objects, root) if root else None


def document_headers(lines: list[str]) -> Iterator[tuple[int, re.Match[str]]]:
    """Each line (1-based number) opening with a document's header (DOCUMENT_HEADER), with its
    match: found by one search of the lines joined, in C, not by a test of each line (a large
    prefab has 100,000; a first sight of its objects spent most of its time there)."""
    text = "\n" + "\n".join(lines)  # each line follows a newline, the first too
    number, at = 0, 0
    for m in _HEADER_LINE.finditer(text):
        number += text.count("\n", at, m.start() + 1)
        at = m.start() + 1
        yield number, m


def sources_named(text: str, targets: OverrideTargets) -> str:
    """`Hero/source:<guid>:<fileID> (Transform)`, a reference to an object inside a prefab
    instance, as `Hero/Armature/mixamorig:RightHand (Transform)`: the object's path in its source
    below the source's root; the root itself, or an object the source does not name (one of a
    prefab it nests), as the instance alone."""
    if "/source:" not in text:
        return text

    def named(m: re.Match[str]) -> str:
        source = targets.graph.path_of_guid(m[1])
        below = targets.below_root(source, m[2]) if source else ""
        return f"/{below}" if below else ""

    return _SOURCE.sub(named, text)


def _below(root: str, path: str) -> str:
    """An object's path below its prefab's root object (`root`), the root's own ''."""
    return path[len(root) + 1 :] if root and path.startswith(root + "/") else path
