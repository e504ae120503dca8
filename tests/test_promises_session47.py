"""Promises of session 47's ranking rules' docstrings that no other test pins (docs/retrieval.md,
session 47): a numbered file is named by its word and number, padded or spaced; a plain class's
builders rank only when few; a component's adder only when it is the one."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.named_files import files_numbered
from indexer.query.workspace import open_workspace

from .conftest import ranked_paths, write_project
from .test_trials2_session47 import _blocks
from .test_trials_session47 import _frost

SCENE = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!29 &1\nOcclusionCullingSettings:\n  m_ObjectHideFlags: 0\n"


def test_numbered_files_padded_or_spaced_and_not_others(tmp_path: Path) -> None:
    """ "level 7" names `Level 7.unity` and `Level_07.asset`; not `Level 17.unity` (another
    number), `Stage 7.prefab` (another word) or a script."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scenes/Level 7.unity": SCENE,
            "Assets/Scenes/Level 17.unity": SCENE,
            "Assets/Data/Level_07.asset": SCENE,
            "Assets/Prefabs/Stage 7.prefab": SCENE,
            "Assets/Scripts/Level7.cs": "public class Level7 {}\n",
        },
    )
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    assert files_numbered(project, "Loading level 7 sends me back to the menu") == [
        "Assets/Data/Level_07.asset",
        "Assets/Scenes/Level 7.unity",
    ]


def _more_builders(root: Path, n: int) -> Path:
    """`n` more scripts building the frost class with a number, beside the gun modifier."""
    for i in range(n):
        (root / f"Assets/Scripts/Frosty{i}.cs").write_text(
            f"public class Frosty{i} {{ void Start() {{ var f = new Frost(2, 3); }} }}\n"
        )
    return root


def test_a_plain_class_built_in_more_than_three_files_raises_none_of_them(tmp_path: Path) -> None:
    """The frost class's builder ranks with it alone (tests/test_trials_session47.py); with three
    more files building it with numbers (four: over CONSTRUCTORS_MOST) none is raised."""
    text = "Make the frost bullets' area of effect bigger"
    assert "Assets/Scripts/GunModifier.cs" in ranked_paths(_frost(tmp_path / "one"), text, 3)
    assert ranked_paths(_more_builders(_frost(tmp_path / "four"), 3), text, 4) == [
        "Assets/Scripts/AreaOfEffect.cs",
        "Assets/Scripts/Frost.cs",
        "Assets/Scripts/FrostSound.cs",
        "Assets/Scripts/EffectSpawner.cs",
    ]  # the four builders below, by their text alone


def test_a_component_two_scripts_add_raises_neither(tmp_path: Path) -> None:
    """`BlockManager.cs` adding the game-ending component ranks with it
    (tests/test_trials2_session47.py); when a second script adds it too, neither is the one that
    wires it, and neither is raised."""
    text = "Where is it decided that destroying the base ends the game?"
    assert "Assets/Scripts/BlockManager.cs" in ranked_paths(_blocks(tmp_path / "one"), text, 3)
    two = _blocks(tmp_path / "two")
    (two / "Assets/Scripts/Boss.cs").write_text(
        "using UnityEngine;\npublic class Boss : MonoBehaviour\n{\n"
        "    void Start() { gameObject.AddComponent<DeathEndsGame>(); }\n}\n"
    )
    assert "Assets/Scripts/BlockManager.cs" not in ranked_paths(two, text, 3)
