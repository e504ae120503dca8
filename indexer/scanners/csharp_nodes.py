"""Text of tree-sitter C# nodes as the index writes it: headers, modifiers, attributes, type names.

Shared by the C# scanner and its ERROR-header recovery; every function reads only the node it is
given and its children (no walks up the tree, no recursion: a deeply nested type stays cheap).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, NamedTuple

import msgspec

from indexer.model import Symbol

TYPE_NODES = {
    "class_declaration": "class",
    "struct_declaration": "struct",
    "interface_declaration": "interface",
    "enum_declaration": "enum",
    "record_declaration": "record",
    "delegate_declaration": "delegate",
}
# Children that end a declaration header (body, initializer, accessors).
HEADER_STOP = frozenset({
    "block", "arrow_expression_clause", "accessor_list", "declaration_list",
    "enum_member_declaration_list", ";", "=", "constructor_initializer",
})  # fmt: skip
ENUM_MEMBER_STOP = frozenset({","})
_HEADER_SKIP = frozenset({"attribute_list", "comment", "ERROR"})
_NO_SPACE_BEFORE = frozenset({"type_parameter_list", "parameter_list", "bracketed_parameter_list"})
_WRAPPERS = frozenset({"array_type", "nullable_type", "pointer_type", "ref_type", "scoped_type"})

Words = tuple[str, ...]
_GENERIC_ARGS = re.compile(r"<[^<>]*>")


def collapse(text: str) -> str:
    """Whitespace runs as one space, none at the ends (`str.split` and the regex `\\s` agree on
    what whitespace is; split and join is several times faster than the regex on short text)."""
    return " ".join(text.split())


def squeeze(text: str) -> str:
    """All whitespace removed."""
    return "".join(text.split())


def _ids(*names: str) -> frozenset[int]:
    from .csharp_query import kind_ids

    ids = kind_ids()
    return frozenset(i for n in names for i in ids.get(n, ()))


class Kinds(NamedTuple):
    """`Node.kind_id` sets of the types the scanner tests children against (see `kind_ids`)."""

    modifier: frozenset[int]
    attribute_list: frozenset[int]
    attribute: frozenset[int]
    comment: frozenset[int]
    base_list: frozenset[int]
    not_a_base: frozenset[int]  # a base list's comments and a primary constructor's base arguments
    ctor_base: frozenset[int]  # a record's `Base(Id)`: the base type and its arguments
    variable_declaration: frozenset[int]
    variable_declarator: frozenset[int]
    identifier: frozenset[int]
    type_name_kinds: frozenset[int]  # the type nodes `type_names` finds a name in
    static: frozenset[int]
    using_target: frozenset[int]  # what a using directive names
    accessor_declaration: frozenset[int]
    named_scope: frozenset[int]  # named types and namespaces: they give their name to what is inside
    # kind id -> `declaration`'s role bits (absent: plain header text); SKIP: attribute lists,
    # comments, ERROR and preprocessor lines
    header_roles: dict[int, int]
    enum_member_roles: dict[int, int]  # the same with `ENUM_MEMBER_STOP` as the stop set
    name_field: int  # field ids, for `Node.child_by_field_id` (no name lookup per call)
    type_field: int
    returns_field: int
    accessors_field: int


@functools.cache
def kinds() -> Kinds:
    from .csharp_query import field_id, kind_ids

    preproc = [n for n in kind_ids() if n.startswith("preproc")]
    return Kinds(
        _ids("modifier"), _ids("attribute_list"), _ids("attribute"), _ids("comment"), _ids("base_list"),
        _ids("comment", "argument_list"), _ids("primary_constructor_base_type"),
        _ids("variable_declaration"), _ids("variable_declarator"), _ids("identifier"),
        _ids("identifier", "generic_name", "qualified_name", "alias_qualified_name", "tuple_type",
             "primary_constructor_base_type", *_WRAPPERS),
        _ids("static"), _ids("identifier", "qualified_name", "alias_qualified_name", "generic_name"),
        _ids("accessor_declaration"), _ids(*TYPE_NODES, "namespace_declaration"),
        _roles(_ids(*HEADER_STOP), preproc), _roles(_ids(*ENUM_MEMBER_STOP), preproc),
        field_id("name"), field_id("type"), field_id("returns"), field_id("accessors"),
    )  # fmt: skip


# Role bits of a declaration's child (`Kinds.header_roles`): one dict lookup instead of five set tests.
MODIFIER, ATTRIBUTES, SKIP, STOP, BASES, NO_SPACE = 1, 2, 4, 8, 16, 32


def _roles(stop: frozenset[int], preproc: list[str]) -> dict[int, int]:
    roles: dict[int, int] = {}
    for bit, ids in (
        (MODIFIER, _ids("modifier")), (ATTRIBUTES, _ids("attribute_list")), (SKIP, _ids(*_HEADER_SKIP, *preproc)),
        (STOP, stop), (BASES, _ids("base_list")), (NO_SPACE, _ids(*_NO_SPACE_BEFORE)),
    ):  # fmt: skip
        for i in ids:
            roles[i] = roles.get(i, 0) | bit
    return roles


def _slicer(text: str) -> Callable[[Any], str]:
    def sliced(node: Any) -> str:
        return text[node.start_byte : node.end_byte]

    return sliced


class NodeText:
    """Reads node text out of the file's bytes."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        # An ASCII file's byte offsets are character offsets: slice its text, decode nothing.
        self.ascii = data.decode("ascii") if data.isascii() else None
        self.kinds = kinds()
        # `text` is the hottest call of the scan: a closure over the text, no branch, no `self`.
        self.text: Callable[[Any], str] = _slicer(self.ascii) if self.ascii is not None else self.decoded

    def decoded(self, node: Any) -> str:
        """The text of `node` in a file that is not all ASCII."""
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def attributes_of_list(self, node: Any) -> list[str]:
        attribute = self.kinds.attribute
        return [" ".join(self.text(a).split()) for a in node.named_children if a.kind_id in attribute]

    def attributes(self, node: Any) -> tuple[str, ...]:
        return self.modifiers_attributes(node)[1]

    def modifiers(self, node: Any) -> tuple[str, ...]:
        return self.modifiers_attributes(node)[0]

    def modifiers_attributes(self, node: Any) -> tuple[Words, Words]:
        """(`modifiers`, `attributes`) of a declaration in one pass over its children."""
        k = self.kinds
        mods: list[str] = []
        attrs: list[str] = []
        for c in node.children:
            kid = c.kind_id
            if kid in k.modifier:
                mods.append(self.text(c))
            elif kid in k.attribute_list:
                attrs.extend(self.attributes_of_list(c))
        return tuple(mods), tuple(attrs)

    def bases_of(self, base_list: Any) -> list[str]:
        k = self.kinds  # `: Base(n)` is the base `Base` and its arguments
        out = []
        for c in base_list.named_children:
            if c.kind_id in k.ctor_base and c.named_child_count:
                c = c.child_by_field_id(k.type_field) or c.named_children[0]
            if c.kind_id not in k.not_a_base:
                out.append(collapse(self.text(c)))
        return out

    def type_text(self, node: Any | None) -> str:
        return collapse(self.text(node)) if node is not None else ""

    def declaration(self, node: Any, roles: dict[int, int] | None = None) -> tuple[str, Words, Words]:
        """(header, `modifiers`, `attributes`) of a declaration in one pass over its children.

        The header is the text of the children up to the body (a child with the `STOP` role in
        `roles`, default `Kinds.header_roles`), attributes and comments dropped. Only the first
        base list counts: a second one comes from an `#if`/`#else` header variant.
        """
        get = (self.kinds.header_roles if roles is None else roles).get
        text = self.text
        out = ""
        mods: list[str] = []
        attrs: list[str] = []
        seen_bases = False
        in_header = True
        for c in node.children:
            role = get(c.kind_id, 0)
            if role & MODIFIER:
                piece = text(c)  # one keyword token: no whitespace to collapse
                mods.append(piece)
                if not in_header:
                    continue
            else:
                if role & ATTRIBUTES:
                    attrs.extend(self.attributes_of_list(c))
                if not in_header or role & SKIP:
                    continue
                if role & STOP:
                    in_header = False
                    continue
                if role & BASES:
                    if seen_bases:
                        continue
                    seen_bases = True
                piece = " ".join(text(c).split())
            if not out or role & NO_SPACE or out[-1] in "~.":  # `~Foo()`, `int IScore.Total()`
                out += piece
            else:
                out += " " + piece
        return out, tuple(mods), tuple(attrs)

    def accessor_summary(self, node: Any) -> str:
        """Accessor summary such as "{ get; private set; }"; an expression body reads "{ get; }"."""
        k = self.kinds
        acc = node.child_by_field_id(k.accessors_field)
        if acc is None:
            return "{ get; }"
        parts = []
        for a in acc.named_children:
            if a.kind_id in k.accessor_declaration:
                words = [self.text(c) for c in a.children if c.kind_id in k.modifier]
                name = a.child_by_field_id(k.name_field)
                if name is not None:
                    words.append(self.text(name))
                parts.append(" ".join(words) + ";")
        return "{ " + " ".join(parts) + " }" if parts else "{ }"

    def using_text(self, node: Any) -> str:
        """`using X;` -> "X"; `using static X;` -> "static X"; `using A = B;` -> "A = B"."""
        k = self.kinds
        alias = node.child_by_field_id(k.name_field)
        is_static = False
        target = ""
        for c in node.children:
            kid = c.kind_id
            if kid in k.static:
                is_static = True
            elif kid in k.using_target and (alias is None or c.id != alias.id):
                target = squeeze(self.text(c)).removeprefix("global::")
        if alias is not None:
            return f"{self.text(alias)} = {target}"
        return f"static {target}" if is_static else target

    def type_names(self, node: Any, out: list[str]) -> None:
        """Type names in a type node, generic arguments, arrays, nullable and pointers stripped."""
        todo = [node]
        while todo:
            node = todo.pop()
            t = node.type
            if t == "identifier":
                out.append(self.text(node))
            elif t == "generic_name":
                first = node.named_children[0] if node.named_child_count else None
                if first is not None and first.type == "identifier":
                    out.append(self.text(first))
            elif t in ("qualified_name", "alias_qualified_name"):
                self.qualified_type_name(node, out)
            elif t in _WRAPPERS:
                inner = node.child_by_field_name("type")
                if inner is not None:
                    todo.append(inner)
            elif t == "tuple_type":
                inner_types = (el.child_by_field_name("type") for el in node.named_children)
                todo.extend(reversed([i for i in inner_types if i is not None]))
            elif t == "primary_constructor_base_type":
                first = node.named_children[0] if node.named_child_count else None
                inner = node.child_by_field_name("type") or first
                if inner is not None:
                    todo.append(inner)

    def qualified_type_name(self, node: Any, out: list[str]) -> None:
        text = squeeze(self.text(node))
        while "<" in text:
            stripped = _GENERIC_ARGS.sub("", text)
            if stripped == text:
                break
            text = stripped
        text = text.split("::", 1)[-1]
        if text:
            out.append(text)


def plain(name: str) -> str:
    """A name as C# means it: `@event` (a verbatim identifier) is `event`, and the class the Input
    System generates, declared `@PlayerControls`, is used as `PlayerControls`."""
    return name.replace("@", "") if "@" in name else name


def plain_symbol(s: Symbol) -> Symbol:
    if "@" not in s.name and "@" not in s.container:
        return s
    return msgspec.structs.replace(s, name=plain(s.name), container=plain(s.container))


# A field's value is shown in its signature when on one line, at most this many characters, and
# not one of these
MAX_VALUE_CHARS = 40
_NO_VALUE = re.compile(r"null|default(?:\(.*\))?|new *(?:[\w.<>, \[\]]*)\( *\)|new *[\w.<>]*\[\] *\{ *\}")
_TEXT_VALUES = frozenset(
    {"string_literal", "verbatim_string_literal", "raw_string_literal", "interpolated_string_expression"}
)


def field_value(declarator: Any, name: Any, text: Callable[[Any], str]) -> str:
    """`= value` of a field written with a short one-line value (`= 5`, `= KeyCode.Space`): the
    default a task asks about ("how many cards does a hand hold"), where the outline showed the
    name alone; its whitespace collapsed as the signature's, a string's kept. `null`, `default`,
    an empty `new T()` and a value holding a comment say nothing; a blanked value (a file with
    syntax errors) is blank."""
    value = declarator.named_children[-1]
    if value == name or value.type in ("bracketed_argument_list", "ERROR") or value.has_error:
        return ""
    if value.start_point[0] != value.end_point[0] or value.end_byte - value.start_byte > 4 * MAX_VALUE_CHARS:
        return ""
    shown = text(value)
    if value.type not in _TEXT_VALUES:
        if "/*" in shown or "//" in shown:
            return ""
        shown = " ".join(shown.split())
    return f"= {shown}" if shown and len(shown) <= MAX_VALUE_CHARS and not _NO_VALUE.fullmatch(shown) else ""
