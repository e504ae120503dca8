"""Scripts that only bind a generic base to a class: the class is what the prefab runs.

Entity-module and scriptable-variable frameworks keep the logic in a plain [Serializable] class
and let an empty MonoBehaviour hold it (`EnemyThrowerAttackModuleWrapper :
ModuleWrapper<EnemyThrowerAttackModule> { }`, the base serializing a `T _module`). A prefab carries
the wrapper, so the walk ranked a prefab's twelve wrappers, files without a word of behaviour,
while the class that throws stayed 29th (session 52). A class such a script binds is reached as
the script is, through it.
"""

from __future__ import annotations

import msgspec

from indexer.project import is_script
from indexer.query.type_tree import type_arguments
from indexer.unity import bare_type_name

__all__ = ["bound_files", "reach_bound"]


def bound_files(project, path: str) -> tuple[str, ...]:
    """The files declaring the project classes `path` binds, when it declares one type, with no
    member, deriving from a generic class whose type arguments name them; () for any other file.
    Only the few files declaring one type with a generic base, found once a generation, are read:
    the walk reaches hundreds of files a query, and decoding each one's symbols took warm search
    p95 on UnityCsReference from 16.6 to 29.8 ms."""
    if path not in _generic_children(project):
        return ()
    return project.remember(("bound_files", path), lambda: _bound(project.graph, path), role=True)


def _generic_children(project) -> frozenset[str]:
    return project.remember(("one generic child",), lambda: frozenset(project.records.one_generic_child()), role=True)


def _bound(graph, path: str) -> tuple[str, ...]:
    if not is_script(path) or not _declares_one(graph.records, path):  # (read before the whole record)
        return ()
    types, rec = graph.records.types_in(path), graph.records.record(path)
    if len(types) != 1 or rec is None:
        return ()
    files: list[str] = []
    for base in types[0].bases:
        for arg in type_arguments(base):
            files += [t.path for t in graph.resolve_type_ref(bare_type_name(arg), rec) if t.path != path]
    return tuple(sorted(set(files)))


def _declares_one(records, path: str) -> bool:
    """Whether a file declares one symbol alone (its type, no member). Its stored outline holds an
    entry per symbol it keeps (`build.documents`), so two entries tell it has more without its
    record: a few hundred bytes inflated and the entries counted, not parsed, where its symbols
    cost the whole record inflated and decoded (most files declaring one generic child have
    members: 52 such records were a millisecond of a first search on UnityCsReference)."""
    return len(_ENTRIES.decode(records.outline(path))) < 2 and len(records.symbols(path)) == 1


_ENTRIES = msgspec.json.Decoder(list[msgspec.Raw])  # an outline's entries, each left unparsed


def reach_bound(project, boosts: dict) -> None:
    """Each class a reached binding script holds is reached as that script is, by the same edge and
    gain, the script added to the chain (unless the walk reached the class more strongly)."""
    children = _generic_children(project)  # (asked once: the walk reaches hundreds of files)
    for path, (gain, edge, source, chain) in list(boosts.items()):
        for bound in bound_files(project, path) if path in children else ():
            if bound not in boosts or boosts[bound][0] < gain:
                boosts[bound] = (gain, edge, source, (*chain, path))
