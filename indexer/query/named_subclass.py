"""The subclass a task names of a class one of the best scripts uses.

A script that handles many things through their base class (`foreach (Data data in datas)
data.ResetValues();` on a new game) ranks first for what it does, but the fault or the number lives
in the one subclass the task names: "a new game leaves me with only 100 coins" is `Money`'s
`ResetValues` setting `money = 100`, one of the twelve `Data` subclasses the main menu resets.
The subclass shares no word with the task but the thing it is named for (or a synonym of it:
"coins" is money), so it ranks nowhere by its text; one step from the hit by the base it extends.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.identifiers import name_stems, said_words, stem
from indexer.project import file_title, is_script
from indexer.query.synonyms import synonym_words

if TYPE_CHECKING:
    from indexer.query.pairing import _Pairs

SUBCLASS_SCRIPTS = 3  # the best scripts whose used classes' subclasses are looked at
SUBCLASSES_MOST = 16  # ... when a used class has 2 to these many subclasses (more: a framework's root)
NAMING_MOST = 8  # ... named by a word at most these many scripts' names say (not the game's own name)
UNFOUND_PAST = 20  # ... and only a subclass the search left below this many files (found, it is ranked)
SUBCLASS_SHARE = 0.8  # the named subclass ranks at least this share of the script's score, times its prior
_OVERRIDE = re.compile(r"\boverride\s+[\w<>\[\],. ]+?\s(\w+)\s*\(")  # `public override void ResetValues(`


def task_stems(text: str) -> frozenset[str]:
    """The stems of the words a task says and of the synonyms they were searched with."""
    said = said_words(text)
    return frozenset(stem(w) for w in (*said, *synonym_words(said)))


def raise_named_subclasses(pairs: _Pairs, text: str) -> None:
    """For each of the SUBCLASS_SCRIPTS best scripts, a project class it uses (`type` edge) with 2
    to SUBCLASSES_MOST subclasses, exactly one of which is named by a word of the task (or a
    synonym) that the base's name does not say and few scripts' names say (`_naming`): that
    subclass ranks at least SUBCLASS_SHARE of the script's score times its prior, when the script
    calls a method that subclass overrides. Two or more named say the task is about the family,
    not one of it; a subclass among the UNFOUND_PAST best files (the script itself too) was found
    by the search and is left where it is."""
    graph = pairs.project.graph
    stems: frozenset[str] | None = None
    found = {r.path for r in pairs.best(lambda _p: True, UNFOUND_PAST)}
    for script in pairs.best(is_script, SUBCLASS_SCRIPTS):
        for used, edge in graph.uses(script.path):
            if edge != "type" or not is_script(used) or not used.startswith(pairs.prefix):
                continue
            subs = [p for p, e in graph.used_by(used) if e == "subclass"]
            if not 2 <= len(subs) <= SUBCLASSES_MOST:
                continue
            stems = task_stems(text) if stems is None else stems  # worked out once a base qualifies
            base = set(name_stems(file_title(used)))
            named = [s for s in subs if _naming(pairs.project, stems, set(name_stems(file_title(s))) - base)]
            if len(named) == 1 and named[0] not in found and _calls_override(pairs.project, script.path, named[0]):
                pairs.raise_to(named[0], script.score * SUBCLASS_SHARE * pairs.prior(named[0]), ("subclass", used, ()))


def _naming(project, stems: frozenset[str], words: set[str]) -> bool:
    """Whether a word of the subclass's name (`words`) is one of the task's that at most NAMING_MOST
    scripts' names say: "Daggerfall" names hundreds of a game's classes and picks none of them."""
    counts = project.remember(("script_name_stems",), lambda: _script_name_stems(project), role=True)
    return any(counts.get(w, 0) <= NAMING_MOST for w in words & stems)


def _script_name_stems(project) -> dict[str, int]:
    """How many of the project's scripts' names say each stem (read once a generation)."""
    counts: dict[str, int] = {}
    for path in project.records.paths_of_kind("csharp"):
        for w in set(name_stems(file_title(path))):
            counts[w] = counts.get(w, 0) + 1
    return counts


def _calls_override(project, script: str, subclass: str) -> bool:
    """Whether the script calls (`.Name(`) a method the subclass overrides: the script runs the
    subclass's own code through its base, where the fault or the number is."""
    called = project.texts.get(script).text
    return any(f".{m}(" in called for m in set(_OVERRIDE.findall(project.texts.get(subclass).text)))
