"""A path a person or an agent typed, as the workspace path of the file or folder it names.

One resolver for the CLI and the MCP server (the rules are the pure functions of
`indexer.paths`); this module only asks the index what exists. Errors are `LookupFailed` with a
message that says what to do.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

from indexer.identifiers import code_name
from indexer.model import Target, Usage
from indexer.paths import (
    PathAmbiguous,
    PathNotFound,
    PathOutside,
    candidates,
    folders_by_case,
    folders_ending,
    folders_of,
    is_absolute,
    normalize,
    pick,
)
from indexer.project import printable, printable_path
from indexer.query.lookup import AmbiguousFile, LookupFailed, find_references
from indexer.query.workspace import Workspace
from indexer.unity import as_guid
from indexer.words import echoed


class BadPath(LookupFailed):
    """A path that cannot name a file of the workspace: outside it, or the workspace folder itself."""


def looks_like_path(text: str) -> bool:
    """Whether `text` can only be a path (not a type, Type.Member or GUID)."""
    t = normalize(text)
    return "/" in t or is_absolute(t, True)


def _readings(ws: Workspace, text: str, cwd: Path | None) -> list[str]:
    base = str(ws.base)
    try:
        return candidates(text, base, str(cwd) if cwd else None)
    except PathOutside:
        # A link on the way (/tmp -> /private/tmp): compare where it really leads.
        t = normalize(text)
        if is_absolute(t) and os.path.realpath(t) != t:
            try:
                return candidates(os.path.realpath(t), base)
            except PathOutside:
                pass
        raise BadPath(
            f"{echoed(text)!r} is outside the project {printable_path(ws.base)}:"
            " give a path relative to the project, e.g. Assets/..."
        ) from None


def _escaped_readings(ws: Workspace, text: str, cwd: Path | None) -> list[str]:
    """`_readings` in the form the index names files (`printable`): an undecodable byte or a
    control character is escaped in the project-relative part only, since the workspace folder
    and the working directory are compared as they are (a project folder named `odd\tdir`)."""
    if text.isprintable():
        return _readings(ws, text, cwd)
    try:
        return ["/".join(printable(part) for part in r.split("/")) for r in _readings(ws, text, cwd)]
    except BadPath:  # copied from our output, escaped as a whole (`Game\x09/Assets/A.cs`)
        return _readings(ws, printable(text), cwd)


def _exists(ws: Workspace, path: str) -> bool:
    owner = ws.owner(path)
    return owner is not None and owner[1] in owner[0].stats_of([owner[1]])


def _stored_form(ws: Workspace, text: str) -> str | None:
    """The indexed file named by a path the index stores escaped (docs/indexing.md), given as is
    (undecodable bytes, a newline) or copied in its escaped form from our output (`new\\x0aline.cs`),
    which reading backslashes as separators would miss: the whole path, or the end of the one
    indexed path ending so (a bare file name)."""
    keys = [key for key in dict.fromkeys((printable(text), text)) if "\\" in key and key.isprintable()]
    for key in keys:
        if _exists(ws, key):
            return key
    ends = tuple("/" + key.removeprefix("./") for key in keys)
    fits = sorted(p for p in _every_path(ws) if p.endswith(ends)) if ends else []
    return fits[0] if len(fits) == 1 else None


def _every_path(ws: Workspace) -> list[str]:
    return [p.prefix + path for p in ws.projects for path in p.fresh().records.kinds()]


# A path followed by a position, as `query` and `refs` print one (`A.cs:12`), grep (`A.cs:12:5`),
# a code host (`A.cs#L12`) and Unity's console or the C# compiler (`A.cs(12,5)`).
_LINE = re.compile(r"(.+?)(?::[0-9]+(?::[0-9]+)?|#L[0-9]+(?:-L?[0-9]+)?|\([0-9]+(?:,\s*[0-9]+)?\))")


def locate_file(ws: Workspace, text: str, cwd: Path | None = None) -> str:
    """The workspace path of the indexed file `text` names, or a GUID as is: cwd-relative (when
    `cwd` is given and the path leads into the workspace), workspace-relative, absolute inside it, different
    only in case, or the unique file whose path ends with `text` (a bare file name); a path followed
    by a line (`_LINE`) that names no file is the file."""
    t = text.strip()
    if guid := as_guid(t):
        return guid
    stored = _stored_form(ws, t)
    if stored is not None:
        return stored
    readings = _escaped_readings(ws, t, cwd)
    if not t.isprintable():  # an undecodable byte or a control character: named as the index names it
        t = printable(t)
    if readings == [""]:
        raise BadPath(f"{echoed(text)} is the project folder itself: give a file in it (e.g. Assets/...)")
    try:
        return pick(t, readings, lambda r: _exists(ws, r), lambda: _every_path(ws))
    except (PathAmbiguous, PathNotFound) as exc:
        if isinstance(exc, PathNotFound) and (lined := _LINE.fullmatch(t)) and not _LINE.fullmatch(lined[1]):
            with contextlib.suppress(LookupFailed):  # one position (not `:1` pasted 3,000 times); else as given
                return locate_file(ws, lined.group(1), cwd)
        if isinstance(exc, PathNotFound) and (declaring := _declaring_files(ws, t)):
            return _declaring_file(t, declaring)  # before a folder of its name (`Scripts/Enemy/Enemy.cs`)
        folder = (
            next((r for r in readings if r and _holds_files(ws, r)), None) if isinstance(exc, PathNotFound) else None
        )
        if folder is not None:  # `describe Assets/Scripts`: a folder (its .meta is no file's left behind)
            guid = _left_guid(ws, [folder])
            raise BadPath(
                f"{echoed(text.strip())} is a folder: give a file in it;"
                f" `unity-index query WORDS --path {folder}` searches its files"
                + (f", `unity-index refs {guid}` lists what uses the folder" if guid else "")
            ) from None
        if isinstance(exc, PathNotFound) and (guid := _left_guid(ws, readings)):
            return guid  # a file deleted or moved outside Unity: its .meta still names what uses it
        raise (AmbiguousFile if isinstance(exc, PathAmbiguous) else LookupFailed)(str(exc)) from None


_TYPE_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*(?:<[\w\s,.<>]*>)?")


def _declaring_files(ws: Workspace, text: str) -> list[tuple[str, str]]:
    """(file, qualified type) for the types `text` names, simply, qualified or generic
    (`describe DayTimeController`, `describe Game.Player`, `describe Pool<T>`), as `refs` takes a
    type: no file is named so."""
    text = code_name(text)  # `global::Game.Player`
    if not _TYPE_NAME.fullmatch(text):
        return []
    found = [(p.prefix + row.path, row.qualified) for p in ws.projects for row in p.fresh().graph.types_named(text)]
    return sorted(dict.fromkeys(found))


def _declaring_file(text: str, declaring: list[tuple[str, str]]) -> str:
    """The one file declaring the type `text` names; several (a partial class's parts, types of
    one name in two namespaces) are said, with what tells them apart."""
    files = sorted({path for path, _ in declaring})
    if len(files) == 1:
        return files[0]
    types = sorted({qualified for _, qualified in declaring})
    if len(types) > 1:  # `A.Player` and `B.Player`: more of the path would not say which is meant
        raise AmbiguousFile(
            f"{echoed(text)} names {len(types)} types: {', '.join(types[:10])}; give the qualified name"
        )
    raise AmbiguousFile(f"{echoed(text)} is declared in {len(files)} files: {', '.join(files[:10])}; give one of them")


def _left_guid(ws: Workspace, readings: list[str]) -> str | None:
    """The GUID of the .meta a reading's file left behind (its asset deleted or moved without it:
    a texture missing from a checkout, its `.meta` kept), by which assets still refer to it."""
    for r in readings:
        owner = ws.owner(r + ".meta") if r else None
        if owner is not None and (guid := owner[0].records.guid_of_path(owner[1][: -len(".meta")])):
            return guid
    return None


def _holds_files(ws: Workspace, path: str) -> bool:
    """Whether the index holds files below the workspace path `path` (it is a folder)."""
    owner = ws.owner(path + "/")
    return owner is not None and bool(owner[1]) and owner[0].records.has_folder(owner[1].rstrip("/"))


def locate_folder(ws: Workspace, text: str, cwd: Path | None = None) -> str:
    """The workspace path of a folder (a filter such as `--path`): the first reading below which
    the index holds files ("" is the whole workspace), else the one folder of indexed files equal to
    a reading but for case, else the one whose path ends with the text by whole names (a folder's
    tail, `Scripts/Enemy`, as a file is found by its name; not `Scripts/Enem`). A folder holding no
    indexed file is refused: a mistyped filter would otherwise read as a search that found nothing."""
    readings = _readings(ws, text.strip(), cwd)
    for r in readings:
        if not r or any(p.prefix.startswith(r + "/") for p in ws.projects):  # all, or above projects
            return r
        owner = ws.owner(r + "/")
        if owner is not None and (not owner[1] or owner[0].records.has_folder(owner[1].rstrip("/"))):
            return r
    every = _every_path(ws)
    fits = folders_by_case(readings, every)
    if len(fits) == 1:
        return fits[0]
    if fits:
        raise LookupFailed(
            f"{echoed(text.strip())} names {len(fits)} folders: {', '.join(fits[:10])}; give the folder in its case"
        )
    if file := next((r for r in readings if r and _exists(ws, r)), None):
        raise LookupFailed(
            f"{echoed(text.strip())} is a file, not a folder: give the folder holding it, {file.rpartition('/')[0]}"
        )
    # in a workspace, a folder of its projects is named with the project's folder in front
    inside = [p.prefix + r for p in ws.projects if p.prefix for r in readings if r and p.records.has_folder(r)]
    if len(inside) == 1:
        return inside[0]
    if inside:
        raise LookupFailed(
            f"{echoed(text.strip())} is a folder of {len(inside)} projects: give one of {', '.join(inside[:10])}"
        )
    ending = folders_ending(text, every)  # a folder by its tail, as a file by its name
    if len(ending) == 1:
        return ending[0]
    if ending:
        more = f", … {len(ending) - 10} more" if len(ending) > 10 else ""
        raise LookupFailed(
            f"{echoed(text.strip())} names {len(ending)} folders: {', '.join(ending[:10])}{more}; give more of the path"
        )
    near = _similar_folder(ws, [r for r in readings if r])
    raise LookupFailed(
        f"{echoed(text.strip())}: no indexed file is under this folder;"
        + (f" did you mean {near}?" if near else " give a folder of the project, e.g. Assets/Scripts")
    )


def _similar_folder(ws: Workspace, readings: list[str]) -> str | None:
    """The folder of indexed files a mistyped one most likely means (`Assets/Dev/Scrpts`:
    `Assets/Dev/Scripts`), where the hint had named a folder the project may not have: any folder
    with files below it (`Scriptz`: `Assets/Game/Scripts`, which holds only folders)."""
    import difflib

    folders = sorted(folders_of(_every_path(ws)))
    for reading in readings:
        if close := difflib.get_close_matches(reading.rstrip("/"), folders, 1, 0.85):
            return close[0]
        # a folder's mistyped tail (`Scripts/Enem`): the folders' tails of as many names
        depth = reading.strip("/").count("/") + 1
        tails: dict[str, str] = {}
        for folder in folders:
            tails.setdefault("/".join(folder.split("/")[-depth:]), folder)
        if close := difflib.get_close_matches(reading.strip("/"), list(tails), 1, 0.85):
            return tails[close[0]]
    return None


# The longest text `refs` looks up: a path's most (PATH_MAX); a C# identifier is at most 512
# characters, a type's full name under 1,024. A longer one (a file pasted as the name) was seconds
# of compiling patterns holding it: a 1 MB name 2.5 s.
MAX_TARGET = 4_096


def references_of(ws: Workspace, text: str, cwd: Path | None = None) -> tuple[Target | None, list[Usage]]:
    """`lookup.find_references` of what a user's text names: a path in any form the resolver reads,
    or a name; a name that names nothing but a file (`Health.cs`, which fits exactly one indexed
    file) is that file. A text longer than MAX_TARGET names nothing: refused, saying so."""
    if len(text) > MAX_TARGET:
        raise LookupFailed(
            f"{echoed(text)}: no type, member, path, GUID or assembly is longer than {MAX_TARGET:,} characters"
            " (a path's most; a C# name's part at most 512): give a type, Type.Member, a path or a GUID"
        )
    if looks_like_path(text):
        return find_references(ws, locate_file(ws, text, cwd))
    found = find_references(ws, text)
    if found[0] is None and "." in text:
        try:
            path = locate_file(ws, text, cwd)
        except AmbiguousFile:
            raise  # `refs --UI--.prefab` with two of them: said so, not "no file of that name"
        except LookupFailed:
            if said := _no_member(ws, text):
                raise LookupFailed(said) from None
            return found
        return find_references(ws, path)
    return found


def _no_member(ws: Workspace, text: str) -> str | None:
    """What to say of `Type.Member` when the type is there but declares no such member (nor do its
    bases): "no type, member, file ... of that name" read as if `Portal` were unknown."""
    owner, _, member = text.strip().removesuffix("()").rpartition(".")
    graphs = [p.fresh().graph for p in ws.projects]
    if not owner or not member.isidentifier() or not any(g.types_named(owner) for g in graphs):
        return None
    said = f"{echoed(owner)} is a type, but neither it nor a base class declares {echoed(member)}"
    # a button still bound to a method deleted or renamed since: Unity calls nothing for it
    bound = []
    for g in graphs:
        types = {t.qualified for t in g.types_named(owner)}
        bound += sorted(f"{u.path}:{u.line}" for u in g.method_usages(types, member, g.script_guids(types)))
    if bound:
        listed = ", ".join(bound[:10]) + (f", … {len(bound) - 10} more" if len(bound) > 10 else "")
        said += f"; UnityEvent calls still name it, bound to nothing: {listed}"
    return f"{said}; `unity-index refs {owner}` lists the type's usages"
