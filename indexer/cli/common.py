"""What every command shares: exit codes, the usage error, the workspace from --project, JSON
output."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from indexer.cli.console import Console
from indexer.files import undecoded
from indexer.words import echoed

EXIT_OK, EXIT_STALE, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
JSON_SCHEMA_VERSION = 1
T = TypeVar("T")


class UsageError(Exception):
    """An expected failure with a message that says what to do; exit code 2, no traceback."""


class Terminated(KeyboardInterrupt):
    """SIGTERM (`kill PID`) or SIGHUP (the terminal it runs in closed) stops a command as Ctrl-C
    does (the update in progress rolled back, scanner processes stopped, multiprocessing's folder
    removed), exit 128 + the signal's number as a shell reports a process the signal killed; their
    default action killed the indexer on the spot and left the fork server's folder behind."""

    def __init__(self, signum: int = 15) -> None:
        super().__init__(signum)
        self.signum = signum


def seconds(text: str) -> float:
    """A duration option for argparse: a finite number of seconds, 0 or more. `nan` made a wait
    for the writer lock endless (no time is past a nan deadline), a negative time limit ended a
    command at once as if interrupted."""
    import math

    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"must be a number of seconds, 0 or more (got {echoed(text)!r})")
    return value


def not_a_folder(project: str) -> str:
    """What to say when `--project` names no folder: a file, or nothing. A file of a project (a
    script, a scene, `ProjectVersion.txt`: a path pasted in place of the folder) names that project,
    as a folder inside one does (`no_project_at`)."""
    from indexer.project import is_project_root

    path = Path(project).expanduser()
    if not path.exists():
        return f"--project {shown(project)}: no such folder"
    said = f"--project {shown(project)}: a file, not a folder"
    root = next((p for p in path.resolve().parents if is_project_root(p)), None)
    return (
        said
        if root is None
        else f"{said}: it is in the Unity project {shown(root)}; give --project {quoted(str(root))}"
    )


def no_project_at(project: str) -> str:
    """What to say when `--project` names a folder that neither is nor holds a Unity project; one
    inside a project (`--project .` in `Assets/Scripts`, which works without `--project`) names
    that project, where the message said only what the folder is not."""
    from indexer.project import ProjectNotFound, find_root

    said = f"--project {shown(project)}: not a Unity project (it needs Assets/ and ProjectSettings/)"
    try:
        root = find_root(Path(project).expanduser())
    except (ProjectNotFound, OSError):
        return f"{said} and no Unity project below it"
    return (
        f"{said}: it is inside the Unity project {shown(root)}; give --project {quoted(str(root))}"
        " (or leave --project out: a command run inside a project finds it)"
    )


# A folder that is no project is answered as one workspace of the projects below it up to this
# many: past it, `--project` most likely names a folder of unrelated projects (a home folder, `/`),
# whose indexes would all be built, each in its own project's Library.
MAX_WORKSPACE_PROJECTS = 10


def too_many_projects(project: str, roots: list[Path]) -> str:
    """What to say when `--project` names a folder of more projects than are answered together."""
    listed = ", ".join(shown(root) for root in roots[:5])
    return (
        f"--project {shown(project)}: not a Unity project, and {len(roots)} projects lie below it"
        f" (more than {MAX_WORKSPACE_PROJECTS} answered together): {listed}, ...; give one of them"
    )


def working_folder() -> Path | None:
    """The working folder, or None where it was removed after the shell entered it: Path.cwd()
    then raises FileNotFoundError, which every command read as a file missing ("No such file or
    directory; check that this file or folder can be read and written"), naming none."""
    try:
        return Path.cwd()
    except FileNotFoundError:
        return None


def working_folder_gone(fix: str) -> str:
    """Why a command that needs the working folder cannot go on, and `fix`, what to do."""
    return (
        "the working folder no longer exists (deleted or replaced since the shell entered it: `index"
        f" --full` replaces the index's generation folder, gen-N/, a checkout or `rm -rf` others); {fix}"
    )


def lacks_working_folder(project: str | None) -> bool:
    """--project is missing or relative, and the folder it is read from is gone."""
    relative = not project or not Path(project).expanduser().is_absolute()
    return relative and working_folder() is None


def workspace(args: argparse.Namespace):
    """The project(s) a command works on: --project DIR (a project, or a folder holding several),
    else the nearest project at or above the working directory."""
    from indexer.config import ConfigError
    from indexer.project import ProjectNotFound, find_root, load_project_config
    from indexer.query.workspace import open_workspace, project_roots_at, projects_at

    if lacks_working_folder(args.project):
        raise UsageError(working_folder_gone("`cd` into the project again, or give --project as an absolute path"))
    try:
        if args.project:
            base = Path(args.project).expanduser()
            if not base.is_dir():
                raise UsageError(not_a_folder(args.project))
            roots = project_roots_at(base)
            if not roots:
                raise UsageError(no_project_at(args.project))
            if len(roots) > MAX_WORKSPACE_PROJECTS and roots[0] != base.resolve():
                raise UsageError(too_many_projects(args.project, roots))
            return open_workspace(base.resolve(), [(root, load_project_config(root)) for root in roots])
        try:
            root = find_root(Path.cwd())
        except ProjectNotFound as exc:
            raise UsageError(str(exc)) from None
        return open_workspace(root, projects_at(root))
    except ConfigError as exc:  # it names the file, and may quote a key of it
        raise UsageError(shown(str(exc))) from None


def explain_failure(exc: BaseException) -> str | None:
    """The message for a failure that is not a bug (a damaged index, a full disk, a folder that
    cannot be written), saying what happened and what to do; None for anything else (a bug).
    Shown as file names are: the paths it names may be the project folder's."""
    message = _explained(exc)
    return None if message is None else shown(message)


def _explained(exc: BaseException) -> str | None:
    import errno
    import sqlite3

    from indexer.build.address_space import AddressSpaceTooSmall, out_of_memory
    from indexer.changes.settings import SettingsChanged
    from indexer.project import ProjectGone
    from indexer.store.header import IndexBroken
    from indexer.store.in_place import FolderInPlace

    if isinstance(exc, ProjectGone | SettingsChanged | FolderInPlace | AddressSpaceTooSmall):
        return str(exc)
    if isinstance(exc, MemoryError):
        return out_of_memory()
    exc = _tantivy_os_error(exc)
    text = str(exc)
    full = (
        (isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT))
        or (isinstance(exc, sqlite3.Error) and getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL)
        or (isinstance(exc, ValueError) and ("No space left" in text or "StorageFull" in text))
    )
    if full:
        where = f" ({exc.filename})" if isinstance(exc, OSError) and exc.filename else ""
        return (
            f"the disk is full{where}: the index keeps its last committed state; free some space"
            " (the index takes about as much as the project's text files) and run the command again"
        )
    if isinstance(exc, IndexBroken):
        return str(exc)
    if isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE):  # no file's fault: the limit's
        return f"the process may have no more files open ({exc.strerror or exc}): raise its limit{_open_limit()}"
    unwritable = _unwritable(exc)
    if unwritable:
        return f"{unwritable}; {_CHECK_ACCESS}"
    from indexer.store.integrity import is_damage

    if is_damage(exc):  # a garbled page or blob of records.db, seen only once read
        return (
            f"the index is damaged (record store: {text}); run `unity-index index` to rebuild it"
            " (nothing in the project is lost: the index is derived from its files)"
        )
    if isinstance(exc, OSError):
        where = f": {exc.filename}" if exc.filename else ""
        if exc.filename2:  # os.replace(source, target): what is in the way is at the target
            where = f": {exc.filename2} (replacing it with {exc.filename})"
        return f"{exc.strerror or exc}{where}; {_CHECK_ACCESS}"
    return None


def _open_limit() -> str:
    """How to raise the limit of open files, with its value where the system tells it."""
    try:
        import resource

        now = f", {resource.getrlimit(resource.RLIMIT_NOFILE)[0]} now"
    except (ImportError, OSError, ValueError):  # no such limit (Windows)
        now = ""
    return f" (`ulimit -n`{now}) and run the command again"


_CHECK_ACCESS = (
    "check that this file or folder can be read and written (and that the disk has room), then run the command again"
)
# tantivy's failures to read or write its files are ValueErrors naming the OS error, in words
# ("An IO error occurred: 'Permission denied (os error 13) at path \"...\"'") or in Rust's
# ("Failed to open file for write: 'IoError { ... path: \"...\", err: Os { code: 13, ... } ...'"),
# or, from its writer's threads, only that one failed ("An index writer was killed.. (io::Error
# most likely)": `_unwritable`).
_TANTIVY_ERRNO = re.compile(r"\(os error ([0-9]+)\)|\bOs \{ code: ([0-9]+)")
_TANTIVY_PATH = re.compile(r"\b(?:at path|path:) \"([^\"]*)\"")


def _tantivy_os_error(exc: BaseException) -> BaseException:
    """`exc`, or the OSError a tantivy ValueError says it was (a folder made read-only)."""
    m = _TANTIVY_ERRNO.search(str(exc)) if isinstance(exc, ValueError) else None
    if m is None:
        return exc
    code = int(m.group(1) or m.group(2))
    path = _TANTIVY_PATH.search(str(exc))
    return OSError(code, os.strerror(code), path.group(1)) if path else OSError(code, os.strerror(code))


def _unwritable(exc: BaseException) -> str:
    """What says that an index file cannot be written, not that it is damaged ('' if nothing):
    SQLite's read-only database or refused write, tantivy's writer thread stopped by an IO error."""
    from indexer.store.integrity import cannot_write

    if cannot_write(exc):
        return f"the index's record store cannot be written ({exc})"
    if isinstance(exc, ValueError) and "io::Error" in str(exc):
        return f"the index's full-text files cannot be written ({exc})"
    return ""


def print_json(obj: object) -> None:
    """`obj` as one line of JSON: UTF-8, or in ASCII (`\\uXXXX` escapes, the same JSON) on a stream
    whose encoding cannot hold every character."""
    import msgspec

    try:
        data = msgspec.json.encode(obj)
    except UnicodeEncodeError:  # a project folder named with bytes that are not UTF-8: shown as \xNN
        data = msgspec.json.encode(_utf8(msgspec.to_builtins(obj)))
    text = data.decode()
    sys.stdout.write((text if holds_every_character(sys.stdout) else _ascii_json(text)) + "\n")


def holds_every_character(stream: Any) -> bool:
    """Whether `stream` encodes every character (a UTF): Windows writes a redirected stream, as
    coding agents read every command's output, in its ANSI code page (cp1252 in the West)."""
    import codecs

    try:
        name = codecs.lookup(getattr(stream, "encoding", None) or "utf-8").name
    except LookupError:
        return True
    return name.startswith(("utf-8", "utf-16", "utf-32"))


def _ascii_json(text: str) -> str:
    """JSON text with each character past ASCII as its `\\uXXXX` escape (a surrogate pair past
    U+FFFF): the same JSON. Outside strings JSON is ASCII, so only strings change."""

    def escaped(m: re.Match[str]) -> str:
        code = ord(m.group())
        if code <= 0xFFFF:
            return f"\\u{code:04x}"
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"

    return re.sub(r"[^\x00-\x7f]", escaped, text)


def _utf8(value: object) -> object:
    """`value` with each string's undecodable bytes (Python's surrogate escapes) written `\\xNN`."""
    if isinstance(value, str):
        return undecoded(value)
    if isinstance(value, dict):
        return {_utf8(k): _utf8(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_utf8(v) for v in value]
    return value


def struct_dict(s: object) -> dict:
    import msgspec

    return msgspec.to_builtins(s)


def shown(path: object) -> str:
    """A project's folder (or a name in it) for a message: as file names are shown, control
    characters and undecodable bytes as `\\xNN`, so an escape sequence in a cloned project's
    folder name never reaches the terminal raw."""
    from indexer.project import printable_path

    return printable_path(path)


def quoted(path: object) -> str:
    """A path in a command a message offers to paste: quoted for a shell (a space or `$` in a
    folder's name split or expanded it), then shown as above."""
    import shlex

    return shown(shlex.quote(str(path)))


def other_version(root, fmt: int, verb: str) -> str:
    """What to tell a user whose index an older (or newer) unity-index wrote."""
    from indexer.model import SCHEMA_VERSION

    return (
        f"the index of {shown(root)} was written by another version of unity-index"
        f" (format {fmt}, this one {verb} {SCHEMA_VERSION})"
    )


REFRESH_WAIT = 10.0  # seconds a command waits for another writer (a watcher) before answering as it is


def answer_current(ws, console: Console, refresh: bool, answer: Callable[[Any], T]) -> T:
    """`answer(ws)` from indexes as current as the files: a project without one is built first;
    with `refresh`, the answer is computed while another thread asks whether files changed since
    (`diff.needs_update`: mostly a `git status` in its own process, 0.15-0.25 s at 58,000 files)
    and, when they had, computed again once they are updated. A current index, the common case,
    then costs the longer of the two rather than their sum. An answer that failed on the index
    as it was (a file added since) is asked again after the update too."""
    _build_missing(ws, console)
    if not refresh:
        return answer(ws)
    check = _StaleCheck(ws.projects)
    try:
        answered = answer(ws)
    except Exception:
        stale = check.stale()
        if not stale:
            raise
    else:
        stale = check.stale()
        if not stale:
            return answered
    for p in stale:
        _update_stale(p, console)
    return answer(ws)


class _StaleCheck:
    """`needs_update` of each project, run in a daemon thread (its own readers; git in its own
    process): a Ctrl-C is not held up by a `git status` on a large tree."""

    def __init__(self, projects: list) -> None:
        import threading

        self._projects = projects
        self._stale: list | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="unity-index-stale-check", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        from indexer.changes.diff import needs_update

        try:
            self._stale = [p for p in self._projects if needs_update(p.root, p.config)]
        except BaseException as exc:  # raised in the thread that waits for it
            self._error = exc

    def stale(self) -> list:
        """The projects whose files changed since their index was updated (waits for the check)."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._stale or []


def _build_missing(ws, console: Console) -> None:
    """Build the index of any project of the workspace that has none yet (or one this version
    cannot read), saying why."""
    from indexer.store.header import header_ok
    from indexer.store.integrity import other_format
    from indexer.store.lock import DEFAULT_WAIT, IndexBusy

    for p in ws.projects:
        if header_ok(p.paths):
            continue
        from indexer.build.update import update  # a writer's import: only when there is no index

        older = other_format(p.paths)
        if older:
            what = other_version(p.root, older, "reads")
        elif any(f.exists() for f in (p.paths.header, p.paths.records, p.paths.tantivy)):
            what = f"the index of {shown(p.root)} cannot be used (damaged or incomplete)"
        else:
            what = f"no index for {shown(p.root)} yet"
        console.info(f"{what}: building it")
        try:
            update(
                p.root,
                p.config,
                wait=DEFAULT_WAIT,
                on_wait=lambda msg: console.info(f"{msg}: waiting for it (up to {DEFAULT_WAIT:g} s)"),
                progress=console.progress(f"indexing {shown(p.name)}"),
            )
        except IndexBusy as exc:
            raise UsageError(f"{exc}; no index yet: ask again when it is done") from None


def _update_stale(p, console: Console) -> None:
    """Update the index of project `p`, which files changed since; when another process is
    writing it past REFRESH_WAIT, or it cannot be written, answer from it as it is, saying so."""
    from indexer.build.update import update  # a writer's import: only when files changed
    from indexer.store.lock import IndexBusy

    try:
        stats = update(p.root, p.config, wait=REFRESH_WAIT, progress=console.progress(f"updating {shown(p.name)}"))
    except IndexBusy as exc:
        console.info(f"{exc}: answering from the index as it is")
        return
    except Exception as exc:  # a read-only index folder, a full disk: not a bug, and the index is whole
        from indexer.project import ProjectGone

        said = explain_failure(exc)
        if said is None or isinstance(exc, ProjectGone):
            raise
        console.info(f"the index of {shown(p.name)} could not be updated: {said}; answering from it as it is")
        return
    counts = ((stats.added, "added"), (stats.changed, "changed"), (stats.moved, "moved"), (stats.deleted, "deleted"))
    done = [f"{n} {what}" for n, what in counts if n]
    if done:
        console.info(f"files changed since the index of {shown(p.name)} was updated ({', '.join(done)}): updated it")


def refresh_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--no-refresh",
        dest="refresh",
        action="store_false",
        help="answer from the index as it is, without looking for files changed since it was updated",
    )


def kinds() -> frozenset[str]:
    from indexer.kinds import searchable_kinds

    return searchable_kinds()


PROJECT_HELP = "Unity project root, or a folder holding several (default: nearest project above the working directory)"


def project_dir(text: str) -> str:
    """`--project`'s value. An empty one, a script's unset `$PROJECT`, is refused: read as no
    `--project`, it ran the command on whatever project the working directory is in."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "is empty: give the project's folder, or leave --project out for the project above the working directory"
        )
    return text


def project_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--project", metavar="DIR", type=project_dir, help=PROJECT_HELP)
