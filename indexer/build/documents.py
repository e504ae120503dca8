"""From a FileRecord (and the file's text) to the full-text document the retriever searches."""

from __future__ import annotations

import os
import re

from indexer.identifiers import expand
from indexer.model import HIERARCHY_KINDS, TYPE_KINDS, FileRecord, Symbol
from indexer.shown import name_words
from indexer.store.schema import MAX_OUTLINE_ENTRIES, TEXT_BODY_KINDS, OutlineEntry, outline_encoder
from indexer.table_text import TABLE_EXTENSIONS, table_columns

# Declarations that name the file's main thing rank with type names.
PRIMARY_SYMBOLS = TYPE_KINDS | {
    "scriptable_object",
    "material",
    "animator_controller",
    "animation_clip",
    "shader",
    "assembly",
    "package",
    "input_actions",
    "visual_effect",
}
MAX_BODY_CHARS = 200_000
YAML_READ_CHARS = MAX_BODY_CHARS * 4  # of Unity YAML, the characters whose values are read
# Unity YAML whose written values are worth searching: the text of data assets (item names,
# dialogue, localization tables) and of scenes and prefabs (labels, tooltips).
YAML_TEXT_KINDS = frozenset({"asset", "scene", "prefab", "unity_yaml", "vfx"})
# Data files whose whole text is worth searching: JSON tables hold tuning a task may be about
# (weather odds, item stats), in words code does not repeat.
DATA_TEXT_KINDS = frozenset({"json"})
# A value's line: `key: value` (in a list too), a list's plain item (`- Hello there`), or a line
# continuing the value above it (Unity wraps long scalars onto deeper-indented lines, no key).
_YAML_VALUE = re.compile(
    r"^ *(?:- )?[A-Za-z_][^:\n]*: ?(['\"]?)(.*?)\1 *$|^ *(?:- (?![{\[])| (?=[^\s:{}\[\]\-#]))([^:\n]*)$",
    re.M,
)
_NOT_WORDS = re.compile(r"fileID|guid: |PublicKeyToken=|^m_|^Untagged$|^[\d.eE+-]+$")
_HAS_WORD = re.compile(r"[A-Za-z]{3}|[^\W\d_A-Za-z]")  # three Latin letters, or a letter of another script

MAX_LISTED = 200  # files named per asset; a registry of every prefab says no more past this
# The keys written inside a data asset's fields: a table's columns (`items:` then `- Hp: 99`,
# `StartMana: 2`), a nested settings class's fields. A task asks by them ("where is the starting
# HP set") and the asset names them nowhere else: its outline holds its top-level fields only.
# Unity's own keys inside a field: references, [SerializeReference] data, curves' keyframes,
# gradients' keys, and the parts of vectors, colours and pairs written on lines of their own.
_UNITY_KEYS = re.compile(
    r"serializedVersion|fileID|guid|type|rid|RefIds|data|version|first|second|[xyzwrgba]|time|value|inSlope"
    r"|outSlope|tangentMode|weightedMode|inWeight|outWeight|(?:key|ctime|atime)\d"
)
_KEY_LINE = re.compile(r"( *)(- )?([A-Za-z_][A-Za-z0-9_]*):(?: |$)")
MAX_NESTED_KEYS = 200


def yaml_words(text: str) -> str:
    """The written words of Unity YAML: string values, without references, numbers, flags or GUIDs;
    a list's plain items and the lines a long value wraps onto count too (a dialogue line, a
    phrase table's sentences), a double-quoted value's escapes read (`I\\u2019ll` is "I'll")."""
    out = []
    for m in _YAML_VALUE.finditer(text):
        value = m.group(2)
        if value is None:  # a list's item or a wrapped line
            value = m.group(3).strip("\"' ")
        if value and value[0] != "{" and _HAS_WORD.search(value):
            if "\\" in value:
                from indexer.scanners.yaml_lines import unescape  # here: readers import this module, not parsers

                value = unescape(value).strip('"')
            if not _NOT_WORDS.search(value) and not _is_hexlike(value):
                out.append(value)
    return "\n".join(out)


def document_text(kind: str, data: bytes) -> str:
    """The decoded text `build` reads of a file of this kind, decoding only as many bytes as that
    takes (a character is at most 4): a 200 MB scene is not decoded whole, a material not at all."""
    if kind in YAML_TEXT_KINDS:
        chars = YAML_READ_CHARS
    elif kind in TEXT_BODY_KINDS or kind in DATA_TEXT_KINDS:
        chars = MAX_BODY_CHARS
    else:
        return ""
    return data[: 4 * chars + 4].decode("utf-8", errors="replace")


def _is_hexlike(value: str) -> bool:
    return len(value) >= 16 and all(c in "0123456789abcdefABCDEF" for c in value)


def listed_words(targets: list[str]) -> str:
    """The words a data asset referencing these files lists: their names, scripts left out
    (every asset names its own)."""
    names = dict.fromkeys(os.path.splitext(os.path.basename(p))[0] for p in targets if not p.endswith((".cs", ".meta")))
    return expand(" ".join(list(names)[:MAX_LISTED]), pairs=True)


def with_listed(body: str, listed: str) -> str:
    """A document's body with the names its file lists after it."""
    return f"{body}\n{listed}" if body and listed else body or listed


def nested_keys(text: str) -> list[str]:
    """The distinct keys nested in a data asset's fields (a list item's, or under a key ending its
    line), first seen first; Unity's own (`m_...`, a curve's `inSlope`) left out, and so are the
    lines a long text wraps onto (`  note: it breaks` then `    Warning: when...`), which are
    deeper than a line that opens no block."""
    keys: dict[str, None] = {}
    depth, opens = 0, True  # the line above: where its keys sit, and whether it opens a block
    for line in text.split("\n"):
        m = _KEY_LINE.match(line)
        if m is None:
            if line.strip():
                depth, opens = len(line) - len(line.lstrip(" ")), False
            continue
        indent, item, key = len(m.group(1)), m.group(2), m.group(3)
        wrapped = indent > depth and not opens
        if not wrapped and (indent >= 4 or (indent >= 2 and item)):
            keys.setdefault(key)
        if not wrapped:
            depth, opens = indent + (2 if item else 0), line.endswith(":") or bool(item)
    out = [k for k in keys if not k.startswith("m_") and not _UNITY_KEYS.fullmatch(k)]
    return out[:MAX_NESTED_KEYS]


def _unsearched(s: Symbol) -> bool:
    """A setting of Unity's own component (a NavMeshAgent's `m_Speed`): shown, not searched, where as
    words every prefab with an agent matched "speed" (held-out acc@5 0.824 -> 0.819)."""
    return s.kind == "field" and s.type.startswith("builtin:")


_NAMING_KINDS = PRIMARY_SYMBOLS | HIERARCHY_KINDS  # what a hit is named by: a type, an object


def _outlined(symbols: list[Symbol]) -> list[Symbol]:
    """The symbols the stored outline keeps, in order: all, or past MAX_OUTLINE_ENTRIES the types
    and objects first. Cut in file order, a scene's outline held 294 overrides of its floor tiles
    and no `Door`, so a hit on the door was named by the scene's first line."""
    kept = [s for s in symbols if not _unsearched(s)]
    if len(kept) <= MAX_OUTLINE_ENTRIES:
        return kept
    order = sorted(range(len(kept)), key=lambda i: (kept[i].kind not in _NAMING_KINDS, i))
    return [kept[i] for i in sorted(order[:MAX_OUTLINE_ENTRIES])]


def _entry(s: Symbol, objects: bool) -> OutlineEntry:
    """A symbol as the stored outline keeps it; in a scene or prefab, a component's field with the
    script it is of: a hit on a prefab's `speed: 2` was the push action's, read as the player's
    walking speed."""
    if objects and s.kind == "field" and s.type.startswith("script:"):
        return (s.line, s.kind, s.qualified, s.signature, s.type)
    return (s.line, s.kind, s.qualified, s.signature)


def build(record: FileRecord, text: str, listed: str = "") -> dict[str, str]:
    """The tantivy document of one file. `text` is its decoded content ('' when not read);
    `listed` the names a data asset lists (`listed_words`), known only once GUIDs resolve: they
    count as its text. (A field of their own scored worse: its length is measured against the
    average over every document, most of which list nothing.)"""
    stem = os.path.splitext(os.path.basename(record.path))[0]
    types: list[str] = [stem]
    members: list[str] = []
    decl: list[str] = []
    for s in record.symbols:
        if _unsearched(s):
            continue
        if s.kind != "animator_transition":  # named by the state it enters, a member already
            (types if s.kind in PRIMARY_SYMBOLS else members).append(name_words(s.name))
        if s.signature:
            decl.append(s.signature)
        decl.extend(s.attributes)
        decl.extend(s.bases)
    decl.extend(record.namespaces)
    # the methods a clip's events call (`PlayFootstep`): a search for one finds the clips calling it
    members.extend(dict.fromkeys(r.target for r in record.refs if r.kind == "animation_event"))
    if text and record.kind == "asset":
        members.extend(nested_keys(text[:YAML_READ_CHARS]))
    elif text and record.kind == "text" and record.path.lower().endswith(TABLE_EXTENSIONS):
        members.extend(table_columns(text))
    objects = record.kind in ("scene", "prefab")  # several components on one object: which one's field
    outline: list[OutlineEntry] = [_entry(s, objects) for s in _outlined(record.symbols)]
    body = ""
    if text and (record.kind in TEXT_BODY_KINDS or record.kind in DATA_TEXT_KINDS):
        body = expand(text[:MAX_BODY_CHARS])
    elif text and record.kind in YAML_TEXT_KINDS:
        body = expand(yaml_words(text[:YAML_READ_CHARS])[:MAX_BODY_CHARS])
    return {
        "path": record.path,
        "kind": record.kind,
        "types": expand(" ".join(types), pairs=True, doers=True),
        "members": expand(" ".join(members), pairs=True),
        "path_text": expand(record.path.replace("/", " "), pairs=True, doers=True),
        "decl": expand(" ".join(decl), pairs=True),
        "body": with_listed(body, listed),
        "outline": outline_encoder.encode(outline).decode(),  # kept in the record store (store.Writer.put)
    }
