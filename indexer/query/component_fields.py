"""Which serialized fields of a component an outline shows. A project script's own fields say how
the project is set up; a third-party component's internals, and the fields a project script
inherits from a third-party base class (a networking kit's `_componentIndexCache`,
`_networkObjectCache` on every networked script), repeat on every component and say nothing about
the project: they are left out, but the few that say what a component does (PACKAGE_FIELDS_SHOWN).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from indexer.model import Symbol
from indexer.query.enum_values import EnumFields
from indexer.query.override_targets import OverrideTargets
from indexer.query.priors import is_vendored, third_party_folders

if TYPE_CHECKING:
    from indexer.query.graph import Graph

# Fields of package components (UI, TextMesh Pro) that say what the object does.
PACKAGE_FIELDS_SHOWN = frozenset(
    {"m_Text", "m_text", "m_OnClick", "m_OnValueChanged", "m_OnEndEdit", "m_Sprite", "m_Interactable", "m_fontAsset"}
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
        self._scripts: dict[str, tuple[bool, frozenset[str]]] = memo.setdefault(_SCRIPTS, {})
        self.targets = OverrideTargets(graph)  # the objects instances' overrides change, per source prefab
        self.enums = EnumFields(graph)

    def shown(self, script_guid: str, fields: list[Symbol]) -> list[Symbol]:
        """The fields of a component of this script to show."""
        if script_guid not in self._scripts:
            self._scripts[script_guid] = self._judged(script_guid)
        third_party, inherited = self._scripts[script_guid]
        if third_party:
            return [f for f in fields if f.name in PACKAGE_FIELDS_SHOWN]
        kept = [f for f in fields if f.name not in inherited] if inherited else fields
        return [self._enum_named(script_guid, f) for f in kept]

    def _enum_named(self, script_guid: str, field: Symbol) -> Symbol:
        """An enum field's number with its member's name (`enum_values`)."""
        named = self.enums.named(script_guid, field.signature)
        return field if named == field.signature else msgspec.structs.replace(field, signature=named)

    def third_party(self, path: str) -> bool:
        if self._vendored is None:
            self._vendored = self.graph.__dict__[_VENDORED] = third_party_folders(self.graph.records)
        return is_vendored(path, self._vendored)

    def _judged(self, script_guid: str) -> tuple[bool, frozenset[str]]:
        """(the script is third-party: from a package, outside the project, or in a vendored folder;
        the fields its third-party base classes declare and the project's own code does not)."""
        path = self.graph.path_of_guid(script_guid)
        if path is None or self.third_party(path):
            return True, frozenset()
        own: set[str] = set()
        inherited: set[str] = set()
        todo, seen = [path], {path}
        while todo:
            file = todo.pop()
            names = {s.name for s in self.graph.records.symbols(file) if s.kind == "field"}
            (inherited if self.third_party(file) else own).update(names)
            for base, edge in self.graph.uses(file):
                if edge == "base" and base not in seen and len(seen) < MAX_BASE_FILES:
                    seen.add(base)
                    todo.append(base)
        return False, frozenset(inherited - own - PACKAGE_FIELDS_SHOWN)
