"""A pasted log or stack trace as a query: only its first MAX_QUERY_TERMS distinct terms are used
(`identifiers.bounded_query`), so its answer costs what a long question costs."""

from __future__ import annotations

import itertools
import string
from pathlib import Path

import pytest

from indexer.config import Config
from indexer.identifiers import MAX_QUERY_TERMS, bounded_query, query_terms
from indexer.query.context import build_context
from indexer.query.tokens import counter
from indexer.query.workspace import open_workspace

from .conftest import run_cli


def _junk(n: int) -> list[str]:
    """`n` distinct lower-case words found in no file of the fixture (each one query term)."""
    letters = itertools.product(string.ascii_lowercase, repeat=3)
    return ["zq" + "".join(t) for t in itertools.islice(letters, n)]


@pytest.fixture(scope="module")
def ws(indexed_fixture: Path):
    return open_workspace(indexed_fixture, [(indexed_fixture, Config())])


def test_a_long_text_is_cut_after_its_first_terms() -> None:
    words = _junk(MAX_QUERY_TERMS + 600)
    text = "\n".join(f"  at {w}" for w in words)  # "at" is a stop word: no term
    kept = bounded_query(text)
    assert text.startswith(kept)
    assert query_terms(kept) == words[:MAX_QUERY_TERMS]
    question = "when the player dies the GameOverScreen should show the score " * 30
    assert bounded_query(question) == question  # repeated words are one term each


def test_words_past_the_cut_change_no_answer(ws, indexed_fixture: Path) -> None:
    """A name after the first MAX_QUERY_TERMS terms of a pasted text finds nothing; the same name
    at its head does (search, context, and the CLI)."""
    junk = " ".join(_junk(MAX_QUERY_TERMS))
    assert ws.search("SaveSystem", 5)[0].path == "Assets/Scripts/Save/SaveSystem.cs"
    assert ws.search(junk + " SaveSystem", 5) == []
    assert ws.search("SaveSystem " + junk, 5)[0].path == "Assets/Scripts/Save/SaveSystem.cs"

    pack = build_context(ws, junk + " SaveSystem", 4000, counter())
    assert pack.tier2.files == [] and pack.query == junk + " SaveSystem"
    pack = build_context(ws, "SaveSystem " + junk, 4000, counter())
    assert "Assets/Scripts/Save/SaveSystem.cs" in [f.path for f in pack.tier2.files]

    out = run_cli("query", junk + " SaveSystem", "--project", str(indexed_fixture))
    assert out.returncode == 0 and "SaveSystem.cs" not in out.stdout, out.stdout + out.stderr
