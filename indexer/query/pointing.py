"""Where a hit points: the line it shows and the declaration or object it is named by. A hit
holding a quoted text points at it, one holding a value the task says at that field, a scene
reached as carrying a script at the object carrying it; GUIDs and unnamed instances' file IDs in
its name and line are written as `describe` writes them.
"""

from __future__ import annotations

import re

import msgspec

from indexer.identifiers import SETTING_VERBS, TASK_WORDS, name_stems, stem
from indexer.model import Hit
from indexer.project import file_title
from indexer.query.instances import instance_named, renamable, renamed, unnamed_title, with_path
from indexer.query.quotes import quote_line
from indexer.query.search import Outline
from indexer.query.values import Held
from indexer.query.walk import CHANNEL_REASONS, REASONS
from indexer.store.schema import MAX_OUTLINE_ENTRIES


def pointed(
    project,
    hit: Hit,
    quoted: dict[str, str],
    held: dict[str, Held],
    outlines: dict[str, Outline] | None,
    reached: tuple[str, str, tuple[str, ...]] | None = None,
    words: tuple[frozenset[str], int] = (frozenset(), 1),
) -> Hit:
    """A hit as shown: at the text the task quotes, or else at the field holding the value it
    says, or else at the object carrying the script (at its field the task's words name, `words`:
    their stems and how many a field must say) or referencing the file the walk reached it from
    (`reached`: the edge, that file, the prefabs between); an asset's GUIDs as
    the files they stand for (`m_GameEnded: Assets/Events/GameEnded.asset`). Unnamed (`outlines`
    None), only a file holding a said value is named, by that field (a pack shows it)."""
    if outlines is None:
        return hit if hit.path not in held else msgspec.structs.replace(hit, **held[hit.path]._asdict())
    outline = outlines.get(hit.path)
    before = hit
    if reached is not None and reached[0] == "carries_script":
        hit = _at_carrier(project, hit, *reached[1:], words=words)
    elif reached is not None and reached[0] == "instance_of":
        hit = _at_carrier(project, hit, "", (reached[1],))  # at its first instance of that prefab
    elif reached is not None:
        hit = _at_reference(project, hit, reached[1])
        if hit.line == before.line and hit is not before:  # at the field it is named by: as named (by class)
            hit = msgspec.structs.replace(hit, name=before.name)
    by_edge = hit is not before
    if hit.path in quoted:
        hit, by_edge = _at_quote(project, hit, quoted[hit.path], outline), False
    elif hit.path in held:
        hit, by_edge = _at_line(project, hit, held[hit.path].line, held[hit.path].snippet, outline), False
    hit = _said_of_file(hit, reached[0] if reached is not None and by_edge else "")
    if "guid:" in hit.snippet or "script:" in hit.snippet or "/source:" in hit.snippet:
        hit = msgspec.structs.replace(hit, snippet=project.graph.readable(hit.snippet))
    if "&" in hit.name and hit.kind in ("prefab", "scene"):  # named by an unnamed instance's file ID
        rec = project.records.record(hit.path)
        if rec is not None:
            graph = project.graph
            named = {
                f: instance_named(getattr(hit, f), rec, graph.path_of_guid, graph.targets.source)
                for f in ("name", "snippet")
            }
            hit = msgspec.structs.replace(hit, **named)
    if hit.kind in ("prefab", "scene"):
        hit = _editor_named(project, hit)
    return hit


def _said_of_file(hit: Hit, pointed_by: str) -> Hit:
    """A hit named by one of its objects or members says the graph edges of its file as the file's
    (`…; the scene carries script DialogManager.cs`, `the script is a UnityEvent target in
    Game.unity`), but the one it was pointed by (`pointed_by`, its object the one carrying the
    script): under the object `BGM_Manager` a bare "carries script" read as that object's, and
    under `Player.maxHunger` "UnityEvent target in" as the field's, and they were not. A hit named
    by its file's class or root object keeps them bare: that is the file."""
    stem = file_title(hit.path)
    if not hit.name or re.split(r"[./]", hit.name)[-1] == stem:  # named by its class or its root: the file
        return hit
    noun = _NOUNS.get(hit.kind, "file")
    parts = hit.reason.split("; ")
    said = [_in_file_voice(p, noun, pointed_by) for p in parts]
    return hit if said == parts else msgspec.structs.replace(hit, reason="; ".join(said))


def _in_file_voice(part: str, noun: str, pointed_by: str) -> str:
    for edge, prefix in _EDGE_SAID.items():
        if part.startswith(prefix) and edge != pointed_by:
            return f"the {noun} {_FILE_VOICE.get(edge, prefix)}{part[len(prefix) :]}"
    return part


_EDGE_SAID = {edge: text.partition("{}")[0] for edge, text in REASONS.items()}
_EDGE_SAID |= {edge: text.partition("{")[0] for edge, text in CHANNEL_REASONS.items()}
# each edge said of the file (`walk.REASONS` says it after the file's path): "the prefab is placed in"
_FILE_VOICE = {
    "base": "is a base class of ",
    "interface": "is an interface of ",
    "script": "is on ",
    "prefab": "is placed in ",
    "type": "is a type used by ",
    "asset": "is referenced by ",
    "loads": "is loaded by name in ",
    "unity_event": "is a UnityEvent target in ",
    "subclass": "is a subclass of ",
    "instance_of": "is an instance or variant of ",
    "places_instance_of": "places an instance of ",
    "variant_of": "is a variant of ",
    "nests_instance_of": "nests an instance of ",
    "base_of": "is the base prefab of the variant ",
    "nested_in": "is nested in ",
    "channel_raised": "is an event channel ",
    "channel_heard": "is an event channel ",
}
_NOUNS = {
    "csharp": "script", "scene": "scene", "prefab": "prefab", "asset": "asset", "uxml": "layout", "shader": "shader",
    "material": "material",
}  # fmt: skip


def _editor_named(project, hit: Hit) -> Hit:
    """A hit inside a prefab instance named by a child's rename, by the name the editor shows
    (`TargetPrefab (1)`, not `Detector(1)`; instances.renamed_instances). The file's renamable
    instances are kept per generation; the sources are read only of those the hit's name says (a
    scene's dozens of instances each read its prefab: a third of a first query's time)."""
    instances = project.remember(("renamable", hit.path), lambda: renamable(project.records.symbols(hit.path)))
    said = {path: v for path, v in instances.items() if path in hit.name}
    name = with_path(hit.name, renamed(said, project.graph.targets.source)) if said else hit.name
    return hit if name == hit.name else msgspec.structs.replace(hit, name=name)


POINTED_EDGES = frozenset({"carries_script", "refers_to", "instance_of"})


def _at_reference(project, hit: Hit, used: str) -> Hit:
    """A scene or prefab reached as referencing a file, at its first field doing so, named by the
    object and field (`Environment.randomItems: Assets/Prefabs/Potion.prefab`; a word's
    match had named the `Player` instance, beside "references Potion.prefab"); a reference a key
    inside a field's value makes, at that field (`Player.StartingHP`, not its `Variable`)."""
    guid = project.records.guid_naming(used)
    rec = project.records.record(hit.path) if guid else None
    ref = next((r for r in rec.refs if r.kind == "guid" and r.target == guid), None) if rec is not None else None
    if ref is None or not ref.detail:
        return hit
    owner = ref.detail.split(" > ", 1)[0]  # named as a matched field is: `Environment.randomItems`
    field = _holding(project.records.symbols(hit.path), ref.line)
    if field is not None and field.name != ref.context:  # a key inside it: `StartingHP`'s `Variable`
        said = field.signature if guid in field.signature else f"{field.name}.{ref.context}: {used}"
        return msgspec.structs.replace(hit, name=f"{owner}.{field.name}", line=field.line, snippet=said)
    name = f"{owner}.{ref.context}" if ref.context.isidentifier() else owner
    return msgspec.structs.replace(hit, name=name, line=ref.line, snippet=f"{ref.context}: {used}")


def _holding(symbols, line: int):
    """The field whose value holds this line (the last declaration at or above it, when a field)."""
    above = max((s for s in symbols if 0 < s.line <= line), key=lambda s: s.line, default=None)
    return above if above is not None and above.kind == "field" else None


def _at_carrier(
    project, hit: Hit, script: str, chain: tuple[str, ...] = (), words: tuple[frozenset[str], int] = (frozenset(), 1)
) -> Hit:
    """A scene or prefab reached as carrying a script, named by its first object doing so (a trial:
    "which object has the EnemyManager" named `CM-FreeLook/BottomRig/cm.m_TrackedObjectOffset`), at
    the field of that component saying at least `words[1]` of the task's words (`words[0]`, stems:
    "the dash is too short" had the scene at the Movement's `m_Script` line, not `dashSpeed: 40`),
    or by its first instance of the prefab it carries it through (an object matching a word had
    named it, `Camera Components`, beside "carries script PlayerMovement.cs via Player.prefab")."""
    guid = project.records.guid_naming(script) if script else None
    symbols = project.records.symbols(hit.path) if guid or chain else ()
    component = next((s for s in symbols if s.kind == "component" and s.detail == guid), None) if guid else None
    if (component is None or not component.container) and chain:
        through = project.records.guid_naming(chain[0])
        instance = next((s for s in symbols if s.kind == "prefab_instance" and s.detail == through), None)
        if instance is not None:
            name = (
                instance.qualified if instance.name else unnamed_title(through, chain[0], project.graph.targets.source)
            )
            return msgspec.structs.replace(hit, name=name, line=instance.line, snippet=f"prefab instance of {chain[0]}")
    if component is None or not component.container:
        return hit
    label = project.graph.script_label(guid)
    field = _field_named(symbols, component, *words)
    if field is not None:
        name = f"{component.container} > {label}.{field.name}"
        return msgspec.structs.replace(hit, name=name, line=field.line, snippet=field.signature)
    return msgspec.structs.replace(hit, name=component.container, line=component.line, snippet=f"m_Script: {label}")


_VALUE = re.compile(r"-?\d[\d.eE+-]*$|guid:")  # `dashSpeed: 40`, `MoveRate: guid:…` (an asset)


def _field_named(symbols, component, words: frozenset[str], need: int):
    """The field of a component (its symbols follow it) holding a value (a number, an asset: not
    an object of the file, a list, a struct or an event, `_VALUE`) whose name holds the most of
    `words`, at least `need`, the first of a tie; None when none does."""
    at = symbols.index(component) + 1
    best, most = None, need - 1
    while at < len(symbols) and symbols[at].kind == "field":
        said = len(words.intersection(name_stems(symbols[at].name)))
        if said > most and _VALUE.match(symbols[at].signature.partition(": ")[2]):
            best, most = symbols[at], said
        at += 1
    return best


def _at_quote(project, hit: Hit, phrase: str, outline: Outline | None) -> Hit:
    """A hit holding a text the task quotes points at it: its line, and the declaration above it."""
    at = quote_line(project.texts.get(hit.path), phrase)
    return hit if at is None else _at_line(project, hit, *at, outline)


def _at_line(project, hit: Hit, line: int, text: str, outline: Outline | None) -> Hit:
    """The hit pointing at this line of its file, named by the declaration at or above it: of the
    file's record when its search outline was cut (at MAX_OUTLINE_ENTRIES, its types and objects
    kept first: the entry above the line may not be the nearest declaration), as a big scene's is,
    where the last entry would name another object."""
    entries = [(d.line, d.qualified) for d in (outline.entries if outline else ())]
    if not entries or len(entries) >= MAX_OUTLINE_ENTRIES or max(entries)[0] < line or hit.kind in ("prefab", "scene"):
        # a scene's outline is its first objects in the Hierarchy's order, not the file's: one
        # further down the file may be left out, and the nearest entry above name another object
        entries = [(s.line, s.qualified) for s in project.records.symbols(hit.path)] or entries
    above = [e for e in entries if 0 < e[0] <= line]
    return msgspec.structs.replace(hit, name=max(above)[1] if above else hit.name, line=line, snippet=text)


def field_words(naming: list[str], said: list[str]) -> tuple[frozenset[str], int]:
    """The stems naming a carrier's field (`_at_carrier`) and how many it must say: half the task's
    own words (`said`: not those asking for a change, nor two said words joined): a field saying
    one word of a long task (`isAttackingEnemy` for "the player never locks on to a new kind of
    enemy") is not the answer its component's line is not."""
    own = [w for w in said if w not in TASK_WORDS and w not in SETTING_VERBS and not w.isdigit()]
    words = [w for w in own if not any(w != v and w.startswith(v) for v in own)]
    stems = frozenset(stem(w) for w in naming if w not in TASK_WORDS and w not in SETTING_VERBS)
    return stems, max(1, (len(words) + 1) // 2)


def pointed_by(hit: Hit, reached: tuple | None, named: bool, stems: set[str]) -> tuple | None:
    """The walk's edge a hit is pointed by (`reached`: edge, file, chain), or None when its name
    answers the task better: one the task says (`named`); against a file it references, the name
    of the two saying more of the task's words (`stems`: "max HP" named a prefab's `HP`, beside
    "references MaxHP.asset"; a warning sound's `LowThreshold` for "a lower HP threshold" was
    pointed at the `AudioMixer` it plays through), the reference on a tie unless the task says the
    name; a name that is the file's (its root object, its class) or shows no line says none."""
    if reached is None or reached[0] != "refers_to":
        return None if named else reached
    last = hit.name.rsplit("/", 1)[-1].rsplit(".", 1)[-1]
    own = _said_in(last, stems) if last != file_title(hit.path) and hit.snippet else 0
    its = _said_in(file_title(reached[1]), stems)
    return reached if its > own or (its == own and not named) else None


def _said_in(name: str, stems: set[str]) -> int:
    """How many of a name's words (a joined name's parts, short ones too: `HP` of `MaxHP`) the
    task says."""
    parts = name_stems(name)
    return sum(w in stems for w in parts[1:] or parts[:1])
