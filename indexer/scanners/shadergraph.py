"""Shader Graph files (`.shadergraph`, `.shadersubgraph`): the shader's name, its exposed properties and the
subgraphs, textures and HLSL files it uses by GUID.

Two layouts exist: before Shader Graph 10 one JSON object whose properties are JSON strings inside
JSON (`m_SerializedProperties[].JSONnodeData`); since then several JSON objects written one after the
other (read with `raw_decode` in a loop). GUID references sit inside JSON strings in both layouts
(`m_SerializedSubGraph`, `m_SerializedTexture`), escaped once or twice, so they are found with one
regex over the raw text rather than by decoding every nested string.

Conventions (the tests pin them):
- symbol "shader" for a `.shadergraph`: name = "<m_Path>/<file stem>" (the name materials and
  `Shader.Find` use; the stem alone when there is no path). A `.shadersubgraph` gives symbol
  "subgraph" instead (name = stem, detail = m_Path): it is not a shader a material can use.
- symbol "shader_property" per exposed property (`m_GeneratePropertyBlock` not false): name = the
  reference name (override, else default), detail = display name, type = the property class without
  namespace and "ShaderProperty" (Color, Texture2D, Vector2, Boolean, ...; Vector1 reads "Float"),
  container = the graph's name.
- ref "guid" (target lowercased) with context "subgraph" (a SubGraph node), "texture" (a texture,
  cubemap or texture array value) or "include" (a Custom Function node's HLSL file); each
  (target, context) once, at its first line. GUIDs in any other place are not recognizable as
  references and are left out.
- a name longer than 100 characters (the shader's, a subgraph's path, a property's reference or
  display name) is recorded cut with its length said (`shown.name_shown`), as the YAML scanners cut
  an object's name: a 40 MB `m_Path`, held whole by the shader and by every property as its
  container, ran the scanner out of memory and the file was skipped.
"""

from __future__ import annotations

import json
import re
from typing import Any

from indexer.model import FileRecord, Ref, Symbol
from indexer.shown import name_shown

from .packages import Lines, decode_text, json_error_note

_GUID = re.compile(r'(guid|m_FunctionSource)\\*"\s*:\s*\\*"([0-9a-fA-F]{32})\\*"')
_CONTEXT_WORDS = re.compile(r"subGraph|[Tt]exture|[Cc]ubemap")


def scan(path: str, data: bytes) -> FileRecord:
    text, bad = decode_text(data)
    if bad:
        return FileRecord(path=path, kind="shadergraph", status="skipped", note=bad)
    objects, error = _objects(text)
    if not objects:
        return FileRecord(path=path, kind="shadergraph", status="skipped", note=error or "empty file")
    lines = Lines(text)
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    subgraph = path.lower().endswith(".shadersubgraph")
    graph_path = ""
    props: list[tuple[int, dict[str, Any]]] = []  # (offset to search the reference name from, property)
    for start, obj in objects:
        if not isinstance(obj, dict):
            continue
        if isinstance(obj.get("m_Path"), str) and ("m_Type" not in obj or str(obj["m_Type"]).endswith("GraphData")):
            graph_path = graph_path or obj["m_Path"]
        if str(obj.get("m_Type", "")).endswith("ShaderProperty"):
            props.append((start, obj))
        legacy = obj.get("m_SerializedProperties")
        if isinstance(legacy, list):  # layout before Shader Graph 10
            at = lines.find("m_SerializedProperties", start, key=True)
            for item in legacy:
                prop = _legacy_property(item)
                if prop is not None:
                    props.append((max(at, 0), prop))
    name = stem if subgraph or not graph_path else name_shown(f"{graph_path.rstrip('/')}/{stem}")
    symbols = [
        Symbol("subgraph", name, 1, detail=name_shown(graph_path)) if subgraph else Symbol("shader", name, 1),
    ]
    for start, prop in props:
        sym = _property(prop, start, lines, name)
        if sym is not None:
            symbols.append(sym)
    refs = _guid_refs(text, lines)
    status, note = ("partial", error) if error else ("ok", "")
    return FileRecord(path=path, kind="shadergraph", status=status, note=note, symbols=tuple(symbols), refs=refs)


def _objects(text: str) -> tuple[list[tuple[int, Any]], str]:
    """The JSON values of the file with their start offsets, and a note if a value failed to parse."""
    decoder = json.JSONDecoder()
    out: list[tuple[int, Any]] = []
    pos = 0
    n = len(text)
    while True:
        while pos < n and text[pos] in " \t\r\n":
            pos += 1
        if pos >= n:
            return out, ""
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            return out, json_error_note(exc)
        except RecursionError:
            return out, "invalid JSON: nested too deeply"
        out.append((pos, value))
        pos = end


def _legacy_property(item: Any) -> dict[str, Any] | None:
    """A pre-10 property: `{"typeInfo": {"fullName": ...}, "JSONnodeData": "<JSON>"}` as one flat dict."""
    if not isinstance(item, dict):
        return None
    info = item.get("typeInfo")
    kind = info.get("fullName") if isinstance(info, dict) else None
    try:
        data = json.loads(item.get("JSONnodeData") or "{}")
    except (TypeError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not isinstance(kind, str):
        return None
    return {**data, "m_Type": kind}


def _property(prop: dict[str, Any], start: int, lines: Lines, graph: str) -> Symbol | None:
    if prop.get("m_GeneratePropertyBlock") is False:
        return None
    ref = prop.get("m_OverrideReferenceName") or prop.get("m_DefaultReferenceName") or ""
    if not isinstance(ref, str) or not ref:
        return None
    cls = str(prop.get("m_Type", "")).rsplit(".", 1)[-1]
    ptype = cls.removesuffix("ShaderProperty")
    ptype = "Float" if ptype == "Vector1" else ptype
    display = prop.get("m_Name")
    at = lines.text.find(ref, start)
    line = lines.line(at) if at >= 0 else lines.line(start)
    detail = name_shown(display) if isinstance(display, str) else ""
    return Symbol("shader_property", name_shown(ref), line, container=graph, type=ptype, detail=detail)


def _guid_refs(text: str, lines: Lines) -> tuple[Ref, ...]:
    seen: set[tuple[str, str]] = set()
    refs: list[Ref] = []
    for m in _GUID.finditer(text):
        guid = m.group(2).lower()
        if not guid.strip("0"):
            continue
        if m.group(1) == "m_FunctionSource":
            context = "include"
        else:
            words = _CONTEXT_WORDS.findall(text, max(0, m.start() - 300), m.start())
            if not words:
                continue
            context = "subgraph" if words[-1] == "subGraph" else "texture"
        if (guid, context) not in seen:
            seen.add((guid, context))
            refs.append(Ref("guid", guid, lines.line(m.start()), context=context))
    return tuple(refs)
