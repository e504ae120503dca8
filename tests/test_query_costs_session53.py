"""What a warm search reads of the files it meets first, bounded (docs/performance.md, session 53):
the slowest warm searches on UnityCsReference are queries meeting files for the first time, each
file's derivations costing a decode or a read. An interface is told from the type rows and kept;
a file declaring one generic child with members is passed over by its outline; a user's text is
searched for a class's constructors only where the class's name follows `new`."""

from __future__ import annotations

import re
import time
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


class _Addr:
    def __init__(self, segment_ord: int, doc: int) -> None:
        self.segment_ord, self.doc = segment_ord, doc


class _Doc:
    def __init__(self, path: str, kind: str) -> None:
        self.fields = {"path": path, "kind": kind}

    def get_first(self, field: str) -> str:
        return self.fields[field]


class _Searcher:
    """A tantivy searcher's surface that `pinned.hits` and `LiveStats` use, its reads counted."""

    num_docs = 1000  # more than the kinds counted: no deleted document

    def __init__(self) -> None:
        self.read: list[int] = []
        self.counted: list[tuple[str, str]] = []
        self.docs = {
            0: _Doc("Assets/B.cs", "csharp"),
            1: _Doc("Assets/A.cs", "csharp"),
            2: _Doc("Assets/C.prefab", "prefab"),
        }

    def search(self, query: object, limit: int):
        return type("Result", (), {"hits": [(2.0, _Addr(0, 0)), (2.0, _Addr(0, 1)), (1.0, _Addr(1, 2))][:limit]})

    def doc(self, addr: _Addr) -> _Doc:
        self.read.append(addr.doc)
        return self.docs[addr.doc]

    def doc_freq(self, field: str, token: str) -> int:
        self.counted.append((field, token))
        return 1 if field == "kind" else 2


def test_a_pinned_readers_hits_are_named_from_their_documents_once() -> None:
    """Each of a search's 150 hits had its stored document read for its path and kind, query after
    query (0.2 ms of a warm search on UnityCsReference, 0.4 at 20,000 scripts): a pinned reader's
    documents do not change, so each is read once and its path and kind kept by its address. The
    hits and their order are the same (ties in path order)."""
    from indexer.query.pinned import Kept, hits

    kept, searcher = Kept(), _Searcher()
    first = hits(searcher, None, 3, kept.docs)
    assert [(c.path, c.kind, c.score) for c in first] == [
        ("Assets/A.cs", "csharp", 2.0),
        ("Assets/B.cs", "csharp", 2.0),
        ("Assets/C.prefab", "prefab", 1.0),
    ]
    assert hits(searcher, None, 3, kept.docs) == first and sorted(searcher.read) == [0, 1, 2]
    kept.clear()
    assert hits(searcher, None, 2, kept.docs) == first[:2] and len(searcher.read) == 5


def test_a_pinned_readers_document_counts_are_read_once() -> None:
    """A query's weights read each term's document count in each of five fields, and every kind's
    count for the index's size: a second query's LiveStats, kept by the same reader, reads none of
    those again; one without them (a reader following commits on its own) reads them all."""
    from indexer.query.livestats import LiveStats
    from indexer.query.search import KINDS
    from indexer.store.schema import FIELD_BOOSTS

    searcher, counts = _Searcher(), {}
    first = LiveStats(searcher, None, KINDS, counts)
    assert first.doc_freq("player") == 2 and len(searcher.counted) == len(KINDS) + len(FIELD_BOOSTS)
    again = LiveStats(searcher, None, KINDS, counts)
    assert again.doc_freq("player") == 2 and again.total == first.total and len(searcher.counted) == len(KINDS) + 5
    LiveStats(searcher, None, KINDS).doc_freq("player")
    assert len(searcher.counted) == 2 * (len(KINDS) + len(FIELD_BOOSTS))


def test_the_projects_reader_sees_the_commit_it_was_opened_at_until_it_reloads(tmp_path: Path) -> None:
    """What a reader keeps is true of one commit: the Searcher's tantivy reader no longer follows
    commits on its own (a thread reloading it when `meta.json` changed), but sees a new file only
    once reloaded, as a workspace does by opening a new one for each generation."""
    from indexer.query.search import Searcher
    from indexer.store.schema import IndexPaths

    root = write_project(tmp_path / "P", {"Assets/Health.cs": "public class Health { public int hitPoints; }\n"})
    config = Config(workers=1)
    update(root, config)
    searcher = Searcher(IndexPaths(config.index_path(root)))
    assert [c.path for c in searcher.candidates("mana", 10)[1]] == []
    (root / "Assets/Mana.cs").write_text("public class Mana { public int manaPoints; }\n")
    update(root, config)
    time.sleep(1.0)  # past tantivy's delay before a watching reader reloads
    assert [c.path for c in searcher.candidates("mana", 10)[1]] == []
    searcher.reload()
    assert [c.path for c in searcher.candidates("mana", 10)[1]] == ["Assets/Mana.cs"]


def test_a_scripts_loaded_folders_are_read_from_its_references_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`loads.prefix_loaded` decoded each best unworn script's whole record for its string
    references (77 records, 15 ms of the warm protocol's searches on UnityCsReference): its
    references' kinds and targets alone are decoded (11 ms), no record is, and the files are found."""
    from indexer.query.loads import prefix_loaded

    from .test_trial16_session51 import _cards

    root = _cards(tmp_path)
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    monkeypatch.setattr(Records, "record", lambda self, path: pytest.fail(f"{path}'s record decoded"))
    script = "Assets/Scripts/Schemes/EnemyScheme.cs"
    with project.reading():
        strings = project.records.ref_targets(script, "string")
        found = prefix_loaded(project.graph, script)
    assert "Schemes/EnemyScheme/" in strings and all(isinstance(s, str) for s in strings)
    assert project.records.ref_targets("Assets/Scripts/Nowhere.cs", "string") == []
    assert found == ["Assets/Resources/Schemes/EnemyScheme/bat.json", "Assets/Resources/Schemes/EnemyScheme/slime.json"]


class _CountedIndex:
    """A tantivy index whose `parse_query` calls are counted; the rest passed through."""

    def __init__(self, index: object) -> None:
        self.index, self.parsed = index, 0

    def parse_query(self, *args: object, **kwargs: object) -> object:
        self.parsed += 1
        return self.index.parse_query(*args, **kwargs)

    def __getattr__(self, name: str) -> object:
        return getattr(self.index, name)


def test_a_pinned_readers_parsed_clauses_are_kept_until_it_reloads(tmp_path: Path) -> None:
    """A query parsed each of its terms and synonyms into a clause (with its field boosts) at every
    asking: asked again of the same reader nothing is parsed, and the same files are found; once
    the reader reloads (another commit) what it kept is forgotten and parsed anew."""
    from indexer.query.search import Searcher
    from indexer.store.schema import IndexPaths

    root = write_project(tmp_path / "P", {"Assets/Health.cs": "public class Health { public void TakeDamage() { } }\n"})
    config = Config(workers=1)
    update(root, config)
    searcher = Searcher(IndexPaths(config.index_path(root)))
    counted = searcher.index = _CountedIndex(searcher.index)
    first = searcher.candidates("the player takes damage", 10)
    parsed = counted.parsed
    assert parsed > 0 and first[1][0].path == "Assets/Health.cs"
    assert searcher.candidates("the player takes damage", 10) == first and counted.parsed == parsed
    searcher.reload()
    assert searcher.candidates("the player takes damage", 10) == first and counted.parsed == 2 * parsed


def test_what_a_pinned_reader_keeps_is_emptied_at_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long-running server's vocabulary grows: each kept dict is emptied when it holds KEPT_MOST
    entries, then keeps the next."""
    from indexer.query import pinned

    monkeypatch.setattr(pinned, "KEPT_MOST", 2)
    store: dict = {}
    assert [pinned.kept(store, k, lambda k=k: k * 10) for k in (1, 2, 1)] == [10, 20, 10] and store == {1: 10, 2: 20}
    assert pinned.kept(store, 3, lambda: 30) == 30 and store == {3: 30}


def test_a_name_of_one_number_is_not_split_into_pairs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """named_files._numbered: a number the task says meets every prefab, scene and data asset
    ending on it (480 a query on the suite's 20,000-script tree, 1.4 ms of such a search); only a
    name of two word-number pairs or more (`Stage01Room02`) is split into its pairs."""
    from indexer.query import named_files

    from .conftest import write_project

    files = {f"Assets/Prefabs/Torch Driver{i % 3}.prefab": "%YAML 1.1\n" for i in range(3)}
    files["Assets/Data/Stage01Room02.asset"] = "%YAML 1.1\n"
    root = write_project(tmp_path / "Game", files)
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    split: list[str] = []
    real = named_files._name_pairs
    monkeypatch.setattr(named_files, "_name_pairs", lambda title: split.append(title) or real(title))
    assert named_files.files_numbered(project, "why does the torch driver2 not light") == []
    assert named_files.files_numbered(project, "room 2 of stage 1 spawns too many") == [
        "Assets/Data/Stage01Room02.asset"
    ]
    assert split == ["Stage01Room02", "Stage01Room02"]  # once a task: no torch driver split


def test_a_prefab_with_logic_is_read_once_for_whether_it_is_an_effect_or_a_sound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """file_roles._looks: a prefab carrying a project script is asked whether it is a visual effect
    and whether a sound (`_is_art`); its record is read and decoded once for both (each read it
    before, one decode of a large prefab each)."""
    from indexer.query import file_roles

    from .conftest import meta, mono_script, write_project
    from .test_trial23_session53 import STOPPER_GUID, _sound_prefab

    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Stopper.cs": mono_script("Stopper", "    void Update() { }"),
            "Assets/Stopper.cs.meta": meta(STOPPER_GUID),
            "Assets/Jump.prefab": _sound_prefab("Jump"),
        },
    )
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    reads: list[str] = []
    real = project.records.outline_record
    monkeypatch.setattr(project.records, "outline_record", lambda path, **kw: reads.append(path) or real(path, **kw))
    assert file_roles._is_art(project, "Assets/Jump.prefab") is False  # one user of the stopper: no helper
    assert reads == ["Assets/Jump.prefab"]
    assert file_roles._looks(project, "Assets/Jump.prefab") == (False, True)
