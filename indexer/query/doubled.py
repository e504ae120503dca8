"""A word the project never says, searched as the project spells it with one letter doubled or
undoubled: "balloons" for a `Baloon` class, "targeting" for `Targetting`.

Session 57's trial: a flight game's `Baloon.cs` (and its four `Lv*-Baloon*.prefab`) was 17th for
"balloons bob up and down at weird speeds": no document holds "balloon", so the task's one word
for the thing met nothing. A project's misspelling is most often a doubled letter written once or
a single one written twice; that edit is tried only for a word no live document holds (the project
spells it no other way), and only forms some document holds are searched (`search._in_any_form`).
"""

from __future__ import annotations

from collections.abc import Callable

SHORTEST = 5  # a shorter word is too near other words: "hop" and "hopp", "fil" and "fill"


def doubling_variants(term: str) -> tuple[str, ...]:
    """The term with one doubled letter written once, or one single consonant written twice
    (never at the word's start), each once, in order."""
    if len(term) < SHORTEST or not term.isalpha():
        return ()
    out: list[str] = []
    for i in range(1, len(term)):
        if term[i] == term[i - 1]:
            out.append(term[:i] + term[i + 1 :])
        elif term[i] not in "aeiouy" and term[i - 1] != term[i] and (i + 1 == len(term) or term[i + 1] != term[i]):
            out.append(term[: i + 1] + term[i:])
    return tuple(dict.fromkeys(v for v in out if v != term))


def project_spellings(term: str, doc_freq: Callable[[str], int]) -> tuple[str, ...]:
    """The doubling variants of a word no live document holds that some document holds."""
    if doc_freq(term):
        return ()
    return tuple(v for v in doubling_variants(term) if doc_freq(v))
