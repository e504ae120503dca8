"""Methods Unity calls by name: `SendMessage("TakeDamage")`, `Invoke("Respawn", 2f)`,
`StartCoroutine("Fade")`, and an animation clip's events (`functionName: Footstep`); and fields an
editor finds by name (`FindPropertyRelative("color")`), which a rename breaks as silently; and the
project's Lua calling C# members by name.

No type ties such a call to its method: Unity finds the method by name on the receiving object's
components at run time, so a usage search by type (and a GUID graph) misses it, and the method
looks unused. The C# scanner keeps literals shaped like names (`csharp_strings`) and the YAML
scanner the events' function names; here those meet the member asked about. Which component
receives a message is known only at run time, so these usages are by name: every method of that
name may be the one called, and each lists them; but a clip's event reaches only the scripts on
the objects playing the clip, when the files say which those are (`clip_receivers.py`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from indexer.model import Target, Usage
from indexer.query.clip_receivers import clip_receivers
from indexer.query.held_strings import lines_naming
from indexer.query.type_tree import declarer_of, member_family
from indexer.store.schema import REF_TARGET
from indexer.words import excerpt

if TYPE_CHECKING:
    from indexer.query.graph import Graph

# Unity's calls that name a method of a MonoBehaviour by a string, the name their first argument,
# and an editor's calls finding a serialized field by its name (a drawer's `FindPropertyRelative`).
_BY_NAME = (
    r"\b(SendMessage|SendMessageUpwards|BroadcastMessage|Invoke|InvokeRepeating|CancelInvoke|IsInvoking"
    r"|StartCoroutine|StopCoroutine|FindProperty|FindPropertyRelative)\s*\(\s*(?:{})"
)


# Of those, the calls on the calling component itself, unless another object is named before them
_SELF_CALLS = frozenset({"Invoke", "InvokeRepeating", "CancelInvoke", "IsInvoking", "StartCoroutine", "StopCoroutine"})
_ON_OTHER = re.compile(r"(?<!\bthis)\.\s*$")


def _family(graph: Graph, member: str, types: Iterable[str]) -> set[str]:
    """The types (qualified), and those deriving from the one declaring the member."""
    return {d for q in types for d in member_family(graph, declarer_of(graph, q, member) or q, member)} | set(types)


PLAYER_INPUT = "62899f850307741f2a39c98a8b639597"  # com.unity.inputsystem's PlayerInput script
# PlayerInput's `m_NotificationBehavior`: those calling `On<Action>` by name on the object's scripts
_SENDS = {"0": "Send Messages", "1": "Broadcast Messages"}


def message_usages(graph: Graph, member: str, types: Iterable[str] = ()) -> list[Usage]:
    """Code lines calling `member` by name, animation events calling it (of a clip played by
    objects carrying none of the types' scripts, none), and the PlayerInputs
    sending it as an action's message. With the member's `types`, a call on the object's own
    component (`StartCoroutine("DragObject")`, `Invoke("Respawn", 2f)`, no other object named) is
    one only in the files of those types and the types deriving from them (another class's
    `DragObject` was listed)."""
    family = _family(graph, member, types) if types else set()
    own = {t.path for t in graph.types if t.qualified in family} if types else None  # their files
    out: list[Usage] = []
    for path, n, text, m in lines_naming(graph, member, _BY_NAME):  # `SendMessage(EventConstants.DAMAGE)` too
        on_self = m[1] in _SELF_CALLS and not _ON_OTHER.search(text, 0, m.start())
        if own is None or not on_self or path in own:
            out.append(Usage(path, n, "code", "message", m[1], excerpt(text, member)))
    out += field_named_usages(graph, member, {q.rpartition(".")[2] for q in family})
    sql = (
        "SELECT f.path, r.line, r.context, r.detail FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.kind = 'animation_event' AND r.key = ?"
    )
    scripts = {g for f in own if (g := graph.records.guid_naming(f))} if own else set()
    for path, line, context, clip in graph.records.conn.execute(sql, (member,)).fetchall():
        # a clip the objects carrying none of the member's scripts play calls another class's
        if own and (receivers := clip_receivers(graph, path)) is not None and not receivers & scripts:
            continue
        out.append(Usage(path, line, "asset", "animation_event", context, f"{clip} calls {member}"))
    return out + player_input_usages(graph, member) + lua_usages(graph, member)


def receiverless_target(name: str) -> Target:
    """A name no member of the project's code has, that assets or code call by name (an animation
    event, `SendMessage`, `Invoke`): Unity finds no receiver for those calls ("AnimationEvent 'X' has
    no receiver"), which is what a user asking `refs X` is debugging; `refs` said no such name."""
    note = "no method of the project's code is named so: these calls by name find no receiver there"
    return Target(kind="message", name=name, member=name, note=note)


def field_named_usages(graph: Graph, member: str, names: set[str]) -> list[Usage]:
    """The scripts' fields in assets naming the method (Fungus's `targetMethod`), on one of the classes
    `names` (simple names; any, when empty) where a sibling field names the class it is called on."""
    sql = f"SELECT f.path, r.line, r.context, r.detail, {REF_TARGET} FROM refs r JOIN files f ON f.id = r.file_id"
    out = []
    for path, line, context, owner, target in graph.records.conn.execute(
        sql + " WHERE r.kind = 'method_name' AND r.key = ?", (member,)
    ):
        on = target.rpartition(".")[0]
        if not on or not names or on in names or not graph.types_named(on):
            out.append(Usage(path, line, "asset", "message", context, f"{owner} > {context}: {target}"))
    return out


def lua_usages(graph: Graph, member: str) -> list[Usage]:
    """Lines of the project's Lua (run through MoonSharp, xLua or ToLua, which expose C# members by
    their names) reaching the member on an object: `furniture:SetAnimationProgressValue(...)`,
    `World.Current.GetTileAt(...)`; a comment (`--`) left out. (A trial: a colony sim's Lua called
    C# methods `refs` said had no usages.)"""
    reached = re.compile(rf"[.:]\s*{re.escape(member)}\b")
    out: list[Usage] = []
    for path in graph.records.paths_of_kind("text"):
        if path.endswith(".lua"):
            for n, text in enumerate(graph.file_lines(path), 1):
                code = text.split("--", 1)[0]
                if reached.search(code):
                    out.append(Usage(path, n, "code", "message", "lua", excerpt(text, member)))
    return out


def action_message(action: str) -> str:
    """The method a PlayerInput sending messages calls for an action: `On` and its name as a type
    name (`CSharpCodeHelpers.MakeTypeName`: "Jump" -> `OnJump`, "fire weapon" -> `OnFireWeapon`)."""
    return "On" + "".join(w[:1].upper() + w[1:] for w in re.split(r"[^A-Za-z0-9_]+", action) if w)


def player_input_usages(graph: Graph, member: str) -> list[Usage]:
    """The PlayerInputs that call `member` (`OnAttack`) by name: set to Send or Broadcast
    Messages, with an actions asset holding the action it is named after. (A trial: a player's
    `OnMove`, `OnAttack` and `OnRestart`, called only so, read "no usages found".)"""
    if not member.startswith("On") or len(member) < 3:
        return []
    actions: dict[str, str] = {}  # GUID of an actions asset -> the action named so
    for path in graph.records.paths_of_kind("input_actions"):
        symbols = graph.records.symbols(path)
        named = [s for s in symbols if s.kind == "input_action" and action_message(s.name) == member]
        if named and (guid := graph.records.guid_naming(path)):
            actions[guid] = f"{named[0].container.rpartition('.')[2]}/{named[0].name}"  # map/action
    out: list[Usage] = []
    for guid, action in actions.items():
        sql = (
            "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE r.kind = 'guid' AND r.key = ? AND r.context = 'm_Actions'"
        )
        for (path,) in graph.records.conn.execute(sql, (guid,)):
            out += _sending(graph, path, guid, action, member)
    return out


def _sending(graph: Graph, path: str, guid: str, action: str, member: str) -> list[Usage]:
    """The PlayerInput components of one file using that actions asset and sending messages."""
    fields: dict[str, dict[str, tuple[int, str, str]]] = {}  # component file ID -> field -> (line, value, object)
    for s in graph.records.symbols(path):
        if s.kind == "field" and s.type == f"script:{PLAYER_INPUT}":
            fields.setdefault(s.detail, {})[s.name] = (s.line, s.signature.partition(": ")[2], s.container)
    out = []
    for component in fields.values():
        line, actions, owner = component.get("m_Actions", (0, "", ""))
        sends = _SENDS.get(component.get("m_NotificationBehavior", (0, "0", ""))[1])
        if actions == f"guid:{guid}" and sends:
            detail = f"{owner} > PlayerInput ({sends}) calls {member} for action {action}"
            out.append(Usage(path, line, "asset", "message", "PlayerInput", detail))
    return out
