"""A CSV or TSV data table's header and rows, read alike by the index (its columns are searched
as a script's members, build/documents.py) and by the ranking (which class reads its rows and
which prefab keys one, query/tables.py)."""

from __future__ import annotations

import re

# A CSV or TSV table's header names its columns (`Id,MaxHp,Attack,MoveSpeed`): what a task asks a
# stat by ("where is the fire mage's max HP set"), said once in a table of rows of numbers, where
# as words of the text they weighed like any row's.
TABLE_EXTENSIONS = (".csv", ".tsv")
_COLUMN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MAX_COLUMNS = 200


def separator(header: str) -> str:
    """What a table's cells are split at: tabs when its header has more of them than commas."""
    return "\t" if header.count("\t") > header.count(",") else ","


def table_columns(text: str) -> list[str]:
    """The names of a data table's columns: the cells of its first line holding text that are
    names (`MaxHp`), split at `separator`. Empty when fewer than two cells are, or than half of
    them (a list of sentences, not a table)."""
    line = next((line for line in text.split("\n", 20) if line.strip()), "")
    cells = [c.strip().strip('"').strip() for c in line.split(separator(line))]
    names = [c for c in cells if _COLUMN.fullmatch(c)]
    if len(names) < 2 or 2 * len(names) < len(cells):
        return []
    return list(dict.fromkeys(names))[:MAX_COLUMNS]


def first_cells(text: str) -> list[str]:
    """The first cells of a table's rows below its header (the key a row is looked up by, in most
    tables), unquoted and stripped; empty ones left out."""
    lines = [line for line in text.splitlines() if line.strip()]
    sep = separator(lines[0]) if lines else ","
    cells = (line.split(sep, 1)[0].strip().strip('"').strip() for line in lines[1:])
    return [c for c in cells if c]


# A JSON data file listing records (`{"EnemyDatas": [{"ID": "2", "Name": "Orc_Ranged", "HP": "40"},
# ...]}`) is a table too: its records' keys are the columns, and a record is looked up by its name.
# Read from a file's head, a record is an object holding no other (`_RECORD`), its keys and plain
# values as written. Only the first records' keys are split out; the keys of the rest are read by
# one search each (a record of a name, or opening on a text), not record by record.
_RECORD = re.compile(r"\{[^{}\[\]]*\}")
_PAIR = re.compile(r'"([A-Za-z_][A-Za-z0-9_]*)"\s*:\s*(?:"((?:[^"\\]|\\.)*)"|[^,}\s]+)')
_NAMED = re.compile(r'"[Nn][Aa][Mm][Ee]"\s*:\s*"((?:[^"\\]|\\.)*)"[^{}\[\]]*\}')
_OPENING = re.compile(r'\{\s*"[A-Za-z_][A-Za-z0-9_]*"\s*:\s*"((?:[^"\\]|\\.)*)"[^{}\[\]]*\}')
MIN_RECORDS = 2


def json_records(text: str) -> tuple[list[str], list[str]]:
    """A JSON list of records' columns (the first record's keys) and each record's key (its `name`
    value, case aside, else its first value when that is a text), none when the text's first
    MIN_RECORDS records do not hold two keys or more each (a settings object, a package's
    manifest)."""
    firsts = []
    for m in _RECORD.finditer(text):
        firsts.append(_PAIR.findall(m.group(0)))
        if len(firsts) == MIN_RECORDS:
            break
    if len(firsts) < MIN_RECORDS or any(len(pairs) < 2 for pairs in firsts):
        return [], []
    named = any(key.lower() == "name" for key, _ in firsts[0])
    keys = [k for k in (_NAMED if named else _OPENING).findall(text) if k]
    return list(dict.fromkeys(k for k, _ in firsts[0]))[:MAX_COLUMNS], keys
