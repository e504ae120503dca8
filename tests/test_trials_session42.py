"""Defects found by a new user's trial on two unseen games in session 42 (docs/retrieval.md, "A new
user's trial on two unseen games (session 42)"), each a test seen failing before its fix."""

from __future__ import annotations

from pathlib import Path

from indexer.query.synonyms import excess, expansions

from .conftest import write_project
from .test_trials_session32 import _workspace


def test_too_and_an_adjective_asks_for_the_quality() -> None:
    """ "the player walks too slowly" asks for more speed as "walks slower" does: an adjective after
    "too" (or between "not" and "enough") searches its quality's nouns, as a comparative; the
    adjective alone ("how fast") still does not."""
    assert excess("the player walks too slowly") == ("slowly",)
    assert excess("agents wander too FAR, and the day lasts too long") == ("far", "long")
    assert excess("the jump is not high enough") == ()  # "high" is a high score as often
    assert excess("the boat is not fast enough") == ("fast",)
    assert excess("too many enemies") == ()
    walks = expansions(["player", "walks", "slowly"], excess("the player walks too slowly"))
    assert walks == [("slowly", ("speed", "duration"))]
    assert expansions(["player", "walks", "slowly"]) == []
    assert expansions(["agents", "wander", "far"], ("far",))[-1] == ("far", ("distance", "range"))


def test_a_movement_script_found_for_walking_too_slowly(tmp_path: Path) -> None:
    """A farming game's "the player walks too slowly" ranked nine `Player*` files and never the
    movement script holding `_movementSpeed = 0.65f` (outside the top 30)."""
    files = {
        f"Assets/Scripts/Player/Player{part}.cs": (
            f"using UnityEngine;\npublic class Player{part} : MonoBehaviour\n{{\n"
            f"    Player player;\n    void Update() {{ player.{part}(); }}\n}}\n"
        )
        for part in ("", "Fishing", "Design", "Attack", "Inventory", "Information")
    }
    files["Assets/Scripts/Movement/CharacterMovement.cs"] = (
        "using UnityEngine;\npublic class CharacterMovement : MonoBehaviour\n{\n"
        "    [SerializeField] private float _movementSpeed = 0.65f;\n"
        "    public void Move(Vector2 direction) { transform.position += (Vector3)direction * _movementSpeed; }\n}\n"
    )
    ws = _workspace(write_project(tmp_path / "P", files))
    hits = [h.path for h in ws.search("the player walks too slowly", 10)]
    assert hits.index("Assets/Scripts/Movement/CharacterMovement.cs") == 0
    assert "Assets/Scripts/Movement/CharacterMovement.cs" not in [h.path for h in ws.search("the player walks", 10)]


def _go(go: int, name: str, father: int = 0, children: tuple[int, ...] = ()) -> str:
    """A GameObject and its Transform (`go + 1`), under the Transform `father`."""
    kids = "".join(f"\n  - {{fileID: {c}}}" for c in children) or " []"
    return (
        f"--- !u!1 &{go}\nGameObject:\n  m_Component:\n  - component: {{fileID: {go + 1}}}\n"
        f"  m_Layer: 5\n  m_Name: {name}\n  m_IsActive: 1\n"
        f"--- !u!4 &{go + 1}\nTransform:\n  m_GameObject: {{fileID: {go}}}\n  m_Children:{kids}\n"
        f"  m_Father: {{fileID: {father}}}\n"
    )


def test_a_scene_object_is_named_by_the_words_of_its_path(tmp_path: Path) -> None:
    """ "which button in the main menu starts a new game" named the main menu scene by `Main Camera`
    ("main"), the first of three objects naming one word each, where `Canvas/Buttons/Start` names
    "start" and its parent "buttons": an object's path says what it is, as a member's type does."""
    scene = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        + _go(100, "Main Camera")
        + _go(200, "Canvas", children=(301,))
        + _go(300, "Buttons", father=201, children=(401, 501))
        + _go(400, "Start", father=301)
        + _go(500, "Quit", father=301)
    )
    root = write_project(tmp_path / "P", {"Assets/Scenes/MainMenu.unity": scene})
    ws = _workspace(root)
    hit = next(h for h in ws.search("which button in the main menu starts a new game", 5) if h.kind == "scene")
    assert (hit.name, hit.line) == ("Canvas/Buttons/Start", 42)
    quit_hit = next(h for h in ws.search("the quit button", 5) if h.kind == "scene")
    assert quit_hit.name == "Canvas/Buttons/Quit"
    camera = next(h for h in ws.search("main camera", 5) if h.kind == "scene")
    assert camera.name == "Main Camera"
