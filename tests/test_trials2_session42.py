"""Defects found by a second user's trial on two more unseen games in session 42 (docs/retrieval.md,
"A second user's trial on two more unseen games (session 42)"), each a test seen failing before its
fix."""

from __future__ import annotations

from pathlib import Path

from indexer.identifiers import TASK_WORD_WEIGHT, query_terms, stem, weighted_terms
from indexer.query.outline import outline_parts, render_parts
from indexer.query.synonyms import excess, expansions

from .conftest import meta, write_project
from .test_trials_session32 import _workspace


def _player_files() -> dict[str, str]:
    """A platformer's player scripts, each saying "player", none about water."""
    return {
        f"Assets/Scripts/Player{part}.cs": (
            f"using UnityEngine;\npublic class Player{part} : MonoBehaviour\n{{\n"
            f"    public Transform player;\n    void Start() {{ player.position = Vector3.zero; }}\n}}\n"
        )
        for part in ("Start", "Spawn", "Camera", "Start2")
    }


def test_water_is_searched_as_the_liquid_code_names_it(tmp_path: Path) -> None:
    """A platformer's "how do I make the player float more in water" ranked its `Liquid` tile
    (`buoyancy`) 7th, under four `PlayerStart*` files: the code says liquid where players say water."""
    assert expansions(["player", "float", "water"]) == [("water", ("fluid", "liquid"))]
    files = _player_files()
    files["Assets/Scripts/Tiles/Liquid.cs"] = (
        "using UnityEngine;\npublic class Liquid : MonoBehaviour\n{\n"
        "    public float viscosity = 1;\n    public Vector2 buoyancy = Vector2.zero;\n"
        "    void OnTriggerEnter2D(Collider2D o) { }\n}\n"
    )
    ws = _workspace(write_project(tmp_path / "P", files))
    hits = [h.path for h in ws.search("how do I make the player float more in water", 10)]
    assert hits.index("Assets/Scripts/Tiles/Liquid.cs") == 0


def test_how_long_asks_for_a_duration_not_for_the_word(tmp_path: Path) -> None:
    """A rhythm game's "how long is the player immune after being hit" ranked a `LongPuzzleEnemy`
    second and its `ritual_long_puzzle_vfx` prefab fourth, on "long": said only in "how long", the
    word weighs as a task word and searches a duration's nouns as "too long" does."""
    assert ("long", TASK_WORD_WEIGHT) in weighted_terms("how long is the player immune")
    assert ("long", 1.0) in weighted_terms("how long is the long enemy's trail")
    assert excess("How long does the shield last?") == ("long",)
    assert expansions(["shield", "last", "long"], ("long",))[-1] == ("long", ("length", "duration"))
    files = {
        f"Assets/Scripts/{name}.cs": f"using UnityEngine;\npublic class {name} : MonoBehaviour\n{{\n    {body}\n}}\n"
        for name, body in (
            ("ShieldLong", "public Sprite icon;"),
            ("Shield", "public GameObject shield;\n    public float duration = 2f;"),
            ("Fade", "public float duration = 1f;"),
            ("LongTrail", "public ParticleSystem effect;"),
        )
    }
    ws = _workspace(write_project(tmp_path / "P", files))
    hits = [h.path for h in ws.search("how long does the shield last", 5)]
    assert hits[:2] == ["Assets/Scripts/Shield.cs", "Assets/Scripts/ShieldLong.cs"]


def _cannon_prefab(fields: list[str]) -> str:
    """A prefab whose one object carries the script of guid c0 with `fields` (`name: value`)."""
    body = "".join(f"  {f}\n" for f in fields)
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        "--- !u!1 &100\nGameObject:\n  m_Component:\n  - component: {fileID: 101}\n  - component: {fileID: 102}\n"
        "  m_Name: Cannon\n  m_IsActive: 1\n"
        "--- !u!4 &101\nTransform:\n  m_GameObject: {fileID: 100}\n  m_Children: []\n  m_Father: {fileID: 0}\n"
        "--- !u!114 &102\nMonoBehaviour:\n  m_GameObject: {fileID: 100}\n  m_Enabled: 1\n"
        "  m_Script: {fileID: 11500000, guid: c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0, type: 3}\n" + body
    )


def test_a_named_component_shows_the_fields_the_task_names_first(tmp_path: Path) -> None:
    """A platformer's cannon prefab showed its `AICannon` (named by "cannon") as twelve fields its
    base classes declare and `… 28 more`, not the `fireDelay` "how often does the cannon fire"
    asks about: past the cap, the fields the task names are kept, then the first of the others."""
    inherited = [f"skinWidth{i}: 0.{i}" for i in range(14)]
    fields = [f.split(":")[0] for f in inherited]
    script = "using UnityEngine;\npublic class AICannon : MonoBehaviour\n{\n" + "".join(
        f"    public float {f};\n" for f in [*fields, "fireDelay"]
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scripts/AICannon.cs": script + "}\n",
            "Assets/Scripts/AICannon.cs.meta": meta("c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0"),
            "Assets/Prefabs/Cannon.prefab": _cannon_prefab([*inherited, "fireDelay: 5"]),
        },
    )
    project = _workspace(root).projects[0]
    parts = outline_parts(project.records.record("Assets/Prefabs/Cannon.prefab"), project.graph)
    line = next(
        x
        for x in render_parts(parts, project.graph, {stem(t) for t in query_terms("how often does the cannon fire")})
        if "AICannon:" in x
    )
    assert line == "    AICannon: " + "; ".join(inherited[:11]) + "; fireDelay: 5; … 3 more"


def test_a_verb_with_a_doubled_consonant_searches_its_synonyms(tmp_path: Path) -> None:
    """A rhythm game's "tapping the screen should flip the puzzle piece" ranked its touch input
    (`MobileGameInput.TouchOnScreen`) 36th under five `*ScreenState` menus: the light stemmer left
    "tapping" as `tapp`, which no group holds, so "touch" was never searched; nor "dropped" as
    `drop`, "grabbing" as `grab`. A group's word is looked up without the doubled consonant too."""
    assert expansions(["tapping", "screen"]) == [("tapping", ("tap", "touch", "touchscreen"))]
    assert expansions(["dropped"]) == [("dropped", ("discard", "drop", "throw"))]
    assert expansions(["stunned"]) == [("stunned", ("daze", "dizzy", "stun"))]  # a group's own word
    assert expansions(["added", "filled", "passing"]) == []  # `add`, `fill`, `pass`: no group's
    files = {
        f"Assets/Scripts/{n}Screen.cs": (
            f"using UnityEngine;\npublic class {n}Screen : MonoBehaviour\n{{\n    public GameObject panel;\n}}\n"
        )
        for n in ("Shop", "Pause", "Title")
    }
    files["Assets/Scripts/MobileInput.cs"] = (
        "using System;\nusing UnityEngine;\npublic class MobileInput : MonoBehaviour\n{\n"
        "    public static event Action TouchOnScreen;\n"
        "    void Update() { if (Input.touchCount > 0) TouchOnScreen?.Invoke(); }\n}\n"
    )
    ws = _workspace(write_project(tmp_path / "P", files))
    hits = [h.path for h in ws.search("tapping the screen should flip the piece", 5)]
    assert hits[0] == "Assets/Scripts/MobileInput.cs"
