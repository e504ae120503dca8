"""Commands that build and keep the index: index, status, watch, hook."""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from indexer.cli.common import (
    EXIT_OK,
    EXIT_STALE,
    JSON_SCHEMA_VERSION,
    UsageError,
    explain_failure,
    lacks_working_folder,
    no_project_at,
    not_a_folder,
    other_version,
    print_json,
    project_arg,
    quoted,
    seconds,
    shown,
    struct_dict,
    working_folder_gone,
    workspace,
)
from indexer.cli.console import Console
from indexer.query.render import render_status, render_update
from indexer.words import plural

if TYPE_CHECKING:  # the model's import is the commands' own, at their start
    from indexer.model import Staleness, Status


def cmd_index(args: argparse.Namespace, console: Console) -> int:
    ws = workspace(args)
    if args.check:
        return _check_index(ws, args.json)
    console.quiet = console.quiet or args.quiet
    limit = _TimeLimit(args.time_limit)
    try:  # around the `with`: a limit reached as it starts or ends interrupts its entry or exit
        with limit:
            results = [_index_one(p, args, console) for p in ws.projects]
    except KeyboardInterrupt:
        if not limit.expired():
            raise
        raise UsageError(
            f"the index of {shown(ws.base)} was not brought up to date within {args.time_limit:g} s"
            f" (--time-limit; it keeps its last state): run `{_again(args, ws.base)}`"
        ) from None
    if args.json:
        if ws.single:
            print_json({"schema_version": JSON_SCHEMA_VERSION, **results[0]})
        else:
            print_json({"schema_version": JSON_SCHEMA_VERSION, "workspace": str(ws.base), "projects": results})
    return EXIT_OK


def _index_one(p, args: argparse.Namespace, console: Console) -> dict:
    from indexer.build.update import update
    from indexer.store.lock import IndexBusy

    wait = args.wait

    def on_wait(message: str) -> None:
        console.info(f"{message}: waiting for it (up to {wait:g} s; Ctrl-C stops, --no-wait fails at once)")

    progress = console.progress(f"indexing {shown(p.name)}")
    try:
        stats = update(p.root, p.config, full=args.full, wait=wait, on_wait=on_wait, progress=progress)
    except IndexBusy as exc:
        raise UsageError(
            f"{exc}; not updated: run `{_again(args, p.root)}` when it is done"
            + ("" if wait else " (or without --no-wait, to wait for it)")
        ) from None
    if stats.repaired and not args.json:
        console.info(f"the index of {shown(p.root)} was damaged ({stats.repaired}): rebuilt it")
    if stats.upgraded and not args.json:
        console.info(f"{other_version(p.root, stats.upgraded, 'writes')}: rebuilt it")
    if not args.json:
        console.info(render_update(shown(p.root), stats))
    return {"project": str(p.root), **struct_dict(stats)}


def _again(args: argparse.Namespace, root: Path) -> str:
    """The command that does what this run did not (`--full` kept: a plain `index` rebuilds
    nothing), to paste: the project's path quoted for a shell."""
    return f"unity-index index{' --full' if args.full else ''} --project {quoted(root)}"


class _TimeLimit:
    """Interrupt the main thread (as Ctrl-C does) after `seconds`; `expired()` says whether it
    did (`with` gives it too). A limit longer than a timer can wait (threading.TIMEOUT_MAX, about
    292 years) is none. One reached while the scanners' fork server starts is kept until it runs
    (`build/pool.py`). Entered from the main thread. The interrupt comes while the `with` runs
    (its entry and exit included) or never: a timer woken as the work ended interrupted whatever
    ran next (exit 130, "interrupted"), so the caller catches it around the `with`, by the
    instance made before it."""

    def __init__(self, seconds: float | None) -> None:
        import threading

        self.active = bool(seconds) and seconds < threading.TIMEOUT_MAX
        self.seconds = seconds or 0.0
        self.fired, self.done, self.deciding = threading.Event(), threading.Event(), threading.Lock()
        self.inherited: object = None

    def expired(self) -> bool:
        return self.fired.is_set()

    def __enter__(self) -> Callable[[], bool]:
        if not self.active:
            return self.expired
        import signal
        import threading

        # A process started with Ctrl-C ignored (a background job, a hook run from a tool that ignores
        # it) would never take the interrupt: it handles it for the limit's while.
        self.inherited = signal.getsignal(signal.SIGINT)
        if self.inherited == signal.SIG_IGN:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        threading.Thread(target=self._interrupt, name="time-limit", daemon=True).start()
        return self.expired

    def _interrupt(self) -> None:
        import _thread

        if self.done.wait(self.seconds):
            return
        with self.deciding:  # the work's end and the limit are told apart under one lock
            if self.done.is_set():
                return
            self.fired.set()
            _thread.interrupt_main()

    def __exit__(self, *exc: object) -> None:
        import signal

        try:
            with self.deciding:
                self.done.set()
        finally:
            if self.inherited == signal.SIG_IGN:
                signal.signal(signal.SIGINT, signal.SIG_IGN)


def _check_index(ws, as_json: bool) -> int:
    """`index --check`: exit 1 when an index is missing or stale, listing what; never writes."""
    from indexer.changes.diff import check
    from indexer.model import Staleness
    from indexer.query.status import other_format

    stale = False
    reports = []
    for p in ws.projects:
        older = other_format(p.root, p.config)  # another version's index fails the checks: not damage
        st = Staleness(indexed=False) if older else check(p.root, p.config, verify=True)
        stale = stale or st.stale
        reports.append({"project": str(p.root), "stale": st.stale, **struct_dict(st), **_other(older)})
        if not as_json:
            _print_check(p.root, st, older)
    if as_json:
        print_json({"schema_version": JSON_SCHEMA_VERSION, "stale": stale, "projects": reports})
    return EXIT_STALE if stale else EXIT_OK


def _other(older: int) -> dict[str, int]:
    """The JSON key naming the format of an index another version wrote, only when there is one
    (an index of this version keeps the documented fields, no more)."""
    return {"other_version": older} if older else {}


def _print_check(root: Path, st: Staleness, older: int) -> None:
    """`index --check`'s lines for one project."""
    where = shown(root)
    if older:
        print(f"{other_version(root, older, 'reads')}; run `unity-index index` to rebuild it (it is not damaged)")
    elif st.damaged:
        print(f"{where}: the index is damaged ({st.damaged}); run `unity-index index` to rebuild it")
    elif not st.indexed:
        print(f"{where}: no index yet; run `unity-index index`")
    elif st.stale:
        n = len(st.added) + len(st.changed) + len(st.deleted)
        differ = f"{plural(n, 'file')} {'differs' if n == 1 else 'differ'}"
        print(f"{where}: stale, {differ} from the index; run `unity-index index`")
        for what, group in (("added", st.added), ("changed", st.changed), ("deleted", st.deleted)):
            for path in group[:50]:
                print(f"  {what:<8} {path}")
            if len(group) > 50:
                print(f"  ... and {len(group) - 50} more {what}")
    else:
        print(f"{where}: up to date")


def cmd_status(args: argparse.Namespace, console: Console) -> int:
    from indexer.query.status import other_format, project_status

    ws = workspace(args)
    statuses = [project_status(p.root, p.config, verify=args.check) for p in ws.projects]
    older = [other_format(p.root, p.config) for p in ws.projects]
    if args.json:
        found = [{**struct_dict(st), **_other(n)} for st, n in zip(statuses, older, strict=True)]
        if ws.single:
            print_json({"schema_version": JSON_SCHEMA_VERSION, **found[0]})
        else:
            print_json({"schema_version": JSON_SCHEMA_VERSION, "workspace": str(ws.base), "projects": found})
    else:
        print("\n\n".join(_status_text(st, n) for st, n in zip(statuses, older, strict=True)))
    bad = any(not st.indexed or st.stale_files for st in statuses)
    return EXIT_STALE if args.check and bad else EXIT_OK


def _status_text(st: Status, older: int) -> str:
    """`status`'s text for one project, its folder's name shown as file names are (no escape
    sequence reaches the terminal raw); an index another version wrote is not called damaged."""
    import msgspec

    if older:
        return (
            f"project {shown(st.project)}\n{other_version(st.project, older, 'reads')}: not damaged;"
            " the next `unity-index index` (or any query) rebuilds it"
        )
    return render_status(msgspec.structs.replace(st, project=shown(st.project), index_dir=shown(st.index_dir)))


def cmd_watch(args: argparse.Namespace, console: Console) -> int:
    """Keep the index current from file events until Ctrl-C or SIGTERM."""
    import threading

    from indexer.changes.watch import WatchStopped, install_stop_handlers, watch

    ws = workspace(args)
    if not ws.single:
        raise UsageError("watch works on one project: pass --project with a single Unity project")
    p = ws.projects[0]
    stop = threading.Event()
    install_stop_handlers(stop)
    failed = _WaitOut(console)

    def on_batch(stats, events: int, paths: list[str] | None) -> None:
        failed.last = ""  # the failure is over: a new one is told again
        if not stats.changed_index:  # files touched, their bytes the same: nothing to tell
            return
        if args.json:
            batch = {"events": events, "paths": paths, **struct_dict(stats)}
            print_json({"schema_version": JSON_SCHEMA_VERSION, "project": str(p.root), **batch})
            sys.stdout.flush()
        else:
            console.info(batch_line(stats, paths))

    def ready() -> None:
        console.info(f"watching {shown(p.root)} (Ctrl-C to stop)")

    def on_busy(message: str) -> None:
        console.info(f"{message}: the watch applies its changes once it is done (Ctrl-C stops)")

    with contextlib.suppress(WatchStopped):  # SIGTERM or Ctrl-C: the watch's way to end
        watch(p.root, p.config, on_batch, stop, ready, on_busy, failed)
    return EXIT_OK


class _WaitOut:
    """`watch`'s answer to a failed update: a failure of the environment that time may mend (a
    full disk, a folder that cannot be written now) is said once, until its message changes, and
    waited out, the batch kept; the watch used to end at the first one, exit 2, and every change
    after it went unindexed until someone noticed. A project folder gone, its settings changed or
    the process's address space too small to write the index still end it (restarting is the fix:
    no wait raises a limit the process started with), and a bug stays a bug."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.last = ""

    def __call__(self, exc: Exception) -> bool:
        from indexer.build.address_space import AddressSpaceTooSmall
        from indexer.changes.settings import SettingsChanged
        from indexer.project import ProjectGone

        message = explain_failure(exc)
        if message is None or isinstance(exc, ProjectGone | SettingsChanged | AddressSpaceTooSmall):
            return False
        if message != self.last:  # no command to run again: the watch does it
            done = re.sub(r",? (?:and|then) run the command again$", "", message)
            self.console.error(f"{done}: the watch keeps its changes and tries again every 2 s (Ctrl-C stops)")
            self.last = message
        return True


def batch_line(stats, paths: list[str] | None, shown: int = 10) -> str:
    """One watch batch for people: what changed, and the files the batch named."""
    counts = (
        f"{stats.added} added, {stats.changed} changed, {stats.moved} moved, {stats.deleted} deleted"
        f" in {stats.seconds * 1000:.0f} ms (generation {stats.generation})"
    )
    if stats.full:  # the index was deleted or damaged under the watch: not what the saved files added
        why = f"damaged: {stats.repaired}" if stats.repaired else "written by another version" if stats.upgraded else ""
        counts = f"rebuilt the index ({why or 'it was gone'}): {counts}"
    if paths is None:
        return f"{counts}: a folder changed, so the project was walked"
    more = f", and {len(paths) - shown} more" if len(paths) > shown else ""
    return f"{counts}: {', '.join(paths[:shown])}{more}"


def cmd_hook(args: argparse.Namespace, console: Console) -> int:
    """Install or remove the git hooks that refresh the index, chaining existing hooks (or, with
    --pre-commit, our hook in .pre-commit-config.yaml)."""
    from indexer.changes.hooks import GitMissing, HookError, hooks_dir, install, uninstall

    if lacks_working_folder(args.project):
        raise UsageError(working_folder_gone("`cd` into the project again, or give --project as an absolute path"))
    base = Path(args.project).expanduser().resolve() if args.project else _project_or_cwd(args.action)
    if not base.is_dir() and not (args.action == "uninstall" and not base.exists()):
        raise UsageError(not_a_folder(args.project or "."))  # uninstall: hooks of a project since removed
    try:
        folder = hooks_dir(base)
    except GitMissing as exc:
        raise UsageError(str(exc)) from None
    except HookError:
        raise UsageError(
            f"{shown(base)} is not inside a git repository: the hooks refresh the index on git events;"
            " run `git init` first, or keep the index current with `unity-index watch`"
        ) from None
    if args.action == "install" and args.project and not _holds_projects(base):
        raise UsageError(no_project_at(args.project))  # its hooks would fail on every git command
    try:
        if args.pre_commit:
            from indexer.changes import precommit

            folder, done = (precommit.add if args.action == "install" else precommit.remove)(base)
        else:
            done = install(base) if args.action == "install" else uninstall(base)
    except HookError as exc:  # it names the hooks' folder and files
        raise UsageError(shown(str(exc))) from None
    if args.json:
        where = "config" if args.pre_commit else "hooks_dir"
        print_json({"schema_version": JSON_SCHEMA_VERSION, "action": args.action, where: str(folder), "done": done})
        return EXIT_OK
    for line in done:
        console.info(shown(line))  # the JSON keeps the path itself
    if not done:
        console.info(f"nothing to do in {shown(folder)}")
    elif args.pre_commit and args.action == "install":
        console.info("then run `pre-commit install` (it installs every hook type the config lists)")
    return EXIT_OK


def _project_or_cwd(action: str) -> Path:
    """Without --project, the hooks refresh the project found as every command finds it (the
    nearest at or above the working directory); `uninstall` falls back to the working directory,
    so hooks of a project since removed can still be taken out."""
    from indexer.project import ProjectNotFound, find_root

    try:
        return find_root(Path.cwd())
    except ProjectNotFound as exc:
        if action == "uninstall":
            return Path.cwd()
        raise UsageError(str(exc)) from None


def _holds_projects(base: Path) -> bool:
    from indexer.project import find_projects_below, is_project_root

    return is_project_root(base) or bool(find_projects_below(base))


def _add_index(sub: argparse._SubParsersAction) -> None:
    from indexer.store.lock import DEFAULT_WAIT

    p = sub.add_parser("index", help="build or update the index")
    project_arg(p)
    p.add_argument("--full", action="store_true", help="rebuild from scratch instead of updating")
    p.add_argument(
        "--wait",
        nargs="?",
        type=seconds,
        const=DEFAULT_WAIT,
        default=DEFAULT_WAIT,
        metavar="SECONDS",
        help=f"how long to wait for another indexer (default {DEFAULT_WAIT:g})",
    )
    p.add_argument("--no-wait", dest="wait", action="store_const", const=0.0, help="fail at once if another one runs")
    p.add_argument(
        "--time-limit",
        type=seconds,
        metavar="SECONDS",
        help="give up (keeping the last committed index) after this long; the git hooks use it",
    )
    p.add_argument("--quiet", action="store_true", help="print errors only")
    p.add_argument(
        "--exit-zero",
        action="store_true",
        help="exit 0 when the update fails (the error is still printed): for hooks that must never fail a commit",
    )
    p.add_argument("--json", action="store_true", help="print what was done as JSON")
    p.add_argument("--check", action="store_true", help="only report: exit 1 if the index is missing or stale")
    p.set_defaults(func=cmd_index)


def _add_status(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("status", help="what the index holds and whether it is current")
    project_arg(p)
    p.add_argument("--json", action="store_true", help="print status as JSON")
    p.add_argument("--check", action="store_true", help="exit 1 when the index is missing or stale")
    p.set_defaults(func=cmd_status)


def _add_watch(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("watch", help="keep the index current from file events (Ctrl-C stops)")
    project_arg(p)
    p.add_argument("--json", action="store_true", help="print one JSON line per applied batch")
    p.set_defaults(func=cmd_watch)


def _add_hook(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("hook", help="install git hooks that refresh the index (for repos without pre-commit)")
    p.add_argument("action", choices=("install", "uninstall"))
    project_arg(p)
    p.add_argument(
        "--pre-commit",
        action="store_true",
        help="add (or remove) our hook in the repository's .pre-commit-config.yaml instead",
    )
    p.add_argument("--json", action="store_true", help="print what was done as JSON")
    p.set_defaults(func=cmd_hook)


# The commands of this module, by name; the CLI adds them in its own order.
COMMANDS = {"index": _add_index, "status": _add_status, "watch": _add_watch, "hook": _add_hook}
