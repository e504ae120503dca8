"""The declarations-only copy of a broken C# file: a small lexer finds the code and blanks it.

Why: tree-sitter-c-sharp lets an ERROR inside a method body swallow the declarations around it.
Blanking the insides of bodies, initializers and expression bodies (newlines and byte offsets
kept) gives a copy whose declarations parse. Strings of every kind, chars, comments and
preprocessor lines are single tokens here, so their braces never count. One pass, linear in the
file: each token is looked at once and indentation is read from the line start the lexer tracks.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from typing import NamedTuple

import msgspec

# One token per match. `sx` only matches a string's opening quote; `_skip_string` finds its end.
_TOKEN = re.compile(
    rb"""
    (?P<ws>\s+)
  | (?P<cm>//[^\n]*|/\*.*?(?:\*/|\Z))
  | (?P<pp>\#[^\n]*)
  | (?P<sx>[$@]*")
  | (?P<ch>'(?:[^'\\\n]|\\.)*'?)
  | (?P<id>@?[A-Za-z0-9_\x80-\xff]+)
  | (?P<op>=>|==|<<=|>>=|\?\?=|[-+*/%&|^!<>]=)
  | (?P<p>.)
    """,
    re.S | re.X,
)
_REGULAR_STRING = re.compile(rb'(?:[^"\\\n]|\\.)*"?', re.S)
_VERBATIM_STRING = re.compile(rb'(?:[^"]|"")*"?')
_INTERPOLATED = re.compile(rb'(?:[^"\\\n{}]|\\.|\{\{|\}\})*', re.S)
_INTERPOLATED_VERBATIM = re.compile(rb'(?:[^"{}]|""|\{\{|\}\})*')
_PP_WORD = re.compile(rb"#[ \t]*(\w*)")
# Inside a code block only braces, and the tokens that can hide one, count: a run of bytes that
# starts none of them (no brace, quote, comment, directive or string prefix) is passed over unlexed.
_CODE_RUN = re.compile(rb"[^{}\"'/#$@]*")
_LEAD = re.compile(rb"[ \t]*")
# Words that may precede a `(` that opens a tuple type rather than a parameter list.
_MODIFIER_WORDS = frozenset(
    b"public private protected internal static readonly const volatile unsafe extern override virtual abstract "
    b"sealed new async partial ref required file fixed scoped event".split()
)
_TYPE_WORDS = frozenset((b"class", b"struct", b"interface", b"enum", b"namespace"))
_BRACES = frozenset((b"{", b"}"))
_BLANK = bytes(b if b in (10, 13) else 32 for b in range(256))
_DECL, _ACCESSORS, _CODE = 0, 1, 2  # frame kinds: type/namespace body, accessor list, code block


class Token(msgspec.Struct, gc=False):
    """One lexical unit: `kind` is the regex group (ws, cm, pp, sx for a whole string, ch, id, op, p).
    A msgspec Struct: made for every token, it costs a third of a NamedTuple to build."""

    kind: str
    start: int
    end: int
    text: bytes  # the token's bytes; a string literal is b'"'
    line_start: int  # byte where the line holding `start` begins (whitespace: where the next line begins)


class Frame(NamedTuple):
    """An open `{`: what it opens, where, the indentation of its header, whether closing it resets
    the header (a body ends a declaration; an initializer's braces do not)."""

    kind: int
    brace: int
    indent: int
    reset: bool


def tokens(data: bytes, skip: _BodyFinder | None = None) -> Iterator[Token]:
    """The tokens of `data` in order, strings as one token each. Comments and whitespace without
    a newline are left out; a whitespace token's `line_start` is the line after its last newline.

    With `skip`, while it is inside a code block (`code_at` >= 0) the runs of `_CODE_RUN` make no
    tokens: identifiers, operators and whitespace there change nothing when bodies are not cut by
    indentation. Every byte `_CODE_RUN` stops at starts a token of the full lexing too (no token
    holds one of those bytes other than first, except the comments, strings, chars and directives
    that start with one and are lexed whole), so the tokens that are made are the same."""
    pos, size, match, run = 0, len(data), _TOKEN.match, _CODE_RUN.match
    line_start = 0
    while pos < size:
        if skip is not None and skip.code_at >= 0:
            start, pos = pos, run(data, pos).end()
            nl = data.rfind(b"\n", start, pos)
            if nl >= 0:
                line_start = nl + 1
            if pos >= size:
                break
        m = match(data, pos)
        kind, start, pos = m.lastgroup or "p", pos, m.end()
        if kind == "ws" or kind == "cm":
            nl = data.rfind(b"\n", start, pos)
            if nl >= 0:
                line_start = nl + 1
                if kind == "ws":
                    yield Token(kind, start, pos, b"", line_start)
            continue
        if kind == "sx":
            pos = _skip_string(data, start, pos)
            yield Token(kind, start, pos, b'"', line_start)
        else:
            yield Token(kind, start, pos, data[start:pos], line_start)
        if kind == "sx" or kind == "ch":
            nl = data.rfind(b"\n", start, pos)
            if nl >= 0:
                line_start = nl + 1


def _skip_string(data: bytes, start: int, pos: int) -> int:
    """End of the string literal whose prefix and opening quote are data[start:pos]. Interpolated
    strings nest (a hole holds strings that hold holes): what is open is kept on a stack, a string's
    text pattern or a hole's bracket depth, not in Python's own stack (recursion ran out of it on
    strings nested a few hundred deep)."""
    pos, text = _string_start(data, start, pos)
    open_: list[re.Pattern[bytes] | int] = [] if text is None else [text]
    end = len(data)
    while open_ and pos < end:
        top = open_[-1]
        if not isinstance(top, int):  # in an interpolated string's text
            pos = top.match(data, pos).end()
            c = data[pos] if pos < end else 0
            if c == 0x7B:
                open_.append(0)  # a hole
            elif c != 0x7D:  # its closing quote, or a newline that ends a broken regular string
                open_.pop()
                pos += c == 0x22
                continue
            pos += 1
            continue
        m = _TOKEN.match(data, pos)  # in a hole
        kind, token, pos = m.lastgroup, pos, m.end()
        if kind == "sx":
            pos, text = _string_start(data, token, pos)
            if text is not None:
                open_.append(text)
        elif kind == "p":
            c = data[token]
            if c in b"({[":
                open_[-1] = top + 1
            elif c in b")]" or (c == 0x7D and top):
                open_[-1] = top - 1
            elif c == 0x7D:
                open_.pop()
            elif c == 0x3A and top == 0 and data[pos : pos + 1] != b":" and data[token - 1 : token] != b":":
                close = data.find(b"}", pos)  # a format spec after `:` is text
                pos = end if close < 0 else close + 1
                open_.pop()
    return min(pos, end)


def _string_start(data: bytes, start: int, pos: int) -> tuple[int, re.Pattern[bytes] | None]:
    """(end of the literal, None) for a string read in one step; (pos, the pattern of its text) for
    an interpolated string, whose holes `_skip_string` walks."""
    prefix = data[start : pos - 1]
    verbatim = b"@" in prefix
    if not verbatim and data.startswith(b'"', pos):
        end = pos
        while end < len(data) and data[end] == 0x22:
            end += 1
        count = end - pos + 1
        if count < 3:
            return pos + 1, None  # ""
        close = data.find(b'"' * count, end)  # raw string: opaque up to the same run of quotes
        return (len(data) if close < 0 else close + count), None
    if b"$" not in prefix:
        return (_VERBATIM_STRING if verbatim else _REGULAR_STRING).match(data, pos).end(), None
    return pos, _INTERPOLATED_VERBATIM if verbatim else _INTERPOLATED


def _indent(data: bytes, line_start: int, byte: int) -> int:
    """Indentation width of the line starting at `line_start` up to `byte` (a tab counts 4)."""
    lead = _LEAD.match(data, line_start, byte).group()
    return lead.count(b" ") + 4 * lead.count(b"\t")


class _Header:
    """What the tokens since the last `;`, `{` or `}` outside code blocks say about the next `{`."""

    __slots__ = (
        "arrow", "eq", "line_start", "operator", "param", "paren", "prev", "prev_word", "seen_paren", "start", "type",
    )  # fmt: skip

    def __init__(self) -> None:
        self.start = -1  # first token
        self.line_start = 0  # start of the line holding the first token
        self.arrow = -1  # end of a `=>` that starts an expression body
        self.paren = 0  # depth of ( and [
        self.eq = False  # `=` or `=>` seen: an initializer or expression body follows
        self.type = False  # class/struct/interface/enum/namespace/record before any `(`: a type body follows
        self.param = False  # a parameter list seen: a method-like body follows
        self.operator = False
        self.seen_paren = False
        self.prev = b""
        self.prev_word = False

    def add(self, tok: Token) -> None:
        """Take one token of a declaration header (not `{`, `}` or `;`)."""
        text = tok.text
        if self.start < 0:
            self.start, self.line_start = tok.start, tok.line_start
        if text == b"(" or text == b"[":
            if self.paren == 0 and text == b"(":
                if self.operator or self.prev == b">" or (self.prev_word and self.prev not in _MODIFIER_WORDS):
                    self.param = not self.type
                self.seen_paren = True
            self.paren += 1
        elif text == b")" or text == b"]":
            self.paren = max(self.paren - 1, 0)
        elif self.paren == 0:
            if text == b"=>" and not self.eq:
                self.arrow = tok.end
            if text == b"=" or text == b"=>":
                self.eq = True
            elif tok.kind == "id" and not self.seen_paren:
                if text in _TYPE_WORDS or self.prev == b"record":
                    self.type = True
                elif text == b"operator":
                    self.operator = True
        self.prev, self.prev_word = text, tok.kind == "id"


_NAMESPACE_WORD = re.compile(rb"\bnamespace\b")
_NOTHING = re.compile(rb"(?:\s|//[^\n]*|/\*(?s:.)*?\*/)*")  # white space and comments


class _Conditional(NamedTuple):
    group: int
    at_if: list[Frame]  # the block stack at `#if`
    after_first: list[list[Frame]]  # [] or [the stack after the first branch]
    opened: list[int]  # per branch so far: the `{` of the one type body it opened, else -1
    spans: list[tuple[int, int]]  # its directives


class _BodyFinder:
    """State of one pass of `code_bodies`; `feed` takes the tokens in order."""

    def __init__(self, data: bytes, cut: bool) -> None:
        self.data = data
        self.cut = cut
        self.ranges: list[tuple[int, int, bytes]] = []
        self.directives: list[tuple[int, int, int]] = []
        self.stack: list[Frame] = []
        self.code_at = -1  # index of the outermost code frame in `stack`
        self.conditionals: list[_Conditional] = []
        self.regions: list[int] = []
        self.groups = 0
        self.balanced = True
        self.newline = True
        self.line_start = 0  # start of the line after the last whitespace newline
        self.h = _Header()

    def feed(self, tok: Token) -> None:
        kind = tok.kind
        if kind == "ws":
            self.newline, self.line_start = True, tok.line_start
        elif kind == "pp":
            self.directive(tok)
        else:
            first, self.newline = self.newline, False
            if self.code_at >= 0:
                if tok.text not in _BRACES and not (first and self.cut):
                    return  # the bulk of a body: nothing to track
                if self.in_code(tok, first):
                    return
            self.declaration_token(tok)

    def directive(self, tok: Token) -> None:
        """`#if` branches are lexed like the compiler sees one: `#else`/`#elif` restore the stack of
        the `#if`, `#endif` keeps the first branch's."""
        word = _PP_WORD.match(self.data, tok.start).group(1)
        group = 0
        if word == b"if":
            self.groups += 1
            group = self.groups
            self.conditionals.append(_Conditional(group, list(self.stack), [], [], [(tok.start, tok.end)]))
        elif word in (b"elif", b"else", b"endif") and self.conditionals:
            top = self.conditionals[-1]
            group = top.group
            top.spans.append((tok.start, tok.end))
            self.note_type_opener(top)
            if word == b"endif":
                self.conditionals.pop()
                if top.after_first:
                    self.stack = top.after_first[0]
                self.one_type_header(top)
            else:
                if not top.after_first:
                    top.after_first.append(list(self.stack))
                self.stack = list(top.at_if)
            self.code_at = next((i for i, f in enumerate(self.stack) if f.kind == _CODE), -1)
        elif word == b"region":
            self.groups += 1
            group = self.groups
            self.regions.append(group)
        elif word == b"endregion" and self.regions:
            group = self.regions.pop()
        self.directives.append((tok.start, tok.end, group))

    def note_type_opener(self, top: _Conditional) -> None:
        """At the end of an `#if` branch: whether it opened one type body (`class A : Editor {`)."""
        stack, at_if = self.stack, top.at_if
        one = len(stack) == len(at_if) + 1 and stack[-1].kind == _DECL and stack[:-1] == at_if
        # (not a namespace: `namespace A;` would be a file-scoped one, holding the next)
        one = one and not _NAMESPACE_WORD.search(self.data, top.spans[-2][1], stack[-1].brace)
        top.opened.append(stack[-1].brace if one else -1)

    def one_type_header(self, top: _Conditional) -> None:
        """When every branch of an `#if` opened one type body, each wrote the same type's header.
        tree-sitter reads `#if` groups as nodes of their own: a `{` in each branch nested the
        second header, and what followed, in the first's type, and inside a block namespace or a
        type the group's ERROR took the namespace's name. In the copy the group's directives are
        blanked and, when the branches hold nothing but their headers, the earlier branches' `{`
        become `;` (headers without a body, merged with the last as `#if` duplicates are, bases
        unioned), so the parse reads the headers one after the other and one body; else the later
        headers are blanked and the first's body holds every branch's members."""
        braces, spans = top.opened, top.spans
        if len(braces) < 2 or min(braces) < 0:
            return
        self.ranges.extend((start, end, b"") for start, end in spans)
        if all(_NOTHING.fullmatch(self.data, b + 1, spans[k + 1][0]) for k, b in enumerate(braces[:-1])):
            self.ranges.extend((b, b + 1, b";") for b in braces[:-1])
        else:
            self.ranges.extend((spans[k][1], b + 1, b"") for k, b in enumerate(braces) if k)

    def in_code(self, tok: Token, first: bool) -> bool:
        """Track braces inside a code block; False when the block was cut off before `tok`."""
        if self.cut and first:
            frame = self.stack[self.code_at]
            indent = _indent(self.data, tok.line_start, tok.start)
            if indent < frame.indent or (indent == frame.indent and tok.text != b"}"):
                self.ranges.append((frame.brace + 1, self.line_start, b"}"))
                del self.stack[self.code_at :]
                self.code_at = -1
                self.h = _Header()
                return False
        if tok.text == b"{":
            self.stack.append(Frame(_CODE, tok.start, 0, False))
        elif tok.text == b"}":
            frame = self.stack.pop()
            if len(self.stack) == self.code_at:
                self.ranges.append((frame.brace + 1, tok.start, b""))
                self.code_at = -1
                if frame.reset:
                    self.h = _Header()
        return True

    def declaration_token(self, tok: Token) -> None:
        text = tok.text
        if text == b"{":
            if not self.open_brace(tok):
                return
        elif text == b"}":
            if self.stack:
                self.stack.pop()
            else:
                self.balanced = False
        elif text != b";":
            self.h.add(tok)
            return
        elif self.h.arrow >= 0:
            self.ranges.append((self.h.arrow, tok.start, b"0"))  # `=> expression;` of a member or accessor
        self.h = _Header()

    def open_brace(self, tok: Token) -> bool:
        """Push the frame a `{` opens; False when the header continues after it (initializers)."""
        h = self.h
        top = self.stack[-1].kind if self.stack else _DECL
        if top == _ACCESSORS or h.param or h.eq or h.paren:
            # An initializer's or attribute's braces do not end the declaration: keep the header.
            reset = top == _ACCESSORS or not (h.eq or h.paren)
            self.code_at = len(self.stack)
            indent = (
                _indent(self.data, h.line_start, h.start)
                if h.start >= 0
                else _indent(self.data, tok.line_start, tok.start)
            )
            self.stack.append(Frame(_CODE, tok.start, indent, reset))
            return reset
        self.stack.append(Frame(_DECL if h.type or h.start < 0 else _ACCESSORS, tok.start, 0, True))
        return True


def code_bodies(data: bytes, cut: bool) -> tuple[list[tuple[int, int, bytes]], list[tuple[int, int, int]], bool]:
    """Find the code to blank: (start, stop, fill) per outermost code block or expression body.

    A `{` opens a code block when it follows a parameter list (method, constructor, operator,
    local function: `(` after a name, then maybe constraints or a constructor initializer), sits in
    an accessor list (`get {`), or belongs to an initializer or expression (after `=` or `=>`, or
    inside attribute brackets); the range is its inside, fill b"". A header with
    class/struct/interface/enum/namespace or `record Name` opens a type body, any other header an
    accessor list. A member's or accessor's `=> expression;` is a range too, fill b"0" (a
    placeholder expression). `#if` branches are lexed like the compiler would see one of them:
    `#else`/`#elif` restore the block stack of the `#if`, `#endif` keeps the first branch's, so a
    header written twice in two branches opens one block.

    With `cut`, a block also ends before its first code line (comments and directives do not
    count) indented less than its header, or as much but not a `}` (the next member after a body
    that lost its `}`); fill b"}". Also returns the `#if`/`#region` directives as (start, end,
    group) and whether the braces balanced.
    """
    finder = _BodyFinder(data, cut)
    feed = finder.feed
    for tok in tokens(data, None if cut else finder):  # a cut needs each line's first token
        feed(tok)
    return finder.ranges, finder.directives, finder.balanced and not finder.stack


def declarations_only(data: bytes) -> tuple[bytes, list[tuple[int, int]]] | None:
    """`data` with the code found by `code_bodies` blanked (newlines kept, so lines and byte
    offsets stay exact), and the blanked (start, end) ranges; None when there is no code.

    Each range's fill byte goes to its first blanked column. When the braces do not balance, the
    ranges are computed again with the indentation cut. Directive lines inside a range are blank
    like the rest; an `#if`/`#region` group with lines both inside and outside a range (a body
    opened in one branch) loses its outside lines too, so the copy keeps one balanced branch.
    """
    ranges, directives, balanced = code_bodies(data, cut=False)
    if not balanced:
        ranges, directives, _ = code_bodies(data, cut=True)
    if not ranges:
        return None
    merged = _merge_ranges(ranges)
    buf = bytearray(data)
    for start, stop, fill in merged:
        buf[start:stop] = data[start:stop].translate(_BLANK)
        at = buf.find(b" ", start, stop) if fill else -1
        if at >= 0:
            buf[at] = fill[0]
        elif fill == b"}":
            buf[start - 1] = 0x3B  # no room for the `}`: `{` becomes `;`
    starts = [r[0] for r in merged]
    places: dict[int, set[int]] = {}
    for start, _, group in directives:
        at = bisect.bisect_right(starts, start) - 1
        places.setdefault(group, set()).add(at if at >= 0 and start < merged[at][1] else -1)
    for start, stop, group in directives:
        if group and len(places[group]) > 1:
            buf[start:stop] = data[start:stop].translate(_BLANK)
    return bytes(buf), [(r[0], r[1]) for r in merged]


def _merge_ranges(ranges: list[tuple[int, int, bytes]]) -> list[tuple[int, int, bytes]]:
    """Sorted ranges with overlapping ones joined (the first non-empty fill wins)."""
    merged: list[tuple[int, int, bytes]] = []
    for start, stop, fill in sorted(ranges):
        if merged and start <= merged[-1][1]:
            last = merged[-1]
            merged[-1] = (last[0], max(last[1], stop), last[2] or fill)
        elif start < stop or fill:
            merged.append((start, stop, fill))
    return merged
