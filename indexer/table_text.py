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
