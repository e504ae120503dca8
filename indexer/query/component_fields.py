"""Which serialized fields of a component an outline shows. A project script's own fields say how
the project is set up; a third-party component's internals, and the fields a project script
inherits from a third-party base class (a networking kit's `_componentIndexCache`,
`_networkObjectCache` on every networked script), repeat on every component and say nothing about
the project: they are left out, but the few that say what a component does (PACKAGE_FIELDS_SHOWN).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

import msgspec

from indexer.model import FileRecord, Symbol
from indexer.query.enum_values import EnumFields, field_name
from indexer.query.hex_arrays import decoded, element_format, is_cut_hex, whole
from indexer.query.kept_records import kept_record
from indexer.query.serialized import former_names, is_serialized
from indexer.query.vendored import is_vendored, third_party_folders
from indexer.unity import bare_type_name

if TYPE_CHECKING:
    from indexer.query.graph import Graph

# Fields of package components (UI, TextMesh Pro) that say what the object does.
PACKAGE_FIELDS_SHOWN = frozenset(
    {"m_Text", "m_text", "m_OnClick", "m_OnValueChanged", "m_OnEndEdit", "m_Sprite", "m_Interactable", "m_fontAsset"}
    | {"m_Actions", "m_NotificationBehavior", "m_DefaultActionMap"}  # a PlayerInput's: which methods it calls
)
_VENDORED, _SCRIPTS = "_component_fields_vendored", "_component_fields_scripts"  # keys of the graph's dict
MAX_BASE_FILES = 64  # files of a script's base classes read for their fields (partial classes count each)


class ComponentFields:
    """One outline's answers, each script's worked out once: a prefab holds the same scripts many
    times."""

    def __init__(self, graph: Graph):
        self.graph = graph
        # kept with the graph (one index state): a pack outlines a hundred prefabs, and the path
        # index's scan for vendor marks costs 9 ms at 5,000 scripts (context p95 94 ms -> see
        # docs/performance.md); a Graph holds them in its instance dict like its cached properties
        memo = graph.__dict__
        self._vendored: frozenset[str] | None = memo.get(_VENDORED)
        self._scripts: dict[str, _Script] = memo.setdefault(_SCRIPTS, {})
        self.targets = graph.targets  # the objects instances' overrides change, per source prefab
        self.enums = EnumFields(graph)

    def shown(self, script_guid: str, fields: list[Symbol], path: str | None = None) -> list[Symbol]:
        """The fields of a component of this script to show (`path`: the file holding them)."""
        script = self._script(script_guid)
        if script.third_party:
            return [f for f in fields if f.name in PACKAGE_FIELDS_SHOWN]
        kept = [f for f in fields if f.name not in script.hidden] if script.hidden else fields
        return [self._said(script_guid, script.declared, f, path) for f in kept]

    def worded(self, script_guid: str, field: Symbol, path: str | None = None) -> Symbol:
        """A data asset's field as a component's is shown (`_said`), all of them kept: the asset is
        the script's values, a third-party one's too."""
        script = self._script(script_guid)
        return self._said(script_guid, None if script.third_party else script.declared, field, path)

    def unused(self, script_guid: str, field: str) -> str:
        """Why Unity ignores a value of `field` on a component of this script ('' when it may not):
        the script's classes declare no such field, or one they do not serialize (private without
        `[SerializeField]`, static, readonly: `healthPoints: 40` of a `LazyValue<float>
        healthPoints`). Nothing is said when not every class up its chain is known."""
        script = self._script(script_guid)
        if script.third_party or script.declared is None:
            return ""
        if field not in script.declared:
            return "no such field in the script"
        return "" if field in script.serialized else "not serialized"

    def _script(self, script_guid: str) -> _Script:
        if script_guid not in self._scripts:
            self._scripts[script_guid] = self._judged(script_guid)
        return self._scripts[script_guid]

    def _said(self, script_guid: str, declared: frozenset[str] | None, field: Symbol, path: str | None) -> Symbol:
        """An enum field's number with its member's name (`enum_values`); a value the script's
        classes declare no field for, which Unity keeps in the file but never reads (a field since
        renamed: `AnimationDuration` of a script now saying `animationDuration`), said so. An array
        written as hex is read whole from the file at `path` when the scanner cut it short."""
        packed = path and is_cut_hex(field.signature) and self._packed(script_guid, field.name)
        lines = self.graph.file_lines(path) if packed else []  # (not a font's atlas bytes: no array field)
        signature = whole(field.signature, lines[field.line - 1]) if 0 < field.line <= len(lines) else field.signature
        said = self.enums.named(script_guid, signature)
        if (declared_type := self._script(script_guid).arrays.get(field.name)) is not None:
            said = decoded(signature, declared_type) or said  # `int[]` written as hex
        said = field.signature if said == signature else said  # (a long hex read for nothing: as stored)
        if declared is not None and (why := self.unused(script_guid, field.name)):
            said = f"{said} (unused: {why})"
        return field if said == field.signature else msgspec.structs.replace(field, signature=said)

    def _packed(self, script_guid: str, field: str) -> bool:
        """Whether the script declares `field` an array Unity may write as hex (`hex_arrays`)."""
        elements = self.enums.of(script_guid).elements
        return field in self._script(script_guid).arrays or field in elements or field_name(field) in elements

    def third_party(self, path: str) -> bool:
        if self._vendored is None:
            self._vendored = self.graph.__dict__[_VENDORED] = third_party_folders(self.graph.records)
        return is_vendored(path, self._vendored)

    def _judged(self, script_guid: str) -> _Script:
        """The script is third-party (from a package, outside the project, or in a vendored folder);
        the fields its third-party base classes declare and the project's own code does not; and
        the names its classes serialize fields by, when every class up its chain is the project's
        (up to one of Unity's roots that serialize none), else None."""
        path = self.graph.path_of_guid(script_guid)
        if path is None or self.third_party(path):
            return _Script(True, frozenset(), None, {}, frozenset())
        own: set[str] = set()
        serialized: set[str] = set()
        arrays: dict[str, str] = {}
        inherited: set[str] = set()
        known = True
        todo, seen = [path], {path}
        while todo:
            file = todo.pop()
            rec = kept_record(self.graph, file)
            symbols = rec.symbols if rec is not None else ()
            names = {n for s in symbols if s.kind == "field" for n in (s.name, *former_names(s))}
            (inherited if self.third_party(file) else own).update(names)
            arrays.update(
                (s.name if s.kind == "field" else f"<{s.name}>k__BackingField", s.type)  # `[field: SerializeField]`
                for s in symbols
                if s.kind in ("field", "property") and element_format(s.type)
            )
            own.update(f"<{s.name}>k__BackingField" for s in symbols if s.kind == "property")
            serialized.update(_serialized_names(symbols))
            known = known and rec is not None and _chain_known(self.graph, rec)
            for base in (b for b, e in self.graph.uses(file) if e == "base"):
                if base not in seen and len(seen) < MAX_BASE_FILES:
                    seen.add(base)
                    todo.append(base)
        declared = frozenset(own | inherited) if known else None  # a third-party base's fields are known too
        hidden = frozenset(inherited - own - PACKAGE_FIELDS_SHOWN)
        return _Script(False, hidden, declared, arrays, frozenset(serialized))


class _Script(NamedTuple):
    third_party: bool
    hidden: frozenset[str]  # fields of third-party base classes: not shown
    declared: frozenset[str] | None  # every field the classes declare, None when not all are known
    arrays: dict[str, str]  # field -> declared type, of the arrays of a primitive type (`hex_arrays`)
    serialized: frozenset[str]  # the names of the declared fields Unity serializes


def _serialized_names(symbols) -> set[str]:
    """The names Unity serializes a file's fields by (and their former names), and the backing
    fields of its properties marked `[field: SerializeField]`."""
    out: set[str] = set()
    for s in symbols:
        if s.kind in ("field", "property") and is_serialized(s):
            out.update((s.name, *former_names(s)) if s.kind == "field" else (f"<{s.name}>k__BackingField",))
    return out


# Unity's roots of scripts, serializing no field of their own; an interface (`IPointerClickHandler`)
# adds none either.
_FIELDLESS_ROOTS = frozenset({"MonoBehaviour", "ScriptableObject", "StateMachineBehaviour", "Behaviour", "Component"})
_INTERFACE = re.compile(r"I[A-Z]")


def _chain_known(graph: Graph, rec: FileRecord) -> bool:
    """Whether a file's classes derive only from the project's classes, Unity's field-less roots and
    interfaces: then every field they serialize is known. A partial class may declare fields in
    another file: not known."""
    classes = [s for s in rec.symbols if s.kind == "class"]
    if any("partial" in s.signature.split("class", 1)[0] for s in classes):
        return False
    bases = {b for s in classes for b in s.bases if bare_type_name(b) not in _FIELDLESS_ROOTS}
    return all(graph.resolve_type_ref(b, rec) or _INTERFACE.match(bare_type_name(b)) for b in bases)


def component_flags(c: Symbol, path: str, graph: Graph) -> str:
    """` (disabled)`, and for one added to an object below a prefab instance's root, which
    object: ` (on Player2/Anim)`."""
    flags = ["disabled"] if "disabled" in c.attributes else []
    for a in c.attributes:
        if a.startswith("on ") and (on := graph.readable(a)) != f"on {path}":
            flags.append(on)
    return f" ({', '.join(flags)})" if flags else ""
