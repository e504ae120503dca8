"""Which paths may have changed since the last update, as git tells it (and the editor's journal
adds) without looking at every file: shared by an update's plan (`build/plan.py`) and the check a
command answering from the index makes first (`diff.needs_update`), which must not load the
update pipeline."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from indexer.changes import gitview, journal
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths


def changed_candidates(
    root: Path,
    ipaths: IndexPaths,
    reader: Records | None,
    paths: Iterable[str] | None = None,
    *,
    use_journal: bool = True,
    use_git: bool = True,
    git_locks: bool = True,
) -> tuple[Iterable[str] | None, journal.JournalRead | None, gitview.GitStatus | None]:
    """(the paths to look at, None to walk; the journal read; git's status): `paths` as given,
    else git's view of what changed since the generation the reader holds, with the paths the
    editor's journal lists when it is continuous and the editor runs; else None. The journal never
    stands in for git or the walk: a file an agent edits beside an open editor is in it only once
    the editor imports the file (on focus, with Auto Refresh), and a query before must see it."""
    jread = None
    listed: set[str] = set()
    if use_journal and paths is None:
        jread = journal.read_journal(journal.journal_path(root), journal.load_position(ipaths))
        if jread.continuous and journal.editor_running(root):
            listed = jread.paths
    git_now = None
    if use_git and paths is None:
        git_now = gitview.status(root, locks=git_locks)
        if git_now is not None and reader is not None:
            recorded = reader.kinds
            found = gitview.candidates(
                root,
                ipaths,
                git_now,
                reader.generation(),
                lambda: [p for p, k in recorded().items() if k != "folder"],
                reader.stats,
            )
            if found is not None:
                paths = [*found, *sorted(listed.difference(found))]
    return paths, jread, git_now
