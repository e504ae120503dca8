"""Session 41: a menu scene's pack spent its lines on five sibling buttons `Button_PlayGame (1)` …
`(5)`, four alike, while the object answering "what happens when I click play", the listener
changing the scene, was cut into `… 39 more objects`. Siblings whose names differ only by Unity's
duplicate suffix and whose lines below the name are the same are one object and a line saying how
many more (`alike.py`)."""

from __future__ import annotations

from pathlib import Path

from indexer.query.context import build_context
from indexer.query.lookup import describe_target
from indexer.query.tokens import counter

from .conftest import meta, write_project
from .test_trials_session32 import _workspace
from .test_unity_event_targets import _behaviour, _header, _object

PLAY = "b1" * 16
CHANGE = "b2" * 16


def _scene(buttons: list[int], props: int = 0) -> str:
    """Buttons `Button_PlayGame (1)` … each with a PlayButton setting `clicks`, `props` objects of
    other names, then the listener."""
    text = _header()
    for n, clicks in enumerate(buttons, 1):
        go = n * 10
        text += _object(go, f"Button_PlayGame ({n})", [go + 2]) + _behaviour(go + 2, go, PLAY, f"  clicks: {clicks}\n")
    for n in range(props):
        text += _object(1000 + n * 10, f"Prop {chr(65 + n % 26)}{chr(65 + n // 26)}", [])
    text += _object(900, "Listener_ChangeScene", [902]) + _behaviour(902, 900, CHANGE, "  nextScene: Day\n")
    return text


def _project(tmp_path: Path, scene: str) -> Path:
    return write_project(
        tmp_path / "P",
        {
            "Assets/PlayButton.cs": (
                "using UnityEngine;\npublic class PlayButton : MonoBehaviour { public int clicks; }\n"
            ),
            "Assets/PlayButton.cs.meta": meta(PLAY),
            "Assets/ChangeScene.cs": (
                "using UnityEngine;\npublic class ChangeScene : MonoBehaviour { public string nextScene; }\n"
            ),
            "Assets/ChangeScene.cs.meta": meta(CHANGE),
            "Assets/Menu.unity": scene,
        },
    )


def _objects(text: str) -> list[str]:
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("Button_PlayGame (1)"))
    end = next((i for i, line in enumerate(lines) if line == "references:"), len(lines))
    return lines[start:end]


def test_describe_folds_sibling_copies_alike_into_the_first_and_a_line(tmp_path: Path) -> None:
    """(1) sets another value: it stays; (2) is shown, (3) … (5) folded into it."""
    root = _project(tmp_path, _scene([1, 0, 0, 0, 0]))
    text = describe_target(_workspace(root), "Assets/Menu.unity")[1].text
    assert _objects(text) == [
        "Button_PlayGame (1)  [layer 5]  L3",
        "  components: Transform, PlayButton",
        "    PlayButton: clicks: 1",
        "Button_PlayGame (2)  [layer 5]  L27",
        "  components: Transform, PlayButton",
        "    PlayButton: clicks: 0",
        "Button_PlayGame (3) … (5): 3 more like it",
        "Listener_ChangeScene  [layer 5]  L123",
        "  components: Transform, ChangeScene",
        "    ChangeScene: nextScene: Day",
    ]


def test_a_sibling_that_differs_breaks_the_run(tmp_path: Path) -> None:
    """(3) sets another value: (2) and (4) are not alike neighbours, (4) and (5) are."""
    root = _project(tmp_path, _scene([0, 0, 2, 0, 0]))
    text = describe_target(_workspace(root), "Assets/Menu.unity")[1].text
    heads = [line for line in _objects(text) if not line.startswith(" ")]
    assert heads == [
        "Button_PlayGame (1)  [layer 5]  L3",
        "Button_PlayGame (2): 1 more like it",
        "Button_PlayGame (3)  [layer 5]  L51",
        "Button_PlayGame (4)  [layer 5]  L75",
        "Button_PlayGame (5): 1 more like it",
        "Listener_ChangeScene  [layer 5]  L123",
    ]


def test_a_pack_shows_the_listener_the_copies_crowded_out(tmp_path: Path) -> None:
    """Seven buttons matched "click" and "play" and took the six objects a pack shows of a scene:
    folded, the listener changing the scene is shown with its next scene."""
    root = _project(tmp_path, _scene([1, 0, 0, 0, 0, 0, 0], props=60))
    pack = build_context(
        _workspace(root), "which scene is the main menu and what happens when I click play", 1500, counter("estimate")
    ).tier2.text
    section = pack.split("### Assets/Menu.unity")[1].split("\n###")[0]
    assert section.split("\n")[1:] == [
        "Button_PlayGame (1)  [layer 5]  L3",
        "  components: Transform, PlayButton",
        "    PlayButton: clicks: 1",
        "Button_PlayGame (2)  [layer 5]  L27",
        "  components: Transform, PlayButton",
        "    PlayButton: clicks: 0",
        "Button_PlayGame (3) … (7): 5 more like it",
        "… 60 more objects",
        "Listener_ChangeScene  [layer 5]  L1011",
        "  components: Transform, ChangeScene",
        "    ChangeScene: nextScene: Day",
        "references:",
        "  Day (no scene of that name) (nextScene)",
    ]


def test_copies_of_an_unnumbered_or_number_ending_name_fold_and_others_do_not(tmp_path: Path) -> None:
    """`GridRect 1x1x10` is the first of `GridRect 1x1x10 (1)` and `(2)`, not a copy numbered 10;
    `Waypoint2` and `Waypoint3` are copies of `Waypoint1`; `Gate` is no copy of them."""
    names = ["GridRect 1x1x10", "GridRect 1x1x10 (1)", "GridRect 1x1x10 (2)", "Waypoint1", "Waypoint2"]
    names += ["Waypoint3", "Gate"]
    scene = _header() + "".join(_object(10 * (n + 1), name, []) for n, name in enumerate(names))
    root = _project(tmp_path, scene)
    text = describe_target(_workspace(root), "Assets/Menu.unity")[1].text
    assert text.split("\n")[1:9] == [
        "GridRect 1x1x10  [layer 5]  L3",
        "  components: Transform",
        "GridRect 1x1x10 (1) … (2): 2 more like it",
        "Waypoint1  [layer 5]  L45",
        "  components: Transform",
        "Waypoint2 … Waypoint3: 2 more like it",
        "Gate  [layer 5]  L87",
        "  components: Transform",
    ]


def test_copies_fold_with_their_children_only_when_the_children_are_alike() -> None:
    """A copy is alike with its children: `Enemy (2)`'s child sets another value, so it stays; the
    children of the copies folded into `Enemy (3)` go with them, counted as objects."""
    from indexer.query.alike import fold_alike
    from indexer.query.outline import Node

    def enemy(n: int, at: int, hp: str) -> list[Node]:
        return [
            Node(0, f"Enemy ({n})  L{at}", (f"Enemy ({n})", "Mover"), (("  components: Mover", None),)),
            Node(1, f"  Body  L{at + 1}", ("Body", "Health"), ((f"    Health: hp: {hp}", None),)),
        ]

    nodes = tuple(enemy(1, 10, "5") + enemy(2, 20, "9") + enemy(3, 30, "5") + enemy(4, 40, "5") + enemy(5, 50, "5"))
    heads = [(n.head, n.folded) for n in fold_alike(nodes)]
    assert heads == [
        ("Enemy (1)  L10", 0),
        ("  Body  L11", 0),
        ("Enemy (2)  L20", 0),
        ("  Body  L21", 0),
        ("Enemy (3)  L30", 0),
        ("  Body  L31", 0),
        ("Enemy (4) … (5): 2 more like it", 4),
    ]


def test_a_lone_pair_of_bare_copies_is_not_folded() -> None:
    """Two copies with no line below their names are shown both: one line for one line saves
    nothing (`alike.fold_alike`); a third makes them a run worth folding."""
    from indexer.query.alike import fold_alike
    from indexer.query.outline import Node

    def cube(n: int) -> Node:
        return Node(0, f"Cube ({n})  L{n}", (f"Cube ({n})",), ())

    assert [n.head for n in fold_alike((cube(1), cube(2)))] == ["Cube (1)  L1", "Cube (2)  L2"]
    assert [n.head for n in fold_alike((cube(1), cube(2), cube(3)))] == [
        "Cube (1)  L1",
        "Cube (2) … (3): 2 more like it",
    ]
