"""Which object of its source prefab a prefab instance's override changes.

An instance's overrides name the object they change by its fileID in the source prefab (`target:
{fileID: 1535381020191089684, guid: ...}`): `m_Layer: 9` on a player instance may be its camera's,
a child's, not the player's own. The scanner keeps that fileID (the override symbol's `detail`);
the source prefab's own record names the object at that fileID's document.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.model import Symbol

if TYPE_CHECKING:
    from indexer.query.graph import Graph

_HEADER = re.compile(r"--- !u!\d+ &(-?\d+)")


class OverrideTargets:
    """The objects of source prefabs by fileID, read once per prefab for one answer."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self._objects: dict[str, dict[str, str]] = {}

    def said(self, source: str, override: Symbol) -> str:
        """`m_Layer: 9 (Main Camera)`: the override's value, with the object it changes when that
        is not the prefab's root (a nested prefab's object, not in the source's record, is unsaid)."""
        target = self.objects(source).get(override.detail, "") if override.detail and source else ""
        return f"{override.signature} ({target})" if target else override.signature

    def objects(self, source: str) -> dict[str, str]:
        """fileID -> the path of the GameObject it is (or that holds it, a component), '' for the
        root object's; from the source prefab's record and the lines of its documents' headers."""
        if source not in self._objects:
            rec = self.graph.records.record(source)
            out: dict[str, str] = {}
            if rec is not None:
                objects = {s.line: s.qualified for s in rec.symbols if s.kind == "gameobject"}
                roots = {s.qualified for s in rec.symbols if s.kind == "gameobject" and not s.container}
                held = {s.type: s.container for s in rec.symbols if s.kind == "component"}
                for number, text in enumerate(self.graph.file_lines(source), 1):
                    if text.startswith("--- !u!") and (m := _HEADER.match(text)):
                        path = objects.get(number) or held.get(m.group(1), "")
                        if path:
                            out[m.group(1)] = "" if path in roots else path
            self._objects[source] = out
        return self._objects[source]
