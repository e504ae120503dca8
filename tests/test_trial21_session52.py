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


def _horror_game(tmp_path: Path) -> Path:
    """A first-person horror game: the item the player holds is put away after a delay
    (`ItemView.HideItem`), an inventory lists what was picked up, a pickup puts an item in
    the player's hand, a helper fades a popup out (`PopupDisappear`), a message shows for a few
    seconds, a door opens with a key item in hand."""
    files = {
        "Assets/Scripts/Player/ItemView.cs": mono_script(
            "ItemView",
            "    public float autoHideItemDelay = 10f;\n    public Transform itemModel;\n"
            "    // show the item in front of the camera, then put it away after the delay\n"
            "    public void ShowItem(GameObject item)\n"
            "    { item.SetActive(true); Invoke(nameof(HideItem), autoHideItemDelay); }\n"
            "    public void HideItem() { itemModel.gameObject.SetActive(false); }",
        ),
        "Assets/Scripts/Player/Inventory.cs": mono_script(
            "Inventory",
            "    public System.Collections.Generic.List<string> items =\n"
            "        new System.Collections.Generic.List<string>();\n"
            "    // the items the player is holding, and the one in their hand\n"
            "    public string activeItem;\n    public void Add(string item) { items.Add(item); activeItem = item; }",
        ),
        "Assets/Scripts/Items/ItemPickup.cs": mono_script(
            "ItemPickup",
            "    public string itemId;\n"
            "    // the player picks the item up: it goes into the inventory and into their hand\n"
            "    public void Interact(Inventory inventory) { inventory.Add(itemId); gameObject.SetActive(false); }",
        ),
        "Assets/Scripts/Helpers/TweenHelper.cs": (
            "using UnityEngine;\n\npublic static class TweenHelper\n{\n"
            "    // scale a popup down until it disappears, over the given seconds\n"
            "    public static void PopupDisappear(Transform popup, float seconds) { }\n}\n"
        ),
        "Assets/Scripts/UI/MessagePopup.cs": mono_script(
            "MessagePopup",
            "    public float seconds = 3f;\n    public UnityEngine.UI.Text label;\n"
            "    // show a message for a few seconds, then let it disappear\n"
            "    public void Show(string text) { label.text = text; }",
        ),
        "Assets/Scripts/World/LockedDoor.cs": mono_script(
            "LockedDoor",
            "    public string keyItem;\n    // open when the player is holding the key item in their hand\n"
            "    public bool TryOpen(Inventory inventory) => inventory.activeItem == keyItem;",
        ),
    }
    return write_project(tmp_path, files)


def test_a_thing_that_disappears_is_hidden_in_code(tmp_path: Path) -> None:
    """ "The item I'm holding disappears from my hand after a few seconds": the item view, which
    hides the item after its delay (`HideItem`, `autoHideItemDelay`), ranks third, above the
    message popup: "disappear" also searches "hide" and "vanish" (`synonyms._GROUPS`). Without the
    group it ranked fourth, under the popup, which says "disappear" and "seconds"."""
    root = _horror_game(tmp_path)
    ranked = _ranked(root, "the item I'm holding disappears from my hand after a few seconds", 4)
    assert ranked == [
        "Assets/Scripts/Helpers/TweenHelper.cs",
        "Assets/Scripts/Items/ItemPickup.cs",
        "Assets/Scripts/Player/ItemView.cs",
        "Assets/Scripts/UI/MessagePopup.cs",
    ]
