"""Counting tokens offline. A context pack's budget is only as good as its counter.

Default: an estimate calibrated against OpenAI's o200k and cl100k BPE vocabularies on 322 C# files
of Unity's reference source (`docs/retrieval.md` has the command): it over-counts by 12-15% on
average and by at most 3% less on any file seen. Words cost one token per six characters, runs of
punctuation one per two, a line break with its indentation one. When the optional `bpe-openai`
package is installed (its vocabularies are compiled in: no download, ever), counts are exact for
o200k_base. Which counter was used is part of every context pack.
"""

from __future__ import annotations

import collections
import itertools
import re
from collections.abc import Callable
from functools import lru_cache

ESTIMATE = "estimate-v2"

_PIECE = re.compile(r"[A-Za-z0-9_]+|[^\sA-Za-z0-9_]+|\n[ \t]*|[ \t]+")
_SPACE_CHARS = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"  # the ASCII characters `\s` matches
_SPACE_BYTES = _SPACE_CHARS.encode("ascii")


# The estimate's pieces of ASCII text cut at the size of one token each: a word in runs of six
# characters, punctuation in runs of two, a line break (its indentation is part of it), a run of
# two or more spaces or tabs that is not indentation. Counting them is one scan in C.
_TOKEN_PIECE = re.compile(r"[A-Za-z0-9_]{1,6}|[^\sA-Za-z0-9_]{1,2}|\n|(?<![\n \t])[ \t]{2,}")
# A one-line text longer than KEPT_LINE_CHARS is not kept by the line caches but by one of
# LONG_KEPT: the JSON of a whole answer (`get_context` counts its structured content, up to six
# times a call, each new) filled them with texts of 13 KB on average, 70 MB of a long `serve`'s
# 200 at 6,000 calls; the last few stay kept, so an answer asked again is not counted again
# (0.6 ms a 16 KB text).
KEPT_LINE_CHARS, LONG_KEPT = 1_000, 32
LISTED_UP_TO = 65_536  # characters: a longer text's pieces are counted without listing them


def estimate(text: str) -> int:
    if not text.isascii():
        return _estimate_pieces(text)
    if len(text) <= LISTED_UP_TO:
        return len(_TOKEN_PIECE.findall(text))
    # a 49 MB package version in the overview listed 8.5 million pieces: 660 MB to count them
    ends = itertools.count()
    collections.deque(zip(_TOKEN_PIECE.finditer(text), ends, strict=False), maxlen=0)  # in C
    return next(ends)


def _estimate_pieces(text: str) -> int:
    """The estimate piece by piece: for text that is not ASCII, where a piece that starts with
    another script's letter or digit counts as a word."""
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


def _not_space(text: str) -> int:
    """The ASCII characters of a text that are not whitespace, in one pass in C over its bytes."""
    return len(text.encode("ascii", "ignore").translate(None, _SPACE_BYTES))


def _indented(line: str) -> bool:
    return len(line) >= 2 and line[0] in " \t" and line[1] in " \t"


class TokenCounter:
    """`line_additive`: the count of lines joined by newlines follows from the lines' own counts
    (true of the estimate, whose pieces never span a newline), so texts are counted line by line
    with a cache: outline lines recur across renderings, packs and queries."""

    def __init__(self, name: str, fn: Callable[[str], int], line_additive: bool = False):
        self.name = name
        self._fn = fn
        self._additive = line_additive
        self._line = lru_cache(maxsize=100_000)(fn)
        # a line's tokens with the newline before it (one piece with its indentation, if any)
        self._after = lru_cache(maxsize=100_000)(lambda line: self._line(line) + 1 - _indented(line))
        self._long = lru_cache(maxsize=LONG_KEPT)(fn)  # one-line texts over KEPT_LINE_CHARS

    def count(self, text: str) -> int:
        if not text:
            return 0
        if not self._additive:
            return self._fn(text)
        if "\n" in text:
            return self.bound_lines(text.split("\n"))
        # one line (most counts: an outline's, a header): its cached count; a long one, in a small cache
        return self._line(text) if len(text) <= KEPT_LINE_CHARS else self._long(text)

    def count_joined(self, pieces: list[str], counts: list[int]) -> int:
        """`count("\n".join(pieces))` from the pieces' own counts (`counts`, each `count(piece)`):
        for a line-additive counter the joined text's lines are the pieces' lines, each piece's
        first line then counted after a newline (`_after`), so a pack's text is not counted again
        line by line; other counters count the text."""
        if not self._additive:
            return self.count("\n".join(pieces))
        return sum(counts) + sum(1 - _indented(p.partition("\n")[0]) for p in pieces[1:])

    def count_blocks(self, blocks: list[tuple[str, int]]) -> int:
        """`count("\n\n".join(text for text, _ in blocks if text))` from each text's count: texts
        joined by a blank line are their lines and an empty one (`count_joined`)."""
        pieces: list[str] = []
        counts: list[int] = []
        for text, tokens in blocks:
            if text:
                pieces += [""] if pieces else []
                counts += [0] if counts else []
                pieces.append(text)
                counts.append(tokens)
        return self.count_joined(pieces, counts) if pieces else 0

    def splits_into(self, text: str, lines: list[str]) -> bool:
        """Whether `count(text)` of `text == "\n".join(lines)` is `bound_lines(lines)`: the counter
        is line-additive and no line holds a newline (`text` splits back into `lines`)."""
        return self._additive and text.count("\n") == len(lines) - 1

    def bound_lines(self, lines: list[str]) -> int:
        """Tokens of "\\n".join(lines): exact for a line-additive counter, else an upper bound
        (a line's tokens plus one per newline) that costs no count of the joined text."""
        if not lines:
            return 0
        if self._additive:  # a newline and the indentation after it are one piece, not two
            n = self._line(lines[0]) + sum(map(self._after, lines[1:]))
        else:
            n = sum(map(self._line, lines)) + len(lines) - 1
        return max(n, 0)

    def at_least(self, text: str) -> int:
        """A lower bound of `bound_lines(text.split("\n"))` that costs a scan in C, so a rendering
        far over a budget is passed over without counting its lines: the estimate costs at least
        a token per six characters outside whitespace (every word and punctuation piece does; a
        piece starting with another script's letter counts as a word, and non-ASCII characters
        may be spaces: not counted). 0 for other counters."""
        return _not_space(text) // 6 if self._additive else 0

    def at_least_lines(self, lines: list[str]) -> int:
        """`at_least("\n".join(lines))`, that text made: one pass in C over the joined lines costs
        what looking each line up in a cache does, and a fourth of a pack's lines are new the
        first time (the cache's misses, 0.5 us a line, were most of the cost)."""
        return _not_space("\n".join(lines)) // 6 if self._additive else 0

    def start_over(self, start: str, room: int) -> bool:
        """Whether every line that begins with `start` and goes on with punctuation or a space costs
        more than `room` tokens, told from `start` alone (False when it cannot be: other counters).
        The estimate's pieces never run past a word's end into punctuation or a space, so such a
        line's pieces are the start's and more: its count is no lower."""
        return self._additive and self._fn(start) > room

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


def printed(inner: TokenCounter) -> TokenCounter:
    """`inner` counting text as the CLI prints it (`words.for_terminal`: a control character as
    `\\xNN`, four characters): a pack fitted to the raw text ran over its budget once printed."""
    from indexer.words import for_terminal

    return TokenCounter(inner.name, lambda text: inner._fn(for_terminal(text)), inner._additive)


# The names `counter` takes (what completion offers for --tokenizer).
NAMES = ("auto", "estimate", "o200k_base", "cl100k_base")


def counter(name: str = "auto") -> TokenCounter:
    """`auto`: exact o200k when bpe-openai is installed, else the estimate; or name one."""
    if name in ("auto", "o200k_base", "cl100k_base"):
        try:
            import bpe_openai  # optional; ships its vocabularies, never downloads
        except ImportError:
            if name != "auto":
                from indexer.installation import add_package

                hint = add_package("bpe-openai")
                raise ValueError(f"tokenizer {name} needs the bpe-openai package: {hint}") from None
        else:
            enc = bpe_openai.get_encoding("o200k_base" if name == "auto" else name)
            return TokenCounter(enc.name, lambda t: len(enc.encode_ordinary(t)))
    if name not in ("auto", ESTIMATE, "estimate"):
        raise ValueError(f"unknown tokenizer {name!r}: use auto, estimate, o200k_base or cl100k_base")
    return TokenCounter(ESTIMATE, estimate, line_additive=True)
