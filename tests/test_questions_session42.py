"""Session 42's ranking changes, on the fixture (docs/retrieval.md, session 42)."""

from __future__ import annotations

import pytest

from indexer.identifiers import said_words
from indexer.query.priors import CODE_TASK_ASSET_PRIOR, FAULT_PRIOR, asks_code, named_kinds
from indexer.query.workspace import Workspace

PLAIN = "the door sound keeps playing after the door opened"
FAULT = "the door sound keeps playing after the door opened, where do I fix that"


def test_a_task_reporting_a_fault_asks_for_code_even_when_it_tells_of_sounds() -> None:
    """`asks_code`: a fault word makes a task about sounds or looks a code task; not one that asks
    where something is set or names a kind of asset."""
    assert not asks_code(said_words(PLAIN))
    assert asks_code(said_words(FAULT))
    assert asks_code(said_words("the explosion effect throws an exception"))
    assert not asks_code(said_words("fix the sound volume set on the player prefab"))
    assert not asks_code(said_words("where is the bug sound configured"))
    # "code" alone does not: a question asking which code starts a movie and which UI shows it wants both
    assert not asks_code(said_words("which code plays the door sound"))


def test_a_fault_task_ranks_every_file_but_scripts_lower(ws: Workspace) -> None:
    """Reporting a fault, the same task's data asset scores FAULT_PRIOR of its score, and the prefab
    and item asset that ranked among the first six fall out of them, below the scripts."""
    plain = {h.path: h for h in ws.search(PLAIN, 20)}
    fault = ws.search(FAULT, 20)
    assert [h.path for h in fault[:3]] == [
        "Assets/Scripts/Audio/SoundLibrary.cs",
        "Assets/Scripts/Audio/AudioManager.cs",
        "Assets/Data/SoundLibrary.asset",
    ]
    asset = next(h for h in fault if h.path == "Assets/Data/SoundLibrary.asset")
    assert asset.score == pytest.approx(plain[asset.path].score * FAULT_PRIOR, abs=1e-3)
    assert [h.path for h in ws.search(PLAIN, 6)][3:5] == ["Assets/Prefabs/Player.prefab", "Assets/Data/Items/Key.asset"]
    assert all(h.kind == "csharp" for h in fault[3:6])
    player = next(h for h in fault if h.path == "Assets/Prefabs/Player.prefab")
    # the prefab: a code task's CODE_TASK_ASSET_PRIOR and the fault's FAULT_PRIOR, walk gains aside
    assert player.score < plain[player.path].score * CODE_TASK_ASSET_PRIOR


def test_a_task_saying_animator_asks_for_the_controller_not_the_clips_it_tells_of(ws: Workspace) -> None:
    """`named_kinds`: "animations" names clips and controllers, but with "animator" said the
    controller is what is asked for; the clip named for the task's words falls below it."""
    assert named_kinds(said_words("which animations does the enemy play")) == {"animation", "animator"}
    assert named_kinds(said_words("which animator controller holds the enemy idle animation")) == {"animator"}
    hits = ws.search("which animator controller holds the enemy idle animation", 4)
    assert [h.path for h in hits][:3] == [
        "Assets/Animations/Enemy.controller",
        "Assets/Scripts/Enemies/EnemyAI.cs",
        "Assets/Animations/EnemyIdle.anim",
    ]
