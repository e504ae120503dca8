"""Where assets set a member of a [Serializable] class or struct: under the field of a script that
holds one.

Unity serializes such a member inside its holder's field, one level down: `Character:` then
`AirJumpSpeed: 10` on an authoring component, `waves:` then `- enemyCount: 5` for each element of
a list. The scanners keep the holder's field whole and short (`Character: {GroundRunMaxSpeed: 5,
…`), so the member's own line is read from the asset's text here; a prefab instance's override
names it by its path (`Character.AirJumpSpeed`, `waves.Array.data[1].enemyCount`). `refs
Wave.enemyCount` then lists every element that sets it, as `refs` of a script's own field does
(serialized.value_usages). A class held by another such class is followed up to a script's field,
NESTING classes deep: a building's `cost:` then `resourceCosts:` then `- amount: 20`
(`BuildingData.cost.resourceCosts[0].amount`), where `refs ResourceAmount.amount` said no usages.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import msgspec

from indexer.model import Symbol, Target, TypeRow, Usage
from indexer.query.carriers import MAX_SETTINGS_FILES
from indexer.query.enum_values import Enum, EnumFields, labelled
from indexer.query.serialized import declarations, is_serialized, values_of
from indexer.query.type_tree import descendants, type_arguments, type_parameters
from indexer.unity import bare_type_name

if TYPE_CHECKING:
    from indexer.query.graph import Graph

HOLDER_FILES = 50  # files using the type whose fields are looked at
VALUE_CHARS = 100  # of a value's line shown
# The element type of a field's declared type: `Wave`, `Wave[]`, `List<Wave>`, `Game.Wave`.
_ELEMENT = re.compile(r"^(?:(?:System\.Collections\.Generic\.)?List<\s*)?(?:[\w.]+\.)?(\w+)\s*(?:\[\]|>)?$")


def nested_value_usages(graph: Graph, declarer: str, member: str, target: Target | None = None) -> list[Usage]:
    """The values assets hold for `member` of the type `declarer` when it is no script of its own
    but a field's type in scripts assets carry (directly, or through other such classes): each
    nested under its holder's field, on a component (context `value`) or as an instance's override
    (context `override`); `target`'s note says a cycle of prefabs skipped."""
    declared = [s for s in declarations(graph, declarer, member) if s.kind == "field" and is_serialized(s)]
    if not declared:
        return []
    enum = _enum_of(graph, declarer, declared[0])
    out: list[Usage] = []
    for chain in _chains(graph, declarer):
        top, keys = chain[0], [*(h.name for h in chain[1:]), member]
        guids = graph.script_guids(descendants(graph, top.container))
        field = top.name
        steps = r"(?:\.Array\.data\[\d+\])?\.".join(map(re.escape, [field, *keys]))
        nested = re.compile(rf"\bsets {steps}(?:\.\w+)?: ")
        for usage in values_of(graph, (field,), guids, MAX_SETTINGS_FILES, target=target)[field]:
            if usage.context == "value":
                out += _nested_lines(graph, usage, field, keys, enum)
            elif said := nested.search(usage.detail):  # `… sets waves.Array.data[1].enemyCount: 8 (via …`
                value, _, via = usage.detail[said.end() :].partition(" (via ")
                named = usage.detail[: said.end()] + labelled(enum, value.strip()) + (f" (via {via}" if via else "")
                out.append(msgspec.structs.replace(usage, detail=named))
    return out


NESTING = 3  # [Serializable] classes followed up from the member's to a script's field


def _chains(graph: Graph, declarer: str) -> list[list[Symbol]]:
    """The fields leading to the type `declarer`, from a script's field down (`[cost,
    resourceCosts]` of `BuildingData` for `ResourceAmount`), at most NESTING fields long."""
    out: list[list[Symbol]] = []
    todo: list[tuple[str, list[Symbol]]] = [(declarer, [])]
    seen = {declarer}
    while todo:
        held, below = todo.pop(0)
        for holder in _holding_fields(graph, held):
            chain = [holder, *below]
            if graph.script_guids(descendants(graph, holder.container)):
                out.append(chain)  # (a [Serializable] class in a file of its name has a GUID too: on up)
            if len(chain) < NESTING and holder.container not in seen:
                seen.add(holder.container)
                todo.append((holder.container, chain))
    return out


def _enum_of(graph: Graph, declarer: str, field: Symbol) -> Enum | None:
    """The enum the field's type names, if it is one: its values are shown by member name."""
    paths = sorted({t.path for t in graph.types_named(declarer) if t.qualified == declarer})
    rec = graph.records.record(paths[0]) if paths else None
    return EnumFields(graph).enum_of(field.type, rec) if rec is not None and field.type else None


def _holding_fields(graph: Graph, declarer: str) -> list[Symbol]:
    """The serialized fields of type `declarer` (or a list or array of it) in the files declaring
    it or using it, by file path."""
    simple = declarer.rsplit(".", 1)[-1]
    files = sorted({t.path for t in graph.types_named(declarer) if t.qualified == declarer})
    users = [p for f in files for p, edge in graph.used_by(f) if edge == "uses_type"]
    out = []
    holders = sorted(set(files + users))[:HOLDER_FILES]  # (a class binding it may share its file)
    for path in holders:
        for s in graph.records.symbols(path):
            if s.kind == "field" and is_serialized(s) and (m := _ELEMENT.match(s.type)) and m[1] == simple:
                out.append(s)
    return out + [s for path in holders for s in _bound_fields(graph, simple, path)]


def _bound_fields(graph: Graph, simple: str, path: str) -> list[Symbol]:
    """The fields a generic base class types by its parameter, where a class of `path` binds that
    parameter to the type named `simple` (`HeartsRef : ValueRef<Hearts>` holds a `Hearts` in
    `ValueRef<T>`'s `T constantValue`), each as the binding class's own: where the binding class is
    held, the member's values are under the field (`damage:` then `constantValue:` then `hearts: 1`)."""
    out: list[Symbol] = []
    rec = graph.records.record(path)
    for t in graph.records.types_in(path) if rec is not None else []:
        for base in t.bases:
            args = type_arguments(base)
            if simple not in [bare_type_name(a) for a in args]:
                continue
            for generic in graph.resolve_type_ref(base, rec):
                params = _parameters(graph, generic)
                bound = {p for p, a in zip(params, args, strict=False) if bare_type_name(a) == simple}
                out += [
                    msgspec.structs.replace(s, container=t.qualified)
                    for s in graph.records.symbols(generic.path)
                    if s.kind == "field" and s.container == generic.qualified and is_serialized(s)
                    and (m := _ELEMENT.match(s.type)) and m[1] in bound
                ]  # fmt: skip
    return out


def _parameters(graph: Graph, generic: TypeRow) -> list[str]:
    """A generic class's type parameters by its declaration, `ValueRef<T>` -> `T`."""
    symbols = graph.records.symbols(generic.path)
    head = next((s for s in symbols if s.is_type and s.qualified == generic.qualified), None)
    return type_parameters(head.signature if head else "")


def _nested_lines(graph: Graph, usage: Usage, field: str, keys: list[str], enum: Enum | None) -> list[Usage]:
    """The lines under a component's `field:` (its `usage`) setting the last of `keys`, through the
    others: a struct's own, or one per element of a list (Unity writes a list's `- ` at the key's
    indentation)."""
    lines = graph.file_lines(usage.path)
    start = usage.line - 1
    if not 0 <= start < len(lines) or not lines[start].lstrip().startswith(f"{field}:"):
        return []
    head = usage.detail.partition(f".{field}: ")[0]
    indent = len(lines[start]) - len(lines[start].lstrip())
    return [
        Usage(
            usage.path,
            n + 1,
            "asset",
            "value",
            "value",
            f"{head}.{field}{at}: {labelled(enum, reference_said(graph, value)[:VALUE_CHARS])}",
        )
        for n, at, value in _values_under(lines, start, indent, keys)
    ]


def _values_under(lines: list[str], at: int, indent: int, keys: list[str]) -> list[tuple[int, str, str]]:
    """(line index, path, value) of `keys[-1]` under the key at `lines[at]` (indented `indent`),
    through `keys[:-1]`: the path names each step and list element, `.resourceCosts[0].amount`."""
    out: list[tuple[int, str, str]] = []
    element = -1
    for n in range(at + 1, len(lines)):
        line = lines[n]
        text = line.lstrip()
        depth = len(line) - len(text)
        listed = depth == indent and text.startswith("- ")
        if text and depth <= indent and not listed:
            break  # the next field
        element += listed
        key = text[2:] if listed else text
        if (depth + 2 if listed else depth) != indent + 2 or not key.startswith(f"{keys[0]}:"):
            continue
        step = f"[{element}].{keys[0]}" if element >= 0 else f".{keys[0]}"
        if len(keys) == 1:
            out.append((n, step, key.split(":", 1)[1].strip()))
        else:
            out += [(m, step + rest, v) for m, rest, v in _values_under(lines, n, indent + 2, keys[1:])]
    return out


_REFERENCE = re.compile(r"\{fileID: (-?\d+)(?:, guid: ([0-9a-fA-F]{32}))?(?:, type: \d+)?\}")


def reference_said(graph: Graph, value: str) -> str:
    """A reference as the other values say one: `{fileID: 0}` is None, one naming another file's
    GUID that file's path (`gameEvent: {fileID: 0}` was printed raw where `describe` said None)."""
    m = _REFERENCE.fullmatch(value)
    if m is None:
        return value
    if m.group(2):
        return graph.readable(f"guid:{m.group(2).lower()}")
    return "None" if m.group(1) == "0" else value
