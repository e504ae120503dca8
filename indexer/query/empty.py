"""Why a search found nothing when the index holds no file at all.

"Try other words" sent the user looking for words no index could match: an `exclude` pattern
leaving out every file (`"**"`, `"*"`, or one per content folder) gave an index of 0 files, and
every query, context pack and MCP search answered so without a word of the cause.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from indexer.config import CONFIG_FILE, CONTENT_ROOTS

if TYPE_CHECKING:
    from indexer.query.workspace import ProjectIndex, Workspace


def empty_index_note(ws: Workspace) -> str:
    """'' when a project of `ws` has an indexed file; else why none has, for each project."""
    projects = [p.fresh() for p in ws.projects]
    if not projects or any(p.records.holds_files() for p in projects):
        return ""
    return "; ".join(_why_empty(p) for p in projects)


def _why_empty(project: ProjectIndex) -> str:
    """Why one project's index holds no file: its `exclude` leaves out what its folders hold (a
    Unity project always holds files there: every asset and folder has its `.meta`, and
    ProjectSettings/ its settings), or they hold nothing."""
    said = f"the index of {project.name} holds no file"
    if not _holds_entries(project.root):
        return f"{said}: {', '.join(r + '/' for r in CONTENT_ROOTS)} hold nothing to index"
    if project.config.exclude:
        patterns = ", ".join(repr(p) for p in project.config.exclude[:5])
        more = ", ..." if len(project.config.exclude) > 5 else ""
        return f"{said}: the exclude patterns of {CONFIG_FILE} ({patterns}{more}) leave out every file"
    return said


def _holds_entries(root: os.PathLike) -> bool:
    """Whether a content folder of the project holds an entry Unity would import (not hidden)."""
    for top in CONTENT_ROOTS:
        try:
            with os.scandir(os.path.join(root, top)) as entries:
                if any(not e.name.startswith(".") and not e.name.endswith("~") for e in entries):
                    return True
        except OSError:
            continue
    return False
