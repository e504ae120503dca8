"""String literals that may name an asset: what `Resources.Load("UI/Health")` or
`Shader.Find("Game/Dissolve")` load, recorded so the index can tie the code to the asset.

Read from the bytes with one regex rather than from the syntax tree: a literal in a comment costs
nothing (it only becomes an edge when it names an asset of the project), and the parse stays as it
was. Which literals name assets is decided when the index resolves them, not here.
"""

from __future__ import annotations

import re

from indexer.model import Ref

# Every literal on its line, short ones too: skipping one would pair its closing quote with the next.
_LITERAL = re.compile(rb'"([^"\\\r\n]*+(?:\\.[^"\\\r\n]*+)*+)"')
_CHAR_QUOTE = re.compile(rb"'(?:\\)?\"'")  # '"' and '\"' would open a literal that is not one
# An asset key: a Resources path or a shader name. Spaces only in a path ("Legacy Shaders/Diffuse").
_KEY = re.compile(rb"[A-Za-z0-9_][A-Za-z0-9_ ./()\-]*")
_LETTER = re.compile(rb"[A-Za-z]")
MAX_LITERALS = 500  # a generated file of strings must not flood the refs table


def asset_literals(data: bytes) -> tuple[Ref, ...]:
    """Refs of kind "string" for the distinct literals shaped like an asset key, first line each."""
    if b"'\"'" in data or b"'\\\"'" in data:
        data = _CHAR_QUOTE.sub(b"'x'", data)
    seen: dict[str, int] = {}
    line, at = 1, 0
    for m in _LITERAL.finditer(data):
        raw = m.group(1)
        # _KEY is ASCII: bytes that match it are the text that would (invalid UTF-8 never does)
        if not 2 <= len(raw) <= 160 or not _KEY.fullmatch(raw) or not _LETTER.search(raw):
            continue
        if b" " in raw and b"/" not in raw:
            continue
        text = raw.decode("ascii")
        if text in seen:
            continue
        line += data.count(b"\n", at, m.start())
        at = m.start()
        seen[text] = line
        if len(seen) >= MAX_LITERALS:
            break
    return tuple(Ref(kind="string", target=t, line=n, context="literal") for t, n in seen.items())
