"""The outline of an asset that is no scene or prefab: ScriptableObjects, materials, animators,
shaders, asmdefs, packages, settings (`outline.outline_parts` dispatches here)."""

from __future__ import annotations

from indexer.model import BUILTIN_SCRIPTS, FileRecord, Symbol
from indexer.query.animator_outline import animator_parts, is_machine
from indexer.query.component_fields import ComponentFields
from indexer.query.graph import Graph
from indexer.query.left_out import Gap, gap_in
from indexer.query.list_items import list_items
from indexer.query.outline import Part, short, status_line
from indexer.query.references import references_part
from indexer.shown import MAX_FIELDS_PER_OBJECT


def asset_parts(rec: FileRecord, graph: Graph) -> list[Part]:
    """ScriptableObjects, materials, animators, shaders, asmdefs, packages, settings: one line per
    declaration, grouped under the main object, with GUIDs turned into paths and classes."""
    said = status_line(rec)
    lines: list[Part] = [(said, None)] if said else []
    symbols, after = rec.symbols, None
    if is_machine(rec):  # a controller by its layers and state machines (an index since schema 48)
        shown, symbols, after = animator_parts(rec, graph)
        lines += shown
    states = {s.name for s in symbols if s.kind == "animator_state"}
    scripts = ComponentFields(graph)
    gaps = _gaps(rec, graph, symbols)
    for s in _states_grouped(symbols, states) if states else symbols:
        if s.kind == "field" and s.container in states:  # a StateMachineBehaviour's, under its state
            lines.append((f"    L{s.line} {short(graph.readable(s.signature))}", s.name))
        elif s.kind == "animator_transition":  # under the state it leaves; `Any State`'s and `Entry`'s last
            lines.append((f"{'    ' if s.container in states else '  '}{s.signature}  L{s.line}", None))
        elif s.kind in ("scriptable_object", "material"):
            lines.append((_made_of(s, graph), None))
        elif s.kind in ("field", "material_property", "override"):
            # a script's enum field by its member's name too, `Rarity: 2 (Rare)`, and a value no field
            # of the script reads (renamed since) said so, as on a component
            script = s.type[7:] if s.type.startswith("script:") else ""
            said = scripts.worded(script, s, rec.path).signature if script else s.signature
            lines.append((f"  L{s.line} {short(graph.readable(said))}", s.name))
            if s.kind == "field" and rec.kind == "asset":  # a list of records: each record's values
                enums = scripts.enums.members(script, s.name) if script else {}  # (`SkinType: 2 (Alien)`)
                items = list_items(graph, rec.path, s, enums)
                lines += [(f"      {graph.readable(item)}", s.name) for item in items]
            if (gap := gaps.get(id(s))) is not None:
                lines.append((f"  {gap.said()}", None))
        elif s.kind == "animator_state":
            motion = (graph.path_of_guid(s.detail) if s.detail else "") or s.signature  # a clip, or a blend tree
            first = " [default]" if "default" in s.attributes else ""  # what the machine plays first
            lines.append(
                (f"  state {s.name}" + (f" (motion {motion})" if motion else "") + f"{first}  L{s.line}", None)
            )
        else:  # an object by its name and class (`object Music (AudioMixerGroupController)`)
            named = s.kind == "object" and s.name and s.signature and s.name != s.signature
            text = f"{s.name} ({s.signature})" if named else s.signature or s.name or s.type
            extras = [x for x in (s.type, s.detail, *s.attributes) if x and not _mentions(text, x)]
            label = s.kind.replace("_", " ")
            indent = "" if s.kind in _PRIMARY else "  "
            tail = f" [{short('; '.join(extras), 80)}]" if extras else ""
            line = f"{indent}{label} {short(text)}{tail}  L{s.line}"
            lines.append((line, None if s.kind in _PRIMARY else s.name))
    if after is not None:  # a controller's: what was left out, its references
        return lines + after
    references = references_part(rec, graph, exclude=())
    return lines + ([references] if references else [])


def _gaps(rec: FileRecord, graph: Graph, symbols: tuple[Symbol, ...]) -> dict[int, Gap]:
    """The fields left out of each object, by the (id of the) field kept just before them."""
    by_object: dict[str, list[Symbol]] = {}
    for s in symbols:
        if s.kind == "field":
            by_object.setdefault(s.detail, []).append(s)
    gaps = {
        id(fs[MAX_FIELDS_PER_OBJECT - 1]): gap_in(graph, rec.path, fs)
        for fs in by_object.values()
        if len(fs) > MAX_FIELDS_PER_OBJECT
    }
    return {key: gap for key, gap in gaps.items() if gap is not None}


def _made_of(s: Symbol, graph: Graph) -> str:
    """A ScriptableObject's line by its class and script, a material's by its shader."""
    if s.kind == "material":
        if s.detail.startswith("builtin:"):
            shader = f"built-in shader (fileID {s.detail[8:]})"
        else:
            shader = graph.readable(f"guid:{s.detail}") if s.detail else "none"
        return f"Material {s.name}: shader {shader}"
    if s.detail.startswith("builtin:"):
        cls = BUILTIN_SCRIPTS.get(s.detail[8:])
        made_of = f"{cls} (built into Unity)" if cls else f"a class built into Unity (fileID {s.detail[8:]})"
        return f"ScriptableObject {s.name}: {made_of}"
    cls = graph.script_class(s.detail) if s.detail else ""
    script = graph.path_of_guid(s.detail) if s.detail else ""
    package = graph.package_scripts.get(s.detail, ("", ""))[1] if not script else ""
    where = script or (f"script of {package}, not in project" if package else "script not in project")
    return f"ScriptableObject {s.name}: {cls or 'script ' + s.detail[:8]} ({where})"


def _states_grouped(symbols: tuple[Symbol, ...], states: set[str]) -> list[Symbol]:
    """An animator controller's symbols with each state followed by the transitions leaving it and
    its behaviours' fields (written far apart in the file); `Any State` and `Entry` transitions last.
    The controller, its parameters and layers first: states written above it in the file (their
    fileIDs sort first) read as outside every layer."""
    symbols = tuple(sorted(symbols, key=lambda s: s.kind not in _CONTROLLER_KINDS))  # stable: the file's order
    by_state: dict[str, list[Symbol]] = {}
    for s in symbols:
        if s.kind in ("animator_transition", "field"):
            by_state.setdefault(s.container, []).append(s)
    out = [s for s in symbols if s.kind != "animator_transition" and (s.kind != "field" or s.container not in states)]
    # a name two sub-state machines share: its transitions and fields under the first such state, once
    out = [x for s in out for x in ([s, *by_state.pop(s.name, ())] if s.kind == "animator_state" else [s])]
    return out + [s for s in symbols if s.kind == "animator_transition" and s.container not in states]


_CONTROLLER_KINDS = frozenset({"animator_controller", "animator_parameter", "animator_layer"})
_PRIMARY = frozenset(
    {
        "shader",
        "assembly",
        "package",
        "animator_controller",
        "animation_clip",
        "unity_version",
        "scriptable_object",
        "input_actions",
    }
)


def _mentions(text: str, word: str) -> bool:
    """`word` stands in `text` as a word of its own (no word character either side). Found with
    `str.find`, not with a pattern made of the word: a package version of 49 MB (one string of a
    manifest) was compiled as a regular expression, `describe` 77 s and 5 GB."""
    start = text.find(word)
    while start >= 0:
        end = start + len(word)
        if not (start and _is_word(text[start - 1])) and not (end < len(text) and _is_word(text[end])):
            return True
        start = text.find(word, start + 1)
    return False


def _is_word(char: str) -> bool:
    """A character `\\w` matches."""
    return char.isalnum() or char == "_"
