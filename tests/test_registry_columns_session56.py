"""A registry row the task names (docs/retrieval.md, "Session 56, a thirty-second trial"): "more
time on the third level" of a list asset whose rows are each level's prefab, time and reward ranks
with the best level prefab it lists, though the task says no list word."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.identifiers import stem
from indexer.query import registries
from indexer.query.registries import names_column, raise_item_registries
from indexer.query.workspace import open_workspace

from .conftest import FakePairs, data_asset, filler_scripts, meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked

LIST_GUID = "7d4e2a1b9c8f4e6d8a7b6c5d4e3f2a01"
ROOT_GUID = "7d4e2a1b9c8f4e6d8a7b6c5d4e3f2a02"
PREFAB_GUIDS = [f"7d4e2a1b9c8f4e6d8a7b6c5d4e3f2b{i:02d}" for i in range(1, 5)]
LEVELS = [f"Assets/Prefabs/Level_0{i}.prefab" for i in range(1, 5)]
LIST = "Assets/Data/Progression.asset"
CLASS = "Assets/Scripts/Progression.cs"


def _stems(*words: str) -> frozenset[str]:
    return frozenset(stem(w) for w in words)  # as `pairing.pair` is given the task's words


def _levels(tmp_path: Path) -> Path:
    """Four level prefabs (each a `LevelRoot` with its enemies' `speed`) and the data asset listing
    them, a row each: the prefab, the level's `time` and its `reward`; eight HUD scripts saying the
    player's time."""
    files: dict[str, str] = {
        "Assets/Scripts/Progression.cs": (
            "using UnityEngine;\nusing System.Collections.Generic;\n"
            "public class Progression : ScriptableObject\n{\n    public List<Row> rows;\n    public int version;\n}\n"
            "[System.Serializable]\npublic class Row\n{\n    public GameObject prefab;\n    public int time;\n"
            "    public int reward;\n}\n"
        ),
        "Assets/Scripts/Progression.cs.meta": meta(LIST_GUID),
        "Assets/Scripts/LevelRoot.cs": mono_script("LevelRoot", "    public float speed;  // the level's enemies"),
        "Assets/Scripts/LevelRoot.cs.meta": meta(ROOT_GUID),
    }
    for path, guid in zip(LEVELS, PREFAB_GUIDS, strict=True):
        files[path] = script_prefab(Path(path).stem, ROOT_GUID, "  speed: 3\n")
        files[path + ".meta"] = meta(guid, "PrefabImporter")
    rows = "".join(
        f"  - prefab: {{fileID: 100, guid: {g}, type: 3}}\n    time: 90\n    reward: 50\n" for g in PREFAB_GUIDS
    )
    files[LIST] = data_asset(LIST_GUID, "Progression", f"  rows:\n{rows}  version: 1\n")
    files |= filler_scripts(
        "Assets/Scripts/Hud", "Clock", lambda i: f"    // shows the player the time left on the level, {i}", "c"
    )
    return write_project(tmp_path, files)


def _project(root: Path):
    update(root, Config(workers=1))
    return open_workspace(root, [(root, Config())]).projects[0]


def test_a_column_is_a_field_of_the_registry_s_row_class(tmp_path: Path) -> None:
    """`Row`, the element of `Progression.rows`, declares the columns: "time" and "reward" name one; the
    list's own field ("version"), a kind of file ("prefab") and the asset's name ("progression") do not."""
    project = _project(_levels(tmp_path))
    assert names_column(project, LIST, _stems("time", "third"))
    assert names_column(project, LIST, _stems("reward"))
    for words in (("version",), ("prefab",), ("progression",), ()):
        assert not names_column(project, LIST, _stems(*words)), words


def test_a_named_row_raises_the_registry_to_the_best_item_s_score(tmp_path: Path) -> None:
    """Reached through three level prefabs: at the best one's score (9) when the task numbers a
    level it holds and names a column; at 0.9 of it when it asks each one's value; else not. Its
    class rises with it, at 0.9 of its score (`_raise_class`)."""
    pairs = FakePairs(_project(_levels(tmp_path)), [CLASS, *LEVELS[:3]])
    raise_item_registries(pairs, _stems("time"), items=False, numbered=frozenset({LEVELS[2]}))
    assert pairs.raised == {
        LIST: (pytest.approx(9.0), ("lists_items_of", LEVELS[0], ())),
        CLASS: (pytest.approx(8.1), ("script", LIST, ())),
    }
    for stems, numbered in ((_stems("speed"), {LEVELS[2]}), (_stems("time"), set())):
        pairs.raised.clear()
        raise_item_registries(pairs, stems, items=False, numbered=frozenset(numbered))
        assert pairs.raised == {}, (stems, numbered)
    raise_item_registries(pairs, _stems("time"), items=True)
    assert pairs.raised == {
        LIST: (pytest.approx(8.1), ("lists_items_of", LEVELS[0], ())),
        CLASS: (pytest.approx(7.29), ("script", LIST, ())),
    }


def test_a_task_naming_a_level_s_row_ranks_the_list_without_a_list_word(tmp_path: Path, monkeypatch) -> None:
    """ "Give the player more time on the third level": no "each" or "list"; the list asset ranks
    in the best three with the rule, below them without it (ROWS_SHARE 0); "the enemies on the third
    level are too fast" names no column and leaves it out."""
    root = _levels(tmp_path)
    task = "Give the player more time on the third level"
    assert LIST in _ranked(root, task, 3)
    assert LIST not in _ranked(root, "The enemies on the third level are too fast", 3)
    monkeypatch.setattr(registries, "ROWS_SHARE", 0.0)
    assert LIST not in _ranked(root, task, 3)
