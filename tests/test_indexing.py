"""The index on disk: build, incremental updates equal to a rebuild, versioning, locking."""

import json
import os
from pathlib import Path

import msgspec
import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.model import SCHEMA_VERSION
from indexer.query.search import Searcher
from indexer.store.consistency import search_doc_paths
from indexer.store.header import IndexMissing
from indexer.store.lock import IndexBusy, writer_lock
from indexer.store.reader import Records
from indexer.store.schema import REF_TARGET, IndexPaths

from .conftest import meta, write_project

HEALTH = """using UnityEngine;
namespace Game.Combat
{
    public class Health : MonoBehaviour
    {
        public int max = 10;
        public void TakeDamage(int amount) { max -= amount; if (max <= 0) Die(); }
        void Die() { Destroy(gameObject); }
    }
}
"""
PLAYER = """namespace Game.Player
{
    public class PlayerHealth : Game.Combat.Health
    {
        public void Heal(int amount) { max += amount; }
    }
}
"""
CONFIG = Config(workers=1)


# Two scripts (one deriving from the other), their .meta files, a folder .meta and a binary asset.
FILES: dict[str, str | bytes] = {
    "Assets/Scripts/Health.cs": HEALTH,
    "Assets/Scripts/Health.cs.meta": meta("11111111111111111111111111111111"),
    "Assets/Scripts/PlayerHealth.cs": PLAYER,
    "Assets/Scripts/PlayerHealth.cs.meta": meta("22222222222222222222222222222222"),
    "Assets/Scripts.meta": meta("33333333333333333333333333333333", "DefaultImporter"),
    "Assets/Art/hero.png": b"\x89PNG\r\n\x1a\n\x00\x00",
    "ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2021.3.15f1\n",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_project(tmp_path / "Game", FILES)


def paths_of(root: Path) -> IndexPaths:
    return IndexPaths(CONFIG.index_path(root))


def records(root: Path) -> Records:
    return Records(paths_of(root))


def comparable(root: Path) -> dict:
    """Everything the record store holds, for comparing an update with a rebuild."""
    r = records(root)
    return {
        "records": [msgspec.to_builtins(rec) for rec in r.records()],
        "guids": r.guid_paths(),
        "categories": r.categories(),
        "script_types": r.script_types(),
        "edges": sorted(
            r.conn.execute(
                "SELECT s.path, d.path, e.kind FROM edges e JOIN files s ON s.id = e.src JOIN files d ON d.id = e.dst"
            )
        ),
        "refs": sorted(
            r.conn.execute(
                f"SELECT f.path, line, r.kind, {REF_TARGET}, context, detail"
                " FROM refs r JOIN files f ON f.id = r.file_id"
            )
        ),
    }


def search_paths(root: Path, text: str) -> list[str]:
    return [h.path for h in Searcher(paths_of(root)).search(text, limit=20)]


def test_first_index_records_every_file(project: Path) -> None:
    stats = update(project, CONFIG)
    assert (stats.full, stats.files, stats.scanned, stats.added, stats.skipped) == (True, 7, 7, 7, 0)
    r = records(project)
    assert r.generation() == 1
    assert json.loads(paths_of(project).header.read_text())["schema_version"] == SCHEMA_VERSION
    assert r.guid_paths() == {
        "11111111111111111111111111111111": "Assets/Scripts/Health.cs",
        "22222222222222222222222222222222": "Assets/Scripts/PlayerHealth.cs",
        "33333333333333333333333333333333": "Assets/Scripts",
    }
    assert r.categories() == {
        "Assets/Scripts/Health.cs::Game.Combat.Health": "monobehaviour",
        "Assets/Scripts/PlayerHealth.cs::Game.Player.PlayerHealth": "monobehaviour",
    }
    assert r.script_types() == {
        "Assets/Scripts/Health.cs": "Game.Combat.Health",
        "Assets/Scripts/PlayerHealth.cs": "Game.Player.PlayerHealth",
    }
    assert r.record("Assets/Art/hero.png").kind == "texture"
    assert [(x.target, x.line, x.context) for x in r.record("Assets/Scripts/PlayerHealth.cs").refs] == [
        ("Game.Combat.Health", 3, "base")
    ]


def test_noop_update_touches_nothing(project: Path) -> None:
    update(project, CONFIG)
    stats = update(project, CONFIG)
    assert (stats.full, stats.scanned, stats.touched, stats.deleted, stats.generation) == (False, 0, 0, 0, 1)


def test_touched_but_identical_file_is_not_rescanned(project: Path) -> None:
    update(project, CONFIG)
    f = project / "Assets/Scripts/Health.cs"
    os.utime(f, ns=(f.stat().st_atime_ns, f.stat().st_mtime_ns + 5_000_000_000))
    stats = update(project, CONFIG)
    assert (stats.scanned, stats.touched) == (0, 1)
    assert update(project, CONFIG).touched == 0  # the new stat was recorded


def test_incremental_updates_equal_a_rebuild(project: Path, tmp_path: Path) -> None:
    update(project, CONFIG)
    # edit, add, delete, rename a class
    (project / "Assets/Scripts/Health.cs").write_text(HEALTH.replace("TakeDamage", "ApplyDamage"))
    (project / "Assets/Scripts/Shield.cs").write_text(
        "public class Shield : UnityEngine.MonoBehaviour { public int absorb; }\n"
    )
    (project / "Assets/Scripts/PlayerHealth.cs").unlink()
    (project / "Assets/Scripts/PlayerHealth.cs.meta").unlink()
    stats = update(project, CONFIG)
    assert (stats.added, stats.changed, stats.deleted) == (1, 1, 2)
    incremental = comparable(project)
    incremental_hits = {q: search_paths(project, q) for q in ("apply damage", "takedamage", "shield absorb", "heal")}
    update(project, CONFIG, full=True)
    assert comparable(project) == incremental
    assert {q: search_paths(project, q) for q in incremental_hits} == incremental_hits
    assert incremental_hits["takedamage"] == []
    assert incremental_hits["heal"] == []
    assert incremental_hits["shield absorb"] == ["Assets/Scripts/Shield.cs"]


def test_index_of_another_schema_version_is_rebuilt(project: Path) -> None:
    update(project, CONFIG)
    header = paths_of(project).header
    header.write_text(json.dumps({"schema_version": SCHEMA_VERSION + 1, "generation": 7}))
    with pytest.raises(IndexMissing):
        records(project)
    stats = update(project, CONFIG)
    assert stats.full and stats.scanned == 7
    assert json.loads(header.read_text())["schema_version"] == SCHEMA_VERSION


def test_damaged_record_store_is_rebuilt(project: Path) -> None:
    update(project, CONFIG)
    paths_of(project).records.write_bytes(b"SQLite format 3\x00" + b"garbage" * 100)
    stats = update(project, CONFIG)
    assert stats.full and stats.files == 7
    assert search_paths(project, "TakeDamage") == ["Assets/Scripts/Health.cs"]


def test_second_writer_fails_with_a_clear_error(project: Path) -> None:
    with writer_lock(paths_of(project)), pytest.raises(IndexBusy, match=r"unity-index process \d+ is updating"):
        update(project, CONFIG)


def test_files_over_the_size_cap_are_recorded_not_parsed(project: Path) -> None:
    (project / "Assets/Scripts/Huge.cs").write_text("// x\n" * 4000)
    update(project, Config(workers=1, max_file_mb=0.01))
    rec = records(project).record("Assets/Scripts/Huge.cs")
    assert (rec.status, rec.note, rec.symbols) == (
        "skipped",
        "too large: 0.0 MB, over the 0.01 MB cap (max_file_mb)",
        (),
    )


def test_parallel_and_serial_scans_agree(project: Path) -> None:
    for i in range(250):  # above the threshold for worker processes
        (project / f"Assets/Gen/C{i}.cs").parent.mkdir(exist_ok=True)
        (project / f"Assets/Gen/C{i}.cs").write_text(f"public class C{i} : Game.Combat.Health {{ void M{i}() {{}} }}\n")
    update(project, Config(workers=2))
    parallel = comparable(project)
    update(project, Config(workers=1), full=True)
    assert comparable(project) == parallel
    assert parallel["categories"]["Assets/Gen/C7.cs::C7"] == "monobehaviour"


def test_changing_a_base_class_updates_roles_in_other_files(project: Path) -> None:
    update(project, CONFIG)
    health = project / "Assets/Scripts/Health.cs"
    health.write_text(HEALTH.replace(": MonoBehaviour", ": ScriptableObject"))
    update(project, CONFIG)
    assert (
        records(project).categories()["Assets/Scripts/PlayerHealth.cs::Game.Player.PlayerHealth"] == "scriptableobject"
    )
    # an edit that keeps every declaration keeps the roles
    health.write_text(
        HEALTH.replace(": MonoBehaviour", ": ScriptableObject").replace("max -= amount", "max -= 2 * amount")
    )
    update(project, CONFIG)
    assert records(project).categories() == {
        "Assets/Scripts/Health.cs::Game.Combat.Health": "scriptableobject",
        "Assets/Scripts/PlayerHealth.cs::Game.Player.PlayerHealth": "scriptableobject",
    }


def test_one_file_updates_do_not_pile_up_segments(project: Path) -> None:
    """Each update rewrites the documents changed since the rebuild into its own segment, so the
    previous small segment empties and is dropped: no segment count growth, no merge of the
    whole index every seventh commit."""
    import tantivy

    scripts = [project / f"Assets/Scripts/Enemy{i}.cs" for i in range(12)]
    for i, script in enumerate(scripts):
        script.write_text(f"public class Enemy{i} {{ public int hp; }}\n")
    update(project, CONFIG)

    def segments() -> int:
        return tantivy.Index.open(str(paths_of(project).tantivy)).searcher().num_segments

    counts = []
    for i, script in enumerate(scripts):  # a different file each time
        script.write_text(f"public class Enemy{i} {{ public int hp; public int armor{i}; }}\n")
        update(project, CONFIG, paths=[script.relative_to(project).as_posix()])
        counts.append(segments())
    assert max(counts) <= counts[0] + 1, counts
    r = records(project)
    assert sorted(p for (p,) in r.conn.execute("SELECT path FROM delta_docs")) == sorted(
        s.relative_to(project).as_posix() for s in scripts
    )
    docs = search_doc_paths(paths_of(project))
    assert len(docs) == len(set(docs)) and "Assets/Scripts/Enemy3.cs" in docs  # one document a file
    assert search_paths(project, "Enemy7 armor7")[:1] == ["Assets/Scripts/Enemy7.cs"]


def test_the_documents_carried_between_commits_are_capped_at_64(project: Path) -> None:
    """docs/architecture.md: at most 64 changed documents are written again at each commit; past
    that the set is dropped and tantivy merges as usual, so a large update does not make every
    later one-file update rewrite it."""
    from indexer.store.writer import DELTA_CAP

    assert DELTA_CAP == 64
    update(project, CONFIG)
    scripts = [f"Assets/Scripts/Gen/Unit{i}.cs" for i in range(DELTA_CAP + 1)]
    (project / "Assets/Scripts/Gen").mkdir()

    def carried() -> list[str]:
        return sorted(p for (p,) in records(project).conn.execute("SELECT path FROM delta_docs"))

    for script in scripts[:DELTA_CAP]:
        (project / script).write_text(f"public class Unit{script[-6:-3]} {{ }}\n")
    update(project, CONFIG)
    assert carried() == sorted(scripts[:DELTA_CAP])
    (project / scripts[-1]).write_text("public class UnitLast { }\n")
    update(project, CONFIG, paths=[scripts[-1]])
    assert carried() == []  # 65: dropped
    (project / scripts[0]).write_text("public class UnitFirst { }\n")
    update(project, CONFIG, paths=[scripts[0]])
    assert carried() == [scripts[0]]  # and collected again from there
    assert search_paths(project, "UnitLast")[:1] == [scripts[-1]]


def test_a_file_whose_stored_record_is_garbled_is_replaced_with_all_its_references(project: Path) -> None:
    """A file's references are deleted by the names its stored record lists; when that record no
    longer decodes, they are found by file instead, and none of the old ones survive the put."""
    import sqlite3

    from indexer import scanners
    from indexer.build import documents
    from indexer.store.header import header_generation, pin
    from indexer.store.writer import Writer

    update(project, CONFIG)
    paths = paths_of(project)
    pinned = pin(paths)
    path = "Assets/Scripts/Health.cs"
    with sqlite3.connect(pinned.records) as c:
        c.execute("UPDATE blobs SET record = x'00ff' WHERE file_id = (SELECT id FROM files WHERE path = ?)", (path,))
    text = HEALTH.replace("MonoBehaviour", "ScriptableObject")
    rec = msgspec.structs.replace(scanners.scan(path, "csharp", text.encode()), size=len(text), mtime_ns=1)
    writer = Writer(pinned, rebuild=False, base_generation=header_generation(paths))
    try:
        writer.put(rec, documents.build(rec, text))
        writer.commit()
    finally:
        writer.close()
    stored = sorted(
        records(project).conn.execute(
            f"SELECT r.line, r.kind, {REF_TARGET} FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ?",
            (path,),
        )
    )
    assert stored == sorted((r.line, r.kind, r.target) for r in rec.refs)
    assert ("type", "ScriptableObject") in {(k, t) for _, k, t in stored}
    assert "MonoBehaviour" not in {t for _, _, t in stored}


def test_the_kinds_by_extension_are_part_of_the_format() -> None:
    """A file's kind is stored and an unchanged file is never read again: an index written before
    `.gif` was a texture would hold it as `other` until a rebuild. So changing `KINDS` bumps
    SCHEMA_VERSION (an index of another version is rebuilt); then pin the new table here."""
    import hashlib

    from indexer.kinds import KINDS

    table = hashlib.sha256(json.dumps(sorted(KINDS.items())).encode()).hexdigest()[:16]
    assert (SCHEMA_VERSION, table) == (61, "1d191d157c513b0f")
