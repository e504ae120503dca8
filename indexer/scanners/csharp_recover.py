"""Type headers tree-sitter left as loose tokens inside an ERROR node, rebuilt as symbols; and
a parse without the errors a contextual keyword used as a name makes.

Why: `#if`/`#else` around a class header makes tree-sitter-c-sharp give up on the declaration;
its keyword, name, modifiers and base list are still there as children of the ERROR, in order.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from indexer.model import Symbol

from .csharp_nodes import TYPE_NODES, NodeText, collapse

KEYWORD_KINDS = {"class": "class", "struct": "struct", "interface": "interface", "enum": "enum",
                 "record": "record"}  # fmt: skip
_HEADER_TAIL = ("type_parameter_list", "type_parameter_constraints_clause")
# `async` as a name (`bool async = true`, `if (async)`), which C# allows and the grammar does not:
# the modifier is always followed by a type, a name or a lambda's parameters.
_ASYNC_NAME = re.compile(rb"\basync\b(?=\s*(?:=(?!>)|[),;.\]&|?!:}]))")


def reparsed(parser: Any, data: bytes, root: Any) -> Any:
    """`root`, or when it has errors and `data` uses `async` as a name, the tree of `data` with
    that name spelled otherwise at the same length (offsets, and the text read at them, stay the
    file's), if that one has none: a valid message router read as three syntax error regions."""
    if not root.has_error or b"async" not in data:
        return root
    fixed = _ASYNC_NAME.sub(b"asyn_", data)
    again = parser.parse(fixed).root_node if fixed != data else root
    return root if again.has_error else again


class _Partial:
    """A recovered type whose end grows with the named children that follow its header."""

    __slots__ = ("end", "start", "symbol")

    def __init__(self, start: int, symbol: Symbol) -> None:
        self.start = start
        self.symbol = symbol
        self.end = symbol.end_line

    def done(self) -> tuple[int, Symbol]:
        s = self.symbol
        return self.start, Symbol(
            kind=s.kind, name=s.name, line=s.line, end_line=self.end, container=s.container,
            signature=s.signature, modifiers=s.modifiers, attributes=s.attributes, bases=s.bases,
        )  # fmt: skip


def _name_at(children: list[Any], i: int) -> tuple[str, int] | None:
    """(kind, index of the name) when children[i] is a type keyword followed by a name."""
    ctype = children[i].type
    j = i + 1
    kind = KEYWORD_KINDS[ctype]
    if ctype == "record" and children[j].type in ("struct", "class"):
        kind = "record_struct" if children[j].type == "struct" else "record"
        j += 1
    if j >= len(children) or children[j].type != "identifier":
        return None
    return kind, j


def recover_headers(
    src: NodeText, err: Any, container: Callable[[], str]
) -> tuple[list[tuple[int, Symbol]], list[tuple[int, str]]]:
    """Symbols of the type headers among `err`'s children, and (start byte, qualified name) of
    each header for the containers of what follows it. `container` gives the ERROR's container."""
    children = err.children
    headers: list[tuple[int, str]] = []
    pending: list[_Partial] = []
    current: _Partial | None = None
    outer: str | None = None
    for i, child in enumerate(children):
        ctype = child.type
        if not child.is_named and ctype in KEYWORD_KINDS and i + 1 < len(children):
            found = _name_at(children, i)
            if found is None:
                continue
            if outer is None:
                outer = container()
            current = _header(src, children, i, found, outer)
            pending.append(current)
            name = current.symbol.name
            headers.append((child.start_byte, f"{outer}.{name}" if outer else name))
        elif current is not None and child.is_named:
            if ctype in TYPE_NODES:
                current = None
            else:
                current.end = child.end_point[0] + 1
    return [p.done() for p in pending], headers


def _header(src: NodeText, children: list[Any], i: int, found: tuple[str, int], outer: str) -> _Partial:
    kind, j = found
    keyword, name_node = children[i], children[j]
    mods, attrs = _prefix(src, children, i)
    bases: list[str] = []
    for nxt in children[j + 1 :]:
        if nxt.type == "base_list":
            bases.extend(src.bases_of(nxt))
        elif nxt.type not in _HEADER_TAIL:
            break
    name = src.text(name_node)
    sig = " ".join([*mods, "record struct" if kind == "record_struct" else keyword.type, name])
    for nxt in children[j + 1 :]:
        if nxt.type == "type_parameter_list":
            sig += collapse(src.text(nxt))
        else:
            if nxt.type == "base_list":
                sig += " " + collapse(src.text(nxt))
            break
    symbol = Symbol(
        kind=kind, name=name, line=name_node.start_point[0] + 1, end_line=keyword.end_point[0] + 1,
        container=outer, signature=sig, modifiers=tuple(mods), attributes=tuple(attrs), bases=tuple(bases),
    )  # fmt: skip
    return _Partial(name_node.start_byte, symbol)


def _prefix(src: NodeText, children: list[Any], i: int) -> tuple[list[str], list[str]]:
    """Modifiers and attributes written right before the keyword at children[i]."""
    k = i - 1
    mods: list[str] = []
    attrs: list[str] = []
    while k >= 0 and children[k].type in ("modifier", "attribute_list"):
        if children[k].type == "modifier":
            mods.insert(0, src.text(children[k]))
        else:
            attrs[:0] = src.attributes_of_list(children[k])
        k -= 1
    return mods, attrs
