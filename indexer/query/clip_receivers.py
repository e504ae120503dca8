"""The scripts an animation clip's events can call: those on the objects that play the clip.

Unity calls an event's function on every component of the GameObject whose Animator plays the clip
(or whose legacy Animation component holds it). The graph knows who plays it: the controllers
naming the clip in a state (and the override controllers of those), the objects whose Animator
names one of those controllers. A clip no object is found playing (a controller assigned at run
time, a clip a script field or a Timeline holds, a model's clip) may reach any method of the name.
Not read: components an instance of the prefab adds to the Animator's object (a variant's or a
scene's additions); their scripts are not among the receivers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from indexer.query.graph import Graph

_CONTROLLERS = (".controller", ".overrideController")
_PLACING = (".prefab", ".unity")
_PLAYERS = ("Animator", "Animation")  # the components whose object an event is sent to
_HOPS = 3  # clip -> controller -> override controller -> one more


def clip_receivers(graph: Graph, clip: str) -> frozenset[str] | None:
    """The script GUIDs on the objects playing `clip` (an `.anim`); None when no object is found
    playing it, or one holds it otherwise than through an Animator or Animation component."""
    guid = graph.records.guid_naming(clip) if clip.endswith(".anim") else None
    if not guid:
        return None
    objects: set[tuple[str, str]] = set()  # (file, object path)
    todo, seen = [guid], {guid}
    sql = "SELECT f.path, r.detail FROM refs r JOIN files f ON f.id = r.file_id WHERE r.kind = 'guid' AND r.key = ?"
    for _ in range(_HOPS):
        nxt = []
        for g in todo:
            for path, detail in graph.records.conn.execute(sql, (g,)).fetchall():
                owner, _, component = detail.rpartition(" > ")
                if path.endswith(_CONTROLLERS):
                    if (c := graph.records.guid_naming(path)) and c not in seen:
                        seen.add(c)
                        nxt.append(c)
                elif path.endswith(_PLACING) and component in _PLAYERS:
                    objects.add((path, owner))
                elif path != clip:
                    return None  # a script's field, a Timeline: who plays it is not in the files
        todo = nxt
    if todo or not objects:  # controllers left unread past the hops: who plays it is not known
        return None
    return frozenset(
        s.detail
        for path, owner in objects
        for s in graph.records.symbols(path)
        if s.kind == "component" and s.container == owner and s.detail
    )
