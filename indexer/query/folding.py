"""A big scene's outline folded to what says how the game works, when it is too long to show whole.

A level built of hundreds of collider and sprite objects filled `describe`'s 400 lines before its
`GameController`, its player and its canvas were reached (a trial: "what does the game scene
contain" is the first question a newcomer asks). Folded, every object carrying a project script or
placing a prefab is shown whole, with the objects above it by their line, and each run of the
others is counted with its components' classes (`… 178 more objects (SpriteRenderer 120, …)`).
"""

from __future__ import annotations

from collections import Counter

from indexer.query.alike import folded_into
from indexer.query.graph import Graph
from indexer.query.outline import Hierarchy, Node, Part, render_parts

SHOWN_CLASSES = 4  # the commonest classes a folded run names
_EVERYWHERE = frozenset({"Transform", "RectTransform"})  # every object has one: they say nothing
# With no object carrying a project script or placing a prefab, the objects down to this depth (the
# roots and those under them), at most TOP_OBJECTS, are shown by their line: SS3D's 4 MB lobby
# prefab folded to one line, `… 1260 more objects`, not even its root.
TOP_DEPTH, TOP_OBJECTS = 1, 40


def folded(parts: list[Part], graph: Graph, max_lines: int, more: str) -> list[str]:
    """An outline's lines with its hierarchy folded (`folded_lines`) and, when still too long, cut
    so that the parts after it stay (a race track's eight button calls were cut with its objects,
    unsaid); at least half the lines go to the objects. `more`: what the cut line adds."""
    before: list[str] = []
    tree: list[str] | None = None
    after: list[str] = []
    for part in parts:
        if isinstance(part, Hierarchy):
            tree = folded_lines(part.nodes, graph)
        else:
            (before if tree is None else after).extend(render_parts([part], graph, None))
    tree = tree or []
    room = max(max_lines - len(before) - len(after) - 1, max_lines // 2)
    if len(tree) > room:
        tree = [*tree[:room], f"… {len(tree) - room} more lines of objects {more}"]
    return before + tree + after


def folded_lines(nodes: tuple[Node, ...], graph: Graph) -> list[str]:
    """The objects that carry a project script or place a prefab (`Node.key`) whole, the objects
    above them by their line, every other run counted (`_run_line`)."""
    kept: dict[int, list[str]] = {}
    above: list[int] = []  # the objects above this one, nearest last
    into = folded_into(nodes)
    top = set() if any(n.key for n in nodes) else _top(nodes)
    for i, n in enumerate(nodes):
        while above and nodes[above[-1]].depth >= n.depth:
            above.pop()
        if into.get(i, -1) in kept or i in top:  # copies of a shown object (`alike`): said with it
            kept[i] = [n.head]
        elif n.key:
            kept[i] = [n.head, *render_parts(n.body, graph, None)]
            for a in above:
                kept.setdefault(a, [nodes[a].head])
        above.append(i)
    out: list[str] = []
    run: list[Node] = []
    for i, n in enumerate(nodes):
        if i not in kept:
            run.append(n)
            continue
        if run:
            out.append(_run_line(run))
            run = []
        out += kept[i]
    return out + ([_run_line(run)] if run else [])


def _top(nodes: tuple[Node, ...]) -> set[int]:
    """The top of a hierarchy where no object does something (`TOP_DEPTH`, `TOP_OBJECTS`)."""
    return set([i for i, n in enumerate(nodes) if n.depth <= TOP_DEPTH][:TOP_OBJECTS])


def _run_line(run: list[Node]) -> str:
    classes: Counter[str] = Counter()
    for n in run:  # a line standing for copies counts each (`alike`)
        classes.update(dict.fromkeys(set(n.names[1:]) - _EVERYWHERE, n.folded or 1))
    count = sum(n.folded or 1 for n in run)
    said = ", ".join(f"{c} {k}" for c, k in classes.most_common(SHOWN_CLASSES))
    more = f", … {len(classes) - SHOWN_CLASSES} more classes" if len(classes) > SHOWN_CLASSES else ""
    objects = f"{count} more object{'s' if count > 1 else ''}"
    return f"{'  ' * min(n.depth for n in run)}… {objects}" + (f" ({said}{more})" if said else "")
