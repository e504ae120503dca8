"""What carries a script or a prefab through prefab variants and nested instances.

Unity applies a base prefab's components to every variant of it and to every instance of it in
another prefab or a scene, at any depth: the script on `Character.prefab` is on `Enemy.prefab` (a
variant), on `Imp.prefab` (a variant of that) and in every scene placing an Imp. The stored refs
and edges know only direct use (a file's own `m_Script` or `m_SourcePrefab`); this follows the
chains, so `refs`, `describe` and the retriever's walk see every carrier, each with the chain of
prefabs it goes through (nearest first).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

import msgspec

from indexer.model import FileRecord, Symbol, Target, Usage
from indexer.project import is_prefab
from indexer.query.override_targets import OverrideTargets, emptied
from indexer.query.removed import components_at, dropped, removals
from indexer.words import plural

if TYPE_CHECKING:
    from indexer.query.graph import Graph

MAX_CARRIERS = 400  # carriers reported per target: a prefab placed everywhere says little more
# prefabs whose instances and variants `refs` lists per target: each is one query, and every
# instance of each is listed (a cap on the usages listed cut the placements of a base prefab's
# later variants, the JSON total and `--limit 0` included, saying nothing)
MAX_FOLLOWED = 400
CARRIED_EDGES = ("carries_script", "instance_of")  # edges (read backwards) that put X inside a file


def merged(usages: list[Usage]) -> list[Usage]:
    """One usage per place: a line that is two usages (`List<Health> h`: a generic argument and a
    local's type) is listed once with both contexts; assets first, then by path and line."""
    unique: dict[tuple, Usage] = {}
    for u in usages:
        key = (u.path, u.line, u.where, u.kind, u.detail, u.resolved)
        first = unique.get(key)
        if first is None:
            unique[key] = u
        elif u.context not in first.context.split(", "):
            unique[key] = msgspec.structs.replace(first, context=f"{first.context}, {u.context}")
    return sorted(unique.values(), key=lambda u: (u.where != "asset", u.path, u.line, u.kind))


CHAIN_ENDS = 3  # links printed at each end of a longer chain of prefabs


def chain_text(chain: Sequence[str]) -> str:
    """A chain of prefabs as a line prints it: whole up to 2 * CHAIN_ENDS + 1 links, else its first
    and last CHAIN_ENDS around how many more (a variant of a variant ... 1,500 deep printed one
    33 kB line); a usage's `via` keeps it whole."""
    if len(chain) <= 2 * CHAIN_ENDS + 1:
        return " > ".join(chain)
    return " > ".join([*chain[:CHAIN_ENDS], f"… {len(chain) - 2 * CHAIN_ENDS:,} more …", *chain[-CHAIN_ENDS:]])


def inherited_usages(graph: Graph, direct: list[Usage], target: Target | None = None) -> list[Usage]:
    """Instances and variants of the prefabs that carry a target directly (`direct`: its usages),
    followed transitively; each says which prefabs it carries the target through. `target`'s note
    says when prefabs carrying it were left unfollowed: the count alone read as complete; and
    when a prefab is an instance or variant of itself, directly (its `m_SourcePrefab` its own GUID)
    or through others (A a variant of B, B of A: Unity never saves one, a merge or a hand edit
    can), which is not listed as its own carrier.
    A usage of `direct` found through prefabs (its `via`: a subclass's carrier) is followed on
    from the end of its chain, which a cycle comes back to. Every walk an answer makes says a
    cycle it skipped, once: the first walk's note is the answer's."""
    known = {(u.path, u.line) for u in direct}
    origin = target.path if target is not None and is_prefab(target.path) else ""
    cycles: list[tuple[str, tuple[str, ...]]] = []  # (prefab, the chain it comes back to itself through)
    if origin and any(path == origin for path, *_ in _instances(graph, origin)):
        cycles.append((origin, ()))  # a variant of itself: its own usage is no usage (`guid_usages`)
    frontier = sorted({u.path for u in direct if u.kind in ("script", "prefab", "component") and is_prefab(u.path)})
    chains = _chains(direct, frontier)
    # where a prefab holds a script target itself: an instance removing those components lacks it
    holding: dict[str, set[int]] = {}
    for u in direct:
        if u.kind == "script" and u.path in chains:
            holding.setdefault(u.path, set()).add(u.line)
    out: list[Usage] = []
    for _ in range(MAX_FOLLOWED):
        if not frontier:
            break
        prefab = frontier.pop(0)
        gone = removals(graph, prefab) if prefab in holding else {}
        comps = components_at(graph, prefab, holding[prefab]) if gone else frozenset()
        for path, line, context, detail in _instances(graph, prefab):
            if path == prefab:  # its own `m_SourcePrefab`: a variant of itself
                cycles.append((prefab, ()))
                continue
            if (path, line) in known or dropped(gone.get((path, line)), comps):
                continue
            chain = chains[prefab]
            if path == origin or (path in chains and path in chain):  # back to itself: the prefabs between
                cycles.append((path, chain if path == origin else chain[: chain.index(path)]))
                continue
            known.add((path, line))
            out.append(Usage(path, line, "asset", "prefab", context, f"{detail} (via {chain_text(chain)})", via=chain))
            if is_prefab(path) and path not in chains:
                chains[path] = (path, *chains[prefab])
                frontier.append(path)
    if frontier and target is not None:
        target.add_note(
            f"instances and variants listed of the first {MAX_FOLLOWED} prefabs carrying it (breadth first):"
            f" at least {plural(len(frontier), 'more prefab carries', 'more prefabs carry')} it, whose instances"
            " and variants are not listed"
        )
    if cycles and target is not None and CYCLE_SAID not in target.note:
        target.add_note(_cycle_note(cycles))
    return out


def _chains(direct: list[Usage], frontier: list[str]) -> dict[str, tuple[str, ...]]:
    """Each prefab of `frontier` -> the chain it carries the target through: itself where it
    carries it directly, else itself and the shortest `via` it was found through."""
    chains: dict[str, tuple[str, ...]] = {}
    for u in sorted(direct, key=lambda u: len(u.via)):
        if u.path not in chains and u.kind in ("script", "prefab", "component"):
            chains[u.path] = (u.path, *u.via)
    return {p: chains.get(p, (p,)) for p in frontier}


CYCLE_SAID = "a cycle of prefabs: "  # how the note starts: said once an answer, by its first walk


def _cycle_note(cycles: list[tuple[str, tuple[str, ...]]]) -> str:
    """What the target's note says of the cycles of prefabs found: the first, and how many more."""
    prefab, through = cycles[0]
    more = f" ({plural(len(cycles) - 1, 'more cycle')} found)" if len(cycles) > 1 else ""
    via = f" through {chain_text(through)}" if through else ""  # none: its own source, directly
    return (
        f"{CYCLE_SAID}{prefab} is an instance or variant of itself{via}"
        f" (Unity never saves one: a merge or a hand edit made it), not followed round{more}"
    )


def _instances(graph: Graph, prefab: str) -> list[tuple[str, int, str, str]]:
    """(file, line, context, object path) of each instance or variant of a prefab, by path and line."""
    guid = graph.records.guid_naming(prefab)  # none for a copy sharing the GUID of another prefab
    if not guid:
        return []
    sql = (
        "SELECT f.path, r.line, r.context, r.detail FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.kind = 'prefab' AND r.key = ? ORDER BY f.path, r.line"
    )
    return list(graph.records.conn.execute(sql, (guid,)))


def carriers(graph: Graph, path: str) -> list[tuple[str, tuple[str, ...]]]:
    """Files that hold `path` (a script or prefab) only through other prefabs: (file, chain of
    prefabs from the nearest to the one holding `path` directly), breadth first, by path."""
    users = graph.used_by(path)
    direct = [p for p, e in users if e in CARRIED_EDGES]
    seen = {path, *direct}
    frontier = sorted(p for p in direct if is_prefab(p))
    chains = {p: (p,) for p in frontier}
    holding = {p for p, e in users if e == "carries_script"}  # prefabs with the script's components
    out: list[tuple[str, tuple[str, ...]]] = []
    while frontier and len(out) < MAX_CARRIERS:
        prefab = frontier.pop(0)
        gone = removals(graph, prefab) if prefab in holding else {}
        comps = components_at(graph, prefab, script=path) if gone else frozenset()
        lines = _lines_by_file(graph, prefab) if comps else {}
        for user, edge in graph.used_by(prefab):
            if edge != "instance_of" or user in seen or _all_dropped(gone, user, lines.get(user, ()), comps):
                continue
            seen.add(user)
            out.append((user, chains[prefab]))
            if is_prefab(user):
                chains[user] = (user, *chains[prefab])
                frontier.append(user)
    return out


def carried(graph: Graph, prefab: str) -> list[tuple[str, tuple[str, ...]]]:
    """Scripts and prefabs a prefab holds through the prefabs it is a variant or instance of:
    (file, chain of prefabs from the nearest source to the one holding the file directly)."""
    return list(carried_each(graph, prefab))


def carried_each(graph: Graph, prefab: str) -> Iterator[tuple[str, tuple[str, ...]]]:
    """`carried`, one at a time: a caller asking whether a prefab carries any script stops at the
    first (`priors.has_logic`), the prefabs further down its sources not read."""
    sources = [p for p, e in graph.uses(prefab) if e == "prefab"]
    seen = {prefab, *sources}
    frontier = sorted(sources)
    chains = {p: (p,) for p in frontier}
    count = 0
    while frontier and count < MAX_CARRIERS:
        source = frontier.pop(0)
        # the prefab's own instances of a source may remove a script's components
        gone = removals(graph, source) if len(chains[source]) == 1 else {}
        lines = _lines_by_file(graph, source).get(prefab, ()) if any(p == prefab for p, _ in gone) else ()
        for used, edge in graph.uses(source):
            if edge not in ("script", "prefab") or used in seen:
                continue
            if (
                lines
                and edge == "script"
                and _all_dropped(gone, prefab, lines, components_at(graph, source, script=used))
            ):
                continue
            seen.add(used)
            count += 1
            if edge == "prefab":
                chains[used] = (*chains[source], used)
                frontier.append(used)
            yield used, chains[source]


def _lines_by_file(graph: Graph, prefab: str) -> dict[str, list[int]]:
    """The lines of the instances of `prefab`, by the file holding them."""
    out: dict[str, list[int]] = {}
    for path, line, _, _ in _instances(graph, prefab):
        out.setdefault(path, []).append(line)
    return out


def _all_dropped(gone: dict, user: str, lines: Iterable[int], components: frozenset[str]) -> bool:
    """Whether every instance (at `lines` of `user`) removes all of `components`."""
    lines = list(lines)
    return bool(lines) and all(dropped(gone.get((user, line)), components) for line in lines)


SHOWN_SETTINGS = 6  # values listed per instance: the rest are counted
SETTINGS_MARK = " (sets "
MAX_SETTINGS_FILES = 200  # files whose records are read for the values their instances set
# Overrides every placed instance has (where it stands, what it is called): they set no behaviour.
_PLACEMENT = ("m_LocalPosition", "m_LocalScale", "m_Name", "m_ConnectedAnchor")  # a joint's anchor: worked out
_INSTANCE_CONTEXTS = frozenset({"instance", "variant_base"})
_NONE = FileRecord(path="", kind="")


def with_settings(graph: Graph, usages: list[Usage], through: bool = False) -> list[Usage]:
    """Each direct instance or variant of a prefab among `usages`, with the values it sets over
    the prefab's (`sets m_maxMusicVolume: 1`): where a prefab's value is really set for a level is
    often a scene's override, not the prefab. With `through` (the usages of a prefab), those
    reached through other prefabs too (a variant of a variant): what they set is over the prefab
    between, which the chain in their detail names; a script's carriers through prefabs set values
    of anything those prefabs hold. The records of the first MAX_SETTINGS_FILES files are read."""
    files: dict[str, Overrides] = {}
    variants: dict[str, bool] = {}  # prefab -> whether it is a variant, read once
    targets = graph.targets
    out = []
    for u in usages:
        # through variants only: an instance of a prefab nesting the target sets that prefab's values
        said = bool(u.via) and through and _variants(graph, u.via, variants)
        if u.kind != "prefab" or u.context not in _INSTANCE_CONTEXTS or (u.via and not said):
            out.append(u)
            continue
        if u.path not in files and len(files) >= MAX_SETTINGS_FILES:
            out.append(u)  # a prefab placed everywhere: the first files' values say enough
            continue
        if u.path not in files:
            files[u.path] = Overrides.of(graph, u.path)
        values = files[u.path].of_instance(u.line, graph, targets)
        if values:
            shown = ", ".join(values[:SHOWN_SETTINGS])
            more = f", … {len(values) - SHOWN_SETTINGS} more" if len(values) > SHOWN_SETTINGS else ""
            u = msgspec.structs.replace(u, detail=f"{u.detail}{SETTINGS_MARK}{shown}{more})")
        out.append(u)
    return out


def _variants(graph: Graph, chain: Sequence[str], known: dict[str, bool]) -> bool:
    """Whether every prefab of a chain is a variant (its root an instance of the next): what an
    instance of it sets is set on the target's objects. A prefab nesting the next one (a soldier
    holding a rifle) is not: its instances' overrides are of the soldier's ragdoll."""
    for p in chain:
        if p not in known:
            refs = (graph.records.record(p) or _NONE).refs
            known[p] = any(r.kind == "prefab" and r.context == "variant_base" for r in refs)
    return all(known[p] for p in chain)


def _emptied(s: Symbol) -> Symbol:
    said = emptied(s.signature)
    return s if said == s.signature else msgspec.structs.replace(s, signature=said)


class Overrides:
    """One file's prefab instances and the overrides that set a value, sorted by line once: a
    scene placing a prefab a hundred times is not scanned a hundred times."""

    def __init__(self, symbols: Iterable[Symbol]):
        self.sources = {s.line: s.detail for s in symbols if s.kind == "prefab_instance"}  # line -> source GUID
        self.starts = sorted(self.sources)
        # an emptied text (or a reference set to None) is a value too: `_additionalText: (empty)`
        shown = [_emptied(s) for s in symbols if s.kind == "override" and not s.name.startswith(_PLACEMENT)]
        shown.sort(key=lambda s: s.line)
        self.lines = [s.line for s in shown]
        self.symbols = shown

    @classmethod
    def of(cls, graph: Graph, path: str) -> Overrides:
        return cls(graph.records.symbols(path))

    def set_by(self, line: int) -> list[Symbol]:
        """The overrides of the instance whose document starts at `line`: they follow it, up to
        the next instance."""
        nxt = bisect.bisect_right(self.starts, line)
        end = self.starts[nxt] if nxt < len(self.starts) else None
        lo = bisect.bisect_right(self.lines, line)
        hi = bisect.bisect_left(self.lines, end) if end is not None else len(self.lines)
        return self.symbols[lo:hi]

    def of_instance(self, line: int, graph: Graph, targets: OverrideTargets) -> list[str]:
        """The `property: value` overrides of the instance whose document starts at `line`, GUIDs
        as paths, objects of the same file by name (the scanner's), the object of the source prefab
        each changes when not its root (`m_Layer: 9 (Player/Main Camera)`), once each; placement,
        the name and overrides with no value left out."""
        source = graph.path_of_guid(self.sources.get(line, "")) or ""
        return list(dict.fromkeys(graph.readable(targets.said(source, s)) for s in self.set_by(line)))
