"""`.meta` files: the GUID of the asset or folder beside them, which importer Unity uses, the
functions a model's animation clips call by their events, and the assets its importer remaps its
own materials to (`externalObjects`: a material only a model uses read as unused).

A regex pass, not a YAML load: metas are the most numerous files of a project, and the index needs
little of them. An animation event on a clip imported from a model (`clipAnimations` of a
ModelImporter) lives in the model's .meta, not in an .anim: without it, a method only such an event
calls reads as dead code.
"""

from __future__ import annotations

import re

import msgspec

from indexer.model import CONFLICT_MARKERS, LFS_NOTE, FileRecord, Ref
from indexer.words import echoed

from .conflicts import conflict_sides
from .yaml_lines import unquote

_GUID = re.compile(rb"^guid:[ \t]*([0-9A-Fa-f]{32})[ \t]*\r?$", re.M)
_GUID_LINE = re.compile(rb"^guid:[ \t]*([^\r\n]*?)[ \t]*\r?$", re.M)  # whatever it holds
_IMPORTER = re.compile(rb"^([A-Za-z][A-Za-z0-9]*Importer):", re.M)
_FOLDER = re.compile(rb"^folderAsset:[ \t]*yes", re.M)
# A clip of `clipAnimations`: its list item opens with its serializedVersion, then its name (found
# from the line break before it: a literal start, where `^` is tried at every character).
_CLIP = re.compile(rb"\n( *)- serializedVersion: *\d+[ \t]*\r?\n\1  name: *([^\r\n]*)")
_FUNCTION = b"functionName:"
_REMAPS = re.compile(rb"^  externalObjects:[ \t]*\r?\n((?:(?:   |  -)[^\n]*\n)*)", re.M)
# An `externalObjects` entry: the name of the model's object, then what it is remapped to
_REMAP = re.compile(rb"\n *name: *([^\r\n]*)\r?\n *second: *\{fileID: *-?\d+, *guid: *([0-9A-Fa-f]{32})")


def scan(path: str, data: bytes) -> FileRecord:
    if data.startswith(b"version https://git-lfs"):
        return FileRecord(path=path, kind="meta", status="skipped", note=LFS_NOTE)
    if (conflict := conflict_sides(data)) is not None:  # a merge stopped on it: ours read, theirs named
        rec = scan(path, conflict[1])
        theirs = _GUID.search(conflict[2])
        other = theirs.group(1).decode("ascii").lower() if theirs else rec.guid
        said = f"; theirs gives the GUID {other}, which the index does not know" if other != rec.guid else ""
        note = "; ".join(filter(None, [rec.note, f"{CONFLICT_MARKERS} (ours read{said})"]))
        status = "skipped" if rec.status == "skipped" else "partial"  # (ours holds no GUID)
        return msgspec.structs.replace(rec, status=status, note=note, error_lines=conflict[0])
    m = _GUID.search(data)
    if not m:
        return FileRecord(path=path, kind="meta", status="skipped", note=_no_guid(data))
    imp = _IMPORTER.search(data)
    importer = imp.group(1).decode("ascii") if imp else ""
    return FileRecord(
        path=path,
        kind="meta",
        guid=m.group(1).decode("ascii").lower(),
        importer=importer,
        folder=bool(_FOLDER.search(data)),
        refs=_remaps(data) + (_clip_events(data) if importer == "ModelImporter" and b"functionName:" in data else ()),
    )


def _remaps(data: bytes) -> tuple[Ref, ...]:
    """The assets `externalObjects` puts in place of the model's own (a material by its name)."""
    block = _REMAPS.search(data) if b"externalObjects:" in data else None
    if block is None:
        return ()
    first = data.count(b"\n", 0, block.start(1)) + 1  # the list's first line
    return tuple(
        Ref(
            "guid",
            m[2].decode("ascii").lower(),
            first + data.count(b"\n", block.start(1), block.start(1) + m.end()),
            context="externalObjects",
            detail=_text(m[1]),
        )
        for m in _REMAP.finditer(block[1])
    )


def _clip_events(data: bytes) -> tuple[Ref, ...]:
    """The functions the model's clips call by events, each with the clip's name: read from the
    `clipAnimations:` line on, lines counted once through the file."""
    start = data.find(b"clipAnimations:")
    if start < 0:
        return ()
    clips = [(c.start(), _text(c.group(2))) for c in _CLIP.finditer(data, start)]
    out = []
    line, counted, pos = 1, 0, start
    while (at := data.find(_FUNCTION, pos)) >= 0:
        end = data.find(b"\n", at)
        pos = end = len(data) if end < 0 else end
        name = _text(data[at + len(_FUNCTION) : end])
        if not name:
            continue
        line += data.count(b"\n", counted, at)
        counted = at
        clip = next((n for opened, n in reversed(clips) if opened < at), "")
        out.append(Ref("animation_event", name, line, context="events", detail=clip))
    return tuple(out)


def _text(raw: bytes) -> str:
    return unquote(raw.decode("utf-8", "replace").strip())


def _no_guid(data: bytes) -> str:
    """Why a .meta gives no GUID: no guid line, or the value its guid line holds instead (a user
    told "no guid line" opens the file and finds one)."""
    line = _GUID_LINE.search(data)
    if line is None:
        return "no guid line"
    value = echoed(line.group(1).decode("utf-8", "replace"), 40)
    return f"the guid line holds no GUID: {value!r} (32 hexadecimal digits expected)"
