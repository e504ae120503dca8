"""The prefab a script's object holds in a field of its own, named by the task.

A script spawning copies of a prefab (`Instantiate(heartPrefab, heartsContainer)`) is given the
prefab where its object is placed: the scene or prefab carrying the script holds it in the
component's field (`heartPrefab: {guid: ...}`). "Where is the little heart icon, and what spawns
one per affinity point" ranks `HeartsManager.cs` first and `Heart.prefab`, a picture with no script
of its own, far below; the task says the prefab's name, and the script names the file that holds
it only through its carrier's field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.identifiers import name_stems
from indexer.project import file_title, is_prefab, is_script
from indexer.query.kept_records import kept_record

if TYPE_CHECKING:
    from indexer.query.graph import Graph
    from indexer.query.pairing import _Pairs

HELD_SCRIPTS = 3  # the best scripts whose carriers' fields are read (pairing.PAIRED_SCRIPTS)
HELD_CARRIERS = 3  # ... when at most these many prefabs and scenes carry the script
HELD_MOST = 3  # prefabs named by the task, at most, raised for one script
HELD_SHARE = 0.6  # of the script's score, not weighed by the prefab's prior (see raise_held_prefabs)


def raise_held_prefabs(pairs: _Pairs, stems: frozenset[str]) -> None:
    """For each of the HELD_SCRIPTS best scripts that at most HELD_CARRIERS prefabs and scenes
    carry, the prefabs its components there hold in a field whose name says a word of the task
    (`stems`), and whose own name says a word of the task the script's name says too (the thing
    it is named for: `Heart` of `HeartsManager`; not a run loop's `CardMovement.prefab` for "which
    cards does the blue character start with"), rank at least HELD_SHARE of the script's score: at most
    HELD_MOST of them (a list of a level's every prop names no one). Not weighed by the prefab's
    prior, which halves a prefab carrying no project script as a model or an effect: what a
    script spawns is its thing, whatever it carries (`Heart.prefab`, a sprite, at 0.35)."""
    if not stems:
        return
    graph = pairs.project.graph
    for script in pairs.best(is_script, HELD_SCRIPTS):
        carriers = [p for p in pairs.carriers(script.path) if p.endswith((".prefab", ".unity"))]
        if not carriers or len(carriers) > HELD_CARRIERS:
            continue
        guid = graph.records.guid_of_path(script.path)
        if guid is None:
            continue
        held = {p for carrier in carriers for p in _held(graph, carrier, guid, stems) if p.startswith(pairs.prefix)}
        own = stems.intersection(name_stems(file_title(script.path)))  # the task's words the script's name says
        named = sorted(p for p in held if own.intersection(name_stems(file_title(p))))
        if not named or len(named) > HELD_MOST:
            continue
        for path in named:
            pairs.raise_to(path, script.score * HELD_SHARE, ("held_by_script", script.path, ()))


def _held(graph: Graph, carrier: str, script_guid: str, stems: frozenset[str]) -> list[str]:
    """The prefabs the components of the script of GUID `script_guid` hold in `carrier`, in fields
    whose name says a word of `stems`: a reference's detail ends with its component's script
    (`... > script:<guid>`), its context is the field; a field saying none of the task's words is
    passed over before its GUID is looked up."""
    rec = kept_record(graph, carrier)
    if rec is None:
        return []
    tail = "script:" + script_guid
    found = []
    for ref in rec.refs:
        if ref.kind == "guid" and ref.detail.endswith(tail) and stems.intersection(name_stems(ref.context)):
            path = graph.path_of_guid(ref.target)
            if path and is_prefab(path) and path != carrier:
                found.append(path)
    return found
