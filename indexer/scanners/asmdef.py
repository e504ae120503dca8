"""Assembly definitions (`.asmdef`) and references (`.asmref`): the nodes and edges of the assembly graph.

Conventions (the tests pin them):
- asmdef: one symbol "assembly" (name = `name`, detail = rootNamespace, attributes = only the settings
  that differ from Unity's defaults, one string each, in this order: "includePlatforms: A, B",
  "excludePlatforms: ...", "defineConstraints: X, !Y", "allowUnsafeCode", "autoReferenced: false",
  "overrideReferences", "precompiledReferences: a.dll, b.dll", "noEngineReferences").
- refs "assembly" per entry of `references` (context "reference"): the name as written, or
  "GUID:<32 hex lowercase>" for GUID references (Unity writes them in either case).
- `versionDefines` entries: symbol "version_define" (name = define, detail = "package expression",
  container = the assembly name).
- asmref: one ref "assembly" (target = `reference`, GUIDs normalized as above, context "asmref").
Lines are those of the key (or of the string in a list) in the text.
"""

from __future__ import annotations

import re
from typing import Any

from indexer.model import FileRecord, Ref, Symbol
from indexer.shown import name_shown

from .packages import Lines, decode_json

_GUID_REF = re.compile(r"^GUID:([0-9A-Fa-f]{32})$")


def _assembly_ref(value: str) -> str:
    m = _GUID_REF.match(value.strip())
    return f"GUID:{m.group(1).lower()}" if m else value.strip()


def _strings(value: Any) -> list[str]:
    return [x for x in value if isinstance(x, str) and x] if isinstance(value, list) else []


def scan(path: str, data: bytes) -> FileRecord:
    kind = "asmref" if path.lower().endswith(".asmref") else "asmdef"
    doc, text, reason = decode_json(data)
    if reason:
        return FileRecord(path=path, kind=kind, status="skipped", note=reason)
    if not isinstance(doc, dict):
        return FileRecord(path=path, kind=kind, status="skipped", note=f"{kind} is not a JSON object")
    lines = Lines(text)
    if kind == "asmref":
        target = doc.get("reference")
        if not isinstance(target, str) or not target.strip():
            return FileRecord(path=path, kind=kind, status="partial", note="asmref has no reference")
        line, _ = lines.key_line("reference")
        return FileRecord(path=path, kind=kind, refs=(Ref("assembly", _assembly_ref(target), line, context="asmref"),))
    return _asmdef(path, doc, lines)


def _settings(doc: dict[str, Any]) -> tuple[str, ...]:
    """The settings that differ from Unity's defaults, one string each, in the documented order."""
    attrs: list[str] = []
    for key in ("includePlatforms", "excludePlatforms", "defineConstraints"):
        if items := _strings(doc.get(key)):
            attrs.append(f"{key}: {', '.join(items)}")
    if doc.get("allowUnsafeCode") is True:
        attrs.append("allowUnsafeCode")
    if doc.get("autoReferenced") is False:
        attrs.append("autoReferenced: false")
    if doc.get("overrideReferences") is True:
        attrs.append("overrideReferences")
    if items := _strings(doc.get("precompiledReferences")):
        attrs.append(f"precompiledReferences: {', '.join(items)}")
    if doc.get("noEngineReferences") is True:
        attrs.append("noEngineReferences")
    return tuple(attrs)


def _references(doc: dict[str, Any], lines: Lines) -> list[Ref]:
    refs: list[Ref] = []
    references = _strings(doc.get("references"))
    if references:
        rline, pos = lines.key_line("references")
        for r in references:
            i = lines.find(r, pos)
            if i >= 0:
                rline, pos = lines.line(i), i + 1
            refs.append(Ref("assembly", _assembly_ref(r), rline, context="reference"))
    return refs


def _version_defines(doc: dict[str, Any], lines: Lines, name: str) -> list[Symbol]:
    symbols: list[Symbol] = []
    vdefs = doc.get("versionDefines")
    if isinstance(vdefs, list) and vdefs:
        _, pos = lines.key_line("versionDefines")
        for vd in vdefs:
            if not isinstance(vd, dict) or not isinstance(vd.get("define"), str) or not vd["define"]:
                continue
            dline, dpos = lines.key_line("define", pos)
            i = lines.find(vd["define"], dpos)
            if i >= 0:
                dline, pos = lines.line(i), i + 1
            detail = " ".join(x for x in (vd.get("name"), vd.get("expression")) if isinstance(x, str) and x)
            symbols.append(Symbol("version_define", vd["define"], dline, container=name, detail=detail))
    return symbols


def _asmdef(path: str, doc: dict[str, Any], lines: Lines) -> FileRecord:
    name = doc.get("name")
    name = name_shown(name) if isinstance(name, str) else ""  # the container of its defines too
    symbols: list[Symbol] = []
    line, _ = lines.key_line("name")
    root_ns = doc.get("rootNamespace")
    if name:
        detail = root_ns if isinstance(root_ns, str) else ""
        symbols.append(Symbol("assembly", name, line, detail=detail, attributes=_settings(doc)))
    refs = _references(doc, lines)
    symbols.extend(_version_defines(doc, lines, name))
    if not name:
        return FileRecord(
            path=path,
            kind="asmdef",
            status="partial",
            note="asmdef has no name",
            symbols=tuple(symbols),
            refs=tuple(refs),
        )
    return FileRecord(path=path, kind="asmdef", symbols=tuple(symbols), refs=tuple(refs))
