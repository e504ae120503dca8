"""A serialized enum by its members' names. Unity writes an enum field as its number (`mod: 4`),
which says nothing until the enum's members are counted, and reordering them silently changes
every asset holding one (a trial: fifteen prefabs' `mod: 4`, `Mod.Fast`). `describe`, `refs` and
packs show `mod: 4 (Fast)`; a `[Flags]` enum's value as its bits (`layers: 5 (Ground | Water)`).
"""

from __future__ import annotations

import ast
import operator
import re
from typing import TYPE_CHECKING

from indexer.model import FileRecord, TypeRow, Usage
from indexer.query.hex_arrays import ENUM_FORMAT, element_type, is_hex, scalar_format, unpacked
from indexer.query.kept_records import kept_record
from indexer.unity import bare_type_name

if TYPE_CHECKING:
    from indexer.query.graph import Graph

_MEMO = "_enum_fields"  # kept in the graph's dict (one index state), as component_fields does
_TYPES_MEMO = "_enum_types"
_NUMBER = re.compile(r"-?\d+")
_OPERATORS = {
    ast.BitOr: operator.or_, ast.BitAnd: operator.and_, ast.BitXor: operator.xor, ast.LShift: operator.lshift,
    ast.RShift: operator.rshift, ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
}  # fmt: skip
MAX_SHIFT = 64


class Enum:
    """An enum's members by value (the first name of each value), whether it is `[Flags]`, and the
    struct format of its underlying type (`byte`: `<B`; an int32 by default)."""

    def __init__(self, members: dict[int, str], flags: bool, underlying: str = ENUM_FORMAT):
        self.members, self.flags, self.underlying = members, flags, underlying

    def label(self, value: int) -> str:
        """The member(s) a value stands for, '' when none does."""
        if value in self.members:
            return self.members[value]
        if not self.flags or value <= 0:
            return ""
        bits = [(v, n) for v, n in self.members.items() if v > 0 and v & (v - 1) == 0 and value & v]
        if sum(v for v, _ in bits) != value:
            return ""
        return " | ".join(n for _, n in sorted(bits))


def labelled(enum: Enum | None, value: str) -> str:
    """A serialized number of an enum field as Unity's Inspector shows it: `3 (GameOver)`."""
    label = enum.label(int(value)) if enum is not None and _NUMBER.fullmatch(value) else ""
    return f"{value} ({label})" if label else value


_ENTRY = re.compile(r"(?<=[{ ])([\w<>]+): (-?\d+)(?=[,}])")


def labelled_mapping(text: str, enums: dict[str, Enum]) -> str:
    """A struct's values said on one line (`{SkinType: 2, Cost: 1500}`) with the numbers of its
    enum fields (`enums`: key -> its enum) named: `{SkinType: 2 (Alien), Cost: 1500}`. Only its
    own keys, not those of a mapping nested in it, which another type declares."""
    if not enums:
        return text
    out, at = [], 0
    for m in _ENTRY.finditer(text):
        head = text[: m.start()]
        own = head.count("{") - head.count("}") == 1 and head.count("[") == head.count("]")
        if own and m.group(1) in enums:
            out += [text[at : m.start()], f"{m.group(1)}: {labelled(enums[m.group(1)], m.group(2))}"]
            at = m.end()
    return "".join(out) + text[at:]


class ScriptEnums:
    """A script's fields holding enums, by the field's name: of an enum type (`fields`), an array or
    list of one (`elements`, written as hex), a [Serializable] struct or class or a list of them,
    whose own enum fields are keys of each value (`members`). The members are worked out when first
    asked for: they read the record of every class a field names (a component's references to other
    scripts), and only a value written as a mapping (`{Cost: 1500}`) needs them."""

    __slots__ = ("elements", "fields", "members", "structs")

    def __init__(self, fields: dict[str, Enum], elements: dict[str, Enum]) -> None:
        self.fields, self.elements = fields, elements
        self.members: dict[str, dict[str, Enum]] | None = None  # None until `EnumFields.members_of`
        self.structs: dict[str, TypeRow] = {}  # field -> the project's struct or class it holds, of which
        # those with enum fields are the members


class EnumFields:
    """The enum fields of each script (its class's own and those it inherits from the project's
    classes), worked out once a script."""

    def __init__(self, graph: Graph):
        self.graph = graph
        self._scripts: dict[str, ScriptEnums] = graph.__dict__.setdefault(_MEMO, {})
        # a project type (path, qualified name) -> its enum, or its struct's enum fields: the same
        # types are field types of many scripts, each a record decode (a pack's first prefabs
        # at 5,000 scripts decoded 1,800 records for 250 scripts)
        self._types: dict[tuple[str, str, bool], Enum | dict[str, Enum] | None] = graph.__dict__.setdefault(
            _TYPES_MEMO, {}
        )

    def named(self, script_guid: str, signature: str) -> str:
        """`mod: 4` of a component of this script as `mod: 4 (Fast)` when `mod` is an enum field
        (a property's `<Mod>k__BackingField` too); an enum array's hex as its members' names
        (`keys: [2 items: W, S]`), a struct's enum fields named in it (`labelled_mapping`)."""
        name, sep, value = signature.partition(": ")
        if not sep or not (_NUMBER.fullmatch(value) or value.startswith("{") or is_hex(signature)):
            return signature  # (no value an enum names: the script's fields need not be worked out)
        enums = self.of(script_guid)
        key = field_name(name)  # a backing field's name stands for itself when the script declares it so
        if key != name and (name in enums.fields or name in enums.elements or name in self.members_of(enums)):
            key = name
        if (enum := enums.elements.get(key)) is not None:  # (before a number: hex may be all digits)
            formats = (enum.underlying, ENUM_FORMAT)
            return unpacked(signature, formats, lambda v: enum.label(int(v)) or str(v)) or signature
        if _NUMBER.fullmatch(value):
            return f"{name}: {labelled(enums.fields.get(key), value)}"
        if value.startswith("{") and key in (members := self.members_of(enums)):
            return f"{name}: {labelled_mapping(value, members[key])}"
        return signature

    def members(self, script_guid: str, field: str) -> dict[str, Enum]:
        """The enum fields of the struct or class a field of this script holds (or a list of)."""
        members = self.members_of(self.of(script_guid))
        return members.get(field) or members.get(field_name(field)) or {}

    def named_by_any(self, script_guids: set[str], signature: str) -> str:
        """`named` by the first of several scripts (an override says no script) naming the field."""
        return next((n for g in sorted(script_guids) if (n := self.named(g, signature)) != signature), signature)

    def of(self, script_guid: str) -> ScriptEnums:
        """The script's fields holding enums, worked out once a script."""
        if script_guid not in self._scripts:
            self._scripts[script_guid] = self._fields(script_guid)
        return self._scripts[script_guid]

    def _fields(self, script_guid: str) -> ScriptEnums:
        from indexer.query.serialized import inherited_fields  # it shows values named by this module

        path = self.graph.path_of_guid(script_guid)
        rec = kept_record(self.graph, path) if path else None
        out = ScriptEnums({}, {})
        if rec is None or rec.kind != "csharp":
            return out
        pending = out.structs
        resolved: dict[str, list[TypeRow]] = {}  # a type written in the file, resolved once (enum, then struct)
        for f in [*rec.symbols, *inherited_fields(self.graph, rec)]:
            if f.kind not in ("field", "property") or not f.type or f.name in out.fields or f.name in out.elements:
                continue  # (the class's own declaration first, then those it inherits)
            if f.name in pending:  # declared again: a struct with enum fields holds the name, as before
                if self.struct_enums(pending[f.name]):
                    continue
                del pending[f.name]
            for written in (f.type, element := element_type(f.type)):
                if written and written not in resolved:
                    resolved[written] = self.graph.resolve_type_ref(written, rec)
            if (enum := self.enum_of(f.type, rec, resolved[f.type])) is not None:
                out.fields[f.name] = enum
            elif element and (enum := self.enum_of(element, rec, resolved[element])) is not None:
                out.elements[f.name] = enum
            elif len(structs := [t for t in resolved[element or f.type] if t.kind in ("struct", "class")]) == 1:
                pending[f.name] = structs[0]  # the project's struct or class it names (one, or none is)
        return out

    def members_of(self, enums: ScriptEnums) -> dict[str, dict[str, Enum]]:
        """A script's `members`, worked out the first time they are asked for."""
        if enums.members is None:
            enums.members = {name: held for name, t in enums.structs.items() if (held := self.struct_enums(t))}
        return enums.members

    def struct_enums(self, struct: TypeRow) -> dict[str, Enum]:
        """The enum fields of one of the project's structs or classes (a copy)."""
        key = (struct.path, struct.qualified, False)
        if key not in self._types:
            held = kept_record(self.graph, struct.path)
            fields = () if held is None else held.symbols
            mine = (s for s in fields if s.kind == "field" and s.container == struct.qualified and s.type)
            self._types[key] = {s.name: enum for s in mine if (enum := self.enum_of(s.type, held)) is not None}
        return dict(self._types[key])  # type: ignore[arg-type]

    def enum_of(self, written: str, rec: FileRecord, resolved: list[TypeRow] | None = None) -> Enum | None:
        """The enum a type written in `rec` names (Unity's `KeyCode` too), if it is one (`resolved`:
        the project types it names, when known already)."""
        found = self.graph.resolve_type_ref(written, rec) if resolved is None else resolved
        types = [t for t in found if t.kind == "enum"]
        if not types and written.rpartition(".")[2] == "KeyCode":  # Unity's, as a key setting holds it
            return Enum(_key_codes(), False)
        if len(types) != 1:
            return None
        key = (types[0].path, types[0].qualified, True)
        if key not in self._types:
            self._types[key] = self._declared_enum(types[0].path, types[0].qualified)
        return self._types[key]  # type: ignore[return-value]

    def _declared_enum(self, path: str, qualified: str) -> Enum:
        """The enum a project file declares by this qualified name."""
        symbols = self.graph.records.symbols(path)
        declared = next((s for s in symbols if s.kind == "enum" and s.qualified == qualified), None)
        flags = declared is not None and any(a.rpartition(".")[2].startswith("Flags") for a in declared.attributes)
        members = [s.signature for s in symbols if s.kind == "enum_member" and s.container == qualified]
        underlying = scalar_format(declared.bases[0]) if declared is not None and declared.bases else None
        return Enum(member_values(members), flags, underlying or ENUM_FORMAT)


def field_name(serialized: str) -> str:
    """The property a `[field: SerializeField]` backing field is serialized for (`<Mod>k__BackingField`)."""
    return serialized.removeprefix("<").removesuffix(">k__BackingField")


def _key_codes() -> dict[int, str]:
    """The values of Unity's `KeyCode` a key setting holds (`RunningKeyCode: 304` is LeftShift): the
    keys games bind (letters, digits, arrows, modifiers, the keypad, F-keys, mice, any joystick's
    buttons), not the punctuation nor the per-joystick buttons past 349. KeyCode is by far the
    engine enum game data holds most (key lists Unity packs as hex too), and no project declares it."""
    named = {8: "Backspace", 9: "Tab", 13: "Return", 27: "Escape", 32: "Space", 127: "Delete"}
    named |= {273: "UpArrow", 274: "DownArrow", 275: "RightArrow", 276: "LeftArrow"}
    named |= {277: "Insert", 278: "Home", 279: "End", 280: "PageUp", 281: "PageDown", 301: "CapsLock"}
    named |= {303: "RightShift", 304: "LeftShift", 305: "RightControl", 306: "LeftControl", 307: "RightAlt"}
    named |= {308: "LeftAlt", **{48 + i: f"Alpha{i}" for i in range(10)}, **{97 + i: chr(65 + i) for i in range(26)}}
    named |= {256 + i: f"Keypad{i}" for i in range(10)} | {282 + i: f"F{i + 1}" for i in range(15)}
    pad = ("Period", "Divide", "Multiply", "Minus", "Plus", "Enter", "Equals")
    named |= {266 + i: f"Keypad{key}" for i, key in enumerate(pad)}
    return named | {323 + i: f"Mouse{i}" for i in range(7)} | {330 + i: f"JoystickButton{i}" for i in range(20)}


def member_values(declarations: list[str]) -> dict[int, str]:
    """An enum's members by value, from their declarations in order (`Fast = 4`, `Slow`: one more
    than the last; `Both = A | B`: of members before). Numbering stops at a value it cannot work out
    (`(int)KeyCode.A`): the members after it are left unnamed rather than misnamed."""
    known: dict[str, int] = {}
    out: dict[int, str] = {}
    last = -1
    for declaration in declarations:
        name, _, expr = (part.strip() for part in declaration.partition("="))
        value = _evaluate(expr, known) if expr else last + 1
        if value is None:
            break
        known[name] = last = value
        out.setdefault(value, name)
    return out


def _evaluate(expr: str, known: dict[str, int]) -> int | None:
    """An enum member's constant expression: integers, earlier members, `| & ^ << >> + - *`."""
    try:
        tree = ast.parse(expr.rstrip("uUlL"), mode="eval").body
    except SyntaxError:
        return None
    return _value(tree, known)


def _value(node: ast.AST, known: dict[str, int]) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name):
        return known.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Invert)):
        inner = _value(node.operand, known)
        return None if inner is None else (-inner if isinstance(node.op, ast.USub) else ~inner)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _value(node.left, known), _value(node.right, known)
        if left is None or right is None or (isinstance(node.op, ast.LShift) and not 0 <= right <= MAX_SHIFT):
            return None
        return _OPERATORS[type(node.op)](left, right)
    return None


def enum_member_usages(graph: Graph, types: list[str], member: str) -> list[Usage]:
    """The assets holding an enum member as a field's value (`CinematicId: 1 (MeetTheMayor)`, a
    `[Flags]` value with its bit): `refs CinematicId.MeetTheMayor` listed only code, though Unity
    writes every chosen member into scenes and prefabs as a number. None for another type."""
    from indexer.query.nested_values import nested_value_usages  # (both name values by this module)
    from indexer.query.serialized import value_usages
    from indexer.query.type_tree import descendants

    enums = [t for q in types for t in graph.types_named(q) if t.qualified == q and t.kind == "enum"]
    out: list[Usage] = []
    for enum in enums:
        simple = enum.qualified.rsplit(".", 1)[-1]
        sql = (
            "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE r.kind = 'type' AND r.key = ? AND r.context IN ('field', 'property')"
        )
        holders: set[tuple[str, str]] = set()  # (class, field) of the enum's type
        for (path,) in graph.records.conn.execute(sql, (simple,)):
            rec = graph.records.record(path)
            for s in rec.symbols if rec is not None else ():
                typed = s.kind in ("field", "property") and bare_type_name(s.type or "") == simple
                if typed and any(t.qualified == enum.qualified for t in graph.resolve_type_ref(s.type, rec)):
                    holders.add((s.container, s.name))
        for cls, field in sorted(holders):
            said = re.compile(rf"\b{re.escape(field)}: -?\d+ \(([^)]*)\)")
            held = value_usages(graph, field, graph.script_guids(descendants(graph, cls)), cls)
            for u in held + nested_value_usages(graph, cls, field):  # in a [Serializable] class's list
                if (m := said.search(u.detail)) and member in m[1].split(" | "):
                    out.append(u)
    return out
