"""A thirty-sixth trial on unseen games (docs/retrieval.md, "Session 57, a thirty-sixth trial"):
what it found wrong, on small projects of its own."""

from __future__ import annotations

from pathlib import Path

from .conftest import data_asset, meta, mono_script, write_project
from .conftest import ranked_paths as _ranked

STAGE_GUID = "5b2e0c5b7d2f4e6a8b9c0d1e2f3a4b61"
QUESTION = "The second stage is a survive-the-timer round. Where do I change how long you must survive?"


def _stages(tmp_path: Path, count: int = 3) -> Path:
    """An arena game of `count` stages, each a data asset `Level<n>.asset` of `LevelConfig` (how
    long a survival round lasts, how often monsters come); a stage script runs the survival timer,
    its HUD shows it."""
    files = {
        "Assets/Scripts/LevelConfig.cs": (
            "using UnityEngine;\n[CreateAssetMenu]\npublic class LevelConfig : ScriptableObject\n{\n"
            "    public bool survival;\n    public int survivalDuration = 70;\n    public int spawnInterval = 10;\n}\n"
        ),
        "Assets/Scripts/LevelConfig.cs.meta": meta(STAGE_GUID),
        "Assets/Scripts/Stage.cs": mono_script(
            "Stage",
            "    public LevelConfig config;\n    public int timer;\n"
            "    // a survival round: the player must survive until the timer runs out\n"
            "    void StartSurvival() { timer = config.survivalDuration; }",
        ),
        "Assets/Scripts/SurvivalTimerHud.cs": mono_script(
            "SurvivalTimerHud",
            "    // shows how long the player must still survive this round\n"
            "    public void ShowSurvivalTimer(int timer) { }",
        ),
    }
    for n in range(1, count + 1):
        fields = f"  survival: {int(n == 2)}\n  survivalDuration: {60 + n}\n  spawnInterval: {n * 3}\n"
        files[f"Assets/Data/Levels/Level{n}.asset"] = data_asset(STAGE_GUID, f"Level{n}", fields)
    return write_project(tmp_path, files)


def test_an_ordinal_counts_the_words_after_it() -> None:
    """ "The second stage" counts stages; "the first time", "a second of" count nothing."""
    from indexer.query.ordinal_series import counted_words

    assert counted_words(QUESTION) == [("stag", 2)]  # a stem
    assert counted_words("the first time I die it waits about a second of delay") == []


def test_the_stage_a_task_counts_is_the_series_member_of_that_number(tmp_path: Path) -> None:
    """ "The second stage ...": `Level2.asset` of `Level1`-`Level3` ranks in the first three (it
    ranked under the scripts and its siblings, the stage's word not its name's)."""
    top = _ranked(_stages(tmp_path), QUESTION, 3)
    assert "Assets/Data/Levels/Level2.asset" in top
    assert "Assets/Data/Levels/Level1.asset" not in top


def test_two_files_are_no_series(tmp_path: Path) -> None:
    """Two numbered files are a pair, not a count: "the second stage" does not raise `Level2.asset`
    over its class when only `Level1` and `Level2` exist (it did with SERIES_MIN at 2)."""
    from indexer.query.ordinal_series import SERIES_MIN

    assert SERIES_MIN == 3
    top = _ranked(_stages(tmp_path, count=2), QUESTION, 10)
    assert top.index("Assets/Data/Levels/Level2.asset") > top.index("Assets/Scripts/LevelConfig.cs")
