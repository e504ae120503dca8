"""The thirtieth trial (docs/retrieval.md, "Session 55, a thirtieth trial"): a number the task
wants asks for a change of an amount (asking.asks_change), so the plain class's builders passing
its values are raised with it (pairing._Pairs.constructors_of_values)."""

from __future__ import annotations

from pathlib import Path

from indexer.identifiers import said_words
from indexer.query.asking import asks_change

from .conftest import meta, mono_script, write_project
from .conftest import ranked_paths as _ranked


def test_a_number_the_task_wants_asks_a_change_of_an_amount() -> None:
    """ "I want a 15-round magazine", "3 lives instead of 5", "from 10 to 15", "raise it to 200":
    a wanted number; not an ordinal, not a number naming a thing ("go to level 3")."""
    for text in (
        "The pistol only holds 10 rounds. I want a 15-round magazine. What do I change?",
        "Players should start with 3 lives instead of 5",
        "Make the round timer go from 60 to 90 seconds",
        "Change the player's health to 200",
        "The wave timer is 60 seconds, we need 45",
        "Let players hold five cards instead of four",
    ):
        assert asks_change(said_words(text), text), text
    for text in (
        "Go to level 3 and the door stays shut",
        "Add a 4th level to the menu",
        "When I jump to the 2nd platform the camera shakes",
        "The pistol shoots when I click",
    ):
        assert not asks_change(said_words(text), text), text


def _pistol(tmp_path: Path) -> Path:
    """A shooter: the pistol and its magazine class say the task's words; the system setting the
    gun up builds the magazine with its size (`new Magazine(10, 10)`) and says none of them."""
    files = {
        "Assets/Scripts/Magazine.cs": (
            "public class Magazine\n{\n  public readonly uint Capacity;\n  public uint Remaining;\n"
            "  public Magazine(uint capacity, uint remaining) { Capacity = capacity; Remaining = remaining; }\n"
            "  // one round leaves the magazine per shot\n"
            "  public void Consume() { if (Remaining > 0) Remaining--; }\n}\n"
        ),
        "Assets/Scripts/Magazine.cs.meta": meta("e3000000000000000000000000000001"),
        "Assets/Scripts/Pistol.cs": mono_script(
            "Pistol",
            "Magazine magazine;\n// the pistol fires one round of its magazine per click\n"
            "public void Shoot() { if (magazine.Remaining > 0) magazine.Consume(); }\n"
            "public void Load(Magazine m) { magazine = m; }",
        ),
        "Assets/Scripts/Pistol.cs.meta": meta("e3000000000000000000000000000002"),
        "Assets/Scripts/GunSetup.cs": mono_script(
            "GunSetup", "public GameObject Owner;\npublic object Starting() {\n  return new Magazine(10, 10);\n}"
        ),
        "Assets/Scripts/GunSetup.cs.meta": meta("e3000000000000000000000000000003"),
        "Assets/Scripts/AmmoLabel.cs": mono_script(
            "AmmoLabel", "public UnityEngine.UI.Text Label; // shows the rounds left in the pistol's magazine"
        ),
        "Assets/Scripts/AmmoLabel.cs.meta": meta("e3000000000000000000000000000004"),
        "Assets/Scripts/ReloadSound.cs": mono_script(
            "ReloadSound", "public AudioClip Clip; // played when a magazine is loaded into the pistol"
        ),
        "Assets/Scripts/ReloadSound.cs.meta": meta("e3000000000000000000000000000005"),
        "Assets/Scripts/Crosshair.cs": mono_script("Crosshair", "public float Size; // where the pistol aims"),
        "Assets/Scripts/Crosshair.cs.meta": meta("e3000000000000000000000000000006"),
        "Assets/Scripts/Holster.cs": mono_script(
            "Holster", "public Transform Slot; // the pistol rests here, rounds and all"
        ),
        "Assets/Scripts/Holster.cs.meta": meta("e3000000000000000000000000000007"),
        "Assets/Scripts/MagazinePickup.cs": mono_script(
            "MagazinePickup", "public int Count; // a magazine lying on the floor, picked up on touch"
        ),
        "Assets/Scripts/MagazinePickup.cs.meta": meta("e3000000000000000000000000000008"),
        "Assets/Scripts/RoundCounter.cs": mono_script("RoundCounter", "public int Rounds; // rounds fired this level"),
        "Assets/Scripts/RoundCounter.cs.meta": meta("e3000000000000000000000000000009"),
    }
    return write_project(tmp_path, files)


def test_the_builder_of_a_plain_class_answers_a_wanted_number(tmp_path: Path) -> None:
    """ "The pistol only holds 10 rounds. I want a 15-round magazine" had the system building the
    magazine (`new Magazine(10, 10)`) low: the wanted 15 was not read as a change of an amount, so
    the plain class's builders were not raised (here 6th -> 4th, right under the class)."""
    ranked = _ranked(_pistol(tmp_path), "The pistol only holds 10 rounds. I want a 15-round magazine.", 8)
    assert ranked == [
        "Assets/Scripts/RoundCounter.cs",
        "Assets/Scripts/Pistol.cs",
        "Assets/Scripts/Magazine.cs",
        "Assets/Scripts/GunSetup.cs",  # 6th without the wanted number read
        "Assets/Scripts/MagazinePickup.cs",
        "Assets/Scripts/AmmoLabel.cs",
        "Assets/Scripts/Holster.cs",
        "Assets/Scripts/ReloadSound.cs",
    ]
