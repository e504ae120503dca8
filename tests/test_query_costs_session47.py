"""What the session-47 rules read a query, bounded (docs/retrieval.md, session 47): a numbered
file's scan of every path is made once a generation (once a number until session 48); a plain
class's builders are read only when few files use it, a component's adders only when few scripts
use it and once a generation."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.model import Ranked
from indexer.query import added_components, named_files, pairing
from indexer.query.added_components import USERS_MOST
from indexer.query.pairing import CONSTRUCTOR_USERS_MOST
from indexer.query.workspace import open_workspace

from .test_trials2_session47 import _blocks
from .test_trials_session47 import _frost, _levels, _ranked


def test_a_numbered_files_scan_is_made_once_a_generation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan for the files named by a number (every path, 5 ms at 58,000 files) is made once for
    the index's generation, for every number (session 48: it was made once a number): asked again,
    with another word or another number, it is not made again; after an update the new generation
    scans afresh and finds the file added."""
    root = _levels(tmp_path)
    update(root, Config(workers=1))
    scans: list[int] = []
    scan = named_files._numbered_files
    monkeypatch.setattr(named_files, "_numbered_files", lambda records: scans.append(1) or scan(records))
    ws = open_workspace(root, [(root, Config())])
    ws.search("Loading level 7 sends me back to the menu", 5, named=False)
    ws.search("level 7 has no par", 5, named=False)
    ws.search("level 3 and level 7", 5, named=False)
    ws.search("the menu has no par", 5, named=False)  # no number: no scan
    assert scans == [1]
    (root / "Assets/Scenes/Level 7.unity").write_text((root / "Assets/Scenes/Main Menu.unity").read_text())
    update(root, Config(workers=1))
    hits = [h.path for h in ws.search("level 7 has no par", 5, named=False)]
    assert scans == [1, 1]
    assert "Assets/Scenes/Level 7.unity" in hits


def _used_by(root: Path, n: int) -> Path:
    """`n` more scripts using the frost class (a field of its type each) beside the modifier."""
    for i in range(n):
        (root / f"Assets/Scripts/Users/Frosted{i}.cs").parent.mkdir(parents=True, exist_ok=True)
        (root / f"Assets/Scripts/Users/Frosted{i}.cs").write_text(f"public class Frosted{i} {{ public Frost last; }}\n")
    return root


def test_a_plain_class_used_by_many_files_has_its_builders_unread(tmp_path: Path) -> None:
    """The frost class's builder ranks with it when CONSTRUCTOR_USERS_MOST files use it (itself
    among them), not when one more does: each query would read every user's text."""
    few = _used_by(_frost(tmp_path / "few"), CONSTRUCTOR_USERS_MOST - 1)
    assert _ranked(few, "Make the frost bullets' area of effect bigger", 6)[3] == "Assets/Scripts/GunModifier.cs"
    many = _used_by(_frost(tmp_path / "many"), CONSTRUCTOR_USERS_MOST)
    assert "Assets/Scripts/GunModifier.cs" not in _ranked(many, "Make the frost bullets' area of effect bigger", 6)


def _scripts_using(root: Path, n: int, type_name: str) -> Path:
    """`n` more scripts using `type_name` (a field of its type each)."""
    (root / "Assets/Scripts/Users").mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (root / f"Assets/Scripts/Users/User{i}.cs").write_text(f"public class User{i} {{ public {type_name} last; }}\n")
    return root


def test_a_components_adders_are_read_once_a_generation_when_few_scripts_use_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The script adding the game-ending component ranks with it when USERS_MOST scripts use the
    component (the adder among them), not when one more does: each user's record is decoded to
    find the adder. What is found is kept for the index's generation: a second query reads no
    record again."""
    text = "Where is it decided that destroying the base ends the game?"
    few = _scripts_using(_blocks(tmp_path / "few"), USERS_MOST - 1, "DeathEndsGame")
    assert "Assets/Scripts/BlockManager.cs" in _ranked(few, text, 3)
    many = _scripts_using(_blocks(tmp_path / "many"), USERS_MOST, "DeathEndsGame")
    assert "Assets/Scripts/BlockManager.cs" not in _ranked(many, text, 6)
    calls: list[str] = []
    find = added_components.adders
    monkeypatch.setattr(pairing, "adders", lambda graph, script: calls.append(script) or find(graph, script))
    ws = open_workspace(few, [(few, Config())])
    ws.search(text, 3, named=False)
    ws.search(text + " Which script?", 3, named=False)
    assert calls == ["Assets/Scripts/DeathEndsGame.cs"]


def test_the_pairings_best_files_are_sorted_again_only_after_a_raise() -> None:
    """`_Pairs.best` sorts the ranking once for every rule asking it, and again once a rule has
    raised a file (a raised file is seen where it now ranks)."""
    ranked = {p: Ranked(p, s, []) for p, s in (("A.cs", 1.0), ("B.cs", 2.0), ("C.cs", 3.0))}
    pairs = pairing._Pairs(None, ranked, {}, {}, lambda _: 1.0, "")
    assert [r.path for r in pairs.best(lambda p: True, 2)] == ["C.cs", "B.cs"]
    ranked["A.cs"].score = 9.0  # not through a raise: the kept order stands
    assert [r.path for r in pairs.best(lambda p: True, 2)] == ["C.cs", "B.cs"]
    pairs.raise_to("B.cs", 10.0, ("script", "C.cs", ()))
    assert [r.path for r in pairs.best(lambda p: p != "C.cs", 3)] == ["B.cs", "A.cs"]
