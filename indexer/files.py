"""Writing a file so that a reader, a crash or a full disk never leaves half of one: the index
header, git's view, the journal position, git hooks, agent and pre-commit configurations."""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import tempfile
from pathlib import Path

from indexer.model import FileStat

# File times are only as fine as the file system keeps them (2 s on FAT, a kernel clock tick
# elsewhere): a file written twice within this long before it was read may show the same stat
# after the second write as after the first ("racily clean", as git calls it). Whatever trusts a
# stat to mean "unchanged" re-checks the content of a file changed this recently before it read it.
FILE_TICK_NS = 2_000_000_000


# What the record store holds a file's modification time in: SQLite's 64-bit integers.
_MTIME_RANGE = (-(2**63), 2**63 - 1)


def mtime_of(st: os.stat_result) -> int:
    """A stat's modification time as a record keeps it, in nanoseconds: one past 2262 (a broken
    clock, an archive's bogus times) is the latest the store holds, never an OverflowError that
    stopped every update. Such a record stays racily clean, so its content is compared each time."""
    return min(max(st.st_mtime_ns, _MTIME_RANGE[0]), _MTIME_RANGE[1])


def digest_of(data: bytes) -> str:
    """A file's content hash as records keep it."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def utf8_text(data: bytes) -> bytes:
    """A text file's bytes as UTF-8: a UTF-16 file with its byte order mark (Visual Studio's
    "Unicode" encoding, which Unity's compiler reads) transcoded, its NUL bytes otherwise binary
    content; any other file, or one whose UTF-16 does not decode, as it is."""
    if data[:2] not in (b"\xff\xfe", b"\xfe\xff"):
        return data
    try:
        return data.decode("utf-16").encode("utf-8")  # the mark tells the byte order, and is dropped
    except UnicodeError:
        return data


def racily_clean(prev: FileStat) -> bool:
    """Whether a record's stat may hide a later write: its file was modified within a tick
    before the update that recorded it looked at it. (Kinds whose content is not read, and
    skipped files, have no digest: their stat is all that is recorded.)"""
    return bool(prev.digest) and prev.mtime_ns > prev.checked_ns - FILE_TICK_NS


def read_regular(path: Path, limit: int = -1, offset: int = 0) -> bytes:
    """The content of `path` (`limit` bytes from `offset`; -1: all), a regular file; OSError
    otherwise (FileNotFoundError when there is none). Opened without blocking: a named pipe in
    its place (a project unpacked from an archive may hold one) blocks whoever opens it to read,
    forever when nothing writes to it."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    mode = os.fstat(fd).st_mode
    if stat.S_ISDIR(mode):  # opened as a file descriptor, a folder was told as `Is a directory: 3`
        os.close(fd)
        raise IsADirectoryError(errno.EISDIR, "a folder, not a file", str(path))
    with open(fd, "rb") as f:
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file (a pipe, socket or device)", str(path))
        if offset:
            f.seek(offset)
        if limit < 0:
            return f.read()
        # `read(limit)` sets `limit` bytes aside first: 64 MB for a state file of 90 bytes, which
        # failed (MemoryError) under a limited address space where the file itself fits
        size = max(0, os.fstat(fd).st_size - offset)
        data = f.read(min(limit, size + 1))
        return data + f.read(limit - len(data)) if len(data) > size and limit > len(data) else data


# The most an index state file (index.json, settings.json, integrity.json, git-view.json,
# journal.pos, progress.json, tantivy's meta.json) is read: git's view lists dirty paths, a few MB
# in a large repository; more is damage.
STATE_FILE_MAX = 64 * 1024 * 1024


def read_state(path: Path) -> bytes:
    """An index state file's content: a regular file of at most STATE_FILE_MAX bytes, else
    OSError, as for one that cannot be read. A named pipe in its place (an archive of a project
    with its Library/ may hold one) made every command wait for good; an 8 GB one took 16 GB."""
    data = read_regular(path, STATE_FILE_MAX + 1)
    if len(data) > STATE_FILE_MAX:
        raise OSError(errno.EFBIG, f"larger than the {STATE_FILE_MAX >> 20} MB an index file may be", str(path))
    return data


def undecoded(text: str) -> str:
    """`text` with its undecodable bytes (Python's surrogate escapes, as of a file name that is not
    UTF-8) written `\\xNN`, which a message or JSON can hold; the text itself when it has none."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _umask() -> int:
    """The process's umask (read by setting it, as Python 3.11 has no other way, and put back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write(
    path: Path, data: bytes | str, *, mode: int | None = None, durable: bool = True, follow_symlinks: bool = True
) -> None:
    """Replace `path` with `data` (str as UTF-8, line endings as given) in one rename.

    A symlink is written through (the user's dotfiles may link a config elsewhere) unless
    `follow_symlinks` is False: then the link itself is replaced, as for the files of the index
    folder, which is unity-index's own (a project from elsewhere may hold
    `Library/UnityIndex/index.json -> ~/.bashrc`). An existing file keeps its permission bits
    unless `mode` says otherwise; a new one gets what the umask leaves of 0666, as `open` gives
    (`.mcp.json` and `AGENTS.md` are shared, not the temporary file's 0600). The temporary file
    is removed if anything fails (a full disk must not also leave a half-written temporary).
    `durable`: on disk (fsync) before it replaces the old content."""
    if path.is_symlink() and follow_symlinks:
        path = path.resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    if mode is None and path.exists() and not path.is_symlink():
        mode = path.stat().st_mode & 0o7777
    elif mode is None:
        mode = 0o666 & ~_umask()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:  # the folder takes no new file: said of it, not of a temporary name never seen
        raise type(exc)(exc.errno, exc.strerror, str(path.parent)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            if durable:
                os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
