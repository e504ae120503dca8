"""The one data model shared by scanners, store, retriever, context, CLI and MCP adapter.

Everything a scanner finds is a `FileRecord` holding `Symbol`s and `Ref`s. Records are msgspec
Structs so the record store encodes and decodes them fast and typed; no dicts travel as records.
"""

from __future__ import annotations

import msgspec

# Bump when the layout of anything stored on disk changes: an index written by another version is
# rebuilt, never misread.
SCHEMA_VERSION = 5


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
        return f"{self.container}.{self.name}" if self.container else self.name

    @property
    def is_type(self) -> bool:
        return self.kind in TYPE_KINDS


TYPE_KINDS = frozenset({"class", "struct", "interface", "enum", "record", "record_struct", "delegate"})


class Ref(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """A use of something declared elsewhere.

    kind: "type" (a C# type name), later "guid", "method", "assembly", ...
    context: where the use sits: base, field, property, param, return, local, generic, typeof, new,
             attribute, static, cast, is, as, catch, constraint, event, ...
    target: the name as written, without generic arguments (those are refs of their own).
    """

    kind: str
    target: str
    line: int
    context: str = ""
    detail: str = ""


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


class FileStat(msgspec.Struct, frozen=True, array_like=True):
    kind: str
    size: int
    mtime_ns: int
    digest: str
    status: str


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
    bytes_scanned: int = 0
    seconds: float = 0.0
    generation: int = 0
    walked: bool = True  # False: only the paths given (watch mode) or journaled were looked at


class Staleness(msgspec.Struct):
    """What an update would change (`index --check`, `status`)."""

    indexed: bool
    added: list[str] = []
    changed: list[str] = []
    deleted: list[str] = []

    @property
    def stale(self) -> bool:
        return not self.indexed or bool(self.added or self.changed or self.deleted)
