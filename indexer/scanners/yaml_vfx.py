"""One node of a Visual Effect Graph (`.vfx`, Unity YAML) as symbols.

What a reader of the graph needs is its name, the properties it exposes to the Inspector and
scripts, and the events it sends out (a script's `OnOutputEvent` hears them by name), not the
nodes' editor state (positions, collapsed flags), which its field dump was. The textures and
meshes it uses are the scanner's GUID refs.
"""

from __future__ import annotations

from indexer.model import Symbol

from .yaml_facts import DocReader

_KEYS = frozenset({"m_ExposedName", "m_Exposed", "eventName"})


def node_symbols(doc: DocReader, graph: str, first: bool) -> list[Symbol]:
    """The graph itself (on its `first` document), a property the node exposes, an event it sends."""
    out = [Symbol("visual_effect", graph, doc.line)] if first else []
    values = {key: (shown, line) for key, shown, line, _ in doc.fields() if key in _KEYS}
    exposed, line = values.get("m_ExposedName", ("", 0))
    if exposed and values.get("m_Exposed", ("",))[0] == "1":
        out.append(Symbol("exposed_property", exposed, doc.at(line), container=graph))
    event, line = values.get("eventName", ("", 0))
    if event:
        out.append(Symbol("output_event", event, doc.at(line), container=graph))
    return out
