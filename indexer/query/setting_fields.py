"""Whether a small data asset has a field a task names: its own, or one of the [SerializeReference]
objects it holds.

A data asset whose field the task names holds the setting the task asks where to set
(`rank._settings_named`). A field declared `[SerializeReference]` keeps its object apart, under the
asset's `references:` (`_settings: {rid: 171...}`, then `RefIds: - type: {class:
OrbitalAttackSettings}  data: {_baseOrbitSpeed: -100, ...}`): the asset's outline shows the field
and not what it holds, so "where is the sickles' orbit speed set" met no field of
`PhantomSicklesAttackData.asset`. The classes such an asset holds (its `type` edges) declare them.
"""

from __future__ import annotations

import re

from indexer.identifiers import name_stems
from indexer.project import is_script

_HELD = re.compile(r": \{rid: -?\d+\}$")  # a field holding a [SerializeReference] object, as outlined


def names_setting(project, path: str, outline, stems: set[str]) -> bool:
    """Whether the asset `path` (its `outline`) has a field one of `stems` names: one of its own,
    or one declared by a class of a [SerializeReference] object it holds (read only for an asset
    with a field holding one)."""
    fields = [(e, n) for e, n in zip(outline.entries, outline.names, strict=True) if e.kind == "field"]
    if any(not stems.isdisjoint(name_stems(name)) for _, name in fields):
        return True
    if not any(_HELD.search(entry.signature) for entry, _ in fields):
        return False
    held = [p for p, edge in project.graph.uses(path) if edge == "type" and is_script(p)]
    return any(
        s.kind == "field" and not stems.isdisjoint(name_stems(s.name))
        for script in held
        for s in project.records.symbols(script)
    )
