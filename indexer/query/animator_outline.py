"""The outline of an animator controller: each layer with its states, then each sub-state machine
by its path (`Base Layer/Jump`) with its own, each state with its motion, its StateMachineBehaviours
(their class and fields, a list of assets by their names) and the transitions leaving it.

A player's controller of 47 states in 14 sub-state machines read as one flat list under `Base
Layer` with 13 states `[default]` (each its own machine's), and each behaviour said `ArrAbilities:
[7 items]` where the ability assets it lists are the state's whole behaviour; they were named only
in the references, a long path a line, cut past 400 lines (a trial, session 41). The files a state
names are said by their names; the references say each folder once with its files in it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.project import file_title
from indexer.query.component_fields import ComponentFields
from indexer.query.list_items import listed_references
from indexer.query.outline import Part, Section, short
from indexer.query.references import referenced

if TYPE_CHECKING:
    from indexer.model import FileRecord, Ref, Symbol
    from indexer.query.graph import Graph

ITEMS_NAMED = 20  # of a list of references, then how many more
BEHAVIOUR_CHARS = 400  # a behaviour's line: its class and fields
_EMPTY = frozenset({"None", "[]", "{}", ""})
LEFT_OUT = "(behaviours' fields set to None or empty are not shown: --json lists every field)"


def is_machine(rec: FileRecord) -> bool:
    """A controller whose states say their state machine (an index since schema 48)."""
    return rec.kind == "animator" and any(s.kind == "animator_state_machine" for s in rec.symbols)


def animator_parts(rec: FileRecord, graph: Graph) -> tuple[list[Part], list[Symbol], list[Part]]:
    """The controller's lines, the symbols left for the asset's other lines (a blend tree), and the
    lines after those: what was left out, the references."""
    out = _Outline(rec, graph)
    lines: list[Part] = [(out.head_line(s), None) for s in rec.symbols if s.kind in _HEAD]
    for layer in [s for s in rec.symbols if s.kind == "animator_layer"] or [None]:
        lines += out.machines_of(layer.name if layer else "")
    lines += out.machines_of(None)  # machines no layer names
    rest = [s for s in rec.symbols if s.kind not in _HEAD and s.kind not in _OWN]
    references = _references(rec, graph, out.named)
    return lines, rest, [*([(LEFT_OUT, None)] if out.left_out else []), *([references] if references else [])]


def _references(rec: FileRecord, graph: Graph, named: set[str]) -> Section | None:
    """What the file references, a line each as other assets say them, but the files the outline
    names by their names (a state's clip, a behaviour's list of assets): counted, not said again."""
    lines, counted, fields = [], 0, []
    for target, contexts in referenced(rec, graph, exclude=()).items():
        if target in named:
            counted += 1
            fields += [c for c in contexts if c not in fields]
            continue
        said = f" ({', '.join(contexts[:4])})" if contexts else ""
        lines.append((f"  {target}{said}", f"{target.rsplit('/', 1)[-1]}{said}"))
    if counted:
        said = f" ({', '.join(fields[:4])})" if fields else ""
        text = f"  and {counted} file{'s' if counted > 1 else ''} named above by file name{said}"
        lines.append((f"{text}: their paths are in uses (all in --json)", text))
    return Section("references:", tuple(lines)) if lines else None


_HEAD = ("animator_controller", "animator_parameter")
_OWN = ("animator_layer", "animator_state", "animator_state_machine", "animator_transition", "field")


class _Outline:
    """A controller's symbols by the state or machine holding them."""

    def __init__(self, rec: FileRecord, graph: Graph) -> None:
        self.rec, self.graph, self.fields = rec, graph, ComponentFields(graph)
        self.machines = {_path(s): s for s in rec.symbols if s.kind == "animator_state_machine"}
        self.held: dict[str, list[Symbol]] = {}  # by the path of their machine, state or transition's source
        for s in rec.symbols:
            if s.kind in ("animator_state", "animator_transition", "field"):
                self.held.setdefault(s.container, []).append(s)
        self.scripts: dict[str, list[Ref]] = {}
        for r in rec.refs:
            if r.kind == "script":
                self.scripts.setdefault(r.detail, []).append(r)
        self.shown: set[str] = set()
        self.named: set[str] = set()  # the files named by their names
        self.left_out = False

    def head_line(self, s: Symbol) -> str:
        if s.kind == "animator_parameter":
            return f"  animator parameter {s.name}{f' [{s.type}]' if s.type else ''}  L{s.line}"
        return f"animator controller {s.name}  L{s.line}"

    def machines_of(self, layer: str | None) -> list[Part]:
        """A layer's line, its machine's states, then its sub-state machines by path (`layer` ''
        when the controller has no layer; None for the machines not yet shown)."""
        out: list[Part] = []
        if layer is not None:
            for s in self.rec.symbols:
                if s.kind == "animator_layer" and s.name == layer:
                    out.append((f"  animator layer {s.name}  L{s.line}", None))
            out += self.machine(layer)
        for path in sorted(self.machines):
            if path not in self.shown and (layer is None or path.startswith(f"{layer}/")):
                out.append((f"  machine {path}  L{self.machines[path].line}", None))
                out += self.machine(path)
        if layer is None and "" in self.held:  # states no machine read holds
            out += [("  states no state machine holds (never played)", None), *self.machine("")]
        return out

    def machine(self, path: str) -> list[Part]:
        """The behaviours, states and `Any State` and `Entry` transitions of the machine at `path`."""
        self.shown.add(path)
        held = self.held.pop(path, [])
        out = self.behaviours(path, "    ", held)
        states = [s for s in held if s.kind == "animator_state"]
        for state in sorted(states, key=lambda s: "default" not in s.attributes):  # what it plays first, first
            out += self.state_block(state, f"{path}/{state.name}" if path else state.name)
        for word in ("Any State", "Entry"):
            out += [(f"    {t.signature}  L{t.line}", t.signature) for t in self.held.pop(f"{path}/{word}", ())]
        return out

    def state_block(self, state: Symbol, path: str) -> list[Part]:
        """A state's line, its behaviours' and the transitions leaving it: one block, kept whole by
        a context pack when any of its words is the task's (`Jump` in an ability asset's name)."""
        own = self.held.pop(path, [])
        lines = [self.state_line(state), *(line for line, _ in self.behaviours(path, "      ", own))]
        lines += [
            f"      -> {t.signature.partition(' -> ')[2]}  L{t.line}" for t in own if t.kind == "animator_transition"
        ]
        words = " ".join(lines)
        return [(line, words) for line in lines]

    def state_line(self, s: Symbol) -> str:
        clip = self.graph.path_of_guid(s.detail) if s.detail else ""
        self.named.add(clip)
        motion = clip.rsplit("/", 1)[-1] if clip else s.signature  # a clip's file, or a blend tree
        first = " [default]" if "default" in s.attributes else ""  # what its machine plays first
        return f"    state {s.name}" + (f" (motion {motion})" if motion else "") + f"{first}  L{s.line}"

    def behaviours(self, owner: str, indent: str, held: list[Symbol]) -> list[Part]:
        """A line for each StateMachineBehaviour of a state or machine (`owner`): its class and its
        fields among `held`."""
        scripts = sorted(self.scripts.get(owner, ()), key=lambda r: r.line)
        fields = [s for s in held if s.kind == "field"]
        out: list[Part] = []
        for n, script in enumerate(scripts):
            end = scripts[n + 1].line if n + 1 < len(scripts) else float("inf")
            said = [x for f in fields if script.line < f.line < end and (x := self.field_said(f))]
            text = self.class_of(script.target) + (f": {'; '.join(said)}" if said else "")
            out.append((f"{indent}{short(text, BEHAVIOUR_CHARS)}  L{script.line}", None))
        return out

    def class_of(self, guid: str) -> str:
        """A behaviour's class by its script's GUID: the project's, a package's, or said missing."""
        cls = self.graph.script_class(guid)  # (a package's known script too)
        return cls.rsplit(".", 1)[-1] if cls else f"missing script (guid {guid})"

    def field_said(self, field: Symbol) -> str:
        """`speed: 3`, a list of references by their files' names; '' for a field set to nothing."""
        listed = listed_references(self.graph, self.rec.path, field)
        if listed is not None:
            self.named.update(listed[:ITEMS_NAMED])
            names = [_name(x) for x in listed[:ITEMS_NAMED]]
            more = [f"… {len(listed) - ITEMS_NAMED} more"] if len(listed) > ITEMS_NAMED else []
            return f"{field.name}: {', '.join(names + more)}"
        said = (
            self.fields.worded(field.type[7:], field).signature if field.type.startswith("script:") else field.signature
        )
        said = self.graph.readable(said)
        if said.partition(": ")[2].strip() in _EMPTY:
            self.left_out = True
            return ""
        return short(said)


def _path(s: Symbol) -> str:
    return f"{s.container}/{s.name}" if s.container else s.name


def _name(said: str) -> str:
    """A project file by its name without extension (`Player_Jump_Normal`), anything else as said."""
    if " (" in said or "/" not in said:
        return said
    return file_title(said)
