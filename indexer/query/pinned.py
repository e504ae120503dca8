"""What the project's full-text reader keeps from one query to the next, pinned to one commit.

tantivy's default reader follows the index's commits on its own (a thread watching `meta.json`
reloads it), so nothing one searcher learnt held for the next. `search.Searcher` pins its reader
instead (`pin`): it reads the commit it was opened at until its `reload`, as the records of its
generation are read (a workspace opens a new Searcher for each generation its header names,
`workspace.Snapshot`). Until then what its searchers learn holds, and is kept (`Kept`):
- the path and kind of each document a search hits, by its address: each hit's stored document was
  read for them, 150 a query (0.2 ms of a warm search on UnityCsReference, 0.4 at 20,000 scripts);
- each term's document count in each field (`livestats.LiveStats`: five a term, for each term and
  synonym a query weighs);
- the clause a term is parsed into, with its field boosts.
Each dict is emptied when it holds KEPT_MOST entries (a long-running server's vocabulary grows);
the parsed clauses at PARSED_MOST: each is 2.5 KB (0.6 of Python key, the rest tantivy's), so
50,000 of them were 125 MB, and a session of new words each call reached it (attack 24).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import tantivy

from indexer.model import Candidate

KEPT_MOST = 50_000
PARSED_MOST = 4_000  # parsed clauses kept (Kept.parsed): 10 MB
T = TypeVar("T")
_ABSENT = object()


def pin(index: tantivy.Index) -> tantivy.Index:
    """`index` with a reader that reloads only when asked (`Index.reload`)."""
    index.config_reader(reload_policy="manual")
    return index


class Kept:
    """What one pinned reader's searchers have learnt (see the module's docstring)."""

    __slots__ = ("docs", "freqs", "parsed")

    def __init__(self) -> None:
        self.docs: dict[tuple[int, int], tuple[str, str]] = {}
        self.freqs: dict[tuple, int] = {}
        self.parsed: dict[tuple, tantivy.Query] = {}

    def clear(self) -> None:
        """Forget it all: the reader moves to another commit."""
        self.docs, self.freqs, self.parsed = {}, {}, {}


def kept(store: dict, key: object, make: Callable[[], T], most: float | None = None) -> T:
    """`make()`, kept in `store` under `key` (emptied at `most` entries, KEPT_MOST if None). One look-up
    (`get`), not `in` then a read: the MCP server's calls share the reader and the workspace's
    memo on threads of their own, and another may empty the dict between the two."""
    value = store.get(key, _ABSENT)
    if value is not _ABSENT:
        return value
    if len(store) >= (KEPT_MOST if most is None else most):
        store.clear()
    value = store[key] = make()
    return value


def hits(searcher: tantivy.Searcher, query: tantivy.Query, limit: int, docs: dict) -> list[Candidate]:
    """The query's best `limit` documents as candidates, each document's path and kind read once
    for `docs` (the Kept dict of the pinned reader `searcher` comes from). tantivy sizes its heap
    of hits by `limit` (`--limit 4294967296` aborted the process allocating 64 GB): no more can
    match than the index holds. It breaks score ties by document address, which depends on write
    order: ties are put in path order, so the same index content always gives the same order."""
    found = []
    for score, addr in searcher.search(query, min(limit, max(searcher.num_docs, 1))).hits:
        key = (addr.segment_ord, addr.doc)
        named = docs.get(key)
        if named is None:
            doc = searcher.doc(addr)  # (`get_first`: no list made of each field's values)
            named = kept(docs, key, lambda doc=doc: (doc.get_first("path"), doc.get_first("kind")))
        found.append(Candidate(named[0], named[1], round(score, 4)))
    return sorted(found, key=lambda c: (-c.score, c.path))
