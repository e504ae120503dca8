"""A data table (a CSV or TSV file, or a JSON list of records) and the class its rows are read into.

Games keep their numbers in tables exported from a spreadsheet, which a loader reads into a plain
class whose fields are the table's columns (`EnemyUnits.csv`, `Id,Health,MoveSpeed,CrawlSpeed`,
into `EnemyUnitConfig`'s `Health`, `MoveSpeed`, `CrawlSpeed`). No GUID ties the two, and the
loader names the table by a string it builds, so no edge reached the table from the class a task
about those values found: the table is told by its columns. A game that looks its things up by
name keys the rows by it too (`GiantZombie,3000,0.5` for `GiantZombie.prefab`): the table holds
that prefab's numbers.
"""

from __future__ import annotations

import os
import re

from indexer.files import utf8_text
from indexer.project import read_project_file
from indexer.table_text import TABLE_EXTENSIONS, first_cells, json_records, table_columns

MIN_SHARED = 2  # columns a class's fields name (an id aside), at least
MIN_COVER = 0.5  # ... and at least this share of its fields (an id aside)
_RENAMED = re.compile(r"""\b(?:DataMember|JsonProperty|Name|Column|Index)\s*\(\s*(?:Name\s*=\s*)?"([^"]+)\"""")
_ID = "id"
MIN_KEY = 3  # a row's key naming a file: at least this many letters, not a number
MAX_KEYED = 2  # ... in at most this many tables (an item's stats and its shop entry); more is a list of names
# Bytes of a table read: its header and first rows. A table of a game's things keys them near its
# top (the trial's largest, 3.6 KB); read whole, a project's localization tables cost the first
# query of each generation a second (the fixture and 300 tables of 240 KB: 953 ms, 8 without the
# rule, 53 read this far).
TABLE_HEAD = 8_192


def row_table(project, script: str) -> str | None:
    """The one table of the project whose columns the fields of `script`'s class name (most of
    them, at least MIN_SHARED besides an id; a tie names none), by path."""
    tables = _tables(project)
    rec = project.records.record(script) if tables else None  # most projects have no table: no record read
    fields = _field_names(rec.symbols) if rec is not None else set()
    if len(fields) < MIN_SHARED:
        return None
    shared = sorted(((len(fields & cols), path) for path, (cols, _keys) in tables.items()), reverse=True)
    matches = [(n, p) for n, p in shared if n >= MIN_SHARED and n >= MIN_COVER * len(fields)]
    if not matches or (len(matches) > 1 and matches[1][0] == matches[0][0]):
        return None
    return matches[0][1]


def keyed_tables(project, path: str) -> list[str]:
    """The tables (at most MAX_KEYED) with a row keyed by the file's name, in its first cell
    (`GiantZombie,3000,0.5` in `EnemyUnits.csv` for `GiantZombie.prefab`), by path: a game
    looking its things up by name keeps their numbers there."""
    name = _spelled(os.path.splitext(os.path.basename(path))[0])
    if len(name) < MIN_KEY or name.isdigit():
        return []
    found = [p for p, (_columns, keys) in _tables(project).items() if name in keys]
    return found if len(found) <= MAX_KEYED else []


def _tables(project) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """path -> the names of its columns (an id aside) and its rows' first cells, both `_spelled`,
    for every table with columns: read once a generation."""
    return project.remember(("data tables",), lambda: _read_tables(project), role=True)


def _read_tables(project) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    patterns = " OR ".join("path LIKE ?" for _ in TABLE_EXTENSIONS)
    sql = f"SELECT path FROM files WHERE kind = 'text' AND ({patterns}) ORDER BY path"
    out = {}
    for (path,) in project.records.conn.execute(sql, [f"%{ext}" for ext in TABLE_EXTENSIONS]):
        text = _head(project, path)
        _add(out, path, table_columns(text), first_cells(text))
    # A game's JSON data is its own, under Assets/ (not a package's manifest).
    for path in project.records.paths_of_kind("json"):
        if path.startswith("Assets/"):
            _add(out, path, *json_records(_head(project, path, whole_rows=False)))
    return out


def _add(out: dict, path: str, columns: list[str], keys: list[str]) -> None:
    """The table's columns (an id aside) and its rows' keys, `_spelled`, when it has columns."""
    names = {_spelled(c) for c in columns} - {_ID}
    if names:
        out[path] = (frozenset(names), frozenset(_spelled(k) for k in keys))


def _head(project, path: str, whole_rows: bool = True) -> str:
    """A table's first TABLE_HEAD bytes as text, without the row they cut short (`whole_rows`: a
    CSV's line). A JSON's is not cut: a JSON on one line (`JsonUtility.ToJson`) would be left
    empty, and a record cut short is no record (`table_text.json_records`)."""
    data = utf8_text(read_project_file(project.root, path, TABLE_HEAD) or b"")
    text = data.decode("utf-8", errors="replace")
    return text.rpartition("\n")[0] if whole_rows and len(data) >= TABLE_HEAD else text


def _field_names(symbols) -> set[str]:
    """The names a class's fields and properties are read by (`_spelled`, an id aside): a name its
    attribute gives (`[DataMember(Name = "Id")] string _id`), else its own."""
    out = set()
    for s in symbols:
        if s.kind not in ("field", "property"):
            continue
        renamed = next((m.group(1) for a in s.attributes if (m := _RENAMED.search(a))), None)
        out.add(_spelled(renamed or s.name))
    return out - {_ID}


def _spelled(name: str) -> str:
    """A name as a column and a field both spell it: lower case, no `m_` or underscores."""
    return re.sub(r"^m_|_", "", name.lower())
