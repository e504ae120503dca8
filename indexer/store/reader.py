"""Read access to the record store (records.db)."""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
import threading
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from functools import cached_property
from pathlib import Path
from urllib.parse import quote

import msgspec

from indexer.model import CONFLICT_MARKERS, CodeOutline, FileRecord, FileStat, Symbol, TypeRow
from indexer.store.codec import BlobCodec
from indexer.store.header import IndexBroken, open_current
from indexer.store.integrity import cannot_write
from indexer.store.rows import guid_text, stored_guid, whole_record
from indexer.store.schema import THIRD_PARTY_SIGNS, VENDOR_MARKS, IndexPaths

record_encoder = msgspec.msgpack.Encoder()
record_decoder = msgspec.msgpack.Decoder(FileRecord)
code_outline_decoder = msgspec.msgpack.Decoder(CodeOutline)


class _Note(msgspec.Struct):
    note: str = ""


_note_decoder = msgspec.msgpack.Decoder(_Note)  # a record's note alone, the rest passed over


class _Target(msgspec.Struct, gc=False):
    kind: str
    target: str


class _Targets(msgspec.Struct, gc=False):
    refs: tuple[_Target, ...] = ()


_targets_decoder = msgspec.msgpack.Decoder(_Targets)  # a record's references' kinds and targets alone
# What decoding a garbled blob raises: bad msgpack, bad deflate, a first byte naming no
# dictionary (KeyError) or no byte at all (IndexError), a NULL blob (TypeError).
GARBLED = (msgspec.DecodeError, zlib.error, IndexError, KeyError, TypeError)
_STAT = "path, kind, size, mtime_ns, digest, status, checked_ns"
_RECORD = "SELECT b.record, f.path, f.size, f.mtime_ns, f.digest FROM files f JOIN blobs b ON b.file_id = f.id"
_KIND_RECORD = _RECORD.replace(" FROM", ", f.kind FROM", 1) + " WHERE f.path = ?"
# The GUID rows with the path of the asset each describes (the .meta's path without `.meta`).
_GUIDS = "SELECT g.guid, substr(f.path, 1, length(f.path) - 5) FROM guids g JOIN files f ON f.id = g.meta_id"
_TYPES = "SELECT f.path, t.{} FROM types t JOIN files f ON f.id = t.file_id"
# 0 for the .meta of a script (`Player.cs`, `Player.CS`: LIKE ignores case) or a DLL, 1 else.
_NOT_SCRIPT = "NOT (f.path LIKE '%.cs.meta' OR f.path LIKE '%.dll.meta')"
# 1 for a .meta whose file is not in the project (left behind by a move or delete outside Unity,
# which deletes it on import), 0 for one beside its file, or a folder's holding files ('0' sorts
# right after '/': the range is the folder's paths).
_ASSET = "substr(f.path, 1, length(f.path) - 5)"
_ASSET_GONE = (
    f"NOT EXISTS (SELECT 1 FROM files a WHERE a.path = {_ASSET}"
    f" OR (a.path > {_ASSET} || '/' AND a.path < {_ASSET} || '0'))"
)


def _connect(view: IndexPaths) -> tuple[IndexPaths, sqlite3.Connection]:
    """A read-only connection to the records of a pinned generation; sqlite3.DatabaseError when
    the file is visibly not a whole database.

    In WAL mode even a reader writes the `-shm` index beside the database: where the folder
    cannot be written (a CI cache, a mounted volume) the file is opened `immutable` instead, which
    reads it without any lock or side file (nothing can write it there anyway). Only there: on a
    folder a writer uses, it would read pages mid-commit, without the WAL."""
    uri = f"file:{quote(str(view.records))}?mode=ro"
    if not os.access(view.records.parent, os.W_OK):
        uri += "&immutable=1"
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
    try:
        conn.execute("SELECT value FROM header WHERE key = 'generation'").fetchall()  # opens the WAL index now
        problem = sqlite_file_problem(conn, view.records)
    except BaseException:
        conn.close()
        raise
    if problem:
        conn.close()
        raise sqlite3.DatabaseError(problem)
    return view, conn


def open_read_only(paths: IndexPaths) -> tuple[IndexPaths, sqlite3.Connection]:
    """The pinned generation and a read-only connection to its records; IndexMissing without an
    index, IndexBroken when the record store is damaged."""
    try:
        return open_current(paths, _connect)
    except sqlite3.DatabaseError as exc:
        if cannot_write(exc):  # no `records.db-shm` on a full disk: no damage, a rebuild fails too
            raise
        raise IndexBroken(paths.root, f"record store: {exc}") from None


def sqlite_file_problem(conn: sqlite3.Connection, path: Path) -> str:
    """What is visibly wrong with a SQLite file without reading it all ('' when nothing): a
    file shorter than the page count its header states (SQLite itself rejects a bad header).

    Asked through SQLite, never by opening the file: closing any descriptor of a database file
    drops every POSIX lock this process holds on it, those of open connections included, and a
    writer could then overwrite pages a reader is reading."""
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    wal = path.with_name(path.name + "-wal")
    try:
        size = path.stat().st_size
        if wal.exists() and wal.stat().st_size:
            return ""  # the WAL holds pages the file does not have yet (a checkpoint writes them)
    except OSError as exc:
        return f"{path.name}: {exc.strerror or exc}"
    if size < pages * page_size:
        return f"{path.name} is truncated ({size} bytes, {pages} pages of {page_size} expected)"
    return ""


class Records:
    """Read access to the record store. Cheap to open; one per reader (the MCP server keeps one)."""

    def __init__(self, paths: IndexPaths, *, _conn: sqlite3.Connection | None = None):
        """Opens the current generation (IndexMissing without one); `paths` becomes pinned to it."""
        if _conn is None:
            paths, _conn = open_read_only(paths)
        self.paths = paths
        self.conn = _conn
        self.codec = BlobCodec(_conn)
        self._guard = threading.Lock()
        self._readers = 0  # queries inside `reading` now (threads of a server share a connection)
        self._began = False  # whether `reading` began the open transaction (never a writer's own)

    @contextmanager
    def reading(self) -> Iterator[None]:
        """One read transaction around what a query reads: every statement inside sees the same
        commit, and costs less than a statement of its own (each of those takes and drops a read
        mark of the WAL: 8.9 -> 5.7 us a statement). Reentrant, and shared by the threads reading
        through this connection at once: the last one out ends it. In WAL mode a reader never
        blocks a writer's commit; the transaction only keeps a checkpoint from going past the
        commit it reads, until it ends. A transaction already open (a writer's batch) is joined,
        never ended here."""
        with self._guard:
            self._readers += 1
            if self._readers == 1 and not self.conn.in_transaction:
                self.conn.execute("BEGIN")
                self._began = True
        try:
            yield
        finally:
            with self._guard:
                self._readers -= 1
                if self._readers == 0 and self._began:
                    self._began = False
                    with suppress(sqlite3.ProgrammingError):  # closed meanwhile: nothing to end
                        if self.conn.in_transaction:
                            self.conn.execute("COMMIT")

    def decode_record(self, blob: bytes, path: str, size: int, mtime_ns: int, digest: bytes) -> FileRecord:
        """A stored record blob, with the path and stat of its row, as a FileRecord
        (one of GARBLED when it is garbled)."""
        return whole_record(record_decoder.decode(self.codec.unpack(blob)), path, size, mtime_ns, digest.hex())

    def close(self) -> None:
        self.conn.close()

    def stats(self) -> dict[str, FileStat]:
        rows = self.conn.execute(f"SELECT {_STAT} FROM files")
        return {p: FileStat(k, s, m, d.hex(), st, c) for p, k, s, m, d, st, c in rows}

    def stats_of(self, paths: Iterable[str]) -> dict[str, FileStat]:
        """Like `stats`, for the given paths only (those without a record are left out)."""
        out: dict[str, FileStat] = {}
        wanted = list(paths)
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT {_STAT} FROM files WHERE path IN ({marks})"
            rows = self.conn.execute(sql, chunk)
            out.update((p, FileStat(k, s, m, d.hex(), st, c)) for p, k, s, m, d, st, c in rows)
        return out

    def has_folder(self, path: str) -> bool:
        """Whether records exist below `path` (it was a folder)."""
        row = self.conn.execute("SELECT 1 FROM files WHERE path > ? AND path < ? LIMIT 1", (path + "/", path + "0"))
        return row.fetchone() is not None

    def unread_paths(self) -> list[str]:
        """Files recorded as skipped without being read (links, odd names, over the size cap or a
        scanner's budget, unreadable): few, and an unreadable one may be readable now. Folders
        recorded as unreadable are not files (`folder_paths`)."""
        sql = "SELECT path FROM files WHERE status = 'skipped' AND digest = x'' AND kind != 'folder'"
        return [p for (p,) in self.conn.execute(sql)]

    def folder_paths(self) -> list[str]:
        """The folders recorded as unreadable (kind 'folder'), by their partial index."""
        return [p for (p,) in self.conn.execute("SELECT path FROM files WHERE kind = 'folder'")]

    def plugin_paths(self) -> list[str]:
        """The native and managed libraries (kind 'plugin': a DLL marks a kit's folder), read from
        the partial index of third-party signs (`files_marking_vendors`), as every process's first
        query asks."""
        return self._signs("kind = 'plugin'")

    def vendor_mark_paths(self) -> list[str]:
        """Paths that may mark a third-party folder (`schema.VENDOR_MARKS`), read from the same
        partial index without a scan of every path."""
        return self._signs(VENDOR_MARKS)

    def _signs(self, which: str) -> list[str]:
        """Paths among `schema.THIRD_PARTY_SIGNS` matching `which`: the query holds the index's
        condition as written, which SQLite needs to use a partial index."""
        sql = f"SELECT path FROM files WHERE ({THIRD_PARTY_SIGNS}) AND ({which})"
        return [p for (p,) in self.conn.execute(sql)]

    def kinds(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT path, kind FROM files"))

    def paths_of_kind(self, kind: str) -> list[str]:
        """The paths of the files of one kind, by path."""
        return [p for (p,) in self.conn.execute("SELECT path FROM files WHERE kind = ? ORDER BY path", (kind,))]

    def record(self, path: str) -> FileRecord | None:
        row = self.conn.execute(f"{_RECORD} WHERE f.path = ?", (path,)).fetchone()
        return self.decode_record(*row) if row else None

    def ref_targets(self, path: str, kind: str) -> list[str]:
        """The targets of a file's references of one kind ([] without a record): its symbols and the
        rest of its references' fields passed over (three fifths of decoding a script's record)."""
        row = self.conn.execute(f"{_RECORD} WHERE f.path = ?", (path,)).fetchone()
        refs = _targets_decoder.decode(self.codec.unpack(row[0])).refs if row else ()
        return [r.target for r in refs if r.kind == kind]

    def symbols(self, path: str) -> tuple[Symbol, ...]:
        """A file's symbols alone (none when it has no record): its references are not decoded,
        a third of the cost of a scene's record."""
        row = self.conn.execute(f"{_RECORD} WHERE f.path = ?", (path,)).fetchone()
        return code_outline_decoder.decode(self.codec.unpack(row[0])).symbols if row else ()

    def outline_record(self, path: str, holding: bytes | tuple[bytes, ...] = b"") -> FileRecord | CodeOutline | None:
        """A file's record as its outline needs it: a C# file's without its references (a CodeOutline).
        With `holding`, None also when the record's bytes lack it, or each of them (a name a caller
        looks for among the symbols: not one of them has it), the decode spared (most of a large
        prefab's cost)."""
        row = self.conn.execute(_KIND_RECORD, (path,)).fetchone()
        if row is None:
            return None
        data = self.codec.unpack(row[0])
        if not any(mark in data for mark in (holding if isinstance(holding, tuple) else (holding,))):
            return None
        if row[-1] != "csharp":
            return whole_record(record_decoder.decode(data), row[1], row[2], row[3], row[4].hex())
        return msgspec.structs.replace(code_outline_decoder.decode(data), path=path)

    def records(self, kind: str | None = None) -> Iterator[FileRecord]:
        if kind is None:
            rows = self.conn.execute(f"{_RECORD} ORDER BY f.path")
        else:
            rows = self.conn.execute(f"{_RECORD} WHERE f.kind = ? ORDER BY f.path", (kind,))
        for row in rows:
            yield self.decode_record(*row)

    @cached_property
    def asmdefs(self) -> tuple[FileRecord, ...]:
        """Every asmdef's record, by path, read once for this generation: few, and three things a
        query learns of the project read them (test folders, assembly folders, asmdefs by name)."""
        return tuple(self.records("asmdef"))

    def skipped(self) -> list[tuple[str, str]]:
        out = []
        for row in self.conn.execute(f"{_RECORD} WHERE f.status = 'skipped' ORDER BY f.path"):
            rec = self.decode_record(*row)
            out.append((rec.path, rec.note))
        return out

    def conflicted(self) -> tuple[str, ...]:
        """The files holding unresolved merge conflict markers, by path (the notes of the partial records read)."""
        rows = self.conn.execute(
            "SELECT b.record, f.path FROM files f JOIN blobs b ON b.file_id = f.id"
            " WHERE f.status = 'partial' ORDER BY f.path"
        )
        return tuple(
            path for blob, path in rows if CONFLICT_MARKERS in _note_decoder.decode(self.codec.unpack(blob)).note
        )

    def holds_files(self) -> bool:
        """Whether the index records any file (skipped ones too)."""
        return self.conn.execute("SELECT 1 FROM files LIMIT 1").fetchone() is not None

    def count_by(self, column: str) -> dict[str, int]:
        assert column in ("kind", "status")
        return dict(self.conn.execute(f"SELECT {column}, count(*) FROM files GROUP BY {column}"))

    # A GUID several .meta files hold (a file copied with its .meta outside Unity, until Unity gives
    # the copy a GUID of its own; a file moved outside Unity, a copy of its .meta beside it and the
    # old one left behind) leads to one whose file is in the project, then to a script among them
    # (a .cs or .dll: a component's `m_Script` can name nothing else, and a prefab given a script's
    # .meta is the copy), then to the one of the shortest name (a copy's adds to its original's),
    # else to the first of their files by path: `_guid_rows` is that rule, and every GUID -> file
    # lookup (these four, and through them the graph's) reads it.
    def _guid_rows(self, where: str = "", args: tuple = ()) -> list[tuple[str, str]]:
        """(GUID, file) rows, each GUID's files in the rule's order: the one it leads to first.
        Of files equal by the first two keys, the one of the shortest name leads: a copy's name is
        its original's and more, whoever made it (Explorer's `Player - Copy.prefab`, Finder's
        `Player copy.prefab`, Unity's `Player 1.prefab`), and each of those sorts before
        `Player.prefab` by path (a space before the dot), so the copy took the GUID. Sorted here,
        for the few GUIDs held twice (in SQL it cost every row: +70% at 7,500 GUIDs)."""
        sql = f"{_GUIDS.replace(' FROM', f', {_ASSET_GONE}, {_NOT_SCRIPT} FROM', 1)} {where} ORDER BY 1, 3, 4, 2"
        rows = self.conn.execute(sql, args).fetchall()
        out: list[tuple[str, str]] = []
        for guid, group in itertools.groupby(rows, key=lambda row: row[0]):
            held = list(group)
            if len(held) > 1:  # (stable: the path breaks a tie)
                held.sort(key=lambda row: (row[2], row[3], len(row[1].rpartition("/")[2])))
            out += [(guid_text(guid), row[1]) for row in held]
        return out

    def guid_paths(self) -> dict[str, str]:
        """GUID -> the file it leads to."""
        out: dict[str, str] = {}
        for guid, path in self._guid_rows():
            out.setdefault(guid, path)
        return out

    def paths_of_guid(self, guid: str) -> list[str]:
        """Every file whose .meta holds `guid`, the one it leads to first: several for a copy."""
        return [path for _, path in self._guid_rows("WHERE g.guid = ?", (stored_guid(guid.lower()),))]

    def path_of_guid(self, guid: str) -> str | None:
        """The file `guid` leads to; None when no .meta in the project holds it (a package's)."""
        return next(iter(self.paths_of_guid(guid)), None)

    def guid_naming(self, path: str) -> str | None:
        """The GUID assets name `path` by: its .meta's, unless that GUID leads to another file (then
        what names that GUID is the other file's, and `path` has no GUID of its own yet)."""
        guid = self.guid_of_path(path)
        return guid if guid and self.path_of_guid(guid) == path else None

    def guid_of_path(self, path: str) -> str | None:
        """The GUID of `path`'s .meta, whether or not it leads to `path` (see `guid_naming`)."""
        sql = "SELECT g.guid FROM files f JOIN guids g ON g.meta_id = f.id WHERE f.path = ?"
        row = self.conn.execute(sql, (path + ".meta",)).fetchone()
        return guid_text(row[0]) if row else None

    def types(self) -> list[TypeRow]:
        return self._type_rows("", ())

    def types_named(self, name: str) -> list[TypeRow]:
        """The types declared under a simple name, in any file."""
        return self._type_rows("WHERE t.name = ?", (name,))

    def without_meta(self) -> list[str]:
        """Files under Assets/ whose .meta is not in the project, by path."""
        sql = (
            "SELECT f.path FROM files f WHERE f.path LIKE 'Assets/%' AND f.path NOT LIKE '%.meta'"
            " AND NOT EXISTS (SELECT 1 FROM files m WHERE m.path = f.path || '.meta') ORDER BY f.path"
        )
        return [p for (p,) in self.conn.execute(sql)]

    def one_generic_child(self) -> list[str]:
        """The files declaring one type, which derives from a generic class (`X : Base<Y>`), by
        path: one scan of the types' rows in SQLite (19,135 on UnityCsReference)."""
        sql = (
            "SELECT f.path FROM types t JOIN files f ON f.id = t.file_id GROUP BY t.file_id"
            " HAVING COUNT(*) = 1 AND MAX(t.bases LIKE '%<%') ORDER BY f.path"
        )
        return [p for (p,) in self.conn.execute(sql)]

    def type_kinds(self, path: str) -> set[str]:
        """The kinds of the types a file declares (class, interface, ...), from their rows alone."""
        sql = "SELECT DISTINCT t.kind FROM types t JOIN files f ON f.id = t.file_id WHERE f.path = ?"
        return {k for (k,) in self.conn.execute(sql, (path,))}

    def types_in(self, path: str) -> list[TypeRow]:
        """The types a file declares."""
        return self._type_rows("WHERE f.path = ?", (path,))

    def _type_rows(self, where: str, args: tuple) -> list[TypeRow]:
        columns = "qualified, t.name, t.kind, t.container, t.bases, t.partial, t.test, t.namespace, t.category"
        rows = self.conn.execute(f"{_TYPES.format(columns)} {where} ORDER BY f.path, t.qualified", args)
        return [
            TypeRow(p, q, n, k, c, tuple(json.loads(b)), bool(pa), bool(t), ns, cat)
            for p, q, n, k, c, b, pa, t, ns, cat in rows
        ]

    def file_ids(self) -> dict[str, int]:
        """Every file's row id, which edges and rows are stored by."""
        return dict(self.conn.execute("SELECT path, id FROM files"))

    def outline(self, path: str) -> bytes:
        """A file's stored outline (JSON), for naming its best match; b"[]" if it has none."""
        return self.outlines([path])[path]

    def outlines(self, paths: list[str]) -> dict[str, bytes]:
        """`outline` of each path, in one statement: a query names its ten hits at once."""
        out = dict.fromkeys(paths, b"[]")
        for i in range(0, len(paths), 500):
            chunk = paths[i : i + 500]
            sql = (
                "SELECT f.path, o.outline FROM files f JOIN outlines o ON o.file_id = f.id"
                f" WHERE f.path IN ({','.join('?' * len(chunk))})"
            )
            out.update((path, self.codec.unpack(blob)) for path, blob in self.conn.execute(sql, chunk))
        return out

    def edges_from(self, path: str) -> list[tuple[str, str]]:
        """(path, edge kind) of the files this file points at. Ids are mapped to paths by the
        narrow `files` table in SQL: a process asking about a few files never reads every id."""
        sql = (
            "SELECT f.path, e.kind FROM edges e JOIN files f ON f.id = e.dst"
            " WHERE e.src = (SELECT id FROM files WHERE path = ?)"
        )
        return self.conn.execute(sql, (path,)).fetchall()

    def edges_to(self, path: str, cap: int) -> list[tuple[str, str]] | None:
        """(path, edge kind) of the files pointing at this file; None for more than `cap`
        (known without reading them all: a hub's thousand users are not walked).

        One statement: the file's row first (CROSS JOIN keeps that order), then whether it has
        a user past the cap, asked of the `edges_by_dst` index alone; only a file that is no hub
        has its users read, each costing two more lookups (the edge's kind, the user's path): a
        hub's cap + 1 of them took 0.5-1 ms on UnityCsReference, to be thrown away. A hub gives
        one row of NULLs instead."""
        past_cap = "(SELECT 1 FROM edges u WHERE u.dst = d.id LIMIT 1 OFFSET ?2)"
        sql = (
            "SELECT f.path, e.kind FROM files d CROSS JOIN edges e JOIN files f ON f.id = e.src"
            f" WHERE d.path = ?1 AND e.dst = d.id AND {past_cap} IS NULL"
            f" UNION ALL SELECT NULL, NULL FROM files d WHERE d.path = ?1 AND {past_cap} IS NOT NULL"
        )
        rows = self.conn.execute(sql, (path, cap)).fetchall()
        return None if rows and rows[0][0] is None else rows

    def categories(self) -> dict[str, str]:
        """ "path::Qualified.Type" -> Unity role of every declared type."""
        return {f"{p}::{q}": c for p, q, c in self.conn.execute(_TYPES.format("qualified, t.category"))}

    def categories_of(self, path: str) -> dict[str, str]:
        """Qualified type -> Unity role, for the types one file declares."""
        sql = "SELECT t.qualified, t.category FROM files f JOIN types t ON t.file_id = f.id WHERE f.path = ?"
        return dict(self.conn.execute(sql, (path,)))

    def type_rows_of(self, path: str) -> list[tuple]:
        """The stored type rows of one file, as `rows.type_rows` makes them (path first), by line."""
        columns = "qualified, t.line, t.name, t.kind, t.container, t.bases, t.partial, t.test, t.namespace, t.category"
        sql = f"{_TYPES.format(columns)} WHERE f.path = ? ORDER BY t.line, t.qualified"
        return self.conn.execute(sql, (path,)).fetchall()

    def script_types(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT path, main_type FROM files WHERE main_type != '' ORDER BY path"))

    def verify_rows(self, limit: int = 20) -> list[str]:
        """Rows that disagree with the record they were derived from (a value garbled inside a
        page passes SQLite's own check); [] when every record decodes and matches its rows."""
        from indexer.store.rows import type_rows

        types: dict[int, list[tuple]] = {}
        columns = "qualified, line, name, kind, container, bases, partial, test, namespace"
        for row in self.conn.execute(f"SELECT file_id, {columns} FROM types"):
            types.setdefault(row[0], []).append(row[1:])
        refs = dict(self.conn.execute("SELECT file_id, count(*) FROM refs GROUP BY file_id"))
        problems: list[str] = []
        rows = self.conn.execute(
            "SELECT f.id, f.path, f.kind, f.status, f.size, f.mtime_ns, f.digest, b.record"
            " FROM files f LEFT JOIN blobs b ON b.file_id = f.id"
        )
        for file_id, path, kind, status, size, mtime_ns, digest, blob in rows:
            try:
                rec = self.decode_record(blob, path, size, mtime_ns, digest)
            except GARBLED:
                problems.append(f"records.db: the record of {path} does not decode")
                continue
            if (
                (rec.kind, rec.status) != (kind, status)
                or sorted(t[1:10] for t in type_rows(rec)) != sorted(types.pop(file_id, []))
                or refs.pop(file_id, 0) != len(rec.refs)
            ):
                problems.append(f"records.db: the rows of {path} disagree with its record")
            if len(problems) >= limit:
                return problems
        problems += [f"records.db: type rows of file id {i}, which has no record" for i in sorted(types)[:limit]]
        problems += [f"records.db: references of file id {i}, which has no record" for i in sorted(refs)[:limit]]
        return problems[:limit]

    def generation(self) -> int:
        row = self.conn.execute("SELECT value FROM header WHERE key = 'generation'").fetchone()
        return int(row[0]) if row else 0
