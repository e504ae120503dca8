"""The project's class hierarchy, as a member's usages need it: the type along a base chain that
declares a member, the base classes an override replaces (code calls a virtual method through a
variable of the base), and every type deriving from one."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.model import FileRecord, Symbol, Target, TypeRow
from indexer.query.unity_members import EVENT_CALLABLE, PROPERTIES, ROOTS, inherits, unity_member
from indexer.unity import bare_type_name

if TYPE_CHECKING:
    from indexer.query.graph import Graph


_MEMO = "_type_tree_records"  # kept in the graph's dict (one index state), as calls.py does
_MEMO_SIZE = 512
_DECLARERS = "_type_tree_declarers"  # (type, member) -> the type declaring it, for one index state
_DECLARERS_SIZE = 100_000


def _record(graph: Graph, path: str) -> FileRecord | None:
    """A file's record, decoded once while the walks of one answer visit its types: a file of
    2,000 classes deriving from one base was decoded once a class visited, 38 s for one `refs`."""
    known: dict[str, FileRecord | None] = graph.__dict__.setdefault(_MEMO, {})
    if path in known:
        return known[path]
    if len(known) >= _MEMO_SIZE:  # a long-lived server's graph: bounded
        known.clear()
    rec = known[path] = graph.records.record(path)
    return rec


def _members(graph: Graph, path: str) -> dict[tuple[str, str], list[Symbol]]:
    """A file's symbols by (container, name), once an answer: asked of each of a family's types."""
    key = f"members:{path}"
    known: dict = graph.__dict__.setdefault(_MEMO, {})
    if key in known:
        return known[key]
    out: dict[tuple[str, str], list[Symbol]] = {}
    for sym in rec.symbols if (rec := _record(graph, path)) is not None else ():
        out.setdefault((sym.container, sym.name), []).append(sym)
    known[key] = out
    return out


def declarer_of(graph: Graph, qualified: str, member: str) -> str | None:
    """The first type up the base chain of `qualified` (itself first) that declares `member`.
    Remembered for each type of a single-base stretch walked (each has the answer of the type it
    derives from): asking each type of a chain 3,000 deep walked it again, `refs` 12 s."""
    known: dict[tuple[str, str], str | None] = graph.__dict__.setdefault(_DECLARERS, {})
    path: list[str] = []
    q: str = qualified
    while (q, member) not in known and q not in path:
        path.append(q)
        declares, bases = _declares(graph, q, member)
        if declares or len(bases) != 1:
            found = q if declares else _declarer_above(graph, q, member)
            break
        q = bases[0]
    else:  # at a type answered before, or round a cycle declaring nowhere
        found = known.get((q, member))
    if len(known) >= _DECLARERS_SIZE:  # a long-lived server's graph: bounded
        known.clear()
    known.update(((p, member), found) for p in path)
    return found


def _declares(graph: Graph, qualified: str, member: str) -> tuple[bool, list[str]]:
    """Whether a declaration of `qualified` declares `member`, and the project types it derives from."""
    declares, bases = False, []
    for t in _declared(graph, qualified):
        if (rec := _record(graph, t.path)) is not None:
            declares = declares or any(m.name == member and m.container == qualified for m in rec.symbols)
            bases += [b.qualified for base in t.bases for b in graph.resolve_type_ref(base, rec)]
    return declares, bases


def _declarer_above(graph: Graph, qualified: str, member: str) -> str | None:
    """`declarer_of` breadth first, for a type of several bases (a class and its interfaces)."""
    seen: set[str] = set()
    todo = [qualified]
    while todo:
        q = todo.pop(0)
        if q in seen:
            continue
        seen.add(q)
        for t in _declared(graph, q):
            rec = _record(graph, t.path)
            if rec is None:
                continue
            if any(m.name == member and m.container == q for m in rec.symbols):
                return q
            for base in t.bases:
                todo.extend(b.qualified for b in graph.resolve_type_ref(base, rec))
    return None


def overridden(graph: Graph, qualified: str, member: str) -> set[str]:
    """The base classes above `qualified` that declare `member` too and whose member it overrides
    (`override`): the virtual method an override replaces, which code calls through a variable of
    the base class. A member declared anew (`new`, or without `override`) replaces none: a call
    through the base runs the base's. An interface's member is implemented whatever the modifiers."""
    out: set[str] = set()
    todo = [(base, qualified) for base in bases_of(graph, qualified)]
    while todo:
        q, below = todo.pop()
        declarer = declarer_of(graph, q, member)
        if declarer is None or declarer in out or declarer == qualified:
            continue
        if not _is_interface(graph, declarer) and _declares_anew(graph, below, member):
            continue
        out.add(declarer)
        todo.extend((base, declarer) for base in bases_of(graph, declarer))
    return out


def member_family(graph: Graph, declarer: str, member: str, asked: str | None = None) -> set[str]:
    """The types a usage of the member declared by `declarer` may be on: it and the types deriving
    from it, less a class declaring the member anew (`public new void Attack()`) and the types below
    that one, whose `Attack` is its own (an interface's implementers all implement it). A static
    member of a generic base asked of a class below it (`PlayerController.Instance` of
    `SingletonMono<T>`) is that class's own, each `T` having its own: the family is the class
    `asked` and the types below it, with the declarer (whose code sets it). Any other member asked of
    a class below its declarer is that class's, its subclasses' and its bases' up to the declarer."""
    top = declarer
    if asked is not None and asked != declarer and _static_of_generic(graph, declarer, member):
        top = asked
    elif asked is not None and asked != declarer and asked in (whole := member_family(graph, declarer, member)):
        # inherited, asked of a class below the declarer: its own and its subclasses', and through the
        # classes between (a base-typed call may be on it); not a sibling's (`RockHealth.TakeDamage`
        # listed `EnemyHealth`'s calls)
        below, above = descendants(graph, asked), ancestors(graph, asked)
        return {q for q in whole if q in below or q in above}
    family = descendants(graph, top)
    if len(family) > 1 and not _is_interface(graph, top):
        anew = {q for q in family - {top} if not _is_interface(graph, q) and _declares_anew(graph, q, member)}
        family -= descendants_of(graph, anew) if anew else set()
    return family | {declarer}


def _static_of_generic(graph: Graph, declarer: str, member: str) -> bool:
    """`declarer` is a generic class (`SingletonMono<T>`) and declares `member` static."""
    symbols = [s for t in _declared(graph, declarer) for ss in _members(graph, t.path).values() for s in ss]
    generic = any(
        s.is_type and s.qualified == declarer and re.search(rf"\b{re.escape(s.name)}\s*<", s.signature) for s in symbols
    )
    return generic and any(
        s.name == member and s.container == declarer and ("static" in s.modifiers or "const" in s.modifiers)
        for s in symbols
    )


def _declares_anew(graph: Graph, qualified: str, member: str) -> bool:
    """`qualified` declares `member` itself, and no declaration of it overrides (`override`)."""
    found = [
        s
        for t in _declared(graph, qualified)
        for s in _members(graph, t.path).get((qualified, member), ())
        if not s.is_type
    ]
    return bool(found) and not any("override" in s.modifiers for s in found)


def _is_interface(graph: Graph, qualified: str) -> bool:
    return any(t.kind == "interface" for t in _declared(graph, qualified))


def bases_of(graph: Graph, qualified: str) -> list[str]:
    """The project types `qualified` names as its bases."""
    out = []
    for t in _declared(graph, qualified):
        if (rec := _record(graph, t.path)) is not None:
            out += [b.qualified for base in t.bases for b in graph.resolve_type_ref(base, rec)]
    return out


def _declared(graph: Graph, qualified: str) -> list[TypeRow]:
    """The declarations of a type by its qualified name (a partial class has several)."""
    return [t for t in graph.types_named(qualified.rsplit(".", 1)[-1]) if t.qualified == qualified]


def descendants(graph: Graph, qualified: str) -> set[str]:
    """The type and every project type deriving from it, directly or not."""
    return descendants_of(graph, {qualified})


def ancestors(graph: Graph, qualified: str) -> set[str]:
    """The type and every project type it derives from, directly or not: the types whose
    `descendants` hold it, walked up once (asking each type's descendants was quadratic: a member
    asked of the bottom of a chain of 3,000 classes took `refs` 89 s)."""
    family, todo = {qualified}, [qualified]
    while todo:
        for t in _declared(graph, todo.pop()):
            rec = _record(graph, t.path)
            for base in t.bases if rec is not None else ():
                name = bare_type_name(base)  # as `descendants_of` matches a base: by its simple name
                for b in graph.resolve_type_ref(base, rec):
                    if b.qualified not in family and b.qualified.rsplit(".", 1)[-1] == name:
                        family.add(b.qualified)
                        todo.append(b.qualified)
    return family


def descendants_of(graph: Graph, roots: set[str]) -> set[str]:
    """The types and every project type deriving from one of them, directly or not: from each type
    that joins, the types naming a base by its simple name (`Graph.subtypes_by_base`) join when
    that base resolves to one of the family."""
    family = set(roots)
    todo = sorted(roots)
    while todo:
        name = todo.pop().rsplit(".", 1)[-1]
        for t in graph.subtypes_by_base.get(name, ()):
            if t.qualified in family or (rec := _record(graph, t.path)) is None:
                continue
            named = (base for base in t.bases if bare_type_name(base) == name)
            if any(b.qualified in family for base in named for b in graph.resolve_type_ref(base, rec)):
                family.add(t.qualified)
                todo.append(t.qualified)
    return family


def subtypes_by_base(types: list[TypeRow]) -> dict[str, tuple[TypeRow, ...]]:
    """A base's simple name -> the types naming a base so (a type once a name)."""
    out: dict[str, list[TypeRow]] = {}
    for t in types:
        for name in dict.fromkeys(bare_type_name(base) for base in t.bases):
            out.setdefault(name, []).append(t)
    return {name: tuple(rows) for name, rows in out.items()}


def nested_by_outer(types: list[TypeRow]) -> dict[str, dict[str, str]]:
    """A type's qualified name -> the types nested in it at any depth (qualified -> simple name),
    a namespace of the same name left out (`Inventory.UI` is not nested in a class `Inventory`).
    Made once: each type of a described file went through every type of the project (a file of
    10,000 classes took `describe` 11 s)."""
    out: dict[str, dict[str, str]] = {}
    for t in types:
        parts, space = t.qualified.split("."), t.namespace + "."
        for i in range(1, len(parts)):
            if (outer := ".".join(parts[:i])) + "." not in space:
                out.setdefault(outer, {})[t.qualified] = t.name
    return out


INHERIT_DEPTH = 6  # base classes followed up from a file's types for a member they inherit


def inherited_member_type(
    graph: Graph, path: str, member: str, kinds: tuple[str, ...] = ("field", "property")
) -> str | None:
    """The type of the field or property `member` (of `kinds`: a method's, what it returns) that a
    type of the file `path` inherits from a project base class, the base's type parameters replaced
    by what the chain gives them: `Current` of `SelectorComponent<T>` is a `CollectionItem` in
    `CollectionSelectorComponent : SelectorComponent<CollectionItem>` (it read as any class's),
    `Instance()` of `Singleton<T>` the singleton; None when no base declares it."""
    todo = [(t, {}) for t in graph.records.types_in(path)]
    seen: set[str] = set()
    for _ in range(INHERIT_DEPTH):
        step, todo = todo, []
        for t, given in step:
            rec = _record(graph, t.path)
            for base in t.bases if rec is not None else ():
                args = [given.get(a, a) for a in type_arguments(base)]
                for b in graph.resolve_type_ref(base, rec):
                    if b.qualified in seen or (brec := _record(graph, b.path)) is None:
                        continue
                    seen.add(b.qualified)
                    head = next((s for s in brec.symbols if s.is_type and s.qualified == b.qualified), None)
                    params = type_parameters(head.signature if head else "")
                    names = dict(zip(params, args, strict=False))
                    for s in brec.symbols:
                        if s.container == b.qualified and s.name == member and s.kind in kinds:
                            # a parameter the chain gives no argument for: of no known type
                            return None if s.type in params and s.type not in names else names.get(s.type, s.type)
                    todo.append((b, names))
    return None


_PARAMETERS = re.compile(r"\b(?:class|struct|interface|record)\s+\w+\s*<([^<>]*)>")


def type_parameters(header: str) -> list[str]:
    """`T`, `U` of a type's header `public class Pool<T, U> : Base<T>`."""
    m = _PARAMETERS.search(header)
    return [p.strip().split()[-1] for p in m.group(1).split(",") if p.strip()] if m else []


def type_arguments(written: str) -> list[str]:
    """The top-level type arguments of a written type: `Base<List<int>, Item>` gives `List<int>`, `Item`."""
    start = written.find("<")
    if start < 0 or not written.rstrip().endswith(">"):
        return []
    out, depth, part = [], 0, []
    for ch in written[start + 1 : written.rstrip().rfind(">")]:
        if ch == "," and depth == 0:
            out.append("".join(part).strip())
            part = []
            continue
        depth += (ch == "<") - (ch == ">")
        part.append(ch)
    return [*out, "".join(part).strip()]


_CALL = re.compile(r"\s*\(.*$")  # the arguments of a call: `Heal(25)`, `Heal (int amount)`, `Heal(`
_IDENTIFIER = re.compile(r"[^\W\d]\w*")


def member_target(graph: Graph, text: str) -> Target | None:
    """`Type.Member` (or `Type.Member()`, as code calls it) when a type so named declares the
    member or inherits it; a member with no name would match every line of text."""
    owner, _, member = _CALL.sub("", text).rpartition(".")
    owner_types = graph.types_asked(owner) if _IDENTIFIER.fullmatch(member) else []
    # of two classes named alike (the game's `EnemySpawner`, a sample's), those having the member
    having = sorted({x.qualified for x in owner_types if declarer_of(graph, x.qualified, member)})
    note = ""
    if not having and (unity := unity_member(member)):  # `Gun.enabled`: Unity's, called by UnityEvents
        member, declarer = unity
        having = sorted({x.qualified for x in owner_types if inherits(_unity_root(graph, x.qualified), declarer)})
        on = "components" if declarer != "Object" else "objects"
        calls = f"setting it on its {on} (set_{member})" if member in PROPERTIES else f"on its {on}"
        listed = "the code naming it"
        if member in EVENT_CALLABLE:
            listed = f"the UnityEvent calls {calls} and {listed}"
        note = f"{member} is Unity's {declarer}.{member}, which {', '.join(having)} inherits: {listed}"
    if not having:
        return None
    return Target(kind="member", name=f"{owner}.{member}", member=member, types=having, note=note)


def _unity_root(graph: Graph, qualified: str) -> str:
    """The Unity class (of `unity_members.ROOTS`) the type's chain of project bases ends in, or ''."""
    todo, seen = [qualified], set()
    while todo:
        q = todo.pop()
        if q in seen:
            continue
        seen.add(q)
        for t in _declared(graph, q):
            rec = _record(graph, t.path)
            for base in t.bases if rec is not None else ():
                found = graph.resolve_type_ref(base, rec)
                if not found and bare_type_name(base) in ROOTS:
                    return bare_type_name(base)
                todo += [b.qualified for b in found]
    return ""
