"""Reading a document body's text without splitting it into lines: serialized fields and UnityEvent
calls, for `yaml_reader.TextDoc` (the keys GUIDs sit under: `yaml_guids`).

Why: a line walk in Python costs about a microsecond a line, and a scene's MonoBehaviours are
most of its lines. Here a regex finds the lines that matter (a field's key line with its nested
block, an `m_PersistentCalls:` line) and only those are read in Python. Each
reader gives what the line walks of `yaml_lines` give on the same body (same line rules:
indentation counts spaces, a line is blank when it is only whitespace).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator

from indexer.shown import MAX_VALUE_CHARS, values_shown

from .yaml_facts import (
    ARGUMENT_KEYS,
    ASSET_GUID_KEY,
    CALL_KEYS,
    MAX_FIELDS_PER_OBJECT,
    OVERRIDABLE,
    Call,
    Field,
    events_shown,
    fields_left_out,
    item_name,
    items_shown,
    overridable_shown,
    ref_shown,
    short,
)
from .yaml_lines import KEY, REF, indent_of, unquote, unwrapped
from .yaml_mapping import NESTED_DEPTH, NESTED_KEYS, Budget, Mapping, Nested, mapping_shown

# A top-level key line (indent 2, not an item) that is not a standard field, its value, and the
# lines nested under it (deeper than 2, or items at 2): `yaml_lines.KEY` on one line, written for
# the whole body. The key is everything up to the line's first colon (possessive: no backtracking).
# (The standard keys are written as one alternation factored on their common starts: the
# lookahead is tried at every line.)
_STANDARD = (  # `yaml_facts.STANDARD_FIELDS` and `references` (a test checks they are the same)
    r"m_(?:CorrespondingSourceObject|Editor(?:ClassIdentifier|HideFlags)|Enabled|GameObject|Name|ObjectHideFlags"
    r"|Prefab(?:Asset|Instance|Internal|ParentObject)|Script)|serializedVersion|references"
)
_ASSET_REFERENCE = re.compile(rf"[ \t]*{ASSET_GUID_KEY}:[ \t]*([0-9A-Fa-f]{{32}})?[ \t]*\r?")
_FIELD = re.compile(
    r"\n  (?!- |(?:" + _STANDARD + r"):)"
    r"([^\s:#'\"{\[][^:\n]*+|'[^'\n]*+'|\"[^\"\n]*+\"|):(?: ([^\n]*+))?(?=\n|\Z)((?:\n  (?: |- )[^\n]*+)*+)"
)
_new = tuple.__new__  # a NamedTuple built without its Python-level __new__ (several times cheaper)
_PERSISTENT = "m_PersistentCalls:"
_EVENT_BLOCK = "\n    m_PersistentCalls:"  # a field's block that is a UnityEvent, as Unity writes it
_NO_REF = "{fileID: 0}"  # a field set to nothing: shown as None
_TARGET_HERE = " {fileID: "  # a call's target in this file, as its `- m_Target:` line goes on
_ITEM = re.compile(r"\n([^\S\n]*+)- m_Target:")  # a line that, stripped, starts with `- m_Target:`
_ITEM_TEXT = "- m_Target:"
_WRITTEN_ITEM = "\n      - m_Target:"  # an item of a field's event, as Unity writes it
_CALL_VALUE = re.compile(r"\n([^\S\n]*+)(" + "|".join(CALL_KEYS) + r"):([^\n]*)")
_ARGUMENT_AT = {mode: i for i, mode in enumerate(ARGUMENT_KEYS)}  # a mode's argument among the written ones
_CALL_KEY_START = re.compile(r"\s*(m_\w+:|- )")
# A call item exactly as Unity writes it (one key a line, no wrapped values, trailing blank lines
# allowed): its values are the groups, what `_call_values` finds on the same text.
_WRITTEN_CALL = re.compile(
    r"\n( *)- m_Target:([^\n]*)"
    r"(?:\n\1  m_TargetAssemblyTypeName: ([^\n]*))?"
    r"\n\1  m_MethodName: ([^\n]*)"
    r"\n\1  m_Mode: ([^\n]*)"
    r"\n\1  m_Arguments:"
    r"\n\1    m_ObjectArgument: ([^\n]*)"
    r"\n\1    m_ObjectArgumentAssemblyTypeName: [^\n]*"
    r"\n\1    m_IntArgument: ([^\n]*)"
    r"\n\1    m_FloatArgument: ([^\n]*)"
    r"\n\1    m_StringArgument: ([^\n]*)"
    r"\n\1    m_BoolArgument: ([^\n]*)"
    r"\n\1  m_CallState: [^\n]*(?:\n[^\S\n]*+(?=\n|\Z))*"
)
# The `m_Calls:` line Unity writes first under `m_PersistentCalls:` (group 1: its indentation).
_CALLS_LINE = re.compile(r"\n( *)m_Calls:(?: \[\])?(?=\n|\Z)")


def fields(body: str, start: int = 0, line: int = 0) -> list[Field]:
    """Top-level serialized fields of a script, each as a short value (but `fields_left_out`); from
    `start`, a line's end before which the body holds `line` line breaks and no field."""
    out: list[Field] = []
    pos = start
    follows = start or -1  # where the last field's match ended when it held no nested lines: the next line starts there
    count = body.count
    matches = list(_FIELD.finditer(body, start))
    if len(matches) > MAX_FIELDS_PER_OBJECT:  # (most objects: none left out, no test a field)
        left_out = fields_left_out(len(matches))
        matches = [m for i, m in enumerate(matches) if i not in left_out]
    for m in matches:
        begin = m.start()
        line += 1 if begin == follows else count("\n", pos, begin + 1)  # (most fields: the line after the last)
        pos = begin + 1
        key, raw, nested = m.groups()
        follows = -1 if nested else m.end()
        value = raw.strip() if raw else ""
        local = 0
        if value and value[0] not in "{'\"[":  # a plain scalar is shown as written (unquote would change nothing)
            if nested:
                shown = short(unwrapped(value, nested[1:].split("\n"), 0, 2)[0])
            elif len(value) <= MAX_VALUE_CHARS and value.isprintable() and "  " not in value:
                shown = value  # `short` would change nothing: its only whitespace single spaces, inside
            else:
                shown = short(value)
        elif value:  # never unwrapped
            shown, local = summarize(value)
        elif nested.startswith(_EVENT_BLOCK):  # a UnityEvent: what `block_value` says of it, its tests skipped
            shown = events_shown(0, _calls_in(nested))
        else:
            shown = summarize_block(nested)[0] if nested else '""'
        key = key.strip()
        out.append(_new(Field, (unquote(key) if key and key[0] in "'\"" else key, shown, line, local)))
    return out


def _calls_in(nested: str) -> int:
    """The call items of an event's block (`_ITEM` lines): counted at C speed when each `- m_Target:`
    in it opens a line at the indentation Unity writes a field's calls at."""
    written = nested.count(_WRITTEN_ITEM)
    return written if written == nested.count(_ITEM_TEXT) else len(_ITEM.findall(nested))


def summarize(value: str) -> tuple[str, int]:
    """A short, readable value: scalars as written, references as guid:/fileID:. Also the fileID
    when the value is a same-file reference (the scanner names the object)."""
    if value.startswith("{"):
        if value == _NO_REF:
            return "None", 0
        m = REF.fullmatch(value)
        if m:
            shown = ref_shown(m.group(1), m.group(2) or "")
            return shown, int(m.group(1)) if shown.startswith("&") else 0
        return short(value), 0
    return ("[]" if value == "[]" else short(unquote(value))), 0


def _item_names(nested: str, pad: str) -> list[str]:
    """Each list item's `name` (or `m_Name`), else its first key's value when that is a word, as
    `yaml_nodes` reads them; an item with neither is left out."""
    out = []
    for item in re.split(rf"\n{pad}- ", nested)[1:]:
        named = re.search(rf"(?:^|\n{pad}  )(?:name|m_Name): ([^\n]*)", item)
        first = None if named else re.match(r"[^\s:#'\"{\[-][^:\n{]*: ([^\n{\[][^\n]*)", item)
        if named:
            out.append(short(unquote(named.group(1))))
        elif first and (name := item_name(unquote(first.group(1)))):
            out.append(name)
    return out


def _empty_slots(nested: str, lead: int) -> list[int]:
    """The indexes of a list's items that are empty references (`- {fileID: 0}`), when every item
    is a reference written on its line; none otherwise."""
    if "{fileID: 0}" not in nested:  # (most lists: none)
        return []
    items = [m.group(1) for m in re.finditer(rf"\n {{{lead}}}- ([^\n]*)", nested)]
    if not items or not all(_REFERENCE.fullmatch(item) for item in items):
        return []
    return [i for i, item in enumerate(items) if item == "{fileID: 0}"]


_REFERENCE = re.compile(r"\{fileID: -?\d+(?:, guid: [0-9a-fA-F]{32}, type: \d+)?\}")


def _plain_items(lines: list[str], lead: int) -> list[str] | None:
    """A list's items when every one is a plain value (a number, a dialogue line), wrapped lines
    joined back as YAML reads them; None when one is a mapping, a reference, a block or empty."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        rest = line[lead + 2 :]
        if not line.strip() and all(not t.strip() for t in lines[i:]):
            break
        if indent_of(line) != lead or not line[lead:].startswith("- ") or not rest or rest[0] in "{[|>&*!":
            return None
        if rest.startswith("- ") or rest == "-":  # a list in the list
            return None
        if KEY.match(rest):  # `- name: Jump`: a mapping
            return None
        if rest[0] in "'\"" and (len(rest) < 2 or rest[-1] != rest[0]):  # a quoted value wrapped
            j = i + 1
            while j < len(lines) and indent_of(lines[j]) > lead and lines[j].strip():
                rest, j = f"{rest} {lines[j].strip()}", j + 1
        else:
            rest, j = unwrapped(rest, lines, i + 1, lead)
        out.append(short(unquote(rest)))
        i = j
    return out


def summarize_block(nested: str) -> tuple[str, int]:
    """A nested block (its lines, each after its line break) counted: a UnityEvent's calls, a
    list's items, a mapping's keys with their values (`yaml_mapping`)."""
    value = block_value(nested, 1, Budget())
    return (mapping_shown(value) if isinstance(value, Mapping) else value), 0


def block_value(nested: str, depth: int, budget: Budget) -> str | Mapping:
    """A nested block's value as `summarize_block` says it, a mapping as read (`depth`: its level
    below the field, 1 for the field's own)."""
    end = nested.find("\n", 1)
    second = -1 if end < 0 else nested.find("\n", end + 1)
    first = nested[1:] if end < 0 else nested[1:end]
    first_indent = indent_of(first)
    items = nested.count(chr(10) + " " * first_indent + "- ") if first.lstrip().startswith("- ") else 0
    if _PERSISTENT in (nested if second < 0 else nested[:second]):  # in the first two lines
        return events_shown(items, _calls_in(nested))
    if (asset := _ASSET_REFERENCE.fullmatch(first)) is not None:  # an AssetReference: the asset it names
        return f"guid:{asset.group(1).lower()}" if asset.group(1) else "None"
    mappings = items and KEY.match(first[first_indent + 2 :]) is not None  # (read as `_plain_items` reads it)
    if items and not mappings and (values := _plain_items(nested[1:].split("\n"), first_indent)) is not None:
        return values_shown(items, values)
    if items:  # the items' names of a list in a nested mapping are not read: rarely short enough to show
        names = _item_names(nested, " " * first_indent) if depth == 1 else []
        return items_shown(items, names, _empty_slots(nested, first_indent))
    return _mapping_of(nested, first_indent, depth, budget)


def _mapping_of(nested: str, indent: int, depth: int, budget: Budget) -> str | Mapping:
    """A block mapping's first NESTED_KEYS keys (its lines indented `indent`), each with its value,
    read until `budget` runs out (the rest not even found); a profile's overridable setting by its value."""
    keys = _keys_in(nested, indent)
    head = list(itertools.islice(keys, 2))
    if [k for k, _, _ in head] in OVERRIDABLE and head[1][1]:  # a profile's setting: said if not overridden
        return overridable_shown(head[0][1], summarize(head[1][1])[0])
    pairs: list[tuple[str, Nested]] = []
    for key, value, block in itertools.chain(head, keys):
        if len(pairs) == NESTED_KEYS or budget.left <= 0:
            return Mapping(pairs, True)
        pairs.append((key, budget.spend(_nested_value(value, block, depth, budget))))
    return Mapping(pairs)


def _keys_in(nested: str, indent: int) -> Iterator[tuple[str, str, str]]:
    """Each key of a block mapping (its lines indented `indent`) with the value on its line and the
    lines below it, up to the mapping's next line: found as they are asked for."""
    last: tuple[str, str, int] | None = None  # the key found last, its value, the end of its line
    for line in _keys_at(indent).finditer(nested):
        key = line.group(1)
        if key is None and not line.group(0).strip():
            continue
        if last is not None:
            yield last[0], last[1], nested[last[2] : line.start()]
        last = None
        if key:
            last = (unquote(key) if key[0] in "'\"" else key.rstrip(), (line.group(2) or "").strip(), line.end())
    if last is not None:
        yield last[0], last[1], nested[last[2] :]


def _nested_value(value: str, block: str, depth: int, budget: Budget) -> Nested:
    """A key's value in a nested mapping: as written on its line (None when it goes on below, a
    scalar Unity wrapped), else its block's (None past NESTED_DEPTH levels, or when empty)."""
    below = block != "" and not block.isspace()
    if value:
        return None if below else summarize(value)[0]
    return block_value(block, depth + 1, budget) if below and depth < NESTED_DEPTH else None


@functools.cache
def _keys_at(indent: int) -> re.Pattern[str]:
    """Each line (after its line break) indented exactly `indent` spaces that is no list item (Unity
    writes a list's items at its key's indentation: they are skipped at C speed): a key line as
    `yaml_lines.KEY` reads it gives its key (group 1, empty for an empty key) and value (group 2)."""
    key = r"""[^\s:#'"{\[][^:\n]*|'[^'\n]*'|"[^"\n]*"|"""
    return re.compile(rf"\n {{{indent}}}(?! |- )(?:({key}):(?: ([^\n]*))?(?=\n|\Z)|[^\n]*)")


@functools.cache
def _block_end(indent: int) -> re.Pattern[str]:
    """The line break before the first non-blank line indented at most `indent`."""
    return re.compile(rf"\n {{0,{indent}}}+(?! )(?=[^\S\n]*+\S)")


# A field's key line as Unity writes a script's event field, `  onClick:`: what `_event_key` reads
# of it, when it is the line above an `m_PersistentCalls:` line indented 4 (and not the first line).
_FIELD_KEY = re.compile(r"  ([A-Za-z_]\w*):")


def _event_key(body: str, line_start: int, indent: int) -> str:
    """The key of the nearest non-blank line above (not the document's first line) indented less;
    past a list item, the key of the list (a PlayerInput's `m_ActionEvents`, a list of events)."""
    end = line_start - 1
    while end > 0:
        start = body.rfind("\n", 0, end) + 1
        if start == 0:
            break
        prev = body[start:end]
        if indent_of(prev) < indent and prev.strip():
            if not prev.lstrip().startswith("- "):
                m = KEY.match(prev)
                return unquote(m.group(3)) if m else ""
            indent = indent_of(prev) + 1  # the list's key: indented as its items (Unity's way) or less
        end = start - 1
    return ""


def persistent_calls(body: str) -> list[Call]:
    """Each persistent call under every `m_PersistentCalls:` line, the event named by the key above."""
    out: list[Call] = []
    line = pos = 0
    found = body.find(_PERSISTENT)
    while found >= 0:
        start = body.rfind("\n", 0, found) + 1
        end = body.find("\n", found)
        end = len(body) if end < 0 else end
        found = body.find(_PERSISTENT, end)
        text = body[start:end]
        item = text.strip() == "- " + _PERSISTENT  # an event of a list (a PlayerInput's action events)
        if text.strip() != _PERSISTENT and not item:
            continue
        line += body.count("\n", pos, start)
        pos = start
        indent = indent_of(text)
        above = body.rfind("\n", 0, start - 1) if indent == 4 and start and not item else -1  # a field's event
        key = _FIELD_KEY.fullmatch(body, above + 1, start - 1) if above >= 0 else None
        event = key[1] if key is not None else _event_key(body, start, indent + 1 if item else indent)
        indent += 2 if item else 0  # the key's own column: its block is deeper
        written = _written_block(body, end, indent, event, line)
        if written is None:
            close = _block_end(indent).search(body, end)
            written = _block_calls(body[end : close.start() if close else len(body)], indent, event, line)
        out.extend(written)
    return out


def _written_block(body: str, end: int, indent: int, event: str, line: int) -> list[Call] | None:
    """`_block_calls` of the `m_PersistentCalls:` block after `end` (the end of that line, indented
    `indent`, on document line `line`) when the block is as Unity writes it: an `m_Calls:` line, call
    items as `_WRITTEN_CALL` reads them at its indentation, then the end of the body or a line no
    deeper than `indent`, which ends the block. Else None. (Each item then ends where the next
    starts, so `_block_calls` finds the same items, each read by `_WRITTEN_CALL`.)"""
    head = _CALLS_LINE.match(body, end)
    if head is None or len(head.group(1)) <= indent:
        return None
    lead = head.group(1)
    out: list[Call] = []
    pos = head.end()
    counted, at = end, line  # line breaks counted on from the last item (not from `end`: quadratic)
    while (item := _WRITTEN_CALL.match(body, pos)) is not None and item.group(1) == lead:
        at += body.count("\n", counted, pos + 1)
        counted = pos + 1
        out.append(_call(event, item.group(2), _written_values(item), at))
        pos = item.end()
    if pos < len(body) and _block_end(indent).match(body, pos) is None:
        return None
    return out


def _block_calls(block: str, indent: int, event: str, line: int) -> list[Call]:
    """The calls of one `m_PersistentCalls:` block (`block`: its lines, each after its line break;
    `line`: the document line of the `m_PersistentCalls:` line). An item runs from its `- m_Target:`
    line to the next non-blank line indented no deeper than the item."""
    out: list[Call] = []
    pos = counted = 0
    at = line
    while (m := _ITEM.search(block, pos)) is not None:
        spaces = m.group(1)
        lead = len(spaces) - len(spaces.lstrip(" "))
        line_end = block.find("\n", m.end())
        line_end = len(block) if line_end < 0 else line_end
        close = _block_end(lead).search(block, line_end)
        item_end = close.start() if close else len(block)
        written = _WRITTEN_CALL.fullmatch(block, m.start(), item_end)
        values = _written_values(written) if written else _found_values(_call_values(block, line_end, item_end))
        at += block.count("\n", counted, m.start() + 1)
        counted = m.start() + 1
        out.append(_call(event, block[m.end() : line_end], values, at))
        pos = item_end
    return out


def _call(event: str, target: str, values: tuple[str, str, str, str, str], line: int) -> Call:
    """A call from the rest of its `- m_Target:` line and its raw values (`_found_values`)."""
    raw_type, raw_method, mode, raw_arg, raw_object = values
    fid = target[10:-1] if target[:10] == _TARGET_HERE and target[-1:] == "}" else ""
    here = fid.isdecimal()  # `{fileID: N}`: what REF reads of it, in two slices
    ref = None if here else REF.search(target)
    arg = unquote(raw_arg) if raw_arg else ""
    if mode == "2":
        om = REF.search(raw_object)
        arg = f"guid:{om.group(2).lower()}" if om and om.group(2) else ""
    type_name = unquote(raw_type).split(",", 1)[0].strip()
    guid = (ref.group(2) or "").lower() if ref else ""
    target_id = int(fid) if here else int(ref.group(1)) if ref else 0
    return _new(Call, (event, target_id, type_name, unquote(raw_method), mode, arg, line, guid))


def _written_values(m: re.Match[str]) -> tuple[str, str, str, str, str]:
    """`_found_values` of a call item as Unity writes it (`_WRITTEN_CALL`), read off its groups. Values
    stay as written but for the mode: every other value is read through `unquote` or `REF.search`,
    which strip."""
    _, _, type_name, method, mode, *arguments = m.groups()
    mode = mode.strip()
    at = _ARGUMENT_AT.get(mode)
    return type_name or "", method, mode, "" if at is None else arguments[at], arguments[0]


def _found_values(found: dict[str, str]) -> tuple[str, str, str, str, str]:
    """A call's raw type name, method name, mode, the argument its mode uses and the object argument."""
    mode = found.get("m_Mode", "")
    argument = found.get(ARGUMENT_KEYS[mode], "") if mode in ARGUMENT_KEYS else ""
    return (
        found.get("m_TargetAssemblyTypeName", ""),
        found.get("m_MethodName", ""),
        mode,
        argument,
        found.get("m_ObjectArgument", ""),
    )


def _call_values(block: str, start: int, end: int) -> dict[str, str]:
    """The values of the keys a call is read from, anywhere under its item (first wins), a plain
    scalar wrapped onto deeper lines joined back."""
    found: dict[str, str] = {}
    for m in _CALL_VALUE.finditer(block, start, end):
        spaces, key, rest = m.groups()
        rest = rest.rstrip()
        if key in found or (rest and rest[0] != " "):
            continue  # `key:value` is no key line
        value = rest.strip()
        if value:
            value = _continued(block, value, m.end(), end, len(spaces) - len(spaces.lstrip(" ")))
        found[key] = value
    return found


def _continued(block: str, value: str, p: int, end: int, indent: int) -> str:
    """`value` with the lines after `p` (a line break) that continue it: deeper than `indent`, not
    blank, not a key or an item."""
    deeper = " " * (indent + 1)
    while p < end and block.startswith(deeper, p + 1):
        q = block.find("\n", p + 1, end)
        q = end if q < 0 else q
        nxt = block[p + 1 : q]
        if _CALL_KEY_START.match(nxt) or not nxt.strip():
            break
        value += " " + nxt.strip()
        p = q
    return value


def first_flow(body: str, key: str) -> str:
    """The one-line flow mapping of the first line written `<spaces>key: {...}`: what the MULTILINE
    regex `^ *key: (\\{[^}\\n]*\\})` finds, without trying `^` at every character."""
    marker = key + ": {"
    p = body.find(marker)
    while p >= 0:
        start = body.rfind("\n", 0, p) + 1
        if body.count(" ", start, p) == p - start:
            brace = p + len(marker) - 1
            close = body.find("}", brace)
            nl = body.find("\n", brace)
            if close >= 0 and (nl < 0 or close < nl):
                return body[brace : close + 1]
        p = body.find(marker, p + 1)
    return ""
