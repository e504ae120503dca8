"""A fifteenth trial on two unseen games (docs/retrieval.md, session 51): what it found wrong, on
small projects of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.query.vendored import vendored_folders

from .conftest import meta, mono_script, write_project
from .conftest import ranked_paths as _ranked


def _tower_game(tmp_path: Path) -> Path:
    """A tower defense's own turret code beside a whole sample project copied in below
    `Assets/Samples Raw/TowerKit/`, with its own `Assets/` folder: the sample's towers, their
    targetting say the words of a turret task, and the sample's manual sits in
    its own `Documentation/` folder (no library ships beside it)."""
    kit = "Assets/Samples Raw/TowerKit/Assets"
    files = {
        "Assets/Scripts/Defense/Cannon.cs": mono_script(
            "Cannon",
            "    [SerializeField] private float rotateSpeed;\n    private Transform _enemy;\n"
            "    // the turret decides which enemy to aim at: the closest in range\n"
            "    private void Aim(Vector3 enemy) { transform.rotation = Quaternion.LookRotation(enemy); }",
        ),
        "Assets/Scripts/Defense/Cannon.cs.meta": meta("a1000000000000000000000000000001"),
        f"{kit}/Documentation/TowerDefenseDocumentation.pdf.meta": meta(
            "a1000000000000000000000000000002", "DefaultImporter"
        ),
        f"{kit}/Scripts/Towers/TowerTargetter.cs": mono_script(
            "TowerTargetter",
            "    public float turretRange;\n    public Targetable currentTarget;\n"
            "    // picks the enemy nearest to the turret as its target\n"
            "    public Targetable GetNearestTarget() { return currentTarget; }\n"
            "    public void AimTurret() { }",
        ),
        f"{kit}/Scripts/Towers/TowerTargetter.cs.meta": meta("a1000000000000000000000000000003"),
        f"{kit}/Scripts/Towers/Tower.cs": mono_script(
            "Tower",
            "    public TowerTargetter targetter;\n    // a turret tower: it aims at the enemy its targetter picks\n"
            "    public void AimAtEnemy() { targetter.AimTurret(); }",
        ),
        f"{kit}/Scripts/Towers/Tower.cs.meta": meta("a1000000000000000000000000000004"),
    }
    return write_project(tmp_path / "P", files)


def test_a_unity_project_copied_in_whole_is_third_party(tmp_path: Path) -> None:
    """A tower defense kept a sample project's whole tree below `Assets/UnityTechRaw/KartAndFPS/`,
    its own `Assets/` folder inside: 391 scripts of an FPS, a kart game and a tower defense, whose
    manuals marked only their `Documentation/` folders. The sample's code led "where does a turret
    decide which enemy to aim at" and "make the medkit heal 25 health instead of 10"; a nested
    `Assets/` marks the project copied in, as a whole, third-party."""
    root = _tower_game(tmp_path)
    assert _ranked(root, "where does a turret decide which enemy to aim at")[0] == "Assets/Scripts/Defense/Cannon.cs"
    assert vendored_folders(
        [
            "Assets/Samples Raw/TowerKit/Assets/Documentation/TowerDefenseDocumentation.pdf.meta",
            "Assets/Raw/Kart/Assets/Karting/Documentation/KartManual.pdf",  # deeper: the same project
            "Assets/Kits/Docs/LICENSE.md",  # no nested Assets/: its own folder, as before
        ]
    ) == {"Assets/Samples Raw/TowerKit/", "Assets/Raw/Kart/", "Assets/Kits/Docs/"}
    # a nested project holding a scene of the build is the game itself, not a copied-in sample
    assert (
        vendored_folders(["Assets/Game/Assets/Docs/LICENSE.md"], build_scenes=["Assets/Game/Assets/Scenes/Main.unity"])
        == frozenset()
    )
