"""`.meta` files: the GUID of the asset or folder beside them, which importer Unity uses, and the
functions a model's animation clips call by their events.

A regex pass, not a YAML load: metas are the most numerous files of a project, and the index needs
little of them. An animation event on a clip imported from a model (`clipAnimations` of a
ModelImporter) lives in the model's .meta, not in an .anim: without it, a method only such an event
calls reads as dead code.
"""

from __future__ import annotations

import re

from indexer.model import LFS_NOTE, FileRecord, Ref

from .yaml_lines import unquote

_GUID = re.compile(rb"^guid:[ \t]*([0-9A-Fa-f]{32})[ \t]*\r?$", re.M)
_IMPORTER = re.compile(rb"^([A-Za-z][A-Za-z0-9]*Importer):", re.M)
_FOLDER = re.compile(rb"^folderAsset:[ \t]*yes", re.M)
# A clip of `clipAnimations`: its list item opens with its serializedVersion, then its name.
_CLIP = re.compile(rb"^( *)- serializedVersion: *\d+[ \t]*\r?\n\1  name: *([^\r\n]*)", re.M)
_EVENT = re.compile(rb"^ *(?:- )?functionName: *([^\r\n]*?)[ \t]*\r?$", re.M)


def scan(path: str, data: bytes) -> FileRecord:
    if data.startswith(b"version https://git-lfs"):
        return FileRecord(path=path, kind="meta", status="skipped", note=LFS_NOTE)
    m = _GUID.search(data)
    if not m:
        return FileRecord(path=path, kind="meta", status="skipped", note="no guid line")
    imp = _IMPORTER.search(data)
    importer = imp.group(1).decode("ascii") if imp else ""
    return FileRecord(
        path=path,
        kind="meta",
        guid=m.group(1).decode("ascii").lower(),
        importer=importer,
        folder=bool(_FOLDER.search(data)),
        refs=_clip_events(data) if importer == "ModelImporter" and b"functionName:" in data else (),
    )


def _clip_events(data: bytes) -> tuple[Ref, ...]:
    """The functions the model's clips call by events, each with the clip's name."""
    clips = [(c.start(), _text(c.group(2))) for c in _CLIP.finditer(data)]
    out = []
    for e in _EVENT.finditer(data):
        name = _text(e.group(1))
        if not name:
            continue
        clip = next((n for at, n in reversed(clips) if at < e.start()), "")
        line = data.count(b"\n", 0, e.start()) + 1
        out.append(Ref("animation_event", name, line, context="events", detail=clip))
    return tuple(out)


def _text(raw: bytes) -> str:
    return unquote(raw.decode("utf-8", "replace").strip())
