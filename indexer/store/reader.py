"""Read access to the record store (records.db)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator

import msgspec

from indexer.model import FileRecord, FileStat, Scope, TypeRow
from indexer.store.header import open_current
from indexer.store.schema import IndexPaths

record_encoder = msgspec.msgpack.Encoder()
record_decoder = msgspec.msgpack.Decoder(FileRecord)


def _connect(view: IndexPaths) -> tuple[IndexPaths, sqlite3.Connection]:
    conn = sqlite3.connect(f"file:{view.records}?mode=ro", uri=True, check_same_thread=False)
    try:
        conn.execute("SELECT value FROM header WHERE key = 'generation'").fetchall()  # opens the WAL index now
    except BaseException:
        conn.close()
        raise
    return view, conn


class Records:
    """Read access to the record store. Cheap to open; one per reader (the MCP server keeps one)."""

    def __init__(self, paths: IndexPaths, *, _conn: sqlite3.Connection | None = None):
        """Opens the current generation (IndexMissing without one); `paths` becomes pinned to it."""
        if _conn is None:
            paths, _conn = open_current(paths, _connect)
        self.paths = paths
        self.conn = _conn

    def close(self) -> None:
        self.conn.close()

    def stats(self) -> dict[str, FileStat]:
        rows = self.conn.execute("SELECT path, kind, size, mtime_ns, digest, status FROM files")
        return {p: FileStat(k, s, m, d, st) for p, k, s, m, d, st in rows}

    def stats_of(self, paths: Iterable[str]) -> dict[str, FileStat]:
        """Like `stats`, for the given paths only (those without a record are left out)."""
        out: dict[str, FileStat] = {}
        wanted = list(paths)
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT path, kind, size, mtime_ns, digest, status FROM files WHERE path IN ({marks})"
            rows = self.conn.execute(sql, chunk)
            out.update((p, FileStat(k, s, m, d, st)) for p, k, s, m, d, st in rows)
        return out

    def has_folder(self, path: str) -> bool:
        """Whether records exist below `path` (it was a folder)."""
        row = self.conn.execute("SELECT 1 FROM files WHERE path > ? AND path < ? LIMIT 1", (path + "/", path + "0"))
        return row.fetchone() is not None

    def license_paths(self) -> list[str]:
        """Paths that may be license files (`LICENSE.md`, `COPYING`, ...), found in the path index
        without reading every row into Python."""
        sql = "SELECT path FROM files WHERE path LIKE '%licen%' OR path LIKE '%copying%'"
        return [p for (p,) in self.conn.execute(sql)]

    def kinds(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT path, kind FROM files"))

    def record(self, path: str) -> FileRecord | None:
        row = self.conn.execute("SELECT record FROM files WHERE path = ?", (path,)).fetchone()
        return record_decoder.decode(row[0]) if row else None

    def records(self, kind: str | None = None) -> Iterator[FileRecord]:
        if kind is None:
            rows = self.conn.execute("SELECT record FROM files ORDER BY path")
        else:
            rows = self.conn.execute("SELECT record FROM files WHERE kind = ? ORDER BY path", (kind,))
        for (blob,) in rows:
            yield record_decoder.decode(blob)

    def skipped(self) -> list[tuple[str, str]]:
        out = []
        for (blob,) in self.conn.execute("SELECT record FROM files WHERE status = 'skipped' ORDER BY path"):
            rec = record_decoder.decode(blob)
            out.append((rec.path, rec.note))
        return out

    def count_by(self, column: str) -> dict[str, int]:
        assert column in ("kind", "status")
        return dict(self.conn.execute(f"SELECT {column}, count(*) FROM files GROUP BY {column}"))

    def scope(self, path: str) -> Scope | None:
        """The namespaces and usings of a C# file, without decoding its whole record."""
        row = self.conn.execute("SELECT scope FROM files WHERE path = ?", (path,)).fetchone()
        if not row or not row[0]:
            return None
        namespaces, usings = json.loads(row[0])
        return Scope(tuple(namespaces), tuple(usings))

    def guid_paths(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT guid, path FROM guids ORDER BY meta_path"))

    def path_of_guid(self, guid: str) -> str | None:
        row = self.conn.execute("SELECT path FROM guids WHERE guid = ? ORDER BY meta_path LIMIT 1", (guid.lower(),))
        found = row.fetchone()
        return found[0] if found else None

    def guid_of_path(self, path: str) -> str | None:
        row = self.conn.execute("SELECT guid FROM guids WHERE path = ?", (path,)).fetchone()
        return row[0] if row else None

    def types(self) -> list[TypeRow]:
        return self._type_rows("", ())

    def types_named(self, name: str) -> list[TypeRow]:
        """The types declared under a simple name, in any file."""
        return self._type_rows("WHERE name = ?", (name,))

    def _type_rows(self, where: str, args: tuple) -> list[TypeRow]:
        rows = self.conn.execute(
            "SELECT path, qualified, name, kind, container, bases, partial, test, namespace, category FROM types"
            f" {where} ORDER BY path, qualified",
            args,
        )
        return [
            TypeRow(p, q, n, k, c, tuple(json.loads(b)), bool(pa), bool(t), ns, cat)
            for p, q, n, k, c, b, pa, t, ns, cat in rows
        ]

    def file_ids(self) -> dict[str, int]:
        """Every file's row id, which edges are stored by (a row lookup per edge would read the
        page of a whole record: the graph maps ids in memory instead)."""
        return dict(self.conn.execute("SELECT path, id FROM files"))

    def outline(self, path: str) -> bytes:
        """A file's stored outline (JSON), for naming its best match; b"[]" if it has none."""
        row = self.conn.execute(
            "SELECT o.outline FROM files f JOIN outlines o ON o.file_id = f.id WHERE f.path = ?", (path,)
        ).fetchone()
        return row[0] if row else b"[]"

    def edges_from(self, file_id: int) -> list[tuple[int, str]]:
        """(file id, edge kind) of the files this file points at."""
        return self.conn.execute("SELECT dst, kind FROM edges WHERE src = ?", (file_id,)).fetchall()

    def edges_to(self, file_id: int, cap: int) -> list[tuple[int, str]] | None:
        """(file id, edge kind) of the files pointing at this file; None for more than `cap`
        (known without reading them all: a hub's thousand users are not walked)."""
        rows = self.conn.execute("SELECT src, kind FROM edges WHERE dst = ? LIMIT ?", (file_id, cap + 1)).fetchall()
        return None if len(rows) > cap else rows

    def categories(self) -> dict[str, str]:
        """ "path::Qualified.Type" -> Unity role of every declared type."""
        return {f"{p}::{q}": c for p, q, c in self.conn.execute("SELECT path, qualified, category FROM types")}

    def categories_of(self, path: str) -> dict[str, str]:
        """Qualified type -> Unity role, for the types one file declares."""
        return dict(self.conn.execute("SELECT qualified, category FROM types WHERE path = ?", (path,)))

    def script_types(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT path, main_type FROM files WHERE main_type != '' ORDER BY path"))

    def generation(self) -> int:
        row = self.conn.execute("SELECT value FROM header WHERE key = 'generation'").fetchone()
        return int(row[0]) if row else 0
