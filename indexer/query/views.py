"""What tier 2 shows of one file: its view (outline and members, kept per index generation) and
its renderings for a task, largest first, down to the compact outline cut to a room.

Split from `context.py`, which decides how much room each file gets; this decides what fits in it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence

import msgspec

from indexer.identifiers import NameText, name_stems
from indexer.model import CodeOutline, FileRecord
from indexer.query.graph import Graph
from indexer.query.list_items import ITEM_AT, MORE_ITEMS, narrowed
from indexer.query.outline import Part, csharp_lines, matches, outline_parts, render_parts, status_line
from indexer.query.textmatch import line_says, matched_lines_of
from indexer.query.texts import FileText
from indexer.query.tokens import TokenCounter
from indexer.query.workspace import ProjectIndex
from indexer.store.schema import TEXT_BODY_KINDS

MIN_LINE = 2  # tokens: a line and its newline cost two at least
# The attributes an outline line starts with after its line number (none nesting brackets).
_ATTRIBUTES = re.compile(r"^(\s*L\d+ )(?:\[[^\[\]]*\]\s*)+")


class FileView(msgspec.Struct, frozen=True):
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
    note: str = ""  # the status note the outline of a file read for its references only starts with


def file_view(project: ProjectIndex, local: str) -> FileView | None:
    return project.remember(("view", local), lambda: _make_view(project.records.outline_record(local), project.graph))


def _make_view(rec: FileRecord | CodeOutline | None, graph: Graph) -> FileView | None:
    if rec is None:
        return None
    declared = frozenset([s.line for s in rec.symbols])
    if not rec.symbols and (rec.kind == "csharp" or not rec.refs):
        return FileView(rec.kind, declared, ())
    lowered = "\n".join([s.name for s in rec.symbols]).lower()
    if rec.kind == "csharp":  # (a file with symbols has lines)
        outline, members = map(tuple, zip(*csharp_lines(rec, graph), strict=True))
        names = NameText([m or "" for m in members])
        fixed = tuple([i for i, m in enumerate(members) if m is None])
        flat = "\n" not in "".join(outline)
        return FileView(rec.kind, declared, outline, members, names, lowered, fixed=fixed, flat=flat)
    parts = tuple(outline_parts(rec, graph))
    outline = tuple(render_parts(parts, graph, None))
    flat = not any("\n" in t for t in outline)
    note = status_line(rec) if outline else ""
    return FileView(rec.kind, declared, outline, lowered=lowered, parts=parts, flat=flat, note=note)


def compact(view: FileView, graph: Graph, stems: set[str]) -> list[str]:
    """The compact form of a view: of a C# file its declarations and the members that match
    (`_compact_indexes`), of another `render_parts` cut to `stems`."""
    if view.members is None:
        return render_parts(view.parts, graph, stems)
    outline = view.outline
    return [outline[i] for i in _compact_indexes(view, stems)]


def _compact_indexes(view: FileView, stems: set[str], doers: frozenset[str] = frozenset()) -> list[int]:
    """The lines of a C# view's compact form, as indexes: the lines naming no member, the members
    the name scan lets through that match, and the `doers` (`search.doer`); a file of hundreds of
    members costs what the few that may match do, not a test of each."""
    members = view.members
    assert members is not None
    maybe = view.names.may_hold(stems) if view.names is not None else None
    if maybe is None:
        return [i for i, m in enumerate(members) if m is None or m in doers or matches(m, stems)]
    kept = [i for i in maybe if (m := members[i]) is not None and matches(m, stems)]
    kept += [i for i, m in enumerate(members) if m in doers] if doers else []
    return sorted({*view.fixed, *kept})


def weighted(
    view: FileView, graph: Graph, stems: set[str], doers: frozenset[str] = frozenset()
) -> tuple[list[str], list[float]]:
    """The compact form's lines, each with how much the task needs it: a C# type line and the
    member doing what the task says (`doers`) most, a member by the query stems its name holds,
    the namespace least (the path says as much); the lines of other kinds alike."""
    if view.members is None:
        lines = compact(view, graph, stems)
        return lines, _field_weights(lines, stems) if view.kind in FIELD_KINDS else [0] * len(lines)
    indexes = _compact_indexes(view, stems, doers)
    lines = [view.outline[i] for i in indexes]
    weights = [
        len(stems) + 1
        if (m := view.members[i]) in doers
        else len(stems.intersection(name_stems(m)))
        if m is not None
        else -1
        if line.startswith("namespace ")
        else len(stems) + 1
        for i, line in zip(indexes, lines, strict=True)
    ]
    return lines, weights


# Data assets: a list of fields under their object's line, each line standing alone (no title
# heads the lines after it but `references:`), so a cut keeps the fields the task names wherever
# they are: a long `m_LevelColorScheme` line ended the cut before `m_Cost`, the value asked about.
FIELD_KINDS = frozenset({"asset"})
_FIELD_KEY = re.compile(r"  L\d+ ([^:]+):")


def _field_weights(lines: list[str], stems: set[str]) -> list[float]:
    """An object's line most, a field by the query stems its key holds, each counting less the more
    of the fields hold it (of `m_LevelName`, `m_LevelRootPrefab` and `m_Cost`, "cost" says most of
    what a task about a level's cost asks), the references least. A list's items under their field
    weigh half as much as the one before (the first half the field's): a pack showed a level table
    as `Levels: [10 items]` and `… 2 more items`, no level's values; their count weighs least."""
    keys = [(k := _FIELD_KEY.match(line)) and stems.intersection(name_stems(k.group(1))) for line in lines]
    held = Counter(s for found in keys if found for s in found)
    weights: list[float] = []
    field = 0.0  # the weight of the field the lines below are items of
    for line, found in zip(lines, keys, strict=True):
        if found is not None:
            field = sum(1 / held[s] for s in found)
            weights.append(field)
        elif line == "references:":
            weights.append(-1)
        elif item := ITEM_AT.match(line):
            k = int(item.group(1))
            weights.append(field / 2 ** (k + 1) - k / 1000)  # (of a field no word names, in their order)
        else:
            weights.append(-3 if MORE_ITEMS.match(line) else -2 if line.startswith("  ") else len(stems) + 1)
    return weights


def cut_lines(
    head: list[str],
    lines: list[str],
    weights: Sequence[float],
    room: int,
    counter: TokenCounter,
    ordered: bool = False,
    titled: bool = False,
) -> list[str] | None:
    """The heaviest of `lines` (of equal weight, the earlier) that fit in `room` tokens after
    `head`, in their order, and a line counting those left out; None when none fits. A line too
    long for what is left is shown narrower when that fits (`_forms`), else passed
    over for lighter ones: a file whose outline is too long for its room shows what the task needs
    most of it, not its path alone, and a class line of three `[RequireComponent]`s does not keep
    out the field the task asks about. `ordered` lines (a scene's or prefab's, whose titles head
    the lines after them) end at the first that does not fit: `references:` alone says nothing, nor
    does it in `titled` lines (a data asset's fields, cut by weight)."""
    used = counter.bound_lines(head) + 1 + counter.count(_more_lines(len(lines)))
    chosen: dict[int, str] = {}
    for i in sorted(range(len(lines)), key=lambda i: (-weights[i], i)):
        if room - used < MIN_LINE:
            break
        for line in dict.fromkeys(_forms(lines[i])):
            cost = counter.count(line) + 1
            if used + cost <= room:
                used += cost
                chosen[i] = line
                break
        else:
            if ordered:
                break
    if ordered or titled:  # a title whose lines were all left out goes with them (a field `label: Score:` stays)
        while chosen and chosen[last := max(chosen)].endswith(":") and not (titled and _FIELD_KEY.match(chosen[last])):
            del chosen[last]
    if titled:  # `… 2 more items` says nothing after its field's line: more than which?
        kept = sorted(chosen)
        for before, i in zip([None, *kept], kept, strict=False):
            if MORE_ITEMS.match(chosen[i]) and (before is None or not ITEM_AT.match(chosen[before])):
                del chosen[i]
    if not chosen:
        return None
    left = len(lines) - len(chosen)
    return [*head, *(chosen[i] for i in sorted(chosen)), *([_more_lines(left)] if left else [])]


def _bare(line: str) -> str:
    """An outline line without the attributes before its declaration (`L22 [RequireComponent(...)]
    public class Mover` -> `L22 public class Mover`); the line itself when it has none."""
    return _ATTRIBUTES.sub(r"\1", line, count=1)


# A data asset's object line naming its script's class by its namespace and its file's path.
_SCRIPTED = re.compile(r"^(ScriptableObject [^:]+: )[\w.]+\.(\w+ \(.+\))$")


def _forms(line: str) -> list[str]:
    """The forms a cut may show a line in, widest first: itself, without its attributes (`_bare`),
    a list item's line with fewer of its values (`list_items.narrowed`); a data asset's object line
    only with its class without the namespace (its script's path says where it is): a level
    table's first level then fits beside its field's line in a file's share of a pack."""
    if m := _SCRIPTED.match(line):
        return [m.expand(r"\1\2")]
    return [line, _bare(line), *narrowed(line)]


def _more_lines(count: int) -> str:
    return f"… {count} more outline line{'s' if count > 1 else ''}"


def renderings(
    head: str,
    project: ProjectIndex,
    local: str,
    read: FileText,
    stems: set[str],
    frozen: frozenset[str],
    room: tuple[int, TokenCounter],
    values: Sequence[str] = (),
    doers: frozenset[str] = frozenset(),
) -> Iterator[list[str]]:
    """Largest first: full outline with matched lines, compact outline, the compact outline cut
    to `room` (tokens, and their counter), header line. Made one at a time: the caller stops at
    the first that fits. Each as the lines its text splits into: the view's own line strings
    (their counts are cached by them), joined only when one is kept. `values`
    (`serialized.pack_values`: a header and a line a value) come first: after the full and the
    compact outline, then all or their first beside a cut outline; the forms without them follow."""
    flat = "\n" not in head  # (a path, a kind and query words: it holds none)
    view = file_view(project, local)
    if view is None or not view.outline:
        matched = matched_lines_of(read, frozen)  # each cut at a newline
        if matched:
            yield _split([head, *matched], flat)
        yield _split([head], flat)
        return
    flat = flat and view.flat
    # Matched lines of Unity YAML are serialized state, not code: the outline says it better.
    matched = matched_lines_of(read, frozen, view.declared) if view.kind in TEXT_BODY_KINDS else []
    tail = ["matched lines:", *matched] if matched else []
    if values:  # the values first: a short outline beside them says more than a long one without
        if tail:
            yield _split([head, *view.outline, *values, *tail], flat)
        yield from _with_values(head, view, project.graph, stems, room, list(values), flat, doers)
    if tail:
        yield _split([head, *view.outline, *tail], flat)
    yield _split([head, *view.outline], flat)
    lines, weights = weighted(view, project.graph, stems, doers)
    if tail and view.members is not None and all("\n" not in line for line in (head, *lines)):
        # code: the compact outline cut beside its lines saying the task's words its names do not
        beside, heavier = beside_matched(lines, weights, matched, stems)
        if len(beside) > len(lines) and (cut := cut_lines([head], beside, heavier, *room)) is not None:
            yield cut
    if lines != list(view.outline):
        # a C# view's compact lines are some of its lines; another's are cut from its parts
        yield _split([head, *lines], flat and (view.members is not None or not any("\n" in c for c in lines)))
    if all("\n" not in line for line in (head, *lines)):  # a cut counts whole lines
        fields = view.kind in FIELD_KINDS
        cut = cut_lines([head], lines, weights, *room, ordered=view.members is None and not fields, titled=fields)
        if cut is not None:
            yield cut
    yield _split([head], flat)


_LINE_NO = re.compile(r"\s*L(\d+)")
_MATCHED_CODE = re.compile(r"\s*L(\d+): (?!//|/\*|\*)")  # a matched line, not of a comment


def beside_matched(
    lines: list[str], weights: list[float], matched: list[str], stems: set[str]
) -> tuple[list[str], list[float]]:
    """A C# file's compact outline with the matched lines of code saying a task's word none of its
    lines says, under the members holding them, in line order, to be cut by weight: such a line
    weighs one more than those words, each counting less the more of the lines say it, so
    `L283: CameraManager.Instance.ShakeCamera(0.3f)` outweighs the members named by "hit" (a damage
    script showed `ProcessHitParticles` and `ShowHitParticles`, not the line shaking the camera the
    task asked about); the member holding a line weighs as much as it. A line saying only what the
    outline says (`get => damage;` below `Damage { get; set; }`) would crowd out members."""
    numbers = [int(m.group(1)) if (m := _LINE_NO.match(line)) else 0 for line in lines]
    merged = list(zip(numbers, lines, weights, strict=True))
    members = [i for i, line in enumerate(lines) if line.startswith("  ") and numbers[i]]
    shown = {s for s in stems if any(line_says(line, s) for line in lines)}
    first = min((n for n in numbers if n), default=0)
    found = [(int(m.group(1)), line) for line in matched if (m := _MATCHED_CODE.match(line))]
    says = [{s for s in stems - shown if line_says(line, s)} for _, line in found]
    held = Counter(s for said in says for s in said)
    for (at, line), said in zip(found, says, strict=True):
        if not said or at < first:
            continue
        weight = 1 + sum(1 / held[s] for s in said)
        merged.append((at, "  " + line, weight))
        holder = max((i for i in members if numbers[i] <= at), key=lambda i: numbers[i], default=None)
        if holder is not None and merged[holder][2] < weight:
            merged[holder] = (numbers[holder], lines[holder], weight)
    merged.sort(key=lambda m: m[0])
    return [m[1] for m in merged], [m[2] for m in merged]


def _with_values(
    head: str,
    view: FileView,
    graph: Graph,
    stems: set[str],
    room: tuple[int, TokenCounter],
    values: list[str],
    flat: bool,
    doers: frozenset[str],
) -> Iterator[list[str]]:
    """A C# file's renderings with the values assets hold for its fields: the full outline, the
    compact one, then a cut of it beside all the values or their first."""
    yield _split([head, *view.outline, *values], flat)
    lines, weights = weighted(view, graph, stems, doers)
    if lines != list(view.outline):
        yield _split([head, *lines, *values], flat)
    if all("\n" not in line for line in (head, *lines)):
        tokens, counter = room
        for shown in (values, values[:2]):
            cut = cut_lines([head], lines, weights, tokens - counter.bound_lines(shown) - 1, counter)
            if cut is not None:
                yield [*cut, *shown]


def _split(lines: list[str], flat: bool) -> list[str]:
    """The lines `"\n".join(lines)` splits into: `lines` themselves when none holds a newline."""
    return lines if flat else "\n".join(lines).split("\n")
