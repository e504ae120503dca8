"""Package manifests: `Packages/manifest.json`, `Packages/packages-lock.json` and a package's `package.json`.

These three decide which packages (and so which assemblies and script GUIDs) a project has, so they
become `package` symbols and `package` refs. Every other `.json` file only gets its syntax checked:
its text is searched as a data table (`build/documents.py`). A file that does not parse is
"partial" with the parser's note, its text still searched: games read lenient dialects (Odin
Serializer's level files hold bare numbers in objects) that `json` refuses. An empty file, or one
that is not UTF-8, is skipped.

Conventions (the tests pin them):
- manifest.json: symbol "package" per dependency (name, detail = version/URL as written, line of the
  key); symbol "scoped_registry" per registry (name, detail = url, attributes = its scopes).
- packages-lock.json: symbol "package" per entry (detail = version, attributes = ("source: X",
  "depth: N") when present); ref "package" per dependency of an entry (target = dependency,
  context "dependency", detail = the entry that depends on it).
- package.json: symbol "package" (name, detail = version, signature = displayName, attributes =
  ("unity: 2021.3",) when given); ref "package" per dependency (context "dependency", detail = the
  version asked for: the depending package is the file itself).

The small JSON helpers here (`decode_json`, `Lines`) are shared by the asmdef and Shader Graph
scanners: same decoding rules and the same skip notes everywhere.
"""

from __future__ import annotations

import bisect
import json
import re
from typing import Any

from indexer.model import FileRecord, Ref, Symbol

_BOM = b"\xef\xbb\xbf"


def decode_text(data: bytes) -> tuple[str, str]:
    """UTF-8 text without BOM, and "" or a note saying where decoding failed (text then uses U+FFFD)."""
    if data.startswith(_BOM):
        data = data[3:]
    try:
        return data.decode("utf-8"), ""
    except UnicodeDecodeError as exc:
        return data.decode("utf-8", errors="replace"), f"invalid UTF-8 at byte {exc.start}"


def json_error_note(exc: json.JSONDecodeError) -> str:
    return f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"


def decode_json(data: bytes) -> tuple[Any, str, str]:
    """(value, text, "") for valid JSON; (None, text, reason) otherwise. JSON must be valid UTF-8."""
    text, bad = decode_text(data)
    if bad:
        return None, text, bad
    try:
        return json.loads(text), text, ""
    except json.JSONDecodeError as exc:
        return None, text, json_error_note(exc)
    except RecursionError:
        return None, text, "invalid JSON: nested too deeply"


class Lines:
    """Offsets -> 1-based lines, and a cheap forward search for JSON keys and string values.

    JSON parsers forget positions; re-finding a key in the text (searching forward from the last hit,
    in document order) gives its line at the cost of one `str.find` per key.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts = line_starts(text)

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset) if offset > 0 else 1

    def find(self, value: str, start: int = 0, key: bool = False) -> int:
        """Offset of the JSON string `value` (followed by ':' when `key`) at or after `start`; -1 if absent."""
        needle = json.dumps(value, ensure_ascii=False)
        pos = start
        while True:
            i = self.text.find(needle, pos)
            if i < 0 and not needle.isascii():  # written with \\u escapes
                needle = json.dumps(value)
                i = self.text.find(needle, pos)
            if i < 0 or not key:
                return i
            j = i + len(needle)
            while j < len(self.text) and self.text[j] in " \t\r\n":
                j += 1
            if j < len(self.text) and self.text[j] == ":":
                return i
            pos = i + 1

    def key_line(self, key: str, start: int = 0, default: int = 1) -> tuple[int, int]:
        """(line, offset) of the key `key` at or after `start`; (default, start) if not found."""
        i = self.find(key, start, key=True)
        return (self.line(i), i) if i >= 0 else (default, start)


def line_starts(text: str) -> list[int]:
    """The offset of each line of `text`: line i (0-based) starts at starts[i]."""
    starts = [0]
    find, append = text.find, starts.append
    i = find("\n")
    while i >= 0:
        append(i + 1)
        i = find("\n", i + 1)
    return starts


def _s(value: Any) -> str:
    """A JSON scalar as text: strings as they are, others in JSON spelling (never None)."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    return json.dumps(value)


_PARENT_PACKAGES = re.compile(r"(?:^|/)Packages/(manifest|packages-lock)\.json$")


def scan(path: str, data: bytes) -> FileRecord:
    value, text, reason = decode_json(data)
    if reason and reason.startswith("invalid JSON") and text.strip():
        # A game's data in a lenient dialect (Odin's `$type` tables, comments, trailing commas) is
        # read by the game all the same: its text stays searchable, the note says what is wrong.
        return FileRecord(path=path, kind="json", status="partial", note=reason)
    if reason:
        return FileRecord(path=path, kind="json", status="skipped", note=reason)
    m = _PARENT_PACKAGES.search(path)
    base = path.rsplit("/", 1)[-1]
    if not isinstance(value, dict):
        return FileRecord(path=path, kind="json")
    if m and m.group(1) == "manifest":
        return _manifest(path, value, Lines(text))
    if m:
        return _lock(path, value, Lines(text))
    if base == "package.json" and isinstance(value.get("name"), str):
        return _package(path, value, Lines(text))
    return FileRecord(path=path, kind="json")


def _manifest(path: str, doc: dict[str, Any], lines: Lines) -> FileRecord:
    symbols: list[Symbol] = []
    deps = doc.get("dependencies")
    if isinstance(deps, dict):
        _, pos = lines.key_line("dependencies")
        for name, version in deps.items():
            line, pos = lines.key_line(name, pos)
            symbols.append(Symbol("package", name, line, detail=_s(version)))
    regs = doc.get("scopedRegistries")
    if isinstance(regs, list):
        _, pos = lines.key_line("scopedRegistries")
        for reg in regs:
            if not isinstance(reg, dict):
                continue
            name = _s(reg.get("name"))
            line, pos = lines.key_line("name", pos)
            scopes = reg.get("scopes")
            attrs = tuple(_s(x) for x in scopes) if isinstance(scopes, list) else ()
            symbols.append(Symbol("scoped_registry", name, line, detail=_s(reg.get("url")), attributes=attrs))
            pos += 1
    symbols.sort(key=lambda s: s.line)
    return FileRecord(path=path, kind="json", symbols=tuple(symbols))


def _lock(path: str, doc: dict[str, Any], lines: Lines) -> FileRecord:
    symbols: list[Symbol] = []
    refs: list[Ref] = []
    deps = doc.get("dependencies")
    if isinstance(deps, dict):
        _, pos = lines.key_line("dependencies")
        for name, entry in deps.items():
            line, pos = lines.key_line(name, pos)
            if not isinstance(entry, dict):
                symbols.append(Symbol("package", name, line, detail=_s(entry)))
                continue
            attrs = tuple(f"{k}: {_s(entry[k])}" for k in ("source", "depth") if k in entry)
            symbols.append(Symbol("package", name, line, detail=_s(entry.get("version")), attributes=attrs))
            sub = entry.get("dependencies")
            if isinstance(sub, dict) and sub:
                _, dpos = lines.key_line("dependencies", pos)
                for dep in sub:
                    dline, dpos = lines.key_line(dep, dpos, default=line)
                    refs.append(Ref("package", dep, dline, context="dependency", detail=name))
                pos = max(pos, dpos + 1)  # the next entry's key may equal a dependency's name
    return FileRecord(path=path, kind="json", symbols=tuple(symbols), refs=tuple(refs))


def _package(path: str, doc: dict[str, Any], lines: Lines) -> FileRecord:
    name = doc["name"]
    line, _ = lines.key_line("name")
    attrs = (f"unity: {_s(doc['unity'])}",) if doc.get("unity") else ()
    sym = Symbol(
        "package", name, line, detail=_s(doc.get("version")), signature=_s(doc.get("displayName")), attributes=attrs
    )
    refs: list[Ref] = []
    deps = doc.get("dependencies")
    if isinstance(deps, dict):
        _, dpos = lines.key_line("dependencies")
        for dep, version in deps.items():
            dline, dpos = lines.key_line(dep, dpos, default=line)
            refs.append(Ref("package", dep, dline, context="dependency", detail=_s(version)))
    return FileRecord(path=path, kind="json", symbols=(sym,), refs=tuple(refs))
