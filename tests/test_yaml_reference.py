"""Documents outside the line reader's subset are read by ruamel.yaml, and both readers agree on
the rest: exact records for each construct, and the differential over the fixture project."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from indexer.model import Ref, Symbol
from indexer.scanners import scan
from tests import yaml_differential

FIXTURE = Path(__file__).parent.parent / "fixtures" / "DungeonCrawler"
SCRIPT = "a" * 32
HEAD = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
SIGN = f"""--- !u!1 &10
GameObject:
  m_Component:
  - component: {{fileID: 11}}
  m_Name: Sign
--- !u!114 &11
MonoBehaviour:
  m_GameObject: {{fileID: 10}}
  m_Enabled: 1
  m_Script: {{fileID: 11500000, guid: {SCRIPT}, type: 3}}
  m_Name:{" "}
"""


def scan_sign(fields: str):
    return scan("Assets/Sign.prefab", "prefab", (HEAD + SIGN + fields).encode())


def field_rows(rec) -> list[tuple[str, int, str]]:
    assert [(s.kind, s.name, s.line, s.container) for s in rec.symbols[:2]] == [
        ("gameobject", "Sign", 3, ""),
        ("component", "MonoBehaviour", 8, "Sign"),
    ]
    assert all(
        s
        == Symbol(
            "field", s.name, s.line, container="Sign", signature=s.signature, type=f"script:{SCRIPT}", detail="11"
        )
        for s in rec.symbols[2:]
    )
    return [(s.name, s.line, s.signature) for s in rec.symbols[2:]]


def guid_refs(rec) -> list[Ref]:
    assert rec.refs[0] == Ref("script", SCRIPT, 12, "m_Script", "Sign")
    return list(rec.refs[1:])


def test_anchors_and_aliases_are_resolved() -> None:
    rec = scan_sign(
        "  icon: &tex {fileID: 2800000, guid: bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb, type: 3}\n  iconCopy: *tex\n"
    )
    assert (rec.status, rec.note) == ("ok", "2 documents; read with the YAML parser: anchor or alias")
    assert field_rows(rec) == [
        ("icon", 14, "icon: guid:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"),
        ("iconCopy", 15, "iconCopy: guid:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"),
    ]
    # the alias is the anchored mapping itself: one reference, on the anchor's line
    assert guid_refs(rec) == [Ref("guid", "b" * 32, 14, "icon", f"Sign > script:{SCRIPT}")]


def test_block_scalars_are_read_whole() -> None:
    rec = scan_sign(
        "  text: |\n    Welcome, {player}!\n    Press E: open\n  note: >-\n    folded\n    text\n  after: 1\n"
    )
    assert (rec.status, rec.note) == ("ok", "2 documents; read with the YAML parser: block scalar")
    assert field_rows(rec) == [
        ("text", 14, "text: Welcome, {player}! Press E: open"),
        ("note", 17, "note: folded text"),
        ("after", 20, "after: 1"),
    ]
    assert guid_refs(rec) == []


def test_flow_collections_over_several_lines_are_parsed() -> None:
    rec = scan_sign(
        "  tags: [alpha,\n    beta]\n"
        "  sprite: {fileID: 2800000,\n    guid: cccccccccccccccccccccccccccccccc, type: 3}\n"
        "  offsets: {x: 1, y: {fileID: 0}\n    }\n"
    )
    assert (rec.status, rec.note) == ("ok", "2 documents; read with the YAML parser: multi-line flow collection")
    assert field_rows(rec) == [
        ("tags", 14, "tags: [alpha, beta]"),
        ("sprite", 16, "sprite: guid:cccccccccccccccccccccccccccccccc"),
        ("offsets", 18, "offsets: {x: 1, y: {fileID: 0} }"),
    ]
    assert guid_refs(rec) == [Ref("guid", "c" * 32, 17, "sprite", f"Sign > script:{SCRIPT}")]


def test_quoted_scalars_over_several_lines_are_parsed() -> None:
    rec = scan_sign('  title: \'Door: Left\n    wing\'\n  hint: "A \\"quoted\\"\n    line"\n  tag: Button #2\n')
    assert (rec.status, rec.note) == ("ok", "2 documents; read with the YAML parser: multi-line quoted scalar")
    assert field_rows(rec) == [
        ("title", 14, "title: Door: Left wing"),
        ("hint", 16, 'hint: A "quoted" line'),
        ("tag", 18, "tag: Button #2"),  # Unity's `#` after a space is text, not a YAML comment
    ]


def test_a_profile_s_overridable_settings_show_their_values_in_both_readers() -> None:
    """A volume or post-processing profile's setting is `{overrideState, value}` (or `m_`-named):
    `describe` showed `intensity: {overrideState, value}` and hid the 0.448 a user asks about. Its
    value is shown, and whether the profile overrides it (if not, it does not apply)."""
    settings = (
        "  intensity:\n    overrideState: 1\n    value: 0.448\n"
        "  color:\n    m_OverrideState: 0\n    m_Value: {r: 1, g: 0.5, b: 0, a: 1}\n"
        "  curve:\n    overrideState: 1\n    value:\n      m_Curve: []\n"
        "  limitMin:\n    m_OverrideState: 1\n    m_Value: 8\n    min: 0\n    max: 16\n"
    )
    rows = [
        ("intensity", 14, "intensity: 0.448 (overridden)"),
        ("color", 17, "color: {r: 1, g: 0.5, b: 0, a: 1} (not overridden)"),
        ("curve", 20, "curve: {overrideState: 1, value: {m_Curve: []}}"),  # a value of its own block: nested
        ("limitMin", 24, "limitMin: 8 (overridden)"),  # HDRP writes the range after the two
    ]
    lines = scan_sign(settings)
    parsed = scan_sign(settings + "  note: |\n    text\n")
    assert (lines.note, parsed.note) == ("2 documents", "2 documents; read with the YAML parser: block scalar")
    assert field_rows(lines) == rows
    assert field_rows(parsed) == [*rows, ("note", 29, "note: text")]


def test_a_nested_mapping_s_short_values_show_alike_in_both_readers() -> None:
    """`jumpProperties: {maxJumpHeight, minJumpHeight, ...}` hid the numbers (a trial); each key
    shows its value when written on its line and short, in the line reader and the YAML parser's."""
    fields = (
        "  jump:\n    maxHeight: 4\n    label: 'High: jump'\n    curve:\n      m_Curve: []\n"
        "    empty:\n    quoted: ''\n    target: {fileID: 0}\n"
    )
    rows = [("jump", 14, "jump: {maxHeight: 4, label: High: jump, curve: {m_Curve: []}, empty, quoted: , …}")]
    lines, parsed = scan_sign(fields), scan_sign(fields + "  note: |\n    text\n")
    assert parsed.note == "2 documents; read with the YAML parser: block scalar"
    assert field_rows(lines) == rows
    assert field_rows(parsed) == [*rows, ("note", 22, "note: text")]


def test_a_guid_in_a_json_string_is_a_reference_in_both_readers() -> None:
    """A Visual Effect Graph holds its texture as JSON in a string; the line reader read the GUID
    and the YAML parser's reader did not (three documents of a held-out project differed)."""
    fields = '  m_SerializableObject: \'{"obj":{"fileID":2800000,"guid":"' + "c" * 32 + '","type":3}}\'\n'
    ref = Ref("guid", "c" * 32, 14, "m_SerializableObject", f"Sign > script:{SCRIPT}")
    lines, parsed = scan_sign(fields), scan_sign(fields + "  note: |\n    text\n")
    assert parsed.note == "2 documents; read with the YAML parser: block scalar"
    assert guid_refs(lines) == guid_refs(parsed) == [ref]


def test_a_double_quoted_text_s_escapes_read_alike_in_both_readers() -> None:
    """The line reader decoded escapes as JSON, which has no `\\xA9`: a TextMesh Pro text
    `"\\xA9 2018 Studio"` read `\\xA9 2018 Studio` there and `© 2018 Studio` through the YAML
    parser (the one field BossRoom's 44,683 documents differed in). A UTF-16 pair, which YAML
    does not allow (the parser refuses the document), is one character to the line reader."""
    fields = '  title: "\\xA9 2018 Studio \\U0001F600"\n'
    assert field_rows(scan_sign(fields)) == [("title", 14, "title: © 2018 Studio 😀")]
    parsed = scan_sign(fields + "  note: |\n    text\n")
    assert parsed.note.endswith("block scalar") and field_rows(parsed)[:1] == [("title", 14, "title: © 2018 Studio 😀")]
    pairs = scan_sign('  pair: "a \\uD83D\\uDE00"\n  lone: "half \\uD83D"\n')
    assert field_rows(pairs) == [("pair", 14, "pair: a 😀"), ("lone", 15, "lone: half \ufffd")]


def test_unity_subset_stays_with_the_line_reader() -> None:
    rec = scan_sign(
        "  speed: 1.5\n  title: 'Door: Left'\n"
        "  sprite: {fileID: 2800000,\n    guid: cccccccccccccccccccccccccccccccc, type: 3}\n  after: 0\n"
    )
    assert (rec.status, rec.note) == ("ok", "2 documents")
    assert field_rows(rec) == [
        ("speed", 14, "speed: 1.5"),
        ("title", 15, "title: Door: Left"),
        ("sprite", 16, "sprite: guid:cccccccccccccccccccccccccccccccc"),
        ("after", 18, "after: 0"),  # the wrapped flow mapping above does not shift the lines
    ]


def test_invalid_yaml_keeps_the_line_readers_reading_and_says_so() -> None:
    rec = scan_sign("  text: |\n    one\n  bad: [unclosed\n")
    assert rec.status == "ok"
    assert rec.note == "2 documents; document &11 is not valid YAML (ParserError)"
    assert field_rows(rec) == [("text", 14, "text: |"), ("bad", 16, "bad: [unclosed")]


def test_readers_agree_on_every_document_of_the_fixture() -> None:
    result = yaml_differential.run([FIXTURE], show=3)
    assert result.documents > 200
    assert (result.compared, result.unparsable, sum(result.routed.values())) == (result.documents, 0, 0)
    assert result.differing == 0, yaml_differential.report(result)


REAL = os.environ.get("UNITY_INDEX_REAL_PROJECTS", "")


@pytest.mark.skipif(not REAL, reason="set UNITY_INDEX_REAL_PROJECTS to project folders (os.pathsep-separated)")
def test_readers_agree_on_real_projects() -> None:
    roots = [Path(p) for p in REAL.split(os.pathsep) if p]
    result = yaml_differential.run(roots, show=5)
    assert result.compared > 0
    assert result.differing == 0, yaml_differential.report(result)


def test_a_component_written_as_its_abstract_base_is_named_by_its_class_id() -> None:
    """Older Unity wrote a camera's GUILayer (92) and FlareLayer (124) as `Behaviour:`; `describe`
    listed `Behaviour, Behaviour` (a trial). The class ID names them, in both readers."""
    camera = (
        "--- !u!1 &20\nGameObject:\n  m_Component:\n  - component: {fileID: 21}\n  - component: {fileID: 22}\n"
        "  m_Name: Main Camera\n--- !u!124 &21\nBehaviour:\n  m_GameObject: {fileID: 20}\n  m_Enabled: 1\n"
        "--- !u!92 &22\nBehaviour:\n  m_GameObject: {fileID: 20}\n  m_Enabled: 1\n"
    )
    parsed = camera.replace("  m_Enabled: 1\n", "  m_Enabled: 1\n  note: |\n    text\n")
    for text, note in ((camera, "5 documents"), (parsed, "5 documents; read with the YAML parser: block scalar")):
        rec = scan("Assets/Sign.prefab", "prefab", (HEAD + SIGN + text).encode())
        components = [(s.name, s.container) for s in rec.symbols if s.kind == "component"]
        assert (rec.note, components[-2:]) == (note, [("FlareLayer", "Main Camera"), ("GUILayer", "Main Camera")])


def test_a_list_of_events_is_read_alike_and_its_calls_recorded_in_both_readers() -> None:
    """A PlayerInput invoking Unity events holds a list of them (`m_ActionEvents`); the line reader
    read none of their calls (`refs InputMove` missed the prefab wiring the Move action to it)
    and called the list one UnityEvent, where the YAML parser's reader read the calls and a list."""
    call = (
        "      m_Calls:\n      - m_Target: {{fileID: 11}}\n        m_TargetAssemblyTypeName: Mover, Assembly-CSharp\n"
        "        m_MethodName: {}\n        m_Mode: 0\n        m_Arguments:\n          m_ObjectArgument: {{fileID: 0}}\n"
        "          m_ObjectArgumentAssemblyTypeName: UnityEngine.Object, UnityEngine\n          m_IntArgument: 0\n"
        "          m_FloatArgument: 0\n          m_StringArgument: \n          m_BoolArgument: 0\n"
        "        m_CallState: 2\n"
    )
    events = (
        "  m_ActionEvents:\n  - m_PersistentCalls:\n" + call.format("InputMove") + "    m_ActionName: Player/Move\n"
        "  - m_PersistentCalls:\n      m_Calls: []\n    m_ActionName: Player/Look\n"
    )
    rows = [("m_ActionEvents", 14, "m_ActionEvents: [2 events, 1 call]")]
    lines, parsed = scan_sign(events), scan_sign(events + "  note: |\n    text\n")
    assert parsed.note == "2 documents; read with the YAML parser: block scalar"
    assert field_rows(lines) == rows
    assert field_rows(parsed) == [*rows, ("note", 33, "note: text")]
    calls = [[(r.target, r.line, r.context) for r in rec.refs if r.kind == "method"] for rec in (lines, parsed)]
    assert calls[0] == calls[1] == [(f"script:{SCRIPT}.InputMove", 17, "m_ActionEvents")]


def test_a_list_of_named_items_shows_their_names_in_both_readers(tmp_path: Path) -> None:
    """A trial: an audio mixer's `m_ExposedParameters: [3 items]` hid `MusicVolume`, the name code
    passes to `SetFloat`. A list whose every item has a short `name` shows the first four names;
    one whose items do not all have one is counted only. The readers agree (yaml_differential)."""
    fields = (
        "  m_ExposedParameters:\n"
        "  - guid: 635df01f48c8ac144b4b4438325f5790\n    name: MasterVolume\n"
        "  - guid: 2aba37a5df0ec8642b48e65829327880\n    name: 'Music Volume'\n"
        "  sounds:\n"
        "  - name: Jump\n    clip: {fileID: 0}\n  - name: Land\n  - name: Step\n  - name: Hit\n  - name: Die\n"
        "  mixed:\n  - name: One\n  - clip: {fileID: 0}\n"
    )
    rec = scan_sign(fields)
    assert field_rows(rec) == [
        ("m_ExposedParameters", 14, "m_ExposedParameters: [2 items: MasterVolume, Music Volume]"),
        ("sounds", 19, "sounds: [5 items: Jump, Land, Step, Hit, …]"),
        ("mixed", 26, "mixed: [2 items]"),
    ]
    (tmp_path / "Assets").mkdir()
    (tmp_path / "Assets" / "Sign.prefab").write_text(HEAD + SIGN + fields)
    result = yaml_differential.run([tmp_path], show=3)
    assert (result.compared, result.differing) == (2, 0), yaml_differential.report(result)


def test_a_list_of_plain_values_shows_its_first_values_in_both_readers(tmp_path: Path) -> None:
    """A trial: a dialogue's `lines: [3 items]` and a wave table's `counts: [4 items]` hid what a
    designer typed. A list of plain values shows its first four, each cut at 40 characters, wrapped
    and quoted lines read back whole; a list holding an empty item or a reference is counted only."""
    fields = (
        "  lines:\n"
        "  - Hello traveler, the bridge to the north has been out since the storm\n"
        "    last winter.\n"
        "  - Be careful.\n"
        "  quotes:\n  - 'It''s dangerous: take the pass'\n  - \"Goodbye\\u2019s for now\"\n"
        "  counts:\n  - 5\n  - -10\n  - 20\n  - 40\n  - 80\n"
        "  gaps:\n  - 1\n  - \n  - 3\n"
        "  targets:\n  - {fileID: 0}\n  - {fileID: 0}\n"
    )
    rec = scan_sign(fields)
    assert field_rows(rec) == [
        ("lines", 14, "lines: [2 items: Hello traveler, the bridge to the north…, Be careful.]"),
        ("quotes", 18, "quotes: [2 items: It's dangerous: take the pass, Goodbye’s for now]"),
        ("counts", 21, "counts: [5 items: 5, -10, 20, 40, …]"),
        ("gaps", 27, "gaps: [3 items]"),
        ("targets", 31, "targets: [2 items, all empty]"),  # a list of references: its empty slots
    ]
    (tmp_path / "Assets").mkdir()
    (tmp_path / "Assets" / "Sign.prefab").write_text(HEAD + SIGN + fields)
    result = yaml_differential.run([tmp_path], show=3)
    assert (result.compared, result.differing) == (2, 0), yaml_differential.report(result)
