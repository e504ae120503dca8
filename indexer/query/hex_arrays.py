"""An array of a primitive type as Unity writes it in a scene or asset: one hex string of its
elements' little-endian bytes (`_maxMonsters: 080000000c0000001000000014000000` for `int[]` 8, 12,
16, 20). Read as its values by the field's C# type, which the YAML does not say: shown raw, a
wave table was unreadable (a trial). An array of an enum is written so too (a trial's key
bindings, `List<KeyCode>`: `KeyCodesList: 7700000073000000…`), each item of its underlying type
(an int32 unless it says `: byte`, ...): read as its members' names (`enum_values`)."""

from __future__ import annotations

import re
import struct
from collections.abc import Callable

from indexer.shown import MAX_VALUE_CHARS, NAMES_SHOWN, values_shown

# C# element type -> struct format (little-endian)
_FORMATS = {
    "int": "<i", "Int32": "<i", "uint": "<I", "UInt32": "<I", "long": "<q", "Int64": "<q", "ulong": "<Q",
    "UInt64": "<Q", "short": "<h", "Int16": "<h", "ushort": "<H", "UInt16": "<H", "byte": "<B", "Byte": "<B",
    "sbyte": "<b", "SByte": "<b", "float": "<f", "Single": "<f", "double": "<d", "Double": "<d",
    "bool": "<?", "Boolean": "<?",
}  # fmt: skip
# The element type of an array or list of any named type (`KeyCode[]`, `List<UnityEngine.KeyCode>`).
_ELEMENT = re.compile(r"^([\w.]+)\s*\[\s*\]$|^(?:System\.Collections\.Generic\.)?List\s*<\s*([\w.]+)\s*>$")
_HEX = re.compile(r"[0-9a-f]+")
_CUT_HEX = re.compile(r"[0-9a-f]+…")  # a hex string the scanner cut to a value's width
ENUM_FORMAT = "<i"  # an enum's underlying type unless it says another


def element_format(declared: str) -> str | None:
    """The struct format of a primitive array's element, by the field's declared type (`int[]`,
    `List<float>`), else None."""
    element = element_type(declared)
    return scalar_format(element) if element else None


def scalar_format(declared: str) -> str | None:
    """The struct format of a primitive type (`byte`, an enum's underlying type), else None."""
    return _FORMATS.get(declared.strip().removeprefix("System."))


def element_type(declared: str) -> str | None:
    """The element type of an array or list field's declared type (`KeyCode` of `List<KeyCode>`)."""
    m = _ELEMENT.match(declared.strip())
    return (m.group(1) or m.group(2)) if m else None


def decoded(value: str, declared: str) -> str | None:
    """A hex string's elements as a list is shown (`[4 items: 8, 12, 16, 20]`), when the field is
    an array of a primitive type and the string is whole elements; else None. `value` may be
    `name: value`, as a field's line is written (and is given back so)."""
    fmt = element_format(declared)
    return None if fmt is None else unpacked(value, (fmt,), _said)


def unpacked(value: str, formats: tuple[str, ...], said: Callable[[int | float | bool], str]) -> str | None:
    """`value` (`name: <hex>`) read as elements of the first of `formats` it holds whole ones of,
    each as `said` says it, as many as fit a value's line (`fitted`); None when it is no such hex."""
    name, sep, raw = value.rpartition(": ")
    if not _HEX.fullmatch(raw):
        return None
    for fmt in formats:
        if len(raw) % (2 * struct.calcsize(fmt)) == 0:
            values = [said(v) for (v,) in struct.iter_unpack(fmt, bytes.fromhex(raw))]
            return f"{name}{sep}{fitted(values, len(name) + len(sep))}"
    return None


def fitted(values: list[str], used: int) -> str:
    """A list's values shown (`values_shown`), as many past the first four as fit a value's line
    after `used` characters: a key list's eight keys are its whole meaning."""
    best = values_shown(len(values), values)
    for most in range(NAMES_SHOWN + 1, len(values) + 1):
        text = values_shown(len(values), values, most)
        if used + len(text) > MAX_VALUE_CHARS:
            break
        best = text
    return best


def is_hex(signature: str) -> bool:
    """Whether a field's value (`name: <value>`, after the last `: `) is a hex string (`unpacked` reads none else)."""
    return _HEX.fullmatch(signature.rpartition(": ")[2]) is not None


def is_cut_hex(signature: str) -> bool:
    """Whether a field's value is a hex string the scanner cut short (`whole` reads it again)."""
    return signature.endswith("…") and _CUT_HEX.fullmatch(signature.rpartition(": ")[2]) is not None


def whole(signature: str, line: str) -> str:
    """A field's `name: <hex>…` the scanner cut short, whole again from its line of the file (a
    long array said nothing); the signature as it is otherwise."""
    name, sep, raw = signature.rpartition(": ")
    if not sep or not _CUT_HEX.fullmatch(raw):
        return signature
    key, found, full = line.strip().partition(": ")
    return f"{name}{sep}{full}" if found and key == name and _HEX.fullmatch(full) else signature


def _said(v: float | int | bool) -> str:
    if isinstance(v, bool):
        return str(int(v))  # as Unity writes a bool
    return f"{v:.7g}" if isinstance(v, float) else str(v)
