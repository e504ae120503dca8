"""The code a key runs, for a task saying the player presses it ("When I press B, what opens the shop").

With the Input System a key is bound to an action in an actions asset (`BuyMenu (Button):
<Keyboard>/b`), and a `PlayerInput` sending messages calls `On<Action>` on its object's scripts
(`void OnBuyMenu(InputValue value)`): no word of the task is in that method but the action's name,
which the task does not say. A task saying the key pressed, read through the actions bound to it,
names those receivers: they rank with the best matches. With the Input Manager a script reads the
key itself (`Input.GetKey(KeyCode.M)`, `GetKeyDown("m")`), and so does one reading the Input
System's keyboard straight (`Keyboard.current.enterKey.wasPressedThisFrame`, `keyboard[Key.Enter]`),
often among other keys, in a method named for none of them: the few scripts reading the key said
rank with the best matches too.
"""

from __future__ import annotations

import re

from indexer.model import Ranked
from indexer.query.messages import action_message
from indexer.query.vendored import is_vendored

KEY_SHARE = 0.8  # of the best text match's score, as an input axis the task names (input_axes.AXIS_SHARE)
MOST_RECEIVERS = 3  # more receivers of the key's actions say nothing of one task
# "press B", "pressing Escape", "hit space", "holding Shift": a letter written as a capital (not
# "press a button"), or a named key in any case.
_PRESSED = re.compile(
    r"\b(?i:press|presses|pressed|pressing|hit|hits|hitting|tap|taps|tapping|hold|holds|holding|held)\s+"
    r"(?i:the\s+)?(?:([A-Z])|(?i:(space|escape|esc|enter|return|tab|shift|backspace)))(?![\w'])"
)
_CONTROLS = {  # a named key -> the Keyboard controls it binds
    "space": ("space",), "escape": ("escape",), "esc": ("escape",), "enter": ("enter", "numpadenter"),
    "return": ("enter", "numpadenter"), "tab": ("tab",), "shift": ("shift", "leftshift", "rightshift"),
    "backspace": ("backspace",),
}  # fmt: skip
_KEYBOARD = re.compile(r"<Keyboard>/(\w+)")
# A key read in code: the Input Manager's `KeyCode.M` and `GetKeyDown("m")`, the Input System's
# device read straight (`Keyboard.current.enterKey.wasPressedThisFrame`, `keyboard[Key.Enter]`).
_READ_NAMED = re.compile(
    r"\bKeyCode\.(?P<code>\w+)|\bGetKey(?:Down|Up)?\s*\(\s*\"(?P<name>[^\"]+)\""
    r"|\b(?P<control>[a-z]\w*)Key\s*\.\s*(?:wasPressedThisFrame|wasReleasedThisFrame|isPressed)\b"
    r"|\[\s*Key\.(?P<key>\w+)\s*\]"
)
# A KeyCode member or a key's Input Manager name -> the Keyboard control `keys_said` gives for it.
_LEGACY = {"return": "enter", "keypadenter": "numpadenter", "leftshift": "leftshift", "rightshift": "rightshift",
           "left shift": "leftshift", "right shift": "rightshift", "enter": "numpadenter"}  # fmt: skip
READERS_READ = 40  # files using KeyCode or GetKey read for the keys they name; past that, none
READERS_SEEN = 400  # ... found among at most this many files saying a word, third-party ones too
_MESSAGE = re.compile(r"\(\s*(?:(?:[\w.]*\.)?InputValue\s+\w+\s*)?\)")  # `(InputValue value)` or `()`


def keys_said(text: str) -> set[str]:
    """The Keyboard controls the task says are pressed or held ("holding space", since session 56),
    lowercased (`b`, `space`). A key named without a verb ("drifting uses the space bar") is often
    the one the task wants bound, which no script reads yet: not said."""
    out: set[str] = set()
    for m in _PRESSED.finditer(text):
        out.update((m[1].lower(),) if m[1] else _CONTROLS[m[2].lower()])
    return out


def actions_assets(project) -> list[str]:
    """The project's Input System actions assets, by path, found once a generation (a scan of
    every file's kind: 2.4 ms on UnityCsReference, which a query saying a key made each time)."""
    return project.remember(("actions assets",), lambda: project.records.paths_of_kind("input_actions"), role=True)


def raise_pressed_keys(project, ranked: dict[str, Ranked], text: str) -> None:
    """Raise the scripts receiving, as `On<Action>`, the actions bound to a key the task says is
    pressed: at most MOST_RECEIVERS, each to KEY_SHARE of the best match's score."""
    keys = keys_said(text)
    if not keys or not ranked:
        return
    actions = {
        s.name: control
        for path in actions_assets(project)
        for s in project.records.symbols(path)
        if s.kind == "input_action"
        for control in _KEYBOARD.findall(s.signature or "")
        if control.lower() in keys
    }
    receivers = {
        c.path: (name, control)
        for name, control in actions.items()
        for c in project.searcher.holding([action_message(name)], MOST_RECEIVERS + 1, "csharp", None)
        if any(_receives(s, action_message(name)) for s in project.records.symbols(c.path))
    }
    best = max(r.score for r in ranked.values())
    if receivers and len(receivers) <= MOST_RECEIVERS:
        for path, (name, control) in receivers.items():
            why = f"receives input action {name} (<Keyboard>/{control}) as {action_message(name)}"
            raise_to_key_share(ranked, path, best, why)
    readers = key_readers(project, keys)
    if readers and len(readers) <= MOST_RECEIVERS:
        for path, written in readers.items():
            raise_to_key_share(ranked, path, best, f"reads the key {written}")


def key_readers(project, keys: set[str]) -> dict[str, str]:
    """The scripts reading one of `keys` themselves, from the Input Manager or the Input System's
    keyboard, each with the key as its code writes it (`KeyCode.M`, `enterKey`): found among the
    files saying `KeyCode`, `GetKey` or `Keyboard`, none when more than READERS_READ do (their
    texts are read)."""
    out: dict[str, str] = {}
    for path in scripts_saying(project, ("KeyCode", "GetKey", "GetKeyDown", "GetKeyUp", "Keyboard")):
        for m in _READ_NAMED.finditer(project.texts.get(path).text):
            if control_of(m["code"] or m["name"] or m["control"] or m["key"]) in keys:
                out[path] = _as_written(m)
                break
    return out


def scripts_saying(project, words: tuple[str, ...]) -> list[str]:
    """The project's own scripts saying one of `words`, by path; none when more than READERS_READ
    do (their texts are read next), or when more than READERS_SEEN files of any kind say one word.
    Third-party code is not counted (session 56: kits' ~50 scripts saying `KeyCode`, a visual
    scripting kit's input nodes and effects demos, hid the game's five): the task is about the
    game's keys, and of the files found only their paths are read."""
    found = {c.path for word in words for c in project.searcher.holding([word], READERS_SEEN + 1, "csharp", None)}
    own = {path for path in found if not is_vendored(path, project.vendored)}
    return sorted(own) if len(own) <= READERS_READ and len(found) <= READERS_SEEN else []


def _as_written(m: re.Match[str]) -> str:
    """A key read as the code writes it: `KeyCode.M`, `"m"`, `enterKey`, `Key.Enter`."""
    if m["name"]:
        return f'"{m["name"]}"'
    return f"{m['control']}Key" if m["control"] else m[0].strip("[] ")


def control_of(written: str) -> str:
    """The Keyboard control a KeyCode member (`M`, `Space`, `Return`) or an Input Manager key name
    (`"m"`, `"space"`) is, lowercased as `keys_said` gives it."""
    low = written.lower()
    return _LEGACY.get(low, _CONTROLS.get(low, (low,))[0])


def raise_to_key_share(ranked: dict[str, Ranked], path: str, best: float, why: str) -> None:
    """`path` to at least KEY_SHARE of the best match's score, saying why."""
    hit = ranked.setdefault(path, Ranked(path, 0.0, []))
    hit.score = max(hit.score, best * KEY_SHARE)
    hit.reasons.append(why)


def _receives(symbol, method: str) -> bool:
    """Whether the symbol is the method a `PlayerInput` sending messages calls: `method` taking an
    `InputValue` or nothing. Not an input callback interface's (`OnJump(InputAction.CallbackContext)`,
    declared in a generated class and implemented by an input service forwarding it)."""
    return symbol.kind == "method" and symbol.name == method and bool(_MESSAGE.search(symbol.signature or ""))
