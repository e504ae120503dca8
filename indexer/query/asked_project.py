"""The project of a workspace a task names ("in the 2D space shooter", "the social hub sample").

A repository of sample projects side by side is one workspace; each project is ranked on its own
index and the hits are merged by score. A task about one of them shares most of its words with
the others (every sample has a player, a spawner, a network manager), so the best text match is
often in the wrong project. When the task names one project (`asked_project`: by its folder's
name or its product name, `ProjectSettings.asset`), the other projects' files rank at
OTHER_PROJECT_PRIOR of their score.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from indexer.identifiers import said_words, stem, word_stems

OTHER_PROJECT_PRIOR = 0.5
NAMED_SHARE, NAMED_WORDS = 0.5, 2  # of a name's words the task must hold: a share, and how many
# Words of a project's name that do not tell it from the others.
_GENERIC = frozenset(
    stem(w)
    for w in "sample samples demo demos project projects example examples unity game test tests basic".split()  # noqa: SIM905
)
_SETTINGS = "ProjectSettings/ProjectSettings.asset"


def name_words(name: str) -> frozenset[str]:
    """The stemmed words of a project's name that may tell it from others (three letters or more)."""
    words = word_stems(name)
    return frozenset(w for w in words if len(w) >= 3 and w not in _GENERIC)


def project_names(project) -> tuple[frozenset[str], ...]:
    """The word sets naming a project (a workspace.ProjectIndex): its folder's, its product's."""

    def make() -> tuple[frozenset[str], ...]:
        names = [name_words(project.root.name)]
        rec = project.records.record(_SETTINGS)
        for sym in rec.symbols if rec else ():
            if sym.kind == "setting" and sym.name == "productName" and sym.detail:
                names.append(name_words(sym.detail))
        return tuple(n for n in names if n)

    return project.remember(("project_names",), make)


def asked_project(projects: Sequence, text: str) -> int | None:
    """The index in `projects` of the one the task names, or None (one project, or none named, or
    two named as well). A project is named by two words or more of one of its names, half of that
    name's words at least, counting only the words no other project's name holds ("input" names
    neither `InputDeviceTester` nor `InputSystem` beside it). Only when none is named so, a project
    of one such word is named when the task says it as a name (`said_as_name`: "in the
    platformer, ...", "the touch samples"), not by every task saying "touch"."""
    if len(projects) < 2:
        return None
    names = [project_names(p) for p in projects]
    distinct = [  # each project's names, less the words another project's names hold
        [name - frozenset().union(*(n for j, ns in enumerate(names) if j != i for n in ns)) for name in own]
        for i, own in enumerate(names)
    ]
    said = {stem(w) for w in said_words(text)}
    scores = []  # (share of a name's distinctive words said, how many), the best of its names
    for own in distinct:
        scores.append(max(((len(said & d) / len(d), len(said & d)) for d in own if d), default=(0.0, 0)))
    best = max(scores)
    if best[0] >= NAMED_SHARE and best[1] >= NAMED_WORDS:
        return scores.index(best) if scores.count(best) == 1 else None
    one_word = [i for i, own in enumerate(distinct) if any(len(d) == 1 and said_as_name(text, min(d)) for d in own)]
    return one_word[0] if len(one_word) == 1 else None


# What a sample is called by: "the platformer sample", "the tutorial project", "the stress test scene"
_KIND_OF_PROJECT = frozenset(
    "sample samples project projects demo demos example examples scene scenes game level".split()  # noqa: SIM905
)
_TOKEN = re.compile(r"[A-Za-z0-9]+|[^\sA-Za-z0-9]")


def said_as_name(text: str, word: str) -> bool:
    """Whether the task says this (stemmed) word as the name of a project: before a word for a
    project ("the tutorial project", "the stress test scene") or as a place of its own ("in the
    platformer, ...", "in the platformer's menu"), not as one word among others ("touch input")
    nor as a thing in a sentence ("skip the tutorial.")."""
    tokens = [t.lower() for t in _TOKEN.findall(text)]
    for i, tok in enumerate(tokens):
        if stem(tok) != word:
            continue
        j = i + 1  # past the generic words of a name ("the stress test scene" names `StressTest`)
        while j < len(tokens) and tokens[j] not in _KIND_OF_PROJECT and stem(tokens[j]) in _GENERIC:
            j += 1
        after = tokens[j] if j < len(tokens) else ""
        if after in _KIND_OF_PROJECT or (tokens[i - 2 : i] == ["in", "the"] and not after[:1].isalnum()):
            return True
    return False
