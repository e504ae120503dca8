"""An index brought up to date by incremental updates ranks as a rebuild of the same files does,
within the tolerance docs/indexing.md states: tantivy keeps replaced documents (deleted) in its
BM25 statistics until a merge, and the search corrects their idf (`query/livestats.py`)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.livestats import LiveStats, index_token
from indexer.query.search import KINDS, Searcher
from indexer.store.schema import FIELD_BOOSTS, IndexPaths

from .conftest import write_project

CONFIG = Config(workers=1)
TOLERANCE = 0.01  # relative: scores, and how far apart two results must be to keep their order
WORDS = ["network", "player", "spawn", "message", "transform", "health", "damage", "weapon", "inventory", "quest"]
QUERIES = ["network message", "player health damage", "spawn weapon", "quest dialog save", "inventory", "rareword"]


def generate(root: Path, rng: random.Random) -> Path:
    files = {}
    for i in range(120):
        words = rng.choices(WORDS, k=rng.randint(5, 40))
        if i % 40 == 0:
            words.append("rareword")
        members = " ".join(f"public int {w.capitalize()}{j};" for j, w in enumerate(words))
        files[f"Assets/Scripts/S{i}.cs"] = f"public class S{i} {{ {members} }}\n"
    return write_project(root, files)


def scores(root: Path, limit: int) -> dict[str, dict[str, float]]:
    searcher = Searcher(IndexPaths(CONFIG.index_path(root)))
    return {q: {c.path: c.score for c in searcher.candidates(q, limit)[1]} for q in QUERIES}


def test_an_updated_index_ranks_as_a_rebuild_within_the_tolerance(tmp_path: Path) -> None:
    rng = random.Random(7)
    root = generate(tmp_path / "a" / "Game", rng)
    update(root, CONFIG, full=True)
    for i in rng.sample(range(120), 12):  # 12 edits of 120 files, one update each
        path = root / f"Assets/Scripts/S{i}.cs"
        added = "{ public int Rareword; " if i % 3 == 0 else "{ public int X; "
        path.write_text(path.read_text().replace("{ ", added, 1))
        update(root, CONFIG, paths=[f"Assets/Scripts/S{i}.cs"])
    fresh = tmp_path / "b" / "Game"
    shutil.copytree(root, fresh, ignore=shutil.ignore_patterns("Library"))
    update(fresh, CONFIG, full=True)
    got, want = scores(root, 20), scores(fresh, 60)  # the rebuild's also just below the top 20
    for q in QUERIES:
        cutoff = sorted(want[q].values(), reverse=True)[: len(got[q])][-1]
        for path, score in got[q].items():
            assert path in want[q] and want[q][path] >= cutoff * (1 - TOLERANCE), (q, path)
            assert abs(score - want[q][path]) <= TOLERANCE * want[q][path], (q, path, score, want[q][path])
        order = sorted(got[q], key=lambda p: -got[q][p])
        for i, p in enumerate(order):
            assert all(want[q][later] <= want[q][p] * (1 + TOLERANCE) for later in order[i + 1 :]), (q, p)


def test_document_frequency_is_estimated_from_the_live_share_until_a_rebuild(tmp_path: Path) -> None:
    """`LiveStats.doc_freq` (what synonym weights are made of): on an index with deleted
    documents, the term dictionary's count scaled by live / all documents; on a fresh index, the
    count itself. Each edit below leaves the old version of its file in the index, deleted."""
    root = generate(tmp_path / "Game", random.Random(7))
    update(root, CONFIG, full=True)
    searcher = Searcher(IndexPaths(CONFIG.index_path(root)))
    fresh = LiveStats(searcher.index.searcher(), searcher.index.schema, KINDS)
    assert fresh.exact and fresh.doc_freq("rareword") == 3 and fresh.doc_freq("rarewords") == 3
    assert fresh.doc_freq("never") == 0 and fresh.doc_freq("two words") == 0
    for i in (0, 40, 80, 1, 2, 3):  # each edit leaves the file's old version in the index, deleted
        path = root / f"Assets/Scripts/S{i}.cs"
        path.write_text(path.read_text().replace("{ ", "{ public int X; ", 1))
        update(root, CONFIG, paths=[f"Assets/Scripts/S{i}.cs"])
    searcher = Searcher(IndexPaths(CONFIG.index_path(root)))
    live = LiveStats(searcher.index.searcher(), searcher.index.schema, KINDS)
    assert not live.exact and live.live == fresh.live < live.total
    for word in ("player", "rareword"):  # in most files, and in three of the six edited
        n = max(live.searcher.doc_freq(field, index_token(word)) for field in FIELD_BOOSTS)  # deleted too
        assert live.doc_freq(word) == round(n * live.live / live.total), word
    assert live.doc_freq("player") < max(live.searcher.doc_freq(f, "player") for f in FIELD_BOOSTS)
