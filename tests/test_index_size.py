"""What the record store spends its bytes on (docs/performance.md, "Index size at 1,000 scripts"):
digests and GUIDs as their bytes, no index page the queries do not use, nothing left behind by a
cold build; every value still read back as it was written."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from indexer.build.update import update
from indexer.store.reader import Records
from indexer.store.rows import guid_text, stored_guid

from .conftest import meta, write_project
from .test_indexing import CONFIG, HEALTH, paths_of

GUID = "0123456789abcdef0123456789ABCDEF"  # Unity writes lower case; the scanner lowers any other


def _built(tmp_path: Path) -> Path:
    return write_project(
        tmp_path / "P",
        {
            "Assets/Scripts/Health.cs": HEALTH,
            "Assets/Scripts/Health.cs.meta": meta(GUID),
            "Assets/Empty.txt": "",
        },
    )


def test_digests_and_guids_are_stored_as_their_bytes_and_read_back_as_hex(tmp_path: Path) -> None:
    root = _built(tmp_path)
    update(root, CONFIG)
    pinned = paths_of(root)
    records = Records(pinned)
    try:
        kinds = records.conn.execute("SELECT path, typeof(digest), length(digest) FROM files ORDER BY path").fetchall()
        assert kinds == [
            ("Assets/Empty.txt", "blob", 16),
            ("Assets/Scripts/Health.cs", "blob", 16),
            ("Assets/Scripts/Health.cs.meta", "blob", 16),
        ]
        assert records.conn.execute("SELECT typeof(guid), length(guid) FROM guids").fetchall() == [("blob", 16)]
        want = hashlib.blake2b(HEALTH.encode(), digest_size=16).hexdigest()
        record = records.record("Assets/Scripts/Health.cs")
        assert record is not None and record.digest == want
        assert records.stats()["Assets/Scripts/Health.cs"].digest == want
        assert records.stats_of(["Assets/Scripts/Health.cs"])["Assets/Scripts/Health.cs"].digest == want
        assert records.guid_of_path("Assets/Scripts/Health.cs") == GUID.lower()
        assert records.path_of_guid(GUID) == "Assets/Scripts/Health.cs"
        assert records.guid_paths() == {GUID.lower(): "Assets/Scripts/Health.cs"}
    finally:
        records.close()
    (root / "Assets/Scripts/Health.cs").touch()  # same content: the stored digest says so
    stats = update(root, CONFIG)
    assert (stats.touched, stats.changed) == (1, 0)


def test_a_guid_that_is_not_unity_hex_is_kept_as_written() -> None:
    for text in ("0123456789abcdef0123456789ABCDEF", "0123456789abcdef 123456789abcdef", "short", ""):
        assert stored_guid(text) == text and guid_text(stored_guid(text)) == text
    packed = stored_guid(GUID.lower())
    assert packed == bytes.fromhex(GUID) and guid_text(packed) == GUID.lower()


def test_a_cold_build_leaves_no_free_page_no_side_file_and_no_unused_index(tmp_path: Path) -> None:
    root = _built(tmp_path)
    update(root, CONFIG, full=True)
    db = paths_of(root).records
    assert sorted(p.name for p in db.parent.iterdir() if p.name.startswith("records.db")) == ["records.db"]
    with sqlite3.connect(db) as c:
        assert c.execute("PRAGMA freelist_count").fetchone() == (0,)
        indexes = {n for (n,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    # header and zdicts are read whole: no index beside them (a page each, 0.2% of a small index)
    assert indexes == {
        "files_by_path", "guids_by_guid", "types_by_name", "edges_by_dst", "folders_by_path", "files_marking_vendors"
    }  # fmt: skip
