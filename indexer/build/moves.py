"""Files moved unchanged: a deleted file and an added one with the same content keep the record,
instead of a rescan."""

from __future__ import annotations

from pathlib import Path

import msgspec

from indexer.build import documents
from indexer.changes.diff import Change, Job
from indexer.files import digest_of
from indexer.model import FileRecord
from indexer.project import read_project_file
from indexer.store.reader import Records
from indexer.store.schema import is_searchable

Move = tuple[str, FileRecord, dict[str, str] | None]  # old path, record at the new path, its document

# Kinds whose scan result depends on the path, not only on the content (JSON is read as a
# package manifest or not by its name; settings by which settings file it is; a Shader Graph is
# named by its file and is a subgraph by its extension; an action asset without a `name` is named
# by its file, a Visual Effect Graph without one too): a file of these kinds moved unchanged is
# scanned again rather than keeping its record.
_PATH_DEPENDENT_KINDS = frozenset({"json", "settings", "shadergraph", "input_actions", "vfx"})


def move_sources(reader: Records | None, change: Change) -> dict[str, FileRecord]:
    """Records of deleted files that an added file of the same kind and size may have moved from."""
    if reader is None or not change.deleted:
        return {}
    added = {(j.kind, j.size) for j in change.jobs if not j.old_digest and not j.skip}
    out: dict[str, FileRecord] = {}
    for p in change.deleted:
        rec = reader.record(p)
        if rec is not None and rec.digest and (rec.kind, rec.size) in added and rec.kind not in _PATH_DEPENDENT_KINDS:
            out[p] = rec
    return out


def find_moves(root: Path, jobs: list[Job], sources: dict[str, FileRecord]) -> dict[str, Move]:
    """Added files whose content hash equals a deleted file's: new path -> (old path, record, doc).
    A file recorded without being read (`job.skip`: a name that is not plain text) is no move's
    destination: its record is the walk's skip, as a rebuild writes it."""
    if not sources:
        return {}
    by_digest: dict[tuple[str, str], list[str]] = {}
    for p, rec in sources.items():
        by_digest.setdefault((rec.kind, rec.digest), []).append(p)
    sizes = {(r.kind, r.size) for r in sources.values()}
    moves: dict[str, Move] = {}
    for job in jobs:
        if job.old_digest or job.skip or (job.kind, job.size) not in sizes or job.size > job.max_bytes:
            continue
        data = read_project_file(root, job.path, job.max_bytes + 1)  # rel-corrupt: never a pipe or link
        if data is None:
            continue
        candidates = by_digest.get((job.kind, digest_of(data)))
        if not candidates:
            continue
        old_path = candidates.pop(0)
        rec = msgspec.structs.replace(sources[old_path], path=job.path, size=job.size, mtime_ns=job.mtime_ns)
        doc = None
        if is_searchable(job.kind):
            doc = documents.build(rec, "" if rec.status == "skipped" else documents.document_text(rec.kind, data))
        moves[job.path] = (old_path, rec, doc)
    return moves
