"""Compressed blobs in the record store: each record and outline is deflated (stdlib zlib) with a
preset dictionary of its own kind, sampled from the first blobs of that kind one update stored
(samples live in that writer's memory: updates storing fewer than `SAMPLE_BLOBS` each make none).

Why: the msgpack records and JSON outlines were 95% of the index on disk, each a few hundred
bytes to a few kilobytes that repeat the same field names and Unity words. Deflated one by one
they shrink about 3x; with a dictionary sampled from blobs of the same kind (a C# record looks
like other C# records), about 6x. A blob stays readable on its own (one row, one decompress), so
a query decodes only what it shows. Decoding costs microseconds per blob.

A blob is one byte naming its dictionary (0: none), the raw deflate stream, and the Adler-32 of
the inflated bytes (4 bytes, big-endian): zlib's own check, without the 2-byte zlib header and the
4-byte id of the dictionary the first byte names already (6 bytes a blob, 1% of a small index;
the check stays, so a garbled blob fails to unpack rather than decoding wrong). Dictionaries live in
the `zdicts` table and never change once written, so a long-lived reader loads each once. They
are stored deflated themselves: 32 KB of a kind's first blobs repeat their field names and words,
and shrink about 8x (raw, the seven dictionaries of the suite's 1,000-script project were 4.5% of
its index on disk); inflating one costs about 0.1 ms, once per reader.

Who deflates: the indexer's process samples a group's first blobs and makes its dictionary
(`BlobCodec`); from then on the chunks of files it sends to scanner processes carry the
dictionaries those processes have not been sent yet, and they deflate the blobs of those groups
themselves (`Packer`, the same compressor and level: the same bytes). Deflating was half of the
indexer's `write` phase in a cold build. Whatever a scanner returns unpacked (its group had no
dictionary when its chunk was sent; files scanned in the indexer's own process) is packed there.
Every blob sampled for a dictionary was packed by the indexer: results are taken in file order, so
a chunk sent after a dictionary was made holds only files after the blobs it was made from.
"""

from __future__ import annotations

import sqlite3
import zlib

import msgspec

LEVEL = 6  # measured: with a dictionary, 20% smaller than level 1, for twice the time (0.4 s of CPU at 5,000 scripts)
SAMPLE_BLOBS = 24  # blobs of a group stored before its dictionary is made from them
DICT_BYTES = 32_768  # deflate's window: bytes further back are never matched
MAX_DICTS = 255


class Dictionary(msgspec.Struct, array_like=True, frozen=True):
    """A group's preset dictionary, as sent to scanner processes (`zdicts` holds it deflated)."""

    group: str  # a record kind, or "outline:" + kind
    id: int  # the blob's first byte
    data: bytes


class Packer:
    """The dictionaries known (their one owner: by group to pack, by id to unpack); deflates the
    blobs of the groups it has a dictionary for. Each compressor is made once (setting a 32 KB
    dictionary costs more than deflating a small blob) and copied per blob."""

    def __init__(self) -> None:
        self._by_group: dict[str, Dictionary] = {}
        self._by_id: dict[int, Dictionary] = {}
        self._compressors: dict[str, zlib._Compress] = {}

    def add(self, d: Dictionary) -> None:
        self._by_group[d.group] = self._by_id[d.id] = d

    def dictionaries(self) -> list[Dictionary]:
        return list(self._by_group.values())

    def next_id(self) -> int | None:
        """The id of the next dictionary; None when the ids a blob's first byte can name ran out."""
        return None if len(self._by_id) >= MAX_DICTS else max(self._by_id, default=0) + 1

    def pack(self, group: str, data: bytes) -> bytes | None:
        """`data` deflated with the dictionary of `group`; None without one."""
        base = self._compressors.get(group)
        if base is None:
            d = self._by_group.get(group)
            if d is None:
                return None
            base = self._compressors[group] = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS, zdict=d.data)
        return frame(self._by_group[group].id, base.copy(), data)

    def unpack(self, blob: bytes) -> bytes | None:
        """A blob inflated; None when its dictionary is not known (yet)."""
        i = blob[0]
        if i == 0:
            return unframe(blob, zlib.decompressobj(-zlib.MAX_WBITS))
        d = self._by_id.get(i)
        if d is None:
            return None
        return unframe(blob, zlib.decompressobj(-zlib.MAX_WBITS, zdict=d.data))


def frame(dictionary_id: int, z: zlib._Compress, data: bytes) -> bytes:
    """A blob (see above) of `data`, deflated by `z` (raw: negative wbits)."""
    return bytes((dictionary_id,)) + z.compress(data) + z.flush() + zlib.adler32(data).to_bytes(4, "big")


def unframe(blob: bytes, z: zlib._Decompress) -> bytes:
    """The bytes of a blob, inflated by `z`; zlib.error when the stream or its check is wrong."""
    data = z.decompress(blob[1:-4]) + z.flush()
    if not z.eof or z.unused_data or zlib.adler32(data).to_bytes(4, "big") != blob[-4:]:
        raise zlib.error("a blob whose deflate stream or check is wrong (garbled)")
    return data


class BlobCodec:
    """Packs and unpacks the blobs of one record store connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._packer = Packer()
        self._samples: dict[str, list[bytes]] = {}
        self._loaded = False

    def _load(self) -> None:
        try:
            rows = self.conn.execute("SELECT id, grp, dict FROM zdicts").fetchall()
        except sqlite3.OperationalError:  # no table (yet): nothing was packed with a dictionary
            rows = []
        known = {d.id for d in self._packer.dictionaries()}
        for i, group, d in rows:
            if i not in known:  # a reload after a writer added one: inflate only that
                self._packer.add(Dictionary(group, i, zlib.decompress(d)))
        self._loaded = True

    def dictionaries(self) -> list[Dictionary]:
        """Every dictionary this store has (a writer's connection: its own, unsaved ones too)."""
        if not self._loaded:
            self._load()
        return self._packer.dictionaries()

    def unpack(self, blob: bytes) -> bytes:
        data = self._packer.unpack(blob)
        if data is None:  # written after this reader loaded the dictionaries
            self._load()
            data = self._packer.unpack(blob)
            if data is None:
                raise KeyError(blob[0])  # a first byte naming no dictionary: a garbled blob
        return data

    def pack(self, group: str, data: bytes) -> bytes:
        """`data` deflated with the dictionary of `group` (a writer's connection only)."""
        if not self._loaded:
            self._load()
        packed = self._packer.pack(group, data)
        if packed is None and self._sample(group, data):
            packed = self._packer.pack(group, data)
        return packed if packed is not None else frame(0, zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS), data)

    def _sample(self, group: str, data: bytes) -> int:
        """Keep `data` as a sample of its group; once there are enough, make the group's
        dictionary from them (their last 32 KB: what deflate's window can reach)."""
        samples = self._samples.setdefault(group, [])
        samples.append(data)
        i = self._packer.next_id()
        if len(samples) < SAMPLE_BLOBS or i is None:
            return 0
        d = b"".join(samples)[-DICT_BYTES:]
        self.conn.execute("INSERT INTO zdicts VALUES (?, ?, ?)", (i, group, zlib.compress(d, 9)))
        self._packer.add(Dictionary(group, i, d))
        del self._samples[group]
        return i
