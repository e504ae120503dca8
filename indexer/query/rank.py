"""The retriever: BM25 hits, a prior against vendored code, then a walk of the reference graph.

A task touches more than the files whose words match it: the prefab that carries a script, the
subclass that overrides a method, the test that exercises a class, the base class a change must
respect. From the best text matches (seeds) the walk follows edges both ways with decay, so those
files rank too, each saying why it is there. Deterministic: same index and query, same order.
"""

from __future__ import annotations

import math
import re

import msgspec

from indexer.model import Hit, Ranked
from indexer.query.search import annotate

CANDIDATES = 60  # BM25 hits considered
SEEDS = 8  # top hits the walk starts from
DECAY = 0.3
HUB_DEGREE = 30  # neighbours beyond this share their seed's weight
# How strongly an edge carries relevance, by direction: seed -> what it uses, and seed <- what uses it.
USES_WEIGHT = {"base": 0.6, "script": 0.6, "prefab": 0.5, "unity_event": 0.5, "type": 0.35, "asset": 0.35}
USED_BY_WEIGHT = {"subclass": 0.5, "carries_script": 0.6, "instance_of": 0.45, "refers_to": 0.35, "uses_type": 0.35}
# Why a file reached through the graph is there, by edge; {} is the seed it was reached from.
REASONS = {
    # seed -> file (the seed uses the file)
    "base": "base class of {}",
    "script": "script on {}",
    "prefab": "prefab placed in {}",
    "unity_event": "UnityEvent target in {}",
    "type": "type used by {}",
    "asset": "asset referenced by {}",
    # file -> seed (the file uses the seed)
    "subclass": "subclass of {}",
    "carries_script": "carries script {}",
    "instance_of": "instance or variant of {}",
    "refers_to": "references {}",
    "uses_type": "uses {}",
}
VENDORED_PRIOR = 0.5
LENGTH_EXPONENT = 0.2
_VENDORED_FOLDERS = re.compile(
    r"(^|/)(plugins|third[ _-]?party|thirdparties|3rd[ _-]?party|vendor|vendors|external|externals)/", re.I
)
_LICENSE = re.compile(r"^(licen[cs]e|copying)(\.[a-z]+)?$", re.I)


def vendored_folders(paths: list[str]) -> frozenset[str]:
    """Folders that hold third-party code: a license file of their own below the project's top
    folders (what Asset Store and open-source drops ship with)."""
    out = set()
    for p in paths:
        folder, _, name = p.rpartition("/")
        if _LICENSE.match(name) and folder.count("/") >= 1:
            out.add(folder + "/")
    return frozenset(out)


def is_vendored(path: str, folders: frozenset[str]) -> bool:
    if _VENDORED_FOLDERS.search(path) or path.startswith("Assets/Packages/"):
        return True
    return any(path.startswith(f) for f in folders)


def rank(
    project, text: str, limit: int, kind: str | None = None, path_prefix: str | None = None, named: bool = True
) -> list[Hit]:
    """Files for `text` in one project (a workspace.ProjectIndex), best first, with reasons.
    `named=False` leaves each hit's best declaration out (name, line, snippet): a caller that
    renders whole files does not need it, and finding it costs a decode per file."""
    terms, found = project.searcher.candidates(text, max(CANDIDATES, limit), kind=kind, path_prefix=path_prefix)
    if not found:
        return []
    folders = project.vendored
    # Stats (size, kind) of just the files this query touches: a cold process must not read them all.
    stats = project.stats_of(c.path for c in found)
    ranked: dict[str, Ranked] = {}
    for c in found:
        prior = VENDORED_PRIOR if is_vendored(c.path, folders) else 1.0
        if LENGTH_EXPONENT:
            size = stats[c.path].size if c.path in stats else 4000
            prior *= min(max((size / 4000) ** LENGTH_EXPONENT, 0.7), 1.6)
        ranked[c.path] = Ranked(c.path, c.score * prior, ["text match"], c)
    seeds = sorted(ranked.values(), key=lambda r: (-r.score, r.path))[:SEEDS]
    top = seeds[0].score if seeds and seeds[0].score > 0 else 1.0
    graph = project.graph
    walked = {
        seed.path: [(p, e, USES_WEIGHT.get(e, 0.3)) for p, e in graph.uses(seed.path)]
        + [(p, e, USED_BY_WEIGHT.get(e, 0.3)) for p, e in graph.used_by(seed.path)]
        for seed in seeds
    }
    stats = project.stats_of({p for n in walked.values() for p, _, _ in n})
    boosts: dict[str, tuple[float, str, str]] = {}  # path -> (gain, edge, seed path)
    for seed in seeds:
        strength = DECAY * seed.score / top
        neighbours = walked[seed.path]
        if len(neighbours) > HUB_DEGREE:
            strength *= math.sqrt(HUB_DEGREE / len(neighbours))
        for path, edge, weight in neighbours:
            if kind and (path not in stats or stats[path].kind != kind):
                continue
            if path_prefix and not path.startswith(path_prefix.strip("/") + "/"):
                continue
            gain = strength * weight * top
            # The strongest connection counts, not their sum: a hub linked to every seed must
            # not outrank what the words matched.
            if path not in boosts or gain > boosts[path][0]:
                boosts[path] = (gain, edge, seed.path)
    for path, (gain, edge, source) in boosts.items():
        why = REASONS.get(edge, edge.replace("_", " ") + " {}").format(source)
        if path in ranked:
            ranked[path].score += gain
            ranked[path].reasons.append(why)
        elif path in stats and stats[path].kind != "meta":
            ranked[path] = Ranked(path, gain, [why])
    order = sorted(ranked.values(), key=lambda r: (-r.score, r.path))[:limit]
    hits = []
    for r in order:
        reason = "; ".join(r.reasons)
        if not named:
            file_kind = r.candidate.kind if r.candidate is not None else stats[r.path].kind
            hits.append(Hit(r.path, file_kind, "", 0, round(r.score, 4), "", reason))
        elif r.candidate is not None:
            outline = project.records.outline(r.path)
            hits.append(annotate(r.candidate, terms, outline, score=round(r.score, 4), reason=reason))
        else:
            hit = _hit_for(project, r.path)
            if hit is not None:
                hits.append(msgspec.structs.replace(hit, score=round(r.score, 4), reason=reason))
    return hits


def _hit_for(project, path: str) -> Hit | None:
    """A result for a file the walk reached: named by its first declaration."""
    rec = project.records.record(path)
    if rec is None or rec.kind == "meta":
        return None
    first = next((s for s in rec.symbols), None)
    return Hit(
        path=path,
        kind=rec.kind,
        name=first.qualified if first else path.rsplit("/", 1)[-1],
        line=first.line if first else 0,
        score=0.0,
        snippet=first.signature if first else "",
    )
