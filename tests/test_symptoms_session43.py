"""A bug report in a player's words tells a fault without naming one ("never", "doesn't", "keeps",
"still"): it asks for code as one saying "bug" does (`file_roles.role_words`, docs/retrieval.md,
session 43)."""

from __future__ import annotations

from pathlib import Path

from indexer.identifiers import said_words
from indexer.query.file_roles import role_words

from .conftest import meta, write_project
from .test_trials_session32 import _workspace

ENEMY = "0c4a9e1f2b3d4c5e6f708192a3b4c5d6"
TOWER = "1d5b0f2a3c4e5d6f708192a3b4c5d6e7"


def test_a_fault_told_in_a_player_s_words_reads_as_one_named() -> None:
    text = "the orcs' health bars hit zero but the round never ends"
    assert role_words(said_words(text), text, ()) == [*said_words(text), "bug"]
    told_so = (
        "the door doesn't open",
        "the door doesn’t open",
        "the door does not open",
        "the doors don't open",
        "the doors do not open",
        "the door won't open",
        "the door can't be opened",
        "the door cannot be opened",
        "the door isn't opening",
        "the doors aren't opening",
        "the door didn't open",
        "the door no longer opens",
        "the door never opens",
        "the level keeps running",
        "he still stands there",
    )
    for told in told_so:
        assert role_words(said_words(told), told, ())[-1] == "bug", told
    asked = "make the ring bigger so they keep apart"  # a change asked for: no fault
    assert role_words(said_words(asked), asked, ()) == said_words(asked)
    named = "fix the bug where the door never opens"  # named already: not twice
    assert role_words(said_words(named), named, ()).count("bug") == 1


def _prefab(name: str, script: str, fields: str) -> str:
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        f"--- !u!1 &100\nGameObject:\n  m_Component:\n  - component: {{fileID: 101}}\n  - component: {{fileID: 102}}\n"
        f"  m_Name: {name}\n  m_IsActive: 1\n"
        "--- !u!4 &101\nTransform:\n  m_GameObject: {fileID: 100}\n  m_Children: []\n  m_Father: {fileID: 0}\n"
        f"--- !u!114 &102\nMonoBehaviour:\n  m_GameObject: {{fileID: 100}}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {script}, type: 3}}\n  m_Name: \n{fields}"
    )


def test_a_bug_told_as_doesn_t_ranks_the_tower_s_code_above_its_prefab(tmp_path: Path) -> None:
    """ "the tower still doesn't hurt the orc boss" is a fault: the tower's script (its damage
    code) ranks above the tower's prefab, which a task asking for code already puts below
    scripts (CODE_TASK_ASSET_PRIOR); told as a fault, every file but scripts ranks FAULT_PRIOR
    lower again. Before, the prefab (`damage: 3`) was third and the script fourth."""
    files = {
        "Assets/Scripts/EnemyView.cs": (
            "using UnityEngine;\npublic class EnemyView : MonoBehaviour\n{\n    public int life = 10;\n"
            "    public HealthBar healthBar;\n"
            "    public void OnDamage(int damage) { life -= damage; healthBar.Show(life); if (life == 0) Die(); }\n"
            "    void Die() { RoundManager.EnemyDied(this); Destroy(gameObject); }\n}\n"
        ),
        "Assets/Scripts/EnemyView.cs.meta": meta(ENEMY),
        "Assets/Scripts/TowerAffectedArea.cs": (
            "using UnityEngine;\npublic class TowerAffectedArea : MonoBehaviour\n{\n    public int damage = 1;\n"
            "    void OnTriggerStay(Collider other) { other.GetComponent<EnemyView>()?.OnDamage(damage); }\n}\n"
        ),
        "Assets/Scripts/TowerAffectedArea.cs.meta": meta(TOWER),
        "Assets/Prefabs/Enemy/Orc.prefab": _prefab("Orc", ENEMY, "  life: 10\n  healthBar: {fileID: 0}\n"),
        "Assets/Prefabs/Enemy/OrcBoss.prefab": _prefab("OrcBoss", ENEMY, "  life: 30\n  healthBar: {fileID: 0}\n"),
        "Assets/Prefabs/Towers/TowerDamageArea.prefab": _prefab("TowerDamageArea", TOWER, "  damage: 3\n"),
    }
    ws = _workspace(write_project(tmp_path / "P", files))
    hits = [h.path for h in ws.search("the tower still doesn't hurt the orc boss", 10)]
    assert hits[:3] == [
        "Assets/Prefabs/Enemy/OrcBoss.prefab",
        "Assets/Scripts/EnemyView.cs",
        "Assets/Scripts/TowerAffectedArea.cs",
    ]
