"""A data asset listing most of a class's instances is where a new one is registered.

"Which asset lists all the songs", "I added a new song, where do I register it so it shows in the
list": the song data class ranks first and its instances after it, while the one data asset whose
field holds them all (a game's `MasterManager.asset` of `MusicMasterManagerData`, its
`selectDatas: MusicSelectData[]`) says none of the task's words. Its edges to them say what it is.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from indexer.identifiers import stem
from indexer.project import is_script

if TYPE_CHECKING:
    from indexer.query.pairing import _Pairs

# A script among the REGISTRY_SCRIPTS best with REGISTRY_LEAST to REGISTRY_MOST data assets: the
# project-scripted data assets holding at least half of them (and REGISTRY_LEAST), when at most
# REGISTRY_HOLDERS do, rank at least REGISTRY_SHARE of the script's score times their prior.
REGISTRY_SCRIPTS, REGISTRY_LEAST, REGISTRY_MOST, REGISTRY_HOLDERS, REGISTRY_SHARE = 5, 3, 40, 2, 0.9
# The task asks for the list, not for one of its items: it says one of these words.
_LISTING = frozenset(stem(w) for w in ("list", "lists", "listed", "register", "registered", "registry", "catalog"))


def asks_listing(stems: frozenset[str]) -> bool:
    """Whether the task's word stems say a list or registering one ("lists all", "register it")."""
    return not _LISTING.isdisjoint(stems)


def raise_registries(pairs: _Pairs, stems: frozenset[str]) -> None:
    """For a task saying a list (`asks_listing`), each of the REGISTRY_SCRIPTS best scripts whose
    class has several data assets: the few data assets of a project script holding most of them in
    their fields (a registry, an index of every level or song) rank at least REGISTRY_SHARE of the
    script's score times their own prior. Not a scene or prefab (a menu holding its buttons' data)."""
    if not asks_listing(stems):
        return
    graph = pairs.project.graph
    for script in pairs.best(is_script, REGISTRY_SCRIPTS):
        data = {p for p in pairs.carriers(script.path) if p.endswith(".asset")}
        if not REGISTRY_LEAST <= len(data) <= REGISTRY_MOST:
            continue
        held = Counter(
            p
            for d in data
            for p, edge in graph.used_by(d)
            if edge == "refers_to" and p.endswith(".asset") and p not in data
        )
        least = max(REGISTRY_LEAST, (len(data) + 1) // 2)
        holders = [p for p, n in held.items() if n >= least and graph.carries_script(p)]
        if len(holders) > REGISTRY_HOLDERS:
            continue
        for path in (p for p in holders if p.startswith(pairs.prefix)):
            pairs.raise_to(
                path, script.score * REGISTRY_SHARE * pairs.prior(path), ("lists_instances_of", script.path, ())
            )
