"""The last step of an update: what the next update starts from. The editor journal's position
and git's view of the generation just written are saved once that generation is committed."""

from __future__ import annotations

from pathlib import Path

from indexer.build.plan import Plan
from indexer.changes import gitview, journal
from indexer.store.schema import IndexPaths


def remember(
    root: Path, ipaths: IndexPaths, plan: Plan, rewritten: set[str], generation: int, use_git: bool, git_locks: bool
) -> None:
    _remember_journal(ipaths, plan.journal_read)
    _remember_git(root, ipaths, plan, rewritten, generation, use_git, git_locks)


def _remember_git(
    root: Path, ipaths: IndexPaths, plan: Plan, rewritten: set[str], generation: int, use_git: bool, git_locks: bool
) -> None:
    """Save git's view of the generation just written, for the next update to start from.

    After a walk git is asked again, and what was dirty before or after counts: a file edited or
    restored while the walk ran is looked at next time. An update of given paths (watch, the
    editor journal) carries the previous view forward with those paths added."""
    git_now = plan.git_now
    walked = plan.change.walked
    if not use_git or (walked and git_now is None):
        return  # a walk nobody asked git about first: the next update walks again
    if walked:
        after = gitview.status(root, locks=git_locks)
        if after is not None and git_now is not None:
            after.dirty = sorted({*after.dirty, *git_now.dirty})
            if after.hidden != git_now.hidden:  # a sparse checkout changed while the walk ran
                after.hidden = "changed during the walk"  # no git answer: the next update walks
        git_now = after
    if git_now is not None:
        gitview.remember(ipaths, git_now, rewritten, generation, plan.rebuild)
    elif generation != plan.generation_before:
        gitview.carry(ipaths, rewritten, plan.generation_before, generation)


def _remember_journal(ipaths: IndexPaths, jread: journal.JournalRead | None) -> None:
    """Store the journal position once its changes (or a walk covering them) are committed."""
    if jread is not None and jread.end is not None and jread.end != journal.load_position(ipaths):
        journal.save_position(ipaths, jread.end)
