"""Attack round 24 (session 57): what broke (docs/indexing.md, "Bad input", lists what held).

1. `context` of a project whose `Packages/manifest.json` holds one string of 49 MB (a package's
   version) peaked at 810 MB resident: the overview's package line was counted by the token
   estimate, which listed its 8.5 million pieces (`findall`) only to count them. A long text is
   now counted piece by piece without the list: 250 MB, the pieces' count the same.

Each test failed before its fix (said in each)."""

from __future__ import annotations

import tracemalloc

from indexer.query import tokens


def test_a_long_text_is_counted_without_listing_its_pieces() -> None:
    """Before: 1.2 MB of one word peaked at 13 MB of Python objects (a list of 200,000 strings)."""
    text = "1." + "x" * 1_200_000
    tracemalloc.start()
    try:
        count = tokens.estimate(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 2 + 200_000  # "1", ".", then six "x" a piece
    assert peak < 1_000_000
    code = "public int health = 10;  // hit points\n  void Die() { }\n" * 3000  # past LISTED_UP_TO
    assert len(code) > tokens.LISTED_UP_TO
    assert tokens.estimate(code) == len(tokens._TOKEN_PIECE.findall(code)) == 17 * 3000
