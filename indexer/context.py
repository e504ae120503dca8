"""A two-tier context pack under a token budget that is never exceeded.

Tier 1 (at most a quarter of the budget, less when the budget is small): the project overview
and its tree. Tier 2 (the rest, plus what tier 1 left unused): the files ranked for the query,
each as the largest rendering that still fits: a full outline, a compact one, or its header.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import msgspec

from .documents import TEXT_BODY_KINDS
from .graph import Graph
from .identifiers import query_terms, stem
from .model import FileRecord
from .outline import outline
from .overview import build_overview, render_tree
from .retriever import Hit
from .tokens import TokenCounter
from .workspace import ProjectIndex, Workspace

CONTEXT_SCHEMA_VERSION = 1
TIER1_SHARE = 0.25
MAX_CANDIDATES = 40
MAX_MATCHED_LINES = 8


class Tier(msgspec.Struct):
    text: str
    tokens: int


class FileEntry(msgspec.Struct):
    path: str
    tokens: int
    score: float
    reason: str


class Tier2(msgspec.Struct):
    text: str
    tokens: int
    files: list[FileEntry]


class ContextPack(msgspec.Struct):
    schema_version: int
    query: str
    budget: int
    tokens: int
    tokenizer: str
    tier1: Tier
    tier2: Tier2

    def render(self) -> str:
        return "\n\n".join(t for t in (self.tier1.text, self.tier2.text) if t)


def build_context(ws: Workspace, query: str, budget: int, counter: TokenCounter) -> ContextPack:
    """The pack for `query` over a workspace (one project, or the projects of a repository)."""
    if budget < 1:
        raise ValueError("the budget must be at least 1 token")
    projects = [p.fresh() for p in ws.projects]
    share = int(budget * TIER1_SHARE)
    # Tier 1 depends on the index, not on the query: computed once per index generation.
    key = (tuple(p.generation() for p in projects), share, counter.name)
    tier1_text = ws.cache.get(("tier1", key))
    if tier1_text is None:
        tier1_text = ws.cache[("tier1", key)] = _tier1(projects, counter, share)
    tier1_tokens = counter.count(tier1_text)
    # Tier 2 joins tier 1 with a blank line: two newline tokens at most.
    remaining = budget - tier1_tokens - (2 if tier1_text else 0)
    terms = query_terms(query)
    hits = ws.search(query, limit=MAX_CANDIDATES) if terms else []
    tier2 = _tier2(ws, hits, terms, counter, remaining)
    total = counter.count("\n\n".join(t for t in (tier1_text, tier2.text) if t))
    while total > budget and tier2.files:  # a tokenizer may count a join differently: shrink
        remaining -= total - budget
        tier2 = _tier2(ws, hits, terms, counter, remaining)
        total = counter.count("\n\n".join(t for t in (tier1_text, tier2.text) if t))
    if total > budget:  # only tier 1 left and it is over: shrink it
        tier1_text = counter.truncate(tier1_text, budget)
        tier1_tokens = counter.count(tier1_text)
        total = tier1_tokens
    return ContextPack(
        schema_version=CONTEXT_SCHEMA_VERSION,
        query=query,
        budget=budget,
        tokens=total,
        tokenizer=counter.name,
        tier1=Tier(text=tier1_text, tokens=tier1_tokens),
        tier2=tier2,
    )


def _tier1(projects: list[ProjectIndex], counter: TokenCounter, share: int) -> str:
    """Overviews first, in at most half the share, so the tree's top level always has room."""
    if share <= 0:
        return ""
    kinds: dict[str, str] = {}
    overviews = []
    for p in projects:
        local = p.records.kinds()
        kinds.update({p.prefix + path: kind for path, kind in local.items()})
        overviews.append(build_overview(p.root, p.records, local).render())
    per_project = max(share // 2 // len(projects), 1)
    overview = "\n".join(t for t in (counter.truncate(o, per_project) for o in overviews) if t)
    used = counter.count(overview) + 2 if overview else 0
    tree = render_tree(kinds, counter, share - used)
    return "\n\n".join(p for p in (overview, tree) if p)


def _tier2(ws: Workspace, hits: list[Hit], terms: list[str], counter: TokenCounter, budget: int) -> Tier2:
    header = "## Files for this task"
    if budget <= counter.count(header) + 1 or not hits:
        return Tier2(text="", tokens=0, files=[])
    pieces = [header]
    used = counter.count(header)
    entries: list[FileEntry] = []
    by_stem = {stem(t): t for t in reversed(terms)}  # first query word wins for display
    stems = set(by_stem)
    pattern = stem_pattern(stems)
    line_cost = functools.lru_cache(maxsize=None)(counter.count)
    for hit in hits:
        owner = ws.owner(hit.path)
        if owner is None:
            continue
        project, local = owner
        rec = project.records.record(local)
        text = _read_text(project.root, local)
        matched = [by_stem[s] for s in _matched_terms(text, rec, pattern) if s in by_stem]
        reason = "matched: " + ", ".join(matched) if matched else "ranked by path"
        for rendering in _renderings(hit, rec, project.graph, text, stems, pattern, reason):
            # Renderings share most lines: count each line once. The sum over lines is never
            # below the count of the joined text; the whole pack is recounted at the end.
            lines = rendering.split("\n")
            cost = sum(line_cost(x) for x in lines) + len(lines)  # + the newlines joining them
            if used + cost <= budget:
                pieces.append(rendering)
                used += cost
                entries.append(
                    FileEntry(path=hit.path, tokens=counter.count(rendering), score=hit.score, reason=reason)
                )
                break
    if not entries:
        return Tier2(text="", tokens=0, files=[])
    text = "\n".join(pieces)
    return Tier2(text=text, tokens=counter.count(text), files=entries)


def _read_text(root: Path, rel: str) -> str:
    try:
        with open(root / rel, "rb") as f:
            data = f.read(1_000_000)
    except OSError:
        return ""
    return "" if b"\0" in data[:8192] else data.decode("utf-8", errors="replace")


_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")


def stem_pattern(stems: set[str]) -> re.Pattern[str] | None:
    """One regex finding any query stem in text, case-insensitively: inside identifiers for stems
    of three letters or more (`damag` in `TakeDamage`), as whole words for shorter ones."""
    parts = [re.escape(x) if len(x) >= 3 else rf"\b{re.escape(x)}\b" for x in sorted(stems, key=len, reverse=True)]
    return re.compile("|".join(parts), re.I) if parts else None


def _matched_terms(text: str, rec: FileRecord | None, pattern: re.Pattern[str] | None) -> list[str]:
    if pattern is None:
        return []
    source = f"{text}\n{rec.path if rec else ''}"
    return sorted({m.group(0).lower() for m in pattern.finditer(source)})


def _renderings(
    hit: Hit,
    rec: FileRecord | None,
    graph: Graph,
    text: str,
    stems: set[str],
    pattern: re.Pattern[str] | None,
    reason: str,
) -> list[str]:
    """Largest first: full outline with matched lines, compact outline, header line."""
    head = f"### {hit.path}  ({hit.kind}; {reason})"
    if rec is None or not rec.symbols:
        matched = _matched_lines(text, pattern)
        return [x for x in ("\n".join([head, *matched]) if matched else "", head) if x]
    full = outline(rec, graph, stems, compact=False)
    compact = outline(rec, graph, stems, compact=True)
    # Matched lines of Unity YAML are serialized state, not code: the outline says it better.
    declared = {s.line for s in rec.symbols}
    matched = _matched_lines(text, pattern, skip=declared) if rec.kind in TEXT_BODY_KINDS else []
    out = []
    if matched:
        out.append("\n".join([head, *full, "matched lines:", *matched]))
    out.append("\n".join([head, *full]))
    if compact != full:
        out.append("\n".join([head, *compact]))
    out.append(head)
    return out


def _matched_lines(
    text: str, pattern: re.Pattern[str] | None, skip: frozenset[int] | set[int] = frozenset()
) -> list[str]:
    """Lines of the file that mention a query word, except declarations the outline already shows."""
    out: list[str] = []
    if pattern is None:
        return out
    for i, line in enumerate(text.splitlines(), 1):
        if i in skip:
            continue
        stripped = line.strip()
        if stripped and len(stripped) < 200 and pattern.search(stripped):
            out.append(f"  L{i}: {stripped}")
            if len(out) >= MAX_MATCHED_LINES:
                break
    return out
