"""Reading Unity YAML a line at a time: scalars, the key a line belongs to, values Unity wraps
onto the next lines.

Shared by `yaml_reader.TextDoc`; every helper is linear in the lines it looks at.
"""

from __future__ import annotations

import re

REF = re.compile(r"\{fileID: (-?\d+)(?:, guid: ([0-9A-Fa-f]{32}))?(?:, type: -?\d+)?\}")
KEY = re.compile(r"^( *)(- )?([^\s:#'\"{\[][^:]*?|'[^']*'|\"[^\"]*\"|):(?: (.*))?$")


# A double-quoted scalar's escapes, as YAML reads them (`\xA9` is ©, which JSON has no escape for)
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)", re.S)
_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPED = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r",
    "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}  # fmt: skip


def unquote(value: str) -> str:
    v = value.strip()
    if v[:1] not in ("'", '"'):  # (most values: plain)
        return v
    if len(v) >= 2 and v[0] == v[-1] == "'":
        return v[1:-1].replace("''", "'")
    if len(v) >= 2 and v[0] == v[-1] == '"':
        body = v[1:-1]
        return unescape(body) if "\\" in body else body
    return v


def unescape(text: str) -> str:
    """A double-quoted scalar's text with its escapes read; an unknown escape is kept as written.
    A UTF-16 pair (`\ud83d\ude00`, how Unity writes an emoji) is one character, a lone half U+FFFD."""
    out = _ESCAPE.sub(_escaped, text)
    if _SURROGATE.search(out):
        out = out.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return out


def _escaped(m: re.Match[str]) -> str:
    code = m.group(1)
    if len(code) > 1:
        return chr(int(code[1:], 16))
    return _ESCAPED.get(code, m.group(0))


def indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def line_indexes(body: str, matches: list[re.Match[str]]) -> list[int]:
    """The line index of each match (in order), counting line breaks once over the body."""
    out: list[int] = []
    line = pos = 0
    for m in matches:
        line += body.count("\n", pos, m.start())
        pos = m.start()
        out.append(line)
    return out


class Owners:
    """`yaml_guids.owner_above` for many lines of one document: the walk up jumps from a line to the nearest
    line above with a smaller indentation, or (from a list item) with the same indentation and not
    an item, both found for every line in one pass, so a long list of GUIDs is not quadratic."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.item = [line.lstrip().startswith("- ") for line in lines]
        self.above: list[int] = []  # nearest line above with a smaller indentation, -1 if none
        self.beside: list[int] = []  # nearest line above with the same indentation, not an item
        stack: list[int] = []
        last_plain: dict[int, int] = {}
        leads = [indent_of(line) for line in lines]
        for j, lead in enumerate(leads):
            while stack and leads[stack[-1]] >= lead:
                stack.pop()
            self.above.append(stack[-1] if stack else -1)
            self.beside.append(last_plain.get(lead, -1))
            stack.append(j)
            if not self.item[j]:
                last_plain[lead] = j

    def key(self, idx: int) -> str:
        m = KEY.match(self.lines[idx])
        if m and m.group(3) and m.group(4) is not None and "{" in (m.group(4) or ""):
            return unquote(m.group(3))
        item = self.item[idx]
        cur = idx
        while True:
            cur = max(self.above[cur], self.beside[cur] if item else -1)
            if cur < 0:
                return ""
            m = KEY.match(self.lines[cur])
            if m and m.group(3):
                return unquote(m.group(3))


def unwrapped(value: str, lines: list[str], j: int, lead: int, end: int | None = None) -> tuple[str, int]:
    """A plain scalar starting a line indented `lead`, with the deeper-indented lines from `j`
    (up to `end`) that Unity wrapped it onto joined back; and the index after them."""
    end = len(lines) if end is None else end
    if not value or value.startswith(("'", '"', "{", "[", "|", ">", "&", "*", "!")):
        return value, j
    while j < end:
        t = lines[j].strip()
        if not t or indent_of(lines[j]) <= lead or t.startswith("- ") or KEY.match("  " + t):
            break
        value = f"{value} {t}"
        j += 1
    return value, j


def override_target(body: str, at: int) -> str:
    """The fileID of the object an override changes: its list item's `- target:` line, the last
    one before the override's `propertyPath:` line (starting at `at`)."""
    i = body.rfind("target: {", 0, at)
    m = REF.match(body, i + len("target: ")) if i >= 0 else None
    return m.group(1) if m else ""


_REMOVED = re.compile(r"^ *m_RemovedComponents:\n((?: *- \{[^\n]*\n)*)", re.M)
_REMOVED_ITEM = re.compile(r"- \{fileID: (-?\d+), guid: ([0-9a-fA-F]{32})")


def removed_components(body: str) -> list[tuple[str, str]]:
    """(fileID, GUID) of each component a prefab instance's `m_RemovedComponents` lists (wrapped
    flow mappings already joined), in a PrefabInstance document's body."""
    removed = _REMOVED.search(body) if "m_RemovedComponents:\n" in body else None
    return [(f, g.lower()) for f, g in _REMOVED_ITEM.findall(removed[1])] if removed else []


def first_second(lines: list[str], i: int, inline: str) -> tuple[str, str, int]:
    """A material property as Unity 5 wrote it, from its `- first:` line `i`: (its name, the value
    of `second:`, the line after `second:`, where a texture's `m_Texture:` follows). The name is on
    the next line (`name: _Color`) or inline (`- first: {name: _Color}`)."""
    name, at = "", i + 1
    if inline.startswith("{") and "name:" in inline:
        name = inline.strip("{}").split("name:", 1)[1].split(",")[0].strip()
    elif at < len(lines) and lines[at].strip().startswith("name:"):
        name, at = lines[at].strip()[5:].strip(), at + 1
    value = ""
    if at < len(lines) and lines[at].strip().startswith("second:"):
        value, at = lines[at].strip()[7:].strip(), at + 1
    return unquote(name), value, at
