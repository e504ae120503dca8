"""A file just past the tenth that one of the five best hits is tied to, when that hit is tied to
few files, ranks tenth.

A hit tied to few files (a shader one script loads, a level asset and its class, a script and
the one scene it is on) tells more about each of them than a hit tied to many: counted over every
labelled question (docs/retrieval.md, session 51), such a file at the 11th-13th place is the
task's file about twice as often as the 9th or 10th file is, four times as often as one of those
tied to no top hit. The walk (walk.py) adds the same share of a hit's score to each of its
neighbours, however many there are; this rule ranks the few just above the tenth file and no
higher, so no first answer leaves the top five.

So does the item class a keeper of many of them uses (`lift_kept_items`: `EnemyIndicatorsManager`
and its `EnemyIndicator`), found by the search or not: what each item does is in its own script,
whose words may be none of the task's.

So does the one script calling a handler of a best hit that the task names (`lift_handler_callers`:
"where does a player get eliminated" finds `OnPlayerEliminated`; its one caller, the arena's
death-zone trigger, is where it happens).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import PurePosixPath

from indexer.identifiers import split_identifier, stem
from indexer.model import Ranked
from indexer.project import is_script
from indexer.query.walk import step
from indexer.unity import UNITY_MESSAGES

HITS = 5  # the best hits whose neighbours may rise
MOST = 3  # ... when a hit is tied to at most these many files (by walk.step, both ways)
PAST = (10, 13)  # the places (0-based, end excluded) a neighbour rises from: 11th to 13th
LIFT = 1.0001  # ... to just above the tenth file's score


def lift_close_parts(graph, order: list[Ranked], priors: dict[str, float]) -> list[Ranked]:
    """`order` (best first, every ranked file) with the files ranked 11th-13th that one of the
    HITS best is tied to, that hit being tied to at most MOST files, raised to just above the
    tenth's score (and the order sorted again). A file its role puts lower (`priors` below 1,
    file_roles.role_priors: editor code, tests, third-party code, looks, a prefab or scene for a
    code task) stays where it is."""
    if len(order) <= PAST[0]:
        return order
    few: dict[str, str] = {}  # a close part -> the hit it is tied to
    for hit in order[:HITS]:
        direct = {path for path, _ in graph.uses(hit.path)} | {path for path, _ in graph.used_by(hit.path)}
        if len(direct) > MOST:  # step reaches these and more: the prefabs carrying it cost a lookup
            continue
        near = {path for path, *_ in step(graph, hit.path)}
        if len(near) <= MOST:
            few.update((path, hit.path) for path in near if path not in few)
    risen = [r for r in order[PAST[0] : PAST[1]] if r.path in few and priors.get(r.path, 1.0) >= 1.0]
    for r in risen:
        r.score = order[PAST[0] - 1].score * LIFT
        r.reasons.append(f"tied to {few[r.path]}, which is tied to few files")
    return sorted(order, key=lambda r: (-r.score, r.path)) if risen else order


def lift_parts(
    project, order: list[Ranked], priors: dict[str, float], asked: frozenset[str] = frozenset()
) -> list[Ranked]:
    """`order` with the close parts (`lift_close_parts`), the kept items (`lift_kept_items`), the
    bases of thin subclasses (`lift_thin_bases`), then the one caller of a handler the task's stems
    `asked` name (`lift_handler_callers`), raised."""
    graph = project.graph
    order = lift_kept_items(graph, lift_close_parts(graph, order, priors), priors)
    order = lift_thin_bases(graph, project.stats_of, order, priors)
    kept = lambda path: project.remember(("handlers", path), lambda: handler_names(graph, path))  # noqa: E731
    return lift_handler_callers(graph, order, priors, asked, kept)


ITEM_HITS = 3  # the best hits whose kept item may rise
# A class keeping many of one thing, named by their plural: `EnemyIndicatorsManager` places the
# `EnemyIndicator`s, `BulletsPool` hands out `Bullet`s, `EnemiesSpawner` makes `Enemy`s.
_KEEPER = re.compile(r"^(?P<item>\w+?)(?P<plural>ies|s)(?:Manager|Pool|Registry|Spawner|Container|Controller)$")


def lift_kept_items(graph, order: list[Ranked], priors: dict[str, float]) -> list[Ranked]:
    """`order` with the item class of one of the ITEM_HITS best scripts that keeps many of them
    (`_KEEPER`: its name is the item's plural and a keeper's word, and it uses the item's script)
    raised to just above the tenth's score, added when the search did not find it: the task the
    keeper answers ("where do the arrows pointing at off-screen monsters get placed") is about
    the items too, whose script holds what each one does, while its words (`EnemyIndicator`) may
    be none of the task's. Not one already in the ten best, nor one its role puts lower. With
    fewer than ten ranked, it ranks just below the last."""
    found = ((hit, _kept_item(graph, hit.path)) for hit in order[:ITEM_HITS])
    return _to_tenth(order, [(item, f"one of the items {hit.path} keeps") for hit, item in found if item], priors)


def _to_tenth(order: list[Ranked], lifted: list[tuple[str, str]], priors: dict[str, float]) -> list[Ranked]:
    """`order` with each (path, reason) of `lifted` raised to just above the tenth's score (just
    below the last with fewer than ten), added when the search did not find it; not one already in
    the ten best, nor one its role puts lower (`priors` below 1)."""
    top = {r.path for r in order[: PAST[0]]}
    placed = {r.path: r for r in order}
    bar = order[PAST[0] - 1].score * LIFT if len(order) >= PAST[0] else order[-1].score / LIFT if order else 0.0
    risen = []
    for path, reason in lifted:
        if path in top or priors.get(path, 1.0) < 1.0:
            continue
        r = placed.get(path) or Ranked(path, 0.0, [])
        r.score = bar
        r.reasons.append(reason)
        risen.append(r)
        top.add(path)
    if not risen:
        return order
    return sorted([*order, *(r for r in risen if r.path not in placed)], key=lambda r: (-r.score, r.path))


BASE_HITS = 3  # the best hits whose base class may rise
THIN = 2000  # ... when the hit's script is at most these many bytes and smaller than its base
FEW_SUBCLASSES = 4  # ... and the base has at most these many subclasses


def lift_thin_bases(graph, stats_of, order: list[Ranked], priors: dict[str, float]) -> list[Ranked]:
    """`order` with the project base class of a thin subclass among the BASE_HITS best scripts
    raised to just above the tenth's score (`_to_tenth`): a subclass of a few lines (`HeartGulper`
    naming the heart) leaves what it does to its larger base (`PickupGulper`, where the pickup is
    taken), whose words may be none of the task's. A base of many subclasses is a framework's
    (`Item`, `MonoBehaviour`-like roots), not this hit's logic. `stats_of`: the project's
    (`ProjectIndex.stats_of`), whose dict the ranking reads a shown file's kind from, so a base
    the search did not find is read there too."""
    lifted = []
    for hit in order[:BASE_HITS]:
        if not is_script(hit.path):
            continue
        bases = [path for path, edge in graph.uses(hit.path) if edge == "base"]
        if not bases:
            continue
        stats = stats_of([hit.path, *bases])
        sizes = {path: stats[path].size for path in (hit.path, *bases) if path in stats}
        own = sizes.get(hit.path, THIN + 1)
        if own > THIN or not _only_overrides(graph.records.symbols(hit.path)):
            continue
        for base in bases:
            if sizes.get(base, 0) > own and _subclasses(graph, base) <= FEW_SUBCLASSES:
                lifted.append((base, f"its subclass {hit.path} only overrides its methods"))
    return _to_tenth(order, lifted, priors)


def _only_overrides(symbols) -> bool:
    """Whether a script declares methods and each of them overrides one: it fills in its base's
    hooks (`OnGulp`, `PerformTransform`), the flow calling them being the base's."""
    methods = [s for s in symbols if s.kind == "method"]
    return bool(methods) and all("override" in s.modifiers for s in methods)


def _subclasses(graph, path: str) -> int:
    return sum(1 for _, edge in graph.used_by(path) if edge == "subclass")


def _kept_item(graph, path: str) -> str | None:
    """The script of the item a keeper script (`_KEEPER`) uses, named by its name's singular."""
    m = _KEEPER.match(PurePosixPath(path).stem) if is_script(path) else None
    if m is None:
        return None
    name = m["item"] + ("y" if m["plural"] == "ies" else "")
    return next(
        (used for used, _ in graph.uses(path) if is_script(used) and PurePosixPath(used).stem == name),
        None,
    )


HANDLER_HITS = 3  # the best hits whose handlers' one caller may rise
FEW_USERS = 8  # ... when the hit's file is used by at most these many scripts (each one's text is read)
NAMED = 2  # ... and the handler's name is at least these many words, every one the task's
_HANDLER = re.compile(r"On[A-Z]")


def lift_handler_callers(
    graph,
    order: list[Ranked],
    priors: dict[str, float],
    asked: frozenset[str],
    handlers_of: Callable[[str], tuple[str, ...]] | None = None,
) -> list[Ranked]:
    """`order` with the one script calling a handler of one of the HANDLER_HITS best scripts (a
    method `On...`, not a Unity message, whose name's words are NAMED or more, each a stem of the
    task's `asked`) raised to just above the tenth's score (`_to_tenth`). "Where does a player get
    eliminated" finds the manager's `OnPlayerEliminated` first, the aftermath; where it happens is
    the one script calling it (the arena's death-zone trigger), whose words may be none of the
    task's. A handler called from several scripts tells nothing of which one the task means. Only
    the scripts using the hit's file are read, and none when they are more than FEW_USERS.
    `handlers_of`: a script's `handler_names`, kept per index generation by `lift_parts` (the
    best hits come back query after query, and decoding a long script's symbols costs ~0.1 ms)."""
    handlers_of = handlers_of or (lambda path: handler_names(graph, path))
    lifted = []
    for hit in order[:HANDLER_HITS]:
        if not is_script(hit.path):
            continue
        handlers = [name for name in handlers_of(hit.path) if _named(name, asked)]
        users = [p for p, _ in graph.used_by(hit.path) if is_script(p) and p != hit.path] if handlers else []
        if not users or len(users) > FEW_USERS:
            continue
        for name in dict.fromkeys(handlers):
            call = re.compile(rf"\b{name}\s*\(")
            callers = [path for path in users if any(call.search(line) for line in graph.file_lines(path))]
            if len(callers) == 1:
                lifted.append((callers[0], f"the one script calling {hit.path}'s {name}, which the task names"))
    return _to_tenth(order, lifted, priors)


def handler_names(graph, path: str) -> tuple[str, ...]:
    """The names of a script's methods that may be handlers (`On` and a capital letter, not a Unity
    message), in the order its symbols give, as `_named` tells them before the task's words."""
    return tuple(s.name for s in graph.records.symbols(path) if s.kind == "method" and _is_handler(s.name))


def _is_handler(method: str) -> bool:
    """`On` and a capital letter, not a Unity message (`OnTriggerEnter`: Unity calls it, no script)."""
    return _HANDLER.match(method) is not None and method not in UNITY_MESSAGES


def _named(method: str, asked: frozenset[str]) -> bool:
    """Whether a method is a handler (`On` and a name, not a Unity message) whose every word after
    `On`, NAMED or more, is one of the task's stems: `OnPlayerEliminated` for "a player gets
    eliminated"; not `OnChangeActiveTeam` for "what changes when a team..."."""
    if not _is_handler(method):
        return False
    words = [stem(w.lower()) for w in split_identifier(method[2:])]
    return len(words) >= NAMED and all(w in asked for w in words)
