"""Counted nouns in messages: "1 file", "2 files"."""

from __future__ import annotations


def plural(n: int, noun: str, many: str | None = None) -> str:
    """`n` and the noun, singular for exactly one (`many` when the plural is not noun + "s")."""
    return f"{n} {noun if n == 1 else many or noun + 's'}"
