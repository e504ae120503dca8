"""The walk of a project's files: every entry of its content folders, in sorted order, each with
its stat and why it is recorded without being read."""

from __future__ import annotations

import os
import stat as statmode
from collections.abc import Iterator
from pathlib import Path

from indexer.config import Config
from indexer.project import Coverage, folder_reason, printable, unreadable_reason

# The stat recorded for an entry the walk lists but cannot stat (no search permission on its
# folder, a path longer than the system takes): all zero but its type. It stays the same while the
# entry cannot be looked at, and differs from the real stat once it can, which is then read.
_UNKNOWN_FILE = os.stat_result((0,) * 10, {"st_mtime_ns": 0})
_UNKNOWN_FOLDER = os.stat_result((statmode.S_IFDIR, *(0,) * 9), {"st_mtime_ns": 0})


Entry = tuple[str, os.stat_result, str]


def walk(root: Path, config: Config) -> Iterator[Entry]:
    """Every project entry as (relative path with forward slashes, in `printable` form; its lstat;
    why it is recorded without being read, '' to read it), in sorted order. Symbolic links are
    listed, not followed. A folder that cannot be read (no permission, an I/O error) is listed
    itself, with `folder_reason`, in place of the files it holds: they cannot be seen, and a user
    must learn why they are missing rather than find them gone. An entry listed but not looked at
    (its folder lacks search permission, its path is over the system's limit) is listed with a
    zero stat and why."""
    coverage = Coverage(root, config)
    for top in coverage.tops:
        path = root / top
        if path.is_symlink():  # its files, each read through it, were skipped one by one as links
            yield top, os.lstat(path), top_link_reason(top, path)
        elif path.is_dir():
            yield from _scan(str(path), top, coverage)


def top_link_reason(top: str, path: Path) -> str:
    """Why a project folder that is itself a symbolic link (`Assets` -> `../Shared/Assets`) is
    recorded in place of its files: said once, with where it points and what to do."""
    try:
        target = os.readlink(path)
    except OSError:
        target = "?"
    real, root = os.path.realpath(path), os.path.realpath(path.parent)
    said = f"the project's {top} folder is a link, not followed, so none of its files is indexed"
    if not os.path.isdir(real):
        return f"broken symbolic link (to {printable(target)}): {said}; point it at the folder or replace it with one"
    if real.startswith(root + os.sep):
        return f"symbolic link (to {printable(target)}, inside the project): {said}; replace the link with that folder"
    fix = "give --project the folder holding the real files, or replace the link with the folder"
    return f"symbolic link (to {printable(target)}): {said}; {fix}"


def _listed(folder: str, rel: str) -> tuple[list[os.DirEntry[str]], Entry | None]:
    """A folder's entries by name, or why it cannot be listed (None when it is gone meanwhile)."""
    try:
        return sorted(os.scandir(folder), key=lambda e: e.name), None
    except OSError as exc:
        try:
            st = os.lstat(folder)
        except (FileNotFoundError, NotADirectoryError):  # gone meanwhile: nothing to list
            return [], None
        except OSError:  # there, but not even its stat can be had (a path over PATH_MAX)
            st = _UNKNOWN_FOLDER
        return [], (rel, st, folder_reason(exc))


def _scan(folder: str, rel: str, coverage: Coverage) -> Iterator[Entry]:
    """Depth first by name, on a stack of its own: a chain of a thousand folders (2 KB of path)
    ran out of Python's recursion as nested generators."""
    entries, unlisted = _listed(folder, rel)
    if unlisted:
        yield unlisted
    stack = [(iter(entries), rel)]
    while stack:
        e = next(stack[-1][0], None)
        if e is None:
            stack.pop()
            continue
        name = printable(e.name)
        child = stack[-1][1] + "/" + name
        if coverage.skips(child, name):
            continue
        try:
            is_dir = e.is_dir(follow_symlinks=False)
            st = None if is_dir else e.stat(follow_symlinks=False)
        except (FileNotFoundError, NotADirectoryError):  # gone meanwhile
            continue
        except OSError as exc:  # listed but not looked at: a folder without search permission
            yield child, _UNKNOWN_FILE, f"unreadable: {exc.strerror or exc}"
            continue
        if st is None:
            entries, unlisted = _listed(e.path, child)
            if unlisted:
                yield unlisted
            stack.append((iter(entries), child))
        else:  # links, pipes and devices too: recorded as skipped, never followed or read
            yield child, st, unreadable_reason(child, st.st_mode)
