"""The SQL rows derived from a record: its types, its references' simple names, its main type;
all of a file's rows at once (`prepare`), made where the file is scanned."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Iterator

import msgspec

from indexer.model import TYPE_KINDS, FileRecord, Ref
from indexer.store.codec import Packer

_record_encoder = msgspec.msgpack.Encoder()
TypeRowTuple = tuple[str, str, int, str, str, str, str, bool, bool, str, str]
RefRowTuple = tuple[int, str, str, str, str, str]  # line, kind, target, context, detail, simple name


class RefsOnly(msgspec.Struct, gc=False):
    """A stored record read for its references alone (msgspec skips the other fields)."""

    refs: tuple[Ref, ...] = ()


class Prepared(msgspec.Struct, array_like=True, gc=False):
    """One file's rows and search document, ready to insert. Made by `prepare` in the scanner
    process that scanned the file, so the indexer's own process (one, beside all the scanners)
    only numbers and inserts them, and compresses those the scanner did not (`packed`): it never
    decodes or re-encodes the record."""

    path: str
    kind: str
    status: str
    size: int
    mtime_ns: int
    digest: str
    main_type: str
    record: bytes  # the FileRecord as stored (`stored_record`), a blob if `record_packed`
    guid: str  # .meta: the GUID it declares
    types: list[TypeRowTuple]
    refs: list[RefRowTuple]
    outline: bytes  # JSON outline, b"" without a search document
    doc: dict[str, str] | None  # the search document's fields, outline apart; None: not searched
    record_packed: bool = False  # `record` is deflated already (store/codec.py), else the writer does it
    outline_packed: bool = False  # the same for `outline`


def prepare(rec: FileRecord, doc: dict[str, str] | None) -> Prepared:
    fields = None
    outline = b""
    if doc is not None:
        fields = {k: v for k, v in doc.items() if k != "outline"}
        outline = doc.get("outline", "").encode()
    return Prepared(
        rec.path,
        rec.kind,
        rec.status,
        rec.size,
        rec.mtime_ns,
        rec.digest,
        main_type(rec),
        stored_record(rec),
        rec.guid if rec.kind == "meta" else "",
        list(type_rows(rec)),
        [(r.line, r.kind, r.target, r.context, r.detail, simple_name(r.kind, r.target)) for r in rec.refs],
        outline,
        fields,
    )


def packed(p: Prepared, packer: Packer) -> Prepared:
    """`p` with its record and outline deflated, each if `packer` has its group's dictionary."""
    record = packer.pack(p.kind, p.record)
    outline = packer.pack("outline:" + p.kind, p.outline) if p.outline else None
    if record is None and outline is None:
        return p
    return msgspec.structs.replace(
        p,
        record=p.record if record is None else record,
        record_packed=record is not None,
        outline=p.outline if outline is None else outline,
        outline_packed=outline is not None,
    )


def stored_record(rec: FileRecord) -> bytes:
    """A record as stored: msgpack without the path and stat, which its row in `files` holds
    (they would be a fifth of its compressed bytes: a digest does not compress)."""
    return _record_encoder.encode(msgspec.structs.replace(rec, path="", size=0, mtime_ns=0, digest=""))


def whole_record(rec: FileRecord, path: str, size: int, mtime_ns: int, digest: str) -> FileRecord:
    """A stored record with the path and stat of its row put back."""
    return msgspec.structs.replace(rec, path=path, size=size, mtime_ns=mtime_ns, digest=digest)


def stored_guid(guid: str) -> str | bytes:
    """A GUID as `guids` holds it: Unity's 32 lower-case hex digits as their 16 bytes (half the
    bytes, in the table and its index), any other text as written."""
    if len(guid) == 32:
        with contextlib.suppress(ValueError):
            packed = bytes.fromhex(guid)
            if packed.hex() == guid:
                return packed
    return guid


def guid_text(stored: str | bytes) -> str:
    return stored.hex() if isinstance(stored, bytes) else stored


TEST_ATTRIBUTES = frozenset({"TestFixture", "Test", "UnityTest", "TestCase", "TestCaseSource"})


def type_rows(rec: FileRecord) -> Iterator[tuple]:
    """The C# types a file declares. A shader's `struct` is no C# type: `RaycastHit` in a script
    must not resolve to a struct of that name in an .hlsl (an edge to the shader, a `refs` target)."""
    if rec.kind != "csharp":
        return
    tested = {s.container for s in rec.symbols if s.kind == "method" and _has_test_attribute(s.attributes)}
    declared = {s.qualified for s in rec.symbols if s.kind in TYPE_KINDS}
    for s in rec.symbols:
        if s.kind in TYPE_KINDS:
            q = s.qualified
            test = _has_test_attribute(s.attributes) or q in tested
            bases = json.dumps(list(s.bases))
            namespace = s.container
            while namespace in declared:  # outer types are declared in the same file
                namespace = namespace.rpartition(".")[0]
            partial = "partial" in s.modifiers
            yield (rec.path, q, s.line, s.name, s.kind, s.container, bases, partial, test, namespace, s.kind)


def type_shape(row: tuple) -> tuple:
    """What a type row's role depends on: all but its line and its role."""
    return (row[0], row[1], *row[3:10])


def visible_name(row: tuple) -> tuple:
    """What name resolution in other files sees of a type row: name, qualified name, namespace."""
    return (row[3], row[1], row[9])


def _has_test_attribute(attributes: Iterable[str]) -> bool:
    for a in attributes:
        name = a.split("(", 1)[0].strip().rsplit(".", 1)[-1]
        if name.endswith("Attribute"):
            name = name[:-9]
        if name in TEST_ATTRIBUTES:
            return True
    return False


def simple_name(kind: str, target: str) -> str:
    """The last name of a reference target, for lookups by name: `A.B.Heal` -> `Heal`,
    `Shaders/Common.hlsl` -> `Common.hlsl`; GUIDs and assembly names stay whole."""
    if kind == "include":
        return target.rsplit("/", 1)[-1]
    if kind in ("type", "method", "method_name"):
        return target.rsplit(".", 1)[-1]
    return target


def scripts_by_class(script_types: dict[str, str]) -> dict[str, str]:
    """Qualified class -> its script file, from each script's `main_type`: of a partial class's
    files, the one named as the class (`CookingSkill.cs`, not `CookingSkill.Debug.cs`, which
    assets never name), else the first by path. Only a class of several files has them compared
    (made on a query's first use of it: a sort of every script by that key took 9 ms on
    UnityCsReference)."""
    files: dict[str, list[str]] = {}
    for path, main in script_types.items():
        files.setdefault(main, []).append(path)
    return {
        main: paths[0] if len(paths) == 1 else min(paths, key=lambda p, m=main: (not _named_as(p, m), p))
        for main, paths in files.items()
    }


def _named_as(path: str, qualified: str) -> bool:
    return os.path.splitext(os.path.basename(path))[0] == qualified.rpartition(".")[2]


def main_type(rec: FileRecord) -> str:
    """The class Unity binds a script asset to: the type named like the file; else, as Unity 6
    resolves a MonoBehaviour or ScriptableObject whose file is named otherwise, the one named like
    it but for case (`npcConversant.cs`: `NPCConversant`), or the file's one top-level class with a
    base (`RessourceDisplay.cs`: `ResourceDisplay`)."""
    if rec.kind != "csharp":
        return ""
    stem = os.path.splitext(os.path.basename(rec.path))[0]
    types = [s for s in rec.symbols if s.kind in TYPE_KINDS]
    for s in types:
        if s.name == stem:
            return s.qualified
    qualified = {s.qualified for s in types}
    top = [s for s in types if s.kind == "class" and s.container not in qualified]
    alike = [s for s in top if s.name.lower() == stem.lower()]
    based = [s for s in top if s.bases]
    found = alike if len(alike) == 1 else based if len(based) == 1 and len(top) == 1 else []
    return found[0].qualified if found else ""
