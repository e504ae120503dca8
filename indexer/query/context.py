"""A two-tier context pack under a token budget that is never exceeded.

Tier 1 (at most a quarter of the budget, less when the budget is small): the project overview
and its tree. Tier 2 (the rest, plus what tier 1 left unused): the files ranked for the query,
each as the largest rendering that still fits: a full outline, a compact one, or its header.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import msgspec

from indexer.identifiers import NameText, bounded_query, name_stems, query_terms, said_words, stem
from indexer.model import CodeOutline, ContextPack, FileEntry, FileRecord, Hit, Overview, Tier, Tier2
from indexer.query.graph import Graph
from indexer.query.outline import Part, csharp_lines, matches, outline_parts, render_parts
from indexer.query.overview import Folder, folder_tree, render_tree, workspace_overviews
from indexer.query.priors import ART_WORDS, ASSET_WORDS, asks_for, named_kinds
from indexer.query.related import RELATED_LEADS, related_files
from indexer.query.render import render_overview
from indexer.query.synonyms import expansions
from indexer.query.textmatch import matched_lines_of, stems_in, stems_in_text
from indexer.query.texts import FileText
from indexer.query.tokens import TokenCounter
from indexer.query.workspace import ProjectIndex, Workspace
from indexer.store.schema import TEXT_BODY_KINDS

CONTEXT_SCHEMA_VERSION = 1
TIER1_SHARE = 0.15
MAX_CANDIDATES = 40
# One file's rendering takes at most this share of tier 2 (and at least FILE_FLOOR): the best
# files may take more, the rest are kept short so the pack reaches the files a task needs.
LEAD_FILES, LEAD_SHARE = 2, 0.2
FILE_SHARE = 0.06
LEADING_ASSETS = 2  # a code task keeps an asset among its best hits where it ranked (see task_order)
DEFERRED_ASSET = 0.7  # the rest of its assets are placed as if they scored this much of their score
FILE_FLOOR = 200  # 300 showed fewer files beyond their header at 2,000-4,000 (docs/retrieval.md)
# A file whose compact outline is longer than its share is shown cut to what the task needs most
# (`_cut`): in its whole share when it is a lead file, in this part of it otherwise, so the pack
# still reaches as far down the ranking (measured: docs/retrieval.md).
CUT_SHARE = 1 / 2
MIN_LINE = 2  # tokens: a line and its newline cost two at least
# The attributes an outline line starts with after its line number (none nesting brackets).
_ATTRIBUTES = re.compile(r"^(\s*L\d+ )(?:\[[^\[\]]*\]\s*)+")
# Scenes and prefabs shown in a compact outline (cut to the task), the rest in full when that fits
# and else by their header line: a code task's prefabs repeat the same components (a track piece
# per theme), and each compact outline costs a C# file's room.
HIERARCHY_FILE_KINDS = frozenset({"prefab", "scene"})
HIERARCHY_OUTLINES = 3
# Their cut: halved twice, a quarter of a file's share held no more than the header line (a
# variant's overrides, a scene's first objects); 0.6 of the half shows them, losing nothing
# anywhere (docs/retrieval.md, session 15).
HALVED_CUT_SHARE = 0.6
# Words of a task about the project's packages: only then does tier 1 list them with versions.
PACKAGE_WORDS = frozenset(
    {"package", "packages", "dependency", "dependencies", "manifest", "upm", "version", "upgrade"}
)
CODE_KINDS = frozenset({"csharp", "shader", "shader_include", "compute_shader"})
# The share of tier 2 kept for the files one reference from the best files (`related`): a line each.
RELATED_SHARE = 0.15
RELATED_HEADER = "## Related files (not shown; one reference from the files above)"
RELATED_REASON = "related: "  # how a related file's entry starts its reason


def build_context(ws: Workspace, query: str, budget: int, counter: TokenCounter) -> ContextPack:
    """The pack for `query` over a workspace (one project, or the projects of a repository)."""
    if budget < 1:
        raise ValueError("the budget must be at least 1 token")
    projects = [p.fresh() for p in ws.projects]
    share = int(budget * TIER1_SHARE)
    asked = query
    query = bounded_query(query)  # a pasted log: its first terms (the pack names the whole text)
    terms = query_terms(query)
    said = said_words(query)
    packages = asks_for(said, PACKAGE_WORDS)
    # Tier 1 depends on the index (and whether packages are asked for): once per index generation.
    key = (tuple(p.generation() for p in projects), share, counter.name, packages)
    tier1_text = ws.cache.get(("tier1", key))
    if tier1_text is None:
        base = ws.cache.get(("tier1-base", key[0]))
        if base is None:  # the same for every share and counter: made once per generation
            for old in [k for k in ws.cache if k[0] == "tier1-base"]:
                del ws.cache[old]  # one tree kept: the index's generation moved on
            overviews, kinds = workspace_overviews(projects)
            base = ws.cache[("tier1-base", key[0])] = (overviews, folder_tree(kinds), len(projects))
        tier1_text = ws.cache[("tier1", key)] = _tier1(base, counter, share, packages)
    tier1_tokens = counter.count(tier1_text)
    # Tier 2 joins tier 1 with a blank line: two newline tokens at most.
    remaining = budget - tier1_tokens - (2 if tier1_text else 0)
    hits = task_order(ws.search(query, limit=MAX_CANDIDATES, named=False), said) if terms else []
    similar = _synonym_stems(said, {stem(t) for t in terms})
    tier2 = _tier2_and_related(ws, hits, terms, similar, counter, remaining)
    total = counter.count("\n\n".join(t for t in (tier1_text, tier2.text) if t))
    while total > budget and tier2.files:  # a tokenizer may count a join differently: shrink
        remaining -= total - budget
        tier2 = _tier2_and_related(ws, hits, terms, similar, counter, remaining)
        total = counter.count("\n\n".join(t for t in (tier1_text, tier2.text) if t))
    if total > budget:  # only tier 1 left and it is over: shrink it
        tier1_text = counter.truncate(tier1_text, budget)
        tier1_tokens = counter.count(tier1_text)
        total = tier1_tokens
    return ContextPack(
        schema_version=CONTEXT_SCHEMA_VERSION,
        query=asked,
        budget=budget,
        tokens=total,
        tokenizer=counter.name,
        tier1=Tier(text=tier1_text, tokens=tier1_tokens),
        tier2=tier2,
    )


def _tier1(base: tuple[list[Overview], Folder, int], counter: TokenCounter, share: int, packages: bool) -> str:
    """Overviews first, in at most half the share, so the tree's top level always has room.
    Package versions only when the task asks about packages; settings and art folders unlisted.
    `base`: the projects' overviews, their tree and how many there are."""
    if share <= 0:
        return ""
    overviews, tree, count = base
    if not packages:
        overviews = [msgspec.structs.replace(o, packages=[]) for o in overviews]
    per_project = max(share // 2 // count, 1)
    rendered = (counter.truncate(render_overview(o), per_project) for o in overviews)
    overview = "\n".join(t for t in rendered if t)
    used = counter.count(overview) + 2 if overview else 0
    tree_text = render_tree(tree, counter, share - used, task=True)
    return "\n\n".join(p for p in (overview, tree_text) if p)


def task_order(hits: list[Hit], said: list[str]) -> list[Hit]:
    """Code first for a code task: an asset keeps its rank only when the task asks for assets
    (names a kind, asks where something is configured, or how it looks or sounds), when it is one
    of the two best hits (the ranking already put code first; an asset that still leads matches
    the task on its own, like the ScriptableObject named for what is asked about), or when the
    walk tied it to code among the hits (it was reached from one of the scripts, or one of them
    was reached from it: the button whose event calls a method). The rest go where they would be
    at `DEFERRED_ASSET` of their score: after the code that matches about as well, not after all
    of it (a data asset ranked 11th would follow twenty weaker scripts, out of the pack)."""
    if asks_for(said, ASSET_WORDS | ART_WORDS) or named_kinds(said):
        return hits
    code = [h for h in hits if h.kind in CODE_KINDS]
    keyed = []
    for i, h in enumerate(hits):
        tied = (
            i < LEADING_ASSETS
            or h.kind in CODE_KINDS
            or any(c.path in h.reason for c in code)
            or any(h.path in c.reason for c in code)
        )
        keyed.append((-(h.score if tied else h.score * DEFERRED_ASSET), i, h))
    return [h for *_, h in sorted(keyed, key=lambda k: k[:2])]


def _tier2_and_related(
    ws: Workspace,
    hits: list[Hit],
    terms: list[str],
    similar: dict[str, tuple[str, str]],
    counter: TokenCounter,
    budget: int,
) -> Tier2:
    """The ranked files in all but RELATED_SHARE of the budget, then, in what is left, the files one
    reference from the best of them (`related`), one line each. When those lines need less than
    their share (a small project), the ranked files are laid out again with the rest."""
    reserve = int(budget * RELATED_SHARE)
    tier2 = _tier2(ws, hits, terms, similar, counter, budget - reserve)
    if not tier2.files:
        return tier2
    head = counter.count(RELATED_HEADER) + 1
    leads = [f.path for f in tier2.files[:RELATED_LEADS]]
    candidates = related_files(ws, leads, {f.path for f in tier2.files}, hits)
    lines = _related_lines(candidates, counter, reserve - head)
    need = head + sum(cost for *_, cost in lines) if lines else 0
    if need < reserve:  # every candidate was counted and fits: the ranked files take the rest
        tier2 = _tier2(ws, hits, terms, similar, counter, budget - need)
        shown = {f.path for f in tier2.files}
        if [f.path for f in tier2.files[:RELATED_LEADS]] == leads:  # the same neighbours, fewer unshown
            candidates = [c for c in candidates if c[0] not in shown]
        else:
            candidates = related_files(ws, [f.path for f in tier2.files[:RELATED_LEADS]], shown, hits)
        lines = _related_lines(candidates, counter, budget - tier2.tokens - head)
    if not lines:
        return tier2
    scores = {h.path: h.score for h in hits}
    text, entries = [tier2.text, RELATED_HEADER], list(tier2.files)
    used = tier2.tokens + head
    for path, why, line, cost in lines:
        if used + cost > budget:
            break
        text.append(line)
        entries.append(FileEntry(path=path, tokens=cost - 1, score=scores.get(path, 0.0), reason=RELATED_REASON + why))
        used += cost
    if len(text) == 2:
        return tier2
    joined = "\n".join(text)
    return Tier2(text=joined, tokens=counter.count(joined), files=entries)


def _related_lines(
    candidates: list[tuple[str, str]], counter: TokenCounter, room: int
) -> list[tuple[str, str, str, int]]:
    """(path, why, line, tokens with its newline) of the related files, in order, until they fill
    `room` (the first that does not fit ends the list)."""
    out, used = [], 0
    for path, why in candidates:
        line = f"{path}  ({why})"
        cost = counter.count(line) + 1
        used += cost
        out.append((path, why, line, cost))
        if used >= room:
            break
    return out


def _tier2(
    ws: Workspace,
    hits: list[Hit],
    terms: list[str],
    similar: dict[str, tuple[str, str]],
    counter: TokenCounter,
    budget: int,
) -> Tier2:
    """The ranked files, each as the largest rendering that fits; `similar` (`_synonym_stems`)
    names the synonyms a file may have been found through."""
    header = "## Files for this task"
    if budget <= counter.count(header) + 1 or not hits:
        return Tier2(text="", tokens=0, files=[])
    pieces = [header]
    used = counter.count(header)
    entries: list[FileEntry] = []
    by_stem = {stem(t): t for t in reversed(terms)}  # first query word wins for display
    stems = set(by_stem)
    frozen = frozenset(stems)
    outlined = 0  # scenes and prefabs shown with more than their header line
    for hit in hits:
        lead = len(entries) < LEAD_FILES
        cap, cut = _shares(hit.kind, lead, outlined, budget)
        if budget - used < 4:  # not even a header line fits any more
            break
        owner = ws.owner(hit.path, refresh=False)
        if owner is None:
            continue
        project, local = owner
        read = project.texts.get(local)
        reason, in_text = _matched(project, local, read, by_stem, similar)
        head = f"### {hit.path}  ({hit.kind}; {reason})"
        # the lines matching: of the stems the lower-cased text holds (all when it is not aligned)
        looked_for = frozenset(in_text) if len(read.low) == len(read.text) else frozen
        room = (min(cut, budget - used) - 1, counter)
        for lines in _renderings(head, project, local, read, stems, looked_for, room):
            if 2 * len(lines) > budget - used:  # a line and its newline: two tokens at least
                continue
            if counter.at_least_lines(lines) + 1 > (budget - used if len(lines) == 1 else min(cap, budget - used)):
                continue  # too long for what is left, or for its share: not worth counting
            # Renderings share most lines: counted line by line (cached), never below the count
            # of the joined text; the whole pack is recounted at the end.
            cost = counter.bound_lines(lines) + 1  # + the newline joining it
            if used + cost <= budget and (cost <= cap or len(lines) == 1):
                rendering = "\n".join(lines)
                pieces.append(rendering)
                used += cost
                entries.append(
                    FileEntry(path=hit.path, tokens=counter.count(rendering), score=hit.score, reason=reason)
                )
                outlined += hit.kind in HIERARCHY_FILE_KINDS and len(lines) > 1
                break
    if not entries:
        return Tier2(text="", tokens=0, files=[])
    text = "\n".join(pieces)
    return Tier2(text=text, tokens=counter.count(text), files=entries)


def _matched(
    project: ProjectIndex, local: str, read: FileText, by_stem: dict[str, str], similar: dict[str, tuple[str, str]]
) -> tuple[str, set[str]]:
    """Why a file is in the pack (`_match_reason`: the query words it holds, in its text or path,
    and the synonyms in its names), and the query stems its text holds."""
    stems = set(by_stem)
    in_text = stems_in_text(read, stems)
    found = sorted(in_text | stems_in(local.lower(), stems - in_text))
    if similar:  # synonyms are looked for in names only: a long text is scanned once a word
        view = _file_view(project, local)
        found += sorted(stems_in(f"{view.lowered if view else ''}\n{local.lower()}", set(similar)))
    return _match_reason(found, by_stem, similar), in_text


def _synonym_stems(terms: list[str], stems: set[str]) -> dict[str, tuple[str, str]]:
    """stem -> (word, the word said it stands for) of the synonyms the words a task says were
    searched with (`synonyms`; `stems`: the query's own): a file found through one says so."""
    out: dict[str, tuple[str, str]] = {}
    for term, words in expansions(terms):
        for word in words:
            if stem(word) not in stems:
                out.setdefault(stem(word), (word, term))
    return out


def _match_reason(found: list[str], by_stem: dict[str, str], similar: dict[str, tuple[str, str]]) -> str:
    """`matched: enemy, dies`, then the words found for a query word by synonym: `; death (for dies)`."""
    through: dict[str, list[str]] = {}
    for s in found:
        if s not in by_stem:
            word, term = similar[s]
            through.setdefault(term, []).append(word)
    parts = [", ".join(by_stem[s] for s in found if s in by_stem)]
    parts += [f"{', '.join(words)} (for {term})" for term, words in through.items()]
    text = "; ".join(p for p in parts if p)
    return f"matched: {text}" if text else "ranked by path"


class _FileView(msgspec.Struct, frozen=True):
    """What tier 2 needs of a file whatever the query: kept per index generation, as popular
    files come back query after query and decoding and outlining them is most of the cost."""

    kind: str
    declared: frozenset[int]  # lines holding a declaration (the outline shows them)
    outline: tuple[str, ...]  # the full outline; () for a file without symbols
    # C#: the member each outline line shows (None: always kept), so the compact form needs no
    # decode; None for other kinds, whose compact form is cut from `parts`
    members: tuple[str | None, ...] | None = None
    names: NameText | None = None  # the members as a NameText (C#), for the compact form
    lowered: str = ""  # its declarations' names, lower-cased: where a synonym is looked for
    parts: tuple[Part, ...] = ()  # other kinds: the outline as `render_parts` cuts it to a query
    fixed: tuple[int, ...] = ()  # C#: the outline lines naming no member (every compact form keeps them)
    flat: bool = True  # no line of the outline holds a newline


def _file_view(project: ProjectIndex, local: str) -> _FileView | None:
    return project.remember(("view", local), lambda: _make_view(project.records.outline_record(local), project.graph))


def _make_view(rec: FileRecord | CodeOutline | None, graph: Graph) -> _FileView | None:
    if rec is None:
        return None
    declared = frozenset(s.line for s in rec.symbols)
    if not rec.symbols and (rec.kind == "csharp" or not rec.refs):
        return _FileView(rec.kind, declared, ())
    lowered = "\n".join(s.name for s in rec.symbols).lower()
    if rec.kind == "csharp":
        lines = csharp_lines(rec, graph)
        members = tuple(m for _, m in lines)
        names = NameText([m or "" for m in members])
        fixed = tuple(i for i, m in enumerate(members) if m is None)
        outline = tuple(t for t, _ in lines)
        flat = not any("\n" in t for t in outline)
        return _FileView(rec.kind, declared, outline, members, names, lowered, fixed=fixed, flat=flat)
    parts = tuple(outline_parts(rec, graph))
    outline = tuple(render_parts(parts, graph, None))
    flat = not any("\n" in t for t in outline)
    return _FileView(rec.kind, declared, outline, lowered=lowered, parts=parts, flat=flat)


def _shares(kind: str, lead: bool, outlined: int, budget: int) -> tuple[int, int]:
    """A file's share of tier 2 and the room of its outline cut to the task: a lead file's fifth
    and all of it; another's 6% (FILE_FLOOR at least) and CUT_SHARE of it; a scene or prefab past
    the third shown in outline half that share, and HALVED_CUT_SHARE of the half."""
    cap = max(int(budget * (LEAD_SHARE if lead else FILE_SHARE)), FILE_FLOOR)
    if kind in HIERARCHY_FILE_KINDS and outlined >= HIERARCHY_OUTLINES:
        cap = int(cap * CUT_SHARE)
        return cap, int(cap * HALVED_CUT_SHARE)
    return cap, cap if lead else int(cap * CUT_SHARE)


def _compact(view: _FileView, graph: Graph, stems: set[str]) -> list[str]:
    """The compact form of a view: of a C# file its declarations and the members that match
    (`_compact_indexes`), of another `render_parts` cut to `stems`."""
    if view.members is None:
        return render_parts(view.parts, graph, stems)
    outline = view.outline
    return [outline[i] for i in _compact_indexes(view, stems)]


def _compact_indexes(view: _FileView, stems: set[str]) -> list[int]:
    """The lines of a C# view's compact form, as indexes: the lines naming no member, and the
    members the name scan lets through that match; a file of hundreds of members costs what the
    few that may match do, not a test of each."""
    members = view.members
    assert members is not None
    maybe = view.names.may_hold(stems) if view.names is not None else None
    if maybe is None:
        return [i for i, m in enumerate(members) if m is None or matches(m, stems)]
    kept = [i for i in maybe if (m := members[i]) is not None and matches(m, stems)]
    return sorted((*view.fixed, *kept))


def _weighted(view: _FileView, graph: Graph, stems: set[str]) -> tuple[list[str], list[int]]:
    """The compact form's lines, each with how much the task needs it: a C# type line most, a
    member by the query stems its name holds, the namespace least (the path says as much); the
    lines of other kinds alike."""
    if view.members is None:
        lines = _compact(view, graph, stems)
        return lines, [0] * len(lines)
    indexes = _compact_indexes(view, stems)
    lines = [view.outline[i] for i in indexes]
    weights = [
        len(stems.intersection(name_stems(m)))
        if (m := view.members[i]) is not None
        else -1
        if line.startswith("namespace ")
        else len(stems) + 1
        for i, line in zip(indexes, lines, strict=True)
    ]
    return lines, weights


def _cut(
    head: list[str], lines: list[str], weights: list[int], room: int, counter: TokenCounter, ordered: bool = False
) -> list[str] | None:
    """The heaviest of `lines` (of equal weight, the earlier) that fit in `room` tokens after
    `head`, in their order, and a line counting those left out; None when none fits. A line too
    long for what is left is shown without its attributes when that fits (`_bare`), else passed
    over for lighter ones: a file whose outline is too long for its room shows what the task needs
    most of it, not its path alone, and a class line of three `[RequireComponent]`s does not keep
    out the field the task asks about. `ordered` lines (a scene's or prefab's, whose titles head
    the lines after them) end at the first that does not fit: `references:` alone says nothing."""
    used = counter.bound_lines(head) + 1 + counter.count(_more_lines(len(lines)))
    chosen: dict[int, str] = {}
    for i in sorted(range(len(lines)), key=lambda i: (-weights[i], i)):
        if room - used < MIN_LINE:
            break
        for line in dict.fromkeys((lines[i], _bare(lines[i]))):
            cost = counter.count(line) + 1
            if used + cost <= room:
                used += cost
                chosen[i] = line
                break
        else:
            if ordered:
                break
    if ordered:  # a title whose lines were all left out goes with them
        while chosen and chosen[last := max(chosen)].endswith(":"):
            del chosen[last]
    if not chosen:
        return None
    left = len(lines) - len(chosen)
    return [*head, *(chosen[i] for i in sorted(chosen)), *([_more_lines(left)] if left else [])]


def _bare(line: str) -> str:
    """An outline line without the attributes before its declaration (`L22 [RequireComponent(...)]
    public class Mover` -> `L22 public class Mover`); the line itself when it has none."""
    return _ATTRIBUTES.sub(r"\1", line, count=1)


def _more_lines(count: int) -> str:
    return f"… {count} more outline line{'s' if count > 1 else ''}"


def _renderings(
    head: str,
    project: ProjectIndex,
    local: str,
    read: FileText,
    stems: set[str],
    frozen: frozenset[str],
    room: tuple[int, TokenCounter],
) -> Iterator[list[str]]:
    """Largest first: full outline with matched lines, compact outline, the compact outline cut
    to `room` (tokens, and their counter), header line. Made one at a time: the caller stops at
    the first that fits. Each as the lines its text splits into: the view's own line strings
    (their counts are cached by them), joined only when one is kept."""
    flat = "\n" not in head  # (a path, a kind and query words: it holds none)
    view = _file_view(project, local)
    if view is None or not view.outline:
        matched = matched_lines_of(read, frozen)  # each cut at a newline
        if matched:
            yield _split([head, *matched], flat)
        yield _split([head], flat)
        return
    flat = flat and view.flat
    # Matched lines of Unity YAML are serialized state, not code: the outline says it better.
    if view.kind in TEXT_BODY_KINDS:
        matched = matched_lines_of(read, frozen, view.declared)
        if matched:
            yield _split([head, *view.outline, "matched lines:", *matched], flat)
    yield _split([head, *view.outline], flat)
    lines, weights = _weighted(view, project.graph, stems)
    if lines != list(view.outline):
        # a C# view's compact lines are some of its lines; another's are cut from its parts
        yield _split([head, *lines], flat and (view.members is not None or not any("\n" in c for c in lines)))
    if all("\n" not in line for line in (head, *lines)):  # a cut counts whole lines
        cut = _cut([head], lines, weights, *room, ordered=view.members is None)
        if cut is not None:
            yield cut
    yield _split([head], flat)


def _split(lines: list[str], flat: bool) -> list[str]:
    """The lines `"\n".join(lines)` splits into: `lines` themselves when none holds a newline."""
    return lines if flat else "\n".join(lines).split("\n")
