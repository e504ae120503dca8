"""The index on disk: a tantivy full-text index plus a record store, under one folder.

Layout of the index folder (default `<project>/Library/UnityIndex/`):
  index.json   {"schema_version", "generation", "data"}: read first, so a reader never opens an
               index written by another version; names the generation folder; written last
  gen-N/       the generation folder: a rebuild writes the next one beside it (`generations`)
    tantivy/   one full-text document per searchable file (fields below)
    records.db SQLite (stdlib): one row per file holding its msgspec-encoded FileRecord, plus the
               tables the reference graph is queried through (GUIDs, types, references) and the
               file-to-file edges resolved from them (kept current by `adjacency`)
  write.lock   locked by the one writer (`lock`); the OS frees it when the writer dies

Why SQLite around msgspec records: a one-file update must not rewrite or re-decode the records of
every other file (an 8,000-script project's records are 80 MB), and a no-op update needs only
(path, size, mtime) of each file. Rows give both, with crash-safe transactions for free.

Every update deletes a file's document by path before adding it again, commits tantivy, then
the records, then the header; an update interrupted anywhere leaves records no newer than the
full-text index (the next update rescans whatever the records do not know, so the two converge)
and a header no newer than the records (`generations.recover` raises it).
"""
