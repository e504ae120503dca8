"""Whether the index matches the project exactly: header, records, full-text index, files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import tantivy

from indexer.project import walk
from indexer.store.header import IndexMissing, header_ok, open_search_index, read_header
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths, is_searchable


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
