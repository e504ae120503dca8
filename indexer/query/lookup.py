"""Workspace-level lookups shared by the front ends (the CLI and the MCP server): references to a
target, a file's description. Paths are resolved before they get here (`indexer.query.locate`).

Errors are `LookupFailed` with a message that says what to do; front ends add their own wording.
"""

from __future__ import annotations

import msgspec

from indexer.model import Description, Target, Usage
from indexer.project import file_title
from indexer.query.animator_params import parameter_target, parameter_usages
from indexer.query.carriers import with_settings
from indexer.query.describe import NotFound, describe, resolve_file
from indexer.query.messages import message_usages, receiverless_target
from indexer.query.named_files import like_escaped
from indexer.query.tags import tag_target, tag_usages
from indexer.query.target_text import meta_target
from indexer.query.workspace import Workspace, prefixed
from indexer.unity import as_guid
from indexer.words import echoed


class LookupFailed(Exception):
    """A path outside the workspace, an unknown file, GUID or symbol; the message is actionable."""


class AmbiguousFile(LookupFailed):
    """A file name more than one indexed file has: the message lists them."""


def is_guid(text: str) -> bool:
    return as_guid(text) is not None


def find_references(ws: Workspace, text: str) -> tuple[Target | None, list[Usage]]:
    """What `text` names (a type, Type.Member, path, GUID or assembly) and every usage of it;
    (None, []) when it names nothing. Paths must already be inside the workspace."""
    projects = ws.projects
    if "/" in text:
        owner = ws.owner(text)
        if owner is None:
            raise LookupFailed(f"{echoed(text)} is in none of the projects of {ws.base}")
        projects, text = [owner[0]], owner[1]
    target = None
    usages: list[Usage] = []
    for p in projects:
        graph = p.fresh().graph
        t = meta_target(graph, text) or graph.target(text)
        calls: list[Usage] = []
        if t.kind == "unknown":  # a name no type or member has: an animator controller's parameter, a tag
            name = text.strip()
            t = parameter_target(graph, name) or tag_target(graph, name) or t
            if t.kind == "unknown" and not members_named(ws, name):  # a method by name, of none of the code's
                calls = message_usages(graph, name, []) if name.isidentifier() else []
                t = receiverless_target(name) if calls else t
            if t.kind != "unknown" and (members := members_named(ws, text.strip())):  # `IsKnockedBack` both
                shown = ", ".join(members[:MEMBERS_NAMED])
                t = msgspec.structs.replace(t, note=f"{t.note}; members so named too: {shown}")
        if t.kind == "unknown":
            continue
        if t.kind == "type":
            t = _declared_in(graph, t, p.prefix)
        # which may add to the target's note; a prefab's variants of variants say what they set too
        found = (
            parameter_usages(graph, t.name)
            if t.kind == "animator_parameter"
            else tag_usages(graph, t)
            if t.kind == "tag"
            else calls
            if t.kind == "message"
            else with_settings(
                graph, graph.references(t), through=t.kind in ("path", "guid") and t.path.endswith(".prefab")
            )
        )
        if target is None:
            target = msgspec.structs.replace(t, path=p.prefix + t.path if t.path else "")
        usages += [_placed_usage(u, p.prefix) for u in found] if p.prefix else found
    return target, usages


def _declared_in(graph, t: Target, prefix: str) -> Target:
    """A type target with the file declaring it and that file's GUID, when one file declares
    every type it means (a partial class's parts); same-named types in several files say how to
    ask for one (`refs Menu` gave Fungus's `Menu` command and the game's `Menu` together), by their
    workspace paths (`prefix`: the project's folder in the workspace)."""
    files = {row.path for q in t.types for row in graph.types_named(q) if row.qualified == q}
    if len(files) != 1:
        if len(t.types) > 1 and not t.note:
            shown = ", ".join(prefix + f for f in sorted(files)[:MEMBERS_NAMED])
            t = msgspec.structs.replace(t, note=f"{len(t.types)} types so named; a file's path gives one: {shown}")
        return t
    path = files.pop()
    return msgspec.structs.replace(t, path=path, guid=graph.records.guid_naming(path) or "")


def describe_target(ws: Workspace, text: str, max_lines: int = 400) -> tuple[str, Description]:
    """The description of a workspace path or GUID, and the name of the project holding it."""
    if is_guid(text):
        candidates = [(p.fresh(), text) for p in ws.projects]
    else:
        owner = ws.owner(text)
        if owner is None:
            raise LookupFailed(f"{echoed(text)} is in none of the projects of {ws.base}")
        candidates = [owner]
    error: NotFound | None = None
    for p, local in candidates:
        try:
            desc = describe(p.graph, resolve_file(p.graph, local), max_lines=max_lines)
        except NotFound as exc:
            error = exc
            continue
        if p.prefix:
            desc = msgspec.structs.replace(
                desc,
                path=p.prefix + desc.path,
                text="\n".join(prefixed(line, p.prefix) for line in desc.text.split("\n")),
                uses=[msgspec.structs.replace(e, path=p.prefix + e.path) for e in desc.uses],
                used_by=[msgspec.structs.replace(e, path=p.prefix + e.path) for e in desc.used_by],
            )
        return p.name, desc
    raise LookupFailed(str(error))


def _placed_usage(usage: Usage, prefix: str) -> Usage:
    """A project's usage with its path, and the paths an asset usage names (the prefabs it goes
    through, a value that is a file), in the workspace; a code usage's line is code, as written."""
    detail = prefixed(usage.detail, prefix) if usage.where == "asset" else usage.detail
    via = tuple(prefix + p for p in usage.via)
    return msgspec.structs.replace(usage, path=prefix + usage.path, detail=detail, via=via)


MEMBER_KINDS = frozenset({"method", "field", "property", "event"})
MEMBERS_NAMED = 5  # types a bare member name's hint lists


def members_named(ws: Workspace, name: str) -> list[str]:
    """`Type.Member` for the project types declaring a member of this bare name (`refs UpdateLives`
    with `Player.UpdateLives` and `UIManager.UpdateLives` exited "no ... member of that name")."""
    if not name.isidentifier():
        return []
    found: list[str] = []
    for p in ws.projects:
        project = p.fresh()
        for c in project.searcher.holding([name], 50, "csharp", None):
            found += [
                f"{s.container}.{name}"
                for s in project.records.symbols(c.path)
                if s.name == name and s.kind in MEMBER_KINDS
            ]
    return sorted(dict.fromkeys(found))


SIMILAR_SHOWN = 3  # names a target found nowhere is offered


def similar_names(ws: Workspace, text: str) -> list[str]:
    """What a target found nowhere may have meant: a type or `Type.Member` written in another case
    (`carlapcounter`), misspelt (`CarLapCountr`), or through a singleton's field as code calls it
    (`GameManager.instance.GetNumberOfLaps` is `GameManager.GetNumberOfLaps`)."""
    parts = text.strip().split(".")
    if not all(p.isidentifier() for p in parts):
        return []
    out: list[str] = []
    for p in ws.projects:
        graph = p.fresh().graph
        owner = _closest(parts[0], sorted({t.name for t in graph.types}))
        if owner is None:
            continue
        if len(parts) == 1:
            out.append(owner)
            continue
        # each member as named from the type: a nested class's `Scanner.InputParams.scanTime`
        said = {
            s.name: owner + s.container[len(t.qualified) :] + "." + s.name
            for t in graph.types_named(owner)
            for s in sorted(graph.records.symbols(t.path), key=lambda s: s.container == t.qualified)
            if not s.is_type and (s.container == t.qualified or s.container.startswith(t.qualified + "."))
        }  # (the type's own member last: it is the one meant when a nested class's has its name)
        # `Type.instance.Member`: the last part first
        found = next((m for part in (parts[-1], *parts[1:-1]) if (m := _closest(part, sorted(said)))), None)
        out += [said[found]] if found else []
    return [n for n in dict.fromkeys(out) if n != text.strip()][:SIMILAR_SHOWN]


def _closest(word: str, names: list[str]) -> str | None:
    """The name `word` is but for case, else the one it most likely misspells (difflib, 0.85)."""
    import difflib

    same = [n for n in names if n.lower() == word.lower()]
    return same[0] if same else next(iter(difflib.get_close_matches(word, names, 1, 0.85)), None)


def unknown_target_hint(ws: Workspace, text: str) -> tuple[str, list[str]]:
    """What to offer for a target found nowhere, the CLI and MCP alike, as a clause to add to the
    error (`; members so named: A.Open, B.Open`, `; did you mean CarLapCounter?`, or ''), and
    the names offered."""
    if members := members_named(ws, text):
        return f"; members so named: {_first(members, MEMBERS_NAMED)}", members[:MEMBERS_NAMED]
    if users := _naming_scripts(ws, text):  # a type of a package or submodule the checkout lacks
        more = f" and {len(users) - 1} more" if len(users) > 1 else ""
        return f"; scripts name it as a type ({users[0]}{more}) but nothing here declares it", []
    if similar := similar_names(ws, text):
        return f"; did you mean {', '.join(similar)}?", similar
    if files := _files_named(ws, text):  # `refs Golem` for `Golem.prefab`: a file is asked for by its path
        return f"; files so named: {_first(files, FILES_NAMED)}", files[:FILES_NAMED]
    return "", []


def _first(names: list[str], most: int) -> str:
    """The first `most` names, and how many more there are (a list cut unsaid read as whole)."""
    return ", ".join(names[:most] + ([f"… {len(names) - most} more"] if len(names) > most else []))


FILES_NAMED = 3  # files a name found nowhere else is offered (the rest counted)
MAX_NAME = 255  # a file name's longest: a longer input names no file (and SQLite refuses its pattern)


def _files_named(ws: Workspace, name: str) -> list[str]:
    """The files named `name` but for their extension (`Golem` for `Assets/Prefabs/Golem.prefab`),
    by path; none for a name longer than a file's can be (MAX_NAME)."""
    stem = name.strip()
    if not stem or "/" in stem or len(stem) > MAX_NAME:
        return []
    written = like_escaped(stem)
    sql = "SELECT path FROM files WHERE path LIKE ? ESCAPE '\\' AND path NOT LIKE '%.meta' ORDER BY path"
    found = [
        p.prefix + path for p in ws.projects for (path,) in p.fresh().records.conn.execute(sql, (f"%/{written}.%",))
    ]
    return [f for f in found if file_title(f).lower() == stem.lower()]


def _naming_scripts(ws: Workspace, name: str) -> list[str]:
    """The scripts writing `name` as a type (a field's, a base class) though no indexed file
    declares it: `GameEvent` of a submodule not checked out was "no type ... of that name"."""
    if not name.isidentifier():
        return []
    sql = "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.kind = 'type' AND r.key = ?"
    return sorted(p.prefix + path for p in ws.projects for (path,) in p.fresh().records.conn.execute(sql, (name,)))
