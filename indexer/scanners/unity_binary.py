"""Binary-serialized Unity assets: the GUIDs a scene, prefab or asset references, nothing more.

A project whose Asset Serialization mode is not Force Text (the default before Unity 2019, and
still chosen for size) stores scenes, prefabs and assets in Unity's binary SerializedFile format.
Its object data needs each type's type tree to read; its table of external files does not: every
asset the file references from another file (the scripts of its MonoBehaviours, the prefabs it
places, its materials and meshes) is one entry there with its GUID. Those become "guid" refs, so
the graph knows which scene carries `Shop.cs` and which prefab uses which material, though none
of the file's objects, names or values are read.

Layout read (SerializedFile versions 12 to 22, as written by Unity 5 to 6): a big-endian header
(metadata size, file size, version, data offset, an endianness byte; 64-bit sizes
from version 22), then in the file's byte order: the Unity version, target platform, whether
type trees are stored, the types (class ID, script and type hashes, type tree blob), the objects
table, the script types table and the externals (an empty string, 16 GUID bytes, a type, a path).
A GUID's text is its bytes with each byte's two hex digits swapped (`5fc7...` for `f57c...`).
Anything else (an older version, Unity 4's among them, or a cut file) is skipped with the same note
as before: the file is kept by name.
"""

from __future__ import annotations

import struct

from indexer.model import FileRecord, Ref

from .yaml_facts import BUILTIN_GUIDS

NOTE = (
    "binary-serialized Unity asset: only the files it references are indexed; set Project Settings >"
    " Editor > Asset Serialization to Force Text to index it whole"
)
UNREAD_NOTE = (
    "binary-serialized Unity asset: set Project Settings > Editor > Asset Serialization to Force Text to index it"
)
VERSIONS = range(12, 23)
MONO_BEHAVIOUR = 114


class _Reader:
    """Reads the metadata in the file's byte order; IndexError / struct.error past its end."""

    def __init__(self, data: bytes, pos: int, little: bool) -> None:
        self.data, self.pos, self.order = data, pos, "<" if little else ">"

    def _unpack(self, fmt: str, size: int) -> int:
        (value,) = struct.unpack_from(self.order + fmt, self.data, self.pos)
        self.pos += size
        return value

    def u8(self) -> int:
        return self._unpack("B", 1)

    def i16(self) -> int:
        return self._unpack("h", 2)

    def u16(self) -> int:
        return self._unpack("H", 2)

    def i32(self) -> int:
        return self._unpack("i", 4)

    def u32(self) -> int:
        return self._unpack("I", 4)

    def i64(self) -> int:
        return self._unpack("q", 8)

    def skip(self, n: int) -> None:
        if n < 0 or self.pos + n > len(self.data):
            raise IndexError("past the end of the metadata")
        self.pos += n

    def raw(self, n: int) -> bytes:
        start = self.pos
        self.skip(n)
        return self.data[start : self.pos]

    def cstr(self) -> str:
        end = self.data.index(b"\0", self.pos)
        text = self.data[self.pos : end].decode("utf-8", errors="replace")
        self.pos = end + 1
        return text

    def align4(self) -> None:
        self.pos = (self.pos + 3) & ~3


def scan(path: str, data: bytes, kind: str) -> FileRecord:
    """Total: a file this reader cannot follow is skipped with UNREAD_NOTE (kept by name)."""
    try:
        guids = external_guids(data)
    except (IndexError, ValueError, struct.error):
        return FileRecord(path=path, kind=kind, status="skipped", note=UNREAD_NOTE)
    refs = tuple(Ref("guid", g, 0, context="external") for g in guids)
    return FileRecord(path=path, kind=kind, status="partial", note=NOTE, refs=refs)


def external_guids(data: bytes) -> list[str]:
    """The GUIDs of the files a SerializedFile references, in table order, each once (Unity's
    built-in resources left out, as from text: `BUILTIN_GUIDS`). ValueError: not a version read."""
    _size, _file_size, version, _offset = struct.unpack_from(">IIII", data, 0)
    if version not in VERSIONS:
        raise ValueError(f"SerializedFile version {version}")
    little = data[16] == 0
    pos = 48 if version >= 22 else 20
    r = _Reader(data, pos, little)
    r.cstr()  # the Unity version
    r.i32()  # the target platform
    trees = r.u8() != 0 if version >= 13 else True
    classes = [_skip_type(r, version, trees) for _ in range(_count(r))]
    _skip_objects(r, version, classes)
    for _ in range(_count(r)):  # script types: a file index and a local id
        r.i32()
        if version >= 14:
            r.align4()
            r.i64()
        else:
            r.i32()
    guids: dict[str, None] = {}  # in table order, each once (a list's `in` made it quadratic)
    for _ in range(_count(r)):
        r.cstr()  # an empty string
        raw = r.raw(16)
        r.i32()  # the external's type
        r.cstr()  # its path (Unity's own resources only)
        guid = "".join(f"{b & 0xF:x}{b >> 4:x}" for b in raw)
        if guid.strip("0") and guid not in BUILTIN_GUIDS:
            guids[guid] = None
    return list(guids)


def _count(r: _Reader) -> int:
    n = r.i32()
    if not 0 <= n <= len(r.data):
        raise ValueError(f"a count of {n}")
    return n


def _skip_type(r: _Reader, version: int, trees: bool) -> int:
    """Read past one type of the types table; returns its class ID."""
    class_id = r.i32()
    if version >= 16:
        r.u8()  # stripped
    if version >= 17:
        r.i16()  # script type index
    if version >= 13:
        if (version < 16 and class_id < 0) or (version >= 16 and class_id == MONO_BEHAVIOUR):
            r.skip(16)  # script hash
        r.skip(16)  # type hash
    if trees:
        nodes, strings = r.i32(), r.i32()
        if nodes < 0 or strings < 0:
            raise ValueError("a negative type tree size")
        r.skip(nodes * (32 if version >= 19 else 24) + strings)
        if version >= 21:
            r.skip(4 * _count(r))  # type dependencies
    return class_id


def _skip_objects(r: _Reader, version: int, classes: list[int]) -> None:
    """Read past the objects table (their data is not read)."""
    big_ids = r.i32() if version < 14 else 0
    for _ in range(_count(r)):
        if big_ids:
            r.i64()
        elif version < 14:
            r.i32()
        else:
            r.align4()
            r.i64()
        if version >= 22:
            r.i64()
        else:
            r.u32()  # where its data starts
        r.u32()  # its size
        type_id = r.i32()
        if version < 16:
            r.u16()  # class ID
        elif not 0 <= type_id < len(classes):
            raise ValueError(f"object of type {type_id} of {len(classes)}")
        if version < 17:
            r.i16()
        if version in (15, 16):
            r.u8()
