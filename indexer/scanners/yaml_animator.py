"""Animator controllers and clips, as Unity writes them: a controller's parameters and layers, its
states with their motions, the transitions between states with the conditions that fire them, and
a clip's animation events.

"What does the Hurt trigger do?" is answered by the transitions: `Locomotion -> Hurt when Hurt`.
The documents refer to each other by fileID (a state lists the transitions leaving it, a
transition names the state it enters), so `Machine` reads those links once per file.
"""

from __future__ import annotations

from collections import Counter
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
    state machine enters first (`m_DefaultState`); each state machine's path from its layer's
    (`Base Layer/Jump`), the machine holding each state, and the state or machine owning each
    StateMachineBehaviour: a player's 47 states in 14 sub-state machines read as one flat list."""

    def __init__(self, docs: list[DocReader]) -> None:
        self.names: dict[int, str] = {}
        self.source: dict[int, tuple[int, str]] = {}  # transition -> the state it leaves, or a machine's word
        self.defaults: set[int] = set()
        self.parent: dict[int, int] = {}  # state or machine -> the machine holding it
        self.own: dict[int, int] = {}  # StateMachineBehaviour -> its state or machine
        self.machines: set[int] = set()
        self._tails: Counter[str] | None = None  # each end of a state's or machine's path, how many have it
        for doc in docs:
            if doc.class_id not in (STATE, STATE_MACHINE, BLEND_TREE):
                continue
            self.names[doc.file_id] = doc.top("m_Name") or doc.class_name
            self.own.update(dict.fromkeys(doc.block_ref_ids("m_StateMachineBehaviours"), doc.file_id))
            if doc.class_id == STATE:
                self.source.update(dict.fromkeys(doc.block_ref_ids("m_Transitions"), (doc.file_id, "")))
            elif doc.class_id == STATE_MACHINE:
                self.machines.add(doc.file_id)
                self.source.update(
                    dict.fromkeys(doc.block_ref_ids("m_AnyStateTransitions"), (doc.file_id, "Any State"))
                )
                self.source.update(dict.fromkeys(doc.block_ref_ids("m_EntryTransitions"), (doc.file_id, "Entry")))
                self.defaults.add(doc.top_ref("m_DefaultState")[0])
                children = doc.block_ref_ids("m_ChildStates") + doc.block_ref_ids("m_ChildStateMachines")
                self.parent.update(dict.fromkeys(children, doc.file_id))

    def path(self, file_id: int) -> str:
        """A state's or state machine's path from its layer's machine, `Base Layer/Jump/Jump_Prep`
        (its name alone when no machine holds it)."""
        steps, seen = [], set()
        while file_id in self.names and file_id not in seen:
            seen.add(file_id)
            steps.append(self.names[file_id])
            file_id = self.parent.get(file_id, 0)
        return "/".join(reversed(steps))

    def unique(self, file_id: int) -> str:
        """The shortest end of a state's or machine's path no other state or machine's path ends
        with (its name, unless another has it)."""
        if self._tails is None:
            paths = [self.path(f).split("/") for f in self.names if f in self.parent or f in self.machines]
            self._tails = Counter("/".join(p[-n:]) for p in paths for n in range(1, len(p) + 1))
        steps = self.path(file_id).split("/")
        return next((t for n in range(1, len(steps)) if self._tails[t := "/".join(steps[-n:])] <= 1), "/".join(steps))

    def machine_of(self, file_id: int) -> str:
        """The path of the machine holding a state or machine ('' for none)."""
        return self.path(self.parent[file_id]) if file_id in self.parent else ""

    def left(self, transition: int) -> tuple[str, str]:
        """(name, path) of what a transition leaves: a state, or a machine's `Any State` or `Entry`."""
        source, word = self.source.get(transition, (0, ""))
        if not word:
            return self.names.get(source, ""), self.path(source)
        return word, f"{self.path(source)}/{word}"


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


def state_machine(scan: _Scan, doc: DocReader) -> None:
    """A state machine by its name under the path of the machine holding it (a layer's own: none)."""
    machine = scan.machine()
    name = doc.top("m_Name") or ""
    scan.symbols.append(Symbol("animator_state_machine", name, doc.line, container=machine.machine_of(doc.file_id)))


def state(scan: _Scan, doc: DocReader) -> None:
    """A state and its motion: a clip by GUID (`detail`), or a blend tree of the file by name; the
    state its machine enters first says `default`; its container is its machine's path."""
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
            container=machine.machine_of(doc.file_id),
            detail=motion,
            signature=f"blend tree {tree}" if tree else "",
            attributes=first,
        )
    )
    scan.guid_refs(doc, name, "AnimatorState")


def transition(scan: _Scan, doc: DocReader) -> None:
    """`Locomotion -> Hurt when Hurt`, `Attack -> Idle after exit time 0.9`: the state it leaves
    (container: its path), the one it enters (name; said by its path when in another machine), the
    conditions that fire it."""
    machine = scan.machine()
    source, source_path = machine.left(doc.file_id)
    state, sub = doc.top_ref("m_DstState")[0], doc.top_ref("m_DstStateMachine")[0]
    target = machine.names.get(state) or machine.names.get(sub)
    target = target or ("Exit" if doc.top("m_IsExit") == "1" else "")
    if not source or not target:
        return  # not reachable from a state of this file
    entered = _entered(machine, state if state in machine.names else sub) or target
    conditions = []
    for entry in doc.entries("m_Conditions"):
        values = dict(entry.values)
        mode, parameter = values.get("m_ConditionMode", ""), values.get("m_ConditionEvent", "")
        if parameter:
            conditions.append(_CONDITIONS.get(mode, "{} ?").format(parameter, values.get("m_EventTreshold", "")))
    said = f"{source} -> {entered}"
    said += f" when {' and '.join(conditions)}" if conditions else ""
    if doc.top("m_HasExitTime") == "1":
        said += f" after exit time {doc.top('m_ExitTime')}"
    said += " (muted)" if doc.top("m_Mute") == "1" else ""
    scan.symbols.append(Symbol("animator_transition", target, doc.line, container=source_path, signature=said))


def _entered(machine: Machine, file_id: int) -> str:
    """A state or machine a transition enters: by its name, or by as much of its path as tells it
    from the controller's others of that name (`Base Layer/Idle` beside `Base Layer/Intro/Idle`);
    a machine says so, `Jump (machine)`."""
    if file_id not in machine.names:
        return ""
    said = machine.unique(file_id)
    return f"{said} (machine)" if file_id in machine.machines else said


def clip(scan: _Scan, doc: DocReader) -> None:
    name = doc.top("m_Name") or ""
    scan.symbols.append(Symbol("animation_clip", name, doc.line))
    for fn in doc.function_names():
        if fn.name:
            scan.refs.append(Ref("animation_event", fn.name, doc.at(fn.line), context="m_Events", detail=name))
    scan.guid_refs(doc, name, "AnimationClip")
