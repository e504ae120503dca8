"""Failures found by the hostile testing of session 40, each held by a test."""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path

from .conftest import write_project
from .test_indexing import HEALTH


def test_watch_waits_out_a_full_disk_instead_of_ending(tmp_path: Path, monkeypatch, capsys) -> None:
    """`watch` ended at its first failed update, exit 2, when the disk holding the index filled
    (the MCP server's watcher retries): every change after it went unindexed until someone
    noticed. Now the failure is said once, the batch kept and tried again until it goes in."""
    from indexer.build import update as update_module
    from indexer.changes import watch as watch_module
    from indexer.cli.main import main

    root = write_project(tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH})
    stop = threading.Event()
    calls: list[int] = []

    def full_then_room(*args, **kwargs):
        calls.append(1)
        if len(calls) <= 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(root / "Library/UnityIndex/x"))
        stats = update_module.update(*args, **kwargs)
        stop.set()
        return stats

    monkeypatch.setattr(watch_module, "install_stop_handlers", lambda event: None)  # no signal handlers in a test
    monkeypatch.setattr(watch_module, "update", full_then_room)
    monkeypatch.setattr(watch_module, "FAILURE_RETRY", 0.01)
    monkeypatch.setattr(watch_module.Collector, "take", lambda self, event: None if stop.is_set() else {"\0walk"})
    code = main(["watch", "--project", str(root)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert err.count("the disk is full") == 1, err
    assert "the watch keeps its changes and tries again every 2 s" in err
    assert "run the command again" not in err
    assert len(calls) == 4 and (root / "Library/UnityIndex/index.json").is_file()


def test_a_huge_paste_of_few_terms_or_none_is_cut_too() -> None:
    """`bounded_query` cut a text only at its 401st distinct term: 9 MB of one line repeated, or of
    punctuation, went whole through every step of the ranking, and one `search` over MCP took
    21 s. Now it reads at most MAX_QUERY_WORDS words and MAX_QUERY_CHARS characters, cut at a
    blank."""
    import time

    from indexer import identifiers
    from indexer.identifiers import bounded_query, compounds, query_terms

    repeated = "player dies " * 1_000_000
    kept = bounded_query(repeated)
    assert repeated.startswith(kept) and len(kept.split()) <= identifiers.MAX_QUERY_WORDS
    assert set(query_terms("player dies")) <= set(query_terms(kept))
    no_words = "!@ " * 1_000_000
    kept = bounded_query(no_words)
    assert no_words.startswith(kept) and len(kept) <= identifiers.MAX_QUERY_CHARS and not kept.endswith("!")
    t0 = time.monotonic()
    compounds(bounded_query(no_words))
    assert time.monotonic() - t0 < 1.0
    question = "when the player dies the GameOverScreen should show the score " * 30
    assert bounded_query(question) == question  # a long question is whole, as before
