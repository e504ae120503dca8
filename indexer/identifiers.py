"""Identifier-aware text for the full-text index: the same splitting at index and query time.

tantivy's tokenizers cannot split `PlayerHealth` or `HTTPServer` (Rust regex has no look-around),
so words are split here and the whole identifier is kept beside its parts: a query for
`PlayerHealth`, `player health` or `playerhealth` all match.
"""

from __future__ import annotations

import bisect
import itertools
import operator
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

# a word holding a character outside ASCII (not a lone surrogate, which no UTF-8 holds, nor U+FFFD,
# a byte no decoding read)
_OTHER_SCRIPT = re.compile(r"\w*[^\x00-\x7f\ud800-\udfff\ufffd]\w*")
_ASCII_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")  # what `expand` splits and expands
# Characters that show nothing and join nothing in a query's words: the soft hyphen, direction
# marks, embeddings, overrides and isolates, zero-width spaces and joiners, the word joiner, the BOM.
_INVISIBLE = re.compile("[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
_WORD = re.compile(r"[^\W\d]\w*|[0-9]+")  # letters of any script: a Korean dialogue line is searched too
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

# English function words and the filler of task descriptions and questions ("the next one", "it
# never really", the halves of "doesn't"). Identifiers are never dropped (`OnePlayer` stays
# whole): only words that carry no meaning in a query about code.
STOP_WORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing done down during each either
    else etc even ever every few for from further got had has have having he
    her here hers him his how i if in into is it its itself just let lets like may me
    might more most much must my no nor not now of off on once only or other our out
    over own per please same she should so some such than that the their them then there these
    they this those through to too under until up upon us using very via was way we
    were what when where which while who whom why will with within without would yet you your
    one ones something anything someone anyone everything everyone nothing really actually instead
    still never always sometimes already almost clearly barely seems seem though although whenever
    doesn don didn isn wasn weren aren hasn haven hadn shouldn couldn wouldn ll ve""".split()  # noqa: SIM905
)


# Words that describe the change rather than the code: in task descriptions and commit messages
# they are everywhere and name nothing. Kept (a method may be called `Add`), but weighted down.
TASK_WORDS = frozenset(
    """add added adding adds allow allows bug bugs change changed changes chore cleanup correct
    correctly docs feat feature fix fixed fixes fixing implement implemented improve improved
    improvement issue issues make new now properly refactor refactoring remove removed removes
    support supported update updated updates wip""".split()  # noqa: SIM905
)
TASK_WORD_WEIGHT = 0.3
# "Where is that set?", "which asset sets up the bounciness": how a value is configured, said on
# its own, weighs TASK_WORD_WEIGHT too. As a whole word it matched every `SetX`/`Setup` method
# (`SetPowerUp`, `SetupBricks` took the top of "which asset sets up that bounciness").
SETTING_VERBS = frozenset({"set", "sets", "setup"})
# Words naming a kind of file ("which asset", "the player prefab", "what script"): what the task
# wants, not what its files are called, so said on their own they count TASK_WORD_WEIGHT too; a
# name holding one (`BagelTestAssetList`, `ExplosionMaterial`) is no answer for it. ("scene" is
# not one: "the scene loads" is about `SceneLoader` as often as about a `.unity` file.)
KIND_TERMS = frozenset({"asset", "assets", "prefab", "prefabs", "material", "materials", "script", "scripts"})
_WEAK_ALONE = KIND_TERMS | SETTING_VERBS  # said on their own, they weigh TASK_WORD_WEIGHT


# "how long" asks for a duration, not for the word: said only so, "long" matches every `Long*` name
# (a `LongPuzzleEnemy` for "how long is the player immune") and the C# type. Weighted as a task word.
HOW_LONG = re.compile(r"\bhow\s+long\b", re.IGNORECASE)


def asks_how_long(text: str) -> bool:
    """Whether the task says "long" only in "how long" (`HOW_LONG`)."""
    return bool(HOW_LONG.search(text)) and len(HOW_LONG.findall(text)) == len(re.findall(r"\blong\b", text, re.I))


# "a bit higher", "a little bit further": a measure of how much, not the word: said only so, "bit"
# matched every `BitBoard`, `Bits` and bit mask (a chess engine's debug viewer first for "make the
# bishop worth a bit more"). Weighted as a task word.
A_BIT = re.compile(r"\b(?:a|little)\s+bit\b", re.IGNORECASE)


def says_a_bit(text: str) -> bool:
    """Whether the task says "bit" only in "a bit" or "little bit" (`A_BIT`)."""
    return bool(A_BIT.search(text)) and len(A_BIT.findall(text)) == len(re.findall(r"\bbit\b", text, re.I))


# Particles that code writes into one word with a verb or noun (`PickUp`, `GameOver`, `LogIn`):
# stop words on their own, but the second half of a compound.
PARTICLES = frozenset({"up", "down", "over", "out", "off", "in", "on", "back"})
_INFLECTION = ("ing", "ed", "d", "es", "s")
MAX_COMPOUNDS = 24  # a long task description must not grow the query without bound
MAX_QUERY_TERMS = 400  # distinct terms of a query's words used, the first ones (`bounded_query`)
MAX_QUERY_WORDS = 20_000  # words of a query read at most (`bounded_query`): a 100 kB paste has about 15,000
MAX_QUERY_CHARS = 256_000  # characters of a query read at most (`bounded_query`), what words or not
_TOKEN = re.compile(r"[A-Za-z]+|[^A-Za-z\s]+")

COMPOUND_WEIGHT = 1.0  # two words of the query written as one: `pickup` for "pick up"
IDENTIFIER_WEIGHT = 1.5  # a compound identifier in a query names one specific thing
PART_WEIGHT = 0.6  # its parts only hint at it
NUMBER_WEIGHT = 0.3  # `16.0`, `case 1364017`: rarely what the code is named by


@lru_cache(maxsize=256)
def _word_roles(text: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The query's words lower-cased, by role: said on their own, whole identifiers (`PlayerHealth`),
    and the parts of those identifiers."""
    standalone: set[str] = set()
    compound: set[str] = set()
    parts: set[str] = set()
    for word in _WORD.findall(text):
        if len(word) > 64:
            continue
        split = split_identifier(word)
        if len(split) > 1:
            compound.add(word.lower())
            parts.update(p.lower() for p in split)
        else:
            standalone.add(word.lower())
    return frozenset(standalone), frozenset(compound), frozenset(parts)


# An acronym's plural said as a word ("RPCs", "NPCs", "IDs"), which identifier splitting takes for
# a name of two parts
_PLURAL_ACRONYM = re.compile(r"[A-Z]{2,}s")


def quoted_names(text: str) -> frozenset[str]:
    """The identifiers the query quotes whole, lower-cased: `PlayerHealth` -> `playerhealth`
    (a plain word is none, nor an acronym's plural, "RPCs")."""
    return frozenset(
        w.lower()
        for w in _WORD.findall(text)
        if len(w) <= 64 and not _PLURAL_ACRONYM.fullmatch(w) and len(split_identifier(w)) > 1
    )


def said_words(text: str) -> list[str]:
    """The query's terms without the parts of its identifiers: what a task says it is about
    ("scenes", "prefab"), not what a name it quotes is made of (`IsSceneObject`, `PrefabPool`)."""
    standalone, _compound, parts = _word_roles(text)
    return [t for t in query_terms(text) if t not in parts or t in standalone]


def weighted_terms(text: str) -> list[tuple[str, float]]:
    """Query terms with weights: named identifiers up, their parts and task words down."""
    standalone, compound, parts = _word_roles(text)
    joined = set(compounds(text))
    how_long, a_bit = asks_how_long(text), says_a_bit(text)
    out = []
    for term in query_terms(text):
        if term in joined and term not in standalone and term not in compound:
            out.append((term, COMPOUND_WEIGHT))
        elif term.isdigit():
            out += [(n, NUMBER_WEIGHT) for n in _numbered(term)]
        elif (
            term in TASK_WORDS
            or (term in _WEAK_ALONE and term in standalone)
            or (how_long and term == "long")
            or (a_bit and term == "bit")
        ):
            out.append((term, TASK_WORD_WEIGHT))
        elif term in compound:
            out.append((term, IDENTIFIER_WEIGHT))
        elif term in parts and term not in standalone:
            out.append((term, PART_WEIGHT))
        else:
            out.append((term, 1.0))
    return out


def _numbered(number: str) -> list[str]:
    """A number as names write it with or without leading zeros: "level 3" is `Level_03` or
    `Level_003`, "wave 07" is `Wave7` (a name's digits are a token of their own)."""
    bare = number.lstrip("0") or "0"
    if len(bare) > 2:
        return [number]
    return list(dict.fromkeys([number, bare, bare.zfill(2), bare.zfill(3)]))


def compounds(text: str) -> list[str]:
    """Adjacent words of a query joined as code writes them: "pick up" -> `pickup` (matches
    `PickUp`, `Pickup`, `OnPickUp`), "picks up" -> `pickup` too, "game over" -> `gameover`.
    Only plain words next to each other (a hyphen between is fine: "pick-up"); the first must not
    be a stop word or a task word, the second may be a particle."""
    return list(compound_spellings(text))


def compound_spellings(text: str) -> dict[str, str]:
    """`compounds` -> the two words the task wrote (`screenfaded` -> "screen faded"): what a
    pack's `matched:` shows, as no file or task holds the joined word."""
    out: dict[str, str] = {}
    prev = ""
    for m in _TOKEN.finditer(text):
        word = m.group()
        if word == "-":
            continue
        if not word.isalpha() or len(word) > 64 or len(split_identifier(word)) > 1:
            prev = ""
            continue
        low = word.lower()
        if prev and (low not in STOP_WORDS or low in PARTICLES) and len(low) > 1:
            for first in _uninflected(prev):
                out.setdefault(first + low, f"{prev} {low}")
        prev = low if low not in STOP_WORDS and low not in TASK_WORDS and len(low) > 1 else ""
    return dict(list(out.items())[:MAX_COMPOUNDS])


def _uninflected(word: str) -> list[str]:
    """The word, and the word without an English inflection: `picks`/`picked`/`picking` -> `pick`,
    `saves`/`saved` -> `save`, `watches` -> `watch` (both readings of -es and -ed are kept)."""
    forms = [word]
    for suffix in _INFLECTION:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            forms.append(word[: -len(suffix)])
    return list(dict.fromkeys(forms))


def word_stems(text: str) -> set[str]:
    """The stemmed words of a name or a path, identifiers split: `Assets/Levels/LevelIce.mat` ->
    asset, level, ice, mat (what names a package, a project or a file by its words)."""
    return {stem(w) for part in _NON_WORD.split(text) for w in split_identifier(part)}


_NON_WORD = re.compile(r"[^A-Za-z0-9]+")


def split_identifier(word: str) -> list[str]:
    """`PlayerHealth` -> [Player, Health]; `HTTPServer2D` -> [HTTP, Server, 2, D]; `m_maxHP` -> [m, max, HP].
    One `findall` over the whole word: no part holds `_`, and the one lookahead looks at letters
    only, so the parts are those of each `_`-separated chunk in turn."""
    return _PART.findall(word)


def expand(text: str, pairs: bool = False, doers: bool = False) -> str:
    """Text with every compound identifier followed by its parts, ready for a word tokenizer.
    `pairs` adds adjacent parts joined (`OnPickUp` -> `OnPick`, `PickUp`), so a query's compound
    (`pick up` -> `pickup`) meets the middle of a longer name.

    Why this shape (the same result as expanding each ASCII word, `_ASCII_WORD`, in turn, then
    the words holding another script's letters whole, `_OTHER_SCRIPT`): the text is cut
    into runs of word characters by C-level translate and split, and each run's expansion is
    memoised per process. Runs repeat across files enormously (95% of the 6.6M words of
    UnityCsReference are among its 65k most frequent), so a search document costs a dict lookup
    per word; the regex and the splitting run once per distinct run."""
    runs = text.encode("ascii", "replace").translate(_RUN_BYTES).decode("ascii").split()
    out = " ".join(map(_EXPANSIONS[pairs, doers].__getitem__, runs))
    # then each word holding a letter of another script, whole (a Korean dialogue line, `중급 포션`)
    return out if text.isascii() else " ".join(w for w in (out, *_other_script_words(text)) if w)


def _other_script_words(text: str) -> list[str]:
    """`_OTHER_SCRIPT.findall(text)`, run over the lines holding a character outside ASCII only
    (no match holds a line break). The regex tries every position: over the whole text of
    UnityCsReference's 196 scripts with such a character (mostly one, in a comment) it took 0.38 s
    of CPU, over those lines 0.015 s."""
    return _OTHER_SCRIPT.findall("\n".join([line for line in text.split("\n") if not line.isascii()]))


def _expand_word(word: str, pairs: bool, doers: bool) -> str:
    """One word and what `expand` adds after it, space-separated (the word itself when nothing)."""
    out = [word]
    if not word.isalpha() or not (word.islower() or word.isupper() or word.istitle()):
        parts = split_identifier(word)
        if len(parts) > 1:
            out.extend(parts)
        if pairs and len(parts) > 2:
            out.extend(_pairs(word))
    if doers:
        out.extend(d for p in split_identifier(word) if (d := doer_base(p)))
    return " ".join(out)


class _Expansions(dict[str, str]):
    """Run of word characters -> its expansion; a lookup that misses computes it (`__missing__`),
    so a hit stays in C. Emptied when full: a cache, never a record of anything."""

    def __init__(self, pairs: bool, doers: bool) -> None:
        super().__init__()
        self.pairs, self.doers = pairs, doers

    def __missing__(self, run: str) -> str:
        if len(self) >= EXPANSION_CACHE:
            self.clear()
        # A run is one word unless it starts with digits (`2D` -> `2`, `D`): _WORD decides.
        value = self[run] = " ".join([_expand_word(w, self.pairs, self.doers) for w in _WORD.findall(run)])
        return value


EXPANSION_CACHE = 65536  # runs per flavour of `expand`: about 10 MB per process at most
_EXPANSIONS = {(p, d): _Expansions(p, d) for p in (False, True) for d in (False, True)}
# Bytes of `_WORD`'s characters stay, every other byte (non-ASCII included) becomes a space.
_RUN_BYTES = bytes(c if chr(c).isascii() and (chr(c).isalnum() or c == 0x5F) else 0x20 for c in range(256))


def doer_base(part: str) -> str:
    """What a name for a doer does: `Scanner` -> `scan`, `Spawner` -> `spawn`, `Controller` ->
    `control`, so "the scan line" meets the `Scanner` (tantivy's stemmer keeps -er words whole)."""
    w = part.lower()
    if len(w) < 6 or not w.endswith(("er", "or")) or not w.isalpha():
        return ""
    base = w[:-2]
    if len(base) > 3 and base[-1] == base[-2] and base[-1] not in "aeiouls":
        base = base[:-1]
    return base


def _pairs(word: str) -> list[str]:
    """Adjacent parts joined within each camel-case run of at least three parts (`OnPickUp` ->
    `OnPick`, `PickUp`); a two-part run is its own whole already."""
    out: list[str] = []
    for chunk in word.split("_"):
        parts = _PART.findall(chunk)
        if len(parts) > 2:
            out.extend(a + b for a, b in itertools.pairwise(parts) if a.isalpha() and b.isalpha())
    return out


def query_terms(text: str) -> list[str]:
    """Lower-cased search terms for a query: identifiers whole and split, stop words dropped.

    Deduplicated in first-seen order so a repeated word does not weigh twice; the query's
    compounds (`compounds`) follow its words.
    """
    return list(_query_terms(text))


@lru_cache(maxsize=256)
def _query_terms(text: str) -> tuple[str, ...]:
    """`query_terms`, kept for the last queries: one search asks for them three times (the
    terms, their weights, the words said), and a long task text costs a fraction of a ms."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(text):
        for low in _word_terms(word):
            seen.setdefault(low, None)
    for joined in compounds(text):
        seen.setdefault(joined, None)
    return tuple(seen)


def _word_terms(word: str) -> list[str]:
    """The search terms one word of a query gives: the identifier whole and its parts."""
    if len(word) > 64:
        return []
    parts = split_identifier(word)
    # The index's word tokenizer splits at `_`, so a whole `snake_case` word would become a
    # phrase; its parts carry the meaning.
    whole = [] if "_" in word else [word]
    candidates = [*whole, *parts] if len(parts) > 1 or not whole else whole
    out = []
    for w in candidates:
        low = w.lower()
        if low and low not in STOP_WORDS and (len(low) > 1 or low.isdigit()):
            out.append(low)
    return out


def bounded_query(text: str) -> str:
    """The start of a query text that holds its first MAX_QUERY_TERMS distinct terms: all of it
    for any question or task description (the longest of the evaluation sets has 261), the head
    of a pasted log or stack trace. Every step of an answer costs in proportion to the terms
    (each is looked for in each candidate file's text), so 20,000 distinct words took seconds.

    The first terms, not the rarest or the identifiers: the head of a pasted text is what it is
    about (an exception's message and innermost frames, a log's first error), the cut depends on
    the text alone (no index statistics to read before it, the same answer on every index), and
    what was used is easy to say: the text up to the word where the cut falls.

    And at most its first MAX_QUERY_WORDS words and MAX_QUERY_CHARS characters: the same few
    terms repeated (a log of one line over and over, 9 MB sent to the MCP server) or no word at
    all (punctuation) cost every step in proportion to the text, and such a `search` took 21 s.

    Invisible format characters (`_INVISIBLE`: a zero-width space, a soft hyphen, a direction mark)
    are dropped first: pasted from a chat or a web page inside a word, they split it, and
    `Hea\\u200blth` found nothing."""
    text = _INVISIBLE.sub("", text)
    if len(text) > MAX_QUERY_CHARS:  # cut at a blank, not inside a word, where there is one
        cut = max(text.rfind(" ", 0, MAX_QUERY_CHARS + 1), text.rfind("\n", 0, MAX_QUERY_CHARS + 1))
        text = text[: cut if cut > 0 else MAX_QUERY_CHARS]
    seen: set[str] = set()
    for i, match in enumerate(_WORD.finditer(text)):
        new = {t for t in _word_terms(match.group()) if t not in seen}
        if len(seen) + len(new) > MAX_QUERY_TERMS or i == MAX_QUERY_WORDS:
            return text[: match.start()]
        seen |= new
    return text


@lru_cache(maxsize=65536)
def name_stems(name: str) -> tuple[str, ...]:
    """A declared name's stemmed words, whole and split, each once: what query stems are compared
    with (`stems.intersection(name_stems(name))`). Pure, and cached: the same names recur in every
    query. A tuple, not a frozenset: the garbage collector stops tracking a tuple of strings at its
    first collection, but traverses a cached frozenset, each of its strings touched, at every
    collection of its generation (the first pass over the benchmark's queries on UnityCsReference
    keeps thousands)."""
    return tuple(dict.fromkeys([stem(name), *map(stem, _PART.findall(name))]))  # split_identifier's parts


def stem_prefixes(stems: Iterable[str]) -> list[str] | None:
    """What a name holding one of these stems must contain, lower-cased: each stem itself (a stem
    is its word lower-cased less a suffix, so it begins the word), less its last letter when that
    is a `y` (which may stand for `ies`). Whole stems, not stems less their last letter: a stem of
    two letters (`ui`, `id`) would otherwise let in every name holding its first. None when a
    stem is not ASCII: then lower-casing may not line up with the stemmer's, and no name is
    passed over on this ground."""
    out = sorted({(s[:-1] if s.endswith("y") else s) or s for s in stems})
    return out if all(p.isascii() for p in out) else None


class NameText:
    """Declared names lower-cased and joined by newlines (no stem holds one): which names hold a
    stem's prefix is then a few `str.find` scans in C, not a test of every name. Names that are
    not ASCII (lower-casing may change their length) are always candidates (`others`). Its indexes
    are tuples of ints, which the garbage collector stops tracking (`search.Outline`)."""

    __slots__ = ("others", "starts", "text")

    def __init__(self, names: Sequence[str]):
        joined = "\n".join(names)
        if joined.isascii():  # the common case, in a few calls in C
            self.others: tuple[int, ...] = ()
            self.text = joined.lower()
            lengths = map(len, names[:-1])
        else:
            low = [n.lower() if n.isascii() else "" for n in names]
            self.others = tuple(i for i, n in enumerate(names) if not n.isascii())
            self.text = "\n".join(low)
            lengths = map(len, low[:-1])
        # where each name starts: the lengths before it, each with its newline
        self.starts = (
            tuple(itertools.accumulate(map(operator.add, lengths, itertools.repeat(1)), initial=0)) if names else ()
        )

    def holding(self, prefixes: list[str]) -> set[int]:
        """Indexes of the ASCII names that contain one of these (lower-case ASCII) prefixes."""
        text, starts, out = self.text, self.starts, set()
        last = len(starts) - 1
        for p in prefixes:
            pos = text.find(p)
            while pos >= 0:
                i = bisect.bisect_right(starts, pos) - 1
                out.add(i)
                pos = text.find(p, starts[i + 1]) if i < last else -1
        return out

    def may_hold(self, stems: Iterable[str]) -> set[int] | None:
        """Indexes of the names that may hold one of these stems: the others hold no stem's prefix
        and are passed over without splitting and stemming them (the cheap check before
        `name_stems`). None when no name can be passed over (a stem not ASCII: `stem_prefixes`)."""
        prefixes = stem_prefixes(stems)
        return None if prefixes is None else self.holding(prefixes).union(self.others)


_STEM_SUFFIXES = (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", ""))  # the first that fits is cut
_STEM_ENDINGS = tuple(suffix for suffix, _ in _STEM_SUFFIXES)


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light English stemmer for comparing query words with declared names (`dies` ~ `Die`).

    Only for matching symbols inside an already ranked file; the index itself uses tantivy's stemmer.
    """
    w = word.lower()
    if w.endswith(_STEM_ENDINGS):  # one test in C first: most words end in none of them
        for suffix, repl in _STEM_SUFFIXES:
            if w.endswith(suffix) and len(w) - len(suffix) >= 3:
                w = w[: -len(suffix)] + repl
                # `coming`, `comes`: `come`, a word, where `com` met every `Component`
                w += "e" if len(w) == 3 and suffix in ("ing", "ed", "es") and _CVC.fullmatch(w) else ""
                break
    if len(w) > 4 and w.endswith("e"):  # `damage` ~ `damag`; a word of four keeps it (`come`, `make`)
        w = w[:-1]
    return w


_CVC = re.compile(r"[^aeiou][aeiou][^aeiouwxy]")


INNER_STEM = 3  # stems this long match inside identifiers (`damag` in `TakeDamage`); shorter, whole words


def stem_regex(stem: str) -> str:
    return re.escape(stem) if len(stem) >= INNER_STEM else rf"\b{re.escape(stem)}\b"


@lru_cache(maxsize=256)
def stem_pattern(stems: frozenset[str]) -> re.Pattern[str] | None:
    """One regex finding any query stem in lower-cased text (stems are lower case); longest first."""
    parts = [stem_regex(x) for x in sorted(stems, key=lambda x: (-len(x), x))]
    return re.compile("|".join(parts)) if parts else None


_VERBATIM = re.compile(r"(?<![\w@])@(?=[A-Za-z_])")  # `@Controls`: a verbatim identifier's `@`


def code_name(text: str) -> str:
    """A name as C# may write it (`global::Game.Player`, `@Controls`, a keyword as a name) as the
    index stores it: the scanner drops the alias qualifier, and `@` is no part of the identifier."""
    return _VERBATIM.sub("", text.removeprefix("global::"))
