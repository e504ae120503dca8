"""Whether a process still runs: the editor heartbeat names one, and so does the writer lock."""

from __future__ import annotations

import os
import sys

# POSIX's pid_t is a signed 32-bit int; a Windows process id is a DWORD
MAX_PID = 2**32 - 1 if sys.platform == "win32" else 2**31 - 1


def pid_alive(pid: int) -> bool:
    """Whether a process with this id exists (it may belong to another user). An id no process
    can have (past 32 bits, which `os.kill` would refuse with OverflowError) is of none."""
    if pid <= 0 or pid > MAX_PID:
        return False
    if sys.platform == "win32":
        import ctypes

        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
        handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        try:
            code = ctypes.c_ulong()
            if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
                return False
            return code.value == 259  # STILL_ACTIVE
        finally:
            kernel32.CloseHandle(handle)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """Whether the process has ended and only waits to be reaped: `os.kill(pid, 0)` still finds it.
    A killed build's zombie, which a container's first process may never reap, kept its
    `progress.json` read as a build running ("building the index: 1,339 of 1,437 files scanned")
    for as long as the zombie stayed. Linux says so in /proc; elsewhere it is taken as alive."""
    return _state(pid) in (b"Z", b"X")


def pid_stopped(pid: int) -> bool:
    """Whether the process is suspended (Ctrl-Z, SIGSTOP, a debugger): a writer so stopped holds
    the lock until resumed, and a message saying it "is updating" sent users to wait it out.
    Linux says so in /proc; elsewhere it is taken as running."""
    return 0 < pid <= MAX_PID and _state(pid) in (b"T", b"t")


SUSPENDED = "stopped (suspended, as Ctrl-Z does)"  # how messages say `pid_stopped`


def resuming(pid: int) -> str:
    """How to resume a stopped process, as messages say it."""
    return f"`kill -CONT {pid}`, or `fg` in its terminal"


def _state(pid: int) -> bytes:
    """The process's state letter from /proc (b"" where there is none)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return b""
    return stat[stat.rfind(b")") + 2 : stat.rfind(b")") + 3]  # after the command, which may hold ")"
