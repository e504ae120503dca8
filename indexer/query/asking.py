"""What a task asks for, read from how it is put: a value (where something is set, how much of it
there is) or the code doing something. Pure: text in, answers out."""

from __future__ import annotations

import re

from indexer.identifiers import TASK_WORDS
from indexer.query.priors import ASSET_WORDS, asks_for
from indexer.query.synonyms import compared, excess, qualities

# A question opening with a quantity asks for a value, which an asset or a prefab sets as often as
# code: "How much health does the tank bug have?" is "where is its health set". Not one inside a
# sentence: "where does the game work out how many toppings fall off" asks for the code.
_QUANTITY = re.compile(
    r"(?:^|[.?!,;:]\s*)(?P<how>how)\s+(?:much|many|fast|long|far|often|big|strong|high|likely|quick|quickly|slow|large"
    r"|heavy|loud|wide)\b",
    re.IGNORECASE,
)
# What that opening asks the amount of: the words up to the verb ("how many rows and columns does
# the board have": rows, columns); "how fast": the quality (`synonyms.qualities`: speed).
_AMOUNT = re.compile(
    r"how\s+(?:(?:much|many)\s+([a-z][a-z ,]*?)|(\w+))"
    r"\s+(?:does|do|did|is|are|was|were|can|will|should|would|has|have|must)\b",
    re.IGNORECASE,
)
_NOT_AMOUNTS = frozenset({"and", "or", "the", "a"})
# "Give the heavy defenders more hit points", "the boss should take less damage": a change of an
# amount, as "faster" is (`asks_change`).
_MORE = re.compile(r"\b(?:more|less|fewer)\b", re.IGNORECASE)
# "I want a 15-round magazine", "start with 3 lives instead of 5", "from 10 to 15 seconds", "raise
# the health to 200": a number the task wants is a change of an amount, as "more" is (`asks_change`).
# A number said with its magnitude, "100k", "2.5K", "1.5M", "10 mil", "5 million": a letter written
# on it, or a word; "4K monitor", "2k textures" is a screen or an image, not an amount, and a small
# "m" is metres in a game ("5m too far"), a capital one millions (`magnitude`).
MAGNITUDE = (
    r"(?:k(?!\w|\s*(?:monitors?|screens?|displays?|textures?|resolution|video|tvs?)\b)|(?-i:M)|bn"
    r"|\s?(?:thousand|mil|million|billion)s?)(?!\w)"
)
_POWERS = {"k": 3, "thousand": 3, "m": 6, "mil": 6, "million": 6, "bn": 9, "billion": 9}
_COUNT = rf"(?:\d+(?:\.\d+)?(?:{MAGNITUDE})?|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twice)\b"
_WANTED_AMOUNT = re.compile(
    rf"\binstead\s+of\s+(?:just\s+|only\s+)?{_COUNT}"
    rf"|\bfrom\s+{_COUNT}[^.?!;]{{0,30}}?\bto\s+{_COUNT}"
    rf"|\b(?:to|want|wants|need|needs)\s+(?:an?\s+|about\s+|around\s+)?{_COUNT}(?!\s*(?:st|nd|rd|th)\b)",
    re.IGNORECASE,
)
# "Which data decides how often the sniper spawns", "tweak how hard each weapon hits without
# touching code": the answer is the asset holding the data.
_DATA = re.compile(
    r"\b(?:which|what)\s+data\b|without\s+(?:touching|changing|editing)\s+(?:the\s+|any\s+)?code\b", re.IGNORECASE
)


# "What is the M4A1's clip size?", "what are the chicken's max health points": a quality of a thing
# named by its owner asks its value, as "how much" does.
_OWNED_VALUE = re.compile(
    r"(?:^|[.?!;:]\s*)what(?:['’]s|\s+is|\s+are)\s+(?:the\s+|an?\s+)?(?:(?!\bof\b)[\w -])+?\w(?:['’]s|s['’])\s+\w",
    re.IGNORECASE,
)


# How far a clause asking where something is stored or is (`_STORED`, `_WHERE_AMOUNT`) is read from its
# "where": a question's clause is a few dozen characters. Unbounded, each "where" of a pasted text was
# matched to the end of the text, quadratic: 63 KB of "where is ..." took `query` 44 s (attack 23).
CLAUSE_CHARS = 200
# "Where are the enemy pieces' starting squares stored?", "where is the player's money stored": a
# value kept somewhere, which a data asset holds as often as code does, as "where is it set" asks.
# Only with "where" before it in the same clause (not inside brackets) and ending what it says:
# "the stored path is reset" and "where is the save (gold, stored potions) written to disk" ask
# for code. It asks no change of the value (`asks_change`): the asset scripts hear a value through (a
# channel, `channels.py`) is where it is stored, and stays raised.
_STORED = re.compile(
    rf"\bwhere\b[^.?!;(]{{0,{CLAUSE_CHARS}}}\bstored\b"
    r"(?=\s*(?:$|[.?!,;:)]|(?:in|on|at|by|for|and|or|so|as|inside|within)\b))",
    re.IGNORECASE,
)


# "Rebuilding the shop asks for too many bricks. Where is the material cost?", "the orc archers
# have too much health, where is that number?": a clause asking where an amount is, ending on the
# word for it, asks where it is set. Not one going on ("where is the cost calculated", "where is
# the number of lives shown"), nor one asking where code is that does something to amounts ("where
# is the method that formats prices", "the helper to format numbers": a relative clause or `to`
# between, `that` allowed as the amount's determiner), which ask for the code doing it.
_WHERE_AMOUNT = re.compile(
    r"\bwhere\s+(?:is|are)\s+(?:th(?:at|is|ese|ose)\s+)?"
    rf"(?:(?!\b(?:that|which|who|whose|to)\b)[^.?!;(]){{0,{CLAUSE_CHARS}}}?"
    r"\b(?:numbers?|values?|costs?|prices?|amounts?|stats?)(?=\s*(?:$|[.?!,;:)]))",
    re.IGNORECASE,
)


# "Which file lists every fish, boat and hook?": a file holding a list of every item is as often
# a data asset as a script, so the task is read as saying "asset" (`said_asked`); not a file that
# does something ("which file handles input"), nor one asked without a list ("which file sets").
_FILE_LISTING = re.compile(
    r"\b(?:which|what)\s+files?\s+(?:lists|holds|keeps|stores|registers|contains)\s+(?:every|all|each)\b",
    re.IGNORECASE,
)


def said_asked(said: list[str], text: str) -> list[str]:
    """The words a task says (`identifiers.said_words`), with "asset" when it asks which file lists
    every item of a kind (`_FILE_LISTING`): what the ranking reads a task asking for by."""
    return [*said, "asset"] if _FILE_LISTING.search(text) and "asset" not in said else said


def asks_quantity(text: str) -> bool:
    """Whether a question of the task opens with a quantity (`_QUANTITY`)."""
    return _QUANTITY.search(text) is not None


def asks_value(said: list[str], text: str) -> bool:
    """Whether the task asks where something is set, wired or placed (priors.ASSET_WORDS), how
    much of it there is (`asks_quantity`), where an amount is (`_WHERE_AMOUNT`), which data holds
    it (`_DATA`), or where it is stored (`_STORED`)."""
    return _asks_set(said, text) or _STORED.search(text) is not None


def _asks_set(said: list[str], text: str) -> bool:
    """`asks_value` but for a value stored: where a value is set, its amount, its data."""
    return (
        asks_for(said, ASSET_WORDS)
        or asks_quantity(text)
        or _DATA.search(text) is not None
        or _OWNED_VALUE.search(text) is not None
        or _WHERE_AMOUNT.search(text) is not None
    )


def asks_change(said: list[str], text: str) -> bool:
    """Whether the task asks where a value is set, its amount or its data (`asks_value`, but where
    it is stored) or for more or less of one ("too slow", "walk faster", "more hit points"), or
    says a number it wants (`_WANTED_AMOUNT`: "I want a 15-round magazine", "3 instead of 5"):
    what a thing's data asset holds (`pairing._Pairs.definitions_of_prefabs`), what a plain
    class's builders pass (`constructors_of_values`)."""
    return (
        _asks_set(said, text)
        or bool(excess(text))
        or compared(said)
        or _MORE.search(text) is not None
        or _WANTED_AMOUNT.search(text) is not None
    )


def magnitude(digits: str, said: str | None) -> float:
    """The value of a number written in digits and said with its magnitude (`MAGNITUDE`), or
    none: "2.5", "k" is 2500 (exactly: `float("2.5e3")`)."""
    power = _POWERS[said.strip().lower().removesuffix("s")] if said else 0
    return float(f"{digits}e{power}")


def asked_amounts(text: str) -> list[str]:
    """What a question opening with a quantity asks the amount of, lowercased: the words its
    opening names up to the verb, or the quality its adverb measures; none for another question."""
    opening = _QUANTITY.search(text)
    m = _AMOUNT.match(text, opening.start("how")) if opening else None
    if m is None:
        return []
    words = m.group(1).replace(",", " ").split() if m.group(1) else sorted(qualities([m.group(2)]))
    return [w.lower() for w in words if w.lower() not in TASK_WORDS and w.lower() not in _NOT_AMOUNTS]
