"""The objects of a scene or prefab that `describe`'s tree leaves out, counted and said why: those
deeper than the tree goes, and those no root reaches (a cycle of parents, a broken file). Both
were left out without a word: a rope of 100 links described as 60, a broken scene as empty. Those
the scanner did not record (nested too deep, its record's note says) are said too: `--json` lists
no more than the recorded ones."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from indexer.shown import LEFT_OUT
from indexer.words import plural


def unshown_line(
    nodes: Collection[str], children: Mapping[str, Sequence[str]], emitted: Collection[str], depth: int, note: str
) -> str | None:
    """The line saying which of `nodes` (object paths; `children[""]` the roots) are not in
    `emitted` and why, None when every one is; `depth`: the deepest level the tree shows; `note`:
    the record's, which says how many objects the scanner left out for their depth."""
    reached: set[str] = set()
    todo = list(children.get("", ()))
    while todo:
        path = todo.pop()
        if path not in reached:
            reached.add(path)
            todo.extend(children.get(path, ()))
    deep = sum(1 for p in reached if p not in emitted)
    cycle = sum(1 for p in nodes if p not in reached)
    said = []
    if deep:
        said.append(f"{plural(deep, 'object')} deeper than {depth} levels")
    if cycle:
        said.append(f"{plural(cycle, 'object')} in a cycle of parents (a broken file: no root holds them)")
    if left_out := LEFT_OUT.search(note):
        said.append(f"{left_out[1]} nested over {left_out[2]} levels, which the index does not record")
    listed = "every object recorded" if left_out else "every object"
    return f"… not shown: {'; '.join(said)}; `--json` lists {listed}" if said else None
