"""A class's data asset whose every word the task says is the one it asks about, when no word
of it is its own (pairing._Pairs.instances_named; docs/retrieval.md, session 47)."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.identifiers import said_words, stem
from indexer.model import Ranked
from indexer.query.pairing import pair
from indexer.query.workspace import open_workspace

from .conftest import data_asset, meta, mono_script, write_project

MOVE, PLAYER = "e9000000000000000000000000000001", "e9000000000000000000000000000002"
STEPS = (
    "Run/Player_Running",
    "RunToStop/Player_RunToStop",
    "Run/Player_RunToTurn",
    "Jump/Player_Jump_Running",
    "Player_Walk",
)


def _moves(tmp_path: Path) -> Path:
    """A platformer's moves: the `MoveForward` ability's data assets, one a step of the player's
    state machine (`Player_Running_MoveForward.asset`, `Player_RunToStop_...`,
    `Player_Jump_Running_...`), each with its `speed`; the player's controller beside them."""
    files = {
        "Assets/Abilities/MoveForward.cs": (
            "using UnityEngine;\npublic class MoveForward : ScriptableObject\n{\n"
            "public float speed;\npublic bool faceForward;\n"
            "public void Apply(Transform t, float dt) { t.position += t.forward * speed * dt; }\n}\n"
        ),
        "Assets/Abilities/MoveForward.cs.meta": meta(MOVE),
        "Assets/Player/PlayerController.cs": mono_script(
            "PlayerController",
            "// moves the player: reads input and moves the player's body\npublic float gravity = 9.8f;\n"
            "public void MovePlayer(Vector3 input) { }\npublic bool PlayerMoves() { return true; }",
        ),
        "Assets/Player/PlayerController.cs.meta": meta(PLAYER),
    }
    for n, step in enumerate(STEPS):
        folder, _, step = step.rpartition("/")
        name = f"{step}_MoveForward"
        fields = f"  speed: {n + 2}\n  faceForward: 1\n"
        files[f"Assets/Abilities/Player/{folder}/{name}.asset"] = data_asset(MOVE, name, fields)
        guid = f"e90000000000000000000000000001{n:02d}"
        files[f"Assets/Abilities/Player/{folder}/{name}.asset.meta"] = meta(guid, "NativeFormatImporter")
    return write_project(tmp_path, files)


def _raised(root: Path, text: str) -> list[str]:
    """The data assets `pairing.pair` raises for `text` when the ability's class is the one best
    hit (score 100) and every other file scores 1."""
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    project = ws.owner("Assets/Abilities/MoveForward.cs")[0]
    ranked = {p: Ranked(p, 1.0, []) for p in project.records.kinds() if p.endswith((".asset", ".cs"))}
    ranked["Assets/Abilities/MoveForward.cs"].score = 100.0
    stems = frozenset(stem(w) for w in said_words(text))
    pair(project, ranked, {}, {}, lambda _: 1.0, None, None, True, stems, True)
    return sorted(p for p, r in ranked.items() if p.endswith(".asset") and r.score > 1.0)


def test_the_instance_whose_every_word_the_task_says_is_raised(tmp_path: Path) -> None:
    """ "Which asset controls how fast the player moves while running?": every one of the
    ability's data assets says "player", and two say "running", so none holds a word of the task
    that no other holds (the first way `instances_named` finds one);
    `Player_Running_MoveForward.asset` is the one whose every word the task says (not the running
    jump's, nor the run-to-stop step's). Raised alone: 11th -> 3rd on the held-out set it came
    from."""
    root = _moves(tmp_path)
    assert _raised(root, "Which asset controls how fast the player moves while running?") == [
        "Assets/Abilities/Player/Run/Player_Running_MoveForward.asset"
    ]


def test_each_instance_whose_every_word_the_task_says_is_raised(tmp_path: Path) -> None:
    """ "... while running and jumping" says every word of the running jump's asset too: both
    are raised; the walk's, whose "walk" the task does not say, is not."""
    text = "Which asset controls how fast the player moves while running and jumping?"
    assert _raised(_moves(tmp_path), text) == [
        "Assets/Abilities/Player/Jump/Player_Jump_Running_MoveForward.asset",
        "Assets/Abilities/Player/Run/Player_Running_MoveForward.asset",
    ]
