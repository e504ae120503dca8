"""The ShaderLab side of the shader scanner: a token walk over a `.shader` with its program blocks
blanked, finding the shader, subshaders, passes, properties, tags and references.

Why a walk and not a grammar: ShaderLab is small and forgiving; a keyword followed by `{` opens a
block, a few keywords take string arguments, everything else is skipped. Each keyword has one
handler that returns the index of the next token to look at.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

from indexer.model import Ref, Symbol
from indexer.shown import name_shown

# ShaderLab tokens the walk needs; other punctuation (parentheses, commas) is skipped
_SL_TOKEN = re.compile(r'"[^"\n]*"?|[A-Za-z_][A-Za-z0-9_]*|[-+]?\d[\w.]*|[{}=]')
_PROP = re.compile(
    r"((?:\[[^\[\]]*\]\s*)*)"  # attributes
    r"([A-Za-z_]\w*)\s*\(\s*(\"[^\"\n]*\")\s*,\s*([A-Za-z0-9_]+(?:\s*\([^()]*\))?)\s*\)\s*=\s*"
    r"(\([^()]*\)|\"[^\"\n]*\"(?:\s*\{[^{}]*\})?|[^\s\[\]{}]+)"
)
_ATTR = re.compile(r"\[([^\[\]]*)\]")
_TAG = re.compile(r'("[^"\n]*")\s*=\s*("[^"\n]*")')
WS = re.compile(r"\s+")


def collapse(s: str) -> str:
    return WS.sub(" ", s).strip()


def blank(s: str) -> str:
    """Same-length filler that keeps the newlines (so lines do not move)."""
    return "\n".join(" " * len(part) for part in s.split("\n"))


class Text:
    """The decoded text and offset -> line."""

    def __init__(self, text: str) -> None:
        self.text = text
        nl: list[int] = []
        i = text.find("\n")
        while i >= 0:
            nl.append(i)
            i = text.find("\n", i + 1)
        self._nl = nl

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self._nl, offset - 1) + 1 if offset > 0 else 1


class ShaderLab:
    """A token walk over ShaderLab with program blocks blanked: blocks, properties, tags and references."""

    def __init__(self, t: Text, sl: str, problems: list[str]) -> None:
        self.t = t
        self.sl = sl
        self.problems = problems
        self.toks = [(m.start(), m.group(0)) for m in _SL_TOKEN.finditer(sl)]
        self.found: list[tuple[int, Symbol]] = []
        self.refs: list[Ref] = []
        self.shader_name = ""
        # open blocks: (kind, offset of the keyword, fields) with kind shader/subshader/pass/grabpass/block
        self.stack: list[tuple[str, int, dict[str, str]]] = []

    def _str(self, k: int) -> str | None:
        """Contents of the string token k from the original text, or None if k is not a string."""
        if k >= len(self.toks) or not self.toks[k][1].startswith('"'):
            return None
        off, tok = self.toks[k]
        closed = len(tok) >= 2 and tok.endswith('"')
        return self.t.text[off + 1 : off + len(tok) - (1 if closed else 0)]

    def _tok(self, k: int) -> str:
        return self.toks[k][1] if k < len(self.toks) else ""

    def _match(self, k: int) -> int:
        """Index of the token closing the '{' at k (the last token if it is never closed)."""
        depth = 0
        for j in range(k, len(self.toks)):
            tok = self.toks[j][1]
            if tok == "{":
                depth += 1
            elif tok == "}":
                depth -= 1
                if depth == 0:
                    return j
        self.problems.append(f"unclosed '{{' at line {self.t.line(self.toks[k][0])}")
        return len(self.toks)

    def _end_of(self, close: int) -> int:
        return self.toks[close][0] if close < len(self.toks) else len(self.sl)

    def _owner(self, *kinds: str) -> dict[str, str] | None:
        for kind, _, fields in reversed(self.stack):
            if kind in kinds:
                return fields
            if kind != "block":
                return None
        return None

    def _ref(self, kind: str, target: str, k: int, context: str, detail: str = "") -> None:
        self.refs.append(Ref(kind, target, self.t.line(self.toks[k][0]), context=context, detail=detail))

    def run(self) -> None:
        i = 0
        while i < len(self.toks):
            i = self._step(i)
        while self.stack:
            kind, off, fields = self.stack.pop()
            if kind != "block":
                self.problems.append(f"unclosed '{{' at line {self.t.line(off)}")
            self._close(kind, off, fields, len(self.sl))

    def _step(self, i: int) -> int:
        """Handle the token at i; the index of the next token to look at."""
        off, tok = self.toks[i]
        if tok == "{":
            self.stack.append(("block", off, {}))
        elif tok == "}":
            if self.stack:
                self._close(*self.stack.pop(), off)
            else:
                self.problems.append(f"unbalanced '}}' at line {self.t.line(off)}")
        else:
            handler = _KEYWORDS.get(tok.lower())
            nxt = handler(self, i) if handler is not None else None
            if nxt is not None:
                return nxt
        return i + 1

    # -- keyword handlers: the next index, or None to move on by one token ----------------------

    def _shader(self, i: int) -> int | None:
        name = self._str(i + 1)
        if self.stack or name is None:
            return None
        off = self.toks[i][0]
        name = self.shader_name = name_shown(name)  # the container of every member: cut once
        if self._tok(i + 2) == "{":
            self.stack.append(("shader", off, {"name": name}))
            return i + 3
        self._close("shader", off, {"name": name}, off)
        return i + 2

    def _properties_block(self, i: int) -> int | None:
        if self._tok(i + 1) != "{":
            return None
        close = self._match(i + 1)
        self._properties(self.toks[i + 1][0] + 1, self._end_of(close))
        return close + 1

    def _block(self, i: int) -> int | None:
        if self._tok(i + 1) != "{":
            return None
        low = self.toks[i][1].lower()
        self.stack.append((low if low != "category" else "block", self.toks[i][0], {}))
        return i + 2

    def _tags_block(self, i: int) -> int | None:
        if self._tok(i + 1) != "{":
            return None
        close = self._match(i + 1)
        owner = self._owner("pass", "subshader")
        if owner is not None:
            owner["tags"] = self._tags(self.toks[i + 1][0] + 1, self._end_of(close))
        return close + 1

    def _name(self, i: int) -> int | None:
        name = self._str(i + 1)
        if name is None:
            return None
        owner = self._owner("pass")
        if owner is not None:
            owner["name"] = name_shown(name)
        return i + 2

    def _lod(self, i: int) -> int | None:
        nxt = self._tok(i + 1)
        owner = self._owner("subshader") if nxt[:1].isdigit() else None
        if owner is not None:
            owner["lod"] = nxt
        return None

    def _usepass(self, i: int) -> int | None:
        target = self._str(i + 1)
        if target is None:
            return None
        self._ref("shader", target, i, "usepass")
        return i + 2

    def _fallback(self, i: int) -> int | None:
        target = self._str(i + 1)
        if target and target.lower() != "off":  # `Fallback Off` / `Fallback "Off"`: no fallback
            self._ref("shader", target, i, "fallback")
        return i + 2

    def _custom_editor(self, i: int) -> int | None:
        cls = self._str(i + 1)
        if cls is None:
            return None
        pipeline = self._str(i + 2) if self.toks[i][1].lower() == "customeditorforrenderpipeline" else None
        self._ref("type", cls, i, "custom_editor", pipeline or "")
        return i + 3 if pipeline is not None else i + 2

    def _dependency(self, i: int) -> int | None:
        dep = self._str(i + 1)
        if dep is None or self._tok(i + 2) != "=":
            return None
        target = self._str(i + 3)
        if target:
            self._ref("shader", target, i, "dependency", dep)
        return i + 4

    # -- blocks --------------------------------------------------------------------------------

    def _close(self, kind: str, off: int, fields: dict[str, str], end: int) -> None:
        if kind == "block":
            return
        line, end_line = self.t.line(off), self.t.line(end)
        if kind == "shader":
            self.found.append((off, Symbol("shader", fields["name"], line, end_line=end_line)))
            return
        tags = fields.get("tags", "")
        container = self.shader_name
        if kind == "subshader":
            detail = " ".join(x for x in (tags, f"LOD={fields['lod']}" if "lod" in fields else "") if x)
            self.found.append(
                (off, Symbol("subshader", "", line, end_line=end_line, container=container, detail=detail))
            )
        elif kind == "pass":
            sym = Symbol("pass", fields.get("name", ""), line, end_line=end_line, container=container, detail=tags)
            self.found.append((off, sym))
        elif kind == "grabpass":
            k = bisect.bisect_right(self.toks, (off, "\uffff"))  # first token after the keyword
            texture = self._str(k + 1) if self._tok(k) == "{" else None
            detail = f"GrabPass {texture}" if texture else "GrabPass"
            self.found.append((off, Symbol("pass", "", line, end_line=end_line, container=container, detail=detail)))

    def _tags(self, start: int, end: int) -> str:
        text = self.t.text
        pairs = []
        for m in _TAG.finditer(self.sl, start, end):
            key = text[m.start(1) + 1 : m.end(1) - 1]
            value = text[m.start(2) + 1 : m.end(2) - 1]
            pairs.append(f"{key}={value}")
        return " ".join(pairs)

    def _properties(self, start: int, end: int) -> None:
        text = self.t.text
        for m in _PROP.finditer(self.sl, start, end):
            attrs = tuple(collapse(a.group(1)) for a in _ATTR.finditer(text, m.start(1), m.end(1)))
            sym = Symbol(
                "shader_property",
                m.group(2),
                self.t.line(m.start(2)),
                container=self.shader_name,
                signature=collapse(text[m.start(2) : m.end()]),
                type=WS.sub("", m.group(4)),
                attributes=attrs,
                detail=text[m.start(3) + 1 : m.end(3) - 1],
            )
            self.found.append((m.start(2), sym))


_KEYWORDS: dict[str, Callable[[ShaderLab, int], int | None]] = {
    "shader": ShaderLab._shader,
    "properties": ShaderLab._properties_block,
    "subshader": ShaderLab._block,
    "pass": ShaderLab._block,
    "grabpass": ShaderLab._block,
    "category": ShaderLab._block,
    "tags": ShaderLab._tags_block,
    "name": ShaderLab._name,
    "lod": ShaderLab._lod,
    "usepass": ShaderLab._usepass,
    "fallback": ShaderLab._fallback,
    "customeditor": ShaderLab._custom_editor,
    "customeditorforrenderpipeline": ShaderLab._custom_editor,
    "dependency": ShaderLab._dependency,
}
