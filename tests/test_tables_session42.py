"""A CSV or TSV data table is searched by its columns' names as by a script's members
(`table_text.table_columns`, docs/retrieval.md, session 42)."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.workspace import open_workspace
from indexer.table_text import table_columns

from .conftest import write_project


def test_a_tables_header_names_its_columns() -> None:
    assert table_columns("Memo,Id,MaxHp,Attack,Defense,MoveSpeed\n인간,17000001,2500,50,0,7\n") == [
        "Memo",
        "Id",
        "MaxHp",
        "Attack",
        "Defense",
        "MoveSpeed",
    ]
    # tabs when a line has more of them than commas; quotes and blank lines above it left out
    assert table_columns('\n"Key"\t"English"\t"Drop Rate, %"\tNotes\nk1\tHello\t3\tx\n') == ["Key", "English", "Notes"]
    # a list of sentences, or a single column, is no table
    assert table_columns("Welcome to the game, traveller, rest here\nsecond line\n") == []
    assert table_columns("Id\n1\n2\n") == []
    assert table_columns("Id,1,2,3,4\n") == []


STATS = "Memo,Id,MaxHp,Attack,Defense,MoveSpeed\n" + "".join(f"row {i},{17000000 + i},500,25,0,3\n" for i in range(40))
NOTES = "Patch notes\n" + "".join(f"Fixed a bug in room {i}; the boss moves faster now.\n" for i in range(40))


def test_a_table_is_found_by_the_words_of_its_columns(tmp_path: Path) -> None:
    """ "max hp move speed" finds the table whose header holds `MaxHp` and `MoveSpeed` first, above
    a script that says each word once in a comment and text that says "move" and "speed"'s words
    in every line; the same header in a text file that is no table counts as its words only."""
    root = write_project(
        tmp_path,
        {
            "Assets/Data/EntityStatsTable.csv": STATS,
            "Assets/Data/EntityStatsNotes.txt": "Memo,Id,MaxHp,Attack,Defense,MoveSpeed\n" + NOTES,
            "Assets/Scripts/Mover.cs": "// max hp and move speed come from the table\npublic class Mover { }",
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    hits = ws.search("where are max hp and move speed set", 10)
    assert [h.path for h in hits][:2] == ["Assets/Data/EntityStatsTable.csv", "Assets/Data/EntityStatsNotes.txt"]
    assert hits[0].score > 1.5 * hits[1].score


def test_a_tables_columns_are_named_once_and_at_most_max_columns() -> None:
    """A column named twice is one name; a header of 300 names gives its first MAX_COLUMNS."""
    from indexer.table_text import MAX_COLUMNS

    assert table_columns("Id,Name,Hp,Name\n1,a,3,b\n") == ["Id", "Name", "Hp"]
    wide = ",".join(f"C{i}" for i in range(300))
    assert table_columns(wide + "\n") == [f"C{i}" for i in range(MAX_COLUMNS)]
