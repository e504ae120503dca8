"""Input System action assets (`.inputactions`): the maps, actions, bindings and control schemes.

"Change player two's controls from the arrow keys to I and K" is answered by this file: its
bindings name the keys (`<Keyboard>/upArrow`), in words no script repeats. The JSON is the
format the Input System writes (`name`, `maps[]` of `actions[]` and `bindings[]`,
`controlSchemes[]`).

Conventions (the tests pin them):
- one symbol "input_actions" (name = the asset's `name`, else the file's stem) on the line of its
  `name` key;
- a symbol "action_map" per map (container = the asset's name) and "input_action" per action
  (container = "Asset.Map"), each on the line of its `name`; an action's signature is
  "Name (Type): binding, binding", its bindings in file order: a plain binding is its path, with
  its control schemes after it in brackets ("<Keyboard>/space [Keyboard&Mouse]"); a composite
  is "Name(part: path, part: path)". An action without bindings reads "Name (Type)"; a name
  written with spaces around it (`" CameraZoom"`, which `FindAction` must be given so) is kept
  so, and quoted in the signature;
- a symbol "control_scheme" per scheme (container = the asset's name), its signature the devices
  it needs, optional ones marked ("Keyboard&Mouse: <Keyboard>, <Mouse> (optional)");
- one ref "type" to the asset's name (the C# class the Input System generates from it is named
  so by default), so the asset and its wrapper class are linked when that class is in the project.
- a name (the asset's, a map's, an action's, a scheme's) longer than 100 characters is recorded cut
  with its length said (`shown.name_shown`): a 40 MB one, the container of every action, was skipped;
  the `type` ref keeps the whole name.
Bindings to an action the map does not declare are left out, as are malformed entries (not
objects, no name); JSON that is not an object is skipped with a note.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from indexer.model import FileRecord, Ref, Symbol
from indexer.shown import name_shown

from .packages import Lines, decode_json

KIND = "input_actions"


def scan(path: str, data: bytes) -> FileRecord:
    doc, text, reason = decode_json(data)
    if reason:
        return FileRecord(path=path, kind=KIND, status="skipped", note=reason)
    if not isinstance(doc, dict):
        return FileRecord(path=path, kind=KIND, status="skipped", note="input actions are not a JSON object")
    lines = Lines(text)
    written = _name(doc) or os.path.splitext(os.path.basename(path))[0]
    name = name_shown(written)  # the container of every map, action and scheme: cut once
    line, _ = lines.key_line("name")
    symbols = [Symbol("input_actions", name, line)]
    pos = 0
    for m in _objects(doc.get("maps")):
        map_name = _name(m)
        if not map_name:
            continue
        line, pos = _named_line(lines, map_name, pos)
        map_name = name_shown(map_name)
        symbols.append(Symbol("action_map", map_name, line, container=name))
        bindings = _bindings(_objects(m.get("bindings")))
        for a in _objects(m.get("actions")):
            action = _written_name(a)  # `" CameraZoom"`: as `FindAction` must be given it
            if not action:
                continue
            line, pos = _named_line(lines, action, pos)
            kind = _text(a, "type")
            bound = bindings.get(action.strip(), [])
            action = name_shown(action)
            said = action if action == action.strip() else json.dumps(action, ensure_ascii=False)
            head = f"{said} ({kind})" if kind else said
            signature = f"{head}: {', '.join(bound)}" if bound else head
            symbols.append(Symbol("input_action", action, line, container=f"{name}.{map_name}", signature=signature))
    for s in _objects(doc.get("controlSchemes")):
        scheme = _name(s)
        if not scheme:
            continue
        line, pos = _named_line(lines, scheme, pos)
        scheme = name_shown(scheme)
        devices = [_device(d) for d in _objects(s.get("devices"))]
        devices = [d for d in devices if d]
        signature = f"{scheme}: {', '.join(devices)}" if devices else scheme
        symbols.append(Symbol("control_scheme", scheme, line, container=name, signature=signature))
    return FileRecord(path=path, kind=KIND, symbols=tuple(symbols), refs=(Ref("type", written, symbols[0].line),))


def _objects(value: Any) -> list[dict[str, Any]]:
    return [x for x in value if isinstance(x, dict)] if isinstance(value, list) else []


def _name(obj: dict[str, Any]) -> str:
    return _text(obj, "name")


def _written_name(obj: dict[str, Any]) -> str:
    """The name as written, spaces around it kept ('' when blank)."""
    value = obj.get("name")
    return value if isinstance(value, str) and value.strip() else ""


def _text(obj: dict[str, Any], key: str) -> str:
    value = obj.get(key)
    return value.strip() if isinstance(value, str) else ""


_NAME_KEY = re.compile(r'"name"\s*:\s*')


def _named_line(lines: Lines, name: str, start: int) -> tuple[int, int]:
    """(line, end) of the `"name": "<name>"` pair at or after `start` (the next search starts
    past it); (the line at `start`, start) when it is not written that way. Each `"name":` is
    compared with the name, not a pattern made of it: a 40 MB name compiled took 34 s and 3.9 GB."""
    written = json.dumps(name, ensure_ascii=False)
    for m in _NAME_KEY.finditer(lines.text, start):
        if lines.text.startswith(written, m.end()):
            return lines.line(m.start()), m.end() + len(written)
    return lines.line(start), start


def _bindings(bindings: list[dict[str, Any]]) -> dict[str, list[str]]:
    """action -> its bindings as text, composites with their parts, in file order."""
    out: dict[str, list[str | tuple[str, list[str]]]] = {}
    parts: list[str] | None = None  # the parts of the composite being read
    for b in bindings:
        path = _text(b, "path")
        if b.get("isPartOfComposite") is True:
            if parts is not None:
                parts.append(f"{_name(b)}: {path}" if _name(b) else path)
            continue
        parts = None
        action = _text(b, "action")
        if not action:
            continue
        if b.get("isComposite") is True:
            parts = []
            out.setdefault(action, []).append((_name(b) or path, parts))
        elif path:
            groups = ", ".join(g for g in _text(b, "groups").split(";") if g)
            out.setdefault(action, []).append(f"{path} [{groups}]" if groups else path)
    return {
        action: [x if isinstance(x, str) else f"{x[0]}({', '.join(x[1])})" for x in items]
        for action, items in out.items()
    }


def _device(device: dict[str, Any]) -> str:
    path = _text(device, "devicePath")
    if not path:
        return ""
    return f"{path} (optional)" if device.get("isOptional") is True else path
