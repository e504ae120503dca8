"""A twenty-eighth trial on unseen games (docs/retrieval.md, "Session 54, a twenty-eighth trial"):
what it found wrong, on small projects of its own."""

from __future__ import annotations

from pathlib import Path

from .conftest import filler_scripts, meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked

HEART = "Assets/Prefabs/Heart.prefab"
STAR = "Assets/Prefabs/Star.prefab"
SCENE = "Assets/Scenes/Novel.unity"
TASK = "Where is the little heart icon for relationship progress, and what spawns one per affinity point?"
_MANAGER, _HEART, _STAR = "a1" * 16, "b2" * 16, "c3" * 16


def _picture(name: str) -> str:
    """A prefab of one object with a sprite and no script: a picture."""
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        "--- !u!1 &100\nGameObject:\n  m_Component:\n  - component: {fileID: 101}\n  - component: {fileID: 102}\n"
        f"  m_Name: {name}\n  m_IsActive: 1\n"
        "--- !u!4 &101\nTransform:\n  m_GameObject: {fileID: 100}\n  m_Children: []\n  m_Father: {fileID: 0}\n"
        "--- !u!212 &102\nSpriteRenderer:\n  m_GameObject: {fileID: 100}\n  m_Enabled: 1\n"
    )


def _hearts(tmp_path: Path, field: str = "heartPrefab", manager: str = "HeartsManager", spares: int = 0) -> Path:
    """A visual novel's relationship meter: `manager` (`HeartsManager.cs`) spawns one copy of the prefab its
    `field` holds per affinity point; the scene carrying it holds `Heart.prefab` there; a star
    picture nothing holds; eight scripts telling of relationship progress."""
    files: dict[str, str] = {
        f"Assets/Scripts/{manager}.cs": mono_script(
            manager,
            f"    public GameObject {field};\n    public Transform heartsContainer;\n    public int currentHearts;\n"
            f"    public void SetHearts(int amount)\n    {{\n        currentHearts = amount;\n"
            f"        Instantiate({field}, heartsContainer);\n    }}",
        ),
        f"Assets/Scripts/{manager}.cs.meta": meta(_MANAGER),
        SCENE: script_prefab(
            "Meter", _MANAGER, f"  {field}: {{fileID: 100, guid: {_HEART}, type: 3}}\n  currentHearts: 1\n"
        ),
        f"{SCENE}.meta": meta("d4" * 16, "DefaultImporter"),
        HEART: _picture("Heart"),
        f"{HEART}.meta": meta(_HEART, "PrefabImporter"),
        STAR: _picture("Star"),
        f"{STAR}.meta": meta(_STAR, "PrefabImporter"),
    }
    for i in range(spares):  # more prefabs carrying the manager, its field left empty
        files[f"Assets/Prefabs/Meter{i}.prefab"] = script_prefab(f"Meter{i}", _MANAGER, f"  {field}: {{fileID: 0}}\n")
        files[f"Assets/Prefabs/Meter{i}.prefab.meta"] = meta(f"{i:02x}" + "f6" * 15, "PrefabImporter")
    step = "    // relationship progress ({0})\n    public int progress{0} = {0};"
    files.update(filler_scripts("Assets/Scripts/Story", "ProgressStep", step.format, "e5"))
    return write_project(tmp_path, files)


def test_the_prefab_a_best_script_spawns_ranks_with_it(tmp_path: Path) -> None:
    """The heart icon, a picture with no script, is held in the spawner's `heartPrefab` where the
    scene places it: it ranks right under `HeartsManager.cs`, above the scene (3rd without the
    rule, its prior halved as a picture's); the star nothing holds is not raised."""
    ranked = _ranked(_hearts(tmp_path), TASK, 10)
    assert ranked[:3] == ["Assets/Scripts/HeartsManager.cs", HEART, SCENE]
    assert STAR not in ranked[:5]


def test_a_field_saying_no_word_of_the_task_raises_nothing(tmp_path: Path) -> None:
    """The same prefab in a field named `template` (no word of the task) is not raised: it
    stays under the scene."""
    ranked = _ranked(_hearts(tmp_path, field="template"), TASK, 10)
    assert ranked.index(SCENE) < ranked.index(HEART)


def test_a_prefab_the_script_is_not_named_for_is_not_raised(tmp_path: Path) -> None:
    """The same heart held by `AffinityMeter.cs`, whose name says no word the heart's does, is
    something it uses, not the thing it is named for: not raised above the scene (as a run loop's
    card prefab is no answer to "which cards does the blue character start with")."""
    ranked = _ranked(_hearts(tmp_path, manager="AffinityMeter"), TASK, 10)
    assert ranked[0] == "Assets/Scripts/AffinityMeter.cs"
    assert ranked.index(SCENE) < ranked.index(HEART)


def test_a_script_placed_in_many_files_raises_nothing(tmp_path: Path) -> None:
    """A script more than HELD_CARRIERS prefabs and scenes carry is a shared part, its fields set
    for each: the heart one of them holds is not raised, and stays under the eight scripts telling
    of progress (2nd with a bound of 4 carriers)."""
    from indexer.query.held_prefabs import HELD_CARRIERS

    ranked = _ranked(_hearts(tmp_path, spares=HELD_CARRIERS), TASK, 14)
    assert ranked[0] == "Assets/Scripts/HeartsManager.cs"
    assert ranked.index(HEART) > ranked.index("Assets/Scripts/Story/ProgressStep7.cs")


def test_more_held_prefabs_than_held_most_raise_none(tmp_path: Path, monkeypatch) -> None:
    """A script whose carriers hold more than HELD_MOST prefabs the task names holds a list (a
    level's every prop), not its thing: none is raised. Shown with the bound set below the one
    heart this project holds, the ranking that raised it to 2nd."""
    from indexer.query import held_prefabs

    monkeypatch.setattr(held_prefabs, "HELD_MOST", 0)
    ranked = _ranked(_hearts(tmp_path), TASK, 10)
    assert ranked[0] == "Assets/Scripts/HeartsManager.cs"
    assert ranked.index(SCENE) < ranked.index(HEART)
