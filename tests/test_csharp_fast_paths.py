"""The C# scanner's fast paths against the plain rules they replace, on varied and random input
(issue 16: the scanner got faster without changing a byte of its records).

Each reference below is the implementation the scanner had before; a fast path that disagrees with
it on any input fails here.
"""

from __future__ import annotations

import random
import re

import pytest

from indexer.model import Ref
from indexer.scanners.csharp_strings import asset_literals

# ----- asset literals: one regex that also tells key-shaped literals ------------------------------

_LITERAL = re.compile(rb'"([^"\\\r\n]*+(?:\\.[^"\\\r\n]*+)*+)"')
_CHAR_QUOTE = re.compile(rb"'(?:\\)?\"'")
_KEY = re.compile(rb"[A-Za-z0-9_][A-Za-z0-9_ ./()\-]*")
_LETTER = re.compile(rb"[A-Za-z]")


def _asset_literals_reference(data: bytes, most: int = 500) -> tuple[Ref, ...]:
    """Every literal by the plain literal regex, then the key rules one by one."""
    if b"'\"'" in data or b"'\\\"'" in data:
        data = _CHAR_QUOTE.sub(b"'x'", data)
    seen: dict[str, int] = {}
    line, at = 1, 0
    for m in _LITERAL.finditer(data):
        raw = m.group(1)
        if not 2 <= len(raw) <= 160 or not _KEY.fullmatch(raw) or not _LETTER.search(raw):
            continue
        if b" " in raw and b"/" not in raw:
            continue
        text = raw.decode("ascii")
        if text in seen:
            continue
        line += data.count(b"\n", at, m.start())
        at = m.start()
        seen[text] = line
        if len(seen) >= most:
            break
    return tuple(Ref(kind="string", target=t, line=n, context="literal") for t, n in seen.items())


# Pieces that meet every branch: quotes, escapes, char literals holding a quote, newlines, key
# characters and not, long runs (the 160 limit), non-ASCII and invalid UTF-8.
_PIECES = [
    b'"', b'"', b'"', b"\\", b'\\"', b"'\"'", b"'\\\"'", b"'", b"\n", b"\r\n", b" ", b"/", b".", b"(", b")",
    b"-", b"_", b"a", b"Z", b"7", b"UI/Bar", b"Prefabs/Enemy Big", b"x y", b"42", b"\xc3\xa9", b"\xff",
    b"$", b"@", b"{", b"}", b";", b"\t", b"A" * 159, b"b" * 160, b"/" * 3, b"Legacy Shaders/Diffuse",
]  # fmt: skip


def _random_source(rng: random.Random) -> bytes:
    return b"".join(rng.choice(_PIECES) for _ in range(rng.randrange(1, 80)))


def test_asset_literals_match_the_plain_rules_on_random_input() -> None:
    rng = random.Random(16)
    for _ in range(20_000):
        data = _random_source(rng)
        assert asset_literals(data) == _asset_literals_reference(data), data


@pytest.mark.parametrize(
    "data",
    [
        b'"ab" "a" "1/2" "12" "_" "_a" " a" "a " "a b" "a/b c" ".a" "a." "(a)" "-a" "a-" "\\"a"',
        b'"' + b"a" * 160 + b'" "' + b"a" * 161 + b'" "' + b"a" * 2 + b'"',
        b'\'"\' "Not/One" \'\\"\' "Two/Keys"\n"Two/Keys" "Three"',
        b'"unclosed/key\n"next/line" "tab\tkey" "ok(1)"',
        b"".join(b'"k%d" ' % i for i in range(600)),  # the 500 cap
    ],
)
def test_asset_literals_match_the_plain_rules_on_edge_cases(data: bytes) -> None:
    assert asset_literals(data) == _asset_literals_reference(data)
