"""Promises of the YAML readers' docstrings (indexer/scanners/yaml_*.py) that no test held (the
audit of session 57, /tmp/s57/promise4/promises.md): each asserted through the real readers."""

from __future__ import annotations


def _transition(file_id: int, conditions: list[tuple[int, str, str]], state: int, machine: int = 0) -> str:
    rows = "".join(
        f"  - m_ConditionMode: {m}\n    m_ConditionEvent: {p}\n    m_EventTreshold: {t}\n" for m, p, t in conditions
    )
    return (
        f"--- !u!1101 &{file_id}\nAnimatorStateTransition:\n  m_Name:\n  m_Conditions:\n{rows}"
        f"  m_DstStateMachine: {{fileID: {machine}}}\n  m_DstState: {{fileID: {state}}}\n"
        "  m_Mute: 0\n  m_IsExit: 0\n  m_ExitTime: 0.9\n  m_HasExitTime: 0\n"
    )


def test_an_animator_says_each_parameter_type_each_condition_and_a_machine_entered() -> None:
    """yaml_animator: parameters Float, Int, Bool, Trigger (`PARAM_TYPES`); conditions `!Grounded`,
    `Combo == 2`, `Combo != 0` and an unknown mode as `Combo ?` (`_CONDITIONS`); a transition into a
    sub-state machine "says so, `Jump (machine)`" (`_entered`)."""
    from indexer.scanners import scan

    params = "".join(
        f"  - m_Name: {name}\n    m_Type: {t}\n    m_DefaultFloat: 0\n"
        for name, t in (("Speed", 1), ("Combo", 3), ("Grounded", 4), ("Hurt", 9))
    )
    text = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!91 &9100000\nAnimatorController:\n  m_Name: Hero\n"
        f"  m_AnimatorParameters:\n{params}  m_AnimatorLayers:\n  - serializedVersion: 5\n    m_Name: Base Layer\n"
        "    m_StateMachine: {fileID: 1}\n"
        "--- !u!1107 &1\nAnimatorStateMachine:\n  m_Name: Base Layer\n  m_ChildStates:\n"
        "  - serializedVersion: 1\n    m_State: {fileID: 10}\n  m_ChildStateMachines:\n"
        "  - serializedVersion: 1\n    m_StateMachine: {fileID: 2}\n"
        "  m_AnyStateTransitions: []\n  m_EntryTransitions: []\n"
        "  m_DefaultState: {fileID: 10}\n"
        "--- !u!1107 &2\nAnimatorStateMachine:\n  m_Name: Jump\n  m_ChildStates: []\n  m_ChildStateMachines: []\n"
        "  m_AnyStateTransitions: []\n  m_EntryTransitions: []\n"
        "--- !u!1102 &10\nAnimatorState:\n  m_Name: Idle\n  m_Transitions:\n"
        "  - {fileID: 20}\n  - {fileID: 21}\n  - {fileID: 22}\n"
        "  m_StateMachineBehaviours: []\n  m_Motion: {fileID: 0}\n"
        + _transition(20, [(2, "Grounded", "0"), (6, "Combo", "2")], 0, machine=2)
        + _transition(21, [(7, "Combo", "0")], 10)
        + _transition(22, [(5, "Combo", "0")], 10)
    )
    rec = scan("Assets/Hero.controller", "animator", text.encode())
    assert [(s.name, s.type) for s in rec.symbols if s.kind == "animator_parameter"] == [
        ("Speed", "Float"),
        ("Combo", "Int"),
        ("Grounded", "Bool"),
        ("Hurt", "Trigger"),
    ]
    assert [s.signature for s in rec.symbols if s.kind == "animator_transition"] == [
        "Idle -> Jump (machine) when !Grounded and Combo == 2",
        "Idle -> Idle when Combo != 0",
        "Idle -> Idle when Combo ?",
    ]


def test_a_mapping_too_wide_leaves_out_a_key_shown_alone_then_serialized_version_first() -> None:
    """yaml_mapping: "the least telling parts are left out first (values that say little, keys
    shown alone, `serializedVersion`), then the others from the end"."""
    from indexer.scanners.yaml_mapping import Mapping, mapping_shown

    long = "a text longer than Unity writes on its key's line"  # shown as its key alone, `note`
    value = Mapping([("serializedVersion", "2"), ("speed", "4.5"), ("note", long), ("reach", "7")])
    assert mapping_shown(value) == "{serializedVersion: 2, speed: 4.5, note, reach: 7}"
    assert [mapping_shown(value, limit) for limit in (49, 46, 24, 14)] == [
        "{serializedVersion: 2, speed: 4.5, reach: 7, …}",
        "{speed: 4.5, reach: 7, …}",
        "{speed: 4.5, …}",
        "{…}",
    ]


def test_both_readers_read_24_values_of_a_fields_mapping_and_no_more() -> None:
    """yaml_mapping.Budget: "The values of one field's mapping left to read, from VALUES_READ: both
    readers stop alike": of four nested mappings of 8 values each, the first three are read whole,
    the fourth not at all (not even found), and the field says so with a `…`."""
    from indexer.scanners.yaml_mapping import Budget, Mapping, mapping_shown
    from indexer.scanners.yaml_nodes import NodeDoc
    from indexer.scanners.yaml_reader import split
    from indexer.scanners.yaml_spans import block_value

    nested = "".join(f"\n    a{a}:" + "".join(f"\n      k{k}: {a}{k}" for k in range(8)) for a in range(4))
    line_value = block_value(nested, 1, Budget())
    (doc,) = split(f"%YAML 1.1\n--- !u!114 &1\nMonoBehaviour:\n  m_Name: \n  grid:{nested}\n")
    node = NodeDoc(doc.class_id, doc.file_id, doc.stripped, doc.line, doc.body)
    node_value = node._nested(node._top["grid"], 1, Budget())
    read = [(f"a{a}", Mapping([(f"k{k}", f"{a}{k}") for k in range(8)])) for a in range(3)]
    assert line_value == node_value == Mapping(read, True)  # the fourth not even found
    assert mapping_shown(line_value, 10_000).endswith(
        "a2: {k0: 20, k1: 21, k2: 22, k3: 23, k4: 24, k5: 25, k6: 26, k7: 27}, …}"
    )


def test_the_first_of_a_repeated_key_wins_in_both_readers() -> None:
    """yaml_nodes.NodeDoc: "the first of a repeated key wins, as in the line reader"."""
    from indexer.scanners.yaml_nodes import NodeDoc
    from indexer.scanners.yaml_reader import split

    (doc,) = split("%YAML 1.1\n--- !u!1 &1\nGameObject:\n  m_Name: First\n  m_Layer: 3\n  m_Name: Second\n")
    node = NodeDoc(doc.class_id, doc.file_id, doc.stripped, doc.line, doc.body)
    assert (doc.top("m_Name"), node.top("m_Name")) == ("First", "First")
    assert doc.top_line("m_Name") == node.top_line("m_Name") == doc.at(1)  # (line 0: `GameObject:`)


def test_an_unknown_escape_in_a_double_quoted_text_is_kept_as_written() -> None:
    """yaml_lines.unescape: "an unknown escape is kept as written": a Windows path a text field
    holds, `"C:\\q\\Maps"`, reads `C:\\q\\Maps`; a known one (`\\x41`) is read."""
    from .test_yaml_reference import field_rows, scan_sign

    rec = scan_sign('  path: "C:\\q\\Maps"\n  grade: "\\x41"\n')
    assert field_rows(rec) == [("path", 14, "path: C:\\q\\Maps"), ("grade", 15, "grade: A")]
