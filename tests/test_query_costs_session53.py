"""What a warm search reads of the files it meets first, bounded (docs/performance.md, session 53):
the slowest warm searches on UnityCsReference are queries meeting files for the first time, each
file's derivations costing a decode or a read. An interface is told from the type rows and kept;
a file declaring one generic child with members is passed over by its outline; a user's text is
searched for a class's constructors only where the class's name follows `new`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.query import pairing
from indexer.query.walk import edge_said
from indexer.query.workspace import open_workspace
from indexer.store.reader import Records

from .conftest import write_project


def test_an_interface_is_told_from_the_type_rows_and_kept_for_the_index_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`edge_said` decoded the symbols of every file a shown hit was reached through, query after
    query (108 decodes, 10 ms of 60 warm searches on UnityCsReference). The type rows say it for a
    file whose types are all interfaces or none; only a file declaring both has its symbols read,
    for which comes first; and each answer is kept: asked again, nothing is read."""
    files = {
        "Assets/IDamageable.cs": "public interface IDamageable {\n  void TakeDamage(int amount);\n}\n",
        "Assets/Health.cs": "public class Health : IDamageable {\n  public void TakeDamage(int amount) { }\n}\n",
        "Assets/Shield.cs": "public interface IShield { }\npublic class Shield : Health, IShield { }\n",
        "Assets/Armor.cs": "public class Armor : Health, IArmor { }\npublic interface IArmor { }\n",
        "Assets/Guard.cs": "public class Guard : Shield, IShield { }\n",
    }
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    records = open_workspace(root, [(root, Config())]).projects[0].records
    read: list[str] = []
    symbols = Records.symbols
    monkeypatch.setattr(Records, "symbols", lambda self, path: read.append(path) or symbols(self, path))
    asked = [
        ("base", "Assets/Health.cs", "Assets/IDamageable.cs"),
        ("subclass", "Assets/IDamageable.cs", "Assets/Health.cs"),
        ("base", "Assets/Guard.cs", "Assets/Shield.cs"),  # its interface first: an interface
        ("subclass", "Assets/Shield.cs", "Assets/Guard.cs"),
        ("base", "Assets/Guard.cs", "Assets/Armor.cs"),  # its class first: a base class
        ("subclass", "Assets/Health.cs", "Assets/Guard.cs"),
    ]
    with records.reading():
        said = [edge_said(records, *a) for a in asked]
        assert said == ["interface", "implements", "interface", "implements", "base", "subclass"]
        assert sorted(read) == ["Assets/Armor.cs", "Assets/Shield.cs"]
        statements: list[str] = []
        records.conn.set_trace_callback(statements.append)
        try:
            assert [edge_said(records, *a) for a in asked] == said
        finally:
            records.conn.set_trace_callback(None)
    assert len(read) == 2 and not statements


def test_a_file_declaring_one_generic_child_with_members_is_passed_over_by_its_outline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The walk reaches hundreds of files a query; of those declaring one type with a generic base
    (most files on UnityCsReference that have any), each had its symbols decoded to see whether it
    has a member (52 records, a millisecond of a first search). Its outline, an entry per symbol,
    says so for a file with members: only the empty wrappers have their symbols read, and they
    still bind their modules."""
    from indexer.query.bindings import bound_files

    from .test_trial18_session52 import MODULES, _entities

    root = _entities(tmp_path)
    busy = f"{MODULES}/BusyHealthWrapper.cs"
    (root / busy).write_text(
        "namespace Entities\n{\n    public class BusyHealthWrapper : ModuleWrapper<HealthModule>\n    {\n"
        "        public void Heal() { }\n    }\n}\n"
    )
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    read: list[str] = []
    symbols = Records.symbols
    monkeypatch.setattr(Records, "symbols", lambda self, path: read.append(path) or symbols(self, path))
    with project.reading():
        paths = project.records.paths_of_kind("csharp")
        bound = {p: b for p in paths if (b := bound_files(project, p))}
    assert busy in project.records.one_generic_child() and busy not in bound
    assert bound[f"{MODULES}/RangedAttackModuleWrapper.cs"] == (f"{MODULES}/RangedAttackModule.cs",)
    assert sorted(read) == sorted(bound) and len(read) == 5


class _Counted:
    """A compiled pattern whose searches are counted."""

    def __init__(self, pattern: str) -> None:
        self.pattern, self.searched = re.compile(pattern), 0

    def finditer(self, text: str):
        self.searched += 1
        return self.pattern.finditer(text)


@pytest.mark.parametrize(
    ("text", "searched", "builds"),
    [
        ("x = new Frost(1, 5);", 1, True),
        ("x = new\tFrost (0.75f, curve);", 1, True),
        ("x = new\nFrost(2);", 1, True),
        ("var f = Frost.Make(1); // a Frost of 2", 0, False),  # named, never after `new`
        ("x = new Frost[2];", 1, False),  # after `new`: the pattern decides (an array)
        ("class Frost { }", 0, False),
        ("no class at all", 0, False),
    ],
)
def test_a_users_text_is_searched_for_constructors_only_where_the_name_follows_new(
    text: str, searched: int, builds: bool
) -> None:
    """Finding a plain class's builders searched each user's text (up to 40 read) with a pattern
    opening on `new`, tried at every `new` (half the cost of reading the texts, 3.2 ms for 104
    texts on UnityCsReference). The name is found first: a text where it never follows `new` and
    white space is not searched."""
    built = _Counted(r"new\s+Frost\s*\(")
    assert pairing._builds_with_number(text, built, "Frost") is builds
    assert built.searched == searched
