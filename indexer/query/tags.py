"""A tag as a `refs` target: `refs EnemyLaser` lists where the tag manager declares it, the
objects of the scenes and prefabs tagged so, and the code comparing or finding by it
(`other.CompareTag("EnemyLaser")`, `tag == "Enemy"`). Tags drive a game's collisions, and no type
or member has their names (a trial's `refs EnemyLaser` exited 2)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.model import Target, Usage
from indexer.query.builtin_refs import MAX_FILES
from indexer.query.layers import TAG_MANAGER
from indexer.words import excerpt

if TYPE_CHECKING:
    from indexer.query.graph import Graph

BUILTIN_TAGS = frozenset({"Untagged", "Respawn", "Finish", "EditorOnly", "MainCamera", "Player", "GameController"})
_CODE = (  # {0}: the tag as the code writes it (its literal, or a constant holding it)
    r"\b(CompareTag|FindWithTag|FindGameObjectWithTag|FindGameObjectsWithTag)\s*\(\s*{0}"
    r"|\b(tag)\s*[!=]=\s*{0}|{0}\s*[!=]=\s*[\w.]*\btag\b|\b(tag)\s*=\s*{0}"
)
# A constant holding the tag (`const string ProjectileIgnore = "ProjectileIgnore";`): code passing it
# compares by the tag too, in its file or one naming a type of that file (`Tags.Enemy`).
_HOLDER = r'\b(?:const|readonly)\s+string\s+(\w+)\s*=\s*"{0}"'


def tag_target(graph: Graph, name: str) -> Target | None:
    """The tag named so, declared by the project's tag manager or built into Unity, else None."""
    declared = any(s.kind == "tag" and s.name == name for s in graph.records.symbols(TAG_MANAGER))
    if not declared and name not in BUILTIN_TAGS:
        return None
    return Target(kind="tag", name=name, note="a tag: the objects tagged so and the code comparing or finding by it")


def tag_usages(graph: Graph, target: Target) -> list[Usage]:
    name = target.name
    out = [
        Usage(TAG_MANAGER, s.line, "asset", "declaration", "tags", name)
        for s in graph.records.symbols(TAG_MANAGER)
        if s.kind == "tag" and s.name == name
    ]
    said = f"tag {name}"
    carriers = [p for kind in ("scene", "prefab") for p in graph.records.paths_of_kind(kind)]
    for path in carriers[:MAX_FILES]:
        for s in graph.records.symbols(path):
            if s.kind == "gameobject" and (s.signature == said or s.signature.startswith(said + ",")):
                out.append(Usage(path, s.line, "asset", "tagged", "m_TagString", s.qualified))
            elif s.kind == "override" and s.signature == f"m_TagString: {name}":  # an object of a prefab it nests
                out.append(Usage(path, s.line, "asset", "tagged", "override", f"{s.container} > m_TagString: {name}"))
    if len(carriers) > MAX_FILES:
        target.note += f"; objects read from the first {MAX_FILES} of {len(carriers)} scenes and prefabs"
    return out + _code_usages(graph, name)


_USERS = "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.kind = ? AND r.key = ?"


def _code_usages(graph: Graph, name: str) -> list[Usage]:
    """The lines comparing or finding by the tag: its literal, or a constant holding it."""
    literal, holder = f'"{re.escape(name)}"', re.compile(_HOLDER.format(re.escape(name)))
    files = {path: [literal] for (path,) in graph.records.conn.execute(_USERS, ("string", name))}
    for path in list(files):
        held = [rf"\b(?:\w+\.)*{m.group(1)}\b" for text in graph.file_lines(path) if (m := holder.search(text))]
        files[path] += held
        for t in graph.records.types_in(path) if held else ():
            for (user,) in graph.records.conn.execute(_USERS, ("type", t.name)):
                files.setdefault(user, []).extend(held)
    out = []
    for path, written in sorted(files.items()):
        code = re.compile(_CODE.format(f"(?:{'|'.join(dict.fromkeys(written))})"))
        for n, text in enumerate(graph.file_lines(path), 1):
            if (m := code.search(text)) is not None and not text.lstrip().startswith(("//", "*", "/*")):
                out.append(Usage(path, n, "code", "tag", next(g for g in m.groups() if g), excerpt(text, name)))
    return out
