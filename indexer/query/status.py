"""What the index holds, and whether it matches the files on disk."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from indexer.changes.diff import check
from indexer.config import Config
from indexer.model import SkippedFile, Status
from indexer.store.header import IndexMissing
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths


def _dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def other_format(root: Path, config: Config) -> int:
    """The format of the project's index when another version of unity-index wrote it (0: none,
    or this one's): not damage, and the next `index` (or query) rebuilds it."""
    from indexer.store import integrity

    return integrity.other_format(IndexPaths(config.index_path(root)))


def project_status(root: Path, config: Config, verify: bool = False) -> Status:
    paths = IndexPaths(config.index_path(root))
    if other_format(root, config):  # its files fail this version's checks, yet are not damaged
        return Status(project=str(root), index_dir=str(paths.root), indexed=False)
    # the same answer as `index --check`: stat first, then content hash; the full check of the
    # index files (`verify`) only when asked, as `status --check` asks (a damaged index is stale)
    staleness = check(root, config, verify=verify)
    if staleness.damaged or not staleness.indexed:
        return Status(project=str(root), index_dir=str(paths.root), indexed=False, damaged=staleness.damaged)
    try:
        records = Records(paths)
    except IndexMissing:
        return Status(project=str(root), index_dir=str(paths.root), indexed=False)
    try:
        known = records.stats()
        partial = sorted(p for p, s in known.items() if s.status == "partial")
        stale = len(staleness.added) + len(staleness.changed) + len(staleness.deleted)
        return Status(
            project=str(root),
            index_dir=str(paths.root),
            indexed=True,
            generation=records.generation(),
            files=len(known),
            by_kind=dict(Counter(s.kind for s in known.values())),
            partial=len(partial),
            partial_files=partial,
            skipped=[SkippedFile(p, reason) for p, reason in records.skipped()],
            stale_files=stale,
            index_bytes=_dir_bytes(paths.root),
        )
    finally:
        records.close()
