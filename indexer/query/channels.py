"""Scripts that share an event channel: one raises it, the others listen to it.

A ScriptableObject event channel (`VoidEventChannelSO`, a `GameEvent`, an `IntEventChannel`) joins
scripts that never name each other: the player's `Energy` holds a field of the channel's class,
assigned in its prefab to `PlayerDie.asset`, and calls `Broadcast()` on it; the defeat menu's
`LostMenu` holds a field of the same class, assigned in a UI prefab to the same asset, and
subscribes to it (`AddListener(Show)`, `OnEventRaised += Show`). No edge of the graph goes from one
script to the other: each is carried by its own prefab, which references the asset. So "how does
the defeat screen get shown" ranked `Energy.cs` first and neither the asset nor `LostMenu.cs`.

This rule follows the broadcast through the asset, from structure alone: a field of one of the
best scripts, typed by a project class, that the script calls (raises) or subscribes to (listens
to), holds in a file carrying the script a data asset of that class (a ScriptableObject instance);
the scripts whose components hold the same asset in a field of theirs, and do the other half
(listen to what it raises, raise what it listens to), are its partners. An asset referenced by
many files (CHANNEL_USERS_MOST) says nothing of one task, nor one heard by many scripts.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from indexer.project import file_title, is_script

if TYPE_CHECKING:
    from indexer.query.pairing import _Pairs

# The CHANNEL_SCRIPTS best scripts' channels are followed: a partner ranks at least CHANNEL_SHARE of
# the script's score times its prior (divided by the square root of the channel's partners: of
# three menus hearing the level end, the one the task's words match stays first), the channel
# asset CHANNEL_ASSET_SHARE (divided alike).
CHANNEL_SCRIPTS, CHANNEL_SHARE, CHANNEL_ASSET_SHARE = 3, 0.8, 0.7
CHANNELS_MOST = 3  # a script raising or hearing more channels (a UI manager) is not followed
CHANNEL_CARRIERS_MOST = 6  # a script carried by more files (a generic component) is not followed
CHANNEL_USERS_MOST = 8  # an asset referenced by more files is a hub
CHANNEL_PARTNERS_MOST = 3  # a channel with more partners (heard by every screen) says nothing of one
_OWNER_SCRIPT = " > script:"  # how a reference's detail names the component it sits in
_GUID_REFS = (
    "SELECT f.path, r.context, r.detail FROM refs r JOIN files f ON f.id = r.file_id"
    " WHERE r.kind = 'guid' AND r.key = ?"
)
# a member of a field's object called, or an event of it subscribed to: `channel.Broadcast()`,
# `channel?.OnEventRaised += Show`, `channel.OnRaised.AddListener(Show)`
_USE = re.compile(r"\s*\??\.\s*(?:\w+\s*\??\.\s*)?(\w+)\s*(\(|[+-]=)")
_SUBSCRIBING = re.compile(r"(?:Add|Remove|Register|Unregister|Subscribe|Unsubscribe|Listen)\w*$")

Link = tuple[str, str, tuple[tuple[str, str], ...]]  # (channel asset, the script's role, (partner, its role))


def raise_channels(pairs: _Pairs, kind: str | None) -> None:
    """The CHANNEL_SCRIPTS best scripts' channels: each partner script ranks at least CHANNEL_SHARE
    of the script's score (when scripts may be shown), each channel asset CHANNEL_ASSET_SHARE (when
    data assets may be), each saying so: `listens to Assets/Events/PlayerDie.asset, which Energy.cs
    raises`; `event channel Energy.cs raises`."""
    project = pairs.project
    for script in pairs.best(is_script, CHANNEL_SCRIPTS):
        links = project.remember(("channels", script.path), lambda s=script.path: channel_links(project, s))
        if len(links) > CHANNELS_MOST:
            continue
        for asset, role, partners in links:
            if kind in (None, "csharp"):
                share = CHANNEL_SHARE / math.sqrt(len(partners))
                for partner, _ in partners:
                    if partner.startswith(pairs.prefix):
                        score = script.score * share * pairs.prior(partner)
                        _lift(pairs, partner, score, (_partner_edge(role), script.path, (asset,)))
            if kind in (None, "asset") and asset.startswith(pairs.prefix):
                score = script.score * CHANNEL_ASSET_SHARE / math.sqrt(len(partners)) * pairs.prior(asset)
                _lift(pairs, asset, score, ("channel_" + role, script.path, ()))


def _lift(pairs: _Pairs, path: str, score: float, why: tuple) -> None:
    """`path` raised to `score`, saying `why` when that is what ranks it: the channel, not the
    prefab the walk reached the asset from ("asset referenced by Player.prefab")."""
    pairs.raise_to(path, score, why)
    if pairs.ranked[path].score == score:
        pairs.boosts[path] = (score, *why)


def _partner_edge(role: str) -> str:
    """How a partner reads from the script reached from: the listener of what it raises listens."""
    return "listens" if role == "raised" else "raises"


def channel_links(project, script: str) -> tuple[Link, ...]:
    """The channels `script` raises or listens to, each with the scripts doing the other half:
    (asset, "raised" or "heard", ((partner, "heard" or "raised"), ...)). Read cheapest first (most
    scripts stop at the first step): the files carrying it, the data assets they reference of a
    class the script uses, the script's fields of that class it calls or subscribes to, and only
    then the references to such an asset (`_channel_users`)."""
    graph = project.graph
    carriers = [p for p, edge in graph.used_by(script) if edge == "carries_script"]
    if not carriers or len(carriers) > CHANNEL_CARRIERS_MOST:
        return ()
    held = {a for k in carriers for a, edge in graph.uses(k) if edge == "asset" and a.endswith(".asset")}
    classes = {p for p, edge in graph.uses(script) if edge == "type" and is_script(p)} if held else set()
    channels = _instances(graph, held, classes)
    roles = _field_roles(project, script, set(channels.values())) if channels else {}
    links = []
    for asset in sorted(channels) if roles else ():
        users = project.remember(("channel_users", asset), lambda a=asset: _channel_users(project, a))
        mine = {r for user, field in users if user == script and field in roles for r in roles[field]}
        for role in sorted(mine):  # (none: another component of its carrier holds the asset)
            partners = _partners(project, users, script, "heard" if role == "raised" else "raised")
            if partners and len(partners) <= CHANNEL_PARTNERS_MOST:
                links.append((asset, role, partners))
    return tuple(links)


def _instances(graph, held: set[str], classes: set[str]) -> dict[str, str]:
    """asset -> its class, for the data assets among `held` of one of `classes` (scripts' paths):
    read from whichever side is smaller (a level references a hundred assets, a script uses a few
    classes), a query each."""
    if len(held) <= len(classes):
        return {a: c for a in sorted(held) for c, edge in graph.uses(a) if edge == "script" and c in classes}
    return {a: c for c in sorted(classes) for a, edge in graph.used_by(c) if edge == "carries_script" and a in held}


def _field_roles(project, script: str, classes: set[str]) -> dict[str, frozenset[str]]:
    """field -> what the script does with it ("raised", "heard"), for its fields typed by one of
    `classes` (their scripts' paths) that it calls or subscribes to."""
    names = {file_title(c) for c in classes}
    fields = [s.name for s in project.graph.records.symbols(script) if s.kind == "field" and _bare(s.type) in names]
    text = project.texts.get(script).text if fields else ""
    roles = {field: channel_roles(text, field) for field in fields}
    return {field: found for field, found in roles.items() if found}


def _bare(written: str) -> str:
    """A field's type as its class's own name: `Events.VoidEventChannelSO` -> `VoidEventChannelSO`."""
    return written.split("<", 1)[0].rstrip("[]? ").rsplit(".", 1)[-1]


def channel_roles(text: str, field: str) -> frozenset[str]:
    """What a script's `text` does with the object its `field` holds: subscribes to it ("heard":
    `field.AddListener(`, `field.OnEventRaised += `), calls another member of it ("raised":
    `field.Broadcast()`, `field.RaiseEvent(3)`), both or neither."""
    found = set()
    at = text.find(field)
    while at >= 0:
        before = text[at - 1] if at else " "
        m = _USE.match(text, at + len(field))
        if m and not (before.isalnum() or before in "_."):  # not another name ending so, or another's member
            found.add("heard" if m.group(2) != "(" or _SUBSCRIBING.match(m.group(1)) else "raised")
        at = text.find(field, at + len(field))
    return frozenset(found)


def _channel_users(project, asset: str) -> tuple[tuple[str, str], ...]:
    """(script, field) for each component, in a scene, prefab or data asset, holding `asset` in a
    field of its script; none when more than CHANNEL_USERS_MOST files reference the asset (a hub).
    Read from the `refs` table, one lookup by the asset's GUID: no scene's record is decoded."""
    graph = project.graph
    guid = graph.records.guid_of_path(asset)
    rows = list(graph.records.conn.execute(_GUID_REFS, (guid,))) if guid else []
    if len({path for path, _, _ in rows}) > CHANNEL_USERS_MOST:
        return ()
    users = set()
    for _, field, detail in rows:
        if _OWNER_SCRIPT in detail:
            user = graph.path_of_guid(detail.rsplit(_OWNER_SCRIPT, 1)[1])
            if user and is_script(user):
                users.add((user, field))
    return tuple(sorted(users))


def _partners(project, users: tuple[tuple[str, str], ...], script: str, wanted: str) -> tuple[tuple[str, str], ...]:
    """The scripts but `script` among an asset's `users` that do `wanted` ("heard", "raised") with
    the field holding it."""
    found = {
        (user, wanted)
        for user, field in users
        if user != script and wanted in channel_roles(project.texts.get(user).text, field)
    }
    return tuple(sorted(found))
