"""A LayerMask by the names of its layers: `groundLayer: 64 (Ground)`, where Unity writes
`{serializedVersion: 2, m_Bits: 64}` and an override `groundLayer.m_Bits: 64`, which say nothing
without the project's layer list (`ProjectSettings/TagManager.asset`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from indexer.query.graph import Graph

TAG_MANAGER = "ProjectSettings/TagManager.asset"
_MASK = re.compile(r"\{serializedVersion: \d+, m_Bits: (\d+)\}|(?<=m_Bits: )(\d+)\b")
EVERYTHING = 0xFFFFFFFF
NAMES_SHOWN = 4
_MEMO = "_layer_names"


def layer_names(records) -> dict[int, str]:
    """Layer index -> its name, from the project's tag manager (none without one)."""
    symbols = records.symbols(TAG_MANAGER)
    return {int(s.detail): s.name for s in symbols if s.kind == "layer" and s.detail.isdigit()}


def masks_named(text: str, graph: Graph) -> str:
    """`text` with each LayerMask's bits followed by its layers' names (read once per graph, kept
    in its instance dict as its cached properties are, when a mask is there)."""
    if "m_Bits: " not in text:
        return text
    layers = graph.__dict__.get(_MEMO)
    if layers is None:
        layers = graph.__dict__[_MEMO] = layer_names(graph.records)

    def said(m: re.Match[str]) -> str:
        bits = int(m[1] or m[2])
        if bits == 0:
            return "0 (Nothing)"
        if bits >= EVERYTHING:
            return f"{bits} (Everything)"
        named = [layers.get(i, f"layer {i}") for i in range(32) if bits >> i & 1]
        shown = " | ".join(named[:NAMES_SHOWN]) + (
            f" | … {len(named) - NAMES_SHOWN} more" if len(named) > NAMES_SHOWN else ""
        )
        return f"{bits} ({shown})"

    return _MASK.sub(said, text)
