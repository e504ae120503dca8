"""The line a hit points at, from a new user's trial on two unseen games (docs/retrieval.md,
session 44): the field whose reference the reason names, the field of the component the walk
reached a carrier by, the field set to a number a quantity question asks the amount of."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.model import Hit
from indexer.query.workspace import open_workspace

from .conftest import meta, write_project

HEADER = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
FLOAT, HEALTH, MOVER, TRIGGER, MOVEMENT = ("a1" * 16, "b2" * 16, "c3" * 16, "d4" * 16, "e5" * 16)
MAX_HP, HP, SPEED, LOW_HP, MIXER = ("f6" * 16, "a7" * 16, "b8" * 16, "c9" * 16, "da" * 16)


def _object(go: int, name: str, components: list[int], father: int = 0) -> str:
    listed = "".join(f"  - component: {{fileID: {c}}}\n" for c in [go + 1, *components])
    return (
        f"--- !u!1 &{go}\nGameObject:\n  m_Component:\n{listed}  m_Name: {name}\n  m_IsActive: 1\n"
        f"--- !u!4 &{go + 1}\nTransform:\n  m_GameObject: {{fileID: {go}}}\n  m_Children: []\n"
        f"  m_Father: {{fileID: {father}}}\n"
    )


def _behaviour(file_id: int, go: int, script: str, rest: str) -> str:
    return (
        f"--- !u!114 &{file_id}\nMonoBehaviour:\n  m_GameObject: {{fileID: {go}}}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {script}, type: 3}}\n  m_Name: \n  m_EditorClassIdentifier: \n{rest}"
    )


def _variable(name: str, value: int) -> str:
    return (
        HEADER + "--- !u!114 &11400000\nMonoBehaviour:\n  m_GameObject: {fileID: 0}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {FLOAT}, type: 3}}\n  m_Name: {name}\n  Value: {value}\n"
    )


def _ref(guid: str) -> str:
    return f"{{fileID: 11400000, guid: {guid}, type: 2}}"


def _reference(key: str, guid: str) -> str:
    return f"  {key}:\n    UseConstant: 0\n    ConstantValue: 0\n    Variable: {_ref(guid)}\n"


_SCRIPTS = {
    "Assets/Code/FloatVariable.cs": "using UnityEngine;\npublic class FloatVariable : ScriptableObject\n"
    "{\n    public float Value;\n}\n",
    "Assets/Code/FloatVariable.cs.meta": meta(FLOAT),
    "Assets/Code/FloatReference.cs": "[System.Serializable]\npublic class FloatReference\n{\n"
    "    public bool UseConstant;\n    public float ConstantValue;\n    public FloatVariable Variable;\n}\n",
    "Assets/Code/UnitHealth.cs": "using UnityEngine;\npublic class UnitHealth : MonoBehaviour\n{\n"
    "    public FloatVariable HP;\n    public bool ResetHP;\n    public FloatReference StartingHP;\n"
    "    void Start() { if (ResetHP) HP.Value = StartingHP.Variable.Value; }\n}\n",
    "Assets/Code/UnitHealth.cs.meta": meta(HEALTH),
    "Assets/Code/KeyboardMover.cs": "using UnityEngine;\npublic class KeyboardMover : MonoBehaviour\n{\n"
    "    [System.Serializable]\n    public class MoveAxis\n    {\n        public KeyCode Positive;\n"
    "        public KeyCode Negative;\n    }\n\n    public FloatVariable MoveRate;\n"
    "    public MoveAxis Horizontal;\n\n    void Update() { }\n}\n",
    "Assets/Code/KeyboardMover.cs.meta": meta(MOVER),
    "Assets/Code/VariableAudioTrigger.cs": "using UnityEngine;\npublic class VariableAudioTrigger : MonoBehaviour\n"
    "{\n    public AudioSource AudioSource;\n    public FloatVariable Variable;\n"
    "    public FloatReference LowThreshold;\n"
    "    void Update() { if (Variable.Value < LowThreshold.Variable.Value) AudioSource.Play(); }\n}\n",
    "Assets/Code/VariableAudioTrigger.cs.meta": meta(TRIGGER),
}
_PLAYER = (
    HEADER
    + _object(100, "Player", [110, 120])
    + _behaviour(110, 100, HEALTH, f"  HP: {_ref(HP)}\n  ResetHP: 1\n" + _reference("StartingHP", MAX_HP))
    + _behaviour(120, 100, MOVER, f"  MoveRate: {_ref(SPEED)}\n  Horizontal:\n    Positive: 100\n    Negative: 97\n")
)
_MIXER = (
    HEADER
    + "--- !u!241 &24100000\nAudioMixerController:\n  m_Name: AudioMixer\n"
    + "".join(
        f"--- !u!243 &{24300 + i}\nAudioMixerGroupController:\n  m_Name: {name}\n"
        for i, name in enumerate(("LowHP", "WarningSound", "LowHPWarning", "StartPlaying"))
    )
)
_WARNING = (
    HEADER
    + _object(200, "WarningSound", [210, 220])
    + "--- !u!82 &210\nAudioSource:\n  m_GameObject: {fileID: 200}\n  m_Enabled: 1\n"
    + f"  OutputAudioMixerGroup: {{fileID: 24300, guid: {MIXER}, type: 2}}\n  m_PlayOnAwake: 0\n"
    + _behaviour(220, 200, TRIGGER, f"  AudioSource: {{fileID: 210}}\n  Variable: {_ref(HP)}\n")
    + _reference("LowThreshold", LOW_HP)
)


def _unite(tmp_path: Path) -> Path:
    root = write_project(
        tmp_path,
        {
            **_SCRIPTS,
            "Assets/Variables/MaxHP.asset": _variable("MaxHP", 100),
            "Assets/Variables/MaxHP.asset.meta": meta(MAX_HP, "NativeFormatImporter"),
            "Assets/Variables/HP.asset": _variable("HP", 100),
            "Assets/Variables/HP.asset.meta": meta(HP, "NativeFormatImporter"),
            "Assets/Variables/PlayerSpeed.asset": _variable("PlayerSpeed", 5),
            "Assets/Variables/PlayerSpeed.asset.meta": meta(SPEED, "NativeFormatImporter"),
            "Assets/Variables/LowHP.asset": _variable("LowHP", 25),
            "Assets/Variables/LowHP.asset.meta": meta(LOW_HP, "NativeFormatImporter"),
            "Assets/Art/AudioMixer.mixer": _MIXER,
            "Assets/Art/AudioMixer.mixer.meta": meta(MIXER, "NativeFormatImporter"),
            "Assets/Prefabs/Player.prefab": _PLAYER,
            "Assets/Prefabs/WarningSound.prefab": _WARNING,
        },
    )
    update(root, Config(workers=1))
    return root


def _hit(root: Path, task: str, path: str) -> Hit:
    hits = open_workspace(root, [(root, Config())]).search(task, 8)
    return next(h for h in hits if h.path == path)


def test_a_prefab_is_pointed_at_the_field_holding_the_asset_its_reason_names(tmp_path: Path) -> None:
    """ "where is the player's max HP set" pointed the player prefab at `UnitHealth.HP` (the task
    says "HP" whole) beside "references MaxHP.asset", which `StartingHP` holds two lines below: the
    file it references says more of the task's words than the field's name."""
    hit = _hit(_unite(tmp_path), "where is the player's max HP set", "Assets/Prefabs/Player.prefab")
    assert (hit.name, hit.line) == ("Player.StartingHP", _PLAYER.split("\n").index("  StartingHP:") + 1), hit
    assert "MaxHP.asset" in hit.snippet and "references Assets/Variables/MaxHP.asset" in hit.reason


def test_a_field_named_by_the_task_is_not_pointed_at_a_reference_saying_none_of_it(tmp_path: Path) -> None:
    """ "the warning sound should start playing at a lower HP threshold" pointed the warning sound's
    prefab at its `OutputAudioMixerGroup` (the mixer the walk reached it from) instead of its
    `LowThreshold`, named by the task's "threshold"; the mixer's name says no word of the task."""
    task = "the warning sound should start playing at a lower HP threshold"
    hit = _hit(_unite(tmp_path), task, "Assets/Prefabs/WarningSound.prefab")
    assert (hit.name, hit.line) == (
        "WarningSound > VariableAudioTrigger.LowThreshold",
        _WARNING.split("\n").index("  LowThreshold:") + 1,
    ), hit


_MOVEMENT = """using UnityEngine;
public class Movement : MonoBehaviour
{
    public float speed = 10;
    public float jumpForce = 50;
    public float dashSpeed = 20;
    public bool isDashing;
    public ParticleSystem dashParticle;

    void Update()
    {
        if (Input.GetButtonDown("Jump")) Jump(Vector2.up);
        if (Input.GetButtonDown("Fire1")) Dash(1, 0);
    }

    private void Dash(float x, float y)
    {
        isDashing = true;
        dashParticle.Play();
    }

    private void WallJump()
    {
        Jump(Vector2.up + Vector2.left);
    }

    private void Jump(Vector2 dir)
    {
        GetComponent<Rigidbody2D>().velocity = dir * jumpForce;
    }
}
"""
_SCENE = (
    HEADER
    + _object(300, "Player", [310])
    + _behaviour(
        310,
        300,
        MOVEMENT,
        "  speed: 7\n  jumpForce: 12\n  dashSpeed: 40\n  isDashing: 0\n  dashParticle: {fileID: 400}\n",
    )
    + _object(400, "DashParticle", [], father=301)
)


def _celeste(tmp_path: Path) -> Path:
    root = write_project(
        tmp_path,
        {
            "Assets/Scripts/Movement.cs": _MOVEMENT,
            "Assets/Scripts/Movement.cs.meta": meta(MOVEMENT),
            "Assets/Scenes/SampleScene.unity": _SCENE,
        },
    )
    update(root, Config(workers=1))
    return root


def test_a_scene_carrying_the_script_is_pointed_at_its_field_the_task_names(tmp_path: Path) -> None:
    """ "the dash is too short" pointed the scene at the Movement component's `m_Script` line (its
    `DashParticle` object had matched "dash"), not at `dashSpeed: 40`."""
    hit = _hit(_celeste(tmp_path), "the dash is too short", "Assets/Scenes/SampleScene.unity")
    assert (hit.name, hit.line, hit.snippet) == (
        "Player > Movement.dashSpeed",
        _SCENE.split("\n").index("  dashSpeed: 40") + 1,
        "dashSpeed: 40",
    ), hit


def test_how_high_names_the_field_not_a_method_saying_jump(tmp_path: Path) -> None:
    """ "how high does the character jump" named `Movement.cs` by `WallJump`: the fields and methods
    saying "jump" tie, and a question asking an amount is answered by a field set to a number (`jumpForce = 50`)."""
    hit = _hit(_celeste(tmp_path), "how high does the character jump", "Assets/Scripts/Movement.cs")
    assert (hit.name, hit.line) == ("Movement.jumpForce", 5), hit
