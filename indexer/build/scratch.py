"""The scanner processes' temporary folder, which no end of the indexer leaves behind.

multiprocessing makes one folder per process (`pymp-XXXX` in the system's temporary folder) for
the fork server's socket and removes it at a normal exit only: every indexer killed by SIGKILL
(or, before session 50, by SIGTERM) left one, and the test suite had left about 400. Here the
folder is `unity-index-<pid>-XXXX` and holds `owner.lock`, which its process holds (flock) for
its life and the OS releases when that process dies, however it dies; every indexer that starts
scanner processes first removes the folders of this user whose lock it can take (their process is
dead). Not the index's own folder: one `serve` process keeps one fork server for all its projects,
and a project's deep path would overflow a socket's address (104 bytes on macOS).

A private hook, wrapped here alone: multiprocessing takes the folder from
`current_process()._config["tempdir"]` (`multiprocessing.util.get_temp_dir`, Python 3.11 to
3.13). Where that is not a dict, or the path would be too long for a socket, multiprocessing's
own folder is used: only the clean-up after a kill is lost. POSIX only (Windows has no fork
server).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time

PREFIX = "unity-index-"
LOCK = "owner.lock"
SOCKET_PATH_MAX = 103  # sun_path on macOS (104 bytes with the final NUL); Linux has 108
UNLOCKED_GRACE = 60.0  # a folder without its lock may be one made this instant: left for a minute


def claim() -> str | None:
    """Make this process's multiprocessing folder one that a dead owner leaves reclaimable, after
    removing those of dead processes; the folder (None: multiprocessing's own is used)."""
    import multiprocessing

    config = getattr(multiprocessing.current_process(), "_config", None)
    if not isinstance(config, dict):
        return None
    if config.get("tempdir"):
        return config["tempdir"]
    base = _base()
    if base is None:
        return None
    reclaim(base)
    folder = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=base)
    fd = _hold(os.path.join(folder, LOCK))
    _remove_at_exit(folder, fd)
    config["tempdir"] = folder
    return folder


def _base() -> str | None:
    """The system's temporary folder, or /tmp when that is too deep for the fork server's socket
    (`<base>/unity-index-<pid>-XXXXXXXX/listener-XXXXXXXX`; macOS's is deep), or None."""
    for base in (tempfile.gettempdir(), "/tmp"):
        socket = os.path.join(base, f"{PREFIX}{os.getpid()}-12345678", "listener-12345678")
        if len(os.fsencode(socket)) <= SOCKET_PATH_MAX and os.path.isdir(base):
            return base
    return None


def _hold(path: str) -> int:
    import fcntl

    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def _remove_at_exit(folder: str, fd: int) -> None:
    """At a normal exit (Ctrl-C and SIGTERM included), as multiprocessing removes its own: the
    same registry, run late, after the pools are closed; it keeps `fd`, so the lock, alive."""
    import shutil
    from multiprocessing import util

    util.Finalize(None, _remove, args=(shutil.rmtree, folder, fd), exitpriority=-100)


def _remove(rmtree: object, folder: str, fd: int) -> None:
    rmtree(folder, ignore_errors=True)  # type: ignore[operator]
    with contextlib.suppress(OSError):
        os.close(fd)


def reclaim(base: str) -> list[str]:
    """Remove the folders in `base` that dead processes of this user left; the ones removed."""
    import shutil

    removed = []
    with contextlib.suppress(OSError), os.scandir(base) as entries:
        for entry in entries:
            if entry.name.startswith(PREFIX) and _is_dead_ones(entry):
                shutil.rmtree(entry.path, ignore_errors=True)
                removed.append(entry.path)
    return removed


def _is_dead_ones(entry: os.DirEntry) -> bool:
    """Whether `entry` is a folder of ours whose owner is dead: its lock can be taken (the taker's
    descriptor is closed at once; removing the folder is the taker's alone to do next)."""
    import fcntl

    try:
        if not entry.is_dir(follow_symlinks=False) or entry.stat(follow_symlinks=False).st_uid != os.getuid():
            return False
        fd = os.open(os.path.join(entry.path, LOCK), os.O_RDWR | os.O_NOFOLLOW)
    except FileNotFoundError:  # its owner died before taking the lock, or is about to take it
        with contextlib.suppress(OSError):
            return time.time() - entry.stat(follow_symlinks=False).st_mtime > UNLOCKED_GRACE
        return False
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # held: its owner lives
        return False
    finally:
        os.close(fd)
    return True
