"""The reference reader of Unity YAML: ruamel.yaml's node graph of one document.

Why: the fast line reader (`yaml_reader`) knows only the subset of YAML Unity writes. A document
outside it (anchors and aliases, block scalars, flow collections or quoted scalars wrapped in
ways the fast reader does not join) is parsed here by a real YAML parser instead of guessed, and
the differential test runs both readers over whole projects to show they agree on the rest.

ruamel.yaml's composer is used without its constructor: nodes keep every scalar a string (no
implicit typing turns `0000000000000000e000000000000000` into 0.0 or `010` into 10), aliases
resolve to the anchored node, and each node carries its line. The C parser (ruamel.yaml.clib,
about 0.6 MB/s into nodes) is used when installed, the pure-Python one (about 0.05 MB/s) otherwise.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from typing import Any

from indexer.shown import name_shown, values_shown
from indexer.unity_classes import class_name

from .yaml_facts import (
    ARGUMENT_KEYS,
    ASSET_GUID_KEY,
    CALL_KEYS,
    OVERRIDABLE,
    STANDARD_FIELDS,
    Call,
    Entry,
    Field,
    GuidUse,
    Modification,
    Named,
    Property,
    TypeUse,
    events_shown,
    fields_left_out,
    item_name,
    items_shown,
    overridable_shown,
    ref_shown,
    short,
)
from .yaml_mapping import NESTED_DEPTH, NESTED_KEYS, Budget, Mapping, Nested, mapping_shown

_JSON_GUID = re.compile(r'"guid":"([0-9A-Fa-f]{32})"')
_HEX32 = re.compile(r"[0-9A-Fa-f]{32}")
_INT = re.compile(r"-?\d+")
_SECTIONS = {"m_TexEnvs": "texture", "m_Floats": "float", "m_Colors": "color", "m_Ints": "int"}
_HASH = re.compile(r"(?<=\s)#")
_HIDDEN_HASH = "\ue000"  # a private-use character: not in Unity files
_CALL_KEYS = frozenset(CALL_KEYS)


@functools.cache
def _composer() -> tuple[Callable[[str], Any], str]:
    """A function from text to its node graph, and which parser it uses ("C" or "pure")."""
    from ruamel.yaml.resolver import BaseResolver

    try:
        from _ruamel_yaml import CParser  # ruamel.yaml.clib
    except ImportError:
        CParser = None
    if CParser is not None:

        class CNodes(CParser, BaseResolver):  # type: ignore[misc, valid-type]
            def __init__(self, stream: str) -> None:
                CParser.__init__(self, stream)
                BaseResolver.__init__(self, loadumper=self)

        return lambda text: CNodes(text).get_single_node(), "C"
    return _pure_composer(), "pure"


def _pure_composer() -> Callable[[str], Any]:
    from ruamel.yaml.composer import Composer
    from ruamel.yaml.parser import Parser
    from ruamel.yaml.reader import Reader
    from ruamel.yaml.resolver import BaseResolver, VersionedResolver
    from ruamel.yaml.scanner import Scanner

    class PyNodes(Reader, Scanner, Parser, Composer, VersionedResolver):
        def __init__(self, stream: str) -> None:
            self.comment_handling = None
            self.max_depth = None
            Reader.__init__(self, stream, loader=self)
            Scanner.__init__(self, loader=self)
            Parser.__init__(self, loader=self)
            Composer.__init__(self, loader=self)
            VersionedResolver.__init__(self, None, loader=self)

        def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
            return BaseResolver.resolve(self, kind, value, implicit)  # no implicit types: all strings

    return lambda text: PyNodes(text).get_single_node()


def parser_kind() -> str:
    return _composer()[1]


# Unity data nests a few dozen levels. ruamel.yaml's C parser recurses once a level: a 60 KB
# `.asset` holding a flow list nested 30,000 deep overflowed the C stack, and the segmentation
# fault ended `unity-index index` itself (small files are scanned in its own process).
MAX_DEPTH = 1000
_LEAD = re.compile(r"^[ \-]*", re.M)  # a line's indentation with its compact sequences (`- - x`)
_BRACKET = re.compile(r"[\[\]{}]")


class TooDeep(ValueError):
    note = f"nests over {MAX_DEPTH} levels: not read with the YAML parser"


def why_unread(exc: Exception) -> str:
    """What the note of a document the YAML parser did not read says after its `&fileID`."""
    return getattr(exc, "note", "") or f"is not valid YAML ({type(exc).__name__})"


def depth_bound(body: str) -> int:
    """At least how deep the document nests: each block level takes a column of its line's
    indentation (a sequence may sit at its key's: two levels for the two columns of its `- `),
    each flow level a bracket (quoted ones counted too: a bound, not a parse)."""
    block = max(map(len, _LEAD.findall(body)), default=0) + 2
    if body.count("[") + body.count("{") <= MAX_DEPTH:
        return block + body.count("[") + body.count("{")
    depth = deepest = 0
    for m in _BRACKET.finditer(body):
        depth = depth + 1 if m[0] in "[{" else max(depth - 1, 0)
        deepest = max(deepest, depth)
    return block + deepest


def compose(body: str) -> Any:
    """The node graph of one document body; raises ruamel's YAMLError on invalid YAML, TooDeep
    (before parsing) on a document that may nest over MAX_DEPTH levels.

    Unity writes no comments but does write `#` after a space in plain scalars (`m_Name: Button #2`)
    and reads it back as part of the value; a YAML parser would drop it as a comment. So every
    `#` after whitespace is hidden from the parser (same length, lines kept) and put back in the
    scalars it ends up in."""
    if depth_bound(body) > MAX_DEPTH:
        raise TooDeep()
    if "#" not in body or _HIDDEN_HASH in body:
        return _composer()[0](body)
    root = _composer()[0](_HASH.sub(_HIDDEN_HASH, body))
    seen: set[int] = set()
    todo = [root]
    while todo:
        node = todo.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if _kind(node) == "ScalarNode":
            node.value = node.value.replace(_HIDDEN_HASH, "#")
        elif _kind(node) == "SequenceNode":
            todo.extend(node.value)
        else:
            todo.extend(x for pair in node.value for x in pair)
    return root


def _kind(node: Any) -> str:
    return type(node).__name__  # ScalarNode, MappingNode, SequenceNode


def _scalar(node: Any) -> str | None:
    return node.value if node is not None and _kind(node) == "ScalarNode" else None


def _item_name(item: Any) -> str:
    """A list item's `name`, `m_Name` or first key's word (`_id: Uzi_1`, a table's: `item_name`)."""
    if _kind(item) != "MappingNode" or not item.value:
        return ""
    value = next((v for k, v in item.value if k.value in ("name", "m_Name")), None)
    if value is None:
        value = item.value[0][1]
        return item_name(value.value) if _kind(value) == "ScalarNode" else ""
    return short(value.value) if _kind(value) == "ScalarNode" else ""


def _items(node: Any) -> list[tuple[Any, Any]]:
    return node.value if node is not None and _kind(node) == "MappingNode" else []


def _get(node: Any, key: str) -> Any:
    for k, v in _items(node):
        if k.value == key:
            return v
    return None


def _is_plain_ref(node: Any) -> bool:
    """Whether a mapping is written like `{fileID: N[, guid: G][, type: T]}` and nothing else."""
    keys = [k.value for k, _ in node.value]
    guid = _scalar(_get(node, "guid"))
    kind = _scalar(_get(node, "type"))
    return (
        keys in (["fileID"], ["fileID", "guid"], ["fileID", "type"], ["fileID", "guid", "type"])
        and (guid is None or bool(_HEX32.fullmatch(guid)))
        and (kind is None or bool(_INT.fullmatch(kind)))
    )


def _ref(node: Any) -> tuple[int, str] | None:
    """(fileID, lower-case GUID or "") of a reference mapping, else None."""
    file_id = _scalar(_get(node, "fileID"))
    if file_id is None or not _INT.fullmatch(file_id):
        return None
    guid = _scalar(_get(node, "guid")) or ""
    return int(file_id), guid.lower() if _HEX32.fullmatch(guid) else ""


class NodeDoc:
    """One document read through ruamel.yaml nodes; answers like `yaml_reader.TextDoc`."""

    def __init__(self, class_id: int, file_id: int, stripped: bool, line: int, body: str) -> None:
        self.class_id = class_id
        self.file_id = file_id
        self.stripped = stripped
        self.line = line
        self.body = body
        root = compose(body)
        first = _items(root)[:1]
        self.class_name = class_name(first[0][0].value if first else None, class_id)
        self.map = first[0][1] if first else None
        self._top: dict[str, Any] = {}
        self._keys: dict[str, Any] = {}
        self._walked: list[tuple[Any, str, Any, Any, str]] | None = None
        for k, v in reversed(_items(self.map)):
            self._top[k.value] = v  # the first of a repeated key wins, as in the line reader
            self._keys[k.value] = k

    def at(self, i: int) -> int:
        return self.line + 1 + i

    def _source(self, node: Any) -> str:
        return self.body[node.start_mark.index : node.end_mark.index]

    def _text(self, node: Any) -> str:
        """A value as the index shows it: a scalar's string, a flow collection's text, else ""."""
        if _kind(node) == "ScalarNode":
            return node.value
        return " ".join(self._source(node).split()) if node.flow_style else ""

    def walk(self, start: Any = None, owner: str = "") -> Iterator[tuple[Any, str, Any, Any, str]]:
        """Every (mapping, key, key node, value node, owner key of the mapping) under `start` (the
        document's mapping by default) in document order; the owner of a mapping is the key it is
        the value of, or, for a sequence item, the key of the sequence (the document's mapping is
        owned by the class name). The whole document's walk is listed once: every reader of the
        document walks it."""
        if start is not None:
            return self._walk(start, owner)
        if self._walked is None:
            self._walked = list(self._walk(None, ""))
        return iter(self._walked)

    def _walk(self, start: Any, owner: str) -> Iterator[tuple[Any, str, Any, Any, str]]:
        """`walk`, iterative, each node once (an alias is not read twice)."""
        seen: set[int] = set()
        todo: list[tuple[Any, Any, Any, str]] = [
            (None, None, self.map, self.class_name) if start is None else (None, None, start, owner)
        ]
        while todo:
            mapping, key, node, owner = todo.pop()
            if mapping is not None:
                yield mapping, key.value, key, node, owner
                todo.append((None, None, node, key.value))
                continue
            if node is None or id(node) in seen:
                continue
            seen.add(id(node))
            if _kind(node) == "SequenceNode":
                todo.extend((None, None, item, owner) for item in reversed(node.value))
            elif _kind(node) == "MappingNode":
                todo.extend((node, k, v, owner) for k, v in reversed(node.value))

    def top(self, key: str) -> str | None:
        """As the line reader's: an object's name (`m_Name`) cut as answers say it."""
        node = self._top.get(key)
        value = None if node is None else self._text(node)
        return name_shown(value) if value and key == "m_Name" else value

    def top_ref(self, key: str) -> tuple[int, str]:
        return _ref(self._top.get(key)) or (0, "")

    def top_line(self, key: str) -> int:
        node = self._keys.get(key)
        return self.line if node is None else self.at(node.start_mark.line)

    def first_ref(self, key: str) -> tuple[int, str]:
        for _, k, _, v, _ in self.walk():
            if k == key and _kind(v) == "MappingNode" and v.flow_style:
                return _ref(v) or (0, "")
        return 0, ""

    def instance_name(self) -> str:
        for mapping, k, _, v, _ in self.walk():
            if k == "propertyPath" and _scalar(v) == "m_Name":
                return name_shown(_scalar(_get(mapping, "value")) or "")
        return ""

    def block_ref_ids(self, key: str) -> list[int]:
        node = self._top.get(key)
        items = node.value if node is not None and _kind(node) == "SequenceNode" else []
        # an item that is a mapping holding a reference (`- m_State: {fileID: …}`), as the text reader reads it
        values = [v for i in items for v in ([i] if _ref(i) or _kind(i) != "MappingNode" else [v for _, v in i.value])]
        return [r[0] for v in values if (r := _ref(v))]

    def entries(self, key: str) -> list[Entry]:
        node = self._top.get(key)
        items = node.value if node is not None and _kind(node) == "SequenceNode" else []
        return [
            Entry(
                _scalar(_get(i, "m_Name")) or "",
                _scalar(_get(i, "m_Type")) or "",
                i.start_mark.line,
                tuple((k.value, v.value) for k, v in i.value if _kind(v) == "ScalarNode" and v.value),
            )
            for i in items
            if _kind(i) == "MappingNode"
        ]

    def modifications(self) -> list[Modification]:
        out: list[Modification] = []
        for mapping, k, knode, v, _ in self.walk():
            if k != "propertyPath":
                continue
            obj = _ref(_get(mapping, "objectReference"))
            value = _get(mapping, "value")
            out.append(
                Modification(
                    _scalar(v) or "",
                    self._text(value) if value else "",
                    obj[1] if obj else "",
                    knode.start_mark.line,
                    obj[0] if obj else 0,
                )
            )
        return out

    def fields(self) -> list[Field]:
        listed = [(k, v) for k, v in _items(self.map) if k.value not in STANDARD_FIELDS and k.value != "references"]
        left_out = fields_left_out(len(listed))
        out: list[Field] = []
        for i, (k, v) in enumerate(listed):
            if i not in left_out:
                shown, local = self._summarize(v)
                out.append(Field(k.value, shown, k.start_mark.line, local))
        return out

    def _summarize(self, node: Any, named: bool = True) -> tuple[str, int]:
        kind = _kind(node)
        if kind == "ScalarNode":
            return ('""' if node.value == "" and not node.style else short(node.value)), 0
        if node.flow_style:
            r = _ref(node) if kind == "MappingNode" and _is_plain_ref(node) else None
            if r is not None:
                shown = ref_shown(str(r[0]), r[1])
                return shown, r[0] if shown.startswith("&") else 0
            return short(self._text(node)), 0
        if kind == "SequenceNode":
            first = node.value[0] if node.value else None
            keys = [k.value for k, _ in first.value[:1]] if first is not None and _kind(first) == "MappingNode" else []
            if keys == ["m_PersistentCalls"]:  # a list of events (a PlayerInput's action events)
                return events_shown(len(node.value), self._calls_in(node)), 0
            if node.value and all(_kind(item) == "ScalarNode" and (item.value or item.style) for item in node.value):
                return values_shown(len(node.value), [self._summarize(item)[0] for item in node.value]), 0
            refs = [_ref(item) if _kind(item) == "MappingNode" and item.flow_style else None for item in node.value]
            empty = [i for i, r in enumerate(refs) if r == (0, "")] if all(refs) else []
            names = [n for item in node.value if (n := _item_name(item))] if named else []
            return items_shown(len(node.value), names, empty), 0
        value = self._nested(node, 1, Budget())
        return (mapping_shown(value) if isinstance(value, Mapping) else value), 0

    def _nested(self, node: Any, depth: int, budget: Budget) -> str | Mapping:
        """A block mapping's value, as the line reader's `yaml_spans.block_value` says it."""
        keys = [k.value for k, _ in node.value]
        if keys[:1] == [ASSET_GUID_KEY]:  # an AssetReference: the asset it names
            guid = _scalar(node.value[0][1]) or ""
            return f"guid:{guid.lower()}" if _HEX32.fullmatch(guid) else "None"
        if keys[:2] in OVERRIDABLE and (_kind(node.value[1][1]) == "ScalarNode" or node.value[1][1].flow_style):
            shown, _ = self._summarize(node.value[1][1])  # a profile's setting: its value
            return overridable_shown(_scalar(node.value[0][1]) or "", shown)
        if "m_PersistentCalls" in keys[:2]:
            return events_shown(0, self._calls_in(node))
        pairs: list[tuple[str, Nested]] = []
        for k, v in node.value[:NESTED_KEYS]:
            if budget.left <= 0:
                return Mapping(pairs, True)
            pairs.append((k.value, budget.spend(self._inline(v, depth, budget))))
        return Mapping(pairs, len(node.value) > NESTED_KEYS)

    def _calls_in(self, node: Any) -> int:
        """The persistent calls below a node: mappings whose first key is `m_Target`."""
        return sum(1 for m, k, _, _, _ in self.walk(node) if k == "m_Target" and m.value[0][0].value == k)

    def _inline(self, node: Any, depth: int, budget: Budget) -> Nested:
        """A nested mapping's value, as the line reader's `yaml_spans._nested_value` reads it."""
        if _kind(node) == "ScalarNode":
            single = node.start_mark.line == node.end_mark.line  # (not a scalar Unity wrapped)
            return self._summarize(node)[0] if (node.value or node.style) and single else None
        if not node.flow_style and depth >= NESTED_DEPTH:
            return None
        if not node.flow_style and _kind(node) == "MappingNode":
            return self._nested(node, depth + 1, budget)
        return self._summarize(node, named=False)[0]  # a nested list: not by its items' names

    def guid_uses(self, ignore: frozenset[str] = frozenset(), plain: bool = False) -> list[GuidUse]:
        out: list[GuidUse] = []
        # plain GUIDs as the line reader finds them: in a document holding a reference of another form
        plain = plain and any(form in self.body for form in ("guid: ", '"guid":"', ASSET_GUID_KEY + ": "))
        for _, k, _, v, owner in self.walk():
            guid = _scalar(v) if k in ("guid", ASSET_GUID_KEY) else None
            if guid is None and _kind(v) == "ScalarNode" and '"guid":"' in v.value and k not in ignore:
                # a JSON string a field holds (a Visual Effect Graph's texture), as the line reader reads it
                out += [GuidUse(g.lower(), k, v.start_mark.line) for g in _JSON_GUID.findall(v.value)]
            if guid is None and k not in ignore and plain and k != ASSET_GUID_KEY:  # `id: 2ec3…`, `- 2ec3…`
                items = v.value if _kind(v) == "SequenceNode" else [v]
                out += [
                    GuidUse(i.value.lower(), k, i.start_mark.line)
                    for i in items
                    if _kind(i) == "ScalarNode" and not i.style and _HEX32.fullmatch(i.value)
                ]
            if guid is None or not _HEX32.fullmatch(guid) or owner in ignore:
                continue
            out.append(GuidUse(guid.lower(), owner, v.start_mark.line))
        return out

    def calls(self) -> list[Call]:
        out: list[Call] = []
        for _, k, _, v, owner in self.walk():
            if k != "m_PersistentCalls":
                continue
            calls = _get(v, "m_Calls")
            for item in calls.value if calls is not None and _kind(calls) == "SequenceNode" else []:
                first = _items(item)[:1]
                if first and first[0][0].value == "m_Target":
                    out.append(self._call(owner, item))
        return out

    def _call(self, event: str, item: Any) -> Call:
        found: dict[str, Any] = {}
        for _, k, _, v, _ in self.walk(item):
            if k in _CALL_KEYS and k not in found:
                found[k] = v
        target = _ref(_get(item, "m_Target"))
        mode = _scalar(found.get("m_Mode")) or ""
        arg_node = found.get(ARGUMENT_KEYS.get(mode, ""))
        arg = (_scalar(arg_node) or "") if mode in ARGUMENT_KEYS else ""
        if mode == "2":
            r = _ref(arg_node)
            arg = f"guid:{r[1]}" if r and r[1] else ""
        type_name = (_scalar(found.get("m_TargetAssemblyTypeName")) or "").split(",", 1)[0].strip()
        method = _scalar(found.get("m_MethodName")) or ""
        fid, guid = target or (0, "")
        return Call(event, fid, type_name, method, mode, arg, item.start_mark.line, guid)

    def type_uses(self) -> list[TypeUse]:
        if not any(k == "RefIds" for _, k, _, _, _ in self.walk()):
            return []
        out: list[TypeUse] = []
        for _, k, _, v, _ in self.walk():
            cls = _scalar(_get(v, "class")) if k == "type" and _kind(v) == "MappingNode" else None
            if cls is not None and _get(v, "ns") is not None and _get(v, "asm") is not None:
                out.append(TypeUse(cls.strip(), (_scalar(_get(v, "ns")) or "").strip(), v.start_mark.line))
        return out

    def properties(self) -> list[Property]:
        out: list[Property] = []
        for _, k, _, v, _ in self.walk():
            section = _SECTIONS.get(k)
            if section is None or _kind(v) != "SequenceNode":
                continue
            for item in v.value:
                first = _items(item)[:1]
                if not first:
                    continue
                name, value = first[0]
                line = name.start_mark.line
                if name.value == "first" and _kind(value) == "MappingNode":  # Unity 5: first/second
                    named = _get(value, "name")
                    name = named if named is not None else name
                    value = _get(item, "second")
                    if value is None:
                        continue
                if section == "texture":
                    r = _ref(_get(value, "m_Texture"))
                    shown = f"guid:{r[1]}" if r and r[1] else "None"
                else:
                    shown = self._text(value)
                out.append(Property(section, (_scalar(name) or "").strip(), shown, line))
        return out

    def function_names(self) -> list[Named]:
        return [
            Named(_scalar(v) or "", knode.start_mark.line) for _, k, knode, v, _ in self.walk() if k == "functionName"
        ]
