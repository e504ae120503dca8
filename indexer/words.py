"""Words in messages: counted nouns ("1 file", "2 files") and the user's input repeated."""

from __future__ import annotations


def plural(n: int, noun: str, many: str | None = None) -> str:
    """`n` and the noun, singular for exactly one (`many` when the plural is not noun + "s")."""
    return f"{n} {noun if n == 1 else many or noun + 's'}"


SHOWN_CHARS = 200  # of the user's input an error message repeats


def echoed(text: str, limit: int = SHOWN_CHARS) -> str:
    """The user's input as a message repeats it: whole up to `limit` characters, else its start,
    an ellipsis and its length (a pasted file or log given as a name must not come back whole)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"
