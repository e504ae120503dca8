"""A line of C# source as code for text matches: its string literals and `//` comment left out.

A member's usages in code are text matches of its name (`Graph._member_text_usages`); a name in
a string or a comment is none, one in an interpolated string's hole (`$"HP {hp.Current}"`) is.
"""

from __future__ import annotations

import re

# A string literal on one line: verbatim (`@"..."`, where `""` is a quote and `\` no escape) or
# not, interpolated (`$`) or not, and the prefix that says which; or a char literal (`'"'`).
_STRING_LITERAL = re.compile(r'(\$@|@\$|@)"(?:""|[^"])*"|(\$?)"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])+\'')
_HOLE = re.compile(r"(?<!\{)\{(?!\{)([^{}]*)\}")  # `{expr}` of an interpolated string, not `{{`


def code_of(line: str) -> str:
    """`line` without its string literals (but the holes of interpolated ones, which are code) and
    its trailing `//` comment: cut after the strings, so a URL's `//` is no comment."""

    def literal(m: re.Match[str]) -> str:
        return '""' + " ".join(_HOLE.findall(m.group(0))) if "$" in (m.group(1) or m.group(2) or "") else '""'

    return _STRING_LITERAL.sub(literal, line).split("//", 1)[0]


# What a block comment is read past: a string or char literal, a `//` comment (`// a /* b` opens
# none), or the comment itself (to its end, or the file's)
_BLOCK = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?(?:\*/|\Z)', re.S)


def without_block_comments(lines: list[str]) -> list[str]:
    """The lines with their `/* ... */` comments blanked (line breaks kept): code commented out
    that way calls nothing (`refs` listed `SpawnSpirits();` inside one)."""
    text = "\n".join(lines)
    if "/*" not in text:
        return lines
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0)) if m.group(0).startswith("/*") else m.group(0)  # noqa: E731
    return _BLOCK.sub(blank, text).split("\n")
