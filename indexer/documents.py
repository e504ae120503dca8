"""From a FileRecord (and the file's text) to the full-text document the retriever searches."""

from __future__ import annotations

import os

import msgspec

from .identifiers import expand
from .model import TYPE_KINDS, FileRecord

# No search document: metas are folded into their asset's record; opaque binaries are found
# through the project tree, not by text search.
UNSEARCHED_KINDS = frozenset({"meta", "texture", "model", "audio", "font", "plugin", "other"})
# Kinds whose raw text is worth searching. Unity YAML is not: its text is mostly serialized
# engine state (positions, flags); its meaning is in the symbols the scanner extracted.
TEXT_BODY_KINDS = frozenset(
    {"csharp", "shader", "shader_include", "compute_shader", "text", "uss", "uxml", "asmdef", "asmref"}
)
# Declarations that name the file's main thing rank with type names.
PRIMARY_SYMBOLS = TYPE_KINDS | {
    "scriptable_object",
    "material",
    "animator_controller",
    "animation_clip",
    "shader",
    "assembly",
    "package",
}
MAX_BODY_CHARS = 200_000

OutlineEntry = tuple[int, str, str, str]  # line, kind, qualified name, signature
_outline_encoder = msgspec.json.Encoder()
outline_decoder = msgspec.json.Decoder(list[OutlineEntry])
# The stored outline is for naming the best match of a ranked file: long asset outlines are cut.
MAX_OUTLINE_ENTRIES = 400


def is_searchable(kind: str) -> bool:
    return kind not in UNSEARCHED_KINDS


def build(record: FileRecord, text: str) -> dict[str, str]:
    """The tantivy document of one file. `text` is its decoded content ('' when not read)."""
    stem = os.path.splitext(os.path.basename(record.path))[0]
    types: list[str] = [stem]
    members: list[str] = []
    decl: list[str] = []
    for s in record.symbols:
        (types if s.kind in PRIMARY_SYMBOLS else members).append(s.name)
        if s.signature:
            decl.append(s.signature)
        decl.extend(s.attributes)
        decl.extend(s.bases)
    decl.extend(record.namespaces)
    outline: list[OutlineEntry] = [
        (s.line, s.kind, s.qualified, s.signature) for s in record.symbols[:MAX_OUTLINE_ENTRIES]
    ]
    body = expand(text[:MAX_BODY_CHARS]) if text and record.kind in TEXT_BODY_KINDS else ""
    return {
        "path": record.path,
        "kind": record.kind,
        "types": expand(" ".join(types)),
        "members": expand(" ".join(members)),
        "path_text": expand(record.path.replace("/", " ")),
        "decl": expand(" ".join(decl)),
        "body": body,
        "outline": _outline_encoder.encode(outline).decode(),
    }
