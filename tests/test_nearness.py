"""How near each other a text holds a task's words (textmatch.near_words, which ranks the best
scripts of a code task): exact on examples, and the same as a slow count of every window."""

import re

from hypothesis import given
from hypothesis import strategies as st

from indexer.identifiers import stem_regex
from indexer.query.textmatch import (
    BODY_CHARS,
    EVERYWHERE,
    NEAR_CHARS,
    near_words,
    near_words_of,
    occurrences,
    stems_in_text,
)
from indexer.query.texts import FileText

STEMS = frozenset({"scatter", "enemy", "around", "spawner"})  # identifiers.stem of the task's words


def near(text: str, stems: frozenset[str]) -> int:
    return near_words(occurrences(FileText(text.encode(), None), stems))


def test_the_words_held_within_one_window_count() -> None:
    """Three of the four words in the summary line; the fourth is 600 characters further, with a
    word already counted."""
    text = "/// Scatter an enemy around the pivot.\n" + "x = 1;\n" * 100 + "void Add() { spawner.Add(enemy); }\n"
    assert near(text, STEMS) == 3
    assert near(text, frozenset({"spawner", "enemy"})) == 2
    assert near("", STEMS) == 0
    assert near("the enemy", STEMS) == 1


def test_a_stem_found_more_than_everywhere_times_counts_in_every_window() -> None:
    """`hp` 49 times names no one place, so it is near the one `heal`, 2,000 characters away; a
    short stem matches whole words only (`hpx` is not `hp`)."""
    read = FileText(("hp;\n" * (EVERYWHERE + 1) + " " * 2000 + "heal").encode(), None)
    assert occurrences(read, ["hp", "heal"]) == {"hp": None, "heal": (2196,)}
    assert near_words_of(read, frozenset({"hp", "heal"})) == 2
    # kept with the text: each stem's occurrences, and the answer for the set
    assert read.found[("at", "hp")] is None and read.found[("at", "heal")] == (2196,)
    assert read.found[("near", frozenset({"hp", "heal"}))] == 2
    assert near("hpx hpx heal", frozenset({"hp", "heal"})) == 1


def test_only_the_text_s_first_body_chars_are_looked_at() -> None:
    text = "a" * BODY_CHARS + " scatter the enemy"
    assert near(text, STEMS) == 0
    assert near(text[1000:], STEMS) == 2


def _slow_near(low: str, stems: frozenset[str]) -> int:
    """Every window that starts at an occurrence, counted afresh."""
    at = {s: [m.start() for m in re.finditer(stem_regex(s), low[:BODY_CHARS])] for s in stems}
    everywhere = {s for s, where in at.items() if len(where) > EVERYWHERE}
    starts = [p for s, where in at.items() if s not in everywhere for p in where]
    held = (
        {s for s, where in at.items() if s not in everywhere and any(p <= q <= p + NEAR_CHARS for q in where)}
        for p in starts
    )
    return max((len(h) for h in held), default=0) + len(everywhere)


WORDS = ["hp", "heal", "Health", "spawner", "SPAWN", "ai", "x" * 150, "\n", "enemy"]
TEXTS = st.lists(st.sampled_from(WORDS), max_size=120).map(" ".join)
ASKED = st.frozensets(st.sampled_from(["hp", "heal", "health", "spawn", "spawner", "ai", "enemy", "x"]), max_size=5)


@given(TEXTS, st.lists(ASKED, min_size=1, max_size=3))
def test_nearness_kept_with_a_text_is_what_every_window_counted_afresh_gives(text: str, asks: list) -> None:
    read = FileText(text.encode(), None)
    for stems in asks:
        assert near_words_of(read, stems) == _slow_near(read.low, stems)


def _scanned(low: str, stem: str) -> tuple[int, ...] | None:
    """Where a stem occurs as one scan of the text lists it: each match after the last one's end."""
    where = [m.start() for m in re.finditer(stem_regex(stem), low[:BODY_CHARS])]
    return None if len(where) > EVERYWHERE else tuple(where)


PIECES = ["a", "b", "c", "ab", "abc", "menu", "overlay", " ", "\n", "x" * 40]
PARTED = ["aaa", "aaab", "abc", "abcab", "abcabc", "bca", "menu", "overlay", "overlaymenu", "laymenu", "ab"]


@given(
    st.lists(st.sampled_from(PIECES), max_size=200).map("".join),
    st.lists(st.frozensets(st.sampled_from(PARTED), max_size=6), min_size=1, max_size=3),
)
def test_a_compound_found_from_its_parts_is_where_a_scan_finds_it(text: str, asks: list) -> None:
    """A stem holding another (`overlaymenu`, `menu`) is found among the other's occurrences, not
    by a scan: the same positions, also where a part's occurrences overlap (`aaa` in `aaaab`) or
    the compound's do (`abcab` in `abcabcab`)."""
    read = FileText(text.encode(), None)
    for stems in asks:
        assert occurrences(read, sorted(stems)) == {s: _scanned(read.low, s) for s in sorted(stems)}


def test_a_compound_is_found_where_its_part_or_itself_overlaps() -> None:
    """`aaa` found at 0 only (the scan resumes after each match) misses the `aaa` of `aaab` at 2:
    a part with a border is not used; `abcab` matched at 0 overlaps its match at 3, which the
    scan does not list."""
    assert occurrences(FileText(b"aaaaab", None), ["aaa", "aaab"]) == {"aaa": (0,), "aaab": (2,)}
    assert occurrences(FileText(b"abcabcab", None), ["abc", "abcab"]) == {"abc": (0, 3), "abcab": (0,)}
    assert occurrences(FileText(b"an overlay menu, overlaymenu", None), ["menu", "overlaymenu"]) == {
        "menu": (11, 24),
        "overlaymenu": (17,),
    }


@given(
    st.lists(st.sampled_from([*PIECES, "x" * BODY_CHARS]), max_size=60).map("".join),
    st.lists(st.frozensets(st.sampled_from(PARTED), max_size=6), min_size=1, max_size=3),
    st.booleans(),
)
def test_the_stems_a_text_holds_are_those_a_scan_finds_whatever_was_found_before(
    text: str, asks: list, located: bool
) -> None:
    """`stems_in_text` passes over a compound holding a stem the text lacks, and takes what
    `occurrences` found in the text's first BODY_CHARS (`located`: the ranking looked first), yet
    says what looking for each stem in the whole text does (a text longer than BODY_CHARS too)."""
    read = FileText(text.encode(), None)
    for stems in asks:
        if located:
            occurrences(read, sorted(stems))
        assert stems_in_text(read, set(stems)) == {s for s in stems if re.search(stem_regex(s), read.low)}
