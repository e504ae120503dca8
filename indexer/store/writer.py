"""Applying one batch of changes to the index: records, search documents, commit."""

from __future__ import annotations

import sqlite3

import msgspec
import tantivy

from indexer.model import SCHEMA_VERSION, FileRecord, Symbol
from indexer.store.header import write_header
from indexer.store.reader import GARBLED, Records, record_decoder, record_encoder
from indexer.store.rows import Prepared, RefsOnly, prepare, simple_name, stored_guid, type_shape, visible_name
from indexer.store.schema import LISTING_KINDS, REF_TARGET, REFS, SQL_INDEXES, SQL_TABLES, IndexPaths, build_schema
from indexer.unity import SHADER_FILE_KINDS, SHADER_SUFFIXES, asset_keys, scene_keys

_doc_decoder = msgspec.msgpack.Decoder(dict[str, str])
# Search documents carried from commit to commit (Writer.commit); past this many, tantivy is left
# to merge them into the rest (one merge of the whole index, about a second at 8,000 files).
DELTA_CAP = 64
BULK_FILES = 500  # a rebuild inserts its rows this many files at a time
_INSERT = {
    "files": "INSERT INTO files VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "blobs": "INSERT INTO blobs VALUES (?, ?)",
    "guids": "INSERT INTO guids VALUES (?, ?)",
    "types": "INSERT INTO types VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "refs": "INSERT INTO refs VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    "outlines": "INSERT INTO outlines VALUES (?, ?)",
}
# A rebuild keeps its references in a temporary table like `refs` until its rows are in, then
# copies it whole: SQLite copies a table into an empty one of the same shape page by page in key
# order (its "transfer optimization"), which fills the pages; rows inserted one by one in file
# order leave an eighth of them empty, in key order too.
_STAGED_REFS = REFS.replace("CREATE TABLE IF NOT EXISTS refs", "CREATE TEMP TABLE staged_refs")
_refs_decoder = msgspec.msgpack.Decoder(RefsOnly)


class Writer(Records):
    """Applies one batch of changes: delete-then-add by path, tantivy commit, then records commit."""

    def __init__(self, paths: IndexPaths, rebuild: bool, base_generation: int = 0, checked_ns: int = 0):
        """`paths`: pinned to the generation folder written (for a rebuild, a new empty one:
        `generations.new_generation`); `base_generation`: the header's generation, which the
        first commit of a rebuild continues from (readers notice a change by the number);
        `checked_ns`: a time before the files written were looked at (`Change.checked_ns`), kept
        with each stat written (`files.racily_clean`)."""
        assert paths.data is not None, "a writer works on one generation folder"
        self.paths = paths
        self.checked_ns = checked_ns
        self.base_generation = base_generation
        paths.tantivy.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(paths.records, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA cache_size=-32000")  # 32 MB: a rebuild's indexes are sorted in memory
        conn.executescript(SQL_TABLES)
        # A rebuild writes into an empty store and makes the indexes once its rows are in
        # (`index_tables`); until then it reads nothing back, so nothing needs them.
        self.bulk = rebuild and conn.execute("SELECT 1 FROM files LIMIT 1").fetchone() is None
        if not self.bulk:
            conn.executescript(SQL_INDEXES)
        conn.execute("BEGIN IMMEDIATE")
        if self.bulk:
            conn.execute(_STAGED_REFS)
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
        self.changed_keys: set[str] = set()  # names code loads assets by, gained or lost (unity.asset_keys)
        self._batch: set[str] = set()  # paths whose search document this batch wrote or deleted
        # The documents of the data assets with references this batch wrote: build/listed.py adds
        # the names they list once every GUID resolves.
        self.listing_docs: dict[str, dict[str, str]] = {}
        # Those not added yet: each is added once, with its names (`redocument`), as a document
        # added twice leaves the first in the index, deleted, until a merge
        self.deferred: set[str] = set()
        self._rows: dict[str, list[tuple]] = {table: [] for table in _INSERT}  # not inserted yet
        self._next_id = 1  # a rebuild's next file id (its store is empty)

    def _tantivy(self) -> tantivy.IndexWriter:
        """Opened on first use, so worker processes can be forked before its threads exist.

        A commit that failed (a full disk) leaves the files it wrote before meta.json, among them
        `<segment>.<opstamp>.del`; the next commit has the same opstamp and tantivy refuses to
        overwrite that file, so every later update would fail. The garbage collection drops
        whatever meta.json does not name (what readers use is all named there)."""
        if self._writer is None:
            self._index = tantivy.Index(self.schema, path=str(self.paths.tantivy), reuse=True)
            self._writer = self._index.writer(heap_size=64_000_000, num_threads=1)
            self._writer.garbage_collect_files()
        return self._writer

    def index_tables(self) -> None:
        """Make the indexes a rebuild left out while its rows went in (before anything reads)."""
        self._flush()
        if self.bulk:  # statement by statement: executescript would commit the batch first
            self.conn.execute("INSERT INTO main.refs SELECT * FROM temp.staged_refs")
            self.conn.execute("DROP TABLE staged_refs")
            for statement in SQL_INDEXES.split(";"):
                if statement.strip():
                    self.conn.execute(statement)
            self.bulk = False

    def put(self, rec: FileRecord, doc: dict[str, str] | None) -> None:
        """Store a file's record (replacing what was there) and its search document, if any."""
        self.put_prepared(prepare(rec, doc))

    def put_prepared(self, p: Prepared) -> None:
        """`put` of the rows a scanner process prepared (`rows.prepare`)."""
        if p.doc is not None and p.kind in LISTING_KINDS and p.refs:
            self.listing_docs[p.path] = p.doc
            self.deferred.add(p.path)
        if self.bulk:  # nothing stored yet: nothing to replace, compare or carry over
            self._insert(p, None, p.types)
            return
        old_types = self._type_shapes(p.path)
        old_guid = self.guid_of_path(p.path[:-5]) if p.kind == "meta" else None
        if not self.rebuild:  # (a rebuild resolves every file's edges anyway)
            # Only a shader's keys come from its content (its declared names): decode just those.
            symbols = ()
            if p.kind in SHADER_FILE_KINDS:
                symbols = record_decoder.decode(self.codec.unpack(p.record) if p.record_packed else p.record).symbols
            self._note_keys(p.path, p.kind, symbols, {(r[5], r[4]) for r in p.refs if r[1] == "address"})
        old_id = self._forget(p.path, keep_edges_in=True)
        if p.kind == "meta" and old_guid != (p.guid or None):
            self.changed_guids.update(g for g in (old_guid, p.guid) if g)
        if old_id is None and p.kind != "meta":
            self.changed_guids.add(self.guid_of_path(p.path) or "")
        self.dirty.add(p.path)
        new_types = sorted(p.types, key=lambda t: (t[2], t[1]))
        if [type_shape(t) for t in new_types] == [shape for shape, _, _ in old_types]:
            # Same declarations as before: their roles cannot have changed, keep them.
            new_types = [(*t[:-1], cat) for t, (_, _, cat) in zip(new_types, old_types, strict=True)]
        elif new_types or old_types:
            self.types_changed = True
            before, after = {v for _, v, _ in old_types}, {visible_name(t) for t in new_types}
            self.changed_names.update(name for name, _, _ in before ^ after)
        self._insert(p, old_id, new_types)
        if p.doc is not None and not self.rebuild:
            self.conn.execute("INSERT OR REPLACE INTO delta_docs VALUES (?, ?)", (p.path, record_encoder.encode(p.doc)))
        self._batch.add(p.path)

    def _insert(self, p: Prepared, old_id: int | None, types: list) -> None:
        """The rows and the search document of one file, none of which are stored now. A rebuild
        numbers the files itself and inserts rows in batches (`BULK_FILES`), one statement per
        table; an incremental writer inserts at once (what it writes next may read them back)."""
        row = (p.path, p.kind, p.status, p.size, p.mtime_ns, bytes.fromhex(p.digest), p.main_type, self.checked_ns)
        if self.bulk:
            file_id = self._next_id
            self._next_id += 1
            self._rows["files"].append((file_id, *row))
        else:  # old_id kept: edges from other files into this one stay valid
            file_id = self.conn.execute(_INSERT["files"], (old_id, *row)).lastrowid
        rows = self._rows
        rows["blobs"].append((file_id, p.record if p.record_packed else self.codec.pack(p.kind, p.record)))
        if p.guid:
            rows["guids"].append((file_id, stored_guid(p.guid)))
        rows["types"] += [(file_id, *t[1:]) for t in types]
        rows["refs"] += [
            (kind, key, file_id, seq, line, "" if target == key else target, context, detail)
            for seq, (line, kind, target, context, detail, key) in enumerate(p.refs)
        ]
        writer = self._tantivy()
        if not self.bulk:
            writer.delete_documents_by_term("path", p.path)
        if p.doc is not None:
            if p.outline:
                outline = p.outline if p.outline_packed else self.codec.pack("outline:" + p.kind, p.outline)
                rows["outlines"].append((file_id, outline))
            if p.path not in self.deferred:
                writer.add_document(tantivy.Document.from_dict(p.doc, self.schema))
        if not self.bulk or len(rows["files"]) >= BULK_FILES:
            self._flush()

    def redocument(self, path: str, doc: dict[str, str]) -> None:
        """Write the search document of a file whose record is stored, with the names it lists
        (build/listed.py): the first write of a document this batch held back (`deferred`: its
        old one, if any, deleted when the record was put), else a replacement; an incremental
        writer carries it like any document it wrote (`_carry_delta`)."""
        writer = self._tantivy()
        if path in self.deferred:  # this batch's first write of it
            self.deferred.discard(path)
        else:
            writer.delete_documents_by_term("path", path)
        writer.add_document(tantivy.Document.from_dict(doc, self.schema))
        if not self.rebuild:
            self.conn.execute("INSERT OR REPLACE INTO delta_docs VALUES (?, ?)", (path, record_encoder.encode(doc)))
        self._batch.add(path)

    def _flush(self) -> None:
        """Insert the rows kept for a batch."""
        for table, rows in self._rows.items():
            if rows:
                sql = _INSERT[table]
                if table == "refs" and self.bulk:
                    sql = sql.replace("INTO refs", "INTO staged_refs")
                self.conn.executemany(sql, rows)
                rows.clear()

    def update_stat(self, path: str, size: int, mtime_ns: int) -> None:
        """Content unchanged, stat changed: remember the new stat without rescanning."""
        sql = "UPDATE files SET size = ?, mtime_ns = ?, checked_ns = ? WHERE path = ?"
        self.conn.execute(sql, (size, mtime_ns, self.checked_ns, path))

    def mark_checked(self, paths: list[str]) -> None:
        """Racily clean files whose content was found unchanged since their stat settled
        (`Change.settled`): their stat is trusted from now on, they are not read again."""
        self.conn.executemany("UPDATE files SET checked_ns = ? WHERE path = ?", [(self.checked_ns, p) for p in paths])

    def _note_keys(
        self, path: str, kind: str, symbols: tuple[Symbol, ...], addresses: set[tuple[str, str]] = frozenset()
    ) -> None:
        """The load keys a put (of a file of `kind` declaring `symbols`, giving `addresses`: the
        (name, asset GUID) of an Addressables group's address and labels) or a delete (kind "")
        changes: a Resources file's path, a shader's names before and after, a scene's name and
        paths, the names a group gives or gave to another asset than before."""
        if self.rebuild:
            return
        keys = asset_keys(path, kind, symbols) | scene_keys(path)
        if path.endswith(SHADER_SUFFIXES) and (old := self.record(path)) is not None:
            keys ^= asset_keys(path, old.kind, old.symbols)
        if addresses or path.lower().endswith(".asset"):  # a group is an asset: others skip a scan of `refs`
            sql = "SELECT r.key, r.detail FROM refs r JOIN files f ON f.id = r.file_id"
            sql += " WHERE r.kind = 'address' AND f.path = ?"  # (`refs` has no index by file: every address row)
            keys.update(name for name, _ in set(self.conn.execute(sql, (path,))) ^ addresses)
        self.changed_keys.update(keys)

    def _type_shapes(self, path: str) -> list[tuple[tuple, tuple, str]]:
        return [(type_shape(r), visible_name(r), r[-1]) for r in self.type_rows_of(path)]

    def delete(self, path: str) -> None:
        old_types = self._type_shapes(path)
        if old_types:
            self.types_changed = True
            self.changed_names.update(name for _, (name, _, _), _ in old_types)
        self.changed_guids.add(self.guid_of_path(path[:-5] if path.endswith(".meta") else path) or "")
        self._note_keys(path, "", ())
        self.dirty.add(path)
        self._batch.add(path)
        self.listing_docs.pop(path, None)
        self.deferred.discard(path)
        self._forget(path, keep_edges_in=False)
        self._tantivy().delete_documents_by_term("path", path)

    def _forget(self, path: str, keep_edges_in: bool) -> int | None:
        """Drop what is stored of a file; returns its row id (None if it had none)."""
        c = self.conn
        row = c.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchone()
        if row is None:
            return None
        self._forget_refs(row[0])
        c.execute("DELETE FROM outlines WHERE file_id = ?", row)
        c.execute("DELETE FROM delta_docs WHERE path = ?", (path,))
        c.execute("DELETE FROM edges WHERE src = ?", row)
        if not keep_edges_in:
            c.execute("DELETE FROM edges WHERE dst = ?", row)
        c.execute("DELETE FROM files WHERE id = ?", row)
        c.execute("DELETE FROM blobs WHERE file_id = ?", row)
        c.execute("DELETE FROM guids WHERE meta_id = ?", row)
        c.execute("DELETE FROM types WHERE file_id = ?", row)
        return row[0]

    def _forget_refs(self, file_id: int) -> None:
        """Delete a file's references by the keys its record names (`refs` is ordered by key:
        there is no index by file); a record that does not decode costs a scan of the table."""
        row = self.conn.execute("SELECT record FROM blobs WHERE file_id = ?", (file_id,)).fetchone()
        try:
            refs = _refs_decoder.decode(self.codec.unpack(row[0])).refs
        except GARBLED:
            self.conn.execute("DELETE FROM refs WHERE file_id = ?", (file_id,))
            return
        keys = {(r.kind, simple_name(r.kind, r.target)) for r in refs}
        sql = "DELETE FROM refs WHERE kind = ? AND key = ? AND file_id = ?"
        self.conn.executemany(sql, ((kind, key, file_id) for kind, key in keys))

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

    def referrers(self, names: set[str], guids: set[str], loads: set[str] = frozenset()) -> set[str]:
        """Files whose references name one of these types (by simple name), GUIDs or load keys:
        the files whose resolved edges a change to those declarations can move."""
        out: set[str] = set()
        users = "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE "
        keys = [("type", n) for n in names] + [(k, g) for g in guids for k in ("guid", "script", "prefab")]
        if guids:  # an asset an Addressables group names, moved, added or deleted: the names it is loaded by
            marks = ",".join("?" * len(guids))
            sql = f"SELECT DISTINCT key FROM refs WHERE kind = 'address' AND detail IN ({marks})"
            loads = {*loads, *(k for (k,) in self.conn.execute(sql, sorted(guids)))}
        keys += [("string", k) for k in loads]
        for kind, key in keys:  # (the key of a GUID or a literal is the whole target)
            out.update(p for (p,) in self.conn.execute(users + "r.kind = ? AND r.key = ?", (kind, key)))
        sql = users + f"r.kind = 'method' AND {REF_TARGET} > ? AND {REF_TARGET} < ?"
        for g in guids:  # UnityEvents naming a method by script GUID, "script:<guid>.Method", or on
            for span in ((f"script:{g}.", f"script:{g}/"), (f"object:{g}:", f"object:{g};")):  # an object
                out.update(p for (p,) in self.conn.execute(sql, span))  # of the file, "object:<guid>:<id>.M"
        if names:  # UnityEvents naming their target's type, or its script (whose class's parts are edges)
            sql = f"SELECT f.path, {REF_TARGET} FROM refs r JOIN files f ON f.id = r.file_id WHERE r.kind = 'method'"
            declared: dict[str, set[str]] = {}  # script GUID -> the simple names its file declares
            for p, target in self.conn.execute(sql):
                owner = target.rpartition(".")[0]
                if owner.startswith("script:"):
                    guid = owner[7:]
                    if guid not in declared:
                        script = self.path_of_guid(guid)
                        names_of = "SELECT t.name FROM types t JOIN files f ON f.id = t.file_id WHERE f.path = ?"
                        declared[guid] = {n for (n,) in self.conn.execute(names_of, (script,))} if script else set()
                    if declared[guid] & names:
                        out.add(p)
                elif owner.rsplit(".", 1)[-1] in names:
                    out.add(p)
        return out

    def set_categories(self, categories: dict[tuple[str, str], str]) -> None:
        ids = self.file_ids()
        self.conn.executemany(
            "UPDATE types SET category = ? WHERE file_id = ? AND qualified = ? AND category != ?",
            ((cat, ids[p], q, cat) for (p, q), cat in categories.items()),
        )

    def commit(self) -> int:
        """Make the batch visible, then let tantivy finish the segment merges it started; returns
        the new generation.

        Readers see the batch before the merge wait: below ~17,000 documents tantivy's merge
        policy puts every segment in one level and merges them all every seventh commit (about a
        second at 8,000 files), which must not delay the answer. The wait itself is needed: a
        writer dropped mid-merge abandons it, and segments would pile up."""
        self.index_tables()
        for path in sorted(self.deferred):  # (none after build/listed.py: every one is re-resolved)
            self.redocument(path, self.listing_docs[path])
        if self._writer is not None:
            if not self.rebuild:
                self._carry_delta(self._writer)
            self._writer.commit()
        generation = max(self.generation(), self.base_generation) + 1
        self.conn.execute("INSERT OR REPLACE INTO header VALUES ('generation', ?)", (str(generation),))
        self.conn.execute("INSERT OR REPLACE INTO header VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        # Order: full text, records, header. A kill between two steps leaves records no newer than
        # the full text (the next update rescans what they lack) and a header no newer than the
        # records (`generations.recover` raises it); for a rebuild, the header is the switch.
        self.conn.execute("COMMIT")
        write_header(self.paths, generation)
        if self._writer is not None:
            writer, self._writer = self._writer, None  # consumed by the wait, even if it fails
            writer.wait_merging_threads()
        return generation

    def commit_stats(self) -> int:
        """Commit a batch that changed files' stats only (a touch: the content hashed and found the
        same; racily clean records settled), keeping the generation: no answer changed, so readers
        and the caches they keep per generation stay, and nobody is told of a change that is none.
        Returns the generation, the header's; a batch that wrote content is committed by `commit`
        (a new generation), whatever its caller counted (not an assert: `python -O` drops those)."""
        if self._writer is not None or self.dirty:
            return self.commit()
        self.conn.execute("COMMIT")
        return self.base_generation

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

    def close(self) -> None:
        """The tantivy writer goes with the store: it holds the index's lock while it lives, and an
        update killed mid-way (its traceback keeping this object) left the next one `LockBusy`."""
        self._writer = self._index = None
        super().close()
