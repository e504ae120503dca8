"""Session 57's thirty-ninth trial (docs/retrieval.md, "Session 57, a thirty-ninth trial"): a word
no document holds is searched as the project spells it with one letter doubled or undoubled
(`doubled.project_spellings`): "balloons" for a `Baloon` class."""

from __future__ import annotations

from pathlib import Path

from indexer.query.doubled import doubling_variants, project_spellings

from .conftest import filler_scripts, meta, mono_script, write_project
from .conftest import ranked_paths as _ranked


def test_the_variants_of_a_word() -> None:
    """Each doubled letter written once, each single consonant after the first letter written
    twice; none for a short word or one with a digit."""
    assert "baloons" in doubling_variants("balloons")
    assert "targetting" in doubling_variants("targeting")
    assert doubling_variants("laser") == ("lasser", "laserr")
    assert doubling_variants("hop") == ()
    assert doubling_variants("level2") == ()


def test_only_a_word_the_project_never_says() -> None:
    """A word some document holds keeps its spelling; of one none holds, only held variants."""
    held = {"baloon": 3, "balloon": 0}.get
    assert project_spellings("balloon", lambda t: held(t, 0)) == ("baloon",)
    assert project_spellings("baloon", lambda t: held(t, 0)) == ()


def _flight(tmp_path: Path) -> Path:
    """A flight game: the balloon enemy's class is misspelt `Baloon`; eight other scripts say the
    task's other words (bob, up, down, speeds) and none says balloon."""
    files = {
        "Assets/Scripts/Enemies/Baloon.cs": mono_script(
            "Baloon", "public float minSpeed; public float maxSpeed; float speed;\nvoid Update() { }"
        ),
        "Assets/Scripts/Enemies/Baloon.cs.meta": meta("a5700000000000000000000000000001"),
    }
    said = lambda i: f"public float speed{i}; // moves up and down, bob at weird speeds"  # noqa: E731
    files |= filler_scripts("Assets/Scripts/Movers", "Mover", said, "d")
    return write_project(tmp_path, files)


def test_a_misspelt_class_is_found_by_the_word_it_misspells(tmp_path: Path) -> None:
    """`Baloon.cs` is first for "balloons" (below the eight movers without the rule)."""
    got = _ranked(_flight(tmp_path), "Balloons bob up and down at weird speeds", 3)
    assert got[0] == "Assets/Scripts/Enemies/Baloon.cs"


def test_two_words_joined_are_not_respelt(tmp_path: Path, monkeypatch) -> None:
    """ "players spawn" joined (`playersspawn`) is code's spelling already: never respelt (held-out
    Bitesize's `PlayerSpawn` names met so lost a gold file); the words said alone are."""
    import indexer.query.search as search

    asked: list[str] = []
    real = search.project_spellings
    monkeypatch.setattr(search, "project_spellings", lambda t, df: (asked.append(t), real(t, df))[1])
    _ranked(_flight(tmp_path), "Where do players spawn after a crash?", 3)
    assert "players" in asked and "spawn" in asked
    assert "playersspawn" not in asked
