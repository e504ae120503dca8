"""Paths as people type them, as the project-relative keys the index uses.

A person types a path relative to the folder they are in, relative to the project, absolute
(pasted from a file manager, maybe with Windows' backslashes, drive letter, `\\\\?\\` or UNC prefix
and another case), or just a file name. This module turns that text into the candidates it may name
and picks the one the index holds; it is pure (strings in, strings out; what exists is asked through
callables), so the Windows rules are tested on any machine. Index keys stay project-relative with
forward slashes on every platform.
"""

from __future__ import annotations

import difflib
import ntpath
import os
import posixpath
import re
import unicodedata
from collections.abc import Callable, Iterable

from indexer.words import echoed

WINDOWS = os.name == "nt"


class PathOutside(ValueError):
    """The path lies outside the project (or workspace)."""


class PathAmbiguous(LookupError):
    """More than one indexed file fits; `candidates` lists them."""

    def __init__(self, text: str, candidates: list[str]):
        self.candidates = candidates
        listed = ", ".join(candidates[:10]) + (f", … {len(candidates) - 10} more" if len(candidates) > 10 else "")
        super().__init__(f"{echoed(text)} names {len(candidates)} files: {listed}; give more of the path")


class PathNotFound(LookupError):
    """No indexed file fits; `similar` holds names that look close."""

    def __init__(self, text: str, similar: list[str]):
        self.similar = similar
        hint = f"did you mean {', '.join(similar)}?" if similar else "`unity-index query` finds files by name"
        super().__init__(f"{echoed(text)} is not an indexed file; {hint}")


def normalize(text: str) -> str:
    """Forward slashes, no surrounding quotes or blanks, no `\\\\?\\` / `\\\\.\\` prefix (`\\\\?\\UNC\\srv\\x`
    becomes `//srv/x`). Backslashes are separators on every platform: Unity paths never hold one."""
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "\"'":
        t = t[1:-1].strip()
    t = t.replace("\\", "/")
    for prefix in ("//?/UNC/", "//./UNC/"):
        if t[: len(prefix)].upper() == prefix:
            return "//" + t[len(prefix) :]
    if t.startswith(("//?/", "//./")):
        return t[4:]
    return t


def fold(text: str) -> str:
    """`text` as paths are compared when the exact one is not indexed: without case (`util.cs` is
    `Util.cs`) nor Unicode normal form (`É` typed composed, NFC, is the `É` macOS writes
    decomposed, NFD, into a file's or a folder's name, and the other way)."""
    folded = text.casefold()
    return folded if folded.isascii() else unicodedata.normalize("NFC", folded)


# A drive is a letter and a colon (`C:`), never followed by another (`a::b`, C#'s alias qualifier):
# ntpath reads any character before a colon as one, and `refs ::` was "outside the project".
_DRIVE = re.compile(r"[A-Za-z]:(?!:)")


def is_absolute(path: str, windows: bool = WINDOWS) -> bool:
    """Whether a normalized path is absolute: `/x`, or on Windows a drive (`C:/x`) or UNC (`//srv/share`)."""
    if windows:
        return bool(_DRIVE.match(path)) or path.startswith("/")
    return path.startswith("/")


def relative_inside(base: str, path: str, windows: bool = WINDOWS) -> str | None:
    """`path` (absolute, normalized) relative to the folder `base` as `a/b/c` ("" for `base`
    itself), or None when it lies outside. Lexical: `..` is folded, links are not followed. On
    Windows drive letters, UNC hosts and names compare without case (NTFS ignores it), and a path
    with no drive (`/x`) is on `base`'s drive."""
    mod = ntpath if windows else posixpath
    b = mod.normpath(normalize(base))
    p = normalize(path)
    if windows and not ntpath.splitdrive(p)[0]:
        p = ntpath.splitdrive(b)[0] + p
    p = mod.normpath(p)
    if windows:
        b, p = b.replace("\\", "/"), p.replace("\\", "/")
        key = str.casefold
    else:
        key = str
    b = b.rstrip("/")
    if key(p) == key(b):
        return ""
    if not key(p).startswith(key(b) + "/"):
        return None
    return p[len(b) + 1 :]


def candidates(text: str, base: str, cwd: str | None = None, windows: bool = WINDOWS) -> list[str]:
    """The base-relative paths `text` may name, the likeliest first: an absolute path names one;
    a relative one is read from `cwd`, then from `base`, each reading kept when it lies inside
    `base` (from a folder above the project, `Game/Assets/A.cs` names `Assets/A.cs`: the paths
    git and grep print at the root of a repository holding the project). Raises PathOutside when
    every reading lies outside `base`."""
    t = normalize(text)
    if is_absolute(t, windows) or is_absolute(t, True):  # C:/x is no relative path anywhere
        rel = relative_inside(base, t, windows)
        if rel is None:
            raise PathOutside(f"{echoed(text)} is outside {base}")
        return [rel]
    out: list[str] = []
    starts = [base]
    if cwd is not None and relative_inside(base, cwd, windows) != "":
        starts.insert(0, cwd)
    for start in starts:
        joined = posixpath.join(normalize(start), t) if t else normalize(start)
        rel = relative_inside(base, joined, windows)
        if rel is not None and rel not in out:
            out.append(rel)
    if not out:
        raise PathOutside(f"{echoed(text)} is outside {base}")
    return out


def pick(
    text: str,
    readings: list[str],
    exists: Callable[[str], bool],
    every_path: Callable[[], Iterable[str]],
) -> str:
    """The indexed file `text` names: the first reading the index holds; else the one indexed path
    equal to a reading but for case and Unicode normal form (`fold`); else, for a relative path
    without `..`, the one indexed path ending with it (a bare file name, or the tail of a path).
    Of several fits, the only one in the case typed; else PathAmbiguous; none: PathNotFound with
    close names."""
    for r in readings:
        if r and exists(r):
            return r
    paths = list(every_path())
    folded = {fold(r) for r in readings}
    fits = sorted(p for p in paths if fold(p) in folded)
    tail = normalize(text).strip("/").removeprefix("./")
    if not fits and tail and ".." not in tail.split("/") and not is_absolute(normalize(text), True):
        end = "/" + fold(tail)
        fits = sorted(p for p in paths if ("/" + fold(p)).endswith(end))
    if len(fits) == 1:
        return fits[0]
    # Files differing only in case (Util.cs, util.cs on a case-sensitive disk): the one typed in
    # its exact case is meant; without this no more of the path could tell them apart.
    exact = [p for p in fits if ("/" + p).endswith("/" + tail)] if tail else []
    if len(exact) == 1:
        return exact[0]
    if fits:
        raise PathAmbiguous(text, fits)
    raise PathNotFound(text, _similar(tail, paths))


def folders_by_case(readings: list[str], paths: Iterable[str]) -> list[str]:
    """The folders holding indexed `paths` that equal one of `readings` but for case and Unicode
    normal form (`fold`), sorted (a case-sensitive file system may hold two)."""
    folded = {fold(r.rstrip("/")) for r in readings if r.rstrip("/")}
    out: set[str] = set()
    for p in paths:
        parts = p.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folder = "/".join(parts[:i])
            if fold(folder) in folded:
                out.add(folder)
    return sorted(out)


def folders_of(paths: Iterable[str]) -> set[str]:
    """Every folder holding one of `paths`, at any depth (`Assets/Game/Scripts` of a file in
    `Assets/Game/Scripts/Enemy`): a folder of subfolders alone is one too."""
    folders: set[str] = set()
    for p in paths:
        folder = p.rpartition("/")[0]
        while folder and folder not in folders:  # each folder once, its parents with it
            folders.add(folder)
            folder = folder.rpartition("/")[0]
    return folders


def folders_ending(text: str, paths: Iterable[str]) -> list[str]:
    """The folders holding indexed `paths` whose path ends with the relative `text` by whole names
    (`Scripts/Enemy` or `Enemy/` is `Assets/Game/Scripts/Enemy`, never `.../EnemyBoss`), compared
    by `fold`, sorted; of several, the one in the case typed if only one is, as `pick` reads a
    file's tail."""
    t = normalize(text)
    tail = t.strip("/").removeprefix("./")
    if not tail or ".." in tail.split("/") or is_absolute(t, True):
        return []
    end = "/" + fold(tail)
    fits = sorted(f for f in folders_of(paths) if ("/" + fold(f)).endswith(end))
    exact = [f for f in fits if ("/" + f).endswith("/" + tail)]
    return exact if len(exact) == 1 else fits


def _similar(tail: str, paths: list[str]) -> list[str]:
    """Indexed paths whose file name is close to the one typed (a typo, another extension)."""
    name = tail.rsplit("/", 1)[-1].casefold()
    if not name:
        return []
    by_name: dict[str, list[str]] = {}
    for p in paths:
        by_name.setdefault(p.rsplit("/", 1)[-1].casefold(), []).append(p)
    # the name without its extension (`Uzi`: Uzi.asset and Uzi.prefab, too far apart for difflib)
    stemmed = sorted(p for n, ps in by_name.items() if n.rpartition(".")[0] == name and n[-5:] != ".meta" for p in ps)
    close = difflib.get_close_matches(name, list(by_name), n=3, cutoff=0.8)
    found = list(dict.fromkeys([*stemmed, *sorted(p for n in close for p in by_name[n])]))
    # an asset's .meta beside it is no other guess (`Player.cs, Player.cs.meta`)
    return [p for p in found if not (p.endswith(".meta") and p[:-5] in found)][:5]
