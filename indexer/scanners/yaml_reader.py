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
import json
import re
from collections.abc import Callable

from .unity_classes import CLASS_NAMES
from .yaml_facts import (
    ARGUMENT_KEYS,
    MAX_FIELDS_PER_OBJECT,
    STANDARD_FIELDS,
    Call,
    Entry,
    Field,
    GuidUse,
    Modification,
    Named,
    Property,
    TypeUse,
    count_label,
    ref_shown,
    short,
)

HEADER = re.compile(r"^--- !u!(-?\d+) &(-?\d+)( stripped)?[^\n]*\n?", re.M)
WRAPPED_FLOW = re.compile(r"(\{[^{}\n]*,)[ \t]*\n[ \t]+")
REF = re.compile(r"\{fileID: (-?\d+)(?:, guid: ([0-9A-Fa-f]{32}))?(?:, type: -?\d+)?\}")
KEY = re.compile(r"^( *)(- )?([^\s:#'\"{\[][^:]*?|'[^']*'|\"[^\"]*\"|):(?: (.*))?$")
_GUID = re.compile(r"guid: ([0-9A-Fa-f]{32})")
_MANAGED_TYPE = re.compile(r"type: \{class: ([^,}]*), ns: ([^,}]*), asm: ([^}]*)\}")
_ITEM_KEY = re.compile(r"- ([^:]+):(?: (.*))?$")
_NAME_OVERRIDE = re.compile(r"propertyPath: m_Name\n\s+value: (.*)")
_ENTRY_KEY = re.compile(r"([^:]+):(?: (.*))?$")
_CALL_KEY = re.compile(r"(m_\w+):(?: (.*))?$")
_CALL_KEY_START = re.compile(r"\s*(m_\w+:|- )")
# What the line reader does not read: these documents go to the YAML parser (`yaml_nodes`). Each
# check is a regex run only when the text holds what it needs (single characters where possible:
# those searches run at several GB/s), so a file in the subset costs a few substring searches. A
# flow collection left open at a line end after joining shows as `{`, `[` or `,` ending a line
# (Unity wraps flows only after a comma).
_OUTSIDE: tuple[tuple[str, Callable[[str], bool], re.Pattern[str]], ...] = (
    ("anchor or alias", lambda t: "*" in t or ": &" in t or "- &" in t, re.compile(r"[:-] [&*]\S")),
    (
        "block scalar",
        lambda t: "|" in t or (">" in t and (": >" in t or "- >" in t)),
        re.compile(r"[:-] [|>][-+0-9]*[ \t]*$", re.M),
    ),
    (
        "multi-line flow collection",
        lambda t: ",\n" in t or "{\n" in t or "[\n" in t,
        re.compile(r"[{\[][^\n\]}]*\n"),
    ),
    (
        "multi-line quoted scalar",
        lambda t: "'" in t or '"' in t,
        re.compile(r"""[:-] (?:'(?:[^'\n]|'')*|"(?:[^"\\\n]|\\.)*\\?)\n"""),
    ),
)
_SECTIONS = {"m_TexEnvs:": "texture", "m_Floats:": "float", "m_Colors:": "color", "m_Ints:": "int"}


def unquote(value: str) -> str:
    v = value.strip()
    if len(v) >= 2 and v[0] == v[-1] == "'":
        return v[1:-1].replace("''", "'")
    if len(v) >= 2 and v[0] == v[-1] == '"':
        body = v[1:-1]
        if "\\" in body:
            try:
                return json.loads(f'"{body}"')
            except ValueError:
                return body
        return body
    return v


def _lead(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def join_wrapped_flows(text: str) -> tuple[str, list[int]]:
    """Long flow mappings wrapped after a comma, joined back onto one line; and, sorted, the
    (1-based) line of the joined text each removed line break ended, so lines map back."""
    if ",\n" not in text:
        return text, []
    parts: list[str] = []
    joins: list[int] = []
    pos = line = 0  # `line`: line breaks of the original text before `pos`
    for m in WRAPPED_FLOW.finditer(text):
        line += text.count("\n", pos, m.start())
        parts.append(text[pos : m.start()])
        parts.append(m.group(1) + " ")
        joins.append(line + 1 - len(joins))
        line += 1
        pos = m.end()
    parts.append(text[pos:])
    return "".join(parts), joins


def outside_subset(body: str) -> str:
    """Why a document body (wrapped flows joined) is not for the line reader, or "" if it is."""
    for reason, needed, pattern in _OUTSIDE:
        if needed(body) and pattern.search(body):
            return reason
    return ""


def outside_documents(text: str, docs: list[TextDoc]) -> dict[int, str]:
    """`outside_subset` for all documents of a file at once: index in `docs` -> reason. One search
    over the whole text per check, so a file in the subset costs no work per document."""
    found: dict[int, str] = {}
    starts = [d.offset for d in docs]
    for reason, needed, pattern in _OUTSIDE:
        if not needed(text):
            continue
        for m in pattern.finditer(text):
            at = bisect.bisect_right(starts, m.start()) - 1
            if at >= 0 and at not in found and outside_subset(docs[at].body) == reason:
                found[at] = reason
    return found


def split(text: str, joins: list[int] | None = None) -> list[TextDoc]:
    """The documents of a file, in order (text has `\n` line ends; `joins` from `join_wrapped_flows`)."""
    docs: list[TextDoc] = []
    matches = list(HEADER.finditer(text))
    line = 1 + text.count("\n", 0, matches[0].start()) if matches else 1
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        body = text[m.end() : end]
        doc = TextDoc(int(m.group(1)), int(m.group(2)), bool(m.group(3)), line, body, joins or [])
        doc.offset = m.end()
        docs.append(doc)
        line += 1 + body.count("\n")
    return docs


class TextDoc:
    """One document: header facts and its body, read by lines on demand."""

    __slots__ = (
        "_joins", "_lines", "_text_line", "body", "class_id", "class_name", "file_id", "line", "offset", "stripped",
    )  # fmt: skip

    def __init__(self, class_id: int, file_id: int, stripped: bool, line: int, body: str, joins: list[int]):
        self.class_id = class_id
        self.file_id = file_id
        self.stripped = stripped
        self._joins = joins
        self._text_line = line  # line of the `--- !u!` header in the joined text
        self.line = line + bisect.bisect_left(joins, line) if joins else line  # ... in the file
        self.body = body
        self.offset = 0  # where the body starts in the file's text
        self._lines: list[str] | None = None
        first = body.split("\n", 1)[0]
        self.class_name = first[:-1] if first.endswith(":") else CLASS_NAMES.get(class_id, f"Class{class_id}")

    def at(self, i: int) -> int:
        """File line of body line `i` (lines removed by joining wrapped flows counted back in)."""
        line = self._text_line + 1 + i
        return line + bisect.bisect_left(self._joins, line) if self._joins else line

    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.body.split("\n")
        return self._lines

    # -- single values -------------------------------------------------------------------------

    def top(self, key: str) -> str | None:
        """A top-level (indent 2) scalar, wrapped continuation lines joined; None if absent."""
        body = self.body
        marker = f"\n  {key}:"
        i = body.find(marker)
        if i < 0:
            return None
        start = i + len(marker)
        end = body.find("\n", start)
        end = len(body) if end < 0 else end
        value = body[start:end].strip()
        # plain or quoted scalars wrapped onto deeper-indented lines
        while end < len(body) and body.startswith("    ", end + 1):
            nxt_end = body.find("\n", end + 1)
            nxt_end = len(body) if nxt_end < 0 else nxt_end
            nxt = body[end + 1 : nxt_end].strip()
            if not value or nxt.startswith("- ") or (KEY.match("  " + nxt) and not value.startswith(("'", '"'))):
                break
            value = f"{value} {nxt}"
            end = nxt_end
        return unquote(value)

    def top_ref(self, key: str) -> tuple[int, str]:
        v = self.top(key)
        if not v:
            return 0, ""
        m = REF.match(v)
        return (int(m.group(1)), (m.group(2) or "").lower()) if m else (0, "")

    def first_ref(self, key: str) -> tuple[int, str]:
        """The first one-line reference written under `key` at any depth (`m_Modification:` or top level)."""
        m = re.search(rf"^ *{key}: (\{{[^}}\n]*\}})", self.body, re.M)
        r = REF.match(m.group(1)) if m else None
        return (int(r.group(1)), (r.group(2) or "").lower()) if r else (0, "")

    def instance_name(self) -> str:
        """The name a prefab instance shows: an `m_Name` override, else unknown here (empty)."""
        m = _NAME_OVERRIDE.search(self.body)
        return unquote(m.group(1)) if m else ""

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
                    lead = _lead(nxt)
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
        """Items of a block sequence of mappings: their m_Name and m_Type."""
        block = self.block(key)
        found: list[tuple[int, dict[str, str]]] = []
        if not block:
            return []
        item_indent = _lead(block[0][1])
        for idx, line in block:
            lead = _lead(line)
            s = line.strip()
            if lead == item_indent and s.startswith("- "):
                found.append((idx, {}))
                s = s[2:]
            elif lead != item_indent + 2 or not found:
                continue
            m = _ENTRY_KEY.match(s)
            if m:
                found[-1][1].setdefault(m.group(1), unquote(m.group(2) or ""))
        return [Entry(d.get("m_Name", ""), d.get("m_Type", ""), idx) for idx, d in found]

    def modifications(self) -> list[Modification]:
        out: list[Modification] = []
        lines = self.lines()
        for i, line in enumerate(lines):
            s = line.strip()
            if not s.startswith("propertyPath:"):
                continue
            value = guid = ""
            j, end = i + 1, min(i + 4, len(lines))
            while j < end:
                t = lines[j].strip()
                if t.startswith("value:"):
                    raw, after = _unwrapped(t[len("value:") :].strip(), lines, j + 1, _lead(lines[j]))
                    value = unquote(raw)
                    end = min(end + after - j - 1, len(lines))  # the wrapped lines do not count
                    j = after
                    continue
                if t.startswith("objectReference:"):
                    m = REF.search(t)
                    if m and m.group(2):
                        guid = m.group(2).lower()
                    break
                if t.startswith("- "):
                    break
                j += 1
            out.append(Modification(unquote(s[len("propertyPath:") :]), value, guid, i))
        return out

    def fields(self) -> list[Field]:
        """Top-level serialized fields of a script, each as a short value (at most MAX_FIELDS_PER_OBJECT)."""
        lines = self.lines()
        out: list[Field] = []
        i = 1
        while i < len(lines) and len(out) < MAX_FIELDS_PER_OBJECT:
            line = lines[i]
            m = KEY.match(line) if line.startswith("  ") and not line.startswith(("   ", "  - ")) else None
            if m and m.group(3) not in STANDARD_FIELDS and m.group(3) != "references":
                j = i + 1
                while j < len(lines) and (lines[j].startswith("   ") or lines[j].startswith("  - ")):
                    j += 1
                value, _ = _unwrapped((m.group(4) or "").strip(), lines, i + 1, 2, j)
                shown, local = _summarize(value, lines[i + 1 : j])
                out.append(Field(unquote(m.group(3)), shown, i, local))
                i = j
                continue
            i += 1
        return out

    def guid_uses(self) -> list[GuidUse]:
        body = self.body
        if "guid: " not in body:
            return []
        out: list[GuidUse] = []
        for m in _GUID.finditer(body):
            idx = body.count("\n", 0, m.start())
            out.append(GuidUse(m.group(1).lower(), _owner_key(self.lines(), idx), idx))
        return out

    def calls(self) -> list[Call]:
        if "m_PersistentCalls:" not in self.body:
            return []
        lines = self.lines()
        out: list[Call] = []
        for i, line in enumerate(lines):
            if line.strip() != "m_PersistentCalls:":
                continue
            indent = _lead(line)
            event = ""
            for back in range(i - 1, 0, -1):
                prev = lines[back]
                if _lead(prev) < indent and prev.strip():
                    m = KEY.match(prev)
                    event = unquote(m.group(3)) if m else ""
                    break
            out.extend(_calls(lines, i + 1, indent, event))
        return out

    def type_uses(self) -> list[TypeUse]:
        if "RefIds:" not in self.body:
            return []
        out: list[TypeUse] = []
        for m in _MANAGED_TYPE.finditer(self.body):
            out.append(TypeUse(m.group(1).strip(), m.group(2).strip(), self.body.count("\n", 0, m.start())))
        return out

    def properties(self) -> list[Property]:
        """Material properties: the items of m_TexEnvs, m_Floats, m_Colors and m_Ints (a section
        ends at the first line back at its key's indentation that is not one of its items)."""
        lines = self.lines()
        out: list[Property] = []
        section, indent = "", 0
        for i, line in enumerate(lines):
            s = line.strip()
            if s in _SECTIONS:
                section, indent = _SECTIONS[s], _lead(line)
                continue
            if section and s and (_lead(line) < indent or (_lead(line) == indent and not s.startswith("- "))):
                section = ""
            m = _ITEM_KEY.match(s) if section and s.startswith("- ") else None
            if not m:
                continue
            value = (m.group(2) or "").strip()
            if section == "texture":
                tex = next((t for t in lines[i + 1 : i + 3] if "m_Texture:" in t), "")
                rm = REF.search(tex)
                value = f"guid:{rm.group(2).lower()}" if rm and rm.group(2) else "None"
            out.append(Property(section, m.group(1).strip(), value, i))
        return out

    def function_names(self) -> list[Named]:
        out: list[Named] = []
        for i, line in enumerate(self.lines()):
            s = line.strip()
            if s.startswith("functionName:"):
                out.append(Named(unquote(s[len("functionName:") :]), i))
        return out


def _owner_key(lines: list[str], idx: int) -> str:
    """The mapping key a value on line `idx` belongs to: on that line, else the nearest key above
    with a smaller indentation (list items under `m_Materials:` belong to `m_Materials`)."""
    line = lines[idx]
    m = KEY.match(line)
    if m and m.group(3) and m.group(4) is not None and "{" in (m.group(4) or ""):
        return unquote(m.group(3))
    indent = _lead(line)
    item = line.lstrip().startswith("- ")
    for back in range(idx - 1, -1, -1):
        prev = lines[back]
        lead = _lead(prev)
        if lead < indent or (lead == indent and item and not prev.lstrip(" ").startswith("- ")):
            m = KEY.match(prev)
            if m and m.group(3):
                return unquote(m.group(3))
            indent = min(indent, lead)
    return ""


def _unwrapped(value: str, lines: list[str], j: int, lead: int, end: int | None = None) -> tuple[str, int]:
    """A plain scalar starting a line indented `lead`, with the deeper-indented lines from `j`
    (up to `end`) that Unity wrapped it onto joined back; and the index after them."""
    end = len(lines) if end is None else end
    if not value or value.startswith(("'", '"', "{", "[", "|", ">", "&", "*", "!")):
        return value, j
    while j < end:
        t = lines[j].strip()
        if not t or _lead(lines[j]) <= lead or t.startswith("- ") or KEY.match("  " + t):
            break
        value = f"{value} {t}"
        j += 1
    return value, j


def _summarize(value: str, nested: list[str]) -> tuple[str, int]:
    """A short, readable value: scalars as written, references as guid:/fileID:, blocks counted.
    Also the fileID when the value is a same-file reference (the scanner names the object)."""
    if value:
        if value.startswith("{"):
            m = REF.fullmatch(value)
            if m:
                shown = ref_shown(m.group(1), m.group(2) or "")
                return shown, int(m.group(1)) if shown.startswith("&") else 0
            return short(value), 0
        return ("[]" if value == "[]" else short(unquote(value))), 0
    if not nested:
        return '""', 0
    if any("m_PersistentCalls:" in n for n in nested[:2]):
        calls = sum(1 for n in nested if n.lstrip().startswith("- m_Target:"))
        return f"UnityEvent ({count_label(calls, 'call')})", 0
    first = nested[0]
    first_indent = _lead(first)
    if first.lstrip().startswith("- "):
        items = sum(1 for n in nested if n.startswith(" " * first_indent + "- "))
        return f"[{count_label(items, 'item')}]", 0
    keys = [
        unquote(m.group(3))
        for n in nested
        if _lead(n) == first_indent and not n.lstrip().startswith("- ") and (m := KEY.match(n)) and m.group(3)
    ]
    return short("{" + ", ".join(keys[:6]) + (", …" if len(keys) > 6 else "") + "}"), 0


def _call_fields(lines: list[str], j: int, item_indent: int) -> tuple[dict[str, str], int]:
    """The `m_*` values under a call item (any depth, first wins; wrapped plain scalars joined)
    and the index of the line after the item."""
    fields: dict[str, str] = {}
    while j < len(lines):
        nxt = lines[j]
        nl = _lead(nxt)
        if nxt.strip() and nl <= item_indent:
            break
        km = _CALL_KEY.match(nxt.strip())
        if km:
            key, value = km.group(1), (km.group(2) or "").strip()
            # a wrapped plain scalar continues on deeper lines without a key
            k = j + 1
            while value and k < len(lines) and not _CALL_KEY_START.match(lines[k]) and lines[k].strip():
                if _lead(lines[k]) <= nl:
                    break
                value += " " + lines[k].strip()
                k += 1
            fields.setdefault(key, value)
        j += 1
    return fields, j


def _calls(lines: list[str], start: int, indent: int, event: str) -> list[Call]:
    """Each persistent call under an `m_PersistentCalls:` at `indent`."""
    out: list[Call] = []
    i = start
    while i < len(lines):
        line = lines[i]
        lead = _lead(line)
        if line.strip() and lead <= indent:
            break
        if not line.strip().startswith("- m_Target:"):
            i += 1
            continue
        m = REF.search(line)
        fields, j = _call_fields(lines, i + 1, lead)
        type_name = unquote(fields.get("m_TargetAssemblyTypeName", "")).split(",", 1)[0].strip()
        mode = fields.get("m_Mode", "")
        arg = unquote(fields.get(ARGUMENT_KEYS[mode], "")) if mode in ARGUMENT_KEYS else ""
        if mode == "2":
            om = REF.search(fields.get("m_ObjectArgument", ""))
            arg = f"guid:{om.group(2).lower()}" if om and om.group(2) else ""
        method = unquote(fields.get("m_MethodName", ""))
        out.append(Call(event, int(m.group(1)) if m else 0, type_name, method, mode, arg, i))
        i = j
    return out
