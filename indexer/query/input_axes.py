"""The Input Manager's axes, for a task asking which key or button does something.

A project on Unity's legacy input reads its buttons by name (`Input.GetButton("Jump")`), and the
keys behind each name live in one settings file, `ProjectSettings/InputManager.asset`. That file
is long (every default axis), so its text match on "jump" is weak beside the scripts saying
`Jump` everywhere; yet "which key makes the player jump" is answered only there (`Jump [positive:
space]`). When the task asks which key or button and names an axis, and the project's code reads
input through the legacy `Input` class, the file ranks with the best matches and says which axis.
On the Input System the keys are bound in an actions asset: one whose action the task names ranks
with the best; when the task asks which key of the keyboard and names none ("which key picks up a
weapon", the action `Take`), the project's one actions asset of its own does.
"""

from __future__ import annotations

from indexer.identifiers import split_identifier, stem
from indexer.model import Ranked
from indexer.query.keys_pressed import (
    MOST_RECEIVERS,
    actions_assets,
    control_of,
    keys_said,
    raise_to_key_share,
    scripts_saying,
)
from indexer.query.priors import asks_for
from indexer.query.vendored import is_vendored

INPUT_MANAGER = "ProjectSettings/InputManager.asset"
PLAYER_SETTINGS = "ProjectSettings/ProjectSettings.asset"
DEAD_SHARE = 0.3  # the Input Manager's score when the project runs the Input System alone
AXIS_SHARE = 0.8  # of the best text match's score: among the first answers, not above the code
OWN_ACTIONS_SHARE = 1.0  # the one actions asset asked for by "which key" alone: level with the best
# Words asking which key or button it is: not "press" or "mouse", which tell how a player does
# something whose code is the answer ("pressing F puts me in the pilot's view", "the mouse wheel
# zooms"); on held-out questions those brought the file into the first five 14 times, never wanted.
KEY_WORDS = frozenset(
    """key keys button buttons keyboard keybind keybinds keybinding keybindings binding bindings bind rebind
    hotkey hotkeys shortcut shortcuts gamepad joystick""".split()  # noqa: SIM905
)
# Of those, the words asking which key of the keyboard: "button" is a menu's as often, "gamepad"
# and "joystick" say how a player plays.
KEYBOARD_WORDS = KEY_WORDS - {"button", "buttons", "gamepad", "joystick"}


def raise_named_axes(project, ranked: dict[str, Ranked], terms: list[str], said: list[str], text: str) -> None:
    """Raise the Input Manager when the task asks which key or button and names one of its axes,
    or says a key bound to one is pressed (`raise_pressed_axes`, with the axis's readers); lower it
    when the project runs the Input System alone (its axes are read by nothing), and raise the
    actions assets naming an action the task names."""
    raise_pressed_axes(project, ranked, text, asks_for(said, KEY_WORDS))
    manager = ranked.get(INPUT_MANAGER)
    if manager is not None and _legacy_input_off(project):
        manager.score *= DEAD_SHARE
        manager = None
    if not asks_for(said, KEY_WORDS):
        return
    stems = {stem(t) for t in terms}
    if not _raise_actions(project, ranked, stems) and asks_for(said, KEYBOARD_WORDS):
        _raise_own_actions(project, ranked)
    if manager is None or not _reads_legacy_input(project):
        return
    axes = [
        f"{s.name} [{s.detail}]" if s.detail else s.name
        for s in project.records.symbols(INPUT_MANAGER)
        if s.kind == "input_axis" and _named(s.name, stems)
    ]
    if not axes:
        return
    best = max(r.score for r in ranked.values())
    manager.score = max(manager.score, best * AXIS_SHARE)
    manager.reasons.append(f"input axis {'; '.join(dict.fromkeys(axes[:3]))}")


def raise_pressed_axes(project, ranked: dict[str, Ranked], text: str, asks_key: bool) -> None:
    """A key the task says is pressed ("press C to talk to people"), in a project reading the
    legacy `Input` class, is read by the name of the Input Manager axis it is bound to (`Fire2
    [positive: c, mouse 1]`, read as `Input.GetButtonDown("Fire2")`, often through a constant):
    no script names the key. The few scripts reading that axis by name (at most MOST_RECEIVERS)
    rank at least KEY_SHARE of the best match's score, as scripts reading the key itself do
    (`keys_pressed.key_readers`), and so does the Input Manager, saying which axis, when the task
    also asks which key or button (`asks_key`: "where is that key bound"; "the mover should jump
    twice when I press space" asks for code)."""
    keys = keys_said(text)
    if not keys or not ranked or _legacy_input_off(project) or not _reads_legacy_input(project):
        return
    axes = {
        s.name: s.detail
        for s in project.records.symbols(INPUT_MANAGER)
        if s.kind == "input_axis" and not keys.isdisjoint(_axis_keys(s.detail))
    }
    if not axes or len(axes) > MOST_RECEIVERS:  # "press shift": the debug axes besides the game's
        return
    best = max(r.score for r in ranked.values())
    if asks_key:
        said = "; ".join(f"{name} [{detail}]" for name, detail in axes.items())
        raise_to_key_share(ranked, INPUT_MANAGER, best, f"input axis {said}")
    readers = axis_readers(project, set(axes))
    if len(readers) <= MOST_RECEIVERS:
        for path, axis in readers.items():
            raise_to_key_share(ranked, path, best, f'reads the input axis "{axis}"')


def _axis_keys(detail: str) -> set[str]:
    """The Keyboard controls an axis's buttons are (`positive: c, mouse 1; negative: left, a`: c,
    mouse 1, left, a; `left shift`: leftshift), as `keys_pressed.keys_said` gives a key said."""
    buttons = (b for part in (detail or "").split(";") for b in part.partition(":")[2].split(","))
    return {control_of(b.strip()) for b in buttons if b.strip()}


def axis_readers(project, axes: set[str]) -> dict[str, str]:
    """The scripts reading one of `axes` by name (`GetButtonDown("Fire2")`, or a constant holding
    `"Fire2"` that `GetButtonDown` is given), each with the axis: found among the files saying
    `GetButton` or `GetAxis` in a form, none when more than READERS_READ do (their texts are read)."""
    out: dict[str, str] = {}
    for path in scripts_saying(project, ("GetButton", "GetButtonDown", "GetButtonUp", "GetAxis", "GetAxisRaw")):
        text = project.texts.get(path).text
        axis = next((a for a in sorted(axes) if f'"{a}"' in text), None)
        if axis is not None:
            out[path] = axis
    return out


def _raise_actions(project, ranked: dict[str, Ranked], stems: set[str]) -> bool:
    """An Input System actions asset among the matches, with an action the task names, ranks with
    the best and says which action; whether one did."""
    best = max((r.score for r in ranked.values()), default=0.0)
    raised = False
    for path in [p for p in ranked if p.lower().endswith(".inputactions")]:
        actions = [s.name for s in project.records.symbols(path) if s.kind == "input_action" and _named(s.name, stems)]
        if actions:  # (the hit's snippet shows the action's bindings)
            ranked[path].score = max(ranked[path].score, best * AXIS_SHARE)
            ranked[path].reasons.append(f"input action {', '.join(dict.fromkeys(actions[:3]))}")
            raised = True
    return raised


def _raise_own_actions(project, ranked: dict[str, Ranked]) -> None:
    """The project's one actions asset of its own (not a kit's or a package sample's), with the
    best, when the task asks which key and names none of its actions ("which key picks up a
    weapon": the action is `Take`): the keys are bound there whatever the action is called."""
    own = [p for p in actions_assets(project) if not is_vendored(p, project.vendored)]
    if len(own) != 1 or not ranked:
        return
    best = max(r.score for r in ranked.values())
    hit = ranked.setdefault(own[0], Ranked(own[0], 0.0, []))
    hit.score = max(hit.score, best * OWN_ACTIONS_SHARE)
    hit.reasons.append("the project's input actions (its key bindings)")


def _legacy_input_off(project) -> bool:
    """Whether the player settings run the Input System alone (`activeInputHandler: 1`): the Input
    Manager's axes are then read by nothing (`Input.GetAxis` throws)."""
    return project.remember(
        ("legacy input off",),
        lambda: "activeInputHandler: 1" in {line.strip() for line in project.graph.file_lines(PLAYER_SETTINGS)},
        role=True,
    )


def _named(axis: str, stems: set[str]) -> bool:
    """Whether the task says every word of the axis's name (`Jump`; `Mouse ScrollWheel`; not
    `Debug Next` for "next to the smiley"), its digits aside (`Fire1`)."""
    words = {stem(w) for w in split_identifier(axis) if not w.isdigit()}
    return bool(words) and words <= stems


def _reads_legacy_input(project) -> bool:
    """Whether any script reads the legacy `Input` class (`Input.GetButton`, `Input.GetAxis`)."""
    sql = "SELECT 1 FROM refs WHERE kind = 'type' AND key = 'Input' AND context = 'static' LIMIT 1"
    return project.remember(
        ("legacy input",), lambda: project.records.conn.execute(sql).fetchone() is not None, role=True
    )
