"""Words in messages: counted nouns ("1 file", "2 files"), the user's input repeated, bytes that
are not text."""

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


def undecoded(text: str) -> str:
    """`text` with its undecodable bytes (Python's surrogate escapes, as of a file name that is not
    UTF-8) written `\\xNN`, which a message or JSON can hold; the text itself when it has none."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
