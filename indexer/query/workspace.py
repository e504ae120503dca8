"""What a command works on: one Unity project, or every project in a multi-project repository.

Each project keeps its own index and GUID map (GUIDs repeat across projects of one repository);
a workspace only merges answers, with paths relative to the folder the user named. Readers are
opened lazily and reopened when the index's generation changes, so a long-lived workspace (the MCP
server) always answers from the last committed state.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from indexer.config import Config
from indexer.query.pinned import kept
from indexer.store.header import IndexMissing, header_stamp
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths

T = TypeVar("T")
MEMO_LIMIT = 8000  # entries of a project's memo (outlines, file views) kept per generation
# Where a text names a path of a project (Assets/..., Packages/..., ProjectSettings/...): not inside
# another path, so a path already placed in the workspace is left as it is.
_PROJECT_PATH = re.compile(r"(?<![\w./\\-])(?=(?:Assets|Packages|ProjectSettings)/)")


def prefixed(text: str, prefix: str) -> str:
    """`text` (a reason, an outline line, an asset usage) with each path of a project placed in
    the workspace by `prefix`, so it can be given back to `describe` or `refs`; what is quoted
    (a string of code, a text the task quotes) is left as written."""
    if not prefix or "/" not in text:
        return text
    parts = text.split('"')
    parts[::2] = [_PROJECT_PATH.sub(prefix, part) for part in parts[::2]]
    return '"'.join(parts)


class Snapshot:
    """What one generation of a project's index is read through: readers and everything derived
    from them. Replaced whole when the generation changes, so nothing of an older one survives."""

    def __init__(self, paths: IndexPaths, root: Path, stamp: tuple[int, float]):
        self.paths = paths
        self.root = root
        self.stamp = stamp  # the header's (generation, written_at) it was opened at
        self.stats: dict = {}  # path -> FileStat, filled by what queries touch
        self.memo: dict = {}  # what callers derive from these records (outlines, ...)
        self.roles: dict = {}  # what the ranking learned of files' roles (is it a test, ...)

    def _drop(self) -> None:
        """Forget the readers: a rebuild replaced the generation folder they were opened on."""
        for attr in ("records", "graph", "vendored", "test_folders", "assemblies"):
            self.__dict__.pop(attr, None)
        self.stats, self.memo, self.roles = {}, {}, {}

    @cached_property
    def records(self) -> Records:
        return Records(self.paths)

    @cached_property
    def searcher(self):
        """The full-text index of the generation `records` reads (one answer, one generation)."""
        from indexer.query.search import Searcher
        from indexer.store.header import OPEN_TRIES, data_name

        for _ in range(OPEN_TRIES - 1):
            view = self.records.paths
            try:
                return Searcher(view)
            except (OSError, ValueError):
                if data_name(self.paths) == view.data:
                    raise
                self._drop()  # a rebuild replaced the generation just opened: open the new one
        return Searcher(self.records.paths)

    @cached_property
    def graph(self):
        from indexer.query.graph import Graph

        return Graph(self.records, self.root)

    @cached_property
    def vendored(self) -> frozenset[str]:
        """Folders of third-party code in this project (ranked below the project's own)."""
        from indexer.query.vendored import third_party_folders

        return third_party_folders(self.records)

    @cached_property
    def test_folders(self) -> frozenset[str]:
        """Folders of test assemblies in this project (tests rank below the code they test)."""
        from indexer.query.priors import test_folders

        return test_folders(self.records)

    @cached_property
    def assemblies(self) -> dict[str, bool]:
        """asmdef or asmref folder -> editor only (editor code ranks below the game code it serves)."""
        from indexer.query.assemblies import assembly_folders

        return {folder: a.editor for folder, a in assembly_folders(self.records).items()}


class ProjectIndex:
    """One project's index, opened for reading; `prefix` places its paths in the workspace."""

    def __init__(self, root: Path, config: Config, prefix: str = ""):
        self.root = root
        self.config = config
        self.prefix = prefix
        self.paths = IndexPaths(config.index_path(root))
        self._snapshot: Snapshot | None = None

    @property
    def name(self) -> str:
        return self.prefix.rstrip("/") or self.root.name

    @cached_property
    def texts(self):
        """The project's file texts as queries read them (kept while each file is unchanged)."""
        from indexer.query.texts import Texts

        return Texts(self.root)

    def stamp(self) -> tuple[int, float]:
        """Which commit the index is at (`header_stamp`): what readers and caches are kept for."""
        return header_stamp(self.paths)

    @property
    def snapshot(self) -> Snapshot:
        """The generation this project answers from, until `fresh()` moves it on."""
        if self._snapshot is None:
            self._snapshot = Snapshot(self.paths, self.root, self.stamp())
        return self._snapshot

    @property
    def records(self) -> Records:
        return self.snapshot.records

    @property
    def searcher(self):
        return self.snapshot.searcher

    @property
    def graph(self):
        return self.snapshot.graph

    @property
    def vendored(self) -> frozenset[str]:
        return self.snapshot.vendored

    @property
    def test_folders(self) -> frozenset[str]:
        return self.snapshot.test_folders

    @property
    def assemblies(self) -> dict[str, bool]:
        return self.snapshot.assemblies

    @property
    def memo(self) -> dict:
        """What callers derive from this generation's records (outlines, ...), dropped with it."""
        return self.snapshot.memo

    def remember(self, key: tuple, make: Callable[[], T], *, role: bool = False) -> T:
        """`make()`, kept for this generation under `key`. What is derived from one file's records
        (its outline decoded, its context view) and asked for again by later queries goes in the
        memo, emptied when it holds MEMO_LIMIT entries; what the ranking learns of a file's role
        (`role=True`: third-party, holds logic, ...: small, read by every query) goes in `roles`,
        kept until the generation goes. Both are dropped with their generation."""
        if role:
            return kept(self.snapshot.roles, key, make, most=math.inf)
        return kept(self.snapshot.memo, key, make, most=MEMO_LIMIT)

    def stats_of(self, paths: Iterable[str]) -> dict:
        """path -> FileStat (kind, size, ...) for these paths, read once per generation: a cold
        process reads only what its query touches, a warm one hardly anything (the dict returned
        may hold more paths than asked for; indexed paths only)."""
        known = self.snapshot.stats
        missing = [p for p in paths if p not in known]
        if missing:
            known.update(self.records.stats_of(missing))
        return known

    @property
    def roles(self) -> dict:
        """What the ranking learned about files' roles this generation (is it a test, ...)."""
        return self.snapshot.roles

    @contextmanager
    def reading(self) -> Iterator[None]:
        """What a query reads of this project's records, read in one transaction (`Records.reading`):
        one commit seen throughout, each statement cheaper. A store that cannot be opened is left
        to the query, which says why where it did before."""
        try:
            records = self.records
        except (IndexMissing, OSError, sqlite3.Error):
            records = None
        if records is None:
            yield
            return
        with records.reading():
            yield

    def fresh(self) -> ProjectIndex:
        """This project with readers matching the last committed generation."""
        stamp = self.stamp()
        if self._snapshot is not None and self._snapshot.stamp != stamp:
            self._snapshot = Snapshot(self.paths, self.root, stamp)
        return self

    def local(self, path: str) -> str | None:
        """A workspace path as a path of this project, or None if it is not in it."""
        if not self.prefix:
            return path
        return path[len(self.prefix) :] if path.startswith(self.prefix) else None


class Workspace:
    def __init__(self, base: Path, projects: list[ProjectIndex]):
        self.base = base
        self.projects = projects
        # the deepest project first: a project's folder may hold another project beside its Assets/
        self._deepest_first = sorted(projects, key=lambda p: -len(p.prefix))
        self.cache: dict[tuple, Any] = {}  # what tier 1 is made of, keyed by the generations it came from

    @property
    def single(self) -> bool:
        return len(self.projects) == 1 and not self.projects[0].prefix

    def owner(self, path: str, refresh: bool = True) -> tuple[ProjectIndex, str] | None:
        """The project holding a workspace path (the deepest, when one project's folder holds
        another), and the path inside it; `refresh=False` keeps the readers a caller already
        freshened (one answer, one generation)."""
        for p in self._deepest_first:
            local = p.local(path)
            if local is not None:
                return (p.fresh() if refresh else p), local
        return None

    def search(
        self, text: str, limit: int, kind: str | None = None, path_prefix: str | None = None, named: bool = True
    ) -> list:
        """Ranked hits over every project, paths relative to the workspace (`named`: see ranking.rank);
        for a long text, of its first terms (`identifiers.bounded_query`). A task naming one of
        several projects ranks the others' files lower (`asked_project`)."""
        from indexer.identifiers import bounded_query
        from indexer.query.asked_project import OTHER_PROJECT_PRIOR, asked_project

        text = bounded_query(text)
        projects = [p.fresh() for p in self.projects]
        asked = asked_project(projects, text)
        hits = []
        for i, p in enumerate(projects):
            local_prefix = path_prefix
            if path_prefix and p.prefix:
                if path_prefix.startswith(p.prefix):
                    local_prefix = path_prefix[len(p.prefix) :] or None
                elif p.prefix.startswith(path_prefix.rstrip("/") + "/"):
                    local_prefix = None
                else:
                    continue
            scale = 1.0 if asked is None or asked == i else OTHER_PROJECT_PRIOR
            with p.reading():
                ranked = rank(p, text, limit, kind, local_prefix, named)
            for h in ranked:
                if scale != 1.0:
                    h = msgspec.structs.replace(h, score=round(h.score * scale, 4))
                hits.append(_placed(h, p.prefix) if p.prefix else h)
        hits.sort(key=lambda h: (-h.score, h.path))
        return hits[:limit]


@contextmanager
def reading(projects: Iterable[ProjectIndex]) -> Iterator[None]:
    """Each project's records read in one transaction while a query runs (`ProjectIndex.reading`)."""
    with ExitStack() as stack:
        for p in projects:
            stack.enter_context(p.reading())
        yield


def _placed(hit: Any, prefix: str) -> Any:
    """A project's hit with its path, and the paths its reason and an asset's snippet name, in the
    workspace (a C# snippet is code: left as written)."""
    snippet = hit.snippet if hit.kind in ("csharp", "shader", "shader_include", "compute_shader") else None
    return msgspec.structs.replace(
        hit,
        path=prefix + hit.path,
        reason=prefixed(hit.reason, prefix),
        snippet=prefixed(hit.snippet, prefix) if snippet is None else snippet,
    )


def rank(project: ProjectIndex, text: str, limit: int, kind: str | None, path_prefix: str | None, named: bool) -> list:
    from indexer.query.rank import rank as rank_files

    return rank_files(project, text, limit, kind=kind, path_prefix=path_prefix, named=named)


def open_workspace(base: Path, projects: list[tuple[Path, Config]]) -> Workspace:
    members = [
        ProjectIndex(root, config, "" if root == base else root.relative_to(base).as_posix() + "/")
        for root, config in projects
    ]
    return Workspace(base, members)


def projects_at(path: Path) -> list[tuple[Path, Config]]:
    """The project at `path` and the projects below it, each with its configuration."""
    from indexer.project import load_project_config

    return [(root, load_project_config(root)) for root in project_roots_at(path)]


def project_roots_at(path: Path) -> list[Path]:
    """The project at `path` and the projects below it: a multi-project repository, or a project
    whose repository also holds sample or test projects beside its own folders. Their
    configurations are not read: a folder of too many (`--project ~`) is refused before one of
    them, invalid, is named as the reason."""
    from indexer.project import CONTENT_ROOTS, find_projects_below, is_project_root

    path = path.resolve()
    if is_project_root(path):  # projects inside its content folders are part of it: not looked for
        return [path, *find_projects_below(path, skip=frozenset(path / top for top in (*CONTENT_ROOTS, "Library")))]
    return find_projects_below(path)
