"""What the index stores: the full-text fields, the SQL tables, which kinds get a search document
and the outline format; the paths of the index folder."""

from __future__ import annotations

from pathlib import Path

import msgspec
import tantivy

from indexer.model import Declared

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

# The references, ordered by what is looked up: no index beside them.
REFS = """CREATE TABLE IF NOT EXISTS refs (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,         -- the last name of the target (rows.simple_name): `Health` of `Game.Health`
    file_id INTEGER NOT NULL,  -- files.id of the file holding the reference
    seq INTEGER NOT NULL,      -- its place in the record's refs
    line INTEGER NOT NULL,
    target TEXT NOT NULL,      -- as written; '' when it is the key itself (REF_TARGET reads it whole)
    context TEXT NOT NULL,
    detail TEXT NOT NULL,
    PRIMARY KEY (kind, key, file_id, seq)
) WITHOUT ROWID"""
SQL_TABLES = (
    """
CREATE TABLE IF NOT EXISTS header (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;  -- no index page beside it
CREATE TABLE IF NOT EXISTS files (  -- narrow: a scan of every file's stat pages through no record
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,       -- unique (files_by_path)
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    digest BLOB NOT NULL,     -- the content hash's 16 bytes (FileRecord.digest is their hex)
    main_type TEXT NOT NULL,  -- C#: the class Unity binds the script to (named like the file)
    checked_ns INTEGER NOT NULL  -- when the update that recorded the stat began (files.racily_clean)
);
CREATE TABLE IF NOT EXISTS blobs (
    file_id INTEGER PRIMARY KEY,  -- files.id
    record BLOB NOT NULL          -- msgpack FileRecord without the stat `files` holds, deflated (rows.stored_record)
);
CREATE TABLE IF NOT EXISTS guids (
    meta_id INTEGER PRIMARY KEY,  -- files.id of the .meta declaring it (its path minus `.meta`: the asset or folder)
    guid NOT NULL             -- 16 bytes for Unity's 32 hex digits, else the text (rows.stored_guid)
);
CREATE TABLE IF NOT EXISTS types (
    file_id INTEGER NOT NULL,  -- files.id of the declaring file
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
    PRIMARY KEY (file_id, qualified, line)  -- Foo and Foo<T>, or partial parts, share a name
) WITHOUT ROWID;
"""
    + REFS
    + """;
CREATE TABLE IF NOT EXISTS edges (
    src INTEGER NOT NULL,      -- files.id of the file that points
    dst INTEGER NOT NULL,      -- files.id of the file it points at
    kind TEXT NOT NULL,        -- base, type, script, prefab, asset, unity_event, loads (graph.EDGE_KINDS)
    PRIMARY KEY (src, dst)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS delta_docs (  -- search documents written since the last rebuild (see Writer.commit)
    path TEXT PRIMARY KEY,
    doc BLOB NOT NULL         -- msgpack of the document's fields
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS outlines (
    file_id INTEGER PRIMARY KEY,  -- files.id
    outline BLOB NOT NULL         -- JSON [line, kind, qualified, signature] per declaration, deflated
);
CREATE TABLE IF NOT EXISTS zdicts (  -- compression dictionaries of the blobs (store/codec.py)
    id INTEGER PRIMARY KEY,
    grp TEXT NOT NULL,        -- one dictionary a group (the codec makes one once): no index page
    dict BLOB NOT NULL        -- deflated (zlib.compress)
);
"""
)
# A reference's target in SQL over `refs r`: stored only where it differs from its key.
REF_TARGET = "CASE r.target WHEN '' THEN r.key ELSE r.target END"

# Paths that may mark a third-party folder (`LICENSE.md`, `COPYING`, `CHANGELOG.md`, `Release
# Notes.txt`, `readme.txt`, `package.json`, `Documentation.pdf`: `vendored.vendored_folders` decides).
# One expression for the partial index below and the query it serves (`Records.vendor_mark_paths`):
# SQLite uses a partial index only for a query whose WHERE holds its WHERE as written.
VENDOR_MARKS = (
    "path LIKE '%licen%' OR path LIKE '%copying%' OR path LIKE '%change%log%'"
    " OR path LIKE '%release%notes%' OR path LIKE '%notices%' OR path LIKE '%/package.json'"
    " OR path LIKE '%.pdf' OR path LIKE '%.pdf.meta' OR path LIKE '%read%me%'"
)
# Those and the libraries (a DLL marks a kit's folder too): one partial index for both, a page
# fewer than two (the index of a small project is kept under the bytes it scanned).
THIRD_PARTY_SIGNS = f"kind = 'plugin' OR {VENDOR_MARKS}"
# Made after the rows of a rebuild are in (sorting once is faster than growing each index row by
# row), and at once by an incremental writer (so an index written before one was added gets it at
# the next update that writes anything; a reader works without it, by a scan). No covering index of `files`: its rows
# are narrow (records live in `blobs`), so a scan of every stat reads little more than an index
# would. Partial indexes find a handful of rows without that scan: the unreadable folders (kind
# 'folder'), asked for by every update of listed paths, and the vendor marks and libraries (kind
# 'plugin', `THIRD_PARTY_SIGNS`), asked for by every process's first query (the marks' scan,
# matching nine patterns, took 64 ms at 58,000 files, the libraries' 16-55).
SQL_INDEXES = f"""
CREATE UNIQUE INDEX IF NOT EXISTS files_by_path ON files(path);
CREATE INDEX IF NOT EXISTS guids_by_guid ON guids(guid);
CREATE INDEX IF NOT EXISTS types_by_name ON types(name);
CREATE INDEX IF NOT EXISTS edges_by_dst ON edges(dst);
CREATE INDEX IF NOT EXISTS folders_by_path ON files(path) WHERE kind = 'folder';
CREATE INDEX IF NOT EXISTS files_marking_vendors ON files(path) WHERE {THIRD_PARTY_SIGNS};
"""

# No search document: metas are folded into their asset's record; opaque binaries are found
# through the project tree, not by text search.
UNSEARCHED_KINDS = frozenset({"meta", "texture", "model", "audio", "font", "plugin", "other", "folder"})
# Kinds whose raw text is worth searching. Unity YAML is not: its text is mostly serialized
# engine state (positions, flags); its meaning is in the symbols the scanner extracted.
TEXT_BODY_KINDS = frozenset(
    {"csharp", "shader", "shader_include", "compute_shader", "text", "uss", "uxml", "asmdef", "asmref"}
)
# Data assets are named by what they list as much as by their own words: a theme's zones list
# the street and house prefabs of each neighbourhood, a loadout the items a role spawns with, a
# role table the roles. Their document's body holds the names of the files they reference too,
# written once GUIDs resolve (build/listed.py).
LISTING_KINDS = frozenset({"asset"})
# The stored outline is for naming the best match of a ranked file: long outlines are cut
# (build/documents.py keeps types and objects first).
MAX_OUTLINE_ENTRIES = 400
# line, kind, qualified name, signature[, a scene's or prefab's field: its component's script]
OutlineEntry = tuple[int, str, str, str] | tuple[int, str, str, str, str]
outline_encoder = msgspec.json.Encoder()
# A tuple, not a list: the garbage collector stops tracking a tuple of untracked items (`Declared`
# is gc=False) at its first collection, where a list kept per generation is traversed, each of
# its thousands of entries touched, at every collection of its generation (search.Outline).
outline_decoder = msgspec.json.Decoder(tuple[Declared, ...])


def is_searchable(kind: str) -> bool:
    return kind not in UNSEARCHED_KINDS


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


GENERATION_PREFIX = "gen-"  # a rebuild's folder inside the index folder: gen-<its first generation>


class IndexPaths:
    """The files of one index folder. Records and full-text index live in a generation folder
    (`gen-N/`) that `index.json` names; a rebuild writes a new one beside it and switches the
    header to it in one atomic rename, so readers keep the old one until then.

    `data=None`: the folder `index.json` names now (read on every access: callers that open
    several files pin it first, `header.pin`); a name: that folder, fixed (`""`: the index folder
    itself, the layout before generation folders)."""

    def __init__(self, index_dir: Path, data: str | None = None):
        self.root = index_dir
        self.header = index_dir / "index.json"
        self.lock = index_dir / "write.lock"
        self.data = data

    def with_data(self, data: str) -> IndexPaths:
        return IndexPaths(self.root, data)

    @property
    def data_dir(self) -> Path:
        if self.data is not None:
            return self.root / self.data if self.data else self.root
        from indexer.store.header import data_name

        name = data_name(self)
        return self.root / name if name else self.root

    @property
    def tantivy(self) -> Path:
        return self.data_dir / "tantivy"

    @property
    def records(self) -> Path:
        return self.data_dir / "records.db"
