"""Counting tokens offline. A context pack's budget is only as good as its counter.

Default: an estimate calibrated against OpenAI's o200k and cl100k BPE vocabularies on 322 C# files
of Unity's reference source (`docs/retrieval.md` has the command): it over-counts by 12-15% on
average and by at most 3% less on any file seen. Words cost one token per six characters, runs of
punctuation one per two, a line break with its indentation one. When the optional `bpe-openai`
package is installed (its vocabularies are compiled in: no download, ever), counts are exact for
o200k_base. Which counter was used is part of every context pack.
"""

from __future__ import annotations

import re
from collections.abc import Callable

ESTIMATE = "estimate-v2"

_PIECE = re.compile(r"[A-Za-z0-9_]+|[^\sA-Za-z0-9_]+|\n[ \t]*|[ \t]+")


def estimate(text: str) -> int:
    n = 0
    for m in _PIECE.finditer(text):
        s = m.group()
        c = s[0]
        if c.isalnum() or c == "_":
            n += (len(s) + 5) // 6
        elif c == "\n":
            n += 1
        elif c == " " or c == "\t":
            n += 0 if len(s) == 1 else 1
        else:
            n += (len(s) + 1) // 2
    return n


class TokenCounter:
    def __init__(self, name: str, fn: Callable[[str], int]):
        self.name = name
        self._fn = fn

    def count(self, text: str) -> int:
        return self._fn(text) if text else 0

    def join_cost(self, pieces: list[str]) -> int:
        """An upper estimate of the tokens of "\\n".join(pieces) without joining them."""
        return sum(self.count(p) for p in pieces) + max(0, len(pieces) - 1)

    def truncate(self, text: str, max_tokens: int) -> str:
        """The longest prefix of whole lines that fits, or '' if not even the first line does."""
        out: list[str] = []
        used = 0
        for line in text.split("\n"):
            cost = self.count(line) + (1 if out else 0)
            if used + cost > max_tokens:
                break
            out.append(line)
            used += cost
        return "\n".join(out)


def counter(name: str = "auto") -> TokenCounter:
    """`auto`: exact o200k when bpe-openai is installed, else the estimate; or name one."""
    if name in ("auto", "o200k_base", "cl100k_base"):
        try:
            import bpe_openai  # optional; ships its vocabularies, never downloads

            enc = bpe_openai.get_encoding("o200k_base" if name == "auto" else name)
            return TokenCounter(enc.name, lambda t: len(enc.encode_ordinary(t)))
        except Exception:
            if name != "auto":
                raise ValueError(f"tokenizer {name} needs the bpe-openai package: pip install bpe-openai") from None
    if name not in ("auto", ESTIMATE, "estimate"):
        raise ValueError(f"unknown tokenizer {name!r}: use auto, estimate, o200k_base or cl100k_base")
    return TokenCounter(ESTIMATE, estimate)
