"""Code first in a code task's pack: which assets keep their rank among the scripts
(`task_order`), and the classes a data asset carries (`classes_of`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from indexer.model import Hit
from indexer.query.priors import asks_code
from indexer.query.workspace import Workspace

CODE_KINDS = frozenset({"csharp", "shader", "shader_include", "compute_shader"})
LEADING_ASSETS = 2  # a code task keeps an asset among its best hits where it ranked (see task_order)
DEFERRED_ASSET = 0.7  # the rest of its assets are placed as if they scored this much of their score


def task_order(hits: list[Hit], said: list[str], classes: Callable[[str], Iterable[str]] = lambda _: ()) -> list[Hit]:
    """Code first for a code task: an asset keeps its rank only when the task asks for assets
    (names a kind, asks where something is configured, or how it looks or sounds), when it is one
    of the two best hits (the ranking already put code first; an asset that still leads matches
    the task on its own, like the ScriptableObject named for what is asked about), when the
    walk tied it to code among the hits (it was reached from one of the scripts, or one of them
    was reached from it: the button whose event calls a method), or when it is a data asset of a
    class among the code hits (`classes`: the scripts a file carries; the values the class's code
    reads, whatever edge the walk reached it by: `PlayerData.asset` "referenced by Player.prefab"
    for `PlayerData.cs`). The rest go where they would be at `DEFERRED_ASSET` of their score:
    after the code that matches about as well, not after all of it (a data asset ranked 11th
    would follow twenty weaker scripts, out of the pack)."""
    if not asks_code(said):
        return hits
    code = [h for h in hits if h.kind in CODE_KINDS]
    coded = {h.path for h in code}
    keyed = []
    for i, h in enumerate(hits):
        tied = (
            i < LEADING_ASSETS
            or h.kind in CODE_KINDS
            or any(c.path in h.reason for c in code)
            or any(h.path in c.reason for c in code)
            or (h.kind == "asset" and not coded.isdisjoint(classes(h.path)))
        )
        keyed.append((-(h.score if tied else h.score * DEFERRED_ASSET), i, h))
    return [h for *_, h in sorted(keyed, key=lambda k: k[:2])]


def classes_of(ws: Workspace) -> Callable[[str], tuple[str, ...]]:
    """The workspace paths of the scripts a file carries (a data asset's class), by path."""

    def classes(path: str) -> tuple[str, ...]:
        owner = ws.owner(path, refresh=False)
        if owner is None:
            return ()
        project, local = owner
        return tuple(project.prefix + p for p, edge in project.graph.uses(local) if edge == "script")

    return classes
