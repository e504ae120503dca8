"""String literals that may name an asset: what `Resources.Load("UI/Health")` or
`Shader.Find("Game/Dissolve")` load, recorded so the index can tie the code to the asset. A
literal after the word "scene" in its statement and line (`SceneManager.LoadScene("Dungeon")`,
`string gameScene = "Dungeon"`) may also name a scene by its name, so it says so (context
"scene"): a scene name is a common word (`Player`, `Game`) that a tag or a key elsewhere is too.

A literal that opens a call's arguments (`LoadSceneAsync("Store")`, after the `(`) says so too
(context "call"): an Addressables address or label is as common a word, and only a
literal handed to a call (or said of a scene) may load by one; `button.text = "Store"` does not.
A literal in a comment (`// SceneManager.LoadScene("Old")`) is none: commented-out code loads
nothing, and `refs` must show the line that does.

Read from the bytes with regexes rather than from the syntax tree, so the parse stays as it was.
Which literals name assets is decided when the index resolves them, not here.
"""

from __future__ import annotations

import bisect
import re

from indexer.model import Ref

# Every literal on its line, short ones too: skipping one would pair its closing quote with the next.
# Group 1 is set only for a literal shaped like an asset key (a Resources path or a shader name):
# 2 to 160 characters of [A-Za-z0-9_ ./()&-], a letter among them, not starting with " ./()&-"
# (`&`: TextMesh Pro's `Resources/Fonts & Materials`, which its examples load by path; not `@`,
# `logoHeader@2x`: a key ending in `@` would read the `@"` of a verbatim string as its end).
# Any other literal matches the second branch, so every literal is one match either way (the
# tests compare this with the plain literal regex and those rules spelled out).
_KEY_LITERAL = re.compile(
    rb'"(?:(?=[^"]{2,160}")((?=[A-Za-z0-9_])[0-9_ ./()&\-]*+[A-Za-z][A-Za-z0-9_ ./()&\-]*+)"'
    rb'|[^"\\\r\n]*+(?:\\.[^"\\\r\n]*+)*+")'
)
# An interpolated string's text before its first hole, when a path: `$"LevelEnvironments/{name}"`
_HOLE_PREFIX = re.compile(rb'"((?=[A-Za-z0-9_])[A-Za-z0-9_ ./()&\-]*/)\{(?!\{)')
_CHAR_QUOTE = re.compile(rb"'(?:\\)?\"'")  # '"' and '\"' would open a literal that is not one
MAX_LITERALS = 500  # a generated file of strings must not flood the refs table


_RANK = {"scene": 2, "call": 1, "literal": 0, "name": -1}  # of a literal's lines, the first of the highest is kept


def asset_literals(data: bytes) -> tuple[Ref, ...]:
    """Refs of kind "string" for the distinct literals shaped like an asset key outside comments
    and attributes (with a space only in a path, after the word scene or handed to a loading call),
    one line each: the first after the word scene (context "scene"), else the first handed to a
    call ("call"), else the first ("literal"), else one handed to a call naming no asset ("name")."""
    if b"\"'" in data and (b"'\"'" in data or b"'\\\"'" in data):  # one search in the usual case
        data = _CHAR_QUOTE.sub(b"'x'", data)
    seen: dict[str, tuple[int, str]] = {}
    line, at = 1, 0
    scene = _SceneWords(data)
    comments = _Comments(data)
    for m in _KEY_LITERAL.finditer(data):
        raw, start = m.group(1), m.start()  # raw None: not shaped like a key
        if raw is None:
            if not start or data[start - 1] != 36 or (hole := _HOLE_PREFIX.match(m.group(0))) is None:  # $
                continue
            raw, start = hole.group(1), start - 1  # `$"Levels/{name}"`: the folder it is built on
        text = raw.decode("ascii")  # a key is ASCII: invalid UTF-8 never matches it
        known = seen.get(text)
        if known is not None and known[1] == "scene":
            continue
        # spaces only in a path or a scene's name (`LoadScene("Main Level")`): a sentence is no key
        if comments.hold(start) or _in_attribute(data, start):
            continue
        after_scene, callee = scene.before(start), _callee(data, start) or _const_callee(data, start)
        # `GameObject.Find("LapCheckPoints")` finds an object of the scene (`Shader.Find` loads): a name
        named = callee in _NAMES or (
            callee == b"Find" and data[max(0, start - 64) : start].rstrip(b" \t(").endswith(_FINDS_OBJECT)
        )
        if b" " in raw and b"/" not in raw and not after_scene and b"Load" not in callee:
            continue
        line += data.count(b"\n", at, start)
        at = start
        context = "scene" if after_scene else "name" if named else "call" if callee else "literal"
        if known is None or _RANK[context] > _RANK[known[1]]:
            seen[text] = (line, context)
        if len(seen) >= MAX_LITERALS:
            break
    return tuple([Ref("string", t, n, context) for t, (n, context) in seen.items()])


def _in_attribute(data: bytes, start: int) -> bool:
    """The literal is an attribute's argument (`[CreateAssetMenu(menuName = "Towers/Laser Attack")]`,
    `[MenuItem("Tools/Build")]`): a menu's path, which loads nothing."""
    before = data[data.rfind(b"\n", 0, start) + 1 : start].lstrip()
    return before.startswith(b"[") and b"]" not in before  # `[SerializeField] string p = "UI/Icon"` is code


def _callee(data: bytes, start: int) -> bytes:
    """The name of the call whose first argument the literal at `start` is (`Load` for
    `Resources.Load<Sprite>("UI/Icon")`), `(` for a call of no name, b"" when it follows no `(`
    (spaces and line breaks between; after a `,` it may as well be an array's item)."""
    at = start
    while at and data[at - 1] in _SPACE:
        at -= 1
    if not at or data[at - 1] != 40:  # (
        return b""
    at -= 1
    while at and data[at - 1] in _SPACE:
        at -= 1
    if at and data[at - 1] == 62:  # `Load<Sprite>(`: the name before its type arguments
        at = max(data.rfind(b"<", 0, at), 0)
    end = at
    while at and (data[at - 1] == 95 or chr(data[at - 1]).isalnum()):
        at -= 1
    return data[at:end] or b"("


_CONST = re.compile(rb"\b(?:const|static\s+readonly)\s+string\s+(\w+)\s*=\s*$")


def _const_callee(data: bytes, start: int) -> bytes:
    """The call a constant holding the literal at `start` is handed to first (`const string Player
    = "Player";` then `InstantiateAsync(Player, at)`, `SetBool(IsWalking, true)`): where the
    literal is used, as if written there; b"" when it is no constant or no call takes it first.
    Read from the 160 bytes before it: a line of a thousand literals is read in linear time."""
    m = _CONST.search(data, max(data.rfind(b"\n", max(0, start - 160), start) + 1, start - 160), start)
    if m is None:
        return b""
    use = _first_argument(data, m.group(1))
    return _callee(data, use) if use >= 0 else b""


_WHITE = frozenset(b" \t\n\r\f\v")  # what `\s` matches in bytes
_FIND_TRIES = 32  # places a constant's name is tested at before its regex is compiled


def _first_argument(data: bytes, name: bytes) -> int:
    """Where the regex `\\(\\s*(name)\\s*[,)]` first finds `name` (a call's argument), -1 nowhere.
    Its first places are tested without the regex: compiled for each constant, it was a fiftieth
    of the C# scanner's time (the names of the constants of a project differ)."""
    at = data.find(name)
    for _ in range(_FIND_TRIES):
        if at < 0:
            return -1
        before, after = at, at + len(name)
        while before and data[before - 1] in _WHITE:
            before -= 1
        while after < len(data) and data[after] in _WHITE:
            after += 1
        if before and data[before - 1] == 40 and after < len(data) and data[after] in b",)":  # `(`
            return at
        at = data.find(name, at + 1)
    use = re.search(rb"\(\s*(" + name + rb")\s*[,)]", data) if at >= 0 else None  # a name written often
    return use.start(1) if use else -1


# Calls taking a name that is no asset's: an object, a tag, a layer, an animator parameter, a
# method, an input axis or action map, a saved setting, a shader property, a log line, a part of a
# string (context "name": what `refs` of a method or an animator parameter reads, never a load).
_FINDS_OBJECT = (b"GameObject.Find", b"transform.Find", b"Transform.Find")
_NAMES = frozenset(
    b"""FindWithTag FindGameObjectWithTag FindGameObjectsWithTag FindChild CompareTag NameToLayer GetMask
    PropertyToID StringToHash SetTrigger ResetTrigger SetBool SetFloat SetInteger GetBool GetFloat GetInteger
    CrossFade CrossFadeInFixedTime Invoke InvokeRepeating CancelInvoke IsInvoking StartCoroutine StopCoroutine
    SendMessage SendMessageUpwards BroadcastMessage GetAxis GetAxisRaw GetButton GetButtonDown GetButtonUp
    GetString GetInt SetString SetInt HasKey DeleteKey Log LogWarning LogError LogFormat LogException
    FindActionMap FindAction FindControlScheme SetColor SetTexture SetVector SetMatrix GetColor GetTexture
    GetVector HasProperty EnableKeyword DisableKeyword IsKeywordEnabled SetGlobalFloat SetGlobalInt
    SetGlobalColor SetGlobalTexture SetGlobalVector Contains StartsWith EndsWith IndexOf Replace Split
    GameObject""".split()  # `new GameObject("Holder")` names the object it makes
)


_SPACE = frozenset(b" \t\r\n")


class _Comments:
    """Whether a literal starts inside a comment. A file with block comments has its comments
    found once (when its first key is met) by one regex that also steps over strings, so
    `"http://host"` and `"Assets/*.png"` open none; in a file without, only the line before each
    key is read (most files: the whole-file pass cost the scanner 5%)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.starts: list[int] | None = None if b"/*" in data else []
        self.ends: list[int] = []

    def hold(self, start: int) -> bool:
        if self.starts is None:
            self.starts = []
            for m in _COMMENT_OR_STRING.finditer(self.data):
                if m.group(1) is not None:
                    self.starts.append(m.start())
                    self.ends.append(m.end())
        elif not self.starts:  # no block comment: a `//` earlier on the line, outside a string
            first = max(self.data.rfind(b"\n", max(0, start - _LINE_LOOK), start) + 1, start - _LINE_LOOK, 0)
            if self.data.find(b"//", first, start) < 0:
                return False
            for m in _COMMENT_OR_STRING.finditer(self.data, first):  # a string may run past `start`
                if m.start() >= start:
                    return False
                if m.group(1) is not None:
                    return m.end() > start
            return False
        i = bisect.bisect_right(self.starts, start)
        return bool(i) and start < self.ends[i - 1]


_LINE_LOOK = 4096  # how far back a `//` is looked for on a long line (a generated table's)


class _SceneWords:
    """Whether the statement holding the literal at `start` says "scene" (in any case) before it,
    on its line: `LoadScene("Level1")`, `gameScene = "Dungeon"`, but not the tag of
    `CompareTag("Player")) SceneManager.LoadScene(...)`, which precedes the call. The words are
    found once a file, when its first key is met, and for each the first statement end after it
    (a line break, `;`, `{` or `}`), in one pass: the literal's statement says "scene" when the
    last word before it has no such end in between. Read back from each literal, a long line of
    literals (a generated table) cost the square of its length (240 KB: 6 s); every end of the
    file listed, a tenth of the C# scanner's time (most files say no "scene" at all)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.ends: list[int] | None = None  # where each "scene" ends
        self.breaks: list[int] = []  # the first statement end at or after each (len(data): none)

    def before(self, start: int) -> bool:
        if self.ends is None:
            # lower-cased first: a case-blind regex tries every byte, a plain word is searched for
            self.ends = [m.end() for m in _SCENE.finditer(self.data.lower())]
            at = -1
            for end in self.ends:
                if at < end:
                    m = _BREAK.search(self.data, end)
                    at = m.start() if m else len(self.data)
                self.breaks.append(at)
        j = bisect.bisect_right(self.ends, start)
        return bool(j) and self.breaks[j - 1] >= start


_BREAK = re.compile(rb"[\n;{}]")
# a comment (group 1), or a string or char literal stepped over: verbatim, interpolated or plain
_COMMENT_OR_STRING = re.compile(
    rb'(//[^\n]*+|/\*.*?(?:\*/|\Z))|@"(?:[^"]|"")*+"|\$?"(?:[^"\\\n]|\\.)*+"|\'(?:[^\'\\\n]|\\.)*+\'',
    re.S,
)

_SCENE = re.compile(rb"scene")  # in lower-cased bytes (ASCII only: the same length)
