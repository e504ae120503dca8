"""A task localizing text changes the project's string tables beside the code that showed it.

"Localize ranks of Temples, Thieves Guild": with Unity's Localization package a text moves out of
the code into a string table collection: the code asks the table for an entry, a key is added to
the collection's shared data (`... Shared Data.asset`, `m_Entries`) and its text to the locale's
table (`..._en.asset`, `m_TableData`). Both assets change with the code, yet they are long files
holding every text of the game: the task's few words sink them under the code that says them. So
a task that is to localize (its verb, first, as a commit message puts it) ranks the string table
its words match best, and that table's shared data, at TABLE_SHARE of the best match's score:
under the code the task's words name best, above the rest.
Not a task that uses localized text ("Use localized region name ..."): that reads the tables.
"""

from __future__ import annotations

import re

from indexer.model import Ranked

TABLE_SHARE = 0.95  # of the best match's score (docs/retrieval.md, session 50, round 2)
# The verb first, after a conventional commit's type and scope ("feat(ui): localise ...").
_LOCALIZING = re.compile(r"\s*(?:\w+(?:\([^)]*\))?!?:\s*)?locali[sz]e[sd]?\b", re.I)
_TABLE_FIELDS = frozenset({"m_LocaleId", "m_SharedData", "m_TableData"})  # a locale's string table
_SHARED_FIELDS = frozenset({"m_TableCollectionName", "m_Entries"})  # the collection's keys


def asks_localizing(text: str) -> bool:
    """Whether the task is to localize something: its first word, the verb, says so."""
    return _LOCALIZING.match(text) is not None


def raise_string_tables(project, ranked: dict[str, Ranked], stats: dict, text: str) -> None:
    """The best-ranked string table among `ranked`, and its collection's shared data, score at
    least TABLE_SHARE of the best match when the task is to localize (`asks_localizing`)."""
    if not asks_localizing(text):
        return
    tables = [r for r in ranked.values() if r.path.endswith(".asset") and _fields(project, r.path) >= _TABLE_FIELDS]
    if not tables:
        return
    table = max(tables, key=lambda r: (r.score, r.path))
    top = max(r.score for r in ranked.values())
    shared = [p for p, _kind in project.records.edges_from(table.path) if _fields(project, p) >= _SHARED_FIELDS]
    for path in [table.path, *shared[:1]]:
        if path not in ranked:
            ranked[path] = Ranked(path, 0.0, [])
            stats.update(project.stats_of([path]))
        if ranked[path].score < top * TABLE_SHARE:
            ranked[path].score = top * TABLE_SHARE
            ranked[path].reasons.append("a string table: the task localizes text")


def _fields(project, path: str) -> frozenset[str]:
    """The serialized fields a data asset declares (its record's symbols)."""
    return frozenset(s.name for s in project.records.symbols(path) if s.kind == "field")
