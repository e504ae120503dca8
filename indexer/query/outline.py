"""Readable outlines of indexed files, shared by `describe`, context packs and the MCP adapter.

An outline is a list of lines, most important first within each block, so a caller that must fit a
budget can cut it. The compact form (context packs) keeps the declarations and only the members
whose names match `stems`, the stems of the query's words.
"""

from __future__ import annotations

import re
from collections import defaultdict

import msgspec

from indexer.identifiers import name_stems
from indexer.model import CALL_TARGET, CONFLICT_NOTE, HIERARCHY_KINDS, TYPE_KINDS, CodeOutline, FileRecord, Symbol
from indexer.project import file_title
from indexer.query.alike import fold_alike, folded_into
from indexer.query.calls import call_text
from indexer.query.component_fields import ComponentFields, component_flags
from indexer.query.event_triggers import trigger_named
from indexer.query.graph import Graph
from indexer.query.instances import (
    editor_name,
    instance_named,
    renamed_in_value,
    renamed_instances,
    unnamed_instances,
    unnamed_title,
)
from indexer.query.left_out import gap_in
from indexer.query.override_calls import set_calls
from indexer.query.placed import placed_overrides, placed_runs
from indexer.query.priors import ArtPrefabs
from indexer.query.references import outside, references_part
from indexer.query.script_labels import component_label
from indexer.query.unshown import unshown_line
from indexer.shown import path_shown
from indexer.unity import is_unity_message

MATCHED_OBJECTS = 6  # the compact form of a scene or prefab shows at most this many objects the task names


TREE_DEPTH = 60  # the deepest level of objects describe shows (deeper ones are counted)


def matches(name: str, stems: set[str]) -> bool:
    return not stems.isdisjoint(name_stems(name))


def outline(rec: FileRecord, graph: Graph, stems: set[str] | None = None, compact: bool = False) -> list[str]:
    """The outline of any file kind; `compact` keeps declarations and what matches `stems`."""
    return render_parts(outline_parts(rec, graph), graph, (stems or set()) if compact else None)


class Joined(msgspec.Struct, frozen=True):
    """An outline line joining pieces, each shown in the compact form only when its name matches
    the query's stems (all of them when `gate` does): a prefab instance's overrides, a
    component's fields. At most `cap` pieces are shown; `more` says how many were left out."""

    prefix: str
    # (the name matched, the piece as recorded): made readable only when shown (a prefab
    # instance may hold hundreds of overrides, of which eight are shown)
    items: tuple[tuple[str, str], ...]
    cap: int
    more: bool = False
    gate: str | None = None
    hidden: int = 0  # pieces the index left out (`left_out`), counted in `more` too


class Section(msgspec.Struct, frozen=True):
    """A titled list (a scene's UnityEvent calls, a file's references): the compact form keeps the
    lines whose names match the query's stems, and the title only above them."""

    title: str
    lines: tuple[tuple[str, str], ...]  # (line, the name matched)


class Node(msgspec.Struct, frozen=True):
    """One object of a scene's or prefab's hierarchy: its line, then its overrides, components and
    their fields (`body`). The compact form keeps an object the task names, by its own name, a
    component's or a field's, with the objects above it, and counts the objects it leaves out."""

    depth: int
    head: str
    names: tuple[str, ...]  # the object's name (and its prefab's) and its components' classes
    body: tuple[tuple[str, None] | Joined, ...]
    key: bool = False  # it carries a project script or places a prefab (`folding.folded_lines`)
    folded: int = 0  # a line standing for sibling copies of the object before it: how many objects (`alike`)


class Hierarchy(msgspec.Struct, frozen=True):
    """A scene's or prefab's objects, in the order of the tree (each after its parent)."""

    nodes: tuple[Node, ...]


# One line of an outline before it is cut to a query: (text, None) always shown, (text, name)
# shown in the compact form when the name matches, a line of joined pieces, a titled list, or a
# hierarchy of objects.
Part = tuple[str, str | None] | Joined | Section | Hierarchy


def outline_parts(rec: FileRecord | CodeOutline, graph: Graph) -> list[Part]:
    """A file's outline with what the compact form of any query needs: made once, cut per query
    by `render_parts` without the record or the graph."""
    if rec.kind == "csharp":
        return list(csharp_lines(rec, graph))
    if any(s.kind in HIERARCHY_KINDS for s in rec.symbols):
        return hierarchy_parts(rec, graph)
    from indexer.query.asset_outline import asset_parts  # it reads this module's shared parts

    return asset_parts(rec, graph)


def render_parts(parts: list[Part] | tuple[Part, ...], graph: Graph, stems: set[str] | None) -> list[str]:
    """The outline's lines: in full (`stems` None), or compact, cut to what matches `stems`."""
    out: list[str] = []
    for part in parts:
        if isinstance(part, Joined):
            line = _joined_line(part, graph, stems)
            if line is not None:
                out.append(line)
        elif isinstance(part, Hierarchy):
            out.extend(_hierarchy_lines(part.nodes, graph, stems))
        elif isinstance(part, Section):
            kept = [line for line, name in part.lines if stems is None or matches(name, stems)]
            if kept:
                out += [part.title, *kept]
        elif stems is None or part[1] is None or matches(part[1], stems):
            out.append(part[0])
    return out


def _joined_line(part: Joined, graph: Graph, stems: set[str] | None) -> str | None:
    """The line of a Joined part, cut to the pieces matching `stems` unless its gate matches;
    None when no piece is left."""
    items = part.items
    if stems is not None and not (part.gate is not None and matches(part.gate, stems)):
        items = tuple(i for i in items if matches(i[0], stems))
    if not items:
        return None
    extra = max(len(items) - part.cap, 0) + part.hidden
    more = f"; … {extra} more" if part.more and extra else ""
    shown = (short(graph.readable(t)) for _, t in _capped(items, part.cap, stems))
    return part.prefix + "; ".join(shown) + more


def _capped(items: tuple[tuple[str, str], ...], cap: int, stems: set[str] | None) -> tuple[tuple[str, str], ...]:
    """The first `cap` pieces, those the task names first (in their order): a cannon's component
    named by "cannon" showed twelve fields its base classes declare and `… 28 more`, not the
    `fireDelay: 5` that "how often does the cannon fire" asks about."""
    if stems is None or len(items) <= cap:
        return items[:cap]
    named = [i for i, (name, _) in enumerate(items) if matches(name, stems)][:cap]
    rest = [i for i in range(len(items)) if i not in named][: cap - len(named)]
    return tuple(items[i] for i in sorted((*named, *rest)))


def _hierarchy_lines(nodes: tuple[Node, ...], graph: Graph, stems: set[str] | None) -> list[str]:
    """Every object in full (`stems` None); else the MATCHED_OBJECTS objects that name the most of
    the task's words (by their own name, a component's class or a field's name; of equal
    counts, the first), each with its components and the fields that match (all of a component
    whose class does), the objects above them by their line alone, and a prefab's root with its
    components; each run of objects left out is counted (`… 12 more objects`)."""
    if stems is None:
        return [line for n in nodes for line in (n.head, *render_parts(n.body, graph, None))]
    chosen = _chosen(nodes, stems)
    root = 0 if sum(n.depth == 0 for n in nodes) == 1 else None  # a prefab's: what the prefab is
    kept: dict[int, list[str]] = {}
    above: list[int] = []  # the objects above this one, nearest last
    into = folded_into(nodes)
    for i, n in enumerate(nodes):
        while above and nodes[above[-1]].depth >= n.depth:
            above.pop()
        if into.get(i, -1) in kept:  # copies of a shown object: said with it
            kept[i] = [n.head]
        elif i in chosen or i == root:
            kept[i] = [n.head, *render_parts(n.body, graph, stems)]
            for a in above:  # (a root has none)
                kept.setdefault(a, [nodes[a].head])
        above.append(i)
    out: list[str] = []
    skipped, depth = 0, 0
    for i, n in enumerate(nodes):
        if i not in kept:
            depth = n.depth if not skipped else min(depth, n.depth)
            skipped += n.folded or 1
            continue
        if skipped:
            out.append(_more_objects(skipped, depth))
            skipped = 0
        out += kept[i]
    if skipped:
        out.append(_more_objects(skipped, depth))
    return out


def _chosen(nodes: tuple[Node, ...], stems: set[str]) -> set[int]:
    """The MATCHED_OBJECTS objects naming the most of the task's words (of equal counts, the
    first); a line standing for copies (`alike`) is shown with its first, never for itself."""
    found = []
    for i, n in enumerate(nodes):
        if n.folded:
            continue
        named = {s for name in n.names for s in stems.intersection(name_stems(name))}
        for p in n.body:
            if isinstance(p, Joined):
                named.update(s for item, _ in p.items for s in stems.intersection(name_stems(item)))
        if named:
            found.append((-len(named), i))
    return {i for _, i in sorted(found)[:MATCHED_OBJECTS]}


def _more_objects(count: int, depth: int) -> str:
    return f"{'  ' * depth}… {count} more object{'s' if count > 1 else ''}"


def csharp_lines(rec: FileRecord | CodeOutline, graph: Graph) -> list[tuple[str, str | None]]:
    """A C# file's outline lines, each with the member it shows (None for the namespace, types and
    notes): the compact form follows from them without decoding the record again."""
    lines: list[tuple[str, str | None]] = []
    if rec.namespaces:
        lines.append(("namespace " + ", ".join(rec.namespaces), None))
    roles: dict[str, str] = {}
    categories = graph.records.categories_of(rec.path)
    for s, depth in _nested(rec.symbols):  # most symbols are members without attributes: the short way first
        kind = s.kind
        pad = "  " * depth
        if kind in TYPE_KINDS:
            category = roles.setdefault(s.qualified, categories.get(s.qualified) or kind)
            role = f"  [{category}]" if category not in (kind, "class") else ""
            attrs = "".join(f"[{a}] " for a in s.attributes)
            lines.append((f"{pad}L{s.line} {attrs}{s.signature or kind + ' ' + s.name}{role}", None))
            continue
        if s.attributes:
            attrs = "".join(f"[{_attribute(a)}] " for a in s.attributes if len(a) < 60 or not a.startswith(_DISPLAY))
            text = f"{pad}L{s.line} {attrs}{s.signature or s.name}"
        else:
            text = f"{pad}L{s.line} {s.signature or s.name}"
        if kind == "method" and is_unity_message(s.name, roles.get(s.container), s.signature):
            text += "  [unity message]"
        lines.append((text, s.name))
    if rec.status == "partial" and rec.note.startswith(CONFLICT_NOTE):
        lines.append((f"{CONFLICTED}{error_lines_of(rec)}: both sides shown)", None))
    elif rec.status == "partial":
        lines.append((f"{SYNTAX_ERRORS}{error_lines_of(rec)})", None))
    return lines


# What an attribute only shows in the Inspector: long ones (a tooltip's sentence) are left out
_DISPLAY = ("Tooltip", "Header", "TextArea", "Multiline", "ContextMenuItem", "InspectorName", "HelpURL")


def _attribute(text: str) -> str:
    """A long attribute by its name: dropped, a `[SyncVar(hook = ...)]` field read as not synced."""
    return text if len(text) < 60 else text.split("(", 1)[0] + "(…)"


SYNTAX_ERRORS, CONFLICTED = "(parsed with syntax errors near lines ", "(merge conflict markers near lines "


def error_lines_of(rec: FileRecord | CodeOutline) -> str:
    """The first lines of a script's syntax error regions, as its outline names them."""
    return ", ".join(map(str, rec.error_lines[:8]))


def _nested(symbols: tuple[Symbol, ...]) -> list[tuple[Symbol, int]]:
    """The symbols (in line order) as the code nests them, each with its depth: a type, then its
    members and the types declared in it, by line; a member under the last declaration of its
    type above it (an outer type's member after a nested type is the outer's, shown so)."""
    last: dict[str, int] = {}  # a type's qualified name -> its last declaration met
    children: dict[int, list[int]] = {-1: []}
    for i, s in enumerate(symbols):
        children[last.get(s.container, -1)].append(i)  # a type's list is made where it is met
        if s.kind in TYPE_KINDS:
            last[s.qualified] = i
            children[i] = []
    out: list[tuple[Symbol, int]] = []
    todo = [(iter(children[-1]), 0)]  # the lists being walked, each where it stopped, and their depth
    while todo:
        walked, depth = todo[-1]
        for i in walked:
            out.append((symbols[i], depth))
            if kids := children.get(i):  # a type's members first, then the rest of this list
                todo.append((iter(kids), depth + 1))
                break
        else:
            todo.pop()
    return out


class _Tree(msgspec.Struct):
    """A scene's or prefab's symbols arranged as its hierarchy: objects by path, their children,
    components, script fields and prefab overrides."""

    nodes: dict[str, Symbol]
    children: dict[str, list[str]]
    components: dict[str, list[Symbol]]
    fields: dict[str, list[Symbol]]
    overrides: dict[str, list[Symbol]]
    removed: dict[int, list[str]]  # a prefab instance's line -> the fileIDs of components it removes
    file: str = ""  # the scene's or prefab's path


def _tree(rec: FileRecord, renamed: dict[str, str]) -> _Tree:
    """`renamed`: instances the scanner named by a child's rename, whose objects the values of
    fields and overrides name by the editor's name (`instances.renamed_in_value`)."""
    t = _Tree(
        {}, defaultdict(list), defaultdict(list), defaultdict(list), defaultdict(list), defaultdict(list), rec.path
    )
    for r in rec.refs:
        if r.kind == "removed":
            t.removed[r.line].append(r.context)
    unnamed = unnamed_instances(rec)
    for s in rec.symbols:
        if s.kind in HIERARCHY_KINDS:
            # an unnamed prefab instance is keyed as what it holds names it, else by its line
            name = s.name or f"&L{s.line}"
            path = unnamed.get(s.line) or (f"{s.container}/{name}" if s.container else name)
            if path not in t.nodes:
                t.nodes[path] = s
                t.children[s.container].append(path)
        elif s.kind == "component":
            t.components[s.container].append(s)
        elif s.kind == "field":
            t.fields[s.detail].append(_renamed(s, renamed))
        elif s.kind == "override":
            t.overrides[s.container].append(_renamed(s, renamed))
    return t


def _renamed(s: Symbol, renamed: dict[str, str]) -> Symbol:
    said = renamed_in_value(s.signature, renamed) if renamed else s.signature
    return s if said == s.signature else msgspec.structs.replace(s, signature=said)


def hierarchy_parts(rec: FileRecord, graph: Graph) -> list[Part]:
    """Scenes and prefabs: the GameObject tree, each object with its components and the fields of
    its scripts; prefab instances with their source; then UnityEvent calls and other references."""
    tree = _tree(rec, renamed_instances(rec, graph.targets.source))
    lines: list[Part] = []
    variant = next((s for s in rec.symbols if s.kind == "prefab_instance" and s.signature == "variant base"), None)
    if variant is not None:
        lines.append(
            (f"Prefab variant of {graph.path_of_guid(variant.detail) or outside(variant.detail, graph)}", None)
        )
    emitted: set[str] = set()
    nodes: list[Node] = []
    fields = ComponentFields(graph)
    placed = placed_runs(tree.nodes, tree.children, tree.components, tree.overrides, ArtPrefabs(graph))
    todo = [(root, 0) for root in reversed(tree.children.get("", []))]
    while todo:
        path, depth = todo.pop()
        if path in emitted or depth > TREE_DEPTH:  # (each line indented by its depth: the output stays small)
            continue
        emitted.update(placed.get(path, (path,)))
        nodes.append(
            _placed_node(tree, placed[path], depth, graph) if path in placed else _node(tree, path, depth, fields)
        )
        todo.extend((child, depth + 1) for child in reversed(tree.children.get(path, [])))
    if nodes:
        lines.append(Hierarchy(fold_alike(tuple(nodes))))
    if (unshown := unshown_line(tree.nodes, tree.children, emitted, TREE_DEPTH, rec.note)) is not None:
        lines.append((unshown, None))
    calls = [(r, r) for r in rec.refs if r.kind == "method"] + set_calls(graph, rec)
    lines_of = graph.file_lines(rec.path) if any(".callback(" in r.detail for r, _ in calls) else []
    events = tuple(
        _event_line(
            r.line,
            instance_named(
                trigger_named(lines_of, r.line, graph.readable(r.detail)), rec, graph.path_of_guid, graph.targets.source
            ),
            call_text(graph, call.target, r.detail),
        )
        for r, call in sorted(calls, key=lambda pair: pair[0].line)
    )
    if events:
        lines.append(Section("UnityEvent calls:", events))
    references = references_part(rec, graph, exclude=("method", "script", "prefab", "removed", CALL_TARGET))
    return lines + ([references] if references else [])


def _placed_node(tree: _Tree, run: tuple[str, ...], depth: int, graph: Graph) -> Node:
    """One line for instances of one prefab that are only placed (`placed.placed_runs`)."""
    first = tree.nodes[run[0]]
    source = graph.path_of_guid(first.detail) or outside(first.detail, graph)
    stem = unnamed_title(first.detail, source, graph.targets.source)
    # each by the name the editor shows: its root's rename, not a child's (`Detector(1)`); a second
    # sibling of one name keeps its mark (`Tree_1 #2`)
    shown = [(tree.nodes[p], editor_name(tree.nodes[p], tree.overrides.get(p, []), graph.targets.source)) for p in run]
    named = [n.name if not name or n.name.split(" #")[0] == name else name for n, name in shown]
    names = [name or stem for name in named]
    unique = list(dict.fromkeys(names))
    shown = ", ".join(unique[:4]) + (", …" if len(unique) > 4 else "")
    head = f"{'  ' * depth}{shown}  ({len(run)} instances of {source}, {placed_overrides(tree.overrides, run)})"
    return Node(depth, f"{head}  L{first.line}", tuple(unique), (), key=True)


def _event_line(line: int, caller: str, method: str) -> tuple[str, str]:
    """A UnityEvent call's line, and the names a task may match it by: the object and field that
    call, and the method called."""
    return f"  L{line} {caller} -> {method}", f"{caller} {method}"


def _node(tree: _Tree, path: str, depth: int, fields: ComponentFields) -> Node:
    """One object: its line, its overrides (a prefab instance), its components and their fields."""
    pad, graph = "  " * depth, fields.graph
    s = tree.nodes[path]
    name = s.name or "(unnamed)"
    body: list[tuple[str, None] | Joined] = []
    names = [name]
    if s.kind == "prefab_instance":
        found = graph.path_of_guid(s.detail)
        source = found or outside(s.detail, graph)  # a missing prefab said so, as a missing script is
        names.append(file_title(found) if found else f"guid:{s.detail}")  # as its prefab
        if not s.name:  # as Unity shows it: its source's root's name
            name = unnamed_title(s.detail, found, fields.targets.source) if found else names[-1]
            names += [name] if name != names[-1] else []
        elif (shown := editor_name(s, tree.overrides.get(path, []), fields.targets.source)) is not None:
            name = shown  # its `m_Name` override renames a child (listed with its overrides)
        off = "  [inactive]" if _root_off(tree.overrides.get(path, []), fields.targets.source(s.detail)) else ""
        head = f"{pad}{name}  (prefab instance of {source}){off}  L{s.line}"
        if shown := fields.targets.pieces(source, tree.overrides.get(path, [])):
            body.append(Joined(f"{pad}  overrides: ", shown, 8, more=True))
        if gone := fields.targets.removed(
            found or "", tree.removed.get(s.line, []), lambda c: component_label(graph, c)
        ):
            body.append(Joined(f"{pad}  removed components: ", tuple((n, n) for n in gone), 8, more=True))
    else:
        flags = ", ".join(x for x in (s.signature, s.detail) if x)
        head = f"{pad}{name}{f'  [{flags}]' if flags else ''}  L{s.line}"
    comps = tree.components.get(path, [])
    classes = [component_label(graph, c) for c in comps]
    if comps:  # on a prefab instance these are components added to it
        added = "added components" if s.kind == "prefab_instance" else "components"
        labels = [label + component_flags(c, path, graph) for c, label in zip(comps, classes, strict=True)]
        body.append((f"{pad}  {added}: " + ", ".join(labels), None))
    for c in comps:
        part = _fields_part(c, tree.fields.get(c.type, []), fields, pad, tree.file)
        if part is not None:
            body.append(part)
    own = (p for c in comps if c.detail and (p := graph.path_of_guid(c.detail)))  # the project's scripts
    key = s.kind == "prefab_instance" or any(not fields.third_party(p) for p in own)
    return Node(depth, head, (*names, *classes), tuple(body), key)


def _root_off(overrides: list[Symbol], source: tuple[dict[str, str], str] | None) -> bool:
    """The instance's root switched off by an override, `m_IsActive: 0` on its source's root
    object: the scene's player not there until code calls `SetActive(true)`."""
    objects = source[0] if source else {}
    return any(o.signature == "m_IsActive: 0" and objects.get(o.detail) == "" for o in overrides)


def _fields_part(c: Symbol, fs: list[Symbol], shown: ComponentFields, pad: str, file: str) -> Joined | None:
    """A component's serialized fields: a project script's in full (up to 12), a package script's
    summarised (`component_fields`), counting those the index left out. The compact form keeps them
    all when the component's name matches, else those whose names do."""
    gap = gap_in(shown.graph, file, fs)
    if c.detail:
        fs = shown.shown(c.detail, fs)
    if not fs:
        return None
    label = component_label(shown.graph, c)
    items = tuple((f.name, f.signature) for f in fs)
    return Joined(f"{pad}    {label}: ", items, 12, more=True, gate=label, hidden=gap.count if gap else 0)


def status_line(rec: FileRecord) -> str:
    """The line a file read in part or skipped, with no symbols, is outlined by: its status and its
    note's first clause (the rest, how to have it read whole, is for `describe`'s header). A file
    read whole says nothing of its note (`1 documents` is not something to read)."""
    if rec.symbols or not rec.note or rec.status == "ok":
        return ""
    return f"{rec.status}: {rec.note.split(';')[0]}"


def short(text: str, limit: int = 100) -> str:
    """`text` in at most `limit` characters: a long path's middle folders left out first, so its file
    name stays (`Assets/…/BaseData/Schooler.asset`, where `…/BaseData/Schooler…` was cut), and an
    object's parents (`shown.path_shown`), then its end."""
    if len(text) <= limit:
        return text
    for m in _PROJECT_PATH.finditer(text):
        parts = m.group(0).split("/")
        for kept in range(len(parts) - 2, 0, -1):  # the most trailing folders that fit
            shorter = text[: m.start()] + "/".join([parts[0], "…", *parts[-kept:]]) + text[m.end() :]
            if len(shorter) <= limit or kept == 1:
                text = shorter
                break
        if len(text) <= limit:
            return text
    key, sep, value = text.partition(": ")  # `_coreStationUI: Level 1/…/UpgradeUI (CoreStationUI)`
    if sep and "/" in value and not _PROJECT_PATH.search(value) and len(key) + len(sep) < limit // 2:
        return key + sep + path_shown(value, limit - len(key) - len(sep))
    return text if len(text) <= limit else text[: limit - 1] + "…"


_PROJECT_PATH = re.compile(r"\b(?:Assets|Packages)/[^\s;,()]+/[^\s;,()/]+\.\w+")
