"""String literals that may name an asset: what `Resources.Load("UI/Health")` or
`Shader.Find("Game/Dissolve")` load, recorded so the index can tie the code to the asset. A
literal after the word "scene" in its statement and line (`SceneManager.LoadScene("Dungeon")`,
`string gameScene = "Dungeon"`) may also name a scene by its name, so it says so (context
"scene"): a scene name is a common word (`Player`, `Game`) that a tag or a key elsewhere is too.

Read from the bytes with one regex rather than from the syntax tree: a literal in a comment costs
nothing (it only becomes an edge when it names an asset of the project), and the parse stays as it
was. Which literals name assets is decided when the index resolves them, not here.
"""

from __future__ import annotations

import bisect
import re

from indexer.model import Ref

# Every literal on its line, short ones too: skipping one would pair its closing quote with the next.
# Group 1 is set only for a literal shaped like an asset key (a Resources path or a shader name):
# 2 to 160 characters of [A-Za-z0-9_ ./()-], a letter among them, not starting with " ./()-".
# Any other literal matches the second branch, so every literal is one match either way (the
# tests compare this with the plain literal regex and those rules spelled out).
_KEY_LITERAL = re.compile(
    rb'"(?:(?=[^"]{2,160}")((?=[A-Za-z0-9_])[0-9_ ./()\-]*+[A-Za-z][A-Za-z0-9_ ./()\-]*+)"'
    rb'|[^"\\\r\n]*+(?:\\.[^"\\\r\n]*+)*+")'
)
_CHAR_QUOTE = re.compile(rb"'(?:\\)?\"'")  # '"' and '\"' would open a literal that is not one
MAX_LITERALS = 500  # a generated file of strings must not flood the refs table


def asset_literals(data: bytes) -> tuple[Ref, ...]:
    """Refs of kind "string" for the distinct literals shaped like an asset key, first line each
    (the first after the word scene, when there is one: context "scene", else "literal")."""
    if b"\"'" in data and (b"'\"'" in data or b"'\\\"'" in data):  # one search in the usual case
        data = _CHAR_QUOTE.sub(b"'x'", data)
    seen: dict[str, tuple[int, str]] = {}
    line, at = 1, 0
    scene = _SceneWords(data)
    for m in _KEY_LITERAL.finditer(data):
        raw = m.group(1)  # None: not shaped like a key
        if raw is None or (b" " in raw and b"/" not in raw):  # spaces only in a path
            continue
        text = raw.decode("ascii")  # a key is ASCII: invalid UTF-8 never matches it
        known = seen.get(text)
        if known is not None and known[1] == "scene":
            continue
        start = m.start()
        line += data.count(b"\n", at, start)
        at = start
        context = "scene" if scene.before(start) else "literal"
        if known is None or context == "scene":
            seen[text] = (line, context)
        if len(seen) >= MAX_LITERALS:
            break
    return tuple([Ref("string", t, n, context) for t, (n, context) in seen.items()])


class _SceneWords:
    """Whether the statement holding the literal at `start` says "scene" (in any case) before it,
    on its line: `LoadScene("Level1")`, `gameScene = "Dungeon"`, but not the tag of
    `CompareTag("Player")) SceneManager.LoadScene(...)`, which precedes the call. The statement's
    start (after the last line break, `;`, `{` or `}`) and the words are found once a file, when
    its first key is met: read back from each literal, a long line of literals (a generated table)
    cost the square of its length (240 KB: 6 s)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.breaks: list[int] | None = None
        self.ends: list[int] = []  # where each "scene" ends

    def before(self, start: int) -> bool:
        if self.breaks is None:
            self.breaks = [m.start() for m in _BREAK.finditer(self.data)]
            self.ends = [m.end() for m in _SCENE.finditer(self.data)]
        i = bisect.bisect_left(self.breaks, start)
        first = self.breaks[i - 1] + 1 if i else 0
        j = bisect.bisect_right(self.ends, start)
        return bool(j) and self.ends[j - 1] - len(b"scene") >= first


_BREAK = re.compile(rb"[\n;{}]")
_SCENE = re.compile(rb"scene", re.I)
