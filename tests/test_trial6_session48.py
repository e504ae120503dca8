"""A new user's trial on two unseen games, on their 4,000-token packs (docs/retrieval.md, session
48): what the packs dropped, each on a small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.config import Config
from indexer.query.context import build_context
from indexer.query.tokens import counter
from indexer.query.workspace import open_workspace

from .conftest import data_asset, meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked

SPEED_TASK = "The speed boost seems to permanently change the player's movement settings"


def _platformer(tmp_path: Path) -> Path:
    """A platformer: the player's numbers in one `PlayerData` asset the player prefab holds, a
    speed changer on the prefab writing into it, a movement script beside it, and ten more player
    scripts that talk about the player's movement speed."""
    g = "b48000000000000000000000000000{:02d}".format
    moving = "    void Move() { /* player movement */ }\n"
    files = {
        "Assets/Scripts/Player/PlayerData.cs": (
            "using UnityEngine;\n[CreateAssetMenu]\npublic class PlayerData : ScriptableObject\n{\n"
            "    public float moveVelocity = 10f;\n    public float jumpVelocity = 20f;\n"
            "    public float dashVelocity = 30f;\n    public float wallSlideSpeed = 3f;\n}\n"
        ),
        "Assets/Scripts/Player/PlayerData.cs.meta": meta(g(1)),
        "Assets/Data/PlayerData.asset": data_asset(
            g(1), "PlayerData", "  moveVelocity: 10\n  jumpVelocity: 23\n  dashVelocity: 30\n  wallSlideSpeed: 3\n"
        ),
        "Assets/Data/PlayerData.asset.meta": meta(g(2), "NativeFormatImporter"),
        "Assets/Scripts/Player/SpeedChanger.cs": mono_script(
            "SpeedChanger",
            "    public PlayerData playerData;\n    float originMoveSpeed;\n"
            "    // the speed boost multiplies the player's movement speed for a while\n"
            "    public void SpeedUp(float factor) { playerData.moveVelocity = originMoveSpeed * factor; }",
        ),
        "Assets/Scripts/Player/SpeedChanger.cs.meta": meta(g(3)),
        "Assets/Prefabs/Player.prefab": script_prefab(
            "Player",
            g(3),
            f"  playerData: {{fileID: 11400000, guid: {g(2)}, type: 2}}\n"
            "--- !u!114 &103\nMonoBehaviour:\n  m_GameObject: {fileID: 100}\n  m_Enabled: 1\n"
            f"  m_Script: {{fileID: 11500000, guid: {g(11)}, type: 3}}\n  m_Name: \n  speed: 5\n  moveSpeed: 7\n",
        ),
        "Assets/Prefabs/Player.prefab.meta": meta(g(4), "PrefabImporter"),
    }
    names = ("Controller", "Movement", "Input", "Animation", "Audio", "Camera", "Dash", "Jump", "Health", "Light")
    for i, name in enumerate(names):
        body = "    // the player's movement speed and settings\n    public float speed;\n    public float moveSpeed;\n"
        files[f"Assets/Scripts/Player/Player{name}.cs"] = mono_script(f"Player{name}", body + moving * (i % 4 + 1))
        files[f"Assets/Scripts/Player/Player{name}.cs.meta"] = meta(g(10 + i))
    return write_project(tmp_path, files)


def test_a_data_asset_of_a_class_among_the_code_hits_keeps_its_rank_in_a_code_tasks_pack(tmp_path: Path) -> None:
    """Darkness Survivor's "the speed boost seems to permanently change the player's movement
    settings" ranked `PlayerData.asset` (what `SpeedChanger` writes into) 17th, reached from the
    player prefab holding it; the pack put it at 0.7 of its score, behind every script matching
    about as well, and out of the pack. A data asset of a class the code hits hold is the class's
    values, tied to that code as one reached from it: it keeps its rank. A data asset of no class
    among them (none here) still follows the code."""
    root = _platformer(tmp_path)
    ranked = _ranked(root, SPEED_TASK, 14)
    asset = "Assets/Data/PlayerData.asset"
    assert ranked[:5] == [
        "Assets/Scripts/Player/SpeedChanger.cs",
        "Assets/Scripts/Player/PlayerMovement.cs",
        "Assets/Prefabs/Player.prefab",
        "Assets/Scripts/Player/PlayerData.cs",
        asset,
    ]
    ws = open_workspace(root, [(root, Config())])
    hits = ws.search(SPEED_TASK, 14, named=False)
    reached = "text match; asset referenced by Assets/Prefabs/Player.prefab"  # not from its class
    assert [h.reason for h in hits if h.path == asset] == [reached]
    files = [f.path for f in build_context(ws, SPEED_TASK, 4000, counter("estimate")).tier2.files]
    assert files[:5] == ranked[:5]  # was 11th, after six weaker player scripts
