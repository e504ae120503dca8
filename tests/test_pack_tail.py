"""A pack's last hits, whose header line cannot fit in what is left of tier 2, are passed over
before their text is read and their view made (`TokenCounter.start_over`): the pack is what it
was when each was tried and refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from indexer.config import Config
from indexer.query.context import build_context
from indexer.query.tokens import TokenCounter, counter, estimate, printed
from indexer.query.workspace import open_workspace

# A path may hold any character but a line break (an odd name is stored escaped, but not every
# character a counter treats specially is escaped); a kind is a word.
_PATHS = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\n"), max_size=60)
_KINDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=16)
_RESTS = st.text(alphabet=st.characters(codec="utf-8"), max_size=60)


@given(_PATHS, _KINDS, _RESTS)
def test_a_header_costs_at_least_what_its_start_does(path: str, kind: str, rest: str) -> None:
    """Every rendering's first line is the header `### path  (kind; reason)` (up to a line break
    the reason may hold): never counted lower than its start, so a start over the room says the
    whole rendering is."""
    start = f"### {path}  ({kind}"
    for c in (counter("estimate"), printed(counter("estimate"))):
        first = f"{start}; {rest}".split("\n")
        for room in range(max(0, c.count(start) - 2), c.count(start) + 2):
            if c.start_over(start, room):
                assert c.bound_lines(first) > room and c.bound_lines(first[:1]) > room


def test_a_counter_that_is_not_line_additive_never_says_so() -> None:
    plain = TokenCounter("plain", estimate)
    assert not plain.start_over("### " + "x" * 400 + "  (csharp", 1)
    assert counter("estimate").start_over("### " + "x" * 400 + "  (csharp", 1)


@pytest.fixture(scope="module")
def ws(indexed_fixture: Path):
    return open_workspace(indexed_fixture, [(indexed_fixture, Config())])


def test_packs_are_what_trying_every_hit_made(ws, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same packs with the shortcut and without it (every hit tried), for budgets whose tier 2
    ends part-way down the hits; the shortcut is taken."""
    tasks = ["player takes damage and dies", "add a shield that absorbs damage", "enemy spawner waves", "save game"]
    budgets = [300, 450, 600, 800, 1200, 2000, 3000]
    counters = [counter("estimate"), printed(counter("estimate")), TokenCounter("plain", estimate)]
    real, taken = TokenCounter.start_over, []

    def noting(self: TokenCounter, start: str, room: int) -> bool:
        over = real(self, start, room)
        taken.append(over)
        return over

    def packs() -> list:
        fresh = open_workspace(ws.base, [(p.root, p.config) for p in ws.projects])  # nothing kept
        return [build_context(fresh, t, b, c) for t in tasks for b in budgets for c in counters]

    monkeypatch.setattr(TokenCounter, "start_over", noting)
    shortened = packs()
    monkeypatch.setattr(TokenCounter, "start_over", lambda self, start, room: False)
    assert packs() == shortened
    assert any(taken)
