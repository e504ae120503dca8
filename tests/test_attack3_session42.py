"""The third attacker's findings (session 42), each seen failing before its fix."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .conftest import copy_fixture, run_cli

CONTROLLER = "Assets/Scripts/Player/PlayerController.cs"
CONTROLLER_GUID = "37ff862a6b9f757ca68eb080acb58bce"
PREFAB_COPY = "Assets/Art/Copy.prefab"  # sorts before the script


def ask(root: Path, *args: str) -> dict:
    r = run_cli(*args, "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def prefab_with_a_scripts_meta(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A prefab copied outside Unity and given a copy of PlayerController.cs's .meta."""
    root = copy_fixture(tmp_path_factory.mktemp("shared") / "DungeonCrawler")
    (root / "Assets/Art").mkdir()
    shutil.copy(root / "Assets/Prefabs/VFX/FX_Heal.prefab", root / PREFAB_COPY)
    shutil.copy(root / f"{CONTROLLER}.meta", root / f"{PREFAB_COPY}.meta")
    assert run_cli("index", "--project", str(root)).returncode == 0
    return root


def test_m_script_names_the_script_not_a_prefab_sharing_its_guid(prefab_with_a_scripts_meta: Path) -> None:
    """A component's `m_Script` names a script: the prefab given the script's .meta, first by
    path, was named as Player's component (`Copy.prefab (declares no class)`, every field unused)."""
    root = prefab_with_a_scripts_meta
    player = ask(root, "describe", "Assets/Prefabs/Player.prefab")
    assert player["text"].splitlines()[2] == (
        "  components: Transform, CharacterController, PlayerController, PlayerHealth, PlayerCombat, Inventory"
    )
    assert {"path": CONTROLLER, "edge": "script"} in player["uses"]
    assert PREFAB_COPY not in {e["path"] for e in player["uses"]}
    refs = ask(root, "refs", CONTROLLER_GUID)
    assert refs["target"]["path"] == CONTROLLER
    assert refs["target"]["note"] == (
        f"GUID {CONTROLLER_GUID} is also that of {PREFAB_COPY} (copied with its .meta outside Unity?): Unity"
        f" keeps it for one file and gives the others new GUIDs on import; usages by it are listed for {CONTROLLER}"
    )
    assert [u["path"] for u in refs["usages"]] == ["Assets/Prefabs/Player.prefab", "Assets/Scenes/Dungeon.unity"]
    copy = ask(root, "describe", PREFAB_COPY)
    assert copy["text"].splitlines()[1].startswith(f"note: GUID {CONTROLLER_GUID} is also that of {CONTROLLER} ")
    assert copy["used_by"] == []
