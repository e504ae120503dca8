"""A long `serve` session's memory (attack 24, session 57): 10,000 varied calls grew the server
89 -> 263 MB. What grew were two caches whose bounds were far too large for their entries: the
token counter's line caches kept every answer's JSON (one line, 13 KB on average, up to six a
`get_context` call; 100,000 entries a cache), and the pinned reader's parsed clauses (2.5 KB each,
50,000 kept)."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.query import pinned
from indexer.query.tokens import KEPT_LINE_CHARS, LONG_KEPT, counter

from .conftest import write_project


def test_a_long_one_line_text_is_kept_only_among_the_last_few() -> None:
    """`count` of a one-line text over KEPT_LINE_CHARS (an answer's JSON) gives the same count,
    leaves the line caches as they were and is kept among the last LONG_KEPT such texts only (the
    same text asked again is not counted again); a shorter line is kept as before."""
    tok = counter("estimate")
    texts = [
        f'{{"query": "x{n}", "files": [' + ", ".join(f'"Assets/F{i}.cs"' for i in range(200)) + "]}"
        for n in range(LONG_KEPT + 5)
    ]
    assert all(len(t) > KEPT_LINE_CHARS and "\n" not in t for t in texts)
    before = tok._line.cache_info().currsize
    assert [tok.count(t) for t in texts] == [tok._fn(t) for t in texts]
    assert tok.count(texts[-1]) == tok._fn(texts[-1]) and tok._long.cache_info().hits == 1
    assert tok._line.cache_info().currsize == before and tok._long.cache_info().currsize == LONG_KEPT
    short = "public void TakeDamage(int amount)"
    assert tok.count(short) == tok._fn(short) and tok._line.cache_info().currsize == before + 1


def test_a_pinned_readers_parsed_clauses_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A session of new words each call: the parsed clauses kept are emptied at PARSED_MOST (not
    KEPT_MOST), and the same files are found after."""
    from indexer.query.search import Searcher
    from indexer.store.schema import IndexPaths

    monkeypatch.setattr(pinned, "PARSED_MOST", 5)
    root = write_project(tmp_path / "P", {"Assets/Health.cs": "public class Health { public void TakeDamage() { } }\n"})
    config = Config(workers=1)
    update(root, config)
    searcher = Searcher(IndexPaths(config.index_path(root)))
    first = searcher.candidates("health damage", 10)
    sizes = []
    for i in range(20):
        searcher.candidates(f"health damage word{i}", 10)
        sizes.append(len(searcher._kept.parsed))
    assert max(sizes) <= 5 and searcher.candidates("health damage", 10) == first
