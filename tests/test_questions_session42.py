"""Session 42's ranking changes, on the fixture (docs/retrieval.md, session 42)."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.identifiers import PART_WEIGHT, TASK_WORD_WEIGHT, query_terms, said_words, weighted_terms
from indexer.query.file_roles import role_priors
from indexer.query.priors import ART_PRIOR, CODE_TASK_ASSET_PRIOR, FAULT_PRIOR, asks_code, named_kinds
from indexer.query.workspace import Workspace, open_workspace

from .conftest import write_project

# (not "keeps playing": since session 43 a fault told so is one named, `file_roles.role_words`)
PLAIN = "the door sound goes on playing after the door opened"
FAULT = "the door sound goes on playing after the door opened, where do I fix that"


def test_a_task_reporting_a_fault_asks_for_code_even_when_it_tells_of_sounds() -> None:
    """`asks_code`: a fault word makes a task about sounds or looks a code task; not one that asks
    where something is set or names a kind of asset."""
    assert not asks_code(said_words(PLAIN))
    assert asks_code(said_words(FAULT))
    assert asks_code(said_words("the explosion effect throws an exception"))
    assert not asks_code(said_words("fix the sound volume set on the player prefab"))
    assert not asks_code(said_words("where is the bug sound configured"))
    # "code" alone does not: a question asking which code starts a movie and which UI shows it wants both
    assert not asks_code(said_words("which code plays the door sound"))


def test_a_fault_task_ranks_every_file_but_scripts_lower(ws: Workspace) -> None:
    """Reporting a fault, the same task's data asset scores FAULT_PRIOR of its score, and the prefab
    and item asset that ranked among the first six fall out of them, below the scripts."""
    plain = {h.path: h for h in ws.search(PLAIN, 20)}
    fault = ws.search(FAULT, 20)
    assert [h.path for h in fault[:3]] == [
        "Assets/Scripts/Audio/SoundLibrary.cs",
        "Assets/Scripts/Audio/AudioManager.cs",
        "Assets/Data/SoundLibrary.asset",
    ]
    asset = next(h for h in fault if h.path == "Assets/Data/SoundLibrary.asset")
    assert asset.score == pytest.approx(plain[asset.path].score * FAULT_PRIOR, abs=1e-3)
    # (the scene `AudioManager.cs` lives in alone, with it since session 46: `pairing.SCENE_SHARE`)
    assert [h.path for h in ws.search(PLAIN, 6)][3:6] == [
        "Assets/Scenes/Dungeon.unity",
        "Assets/Prefabs/Player.prefab",
        "Assets/Data/Items/Key.asset",
    ]
    assert all(h.kind == "csharp" for h in fault[3:6])
    player = next(h for h in fault if h.path == "Assets/Prefabs/Player.prefab")
    # the prefab: a code task's CODE_TASK_ASSET_PRIOR and the fault's FAULT_PRIOR, walk gains aside
    assert player.score < plain[player.path].score * CODE_TASK_ASSET_PRIOR


def test_a_task_saying_animator_asks_for_the_controller_not_the_clips_it_tells_of(ws: Workspace) -> None:
    """`named_kinds`: "animations" names clips and controllers, but with "animator" said the
    controller is what is asked for; the clip named for the task's words falls below it."""
    assert named_kinds(said_words("which animations does the enemy play")) == {"animation", "animator"}
    assert named_kinds(said_words("which animator controller holds the enemy idle animation")) == {"animator"}
    hits = ws.search("which animator controller holds the enemy idle animation", 4)
    assert [h.path for h in hits][:3] == [
        "Assets/Animations/Enemy.controller",
        "Assets/Scripts/Enemies/EnemyAI.cs",
        "Assets/Animations/EnemyIdle.anim",
    ]


URP_SETTINGS = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!114 &11400000
MonoBehaviour:
  m_ObjectHideFlags: 0
  m_GameObject: {fileID: 0}
  m_Enabled: 1
  m_Script: {fileID: 11500000, guid: 2ec995e51a6e251468d2a3fd8a686257, type: 3}
  m_Name: UniversalRenderPipelineGlobalSettings
  m_StripDebugVariants: 1
  m_StripUnusedPostProcessingVariants: 0
  m_StripUnusedVariants: 1
  m_StripScreenCoordOverrideVariants: 1
"""
ICE = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!134 &13400000
PhysicMaterial:
  m_ObjectHideFlags: 0
  m_Name: IceStrip
  dynamicFriction: 0.02
  staticFriction: 0.02
  bounciness: 0
"""


def test_a_rendering_packages_settings_are_looks(tmp_path: Path) -> None:
    """URP's global settings (a class of `com.unity.render-pipelines.universal`, known by its
    script's GUID) is how things look: it ranks at ART_PRIOR unless the task asks for looks, and
    no longer leads "which asset decides how slippery the ice strip is" by its stripping fields."""
    root = write_project(
        tmp_path,
        {
            "Assets/Settings/UniversalRenderPipelineGlobalSettings.asset": URP_SETTINGS,
            "Assets/Levels/IceStrip.physicMaterial": ICE,
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    project = ws.projects[0]
    settings = "Assets/Settings/UniversalRenderPipelineGlobalSettings.asset"
    task = "which asset decides how slippery the ice strip is"
    priors = role_priors(project, {settings: "asset"}, query_terms(task), said_words(task))
    assert priors == {settings: ART_PRIOR}
    looks = "which asset makes the ice strip look brighter"
    assert role_priors(project, {settings: "asset"}, query_terms(looks), said_words(looks)) == {}
    assert [h.path for h in ws.search(task, 5)] == ["Assets/Levels/IceStrip.physicMaterial", settings]


BALL = """public class Ball : UnityEngine.MonoBehaviour {
 public float speed;
 public void SetSpeed(float s) { speed = s; }
 public void Setup() { }
 public void SetBounce() { }
}
"""
BOUNCE = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!62 &6200000
PhysicsMaterial2D:
  m_ObjectHideFlags: 0
  m_Name: BallBounce
  friction: 0
  bounciness: 1
"""


def test_set_and_setup_said_alone_weigh_as_task_words(tmp_path: Path) -> None:
    """ "where is that set", "which asset sets up": how a value is configured, not the `SetX` and
    `Setup` methods every script has; a name quoting them keeps its parts' weight."""
    assert dict(weighted_terms("which asset sets up the bounciness"))["sets"] == TASK_WORD_WEIGHT
    assert dict(weighted_terms("where is the bounciness set"))["set"] == TASK_WORD_WEIGHT
    assert dict(weighted_terms("setup the ball"))["setup"] == TASK_WORD_WEIGHT
    assert dict(weighted_terms("SetSpeed is never called"))["set"] == PART_WEIGHT
    root = write_project(
        tmp_path,
        {"Assets/Scripts/Ball.cs": BALL, "Assets/Physics/BallBounce.physicsMaterial2D": BOUNCE},
    )
    update(root, Config(workers=1))
    hits = open_workspace(root, [(root, Config())]).search("which asset sets up the bounciness", 5)
    assert [h.path for h in hits] == ["Assets/Physics/BallBounce.physicsMaterial2D", "Assets/Scripts/Ball.cs"]
    assert hits[1].score < 0.6 * hits[0].score  # 0.93 of it when "sets" matched every `Set...` at full weight
