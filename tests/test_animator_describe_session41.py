"""`describe` of an animator controller with sub-state machines and StateMachineBehaviours holding
lists of ability assets (a new user's trial in session 41, a 2.5D platformer's player controller):
13 states were marked `[default]` in one flat list under `Base Layer`, the sub-state machines never
named, and each behaviour said `ArrAbilities: [7 items]` where the assets named are the state's whole
behaviour; they were in an unlinked list of references cut at its end. Each test was seen failing
before its fix."""

from __future__ import annotations

from pathlib import Path

from indexer.query.describe import describe
from indexer.scanners import scan

from .conftest import meta, write_project
from .test_graph import graph_for

STATE_SCRIPT = "a" * 32
IDLE_CLIP = "b" * 32
# A StateMachineBehaviour whose fields hold a component, data assets (a list and an array) and a number.
CHARACTER_STATE = (
    "using UnityEngine;\nusing System.Collections.Generic;\n"
    "public class CharacterState : StateMachineBehaviour {\n  public CharacterControl characterControl;\n"
    "  public List<AbilityData> ListAbilityData;\n  public float speed;\n"
    "  public AbilityData[] ArrAbilities;\n}\n"
)
UP, FORWARD = "c" * 32, "d" * 32


def _state(file_id: int, name: str, transitions: list[int], behaviours: list[int], motion: str = "") -> str:
    listed = "".join(f"\n  - {{fileID: {t}}}" for t in transitions) or " []"
    owned = "".join(f"\n  - {{fileID: {b}}}" for b in behaviours) or " []"
    clip = f"{{fileID: 7400000, guid: {motion}, type: 2}}" if motion else "{fileID: 0}"
    return (
        f"--- !u!1102 &{file_id}\nAnimatorState:\n  m_Name: {name}\n  m_Transitions:{listed}\n"
        f"  m_StateMachineBehaviours:{owned}\n  m_Motion: {clip}\n"
    )


def _machine(file_id: int, name: str, states: list[int], machines: list[int], default: int, any_state: str = "") -> str:
    children = "".join(
        f"\n  - serializedVersion: 1\n    m_State: {{fileID: {s}}}\n    m_Position: {{x: 0, y: 0, z: 0}}"
        for s in states
    )
    subs = "".join(
        f"\n  - serializedVersion: 1\n    m_StateMachine: {{fileID: {m}}}\n    m_Position: {{x: 0, y: 0, z: 0}}"
        for m in machines
    )
    return (
        f"--- !u!1107 &{file_id}\nAnimatorStateMachine:\n  m_Name: {name}\n  m_ChildStates:{children or ' []'}\n"
        f"  m_ChildStateMachines:{subs or ' []'}\n  m_AnyStateTransitions:{any_state or ' []'}\n"
        f"  m_EntryTransitions: []\n  m_StateMachineTransitions: {{}}\n  m_StateMachineBehaviours: []\n"
        f"  m_DefaultState: {{fileID: {default}}}\n"
    )


def _transition(file_id: int, target: int, condition: str = "", exit_time: str = "") -> str:
    when = (
        f"\n  - m_ConditionMode: 1\n    m_ConditionEvent: {condition}\n    m_EventTreshold: 0" if condition else " []"
    )
    return (
        f"--- !u!1101 &{file_id}\nAnimatorStateTransition:\n  m_Name: \n  m_Conditions:{when}\n"
        f"  m_DstStateMachine: {{fileID: 0}}\n  m_DstState: {{fileID: {target}}}\n  m_IsExit: 0\n"
        f"  m_ExitTime: {exit_time or 0.75}\n  m_HasExitTime: {1 if exit_time else 0}\n"
    )


def _behaviour(file_id: int, abilities: list[str]) -> str:
    listed = "".join(f"\n  - {{fileID: 11400000, guid: {g}, type: 2}}" for g in abilities) or " []"
    return (
        f"--- !u!114 &{file_id}\nMonoBehaviour:\n  m_GameObject: {{fileID: 0}}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {STATE_SCRIPT}, type: 3}}\n  m_Name: \n"
        f"  characterControl: {{fileID: 0}}\n  ListAbilityData: []\n  speed: 3\n  ArrAbilities:{listed}\n"
    )


# Base Layer (Idle, default) > Jump (Jump_Prep, default; Jump_Air) > Land (Land, default):
# three defaults, one a machine's each; a behaviour on Jump_Prep listing two ability assets.
CONTROLLER = (
    "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!91 &9100000\nAnimatorController:\n  m_Name: Player\n"
    "  m_AnimatorParameters:\n  - m_Name: Jump\n    m_Type: 9\n    m_DefaultFloat: 0\n"
    "  - m_Name: Grounded\n    m_Type: 4\n    m_DefaultFloat: 0\n"
    "  m_AnimatorLayers:\n  - serializedVersion: 5\n    m_Name: Base Layer\n    m_StateMachine: {fileID: 1}\n"
    + _machine(1, "Base Layer", [11], [2], 11, "\n  - {fileID: 33}")
    + _machine(2, "Jump", [21, 22], [3], 21)
    + _machine(3, "Land", [31], [], 31)
    + _state(11, "Idle", [41], [], IDLE_CLIP)
    + _state(21, "Jump_Prep", [42], [51])
    + _state(22, "Jump_Air", [43], [])
    + _state(31, "Land", [], [52])
    + _transition(41, 21, condition="Jump")
    + _transition(42, 22, exit_time="0.9")
    + _transition(33, 11, condition="Grounded")
    + _transition(43, 31, condition="Grounded")
    + _behaviour(51, [UP, FORWARD])
    + _behaviour(52, [UP])
)


def _project(tmp_path: Path) -> Path:
    return write_project(
        tmp_path / "P",
        {
            "Assets/Player.controller": CONTROLLER,
            "Assets/CharacterState.cs": CHARACTER_STATE,
            "Assets/CharacterState.cs.meta": meta(STATE_SCRIPT),
            "Assets/Anim/Idle.anim": "%YAML 1.1\n--- !u!74 &7400000\nAnimationClip:\n  m_Name: Idle\n",
            "Assets/Anim/Idle.anim.meta": meta(IDLE_CLIP, "NativeFormatImporter"),
            "Assets/Abilities/Jump_Up.asset": "%YAML 1.1\n",
            "Assets/Abilities/Jump_Up.asset.meta": meta(UP, "NativeFormatImporter"),
            "Assets/Abilities/Jump_Forward.asset": "%YAML 1.1\n",
            "Assets/Abilities/Jump_Forward.asset.meta": meta(FORWARD, "NativeFormatImporter"),
        },
    )


def test_states_are_read_with_their_state_machine_s_path() -> None:
    """A state's container is the path of the sub-state machine holding it, its behaviours' fields
    and its transitions the state's own path: two states of one name in two machines stay apart. A
    transition names the state it enters by as much of its path as no other state or machine has."""
    rec = scan("Assets/Player.controller", "animator", CONTROLLER.encode())
    states = [(s.container, s.name, s.attributes) for s in rec.symbols if s.kind == "animator_state"]
    assert states == [
        ("Base Layer", "Idle", ("default",)),
        ("Base Layer/Jump", "Jump_Prep", ("default",)),
        ("Base Layer/Jump", "Jump_Air", ()),
        ("Base Layer/Jump/Land", "Land", ("default",)),
    ]
    machines = [(s.container, s.name) for s in rec.symbols if s.kind == "animator_state_machine"]
    assert machines == [("", "Base Layer"), ("Base Layer", "Jump"), ("Base Layer/Jump", "Land")]
    transitions = [(s.container, s.signature) for s in rec.symbols if s.kind == "animator_transition"]
    assert transitions == [
        ("Base Layer/Idle", "Idle -> Jump_Prep when Jump"),
        ("Base Layer/Jump/Jump_Prep", "Jump_Prep -> Jump_Air after exit time 0.9"),
        ("Base Layer/Any State", "Any State -> Idle when Grounded"),
        ("Base Layer/Jump/Jump_Air", "Jump_Air -> Land/Land when Grounded"),  # not the machine Land
    ]
    assert {s.container for s in rec.symbols if s.kind == "field"} == {
        "Base Layer/Jump/Jump_Prep",
        "Base Layer/Jump/Land/Land",
    }


def test_describe_groups_states_by_state_machine_with_behaviours_and_the_assets_they_list(tmp_path: Path) -> None:
    text = describe(graph_for(_project(tmp_path)), "Assets/Player.controller").text
    assert text.split("\n")[1:18] == [
        "animator controller Player  L3",
        "  animator parameter Jump [Trigger]  L7",
        "  animator parameter Grounded [Bool]  L10",
        "  animator layer Base Layer  L14",
        "    state Idle (motion Idle.anim) [default]  L66",
        "      -> Jump_Prep when Jump  L95",
        "    Any State -> Idle when Grounded  L116",
        "  machine Base Layer/Jump  L34",
        "    state Jump_Prep [default]  L73",
        "      CharacterState: speed: 3; ArrAbilities: Jump_Up, Jump_Forward  L144",
        "      -> Jump_Air after exit time 0.9  L107",
        "    state Jump_Air  L81",
        "      -> Land/Land when Grounded  L128",
        "  machine Base Layer/Jump/Land  L53",
        "    state Land [default]  L88",
        "      CharacterState: speed: 3; ArrAbilities: Jump_Up  L156",  # a list of one ("[1 item]") too
        "(behaviours' fields set to None or empty are not shown: --json lists every field)",
    ]


def test_describe_s_references_leave_out_the_files_the_outline_names(tmp_path: Path) -> None:
    """The clips and the assets a behaviour lists are named by file in the outline: the references
    count them, not a line of a long path each (a trial's 200 lines, cut), and name the rest."""
    text = describe(graph_for(_project(tmp_path)), "Assets/Player.controller").text
    lines = text.split("\n")
    start = lines.index("references:")
    assert lines[start + 1 : start + 3] == [
        "  Assets/CharacterState.cs (m_Script)",
        "  and 3 files named above by file name (m_Motion, ArrAbilities): their paths are in uses (all in --json)",
    ]


def test_both_yaml_readers_read_the_machines_alike(tmp_path: Path) -> None:
    """`m_ChildStates` holds mappings (`- m_State: {fileID: …}`): the node reader took none of them."""
    from tests import yaml_differential

    result = yaml_differential.run([write_project(tmp_path / "P", {"Assets/Player.controller": CONTROLLER})], show=3)
    assert (result.compared, result.differing) == (result.documents, 0), yaml_differential.report(result)


def test_a_context_pack_keeps_a_state_s_block_whole_when_a_word_of_it_is_the_task_s(tmp_path: Path) -> None:
    """The compact outline of a context pack keeps a state with its behaviours and transitions when
    any of them names a word of the task (an ability asset `Jump_Forward`), and no other state's."""
    from indexer.identifiers import name_stems
    from indexer.query.outline import outline

    graph = graph_for(_project(tmp_path))
    record = graph.records.record("Assets/Player.controller")
    assert record is not None
    assert outline(record, graph, set(name_stems("forward")), compact=True)[3:8] == [
        "  animator layer Base Layer  L14",
        "  machine Base Layer/Jump  L34",
        "    state Jump_Prep [default]  L73",
        "      CharacterState: speed: 3; ArrAbilities: Jump_Up, Jump_Forward  L144",
        "      -> Jump_Air after exit time 0.9  L107",
    ]
