"""The walk of the reference graph from a query's best text matches (seeds).

A task touches more than the files whose words match it: the prefab that carries a script (or a
variant of the prefab that does), the subclass that overrides a method, the base class a change
must respect. From the seeds the walk follows edges both ways with decay, so those files rank
too, each saying why it is there (`reason`).
"""

from __future__ import annotations

import math

from indexer.model import Ranked
from indexer.project import is_prefab, is_script, kind_test
from indexer.query.carriers import carried, carriers, chain_text
from indexer.query.file_roles import named_kind, stored_kinds
from indexer.query.kept_records import kept_on
from indexer.query.pinned import kept

DECAY = 0.3
HUB_DEGREE = 30  # past this many neighbours, each gets sqrt(HUB_DEGREE / neighbours) of its seed's weight
# How strongly an edge carries relevance, by direction: seed -> what it uses, and seed <- what uses it.
USES_WEIGHT = {
    "base": 0.6, "script": 0.6, "prefab": 0.5, "unity_event": 0.5, "loads": 0.5, "type": 0.35, "asset": 0.35,
}  # fmt: skip
USED_BY_WEIGHT = {
    "subclass": 0.5, "carries_script": 0.6, "instance_of": 0.45, "loaded_by": 0.45, "refers_to": 0.35,
    "uses_type": 0.35,
}  # fmt: skip
# Why a file reached through the graph is there, by edge; {} is the seed it was reached from.
REASONS = {
    # seed -> file (the seed uses the file)
    "base": "base class of {}",
    "interface": "interface of {}",
    "script": "script on {}",
    "prefab": "prefab placed in {}",
    "base_of": "base prefab of the variant {}",  # a prefab variant's `prefab` edge, by its base
    "nested_in": "prefab nested in {}",
    "unity_event": "UnityEvent target in {}",
    "type": "type used by {}",
    "asset": "asset referenced by {}",
    "loads": "loaded by name in {}",
    # file -> seed (the file uses the seed)
    "subclass": "subclass of {}",
    "implements": "implements {}",
    "carries_script": "carries script {}",
    "instance_of": "instance or variant of {}",
    "places_instance_of": "places an instance of {}",  # a scene's instance_of: no scene is a variant
    "variant_of": "variant of {}",  # a prefab's instance_of, by its base
    "nests_instance_of": "nests an instance of {}",
    "refers_to": "references {}",
    "loaded_by": "loads {} by name",
    "rows_of": "holds the rows of {}",  # a data table, raised from the class of its columns (tables.py)
    "row_keyed_by": "holds a row named for {}",  # a data table, raised from a prefab (tables.py)
    "links": "links {} to another hit in one record",  # a recipe between two data assets (linked_records.py)
    "lists_instances_of": "lists the data assets of {}",  # a registry, raised from their class (registries.py)
    "lists_items_of": "lists the items of {} and other hits",  # a registry, raised from its items (registries.py)
    "held_by_script": "prefab held by {} where it is placed",  # a spawned prefab (held_prefabs.py)
    "uses_type": "uses {}",
    "calls_event": "calls {} from a UnityEvent",
    "adds": "adds {} as a component at run time",
}
# An event channel two scripts share (channels.py): {0} the script's file name a file was reached
# from, {1} the channel asset.
CHANNEL_REASONS = {
    "listens": "listens to {1}, which {0} raises",
    "raises": "raises {1}, which {0} listens to",
    "channel_raised": "event channel {0} raises",
    "channel_heard": "event channel {0} listens to",
}
CHAIN_DECAY, CHAIN_HOPS = 0.5, 2  # the chain between the kinds of asset a task names
CARRIER_EDGES = frozenset({"carries_script", "instance_of", "script"})

Neighbour = tuple[str, str, float, tuple[str, ...]]  # (path, edge, weight, chain of prefabs between)


def step(graph, path: str) -> list[Neighbour]:
    """What the walk reaches from a seed in one step: the files it uses and the files using it,
    counting a prefab's variants and nested instances (and what it holds through its base) too."""
    out = [(p, e, USES_WEIGHT.get(e, 0.3), ()) for p, e in graph.uses(path)]
    out += [(p, e, USED_BY_WEIGHT.get(e, 0.3), ()) for p, e in graph.used_by(path)]
    script, prefab = is_script(path), is_prefab(path)
    if script or prefab:
        edge = "carries_script" if script else "instance_of"
        out += [(p, edge, USED_BY_WEIGHT[edge], chain) for p, chain in carriers(graph, path)]
    if prefab:
        for p, chain in carried(graph, path):
            edge = "script" if is_script(p) else "prefab"
            out.append((p, edge, USES_WEIGHT[edge], chain))
    return out


def walk(
    project, seeds: list[Ranked], kind: str | None, path_prefix: str | None, carrier_gain: float
) -> dict[str, tuple[float, str, str, tuple[str, ...]]]:
    """path -> (gain, edge, seed, chain) for the files the seeds reach: only the strongest
    connection counts, not their sum, so a hub linked to every seed does not outrank what the
    words matched."""
    top = seeds[0].score if seeds and seeds[0].score > 0 else 1.0
    walked = {seed.path: step(project.graph, seed.path) for seed in seeds}
    stats = project.stats_of({n[0] for ns in walked.values() for n in ns}) if kind else {}
    prefix = path_prefix.strip("/") + "/" if path_prefix else ""
    boosts: dict[str, tuple[float, str, str, tuple[str, ...]]] = {}
    for seed in seeds:
        strength = DECAY * seed.score / top
        neighbours = walked[seed.path]
        if len(neighbours) > HUB_DEGREE:
            strength *= math.sqrt(HUB_DEGREE / len(neighbours))
        for path, edge, weight, chain in neighbours:
            if (kind and (path not in stats or stats[path].kind != kind)) or not path.startswith(prefix):
                continue
            gain = strength * weight * top * (carrier_gain if edge in CARRIER_EDGES else 1.0)
            if path not in boosts or gain > boosts[path][0]:
                boosts[path] = (gain, edge, seed.path, chain)
    return boosts


def named_chain(project, seeds: list[Ranked], boosts: dict, wanted: frozenset[str], path_prefix: str | None) -> None:
    """A task that names kinds of asset ("which prefab, material and shader draw the line") wants
    the chain between them: from each seed, the files of those kinds it uses, and the files of
    those kinds they use in turn (a prefab's material, then that material's shader)."""
    prefix = path_prefix.strip("/") + "/" if path_prefix else ""
    frontier = [(seed.path, seed.score) for seed in seeds]
    may_be = kind_test(stored_kinds(wanted))
    for _ in range(CHAIN_HOPS):
        uses = {path: project.graph.uses(path) for path, _ in frontier}
        used = {p for out in uses.values() for p, _ in out}
        stats = project.stats_of(p for p in used if may_be(p))
        reached = []
        for source, score in frontier:
            for path, edge in uses[source]:
                if path not in stats or named_kind(path, stats[path].kind) not in wanted or not path.startswith(prefix):
                    continue
                gain = CHAIN_DECAY * score
                if path not in boosts or gain > boosts[path][0]:
                    boosts[path] = (gain, edge, source, ())
                    reached.append((path, gain))
        frontier = reached


INTERFACE_EDGES = {"base": "interface", "subclass": "implements"}  # how a base edge reads to an interface


def edge_said(records, edge: str, source: str, reached: str) -> str:
    """The edge a file was reached by, as said: an interface is no class (`Health : MonoBehaviour,
    IDamageable` implements it, where "subclass of" and "base class of" had been said), and a scene
    places an instance of a prefab, a prefab is its variant or nests one (through another prefab:
    "instance or variant of ... via"), where "instance or variant of" had been said."""
    if edge in INTERFACE_EDGES and _declares_interface(records, source if edge == "subclass" else reached):
        return INTERFACE_EDGES[edge]
    if edge == "instance_of" and reached.endswith(".unity"):
        return "places_instance_of"
    if edge == "prefab" and source.endswith(".prefab"):  # the prefab a variant or a prefab nesting it uses
        how = _holds(records, source, reached)  # (a variant's base read as placed in it)
        return {"variant": "base_of", "nested": "nested_in"}.get(how, edge)
    if edge == "instance_of":  # a variant, or a prefab nesting it (else one through another prefab)
        return {"variant": "variant_of", "nested": "nests_instance_of"}.get(_holds(records, reached, source), edge)
    return edge


_HOLDS = "_holds"  # kept in the records' dict (one index state), as kept_records keeps in the graph's
_INTERFACES = "_interfaces"  # the same


def _declares_interface(records, path: str) -> bool:
    """Whether the first type a file declares is an interface, kept per index state. Its type rows
    decide when they are all interfaces or none is (one indexed lookup); only a file declaring both
    has its symbols decoded, for their order. Decoding every explained file's symbols, query after
    query, cost 10 ms of 60 warm searches on UnityCsReference (docs/performance.md, session 53)."""

    def read() -> bool:
        kinds = records.type_kinds(path)
        if kinds or is_script(path):  # a script's every type has a row; another file's types none
            return "interface" in kinds and (len(kinds) == 1 or _first_type_interface(records, path))
        return _first_type_interface(records, path)

    return kept(kept_on(records, _INTERFACES), path, read, most=math.inf)


def _first_type_interface(records, path: str) -> bool:
    return next((s.kind == "interface" for s in records.symbols(path) if s.is_type), False)


def _holds(records, holder: str, held: str) -> str:
    """How the prefab `holder` holds the prefab `held`: as its variant base ("variant"), nested
    ("nested"), or neither itself (""). Kept per index state: a large prefab's symbols are
    decoded and gone through for it, and its edges are said query after query."""
    kept: dict[tuple[str, str], str] = kept_on(records, _HOLDS)
    if (holder, held) not in kept:
        kept[holder, held] = _how_held(records, holder, held)
    return kept[holder, held]


def _how_held(records, holder: str, held: str) -> str:
    guid = records.guid_naming(held)
    found = {
        s.signature == "variant base"
        for s in (records.symbols(holder) if guid else ())
        if s.kind == "prefab_instance" and s.detail == guid
    }
    return "variant" if True in found else "nested" if found else ""


def reason(edge: str, source: str, chain: tuple[str, ...]) -> str:
    if edge in CHANNEL_REASONS:  # the chain: the channel asset
        return CHANNEL_REASONS[edge].format(source.rsplit("/", 1)[-1], *chain)
    why = REASONS.get(edge, edge.replace("_", " ") + " {}").format(source)
    return f"{why} via {chain_text(chain)}" if chain else why
