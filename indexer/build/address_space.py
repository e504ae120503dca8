"""Writing an index refused beforehand under an address-space limit its search engine cannot
work in, and what to say when the process runs out of memory.

Under `ulimit -v 400000` tantivy (Rust) aborted the process when an allocation failed: "memory
allocation of 4194304 bytes failed", a Rust backtrace, exit 134 (SIGABRT), nothing of ours; a Rust
allocation failure cannot be caught. How much address space a run takes varies from run to run
(glibc gives each thread that allocates an arena of 64 MB of address space): on a 5-file project
a full build aborted at 600,000 KB and passed at 450,000 (2 cores, session 50), and passed six
times in six at 1 GB. So below MIN_MB, writing is refused with a message; at or over it, the
engine may still abort on a larger project (docs/indexing.md, "Bad input").
"""

from __future__ import annotations

import sys

MIN_MB = 1024
_MB = 1024 * 1024


class AddressSpaceTooSmall(Exception):
    """The process's address space is limited below MIN_MB; the message says what to raise."""


def address_limit_mb() -> int | None:
    """The process's limit of address space (RLIMIT_AS, `ulimit -v`) in MB; None when there is none
    (or the system has no such limit: Windows)."""
    if sys.platform == "win32":
        return None
    import resource

    soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft // _MB


def check_address_space() -> None:
    """AddressSpaceTooSmall when the limit is under MIN_MB, before anything is written."""
    limit = address_limit_mb()
    if limit is not None and limit < MIN_MB:
        raise AddressSpaceTooSmall(
            f"the process's address space is limited to {limit} MB (`ulimit -v`); writing the index needs"
            f" {MIN_MB} MB or more (its search engine ends the process when an allocation fails): raise the"
            f" limit (`ulimit -v {MIN_MB * 1024}`, or `unlimited`) and run the command again; the index keeps"
            " its last committed state"
        )


def out_of_memory() -> str:
    """What to say of a MemoryError of the indexer's own process: the machine's or the limit's,
    not a bug."""
    limit = address_limit_mb()
    where = f"its address space is limited to {limit} MB (`ulimit -v`): raise the limit" if limit else "free memory"
    return f"the process ran out of memory; {where} and run the command again (the index keeps its last commit)"
