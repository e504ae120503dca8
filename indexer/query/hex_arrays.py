"""An array of a primitive type as Unity writes it in a scene or asset: one hex string of its
elements' little-endian bytes (`_maxMonsters: 080000000c0000001000000014000000` for `int[]` 8, 12,
16, 20). Read as its values by the field's C# type, which the YAML does not say: shown raw, a
wave table was unreadable (a trial)."""

from __future__ import annotations

import re
import struct

from indexer.shown import values_shown

# C# element type -> struct format (little-endian)
_FORMATS = {
    "int": "<i", "Int32": "<i", "uint": "<I", "UInt32": "<I", "long": "<q", "Int64": "<q", "ulong": "<Q",
    "UInt64": "<Q", "short": "<h", "Int16": "<h", "ushort": "<H", "UInt16": "<H", "byte": "<B", "Byte": "<B",
    "sbyte": "<b", "SByte": "<b", "float": "<f", "Single": "<f", "double": "<d", "Double": "<d",
    "bool": "<?", "Boolean": "<?",
}  # fmt: skip
_ARRAY = re.compile(
    r"^(?:System\.)?(\w+)\s*\[\s*\]$|^(?:System\.Collections\.Generic\.)?List\s*<\s*(?:System\.)?(\w+)\s*>$"
)
_HEX = re.compile(r"[0-9a-f]+")


def element_format(declared: str) -> str | None:
    """The struct format of a primitive array's element, by the field's declared type (`int[]`,
    `List<float>`), else None."""
    m = _ARRAY.match(declared.strip())
    return _FORMATS.get(m.group(1) or m.group(2)) if m else None


def decoded(value: str, declared: str) -> str | None:
    """A hex string's elements as a list is shown (`[4 items: 8, 12, 16, 20]`), when the field is
    an array of a primitive type and the string is whole elements; else None. `value` may be
    `name: value`, as a field's line is written (and is given back so)."""
    name, sep, value = value.rpartition(": ")
    fmt = element_format(declared)
    if fmt is None or not _HEX.fullmatch(value) or len(value) % (2 * struct.calcsize(fmt)):
        return None
    values = [v for (v,) in struct.iter_unpack(fmt, bytes.fromhex(value))]
    return f"{name}{sep}{values_shown(len(values), [_said(v) for v in values])}"


def _said(v: float | int | bool) -> str:
    if isinstance(v, bool):
        return str(int(v))  # as Unity writes a bool
    return f"{v:.7g}" if isinstance(v, float) else str(v)
