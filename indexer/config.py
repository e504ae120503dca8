"""Per-project settings: defaults, optionally overridden by `unity-index.toml` at the project root.

Passed in explicitly; nothing reads global state. Unknown keys and wrong types are errors that name
the key and the file, never silently ignored.
"""

from __future__ import annotations

import errno
import fnmatch
import math
import os
import re
import tomllib
from pathlib import Path

import msgspec

from indexer.files import read_regular, read_state, undecoded
from indexer.home import expand_home, home_folder, no_home

CONFIG_FILE = "unity-index.toml"
DEFAULT_INDEX_DIR = "Library/UnityIndex"
DEFAULT_MAX_FILE_MB = 50.0
MAX_FILE_MB_LIMIT = 1_000_000  # about a terabyte: any real cap, and still a 64-bit byte count
# ... and 1 KB the least: a smaller cap (`1e-300` rounded to 0 bytes) skips nearly every file, which no
# project can mean; a typo, not a setting.
MIN_FILE_MB = 0.001
CONTENT_ROOTS = ("Assets", "Packages", "ProjectSettings")  # the folders of a project Unity imports
# An exclude's `**/` may match no folder: each doubles the patterns tried on every path
# (`project.Coverage`), so a pattern may hold this many, a run of them (`**/**/`) counting once.
MAX_DOUBLE_STARS = 8
# ... and the forms of all the patterns together, each tried on every path: 51,200 (200 patterns of
# 8) outgrew fnmatch's cache of compiled patterns, and a walk of 213 files took over 5 minutes.
MAX_EXCLUDE_FORMS = 1024
SQLITE_PATH_MAX = 504  # bytes of a database's path SQLite opens: 512 (its MAX_PATHNAME) less `-journal`
GENERATION_FILE_TAIL = "/gen-99999/records.db"  # a record store in an index folder, to its 99,999th rebuild
CONFIG_MAX = 1024 * 1024  # bytes of unity-index.toml read: 200 exclude patterns take about 10 KB


class ConfigError(Exception):
    """The configuration file is unreadable or invalid; the message says where and how."""


class Config(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    index_dir: str = DEFAULT_INDEX_DIR  # relative to the project root, or absolute
    max_file_mb: float = DEFAULT_MAX_FILE_MB  # larger files are recorded, not parsed
    exclude: tuple[str, ...] = ()  # extra glob patterns, project-relative with forward slashes
    include_package_cache: bool = False  # also index Library/PackageCache (registry package sources)
    workers: int = 0  # scanner processes; 0 = one per core

    @property
    def max_file_bytes(self) -> int:
        return int(self.max_file_mb * 1024 * 1024)

    def index_path(self, root: Path) -> Path:
        p = Path(self.index_dir)
        return p if p.is_absolute() else root / p


# The keys a user may set, as error messages list them (the docs are not installed with the package).
KEYS = (
    "index_dir (a folder), max_file_mb (a number), exclude (a list of globs),"
    " include_package_cache (true or false), workers (an integer)"
)


def load_config(root: Path) -> Config:
    """The project's configuration: `unity-index.toml` at its root if present, else defaults."""
    path = root / CONFIG_FILE
    if not path.is_file():
        return _defaults(root, path)
    try:
        data = tomllib.loads(_config_text(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid TOML: nested too deep") from None
    try:
        config = msgspec.convert(data, Config)
    except msgspec.ValidationError as exc:
        raise ConfigError(f"{path}: {exc}; the keys are {KEYS}") from None
    if not (math.isfinite(config.max_file_mb) and MIN_FILE_MB <= config.max_file_mb <= MAX_FILE_MB_LIMIT):
        raise ConfigError(
            f"{path}: max_file_mb must be at least {MIN_FILE_MB} and at most {MAX_FILE_MB_LIMIT} (megabytes;"
            f" got {config.max_file_mb:.15g})"
        )
    if config.workers < 0:
        raise ConfigError(f"{path}: workers must be 0 (one per core) or more")
    for pattern in config.exclude:
        if (problem := _pattern_problem(pattern) or _bracket_problem(root, pattern)) is not None:
            raise ConfigError(f"{path}: the exclude pattern {pattern[:200]!r} {problem}")
    if (forms := sum(2 ** collapse_double_stars(p).count("**/") for p in set(config.exclude))) > MAX_EXCLUDE_FORMS:
        raise ConfigError(
            f"{path}: the exclude patterns are tried in {forms:,} forms on every path (each `**/` doubles its"
            f" pattern's), more than {MAX_EXCLUDE_FORMS:,}: use fewer patterns, with fewer `**/`, or leave out"
            " whole folders (Assets/ThirdParty/**)"
        )
    if config.index_dir.startswith("~"):  # the home folder, as in a shell: not a folder named `~`
        home = expand_home(config.index_dir)
        if home is None:
            mine = config.index_dir.partition("/")[0] == "~"
            whose = f"the home folder, which is unknown ({no_home()})" if mine else "the home folder of an unknown user"
            raise ConfigError(
                f"{path}: index_dir names {whose} (got {config.index_dir!r}); give a folder, e.g. {DEFAULT_INDEX_DIR}"
            )
        config = msgspec.structs.replace(config, index_dir=home)
    problem = index_dir_problem(root, config)
    if problem:
        raise ConfigError(f"{path}: {problem}")
    return config


def _config_text(path: Path) -> str:
    """The text of a configuration file (read past a BOM, as Windows editors save one), of at most
    CONFIG_MAX bytes, else OSError: it was read whole, and a sparse file of 600 MB planted as a
    project's `unity-index.toml` took every command 3 s and 1.2 GB before it was refused."""
    data = read_regular(path, CONFIG_MAX + 1)
    if len(data) > CONFIG_MAX:
        raise OSError(errno.EFBIG, f"larger than {CONFIG_MAX >> 20} MB, where a configuration is a few lines")
    return data.decode("utf-8-sig")


def _defaults(root: Path, path: Path) -> Config:
    """The configuration without a config file, where the default index folder can hold one."""
    if (problem := _not_a_file(path)) is not None:
        raise ConfigError(problem)
    config = Config()
    where = config.index_path(root)
    if (problem := _leads_nowhere(where)) is not None:
        raise ConfigError(problem)
    if where.exists() and not where.is_dir():  # the default folder's name taken by a file
        raise ConfigError(
            f"{where} is a file, not a folder: the index is kept in a folder of that name by default;"
            f" move the file away, or set index_dir in {CONFIG_FILE}"
        )
    if (problem := _not_utf8(where.resolve()) or _too_long(where.resolve()) or _foreign_files(where)) is not None:
        raise ConfigError(problem)
    return config


def _not_a_file(path: Path) -> str | None:
    """Why a config that is there but no file cannot be read (None: there is none). A link to
    nothing (a shared config on a drive not mounted) or a folder was read as no config: its
    `exclude` and `index_dir` dropped, and a second index built in the default folder."""
    if path.is_symlink() and not path.exists():
        what = f"a link to {os.readlink(path)}, which does not exist"
    elif path.is_dir():
        what = "a folder"
    elif path.exists():
        what = "a pipe, socket or device"
    else:
        return None
    return f"{path}: not a file ({what}), so its settings cannot be read; make it a file, or remove it for the defaults"


def _pattern_problem(pattern: str) -> str | None:
    """Why an exclude pattern is refused: it would cost too much, or it matches no project path,
    which is matched as `Assets/...` with forward slashes (`./Assets/X/**`, `Assets\\X\\**`, a
    `..` or an empty pattern matched nothing, and the folder the user left out was indexed without
    a word)."""
    stars = collapse_double_stars(pattern).count("**/")
    if stars > MAX_DOUBLE_STARS:
        return (
            f"has {stars} `**/`, more than {MAX_DOUBLE_STARS}: each may match no folder, which doubles"
            " the patterns tried on every path"
        )
    if not pattern.strip("/"):  # `""`, `"/"`: a leading or trailing slash is dropped, leaving nothing
        return "is empty: it matches no path; give a glob such as Assets/ThirdParty/**"
    if "\\" in pattern or any(part in (".", "..") for part in pattern.split("/")):
        return (
            "matches no path: paths are matched relative to the project folder, with forward slashes and"
            " no `.` or `..` (e.g. Assets/ThirdParty/**)"
        )
    return None


def _bracket_problem(root: Path, pattern: str) -> str | None:
    """Why a pattern naming a folder or file whose name holds `[` leaves it in: fnmatch reads
    `[Old]` as one of the characters O, l and d, so `Assets/[Old]/**` matched nothing of the
    folder `Assets/[Old]` (a common way to sort a folder first), and it was indexed without a word.
    Looked at on disk, name by name, up to the first name holding `[`."""
    here = root
    for part in pattern.strip("/").split("/"):
        if "[" not in part:
            if "*" in part or "?" in part or not (here := here / part).is_dir():
                return None
            continue
        literal = part.replace("[", "[[]")
        try:
            names = os.listdir(here)
        except OSError:
            return None
        meant = next((n for n in names if fnmatch.fnmatchcase(n, literal) and not fnmatch.fnmatchcase(n, part)), None)
        if meant is None:
            return None
        found = (here / meant).relative_to(root).as_posix()
        return (
            f"reads `[...]` as one character of a set, so it matches nothing of {found}, which is in the"
            f" project: write `[[]` for a `[` of a name ({pattern.replace('[', '[[]')})"
        )
    return None


def collapse_double_stars(pattern: str) -> str:
    """`pattern` with each run of `**/` made one: `**/**/` may match no folder, as `**/` does,
    and otherwise matches what `**/` matches (`*` also matches `/`)."""
    return re.sub(r"(?:\*\*/){2,}", "**/", pattern)


def _leads_nowhere(where: Path) -> str | None:
    """Why the index folder's path leads to no folder: a loop of symbolic links (resolving it was
    an internal error on every command) or a link to nothing (an index kept on a disk not mounted:
    a writer failed with "File exists" while `doctor` said to run `index`). None: it may be made."""
    shown = undecoded(str(where))
    try:
        where.resolve()
    except (RuntimeError, OSError):  # Python 3.11 raises RuntimeError for a loop, 3.13 OSError
        return f"the index folder {shown} is reached through a loop of symbolic links; {_LINK_FIX}"
    if where.is_symlink() and not where.exists():
        lead = undecoded(os.readlink(where))
        return f"the index folder {shown} is a link to {lead}, which leads to no folder (not mounted?); {_LINK_FIX}"
    return None


_LINK_FIX = f"make the link lead to a folder or remove it, or set index_dir in {CONFIG_FILE}"


def _not_utf8(where: Path) -> str | None:
    """Why the index cannot be kept at `where`: its path holds bytes that are not UTF-8 (a folder
    name from another system's encoding), which the search engine's library cannot open."""
    shown = undecoded(str(where))
    if shown == str(where):
        return None
    return (
        f"the index folder's path is not UTF-8 text ({shown}), which the search engine cannot open;"
        f" set index_dir in {CONFIG_FILE} to a folder whose path is (e.g. an absolute one)"
    )


def _too_long(where: Path) -> str | None:
    """Why the index cannot be kept at `where`: SQLite opens no file whose path is over 504 bytes
    (512, less room for its `-journal` suffix), and the record store is `gen-N/records.db` in it;
    a project folder of some 470 characters made every command say the index was damaged ("unable
    to open database file"), and `index` fail the same way for ever."""
    longest = len(os.fsencode(where)) + len(GENERATION_FILE_TAIL)
    if longest <= SQLITE_PATH_MAX:
        return None
    return (
        f"the index folder's path is {len(os.fsencode(where))} bytes long ({undecoded(str(where))[:80]}...), and its"
        f" record store, SQLite, opens no file whose path is over {SQLITE_PATH_MAX} bytes (its files are"
        f" gen-N/records.db in that folder); set index_dir in {CONFIG_FILE} to a folder of a path of at most"
        f" {SQLITE_PATH_MAX - len(GENERATION_FILE_TAIL)} bytes (an absolute one)"
    )


def index_dir_problem(root: Path, config: Config) -> str | None:
    """Why `index_dir` cannot hold the index, or None. Its folder is the index's own: a writer
    removes what killed writers left there, and its files change on every update. So it may be
    neither the project folder nor one above it, nor the home folder (`~`: a writer would remove
    a user's `gen-1` folder there), nor a folder whose content Unity imports."""
    if "\0" in config.index_dir:  # TOML allows it in a string; no path holds one
        return f"index_dir holds a NUL character (got {config.index_dir!r}); give a folder, e.g. {DEFAULT_INDEX_DIR}"
    if (problem := _leads_nowhere(config.index_path(root))) is not None:
        return problem
    where, top = config.index_path(root).resolve(), root.resolve()
    if (problem := _not_utf8(where) or _too_long(where)) is not None:
        return problem
    if where.exists() and not where.is_dir():
        return f"index_dir is a file, not a folder (got {config.index_dir!r}, which is {where}); give a folder"
    # inside a content folder, the index would hide that folder's files from the walk, and a
    # writer would remove the `gen-N` folders a user made there as a killed writer's
    content = any(where.is_relative_to(top / n) or where.is_relative_to((top / n).resolve()) for n in CONTENT_ROOTS)
    home = found.resolve() if (found := home_folder()) is not None else None
    above_home = home is not None and (where == home or where in home.parents)
    if where == top or where in top.parents or content or above_home:
        return (
            f"index_dir must be a folder of its own (got {config.index_dir!r}, which is {where}): not the"
            f" project folder, a folder above it, the home folder or one above it, or one of"
            f" {', '.join(CONTENT_ROOTS)} or a folder in them; the default is {DEFAULT_INDEX_DIR}"
        )
    if (why := _unity_owned(where, top)) is not None:
        return (
            f"index_dir must be a folder of its own (got {config.index_dir!r}, which is {where}): {why};"
            f" the default is {DEFAULT_INDEX_DIR}"
        )
    return _foreign_files(where) or _served_project(root, where)


# Folders of a project Unity writes itself, and why the index cannot live in them; and Unity's own
# folders in Library, which it deletes and rebuilds (a package resolve, a reimport, a script build).
_UNITY_FOLDERS = {
    "Temp": "Unity empties Temp when the editor quits",
    "Logs": "Unity writes its logs in Logs",
}
_LIBRARY_OWN = (
    *("PackageCache", "ScriptAssemblies", "Artifacts", "Bee", "ShaderCache", "StateCache", "PlayerDataCache"),
    *("BuildPlayerData", "TempArtifacts", "APIUpdater", "Il2cppBuildCache", "BurstCache", "Search"),
)


def _unity_owned(where: Path, top: Path) -> str | None:
    """Why `where` is Unity's to write (None: it is not). Library itself was accepted: the index's
    files among Unity's, a writer removing what it took for a killed writer's leftovers there, and
    Temp lost the index whenever the editor quit. A folder of its own in Library is fine."""

    def inside(rel: str) -> bool:
        return where.is_relative_to(top / rel) or where.is_relative_to((top / rel).resolve())

    for name, why in _UNITY_FOLDERS.items():
        if inside(name):
            return why
    if where in (top / "Library", (top / "Library").resolve()):
        return "Unity keeps its own files in Library (a folder of its own in it, as the default, is fine)"
    own = next((name for name in _LIBRARY_OWN if inside(f"Library/{name}")), None)
    return f"Unity deletes and rebuilds Library/{own}" if own else None


# The files of an index folder that every update replaces, and the entries that only an index
# folder holds: the writer's lock (made before anything else), its generation folders (named as
# `store.generations` names them) and the records of the layout before them.
_STATE_FILES = ("index.json", "settings.json", "integrity.json", "git-view.json", "journal.pos", "progress.json")
_INDEX_MARK = re.compile(r"write\.lock|records\.db|gen-[0-9]+(\.[0-9]+)?")


def _foreign_files(where: Path) -> str | None:
    """Why `where` cannot hold the index: it holds a file named as one of the index's own but
    nothing only an index folder holds, so the file is another program's (`~/.claude` or VS
    Code's `User` folder hold a `settings.json`), which the first update would replace. An
    index_dir from a cloned project's `unity-index.toml`, or a `Library/UnityIndex` committed as a
    link, may name such a folder."""
    try:
        with os.scandir(where) as entries:
            found = {e.name: e.is_dir(follow_symlinks=False) for e in entries}
    except OSError:  # none yet, or not readable: the writer says so
        return None
    names = list(found)
    taken = sorted(name for name in _STATE_FILES if name in found and not found[name])  # a folder is no file to lose
    if not taken or any(_INDEX_MARK.fullmatch(name) for name in names):
        return None
    return (
        f"the index folder {undecoded(str(where))} holds {', '.join(taken)}, which unity-index did not write (no"
        f" write.lock or gen-N folder beside it): an update would replace it. Set index_dir in {CONFIG_FILE}"
        f" to a folder of its own; the default is {DEFAULT_INDEX_DIR}"
    )


class _Served(msgspec.Struct):
    project: str = ""  # recorded in `settings.json` by each update (changes/settings.save)


def _served_project(root: Path, where: Path) -> str | None:
    """Why `where` cannot hold this project's index: it holds the index of another project, still
    there, whose own configuration names `where` too (an absolute index_dir in a copied
    `unity-index.toml`). Each update of one replaced the other's files, and an MCP server of the
    other, trusting its file events, then answered from them (files its project does not hold).
    A project moved or copied away from the one recorded takes the index over."""
    try:
        other = msgspec.json.decode(read_state(where / "settings.json"), type=_Served).project
    except (OSError, msgspec.DecodeError, RecursionError):
        return None
    if not other or not (Path(other) / "Assets").is_dir():
        return None
    try:
        if os.path.samefile(other, root) or _index_dir_of(Path(other)) != where:
            return None
    except OSError:
        return None
    return (
        f"the index folder {undecoded(str(where))} holds the index of another project, {other}, whose"
        f" {CONFIG_FILE} names that folder too: two projects cannot share one (each update would replace"
        f" the other's index); set index_dir in {CONFIG_FILE} of one of them to a folder of its own"
    )


def _index_dir_of(other: Path) -> Path | None:
    """The index folder `other`'s own configuration names, resolved (None: unreadable); read
    without its checks, which would ask this of the project recorded in that folder in turn."""
    path = other / CONFIG_FILE
    try:
        data = tomllib.loads(_config_text(path)) if path.is_file() else {}
        named = data.get("index_dir", DEFAULT_INDEX_DIR)
        return (other / os.path.expanduser(named)).resolve() if isinstance(named, str) else None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError, ValueError, RuntimeError):
        return None


def served_project(root: Path) -> str:
    """How `settings.json` records the project an index serves: its path, if plain UTF-8 text
    (JSON holds no other; a project so named is not recorded, and not checked)."""
    shown = str(root.resolve())
    return shown if undecoded(shown) == shown else ""
