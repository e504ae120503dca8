"""A twenty-first trial on unseen games (docs/retrieval.md, session 52): what it found wrong, on a
small project of its own."""

from __future__ import annotations

from pathlib import Path

from .conftest import data_asset, meta, mono_script, write_project
from .conftest import ranked_paths as _ranked

BEAM_GUID = "5e0c2a7b9d1f4e38a6b4c2d0e8f61a93"
ELEMENT_GUID = "c81f3d5a7b2e49c0918d6e4fa2b7c305"
FIRE_GUID = "0a9b8c7d6e5f40312a3b4c5d6e7f8091"
WATER_GUID = "1b2c3d4e5f60718293a4b5c6d7e8f902"
FLAME = "Assets/Beams/Flame Element.asset"


def _gradient(r: float, g: float, b: float) -> str:
    """A beam's colour, as Unity writes a Gradient field."""
    return (
        "  color:\n    serializedVersion: 2\n"
        f"    key0: {{r: {r}, g: {g}, b: {b}, a: 1}}\n    key1: {{r: 1, g: 1, b: 1, a: 1}}\n"
        "    m_NumColorKeys: 2\n    m_NumAlphaKeys: 2\n"
    )


def _element_game(tmp_path: Path) -> Path:
    """A 2D game of element beams: each beam is a `SpellRay` asset (its colour, its width, the
    elements it acts on), two named for their kind ("Tide Beam", "Frost Beam") and one not ("Flame
    Element"); the tide beam acts on flame (it puts it out), so it names the flame element too. A
    shooter fires the selected beam, a melter thaws ice the flame beam touches; a torch's flame,
    a flame trap and a flame slime say "flame" as often as the beams say "beam"."""
    element = (
        "using UnityEngine;\n\n[CreateAssetMenu]\n"
        "public class Element : ScriptableObject\n{\n    public Sprite icon;\n}\n"
    )
    beam = (
        "using System.Collections.Generic;\nusing UnityEngine;\n\n[CreateAssetMenu]\n"
        "public class SpellRay : ScriptableObject\n{\n    public Gradient color;\n    public float width = 0.2f;\n"
        "    public List<Element> actsOn = new List<Element>();\n}\n"
    )
    fire, water = (f"  actsOn:\n  - {{fileID: 11400000, guid: {g}, type: 2}}\n" for g in (FIRE_GUID, WATER_GUID))
    files = {
        "Assets/Elements/Element.cs": element,
        "Assets/Elements/Element.cs.meta": meta(ELEMENT_GUID),
        "Assets/Elements/Flame.asset": data_asset(ELEMENT_GUID, "Flame", "  icon: {fileID: 0}\n"),
        "Assets/Elements/Flame.asset.meta": meta(FIRE_GUID, "NativeFormatImporter"),
        "Assets/Elements/Water.asset": data_asset(ELEMENT_GUID, "Water", "  icon: {fileID: 0}\n"),
        "Assets/Elements/Water.asset.meta": meta(WATER_GUID, "NativeFormatImporter"),
        "Assets/Beams/SpellRay.cs": beam,
        "Assets/Beams/SpellRay.cs.meta": meta(BEAM_GUID),
        "Assets/Beams/Tide Beam.asset": data_asset(BEAM_GUID, "Tide Beam", _gradient(0, 0.6, 0.9) + fire),
        "Assets/Beams/Frost Beam.asset": data_asset(BEAM_GUID, "Frost Beam", _gradient(0, 1, 1) + water),
        FLAME: data_asset(BEAM_GUID, "Flame Element", _gradient(1, 0.2, 0) + water),
        "Assets/Beams/BeamShooter.cs": mono_script(
            "BeamShooter",
            "    public SpellRay selected;\n    public LineRenderer line;\n"
            "    // draw the selected beam in its colour and hit what it touches\n"
            "    public void Fire() { line.colorGradient = selected.color; }",
        ),
        "Assets/Beams/Melter.cs": mono_script(
            "Melter",
            "    public float timeToMelt = 2f;\n    // thaw the ice a flame beam touches\n    public void OnBeam() { }",
        ),
        "Assets/World/TorchFlame.cs": mono_script(
            "TorchFlame",
            "    public float flickerSpeed = 3f;\n"
            "    // the torch's flame flickers; its light dims with it\n    void Update() { }",
        ),
        "Assets/World/FlameTrap.cs": mono_script(
            "FlameTrap",
            "    public float burnTime = 1f;\n"
            "    // a vent that spits a flame when the player steps near\n    void Update() { }",
        ),
        "Assets/Enemies/FlameSlime.cs": mono_script(
            "FlameSlime",
            "    public int health = 3;\n"
            "    // a slime made of flame: hops at the player, dies to the tide beam\n    void Update() { }",
        ),
    }
    return write_project(tmp_path, files)


def test_a_data_asset_named_by_the_task_ranks_above_its_siblings(tmp_path: Path) -> None:
    """ "Where is the flame beam's color set": `Flame Element.asset`, the one beam the task names by
    a word no other beam's name (nor their class's) holds, ranks first, above the tide and frost
    beams, which share only "beam" with the task (they ranked first and second, the flame element
    third, the flame beam fourth: the class, `SpellRay.cs`, ranks too low to raise its instance)."""
    root = _element_game(tmp_path)
    ranked = _ranked(root, "where is the flame beam's color set", 3)
    assert ranked == [FLAME, "Assets/Beams/Tide Beam.asset", "Assets/Beams/Frost Beam.asset"]

