"""The files one reference away from a context pack's lead files, listed by path and reference.

A task's files are often not the ones its words match but their neighbours: the base class of the
state the task names, the manager that uses it, the prefab that carries it. Rendering each costs
hundreds of tokens; a line naming the file and how it is tied to a lead file costs about fifteen,
and tells the reader where to look next (`describe` or a read gives the rest). Measured on the
held-out questions: of the needed files a 4,000-token pack left out, about two in five were
neighbours of its three best files (docs/retrieval.md).
"""

from __future__ import annotations

from indexer.identifiers import name_stems
from indexer.model import Hit
from indexer.project import file_title
from indexer.query.walk import REASONS, edge_said
from indexer.query.workspace import Workspace
from indexer.store.schema import is_searchable

RELATED_LEADS = 3  # the pack's best files whose neighbours are listed
# Neighbours the query did not rank come, after those whose names hold the task's words, in this
# order of the reference that ties them: code that defines or extends a lead's types first, then
# what carries or places it, then assets.
EDGE_ORDER = (
    "base", "subclass", "type", "uses_type", "script", "carries_script", "unity_event", "calls_event",
    "prefab", "instance_of", "asset", "refers_to", "loads", "loaded_by",
)  # fmt: skip


def related_files(
    ws: Workspace, leads: list[str], shown: set[str], hits: list[Hit], stems: frozenset[str] = frozenset()
) -> list[tuple[str, str]]:
    """(path, why) of the files one reference from `leads` (workspace paths) that the pack does not
    show, in `order_related`'s order (`stems`: the task's word stems). Files
    without text (textures, audio, models) are left out: there is nothing in them to read."""
    found: dict[str, tuple[int, str]] = {}
    for lead in leads:
        owner = ws.owner(lead, refresh=False)
        if owner is None:
            continue
        project, local = owner
        prefix = lead[: len(lead) - len(local)]
        name = lead.rsplit("/", 1)[-1]
        graph = project.graph
        edges = [*graph.uses(local), *graph.used_by(local)]
        stats = project.stats_of(p for p, _ in edges)
        for path, edge in edges:
            full = prefix + path
            if full in shown or full in found or path not in stats or not is_searchable(stats[path].kind):
                continue
            order = EDGE_ORDER.index(edge) if edge in EDGE_ORDER else len(EDGE_ORDER)
            said = edge_said(project.records, edge, local, path)
            found[full] = (order, REASONS.get(said, said.replace("_", " ") + " {}").format(name))
    return order_related(found, {h.path: i for i, h in enumerate(hits)}, stems)


def order_related(
    found: dict[str, tuple[int, str]], rank: dict[str, int], stems: frozenset[str]
) -> list[tuple[str, str]]:
    """(path, why) of `found` (path -> EDGE_ORDER place, why): those the query ranked in its
    order, then those whose file name holds more of the task's `stems` (the few outlined are
    then the ones the task names), then by EDGE_ORDER and path."""
    unranked = len(rank)
    named = {p: len(stems.intersection(name_stems(file_title(p)))) for p in found if p not in rank}
    ordered = sorted(found.items(), key=lambda kv: (rank.get(kv[0], unranked), -named.get(kv[0], 0), kv[1][0], kv[0]))
    return [(path, why) for path, (_, why) in ordered]
