"""The C# scanner's fast paths against the plain rules they replace, on varied and random input
(issue 16: the scanner got faster without changing a byte of its records).

Each reference below is the implementation the scanner had before; a fast path that disagrees with
it on any input fails here.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from indexer.model import Ref
from indexer.scanners import csharp, csharp_lexer, csharp_strings
from indexer.scanners.csharp_nodes import ENUM_MEMBER_STOP, HEADER_STOP, NodeText, Words
from indexer.scanners.csharp_query import engine, kind_ids
from indexer.scanners.csharp_strings import asset_literals

# ----- asset literals: one regex that also tells key-shaped literals ------------------------------

_LITERAL = re.compile(rb'"([^"\\\r\n]*+(?:\\.[^"\\\r\n]*+)*+)"')
_CHAR_QUOTE = re.compile(rb"'(?:\\)?\"'")
_KEY = re.compile(rb"[A-Za-z0-9_][A-Za-z0-9_ ./()&\-]*")
_LETTER = re.compile(rb"[A-Za-z]")


def _closing(data: bytes, i: int, quote: int) -> int | None:
    """Where the quote opened at `i` closes on its line (a backslash escapes), or None."""
    j = i + 1
    while j < len(data) and data[j] != 10:
        if data[j] == 92:
            j += 2
            continue
        if data[j] == quote:
            return j
        j += 1
    return None


def _comment_spans(data: bytes) -> list[tuple[int, int]]:
    """The comments, read byte by byte: strings, verbatim strings and char literals stepped over."""
    spans, i = [], 0
    while i < len(data):
        two = data[i : i + 2]
        if two in (b"//", b"/*"):
            end = data.find(b"\n" if two == b"//" else b"*/", i + 2)
            end = len(data) if end < 0 else end if two == b"//" else end + 2
            spans.append((i, end))
            i = end
            continue
        if two == b'@"':
            j = i + 2
            while j < len(data) and not (data[j] == 34 and data[j + 1 : j + 2] != b'"'):
                j += 2 if data[j] == 34 else 1
            if j < len(data):
                i = j + 1
                continue
        elif data[i] in (34, 39) or (two == b'$"'):
            at = i + 1 if two == b'$"' else i
            end = _closing(data, at, data[at])
            if end is not None:
                i = end + 1
                continue
        i += 1
    return spans


def _asset_literals_reference(data: bytes, most: int = 500) -> tuple[Ref, ...]:
    """Every literal by the plain literal regex, then the key rules one by one: none in a comment,
    context "call" after `(`, a call's line before a plain one."""
    if b"'\"'" in data or b"'\\\"'" in data:
        data = _CHAR_QUOTE.sub(b"'x'", data)
    comments = _comment_spans(data)
    seen: dict[str, tuple[int, str]] = {}
    line, at = 1, 0
    for m in _LITERAL.finditer(data):
        raw = m.group(1)
        if not 2 <= len(raw) <= 160 or not _KEY.fullmatch(raw) or not _LETTER.search(raw):
            continue
        if b" " in raw and b"/" not in raw:
            continue
        if any(a <= m.start() < b for a, b in comments):
            continue
        text = raw.decode("ascii")
        context = "call" if data[: m.start()].rstrip(b" \t\r\n").endswith(b"(") else "literal"
        if text in seen and (seen[text][1] == "call" or context == "literal"):
            continue
        line += data.count(b"\n", at, m.start())
        at = m.start()
        seen[text] = (line, context)
        if len(seen) >= most:
            break
    return tuple(Ref(kind="string", target=t, line=n, context=c) for t, (n, c) in seen.items())


# Pieces that meet every branch: quotes, escapes, char literals holding a quote, newlines, key
# characters and not, long runs (the 160 limit), non-ASCII and invalid UTF-8.
_PIECES = [
    b'"', b'"', b'"', b"\\", b'\\"', b"'\"'", b"'\\\"'", b"'", b"\n", b"\r\n", b" ", b"/", b".", b"(", b")",
    b"-", b"_", b"a", b"Z", b"7", b"UI/Bar", b"Prefabs/Enemy Big", b"x y", b"42", b"\xc3\xa9", b"\xff",
    b"$", b"@", b"&", b"{", b"}", b";", b"\t", b"A" * 159, b"b" * 160, b"/" * 3, b"Legacy Shaders/Diffuse",
]  # fmt: skip


def _random_source(rng: random.Random) -> bytes:
    return b"".join(rng.choice(_PIECES) for _ in range(rng.randrange(1, 80)))


def test_asset_literals_match_the_plain_rules_on_random_input() -> None:
    rng = random.Random(16)
    for _ in range(20_000):
        data = _random_source(rng)
        assert asset_literals(data) == _asset_literals_reference(data), data


@pytest.mark.parametrize(
    "data",
    [
        b'"ab" "a" "1/2" "12" "_" "_a" " a" "a " "a b" "a/b c" ".a" "a." "(a)" "-a" "a-" "\\"a"',
        b'"' + b"a" * 160 + b'" "' + b"a" * 161 + b'" "' + b"a" * 2 + b'"',
        b'\'"\' "Not/One" \'\\"\' "Two/Keys"\n"Two/Keys" "Three"',
        b'"unclosed/key\n"next/line" "tab\tkey" "ok(1)"',
        b"".join(b'"k%d" ' % i for i in range(600)),  # the 500 cap
    ],
)
def test_asset_literals_match_the_plain_rules_on_edge_cases(data: bytes) -> None:
    assert asset_literals(data) == _asset_literals_reference(data)


def test_the_scene_word_test_matches_reading_back_to_the_statement_start() -> None:
    """`_SceneWords` lists the "scene" words (any case) and the statement end after each, once: a
    literal is after the word when its statement, read back to the last line break, `;`, `{` or
    `}`, holds one."""
    rng = random.Random(49)
    pieces = [b"scene", b"SCENE", b"ScEnE", b"scen", b"e", b"\n", b";", b"{", b"}", b" ", b"x", b'"']
    for _ in range(5_000):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randrange(0, 30)))
        words = csharp_strings._SceneWords(data)
        for start in range(len(data) + 1):
            statement = re.split(rb"[\n;{}]", data[:start])[-1]
            assert words.before(start) == (b"scene" in statement.lower()), (data, start)


def test_a_constant_found_as_a_call_argument_matches_the_regex() -> None:
    """`_first_argument` tests a constant's first places itself, then (a name written more often
    than `_FIND_TRIES` times before) falls back to the regex it stands for: `(`, spaces, the
    name, spaces, `,` or `)`."""
    rng = random.Random(49)
    pieces = [b"(", b")", b",", b" ", b"\t", b"\n", b"\r", b"\x0b", b"\x0c", b"ab", b"a", b"b", b"x", b";"]
    for _ in range(20_000):
        name = rng.choice([b"a", b"ab", b"b", b"aba"])
        data = b"".join(rng.choice(pieces) for _ in range(rng.randrange(0, 25)))
        for text in (data, name * csharp_strings._FIND_TRIES + b" " + data):
            use = re.search(rb"\(\s*(" + name + rb")\s*[,)]", text)
            assert csharp_strings._first_argument(text, name) == (use.start(1) if use else -1), (text, name)


# ----- declaration headers: one role lookup per child -------------------------------------------

_CASES = Path(__file__).parent / "csharp_cases"
# Headers with what the rules are about: comments, attributes and #if inside, base lists twice,
# spacing the header rewrites (`Foo (`, `List<int>Foo`, `~ Name`), and enum members with values.
_ODD_HEADERS = b"""
namespace N {
  [Serializable] public /* c */ sealed partial class A<T> : B , IC // tail
  #if X
  : ID
  #endif
  where T : new() { }
  public class   Spaced<T>:Base  where T:class { List<int>Go ( int   a ,
      float b ) { } ~ Spaced ( ) { } public static implicit operator int ( Spaced<T> s ) => 0;
    public int this [ int i ] { get => 0; } internal event Action E { add { } remove { } }
    [Obsolete] protected virtual async Task<int> M<U>( ) where U : struct => 1;
    public Spaced() : base() { } public static Spaced<T> operator +(Spaced<T> a, Spaced<T> b) => a;
  }
  enum E { [Attr] A = 1 << 2, B , C = A | B }
  public delegate void D(int x);
  class P { public
    #region R
    static void M(int a) { }
    #endregion
    public
#if UNITY_EDITOR
    static
#endif
    void N() { } }
  public record struct R(int A, [property: Attr] string B);
}
"""


def _declaration_reference(src: NodeText, node: Any, stop: frozenset[int]) -> tuple[str, Words, Words]:
    """`NodeText.declaration` as it was: a frozenset test per role, every piece collapsed."""
    ids = kind_ids()
    preproc = [n for n in ids if n.startswith("preproc")]

    def of(*names: str) -> frozenset[int]:
        return frozenset(i for n in names for i in ids.get(n, ()))

    modifier, attribute_list, base_list = of("modifier"), of("attribute_list"), of("base_list")
    skip = of("attribute_list", "comment", "ERROR", *preproc)
    no_space = of("type_parameter_list", "parameter_list", "bracketed_parameter_list")
    out, mods, attrs, seen_bases, in_header = "", [], [], False, True
    for c in node.children:
        kid = c.kind_id
        if kid in modifier:
            mods.append(src.text(c))
        elif kid in attribute_list:
            attrs.extend(src.attributes_of_list(c))
        if not in_header or kid in skip:
            continue
        if kid in stop:
            in_header = False
            continue
        if kid in base_list:
            if seen_bases:
                continue
            seen_bases = True
        piece = " ".join(src.text(c).split())
        out += piece if not out or kid in no_space or out[-1] == "~" else " " + piece
    return out, tuple(mods), tuple(attrs)


def _declarations(data: bytes) -> tuple[NodeText, list[tuple[str, Any]]]:
    parser, query, cursor = engine()
    caps = cursor(query).captures(parser.parse(data).root_node)
    wanted = ("class", "struct", "interface", "enum", "record", "delegate", "method", "constructor",
              "destructor", "property", "indexer", "event", "enum_member", "operator", "conversion")  # fmt: skip
    return NodeText(data), [(cap, n) for cap in wanted for n in caps.get(cap, ())]


def _sources() -> list[bytes]:
    return [_ODD_HEADERS, _ODD_HEADERS.replace(b"\n", b"\r\n")] + [p.read_bytes() for p in sorted(_CASES.glob("*.cs"))]


def test_declaration_headers_match_the_set_by_set_rules() -> None:
    ids = kind_ids()
    header_stop = frozenset(i for n in HEADER_STOP for i in ids.get(n, ()))
    enum_stop = frozenset(i for n in ENUM_MEMBER_STOP for i in ids.get(n, ()))
    seen = 0
    for data in _sources():
        src, decls = _declarations(data)
        k = src.kinds
        for cap, node in decls:
            member = cap == "enum_member"
            got = src.declaration(node, k.enum_member_roles if member else None)
            assert got == _declaration_reference(src, node, enum_stop if member else header_stop), got
            seen += 1
    assert seen > 80  # every header kind, from the case files and the odd ones above


def test_only_methods_have_a_returns_field_and_constructors_no_type() -> None:
    """What `member_symbols` relies on to ask for one field only."""
    fields = {}
    for data in _sources():
        src, decls = _declarations(data)
        k = src.kinds
        for cap, node in decls:
            returns, type_ = node.child_by_field_id(k.returns_field), node.child_by_field_id(k.type_field)
            fields.setdefault(cap, set()).add((returns is not None, type_ is not None))
    assert fields["method"] == {(True, False)}
    assert fields["constructor"] == fields["destructor"] == {(False, False)}
    for cap in ("property", "indexer", "event", "operator", "conversion"):
        assert fields[cap] == {(False, True)}, cap


# ----- static accesses and locals: names ruled out by their first byte --------------------------

_NAME_STARTS = ["a", "z", "A", "Z", "_", "@", "@A", "@a", "É", "é", "Σ", "σ", "ǅ", "Ⅻ", "ⅻ", "ℂ", "x1", "M"]


def _random_names_source(rng: random.Random) -> bytes:
    def name() -> str:
        return rng.choice(_NAME_STARTS) + rng.choice(["", "b", "B", "é", "Élan", "_1"])

    lines = ["class C {"]
    for _ in range(rng.randrange(1, 12)):
        a, b, local = name(), name(), name()
        lines.append(f"  void M{len(lines)}(int {name()}) {{ var {local} = {a}.{b}; {b}.X(); {a}<int>.Y(); }}")
        if rng.random() < 0.3:
            lines.append(f"  int {name()};")
    lines.append("}")
    return "\n".join(lines).encode("utf-8")


def test_first_byte_filter_matches_the_text_test_on_random_names(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(16)
    sources = [_random_names_source(rng) for _ in range(300)]
    fast = [csharp.scan("A.cs", data) for data in sources]
    monkeypatch.setattr(csharp, "_NOT_UPPER_LEAD", frozenset())  # every name goes to the text test
    slow = [csharp.scan("A.cs", data) for data in sources]
    assert sum(r.kind == "type" and r.context == "static" for rec in slow for r in rec.refs) > 300
    for data, a, b in zip(sources, fast, slow, strict=True):
        assert a == b, data.decode()


# ----- the body lexer: runs inside code blocks passed over unlexed ---------------------------------

_SOUP = [
    "{", "}", "{", "}", ";", "(", ")", "=", "=>", " ", "\n", "\t", "x", "Foo", "@ev", "$", "@", "/", "/=",
    "// c {\n", "/* { */", "/*", '"', '"{"', '@"a""}"', '$"{x}"', '$@"{{ {y} }}"', '"""raw { """', "'{'", "'\\''",
    "'", "\\", "#if A\n", "#else\n", "#elif B\n", "#endif\n", "#region R\n", "#endregion\n", "é", "\u00ff",
    "class C ", "void M() ", "int P { get ", "set; } ", "=> 1;", "new[] ", "[Attr] ", "record R ",
]  # fmt: skip


def _soup(rng: random.Random) -> bytes:
    return "".join(rng.choice(_SOUP) for _ in range(rng.randrange(1, 120))).encode("utf-8")


def test_code_runs_skipped_unlexed_give_the_bodies_full_lexing_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(16)
    sources = [_soup(rng) for _ in range(3000)] + _sources()
    fast = [(csharp_lexer.code_bodies(d, cut=False), csharp_lexer.declarations_only(d)) for d in sources]
    monkeypatch.setattr(csharp_lexer, "_CODE_RUN", re.compile(b""))  # every byte lexed
    slow = [(csharp_lexer.code_bodies(d, cut=False), csharp_lexer.declarations_only(d)) for d in sources]
    assert sum(bool(bodies[0]) for bodies, _ in slow) > 1000
    for data, a, b in zip(sources, fast, slow, strict=True):
        assert a == b, data
