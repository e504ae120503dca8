"""Folders where the index keeps one of its own files (`index.json`, `write.lock`, ...).

No update can write such a file (`os.replace` onto a folder fails), so each one failed with "Is a
directory" and a hint to check access, `index --full` too, for ever. A plain update names the folder
and the command that repairs it; `index --full` removes it when it is empty and rebuilds. A folder
holding something is not unity-index's to remove (the index folder may be shared with a user's
files): it is named, with where to move it.
"""

from __future__ import annotations

import errno
import shlex
from pathlib import Path

from indexer.store.schema import IndexPaths

STATE_FILES = (
    "write.lock",
    "index.json",
    "settings.json",
    "integrity.json",
    "git-view.json",
    "journal.pos",
    "progress.json",
)


class FolderInPlace(Exception):
    """A folder stands where the index keeps one of its files; the message says what to do."""


def clear_folders_in_place(paths: IndexPaths, project: Path, full: bool) -> None:
    """With `full`, remove the empty folders standing for the index's files; else, or for a folder
    that holds something, FolderInPlace naming it."""
    repair = f"unity-index index --full --project {shlex.quote(str(project))}"
    for name in STATE_FILES:
        where = paths.root / name
        if where.is_symlink() or not where.is_dir():
            continue
        if full:
            try:
                where.rmdir()
                continue
            except OSError as exc:
                if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                    raise
        elif not any(where.iterdir()):
            raise FolderInPlace(
                f"{where} is a folder where the index keeps its file {name}: run `{repair}`, which removes"
                " the folder (it is empty) and rebuilds the index"
            )
        raise FolderInPlace(
            f"{where} is a folder where the index keeps its file {name}, and it holds files: move it out of"
            f" {paths.root} (unity-index removes no folder it did not make), then run `{repair}`"
        )
