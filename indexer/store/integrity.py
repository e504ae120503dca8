"""Whether the files of an index are intact: cheap checks on every open, a full check on demand,
and a fingerprint that tells `index` whether anything but unity-index changed them.

- `quick_problems`: index.json, records.db's header and length, tantivy's meta files and the
  footer of every segment file it lists; a few small reads, done whenever an index is opened.
- `full_problems`: those, plus SQLite's `integrity_check`, every record decoded and compared with
  its row, every tantivy file's checksum (tantivy writes a CRC32 into each file's footer but does
  not check it when opening), and the documents against the records (`check_consistency`).
- the fingerprint (`integrity.json`): size, mtime and inode of each index file, saved by
  the writer after every update. `index` trusts an index whose files still match it; files
  changed in place by anything else are damage (rebuild); a copied index folder (other inodes or
  another place: `cp -r`, a CI cache) or one without a fingerprint (an interrupted writer, an
  older version) gets the full check once.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sqlite3
import struct
import zlib
from pathlib import Path

import msgspec

from indexer.files import atomic_write, read_state
from indexer.model import SCHEMA_VERSION
from indexer.store.header import IndexBroken, IndexMissing, data_name, header_ok, no_documents_yet, read_header
from indexer.store.schema import IndexPaths

FOOTER_MAGIC = 1337  # tantivy's footer: ... | JSON {"version", "crc"} | u32 length | u32 magic
_LOCKS = frozenset({".tantivy-meta.lock", ".tantivy-writer.lock"})
# Files of the index folder written by the writer only (not the editor's journal or heartbeat);
# the records and the full-text index are those of the generation folder the header names.
# index.json is not among them: its whole content is checked (read_header, and `recover` brings
# it up to its records), so a header rewritten from outside is not a reason to rebuild.
_OWN_FILES = ("git-view.json", "journal.pos")
# Of those, what only speeds up finding changes: changed from outside, they are dropped (the
# next update walks the project), not a reason to rebuild.
_HINTS = frozenset({"git-view.json", "journal.pos"})


class FileMark(msgspec.Struct, array_like=True):
    """Not ctime: SQLite readers running as root chown the WAL file to the database's owner."""

    size: int
    mtime_ns: int
    inode: int


class Fingerprint(msgspec.Struct):
    folder: str  # the index folder it was taken in: a copy elsewhere is checked once
    files: dict[str, FileMark]  # path relative to the index folder -> its mark
    writing: bool = False  # set while a writer changes the files


def _fingerprint_path(paths: IndexPaths) -> Path:
    return paths.root / "integrity.json"


def _tantivy_files(paths: IndexPaths) -> list[Path]:
    try:
        return sorted(p for p in paths.tantivy.iterdir() if p.name not in _LOCKS and p.is_file())
    except OSError:
        return []


def pinned(paths: IndexPaths) -> IndexPaths:
    """`paths` fixed to the generation folder the header names now (so one check looks at one)."""
    return paths if paths.data is not None else paths.with_data(data_name(paths))


def take_fingerprint(paths: IndexPaths) -> Fingerprint:
    paths = pinned(paths)
    files: dict[str, FileMark] = {}
    wal = paths.records.with_name(paths.records.name + "-wal")
    for p in [paths.root / n for n in _OWN_FILES] + [paths.records, wal] + _tantivy_files(paths):
        try:
            st = p.stat()
        except OSError:
            continue
        if st.st_size == 0 and p.name.endswith("-wal"):
            continue  # an empty WAL, which any reader may create
        files[p.relative_to(paths.root).as_posix()] = FileMark(st.st_size, st.st_mtime_ns, st.st_ino)
    return Fingerprint(str(paths.root.resolve()), files)


def save_fingerprint(paths: IndexPaths, writing: bool = False) -> None:
    """Remember the index files as the writer leaves them (`writing`: about to change them).
    Not synced to disk: a fingerprint lost in a power cut only costs one full check."""
    fp = take_fingerprint(paths)
    fp.writing = writing
    if fp != load_fingerprint(paths):
        atomic_write(_fingerprint_path(paths), msgspec.json.encode(fp), durable=False, follow_symlinks=False)


def discard(paths: IndexPaths) -> None:
    """Forget what describes a damaged index before it is rebuilt: its fingerprint and the
    change-detection state (git's view, the journal position) kept beside it."""
    for name in ("integrity.json", *_HINTS):
        (paths.root / name).unlink(missing_ok=True)


def distrust(folder: Path) -> None:
    """Drop the fingerprint of the index folder `folder` once reading found its files damaged.
    Files garbled in place with their size, mtime and inode kept (a bit flipped on disk) still
    match it, and `index` trusted them: the rebuild every message asks for never ran. Without a
    fingerprint the next update checks the index in full, and rebuilds it. Best effort: a folder
    that cannot be written (a read-only cache) keeps its fingerprint."""
    with contextlib.suppress(OSError):
        (folder / "integrity.json").unlink(missing_ok=True)


def load_fingerprint(paths: IndexPaths) -> Fingerprint | None:
    try:
        return msgspec.json.decode(read_state(_fingerprint_path(paths)), type=Fingerprint)
    except (OSError, msgspec.DecodeError, RecursionError):
        return None


def changed_outside(saved: Fingerprint, now: Fingerprint, hints: bool = False) -> list[str]:
    """Index files that something other than unity-index changed in place between `saved` and
    `now` (missing files included); [] when none did. `hints`: the change-detection hints only."""
    out = []
    for name, mark in saved.files.items():
        if (name in _HINTS) != hints:
            continue
        cur = now.files.get(name)
        if cur is None:
            out.append(f"{name} was deleted")
        elif cur != mark:
            out.append(f"{name} was changed")
    return out


def is_copy(saved: Fingerprint, now: Fingerprint) -> bool:
    """Whether the index folder was copied or moved since `saved` (every file a new inode, or
    another place): its files' marks cannot match, and say nothing about damage."""
    if saved.folder != now.folder:
        return True
    shared = [n for n in saved.files if n in now.files]
    return bool(shared) and all(now.files[n].inode != saved.files[n].inode for n in shared)


def _comparable(paths: IndexPaths) -> tuple[Fingerprint, Fingerprint] | None:
    """(saved, now) when the saved fingerprint can tell outside changes: it exists, no writer
    was at work, and the folder is where it was taken."""
    pair = _fingerprints(paths)
    return None if isinstance(pair, str) else pair


def _fingerprints(paths: IndexPaths) -> tuple[Fingerprint, Fingerprint] | str:
    """(saved, now), or why the saved fingerprint cannot tell outside changes."""
    saved = load_fingerprint(paths)
    if saved is None or saved.writing:
        return "no fingerprint of a finished update"
    now = take_fingerprint(paths)
    return "the index folder was copied or moved" if is_copy(saved, now) else (saved, now)


def _outside(changed: list[str]) -> list[str]:
    return [f"{c} by something other than unity-index" for c in changed]


def trusted_files(paths: IndexPaths) -> frozenset[str]:
    """Index files (relative names) exactly as the writer left them: their checksums were right
    when written, so a reader need not read them to check them again."""
    saved = load_fingerprint(paths)
    if saved is None:
        return frozenset()
    now = take_fingerprint(paths)
    if saved.folder != now.folder:
        return frozenset()
    return frozenset(n for n, mark in saved.files.items() if now.files.get(n) == mark)


def other_format(paths: IndexPaths) -> int:
    """The format of an index another version of unity-index wrote (0: none, or this one's): not
    damage, but the update rebuilds it all the same."""
    header = read_header(paths)
    return header["schema_version"] if header is not None and header["schema_version"] != SCHEMA_VERSION else 0


def damage_before_update(paths: IndexPaths) -> str | None:
    """Why the index must be rebuilt before an update, None when it can be updated: the cheap
    checks always; the fingerprint decides whether the full check runs."""
    if read_header(paths) is None:
        # No index, or an unreadable header: the update rebuilds anyway; say why if it was there.
        return "index.json is unreadable" if paths.header.exists() else None
    problems = quick_problems(paths)
    if problems:
        return problems[0]
    pair = _comparable(paths)
    if pair is None:
        problems = full_problems(paths)
        return problems[0] if problems else None
    if changed_outside(*pair, hints=True):  # git's view, the journal position: walk instead
        for name in _HINTS:
            (paths.root / name).unlink(missing_ok=True)
    return next(iter(_outside(changed_outside(*pair))), None)


def unsettled(paths: IndexPaths) -> str | None:
    """Why an update should look at the index although no project file changed, from a few stat
    calls (a watcher sees no change inside the index folder): no index of this version, or files
    that are not as the writer's fingerprint left them (deleted, changed or copied from outside,
    a writer at work or interrupted); None when the index is as the last update left it."""
    if not header_ok(pinned(paths)):
        return why_no_index(paths)
    pair = _fingerprints(paths)
    return pair if isinstance(pair, str) else next(iter(_outside(changed_outside(*pair))), None)


def why_no_index(paths: IndexPaths) -> str:
    """Why there is no index this version reads, for a log line: an index folder deleted was
    logged as "no index of this version", as if another version had written it."""
    if not paths.root.is_dir():
        return "the index folder is gone"
    header = read_header(paths)
    if header is None:
        if paths.header.exists():
            return "index.json is unreadable"
        return "the index folder holds no index.json (none was built, or it was deleted)"
    if header["schema_version"] != SCHEMA_VERSION:
        return f"an index of another version (schema {header['schema_version']}; this one reads {SCHEMA_VERSION})"
    return f"the files of {data_name(paths) or 'the index'} that index.json names are missing"


# SQLite errors of a file or folder made read-only: not damage (a rebuild would not help).
UNWRITABLE = frozenset({sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM})
# "disk I/O error"s of a write the file system refused (a full disk, a file size limit): SQLite
# names no errno, and a reader that cannot grow `records.db-shm` gets SHMSIZE even when the disk
# is full. Not damage: a rebuild fails the same way. A failed read (IOERR_READ) may be.
_WRITE_REFUSED = frozenset(
    {
        sqlite3.SQLITE_IOERR_WRITE,
        sqlite3.SQLITE_IOERR_FSYNC,
        sqlite3.SQLITE_IOERR_DIR_FSYNC,
        sqlite3.SQLITE_IOERR_TRUNCATE,
        sqlite3.SQLITE_IOERR_SHMOPEN,
        sqlite3.SQLITE_IOERR_SHMSIZE,
        sqlite3.SQLITE_IOERR_SHMMAP,
    }
)
# SQLite errors that say nothing about the file: another connection, memory, a full disk, read-only.
_TRANSIENT = UNWRITABLE | {
    sqlite3.SQLITE_BUSY,
    sqlite3.SQLITE_LOCKED,
    sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_NOMEM,
    sqlite3.SQLITE_INTERRUPT,
}


def sqlite_code(exc: BaseException) -> int:
    """The primary result code of a SQLite error (0 when it has none)."""
    return (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF


def cannot_write(exc: BaseException) -> bool:
    """Whether `exc` is SQLite failing to write an index file (read-only, or a write the file
    system refused), which says nothing about what the files hold."""
    if not isinstance(exc, sqlite3.Error):
        return False
    return sqlite_code(exc) in UNWRITABLE or getattr(exc, "sqlite_errorcode", None) in _WRITE_REFUSED


def is_damage(exc: BaseException) -> bool:
    """Whether `exc`, raised while reading an index, says its files are damaged: what the cheap
    checks cannot see (a page garbled in place) surfaces only when a reader decodes it."""
    if isinstance(exc, sqlite3.DatabaseError):
        return sqlite_code(exc) not in _TRANSIENT and not cannot_write(exc)
    return isinstance(exc, IndexBroken | msgspec.DecodeError | zlib.error)


def verify(paths: IndexPaths, consistency: bool = True) -> list[str]:
    """Everything `index --check` and `doctor` report: the full check, and index files changed in
    place by something other than unity-index since its last update (`consistency`: see
    full_problems)."""
    pair = _comparable(paths)
    outside = _outside(changed_outside(*pair)) if pair else []
    if outside:
        return outside
    problems = full_problems(paths, consistency)
    if problems and pair:  # damage behind a matching fingerprint: `index` would trust it
        distrust(paths.root)
    return problems


# Cheap checks -------------------------------------------------------------------------------------


def quick_problems(paths: IndexPaths) -> list[str]:
    """Damage visible from the files' heads and tails; [] when none."""
    from indexer.store.reader import open_read_only

    paths = pinned(paths)
    problems = [f"{name} is {odd}" for name, path in _own_files(paths) if (odd := _not_a_file(path))]
    if problems:  # an update could not write it (`records.db-shm`: "attempt to write a readonly database";
        return problems  # a pipe as `records.db-wal`: "disk I/O error", naming no file)
    if not paths.records.is_file():
        problems.append("records.db is missing")
    else:
        try:
            open_read_only(paths)[1].close()
        except IndexBroken as exc:
            problems.append(exc.detail)
        except IndexMissing:
            problems.append("no usable index")
    problems += tantivy_problems(paths, checksums=False)
    return problems


def _not_a_file(path: Path) -> str:
    """What stands at `path` in place of a file ('' for a file, or nothing): a folder, or a named
    pipe, socket or device (an archive of a project with its Library/ may hold one)."""
    import stat

    try:
        mode = path.stat().st_mode
    except OSError:
        return ""
    if stat.S_ISDIR(mode):
        return "a folder, not a file"
    return "" if stat.S_ISREG(mode) else "not a regular file (a named pipe, socket or device)"


def _own_files(paths: IndexPaths) -> list[tuple[str, Path]]:
    """The files of a generation folder an update writes in place, as a problem names them."""
    records = [(f"records.db{end}", paths.records.with_name(f"records.db{end}")) for end in ("", "-wal", "-shm")]
    return [*records, *((f"tantivy/{n}", paths.tantivy / n) for n in ("meta.json", ".managed.json"))]


def tantivy_problems(paths: IndexPaths, checksums: bool, trusted: frozenset[str] = frozenset()) -> list[str]:
    """meta.json and .managed.json parse, every file of every listed segment is present with a
    footer (and, with `checksums`, the CRC32 its footer states). A writer may commit meanwhile
    and remove the segments of the meta.json read: problems count when meta.json did not move."""
    if no_documents_yet(paths):
        return []
    for _ in range(5):
        try:
            before = read_state(paths.tantivy / "meta.json")
        except OSError:
            before = b""
        problems = _tantivy_problems(paths, before, checksums, trusted)
        try:
            after = read_state(paths.tantivy / "meta.json")
        except OSError:
            after = b""
        if not problems or after == before:
            return problems
    return problems


def _tantivy_problems(paths: IndexPaths, meta_bytes: bytes, checksums: bool, trusted: frozenset[str]) -> list[str]:
    try:
        if not meta_bytes:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory")
        meta = json.loads(meta_bytes)
        segments = [(s["segment_id"].replace("-", ""), s.get("deletes")) for s in meta["segments"]]
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        return [f"tantivy/meta.json: {exc.strerror if isinstance(exc, OSError) else 'unreadable'}"]
    managed = paths.tantivy / ".managed.json"
    if managed.exists():
        try:
            listed = json.loads(read_state(managed))
            if not isinstance(listed, list):
                raise ValueError
        except (OSError, ValueError, RecursionError):
            return ["tantivy/.managed.json: unreadable"]
    problems = []
    for seg, deletes in segments:
        names = [f"{seg}.{ext}" for ext in ("idx", "term", "pos", "store", "fast", "fieldnorm")]
        if isinstance(deletes, dict):
            names.append(f"{seg}.{deletes.get('opstamp')}.del")
        for name in names:
            path = paths.tantivy / name
            problem = footer_problem(path, checksums and path.relative_to(paths.root).as_posix() not in trusted)
            if problem:
                problems.append(f"tantivy/{name}: {problem}")
    return problems


def footer_problem(path: Path, checksum: bool) -> str:
    """'' when the tantivy file ends in a valid footer (whose CRC32 matches, with `checksum`)."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < 8:
                return "truncated"
            f.seek(size - 8)
            length, magic = struct.unpack("<II", f.read(8))
            if magic != FOOTER_MAGIC or length + 8 > size:
                return "no valid footer (truncated or overwritten)"
            f.seek(size - 8 - length)
            footer = json.loads(f.read(length))
            if not checksum:
                return ""
            f.seek(0)
            crc, left = 0, size - 8 - length
            while left > 0:
                block = f.read(min(left, 1 << 20))
                if not block:
                    return "truncated"
                crc, left = zlib.crc32(block, crc), left - len(block)
    except FileNotFoundError:
        return "missing"
    except (OSError, ValueError, RecursionError) as exc:
        return f"unreadable ({exc})"
    if not isinstance(footer, dict) or footer.get("crc") != crc:
        return "checksum mismatch (garbled)"
    return ""


# Full check --------------------------------------------------------------------------------------


def full_problems(paths: IndexPaths, consistency: bool = True) -> list[str]:
    """Every damage this module can see; [] when the index files are intact. `consistency`:
    also compare the header, records and documents with each other (`index_problems`)."""
    paths = pinned(paths)
    problems = quick_problems(paths)
    if problems:
        return problems
    problems = tantivy_problems(paths, checksums=True)
    problems += _records_problems(paths)
    if problems or not consistency:
        return problems
    from indexer.store.consistency import index_problems

    try:
        return index_problems(paths)
    except IndexBroken as exc:
        return [exc.detail]


def _records_problems(paths: IndexPaths) -> list[str]:
    """SQLite's own check, then every record against its row (a garbled value inside a record
    passes SQLite's check)."""
    from indexer.store.reader import Records

    try:
        records = Records(paths)
    except IndexBroken as exc:
        return [exc.detail]
    except IndexMissing:
        return ["no usable index"]
    try:
        rows = records.conn.execute("PRAGMA integrity_check(20)").fetchall()
        if rows != [("ok",)]:
            return [f"records.db: {r[0]}" for r in rows]
        return records.verify_rows()
    except sqlite3.DatabaseError as exc:
        return [f"records.db: {exc}"]
    finally:
        records.close()
