"""The thirty-first trial (docs/retrieval.md, "Session 55, a thirty-first trial"): a task asking
which asset sets some values names the one data asset whose fields say its words
(named_files.fields_said), which the code reaches only through a loader the task never names."""

from __future__ import annotations

from pathlib import Path

from .conftest import data_asset, meta, mono_script, write_project
from .conftest import ranked_paths as _ranked


def _fishing(tmp_path: Path, rival: bool = False, script: str = "f3100000000000000000000000000004") -> Path:
    """A fishing game: the spawner and the waves say the task's words in code; the tuning asset
    holds `spawnRatePerMinute` and `waveSpeed` and is loaded by a bootstrap saying none of them.
    `rival`: a second data asset whose fields say two of the words too; `script`: the tuning
    asset's script GUID (another than `Tuning.cs`'s: a package's class the project does not hold)."""
    files = {
        "Assets/Scripts/FishSpawner.cs": mono_script(
            "FishSpawner",
            "public float spawnRatePerMinute = 6f; // how many fish appear\n"
            "public void SetSpawnRate(float perMinute) { spawnRatePerMinute = perMinute; }\n"
            "void Update() { /* a fish appears now and then */ }",
        ),
        "Assets/Scripts/FishSpawner.cs.meta": meta("f3100000000000000000000000000001"),
        "Assets/Scripts/WaveAnimator.cs": mono_script(
            "WaveAnimator", "public float speed = 0.3f; // how fast the waves roll\nvoid Update() { }"
        ),
        "Assets/Scripts/WaveAnimator.cs.meta": meta("f3100000000000000000000000000002"),
        "Assets/Scripts/FishSwim.cs": mono_script("FishSwim", "public float speed; // how fast a fish swims"),
        "Assets/Scripts/FishSwim.cs.meta": meta("f3100000000000000000000000000003"),
        "Assets/Scripts/Tuning.cs": (
            "using UnityEngine;\npublic class Tuning : ScriptableObject\n{\n"
            "  public float waveSpeed = 0.3f;\n  public float spawnRatePerMinute = 6f;\n"
            "  public float hookSpeed = 1f;\n}\n"
        ),
        "Assets/Scripts/Tuning.cs.meta": meta("f3100000000000000000000000000004"),
        "Assets/Scripts/Bootstrap.cs": mono_script(
            "Bootstrap", 'void Awake() { var t = Resources.Load<Tuning>("Config/Tuning"); }'
        ),
        "Assets/Scripts/Bootstrap.cs.meta": meta("f3100000000000000000000000000005"),
        "Assets/Resources/Config/Tuning.asset": data_asset(
            script,
            "Tuning",
            "  waveSpeed: 0.3\n  spawnRatePerMinute: 6\n  hookSpeed: 1\n",
        ),
        "Assets/Resources/Config/Tuning.asset.meta": meta("f3100000000000000000000000000006", "NativeFormatImporter"),
    }
    if rival:
        files["Assets/Resources/Config/Storm.asset"] = data_asset(
            "f3100000000000000000000000000004", "Storm", "  waveSpeed: 2\n  spawnRatePerMinute: 1\n  hookSpeed: 3\n"
        )
        files["Assets/Resources/Config/Storm.asset.meta"] = meta(
            "f3100000000000000000000000000007", "NativeFormatImporter"
        )
    return write_project(tmp_path, files)


TASK = "Which asset sets how many fish appear per minute and how fast the waves roll?"


def test_the_one_data_asset_whose_fields_the_task_says_leads(tmp_path: Path) -> None:
    """`Tuning.asset` holds `spawnRatePerMinute` and `waveSpeed` (minute, wave): the one such asset
    among the best, it leads (4th without the rule, under the three scripts saying the words)."""
    assert _ranked(_fishing(tmp_path), TASK, 5) == [
        "Assets/Resources/Config/Tuning.asset",
        "Assets/Scripts/FishSpawner.cs",
        "Assets/Scripts/WaveAnimator.cs",
        "Assets/Scripts/FishSwim.cs",
        "Assets/Scripts/Tuning.cs",
    ]


def test_two_such_assets_are_left_as_ranked(tmp_path: Path) -> None:
    """Two data assets whose fields say the words are a list, not the one the task means: the
    ranking is left as it was (neither leads)."""
    ranked = _ranked(_fishing(tmp_path, rival=True), TASK, 6)
    assert ranked[0] not in ("Assets/Resources/Config/Tuning.asset", "Assets/Resources/Config/Storm.asset")


def test_a_task_not_saying_asset_is_left_as_ranked(tmp_path: Path) -> None:
    """Without "asset" the task may ask for the code: the rule does not fire."""
    ranked = _ranked(
        _fishing(tmp_path), "Where is it set how many fish appear per minute and how fast the waves roll?", 4
    )
    assert ranked[0] != "Assets/Resources/Config/Tuning.asset"


def test_a_package_settings_asset_is_left_as_ranked(tmp_path: Path) -> None:
    """A settings asset of a class the project does not hold (a package's: the input system's
    settings) is no game data the task sets: it does not lead."""
    ranked = _ranked(_fishing(tmp_path, script="f31000000000000000000000000000ff"), TASK, 4)
    assert ranked[0] != "Assets/Resources/Config/Tuning.asset"
