"""The classes of a project's DLLs its scenes, prefabs and assets carry, named by the project's code.

A component whose class a managed DLL declares (`Assets/Plugins/PlayMaker/PlayMaker.dll`) names
it by the DLL's GUID and a file ID of the class, `m_Script: {fileID: 1384774831, guid: <the DLL's>}`:
no missing script, though no file of the project declares it. Unity makes that file ID from the
class's full name, the first four bytes of MD4("s\\0\\0\\0" + namespace + name) (no dot between)
read as a little-endian int32. The index reads no DLL, so the names the project's code writes as
types (`PlayMakerFSM fsm;`, `HutongGames.PlayMaker.Fsm`) are hashed, once an answer asks and only
until one gives the file ID asked: a class the code names in the global namespace or by its full
name is found; another is said by its file ID (`script_labels.py`).
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Iterator

from indexer.store.reader import Records
from indexer.store.schema import REF_TARGET

_MASK = 0xFFFFFFFF


def _rotl(x: int, n: int) -> int:
    return ((x << n) | (x >> (32 - n))) & _MASK


def md4(data: bytes) -> bytes:
    """RFC 1320 (hashlib has no MD4 with OpenSSL 3)."""
    msg = data + b"\x80" + b"\0" * ((55 - len(data)) % 64) + struct.pack("<Q", len(data) * 8)
    state = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476]
    rounds = (
        (lambda x, y, z: (x & y) | (~x & z), 0, range(16), (3, 7, 11, 19)),
        (
            lambda x, y, z: (x & y) | (x & z) | (y & z),
            0x5A827999,
            [4 * (k % 4) + k // 4 for k in range(16)],
            (3, 5, 9, 13),
        ),
        (lambda x, y, z: x ^ y ^ z, 0x6ED9EBA1, (0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15), (3, 9, 11, 15)),
    )
    for i in range(0, len(msg), 64):
        words = struct.unpack("<16I", msg[i : i + 64])
        a, b, c, d = state
        for func, const, order, shifts in rounds:
            for k, w in enumerate(order):
                a, b, c, d = d, _rotl((a + func(b, c, d) + words[w] + const) & _MASK, shifts[k % 4]), b, c
        state = [(s + v) & _MASK for s, v in zip(state, (a, b, c, d), strict=True)]
    return struct.pack("<4I", *state)


def class_file_id(qualified: str) -> int:
    """The file ID a scene's reference to a DLL's class `qualified` (`UnityEngine.UI.Button`) has."""
    namespace, _, name = qualified.rpartition(".")
    return struct.unpack("<i", md4(b"s\0\0\0" + (namespace + name).encode())[:4])[0]


class DllClasses:
    """The project's written type names by the file ID a DLL's class of that name has, worked out
    as far as the IDs asked need (a project writes thousands of names; each costs tens of µs)."""

    def __init__(self, records: Records) -> None:
        self.records = records
        self._found: dict[int, str] = {}
        self._names: Iterator[str] | None = None
        self._done = False  # every written name hashed: an ID not found is named by none
        self._lock = threading.Lock()  # the MCP server answers calls on several threads

    def named(self, file_id: int) -> str:
        """The class of this file ID the project's code names, '' when it names none."""
        with self._lock:
            if self._names is None:
                self._names = self._written()
            while file_id not in self._found and not self._done:
                name = next(self._names, None)
                if name is None:
                    self._done = True
                    break
                self._found.setdefault(class_file_id(name), name)
            return self._found.get(file_id, "")

    def _written(self) -> Iterator[str]:
        """The type names files write that no project file declares, each once: as written
        (`HutongGames.PlayMaker.Fsm`), and a qualified one's last name alone, which may be a class
        of the global namespace. (The project's own types are no DLL's, and a game writes thousands.)"""
        seen: set[str] = set()
        declared = {n for (n,) in self.records.conn.execute("SELECT DISTINCT name FROM types")}
        sql = f"SELECT DISTINCT {REF_TARGET} FROM refs r WHERE r.kind = 'type'"
        for (written,) in self.records.conn.execute(sql).fetchall():
            name = written.split("<", 1)[0].removeprefix("global::")
            for candidate in (name, name.rpartition(".")[2]):
                if candidate and candidate not in seen and candidate.rpartition(".")[2] not in declared:
                    seen.add(candidate)
                    yield candidate
