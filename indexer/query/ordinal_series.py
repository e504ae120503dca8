"""A numbered series the task counts into by an ordinal, in a word its files are not named by.

"The second stage is a survive-the-timer round; where do I change how long you must survive?"
wants `Level2.asset` of `Level1`, `Level2`, `Level3`: the task counts ("second") but names the
series in its own word ("stage"), so `named_files.files_numbered`, which needs the word and the
number together ("level 2", "the second level"), names nothing. The series tells which files are
counted: files of one kind in one folder named by one name and a number (`Level1.asset`,
`Level2.asset`, `Level3.asset`), numbered without a gap from 0 or 1, of which the ranking already
holds two or more among its best (the task is about them); the one the ordinal counts to ranks as
a file the task numbers does, just under the best (docs/retrieval.md, "Session 57, a thirty-sixth
trial").
"""

from __future__ import annotations

import re

from indexer.identifiers import STOP_WORDS, TASK_WORDS, stem
from indexer.model import Ranked
from indexer.project import file_title
from indexer.query.named_files import numbered_files, ordinal_words

SERIES_BEST = 30  # the best files two members of a series must be among
SERIES_MIN = 3  # members a series has at least: two files are a pair, not a count
SERIES_SHARE = 0.9  # the counted member's share of the best score (rank.NUMBERED_SHARE, as a numbered file)
# Words an ordinal counts occasions or parts by, not things ("the first time", "in the first place",
# "the second half", "the first thing it touches")
_OCCASIONS = frozenset({"time", "times", "place", "half", "thing"})
_NAME_NUMBER = re.compile(r"^(.*?[A-Za-z])[ #_-]*([0-9]+)$")  # `Level2`, `Wave_03`: a name, then a number


def counted_words(text: str) -> list[tuple[str, int]]:
    """The (stem of a word, its position) the task counts by an ordinal before it ("the second
    stage": ("stag", 2)), but not a word of no meaning after it ("the second of") nor one counting
    occasions (`_OCCASIONS`: "the first time")."""
    return [
        (stem(word), position)
        for word, position in ordinal_words(text)
        if word not in STOP_WORDS and word not in TASK_WORDS and word not in _OCCASIONS and len(word) > 2
    ]


def raise_counted_series(project, ranked: dict[str, Ranked], stats: dict, text: str, numbered: frozenset[str]) -> None:
    """The member of a numbered series (see the module) the task counts to, by an ordinal before a
    word the series' name does not say, ranks at SERIES_SHARE of the best score; not when the task
    already numbers a file (`numbered`: its words and numbers name it)."""
    counted = counted_words(text) if not numbered else []
    if not counted:
        return
    best = sorted(ranked.values(), key=lambda r: (-r.score, r.path))[:SERIES_BEST]
    series = project.remember(("numbered series",), lambda: _series(project), role=True)
    top = best[0].score if best else 0.0
    for key in {k for r in best if (k := _series_key(r.path)) in series}:
        members = series[key]
        if sum(1 for r in best if _series_key(r.path) == key) < 2:
            continue
        for word, position in counted:
            if word in key[1].split() or position > len(members):
                continue
            path = members[position - 1]
            if path not in ranked:
                ranked[path] = Ranked(path, 0.0, [])
                stats.update(project.stats_of([path]))
            ranked[path].score = max(ranked[path].score, top * SERIES_SHARE)


def _series(project) -> dict[tuple[str, str, str], list[str]]:
    """(folder, stems of the name's words, extension) -> the series' files in number order, of the
    series of SERIES_MIN files or more numbered without a gap from 0 or 1, no number said by two files."""
    by_number = numbered_files(project)
    groups: dict[tuple[str, str, str], dict[int, str]] = {}
    twice: set[tuple[str, str, str]] = set()  # a number two files say (`Level1`, `Level01`): no count
    for number, paths in by_number.items():
        for path in paths:
            if (key := _series_key(path)) is not None:
                if number in (group := groups.setdefault(key, {})):
                    twice.add(key)
                group[number] = path
    out = {}
    for key, members in groups.items():
        numbers = sorted(members)
        if key in twice:
            continue
        if len(numbers) >= SERIES_MIN and numbers[0] in (0, 1) and numbers[-1] - numbers[0] == len(numbers) - 1:
            out[key] = [members[n] for n in numbers]
    return out


def _series_key(path: str) -> tuple[str, str, str] | None:
    """The series a file named by a name and a number belongs to: its folder, its name's word stems
    and numbers, and its extension (`Assets/SO/LevelConfig/Level2.asset`: the folder, "level",
    ".asset"; `Stage2Room3.asset`: "stag 2 room", another series than `Stage1Room3`'s)."""
    folder, _, name = path.rpartition("/")
    match = _NAME_NUMBER.match(file_title(path))
    if match is None:
        return None
    words = " ".join(stem(w.lower()) for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+", match[1]))
    return (folder, words, name.rsplit(".", 1)[-1]) if words else None
