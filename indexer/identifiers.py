"""Identifier-aware text for the full-text index: the same splitting at index and query time.

tantivy's tokenizers cannot split `PlayerHealth` or `HTTPServer` (Rust regex has no look-around),
so words are split here and the whole identifier is kept beside its parts: a query for
`PlayerHealth`, `player health` or `playerhealth` all match.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

# English function words and the filler of task descriptions. Identifiers are never dropped:
# only words that carry no meaning in a query about code.
STOP_WORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing done down during each either
    else etc even ever every few for from further got had has have having he
    her here hers him his how i if in into is it its itself just let lets like may me
    might more most much must my no nor not now of off on once only or other our out
    over own per please same she should so some such than that the their them then there these
    they this those through to too under until up upon us using very via was way we
    were what when where which while who whom why will with within without would yet you your""".split()  # noqa: SIM905
)


def split_identifier(word: str) -> list[str]:
    """`PlayerHealth` -> [Player, Health]; `HTTPServer2D` -> [HTTP, Server, 2, D]; `m_maxHP` -> [m, max, HP]."""
    parts: list[str] = []
    for chunk in word.split("_"):
        parts.extend(_PART.findall(chunk))
    return parts


def expand(text: str) -> str:
    """Text with every compound identifier followed by its parts, ready for a word tokenizer."""
    out: list[str] = []
    append = out.append
    for word in _WORD.findall(text):
        append(word)
        if not word.isalpha() or not (word.islower() or word.isupper() or word.istitle()):
            parts = split_identifier(word)
            if len(parts) > 1:
                out.extend(parts)
    return " ".join(out)


def query_terms(text: str) -> list[str]:
    """Lower-cased search terms for a query: identifiers whole and split, stop words dropped.

    Deduplicated in first-seen order so a repeated word does not weigh twice.
    """
    seen: dict[str, None] = {}
    for word in _WORD.findall(text):
        if len(word) > 64:
            continue
        candidates = [word, *split_identifier(word)] if not word.islower() else [word]
        for w in candidates:
            low = w.lower()
            if low and low not in STOP_WORDS and (len(low) > 1 or low.isdigit()):
                seen.setdefault(low, None)
    return list(seen)


def stem(word: str) -> str:
    """A light English stemmer for comparing query words with declared names (`dies` ~ `Die`).

    Only for matching symbols inside an already ranked file; the index itself uses tantivy's stemmer.
    """
    w = word.lower()
    for suffix, repl in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)] + repl
            break
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w
