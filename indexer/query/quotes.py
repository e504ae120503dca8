"""A task that quotes a text is about the file holding it.

A bug report quotes what the game shows ("it says "You cannot train in one than one"", "the
"YOU WON!" banner"), a log line, a button's label; the file holding those words in that order
is the one to change, or the one whose code shows them. BM25 ranks by the words, which such a
text shares with many files ("train", "one"), not by the phrase: the index keeps no positions
(they would double its size). So the phrase is looked for in the text of the files holding all
its words.
"""

from __future__ import annotations

import re

from indexer.model import Candidate
from indexer.query.textmatch import holds_phrase, phrase_pattern
from indexer.query.texts import FileText

QUOTED_FILES = 20  # files holding every word of a quoted phrase, read for the phrase itself
# and of each kind holding what the game shows: "New Game" is a menu button's label, and its words
# are in a hundred scripts' names (`NewGameObject`) that rank above a scene of thousands of lines
LABEL_KINDS, QUOTED_LABELS = ("scene", "prefab"), 10
MAX_WORDS = 12  # a longer quote is a pasted passage, not a text the project holds as written
MAX_QUOTES = 3
HYPHENATED_SHARE = 0.5  # of a quote's gain, for a file holding a hyphenated word the task says unquoted
HYPHENATED_KIND = "asset"  # where such a word is the text a player reads (a description), not a comment
# A quote opens at the start or after a space or bracket, and closes before the end, a space or
# punctuation: "it's", "players' scores" and "don't" hold no quote, and an apostrophe between
# letters does not close one ('You don't have permission').
_QUOTE = re.compile(
    r"""(?:^|(?<=[\s(\[{:]))"""
    r"""(?:"([^"\n]+)"|“([^”\n]+)”|'((?:[^'\n]|(?<=\w)'(?=\w))+)'|‘((?:[^’\n]|(?<=\w)’(?=\w))+)’)"""
    r"""(?=$|[\s.,;:!?)\]}])"""
)
_EDGE_PUNCTUATION = ".,;:!?…"


# One quoted word joining words by a dot, slash, underscore or hyphen: a file name
# ("Furniture.lua"), a path ("UI/Button") or a function a data file names ("OnUpdate_Oxygen").
_JOINED = re.compile(r"[a-z0-9]+(?:[._/\-][a-z0-9]+)+")


# Letters joined by hyphens, each run two letters or more, not inside a longer joined name ("x-axis",
# "2-player", `Foo-Bar.prefab` are not such words).
_HYPHENATED = re.compile(r"(?<![\w.\-/])[^\W\d_]{2,}(?:-[^\W\d_]{2,})+(?![\w\-/]|\.\w)")


# One quoted word written as code names a key (`"TutorialCompleted"`, a PlayerPrefs key): the
# files holding it whole, not those whose names share its parts, are the ones it is about.
_KEY = re.compile(r"[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*")


# One quoted word in a script other than Latin (`"만복도"`, a game's message in Korean) is the text
# a player reads, held whole by the files that show it: those are what the task is about.
_WRITTEN = re.compile(r"[^\W\d_a-zA-Z\u00c0-\u024f]")


def quoted_phrases(text: str) -> list[str]:
    """The texts a task quotes, lower case: two to MAX_WORDS words each, or one word joining words
    (`_JOINED`), or one written as code (`_KEY`, since session 34; another quoted single word is a
    name, which the words already search; such a word joined by `_` or `-` is quoted when it is the
    whole task, `Type.Member` is not), at most
    MAX_QUOTES, in the task's order."""
    out: list[str] = []
    alone = text.strip().strip(_EDGE_PUNCTUATION).lower()
    if _JOINED.fullmatch(alone) and not re.search(r"[./]", alone):  # one name pasted alone (not `Type.Member`)
        out.append(alone)
    for m in _QUOTE.finditer(text):
        said = " ".join(next(g for g in m.groups() if g).split()).strip(_EDGE_PUNCTUATION + " ")
        phrase, words = said.lower(), len(said.split())
        if (
            (2 <= words <= MAX_WORDS or _JOINED.fullmatch(phrase) or _KEY.fullmatch(said) or _WRITTEN.search(said))
            and re.search(r"[^\W_]", phrase)  # a letter or digit, of any script
            and phrase not in out
        ):
            out.append(phrase)
    return out[:MAX_QUOTES]


def hyphenated(text: str, quoted: list[str] | None = None) -> list[str]:
    """The words a task joins by hyphens outside quotes, lower case ("turns on auto-bots and
    auto-research", "the double-jump"), not those it quotes: looked for as written, as a quoted
    one is ("auto-bots" in a description), since the joined word (`autobots`, `identifiers.
    compounds`) meets only a name and its two words meet every file saying either. `quoted`: the
    task's `quoted_phrases`, when the caller has them."""
    quoted = set(quoted_phrases(text) if quoted is None else quoted)
    found = (m.group().lower() for m in _HYPHENATED.finditer(without_quotes(text)))
    return [w for w in dict.fromkeys(found) if w not in quoted][:MAX_QUOTES]


def without_quotes(text: str) -> str:
    """The task's own words: what it quotes (a label, an option's name) left out."""
    return _QUOTE.sub(" ", text)


def quoted_files(project, text: str, kind: str | None, path_prefix: str | None) -> list[tuple[Candidate, str, float]]:
    """(candidate, phrase, share of a quote's gain) for each file holding a phrase the task quotes
    (1.0) or a word it joins by hyphens (HYPHENATED_SHARE, data assets only), `project` a
    workspace.ProjectIndex, best BM25 first among those holding all its words."""
    out: list[tuple[Candidate, str, float]] = []
    quoted = quoted_phrases(text)
    for phrase in quoted:
        words = re.findall(r"[^\W_]+", phrase)  # letters and digits of any script
        found = {c.path: c for c in project.searcher.holding(words, QUOTED_FILES, kind, path_prefix)}
        for label_kind in LABEL_KINDS if kind is None else ():  # a button's label among code saying its words
            found.update((c.path, c) for c in project.searcher.holding(words, QUOTED_LABELS, label_kind, path_prefix))
        out += [(c, phrase, 1.0) for c in found.values() if holds_phrase(project.texts.get(c.path), phrase)]
    for phrase in hyphenated(text, quoted) if kind in (None, HYPHENATED_KIND) else ():
        found = project.searcher.holding(phrase.split("-"), QUOTED_FILES, HYPHENATED_KIND, path_prefix)
        out += [(c, phrase, HYPHENATED_SHARE) for c in found if holds_phrase(project.texts.get(c.path), phrase)]
    return out


def quote_line(read: FileText, phrase: str) -> tuple[int, str] | None:
    """Where the text first holds the phrase: its line (from 1) and that line, stripped and cut to
    200 characters (a serialized string may fill a line of kilobytes)."""
    m = phrase_pattern(phrase).search(read.low)
    if m is None or len(read.low) != len(read.text):  # positions in `low` are the text's only then
        return None
    start = read.text.rfind("\n", 0, m.start()) + 1
    end = read.text.find("\n", m.start())
    return read.text.count("\n", 0, start) + 1, read.text[start : end if end >= 0 else None].strip()[:200]
