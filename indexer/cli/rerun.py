"""The command runs itself again (same process, `exec`) where the interpreter was started in a way
it cannot work in: not in UTF-8 mode, or stripping docstrings."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

_TAKES_ARGUMENT = "XWcm"  # the interpreter's short options that take an argument (attached or next)


def run_again_if_needed() -> None:
    """Python reads file names in the locale's encoding unless in UTF-8 mode, which it enters by
    itself under the C locale, but not where PYTHONUTF8=0 or a locale of another encoding (Latin-1)
    says otherwise: a project's UTF-8 names (`Héro.cs`) were read as undecodable bytes, each file
    skipped as "name is not plain UTF-8 text ...; rename the file", and the index folder of a
    project in `p é` refused as "not UTF-8 text"; it runs again with `-X utf8`, which its scanner
    processes inherit (every name in a Unity project is UTF-8). Optimizing at level 2
    (PYTHONOPTIMIZE=2, a container image's setting, or `-OO` given to the interpreter) strips
    docstrings, which describe the MCP server's tools and prompt: each was listed with no
    description; it runs again without that variable and without the `-O` options."""
    if os.name == "nt" or getattr(sys, "frozen", False) or len(sys.orig_argv) < 2:
        return  # (no command line to run again: an embedding interpreter; Windows' exec is a new process)
    utf8 = sys.flags.utf8_mode or sys.getfilesystemencoding().lower().replace("-", "") == "utf8"
    env = dict(os.environ)
    args = sys.orig_argv[1:]
    own = sys.argv[1:]
    if sys.flags.optimize >= 2:
        env.pop("PYTHONOPTIMIZE", None)
        if args[len(args) - len(own) :] == own:  # (else a caller rewrote sys.argv: the options are not told apart)
            args = without_optimize(args, len(own))
    if utf8 and args == sys.orig_argv[1:] and env == os.environ:
        return  # (nothing to change: running again would do the same)
    os.execve(sys.executable, [sys.executable, *(() if utf8 else ("-X", "utf8")), *args], env)


def without_optimize(args: Sequence[str], program_args: int) -> list[str]:
    """The interpreter's arguments `args` (`sys.orig_argv[1:]`) with each `-O` taken out of its
    options (`-OO`, `-O -O`, `-BOO`, `-OOm indexer.cli`); the last `program_args` (the command's
    own, `sys.argv[1:]`) and the argument of an option that takes one (`-X`, `-W`, `-c`, `-m`)
    are kept as they are."""
    head, tail = list(args[: len(args) - program_args]), list(args[len(args) - program_args :])
    out: list[str] = []
    argument_next = False
    for arg in head:
        if argument_next or not arg.startswith("-") or arg.startswith("--") or arg == "-":
            out.append(arg)
            argument_next = False
            continue
        letters = arg[1:]
        cut = next((i for i, ch in enumerate(letters) if ch in _TAKES_ARGUMENT), len(letters))
        kept = letters[:cut].replace("O", "") + letters[cut:]
        argument_next = cut == len(letters) - 1  # the option ends the cluster: its argument is next
        if kept:
            out.append("-" + kept)
    return out + tail
