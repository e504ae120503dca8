"""Prefab instances Unity writes without a name: a model's (or a prefab's) instance whose name was
never overridden takes its source's name in the editor, and the objects, components and overrides
it holds name it by its file ID (`&5495659960571637663/Anchor`). The scanner sees one file and
cannot know the source's name; these name it as the editor does, from the source's path."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable

import msgspec

from indexer.model import FileRecord, Symbol, Usage
from indexer.project import file_title

_INSTANCE_KEY = re.compile(r"&-?\d+\b")


def unnamed_instances(rec: FileRecord) -> dict[int, str]:
    """The line of each prefab instance that has no name (its name not overridden) -> the path its
    objects, added components and overrides name it by (`&<fileID>`): that of the overrides
    recorded after it, which its own document holds, else (one overriding nothing, a prefab placed
    as it is) that of its source's reference, on its line."""
    lines = sorted(s.line for s in rec.symbols if s.kind == "prefab_instance" and not s.name)
    keys: dict[int, str] = {}
    if lines:
        for s in rec.symbols:
            if s.kind == "override" and s.container.rpartition("/")[2].startswith("&"):
                at = bisect_right(lines, s.line) - 1
                if at >= 0:
                    keys.setdefault(lines[at], s.container)
        unkeyed = set(lines) - keys.keys()
        for r in rec.refs:
            if r.kind == "prefab" and r.line in unkeyed and r.detail.rpartition("/")[2].startswith("&"):
                keys.setdefault(r.line, r.detail)
    return keys


def instance_named(
    text: str, rec: FileRecord, path_of_guid: Callable[[str], str | None], source_objects: SourceObjects | None = None
) -> str:
    """`text` (a hit's name or line, a usage's object) with each unnamed prefab instance's
    `&<fileID>` written as the name `describe` gives it (`unnamed_title`: `&900.Anchor` ->
    `Digger.Anchor`); one whose source is not in the index keeps its file ID."""
    if "&" not in text:
        return text
    names: dict[str, str] = {}
    instances = {s.line: s for s in rec.symbols if s.kind == "prefab_instance" and not s.name}
    for line, key in unnamed_instances(rec).items():
        guid = instances[line].detail
        if (source := path_of_guid(guid)) is not None:
            names[key.rpartition("/")[2]] = unnamed_title(guid, source, source_objects)
    return _INSTANCE_KEY.sub(lambda m: names.get(m.group(), m.group()), text)


def unnamed_title(guid: str, source: str, source_objects: SourceObjects | None) -> str:
    """The name Unity shows for an instance of the prefab at `source` that no `m_Name` override
    renames: the source's root object's `m_Name` (the instance is a copy of that object), which
    may differ from the file's name (`Enemy.prefab` whose root is `Goblin`); the file's name when
    that root is not read (a model, whose root Unity names after the file; no `source_objects`)."""
    found = source_objects(guid) if source_objects is not None else None
    return found[1] if found is not None and found[1] else file_title(source)


# A source prefab's objects by fileID (their paths, '' for the root's) and its root's name.
SourceObjects = Callable[[str], "tuple[dict[str, str], str] | None"]


# A prefab instance the scanner may have named by a child's rename, by its path: the instance and
# its `m_Name` overrides.
Renamable = dict[str, tuple[Symbol, list[Symbol]]]


def renamed_instances(rec: FileRecord, source_objects: SourceObjects) -> dict[str, str]:
    """The path the scanner names a prefab instance by -> the path the editor shows, where they
    differ (`editor_name`)."""
    return renamed(renamable(rec.symbols), source_objects)


def renamable(symbols: tuple[Symbol, ...]) -> Renamable:
    """The instances holding an `m_Name` override, by path: the only ones `editor_name` may rename,
    told from the file alone (their sources are read only for those a caller shows)."""
    overrides: dict[str, list[Symbol]] = {}
    for s in symbols:
        if s.kind == "override" and s.name == "m_Name":
            overrides.setdefault(s.container, []).append(s)
    out: Renamable = {}
    for s in symbols:
        path = f"{s.container}/{s.name}" if s.container else s.name
        if s.kind == "prefab_instance" and path in overrides:
            out[path] = (s, overrides[path])
    return out


def renamed(instances: Renamable, source_objects: SourceObjects) -> dict[str, str]:
    """Of `instances`, the path the scanner names each by -> the path the editor shows, where they
    differ (each one's source read, `source_objects`)."""
    out: dict[str, str] = {}
    for path, (s, overrides) in instances.items():
        name = editor_name(s, overrides, source_objects)
        if name is not None:
            out[path] = path[: len(path) - len(s.name)] + name
    return out


def editor_name(instance: Symbol, overrides: list[Symbol], source_objects: SourceObjects) -> str | None:
    """The name the editor shows for a prefab instance the scanner named by a child's rename, else
    None. The scanner names an instance by its first `m_Name` override, which may rename a child of
    the source (`Axe` for a player instance whose root keeps its name `Player`); the editor shows
    the root's `m_Name` override, else the source root's name. An override's object is known by its
    fileID in the source (`source_objects`: by the source's GUID); one of an object the source does
    not hold itself (a nested prefab's, or one deleted since) leaves the name as it is unless the
    root's is overridden too."""
    named = [o for o in overrides if o.name == "m_Name" and o.detail]
    if not instance.name or not named or not instance.detail:
        return None
    found = source_objects(instance.detail)
    if found is None:
        return None
    objects, root = found
    targets = [objects.get(o.detail) for o in named]
    given = [o.signature.partition(": ")[2] for o, t in zip(named, targets, strict=True) if t == ""]
    if given:  # the root's rename wins over one of an object the source no longer holds
        return given[0] if given[0] != instance.name else None
    return None if None in targets else root


def instances_named(
    usages: list[Usage],
    record: Callable[[str], FileRecord | None],
    path_of_guid: Callable[[str], str | None],
    source_objects: SourceObjects | None = None,
) -> list[Usage]:
    """Asset usages on what an unnamed prefab instance holds, named as `describe` names the
    instance (`instance_named`), and on an instance named by a child's rename, by the name the
    editor shows (`renamed_instances`, with `source_objects`); each file's record read once."""
    records: dict[str, FileRecord | None] = {}
    renamed: dict[str, dict[str, str]] = {}
    out = []
    for u in usages:
        if u.where == "asset" and ("&" in u.detail or source_objects is not None):
            if u.path not in records:
                records[u.path] = record(u.path)
            rec = records[u.path]
            if rec is not None and "&" in u.detail:
                u = msgspec.structs.replace(u, detail=instance_named(u.detail, rec, path_of_guid, source_objects))
            if rec is not None and source_objects is not None:
                if u.path not in renamed:
                    renamed[u.path] = renamed_instances(rec, source_objects)
                u = msgspec.structs.replace(u, detail=with_path(u.detail, renamed[u.path]))
        out.append(u)
    return out


def with_path(detail: str, renamed: dict[str, str]) -> str:
    """A usage's detail, which starts with an object's path, with that path's instance renamed, and
    so are the objects its value names (`_player: ProjectileRoot (Player)`, `renamed_in_value`)."""
    for old, new in renamed.items():
        if detail == old or detail.startswith((old + "/", old + " ", old + ".")):
            return renamed_in_value(new + detail[len(old) :], renamed)
    return renamed_in_value(detail, renamed)


def renamed_in_value(text: str, renamed: dict[str, str]) -> str:
    """A `key: value` whose value names an object of an instance the scanner named by a child's
    rename (`_player: ProjectileRoot (Player)`, a component on the variant's root, which the
    editor shows as `Character Variant Player`), with the instance renamed; an override's own
    `m_Name: ProjectileRoot (on Character/ProjectileRoot)` names the child, and stays."""
    for old, new in renamed.items():
        if f": {old}" in text:
            text = re.sub(rf": {re.escape(old)}(?=/| \((?!on ))", lambda _m, new=new: f": {new}", text)
    return text
