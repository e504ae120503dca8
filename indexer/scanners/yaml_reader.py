"""The fast reader of Unity YAML: documents split on their headers, read line by line.

Why not a YAML library for every document: Unity writes a narrow, regular subset of YAML (block
mappings indented by two, sequences at their key's indentation, one-line flow mappings for
references, plain or quoted scalars), and reading only the lines the index needs runs at tens of
MB/s where ruamel's C loader manages about 2. Every value stays a string (GUIDs such as
`0000000000000000e000000000000000` and `010` are not numbers here). Documents outside this subset
go to `yaml_nodes` instead (see `outside_subset`).
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Iterator

from indexer.shown import name_shown
from indexer.unity_classes import class_name

from .yaml_facts import Call, Entry, Field, GuidUse, Modification, Named, Property, TypeUse
from .yaml_guids import guid_uses
from .yaml_lines import KEY, REF, first_second, indent_of, line_indexes, unquote, unwrapped
from .yaml_spans import fields, first_flow, persistent_calls
from .yaml_tops import HEAD_BREAKS, HEAD_LINES, HEADED, MARKS, NO_HEAD, TOPS, mark, standard_head, top_pattern

# A document's header line with its line break, at a line's start: found by its literal start (which
# the regex engine searches for fast; `^` in MULTILINE mode is tried at every character), the line
# break before it looked back at, and the document's first line (its class) looked ahead at.
_HEADERS = re.compile(r"(--- !u!(?<=\n--- !u!)(-?\d+) &(-?\d+)( stripped)?[^\n]*\n?)(?=([^\n]*))")
WRAPPED_FLOW = re.compile(r"(\{[^{}\n]*,)[ \t]*\n[ \t]+")  # what `wrapped_flows` finds
_WRAP_END = re.compile(r",[ \t]*\n[ \t]+")  # the end of every match of WRAPPED_FLOW, from its comma
_MANAGED_TYPE = re.compile(r"type: \{class: ([^,}]*), ns: ([^,}]*), asm: ([^}]*)\}")
_ITEM_KEY = re.compile(r"- ([^:]+):(?: (.*))?$")
_NAME_OVERRIDE = re.compile(r"propertyPath: m_Name\n\s+value: (.*)")
_PROPERTY_PATH = "propertyPath:"
_LOCAL_REF = "{fileID: "
_LOCAL_LEN = len(_LOCAL_REF)
# An override's three lines as Unity writes them (from the start of the `propertyPath:` line): what
# the line walk of `TextDoc._modification` reads from them, its value never wrapped (the
# `objectReference:` line after it is a key line, which ends a wrapped value).
_WRITTEN_MOD = re.compile(r" *propertyPath:([^\n]*)\n *value:([^\n]*)\n *objectReference:((?: [^\n]*)?)(?=\n|\Z)")
_WRITTEN_MODS = re.compile(r"\n" + _WRITTEN_MOD.pattern)
_ENTRY_KEY = re.compile(r"([^:]+):(?: (.*))?$")
# `: &` or `- &` somewhere, and `{`, `[` or `,` ending a line: found from their last character
# (rare, or searched fast: a one-character literal) looking back, several times faster than
# searching for the two or three characters.
_ANCHOR_MARK = re.compile(r"&(?<=[:-] &)")
_ANCHORS = "anchor or alias"
_OPEN_FLOWS = "multi-line flow collection"
_OPEN_END = re.compile(r"\n(?<=[{\[,]\n)")
# What the line reader does not read: these documents go to the YAML parser (`yaml_nodes`). Each
# check is a regex run only when the text holds what it needs (single characters where possible:
# those searches run at several GB/s), so a file in the subset costs a few substring searches. A
# flow collection left open at a line end after joining shows as `{`, `[` or `,` ending a line
# (Unity wraps flows only after a comma). A check's patterns each start with one literal character
# (a class of two is searched several times slower): each is one alternative of the check's regex,
# and since every match lies within one line, the lines (so the documents) with a match of any of
# them are the lines with a match of the whole regex. Quotes are found from the quote looking back
# at the `: ` or `- ` before it (each match 2 characters after the whole regex's, in the same line).
_OUTSIDE: tuple[tuple[str, Callable[[str], bool], tuple[re.Pattern[str], ...]], ...] = (
    (_ANCHORS, lambda t: "*" in t or _ANCHOR_MARK.search(t) is not None, (re.compile(r"[:-] [&*]\S"),)),
    (
        "block scalar",
        lambda t: "|" in t or (">" in t and (": >" in t or "- >" in t)),
        (re.compile(r"[:-] [|>][-+0-9]*[ \t]*$", re.M),),
    ),
    (
        _OPEN_FLOWS,  # [{\[][^\n\]}]*\n
        lambda t: _OPEN_END.search(t) is not None,
        (re.compile(r"\{[^\n\]}]*\n"), re.compile(r"\[[^\n\]}]*\n")),
    ),
    (
        "multi-line quoted scalar",  # [:-] (?:'(?:[^'\n]|'')*|"(?:[^"\\\n]|\\.)*\\?)\n
        lambda t: "'" in t or '"' in t,
        (re.compile(r"'(?<=[:-] ')(?:[^'\n]|'')*\n"), re.compile(r'"(?<=[:-] ")(?:[^"\\\n]|\\.)*\\?\n')),
    ),
)
_new = tuple.__new__  # a NamedTuple built without its Python-level __new__ (several times cheaper)
_SECTIONS = {"m_TexEnvs:": "texture", "m_Floats:": "float", "m_Colors:": "color", "m_Ints:": "int"}
# A line after the first that, stripped, is one of `_SECTIONS` (`\s` and `str.strip` agree on whitespace).
_SECTION_LINE = re.compile(r"\n[^\S\n]*(?:m_TexEnvs|m_Floats|m_Colors|m_Ints):[^\S\n]*(?=\n|\Z)")


def _object_of(ref: str) -> tuple[str, int]:
    """An override's `objectReference`: (GUID, fileID) for another file's object, ("", fileID) for
    one of this file, ("", 0) for none (`{fileID: 0}`, most of them: told without the regex)."""
    if ref == " {fileID: 0}" or not (r := REF.search(ref)):
        return "", 0
    return (r.group(2).lower() if r.group(2) else "", int(r.group(1)))


def join_wrapped_flows(text: str, commas: bool | None = None) -> tuple[str, list[int]]:
    """Long flow mappings wrapped after a comma, joined back onto one line; and, sorted, the
    (1-based) line of the joined text each removed line break ended, so lines map back. `commas`:
    whether the text holds `,\n`, when the caller has looked (else looked for here)."""
    if not (",\n" in text if commas is None else commas):
        return text, []
    parts: list[str] = []
    joins: list[int] = []
    pos = line = 0  # `line`: line breaks of the original text before `pos`
    for start, comma, end in wrapped_flows(text):
        line += text.count("\n", pos, start) + 1
        parts += (text[pos:start], text[start:comma] + " ")
        joins.append(line - len(joins))
        pos = end
    parts.append(text[pos:])
    return "".join(parts), joins


def wrapped_flows(text: str) -> Iterator[tuple[int, int, int]]:
    """Each match of `WRAPPED_FLOW` in `text`, in order, as (start, end of group 1, end). Found from
    the comma ending its line (`_WRAP_END`; a comma is tried in one step, where the regex runs from
    every `{` to its closing brace and back): the match starts at the last brace on that line
    before the comma if that brace opens a flow, and there is no match for the line otherwise."""
    rfind = text.rfind
    for m in _WRAP_END.finditer(text):
        comma = m.start()
        brace = rfind("{", rfind("\n", 0, comma) + 1, comma)
        if brace >= 0 and rfind("}", brace, comma) < 0:
            yield brace, comma + 1, m.end()


def outside_subset(body: str) -> str:
    """Why a document body (wrapped flows joined) is not for the line reader, or "" if it is."""
    for reason, needed, patterns in _OUTSIDE:
        if needed(body) and any(pattern.search(body) for pattern in patterns):
            return reason
    return ""


def outside_documents(text: str, docs: list[TextDoc], commas: bool = True) -> dict[int, str]:
    """`outside_subset` for all documents of a file at once: index in `docs` -> reason. One search
    over the whole text per check, so a file in the subset costs no work per document."""
    found: dict[int, str] = {}
    starts = [d.offset for d in docs]
    # Every header holds a `&`, so the text always does: an anchor is looked for only when a body
    # holds a `&` (each found by memchr) or the text a `*`, where `_ANCHOR_MARK` ran over all of it.
    anchors = "*" in text or any("&" in d.body for d in docs)
    for reason, needed, patterns in _OUTSIDE:
        if reason is _ANCHORS and not anchors:
            continue
        if reason is _OPEN_FLOWS and not commas:  # (`commas` False: the text holds no `,\n`, the caller knows)
            if "{\n" not in text and "[\n" not in text:  # two searches at C speed, not a regex tried at every line
                continue
        elif not needed(text):
            continue
        for pattern in patterns:
            for m in pattern.finditer(text):
                at = bisect.bisect_right(starts, m.start()) - 1
                if at >= 0 and at not in found and outside_subset(docs[at].body) == reason:
                    found[at] = reason
    return found


def split(text: str, joins: list[int] | None = None) -> list[TextDoc]:
    """The documents of a file, in order (text has `\n` line ends; `joins` from `join_wrapped_flows`).
    One `re.split` in C (`_HEADERS`; a line break put first so a header on the first line is found
    alike) instead of a match object and a few calls a document."""
    docs: list[TextDoc] = []
    joins = joins or []
    pieces = _HEADERS.split("\n" + text)
    offset = len(pieces[0]) - 1  # where the text before the first header ends, in `text`
    line = pieces[0].count("\n")  # (the line break put first counted: a header's line is 1-based)
    append = docs.append
    each = iter(pieces[1:])  # a header's groups, then its body: taken six at a time
    for header, class_id, file_id, stripped, first, body in zip(*(each,) * 6, strict=False):
        offset += len(header)
        name = _class_name(first[:-1] if first[-1:] == ":" else None, class_id)  # (a slice: no call)
        append(TextDoc(int(class_id), int(file_id), stripped is not None, line, body, joins, offset, name))
        offset += len(body)
        line += 1 + body.count("\n")
    return docs


@functools.lru_cache(maxsize=1024)
def _class_name(written: str | None, class_id: str) -> str:
    """`class_name` of a document's first line (`MonoBehaviour`) and class ID: a few pairs a project."""
    return class_name(written, int(class_id))


class TextDoc:
    """One document: header facts and its body, read by lines on demand."""

    __slots__ = (
        "_first", "_head", "_joins", "_lines", "_refs", "_text_line", "_tops", "body", "class_id", "class_name",
        "file_id", "line", "offset", "stripped",
    )  # fmt: skip

    def __init__(
        self,
        class_id: int,
        file_id: int,
        stripped: bool,
        line: int,
        body: str,
        joins: list[int],
        offset: int = 0,
        name: str = "",
    ):
        self.class_id = class_id
        self.file_id = file_id
        self.stripped = stripped
        self._joins = joins
        self._text_line = line  # line of the `--- !u!` header in the joined text
        self._first = line + 1  # ... and of the body's first line
        self.line = line + bisect.bisect_left(joins, line) if joins else line  # ... in the file
        self.body = body
        self.offset = offset  # where the body starts in the file's text
        self._lines: list[str] | None = None
        self._refs: dict[str, tuple[int, str]] = {}  # top_ref() answers: the scanner asks some keys often
        # a MonoBehaviour's (a GameObject's) standard lines as Unity writes them: values, where fields start
        self._tops, self._head = standard_head(body, class_id) if class_id in HEADED else NO_HEAD
        if not name:  # (`split` gives it) the first line names the class: `MonoBehaviour:`
            end = body.find("\n")
            end = len(body) if end < 0 else end
            name = class_name(body[: end - 1] if body[end - 1 : end] == ":" else None, class_id)
        self.class_name = name

    def at(self, i: int) -> int:
        """File line of body line `i` (lines removed by joining wrapped flows counted back in)."""
        if not self._joins:  # (most files: one addition)
            return self._first + i
        line = self._first + i
        return line + bisect.bisect_left(self._joins, line)

    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.body.split("\n")
        return self._lines

    # -- single values -------------------------------------------------------------------------

    def top(self, key: str) -> str | None:
        """A top-level (indent 2) scalar, wrapped continuation lines joined; None if absent; an
        object's name (`m_Name`) cut as every answer says it (`shown.name_shown`)."""
        value = self._tops[key] if key in self._tops else self._top(key)
        return name_shown(value) if value and key == "m_Name" else value

    def _top(self, key: str) -> str | None:  # one call: the line, and whether one deeper follows
        m = (TOPS.get(key) or top_pattern(key)).search(self.body)
        if m is None:
            return None
        value = m[1].strip()
        if value and m[2]:
            value = self._wrapped(value, m.end(1))
        return unquote(value) if value[:1] in ("'", '"') else value  # unquote(plain) == plain, stripped

    def top_line(self, key: str) -> int:
        """The file line of a top-level key (`m_Script:`), the header's when absent."""
        if self._head is not None and key in self._tops:  # (a MonoBehaviour's head: its lines' places fixed)
            return self.at(HEAD_LINES[key])
        i = self.body.find(MARKS.get(key) or mark(key))  # (near the top: found again at C speed)
        return self.at(self.body.count("\n", 0, i) + 1) if i >= 0 else self.line

    def _wrapped(self, value: str, end: int) -> str:
        """A top-level scalar with the deeper-indented lines after `end` (its line break) that
        continue it (Unity wraps long plain and quoted scalars) joined on."""
        body = self.body
        while body.startswith("    ", end + 1):
            nxt_end = body.find("\n", end + 1)
            nxt_end = len(body) if nxt_end < 0 else nxt_end
            nxt = body[end + 1 : nxt_end].strip()
            if nxt.startswith("- ") or (KEY.match("  " + nxt) and not value.startswith(("'", '"'))):
                break
            value = f"{value} {nxt}"
            end = nxt_end
        return value

    def top_ref(self, key: str) -> tuple[int, str]:
        refs = self._refs
        if key in refs:
            return refs[key]
        tops = self._tops
        if key in tops:
            v, m = tops[key], None
        else:  # `top`, inline but for a wrapped value
            m = (TOPS.get(key) or top_pattern(key)).search(self.body)
            v = m[1].strip() if m is not None else None
        if v and m is not None:
            if m[2]:
                v = self.top(key)
            elif v[0] in "'\"":
                v = unquote(v)
        if v and v[-1] == "}" and v[:_LOCAL_LEN] == _LOCAL_REF and (n := v[_LOCAL_LEN:-1]).isdecimal():
            ref = refs[key] = (int(n), "")  # `{fileID: N}`: what REF reads of it, without the regex
            return ref
        m = REF.match(v) if v else None
        ref = refs[key] = (int(m.group(1)), (m.group(2) or "").lower()) if m else (0, "")
        return ref

    def first_ref(self, key: str) -> tuple[int, str]:
        """The first one-line reference written under `key` at any depth (`m_Modification:` or top level)."""
        flow = first_flow(self.body, key)
        r = REF.match(flow) if flow else None
        return (int(r.group(1)), (r.group(2) or "").lower()) if r else (0, "")

    def instance_name(self) -> str:
        """The name a prefab instance shows: an `m_Name` override, else unknown here (empty)."""
        m = _NAME_OVERRIDE.search(self.body)
        return name_shown(unquote(m.group(1))) if m else ""

    # -- blocks --------------------------------------------------------------------------------

    def block(self, key: str, indent: int = 2) -> list[tuple[int, str]]:
        """The lines nested under `key:` at `indent`, with their index in the document."""
        lines = self.lines()
        prefix = " " * indent + key + ":"
        for i, line in enumerate(lines):
            if line.startswith(prefix):
                out = []
                for j in range(i + 1, len(lines)):
                    nxt = lines[j]
                    if not nxt.strip():
                        continue
                    lead = indent_of(nxt)
                    if lead < indent or (lead == indent and not nxt.lstrip(" ").startswith("- ")):
                        break
                    out.append((j, nxt))
                return out
        return []

    def block_ref_ids(self, key: str) -> list[int]:
        if f"{key}:" not in self.body:
            return []
        return [int(m.group(1)) for _, line in self.block(key) if (m := REF.search(line))]

    def entries(self, key: str) -> list[Entry]:
        """Items of a block sequence of mappings: their m_Name, m_Type and scalar values."""
        block = self.block(key)
        found: list[tuple[int, dict[str, str]]] = []
        item_indent = indent_of(block[0][1]) if block else 0
        for idx, line in block:
            lead = indent_of(line)
            s = line.strip()
            if lead == item_indent and s.startswith("- "):
                found.append((idx, {}))
                s = s[2:]
            elif lead != item_indent + 2 or not found:
                continue
            m = _ENTRY_KEY.match(s)
            if m:
                found[-1][1].setdefault(m.group(1), unquote(m.group(2) or ""))
        return [Entry(d.get("m_Name", ""), d.get("m_Type", ""), idx, _scalars(d)) for idx, d in found]

    def modifications(self) -> list[Modification]:
        """Each line that, stripped, starts with `propertyPath:`, with the `value:` and the GUID of the
        `objectReference:` after it: as Unity writes them, found by one regex over the body
        (`_WRITTEN_MODS`); the others between its matches by `_other_modifications`."""
        body = self.body
        out: list[Modification] = []
        line = pos = lo = 0  # `line`: line breaks before `pos`; `lo`: where the last match ended
        count, find = body.count, body.find
        for m in _WRITTEN_MODS.finditer(body):
            start = m.start() + 1
            if find(_PROPERTY_PATH, lo, start) >= 0:
                line += count("\n", pos, lo)
                pos = lo
                self._other_modifications(out, lo, start, line)
            line += count("\n", pos, start)
            pos = start
            prop, value, ref = m.groups()
            guid, local = _object_of(ref)
            out.append(_new(Modification, (unquote(prop), unquote(value), guid, line, local)))
            lo = m.end()
        if find(_PROPERTY_PATH, lo) >= 0:
            self._other_modifications(out, lo, len(body), line + count("\n", pos, lo))
        return out

    def _other_modifications(self, out: list[Modification], lo: int, hi: int, line: int) -> None:
        """The overrides whose `propertyPath:` line starts in body[lo:hi] (`line`: line breaks
        before `lo`): the written form read by `_WRITTEN_MOD`, any other by `_modification`."""
        body = self.body
        pos = lo
        p = body.find(_PROPERTY_PATH, lo, hi)
        while p >= 0:
            start = body.rfind("\n", 0, p) + 1
            end = body.find("\n", p)
            end = len(body) if end < 0 else end
            if body[start:p].strip():  # not the start of its line
                p = body.find(_PROPERTY_PATH, end, hi)
                continue
            line += body.count("\n", pos, start)
            pos = start
            m = _WRITTEN_MOD.match(body, start)
            if m is None:
                out.append(self._modification(line))
                p = body.find(_PROPERTY_PATH, end, hi)
                continue
            prop, value, ref = m.groups()
            guid, local = _object_of(ref)
            out.append(_new(Modification, (unquote(prop), unquote(value), guid, line, local)))
            p = body.find(_PROPERTY_PATH, m.end(), hi)

    def _modification(self, i: int) -> Modification:
        """The override whose `propertyPath:` is on line `i`, read line by line."""
        lines = self.lines()
        s = lines[i].strip()
        value = guid = ""
        local = 0
        j, end = i + 1, min(i + 4, len(lines))
        while j < end:
            t = lines[j].strip()
            if t.startswith("value:"):
                raw, after = unwrapped(t[len("value:") :].strip(), lines, j + 1, indent_of(lines[j]))
                value = unquote(raw)
                end = min(end + after - j - 1, len(lines))  # the wrapped lines do not count
                j = after
                continue
            if t.startswith("objectReference:"):
                guid, local = _object_of(t[len("objectReference:") :])
                break
            if t.startswith("- "):
                break
            j += 1
        return Modification(unquote(s[len("propertyPath:") :]), value, guid, i, local)

    def fields(self) -> list[Field]:
        """Top-level serialized fields of a script, each as a short value (at most MAX_FIELDS_PER_OBJECT)."""
        head = self._head
        return fields(self.body) if head is None else fields(self.body, head.end(), HEAD_BREAKS)

    def guid_uses(self, ignore: frozenset[str] = frozenset(), plain: bool = False) -> list[GuidUse]:
        """Every GUID written in the document with the key it belongs to, but those under a key in
        `ignore` (a prefab's thousands of override targets cost no fact each); with `plain`, those
        written as plain values too (`id: 2ec3…`)."""
        head, body = self._head, self.body
        if head is not None and not plain and "m_Script" in ignore and "{" in head[3] and "UID" not in head[3]:
            # the standard lines hold no GUID but the script's, one `top` reads and the caller leaves out
            # (its key `m_Script`, its line's `{` says): looked for from their end
            lead, tail = body[: head.start(3)], body[head.end(3) : head.end()]
            if "uid" not in lead and "UID" not in lead and "uid" not in tail and "UID" not in tail:
                return guid_uses(body, self.lines, ignore, plain, head.end(), HEAD_BREAKS)
        return guid_uses(body, self.lines, ignore, plain)

    def calls(self) -> list[Call]:
        if "m_PersistentCalls:" not in self.body:
            return []
        return persistent_calls(self.body)

    def type_uses(self) -> list[TypeUse]:
        if "RefIds:" not in self.body:
            return []
        matches = list(_MANAGED_TYPE.finditer(self.body))
        lines = line_indexes(self.body, matches)
        return [TypeUse(m.group(1).strip(), m.group(2).strip(), i) for i, m in zip(lines, matches, strict=True)]

    def properties(self) -> list[Property]:
        """Material properties: the items of m_TexEnvs, m_Floats, m_Colors and m_Ints (a section
        ends at the first line back at its key's indentation that is not one of its items). The
        walk starts at the first section's line (`_SECTION_LINE`): nothing before it counts."""
        body = self.body
        nl = body.find("\n")
        first = 0 if (body if nl < 0 else body[:nl]).strip() in _SECTIONS else -1
        if first < 0:
            m = _SECTION_LINE.search(body)
            if m is None:
                return []
            first = body.count("\n", 0, m.start() + 1)
        lines = self.lines()
        out: list[Property] = []
        section, indent = "", 0
        for i in range(first, len(lines)):
            line = lines[i]
            s = line.strip()
            if s in _SECTIONS:
                section, indent = _SECTIONS[s], len(line) - len(line.lstrip(" "))
                continue
            if not section or not s:
                continue
            lead = len(line) - len(line.lstrip(" "))
            if lead < indent or (lead == indent and not s.startswith("- ")):
                section = ""
                continue
            m = _ITEM_KEY.match(s) if s.startswith("- ") else None
            if not m:
                continue
            name, value, after = m.group(1).strip(), (m.group(2) or "").strip(), i + 1
            if name == "first":  # Unity 5's form: `- first:`, `name: _Color`, `second: {r: 1, ...}`
                name, value, after = first_second(lines, i, value)
            if section == "texture":
                tex = next((t for t in lines[after : after + 2] if "m_Texture:" in t), "")
                rm = REF.search(tex)
                value = f"guid:{rm.group(2).lower()}" if rm and rm.group(2) else "None"
            out.append(_new(Property, (section, name, value, i)))
        return out

    def function_names(self) -> list[Named]:
        out: list[Named] = []
        for i, line in enumerate(self.lines()):
            s = line.strip()
            if s.startswith("functionName:"):
                out.append(Named(unquote(s[len("functionName:") :]), i))
        return out


def _scalars(item: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """An entry's values written on their key's line, as NodeDoc.entries keeps its scalars."""
    return tuple((k, v) for k, v in item.items() if v and v[0] not in "{[")
