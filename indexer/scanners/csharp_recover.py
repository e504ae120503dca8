"""Type headers tree-sitter left as loose tokens inside an ERROR node, rebuilt as symbols; and a
parse of valid C# the grammar rejects (`async` as a name, `#if` branches that are no C# together).

Why: `#if`/`#else` around a class header makes tree-sitter-c-sharp give up on the declaration;
its keyword, name, modifiers and base list are still there as children of the ERROR, in order.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise
from typing import Any

from indexer.model import Symbol

from .csharp_nodes import TYPE_NODES, NodeText, collapse
from .csharp_query import parsed

KEYWORD_KINDS = {"class": "class", "struct": "struct", "interface": "interface", "enum": "enum",
                 "record": "record"}  # fmt: skip
_HEADER_TAIL = ("type_parameter_list", "type_parameter_constraints_clause")
# `async` as a name (`bool async = true`, `if (async)`), which C# allows and the grammar does not:
# the modifier is always followed by a type, a name or a lambda's parameters.
_ASYNC_NAME = re.compile(rb"\basync\b(?=\s*(?:=(?!>)|[),;.\]&|?!:}]))")


_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|elif|else|endif)\b", re.M)
_TYPE_HEADER = re.compile(rb"\b(?:class|struct|interface|enum|record)\s+[A-Za-z_]")
# A branch of an `#if` holding one type's header alone: its directive's line, then the header
# (attributes, modifiers, keyword, name, type parameters, bases, constraints), no `;`, and at most
# the `{` that opens its body.
_HEADER_ONLY = re.compile(
    rb"#[^\n]*\n[^{};#]*?\b(?:class|struct|interface|enum|record)\s+[A-Za-z_][^{};#]*(\{\s*)?", re.S
)


def reparsed(parser: Any, data: bytes, root: Any) -> Any:
    """`root`, or when it has errors, the tree of `data` changed at the same length (offsets, and
    the text read at them, stay the file's) if that one has none: `async` used as a name spelled
    otherwise (a valid message router read as three syntax error regions), then each `#if`'s
    later branches blanked (`#if UNITY_6000_0_OR_NEWER` and `#else` each opening a method's
    signature, one body for both: a valid file read as three)."""
    if not root.has_error:
        return root
    fixed = _ASYNC_NAME.sub(b"asyn_", data) if b"async" in data else data
    for attempt in (fixed, first_branches(fixed) if b"#" in data else fixed):
        if attempt != data:
            again = parsed(parser, attempt).root_node
            if not again.has_error:
                return again
    return root


def first_branches(data: bytes) -> bytes:
    """`data` with the `#elif`/`#else` branches of each `#if` blanked (newlines kept), as if the first
    branch's symbols were defined, and the directives themselves (one between a method's
    signature and its body is an error too). An `#if` whose every branch is one type's header
    and nothing else (`#if UNITY_EDITOR` `class A : Editor` `#else` `class A : MonoBehaviour`
    `#endif` `{ ... }`, or each branch ending with its `{`) keeps every branch: a `;` ends each
    earlier header (a header without a body; written over the next directive, or over that
    header's `{`), so the parse reads the headers one after the other and the last takes the
    body; they are merged as `#if` duplicates are, bases unioned. A type header in a later
    branch of any other `#if` leaves `data` as it is (`recover_headers` reads it)."""
    out = bytearray(data)
    branches: list[list[int]] = []  # per open #if: where each of its directives starts
    for m in _DIRECTIVE.finditer(data):
        kind, end = m[1], data.find(b"\n", m.start())
        end = len(data) if end < 0 else end
        out[m.start() : end] = _blank(data[m.start() : end])
        if kind == b"if":
            branches.append([m.start()])
        elif kind in (b"elif", b"else") and branches:
            branches[-1].append(m.start())
        elif kind == b"endif" and branches:
            starts = [*branches.pop(), m.start()]
            if len(starts) < 3:
                continue
            if not _TYPE_HEADER.search(data, starts[1], starts[-1]):
                out[starts[1] : starts[-1]] = _blank(data[starts[1] : starts[-1]])
            elif (ends := _header_ends(data, starts)) is not None:
                for at in ends:
                    out[at] = ord(";")
            else:
                return data  # a type header in a later branch: recover_headers keeps every base
    return bytes(out)


def _header_ends(data: bytes, starts: list[int]) -> list[int] | None:
    """Where to write the `;` that ends each earlier branch's header, when every branch between
    `starts` (the group's directives) is one type's header alone, all with their body's `{` or
    none: at that `{` (the last branch's opens the body), else at the next directive; or None."""
    found = [_HEADER_ONLY.fullmatch(data, a, b) for a, b in pairwise(starts)]
    if not all(found):
        return None
    braces = [m.start(1) for m in found if m and m[1]]
    if not braces:
        return starts[1:-1]
    return braces[:-1] if len(braces) == len(found) else None


def _blank(text: bytes) -> bytes:
    return re.sub(rb"[^\n]", b" ", text)


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
