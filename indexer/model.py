"""The one data model shared by scanners, store, retriever, context, CLI and MCP adapter.

Everything a scanner finds is a `FileRecord` holding `Symbol`s and `Ref`s. Records are msgspec
Structs so the record store encodes and decodes them fast and typed; no dicts travel as records.
"""

from __future__ import annotations

import msgspec

# Bump when the layout of anything stored on disk changes, or `kinds.KINDS` (each file's kind is
# stored, and an unchanged file is not read again): an index written by another version is
# rebuilt, never misread.
SCHEMA_VERSION = 61


class Symbol(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """A declared name: a C# type or member (later also GameObjects, shader properties, ...).

    kind: class, struct, interface, enum, record, record_struct, delegate (types);
          method, constructor, destructor, property, indexer, field, event, enum_member, operator,
          conversion (members).
    container: the qualified name this symbol lives in: namespace and outer types for a type
               ("Game.Combat" or "Game.Combat.Outer"), the qualified type for a member.
    """

    kind: str
    name: str
    line: int
    end_line: int = 0
    container: str = ""
    signature: str = ""
    type: str = ""  # field/property/event type, method return type, delegate return type
    modifiers: tuple[str, ...] = ()
    attributes: tuple[str, ...] = ()  # attribute text as written, e.g. 'CreateAssetMenu(menuName = "X")'
    bases: tuple[str, ...] = ()  # base class and interfaces of a type, as written
    detail: str = ""  # kind-specific extra: a value, a platform list, a script GUID, ...

    @property
    def qualified(self) -> str:
        """A C# name joined with dots; a GameObject's path with slashes, as Unity writes it
        (`HUD/HealthBar`, what `Transform.Find` takes): a name may hold a dot (`Mesh.001`)."""
        if not self.container:
            return self.name
        return f"{self.container}/{self.name}" if self.kind in HIERARCHY_KINDS else f"{self.container}.{self.name}"

    @property
    def is_type(self) -> bool:
        return self.kind in TYPE_KINDS


TYPE_KINDS = frozenset({"class", "struct", "interface", "enum", "record", "record_struct", "delegate"})
ADDRESSABLE_ENTRIES = "m_SerializeEntries"  # an Addressables group's list of the assets it names
HIERARCHY_KINDS = frozenset({"gameobject", "prefab_instance"})  # a scene's or prefab's objects, named by path
# Unity's own script classes, by their fileID in the engine's built-in GUID: a data asset made of
# one (a tile palette's tiles) has a script, just not one any project file holds.
# Unity's own classes a MonoBehaviour's `m_Script` names by file ID in a built-in GUID: a tile, and
# UI Toolkit's components and assets since it moved into the engine (2021.2)
BUILTIN_SCRIPTS = {
    "13312": "UnityEngine.Tilemaps.Tile",
    "19101": "UnityEngine.UIElements.PanelSettings",
    "19102": "UnityEngine.UIElements.UIDocument",
    "19103": "UnityEngine.UIElements.PanelTextSettings",
}


class Ref(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """A use of something declared elsewhere.

    kind: "type" (a C# type name), "string" (a C# literal shaped like an asset key: a Resources
          path or shader name, or with context "scene" a scene's name or path too, tied to the
          asset when the index resolves it), "guid", "method",
          "assembly", ...
    context: where the use sits: base, field, property, param, return, local, generic, typeof, new,
             attribute, static, cast, is, as, catch, constraint, event, ...
    target: the name as written, without generic arguments (those are refs of their own).
    """

    kind: str
    target: str
    line: int
    context: str = ""
    detail: str = ""


# A prefab instance's override setting only the object of a UnityEvent call its source prefab holds:
# target the source's GUID, context `<fileID of the component there>:<event>:<call index>`, then
# `@<owner>` when the object set is known (`script:<guid>`, `object:<guid>:<fileID>`, a Unity class:
# the owner of a call whose prefab names no type) (`query/override_calls.py` finds the call, and so
# the method, in the source).
CALL_TARGET = "call_target"
# A UnityEvent call's target object in another file, as a method ref's target writes it when the
# call names no type: `object:<guid>:<fileID>.Method` (`query/call_objects.py` reads its script).
CALL_OBJECT = "object:"

# The note of a file git checked out as a Git LFS pointer (its content not fetched): skipped.
LFS_NOTE = "Git LFS pointer, content not checked out"
# What the note of a file holding git's unresolved merge conflict markers says (a C# file's note is
# CONFLICT_NOTE, scanners/conflicts.py; a Unity YAML file's, scanners/yaml_damage.py, says more).
CONFLICT_MARKERS = "unresolved merge conflict markers"
CONFLICT_NOTE = f"{CONFLICT_MARKERS} (both sides indexed)"


class FileRecord(msgspec.Struct, gc=False, omit_defaults=True):
    """What the index knows about one file. Scanners fill the content; the indexer fills the stat.

    status: "ok"; "partial" (parsed with errors, what could be recovered is kept);
            "skipped" (not parsed; `note` says why: binary, too large, undecodable, ...).
    """

    path: str  # relative to the project root, forward slashes
    kind: str  # csharp, meta, scene, prefab, ... (see indexer.project.KINDS)
    status: str = "ok"
    note: str = ""
    size: int = 0
    mtime_ns: int = 0
    digest: str = ""  # content hash (blake2b-128 hex)
    guid: str = ""  # for .meta: the GUID it declares; for assets: their own GUID (from the meta)
    namespaces: tuple[str, ...] = ()
    usings: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()  # preprocessor symbols tested by #if/#elif
    error_lines: tuple[int, ...] = ()  # first line of each syntax error region
    symbols: tuple[Symbol, ...] = ()
    refs: tuple[Ref, ...] = ()
    importer: str = ""  # .meta: MonoImporter, PrefabImporter, ...
    folder: bool = False  # .meta: describes a folder


class Declared(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """One declaration of a file's stored search outline (written as `schema.OutlineEntry`, the
    same JSON array). Not tracked by the garbage collector: naming a query's hits decodes
    thousands, and as tuples they set off a collection every few hundred."""

    line: int
    kind: str
    qualified: str
    signature: str
    owner: str = ""  # a scene's or prefab's field: its component's script, `script:<guid>` (`query` names it)


class CodeOutline(msgspec.Struct, gc=False):
    """What a C# file's outline needs of its stored record, decoded without the rest (its
    references, most of the record, are passed over): see `Records.outline_record`."""

    path: str
    kind: str
    status: str = "ok"
    note: str = ""
    namespaces: tuple[str, ...] = ()
    error_lines: tuple[int, ...] = ()
    symbols: tuple[Symbol, ...] = ()


class FileStat(msgspec.Struct, frozen=True, array_like=True):
    kind: str
    size: int
    mtime_ns: int
    digest: str
    status: str
    checked_ns: int = 0  # when the update that recorded this stat began (before it read the file)


class Scope(msgspec.Struct, frozen=True):
    """What C# name lookup needs of a file: its namespaces and using directives."""

    namespaces: tuple[str, ...]
    usings: tuple[str, ...]


class TypeRow(msgspec.Struct, frozen=True):
    path: str
    qualified: str
    name: str
    kind: str
    container: str
    bases: tuple[str, ...]
    partial: bool
    test: bool
    namespace: str
    category: str


class UpdateStats(msgspec.Struct):
    """What one update did."""

    full: bool
    files: int = 0  # files in the project after the update
    scanned: int = 0  # files read and scanned
    added: int = 0
    changed: int = 0
    deleted: int = 0
    moved: int = 0  # deleted + added with the same content: the record moved, not rescanned
    touched: int = 0  # stat changed, content identical: not rescanned
    skipped: int = 0  # files in the index recorded as skipped (all, not just this update)
    conflicted: tuple[str, ...] = ()  # files holding merge conflict markers (all, not just this update)
    bytes_scanned: int = 0
    seconds: float = 0.0
    generation: int = 0
    walked: bool = True  # False: only the paths given (watch mode) or journaled were looked at
    repaired: str = ""  # the damage found before the update, which made it a rebuild ("" none)
    upgraded: int = 0  # the format of an index another version of unity-index wrote, rebuilt (0 none)
    # Seconds by phase (build/phases.py): the indexer's own wall time in walk, scan_wait, write,
    # roles, adjacency, commit, remember; and CPU seconds summed over the scanner processes in
    # read, scan, documents (the search document and the rows; they overlap the indexer's phases).
    phases: dict[str, float] = {}

    @property
    def changed_index(self) -> bool:
        """Whether the update changed what the index holds, and so made a new generation: a
        rebuild, or a file added, changed, moved or deleted. Files only touched (`touched`: their
        stat recorded) and racily clean records settled change no answer: their commit keeps the
        generation, so the caches kept per generation stay and `watch` prints no line."""
        return self.full or bool(self.added or self.changed or self.moved or self.deleted)


class BuildProgress(msgspec.Struct):
    """An update in progress, as its writer last reported it (`store/progress.py`)."""

    pid: int
    rebuild: bool  # a full build: until it is done, there is no index (or the last one) to answer from
    started_at: float  # epoch seconds
    phase: str = "planning"  # planning, scanning, linking, committing
    done: int = 0  # files scanned so far (phase scanning)
    total: int = 0  # files to scan
    updated_at: float = 0.0


class Staleness(msgspec.Struct):
    """What an update would change (`index --check`, `status`)."""

    indexed: bool
    added: list[str] = []
    changed: list[str] = []
    deleted: list[str] = []
    damaged: str = ""  # what is wrong with the index files ("" nothing): `index` rebuilds it

    @property
    def stale(self) -> bool:
        return not self.indexed or bool(self.damaged or self.added or self.changed or self.deleted)


class Hit(msgspec.Struct, omit_defaults=False):
    path: str
    kind: str
    name: str
    line: int
    score: float
    snippet: str
    reason: str = ""  # why it ranks: a text match, or the graph edge that pulled it in


class Candidate(msgspec.Struct):
    path: str
    kind: str
    score: float


class Ranked(msgspec.Struct):
    path: str
    score: float
    reasons: list[str]
    candidate: Candidate | None = None  # None: reached through the graph only


class Usage(msgspec.Struct):
    """One place that uses the target: a line of code, or an asset object."""

    path: str
    line: int
    where: str  # "code" or "asset"
    kind: str  # the edge: type, script, guid, prefab, method, include, assembly, text, ...
    context: str  # where in the user: field, base, m_OnClick, m_Script, ...
    detail: str  # asset: GameObject path > component.field; code: the source line
    resolved: str = ""  # what the user's reference resolved to, when not the target itself
    # the prefabs an instance or variant carries the target through, nearest first (whole: the
    # detail prints a long chain's ends only)
    via: tuple[str, ...] = ()


class Target(msgspec.Struct):
    """What a user's TARGET (a type, Type.Member, a path, a GUID, an assembly) turned out to be."""

    kind: str  # type, member, path, guid, assembly, package_script, builtin, animator_parameter, tag, message, unknown
    name: str
    path: str = ""
    guid: str = ""
    member: str = ""
    types: list[str] = []  # qualified names of the type(s) meant
    note: str = ""

    def add_note(self, said: str) -> None:
        """`said` after the note, once (several types or passes may find the same thing)."""
        if said and said not in self.note:
            self.note = "; ".join(filter(None, [self.note, said]))


class Edge(msgspec.Struct):
    path: str
    edge: str


class Description(msgspec.Struct):
    schema_version: int
    path: str
    kind: str
    guid: str
    status: str
    note: str
    text: str
    uses: list[Edge]
    used_by: list[Edge]
    symbols: list[Symbol]
    refs: list[Ref]


class Assembly(msgspec.Struct):
    name: str
    folder: str
    editor_only: bool
    third_party: bool = False  # in a folder of third-party code (`query.vendored.vendor_package`)


class Overview(msgspec.Struct):
    name: str
    product: str
    unity_version: str
    packages: list[str]  # "name version", direct dependencies from Packages/manifest.json
    assemblies: list[Assembly]
    scenes_in_build: list[str]
    defines: list[str]  # "SYMBOL (Platform)"
    counts: dict[str, int]  # files by kind
    scenes_missing: list[str] = []  # enabled in the build settings, not in the project: Unity skips them


class Tier(msgspec.Struct):
    text: str
    tokens: int


class FileEntry(msgspec.Struct):
    path: str
    tokens: int
    score: float
    reason: str


class Tier2(msgspec.Struct):
    text: str
    tokens: int
    files: list[FileEntry]


class ContextPack(msgspec.Struct):
    schema_version: int
    query: str
    budget: int
    tokens: int
    tokenizer: str
    tier1: Tier
    tier2: Tier2
    # why the pack holds no file, or fewer than its text had room for (the MCP tool fits its JSON
    # in the budget too): an empty or short pack read as the whole answer when unsaid
    note: str


class SkippedFile(msgspec.Struct):
    path: str
    reason: str


class Status(msgspec.Struct):
    project: str
    index_dir: str
    indexed: bool
    generation: int = 0
    files: int = 0
    by_kind: dict[str, int] = {}
    partial: int = 0  # read in part: parsed with syntax errors, or binary-serialized (references only)
    partial_files: list[str] = []  # those files, sorted
    skipped: list[SkippedFile] = []
    stale_files: int = 0  # added, changed or deleted since the last update
    index_bytes: int = 0
    damaged: str = ""  # why the index cannot be used ("" when it can): `index` rebuilds it


class Heartbeat(msgspec.Struct, frozen=True):
    """The Unity editor bridge's `Library/UnityIndex/editor.json` (docs/editor-bridge.md), as read by
    `indexer.changes.heartbeat`: how to reach the editor (port, token) and whether it is alive."""

    protocol: int
    port: int
    token: str
    pid: int
    state: str  # ready, compiling, reloading, playing, paused
    updated_at: float  # seconds since the epoch; the editor rewrites the file every 2 s
    unity_version: str = ""
    project_path: str = ""

    def age(self, now: float) -> float:
        return now - self.updated_at
