"""Animator controllers and clips, as Unity writes them: a controller's parameters and layers, its
states with their motions, the transitions between states with the conditions that fire them, and
a clip's animation events.

"What does the Hurt trigger do?" is answered by the transitions: `Locomotion -> Hurt when Hurt`.
The documents refer to each other by fileID (a state lists the transitions leaving it, a
transition names the state it enters), so `Machine` reads those links once per file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.model import Ref, Symbol

from .yaml_facts import DocReader

if TYPE_CHECKING:
    from .unity_yaml import _Scan

PARAM_TYPES = {"1": "Float", "3": "Int", "4": "Bool", "9": "Trigger"}
# AnimatorCondition.m_ConditionMode: how a condition reads its parameter (5 is unused by Unity)
_CONDITIONS = {"1": "{}", "2": "!{}", "3": "{} > {}", "4": "{} < {}", "6": "{} == {}", "7": "{} != {}"}
STATE, STATE_MACHINE, BLEND_TREE = 1102, 1107, 206


class Machine:
    """The names of a controller's states, state machines and blend trees by fileID, and the state
    each transition leaves (`Any State` and `Entry` for a state machine's own), and the states a
    state machine enters first (`m_DefaultState`)."""

    def __init__(self, docs: list[DocReader]) -> None:
        self.names: dict[int, str] = {}
        self.source: dict[int, str] = {}
        self.defaults: set[int] = set()
        for doc in docs:
            if doc.class_id not in (STATE, STATE_MACHINE, BLEND_TREE):
                continue
            name = self.names[doc.file_id] = doc.top("m_Name") or doc.class_name
            if doc.class_id == STATE:
                self.source.update(dict.fromkeys(doc.block_ref_ids("m_Transitions"), name))
            elif doc.class_id == STATE_MACHINE:
                self.source.update(dict.fromkeys(doc.block_ref_ids("m_AnyStateTransitions"), "Any State"))
                self.source.update(dict.fromkeys(doc.block_ref_ids("m_EntryTransitions"), "Entry"))
                self.defaults.add(doc.top_ref("m_DefaultState")[0])


def controller(scan: _Scan, doc: DocReader) -> None:
    name = doc.top("m_Name") or ""
    scan.symbols.append(Symbol("animator_controller", name, doc.line))
    for entry in doc.entries("m_AnimatorParameters"):
        if entry.name:
            ptype = PARAM_TYPES.get(entry.type, entry.type)
            scan.symbols.append(
                Symbol("animator_parameter", entry.name, doc.at(entry.line), container=name, type=ptype)
            )
    for entry in doc.entries("m_AnimatorLayers"):
        if entry.name:
            scan.symbols.append(Symbol("animator_layer", entry.name, doc.at(entry.line), container=name))
    scan.guid_refs(doc, name, "AnimatorController")


def state(scan: _Scan, doc: DocReader) -> None:
    """A state and its motion: a clip by GUID (`detail`), or a blend tree of the file by name; the
    state its machine enters first says `default`."""
    name = doc.top("m_Name") or ""
    local, motion = doc.top_ref("m_Motion")
    machine = scan.machine()
    tree = machine.names.get(local, "") if local and not motion else ""
    first = ("default",) if doc.file_id in machine.defaults else ()
    scan.symbols.append(
        Symbol(
            "animator_state",
            name,
            doc.line,
            detail=motion,
            signature=f"blend tree {tree}" if tree else "",
            attributes=first,
        )
    )
    scan.guid_refs(doc, name, "AnimatorState")


def transition(scan: _Scan, doc: DocReader) -> None:
    """`Locomotion -> Hurt when Hurt`, `Attack -> Idle after exit time 0.9`: the state it leaves
    (container), the one it enters (name), the conditions that fire it."""
    machine = scan.machine()
    source = machine.source.get(doc.file_id, "")
    target = machine.names.get(doc.top_ref("m_DstState")[0]) or machine.names.get(doc.top_ref("m_DstStateMachine")[0])
    target = target or ("Exit" if doc.top("m_IsExit") == "1" else "")
    if not source or not target:
        return  # not reachable from a state of this file
    conditions = []
    for entry in doc.entries("m_Conditions"):
        values = dict(entry.values)
        mode, parameter = values.get("m_ConditionMode", ""), values.get("m_ConditionEvent", "")
        if parameter:
            conditions.append(_CONDITIONS.get(mode, "{} ?").format(parameter, values.get("m_EventTreshold", "")))
    said = f"{source} -> {target}"
    said += f" when {' and '.join(conditions)}" if conditions else ""
    if doc.top("m_HasExitTime") == "1":
        said += f" after exit time {doc.top('m_ExitTime')}"
    said += " (muted)" if doc.top("m_Mute") == "1" else ""
    scan.symbols.append(Symbol("animator_transition", target, doc.line, container=source, signature=said))


def clip(scan: _Scan, doc: DocReader) -> None:
    name = doc.top("m_Name") or ""
    scan.symbols.append(Symbol("animation_clip", name, doc.line))
    for fn in doc.function_names():
        if fn.name:
            scan.refs.append(Ref("animation_event", fn.name, doc.at(fn.line), context="m_Events", detail=name))
    scan.guid_refs(doc, name, "AnimationClip")
