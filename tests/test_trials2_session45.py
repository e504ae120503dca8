"""A second user's trial on two unseen games (docs/retrieval.md, session 45): what it found wrong,
each on a small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.file_roles import role_words
from indexer.query.workspace import open_workspace

from .conftest import meta, mono_script, script_prefab, write_project

TIMELINE_PACKAGE = "f2b2d1b7c8e94e1a9b7c6d5e4f3a2b1c"
SHIP = "1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f"
SPAWN_ASSET = "2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f70"
SHIP_PREFAB = "3e4f5a6b7c8d9e0f1a2b3c4d5e6f7081"
WAVE = "4f5a6b7c8d9e0f1a2b3c4d5e6f708192"


def _timeline(name: str, track: str, spawned: str) -> str:
    """A Timeline asset (`.playable`): the timeline, one track, one clip of the game's spawn
    playable naming the prefab it spawns."""
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        "--- !u!114 &11400000\nMonoBehaviour:\n  m_GameObject: {fileID: 0}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 337831424, guid: {TIMELINE_PACKAGE}, type: 3}}\n  m_Name: {name}\n"
        "  m_Tracks:\n  - {fileID: 200}\n"
        "--- !u!114 &200\nMonoBehaviour:\n  m_GameObject: {fileID: 0}\n"
        f"  m_Script: {{fileID: -1095772578, guid: {TIMELINE_PACKAGE}, type: 3}}\n  m_Name: {track}\n"
        "  m_Clips:\n  - m_Start: 2\n    m_Duration: 5\n    m_Asset: {fileID: 300}\n    m_DisplayName: Wave\n"
        "--- !u!114 &300\nMonoBehaviour:\n  m_GameObject: {fileID: 0}\n"
        f"  m_Script: {{fileID: 11500000, guid: {SPAWN_ASSET}, type: 3}}\n  m_Name: SpawnAsset\n"
        f"  prefab: {{fileID: 100, guid: {spawned}, type: 3}}\n"
    )


def _ship_prefab(name: str) -> str:
    return script_prefab(name, SHIP, "  energy: 3\n")


def _shooter(tmp_path: Path) -> Path:
    """A shooter whose waves are timelines named for the wave, not "timeline" (Danmaku's
    `Phase3.playable` spawning `AlienShipRed.prefab`), beside the scripts of its ships and spawns."""
    return write_project(
        tmp_path,
        {
            "Assets/Scripts/EnemyShip.cs": mono_script(
                "EnemyShip",
                "public int energy = 1;\n"
                "void OnCollisionEnter2D(Collision2D c) { energy--; if (energy == 0) Destroy(gameObject); }",
            ),
            "Assets/Scripts/EnemyShip.cs.meta": meta(SHIP),
            "Assets/Scripts/SpawnAsset.cs": "using UnityEngine;\nusing UnityEngine.Playables;\n"
            "public class SpawnAsset : PlayableAsset\n{\n    public GameObject prefab;\n"
            "    public override Playable CreatePlayable(PlayableGraph g, GameObject o) { return Playable.Null; }\n}\n",
            "Assets/Scripts/SpawnAsset.cs.meta": meta(SPAWN_ASSET),
            "Assets/Scripts/ShipSpawner.cs": mono_script(
                "ShipSpawner",
                "public GameObject redShip; public GameObject whiteShip;\n"
                "public void SpawnShips(int count) { for (int i = 0; i < count; i++) Instantiate(redShip); }",
            ),
            "Assets/Scripts/WaveMixer.cs": mono_script(
                "WaveMixer", "public float volume = 1f;\npublic void Mix(float weight) { volume = weight; }"
            ),
            "Assets/Enemies/RedShip.prefab": _ship_prefab("RedShip"),
            "Assets/Enemies/RedShip.prefab.meta": meta(SHIP_PREFAB, "PrefabImporter"),
            "Assets/Waves/Phase3.playable": _timeline("Phase3", "Red Enemy Ships", SHIP_PREFAB),
            "Assets/Waves/Phase3.playable.meta": meta(WAVE, "NativeFormatImporter"),
        },
    )


def _ranks(root: Path, task: str) -> list[str]:
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    return [h.path for h in ws.search(task, 10)]


def test_a_task_saying_timeline_names_the_timeline_assets(tmp_path: Path) -> None:
    """ "which timeline spawns the red enemy ships" had Danmaku's `Phase3.playable` outside the top
    20: a `.playable` is stored as Unity YAML (as a mixer or a preset), so "timeline" named no
    kind of file as "prefab" or "scene" do, and the scripts and the prefab saying "spawn", "red"
    and "ship" ranked above it. "timeline" now names the Timeline assets (`file_roles.named_kind`,
    by the extension), which rank at NAMED_KIND_PRIOR: the wave's timeline above the spawner's
    script (before: 4th, under it; the prefab the words find stays above, as in Danmaku)."""
    order = _ranks(_shooter(tmp_path), "which timeline spawns the red enemy ships")
    timeline = order.index("Assets/Waves/Phase3.playable")
    assert timeline < order.index("Assets/Scripts/ShipSpawner.cs")


def test_a_timeline_said_as_a_span_of_time_names_no_file() -> None:
    """ "what freezes the actors during a timeline" asks for the code doing it (DarkSoulsDemo's
    held-out question lost its code to the timelines raised): a kind of file said after "during"
    or "throughout" is a span of time and names none (`file_roles._naming_no_file`). "where does
    the timeline decide to jump back" names the system playing it (A Terrible Kingdom's mixer left
    its pack): "timeline" names the assets only asked for by "which" or "what", or beside another
    kind's word ("which prefab, animator controller and timeline")."""
    said = ["freezes", "actors", "timeline"]
    assert role_words(said, "what freezes the actors during a timeline", []) == ["freezes", "actors"]
    assert role_words(said, "where does the timeline freeze the actors", []) == ["freezes", "actors"]
    assert role_words(said, "which timeline freezes the actors", []) == said
    assert role_words([*said, "prefab"], "the prefab and timeline freezing the actors", []) == [*said, "prefab"]
