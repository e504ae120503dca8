"""Prefab instances Unity writes without a name: a model's (or a prefab's) instance whose name was
never overridden takes its source's name in the editor, and the objects, components and overrides
it holds name it by its file ID (`&5495659960571637663/Anchor`). The scanner sees one file and
cannot know the source's name; these name it as the editor does, from the source's path."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable

import msgspec

from indexer.model import FileRecord, Usage

_INSTANCE_KEY = re.compile(r"&-?\d+\b")


def unnamed_instances(rec: FileRecord) -> dict[int, str]:
    """The line of each prefab instance that has no name (a model's, its name not overridden) ->
    the path its objects, added components and overrides name it by (`&<fileID>`): that of the
    overrides recorded after it, which its own document holds."""
    lines = sorted(s.line for s in rec.symbols if s.kind == "prefab_instance" and not s.name)
    keys: dict[int, str] = {}
    if lines:
        for s in rec.symbols:
            if s.kind == "override" and s.container.rpartition("/")[2].startswith("&"):
                at = bisect_right(lines, s.line) - 1
                if at >= 0:
                    keys.setdefault(lines[at], s.container)
    return keys


def instance_named(text: str, rec: FileRecord, path_of_guid: Callable[[str], str | None]) -> str:
    """`text` (a hit's name or line, a usage's object) with each unnamed prefab instance's
    `&<fileID>` written as the name `describe` gives it, its source's file name (`&900.Anchor` ->
    `Digger.Anchor`); one whose source is not in the index keeps its file ID."""
    if "&" not in text:
        return text
    names: dict[str, str] = {}
    instances = {s.line: s for s in rec.symbols if s.kind == "prefab_instance" and not s.name}
    for line, key in unnamed_instances(rec).items():
        source = path_of_guid(instances[line].detail)
        if source is not None:
            names[key.rpartition("/")[2]] = source.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return _INSTANCE_KEY.sub(lambda m: names.get(m.group(), m.group()), text)


def instances_named(
    usages: list[Usage], record: Callable[[str], FileRecord | None], path_of_guid: Callable[[str], str | None]
) -> list[Usage]:
    """Asset usages on what an unnamed prefab instance holds, named as `describe` names the
    instance (`instance_named`), each file's record read once."""
    records: dict[str, FileRecord | None] = {}
    out = []
    for u in usages:
        if u.where == "asset" and "&" in u.detail:
            if u.path not in records:
                records[u.path] = record(u.path)
            rec = records[u.path]
            if rec is not None:
                u = msgspec.structs.replace(u, detail=instance_named(u.detail, rec, path_of_guid))
        out.append(u)
    return out
