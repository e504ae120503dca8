"""Text of tree-sitter C# nodes as the index writes it: headers, modifiers, attributes, type names.

Shared by the C# scanner and its ERROR-header recovery; every function reads only the node it is
given and its children (no walks up the tree, no recursion: a deeply nested type stays cheap).
"""

from __future__ import annotations

import re
from typing import Any

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


class NodeText:
    """Reads node text out of the file's bytes."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        # An ASCII file's byte offsets are character offsets: slice its text, decode nothing.
        self.ascii = data.decode("ascii") if data.isascii() else None

    def text(self, node: Any) -> str:
        if self.ascii is not None:
            return self.ascii[node.start_byte : node.end_byte]
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def attributes_of_list(self, node: Any) -> list[str]:
        return [collapse(self.text(a)) for a in node.named_children if a.type == "attribute"]

    def attributes(self, node: Any) -> tuple[str, ...]:
        out: list[str] = []
        for c in node.children:
            if c.type == "attribute_list":
                out.extend(self.attributes_of_list(c))
        return tuple(out)

    def modifiers(self, node: Any) -> tuple[str, ...]:
        return tuple(self.text(c) for c in node.children if c.type == "modifier")

    def bases_of(self, base_list: Any) -> list[str]:
        return [collapse(self.text(c)) for c in base_list.named_children if c.type != "comment"]

    def type_text(self, node: Any | None) -> str:
        return collapse(self.text(node)) if node is not None else ""

    def header(self, node: Any, stop: frozenset[str] = HEADER_STOP) -> str:
        """Declaration header text: children up to the body, attributes and comments dropped.

        Only the first base list counts: a second one comes from an `#if`/`#else` header variant.
        """
        return self.declaration(node, stop)[0]

    def declaration(self, node: Any, stop: frozenset[str] = HEADER_STOP) -> tuple[str, Words, Words]:
        """(`header`, `modifiers`, `attributes`) of a declaration in one pass over its children."""
        out = ""
        mods: list[str] = []
        attrs: list[str] = []
        seen_bases = False
        in_header = True
        text = self.text
        for c in node.children:
            t = c.type
            if t == "modifier":
                mods.append(text(c))
            elif t == "attribute_list":
                attrs.extend(self.attributes_of_list(c))
            if not in_header or t in _HEADER_SKIP or t.startswith("preproc"):
                continue
            if t in stop:
                in_header = False
                continue
            if t == "base_list":
                if seen_bases:
                    continue
                seen_bases = True
            piece = " ".join(text(c).split())
            if not out or t in _NO_SPACE_BEFORE or out[-1] == "~":
                out += piece
            else:
                out += " " + piece
        return out, tuple(mods), tuple(attrs)

    def accessor_summary(self, node: Any) -> str:
        """Accessor summary such as "{ get; private set; }"; an expression body reads "{ get; }"."""
        acc = node.child_by_field_name("accessors")
        if acc is None:
            return "{ get; }"
        parts = []
        for a in acc.named_children:
            if a.type == "accessor_declaration":
                words = [self.text(c) for c in a.children if c.type == "modifier"]
                name = a.child_by_field_name("name")
                if name is not None:
                    words.append(self.text(name))
                parts.append(" ".join(words) + ";")
        return "{ " + " ".join(parts) + " }" if parts else "{ }"

    def using_text(self, node: Any) -> str:
        """`using X;` -> "X"; `using static X;` -> "static X"; `using A = B;` -> "A = B"."""
        alias = node.child_by_field_name("name")
        is_static = any(c.type == "static" for c in node.children)
        target = ""
        for c in node.named_children:
            if c.type in ("identifier", "qualified_name", "alias_qualified_name", "generic_name") and (
                alias is None or c.id != alias.id
            ):
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
