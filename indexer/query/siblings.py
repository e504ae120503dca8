"""Near-identical files the ranking keeps from crowding its first places.

A crop table's seed assets, a move set's jump abilities, a prefab copied into every level's
folder: each group matches a task as well as its best member, and together they push the code
that answers it down the list. The best of each group keep their score; the others rank lower.
"""

from __future__ import annotations

from indexer.model import Ranked
from indexer.project import file_title
from indexer.query.named_files import says_every_word

SIBLINGS_KEPT, SIBLING_PRIOR = 2, 0.5  # the best two of a group keep their score, the others score half


def siblings_below(project, ranked: dict[str, Ranked], kinds: dict[str, str], stems: set[str]) -> None:
    """Past the best SIBLINGS_KEPT data assets of one folder, or of one script class, the others
    score SIBLING_PRIOR of theirs: five seed assets of one crop table took places 3-7 of "I can't
    plant seeds on grass" and the code deciding it was tenth, and eight moves' jump abilities, each
    in its move's folder, places 2-9 of "the jump sometimes doesn't work"; the best of them still
    leads them. So do copies of one prefab or scene, files of one name in several folders (a
    trial's player prefab copied into each level's folder took places 3-23 of "where is the code
    that kills the player when touching spikes"), even when the task says their name: it tells no
    copy from another. Not data assets the task names ("compare the corn, potato and tomato
    seeds")."""
    seen: dict[str, int] = {}
    for r in sorted(ranked.values(), key=lambda r: (-r.score, r.path)):
        kind = kinds.get(r.path)
        groups = _sibling_groups(project, r.path, kind)
        if groups and (kind != "asset" or not says_every_word(file_title(r.path), stems)):
            for group in groups:
                seen[group] = seen.get(group, 0) + 1
            if any(seen[group] > SIBLINGS_KEPT for group in groups):
                r.score *= SIBLING_PRIOR


def _sibling_groups(project, path: str, kind: str | None) -> list[str]:
    """The groups whose members past the best SIBLINGS_KEPT rank lower: a data asset's folder and
    classes, a prefab's or scene's file name (its copies)."""
    if kind == "asset":
        classes = (f"class:{p}" for p, edge in project.graph.uses(path) if edge == "script")
        return [path.rpartition("/")[0], *classes]
    if kind in ("prefab", "scene"):
        return [f"name:{path.rpartition('/')[2].lower()}"]
    return []
