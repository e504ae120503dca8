"""Why a file is in a context pack: the task's words it holds (in its text, path or declared
names), the synonyms it was found through, else the reference that pulled it in; and the word a
pack shows for each of the task's stems. Kept apart from the packing (`context`), which only
writes what these say."""

from __future__ import annotations

from indexer.identifiers import INNER_STEM, TASK_WORDS, stem, word_stems
from indexer.query.synonyms import expansions
from indexer.query.textmatch import said_in_code, said_in_name, stems_in, stems_in_text
from indexer.query.texts import FileText
from indexer.query.views import file_view
from indexer.query.workspace import ProjectIndex


def matched(
    project: ProjectIndex, local: str, read: FileText, by_stem: dict[str, str], similar: dict[str, tuple[str, str]]
) -> tuple[str, set[str]]:
    """Why a file is in the pack (`match_reason`: the query words it holds, in its text or path,
    and the synonyms in its names), and the query stems its text holds."""
    stems = set(by_stem)
    in_text = stems_in_text(read, stems)
    said = said_in_code(read, in_text)  # a word or a name's part: no "press" in `m_TextureCompression`
    found = sorted(said | said_in_name(local, stems - said))
    if similar:  # synonyms are looked for in names only: a long text is scanned once a word
        view = file_view(project, local)
        long = {s for s in similar if len(s) > INNER_STEM}
        found += sorted(stems_in(f"{view.lowered if view else ''}\n{local.lower()}", long))
        if short := set(similar) - long:  # "ice" is a part of `LevelIce`, not a piece of `Device`
            found += sorted(short & part_stems(local, view.lowered if view else ""))
    return match_reason(found, by_stem, similar), in_text


def part_stems(local: str, lowered: str) -> set[str]:
    """The stems of a file's path's words, split as identifiers are, and of its declared names
    that are one word."""
    return word_stems(local) | {stem(n) for n in lowered.split("\n") if n.isalpha()}


# "the player gets hit", "where is the speed set": in code the start of every accessor call
# (`GetComponent`, `SetActive`), which filled a bug report's matched lines; a pack's lines are
# looked for by the task's other words.
ACCESSOR_STEMS = frozenset({"get", "set"})


def shown_words(terms: list[str], spellings: dict[str, str]) -> dict[str, str]:
    """stem -> the word a pack's `matched:` shows for it: the first the task says, a compound as
    its two words (`compound_spellings`), no word asking for a change ("add") and no bare number
    ("3 laps" matched `case 3:` and every file saying a 3; the field holding a value is `values`')."""
    return {stem(t): spellings.get(t, t) for t in reversed(terms) if t not in TASK_WORDS and not t.isdigit()}


def synonym_stems(terms: list[str], stems: set[str], too: tuple[str, ...] = ()) -> dict[str, tuple[str, str]]:
    """stem -> (word, the word said it stands for) of the synonyms the words a task says were
    searched with (`synonyms`; `stems`: the query's own; `too`: `synonyms.excess`): a file found
    through one says so."""
    out: dict[str, tuple[str, str]] = {}
    for term, words in expansions(terms, too):
        for word in words:
            if stem(word) not in stems:
                out.setdefault(stem(word), (word, term))
    return out


def match_reason(found: list[str], by_stem: dict[str, str], similar: dict[str, tuple[str, str]]) -> str:
    """`matched: enemy, dies`, then the words found for a query word by synonym: `; death (for dies)`;
    empty when the file holds none of them."""
    through: dict[str, list[str]] = {}
    for s in found:
        if s not in by_stem:
            word, term = similar[s]
            through.setdefault(term, []).append(word)
    words = [by_stem[s] for s in found if s in by_stem]
    covered = {w for x in words if " " in x for w in x.split()}  # "screen faded" says "screen"
    parts = [", ".join(w for w in words if w not in covered)]
    parts += [f"{', '.join(words)} (for {term})" for term, words in through.items()]
    text = "; ".join(p for p in parts if p)
    return f"matched: {text}" if text else ""


def ranked_reason(ranked: str) -> str:
    """Why the ranking holds a file none of the task's words name: the graph edge that pulled it
    in (`script on Assets/Prefabs/Player.prefab`), else the text match the index made of it."""
    return "; ".join(p for p in ranked.split("; ") if p and p != "text match") or "text match"


class Reasons:
    """Why each file is in one pack (`matched`), worked out once per file: a pack lays its files
    out again for the related lines' room and to fill what is left, each time asking the same."""

    __slots__ = ("_known", "by_stem", "similar")

    def __init__(self, by_stem: dict[str, str], similar: dict[str, tuple[str, str]]) -> None:
        self.by_stem, self.similar = by_stem, similar
        self._known: dict[str, tuple[str, set[str]]] = {}

    def of(self, path: str, project: ProjectIndex, local: str, read: FileText) -> tuple[str, set[str]]:
        """`matched` for the file at `path` (workspace path; `local` in `project`, its text `read`)."""
        known = self._known.get(path)
        if known is None:
            known = self._known[path] = matched(project, local, read, self.by_stem, self.similar)
        return known
