"""Several files put in place all or none (`hook install`'s four hooks, `hook uninstall`'s).

Each new file is written in full to a temporary file beside its place first (a full disk or a
folder that takes no file fails there, before anything is placed); then each is renamed into place
(or a file already there, the hook `uninstall` restores, is renamed into it; or it is removed),
the file there before kept as its plan says (renamed aside, the user's hook kept as `<name>.local`;
copied, a hook of ours with lines someone added; else held aside until the end). A failure on the
way puts back, in reverse order, what was placed. Only a SIGKILL in the instant between two renames
can leave some placed (a signal Python sees, Ctrl-C or SIGTERM, rolls back too).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Planned:
    """One file to place. `keep_as`: where the file now at `target` is renamed to first;
    `backup`: where a copy of it is made first (kept after success); `source`: a file renamed to
    `target` instead of `data` (the hook it chained to put back); `remove`: `target` removed."""

    name: str
    target: Path
    data: bytes = b""
    mode: int = 0o755
    keep_as: Path | None = None
    backup: Path | None = None
    source: Path | None = None
    remove: bool = False


class PlacingFailed(Exception):
    """Placing `name` failed with `cause` (an OSError); `unrestored`: what could not be put back."""

    def __init__(self, name: str, cause: OSError, unrestored: list[str]):
        super().__init__(name, cause)
        self.name, self.cause, self.unrestored = name, cause, unrestored


@dataclass
class _Run:
    undo: list[tuple[str, Callable[[], None]]] = field(default_factory=list)
    scratch: list[Path] = field(default_factory=list)  # temporaries and held-aside copies: removed at the end


def place_all(planned: list[Planned]) -> None:
    """Put every planned file in place, or none (PlacingFailed naming the one that failed)."""
    run = _Run()
    current = ""
    try:
        temporaries = []
        for p in planned:
            current = p.name
            written = p.source is None and not p.remove
            temporaries.append(_temporary(p, run) if written else None)
        for p, tmp in zip(planned, temporaries, strict=True):
            current = p.name
            _place(p, tmp, run)
    except BaseException as exc:
        unrestored = _roll_back(run)
        if isinstance(exc, OSError):
            raise PlacingFailed(current, exc, unrestored) from None
        raise
    finally:
        for path in run.scratch:
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)


def _temporary(p: Planned, run: _Run) -> Path:
    """`p`'s content in a temporary file beside its place, on disk, with its mode."""
    fd, name = tempfile.mkstemp(prefix=f".{p.target.name}.", suffix=".tmp", dir=p.target.parent)
    tmp = Path(name)
    run.scratch.append(tmp)
    with os.fdopen(fd, "wb") as f:
        f.write(p.data)
        f.flush()
        os.fsync(f.fileno())
    os.chmod(tmp, p.mode)
    return tmp


def _place(p: Planned, tmp: Path | None, run: _Run) -> None:
    """Rename `tmp` (or `p.source`) to `p.target`, or remove it, keeping what was there as
    planned, each step's undo noted."""
    target = p.target
    if p.backup is not None:
        # its removal noted first: a copy a full disk cuts short is removed too (a name nothing held)
        run.undo.append((str(p.backup), lambda: p.backup.unlink(missing_ok=True)))  # type: ignore[union-attr]
        shutil.copy2(target, p.backup)
    if p.keep_as is not None:
        os.replace(target, p.keep_as)
        run.undo.append((str(target), lambda: os.replace(p.keep_as, target)))  # type: ignore[arg-type]
    elif target.is_symlink() or target.exists():  # held aside as it is, a link as a link
        held = target.with_name(f".{target.name}.{secrets.token_hex(8)}.old")
        run.scratch.append(held)
        if p.remove:  # renamed aside: removed at the end, put back by the undo
            os.replace(target, held)
        else:
            shutil.copy2(target, held, follow_symlinks=False)
        run.undo.append((str(target), lambda: os.replace(held, target)))
    else:
        run.undo.append((str(target), lambda: target.unlink(missing_ok=True)))
    if p.source is not None:
        os.replace(p.source, target)
        run.undo.append((str(p.source), lambda: os.replace(target, p.source)))  # type: ignore[arg-type]
    elif tmp is not None:
        os.replace(tmp, target)


def _roll_back(run: _Run) -> list[str]:
    """Undo the steps taken, last first; the paths that could not be put back."""
    failed = []
    for where, step in reversed(run.undo):
        try:
            step()
        except OSError:
            failed.append(where)
    return failed
