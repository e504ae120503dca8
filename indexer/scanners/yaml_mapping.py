"""A nested mapping said on one line: its keys with their values, nested ones too, within a value's width.

Why: the numbers a designer tunes often sit a level or two down, in a `[Serializable]` class or
struct a field holds (`damage:` then `constantValue:` then `hearts: 1`, a `FloatReference`, a stat
block). Showing a nested block by its key alone hid every one of them. Both YAML readers build a
`Mapping` of what they read and say it here, alike: when it is too wide, the least telling parts
are left out first (values that say little, `shown.says_little`, keys shown alone, `serializedVersion`), then the
others from the end, a reference to another file's asset last (`guid:` is named by the index,
a path that says where the value lives); a part is left out whole, never cut, so a GUID stays whole
for the index to name, and a `…` says where parts were left out.
"""

from __future__ import annotations

from typing import NamedTuple

from indexer.shown import MAX_NESTED_VALUE_CHARS, MAX_VALUE_CHARS, says_little

NESTED_KEYS = 8  # a mapping's keys read at each level; past them a `…`
NESTED_DEPTH = 3  # levels of mappings read below a field; a block below them is shown by its key
VALUES_READ = 24  # of a field's nested values, the first read: more would not fit its width


class Mapping(NamedTuple):
    """A block mapping as read: its first NESTED_KEYS keys, each with its value (`Nested`), and
    whether it has more keys (or more were left unread: `Budget`)."""

    pairs: list[tuple[str, Nested]]
    more: bool = False


class Budget:
    """The values of one field's mapping left to read, from VALUES_READ: both readers stop alike, so a
    field holding a deep tree costs what its shown values do, not what the tree does."""

    __slots__ = ("left",)

    def __init__(self) -> None:
        self.left = VALUES_READ

    def spend(self, value: Nested) -> Nested:
        """`value`, counted when it is no mapping (a mapping's own values are counted as read)."""
        self.left -= not isinstance(value, Mapping)
        return value


# A value as a reader gives it: said as a scalar is (`4`, `guid:…`, `[3 items]`), a mapping, or None
# for a key shown alone (a value on several lines, a block too deep, one naming an object of the file).
Nested = str | Mapping | None


def mapping_shown(mapping: Mapping, limit: int = MAX_VALUE_CHARS) -> str:
    """`{useConstant: 0, constantValue: {fractions: 0, hearts: 1}, valueObject: None}` in at most
    `limit` characters: values left out as the module says until it fits."""
    text = _said(mapping, (), frozenset())
    if text is None or len(text) <= limit:
        return text or "{}"
    widths = _Widths(mapping)
    leaves = widths.leaves
    dropped: set[Path] = set()
    for i in sorted(range(len(leaves)), key=lambda i: (leaves[i][1], -i)):
        if widths.width(()) <= limit:
            break
        widths.drop(leaves[i][0])
        dropped.add(leaves[i][0])
    return _said(mapping, (), frozenset(dropped)) or "{…}"


Path = tuple[int, ...]  # a value's place: its index in each mapping down from the field's


class _Widths:
    """The width of a mapping's text as its values are left out one by one, kept without saying it
    again each time (most nested mappings of a data asset are too wide at first)."""

    def __init__(self, mapping: Mapping) -> None:
        self.count: dict[Path, int] = {}  # of each mapping, the parts shown
        self.chars: dict[Path, int] = {}  # ... their characters
        self.cut: dict[Path, bool] = {}  # ... whether one is left out (a `…`)
        self.part: dict[Path, int] = {}  # each part's characters
        self.key: dict[Path, int] = {}  # a nested mapping's `key: `
        self.leaves: list[tuple[Path, int]] = []  # each value that is no mapping, with its rank
        self._add(mapping, ())

    def _add(self, mapping: Mapping, at: Path) -> int:
        chars = 0
        for i, (key, value) in enumerate(mapping.pairs):
            path = (*at, i)
            if isinstance(value, Mapping):
                self.key[path] = len(key) + 2
                self.part[path] = self.key[path] + self._add(value, path)
            else:
                self.part[path] = len(key) if _shown_alone(value) else len(key) + 2 + len(value or "")
                self.leaves.append((path, _rank(key, value)))
            chars += self.part[path]
        self.count[at], self.chars[at], self.cut[at] = len(mapping.pairs), chars, mapping.more
        return self.width(at)

    def width(self, at: Path) -> int:
        """What `_said` gives the mapping at `at`: `{`, its parts and a `…` joined by `, `, `}`."""
        shown = self.count[at] + self.cut[at]
        return 2 + self.chars[at] + self.cut[at] + 2 * (shown - 1) if shown else 2

    def drop(self, path: Path) -> None:
        """Leave out the value at `path`, and each mapping left with nothing (its key goes too)."""
        at, gone = path[:-1], self.part[path]
        self.count[at] -= 1
        self.chars[at] -= gone
        self.cut[at] = True
        while at:
            above, old = at[:-1], self.part[at]
            if self.count[at] == 0:
                self.count[above] -= 1
                self.chars[above] -= old
                self.cut[above] = True
            else:
                self.part[at] = self.key[at] + self.width(at)
                self.chars[above] += self.part[at] - old
            at = above


def _shown_alone(value: str | None) -> bool:
    """Whether a value is left unsaid beside its key: none, one naming an object of the file (the
    scanner names only a field's own), or one longer than Unity writes on the key's line."""
    return value is None or value.startswith("&") or len(value) > MAX_NESTED_VALUE_CHARS


def _rank(key: str, value: str | None) -> int:
    """How much a value says: 0 a default or a key alone, 2 a reference to another file's asset, else 1."""
    if _shown_alone(value) or key == "serializedVersion" or says_little(value or ""):
        return 0
    return 2 if (value or "").startswith("guid:") else 1


def _said(mapping: Mapping, at: Path, dropped: frozenset[Path]) -> str | None:
    """The mapping's text without the values at `dropped` paths; None when none is left of a
    nested mapping (its key goes too)."""
    parts: list[str] = []
    left_out = mapping.more
    for i, (key, value) in enumerate(mapping.pairs):
        path = (*at, i)
        if isinstance(value, Mapping):
            inner = _said(value, path, dropped)
            left_out |= inner is None
            parts += [] if inner is None else [f"{key}: {inner}"]
        elif path in dropped:
            left_out = True
        else:
            parts.append(key if _shown_alone(value) else f"{key}: {value}")
    if not parts and at:
        return None
    return "{" + ", ".join([*parts, "…"] if left_out else parts) + "}"
