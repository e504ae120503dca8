"""The index on disk: a tantivy full-text index plus a record store, under one folder.

Layout of the index folder (default `<project>/Library/UnityIndex/`):
  tantivy/     one full-text document per searchable file (fields below)
  records.db   SQLite (stdlib): one row per file holding its msgspec-encoded FileRecord, plus the
               tables the reference graph is queried through (GUIDs, types, references) and the
               file-to-file edges resolved from them (kept current by `adjacency`)
  index.json   {"schema_version", "generation"}: read first, so a reader never opens an index
               written by another version
  write.lock   flock()ed by the one writer; the kernel frees it when the writer dies

Why SQLite around msgspec records: a one-file update must not rewrite or re-decode the records of
every other file (an 8,000-script project's records are 80 MB), and a no-op update needs only
(path, size, mtime) of each file. Rows give both, with crash-safe transactions for free.

Every update deletes a file's document by path before adding it again, commits tantivy, then
commits the records; an update interrupted anywhere leaves records no newer than the full-text
index, and the next update rescans whatever the records do not know, so the two converge.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import msgspec
import tantivy

from indexer.model import SCHEMA_VERSION, TYPE_KINDS, FileRecord

TEXT_TOKENIZER = "en_stem"

# Searchable fields and their default boosts: names of declared types over member names over the
# path over declarations and attributes over the whole text.
FIELD_BOOSTS: dict[str, float] = {
    "types": 4.0,
    "members": 2.5,
    "path_text": 2.0,
    "decl": 1.2,
    "body": 2.0,
}

_SQL_SCHEMA = """
CREATE TABLE IF NOT EXISTS header (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    digest TEXT NOT NULL,
    main_type TEXT NOT NULL,  -- C#: the class Unity binds the script to (named like the file)
    scope TEXT NOT NULL,      -- C#: JSON [namespaces, usings], for resolving the names it writes
    record BLOB NOT NULL      -- msgspec msgpack FileRecord
);
-- Covering indexes: the no-op check reads every file's stat, status counts and kinds, none of
-- which should have to page through the records stored beside them.
CREATE INDEX IF NOT EXISTS files_stat ON files(path, kind, size, mtime_ns, digest, status);
CREATE INDEX IF NOT EXISTS files_by_status ON files(status);
CREATE INDEX IF NOT EXISTS files_by_kind ON files(kind, path);
CREATE TABLE IF NOT EXISTS guids (
    meta_path TEXT PRIMARY KEY,
    guid TEXT NOT NULL,
    path TEXT NOT NULL        -- the asset or folder the .meta describes
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS guids_by_guid ON guids(guid);
CREATE INDEX IF NOT EXISTS guids_by_path ON guids(path);
CREATE TABLE IF NOT EXISTS types (
    path TEXT NOT NULL,
    qualified TEXT NOT NULL,
    line INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    container TEXT NOT NULL,
    bases TEXT NOT NULL,      -- JSON list, as written
    partial INTEGER NOT NULL,
    test INTEGER NOT NULL,    -- NUnit attributes on the type or its methods
    namespace TEXT NOT NULL,  -- the container minus outer types
    category TEXT NOT NULL,   -- derived: monobehaviour, scriptableobject, editor, ..., class
    PRIMARY KEY (path, qualified, line)  -- Foo and Foo<T>, or partial parts, share a name
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS types_by_name ON types(name);
CREATE TABLE IF NOT EXISTS refs (
    file_id INTEGER NOT NULL,  -- files.id of the file holding the reference
    line INTEGER NOT NULL,
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    context TEXT NOT NULL,
    detail TEXT NOT NULL,
    simple TEXT NOT NULL       -- the target's last name: `Health` of `Game.Health`, `Heal` of `X.Heal`
);
CREATE INDEX IF NOT EXISTS refs_by_target ON refs(target);
CREATE INDEX IF NOT EXISTS refs_by_simple ON refs(simple);
CREATE INDEX IF NOT EXISTS refs_by_file ON refs(file_id);
CREATE TABLE IF NOT EXISTS edges (
    src INTEGER NOT NULL,      -- files.id of the file that points
    dst INTEGER NOT NULL,      -- files.id of the file it points at
    kind TEXT NOT NULL,        -- base, type, script, prefab, asset, unity_event (graph.EDGE_KINDS)
    PRIMARY KEY (src, dst)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS edges_by_dst ON edges(dst);
CREATE TABLE IF NOT EXISTS delta_docs (  -- search documents written since the last rebuild (see Writer.commit)
    path TEXT PRIMARY KEY,
    doc BLOB NOT NULL         -- msgpack of the document's fields
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS outlines (
    file_id INTEGER PRIMARY KEY,  -- files.id
    outline BLOB NOT NULL         -- JSON [line, kind, qualified, signature] per declaration
);
"""

TEST_ATTRIBUTES = frozenset({"TestFixture", "Test", "UnityTest", "TestCase", "TestCaseSource"})


class IndexMissing(Exception):
    """No usable index: never built, or built by another schema version."""


class IndexBusy(Exception):
    """Another process holds the writer lock."""


def build_schema() -> tantivy.Schema:
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("path", stored=True, tokenizer_name="raw")
    sb.add_text_field("kind", stored=True, tokenizer_name="raw")
    for name in FIELD_BOOSTS:
        # Frequencies without positions: no phrase queries are made, and the index is 3x smaller.
        sb.add_text_field(name, stored=False, tokenizer_name=TEXT_TOKENIZER, index_option="freq")
    # Nothing else is stored: tantivy merges all segments of an index below ~17,000 documents
    # every seventh commit, so its size is the cost of a one-file update every seventh time
    # (outlines live in the `outlines` table instead).
    return sb.build()


class IndexPaths:
    def __init__(self, index_dir: Path):
        self.root = index_dir
        self.tantivy = index_dir / "tantivy"
        self.records = index_dir / "records.db"
        self.header = index_dir / "index.json"
        self.lock = index_dir / "write.lock"


def read_header(paths: IndexPaths) -> dict | None:
    try:
        return json.loads(paths.header.read_text())
    except (OSError, ValueError):
        return None


def header_generation(paths: IndexPaths) -> int:
    """The last committed generation (0 without an index); cheap: reads index.json only."""
    header = read_header(paths)
    return int(header.get("generation", 0)) if header else 0


def header_ok(paths: IndexPaths) -> bool:
    h = read_header(paths)
    return bool(h) and h.get("schema_version") == SCHEMA_VERSION and paths.tantivy.is_dir() and paths.records.is_file()


def open_search_index(paths: IndexPaths) -> tantivy.Index:
    """A reader's view of the full-text index; fails with IndexMissing rather than misreading."""
    if not header_ok(paths):
        raise IndexMissing(f"no index of this version at {paths.root}")
    return tantivy.Index(build_schema(), path=str(paths.tantivy), reuse=True)


def atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


@contextmanager
def writer_lock(paths: IndexPaths, wait: bool = False) -> Iterator[None]:
    """One writer per index. flock is released by the kernel when its holder dies, so a killed
    indexer never leaves the index locked."""
    paths.root.mkdir(parents=True, exist_ok=True)
    fd = os.open(paths.lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "unknown"
            if not wait:
                raise IndexBusy(
                    f"another unity-index process (pid {holder}) is updating the index at {paths.root}; "
                    "wait for it, or pass --wait"
                ) from None
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(fd)


_record_encoder = msgspec.msgpack.Encoder()
_record_decoder = msgspec.msgpack.Decoder(FileRecord)
_doc_decoder = msgspec.msgpack.Decoder(dict[str, str])
# Search documents carried from commit to commit (Writer.commit); past this many, tantivy is left
# to merge them into the rest (one merge of the whole index, about a second at 8,000 files).
DELTA_CAP = 64


class FileStat(msgspec.Struct, frozen=True, array_like=True):
    kind: str
    size: int
    mtime_ns: int
    digest: str
    status: str


class Scope(msgspec.Struct, frozen=True):
    """What C# name lookup needs of a file: its namespaces and using directives."""

    namespaces: tuple[str, ...]
    usings: tuple[str, ...]


class TypeRow(msgspec.Struct, frozen=True):
    path: str
    qualified: str
    name: str
    kind: str
    container: str
    bases: tuple[str, ...]
    partial: bool
    test: bool
    namespace: str
    category: str


class Records:
    """Read access to the record store. Cheap to open; one per reader (the MCP server keeps one)."""

    def __init__(self, paths: IndexPaths, *, _conn: sqlite3.Connection | None = None):
        if _conn is None:
            if not header_ok(paths):
                raise IndexMissing(f"no index of this version at {paths.root}")
            _conn = sqlite3.connect(f"file:{paths.records}?mode=ro", uri=True, check_same_thread=False)
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
        return _record_decoder.decode(row[0]) if row else None

    def records(self, kind: str | None = None) -> Iterator[FileRecord]:
        if kind is None:
            rows = self.conn.execute("SELECT record FROM files ORDER BY path")
        else:
            rows = self.conn.execute("SELECT record FROM files WHERE kind = ? ORDER BY path", (kind,))
        for (blob,) in rows:
            yield _record_decoder.decode(blob)

    def skipped(self) -> list[tuple[str, str]]:
        out = []
        for (blob,) in self.conn.execute("SELECT record FROM files WHERE status = 'skipped' ORDER BY path"):
            rec = _record_decoder.decode(blob)
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


def _type_rows(rec: FileRecord) -> Iterator[tuple]:
    tested = {s.container for s in rec.symbols if s.kind == "method" and _has_test_attribute(s.attributes)}
    declared = {s.qualified for s in rec.symbols if s.kind in TYPE_KINDS}
    for s in rec.symbols:
        if s.kind in TYPE_KINDS:
            q = s.qualified
            test = _has_test_attribute(s.attributes) or q in tested
            bases = json.dumps(list(s.bases))
            namespace = s.container
            while namespace in declared:  # outer types are declared in the same file
                namespace = namespace.rpartition(".")[0]
            partial = "partial" in s.modifiers
            yield (rec.path, q, s.line, s.name, s.kind, s.container, bases, partial, test, namespace, s.kind)


def _shape(row: tuple) -> tuple:
    """What a type row's role depends on: all but its line and its role."""
    return (row[0], row[1], *row[3:10])


def _visible(row: tuple) -> tuple:
    """What name resolution in other files sees of a type row: name, qualified name, namespace."""
    return (row[3], row[1], row[9])


def _has_test_attribute(attributes: Iterable[str]) -> bool:
    for a in attributes:
        name = a.split("(", 1)[0].strip().rsplit(".", 1)[-1]
        if name.endswith("Attribute"):
            name = name[:-9]
        if name in TEST_ATTRIBUTES:
            return True
    return False


def simple_name(kind: str, target: str) -> str:
    """The last name of a reference target, for lookups by name: `A.B.Heal` -> `Heal`,
    `Shaders/Common.hlsl` -> `Common.hlsl`; GUIDs and assembly names stay whole."""
    if kind == "include":
        return target.rsplit("/", 1)[-1]
    if kind in ("type", "method"):
        return target.rsplit(".", 1)[-1]
    return target


def main_type(rec: FileRecord) -> str:
    """The class Unity binds a script asset to: the top-level type named like the file."""
    stem = os.path.splitext(os.path.basename(rec.path))[0]
    for s in rec.symbols:
        if s.kind in TYPE_KINDS and s.name == stem:
            return s.qualified
    return ""


class Writer(Records):
    """Applies one batch of changes: delete-then-add by path, tantivy commit, then records commit."""

    def __init__(self, paths: IndexPaths, rebuild: bool):
        self.paths = paths
        if rebuild or not header_ok(paths):
            paths.header.unlink(missing_ok=True)
            shutil.rmtree(paths.tantivy, ignore_errors=True)
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(str(paths.records) + suffix).unlink(missing_ok=True)
        paths.tantivy.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(paths.records, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.executescript(_SQL_SCHEMA)
        conn.execute("BEGIN IMMEDIATE")
        super().__init__(paths, _conn=conn)
        self.schema = build_schema()
        self._index: tantivy.Index | None = None
        self._writer: tantivy.IndexWriter | None = None
        self.rebuild = rebuild
        self.types_changed = rebuild  # whether type roles must be derived again before commit
        # What this batch changed that other files' edges may depend on (see adjacency).
        self.dirty: set[str] = set()  # files put or deleted
        self.changed_names: set[str] = set()  # simple names of types declared, removed or moved
        self.changed_guids: set[str] = set()  # GUIDs that now lead to another file, or to none
        self._batch: set[str] = set()  # paths whose search document this batch wrote or deleted

    def _tantivy(self) -> tantivy.IndexWriter:
        """Opened on first use, so worker processes can be forked before its threads exist."""
        if self._writer is None:
            self._index = tantivy.Index(self.schema, path=str(self.paths.tantivy), reuse=True)
            self._writer = self._index.writer(heap_size=64_000_000, num_threads=1)
        return self._writer

    def put(self, rec: FileRecord, doc: dict[str, str] | None) -> None:
        """Store a file's record (replacing what was there) and its search document, if any."""
        old_types = self._type_shapes(rec.path)
        old_guid = self.guid_of_path(rec.path[:-5]) if rec.kind == "meta" else None
        old_id = self._forget(rec.path, keep_edges_in=True)
        c = self.conn
        cur = c.execute(
            "INSERT INTO files (id, path, kind, status, size, mtime_ns, digest, main_type, scope, record)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                old_id,  # kept: edges from other files into this one stay valid
                rec.path,
                rec.kind,
                rec.status,
                rec.size,
                rec.mtime_ns,
                rec.digest,
                main_type(rec),
                json.dumps([list(rec.namespaces), list(rec.usings)]) if rec.kind == "csharp" else "",
                _record_encoder.encode(rec),
            ),
        )
        if rec.kind == "meta" and rec.guid:
            c.execute("INSERT INTO guids VALUES (?, ?, ?)", (rec.path, rec.guid, rec.path[:-5]))
        if rec.kind == "meta" and old_guid != (rec.guid or None):
            self.changed_guids.update(g for g in (old_guid, rec.guid) if g)
        if old_id is None and rec.kind != "meta":
            self.changed_guids.add(self.guid_of_path(rec.path) or "")
        self.dirty.add(rec.path)
        new_types = sorted(_type_rows(rec), key=lambda t: (t[2], t[1]))
        if [_shape(t) for t in new_types] == [shape for shape, _, _ in old_types]:
            # Same declarations as before: their roles cannot have changed, keep them.
            new_types = [(*t[:-1], cat) for t, (_, _, cat) in zip(new_types, old_types, strict=True)]
        elif new_types or old_types:
            self.types_changed = True
            before, after = {v for _, v, _ in old_types}, {_visible(t) for t in new_types}
            self.changed_names.update(name for name, _, _ in before ^ after)
        c.executemany("INSERT INTO types VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", new_types)
        if rec.refs:
            file_id = cur.lastrowid
            c.executemany(
                "INSERT INTO refs VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    (file_id, r.line, r.kind, r.target, r.context, r.detail, simple_name(r.kind, r.target))
                    for r in rec.refs
                ),
            )
        writer = self._tantivy()
        writer.delete_documents_by_term("path", rec.path)
        if doc is not None:
            outline = doc.get("outline", "")
            if outline:
                c.execute("INSERT INTO outlines VALUES (?, ?)", (cur.lastrowid, outline.encode()))
            fields = {k: v for k, v in doc.items() if k != "outline"}
            writer.add_document(tantivy.Document.from_dict(fields, self.schema))
            if not self.rebuild:
                c.execute("INSERT OR REPLACE INTO delta_docs VALUES (?, ?)", (rec.path, _record_encoder.encode(fields)))
        self._batch.add(rec.path)

    def update_stat(self, path: str, size: int, mtime_ns: int) -> None:
        """Content unchanged, stat changed: remember the new stat without rescanning."""
        rec = self.record(path)
        if rec is None:
            return
        rec = msgspec.structs.replace(rec, size=size, mtime_ns=mtime_ns)
        self.conn.execute(
            "UPDATE files SET size = ?, mtime_ns = ?, record = ? WHERE path = ?",
            (size, mtime_ns, _record_encoder.encode(rec), path),
        )

    def _type_shapes(self, path: str) -> list[tuple[tuple, tuple, str]]:
        rows = self.conn.execute("SELECT * FROM types WHERE path = ? ORDER BY line, qualified", (path,))
        return [(_shape(r), _visible(r), r[-1]) for r in rows]

    def delete(self, path: str) -> None:
        old_types = self._type_shapes(path)
        if old_types:
            self.types_changed = True
            self.changed_names.update(name for _, (name, _, _), _ in old_types)
        self.changed_guids.add(self.guid_of_path(path[:-5] if path.endswith(".meta") else path) or "")
        self.dirty.add(path)
        self._batch.add(path)
        self._forget(path, keep_edges_in=False)
        self._tantivy().delete_documents_by_term("path", path)

    def _forget(self, path: str, keep_edges_in: bool) -> int | None:
        """Drop what is stored of a file; returns its row id (None if it had none)."""
        c = self.conn
        row = c.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchone()
        if row is None:
            return None
        c.execute("DELETE FROM refs WHERE file_id = ?", row)
        c.execute("DELETE FROM outlines WHERE file_id = ?", row)
        c.execute("DELETE FROM delta_docs WHERE path = ?", (path,))
        c.execute("DELETE FROM edges WHERE src = ?", row)
        if not keep_edges_in:
            c.execute("DELETE FROM edges WHERE dst = ?", row)
        c.execute("DELETE FROM files WHERE id = ?", row)
        c.execute("DELETE FROM guids WHERE meta_path = ?", (path,))
        c.execute("DELETE FROM types WHERE path = ?", (path,))
        return row[0]

    def set_edges(self, edges: dict[str, list[tuple[str, str]]]) -> None:
        """Replace the edges leaving each file in `edges`; edges to files without a record are
        not kept (an edge names two rows)."""
        if len(edges) > 1000:
            ids = dict(self.conn.execute("SELECT path, id FROM files"))
        else:
            wanted = sorted({*edges, *(p for out in edges.values() for p, _ in out)})
            ids = {}
            for i in range(0, len(wanted), 500):
                chunk = wanted[i : i + 500]
                marks = ",".join("?" * len(chunk))
                ids.update(self.conn.execute(f"SELECT path, id FROM files WHERE path IN ({marks})", chunk))
        sources = [(ids[src],) for src in edges if src in ids]
        self.conn.executemany("DELETE FROM edges WHERE src = ?", sources)
        self.conn.executemany(
            "INSERT OR IGNORE INTO edges VALUES (?, ?, ?)",
            ((ids[src], ids[p], k) for src, out in edges.items() if src in ids for p, k in out if p in ids),
        )

    def referrers(self, names: set[str], guids: set[str]) -> set[str]:
        """Files whose references name one of these types (by simple name) or GUIDs: the files
        whose resolved edges a change to those declarations can move."""
        out: set[str] = set()
        users = "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE "
        keys = [("type", n) for n in names] + [(k, g) for g in guids for k in ("guid", "script", "prefab")]
        for kind, key in keys:
            column = "simple" if kind == "type" else "target"
            out.update(p for (p,) in self.conn.execute(users + f"r.{column} = ? AND r.kind = ?", (key, kind)))
        for g in guids:  # UnityEvents naming a method by script GUID: target "script:<guid>.Method"
            span = (f"script:{g}.", f"script:{g}/")
            out.update(p for (p,) in self.conn.execute(users + "r.target > ? AND r.target < ?", span))
        if names:  # UnityEvents naming their target type (rare): checked by the owner's last name
            sql = "SELECT f.path, r.target FROM refs r JOIN files f ON f.id = r.file_id WHERE r.kind = 'method'"
            for p, target in self.conn.execute(sql):
                owner = target.rpartition(".")[0]
                if not owner.startswith("script:") and owner.rsplit(".", 1)[-1] in names:
                    out.add(p)
        return out

    def set_categories(self, categories: dict[tuple[str, str], str]) -> None:
        self.conn.executemany(
            "UPDATE types SET category = ? WHERE path = ? AND qualified = ? AND category != ?",
            ((cat, p, q, cat) for (p, q), cat in categories.items()),
        )

    def commit(self) -> int:
        """Make the batch visible, then let tantivy finish the segment merges it started; returns
        the new generation.

        Readers see the batch before the merge wait: below ~17,000 documents tantivy's merge
        policy puts every segment in one level and merges them all every seventh commit (about a
        second at 8,000 files), which must not delay the answer. The wait itself is needed: a
        writer dropped mid-merge abandons it, and segments would pile up."""
        if self._writer is not None:
            if not self.rebuild:
                self._carry_delta(self._writer)
            self._writer.commit()
        generation = self.generation() + 1
        self.conn.execute("INSERT OR REPLACE INTO header VALUES ('generation', ?)", (str(generation),))
        self.conn.execute("INSERT OR REPLACE INTO header VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        self.conn.execute("COMMIT")
        header = {"schema_version": SCHEMA_VERSION, "generation": generation, "written_at": time.time()}
        atomic_write(self.paths.header, json.dumps(header).encode())
        if self._writer is not None:
            writer, self._writer = self._writer, None  # consumed by the wait, even if it fails
            writer.wait_merging_threads()
        return generation

    def _carry_delta(self, writer: tantivy.IndexWriter) -> None:
        """Write every document changed since the last rebuild again, into this commit's segment.

        Each commit adds a segment, and below ~17,000 documents tantivy's merge policy (not
        configurable from Python) merges all segments into one every seventh commit: a second of
        a one-file update at 8,000 files. Rewritten here, the previous commit's small segment
        holds only deleted documents and is dropped, so an index keeps its rebuild's segments
        plus one, and small updates stay small. Past DELTA_CAP documents tantivy merges as usual."""
        rows = self.conn.execute("SELECT path, doc FROM delta_docs").fetchall()
        if len(rows) > DELTA_CAP:
            self.conn.execute("DELETE FROM delta_docs")
            return
        for path, blob in rows:
            if path not in self._batch:
                writer.delete_documents_by_term("path", path)
                writer.add_document(tantivy.Document.from_dict(_doc_decoder.decode(blob), self.schema))

    def rollback(self) -> None:
        if self._writer is not None:
            self._writer.rollback()
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")


def search_doc_paths(paths: IndexPaths) -> list[str]:
    """The path of every document in the full-text index (duplicates included)."""
    index = open_search_index(paths)
    searcher = index.searcher()
    n = searcher.num_docs
    if n == 0:
        return []
    found = searcher.search(tantivy.Query.all_query(), n).hits
    return [searcher.doc(addr)["path"][0] for _, addr in found]


def check_consistency(paths: IndexPaths, root: Path, config) -> list[str]:
    """Problems between the header, the record store, the full-text index and the files on disk;
    [] when the index matches the project exactly."""
    from indexer.build.documents import is_searchable
    from indexer.project import walk

    if not header_ok(paths):
        return [f"no usable index at {paths.root}"]
    problems: list[str] = []
    try:
        records = Records(paths)
    except (IndexMissing, sqlite3.DatabaseError) as exc:
        return [f"record store unreadable: {exc}"]
    try:
        known = records.stats()
        gen = records.generation()
        header = read_header(paths) or {}
        if int(header.get("generation", -1)) != gen:
            problems.append(f"header generation {header.get('generation')} != record store generation {gen}")
        guids = {m for (m,) in records.conn.execute("SELECT meta_path FROM guids")}
        dangling = records.conn.execute(
            "SELECT count(*) FROM edges WHERE src NOT IN (SELECT id FROM files) OR dst NOT IN (SELECT id FROM files)"
        ).fetchone()[0]
        if dangling:
            problems.append(f"{dangling} graph edges lead from or to files without a record")
    finally:
        records.close()
    docs = search_doc_paths(paths)
    dup = sorted({p for p in docs if docs.count(p) > 1}) if len(docs) != len(set(docs)) else []
    problems += [f"{p}: several full-text documents" for p in dup]
    expected = {p for p, s in known.items() if is_searchable(s.kind)}
    problems += [f"{p}: recorded but not in the full-text index" for p in sorted(expected - set(docs))]
    problems += [f"{p}: in the full-text index but not recorded" for p in sorted(set(docs) - expected)]
    problems += [f"{p}: GUID row without a record" for p in sorted(guids - set(known))]
    on_disk = dict(walk(root, config))
    problems += [f"{p}: on disk, not recorded" for p in sorted(set(on_disk) - set(known))]
    problems += [f"{p}: recorded, not on disk" for p in sorted(set(known) - set(on_disk))]
    for p, st in on_disk.items():
        k = known.get(p)
        if k is not None and (k.size, k.mtime_ns) != (st.st_size, st.st_mtime_ns):
            problems.append(f"{p}: recorded stat differs from the file")
    return problems
