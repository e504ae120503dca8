"""A task that says a value names where it is set: "a match ends as soon as someone reaches 5
points" is answered by the file whose field named like its words holds 5 (`m_TargetScore: 5` in a
ScriptableObject, `hitPoints: 9` on a prefab, `int maxShields = 2;` in a script).

Only a number the task says, with a field named by one of its words: a 5 alone is in every scene
(`m_RootOrder: 5`), and 0 and 1 are in every file, so they say nothing.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from indexer.identifiers import name_stems, stem
from indexer.model import Ranked
from indexer.query.asking import MAGNITUDE, magnitude
from indexer.query.search import outlines_of
from indexer.query.textmatch import keep_found
from indexer.query.texts import FileText
from indexer.query.vendored import vendor_package

# Numbers written as words, up to the dozen a question says in words ("three boards", "six boats"),
# and "twice", a count as often as a factor ("jump three times instead of twice": `maxNumJumps = 2`)
_NUMBER_WORDS = {
    w: float(n)
    for n, w in enumerate(
        ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"], start=2
    )
} | {"twice": 2.0}
# A number in digits (`5`, `0.5`, `-3`, `2,000`; not the digits of `v2.1`, `x2` or `1364017a`), with
# its magnitude if said (`100k`, `1.5M`, `10 mil`: `asking.MAGNITUDE`), or a word
_NUMBER = re.compile(
    rf"(?<![\w.,])(-?(?:\d{{1,3}}(?:,\d{{3}})+|\d{{1,9}})(?:\.\d+)?)({MAGNITUDE})?(?!\w|[.,]\d)|\b([a-z]+)\b", re.I
)
_UNTELLING = frozenset({0.0, 1.0})
# A serialized field holding a number (Unity YAML), or a C# field or constant given one.
_YAML_FIELD = re.compile(r"^[ \t]*(?:- )?([A-Za-z_]\w*): (-?\d+(?:\.\d+)?)[ \t]*\r?$", re.M)
# In C#, a number-typed field, constant or local given its value, or a parameter's default, which
# callers leaving it out run with (`CharacterSkill(string name, int MaxLevel = 40)`); not an enum
# member, not an assignment in a method, which is not where a value is set.
_CODE_FIELD = re.compile(
    r"\b(?:int|float|double|long|short|byte|uint|ulong|ushort|decimal)\s+([A-Za-z_]\w*)\s*=\s*(-?\d+(?:\.\d+)?)[fFdDmM]?\s*[;,)]"
)
# A constructor's head after its type's name (`public MoneyController() {`, `Wallet(int start) :
# base(start) {`): what it assigns a number is set there as by an initializer (`money = 100000;`).
_HEAD = re.compile(r"\s*\([^()]*\)\s*(?::\s*(?:base|this)\s*\([^()]*\)\s*)?\{")
_TYPE = re.compile(r"(?:class|struct)\s+([A-Za-z_]\w*)")  # (no `\b`: 5x slower; checked in `_heads`)
_SET = re.compile(r"(?<![\w.])(?:this\.)?([A-Za-z_]\w*)\s*=\s*(-?\d+(?:\.\d+)?)[fFdDmM]?\s*;")
MAX_BODY = 4000  # characters of a constructor's body read for its assignments
_NOT_FIELDS = frozenset({"serializedVersion", "fileID", "m_ObjectHideFlags", "m_EditorHideFlags"})
# A file holding a said value in a field named by the task's words is where it is set: it scores
# VALUE_GAIN times more (`raise_held`).
VALUE_GAIN = 2.0
# (not materials or settings files: no project script declares their fields)
VALUE_KINDS = frozenset({"csharp", "prefab", "scene", "asset", "unity_yaml"})
VALUE_FILES = 16  # the best files looked at (each is read): past them, a said value moves no answer
READ_CHARS = 200_000  # of a file's text, where its fields are looked for
SHOWN_CHARS = 120  # of the field's line, in the reason
MAX_SCRIPTS = 64  # scripts (and their bases) whose fields an asset's are looked for in
MAX_HELD = 32  # distinct fields of one file kept, each at its first line


def said_numbers(text: str) -> frozenset[float]:
    """The numbers a task says, in digits (`100k` is 100000) or words, but 0 and 1."""
    out = set()
    for m in _NUMBER.finditer(text):
        if m.group(1):
            out.add(magnitude(m.group(1).replace(",", ""), m.group(2)))
        elif (word := m.group(3).lower()) in _NUMBER_WORDS:
            out.add(_NUMBER_WORDS[word])
    return frozenset(out - _UNTELLING)


class Held(NamedTuple):
    """A field holding a number the task says: its name, its line and the line as written (the
    hit's fields it names, `pointing.pointed`)."""

    name: str
    line: int
    snippet: str


def fields_holding(read: FileText, code: bool, numbers: frozenset[float], stems: Iterable[str]) -> tuple[Held, ...]:
    """The fields of the text that hold one of these numbers and are named by one of these stems
    (`m_TargetScore: 5`), in file order. `code`: a C# source, whose fields are declarations, not
    YAML."""
    key = ("value", numbers, frozenset(stems))
    if key in read.found:
        return read.found[key]
    wanted = frozenset(stems)
    text = read.text
    end = len(text) if len(text) <= READ_CHARS else text.rfind("\n", 0, READ_CHARS) + 1  # whole lines
    found: dict[str, Held] = {}  # the first of each field: Unity's own repeat in every object
    line, counted = 1, 0  # lines counted up to `counted`: each newline once, however many fields match
    sets = heapq.merge(_CODE_FIELD.finditer(text, 0, end), _constructor_sets(text, end), key=lambda m: m.start(1))
    for m in sets if code else _YAML_FIELD.finditer(text, 0, end):
        name = m.group(1)
        if (
            name not in found
            and float(m.group(2)) in numbers
            and name not in _NOT_FIELDS
            and not wanted.isdisjoint(name_stems(name))
        ):
            line += text.count("\n", counted, m.start(1))
            counted = m.start(1)
            found[name] = Held(name, line, " ".join(m.group(0).split()).removeprefix("- ")[:SHOWN_CHARS])
            if len(found) == MAX_HELD:
                break
    return keep_found(read.found, key, tuple(found.values()))


def _constructor_sets(text: str, end: int) -> Iterator[re.Match[str]]:
    """The assignments of a number in the constructors of the C# text's types, up to `end`, in
    order (`money = 100000;` in `public MoneyController() { ... }`): a value set there is set as
    by an initializer; an assignment in another method is a change at play time."""
    for body in _heads(text, end):
        yield from _SET.finditer(text, body, min(_body_end(text, body), end, body + MAX_BODY))


def _heads(text: str, end: int) -> list[int]:
    """Where the bodies of the text's constructors open, in order: its types' names (`class X`)
    followed by a parameter list and a block; not a `new X() { ... }` (an object initializer)."""
    word = lambda i: i >= 0 and (text[i].isalnum() or text[i] == "_")  # noqa: E731
    types = {m.group(1) for m in _TYPE.finditer(text, 0, end) if not word(m.start() - 1)}
    out = []
    for name in types:
        i = text.find(name, 0, end)
        while i >= 0:
            head = None if word(i - 1) or text[max(0, i - 4) : i] == "new " else _HEAD.match(text, i + len(name), end)
            if head:
                out.append(head.end())
            i = text.find(name, i + len(name), end)
    return sorted(out)


def _body_end(text: str, start: int) -> int:
    """Where the block opened just before `start` closes (braces counted; the text's end if never)."""
    depth = 1
    for m in re.finditer(r"[{}]", text[start : start + MAX_BODY]):
        depth += 1 if m.group() == "{" else -1
        if not depth:
            return start + m.start()
    return len(text)


def raise_held(
    project,
    ranked: dict[str, Ranked],
    numbers: frozenset[float],
    kinds: dict[str, str],
    said: list[str],
    also: tuple[str, ...],
) -> dict[str, Held]:
    """Raise the files holding a value the task says (`numbers`) in a field named by a word it
    says or a synonym (VALUE_GAIN), saying which. An asset's field must be one a project script it
    uses declares: Unity's own and a library's components serialize fields of every name
    (`m_colorMode: 3` on each text). Gives path -> the first such field."""
    if not numbers:
        return {}
    stems = {stem(t) for t in said} | {stem(w) for w in also}
    out = {}
    best = sorted((r for p, r in ranked.items() if kinds.get(p) in VALUE_KINDS), key=lambda r: (-r.score, r.path))
    for r in best[:VALUE_FILES]:
        path, kind = r.path, kinds[r.path]
        held = fields_holding(project.texts.get(path), kind == "csharp", numbers, stems)
        if held and kind != "csharp":
            declared = fields_of_its_scripts(project, path)
            held = tuple(f for f in held if f.name in declared)
        if held:
            r.score *= VALUE_GAIN
            r.reasons.append(f"holds {held[0].snippet.rstrip(';')}")  # reasons are joined by "; "
            out[path] = held[0]
    return out


def fields_of_its_scripts(project, path: str) -> frozenset[str]:
    """The fields the project scripts this asset uses declare, their base classes' too, and those of
    the types all these use (a `[Serializable]` class held in a field, a base's as well: `waves: -
    enemyCount: 6`), not a third-party script's: `maxHealth` on an enemy prefab is its `Character` base's."""
    own = lambda p: vendor_package(p, project.vendored) is None  # noqa: E731
    scripts = {p for p, edge in project.graph.uses(path) if edge == "script" and own(p)}
    _add_own(project, scripts, "base", own)  # a base class's fields, and the types it holds
    _add_own(project, scripts, "type", own, follow=False)
    _add_own(project, scripts, "base", own)
    return frozenset(
        name
        for outline in outlines_of(project, sorted(scripts)).values()
        for entry, name in zip(outline.entries, outline.names, strict=True)
        if entry.kind == "field"
    )


def _add_own(project, scripts: set[str], kind: str, own: Callable[[str], bool], follow: bool = True) -> None:
    """Add to `scripts` the project's own files they use by edges of `kind` (`follow`: those
    files' too, as a base's base), up to MAX_SCRIPTS."""
    todo = sorted(scripts)
    while todo and len(scripts) < MAX_SCRIPTS:
        for used, edge in project.graph.uses(todo.pop()):
            if edge == kind and used not in scripts and own(used) and len(scripts) < MAX_SCRIPTS:
                scripts.add(used)
                if follow:
                    todo.append(used)
