"""The reference graph between code and assets, queried from the record store.

References are stored raw (the name or GUID as the file wrote it) and resolved when asked, so a renamed class, a
moved asset or a changed GUID never leaves a stale resolution behind, but for the file-to-file adjacency the
retriever walks on every query: `file_edges` resolves it at index time and `adjacency` keeps it current."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cached_property, partial
from pathlib import Path

import msgspec

from indexer.files import utf8_text
from indexer.model import ADDRESSABLE_ENTRIES, FileRecord, Scope, Target, TypeRow, Usage
from indexer.project import read_project_file
from indexer.query import type_tree
from indexer.query.assemblies import assembly_folders, assembly_of, named_asmdefs
from indexer.query.builtin_refs import builtin_usages
from indexer.query.calls import method_usages
from indexer.query.carriers import inherited_usages, merged
from indexer.query.enum_values import enum_member_usages
from indexer.query.instances import instances_named
from indexer.query.layers import masks_named
from indexer.query.loads import Loadable, group_names, load_usages
from indexer.query.member_text import member_text_usages
from indexer.query.messages import message_usages
from indexer.query.nested_values import nested_value_usages
from indexer.query.override_targets import OverrideTargets, sources_named
from indexer.query.package_classes import package_scripts
from indexer.query.package_shaders import shader_label
from indexer.query.profiles import profile_named, profile_names
from indexer.query.script_labels import script_label
from indexer.query.serialized import value_usages
from indexer.query.target_text import understood
from indexer.query.type_tree import declarer_of, descendants, member_family, overridden
from indexer.query.vendored import kit_names_game, third_party_folders
from indexer.store.reader import Records
from indexer.store.rows import scripts_by_class
from indexer.store.schema import REF_TARGET
from indexer.unity import bare_type_name, built_in_resource
from indexer.words import excerpt

_SCRIPT_TOKEN = re.compile(r"script:([0-9a-f]{32})(?:#(-?\d+))?")  # `#<fileID>`: a DLL's class
_GUID_TOKEN = re.compile(r"guid:([0-9a-f]{32})")
HUB_USERS = 200  # a file used by more is a hub: its users are not walked
# The edges a file's use of another is stored as (EDGE_KINDS), and how each reads from the other end.
REVERSE_EDGE = {
    "base": "subclass",
    "type": "uses_type",
    "script": "carries_script",
    "prefab": "instance_of",
    "asset": "refers_to",
    "unity_event": "calls_event",
    "loads": "loaded_by",
}
EDGE_KINDS = tuple(REVERSE_EDGE)


FILE_LINES_KEPT = 16_000_000  # bytes of file lines a graph keeps (`Graph.file_lines`)
FILE_LINES_READ = 4_000_000  # bytes read of a file the index has no size for (an indexed one: its size)


class Graph:
    """Reads and resolves edges. Cheap to create; caches what it derives for its lifetime."""

    def __init__(self, records: Records, root: Path):
        self.records, self.root = records, root
        self._file_lines: dict[str, tuple[list[str], int]] = {}  # path -> its lines and its bytes
        self._file_chars = 0
        self._edges: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}  # valid for this generation
        self._named: dict[str, list[TypeRow]] = {}  # simple name -> its types
        self._named_all = False  # `_named` holds every type (`read_every_type`)
        self._guid_paths: dict[str, str | None] = {}
        self._visible: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[frozenset[str], ...]] = {}
        self.targets = OverrideTargets(self)  # source prefabs' objects, read once each

    def file_lines(self, path: str) -> list[str]:
        """A file's lines (none if unreadable), cut at `\n` alone as scanners number them, not
        splitlines; kept for the graph's life up to FILE_LINES_KEPT bytes of files, the least
        recently used dropped first (a server's graph lives as long as its index generation, and
        a long session's queries read thousands of files)."""
        kept = self._file_lines.pop(path, None)
        if kept is None:  # read whole, as its scanner did (past 4 MB its usages had no text, members none)
            recorded = self.records.stats_of([path]).get(path)
            limit = max(FILE_LINES_READ, recorded.size + 1 if recorded is not None else 0)
            data = utf8_text(read_project_file(self.root, path, limit) or b"")
            kept = (data.decode("utf-8", errors="replace").split("\n"), len(data))
            self._file_chars += kept[1]
            while self._file_lines and self._file_chars > FILE_LINES_KEPT:
                self._file_chars -= self._file_lines.pop(next(iter(self._file_lines)))[1]
        self._file_lines[path] = kept  # now the most recently used
        return kept[0]

    def source_line(self, path: str, line: int, near: str = "") -> str:
        """A line of a project file as a usage shows it ('' if unreadable): `words.excerpt`, around
        the name `near` on a long line."""
        lines = self.file_lines(path)
        return excerpt(lines[line - 1], near) if 0 < line <= len(lines) else ""

    # -- names -------------------------------------------------------------------------------

    @cached_property
    def types(self) -> list[TypeRow]:
        """Every type the project declares."""
        return self.records.types()

    def read_every_type(self) -> None:
        """Read every type row in one query, for a caller about to resolve the names of most files
        (a rebuild's edges): by name, one query each cost UnityCsReference's 15,175 names 0.1 s."""
        named: dict[str, list[TypeRow]] = {}
        for t in self.types:  # in the order of `types_named`'s query: by path, then qualified name
            named.setdefault(t.name, []).append(t)
        self._named, self._named_all = named, True

    @cached_property
    def subtypes_by_base(self) -> dict[str, tuple[TypeRow, ...]]:
        """A base's simple name -> the types naming a base so: the candidates `descendants_of`
        resolves, not every type a step (a `refs` of 146 same-named types took 5 s)."""
        return type_tree.subtypes_by_base(self.types)

    @cached_property
    def nested_types(self) -> dict[str, dict[str, str]]:
        return type_tree.nested_by_outer(self.types)  # a type -> the types nested in it (type_tree)

    @cached_property
    def main_types(self) -> dict[str, str]:
        return self.records.script_types()  # script path -> the class Unity binds its GUID to

    def path_of_guid(self, guid: str) -> str | None:
        guid = guid.lower()
        if guid not in self._guid_paths:
            self._guid_paths[guid] = self.records.path_of_guid(guid)
        return self._guid_paths[guid]

    def script_class(self, guid: str) -> str:
        """The class behind a script GUID: a project script's class, a known package script, or ''."""
        path = self.path_of_guid(guid)
        return self.main_types.get(path, "") if path else self.package_scripts.get(guid.lower(), ("", ""))[0]

    @cached_property
    def package_scripts(self) -> dict[str, tuple[str, str]]:
        """Script GUIDs of package components, the same in every Unity project (their sources live
        in Library/PackageCache, outside the index by default): GUID -> (class, package)."""
        return package_scripts(self.records)

    @cached_property
    def package_classes(self) -> frozenset[str]:
        """The classes of the known package scripts (`UnityEngine.UI.Button`), by qualified name."""
        return frozenset(cls for cls, _ in self.package_scripts.values())

    def script_label(self, guid: str, dll_class: str = "") -> str:
        return script_label(self, guid, dll_class)  # (script_labels.py; `dll_class`: a DLL's class's file ID)

    def readable(self, text: str) -> str:
        """Replace `script:`, `guid:` and `source:` tokens with class names, paths and source prefabs' objects."""
        text = sources_named(_SCRIPT_TOKEN.sub(lambda m: self.script_label(m[1], m[2] or ""), text), self.targets)
        text = profile_named(_GUID_TOKEN.sub(lambda m: self._guid_named(m.group(1)), text), lambda: self.profile_names)
        return masks_named(text, self)

    def _guid_named(self, guid: str) -> str:
        """A GUID as its path, a package's shader, a built-in resource, or said missing (an override
        naming a deleted asset read as any other, `_weaponSettings: guid:4f09…`)."""
        found = self.path_of_guid(guid) or shader_label(guid) or built_in_resource(guid)
        return found or f"guid:{guid} (not in project)"

    @cached_property
    def profile_names(self) -> dict[str, str]:
        return profile_names(self.records, self.file_lines)

    def types_named(self, name: str) -> list[TypeRow]:
        """Types a written name can mean: `Health`, `Combat.Health`, `Game.Combat.Health`."""
        if name in self._named:  # a simple name seen before
            return self._named[name]
        simple = bare_type_name(name)
        if simple not in self._named:
            self._named[simple] = [] if self._named_all else self.records.types_named(simple)
        rows = self._named[simple]
        if "." in name:
            q = name.split("<", 1)[0]
            rows = [t for t in rows if t.qualified == q or t.qualified.endswith("." + q)]
        return rows

    def resolve_type_ref(self, written: str, rec: FileRecord | Scope) -> list[TypeRow]:
        """The project type(s) a type name written in `rec` means, by C# lookup approximated:
        qualified names by suffix; simple names a type nested in the file's own types first, then
        top-level types of its namespaces, their parents and usings, then types nested in a class it
        declares or derives from. None else: `Text` with `using UnityEngine.UI` is uGUI's."""
        candidates = self.types_named(written)
        if not candidates or "." in written.split("<", 1)[0]:
            return candidates
        path = getattr(rec, "path", None)
        if own := [t for t in candidates if t.path == path and t.container != t.namespace]:
            return own
        top = [t for t in candidates if t.container == t.namespace]
        for level in self._scopes(rec.namespaces, rec.usings):  # the innermost first: its type hides the others
            if found := [t for t in top if t.namespace in level]:
                return found
        if not isinstance(rec, FileRecord):
            return []
        inside = {s.name for s in rec.symbols if s.is_type} | {r.target for r in rec.refs if r.context == "base"}
        return [t for t in candidates if t.container != t.namespace and bare_type_name(t.container) in inside]

    def _scopes(self, namespaces: tuple[str, ...], usings: tuple[str, ...]) -> tuple[frozenset[str], ...]:
        """The namespaces whose types a file sees by simple name, in C#'s lookup order: its own, then
        their parents out to the global one, then its usings (`Player` in `namespace Photon.Realtime`
        is Photon's, and the game's own global `Player` with `using Photon.Realtime;`)."""
        key = (namespaces, usings)
        if key not in self._visible:
            scopes: list[str] = []
            for ns in namespaces:
                parts = ns.split(".")
                scopes += [".".join(parts[:i]) for i in range(len(parts), 0, -1)]
            plain = [u for u in usings if " " not in u and "=" not in u]  # one level: two is ambiguous
            # a using inside `namespace Pal.Game.Effect` may name `Rendering` for `Pal.Game.Rendering`
            # (C# looks it up from the enclosing namespace outwards); where it was written is not
            # recorded, so each reading is taken (both exist only when two namespaces nest alike)
            imported = frozenset(plain + [f"{s}.{u}" for s in scopes for u in plain])
            self._visible[key] = (*(frozenset({n}) for n in dict.fromkeys([*scopes, ""])), imported)
        return self._visible[key]

    # -- targets -----------------------------------------------------------------------------

    def target(self, text: str) -> Target:
        """Understand a user's TARGET: GUID, project path, Type.Member, type, assembly (target_text.py)."""
        return understood(self, text)

    def types_asked(self, name: str) -> list[TypeRow]:
        """The types a user means by a name: a simple one is a top-level type's when one has it."""
        types = self.types_named(name)
        top = [t for t in types if t.container == t.namespace]
        return top if top and "." not in name else types

    @cached_property
    def _named_asmdefs(self) -> dict[str, str]:
        return {key: entry.file for key, entry in named_asmdefs(self.records)[1].items()}

    def asmdef_named(self, reference: str) -> str | None:
        """The asmdef an asmdef's or asmref's reference (a name, `GUID:<guid>`) is to, if in the project."""
        return self._named_asmdefs.get(reference)

    # -- references --------------------------------------------------------------------------

    def references(self, target: Target) -> list[Usage]:
        """Every usage of the target in code and assets, in path and line order."""
        usages: list[Usage] = []
        if target.kind == "package_script":
            usages += self.guid_usages(target.guid)
        if target.kind in ("guid", "path"):
            # a file's usages by GUID are those of the GUID naming it: none for a copy that shares
            # the GUID of the file it leads to (Records.guid_naming); a GUID's own (a package's too)
            usages += self.guid_usages(target.guid if target.kind == "guid" else self.records.guid_naming(target.path))
            if target.path:
                usages += self._include_usages(target.path)
                usages += load_usages(self, target.path)
            if target.kind == "path" and target.path.endswith(".asmdef"):
                usages += self._assembly_usages(target.path)
        if target.kind in ("type", "path") and target.types:
            decoded: dict[str, FileRecord | None] = {}  # a file naming several of the types: decoded once
            for q in target.types:
                # the script assets name is the file itself for a file, the type's script for a type
                guids = self.script_guids([q], target.path if target.kind == "path" else None)
                usages += self._type_usages(q, decoded) + [u for g in guids for u in self.guid_usages(g)]
                usages += self.method_usages({q}, None, guids)
                if target.kind == "type":
                    usages += self._subclass_carriers(q, target)
        if target.kind == "member":
            # a line calling the member by name is that usage, not also a text match of its name
            messages = message_usages(self, target.member, target.types)
            called = {(u.path, u.line) for u in messages}
            for q in target.types:
                family = member_family(self, declarer := declarer_of(self, q, target.member) or q, target.member, q)
                guids = self.script_guids(family)
                usages += self.method_usages(family, target.member, guids)
                usages += self.method_usages(family, f"set_{target.member}", guids)  # a property's setter
                usages += value_usages(self, target.member, guids, declarer, target)
                usages += nested_value_usages(self, declarer, target.member, target)
                # a call through a base class that declares it too (a virtual method) may run this override
                reached = family | overridden(self, declarer, target.member)
                text = member_text_usages(self, reached, target.member, family - {declarer})
                usages += [u for u in text if (u.path, u.line) not in called]
            usages += messages + enum_member_usages(self, target.types, target.member)
        if target.kind == "assembly" and target.path:
            usages += self._assembly_usages(target.path)
        usages += builtin_usages(self, target) if target.kind == "builtin" else []
        usages += inherited_usages(self, usages, target)
        return merged(instances_named(usages, self.records.record, self.path_of_guid, self.targets.source))

    def _subclass_carriers(self, qualified: str, target: Target) -> list[Usage]:
        """The objects carrying a subclass's script, directly or through prefabs (`target`'s note: a
        cycle skipped), each resolved to that subclass: `GetComponent<Base>()` finds them too."""
        out: list[Usage] = []
        for sub in sorted(descendants(self, qualified) - {qualified}):
            direct = [u for g in self.script_guids([sub]) for u in self.guid_usages(g) if u.kind == "script"]
            out += [msgspec.structs.replace(u, resolved=sub) for u in direct + inherited_usages(self, direct, target)]
        return out

    def _rows(self, sql: str, args: Iterable) -> list[tuple]:
        return list(self.records.conn.execute(sql, tuple(args)))

    def guid_usages(self, guid: str | None) -> list[Usage]:
        if not guid:
            return []
        sql = "SELECT f.path, r.line, r.kind, r.context, r.detail FROM refs r JOIN files f ON f.id = r.file_id"
        rows = self._rows(sql + " WHERE r.kind IN ('guid', 'script', 'prefab') AND r.key = ?", (guid,))
        named, own = partial(group_names, self.records), self.path_of_guid(guid)  # `id: <its own GUID>`: no use
        return [
            Usage(p, line, "asset", kind, ctx, named(p, guid) if ctx == ADDRESSABLE_ENTRIES else self.readable(detail))
            for p, line, kind, ctx, detail in rows
            if p != own
        ]

    def _include_usages(self, path: str) -> list[Usage]:
        name = path.rsplit("/", 1)[-1]
        rows = self._rows(
            f"SELECT f.path, r.line, {REF_TARGET} FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE r.kind = 'include' AND r.key = ?",
            (name,),
        )
        out = []
        for p, line, written in rows:
            if path.endswith(written.lstrip("./")) or written.endswith(name):
                out.append(Usage(p, line, "code", "include", "include", f'#include "{written}"'))
        return out

    def _assembly_usages(self, asmdef_path: str) -> list[Usage]:
        rec = self.records.record(asmdef_path)
        names = {s.name for s in rec.symbols if s.kind == "assembly"} if rec else set()
        guid = self.records.guid_naming(asmdef_path)
        keys = [*names, *([f"GUID:{guid}"] if guid else [])]
        if not keys:
            return []
        marks = ",".join("?" * len(keys))
        rows = self._rows(
            "SELECT f.path, r.line, r.context, r.key FROM refs r JOIN files f ON f.id = r.file_id"
            f" WHERE r.kind = 'assembly' AND r.key IN ({marks})",
            keys,
        )
        return [Usage(p, line, "asset", "assembly", ctx, f"references {t}") for p, line, ctx, t in rows]

    def _type_usages(self, qualified: str, records: dict[str, FileRecord | None]) -> list[Usage]:
        """Where the type is written, or qualifies a type nested in it (`ShootAction.OnShootEventArgs e`).
        `records`: the files decoded so far for this answer (a file of 335 types was decoded per row)."""
        simple = qualified.rsplit(".", 1)[-1]
        nested = self.nested_types.get(qualified, {})
        keys = sorted({simple, *nested.values()})
        rows = self._rows(
            f"SELECT f.path, r.line, r.context, {REF_TARGET}, r.kind FROM refs r JOIN files f ON f.id = r.file_id"
            f" WHERE r.kind = 'type' AND r.key IN ({','.join('?' * len(keys))})",
            tuple(keys),
        )
        out: list[Usage] = []
        for p, line, ctx, written, _kind in rows:
            if p not in records:
                records[p] = self.records.record(p)
            rec = records[p]
            if rec is None:
                continue
            if rec.kind == "csharp":
                rows = self.resolve_type_ref(written, rec)
                meant = {t.qualified for t in rows}
                # a kit knows none of the game's global types; one it reaches by a namespace is meant
                kit = all(not t.namespace for t in rows) and kit_names_game(
                    p, written, [t.path for t in rows], self._kit_folders
                )
                if (qualified not in meant and not meant & nested.keys()) or kit:
                    continue
                said = self.source_line(p, line, simple)  # the name written there (`Sp.Kind` through an alias is not)
                if qualified not in meant and not re.search(rf"\b{re.escape(simple)}\s*\.", said):
                    continue
                out.append(Usage(p, line, "code", "type", ctx if qualified in meant else "qualifier", said))
            elif written == qualified or qualified.endswith("." + written):
                out.append(Usage(p, line, "asset", "type", ctx, self.readable(written)))
        return out

    @cached_property
    def _kit_folders(self) -> frozenset[str]:
        return third_party_folders(self.records)

    @cached_property
    def _script_of_type(self) -> dict[str, str]:
        """Qualified class -> the script file Unity binds to it."""
        return scripts_by_class(self.main_types)

    def script_guids(self, types: Iterable[str], script: str | None = None) -> set[str]:
        """The GUIDs assets name these types' scripts by (or `script`'s alone, when given): none
        for a script whose GUID leads to another file (Records.guid_naming)."""
        scripts = [script] if script else [self._script_of_type.get(q) for q in types]
        return {g for path in scripts if path and (g := self.records.guid_naming(path))}

    def method_usages(self, family: set[str], member: str | None, script_guids: set[str]) -> list[Usage]:
        """UnityEvent calls on members of a type in `family` (one and its subclasses), by type or `script_guids`."""
        return method_usages(self, family, member, script_guids)

    # -- assemblies --------------------------------------------------------------------------

    @cached_property
    def _assembly_folders(self) -> dict[str, tuple[str, str]]:
        """Folder -> (assembly name, defining file) for every asmdef and asmref."""
        return {folder: (a.name, a.file) for folder, a in assembly_folders(self.records).items()}

    def assembly_of(self, path: str) -> tuple[str, str]:
        return assembly_of(path, self._assembly_folders)

    # -- neighbours (for dependency walking) -------------------------------------------------

    def uses(self, path: str) -> tuple[tuple[str, str], ...]:
        """Files this file points at and the edge kind (EDGE_KINDS), by path: tuples, left untracked by the GC."""
        key = ("uses", path)
        if key not in self._edges:
            self._edges[key] = tuple(sorted(self.records.edges_from(path)))
        return self._edges[key]

    def carries_script(self, asset: str) -> bool:
        """Whether an asset carries one of the project's scripts (a data asset of the game's own,
        not a package's settings, such as an Addressables group listing the prefab among its entries)."""
        return any(edge == "script" for _, edge in self.uses(asset))

    def used_by(self, path: str, cap: int = HUB_USERS) -> tuple[tuple[str, str], ...]:
        """Files that point at this file, the edge read backwards (REVERSE_EDGE), by path; none for a
        hub (over `cap` users: a core class, a partial class's parts): they say nothing of one task."""
        key = ("used_by", path)
        if key not in self._edges:
            rows = self.records.edges_to(path, cap) or []
            self._edges[key] = tuple(sorted((p, REVERSE_EDGE.get(k, k)) for p, k in rows))
        return self._edges[key]

    def scenes_named(self, name: str) -> list[str]:
        """The scenes a name or path without `.unity` means, as `LoadScene` takes it (a field's value)."""
        return [p for p in self.loadable.resolve(name, "scene") if p.endswith(".unity")]

    @cached_property
    def loadable(self) -> Loadable:
        return Loadable(self.records)
