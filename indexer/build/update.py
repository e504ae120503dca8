"""Bringing the index up to date in three steps: plan (what changed), apply (scan and write),
remember (the journal position and git's view the next update starts from)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from indexer.build.address_space import check_address_space
from indexer.build.phases import Phases
from indexer.build.plan import Plan, make_plan
from indexer.build.remember import remember
from indexer.changes import settings
from indexer.config import Config
from indexer.model import UpdateStats
from indexer.project import check_present
from indexer.store import integrity
from indexer.store.generations import recover
from indexer.store.header import header_generation, header_ok
from indexer.store.in_place import clear_folders_in_place
from indexer.store.lock import writer_lock
from indexer.store.progress import ProgressFile
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths

if TYPE_CHECKING:  # the scanning and writing code is imported once there is something to write
    from indexer.build.apply import Progress


def update(
    root: Path,
    config: Config,
    *,
    full: bool = False,
    wait: float = 0.0,
    on_wait: Callable[[str], None] | None = None,
    progress: Progress | None = None,
    paths: Iterable[str] | None = None,
    use_journal: bool = True,
    use_git: bool = True,
    background: bool = False,
) -> UpdateStats:
    """Bring the index of the project at `root` up to date; returns what was done.

    `paths`: project-relative paths known to have changed (watch mode); only those (and their
    .meta) are looked at, unless a folder is involved, then the project is walked. Without them,
    git's changed paths (with those the editor's journal lists) in a git work tree, else a walk.

    `background`: run beside the user's own work (watch, the MCP server): git is asked without its
    optional locks, and SettingsChanged when `unity-index.toml` no longer gives `config`'s settings.

    `wait`: seconds to wait for another writer (`on_wait(message)` when waiting starts) before
    IndexBusy. Interrupted anywhere (Ctrl-C, a kill), the index keeps its last committed state.
    """
    t0 = time.perf_counter()
    root = _present(root)
    check_address_space()  # under a small `ulimit -v` the search engine aborts the process
    if background:  # a long-running process's settings may be older than the project's
        settings.check_unchanged(root, config)
    ipaths = IndexPaths(config.index_path(root))
    clear_folders_in_place(ipaths, root, full)  # before the lock: `write.lock` may be one
    with _gone_says_so(root), writer_lock(ipaths, wait, on_wait), _progress_file(ipaths, full) as pfile:
        recover(ipaths)
        upgraded = integrity.other_format(ipaths)
        damage = None if full or upgraded else integrity.damage_before_update(ipaths)  # see store/integrity
        if damage is not None:
            integrity.discard(ipaths)
        rebuild = full or damage is not None or settings.differ(ipaths, config)
        report = _reporting(progress, pfile)
        options = {"paths": paths, "use_journal": use_journal, "use_git": use_git, "git_locks": not background}
        try:
            plan, stats, rewritten, t_plan = _plan_and_apply(root, config, ipaths, rebuild, pfile, report, options)
        except Exception as exc:  # damage only reading shows: a page garbled behind the fingerprint
            if rebuild or not integrity.is_damage(exc):
                raise
            damage = f"reading it failed: {exc}"
            integrity.discard(ipaths)
            plan, stats, rewritten, t_plan = _plan_and_apply(root, config, ipaths, True, pfile, report, options)
        phases = Phases(stats.phases)
        phases.add("walk", t_plan)
        with phases.timed("remember"):
            remember(root, ipaths, plan, rewritten, stats.generation, use_git, not background)
            settings.save(ipaths, config, root)
            integrity.save_fingerprint(ipaths)
        stats.repaired = damage or ""
        stats.upgraded = upgraded
        stats.seconds = time.perf_counter() - t0
        return stats


def _plan_and_apply(
    root: Path,
    config: Config,
    ipaths: IndexPaths,
    rebuild: bool,
    pfile: ProgressFile,
    report: Progress,
    options: dict[str, Any],
) -> tuple[Plan, UpdateStats, set[str], float]:
    """The plan, what applying it did, the paths it rewrote, and the seconds planning took."""
    t_plan = time.perf_counter()
    plan = make_plan(root, config, ipaths, full=rebuild, **options)
    t_plan = time.perf_counter() - t_plan
    if plan.is_noop:  # `index` behind a pre-commit hook, most of the time: scanners, writer unloaded
        return plan, _unchanged(ipaths, plan.change.walked), set(), t_plan
    from indexer.build.apply import apply

    integrity.save_fingerprint(ipaths, writing=True)
    pfile.state.rebuild = plan.rebuild
    applied = apply(root, config, ipaths, plan, report)
    return plan, applied.stats, applied.rewritten, t_plan


@contextmanager
def _gone_says_so(root: Path) -> Iterator[None]:
    """A failure once the project folder went meanwhile (`rm -rf` reaching `Library/UnityIndex` as
    the update wrote it: the search engine's "Directory does not exist") is ProjectGone: the
    engine's words were logged as a bug, with a traceback."""
    try:
        yield
    except Exception:
        check_present(root)
        raise


@contextmanager
def _progress_file(ipaths: IndexPaths, full: bool) -> Iterator[ProgressFile]:
    """The progress of this update for others to read; written at once when there is no index to
    answer from (the walk of a first build takes seconds), else only if it runs long."""
    pfile = ProgressFile(ipaths, rebuild=full)
    if full or not header_ok(ipaths):
        pfile.state.rebuild = True
        pfile.step("planning", force=True)
    try:
        yield pfile
    finally:
        pfile.close()


def _reporting(progress: Progress | None, pfile: ProgressFile) -> Progress:
    """`progress` (the caller's, if any) that also keeps the progress file current: a new phase is
    written at once where the file is shown already, else only once the update has run long."""

    def report(done: int, total: int, phase: str = "scanning") -> None:
        pfile.step(phase, done, total, force=phase != "scanning" and pfile.written)
        if progress is not None and phase == "scanning":
            progress(done, total)

    return report


def _unchanged(ipaths: IndexPaths, walked: bool) -> UpdateStats:
    reader = Records(ipaths)
    try:
        counts = reader.count_by("status")
        conflicted = reader.conflicted()
    finally:
        reader.close()
    stats = UpdateStats(full=False, walked=walked, generation=header_generation(ipaths))
    stats.files = sum(counts.values())
    stats.skipped, stats.conflicted = counts.get("skipped", 0), conflicted
    return stats


def _present(root: Path) -> Path:
    """`root` resolved; ProjectGone when the folder is gone or no longer a Unity project (moved or
    deleted under a watch or a server: see ProjectGone)."""
    root = root.resolve()
    check_present(root)
    return root
