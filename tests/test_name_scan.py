"""Finding what holds a query's stems by faster scans must find exactly what the slower rule did:
the declared names (search's best declaration, context's compact outline) and a file's matched
lines (context)."""

import gc
import re

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from indexer.identifiers import NameText, name_stems, stem, stem_pattern, stem_prefixes
from indexer.model import Declared
from indexer.query.outline import matches
from indexer.query.search import Outline, _name_matches
from indexer.query.textmatch import NOT_MATCHED as _NOT_MATCHED
from indexer.query.textmatch import _said, matched_lines_of, stems_in, stems_in_text
from indexer.query.textmatch import matched_lines as _matched_lines
from indexer.query.texts import FileText
from indexer.query.vendored import _VENDORED_FOLDERS, vendor_package
from indexer.query.views import FileView, compact
from indexer.store.schema import outline_encoder

# ASCII letters that stem, plus characters whose case rules differ from ASCII's (dotted I,
# Kelvin sign, long s, final sigma): a name or stem holding one is tested without the scan.
NAMES = st.lists(st.text(alphabet="abdeinsgyAEISN_2\u0130\u212a\u017f\u03a3", max_size=12), max_size=14)
WORDS = st.lists(st.text(alphabet="abdeinsgy\u017f\u03c3", min_size=1, max_size=8), max_size=4)


def _every_name(names: list[str], wanted: set[str]) -> dict[int, frozenset[str]]:
    """The rule before the scan: a case-insensitive regex of the stems' prefixes over each name."""
    search = re.compile("|".join(re.escape(w[:-1] or w) for w in sorted(wanted)), re.I).search
    return {i: hit for i, n in enumerate(names) if search(n) and (hit := wanted.intersection(name_stems(n)))}


@given(NAMES, WORDS)
def test_the_names_found_by_the_scan_are_those_every_name_tested_gives(names: list[str], words: list[str]) -> None:
    wanted = {stem(w) for w in words}
    outline = Outline(msgspec.json.encode([[i + 1, "method", f"Game.{n}", ""] for i, n in enumerate(names)]))
    assert _name_matches(outline, wanted) == _every_name(names, wanted)


def compact_lines(lines: list[tuple[str, str | None]], stems: set[str]) -> list[str]:
    """The compact rule before the scan: every line naming no member, and each member that matches."""
    return [line for line, member in lines if member is None or matches(member, stems)]


@given(NAMES, WORDS, st.lists(st.booleans(), max_size=14))
def test_a_compact_outline_cut_by_index_is_the_one_every_line_tested_gives(
    names: list[str], words: list[str], types: list[bool]
) -> None:
    """Context keeps a C# view's lines naming no member by index and adds the members that match."""
    stems = {stem(w) for w in words}
    lines = [(f"  L{i} {n}()", None if i < len(types) and types[i] else n) for i, n in enumerate(names)]
    members = tuple(m for _, m in lines)
    fixed = tuple(i for i, m in enumerate(members) if m is None)
    view = FileView("csharp", frozenset(), tuple(t for t, _ in lines), members, NameText([m or "" for m in members]))
    view = msgspec.structs.replace(view, fixed=fixed)
    assert compact(view, None, stems) == compact_lines(lines, stems)


FOLDERS = st.sampled_from(
    [
        *("Assets", "Plugins", "plugin", "ThirdParty", "Third_Party", "third-party", "ThirdParties", "3rd"),
        *("Party", "3rdparty", "Vendor", "vendors", "External", "Externals", "Standard", "TextMesh", "Pro"),
        *("Game", "plugin\u017f", "\u212aits", "Packages"),
    ]
)


@given(st.lists(st.lists(FOLDERS, min_size=1, max_size=2).map(" ".join), max_size=4).map("/".join))
def test_a_vendored_folder_is_found_with_or_without_the_cheap_test_first(folders: str) -> None:
    """`vendor_package` passes over an ASCII path without a vendor folder's tail before its regex."""
    path = folders + "/A.cs"
    if not path.startswith("Assets/Packages/"):
        assert (vendor_package(path, frozenset()) is None) == (_VENDORED_FOLDERS.search(path) is None)


def test_the_scan_finds_each_name_holding_a_prefix_once() -> None:
    text = NameText(["TakeDamage", "Heal", "damageTaken", "\u0130tem", ""])
    assert text.holding(["damag"]) == {0, 2}
    assert text.holding(["hea", "take"]) == {0, 1, 2}
    assert text.others == (3,)
    # a stem begins its word; one ending in `y` may stand for `ies`: `enemies` -> `enemy`
    assert stem_prefixes({"damag", "hp", "enemy"}) == ["damag", "enem", "hp"]
    assert stem_prefixes({"\u017fpeed"}) is None


def _regex_lines(text: str, low: str, stems: frozenset[str], skip: frozenset[int]) -> list[str]:
    """Matched lines by the rule `_matched_lines` keeps, line by line and place by place: a line
    holding, at some place where a word or a part of an identifier starts, a match of the one
    regex of every stem (any place, when the lower-cased text does not line up with the text)."""
    pattern = stem_pattern(stems)
    if pattern is None:
        return []
    aligned = len(low) == len(text)
    source, finder = (low, pattern) if aligned else (text, re.compile(pattern.pattern, re.I))
    found: list[tuple[int, str]] = []
    start = 0
    for line_no, line in enumerate(text.split("\n"), 1):
        end = start + len(line)
        places = range(start, end)
        hit = any(finder.match(source, p) and (not aligned or _said(text, p)) for p in places)
        start = end + 1
        stripped = line.strip()
        if hit and line_no not in skip and len(stripped) < 200 and not _NOT_MATCHED.match(stripped):
            found.append((line_no, stripped))
    read = found[:32]  # of the first 32 such lines, 8: code lines first, then comments
    code = [x for x in read if not x[1].startswith(("//", "/*", "*"))]
    chosen = sorted((code + [x for x in read if x not in code])[:8])
    return [f"  L{line_no}: {stripped}" for line_no, stripped in chosen]


@given(
    st.text(alphabet="abdeghps HP_\n\t;\u0130", max_size=400),
    st.frozensets(st.text(alphabet="abdeghps", min_size=1, max_size=5), max_size=4),
    st.frozensets(st.integers(1, 12), max_size=3),
)
def test_matched_lines_found_stem_by_stem_are_those_the_regex_finds(
    text: str, stems: frozenset[str], skip: frozenset[int]
) -> None:
    assert _matched_lines(text, text.lower(), stems, skip) == _regex_lines(text, text.lower(), stems, skip)


def test_a_matched_line_says_the_word_where_a_word_or_a_name_s_part_starts() -> None:
    """Two trials' packs: "make the player move faster" showed `onClick.RemoveListener(...)` as a
    matched line, and "the key is collected" a script's first line, `using System.Collections;`,
    behind a byte order mark."""
    text = "\ufeffusing System.Collections;\nbtn.onClick.RemoveListener(Go);\nvoid Move() {}\nKeyCollected();\n"
    stems = frozenset({"move", "collect"})
    assert _matched_lines(text, text.lower(), stems) == ["  L3: void Move() {}", "  L4: KeyCollected();"]
    assert _regex_lines(text, text.lower(), stems, frozenset()) == _matched_lines(text, text.lower(), stems)


def test_matched_lines_show_code_before_comments() -> None:
    """A trial's pack for "how are hats loaded" spent five of its eight matched lines on comments
    and commented-out calls, and left out `Addressables.InstantiateAsync(hatKey, ...)`."""
    text = "".join(f"// hat note {i}\n" for i in range(8)) + "/* hat */\n * hat\nLoad(hatKey);\n"
    assert _matched_lines(text, text.lower(), frozenset({"hat"})) == [
        *(f"  L{i + 1}: // hat note {i}" for i in range(7)),
        "  L11: Load(hatKey);",
    ]


WORDS_OF_LINES = ["hp", "heal", "Health", "dash", "pad", "Ship", "using", "a", "\u0130d", "_"]
LINES = st.lists(st.lists(st.sampled_from(WORDS_OF_LINES), max_size=5).map(" ".join), max_size=30).map("\n".join)
STEMS = st.frozensets(st.sampled_from(["hp", "heal", "health", "ea", "ash", "a", "ship", "id", "p"]), max_size=4)


@given(LINES, st.lists(STEMS, max_size=4), st.frozensets(st.integers(1, 12), max_size=3))
def test_matched_lines_and_stems_kept_with_a_text_are_those_found_afresh(
    text: str, asks: list[frozenset[str]], skip: frozenset[int]
) -> None:
    """What is kept with a text for the stems asked gives what a search afresh does, whatever
    was asked before."""
    read = FileText(text.encode(), None)
    for stems in asks:
        assert matched_lines_of(read, stems, skip) == _matched_lines(read.text, read.low, stems, skip)
        assert stems_in_text(read, set(stems)) == stems_in(read.low, set(stems))


@given(NAMES)
def test_a_name_text_holds_each_name_lower_cased_where_it_says(names: list[str]) -> None:
    """The names joined lower-cased (ASCII ones; "" for the others, listed apart), each starting
    where `starts` says."""
    text = NameText(names)
    low = [n.lower() if n.isascii() else "" for n in names]
    assert text.text == "\n".join(low)
    assert text.others == tuple(i for i, n in enumerate(names) if not n.isascii())
    assert [text.text[s : s + len(n)] for s, n in zip(text.starts, low, strict=True)] == low
    assert all(s == 0 or text.text[s - 1] == "\n" for s in text.starts)


def test_an_outline_s_declarations_are_read_as_written_and_left_out_of_garbage_collection() -> None:
    """`Declared` decodes the JSON arrays the index writes (`schema.OutlineEntry` tuples), and
    the collector does not track them (gc=False), nor, after one collection, the tuples holding
    them, the names and where each starts: a list kept per generation would be traversed by every
    collection."""
    outline = Outline(outline_encoder.encode([(3, "class", "Game.Player", "class Player"), (9, "method", "Run", "")]))
    assert outline.entries == (Declared(3, "class", "Game.Player", "class Player"), Declared(9, "method", "Run", ""))
    assert outline.names == ("Player", "Run")
    assert (outline.index.text, outline.index.starts, outline.index.others) == ("player\nrun", (0, 7), ())
    assert not any(gc.is_tracked(d) for d in outline.entries)
    gc.collect(), gc.collect()
    parts = (outline.entries, outline.names, outline.index.starts, outline.index.others)
    assert not any(gc.is_tracked(part) for part in parts)


def test_a_matched_line_inside_a_block_comment_says_it_is_commented_out() -> None:
    """A trial: a script commented out whole by `/* ... */` showed `public float runSpeed = 7f;`
    among its matched lines as if it ran. Such a line says so, and code outside comes first; a
    `/*` inside a string or a `//` comment opens none."""
    text = (
        'var s = "/* not a comment";\n'
        "// a /* nor this\n"
        "float runSpeed = 7f;\n"
        "/*\n"
        "float runSpeed = 9f;\n"
        "*/\n"
        "Run(runSpeed);\n"
    )
    assert _matched_lines(text, text.lower(), frozenset({"run"})) == [
        "  L3: float runSpeed = 7f;",
        "  L5: float runSpeed = 9f;  (commented out)",
        "  L7: Run(runSpeed);",
    ]
