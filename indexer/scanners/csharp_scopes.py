"""What encloses each declaration of a C# file: namespaces, outer types, recovered headers.

Why a walk from the root: tree-sitter's `Node.parent` walks down from the root, so looking up the
ancestors of every declaration costs depth squared per declaration (1,000 nested namespaces took
29 s). Here the enclosing name is carried down one walk, which enters only nodes that hold a
declaration of interest, so the work is the size of the path to those declarations. A tree
without ERROR nodes needs no walk at all: its named types and namespaces are among the captured
declarations, so one sweep over those in file order with a stack of the open ones places them all
(`_nested`; 98.6% of real files).

The rules (the same as reading the ancestors upward): a named type or namespace adds its name; an
ERROR node whose type headers were rebuilt (`csharp_recover`) gives the children after a header
that header's qualified name instead of everything outside it (types inside the ERROR keep theirs);
a file-scoped namespace goes in front of the rest, unless a recovered header already named it.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import Any, NamedTuple

from .csharp_nodes import TYPE_NODES, NodeText, squeeze

# Named scopes (namespaces and types) a declaration may sit in. Every declaration records its
# container's full name, so nesting costs the square of its depth (6,000 nested namespaces, a
# 119 KB file, took 2.5 GB and a 218 MB index); real code nests a handful. Deeper: `TooDeep`.
MAX_NESTING = 64


class TooDeep(Exception):
    """Namespaces and types nested over MAX_NESTING deep: the file is skipped (csharp.scan)."""


class Scope(NamedTuple):
    """The enclosing qualified name of a node; `closed` when a recovered header supplied it whole;
    `depth`: the named scopes it is made of."""

    prefix: str
    closed: bool
    depth: int = 0


def _nested_in(prefix: str, closed: bool, depth: int) -> Scope:
    if depth > MAX_NESTING:
        raise TooDeep
    return Scope(prefix, closed, depth)


# ERROR node, its scope -> the (start byte, qualified name) of the headers rebuilt from it
Recover = Callable[[Any, Scope], list[tuple[int, str]]]


def scopes(src: NodeText, root: Any, targets: list[Any], recover: Recover, has_errors: bool) -> dict[int, Scope]:
    """Node id -> Scope for every node in `targets` (ERROR nodes among them are handed to
    `recover`, outer ones first, before anything inside them is placed); `has_errors`: whether
    there are any (the caller knows from its captures, so the nodes need not be looked at)."""
    if not has_errors:
        found = _nested(src, targets)
        if found is not None:
            return found
    wanted = {n.id for n in targets}
    errors = {n.id for n in targets if n.type == "ERROR"}
    starts = sorted(n.start_byte for n in targets)
    found: dict[int, Scope] = {}
    headers: dict[int, list[tuple[int, str]]] = {}
    todo: list[tuple[Any, Scope]] = [(root, Scope("", False))]
    while todo:
        node, scope = todo.pop()
        if node.id in wanted:
            found[node.id] = scope
            if node.id in errors:
                headers[node.id] = recover(node, scope)
        inside = bisect.bisect_right(starts, node.end_byte) - bisect.bisect_left(starts, node.start_byte)
        if inside <= (node.id in wanted):
            continue  # nothing to place below this node: its children are never made
        inner = _inner(src, node, scope)
        hdrs = headers.get(node.id) if node.type == "ERROR" else None
        children = [c for c in node.children if _holds_target(c, starts)]
        for child in reversed(children):
            todo.append((child, _after_header(hdrs, child, scope.depth + 1) or inner))
    return found


def _nested(src: NodeText, targets: list[Any]) -> dict[int, Scope] | None:
    """Without ERROR nodes every scope is the chain of named types and namespaces around a node,
    and those are among `targets`: one sweep over them in file order (outer first) with a stack
    of the open ones, no tree walk. None when two targets share a range (nesting unclear)."""
    found: dict[int, Scope] = {}
    stack: list[tuple[int, Scope]] = []  # (end byte, scope inside) of the open named nodes
    top = Scope("", False)
    last = (-1, -1)
    named_scope = src.kinds.named_scope  # tested here too: most targets are members, no call for them
    for start, neg_end, node in sorted((n.start_byte, -n.end_byte, n) for n in targets):
        if (start, neg_end) == last:
            return None
        last = (start, neg_end)
        while stack and stack[-1][0] <= start:
            stack.pop()
        scope = stack[-1][1] if stack else top
        found[node.id] = scope
        if node.kind_id in named_scope:
            inner = _inner(src, node, scope)
            if inner is not scope:
                stack.append((-neg_end, inner))
    return found


def _inner(src: NodeText, node: Any, scope: Scope) -> Scope:
    """The scope `node` gives its children (a named type or namespace adds its name)."""
    k = src.kinds
    if node.kind_id not in k.named_scope:
        return scope
    name = node.child_by_field_id(k.name_field)
    if name is None:
        return scope
    text = squeeze(src.text(name))
    return _nested_in(f"{scope.prefix}.{text}" if scope.prefix else text, scope.closed, scope.depth + 1)


def _after_header(hdrs: list[tuple[int, str]] | None, child: Any, depth: int) -> Scope | None:
    """Inside an ERROR: the last rebuilt header before `child` names its scope (not for types);
    `depth`: that header's (one below the ERROR's scope)."""
    if not hdrs or child.type in TYPE_NODES:
        return None
    at = bisect.bisect_left(hdrs, (child.start_byte, "")) - 1
    return _nested_in(hdrs[at][1], True, depth) if at >= 0 else None


def _holds_target(node: Any, starts: list[int]) -> bool:
    at = bisect.bisect_left(starts, node.start_byte)
    return at < len(starts) and starts[at] <= node.end_byte


def qualified(scope: Scope, file_namespace: str) -> str:
    """The container string: the file-scoped namespace in front unless the scope is closed."""
    if scope.closed or not file_namespace:
        return scope.prefix
    return f"{file_namespace}.{scope.prefix}" if scope.prefix else file_namespace
