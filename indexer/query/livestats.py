"""BM25 as a fresh index of the same files would score it, on an index with deleted documents.

tantivy keeps a replaced document in its old segment, marked deleted, until a merge rewrites
that segment, and its BM25 statistics count it: N (documents) and n (documents holding a term)
both include deleted documents. After an edit the old and new versions of a file both count, so
a term of that file looks more common than it is, and an incremental index ranks differently from
a rebuild of identical content (about 8% lower scores for a term found in one file of a thousand).

tantivy scores a term in a field as boost * idf(n, N) * tf-part, so the boost of each field of
each query term is scaled by idf(n_live, N_live) / idf(n, N): `n` from the term dictionary,
`n_live` by counting the live documents that match, `N` from the `kind` field (every document
has one), `N_live` from the searcher. What remains is the average field length, which also counts
deleted documents: scores stay within a small fraction of a rebuild's (docs/indexing.md states
the tolerance measured). With no deleted documents (after a rebuild or a merge) nothing is done.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

import tantivy

from indexer.query.pinned import kept
from indexer.store.schema import FIELD_BOOSTS

# Terms in more documents than this get n_live estimated from the live share instead of counted:
# their idf hardly moves with a few deleted documents, and counting walks all their postings.
COUNT_CAP = 5000


@cache
def _analyzer() -> tantivy.TextAnalyzer:
    """tantivy's built-in `en_stem`, which the text fields use: simple tokens, long ones
    dropped, lower-cased, English stemmer."""
    return (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
        .filter(tantivy.Filter.remove_long(40))
        .filter(tantivy.Filter.lowercase())
        .filter(tantivy.Filter.stemmer("english"))
        .build()
    )


@lru_cache(maxsize=4096)
def index_token(word: str) -> str | None:
    """The one token the index holds for a word (stemmed), or None when it makes none or several.
    Pure, and cached: a search asks it of every term and synonym, and the same words recur."""
    tokens = _analyzer().analyze(word)
    return tokens[0] if len(tokens) == 1 else None


def idf(n: int, total: int) -> float:
    """tantivy's BM25 idf."""
    return math.log(1.0 + (total - n + 0.5) / (n + 0.5))


class LiveStats:
    """Per-term field boosts that make one searcher's BM25 match a fresh index's."""

    def __init__(
        self, searcher: tantivy.Searcher, schema: tantivy.Schema, kinds: frozenset[str], kept: dict | None = None
    ):
        """`kept`: the counts its reader's searchers learnt so far (`pinned.Kept.freqs`), added to:
        a searcher of a reader that follows commits on its own keeps nothing between queries."""
        self.searcher = searcher
        self.schema = schema
        self._kept = {} if kept is None else kept
        self.live = searcher.num_docs
        self.total = sum(self._count("kind", k) for k in kinds)  # deleted documents included

    def _count(self, field: str, token: str) -> int:
        """`searcher.doc_freq(field, token)`, kept."""
        return kept(self._kept, (field, token), lambda: self.searcher.doc_freq(field, token))

    @property
    def exact(self) -> bool:
        """No deleted documents: tantivy's statistics are a fresh index's."""
        return self.total <= self.live

    def doc_freq(self, term: str) -> int:
        """About how many live documents hold `term`, in the field holding it most often:
        estimated from the live share, not counted (a weight needs no exact count)."""
        token = index_token(term)
        if token is None:
            return 0
        n = max(self._count(field, token) for field in FIELD_BOOSTS)
        return n if self.exact else round(n * self.live / self.total)

    def boosts(self, term: str) -> dict[str, float]:
        """FIELD_BOOSTS for `term`, each scaled so its idf counts live documents only."""
        if self.exact:
            return FIELD_BOOSTS
        token = index_token(term)
        if token is None:
            return FIELD_BOOSTS
        out = dict(FIELD_BOOSTS)
        for field, boost in FIELD_BOOSTS.items():
            n = self._count(field, token)
            if n == 0:
                continue
            if n > COUNT_CAP:  # counting costs a walk of the postings: estimate (error << 1%)
                n_live = round(n * self.live / self.total)
            else:
                n_live = kept(self._kept, ("live", field, token), lambda f=field: self._live_count(f, token))
            if n_live:  # else only deleted documents hold it: nothing to score
                out[field] = boost * idf(n_live, self.live) / idf(n, self.total)
        return out

    def _live_count(self, field: str, token: str) -> int:
        """The live documents holding `token` in `field`, counted (a walk of its postings)."""
        return self.searcher.search(tantivy.Query.term_query(self.schema, field, token), 1, count=True).count
