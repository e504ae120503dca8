"""Finding the declared names that hold a query's stems by scanning their lower-cased text must
find exactly what testing every name does (search's best declaration, context's compact outline)."""

import re

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from indexer.identifiers import NameText, name_stems, stem, stem_prefixes
from indexer.query.outline import compact_lines
from indexer.query.search import Outline, _name_matches

# ASCII letters that stem, plus characters whose case rules differ from ASCII's (dotted I,
# Kelvin sign, long s, final sigma): a name or stem holding one is tested without the scan.
NAMES = st.lists(st.text(alphabet="abdeinsgyAEISN_2\u0130\u212a\u017f\u03a3", max_size=12), max_size=14)
WORDS = st.lists(st.text(alphabet="abdeinsgy\u017f\u03c3", min_size=1, max_size=8), max_size=4)


def _every_name(names: list[str], wanted: set[str]) -> dict[int, frozenset[str]]:
    """The rule before the scan: a case-insensitive regex of the stems' prefixes over each name."""
    search = re.compile("|".join(re.escape(w[:-1] or w) for w in sorted(wanted)), re.I).search
    return {i: hit for i, n in enumerate(names) if search(n) and (hit := name_stems(n) & wanted)}


@given(NAMES, WORDS)
def test_the_names_found_by_the_scan_are_those_every_name_tested_gives(names: list[str], words: list[str]) -> None:
    wanted = {stem(w) for w in words}
    outline = Outline(msgspec.json.encode([[i + 1, "method", f"Game.{n}", ""] for i, n in enumerate(names)]))
    assert _name_matches(outline, wanted) == _every_name(names, wanted)


@given(NAMES, WORDS)
def test_a_compact_outline_is_the_same_with_the_scan(names: list[str], words: list[str]) -> None:
    stems = {stem(w) for w in words}
    lines = [("class Game", None), *((f"  L{i} {n}()", n) for i, n in enumerate(names))]
    scan = NameText([m or "" for _, m in lines])
    assert compact_lines(lines, stems, scan) == compact_lines(lines, stems)


def test_the_scan_finds_each_name_holding_a_prefix_once() -> None:
    text = NameText(["TakeDamage", "Heal", "damageTaken", "\u0130tem", ""])
    assert text.holding(["damag"]) == {0, 2}
    assert text.holding(["hea", "take"]) == {0, 1, 2}
    assert text.others == [3]
    assert stem_prefixes({"damag", "hp"}) == ["dama", "h"]
    assert stem_prefixes({"\u017fpeed"}) is None
