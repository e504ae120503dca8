"""What a plain class's builders cost a query that first names it, bounded (docs/performance.md,
session 56): only the users whose code calls a constructor of the class's name (a `new`
reference in the refs table, its key the name or the name with type arguments) have their text
read; a `new Frost(1` in a comment builds nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.query import pairing
from indexer.query.texts import Texts
from indexer.query.workspace import open_workspace

from .conftest import meta, mono_script
from .test_trials_session47 import _frost

TEXT = "Make the frost bullets' area of effect bigger"


def _with(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _ranked(root: Path, n: int = 6) -> list[str]:
    update(root, Config(workers=1))
    return [h.path for h in open_workspace(root, [(root, Config())]).search(TEXT, n, named=False)]


def _builders(root: Path) -> list[str]:
    update(root, Config(workers=1))
    return pairing._builders(open_workspace(root, [(root, Config())]).projects[0], "Assets/Scripts/Frost.cs")


def test_a_constructor_call_in_a_comment_builds_nothing(tmp_path: Path) -> None:
    """A user of the frost class holding `new Frost(2, 3)` only in a comment or a string is no
    builder: the gun modifier, which builds it, is the one (all three were when every user's text
    was searched for `new Frost(`)."""
    commented = {
        "Assets/Scripts/FrostNotes.cs": mono_script("FrostNotes", "public Frost Last;\n// var f = new Frost(2, 3);"),
        "Assets/Scripts/FrostNotes.cs.meta": meta("e1000000000000000000000000000009"),
        "Assets/Scripts/FrostHelp.cs": mono_script(
            "FrostHelp", 'public Frost Last;\nstring Usage = "new Frost(2, 3)";'
        ),
        "Assets/Scripts/FrostHelp.cs.meta": meta("e1000000000000000000000000000010"),
    }
    assert _builders(_with(_frost(tmp_path), commented)) == ["Assets/Scripts/GunModifier.cs"]


def test_a_builder_through_an_alias_with_type_arguments_is_read(tmp_path: Path) -> None:
    """A user naming the class through an alias (`using Frost = Frost<int>`: its `new` reference is
    keyed `Frost<int>`) is a builder as before, and ranks."""
    files = {
        "Assets/Scripts/Frost.cs": (
            "public class Frost<T> : AreaOfEffect\n{\n"
            "  public Frost(float radius, int damage) : base(radius, damage) {}\n"
            "  // frost bullets slow what the area of effect holds\n}\n"
        ),
        "Assets/Scripts/GunModifier.cs": (
            "using Frost = Frost<int>;\n"
            + mono_script(
                "GunModifier", "public Gun Gun;\nvoid Start() {\n  Gun.Impacts = new[] { new Frost(1, 5) };\n}"
            )
        ),
    }
    root = _with(_frost(tmp_path), files)
    assert _builders(root) == ["Assets/Scripts/GunModifier.cs"]
    assert "Assets/Scripts/GunModifier.cs" in _ranked(root)


def test_users_calling_no_constructor_of_the_class_are_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Of the frost class's users, only the gun modifier's text is read for its builders: a user
    holding a field of its type, or the name in a comment, is passed over unread."""
    users = {
        f"Assets/Scripts/Users/User{i}.cs": f"public class User{i} {{ public Frost last; // new Frost(1)\n}}\n"
        for i in range(3)
    }
    root = _with(_frost(tmp_path), users)
    update(root, Config(workers=1))
    read: list[str] = []
    get = Texts.get
    builders = pairing._builders

    def counted(project, script: str) -> list[str]:
        monkeypatch.setattr(Texts, "get", lambda self, rel: read.append(rel) or get(self, rel))
        try:
            return builders(project, script)
        finally:
            monkeypatch.setattr(Texts, "get", get)

    monkeypatch.setattr(pairing, "_builders", counted)
    hits = [h.path for h in open_workspace(root, [(root, Config())]).search(TEXT, 6, named=False)]
    assert "Assets/Scripts/GunModifier.cs" in hits
    assert sorted(set(read)) == ["Assets/Scripts/GunModifier.cs"]
