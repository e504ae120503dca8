"""What the index holds, and whether it matches the files on disk."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import msgspec

from indexer.changes.diff import check
from indexer.config import Config
from indexer.store.header import IndexMissing
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths


class SkippedFile(msgspec.Struct):
    path: str
    reason: str


class Status(msgspec.Struct):
    project: str
    index_dir: str
    indexed: bool
    generation: int = 0
    files: int = 0
    by_kind: dict[str, int] = {}
    partial: int = 0  # parsed with syntax errors
    skipped: list[SkippedFile] = []
    stale_files: int = 0  # added, changed or deleted since the last update
    index_bytes: int = 0

    def render(self) -> str:
        if not self.indexed:
            return f"project {self.project}\nno index yet at {self.index_dir}: run `unity-index index`"
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(self.by_kind.items(), key=lambda kv: (-kv[1], kv[0])))
        lines = [
            f"project   {self.project}",
            f"index     {self.index_dir} ({self.index_bytes / 1e6:.1f} MB, generation {self.generation})",
            f"files     {self.files}: {kinds}",
            f"partial   {self.partial} parsed with syntax errors",
            f"skipped   {len(self.skipped)}",
        ]
        lines += [f"  {s.path}: {s.reason}" for s in self.skipped[:20]]
        if len(self.skipped) > 20:
            lines.append(f"  ... and {len(self.skipped) - 20} more (--json lists all)")
        lines.append(
            f"stale     {self.stale_files} files changed since the last update; run `unity-index index`"
            if self.stale_files
            else "stale     no: the index matches the files on disk"
        )
        return "\n".join(lines)


def _dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def project_status(root: Path, config: Config) -> Status:
    paths = IndexPaths(config.index_path(root))
    try:
        records = Records(paths)
    except IndexMissing:
        return Status(project=str(root), index_dir=str(paths.root), indexed=False)
    try:
        known = records.stats()
        # the same answer as `index --check`: stat first, then content hash
        staleness = check(root, config)
        stale = len(staleness.added) + len(staleness.changed) + len(staleness.deleted)
        return Status(
            project=str(root),
            index_dir=str(paths.root),
            indexed=True,
            generation=records.generation(),
            files=len(known),
            by_kind=dict(Counter(s.kind for s in known.values())),
            partial=sum(1 for s in known.values() if s.status == "partial"),
            skipped=[SkippedFile(p, reason) for p, reason in records.skipped()],
            stale_files=stale,
            index_bytes=_dir_bytes(paths.root),
        )
    finally:
        records.close()
