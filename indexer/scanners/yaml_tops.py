"""How a Unity YAML document's top-level keys are found fast (`yaml_reader.TextDoc.top` and its
kin): a key's line marker and pattern made once a key, and the lines Unity writes first in every
MonoBehaviour (and a GameObject's) read by one anchored match, each a regex step in C instead of a
find a key."""

from __future__ import annotations

import re

from .yaml_lines import unquote

MARKS: dict[str, str] = {}  # a top-level key's line start, `\n  m_Name:`: made once a key (a few dozen)


def mark(key: str) -> str:
    """`MARKS` of a key asked for the first time (the keys asked are the scanner's own)."""
    made = MARKS[key] = f"\n  {key}:"
    return made


# The lines Unity writes first in a MonoBehaviour (its script's fields follow), each key's value up to
# its line's end: the next line is the next key's, the last line's none deeper (no wrapped value).
MB_HEAD = re.compile(
    r"MonoBehaviour:\n  m_ObjectHideFlags:[^\n]*\n  m_CorrespondingSourceObject:[^\n]*\n  m_PrefabInstance:[^\n]*"
    r"\n  m_PrefabAsset:[^\n]*\n  m_GameObject:([^\n]*)\n  m_Enabled:([^\n]*)\n  m_EditorHideFlags:[^\n]*"
    r"\n  m_Script:([^\n]*)\n  m_Name:([^\n]*)\n  m_EditorClassIdentifier:([^\n]*)(?=\n(?!    )|\Z)"
)
HEAD_KEYS = ("m_GameObject", "m_Enabled", "m_Script", "m_Name", "m_EditorClassIdentifier")  # `MB_HEAD`'s groups
HEAD_LINES = {"m_GameObject": 5, "m_Enabled": 6, "m_Script": 8, "m_Name": 9, "m_EditorClassIdentifier": 10}
HEAD_BREAKS = 10  # line breaks before the end of `MB_HEAD`'s match
NO_HEAD: tuple[dict[str, str], re.Match[str] | None] = ({}, None)  # (its dict shared: never written to)


def mono_head(body: str) -> tuple[dict[str, str], re.Match[str] | None]:
    """A MonoBehaviour's `MB_HEAD`: what `top` reads of each of its keys (the first of each, the
    match starting the body), and the match; `NO_HEAD` when written otherwise."""
    m = MB_HEAD.match(body)
    if m is None:
        return NO_HEAD
    go, enabled, script, name, identifier = m.groups()
    tops = {
        "m_GameObject": go.strip(),
        "m_Enabled": enabled.strip(),
        "m_Script": script.strip(),
        "m_Name": name.strip(),
        "m_EditorClassIdentifier": identifier.strip(),
    }  # `HEAD_KEYS`, in order (no comprehension: a frame each)
    return _unquoted(tops, m[0]), m


# A GameObject's lines as Unity (2018.3 and later) writes them, its components' list any length: the
# values `top` reads of the keys after that list (each key's first line: no line before it can be one).
GO_HEAD = re.compile(
    r"GameObject:\n  m_ObjectHideFlags:[^\n]*\n  m_CorrespondingSourceObject:[^\n]*\n  m_PrefabInstance:[^\n]*"
    r"\n  m_PrefabAsset:[^\n]*\n  serializedVersion:[^\n]*\n  m_Component:(?:\n  - component: \{fileID: -?\d+\})*"
    r"\n  m_Layer:([^\n]*)\n  m_Name:([^\n]*)\n  m_TagString:([^\n]*)\n  m_Icon:([^\n]*)\n  m_NavMeshLayer:[^\n]*"
    r"\n  m_StaticEditorFlags:[^\n]*\n  m_IsActive:([^\n]*)(?=\n(?!    )|\Z)"
)
HEADED = frozenset({1, 114})  # the classes `standard_head` reads


def standard_head(body: str, class_id: int) -> tuple[dict[str, str], re.Match[str] | None]:
    """`mono_head` of a MonoBehaviour; of a GameObject, what `top` reads of the keys `GO_HEAD`
    holds (no match: the lines' places vary with its components, which `top_line` does not read)."""
    if class_id == 114:
        return mono_head(body)
    m = GO_HEAD.match(body)
    if m is None:
        return NO_HEAD
    layer, name, tag, icon, active = m.groups()
    tops = {"m_Layer": layer.strip(), "m_Name": name.strip(), "m_TagString": tag.strip(), "m_Icon": icon.strip()}
    tops["m_IsActive"] = active.strip()
    return _unquoted(tops, m[0]), None


def _unquoted(tops: dict[str, str], head: str) -> dict[str, str]:
    """`tops` with its quoted values unquoted, when `head`, the lines they come from, holds a quote
    (most heads hold none: nothing to do)."""
    if "'" not in head and '"' not in head:
        return tops
    return {k: unquote(v) if v[:1] in ("'", '"') else v for k, v in tops.items()}


TOPS: dict[str, re.Pattern[str]] = {}  # a top-level key's line, its value and a deeper line after it


def top_pattern(key: str) -> re.Pattern[str]:
    """`TOPS` of a key asked for the first time: `\n  key:`, the rest of its line (group 1) and the
    line break and four spaces starting a deeper line after it (group 2)."""
    pattern = TOPS[key] = re.compile(r"\n  " + re.escape(key) + r":([^\n]*)(\n    )?")
    return pattern
