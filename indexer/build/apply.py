"""The second step of an update: scan what changed (in worker processes) and write it, the
derived type roles and file edges, in one commit."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec

from indexer import scanners
from indexer.build.adjacency import refresh_edges
from indexer.build.listed import relist
from indexer.build.moves import Move, find_moves
from indexer.build.phases import WORKER_PHASES, Phases
from indexer.build.plan import Plan
from indexer.build.roles import categorize
from indexer.build.workers import Result, run_jobs
from indexer.changes.diff import Job
from indexer.config import Config
from indexer.model import UpdateStats
from indexer.store.generations import new_generation, retire
from indexer.store.header import data_name, header_generation, pin
from indexer.store.schema import IndexPaths
from indexer.store.writer import Writer

Progress = Callable[..., None]  # (done, total) while scanning; (done, total, phase) after


class Applied(msgspec.Struct):
    """What the write step did, and the paths it wrote or deleted (for the next step)."""

    stats: UpdateStats
    rewritten: set[str]


def apply(root: Path, config: Config, ipaths: IndexPaths, plan: Plan, progress: Progress | None) -> Applied:
    change = plan.change
    stats = UpdateStats(full=plan.rebuild, walked=change.walked)
    jobs, deleted, moves = _without_moves(root, plan)
    base = header_generation(ipaths)
    target = new_generation(ipaths, base + 1) if plan.rebuild else pin(ipaths)
    writer: Writer | None = None
    results: Iterator[Result] | None = None
    phases = Phases(stats.phases)
    try:
        # (tantivy's threads start later: Writer._tantivy)
        writer = Writer(target, plan.rebuild, base, change.checked_ns)
        # Each chunk sent to a scanner process carries the blob dictionaries known by then, and
        # the scanner deflates with them (store/codec.py).
        results = run_jobs(jobs, config.workers or os.cpu_count() or 1, dictionaries=writer.codec.dictionaries)
        for done, job, result in _timed_results(jobs, results, phases):
            with phases.timed("write"):
                _write_result(writer, job, result, stats, job.path in change.existing)
            if progress:
                progress(done, len(jobs))
        if progress:
            progress(len(jobs), len(jobs), "linking")
        with phases.timed("write"):
            writer.index_tables()
            _write_moves_and_deletes(writer, moves, deleted, stats)
            writer.mark_checked(change.settled)
        with phases.timed("roles"):
            if writer.types_changed:
                writer.set_categories(categorize(writer.types()))
        with phases.timed("adjacency"):
            listing = refresh_edges(writer, root)
        with phases.timed("write"):
            relist(writer, root, listing)
        if progress:
            progress(len(jobs), len(jobs), "committing")
        with phases.timed("commit"):  # stats alone (touched, settled files): the generation stays
            stats.generation = writer.commit() if stats.changed_index else writer.commit_stats()
        counts, conflicted = writer.count_by("status"), writer.conflicted()
    except BaseException:
        if writer is not None:
            writer.rollback()
        raise
    finally:
        if results is not None:
            results.close()  # stops the scanner processes at once when the loop ended early
        if writer is not None:
            writer.close()
        if plan.rebuild:  # the folder that is not current now: the old one, or the failed build
            retire(ipaths, data_name(ipaths))
    stats.files = sum(counts.values())
    stats.skipped, stats.conflicted = counts.get("skipped", 0), conflicted
    rewritten = {j.path for j in jobs} | set(deleted) | set(moves) | {old for old, _, _ in moves.values()}
    return Applied(stats, rewritten)


def _without_moves(root: Path, plan: Plan) -> tuple[list[Job], list[str], dict[str, Move]]:
    """The files to scan and to delete, less the moves (`moves.find_moves`), and the moves."""
    jobs, deleted = plan.change.jobs, plan.change.deleted
    moves = find_moves(root, jobs, plan.old_records)
    if moves:
        jobs = [j for j in jobs if j.path not in moves]
        moved = {m[0] for m in moves.values()}
        deleted = [p for p in deleted if p not in moved]
    return jobs, deleted, moves


def _timed_results(jobs: list[Job], results: Iterator[Result], phases: Phases) -> Iterator[tuple[int, Job, Result]]:
    """(count done, job, result) in order; the wait for each result is the `scan_wait` phase, and
    the scanner processes' own per-file seconds are summed into `read`, `scan` and `documents`."""
    it = iter(results)
    for done, job in enumerate(jobs, 1):
        t = time.perf_counter()
        result = next(it)
        phases.add("scan_wait", time.perf_counter() - t)
        for name, secs in zip(WORKER_PHASES, result.seconds, strict=True):
            phases.add(name, secs)
        yield done, job, result


def _write_result(writer: Writer, job: Job, result: Result, stats: UpdateStats, existed: bool) -> None:
    if result.prepared is None:
        writer.update_stat(job.path, job.size, job.mtime_ns)
        stats.touched += 1
        return
    writer.put_prepared(result.prepared)
    stats.scanned += 1
    stats.bytes_scanned += job.size if scanners.reads_content(job.kind) else 0
    if existed:
        stats.changed += 1
    else:
        stats.added += 1


def _write_moves_and_deletes(writer: Writer, moves: dict[str, Move], deleted: list[str], stats: UpdateStats) -> None:
    for old_path, rec, doc in moves.values():
        writer.delete(old_path)
        writer.put(rec, doc)
        stats.moved += 1
    for p in deleted:
        writer.delete(p)
        stats.deleted += 1
