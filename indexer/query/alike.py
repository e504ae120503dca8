"""Sibling copies of one object, alike but for the number Unity gives a duplicate, shown as the
first of them and one line saying how many more.

A menu scene's pack spent its lines on `Button_PlayGame (2)` … `(5)`, four buttons whose lines
below the name were the same (`Button: m_OnClick: UnityEvent (0 calls)`), and took four of the six
objects a pack shows of a scene, while the listener changing the scene on "play" was cut (a trial,
session 41). Only copies alike in every line (their children's too, but line numbers) are folded:
one setting a call the others lack stays apart.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from indexer.query.outline import Node

# A duplicate's name: Unity's ` (N)` or a trailing number (`Waypoint12`); the name before it
_PARENS = re.compile(r"^(.+) \((\d+)\)$")
_DIGITS = re.compile(r"^(.*\D)(\d+)$")
_LINE_NO = re.compile(r"  L\d+$")


def fold_alike(nodes: tuple[Node, ...]) -> tuple[Node, ...]:
    """`nodes` (a hierarchy, each after its parent) with each run of sibling copies alike
    (`_likeness`) kept as its first and a node standing for the rest (`Node.folded`: how many
    objects), whose line names them, `Button_PlayGame (3) … (5): 3 more like it`."""
    out: list[Node] = []
    i = 0
    while i < len(nodes):
        end = _subtree_end(nodes, i)
        run, j = _run(nodes, i, end)
        if len(run) < 2 or (len(run) == 2 and end - i == 1 and not nodes[i].body):  # a line for a line
            out.append(nodes[i])
            i += 1
            continue
        out += [nodes[i], *fold_alike(nodes[i + 1 : end]), _fold_node(nodes, run, j - end)]
        i = j
    return tuple(out)


def folded_into(nodes: tuple[Node, ...] | list[Node]) -> dict[int, int]:
    """Each folding node's index -> that of the copy it follows (the one shown): the nearest
    sibling before it. A pack shows the line only with that copy."""
    last: dict[int, int] = {}  # depth -> the last object met at it
    into: dict[int, int] = {}
    for i, n in enumerate(nodes):
        if n.folded and n.depth in last:
            into[i] = last[n.depth]
        last[n.depth] = i
        for d in [d for d in last if d > n.depth]:
            del last[d]
    return into


def _subtree_end(nodes: tuple[Node, ...], i: int) -> int:
    end = i + 1
    while end < len(nodes) and nodes[end].depth > nodes[i].depth:
        end += 1
    return end


def _run(nodes: tuple[Node, ...], i: int, end: int) -> tuple[list[int], int]:
    """The siblings from `i` on alike with it (their indexes) and where the last one's subtree ends:
    each named as it is but for its number (`Cube (1)` after `Cube`, `Enemy2` after `Enemy1`)."""
    key = _likeness(nodes, i, end)
    name = nodes[i].names[0] if nodes[i].names else ""
    names = {name, _base(name)}
    run, j = [i], end
    while key is not None and j < len(nodes) and nodes[j].depth == nodes[i].depth:
        k = _subtree_end(nodes, j)
        if _likeness(nodes, j, k) != key or _base(nodes[j].names[0]) not in names:
            break
        run.append(j)
        j = k
    return run, j


def _base(name: str) -> str:
    """A name without the number Unity gives a duplicate: ` (N)`, else a trailing number."""
    m = _PARENS.match(name) or _DIGITS.match(name)
    return m.group(1) if m else name


def _likeness(nodes: tuple[Node, ...], i: int, end: int) -> tuple | None:
    """What must be the same for two siblings to be copies (but their names, `_run`): the rest of
    the object's line but its line number, its body, and its children's lines but their line
    numbers. None for an object whose line does not start with its name (a placed run of
    instances, a renamed instance)."""
    n = nodes[i]
    pad = "  " * n.depth
    name = n.names[0] if n.names else ""
    if not name or not n.head.startswith(pad + name) or n.folded:
        return None
    rest = _LINE_NO.sub("", n.head[len(pad) + len(name) :])
    if rest and not rest.startswith("  "):
        return None
    below = tuple((c.depth - n.depth, _LINE_NO.sub("", c.head), c.body, c.folded) for c in nodes[i + 1 : end])
    return (rest, n.body, below)


def _fold_node(nodes: tuple[Node, ...], run: list[int], objects: int) -> Node:
    """The node standing for the copies after the first, `objects` objects with their children."""
    first, names = nodes[run[0]], [nodes[k].names[0] for k in run[1:]]
    shown = names[0]
    if len(names) > 1:
        last = _PARENS.match(names[-1])
        shown += f" … ({last.group(2)})" if last and _PARENS.match(shown) else f" … {names[-1]}"
    count = len(names)
    head = f"{'  ' * first.depth}{shown}: {count} more like it"
    return msgspec.structs.replace(first, head=head, body=(), key=False, folded=objects)
