"""Whether the index matches the project exactly: header, records, full-text index, files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import tantivy

from indexer.files import mtime_of, racily_clean
from indexer.project import content_differs
from indexer.project_walk import walk
from indexer.store.header import (
    IndexBroken,
    IndexMissing,
    header_ok,
    open_search_index,
    read_header,
    tantivy_failure,
)
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths, is_searchable


def search_doc_paths(paths: IndexPaths) -> list[str]:
    """The path of every document in the full-text index (duplicates included)."""
    index = open_search_index(paths)
    try:
        searcher = index.searcher()
        n = searcher.num_docs
        if n == 0:
            return []
        found = searcher.search(tantivy.Query.all_query(), n).hits
        return [searcher.doc(addr)["path"][0] for _, addr in found]
    except BaseException as exc:  # tantivy reports a damaged file as ValueError or a panic
        if not tantivy_failure(exc):
            raise
        raise IndexBroken(paths.root, f"full-text index: {exc}") from None


def index_problems(paths: IndexPaths) -> list[str]:
    """Problems between the header, the record store and the full-text index (not the files on
    disk); [] when they agree."""
    problems, known = _record_problems(paths)
    if known is None:
        return problems
    docs = search_doc_paths(paths)
    dup = sorted({p for p in docs if docs.count(p) > 1}) if len(docs) != len(set(docs)) else []
    problems += [f"{p}: several full-text documents" for p in dup]
    expected = {p for p, kind in known.items() if is_searchable(kind)}
    problems += [f"{p}: recorded but not in the full-text index" for p in sorted(expected - set(docs))]
    problems += [f"{p}: in the full-text index but not recorded" for p in sorted(set(docs) - expected)]
    return problems


def _record_problems(paths: IndexPaths) -> tuple[list[str], dict[str, str] | None]:
    """Problems inside the record store, and path -> kind of its records (None if unreadable)."""
    if not header_ok(paths):
        return [f"no usable index at {paths.root}"], None
    try:
        records = Records(paths)
    except (IndexMissing, sqlite3.DatabaseError) as exc:
        return [f"record store unreadable: {exc}"], None
    problems: list[str] = []
    try:
        known = records.kinds()
        gen = records.generation()
        header = read_header(paths) or {}
        if header.get("generation", -1) != gen:
            problems.append(f"header generation {header.get('generation')} != record store generation {gen}")
        orphans = records.conn.execute("SELECT count(*) FROM guids WHERE meta_id NOT IN (SELECT id FROM files)")
        guids = orphans.fetchone()[0]
        dangling = records.conn.execute(
            "SELECT count(*) FROM edges WHERE src NOT IN (SELECT id FROM files) OR dst NOT IN (SELECT id FROM files)"
        ).fetchone()[0]
    except sqlite3.DatabaseError as exc:
        return [f"record store unreadable: {exc}"], None
    finally:
        records.close()
    if dangling:
        problems.append(f"{dangling} graph edges lead from or to files without a record")
    if guids:
        problems.append(f"{guids} GUID rows without the record of their .meta")
    return problems, known


def check_consistency(paths: IndexPaths, root: Path, config) -> list[str]:
    """Problems between the header, the record store, the full-text index and the files on disk;
    [] when the index matches the project exactly."""
    problems = index_problems(paths)
    if problems and problems[0].startswith(("no usable index", "record store unreadable")):
        return problems
    records = Records(paths)
    try:
        known = records.stats()
    finally:
        records.close()
    on_disk = {rel: st for rel, st, _ in walk(root, config)}
    problems += [f"{p}: on disk, not recorded" for p in sorted(set(on_disk) - set(known))]
    problems += [f"{p}: recorded, not on disk" for p in sorted(set(known) - set(on_disk))]
    for p, st in on_disk.items():
        k = known.get(p)
        if k is not None and (k.size, k.mtime_ns) != (st.st_size, mtime_of(st)):
            problems.append(f"{p}: recorded stat differs from the file")
        elif k is not None and racily_clean(k) and content_differs(root, p, k, config.max_file_bytes):
            problems.append(f"{p}: recorded content differs from the file")  # a racily clean stat
    return problems
