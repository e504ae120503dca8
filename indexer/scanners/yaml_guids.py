"""The GUIDs a Unity YAML document body writes, each with the key it sits under (`TextDoc.guid_uses`).

Why a module of its own: every component of a scene or prefab is read for them, so the loop over a
document's GUIDs is kept to the few steps a GUID needs (its line counted on from the last, its key
read once a line). As in `yaml_spans`, a regex finds a GUID's own line and only that is read in
Python (the walk up to the key above, when the line holds none).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .yaml_facts import ASSET_GUID_KEY, GuidUse
from .yaml_lines import KEY, Owners, indent_of, unquote

# A GUID as YAML writes it; in a JSON string a field holds (a Visual Effect Graph's
# `m_SerializableObject: '{"obj":{"fileID":2800000,"guid":"3c43...","type":3}}'`); alone in an
# Addressables `AssetReference` (`m_AssetGUID: 05ea...`: group 3, owned by the field above it).
# Plain values may be GUIDs too (`id: 2ec3…`: `with_plain_guids`). `_YAML_GUID`, its first branch,
# reads the documents holding neither of the others (most) 3.5x as fast: its literal start is
# searched at C speed, where the alternation is tried at every position.
_GUID = re.compile(r'guid: ([0-9A-Fa-f]{32})|"guid":"([0-9A-Fa-f]{32})"|m_AssetGUID: ([0-9A-Fa-f]{32})')
_YAML_GUID = re.compile(r"guid: ([0-9A-Fa-f]{32})")
_JSON_GUID = '"guid":"'
_ASSET_GUID = ASSET_GUID_KEY + ": "
_FEW_GUIDS = 16  # more GUIDs than this in a document: find their keys through `Owners`
# The start of a line `key: {` whose key starts with a letter or `_`: `KEY` reads the same key off
# it (up to the line's first colon, which the space after makes the key's end), stripped.
_KEY_BRACE = re.compile(r" *(?:- )?([A-Za-z_][^:\n]*): \{")
_new = tuple.__new__  # a NamedTuple built without its Python-level __new__ (several times cheaper)


def guid_uses(
    body: str,
    lines: Callable[[], list[str]],
    ignore: frozenset[str],
    plain: bool,
    start: int = 0,
    breaks: int = 0,
) -> list[GuidUse]:
    """Every GUID written in `body` with the key it belongs to (its line a 0-based index), but
    those under a key in `ignore`; with `plain`, those written as plain values too. `lines` gives
    the body's lines (split once, by the document), read only for a document of many GUIDs. From
    `start` (a line's end with `breaks` line breaks before it) when the caller knows none before is
    kept. (How many there are chooses only how keys are found, `owner_above` or `Owners`, which
    agree: a few left out before `start` change no answer.)"""
    mixed = _JSON_GUID in body or _ASSET_GUID in body
    if not mixed and "guid: " not in body:
        return []
    matches = list((_GUID if mixed else _YAML_GUID).finditer(body, start))
    matches = with_plain_guids(body, matches) if plain else matches
    few = len(matches) <= _FEW_GUIDS
    owners: Owners | None = None
    out: list[GuidUse] = []
    count = body.count
    line, pos = breaks, start  # line breaks before `pos`
    last, key = -1, ""
    for m in matches:
        start = m.start()
        line += count("\n", pos, start)
        pos = start
        if line != last:  # one key a line: a line of 20,000 GUIDs was read 20,000 times
            last, key = line, key_on_line(body, start)
            if key is None and few:
                key = owner_above(body, start)
            elif key is None:
                owners = owners or Owners(lines())
                key = owners.key(line)
        if m.re is _YAML_GUID:  # (inline: a scene's thousands)
            guid, owner = m.group(1), key
        elif m.re is _GUID:
            guid = m.group(1) or m.group(2) or m.group(3)
            owner = owner_above(body, start) if m.group(3) else key  # the AssetReference field
        else:
            guid, owner = guid_written(body, m, key)
        if owner not in ignore:
            out.append(_new(GuidUse, (guid.lower(), owner, line)))
    return out


# a GUID alone after `key: ` or `- ` (the character before the space, checked for each match: a
# pattern starting on the space runs three times as fast); read in data assets alone
_PLAIN_GUID = re.compile(r" ([0-9A-Fa-f]{32})(?=\n|$)")


def with_plain_guids(body: str, matches: list[re.Match[str]]) -> list[re.Match[str]]:
    """`matches` (of `yaml_reader._GUID`) and the GUIDs written as plain values (`id: 2ec3…`,
    `- 2ec3…`) none of them holds (`m_AssetGUID: 05ea…` is read once), by position."""
    more = [m for m in _PLAIN_GUID.finditer(body) if body[m.start() - 1 : m.start()] in (":", "-")]
    if not more:
        return matches
    taken = {m.end() for m in matches}
    return sorted(matches + [m for m in more if m.end() not in taken], key=lambda m: m.start())


def guid_written(body: str, m: re.Match[str], key: str) -> tuple[str, str]:
    """The GUID a plain value's match (`with_plain_guids`) holds and the key it belongs to: its
    own (`id: 2ec3…`, `- id: 2ec3…`), or its list's (`- 2ec3…`: `key`, found above it)."""
    if body[m.start() - 1] != ":":
        return m.group(1), key
    return m.group(1), body[body.rfind("\n", 0, m.start()) + 1 : m.start() - 1].strip().removeprefix("- ").strip()


def key_on_line(body: str, start: int) -> str | None:
    """The key of the line holding `start` when the line is `key: {...}` (a reference on its own key
    line), else None: then the key is found by walking up (`owner_above`)."""
    ls = body.rfind("\n", 0, start) + 1
    if m := _KEY_BRACE.match(body, ls, start):  # what `KEY` reads of such a line, in one step
        return m[1].strip()
    le = body.find("\n", start)
    m = KEY.match(body[ls:] if le < 0 else body[ls:le])
    if m and m.group(3) and m.group(4) is not None and "{" in m.group(4):
        return unquote(m.group(3))
    return None


def owner_above(body: str, start: int) -> str:
    """The mapping key the value on the line holding `start` belongs to, walking up the text: the key
    of the nearest line above with a smaller indentation (from a list item: also the same indentation,
    not an item), the smallest indentation seen so far counting. A mapping that is a list's item
    (`- enabled: 1` above `guid: ...`) belongs to the list's key (`m_Scenes`), as the YAML parser's
    reader says."""
    ls = body.rfind("\n", 0, start) + 1
    le = body.find("\n", start)
    line = body[ls:] if le < 0 else body[ls:le]
    indent = indent_of(line)
    item = line.lstrip().startswith("- ")
    end = ls - 1
    while end >= 0:
        above = body.rfind("\n", 0, end) + 1
        prev = body[above:end]
        lead = indent_of(prev)
        if lead < indent and prev.lstrip(" ").startswith("- "):  # the item holding this line's mapping
            indent, item = lead, True
        elif lead < indent or (lead == indent and item and not prev.lstrip(" ").startswith("- ")):
            m = KEY.match(prev)
            if m and m.group(3):
                return unquote(m.group(3))
            indent = min(indent, lead)
        end = above - 1
    return ""
