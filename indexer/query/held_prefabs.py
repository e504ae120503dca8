"""The prefab a script's object holds in a field of its own, named by the task.

A script spawning copies of a prefab (`Instantiate(heartPrefab, heartsContainer)`) is given the
prefab where its object is placed: the scene or prefab carrying the script holds it in the
component's field (`heartPrefab: {guid: ...}`). "Where is the little heart icon, and what spawns
one per affinity point" ranks `HeartsManager.cs` first and `Heart.prefab`, a picture with no script
of its own, far below; the task says the prefab's name, and the script names the file that holds
it only through its carrier's field. A script's settings are given it so too: a data asset in a
field of its component (`_config: {guid: ...}` on `DialogueSystem` in the scene) is where its
defaults are set (`raise_held_data`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.identifiers import name_stems
from indexer.project import file_title, is_prefab, is_script
from indexer.query.channels import channel_roles
from indexer.query.kept_records import kept_record

if TYPE_CHECKING:
    from collections.abc import Iterator

    from indexer.model import Ranked
    from indexer.query.graph import Graph
    from indexer.query.pairing import _Pairs

HELD_SCRIPTS = 3  # the best scripts whose carriers' fields are read (pairing.PAIRED_SCRIPTS)
HELD_CARRIERS = 3  # ... when at most these many prefabs and scenes carry the script
HELD_MOST = 3  # prefabs named by the task, at most, raised for one script
HELD_SHARE = 0.6  # of the script's score, not weighed by the prefab's prior (see raise_held_prefabs)
HELD_DATA_MOST = 3  # data assets, at most, a best script's components hold where it is placed


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
    for script, carriers, guid in _placed(pairs):
        held = {p for carrier in carriers for p in _held(graph, carrier, guid, stems) if p.startswith(pairs.prefix)}
        own = stems.intersection(name_stems(file_title(script.path)))  # the task's words the script's name says
        named = sorted(p for p in held if own.intersection(name_stems(file_title(p))))
        if not named or len(named) > HELD_MOST:
            continue
        for path in named:
            pairs.raise_to(path, script.score * HELD_SHARE, ("held_by_script", script.path, ()))


def raise_held_data(pairs: _Pairs, share: float, stems: frozenset[str]) -> None:
    """For each of the HELD_SCRIPTS best scripts that at most HELD_CARRIERS prefabs and scenes
    carry, the data assets of the project's own classes its components there hold under a name
    saying a word of the task (`stems`), at most HELD_DATA_MOST of them (a list of a game's items
    names no one), rank at least `share` of the script's score times their prior: where the
    script's settings are set ("the speaker's name should be bigger by default": `Dialogue System
    Configuration.asset`, the `_config` the scene gives `DialogueSystem`), the case `read_data`
    leaves to the carrier. Not an event channel the script raises or hears (`channel_roles`: a
    block's `BlockDestroyed_SO` is no setting of the blocks' wall), nor, when its carriers hold
    different assets in that field, one whose name says the task's word only as its class's does
    (`PlayList_Sample` of `PlayList` for "which song plays": the carrier's pick is named by its own
    words, `Security` of `IDPermission` for "a security ID")."""
    graph = pairs.project.graph
    for script, carriers, guid in _placed(pairs):
        held = [(p, f) for c in carriers for p, f in _fields(graph, c, guid) if p.endswith(".asset")]
        said = {(p, f) for p, f in held if p.startswith(pairs.prefix) and _says(stems, p) and graph.carries_script(p)}
        if not said or len({p for p, _f in said}) > HELD_DATA_MOST:
            continue
        text = pairs.project.texts.get(script.path).text  # read only for a script with such assets
        data = {p for p, f in said if not channel_roles(text, f) and _picked(graph, stems, p, f, held)}
        for path in sorted(data):
            pairs.raise_to(path, script.score * share * pairs.prior(path), ("held_by_script", script.path, ()))


def _placed(pairs: _Pairs) -> Iterator[tuple[Ranked, list[str], str]]:
    """Each of the HELD_SCRIPTS best scripts that 1 to HELD_CARRIERS prefabs and scenes carry,
    with those carriers and its GUID (what its components there are found by)."""
    graph = pairs.project.graph
    for script in pairs.best(is_script, HELD_SCRIPTS):
        carriers = [p for p in pairs.carriers(script.path) if p.endswith((".prefab", ".unity"))]
        guid = graph.records.guid_of_path(script.path) if 0 < len(carriers) <= HELD_CARRIERS else None
        if guid is not None:
            yield script, carriers, guid


def _says(stems: frozenset[str], path: str) -> bool:
    """Whether a file's name says a word of the task (`stems`)."""
    return not stems.isdisjoint(name_stems(file_title(path)))


def _picked(graph: Graph, stems: frozenset[str], asset: str, field: str, held: list[tuple[str, str]]) -> bool:
    """Whether `asset`, held in `field`, is the one the task names: the only asset that field holds
    in the script's carriers, or one whose name says a word of the task its class's name does not."""
    if all(p == asset for p, f in held if f == field):
        return True
    classes = [c for c, edge in graph.uses(asset) if edge == "script"]
    own = set(name_stems(file_title(asset))).difference(*(name_stems(file_title(c)) for c in classes))
    return not stems.isdisjoint(own)


def _fields(graph: Graph, carrier: str, script_guid: str, stems: frozenset[str] | None = None) -> list[tuple[str, str]]:
    """(path, field) of the files the components of the script of GUID `script_guid` hold in
    `carrier` (a reference's detail ends with its component's script, `... > script:<guid>`; its
    context is the field), in any field or, given `stems`, in fields whose name says one of them:
    a field saying none is passed over before its GUID is looked up."""
    rec = kept_record(graph, carrier)
    if rec is None:
        return []
    tail = "script:" + script_guid
    found = []
    for ref in rec.refs:
        if ref.kind == "guid" and ref.detail.endswith(tail):
            if stems is not None and stems.isdisjoint(name_stems(ref.context)):
                continue
            path = graph.path_of_guid(ref.target)
            if path and path != carrier:
                found.append((path, ref.context))
    return found


def _held(graph: Graph, carrier: str, script_guid: str, stems: frozenset[str]) -> list[str]:
    """The prefabs the components of the script of GUID `script_guid` hold in `carrier`, in fields
    whose name says a word of `stems`."""
    return [p for p, _field in _fields(graph, carrier, script_guid, stems) if is_prefab(p)]
