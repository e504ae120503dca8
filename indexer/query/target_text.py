"""What a user's TARGET text names (`refs X`, `describe X`, MCP `find_references`): a GUID, a
project path, a type or `Type.Member`, an assembly, a package's script or Unity's own class. Read
against the graph; a text naming nothing is a target of kind "unknown" with a note saying so."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.identifiers import code_name
from indexer.model import Target
from indexer.query.assemblies import PREDEFINED_ASSEMBLIES
from indexer.query.builtin_refs import builtin_member_target, builtin_target
from indexer.query.package_classes import package_named, package_target
from indexer.query.type_tree import member_target
from indexer.unity import BUILT_IN_RESOURCES, as_guid
from indexer.words import plural

if TYPE_CHECKING:
    from indexer.query.graph import Graph

_AFTER_GENERIC = re.compile(r">\s*\.")  # `Base<T>.power`: a member of a generic type, not the type


def understood(graph: Graph, text: str) -> Target:
    """A user's TARGET as the graph understands it: GUID, project path, Type.Member, type, assembly."""
    t = text.strip().strip("/")
    if guid := as_guid(t):
        return _guid_target(graph, guid)
    if graph.records.record(t) is not None or graph.records.guid_of_path(t):
        return _path_target(graph, t)
    t = code_name(t)  # `@Controls`, `global::Game.Player`: as C# may write the name
    types = [] if _AFTER_GENERIC.search(t) else graph.types_asked(t)
    member = member_target(graph, t) if "." in t else None  # `GameSetup.StartWave` may be both
    if member is not None and f"{member.types[0]}.{member.member}" in {x.qualified for x in types}:
        member = None  # a nested type is no other member: the same command again was suggested
    if types:
        also = f"also a member: `unity-index refs {member.types[0]}.{member.member}`" if member else ""
        return Target(kind="type", name=t, types=sorted({x.qualified for x in types}), note=also)
    if member is not None:
        return member
    if (asmdef := graph.asmdef_named(t)) and not t.startswith("GUID:"):
        return Target(kind="assembly", name=t, path=asmdef)
    if t in PREDEFINED_ASSEMBLIES:
        scripts = sum(1 for p in graph.records.paths_of_kind("csharp") if graph.assembly_of(p)[0] == t)
        note = f"Unity's predefined assembly, of {plural(scripts, 'script')} here: no asmdef can reference it"
        return Target(kind="assembly", name=t, note=note)
    if (package := package_named(graph.records, graph.package_scripts, t)) is not None:
        return package
    if (builtin := builtin_target(graph, t)) is not None:  # `NavMeshAgent`: Unity's own class
        return builtin
    if "." in t and (unity := builtin_member_target(graph, t)) is not None:  # `AudioSource.Play`
        return unity
    return Target(kind="unknown", name=t, note="no type, member, file, GUID or assembly of that name")


def _guid_target(graph: Graph, guid: str) -> Target:
    path = graph.path_of_guid(guid) or ""
    if not path and guid in graph.package_scripts:
        return package_target(graph.package_scripts, guid)
    if not path and (built_in := BUILT_IN_RESOURCES.get(guid)):  # never a project file's
        note = f"{built_in}: no file of the project (what names them is not recorded)"
    elif not path:
        note = "GUID not found in this project (a package asset, or a missing one)"
    elif (meta := graph.records.record(path + ".meta")) is not None and meta.folder:
        note = f"the folder {path}"  # folders have GUIDs too, which assets may name
    elif graph.records.record(path) is None:
        note = f"only {path}.meta is in the project: the file was deleted or moved without it"
    else:
        note = _shared_guid(graph, path, guid)
    return Target(kind="guid", name=guid, guid=guid, path=path, note=note)


def _path_target(graph: Graph, path: str) -> Target:
    guid = graph.records.guid_of_path(path) or ""
    # a file is used wherever a type it declares is: `Void` beside `VoidEventChannel`, a file
    # whose one class is named otherwise (only the type named as the file had been asked), and
    # its nested types (`Weapon.Factory`, held by the files that create weapons)
    main = graph.main_types.get(path, "")
    declared = [t.qualified for t in graph.records.types_in(path)]
    types = list(dict.fromkeys([main, *declared] if main else declared))
    return Target(kind="path", name=path, path=path, guid=guid, types=types, note=_shared_guid(graph, path, guid))


def meta_target(graph: Graph, text: str) -> Target | None:
    """The usages to list for a `.meta` (`refs X.meta`): those of the file or folder whose GUID it
    holds (nothing names a .meta itself), where it said "no usages found" of an asset the project
    uses. None for any other text."""
    import msgspec

    asset = text.strip().strip("/").removesuffix(".meta")
    guid = graph.records.guid_of_path(asset) if text.strip().strip("/").endswith(".meta") else None
    if not guid:
        return None
    target = _path_target(graph, asset) if graph.records.record(asset) is not None else _guid_target(graph, guid)
    note = f"the usages of the GUID {asset}.meta holds"
    return msgspec.structs.replace(target, note=f"{note}; {target.note}" if target.note else note)


def _shared_guid(graph: Graph, path: str, guid: str) -> str:
    """What to say when other files' .meta hold the GUID of `path` too: which one it leads to."""
    others = [p for p in graph.records.paths_of_guid(guid) if p != path] if guid else []
    if not others:
        return ""
    records = graph.records
    there = set(records.stats_of(others))
    gone = [p for p in others if p not in there and not records.has_folder(p)]
    copies = [p for p in others if p not in gone]
    said = []
    if copies:
        said.append(
            f"also that of {_first_few(copies, ' files')} (copied with its .meta outside Unity?): Unity keeps it"
            " for one file and gives the others new GUIDs on import"
        )
    if gone:  # a file moved or deleted outside Unity, its .meta left behind
        said.append(
            f"also held by {_first_few([p + '.meta' for p in gone])}, whose file is not in the project (moved or"
            " deleted without it?): Unity deletes such a .meta on import"
        )
    return f"GUID {guid} is {'; and '.join(said)}; usages by it are listed for {graph.path_of_guid(guid)}"


SHARED_NAMED = 5  # files a shared GUID's note names; the rest are counted


def _first_few(paths: list[str], noun: str = "") -> str:
    """The first SHARED_NAMED paths and a count of the rest: a GUID copied to a thousand files made a
    note of all of them, 50 KB of an MCP answer that listed no usage."""
    named = ", ".join(paths[:SHARED_NAMED])
    return f"{named} and {len(paths) - SHARED_NAMED} more{noun}" if len(paths) > SHARED_NAMED else named
