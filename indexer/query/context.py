"""A two-tier context pack under a token budget that is never exceeded.

Tier 1 (at most 15% of the budget, TIER1_SHARE): the project overview
and its tree. Tier 2 (the rest, plus what tier 1 left unused): the files ranked for the query,
each as the largest rendering that still fits: a full outline, a compact one, or its header.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import msgspec

from indexer.identifiers import bounded_query, compound_spellings, query_terms, said_words, stem
from indexer.model import ContextPack, FileEntry, Hit, Overview, Tier, Tier2
from indexer.query.asked_project import asked_project
from indexer.query.code_first import classes_of, task_order
from indexer.query.file_roles import role_words
from indexer.query.overview import (
    Folder,
    asks_for_packages,
    folder_tree,
    render_tree,
    third_party_test,
    workspace_overviews,
)
from indexer.query.reasons import ACCESSOR_STEMS, Reasons, ranked_reason, shown_words, synonym_stems
from indexer.query.related import RELATED_LEADS, related_files
from indexer.query.render import fitted_overview
from indexer.query.search import doer, outlines_of
from indexer.query.serialized import pack_values
from indexer.query.synonyms import excess, qualities
from indexer.query.texts import FileText
from indexer.query.tokens import TokenCounter
from indexer.query.views import cut_lines, file_view, renderings, weighted
from indexer.query.workspace import ProjectIndex, Workspace, prefixed, reading

CONTEXT_SCHEMA_VERSION = 1
TIER1_SHARE = 0.15
TIER1_KEPT = 256  # tier 1 texts kept per workspace (budgets, tokenizers, named projects)
MAX_CANDIDATES = 40
# One file's rendering takes at most this share of tier 2 (and at least FILE_FLOOR): the best
# files may take more, the rest are kept short so the pack reaches the files a task needs.
LEAD_FILES, LEAD_SHARE = 2, 0.2
# The first files of a pack have their lines holding the task's words looked for even when their
# whole outline does not fit: they are shown beside a cut of it (views.renderings). A file past
# them has them looked for only when its whole outline fits (finding them costs a scan of its text).
SOUGHT_FILES = 10
FILE_SHARE = 0.06
FILE_FLOOR = 200  # 300 showed fewer files beyond their header at 2,000-4,000 (docs/retrieval.md)
# A file whose compact outline is longer than its share is shown cut to what the task needs most
# (`views.cut_lines`): in its whole share when it is a lead file, in this part of it otherwise, so
# the pack still reaches as far down the ranking (measured: docs/retrieval.md).
CUT_SHARE = 1 / 2
# Scenes and prefabs shown in a compact outline (cut to the task), the rest in full when that fits
# and else by their header line: a code task's prefabs repeat the same components (a track piece
# per theme), and each compact outline costs a C# file's room.
HIERARCHY_FILE_KINDS = frozenset({"prefab", "scene"})
HIERARCHY_OUTLINES = 3
# Their cut: halved twice, a quarter of a file's share held no more than the header line (a
# variant's overrides, a scene's first objects); 0.6 of the half shows them, losing nothing
# anywhere (docs/retrieval.md, session 15).
HALVED_CUT_SHARE = 0.6
# The share of tier 2 kept for the files one reference from the best files (`related`).
RELATED_SHARE = 0.15
RELATED_HEADER = "## Related files (one reference from the files above)"
# The first related files are shown with their declarations and the members the task names, cut
# to RELATED_OUTLINE_ROOM tokens each, while those take at most RELATED_OUTLINED_SHARE of the
# related files' room: a line naming `Engine.cs` says where to look, `public class Engine` with
# the field the task asks about is something to read (docs/retrieval.md, session 16).
RELATED_OUTLINED, RELATED_OUTLINE_ROOM, RELATED_OUTLINED_SHARE = 4, 32, 0.7
# Those first lines say the reference that ties them (`type used by Boss.cs`); the rest name the
# file alone: the reference costs about as many tokens as the path, so the room names twice as
# many files (the entry's reason keeps it; held-out named 0.868 -> 0.874, session 50).
RELATED_EXPLAINED = RELATED_OUTLINED
RELATED_REASON = "related: "  # how a related file's entry starts its reason
# A pack that shows every candidate with this much of tier 2 left lays its files out again with
# their shares grown by the largest of FILL_GROWTH that still shows them all (`_filled`).
FILL_LEFT, FILL_GROWTH = 100, (1.1, 1.25, 1.5, 2.0)
OTHERS_SHARE = 4  # the line naming a workspace's other projects takes at most 1/4 of tier 1


def build_context(ws: Workspace, query: str, budget: int, counter: TokenCounter) -> ContextPack:
    """The pack for `query` over a workspace (one project, or the projects of a repository)."""
    if budget < 1:
        raise ValueError("the budget must be at least 1 token")
    if not ws.projects:  # the budget is shared among them: it was a ZeroDivisionError
        raise ValueError(
            f"the workspace at {ws.base} holds no Unity project, so there is nothing to pack"
            " (`projects_at` lists the projects at a folder and below it)"
        )
    projects = [p.fresh() for p in ws.projects]
    with reading(projects):  # one commit of each store read throughout (`ProjectIndex.reading`)
        return _pack(ws, projects, query, budget, counter)


def why_no_files(ws: Workspace, task: str, budget: int, larger: str) -> str:
    """Why a pack holds no file (read as the answer if unsaid): no match, or no room (`larger`)."""
    from indexer.query.empty import empty_index_note

    if ws.search(task, 1, named=False):
        return f"no file fits in {budget} token{'' if budget == 1 else 's'}: try a larger {larger}"
    if empty := empty_index_note(ws):
        return f"no file matches the task: {empty}"
    return "no file matches the task: try other words (identifiers, file names)"


def _pack(ws: Workspace, projects: list[ProjectIndex], query: str, budget: int, counter: TokenCounter) -> ContextPack:
    share = int(budget * TIER1_SHARE)
    asked = query
    query = bounded_query(query)  # a pasted log: its first terms (the pack names the whole text)
    terms, spellings = query_terms(query), compound_spellings(query)
    said = said_words(query)
    packages = asks_for_packages(projects, said)
    # Of several projects, the one the task names is the one tier 1 describes (`asked_project`).
    named = asked_project(projects, query)
    shown = projects if named is None else [projects[named]]
    others = "" if named is None else _others_line(projects, named, counter, share // OTHERS_SHARE)
    # Tier 1 depends on the index (and whether packages are asked for): once per index generation.
    generations = (tuple(p.stamp() for p in projects), named)
    key = ("tier1", generations, share, counter.name, packages)  # the generations second, as the base's
    tier1_text = ws.cache.get(key)
    if tier1_text is None:
        base = ws.cache.get(("tier1-base", generations))
        if base is None:  # the same for every share and counter: made once per generation
            for old in [k for k in ws.cache if k[1][0] != generations[0]]:
                del ws.cache[old]  # trees and texts of one generation kept: the index's moved on
            overviews, kinds = workspace_overviews(shown)
            tree = folder_tree(kinds, third_party_test(shown))
            base = ws.cache[("tier1-base", generations)] = (overviews, tree, len(shown))
        tier1_text = _tier1(base, counter, share - counter.count(others) - 1 if others else share, packages)
        if len(ws.cache) >= TIER1_KEPT:  # an agent asking for every budget keeps no more than this
            for old in [k for k in ws.cache if k[0] == "tier1"]:
                del ws.cache[old]
        tier1_text = ws.cache[key] = "\n".join(t for t in (others, tier1_text) if t)
    tier1_tokens = counter.count(tier1_text)
    # Tier 2 joins tier 1 with a blank line: two newline tokens at most.
    remaining = budget - tier1_tokens - (2 if tier1_text else 0)
    hits = ws.search(query, limit=MAX_CANDIDATES, named=False) if terms else []
    hits = task_order(hits, role_words(said, query, (h.path for h in hits)), classes_of(ws))
    similar = synonym_stems(said, {stem(t) for t in terms}, excess(query))
    tier2 = _tier2_and_related(ws, hits, terms, spellings, similar, counter, remaining)
    total = counter.count_blocks([(tier1_text, tier1_tokens), (tier2.text, tier2.tokens)])
    while total > budget and tier2.files:  # a tokenizer may count a join differently: shrink
        remaining -= total - budget
        tier2 = _tier2_and_related(ws, hits, terms, spellings, similar, counter, remaining)
        total = counter.count_blocks([(tier1_text, tier1_tokens), (tier2.text, tier2.tokens)])
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
        note="",
    )


def _others_line(projects: list[ProjectIndex], named: int, counter: TokenCounter, room: int) -> str:
    """The line that says tier 1 describes one project of several, naming the others when that
    fits in `room` tokens ("" when not even the first part does)."""
    name = projects[named].prefix.rstrip("/")
    others = ", ".join(p.prefix.rstrip("/") for i, p in enumerate(projects) if i != named)
    short = f"(the task names {name}, one of {len(projects)} projects here"
    for line in (f"{short}; the others: {others})", f"{short})"):
        if counter.count(line) <= room:
            return line
    return ""


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
    rendered = (fitted_overview(o, counter, per_project) for o in overviews)
    overview = "\n".join(t for t in rendered if t)
    used = counter.count(overview) + 2 if overview else 0
    tree_text = render_tree(tree, counter, share - used, task=True)
    return "\n\n".join(p for p in (overview, tree_text) if p)


def _tier2_and_related(
    ws: Workspace,
    hits: list[Hit],
    terms: list[str],
    spellings: dict[str, str],
    similar: dict[str, tuple[str, str]],
    counter: TokenCounter,
    budget: int,
) -> Tier2:
    """The ranked files in all but RELATED_SHARE of the budget, then, in what is left, the files one
    reference from the best of them (`related`), a line each, the first with their declarations.
    When those need less than their share (a small project), the ranked files are laid out again
    with the rest."""
    reserve = int(budget * RELATED_SHARE)
    reasons = Reasons(shown_words(terms, spellings), similar)  # worked out once for every layout
    tier2 = _tier2(ws, hits, reasons, counter, budget - reserve)
    if not tier2.files:
        return tier2
    head = counter.count(RELATED_HEADER) + 1
    leads = [f.path for f in tier2.files[:RELATED_LEADS]]
    stems = frozenset(stem(t) for t in terms)
    candidates = related_files(ws, leads, {f.path for f in tier2.files}, hits, stems)
    lines = _related_lines(ws, candidates, stems, counter, reserve - head)
    need = head + sum(cost for *_, cost in lines) if lines else 0
    if need < reserve:  # every candidate was counted and fits: the ranked files take the rest
        # each with the share it had (`shares`): a larger one let a file's fuller rendering take
        # the room of the files after it (held-out 8,000 outlined 0.858 -> 0.868, session 50)
        tier2 = _tier2(ws, hits, reasons, counter, budget - need, budget - reserve)
        shown = {f.path for f in tier2.files}
        if [f.path for f in tier2.files[:RELATED_LEADS]] == leads:  # the same neighbours, fewer unshown
            candidates = [c for c in candidates if c[0] not in shown]
        else:
            candidates = related_files(ws, [f.path for f in tier2.files[:RELATED_LEADS]], shown, hits, stems)
        lines = _related_lines(ws, candidates, stems, counter, budget - tier2.tokens - head)
    left = budget - (head + sum(cost for *_, cost in lines) if lines else 0)
    tier2 = _filled(ws, hits, reasons, counter, tier2, left)
    if not lines:
        return tier2
    scores = {h.path: h.score for h in hits}
    text, entries = [tier2.text, RELATED_HEADER], list(tier2.files)
    counts, used = [tier2.tokens, head - 1], tier2.tokens + head
    for path, why, line, cost in lines:
        if used + cost > budget:
            break
        text.append(line)
        counts.append(cost - 1)
        entries.append(FileEntry(path=path, tokens=cost - 1, score=scores.get(path, 0.0), reason=RELATED_REASON + why))
        used += cost
    if len(text) == 2:
        return tier2
    return Tier2(text="\n".join(text), tokens=counter.count_joined(text, counts), files=entries)


def _filled(
    ws: Workspace,
    hits: list[Hit],
    reasons: Reasons,
    counter: TokenCounter,
    tier2: Tier2,
    room: int,
) -> Tier2:
    """The ranked files laid out again with larger shares when the pack shows every candidate and
    leaves FILL_LEFT of `room` (tier 2's, less the related lines') unused: the room goes to the
    outlines cut for their share (a scene past the third shown by its header alone) instead of
    staying blank. The shares are taken of `room` times the largest of FILL_GROWTH that the room
    would hold with every file grown so, then the next: the first layout still showing every
    file, none by less than it was, is kept. A layout costs a pack's time: one where it works."""
    shown = {f.path: f.tokens for f in tier2.files}
    if not tier2.files or hits[-1].path not in shown or room - tier2.tokens < FILL_LEFT:
        return tier2
    for grow in sorted((g for g in FILL_GROWTH if tier2.tokens * g <= room), reverse=True):
        fuller = _tier2(ws, hits, reasons, counter, room, int(room * grow))
        if len(fuller.files) == len(tier2.files) and all(f.tokens >= shown[f.path] for f in fuller.files):
            return fuller
    return tier2


def _related_lines(
    ws: Workspace, candidates: list[tuple[str, str]], stems: frozenset[str], counter: TokenCounter, room: int
) -> list[tuple[str, str, str, int]]:
    """(path, why, text, tokens with its newline) of the related files, in order, until they fill
    `room` (the first that does not fit ends the list); past the first RELATED_EXPLAINED, a line is
    the path alone."""
    out, used = [], 0
    outlined = room * RELATED_OUTLINED_SHARE
    for i, (path, why) in enumerate(candidates):
        line = f"{path}  ({why})" if i < RELATED_EXPLAINED else path
        cost = counter.count(line) + 1
        if i < RELATED_OUTLINED and used + cost < outlined:
            fuller = _related_outline(ws, path, line, stems, counter)
            more = counter.count(fuller) + 1
            if used + more <= outlined:
                line, cost = fuller, more
        used += cost
        out.append((path, why, line, cost))
        if used >= room:
            break
    return out


def _related_outline(ws: Workspace, path: str, line: str, stems: frozenset[str], counter: TokenCounter) -> str:
    """A related file's line with its compact outline cut to RELATED_OUTLINE_ROOM tokens, indented
    under it, without the namespace (its path says as much) or a binary file's note; the line alone
    when nothing fits or what fits only counts what was left out (`… 4 more objects`)."""
    owner = ws.owner(path, refresh=False)
    if owner is None:
        return line
    project, local = owner
    view = file_view(project, local)
    if view is None or not view.outline:
        return line
    kept = [(x, w) for x, w in zip(*weighted(view, project.graph, stems), strict=True) if w >= 0 and x != view.note]
    if not kept or any("\n" in x for x, _ in kept):
        return line
    lines, weights = [prefixed(x, project.prefix) for x, _ in kept], [w for _, w in kept]
    room = RELATED_OUTLINE_ROOM + counter.count(line)
    cut = cut_lines([line], lines, weights, room, counter, ordered=view.members is None)
    if cut is None or all(x.lstrip().startswith("…") for x in cut[1:]):
        return line
    return "\n".join([line, *("  " + x for x in cut[1:])])


def _tier2(
    ws: Workspace,
    hits: list[Hit],
    reasons: Reasons,
    counter: TokenCounter,
    budget: int,
    shares: int = 0,
) -> Tier2:
    """The ranked files, each as the largest rendering that fits; `reasons` the task's words a
    file may hold (`shown_words`) and the synonyms it may have been found through, `shares` the
    room each file's share is of (`budget` when 0)."""
    header = "## Files for this task"
    if budget <= counter.count(header) + 1 or not hits:
        return Tier2(text="", tokens=0, files=[])
    pieces, used = [header], counter.count(header)
    counts = [used]  # each piece's tokens: the text's are worked out from them (`count_joined`)
    entries: list[FileEntry] = []
    by_stem = reasons.by_stem
    stems, frozen = set(by_stem), frozenset(by_stem)
    fielded = stems | {stem(n) for n in qualities(by_stem.values())}  # the fields a task names, "faster": speed
    outlined = 0  # scenes and prefabs shown with more than their header line
    for hit in hits:
        lead = len(entries) < LEAD_FILES
        cap, cut = _shares(hit.kind, lead, outlined, shares or budget)
        if budget - used < 4:  # not even a header line fits any more
            break
        owner = ws.owner(hit.path, refresh=False)
        if owner is None or _header_over(hit, owner[0], counter, budget - used):
            continue
        project, local = owner
        read = project.texts.get(local)
        reason, in_text = reasons.of(hit.path, project, local, read)
        reason = reason or ranked_reason(hit.reason)
        if hit.name:  # the field holding a value the task says (rank: named so, unnamed otherwise)
            reason += f"; holds {hit.snippet} at L{hit.line}"
        head = f"### {hit.path}  ({hit.kind}; {reason})"
        first = len(entries) < SOUGHT_FILES
        looked_for = _sought(project, local, head, read, (in_text, frozen), counter, (min(cap, budget - used), first))
        room = (min(cut, budget - used) - 1, counter)
        shown_for = fielded | {stem(hit.name)} if hit.name else fielded  # the object holding the field too
        extras = _lead_extras(project, local, fielded, read) if lead and hit.kind == "csharp" else ((), frozenset())
        for lines in _placed(project, renderings(head, project, local, read, shown_for, looked_for, room, *extras)):
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
                counts.append(cost - 1 if counter.splits_into(rendering, lines) else counter.count(rendering))
                entries.append(FileEntry(path=hit.path, tokens=counts[-1], score=hit.score, reason=reason))
                outlined += hit.kind in HIERARCHY_FILE_KINDS and len(lines) > 1
                break
    if not entries:
        return Tier2(text="", tokens=0, files=[])
    return Tier2(text="\n".join(pieces), tokens=counter.count_joined(pieces, counts), files=entries)


def _header_over(hit: Hit, project: ProjectIndex, counter: TokenCounter, room: int) -> bool:
    """Whether not even a file's header line, the first of every rendering, fits in `room` (a pack's
    last hits), told from how that line starts (`TokenCounter.start_over`) before the file's text is
    read and its view made. Not told where a project of several places the paths its lines name."""
    start = f"### {hit.path}  ({hit.kind}"
    return not project.prefix and room <= len(start) and counter.start_over(start, room - 1)


def _lead_extras(
    project: ProjectIndex, local: str, stems: set[str], read: FileText
) -> tuple[list[str], frozenset[str]]:
    """What a lead script shows beyond its outline: the values assets hold for the fields the task
    names (`serialized.pack_values`), and the member whose body does what the task says
    (`search.doer`), whether or not its name holds the task's words."""
    outline = outlines_of(project, [local]).get(local)
    name = doer(outline, stems, read) if outline is not None else None
    return pack_values(project, local, stems), frozenset({name}) if name else frozenset()


def _sought(
    project: ProjectIndex,
    local: str,
    head: str,
    read: FileText,
    stems: tuple[set[str], frozenset[str]],
    counter: TokenCounter,
    room: tuple[int, bool],
) -> frozenset[str]:
    """The stems whose matching lines a file's renderings look for: of the task's (`stems`: those
    its lower-cased text holds, and all of them) those its text holds, all when its lower-cased
    form does not line up with it. When its whole outline may not fit in its room (`room`: the
    tokens, and whether it is among the pack's first SOUGHT_FILES), by the lower bound `_tier2`
    rejects a rendering by: none past the first files, and of a first file those no name it
    declares holds (the lines shown beside a cut of its outline, `views.beside_matched`). Finding
    them is the largest cost of a pack on a big project."""
    in_text, every = stems
    found = (frozenset(in_text) if len(read.low) == len(read.text) else every) - ACCESSOR_STEMS
    view = file_view(project, local)
    limit, first = room
    if view is not None and view.outline and counter.at_least_lines([head, *view.outline]) + 1 > limit:
        return frozenset(s for s in found if s not in view.lowered) if first else frozenset()
    return found


def _placed(project: ProjectIndex, shown: Iterable[list[str]]) -> Iterator[list[str]]:
    """A file's renderings with the paths their lines name placed in the workspace (`prefixed`)."""
    for lines in shown:
        yield [prefixed(x, project.prefix) for x in lines] if project.prefix else lines


def _shares(kind: str, lead: bool, outlined: int, budget: int) -> tuple[int, int]:
    """A file's share of tier 2 and the room of its outline cut to the task: a lead file's fifth
    and all of it; another's 6% (FILE_FLOOR at least) and CUT_SHARE of it; a scene or prefab past
    the third shown in outline half that share, and HALVED_CUT_SHARE of the half."""
    cap = max(int(budget * (LEAD_SHARE if lead else FILE_SHARE)), FILE_FLOOR)
    if kind in HIERARCHY_FILE_KINDS and outlined >= HIERARCHY_OUTLINES:
        cap = int(cap * CUT_SHARE)
        return cap, int(cap * HALVED_CUT_SHARE)
    return cap, cap if lead else int(cap * CUT_SHARE)
