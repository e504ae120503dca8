"""An animator controller read whole (`scanners/yaml_animator.py`): each state with its motion (a
clip, or a blend tree of the file), the transitions leaving it with the conditions that fire
them, and its StateMachineBehaviours' fields under it. A trial asked "what does the Hurt trigger
do?" of a controller whose 51 transitions `describe` did not show."""

from __future__ import annotations

from pathlib import Path

from indexer.query.describe import describe
from indexer.scanners import scan
from tests import yaml_differential

from .conftest import write_project
from .test_graph import graph_for

CLIP = "c" * 32
HURT_CLIP = "d" * 32
VFX = "e" * 32
CONTROLLER = f"""%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!91 &9100000
AnimatorController:
  m_Name: Knight
  m_AnimatorParameters:
  - m_Name: Speed
    m_Type: 1
    m_DefaultFloat: 0
    m_Controller: {{fileID: 9100000}}
  - m_Name: Hurt
    m_Type: 9
    m_DefaultFloat: 0
    m_Controller: {{fileID: 9100000}}
  m_AnimatorLayers:
  - serializedVersion: 5
    m_Name: Base Layer
    m_StateMachine: {{fileID: 1107000000}}
--- !u!1107 &1107000000
AnimatorStateMachine:
  m_Name: Base Layer
  m_ChildStates:
  - serializedVersion: 1
    m_State: {{fileID: 1102000001}}
  - serializedVersion: 1
    m_State: {{fileID: 1102000002}}
  - serializedVersion: 1
    m_State: {{fileID: 1102000003}}
  m_AnyStateTransitions:
  - {{fileID: 1101000004}}
  m_EntryTransitions: []
--- !u!1102 &1102000001
AnimatorState:
  m_Name: Idle
  m_Transitions:
  - {{fileID: 1101000001}}
  m_StateMachineBehaviours: []
  m_Motion: {{fileID: 7400000, guid: {CLIP}, type: 2}}
--- !u!1102 &1102000002
AnimatorState:
  m_Name: Move
  m_Transitions:
  - {{fileID: 1101000002}}
  m_StateMachineBehaviours: []
  m_Motion: {{fileID: 20600000}}
--- !u!1102 &1102000003
AnimatorState:
  m_Name: Hurt
  m_Transitions:
  - {{fileID: 1101000003}}
  m_StateMachineBehaviours:
  - {{fileID: 11400000}}
  m_Motion: {{fileID: 7400000, guid: {HURT_CLIP}, type: 2}}
--- !u!206 &20600000
BlendTree:
  m_Name: Locomotion
  m_Childs: []
--- !u!1101 &1101000001
AnimatorStateTransition:
  m_Name:
  m_Conditions:
  - m_ConditionMode: 3
    m_ConditionEvent: Speed
    m_EventTreshold: 0.1
  m_DstStateMachine: {{fileID: 0}}
  m_DstState: {{fileID: 1102000002}}
  m_Mute: 0
  m_IsExit: 0
  m_ExitTime: 0.9
  m_HasExitTime: 0
--- !u!1101 &1101000002
AnimatorStateTransition:
  m_Name:
  m_Conditions:
  - m_ConditionMode: 4
    m_ConditionEvent: Speed
    m_EventTreshold: 0.1
  m_DstStateMachine: {{fileID: 0}}
  m_DstState: {{fileID: 1102000001}}
  m_Mute: 1
  m_IsExit: 0
  m_ExitTime: 0.9
  m_HasExitTime: 0
--- !u!1101 &1101000003
AnimatorStateTransition:
  m_Name:
  m_Conditions: []
  m_DstStateMachine: {{fileID: 0}}
  m_DstState: {{fileID: 1102000001}}
  m_IsExit: 0
  m_ExitTime: 0.75
  m_HasExitTime: 1
--- !u!1101 &1101000004
AnimatorStateTransition:
  m_Name:
  m_Conditions:
  - m_ConditionMode: 1
    m_ConditionEvent: Hurt
    m_EventTreshold: 0
  m_DstStateMachine: {{fileID: 0}}
  m_DstState: {{fileID: 1102000003}}
  m_IsExit: 0
  m_HasExitTime: 0
--- !u!114 &11400000
MonoBehaviour:
  m_GameObject: {{fileID: 0}}
  m_Script: {{fileID: 11500000, guid: {VFX}, type: 3}}
  m_Name:
  vfxName: HurtFlash
"""


def test_transitions_say_the_states_they_join_and_their_conditions() -> None:
    rec = scan("Assets/Knight.controller", "animator", CONTROLLER.encode())
    states = [(s.name, s.detail, s.signature) for s in rec.symbols if s.kind == "animator_state"]
    assert states == [("Idle", CLIP, ""), ("Move", "", "blend tree Locomotion"), ("Hurt", HURT_CLIP, "")]
    transitions = [(s.container, s.name, s.signature) for s in rec.symbols if s.kind == "animator_transition"]
    assert transitions == [
        ("Base Layer/Idle", "Move", "Idle -> Move when Speed > 0.1"),
        ("Base Layer/Move", "Idle", "Move -> Idle when Speed < 0.1 (muted)"),
        ("Base Layer/Hurt", "Idle", "Hurt -> Idle after exit time 0.75"),
        ("Base Layer/Any State", "Hurt", "Any State -> Hurt when Hurt"),
    ]


def test_describe_shows_each_state_with_its_transitions_and_behaviours(tmp_path: Path) -> None:
    graph = graph_for(write_project(tmp_path / "P", {"Assets/Knight.controller": CONTROLLER}))
    assert describe(graph, "Assets/Knight.controller").text.split("\n")[1:14] == [
        "animator controller Knight  L3",
        "  animator parameter Speed [Float]  L7",
        "  animator parameter Hurt [Trigger]  L11",
        "  animator layer Base Layer  L16",
        "    state Idle  L32",  # its clip is not in the project: the references name its GUID
        "      -> Move when Speed > 0.1  L58",
        "    state Move (motion blend tree Locomotion)  L39",
        "      -> Idle when Speed < 0.1 (muted)  L71",
        "    state Hurt  L46",
        f"      missing script (guid {VFX}): vfxName: HurtFlash  L107",
        "      -> Idle after exit time 0.75  L84",
        "    Any State -> Hurt when Hurt  L93",
        "  object Locomotion (BlendTree)  L54",
    ]


def test_both_yaml_readers_read_a_controller_alike(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/Knight.controller": CONTROLLER})
    result = yaml_differential.run([root], show=3)
    assert (result.compared, result.differing) == (result.documents, 0), yaml_differential.report(result)


def test_entry_transitions_come_last_and_a_state_in_no_machine_is_said_so(tmp_path: Path) -> None:
    """An `Entry` transition (a state machine's own) is listed after its states, as `Any State`'s;
    a state no machine holds (Unity never plays it) is listed apart, not under the first of its name."""
    entry = CONTROLLER.replace("  m_EntryTransitions: []\n", "  m_EntryTransitions:\n  - {fileID: 1101000005}\n") + (
        "--- !u!1101 &1101000005\nAnimatorStateTransition:\n  m_Conditions:\n  - m_ConditionMode: 2\n"
        "    m_ConditionEvent: Grounded\n    m_EventTreshold: 0\n  m_DstState: {fileID: 1102000003}\n"
        "  m_HasExitTime: 0\n--- !u!1102 &1102000009\nAnimatorState:\n  m_Name: Idle\n  m_Transitions: []\n"
    )
    rec = scan("Assets/Knight.controller", "animator", entry.encode())
    assert [s.signature for s in rec.symbols if s.container == "Base Layer/Entry"] == ["Entry -> Hurt when !Grounded"]
    text = describe(
        graph_for(write_project(tmp_path / "P", {"Assets/Knight.controller": entry})), "Assets/Knight.controller"
    )
    lines = text.text.split("\n")
    assert lines[12:17] == [
        "    Any State -> Hurt when Hurt  L94",
        "    Entry -> Hurt when !Grounded  L111",
        "  states no state machine holds (never played)",
        "    state Idle  L119",
        "  object Locomotion (BlendTree)  L55",
    ]
