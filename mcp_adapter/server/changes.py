"""What an index update changed, as the resource URIs a client may want to re-read.

The index keeps no change log, so each project's file table (digest and GUID per path) is
snapshotted whenever its generation moves, and consecutive snapshots are compared. That covers
every writer alike: the server's watcher, its per-call check, `refresh`, and other processes.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass, field

from indexer.query.workspace import ProjectIndex
from indexer.store.header import IndexMissing
from indexer.store.reader import Records

# Files the overview is built from besides the tree and the counts (see indexer/overview.py).
OVERVIEW_INPUTS = frozenset(
    {
        "ProjectSettings/ProjectVersion.txt",
        "ProjectSettings/ProjectSettings.asset",
        "ProjectSettings/EditorBuildSettings.asset",
        "Packages/manifest.json",
    }
)
OVERVIEW_URI = "unity://project/overview"
# What a read of `unity://file/{+path}` would not give back as it is: `%` (a read decodes `%XX`),
# `?` and `#` (the template stops there). A file named `%41.cs` was notified as a URI that reads
# `A.cs`. Nothing else is escaped: `My Mover.cs` keeps its space, as clients have subscribed to it.
_URI_ESCAPES = str.maketrans({"%": "%25", "?": "%3F", "#": "%23"})


def file_uri(path: str) -> str:
    """The `unity://file/` URI that reads back the file at `path` (a workspace path)."""
    return f"unity://file/{path.translate(_URI_ESCAPES)}"


@dataclass(frozen=True)
class Snapshot:
    digests: dict[str, str]  # project-relative path -> content digest
    kinds: dict[str, str]
    guids: dict[str, str]  # path -> GUID (from its .meta)


@dataclass(frozen=True)
class IndexChange:
    """Paths are workspace paths (the project's prefix included)."""

    added: frozenset[str] = frozenset()
    removed: frozenset[str] = frozenset()
    changed: frozenset[str] = frozenset()
    guids: frozenset[str] = frozenset()  # GUIDs of the assets added, removed or changed
    overview: bool = False

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed or self.overview)

    def updated_uris(self) -> list[str]:
        """Resources whose content changed: `notifications/resources/updated`."""
        uris = [file_uri(p) for p in sorted(self.added | self.removed | self.changed)]
        uris += [f"unity://asset/{g}" for g in sorted(self.guids)]
        return [*uris, OVERVIEW_URI] if self.overview else uris

    @property
    def list_changed(self) -> bool:
        """Files appeared or disappeared: the set of readable resources changed."""
        return bool(self.added or self.removed)


def take_snapshot(project: ProjectIndex) -> Snapshot | None:
    """The project's committed file table, or None without an index."""
    try:
        records = Records(project.paths)  # its own reader: the tools' readers stay untouched
    except (IndexMissing, OSError, sqlite3.Error):
        return None
    try:
        stats = records.stats()
        guids = {path: guid for guid, path in records.guid_paths().items()}
    except sqlite3.Error:  # the index was replaced meanwhile: the next check retries
        return None
    finally:
        records.close()
    return Snapshot({p: s.digest for p, s in stats.items()}, {p: s.kind for p, s in stats.items()}, guids)


def diff(before: Snapshot | None, after: Snapshot, prefix: str = "") -> IndexChange:
    """Paths added, removed or changed (content or GUID) between two snapshots."""
    old = before or Snapshot({}, {}, {})
    added = after.digests.keys() - old.digests.keys()
    removed = old.digests.keys() - after.digests.keys()
    changed = {
        p
        for p in after.digests.keys() & old.digests.keys()
        if after.digests[p] != old.digests[p] or after.guids.get(p) != old.guids.get(p)
    }
    touched = added | removed | changed
    guids = {g for p in touched for g in (old.guids.get(p), after.guids.get(p)) if g}
    overview = bool(added or removed) or any(
        p in OVERVIEW_INPUTS or after.kinds.get(p) == "asmdef" or old.kinds.get(p) == "asmdef" for p in changed
    )
    return IndexChange(
        added=frozenset(prefix + p for p in added),
        removed=frozenset(prefix + p for p in removed),
        changed=frozenset(prefix + p for p in changed),
        guids=frozenset(guids),
        overview=overview,
    )


@dataclass
class ChangeTracker:
    """Remembers one project's last snapshot; `check` says what changed since (None: nothing)."""

    project: ProjectIndex
    _stamp: tuple[int, float] = (-1, 0.0)
    _snapshot: Snapshot | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def prime(self) -> None:
        """Start from the current state, so the first check reports only later changes."""
        with self._lock:
            self._stamp = self.project.stamp()
            self._snapshot = take_snapshot(self.project)

    def check(self) -> IndexChange | None:
        with self._lock:
            stamp = self.project.stamp()
            if stamp == self._stamp:
                return None
            after = take_snapshot(self.project)
            if after is None:
                return None
            change = diff(self._snapshot, after, self.project.prefix)
            self._stamp, self._snapshot = stamp, after
            return None if change.empty else change
