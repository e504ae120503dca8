"""A twelfth trial on two unseen games (docs/retrieval.md, session 50): what it found wrong, on a
small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.query.file_roles import kit_logic_only

from .conftest import meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked

KIT_PROBE = "c1201000000000000000000000000001"
STAGE = "c1201000000000000000000000000002"
GAME_PLAYER = "c1201000000000000000000000000003"
PORTAL = "c1201000000000000000000000000004"
PORTAL_PREFAB = "c1201000000000000000000000000005"


def _scene(*sources: str) -> str:
    """A scene placing one instance of each prefab `sources` (GUIDs)."""
    out = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
    for i, source in enumerate(sources):
        out += (
            f"--- !u!1001 &{900 + i}\nPrefabInstance:\n  m_Modification:\n    m_TransformParent: {{fileID: 0}}\n"
            "    m_Modifications: []\n    m_RemovedComponents: []\n"
            f"  m_SourcePrefab: {{fileID: 100100000, guid: {source}, type: 3}}\n"
        )
    return out


def _art_packs(tmp_path: Path) -> Path:
    """An action RPG with its art packs in one folder: a character kit (its read-me marks it
    third-party) whose `GroundProbe` sits on the rocks of a demo stage, `Level.prefab`, in the
    publisher's demo folder beside the kit (no read-me of its own) and placed only in the kit's
    demo scene; the game's portal loading the next level, on its own prefab in the game's scene;
    the game's player carrying the kit's probe, placed in the game's scene."""
    probe = "    // keeps a character on the ground of the level\n    public bool drawTreeOnStart;"
    files = {
        "Assets/ArtPacks/Studio/CharacterKit/readme.txt": "Thank you for buying the character kit.",
        "Assets/ArtPacks/Studio/CharacterKit/Code/GroundProbe.cs": mono_script("GroundProbe", probe),
        "Assets/ArtPacks/Studio/CharacterKit/Code/GroundProbe.cs.meta": meta(KIT_PROBE),
        "Assets/ArtPacks/Studio/CharacterKit/Scenes/Demo.unity": _scene(STAGE),
        "Assets/ArtPacks/Studio/Demo Elements/Prefabs/Level.prefab": script_prefab(
            "Level", KIT_PROBE, "  drawTreeOnStart: 1\n"
        ),
        "Assets/ArtPacks/Studio/Demo Elements/Prefabs/Level.prefab.meta": meta(STAGE, "PrefabImporter"),
        "Assets/Scripts/Portal.cs": mono_script(
            "Portal",
            "    // walking into it loads the next scene\n    public string targetScene;\n"
            "    void OnTriggerEnter(Collider other) { SceneManager.LoadSceneAsync(targetScene); }",
        ),
        "Assets/Scripts/Portal.cs.meta": meta(PORTAL),
        "Assets/Prefabs/Portal.prefab": script_prefab("Portal", PORTAL, "  targetScene: Canyon\n"),
        "Assets/Prefabs/Portal.prefab.meta": meta(PORTAL_PREFAB, "PrefabImporter"),
        "Assets/Prefabs/Player.prefab": script_prefab("Player", KIT_PROBE, "  drawTreeOnStart: 0\n"),
        "Assets/Prefabs/Player.prefab.meta": meta(GAME_PLAYER, "PrefabImporter"),
        "Assets/Scenes/Village.unity": _scene(PORTAL_PREFAB, GAME_PLAYER),
    }
    return write_project(tmp_path / "P", files)


def test_an_art_packs_demo_stage_on_a_kits_script_is_looks_not_the_games_logic(tmp_path: Path) -> None:
    """ "Walking into a doorway loads another map: which script does it and which prefab is placed
    in the level for it?" had the RPG demo's `ArtPacks/ExplosiveLLC/Demo Elements/Prefabs/Stage/
    Level.prefab` first: it carries a script (the character kit's `BSPTree`), so it was not art,
    though the script is a kit's and only the kit's demo scene places it. Such a prefab now takes
    the art prior (file_roles._is_art): here the demo stage, first without the rule, ranks below the
    game's portal and its prefab. The game's player, carrying the same kit script but placed in the
    game's scene, is the game's; the kit's own prefab is the vendored prior's."""
    root = _art_packs(tmp_path)
    assert _ranked(root, "Which prefab is placed in the level to load the next scene?", 3) == [
        "Assets/Prefabs/Portal.prefab",
        "Assets/Scripts/Portal.cs",
        "Assets/ArtPacks/Studio/Demo Elements/Prefabs/Level.prefab",
    ]


def test_kit_logic_only_asks_every_script_a_kits_and_every_user_a_kits(tmp_path: Path) -> None:
    """The demo stage is one; the game's player (placed in the game's scene) and portal (a game
    script) are not, nor a prefab inside the kit's folder (VENDORED_PRIOR's, spared when the task
    names the kit)."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    root = _art_packs(tmp_path)
    kit_prefab = "Assets/ArtPacks/Studio/CharacterKit/Prefabs/Rock.prefab"
    (root / kit_prefab).parent.mkdir(parents=True)
    (root / kit_prefab).write_text(script_prefab("Rock", KIT_PROBE), encoding="utf-8")
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0].fresh()
    assert project.vendored == {"Assets/ArtPacks/Studio/CharacterKit/"}
    only = {
        p: kit_logic_only(project.graph, p, project.vendored)
        for p in (
            "Assets/ArtPacks/Studio/Demo Elements/Prefabs/Level.prefab",
            "Assets/Prefabs/Player.prefab",
            "Assets/Prefabs/Portal.prefab",
            kit_prefab,
        )
    }
    assert only == {
        "Assets/ArtPacks/Studio/Demo Elements/Prefabs/Level.prefab": True,
        "Assets/Prefabs/Player.prefab": False,
        "Assets/Prefabs/Portal.prefab": False,
        kit_prefab: False,
    }
