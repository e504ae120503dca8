"""The data asset a best script's settings live in, given where the script is placed
(docs/retrieval.md, "Session 54, the data asset a script's carrier holds"): on small projects."""

from __future__ import annotations

from pathlib import Path

from .conftest import data_asset, filler_scripts, meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked

SCENE = "Assets/Scenes/Novel.unity"
TASK = "The speaker's name in the dialogue box should be bigger by default"
SYSTEM = "Assets/Scripts/DialogueSystem.cs"
BOX = "Assets/Prefabs/DialogueBox.prefab"
LOOK_B = "Assets/Configuration/Dialogue Look B.asset"
_SYSTEM, _CONFIG, _ASSET = "a1" * 16, "b2" * 16, "c3" * 16


def _novel(
    tmp_path: Path,
    asset: str = "Dialogue Look B",
    field: str = "_look",
    more: int = 0,
    use: str = ".labelSize",
    klass: str = "PresentationSO",
    box: bool = False,
) -> Path:
    """A visual novel: `DialogueSystem.cs` reads its label sizes from the `klass` in its `field`
    (`{field}{use}`), which the scene carrying it sets to the data asset `asset`; four other looks
    of the class that nothing holds (`Dialogue Look A` ...), A held in the same field by a
    dialogue box prefab carrying the script when `box`; `more` assets of the class more
    (`Dialogue Extra 0` ...) in fields `field` + a number; eight scripts telling of speakers'
    names in the dialogue box."""
    extra = "".join(f"  {field}{i}: {{fileID: 11400000, guid: {i:02x}{'c3' * 15}, type: 2}}\n" for i in range(more))
    files: dict[str, str] = {
        SYSTEM: mono_script(
            "DialogueSystem",
            f"    [SerializeField] private {klass} {field};\n"
            "    public void ShowSpeakerName(string speaker)\n    {\n"
            f"        nameText.fontSize = {field}{use};\n        nameText.text = speaker;\n    }}",
        ),
        f"{SYSTEM}.meta": meta(_SYSTEM),
        f"Assets/Scripts/{klass}.cs": (
            f"using UnityEngine;\npublic class {klass} : ScriptableObject\n{{\n"
            "    public float labelSize = 20;\n    public float bodySize = 18;\n}\n"
        ),
        f"Assets/Scripts/{klass}.cs.meta": meta(_CONFIG),
        f"Assets/Configuration/{asset}.asset": data_asset(_CONFIG, asset, "  labelSize: 20\n  bodySize: 18\n"),
        f"Assets/Configuration/{asset}.asset.meta": meta(_ASSET, "NativeFormatImporter"),
        SCENE: script_prefab("Dialogue", _SYSTEM, f"  {field}: {{fileID: 11400000, guid: {_ASSET}, type: 2}}\n{extra}"),
        f"{SCENE}.meta": meta("e5" * 16, "DefaultImporter"),
    }
    if box:
        held = f"  {field}: {{fileID: 11400000, guid: {'00' + 'd4' * 15}, type: 2}}\n"
        files[BOX] = script_prefab("Box", _SYSTEM, held)
        files[f"{BOX}.meta"] = meta("e6" * 16, "PrefabImporter")
    for i, spare in enumerate("ACDE"):  # the class's other looks, which nothing holds
        look = f"Assets/Configuration/Dialogue Look {spare}.asset"
        files[look] = data_asset(_CONFIG, f"Dialogue Look {spare}", "  labelSize: 12\n")
        files[f"{look}.meta"] = meta(f"{i:02x}" + "d4" * 15, "NativeFormatImporter")
    for i in range(more):
        extra_asset = f"Assets/Configuration/Dialogue Extra {i}.asset"
        files[extra_asset] = data_asset(_CONFIG, f"Extra {i}", "  labelSize: 14\n")
        files[f"{extra_asset}.meta"] = meta(f"{i:02x}" + "c3" * 15, "NativeFormatImporter")
    line = "    // the speaker's name in the dialogue box ({0})\n    public string speakerName{0};"
    files.update(filler_scripts("Assets/Scripts/Story", "SpeakerLine", line.format, "f6"))
    return write_project(tmp_path, files)


def test_the_data_asset_the_scene_gives_a_best_script_ranks_with_it(tmp_path: Path) -> None:
    """`Dialogue Look B.asset`, the one of its class the scene sets on `DialogueSystem`'s `_look`,
    ranks right under the script (11th without the rule: a scene holds it and its class has five,
    so read_data passes it over); the class's other looks, which nothing holds, are not raised."""
    ranked = _ranked(_novel(tmp_path), TASK, 12)
    assert ranked[:2] == [SYSTEM, LOOK_B]
    assert ranked.index("Assets/Configuration/Dialogue Look A.asset") > 5


def test_an_asset_named_with_no_word_of_the_task_is_not_raised(tmp_path: Path) -> None:
    """The same asset named `Setup B` says no word of the task: it is not raised."""
    ranked = _ranked(_novel(tmp_path, asset="Setup B"), TASK, 12)
    assert ranked[0] == SYSTEM
    assert "Assets/Configuration/Setup B.asset" not in ranked[:5]


def test_a_script_holding_more_than_three_such_assets_raises_none(tmp_path: Path) -> None:
    """Four data assets named for the dialogue in one component are a list, not the script's
    settings: none is raised (HELD_DATA_MOST)."""
    ranked = _ranked(_novel(tmp_path, more=3), TASK, 12)
    assert ranked[0] == SYSTEM
    assert not any(p.startswith("Assets/Configuration/") for p in ranked[:5])


def test_an_event_channel_the_script_raises_is_not_raised(tmp_path: Path) -> None:
    """The same asset on a field the script calls a method of (`_look.Raise()`, an event channel
    as `channels.channel_roles` reads it) is no setting: not raised."""
    ranked = _ranked(_novel(tmp_path, use=".Raise()"), TASK, 12)
    assert ranked[0] == SYSTEM
    assert LOOK_B not in ranked[:5]


def test_the_carriers_pick_is_raised_by_a_word_of_its_own(tmp_path: Path) -> None:
    """Where the scene holds `Dialogue Look B` and a dialogue box prefab `Dialogue Look A` in the
    same field, B is raised (4th, under the box, its look and the script) when the task's word
    "dialogue" is its own, not when its class, `DialogueLookSO`, says it too (B's own word is
    "b"); held by the scene alone, it is raised whatever its class says."""
    assert LOOK_B in _ranked(_novel(tmp_path / "own", box=True), TASK, 12)[:5]  # 4th (out without the rule)
    ranked = _ranked(_novel(tmp_path / "class", box=True, klass="DialogueLookSO"), TASK, 12)
    assert LOOK_B not in ranked[:5]
    assert _ranked(_novel(tmp_path / "one", klass="DialogueLookSO"), TASK, 12)[:2] == [SYSTEM, LOOK_B]
