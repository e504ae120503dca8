"""A second user's trial on two unseen games (docs/retrieval.md, session 46): what it found wrong,
each on a small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.query.synonyms import forms

from .conftest import meta, mono_script, write_project
from .conftest import ranked_paths as _ranked


def _stealth(tmp_path: Path) -> Path:
    """A stealth game: a hiding area that hides the player (`Hide`), a detection bar whose
    `SeeBar` fills while a guard sees the player, and a guard and a player saying the task's
    other words ("player", "enemies", "game", "long") often, none of them "hidden" or "seen"."""
    return write_project(
        tmp_path,
        {
            "Assets/Scripts/HideArea.cs": mono_script(
                "HideArea", 'void OnTriggerStay(Collider other) { other.SendMessage("Hide"); }'
            ),
            "Assets/Scripts/HideArea.cs.meta": meta("1a2b3c4d5e6f708192a3b4c5d6e7f801"),
            "Assets/Scripts/DetectionUI.cs": mono_script(
                "DetectionUI",
                "public Slider SeeBar; public GameObject lostView;\n"
                "void Update() { if (SeeBar.value >= SeeBar.maxValue) lostView.SetActive(true); }",
            ),
            "Assets/Scripts/DetectionUI.cs.meta": meta("1a2b3c4d5e6f708192a3b4c5d6e7f802"),
            "Assets/Scripts/EnemyGuard.cs": mono_script(
                "EnemyGuard",
                "public Transform player; public float lookRadius; // enemies chase the player\n"
                "void Update() { if (Vector3.Distance(player.position, transform.position) < lookRadius) Chase(); }\n"
                "void Chase() { } // the player is chased by enemies for as long as the game decides",
            ),
            "Assets/Scripts/EnemyGuard.cs.meta": meta("1a2b3c4d5e6f708192a3b4c5d6e7f803"),
            "Assets/Scripts/PlayerMove.cs": mono_script(
                "PlayerMove", "public float speed; // the player moves; the game decided a long run"
            ),
            "Assets/Scripts/PlayerMove.cs.meta": meta("1a2b3c4d5e6f708192a3b4c5d6e7f804"),
        },
    )


def test_a_verb_said_in_an_irregular_form_finds_its_other_forms(tmp_path: Path) -> None:
    """ "Where is it decided that the player is hidden from the enemies?" ranked
    `HideAreaController.cs` 11th; "Where does the game decide the player has lost after being seen
    for too long?" ranked `UIController.cs` (its `SeeBar`) 7th: the stemmer joins "hides" and
    "hiding", not "hidden" and `Hide`, nor "seen" and `See`. A verb's irregular forms are searched
    as the same word (`synonyms.forms`): here the hiding area, found by no word before, is 3rd
    under the files saying the other words many times; the detection bar 3rd -> 2nd."""
    root = _stealth(tmp_path)
    assert _ranked(root, "Where is it decided that the player is hidden from the enemies?") == [
        "Assets/Scripts/EnemyGuard.cs",
        "Assets/Scripts/PlayerMove.cs",
        "Assets/Scripts/HideArea.cs",
    ]
    assert _ranked(root, "Where does the game decide the player has lost after being seen for too long?") == [
        "Assets/Scripts/PlayerMove.cs",
        "Assets/Scripts/DetectionUI.cs",
        "Assets/Scripts/EnemyGuard.cs",
    ]


def test_the_forms_of_a_verb() -> None:
    """Every form searches the others; not a form that is a word of its own ("left", "saw"), nor a
    verb whose base is a word of most code ("found": `Find`; "caught": every `catch`; "won": `Win`
    screens)."""
    assert forms("hidden") == ("hide", "hid")
    assert forms("thrown") == ("throw", "threw")
    assert forms("seen") == ("see",)
    assert forms("player") == forms("left") == forms("saw") == forms("found") == forms("caught") == forms("won") == ()
