"""Where a Unity project is and which of its files the index covers.

Unity's own rules decide what is part of a project: generated folders at the root (Library, Temp,
...) are not, and inside Assets and packages hidden names, names ending in `~`, `cvs` folders and
`*.tmp` files are ignored by the editor, so they are ignored here too.
"""

from __future__ import annotations

import errno
import fnmatch
import json
import os
import re
import stat as statmode
from collections.abc import Callable
from pathlib import Path

from indexer.config import (
    CONFIG_FILE,
    CONTENT_ROOTS,
    DEFAULT_INDEX_DIR,
    Config,
    ConfigError,
    collapse_double_stars,
    load_config,
)
from indexer.files import digest_of
from indexer.kinds import FOLDER_KIND, KINDS, OTHER_KIND, SETTINGS_KIND
from indexer.model import FileStat

# Top-level folders of a project root that hold project content.
PACKAGE_CACHE = "Library/PackageCache"  # registry packages' sources; indexed only when configured
ROOT_SKIP = frozenset({"Library", "Temp", "Obj", "obj", "Logs", "UserSettings", "Build", "Builds"})


class ProjectNotFound(Exception):
    """No Unity project at or above the given place; carries the projects found below it."""

    def __init__(self, start: Path, below: list[Path]):
        self.start = start
        self.below = below
        hint = ""
        if below:  # a folder's name is shown as file names are: no escape sequence reaches the terminal
            listed = "\n".join(f"  {printable_path(p)}" for p in below[:10])
            hint = f"\nUnity projects found below it:\n{listed}\nPass one with --project DIR."
        else:
            hint = "\nRun inside a Unity project (a folder holding Assets/ and ProjectSettings/) or pass --project DIR."
        super().__init__(f"no Unity project at or above {printable_path(start)}{hint}")


class ProjectGone(Exception):
    """The project folder an update was given is gone, or no longer a Unity project: moved or
    deleted while a watch or server ran. Nothing is written: the index folder would be made again
    there (and the folders above it). A recursive delete (`rm -rf`) takes the folder's content one
    folder after another, and an update made while it runs (`ProjectSettings/` or `Assets/` gone,
    the folder still there) wrote the index again into `Library/` as rm emptied it: rm failed
    ("Directory not empty") and the folder stayed, holding an index of nothing. `missing` names the
    folder that went; the server's watcher tries again (every 2 s) and goes on once both are back."""

    def __init__(self, root: Path, missing: str = ""):
        what = f"is no longer a Unity project ({missing}/ is gone: moved or deleted)" if missing else "is gone"
        what += "" if missing else " (moved or deleted)"
        super().__init__(
            f"{printable_path(root)}: the project folder {what}; nothing was written there: run the"
            " command again in the project's new place"
        )


def check_present(root: Path) -> None:
    """ProjectGone when `root` is gone or lacks `ProjectSettings/` or `Assets/` (see ProjectGone)."""
    if not root.is_dir():
        raise ProjectGone(root)
    for folder in ("ProjectSettings", "Assets"):
        if not (root / folder).is_dir():
            raise ProjectGone(root, folder)


def is_project_root(path: Path) -> bool:
    """Whether `path` holds `Assets/` and `ProjectSettings/`. A folder that cannot be entered
    (another user's, `lost+found`) is none: `Path.is_dir` raises PermissionError there, and the
    search for projects below a folder must pass over it, not stop every command."""
    try:
        return (path / "Assets").is_dir() and (path / "ProjectSettings").is_dir()
    except OSError:
        return False


def find_root(start: Path) -> Path:
    """The nearest ancestor of `start` (itself included) that is a Unity project root."""
    start = start.resolve()
    for candidate in (start, *start.parents):
        if is_project_root(candidate):
            return candidate
    raise ProjectNotFound(start, find_projects_below(start))


def find_projects_below(start: Path, max_depth: int = 4, skip: frozenset[Path] = frozenset()) -> list[Path]:
    """Unity project roots under `start`, shallow first, for the error message and multi-project repos.
    Folders in `skip` are neither reported nor looked into."""
    found: list[Path] = []
    frontier = [start]
    for _ in range(max_depth):
        nxt: list[Path] = []
        for folder in frontier:
            try:
                entries = sorted(os.scandir(folder), key=lambda e: e.name)
            except OSError:
                continue
            for e in entries:
                if not e.is_dir(follow_symlinks=False) or e.name.startswith(".") or e.name in ROOT_SKIP:
                    continue
                p = Path(e.path)
                if p in skip:
                    continue
                if is_project_root(p):
                    found.append(p)
                else:
                    nxt.append(p)
        frontier = nxt
    return found


def kind_of(rel: str, mode: int = 0) -> str:
    """The kind of the project entry `rel` (`mode` from its lstat, when known)."""
    if statmode.S_ISDIR(mode):
        return FOLDER_KIND
    if rel.startswith("ProjectSettings/"):
        return SETTINGS_KIND
    ext = os.path.splitext(rel)[1].lower()
    return KINDS.get(ext, OTHER_KIND)


def file_title(path: str) -> str:
    """A file's name without its folder and its last extension (`Desert Session Timing` of
    `Assets/Missions/Desert Session Timing.asset`; the whole name when it has no dot): how a
    person names the file, and what Unity names the object a prefab or asset holds."""
    return path.rsplit("/", 1)[-1].rsplit(".", 1)[0]


def is_script(path: str) -> bool:
    """A C# script by its path, as `kind_of` tells (its extension in any case, as Unity reads it:
    `Player.CS`): not `path.endswith(".cs")`. Asked of every file a query's walk reaches, so told
    from the path's end without `kind_of`'s split (250 ns a call, against 590)."""
    return _has_ext(path, ".cs") and not path.startswith("ProjectSettings/")


def is_prefab(path: str) -> bool:
    """A prefab by its path, as `kind_of` tells (`Player.PREFAB` is one)."""
    return _has_ext(path, ".prefab") and not path.startswith("ProjectSettings/")


def is_scene(path: str) -> bool:
    """A scene by its path, as `kind_of` tells (`Boss.UNITY` is one, a dot file `.unity` none)."""
    return _has_ext(path, ".unity") and not path.startswith("ProjectSettings/")


def _has_ext(path: str, ext: str) -> bool:
    """`os.path.splitext(path)[1].lower() == ext`, told from the end of the path."""
    n = len(ext)
    if not (path.endswith(ext) or path[-n:].lower() == ext):
        return False
    before = path[-n - 1 : -n]  # `A/.cs` is a dot file with no extension, as `A/..cs` is
    return before not in ("", "/") and (before != "." or os.path.splitext(path)[1].lower() == ext)


def kind_test(kinds: frozenset[str]) -> Callable[[str], bool]:
    """Whether an indexed file may be of one of `kinds`, told by its path without its stat: a
    file's stored kind is the one its path gives (`kind_of`: by its extension, after the last dot
    of its name), an unreadable folder's FOLDER_KIND. A kind-naming task's chain reads
    the stats of only those among the hundreds of files its seeds use, with one string test each.
    (A name that is only a dot and an extension, `.prefab`, passes where `kind_of` gives no kind:
    it is read, as before.)"""
    if kinds & {FOLDER_KIND, SETTINGS_KIND, OTHER_KIND}:
        return lambda path: True
    extensions = frozenset(ext for ext, kind in KINDS.items() if kind in kinds)
    return lambda path: path[path.rfind(".") :].lower() in extensions


# Characters a stored path never holds as such: undecodable bytes (which Python's file system
# encoding turns into the lone surrogates U+DC80..U+DCFF), control characters (C0, DEL and C1:
# U+009B is a terminal's CSI), the Unicode line and paragraph separators (lines to a reader that
# splits on them), the bidirectional controls (`Admin\u202egnp.cs` shows as `Adminsc.png`) and the
# backslash.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\\\\\udc80-\udcff]")
_ESCAPE = re.compile(r"\\(?:\\|x([0-9a-f]{2}))")


def printable(name: str) -> str:
    """A file name as the index stores and shows it: itself when it is plain text (valid UTF-8,
    no control character, line separator or bidirectional control, no backslash); else each
    undecodable byte written as `\\xNN` (two lower-case hex digits), each of those characters as its UTF-8
    bytes so written (U+009B as `\\xc2\\x9b`), each backslash as `\\\\`. Plain names never hold a
    backslash, so the form is reversible (`fs_name`)."""
    if name.isascii() and name.isprintable() and "\\" not in name:
        return name
    if not _UNPRINTABLE.search(name):
        return name
    return _UNPRINTABLE.sub(_escaped, name)


def printable_path(path: object) -> str:
    """A folder's path for a message, its names in `printable` form but its backslashes (Windows'
    separators) kept: an escape sequence in a project folder's name never reaches the terminal."""
    return "\\".join(printable(part) for part in str(path).split("\\"))


def _escaped(match: re.Match[str]) -> str:
    char = match.group()
    if char == "\\":
        return "\\\\"
    raw = char.encode("utf-8", "surrogateescape")  # an undecodable byte is itself again
    return "".join(f"\\x{b:02x}" for b in raw)


def fs_name(rel: str) -> str:
    """The file system name of a path in `printable` form (undecodable bytes as Python's
    surrogate escapes, which os functions accept)."""
    if "\\" not in rel:
        return rel
    out = bytearray()
    pos = 0
    for m in _ESCAPE.finditer(rel):
        out += rel[pos : m.start()].encode("utf-8", "surrogateescape")
        out += b"\\" if m.group(1) is None else bytes([int(m.group(1), 16)])
        pos = m.end()
    out += rel[pos:].encode("utf-8", "surrogateescape")
    return os.fsdecode(bytes(out))


def can_list(folder: str | bytes | Path) -> bool:
    """Whether a folder can be listed; one that is gone counts as listable (its deletion is
    reported on its own)."""
    try:
        with os.scandir(folder):
            return True
    except FileNotFoundError:
        return True
    except OSError:
        return False


def folder_reason(exc: OSError) -> str:
    """Why a folder the walk cannot open is recorded in place of its files."""
    return f"folder cannot be read: {exc.strerror or exc}; its files are left out of the index"


def unreadable_reason(rel: str, mode: int) -> str:
    """Why the project entry `rel` (`printable` form; `mode` from its lstat) is recorded but never
    read, '' when it can be read: a name that is not plain text, a symbolic link (which may point
    outside the project), a pipe, socket or device (reading a pipe blocks), or a folder (the walk
    lists a folder's files instead: one is met here when it took a file's place since the walk)."""
    if "\\" in rel:
        return (
            "name is not plain UTF-8 text (undecodable bytes, a control character or a backslash);"
            " shown with \\xNN escapes, rename the file to index it"
        )
    if statmode.S_ISLNK(mode):
        return "symbolic link: not followed (it may point outside the project)"
    if statmode.S_ISDIR(mode):
        return "a folder, not a file: it took the file's place since the project was walked"
    if not statmode.S_ISREG(mode):
        return "not a regular file (a pipe, socket or device)"
    return ""


def _ignored_name(name: str) -> bool:
    return name.startswith(".") or name.endswith("~") or name.lower() == "cvs" or name.endswith(".tmp")


def _zero_folder_forms(pattern: str) -> list[str]:
    """A pattern and its forms with any `**/` matching no folder at all, as in `.gitignore`:
    `Assets/**/Generated/*.cs` also leaves out `Assets/Generated/x.cs`, which fnmatch alone
    would not (its `**/` needs a folder)."""
    head, sep, tail = pattern.partition("**/")
    if not sep:
        return [pattern]
    return [head + sep + t for t in _zero_folder_forms(tail)] + [head + t for t in _zero_folder_forms(tail)]


MANIFEST = "Packages/manifest.json"
MANIFEST_MAX_BYTES = 1 << 20


def local_packages(root: Path) -> tuple[str, ...]:
    """The folders `Packages/manifest.json` installs as local packages (`"file:../X"`) that lie in
    the project folder outside its content folders: Unity imports their files as it imports
    `Assets/`, and a repository that keeps its own packages beside the project (`ExternalPackages/`)
    is mostly code the project is made of. A package outside the project folder, a tarball, a
    folder reached through a link or under a generated folder (`Library/`) is not one."""
    data = read_project_file(root, MANIFEST, MANIFEST_MAX_BYTES)
    try:
        dependencies = json.loads(data).get("dependencies") if data else None
    except (ValueError, AttributeError, RecursionError):  # (a thousand levels of `[`)
        return ()
    if not isinstance(dependencies, dict):
        return ()
    found: set[str] = set()
    for value in dependencies.values():
        if not isinstance(value, str) or not value.startswith("file:") or value.endswith((".tgz", ".tar.gz")):
            continue
        target = os.path.normpath(os.path.join(root, "Packages", value[len("file:") :]))
        rel = os.path.relpath(target, root).replace(os.sep, "/")
        parts = rel.split("/")
        if rel == "." or parts[0] in ("..", *CONTENT_ROOTS, *ROOT_SKIP) or parts[0].startswith("."):
            continue
        if printable(rel) == rel and all(_plain_folder(root.joinpath(*parts[: i + 1])) for i in range(len(parts))):
            found.add(rel)
    return tuple(sorted(f for f in found if not any(f.startswith(o + "/") for o in found)))


def content_tops(root: Path) -> tuple[str, ...]:
    """The folders whose files are the project's: its content folders and its local packages."""
    return (*CONTENT_ROOTS, *local_packages(root))


def _plain_folder(path: Path) -> bool:
    """A folder that is not a link (a link may lead out of the project)."""
    try:
        return statmode.S_ISDIR(os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False


def load_project_config(root: Path) -> Config:
    """`load_config`, with `index_dir` also checked against the folders the walk lists besides the
    content folders (the local packages the manifest names, the package cache when indexed): the
    index may be neither one of them nor above one, or its files would be indexed as content."""
    config = load_config(root)
    where = config.index_path(root).resolve()
    for top in package_tops(root, config):
        folder = (root / top).resolve()
        if where == folder or where in folder.parents:
            raise ConfigError(
                f"{root / CONFIG_FILE}: index_dir must be a folder of its own (got {config.index_dir!r}, which"
                f" is {where}): not {top} or a folder above it, which the index covers; the default is"
                f" {DEFAULT_INDEX_DIR}"
            )
    return config


def package_tops(root: Path, config: Config) -> tuple[str, ...]:
    """The folders of packages the walk lists: local packages, and the package cache when configured."""
    return (*local_packages(root), *((PACKAGE_CACHE,) if config.include_package_cache else ()))


class Coverage:
    """Which project paths the index covers: Unity's ignore rules, the configured exclusions and
    the index folder (when configured inside the project). The walk and the checks of single
    paths (watch, journal, git) apply these same rules."""

    def __init__(self, root: Path, config: Config):
        # `/Assets/X/`, as .gitignore anchors a folder, is `Assets/X`: paths here have no slash around
        patterns = (collapse_double_stars(pat).strip("/") for pat in config.exclude)
        self.excludes = tuple(dict.fromkeys(v for pat in patterns if pat for v in _zero_folder_forms(pat)))
        # a pattern naming a top folder, or a folder along a local package's path, leaves it all out
        tops = (*CONTENT_ROOTS, *package_tops(root, config))
        self.tops = tuple(t for t in tops if not any(self._excluded(p) for p in _prefixes(t)))
        # resolved, as `config.index_dir_problem` reads it: `Library/../Assets/Idx`, or a link to a
        # folder of the project, is the folder the walk meets, which must not be indexed as content
        index_dir, top = config.index_path(root).resolve(), root.resolve()
        self.index_rel = index_dir.relative_to(top).as_posix() if index_dir.is_relative_to(top) else None

    def skips(self, rel: str, name: str) -> bool:
        """Whether the entry `rel` (last part `name`) below a top folder is left out, with all
        it holds."""
        if _ignored_name(name) or rel == self.index_rel:
            return True
        return self._excluded(rel)

    def _excluded(self, rel: str) -> bool:
        return bool(self.excludes) and any(fnmatch.fnmatchcase(rel, pat) for pat in self.excludes)

    def covers(self, rel: str) -> bool:
        """Whether the walk would list the project-relative file path `rel`."""
        top = next((t for t in self.tops if rel.startswith(t + "/")), None)
        if top is None:
            return False
        parts = rel.split("/")
        return not any(self.skips("/".join(parts[: i + 1]), parts[i]) for i in range(top.count("/") + 1, len(parts)))


def _prefixes(rel: str) -> list[str]:
    """`A`, `A/B`, `A/B/C` of `A/B/C`: the folders along a path, itself last."""
    parts = rel.split("/")
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


def content_differs(root: Path, rel: str, prev: FileStat, max_bytes: int) -> bool:
    """Whether the file's content hash differs from the record's (an unreadable file differs)."""
    data = read_project_file(root, rel, max_bytes + 1)
    return data is None or digest_of(data) != prev.digest


class NotRead(OSError):
    """A project file found not to be a regular file inside the project when opened (a link or a
    pipe swapped in after the walk saw a regular file): its `strerror` is the reason recorded."""


def read_inside(root: Path | str, rel: str, limit: int, real_root: str | None = None) -> bytes:
    """The first `limit` bytes of the project file `rel` (`printable` form), a regular file inside
    the project; NotRead otherwise, saying why as the walk does (`unreadable_reason`): a symlink
    swapped in for an indexed file (or for a folder above it) must not show the file it points to,
    which may lie outside the project, and a named pipe must not block the reader. Other OSError
    as the system raised it. `real_root`: the project folder's real path, when the caller knows it
    (a reader of many files resolves it once)."""
    full = os.path.join(root, fs_name(rel))
    try:
        fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # its own name is a link (O_NOFOLLOW)
            raise NotRead(errno.ELOOP, unreadable_reason(rel, statmode.S_IFLNK), full) from None
        raise
    try:
        st = os.fstat(fd)
        if not statmode.S_ISREG(st.st_mode):
            raise NotRead(errno.EINVAL, unreadable_reason(rel, st.st_mode), full)
        if not _opened_inside(real_root or os.path.realpath(root), full, fd):
            raise NotRead(errno.ELOOP, unreadable_reason(rel, statmode.S_IFLNK), full)
        return _read_up_to(fd, limit, st.st_size)
    finally:
        os.close(fd)


def read_project_file(root: Path, rel: str, limit: int, real_root: str | None = None) -> bytes | None:
    """`read_inside`, None where it raises (a name no path can hold, too)."""
    try:
        return read_inside(root, rel, limit, real_root)
    except (OSError, ValueError):
        return None


def _opened_inside(real_root: str, full: str, fd: int) -> bool:
    """The file opened as `fd` (its own name no link: O_NOFOLLOW) lies inside the project. Where
    the system names an open file's real path (Linux's /proc/self/fd), that one read stands for
    resolving every folder above it, each an lstat (together most of the cost of a small read)."""
    try:
        real = os.path.dirname(os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:
        real = ""
    if not real.startswith("/") or real.endswith(" (deleted)"):  # no /proc, or the name is gone
        real = os.path.realpath(os.path.dirname(full))
    return os.path.commonpath([real_root, real]) == real_root


def _read_up_to(fd: int, limit: int, size: int) -> bytes:
    """The first `limit` bytes of an open regular file of `size` bytes (as stat saw it: it may have
    grown since). Read in as many bytes as the file holds: a buffered `read(limit)` sets aside
    `limit` bytes first (a megabyte for a file of a few kilobytes), which cost more than the read."""
    data = os.read(fd, min(limit, size + 1))
    if len(data) <= size or len(data) >= limit:
        return data  # the end of the file (or of the limit) was reached
    chunks = [data]
    got = len(data)
    while got < limit and (more := os.read(fd, min(limit - got, 1 << 20))):
        chunks.append(more)
        got += len(more)
    return b"".join(chunks)
