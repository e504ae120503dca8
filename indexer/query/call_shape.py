"""What the shape of a line's use of a name says it cannot reach: a call with a number of arguments
none of the member's declarations takes (`Destroy(gameObject)` in a class declaring `void
Destroy()` calls `Object.Destroy`), a static member through a variable (`player.Spell()` is no use
of `static WeaponType Spell`, which C# reaches through its class alone).

Read from the line's text (`member_text.py`): a call whose arguments run past the line is not
counted, and a member whose declarations the index does not hold is not judged.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from indexer.model import Symbol

# what may stand between a method's name and its arguments: generic arguments
_OPEN = re.compile(r"\s*(?:<[^;(){}=]*>)?\s*\(")
# a variable before the name: a lower-case name (C#'s classes are written capitalised)
_VARIABLE = re.compile(r"(?<![\w.])([a-z_]\w*)\s*\??\.\s*$")
_STATIC = frozenset({"static", "const"})


class CallShape:
    """What a member's declarations say a use of it must look like."""

    def __init__(self, declared: list[Symbol], is_type: Callable[[str], bool]) -> None:
        self.ranges, self.static, self.is_type = parameter_ranges(declared), is_static(declared), is_type

    def rules_out(self, code: str, start: int, end: int) -> bool:
        """Whether the name at `start`..`end` of a line's `code` cannot be the member."""
        return takes_none(self.ranges, code, end) or (self.static and through_variable(code[:start], self.is_type))


def parameter_ranges(declared: Iterable[Symbol]) -> list[tuple[int, float]] | None:
    """The argument counts each declaration takes (fewest, most: `params` none), when every one is
    a method; None otherwise (a field holding a delegate is called with its own arguments)."""
    out: list[tuple[int, float]] = []
    for s in declared:
        if s.kind != "method":
            return None
        opening = s.signature.find("(", max(s.signature.find(s.name), 0))
        inside = _arguments(s.signature, opening + 1) if opening >= 0 else None
        if inside is None:
            return None
        parts = [p for p in inside if p]
        optional = sum(1 for p in parts if "=" in p or p.startswith("params "))
        most = float("inf") if any(p.startswith("params ") for p in parts) else len(parts)
        out.append((len(parts) - optional, most))
        if parts and parts[0].startswith("this "):  # an extension method, called on its first argument
            out.append((len(parts) - optional - 1, most - 1))
    return out or None


def takes_none(ranges: list[tuple[int, float]] | None, code: str, end: int) -> bool:
    """Whether the name ending at `end` in `code` is called with a number of arguments no
    declaration takes (`ranges`, from `parameter_ranges`)."""
    if ranges is None or (m := _OPEN.match(code, end)) is None:
        return False
    given = _arguments(code, m.end())
    if given is None:
        return False
    count = len(given) if given != [""] else 0
    return not any(low <= count <= high for low, high in ranges)


def is_static(declared: Iterable[Symbol]) -> bool:
    """Whether every declaration is static (or a constant)."""
    found = list(declared)
    return bool(found) and all(_STATIC & set(s.modifiers) for s in found)


def through_variable(before: str, is_type: Callable[[str], bool]) -> bool:
    """Whether the code before a name reaches it through a variable (`player.`): a lower-case name
    no class has (`is_type`)."""
    m = _VARIABLE.search(before)
    return m is not None and not is_type(m[1])


def _arguments(text: str, start: int) -> list[str] | None:
    """The top-level arguments from `start` (just past an opening bracket) to its closing one, each
    stripped ('' alone for none); None when it does not close in `text`."""
    opened: list[str] = []  # brackets open inside, `<` of generic arguments too
    parts, begin, quote = [], start, ""
    for i in range(start, len(text)):
        c = text[i]
        if quote:
            if c == quote and text[i - 1] != "\\":
                quote = ""
        elif c in "\"'":
            quote = c
        elif c in "([{" or (c == "<" and _generic(text, i)):
            opened.append(c)
        elif c == ">" and opened and opened[-1] == "<":
            opened.pop()
        elif c in ")]}":
            while opened and opened[-1] == "<":  # a `<` that compared after all
                opened.pop()
            if not opened:
                parts.append(text[begin:i].strip())
                return parts
            opened.pop()
        elif c == "," and not opened:
            parts.append(text[begin:i].strip())
            begin = i + 1
    return None


def _generic(text: str, i: int) -> bool:
    """Whether the `<` at `i` opens generic arguments (`List<int>`) rather than compares (`a < b`)."""
    return i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_") and text[i + 1 : i + 2] not in (" ", "=")
