"""File texts kept between queries: used again only while the file is unchanged on disk."""

import os
import time
from pathlib import Path

from indexer.query.texts import EMPTY, RECENT_NS, Texts


def test_a_kept_text_is_read_again_once_the_file_changes(tmp_path: Path) -> None:
    f = tmp_path / "Assets" / "A.cs"
    f.parent.mkdir()
    f.write_text("class Alpha {}")
    time.sleep(RECENT_NS / 1e9 + 0.1)  # older than a clock tick: kept
    texts = Texts(tmp_path)
    first = texts.get("Assets/A.cs")
    assert first.text == "class Alpha {}" and texts.get("Assets/A.cs") is first
    with open(f, "r+") as out:  # in place, same size: the same inode and length
        out.write("class Omega {}")
    assert texts.get("Assets/A.cs").text == "class Omega {}"
    assert texts.get("Assets/A.cs").low == "class omega {}"


def test_a_recently_changed_file_is_not_kept(tmp_path: Path) -> None:
    f = tmp_path / "A.cs"
    f.write_text("class Alpha {}")
    texts = Texts(tmp_path)
    assert texts.get("A.cs").text == "class Alpha {}"
    f.write_text("class Omega {}")  # within the same clock tick, maybe: its stat may not change
    assert texts.get("A.cs").text == "class Omega {}"


def test_a_file_swapped_for_a_link_reads_as_nothing(tmp_path: Path) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("password")
    project = tmp_path / "p"
    project.mkdir()
    (project / "A.cs").write_text("class A {}")
    texts = Texts(project)
    assert texts.get("A.cs").text == "class A {}"
    (project / "A.cs").unlink()
    os.symlink(outside, project / "A.cs")
    assert texts.get("A.cs") is EMPTY
    assert texts.get("Missing.cs") is EMPTY


def test_texts_are_kept_least_recently_used_first_out_and_never_when_recent_or_large(
    tmp_path: Path, monkeypatch
) -> None:
    """texts.py: the least recently used text goes first past KEPT_CHARS; a text over a quarter
    of it is never kept; nor a file whose inode changed within RECENT_NS (a clock tick)."""
    import indexer.query.texts as module

    names = ["A", "B", "C", "D", "E", "F"]
    for name in names:
        (tmp_path / f"{name}.cs").write_text("x" * 30)  # 60 characters with its lower-case form
    (tmp_path / "Big.cs").write_text("x" * 40)  # 80: over a quarter of 300
    monkeypatch.setattr(module, "RECENT_NS", 0)
    monkeypatch.setattr(module, "KEPT_CHARS", 300)
    texts = Texts(tmp_path)
    a, b = texts.get("A.cs"), texts.get("B.cs")
    assert texts.get("A.cs") is a  # A is now more recently used than B
    kept = [texts.get(f"{n}.cs") for n in names[2:]]  # 360 > 300: B, the least recently used, goes
    assert texts.get("A.cs") is a and texts.get("F.cs") is kept[-1]
    assert texts.get("B.cs") is not b
    big = texts.get("Big.cs")
    assert texts.get("Big.cs") is not big
    monkeypatch.setattr(module, "RECENT_NS", 10**18)  # every file changed "just now"
    fresh = Texts(tmp_path)
    assert fresh.get("A.cs") is not fresh.get("A.cs")


def test_a_binary_file_is_neither_decoded_nor_kept(tmp_path: Path, monkeypatch) -> None:
    """A NUL in the first 8 KB makes a file binary (its record is skipped: `scanners.scan`): its
    text is '' and it costs the kept texts nothing; it is not read again while unchanged."""
    import indexer.query.texts as module

    (tmp_path / "Tex.asset").write_bytes(b"\x00\x01" + b"binary data " * 5000)
    monkeypatch.setattr(module, "RECENT_NS", 0)
    texts = Texts(tmp_path)
    read = texts.get("Tex.asset")
    assert read.binary and read.text == "" and read.low == "" and read.chars == 0
    assert texts.get("Tex.asset") is read and texts._chars == 0


def test_the_answers_kept_with_a_text_are_bounded() -> None:
    """A long-running server asks one text for ever new stems, phrases and said values: what is
    kept with it (`FileText.found`) is emptied at FOUND_LIMIT, and answers stay right after."""
    from indexer.query.textmatch import FOUND_LIMIT, holds_phrase
    from indexer.query.texts import FileText
    from indexer.query.values import fields_holding

    read = FileText(b"  speed: 2\nthe quick fox\n", None)
    for i in range(3 * FOUND_LIMIT):
        assert holds_phrase(read, f"fox {i}") is False
        assert len(read.found) <= FOUND_LIMIT
    assert fields_holding(read, False, frozenset({2.0}), {"spe"})[0].snippet == "speed: 2"
    assert holds_phrase(read, "quick fox") is True and len(read.found) <= FOUND_LIMIT


def test_what_was_found_in_a_dropped_text_holds_while_its_file_is_unchanged(tmp_path: Path, monkeypatch) -> None:
    """texts.py: a text dropped for room leaves what was found in it (`found`), taken up again by
    the next read of the same file, not by one of the file changed since; those kept are bounded
    (FOUND_KEPT entries)."""
    import indexer.query.texts as module
    from indexer.query.textmatch import stems_in_text

    names = [f"{n}.cs" for n in "ABCDE"]
    for name in names:
        (tmp_path / name).write_text(f"class {name[0]}Speed")  # 24 characters with its lower-case form
    monkeypatch.setattr(module, "RECENT_NS", 0)
    monkeypatch.setattr(module, "KEPT_CHARS", 100)  # room for four texts
    texts = Texts(tmp_path)
    assert stems_in_text(texts.get("A.cs"), {"speed"}) == {"speed"}
    for name in names[1:]:  # A goes
        texts.get(name)
    assert "A.cs" not in texts._kept and texts.get("A.cs").found == {"speed": True}
    for name in names[1:]:  # A goes again, then changes
        texts.get(name)
    (tmp_path / "A.cs").write_text("class AStop")
    changed = texts.get("A.cs")
    assert changed.found == {} and stems_in_text(changed, {"speed"}) == set()
    monkeypatch.setattr(module, "FOUND_KEPT", 2)
    for name in names * 2:
        stems_in_text(texts.get(name), {"speed", "stop"})
    assert texts._found_entries <= 2 and len(texts._found) <= 1
