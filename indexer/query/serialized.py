"""Where assets set a script's serialized field: the value the game really runs with.

A field's default in code is rarely the number a level uses: the Inspector writes its own into
every prefab, scene and ScriptableObject carrying the script (`jumpHeight: 1.2` on `PlayerPivot`
in `Main.unity`), and a variant or an instance of such a prefab overrides it again (`Brute` sets
`maxHealth: 300`). `refs Type.field` lists both, as Rider's Inspector values do, so "make the
character jump higher" leads to the number to change and not only to the code reading it.

Values come from the scanners' `field` symbols (a component's own fields, the first
`MAX_FIELDS_PER_OBJECT` of each object) and `override` symbols (a prefab instance's
modifications, read as `carriers.with_settings` reads them). An override is stored by its
property, not the component it changes, so an override of an instance whose prefab carries the
script is taken as the script's when the property is the member or a part of it (`maxHealth`,
`patrolPoints.Array.data[0]`): another component of that prefab with a field of the same name is
listed too.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import msgspec

from indexer.identifiers import name_stems
from indexer.model import TYPE_KINDS, CodeOutline, FileRecord, Symbol, Target, Usage
from indexer.query.carriers import MAX_SETTINGS_FILES, Overrides, chain_text, inherited_usages
from indexer.query.codeline import code_of, without_block_comments
from indexer.query.enum_values import EnumFields
from indexer.query.hex_arrays import decoded, element_format
from indexer.query.instances import instances_named
from indexer.shown import says_little
from indexer.words import plural

if TYPE_CHECKING:
    from indexer.query.graph import Graph


def value_usages(
    graph: Graph, member: str, script_guids: set[str], declarer: str | None = None, target: Target | None = None
) -> list[Usage]:
    """The assets that set `member` of the scripts named by `script_guids` (a type and its
    subclasses): on a component of the script itself (context `value`) and as an override of an
    instance or variant of a prefab carrying it, at any depth (context `override`). The records
    of the first MAX_SETTINGS_FILES files of each are read, by path: a script on every prefab of a
    large project is not decoded thousands of times for one `refs`. Given the type `declarer`
    that declares the member: none for a method (an override of another component's field of its
    name is not its), and the names `[FormerlySerializedAs]` gives a field count as its own.
    `target`: its note says when files were left unread, and when binary-serialized assets carry
    the script (their values and UnityEvent calls are not read: a menu's `Play()` bound only in a
    binary scene read as unused)."""
    if target is not None:
        target.add_note(_binary_carriers(graph, script_guids))
    declared = declarations(graph, declarer, member) if declarer else []
    if declared and not any(s.kind in ("field", "property") for s in declared):
        return []
    aliases = {old: member for s in declared for old in former_names(s)}
    unread: list[str] = []
    found = values_of(graph, (member,), script_guids, MAX_SETTINGS_FILES, aliases, unread, target)[member]
    if typed := next((s.type for s in declared if element_format(s.type)), None):  # `int[]` written as hex
        found = [msgspec.structs.replace(u, detail=decoded(u.detail, typed) or u.detail) for u in found]
    if declared and not any(is_serialized(s) for s in declared):  # values left from when it was serialized
        found = [msgspec.structs.replace(u, detail=_said_unused(u.detail, "not serialized")) for u in found]
    if target is not None and unread:
        target.add_note("values read from " + " and ".join(unread))
    return found


def _said_unused(detail: str, why: str) -> str:
    """A value's line with why Unity ignores it, beside the value (before the prefabs it goes through)."""
    value, via, chain = detail.partition(" (via ")
    return f"{value} (unused: {why}){via}{chain}"


def _binary_carriers(graph: Graph, script_guids: set[str]) -> str:
    """What to say of the binary-serialized assets naming one of these scripts, if any."""
    if not script_guids:
        return ""
    marks = ",".join("?" * len(script_guids))
    sql = (
        "SELECT COUNT(DISTINCT r.file_id) FROM refs r WHERE r.kind = 'guid' AND r.context = 'external'"
        f" AND r.key IN ({marks})"
    )
    (n,) = graph.records.conn.execute(sql, sorted(script_guids)).fetchone()
    if not n:
        return ""
    its = "its" if n == 1 else "their"
    return (
        f"{plural(n, 'binary-serialized asset')} carr{'ies' if n == 1 else 'y'} its script: {its} values and"
        " UnityEvent calls are not read (Asset Serialization: Force Text makes them readable)"
    )


def declarations(graph: Graph, qualified: str, member: str) -> list[Symbol]:
    """The symbols declaring `member` in the type `qualified` (in each file of a partial class)."""
    out = []
    for path in {t.path for t in graph.types_named(qualified) if t.qualified == qualified}:
        out += [s for s in graph.records.symbols(path) if s.name == member and s.container == qualified]
    return out


_FORMER = re.compile(r"FormerlySerializedAs\s*\(\s*(?:oldName\s*:\s*)?\"([^\"]+)\"")


def former_names(symbol: Symbol) -> list[str]:
    """The names a field was serialized by before a rename (`[FormerlySerializedAs("old")]`):
    Unity loads a value stored under one into the field, and assets keep it until saved again."""
    return [m[1] for a in symbol.attributes if (m := _FORMER.search(a))]


def values_of(
    graph: Graph,
    members: tuple[str, ...],
    script_guids: set[str],
    most: int,
    aliases: dict[str, str] | None = None,
    unread: list[str] | None = None,
    target: Target | None = None,
) -> dict[str, list[Usage]]:
    """`value_usages` of several members of the same scripts, each file read once, from the
    first `most` files carrying them and the first `most` placing them (`aliases`: a former name
    of a member, to that member; `unread` gets what was left unread, `the first 200 of 310 files
    carrying the script`; `target`'s note, a cycle of prefabs skipped)."""
    out: dict[str, list[Usage]] = {m: [] for m in members}
    if not script_guids:
        return out
    names = {**(aliases or {}), **{name: m for m in members for name in (m, _backing(m))}}
    rows = _carrying(graph, script_guids)
    carrying = list(dict.fromkeys(path for path, _ in rows))
    if unread is not None and len(carrying) > most:
        unread.append(f"the first {most} of {len(carrying)} files carrying the script")
    read = set(carrying[:most])
    # at the lines of their `m_Script`: an instance removing those components does not carry them
    carriers = [Usage(path, line, "asset", "script", "m_Script", "") for path, line in rows if path in read]
    enums = EnumFields(graph)
    for path in carrying[:most]:
        for member, usage in _own_values(graph, path, graph.records.symbols(path), names, script_guids, enums):
            out[member].append(usage)
    files: dict[str, Overrides] = {}
    shown: set[tuple[str, str]] = set()  # one line per value an instance sets: stale overrides repeat it
    skipped: set[str] = set()
    for instance in inherited_usages(graph, carriers, target):
        if instance.path not in files and len(files) >= most:
            skipped.add(instance.path)
            continue
        if instance.path not in files:  # once a file (a setdefault decoded it again for every instance)
            files[instance.path] = Overrides.of(graph, instance.path)
        overrides = files[instance.path]
        via = chain_text(instance.via)
        source = graph.path_of_guid(overrides.sources.get(instance.line, "")) or ""
        for s in overrides.set_by(instance.line):
            member = names.get(s.name.split(".", 1)[0])
            if member is None or graph.targets.aims_elsewhere(source, s.detail, script_guids):
                continue
            value = enums.named_by_any(script_guids, s.signature)
            detail = graph.readable(f"{s.container} sets {_as_member(value, member)} (via {via})")
            if (instance.path, detail) not in shown:
                shown.add((instance.path, detail))
                out[member].append(Usage(instance.path, s.line, "asset", "value", "override", detail, via=instance.via))
    if unread is not None and skipped:
        unread.append(f"the first {most} of {most + len(skipped)} files placing its prefabs")
    # an instance Unity left unnamed by its prefab's name, as `refs` and `describe` name it
    sources = graph.targets.source
    return {m: instances_named(found, graph.records.record, graph.path_of_guid, sources) for m, found in out.items()}


def _carrying(graph: Graph, guids: set[str]) -> list[tuple[str, int]]:
    """(file, line of its `m_Script`) of each component of one of these scripts, by path and line."""
    marks = ",".join("?" * len(guids))
    sql = (
        "SELECT f.path, r.line FROM refs r JOIN files f ON f.id = r.file_id"
        f" WHERE r.kind = 'script' AND r.key IN ({marks}) ORDER BY f.path, r.line"
    )
    return list(graph.records.conn.execute(sql, sorted(guids)))


def _own_values(
    graph: Graph, path: str, symbols: tuple[Symbol, ...], names: dict[str, str], guids: set[str], enums: EnumFields
) -> list[tuple[str, Usage]]:
    """(member, value) for the values a file's own components of these scripts hold for the
    members (`names`: each serialized name to its member; `field` symbols, whose type is
    `script:<GUID>`)."""
    out = []
    for s in symbols:
        member = names.get(s.name) if s.kind == "field" else None
        if member is not None and s.type.startswith("script:") and s.type[7:] in guids:
            shown = _as_member(enums.named(s.type[7:], s.signature), member)
            detail = graph.readable(f"{s.container} > {graph.script_label(s.type[7:])}.{shown}")
            out.append((member, Usage(path, s.line, "asset", "value", "value", detail)))
    return out


def _backing(member: str) -> str:
    """The name Unity serializes a property's `[field: SerializeField]` backing field by."""
    return f"<{member}>k__BackingField"


def _as_member(signature: str, member: str) -> str:
    """`<Range>k__BackingField: 5` shown as the property the code declares: `Range: 5`."""
    backing = _backing(member)
    return member + signature[len(backing) :] if signature.startswith(backing) else signature


# a pack's fields per file (of how many it looks at), values per field, files read per field
PACK_FIELDS, PACK_LOOKS, PACK_VALUES, PACK_FILES = 2, 4, 2, 8
FAMILY_FILES = 200  # scripts of a type's family looked at for a pack
INHERITED_FILES = 4  # base classes up a script's chain whose fields a pack looks for
BASE_USERS = 20_000  # files using a base class read for its subclasses
# A tunable: a number (a bool or an enum is one too), or a vector or colour of numbers. References
# and texts are wiring and words the outline of the prefab or scene shows better.
_TUNABLE = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|\{(?:\w+: -?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?:, )?)+\}")
PACK_HEADER = "values set in assets (the game runs with these, not the defaults in code):"


def pack_values(project, local: str, stems: set[str]) -> list[str]:
    """The lines a context pack adds under a C# file's outline: the tunable values assets hold for
    the fields the task names (`stems`), PACK_VALUES each for PACK_FIELDS fields (of the first
    PACK_LOOKS named), from the first PACK_FILES files carrying the script. Changing a serialized
    field's default in code changes no prefab or scene that already holds it: an agent told only
    the code would make the change that does nothing. `project`: a workspace.ProjectIndex (the
    values are kept per index generation)."""
    rec = project.records.outline_record(local)
    if rec is None or rec.kind != "csharp":
        return []
    inherited = project.remember(("inherited fields", local), lambda: tuple(inherited_fields(project.graph, rec)))
    named = _named_fields((*rec.symbols, *inherited), stems)[:PACK_LOOKS]
    lines: list[str] = []
    shown = 0
    for field in named:
        key = ("values", local, field.container, tuple(sorted(f.name for f in named if f.container == field.container)))
        aliases = {old: f.name for f in named if f.container == field.container for old in former_names(f)}
        found, partial = project.remember(
            key, lambda f=field, k=key, a=aliases: _type_values(project.graph, rec, f.container, k[3], a)
        )
        written = (field.name, *former_names(field))
        kept = [(u, text) for u in found[field.name] if _tunable(text := u.detail.partition(" (via ")[0], written)]
        kept.sort(key=lambda kept_value: _zero(kept_value[1]))  # set values before those left at zero
        if not kept or shown == PACK_FIELDS:
            continue
        shown += 1
        lines += [f"  {u.path}:{u.line}  {text}{_unused_note(project.graph, u.path)}" for u, text in kept[:PACK_VALUES]]
        lines += set_at_start(project.graph, rec, field)
        rest = len(kept) - PACK_VALUES
        if rest > 0 or partial:  # files left unread hold more: not a count of those read as if all
            owner = field.container.rpartition(".")[2]
            said = f"{rest}+ more" if partial and rest > 0 else "more" if partial else f"{rest} more"
            lines.append(f"  … {said} (unity-index refs {owner}.{field.name})")
    return [PACK_HEADER, *lines] if lines else []


def _zero(line: str) -> bool:
    """A value line's value says little (`shown.says_little`): what an unset field holds, shown last."""
    return says_little(line.rpartition(": ")[2].strip())


def _unused_note(graph: Graph, path: str) -> str:
    """What to say of a value's prefab that nothing uses (no scene places it, no asset or code names
    it, outside `Resources/`): the game never runs with it (a trial's orphan `PlayerBody.prefab`
    said `jumpForce: 1.4` beside the spawned player's `1`)."""
    if not path.endswith(".prefab") or "/Resources/" in f"/{path}":
        return ""
    return " (nothing uses this prefab)" if graph.records.edges_to(path, 1) == [] else ""


START_MESSAGES = frozenset({"Awake", "OnEnable", "Start"})  # run before a component's first frame


def set_at_start(graph: Graph, rec: CodeOutline | FileRecord, field: Symbol) -> list[str]:
    """The line of the field's own class assigning it as the component starts, said under its
    values: the value an asset holds is then not what the game runs with (`Tower.Awake` sets
    `ShootDelay = data.ShootDelay`, where a trial's pack said the prefab's `ShootDelay: 4` was)."""
    assigned = re.compile(rf"^\s*(?:this\.)?{re.escape(field.name)}\s*=(?!=)")
    lines = graph.file_lines(rec.path)
    live: list[str] | None = None  # the lines with block comments blanked: `/* enableAds = true; */` sets nothing
    for m in rec.symbols:
        if m.kind == "method" and m.name in START_MESSAGES and m.container == field.container and m.end_line:
            live = live if live is not None else without_block_comments(lines)
            for n in range(m.line, min(m.end_line, len(lines)) + 1):
                if assigned.search(code_of(live[n - 1])):
                    said = f"{m.container.rpartition('.')[2]}.{m.name} sets it when the component starts"
                    return [f"  … {said}: {rec.path}:{n}  {lines[n - 1].strip()}"]
    return []


def inherited_fields(graph: Graph, rec: CodeOutline | FileRecord) -> list[Symbol]:
    """The fields the file's first derived class inherits from the project's classes above it, as
    its own: its components hold them (a level's `Player sets health: 50`, where `health` is its
    base `Lifeform`'s), found up the stored `base` edges, at most INHERITED_FILES files up."""
    sub = next((s for s in rec.symbols if s.kind == "class" and s.bases), None)
    if sub is None:
        return []
    qualified = f"{sub.container}.{sub.name}".lstrip(".")
    out: list[Symbol] = []
    seen, todo = {rec.path}, [rec.path]
    while todo and len(seen) <= INHERITED_FILES:
        for base, kind in graph.records.edges_from(todo.pop()):
            if kind != "base" or base in seen or (brec := graph.records.outline_record(base)) is None:
                continue
            seen.add(base)
            todo.append(base)
            types = {f"{t.container}.{t.name}".lstrip(".") for t in brec.symbols if t.kind == "class"}
            fields = (f for f in brec.symbols if f.kind in ("field", "property") and f.container in types)
            out += [msgspec.structs.replace(f, container=qualified) for f in fields]
    return out


def _tunable(detail: str, names: tuple[str, ...]) -> bool:
    """Whether the value a usage's detail ends with (`... > Mover.speed: 2`, `Brute sets speed: 2`;
    the field written by one of `names`) is a tunable (_TUNABLE)."""
    either = "|".join(map(re.escape, names))
    written = re.search(rf"(?:^|[ .])(?:{either})(?:\.[\w.\[\]]+)?: (.*)$", detail)
    return written is not None and _TUNABLE.fullmatch(written.group(1)) is not None


def _named_fields(symbols: tuple[Symbol, ...], stems: set[str]) -> list[Symbol]:
    """The serialized fields the task names by a word other than those of their type's name,
    those holding most of them first: `character` names every field of `CharacterInputController`
    and `damage` every one of `DamageDealer`, while a task about jumping higher asks for
    `jumpHeight` (a task about a sword's damage is answered by the sword's asset, not by the
    contact damage every `DamageDealer` holds)."""
    types = {f"{s.container}.{s.name}".lstrip("."): s for s in symbols if s.kind in TYPE_KINDS}
    named = []
    for s in symbols:
        owner = types.get(s.container)
        # a nested class's field is no component's: a `[Serializable] class Wave` inside `Spawner`
        if is_serialized(s) and owner is not None and owner.container not in types:
            own = len(stems.intersection(name_stems(s.name)).difference(name_stems(s.container.rpartition(".")[2])))
            if own:
                named.append((-own, s.line, s))
    return [s for *_, s in sorted(named, key=lambda n: n[:2])]


def is_serialized(s: Symbol) -> bool:
    """Whether Unity serializes the member, by its declaration: a field that is public or marked
    `[SerializeField]`/`[SerializeReference]`, neither static, const nor readonly nor marked
    `[NonSerialized]`; an auto-property marked `[field: SerializeField]`."""
    written = [a.replace(" ", "") for a in s.attributes]
    marked = any(a.startswith(_MARKS) for a in written)
    if s.kind == "property":
        return marked
    if s.kind != "field" or _UNSERIALIZED.intersection(s.modifiers) or any(a.startswith(_NOT) for a in written):
        return False
    return "public" in s.modifiers or marked


_MARKS = tuple(
    f"{f}{n}{a}" for f in ("", "field:") for n in ("", "UnityEngine.") for a in ("SerializeField", "SerializeReference")
)
_NOT = ("NonSerialized", "System.NonSerialized")
_UNSERIALIZED = frozenset({"static", "const", "readonly"})


def _type_values(
    graph: Graph, rec: CodeOutline | FileRecord, qualified: str, members: tuple[str, ...], aliases: dict[str, str]
) -> tuple[dict[str, list[Usage]], bool]:
    """The values, and whether files were left unread."""
    unread: list[str] = []
    guids = _family_guids(graph, rec, qualified)
    return values_of(graph, members, guids, PACK_FILES, aliases, unread), bool(unread)


def _family_guids(graph: Graph, rec: CodeOutline | FileRecord, qualified: str) -> set[str]:
    """The script GUIDs of a type declared in `rec`'s file (and of a partial type's other parts)
    and of its subclasses, found through the stored `base` edges (a subclass's file uses its
    base's): `Graph.descendants` reads every type of the project, 80 ms at 8,000 scripts, too
    slow for a pack. Another file declaring a type of the same name is not this type's."""
    partial = any(s.kind in TYPE_KINDS and "partial" in s.modifiers for s in rec.symbols)
    parts = {p for g in graph.script_guids([qualified]) if (p := graph.path_of_guid(g))} if partial else set()
    seen: set[str] = set()
    todo = [rec.path, *parts]
    while todo and len(seen) < FAMILY_FILES:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            # a base class is a hub of the files using it: its subclasses are read past the walk's cap
            todo += [p for p, kind in graph.records.edges_to(path, BASE_USERS) or () if kind == "base"]
    guids = {g for p in seen if (g := graph.records.guid_naming(p))}
    own = graph.records.guid_naming(rec.path)
    if own and graph.main_types.get(rec.path) not in (qualified, None):  # Unity binds a file's GUID to
        guids.discard(own)  # its main class alone: a struct beside it (a DOTS component's data) holds no value
    return guids
