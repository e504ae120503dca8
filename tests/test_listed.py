"""A data asset is found by the names of the files it lists (build/listed.py)."""

from __future__ import annotations

from pathlib import Path

from indexer.build.documents import MAX_LISTED, listed_words
from indexer.build.listed import relist
from indexer.build.update import update
from indexer.identifiers import expand
from indexer.store.header import pin
from indexer.store.writer import Writer

from .conftest import FIXTURE, meta, write_project
from .test_incremental import PARTY, PREFAB
from .test_indexing import CONFIG, paths_of, search_paths


def test_the_fixture_bow_is_found_by_the_arrow_it_shoots(indexed_fixture: Path) -> None:
    bow = "Assets/Data/Weapons/Bow.asset"
    assert "arrow" not in (FIXTURE / bow).read_text().lower()  # only its projectile's GUID names it
    assert bow in search_paths(indexed_fixture, "arrow")


def test_the_bow_s_hit_says_which_listed_file_its_words_named(ws) -> None:
    bow = next(h for h in ws.search("arrow", 10) if h.path == "Assets/Data/Weapons/Bow.asset")
    assert bow.reason == "text match; lists Arrow.prefab; references Assets/Prefabs/Weapons/Arrow.prefab"


def test_a_lists_reason_names_three_files_and_counts_the_rest(tmp_path: Path) -> None:
    from indexer.query.workspace import open_workspace, projects_at

    zones = {f"Assets/Zones/Street{i}.prefab": PREFAB for i in range(5)}
    zones |= {f"{p}.meta": meta(f"{i:032x}", "PrefabImporter") for i, p in enumerate(sorted(zones), 1)}
    listing = "".join(f"  - {{fileID: 100, guid: {i:032x}, type: 3}}\n" for i in range(1, 6))
    root = write_project(
        tmp_path / "Game",
        {**zones, "Assets/Data/Theme.asset": PARTY.split("  members:")[0] + "  zones:\n" + listing,
         "Assets/Data/Theme.asset.meta": meta("b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1", "NativeFormatImporter")},
    )  # fmt: skip
    update(root, CONFIG)
    ws = open_workspace(root, projects_at(root))
    theme = next(h for h in ws.search("street", 10) if h.path == "Assets/Data/Theme.asset")
    assert theme.reason.startswith("text match; lists Street0.prefab, Street1.prefab, Street2.prefab and 2 more; ")


def test_listed_words_name_the_files_but_not_scripts_or_metas() -> None:
    words = listed_words(["Assets/Prefabs/SuburbsHouse01.prefab", "Assets/Data/Stats.cs", "Assets/A.png.meta"])
    assert words == expand("SuburbsHouse01", pairs=True)


def test_listed_words_name_each_file_once_and_at_most_max_listed() -> None:
    targets = [f"Assets/P/Zone{i:03d}.prefab" for i in range(MAX_LISTED + 50)]
    assert listed_words([*targets, "Assets/Q/Zone000.prefab"]) == expand(
        " ".join(f"Zone{i:03d}" for i in range(MAX_LISTED)), pairs=True
    )


def _party(tmp_path: Path) -> Path:
    return write_project(
        tmp_path / "Game",
        {
            "Assets/Prefabs/Hero.prefab": PREFAB,
            "Assets/Prefabs/Hero.prefab.meta": meta("44444444444444444444444444444444", "PrefabImporter"),
            "Assets/Data/Party.asset": PARTY,
            "Assets/Data/Party.asset.meta": meta("b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1", "NativeFormatImporter"),
        },
    )


def test_a_renamed_listed_prefab_renames_the_asset_s_words(tmp_path: Path) -> None:
    root = _party(tmp_path)
    update(root, CONFIG)
    assert "Assets/Data/Party.asset" in search_paths(root, "hero")
    assert search_paths(root, "champion") == []
    (root / "Assets/Prefabs/Hero.prefab").rename(root / "Assets/Prefabs/Champion.prefab")
    (root / "Assets/Prefabs/Hero.prefab.meta").rename(root / "Assets/Prefabs/Champion.prefab.meta")
    stats = update(root, CONFIG)
    assert not stats.full and stats.scanned == 0  # a move: Party.asset itself was not scanned again
    assert search_paths(root, "champion") == ["Assets/Prefabs/Champion.prefab", "Assets/Data/Party.asset"]
    assert search_paths(root, "hero") == ["Assets/Prefabs/Champion.prefab"]  # its GameObject's name


def test_an_asset_changed_since_its_scan_is_left_to_the_next_update(tmp_path: Path) -> None:
    root = _party(tmp_path)
    update(root, CONFIG)
    (root / "Assets/Data/Party.asset").write_text(PARTY.replace("Party", "Crew"))
    writer = Writer(pin(paths_of(root)), rebuild=False)
    try:
        edges = {"Assets/Data/Party.asset": [("Assets/Prefabs/Hero.prefab", "asset")]}
        assert relist(writer, root, edges) == 0  # its digest no longer matches its record
        (root / "Assets/Data/Party.asset").write_text(PARTY)
        assert relist(writer, root, edges) == 1
        (root / "Assets/Data/Party.asset").unlink()
        assert relist(writer, root, edges) == 0  # a file that cannot be read is left as it was
    finally:
        writer.rollback()
        writer.close()


def test_a_yaml_file_is_decoded_only_as_far_as_its_document_reads() -> None:
    """documents.document_text (used by the scanners' processes and by listed._document_again)
    decodes only the bytes `build` can read: the same document as the whole text, whatever the
    characters' widths (here 1 to 4 bytes each)."""
    from indexer.build.documents import MAX_BODY_CHARS, YAML_READ_CHARS, YAML_TEXT_KINDS, build, document_text
    from indexer.model import FileRecord
    from indexer.store.schema import LISTING_KINDS

    assert LISTING_KINDS <= YAML_TEXT_KINDS
    line = "  title: Bäre 𝄞 Ωmega word\n"
    data = ("%YAML 1.1\n--- !u!114 &1\nMonoBehaviour:\n" + line * (5 * YAML_READ_CHARS // len(line))).encode()
    for kind in YAML_TEXT_KINDS:
        rec = FileRecord(path="Assets/Data/Big.asset", kind=kind)
        assert len(document_text(kind, data)) < len(data.decode())
        assert build(rec, document_text(kind, data), "Hero") == build(rec, data.decode(), "Hero")
    code = data[: 4 * MAX_BODY_CHARS + 4]
    assert document_text("csharp", code) == code.decode()  # up to its first MAX_BODY_CHARS, whole
    assert len(document_text("csharp", data)) < len(data.decode())
    rec = FileRecord(path="Assets/Big.cs", kind="csharp")
    assert build(rec, document_text("csharp", data)) == build(rec, data.decode())
    assert document_text("material", data) == ""  # its document holds no text


def test_a_listing_asset_s_document_is_written_once(tmp_path: Path) -> None:
    """The writer holds a data asset's document back until its names are known (written twice, the
    first would stay in the index, deleted, until a merge: 6% more index on the suite's 1k
    project). tantivy's document frequencies count deleted documents too."""
    from indexer.query.search import Searcher

    root = _party(tmp_path)
    update(root, CONFIG, full=True)
    searcher = Searcher(paths_of(root)).index.searcher()
    assert (searcher.num_docs, searcher.doc_freq("kind", "asset"), searcher.doc_freq("kind", "prefab")) == (2, 1, 1)
    assert "Assets/Data/Party.asset" in search_paths(root, "hero")
    # an update writes the edited asset's document once too: its old one deleted, one new one
    (root / "Assets/Data/Party.asset").write_text(PARTY.replace("m_Name: Party", "m_Name: Crew"))
    stats = update(root, CONFIG)
    assert not stats.full and stats.scanned == 1
    searcher = Searcher(paths_of(root)).index.searcher()
    assert (searcher.num_docs, searcher.doc_freq("kind", "asset")) == (2, 2)
    assert "Assets/Data/Party.asset" in search_paths(root, "hero crew")


def test_a_held_back_document_is_written_by_the_commit_if_nothing_else_writes_it(tmp_path: Path) -> None:
    """A writer used without build/listed.py (nothing re-resolves the asset) still commits the
    document it held back, without listed names: a put is never lost."""
    from indexer.build.documents import build
    from indexer.scanners import scan as scan_file
    from indexer.store.header import pin

    root = _party(tmp_path)
    update(root, CONFIG)
    crew = PARTY.replace("m_Name: Party", "m_Name: Crewmates")
    rec = scan_file("Assets/Data/Party.asset", "asset", crew.encode())
    writer = Writer(pin(paths_of(root)), rebuild=False)
    try:
        writer.put(rec, build(rec, crew))
        assert writer.deferred == {"Assets/Data/Party.asset"}
        writer.commit()
    finally:
        writer.close()
    assert search_paths(root, "crewmates") == ["Assets/Data/Party.asset"]
