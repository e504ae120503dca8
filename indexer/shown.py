"""How a value is said in an outline: cut short, counted, a list by its first items. Written by the
scanners, which record values, and by the queries that read one the scanners could not (an array
Unity writes as hex, `query/hex_arrays.py`): one wording for both."""

from __future__ import annotations

import re

MAX_VALUE_CHARS = 80
# An object's serialized fields a record keeps: the first MAX_FIELDS_PER_OBJECT and, past them, the
# last LAST_FIELDS_KEPT: Unity writes a base class's fields first, so a subclass's own (a dagger's
# damage, a knob's angle) come last (`scanners/yaml_facts.fields_left_out`; an outline counts the
# ones between, `query/left_out.py`).
MAX_FIELDS_PER_OBJECT = 40
LAST_FIELDS_KEPT = 20
# A value that says little: a zero, None, an empty text or list, a vector of zeros.
_SAYS_LITTLE = re.compile(r'|-?0(?:\.0+)?|None|""|\[\]|\{\}|\{\w+: -?0(?:, \w+: -?0)*\}')


def says_little(value: str) -> bool:
    """A zero, None, an empty text or list, a vector of zeros: what an unset field holds (a
    mapping too wide leaves these out first; a pack shows them after the values set)."""
    return _SAYS_LITTLE.fullmatch(value) is not None


# How a field shows an empty or built-in reference (`scanners/yaml_facts.ref_shown`); any other
# reference is `guid:<guid>` (a file) or `&<fileID>` (an object of the same file).
SHOWN_REFS = frozenset({"None", "built-in resource"})


def shows_reference(value: str) -> bool:
    """Whether a field's shown value is a reference (or none), not a value of its own."""
    return value in SHOWN_REFS or value.startswith(("guid:", "&"))


def short(value: str) -> str:
    v = " ".join(value.split())
    return v if len(v) <= MAX_VALUE_CHARS else v[: MAX_VALUE_CHARS - 1] + "…"


# An object's name (`m_Name`) longer than this is cut where the scanners read it, with its length
# said: a name of 4,000 characters made a line as long in every answer (docs/indexing.md).
MAX_NAME_CHARS = 100
_NAME_CUT = re.compile(r"… \(\d[\d,]* characters\)$")


def name_shown(name: str) -> str:
    """A name as every answer says it: whole up to MAX_NAME_CHARS, else its first ones and its length
    (`Dragon Spawner lorem… (4,343 characters)`), so a line naming it stays a line."""
    if len(name) <= MAX_NAME_CHARS:
        return name
    return f"{name[:MAX_NAME_CHARS].rstrip()}… ({len(name):,} characters)"


def name_words(name: str) -> str:
    """A name without the note of its cut: the words a search document takes from it ("characters"
    would match a task about a game's characters)."""
    return _NAME_CUT.sub("", name)


def path_shown(label: str, limit: int = MAX_VALUE_CHARS) -> str:
    """An object's label (`Level/Pools/Pool_Guest (Transform)`) cut to `limit` in the middle of its
    path, its own name and component kept: a long parent's name filled the space
    (`__________Gameplay (Dynamic)______…`) and the object went unsaid."""
    label = " ".join(label.split())
    if len(label) <= limit or "/" not in label:
        return label if len(label) <= limit else label[: limit - 1] + "…"
    head, _, last = label.rpartition("/")
    room = limit - len(last) - 3  # `…/` and a character at least of the head
    return f"{head[:room]}…/{last}" if room > 0 else label[: limit - 1] + "…"


def count_label(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


# A nested mapping's value shown beside its key when this short (`{maxJumpHeight: 4, ...}`): a
# scalar Unity would wrap onto another line is longer, so both readers see the same value.
MAX_NESTED_VALUE_CHARS = 40


NAMES_SHOWN = 4  # a list's items shown by name, when each has one


def values_shown(count: int, values: list[str], most: int = NAMES_SHOWN) -> str:
    """A list of plain values by its count and its first `most` (four), each cut to a nested value's
    length: `[3 items: 5, 10, 20]`, a dialogue's lines. A count alone hid what a designer typed."""
    limit = MAX_NESTED_VALUE_CHARS
    cut = [v if len(v) <= limit else v[: limit - 1] + "…" for v in values[:most]]
    more = ", …" if count > most else ""
    return short(f"[{count_label(count, 'item')}: {', '.join(cut)}{more}]")


# Objects of a scene or prefab nested deeper are not recorded: each object's path holds its parents'
# names, so a chain of n objects costs n^2 / 2 names (6,000 levels: 250 MB of paths, over a
# scanner's memory, the file skipped); Unity's own hierarchies nest a few dozen levels, `describe`
# shows 60. The record's note says how many (`left_out_note`), which `describe` reads (LEFT_OUT).
MAX_RECORDED_DEPTH = 1000
LEFT_OUT = re.compile(r"(\d+ objects?) nested over (\d+) levels deep: not recorded")


def left_out_note(n: int) -> str:
    """The note of a record that left `n` objects out for their depth."""
    return f"{n} {'object' if n == 1 else 'objects'} nested over {MAX_RECORDED_DEPTH} levels deep: not recorded"
