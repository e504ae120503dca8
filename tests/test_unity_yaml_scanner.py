"""The Unity YAML scanner on hand-written files holding each quirk of the real format."""

import random
from pathlib import Path

from indexer.build.update import update
from indexer.model import Ref
from indexer.project import kind_of
from indexer.query.context import build_context
from indexer.query.describe import describe
from indexer.query.tokens import counter
from indexer.query.workspace import open_workspace, projects_at
from indexer.scanners import scan
from indexer.scanners.yaml_nodes import NodeDoc
from indexer.scanners.yaml_reader import WRAPPED_FLOW, split, wrapped_flows

from .conftest import meta, write_project
from .test_indexing import CONFIG

CASES = Path(__file__).parent / "yaml_cases"


def scan_case(name: str):
    rel = f"Assets/{name}"
    return scan(rel, kind_of(rel), (CASES / name).read_bytes())


def sym(rec, kind: str) -> list[tuple]:
    return [(s.name, s.line, s.container, s.signature, s.detail) for s in rec.symbols if s.kind == kind]


def test_quirks_crlf_negative_ids_wrapped_flow_quoted_names() -> None:
    rec = scan_case("Quirks.prefab")
    assert (CASES / "Quirks.prefab").read_bytes().count(b"\r\n") > 50  # really CRLF
    # the name quoted over two lines (line 25) sends that document to the YAML parser: same values
    assert (rec.status, rec.note) == ("ok", "5 documents; read with the YAML parser: multi-line quoted scalar")
    assert sym(rec, "gameobject") == [
        ("Door: Left", 3, "", "", "inactive"),
        ('Hinge "A" pivot', 21, "Door: Left", "", ""),
    ]
    components = [(s.name, s.container, s.detail, s.type, s.attributes) for s in rec.symbols if s.kind == "component"]
    assert components == [
        ("Transform", "Door: Left", "", "-4611686018427387903", ()),
        ("Transform", 'Door: Left/Hinge "A" pivot', "", "400002", ()),
        ("MonoBehaviour", "Door: Left", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "114000011", ("disabled",)),
    ]
    fields = {s.name: s.signature for s in rec.symbols if s.kind == "field"}
    assert fields == {
        "equation": "equation: =",  # a bare `=` scalar
        "code": "code: 010",  # stays a string, not the number 10
        "mesh": "mesh: built-in resource",  # GUID 0000000000000000e000000000000000 kept, recognised
        "opened": "opened: guid:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",  # wrapped flow mapping
        "onOpen": "onOpen: UnityEvent (1 call)",
        "lock": "lock: {rid: 1000}",
    }
    assert list(rec.refs) == [
        Ref("script", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 38, "m_Script", "Door: Left"),
        # lines are the file's: joining a wrapped flow mapping (lines 38-39, 45-46) does not shift them
        Ref("guid", "b" * 32, 45, "opened", "Door: Left > script:" + "a" * 32),
        Ref(
            "method",
            "script:" + "a" * 32 + ".PlaySound",  # the target's script, not the type name saved with the call
            50,
            "onOpen",
            "Door: Left > script:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.onOpen(string creak) on Door: Left",
        ),
        Ref("type", "Game.Doors.PadLock", 69, "serialize_reference", "Door: Left"),
    ]
    text = (CASES / "Quirks.prefab").read_text()
    assert [c.type_name for doc in split(text) for c in doc.calls()] == [  # wrapped onto a 2nd line
        "Game.Doors.VeryLongNamespaceName.DoorController"
    ]


def test_legacy_prefab_asset_and_legacy_instance_in_a_scene() -> None:
    asset = scan_case("Legacy.prefab")
    assert sym(asset, "gameobject") == [("Crate", 14, "", "", "")]
    assert sym(asset, "prefab_instance") == []  # the `Prefab` document of the asset itself
    assert list(asset.refs) == [Ref("script", "cccccccccccccccccccccccccccccccc", 38, "m_Script", "Crate")]
    scene = scan_case("LegacyScene.unity")
    assert sym(scene, "prefab_instance") == [("Crate (1)", 3, "", "", "dddddddddddddddddddddddddddddddd")]
    # an instance like any other: `refs` printed `[legacy_parent]`, jargon a trial asked about (session 40)
    assert Ref("prefab", "dddddddddddddddddddddddddddddddd", 3, "instance", "Crate (1)") in scene.refs


def test_unity_events_without_type_names_resolve_through_the_target() -> None:
    scene = scan_case("LegacyScene.unity")
    calls = [(r.target, r.line, r.context, r.detail) for r in scene.refs if r.kind == "method"]
    assert calls == [
        (
            "script:ffffffffffffffffffffffffffffffff.Open",
            28,
            "onTrigger",
            "Trigger > script:eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee.onTrigger(void) on Trigger",
        ),
        (
            "UnityEngine.GameObject.SetActive",
            34,
            "onTrigger",
            "Trigger > script:eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee.onTrigger(bool 0) on Trigger",
        ),
    ]
    assert "SceneRoots" not in {s.signature for s in scene.symbols}


def test_animator_controller_and_state_machine_behaviour() -> None:
    rec = scan_case("Door.controller")
    assert [(s.kind, s.name, s.type) for s in rec.symbols if s.kind.startswith("animator")] == [
        ("animator_controller", "Door", ""),
        ("animator_parameter", "Open", "Trigger"),
        ("animator_parameter", "Speed", "Float"),
        ("animator_layer", "Base Layer", ""),
        ("animator_state_machine", "Base Layer", ""),
        ("animator_state", "Opening", ""),
    ]
    assert list(rec.refs) == [
        Ref("guid", "12121212121212121212121212121212", 39, "m_Motion", "Opening > AnimatorState"),
        Ref("script", "34343434343434343434343434343434", 45, "m_Script", "Base Layer/Opening"),
    ]
    assert sym(rec, "field") == [("volume", 48, "Base Layer/Opening", "volume: 0.5", "11400022")]


def test_animation_events_and_materials() -> None:
    clip = scan_case("DoorOpen.anim")
    assert list(clip.refs) == [Ref("animation_event", "PlayCreak", 10, "m_Events", "DoorOpen")]
    mat = scan_case("Wood.mat")
    assert sym(mat, "material") == [("Wood", 3, "", "", "builtin:46")]
    assert [(s.name, s.type, s.signature) for s in mat.symbols if s.kind == "material_property"] == [
        ("_BumpMap", "texture", "_BumpMap: guid:56565656565656565656565656565656"),
        ("_MainTex", "texture", "_MainTex: None"),
        ("_Glossiness", "float", "_Glossiness: 0.25"),
        ("_Color", "color", "_Color: {r: 0.8, g: 0.6, b: 0.4, a: 1}"),
    ]


def test_files_that_are_not_unity_yaml_are_recorded_as_such() -> None:
    assert (scan_case("Binary.asset").status, scan_case("Binary.asset").note) == (
        "skipped",
        "binary-serialized Unity asset: set Project Settings > Editor > Asset Serialization to Force Text to index it",
    )
    assert (scan_case("Pointer.unity").status, scan_case("Pointer.unity").note) == (
        "skipped",
        "Git LFS pointer, content not checked out",
    )
    json_asset = scan_case("Settings.asset")
    assert (json_asset.status, json_asset.note, json_asset.symbols) == (
        "ok",
        "JSON-serialized asset, not Unity YAML: not parsed",
        (),
    )
    assert scan_case("Empty.asset").note == "empty file"


def test_garbage_never_raises() -> None:
    cases = {
        b"%YAML 1.1\n--- !u!1 &1\n": ("ok", "1 documents"),
        b"%YAML 1.1\n--- !u!114 &x\nfoo: [\n": ("skipped", "no Unity YAML documents"),
        b"%YAML\n" + b"\xff\xfe" * 100: ("skipped", "no Unity YAML documents"),
        # outside the line reader's subset and not valid YAML either: the line reader's reading stays
        b"%YAML 1.1\n--- !u!114 &1\nMonoBehaviour:\n  a: [\n  b: *x\n": (
            "ok",
            "1 documents; document &1 is not valid YAML (ComposerError)",
        ),
        # an anchor on an empty name and a transform that is its own parent
        b"%YAML 1.1\n--- !u!1 &1\nGameObject:\n  m_Name: &a\n  x: *a\n--- !u!4 &2\nTransform:\n"
        b"  m_GameObject: {fileID: 1}\n  m_Father: {fileID: 2}\n": (
            "ok",
            "2 documents; read with the YAML parser: anchor or alias",
        ),
    }
    for data, expected in cases.items():
        rec = scan("Assets/X.prefab", "prefab", data)
        assert not rec.note.startswith("scanner error:"), rec.note  # a crash must fail, not pass as "skipped"
        assert (rec.status, rec.note) == expected


def test_unnamed_prefab_instances_outline_without_looping(tmp_path) -> None:
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.graph import Graph
    from indexer.query.outline import outline
    from indexer.store.reader import Records
    from indexer.store.schema import IndexPaths

    from .conftest import write_project

    scene = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1001 &5\nPrefabInstance:\n  m_Modification:\n"
        "    m_TransformParent: {fileID: 0}\n    m_Modifications: []\n"
        "  m_SourcePrefab: {fileID: 100100000, guid: 1234567890abcdef1234567890abcdef, type: 3}\n"
    )
    root = write_project(tmp_path / "P", {"Assets/S.unity": scene})
    update(root, Config(workers=1))
    graph = Graph(Records(IndexPaths(Config().index_path(root))), root)
    lines = outline(graph.records.record("Assets/S.unity"), graph)
    assert lines == [
        "guid:1234567890abcdef1234567890abcdef  (prefab instance of guid:1234567890abcdef1234567890abcdef"
        " (not in project))  L3"
    ]


def test_text_reader_fields_calls_and_guid_owners() -> None:
    """The paths the fast reader takes through a document's text (fields with their nested blocks,
    UnityEvent calls, the key a GUID sits under), each with its exact record."""
    rec = scan_case("TextReader.unity")
    assert (rec.status, rec.note) == ("ok", "7 documents")
    script = "script:" + "a" * 32
    fields = [(s.name, s.line, s.container, s.signature, s.detail, s.type) for s in rec.symbols if s.kind == "field"]
    assert fields == [
        ("speed", 30, "Panel", "speed: 6.5", "1140", script),
        ("quoted key", 31, "Panel", "quoted key: it''s", "1140", script),  # a plain scalar: '' stays
        ("padded", 32, "Panel", "padded: 2", "1140", script),  # `padded : 2`
        ("title", 33, "Panel", "title: a long title that Unity wrapped onto the next line", "1140", script),
        ("label", 35, "Panel", "label: kept as written", "1140", script),
        ("empty", 36, "Panel", 'empty: ""', "1140", script),
        ("waypoints", 37, "Panel", "waypoints: [2 items]", "1140", script),
        ("limits", 40, "Panel", "limits: {min: 1, max: None}", "1140", script),
        ("self", 43, "Panel", "self: Panel (Transform)", "1140", script),  # a same-file reference, named
        ("icon", 44, "Panel", "icon: guid:" + "e" * 32, "1140", script),  # a flow mapping wrapped after a comma
        ("onNothing", 46, "Panel", "onNothing: UnityEvent (0 calls)", "1140", script),
        ("onClick", 48, "Panel", "onClick: UnityEvent (3 calls)", "1140", script),
        (
            "target",
            98,
            "Helper",
            "target: Panel/Button/source:" + "f" * 32 + ":3 (Transform)",
            "700",
            "script:" + "b" * 32,
        ),  # stripped
    ]
    assert sym(rec, "prefab_instance") == [("Button", 73, "Panel", "", "f" * 32)]
    assert list(rec.refs) == [
        # list items under m_Materials: the key is found walking up
        Ref("guid", "c" * 32, 20, "m_Materials", "Panel > MeshRenderer"),
        Ref("guid", "d" * 32, 21, "m_Materials", "Panel > MeshRenderer"),
        Ref("script", "a" * 32, 27, "m_Script", "Panel"),
        Ref("guid", "e" * 32, 44, "icon", f"Panel > {script}"),
        Ref("guid", "d" * 32, 71, "m_ObjectArgument", f"Panel > {script}"),  # upper-case GUID, lowered
        # no type name: the target's script names it; a string argument wrapped onto a second line
        Ref(
            "method", f"{script}.Say", 51, "onClick", f"Panel > {script}.onClick(string hello there, general) on Panel"
        ),
        Ref("method", "UnityEngine.GameObject.SetActive", 60, "onClick", f"Panel > {script}.onClick(bool 1) on Panel"),
        Ref(
            "method",
            "UnityEngine.MeshRenderer.set_sharedMaterial",  # no type name saved: the target's class (was `?.`)
            67,
            "onClick",
            f"Panel > {script}.onClick(object guid:{'d' * 32}) on Panel",
        ),
        Ref("prefab", "f" * 32, 73, "instance", "Panel/Button"),
        Ref("method", "?.Press", 85, "onClick", "Panel/Button/source:" + "f" * 32 + ":2 > override.onClick()"),
        Ref("script", "b" * 32, 96, "m_Script", "Helper"),
    ]


def test_unity_events_as_unity_writes_them_and_otherwise() -> None:
    """Call items in Unity's own layout are read in one match; one with a line Unity does not write
    (`extra: 1`) and ones after blank lines are read key by key: the records are the same kind."""
    rec = scan_case("WrittenCalls.unity")
    script = "script:" + "a" * 32
    assert list(rec.refs) == [
        Ref("script", "a" * 32, 17, "m_Script", "Door"),
        Ref("guid", "d" * 32, 39, "m_ObjectArgument", f"Door > {script}"),
        Ref("method", f"{script}.Say", 23, "onOpen", f"Door > {script}.onOpen(string two spaces) on Door"),
        Ref("method", f"{script}.Hide", 35, "onOpen", f"Door > {script}.onOpen(object guid:{'d' * 32}) on Door"),
        Ref("method", "UnityEngine.GameObject.SetActive", 48, "onOpen", f"Door > {script}.onOpen(bool 1) on Door"),
        Ref("method", "Game.Quoted.Move", 60, "onOpen", f"Door > {script}.onOpen(int 7) on Door"),
        Ref("method", f"{script}.Close", 76, "onClose", f"Door > {script}.onClose(void) on Door"),
    ]
    # the field's block ends at the blank line: it counts the calls above it
    assert sym(rec, "field") == [
        ("onOpen", 20, "Door", "onOpen: UnityEvent (2 calls)", "102"),
        ("onClose", 73, "Door", "onClose: UnityEvent (1 call)", "102"),
        ("after", 88, "Door", "after: 3", "102"),
    ]


def test_prefab_overrides_as_unity_writes_them_and_in_any_other_form() -> None:
    """`TextDoc.modifications`: overrides in the three lines Unity writes are read by one regex,
    any other form (here a value Unity wrapped onto a second line) line by line; both give the
    property, the value (a wrapped one joined), the GUID an object reference names and the
    override's line in the document."""
    a, b = "a" * 32, "b" * 32
    text = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1001 &100100000\nPrefabInstance:\n"
        "  m_ObjectHideFlags: 0\n  serializedVersion: 2\n  m_Modification:\n    m_TransformParent: {fileID: 0}\n"
        "    m_Modifications:\n"
        f"    - target: {{fileID: 400000, guid: {a}, type: 3}}\n"
        "      propertyPath: m_Name\n      value: Goblin\n      objectReference: {fileID: 0}\n"
        f"    - target: {{fileID: 11400000, guid: {a}, type: 3}}\n"
        "      propertyPath: greeting\n      value: a very long greeting that Unity wrapped\n"
        "        onto the next line\n      objectReference: {fileID: 0}\n"
        f"    - target: {{fileID: 11400000, guid: {a}, type: 3}}\n"
        f"      propertyPath: icon\n      value: \n      objectReference: {{fileID: 21300000, guid: {b}, type: 3}}\n"
        f"    m_RemovedComponents: []\n  m_SourcePrefab: {{fileID: 100100000, guid: {a}, type: 3}}\n"
    )
    assert [(m.prop, m.value, m.guid, m.line) for m in split(text)[0].modifications()] == [
        ("m_Name", "Goblin", "", 7),
        ("greeting", "a very long greeting that Unity wrapped onto the next line", "", 11),
        ("icon", "", b, 16),
    ]


def test_an_override_pointing_at_an_object_of_the_same_file_shows_it_by_name() -> None:
    """A scene's override of a prefab instance's field to an object of the scene (`{fileID: N}`,
    no GUID) shows the object as a field does (`Main Camera (Transform)`), in the written form, in
    a form read line by line and through the YAML parser; an override to None stays empty."""
    a = "a" * 32
    for extra, wrap, note in (
        ("", "", ""),
        ("", "\n        ", ""),
        ("  notes: |\n    two\n    lines\n", "", "read with the YAML parser"),
    ):
        text = (
            "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &500\nGameObject:\n  m_Name: Main Camera\n"
            "  m_Component:\n  - component: {fileID: 501}\n--- !u!4 &501\nTransform:\n  m_GameObject: {fileID: 500}\n"
            "  m_Father: {fileID: 0}\n--- !u!1001 &100100000\nPrefabInstance:\n"
            f"{extra}  m_Modification:\n    m_TransformParent: {{fileID: 0}}\n    m_Modifications:\n"
            f"    - target: {{fileID: 11400000, guid: {a}, type: 3}}\n"
            f"      propertyPath: cameraTransform\n      value: {wrap}\n      objectReference: {{fileID: 501}}\n"
            f"    - target: {{fileID: 11400000, guid: {a}, type: 3}}\n"
            "      propertyPath: fallback\n      value: \n      objectReference: {fileID: 0}\n"
            f"    m_RemovedComponents: []\n  m_SourcePrefab: {{fileID: 100100000, guid: {a}, type: 3}}\n"
        )
        record = scan("Assets/Level.unity", "scene", text.encode())
        assert note in record.note
        shown = [s.signature for s in record.symbols if s.kind == "override"]
        assert shown == ["cameraTransform: Main Camera (Transform)", "fallback: "], (extra, wrap)


def test_calls_set_through_overrides_on_two_components_of_one_instance_are_two_calls() -> None:
    """docs/indexing.md: calls set through prefab overrides are recorded -- each of them: two
    components of one instance overriding their `onFire` call 0 are two calls, not one merged."""
    a = "a" * 32

    def call(target: int, method: str) -> str:
        prop = "onFire.m_PersistentCalls.m_Calls.Array.data[0]"
        return "".join(
            f"    - target: {{fileID: {target}, guid: {a}, type: 3}}\n"
            f"      propertyPath: {prop}.{key}\n      value: {value}\n      objectReference: {{fileID: 0}}\n"
            for key, value in (("m_TargetAssemblyTypeName", "Door, Assembly-CSharp"), ("m_MethodName", method))
        )

    text = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1001 &100100000\nPrefabInstance:\n"
        "  m_Modification:\n    m_TransformParent: {fileID: 0}\n    m_Modifications:\n"
        f"    - target: {{fileID: 100, guid: {a}, type: 3}}\n"
        "      propertyPath: m_Name\n      value: Panel\n      objectReference: {fileID: 0}\n"
        f"{call(201, 'Open')}{call(202, 'Close')}"
        f"    m_RemovedComponents: []\n  m_SourcePrefab: {{fileID: 100100000, guid: {a}, type: 3}}\n"
    )
    calls = [r for r in scan("Assets/Main.unity", "scene", text.encode()).refs if r.kind == "method"]
    assert calls == [
        Ref("method", "Door.Open", 13, "onFire", f"Panel/source:{a}:201 > override.onFire()"),  # each its object
        Ref("method", "Door.Close", 21, "onFire", f"Panel/source:{a}:202 > override.onFire()"),
    ]


def _script_with_fields(extra: str) -> bytes:
    fields = "".join(f"  field{i}: {i}\n" for i in range(70))
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &100\nGameObject:\n  m_Name: Holder\n"
        "  m_Component:\n  - component: {fileID: 200}\n--- !u!114 &200\nMonoBehaviour:\n"
        "  m_GameObject: {fileID: 100}\n"
        "  m_Script: {fileID: 11500000, guid: 0123456789abcdef0123456789abcdef, type: 3}\n"
        f"  m_Name: \n  longText: {'y' * 200}\n{extra}{fields}"
    ).encode()


def test_a_component_shows_at_most_60_fields_of_at_most_80_characters() -> None:
    """docs/indexing.md, known limits: fields show at most 60 per component, the first 40 and the
    last 20, and 80 characters per value, whichever reader reads the document (a block scalar sends
    it to the YAML parser)."""
    for extra, note in (("", ""), ("  notes: |\n    two\n    lines\n", "read with the YAML parser")):
        record = scan("Assets/Holder.prefab", "prefab", _script_with_fields(extra))
        assert note in record.note
        fields = [s for s in record.symbols if s.kind == "field"]
        written = ["longText", *(["notes"] if extra else []), *(f"field{i}" for i in range(70))]
        assert [s.name for s in fields] == written[:40] + written[-20:], note
        long_text = next(s.signature for s in fields if s.name == "longText")
        assert long_text == "longText: " + "y" * 79 + "…", note


def test_standard_keys_are_not_fields_and_their_neighbours_are() -> None:
    """The fields regex skips the standard keys through one factored alternation: it must skip
    exactly `STANDARD_FIELDS` and `references`, not a key that only starts or ends like one."""
    from indexer.scanners.yaml_facts import STANDARD_FIELDS
    from indexer.scanners.yaml_spans import fields

    standard = STANDARD_FIELDS | {"references"}
    near = {k + "s" for k in standard} | {k[:-1] for k in standard} | {"x" + k for k in standard}
    for key in sorted(standard | near):
        found = [f.key for f in fields(f"MonoBehaviour:\n  {key}: 1\n")]
        assert found == ([] if key in standard else [key]), key


def test_guid_uses_leave_out_the_ignored_keys_in_both_readers() -> None:
    """`guid_uses(ignore)` is `guid_uses()` without the uses under those keys, however the key is
    found (on the GUID's own line, walking up, or through a long list's owners), in the line reader
    and in the YAML parser's reader alike."""
    many = "".join(f"  - target: {{fileID: {i}, guid: {'b' * 32}, type: 3}}\n" for i in range(20))
    body = (
        "MonoBehaviour:\n"
        f"  m_Script: {{fileID: 11500000, guid: {'a' * 32}, type: 3}}\n"
        "  target:\n"
        f"    guid: {'c' * 32}\n"
        "  list:\n"
        f"  - {{fileID: 2, guid: {'d' * 32}, type: 2}}\n"
        "  m_Modifications:\n" + many
    )
    text = f"%YAML 1.1\n--- !u!114 &1\n{body}"
    (doc,) = split(text)
    node = NodeDoc(doc.class_id, doc.file_id, doc.stripped, doc.line, doc.body)
    for reader in (doc, node):
        every = reader.guid_uses()
        assert len(every) == 23
        ignore = frozenset({"m_Script", "target"})
        assert reader.guid_uses(ignore) == [u for u in every if u.key not in ignore]
        assert [u.key for u in reader.guid_uses(ignore)] == ["list"]


def test_wrapped_flows_are_found_from_their_comma_as_the_regex_finds_them() -> None:
    """`wrapped_flows` (searched from a line-ending comma) finds every match of `WRAPPED_FLOW`, and
    only those, on random texts made of the characters that decide it."""
    pieces = ["{", "}", ",", " ", "\t", "\n", "a", ":", "\n  ", ",\n ", "{a, b,\n   c}", ", \n\t"]
    rng = random.Random(16)
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        expected = [(m.start(), m.end(1), m.end()) for m in WRAPPED_FLOW.finditer(text)]
        assert list(wrapped_flows(text)) == expected, text


def test_a_written_event_block_reads_as_the_item_by_item_reader_reads_it() -> None:
    """`yaml_spans._written_block` (a whole `m_PersistentCalls:` block as Unity writes it, in a few
    matches) gives exactly what `_block_calls` gives on the same block, or None, on random blocks
    made of Unity's lines and of the lines that break its layout; and it reads Unity's own."""
    from indexer.scanners.yaml_spans import _block_calls, _block_end, _written_block

    def item(pad: str, method: str) -> list[str]:
        keys = ["m_TargetAssemblyTypeName: Game.Door, Game", f"m_MethodName: {method}", "m_Mode: 5", "m_Arguments:"]
        args = ["m_ObjectArgument: {fileID: 0}", "m_ObjectArgumentAssemblyTypeName: UnityEngine.Object"]
        args += ["m_IntArgument: 0", "m_FloatArgument: 0", "m_StringArgument: hi", "m_BoolArgument: 0"]
        lines = [f"{pad}- m_Target: {{fileID: 7}}", *(f"{pad}  {k}" for k in keys)]
        return lines + [f"{pad}    {a}" for a in args] + [f"{pad}  m_CallState: 2"]

    odd = ["", "   ", "      extra: 1", "    m_TypeName: X", "  next: 1", "        - m_Target: {fileID: 8}"]
    rng = random.Random(16)
    read = 0
    for n in range(3_000):
        lines = ["  onOpen:", "    m_PersistentCalls:", "      m_Calls:" if n % 7 else "      m_Calls: []"]
        for _ in range(rng.randint(0, 3)):
            pad = rng.choice(["      ", "      ", "        "])
            lines += item(pad, rng.choice(["Open", "'Close'", "A\n         B"]))
        lines += [rng.choice(odd) for _ in range(rng.randint(0, 2))] + rng.choice([["  after: 1"], []])
        body = "MonoBehaviour:\n" + "\n".join(lines)
        end = body.index("\n", body.index("m_PersistentCalls:"))
        close = _block_end(4).search(body, end)
        expected = _block_calls(body[end : close.start() if close else len(body)], 4, "onOpen", 2)
        written = _written_block(body, end, 4, "onOpen", 2)
        assert written in (None, expected), body
        read += written is not None and len(written) > 1
    assert read > 100  # Unity's own layout is read by the written reader


def test_a_guid_line_key_and_a_local_reference_read_without_their_regex_as_with_it() -> None:
    """`key_on_line` reads a `key: {` line's key in one anchored match and `top_ref` reads
    `{fileID: N}` without `REF`: both give what the line's `KEY` and `REF` regexes give, on random
    lines and values made of the characters that decide them."""
    from indexer.scanners.yaml_guids import key_on_line
    from indexer.scanners.yaml_lines import KEY, REF, unquote

    rng = random.Random(12)
    pieces = ["  ", " ", "- ", "a", "_", "'", '"', ":", ": ", "{", "}", "#", "[", "x y", "\t", "guid: 1"]
    for _ in range(20_000):
        line = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 10))) + "guid"
        body = f"MonoBehaviour:\n{line}\n  next: 1"
        m = KEY.match(line)
        expected = unquote(m.group(3)) if m and m.group(3) and m.group(4) is not None and "{" in m.group(4) else None
        assert key_on_line(body, body.index(line) + len(line) - 4) == expected, line
    for value in [
        "{fileID: 0}",
        "{fileID: 12}",
        "{fileID: -5}",
        "{fileID: ٣}",
        "{fileID: 1}x",
        "{fileID: }",
        "{fileID: 1 }",
    ]:
        (doc,) = split(f"--- !u!4 &1\nTransform:\n  m_Father: {value}\n")
        r = REF.match(value)
        assert doc.top_ref("m_Father") == ((int(r.group(1)), "") if r else (0, "")), value


def test_a_file_cut_short_mid_line_is_partial_with_what_it_held() -> None:
    """Unity ends every file it writes with a line break (all 2,755 Unity YAML files of the ten
    held-out projects do): one that ends mid-line was cut short (a failed copy or checkout). It
    keeps what it held up to there, marked partial on its last line."""
    data = (CASES / "Quirks.prefab").read_bytes()
    whole = scan("Assets/Quirks.prefab", "prefab", data)
    cut_at = data.index(b"m_Name", len(data) // 2) + 4  # mid-way through a later object's name line
    cut = scan("Assets/Quirks.prefab", "prefab", data[:cut_at])
    assert whole.status == "ok" and cut.status == "partial"
    assert cut.note.endswith("; ends mid-line: the file looks cut short, what follows is missing")
    assert cut.error_lines == (data[:cut_at].count(b"\n") + 1,)
    kept = {(s.kind, s.name) for s in cut.symbols}
    assert kept and kept < {(s.kind, s.name) for s in whole.symbols}
    assert scan("Assets/Quirks.prefab", "prefab", data[: data.rindex(b"\n", 0, cut_at) + 1]).status == "ok"


PHYSICS_MATERIAL = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!134 &13400000
PhysicsMaterial:
  m_ObjectHideFlags: 0
  m_CorrespondingSourceObject: {fileID: 0}
  m_PrefabInstance: {fileID: 0}
  m_PrefabAsset: {fileID: 0}
  m_Name: IcePhysicsMaterial
  serializedVersion: 2
  m_DynamicFriction: 0.1
  m_StaticFriction: 0.1
  m_Bounciness: 0
  m_FrictionCombine: 2
  m_BounceCombine: 2
"""
EMBEDDED_TEXTURE = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!28 &2800000
Texture2D:
  m_ObjectHideFlags: 0
  m_Name: Font Atlas
  m_Width: 512
  m_Height: 512
"""


def test_other_unity_yaml_assets_record_their_objects_fields_and_an_asset_s_embedded_objects_do_not() -> None:
    """docs/indexing.md: a physics material's friction is what "how slippery is the ice" asks
    for; a texture a font `.asset` embeds is generated data (its fields would be noise)."""
    path = "Assets/Levels/IcePhysicsMaterial.physicMaterial"
    rec = scan(path, kind_of(path), PHYSICS_MATERIAL.encode())
    assert [(s.kind, s.name, s.line, s.signature, s.container) for s in rec.symbols] == [
        ("object", "IcePhysicsMaterial", 3, "PhysicsMaterial", ""),
        ("field", "m_DynamicFriction", 11, "m_DynamicFriction: 0.1", "IcePhysicsMaterial"),
        ("field", "m_StaticFriction", 12, "m_StaticFriction: 0.1", "IcePhysicsMaterial"),
        ("field", "m_Bounciness", 13, "m_Bounciness: 0", "IcePhysicsMaterial"),
        ("field", "m_FrictionCombine", 14, "m_FrictionCombine: 2", "IcePhysicsMaterial"),
        ("field", "m_BounceCombine", 15, "m_BounceCombine: 2", "IcePhysicsMaterial"),
    ]
    asset = scan("Assets/Fonts/Font SDF.asset", "asset", EMBEDDED_TEXTURE.encode())
    assert [(s.kind, s.name, s.signature) for s in asset.symbols] == [("object", "Font Atlas", "Texture2D")]


def test_an_outline_never_shows_the_count_of_documents_of_a_file_read_whole(tmp_path: Path) -> None:
    """A physics material with no name has no object to outline: its outline is empty, not the
    note `ok: 1 documents` (a count of documents is not something to read), in describe and in a
    pack alike."""
    text = PHYSICS_MATERIAL.replace("  m_Name: IcePhysicsMaterial\n", "")
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Levels/Ice.physicMaterial": text,
            "Assets/Levels/Ice.physicMaterial.meta": meta("d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4", "NativeFormatImporter"),
        },
    )
    update(root, CONFIG)
    ws = open_workspace(root, projects_at(root))
    graph = ws.projects[0].graph
    assert graph.records.record("Assets/Levels/Ice.physicMaterial").note == "1 documents"
    description = describe(graph, "Assets/Levels/Ice.physicMaterial")
    assert description.text == "Assets/Levels/Ice.physicMaterial  (unity_yaml, guid d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4)"
    assert "ok: " not in build_context(ws, "ice physic material", 2000, counter("estimate")).tier2.text


def test_two_game_objects_with_one_file_id_each_keep_their_own_name() -> None:
    """A merge can leave two documents with the same fileID: both are outlined, each by its own
    `m_Name` (the last one's name was given to both), and the file says so in its note."""
    text = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        "--- !u!1 &-5\nGameObject:\n  m_Name: Torch\n"
        "--- !u!1 &-5\nGameObject:\n  m_Name: Brazier\n"
    )
    rec = scan("Assets/Hall.unity", "scene", text.encode())
    assert [(s.name, s.line) for s in rec.symbols if s.kind == "gameobject"] == [("Torch", 3), ("Brazier", 6)]
    assert "duplicate fileID -5" in rec.note


def test_a_script_field_named_target_that_holds_an_asset_is_a_guid_reference() -> None:
    """`target` is a key of prefab overrides (`- target: {fileID: .., guid: <source prefab>}`),
    whose GUIDs cost no reference each; it is also a common name of a script's own field. Every
    document's GUIDs were read with `target` left out, so a component's `target` prefab and a
    ScriptableObject's `target` asset were no reference: `refs` never found them."""
    text = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n"
        "  m_GameObject: {fileID: 0}\n"
        "  m_Script: {fileID: 11500000, guid: 4f2a9c0d8e7b41a6b3c5d2e1f0a9b8c7, type: 3}\n"
        "  m_Name: SpawnRule\n"
        "  target: {fileID: 5541800272651160934, guid: 9a1b2c3d4e5f60718293a4b5c6d7e8f9,\n    type: 3}\n"
        "  fallback: {fileID: 11400000, guid: 0b1b2c3d4e5f60718293a4b5c6d7e8f9, type: 2}\n"
    )
    rec = scan("Assets/SpawnRule.asset", "asset", text.encode())
    guids = [(r.target, r.line, r.context) for r in rec.refs if r.kind == "guid"]
    assert guids == [
        ("9a1b2c3d4e5f60718293a4b5c6d7e8f9", 8, "target"),
        ("0b1b2c3d4e5f60718293a4b5c6d7e8f9", 10, "fallback"),
    ]


def test_a_line_of_20000_guids_is_read_once() -> None:
    """A flow list of asset references on one line (1.4 MB; generated, or planted) had the key of
    its line looked up once per GUID, each lookup reading the line from its start: 44 s, and an
    index of a 14 MB one would be stopped by the scanner's time budget. The key is read once a line."""
    import time

    item = "{fileID: 2100000, guid: 9a1b2c3d4e5f60718293a4b5c6d7e8f9, type: 2}, "
    text = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n"
        "  m_Script: {fileID: 11500000, guid: 4f2a9c0d8e7b41a6b3c5d2e1f0a9b8c7, type: 3}\n"
        f"  m_Name: Palette\n  materials: [{item * 20_000}]\n"
    )
    t0 = time.monotonic()
    rec = scan("Assets/Palette.asset", "asset", text.encode())
    assert time.monotonic() - t0 < 10
    guids = [(r.target, r.line, r.context) for r in rec.refs if r.kind == "guid"]
    assert guids == [("9a1b2c3d4e5f60718293a4b5c6d7e8f9", 7, "materials")]  # one a key and line


def test_an_event_with_20000_calls_is_read_in_linear_time_with_each_calls_line() -> None:
    """Each call's line was counted from the start of its block, once per call: 20,000 calls (4 MB,
    planted or generated) took 20 s, a file twice that size the scanner's whole time budget. Both
    readings count on from the call before: Unity's own layout and one it did not write (an extra
    key in each call, read item by item)."""
    import time

    head = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n"
        "  m_GameObject: {fileID: 0}\n  m_Name: Relay\n  onFire:\n    m_PersistentCalls:\n      m_Calls:\n"
    )
    for extra in ("", "        m_Extra: 1\n"):
        call = (
            "      - m_Target: {{fileID: 0}}\n        m_TargetAssemblyTypeName: Game.Relay, Assembly-CSharp\n"
            "        m_MethodName: Fire{i}\n        m_Mode: 1\n" + extra + "        m_CallState: 2\n"
        )
        text = head + "".join(call.format(i=i) for i in range(20_000))
        t0 = time.monotonic()
        rec = scan("Assets/Relay.asset", "asset", text.encode())
        assert time.monotonic() - t0 < 10
        calls = [(r.target, r.line) for r in rec.refs if r.kind == "method"]
        size = call.count("\n")
        assert len(calls) == 20_000
        assert calls[0] == ("Game.Relay.Fire0", 10)
        assert calls[-1] == ("Game.Relay.Fire19999", 10 + 19_999 * size)


def test_a_document_nested_30000_deep_is_not_given_to_the_parser_that_recurses() -> None:
    """A document outside the line reader's subset (here a flow list continued on the next line)
    goes to ruamel.yaml, whose C parser recurses once a nesting level: a 60 KB `.asset` nested
    30,000 deep overflowed the C stack, and the segmentation fault ended the process scanning it,
    `unity-index index` itself for a file that small. Scanned in a child process here, so the
    failure is a failed test. A document that may nest over 1000 levels keeps the line reader's
    reading, with a note."""
    import subprocess
    import sys

    code = (
        "from indexer.scanners import scan\n"
        "text = ('%YAML 1.1\\n%TAG !u! tag:unity3d.com,2011:\\n--- !u!114 &11400000\\nMonoBehaviour:\\n'\n"
        "        '  m_Name: Deep\\n  cells: ' + '[' * 30000 + '1,\\n    ' + ']' * 30000 + '\\n')\n"
        "rec = scan('Assets/Deep.asset', 'asset', text.encode())\n"
        "print(rec.status, '|', rec.note, '|', [(s.kind, s.name) for s in rec.symbols])\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == (
        "ok | 1 documents; document &11400000 nests over 1000 levels: not read with the YAML parser"
        " | [('scriptable_object', 'Deep'), ('field', 'cells')]"
    )


ASSET_REFERENCES = f"""%YAML 1.1
--- !u!114 &1
MonoBehaviour:
  m_Script: {{fileID: 11500000, guid: {"a" * 32}, type: 3}}
  m_DynamicPrefabReference:
    m_AssetGUID: {"B" * 32}
    m_SubObjectName:
    m_SubObjectType:
    m_EditorAssetChanged: 0
  m_Unset:
    m_AssetGUID:
    m_SubObjectName:
  m_Spawnables:
  - m_AssetGUID: {"c" * 32}
    m_SubObjectName:
"""


def test_an_addressables_asset_reference_is_a_reference_to_its_asset_in_both_readers() -> None:
    """An `AssetReference` field holds its asset's GUID alone (`m_AssetGUID:`), not as `{fileID,
    guid}`: it was no reference and showed as the list of its keys. Now each is a use of the
    GUID owned by the field, and the field shows the GUID (a path, once `describe` resolves it)."""
    (doc,) = split(ASSET_REFERENCES)
    node = NodeDoc(doc.class_id, doc.file_id, doc.stripped, doc.line, doc.body)
    for reader in (doc, node):
        uses = [(u.guid, u.key) for u in reader.guid_uses(frozenset({"m_Script"}))]
        assert uses == [("b" * 32, "m_DynamicPrefabReference"), ("c" * 32, "m_Spawnables")]
        shown = {f.key: f.shown for f in reader.fields()}
        assert shown["m_DynamicPrefabReference"] == "guid:" + "b" * 32
        assert shown["m_Unset"] == "None"


def test_refs_and_describe_follow_an_asset_reference(tmp_path: Path) -> None:
    """A scene whose spawner holds the player prefab through an AssetReference uses the prefab:
    `refs` lists the scene, `describe` shows the field as the prefab's path."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Spawner.cs": "public class Spawner : UnityEngine.MonoBehaviour { }",
            "Assets/Spawner.cs.meta": meta("a" * 32),
            "Assets/Gray.prefab": "%YAML 1.1\n--- !u!1 &1\nGameObject:\n  m_Name: Gray\n",
            "Assets/Gray.prefab.meta": meta("b" * 32, "PrefabImporter"),
            "Assets/Spawn.asset": ASSET_REFERENCES,
            "Assets/Spawn.asset.meta": meta("e" * 32, "NativeFormatImporter"),
        },
    )
    update(root, CONFIG)
    project = open_workspace(root, projects_at(root)).projects[0]
    usages = project.graph.references(project.graph.target("Assets/Gray.prefab"))
    assert [(u.path, u.line, u.context) for u in usages] == [("Assets/Spawn.asset", 6, "m_DynamicPrefabReference")]
    text = describe(project.graph, "Assets/Spawn.asset").text
    assert "m_DynamicPrefabReference: Assets/Gray.prefab" in text, text


def test_a_guid_in_a_list_items_mapping_belongs_to_the_lists_key_in_both_readers() -> None:
    """`EditorBuildSettings`' scenes: each item's `guid:` line belonged to the item's first key
    (`enabled`) in the line reader and to the list (`m_Scenes`) in the YAML parser's reader; the
    differential over the multiplayer samples (Bitesize) found it. Both say `m_Scenes` now."""
    text = (
        "%YAML 1.1\n--- !u!1045 &1\nEditorBuildSettings:\n  m_Scenes:\n"
        f"  - enabled: 1\n    path: Assets/A.unity\n    guid: {'a' * 32}\n"
        f"  - enabled: 0\n    path: Assets/B.unity\n    guid: {'b' * 32}\n"
    )
    (doc,) = split(text)
    node = NodeDoc(doc.class_id, doc.file_id, doc.stripped, doc.line, doc.body)
    for reader in (doc, node):
        assert [(u.guid, u.key) for u in reader.guid_uses()] == [("a" * 32, "m_Scenes"), ("b" * 32, "m_Scenes")]


def test_a_unity_5_materials_properties_are_read_by_both_readers() -> None:
    """Unity 5 saved a material's properties as `- first:` / `name: _Color` / `second: {r: ...}`:
    `describe` showed 28 lines of `first: None` and no colour (a trial on a Unity 5.5 project). Both
    readers now give the name and the value (a texture's `m_Texture`), on the `- first:` line."""
    body = (
        "Material:\n  m_Name: Green\n  m_Shader: {fileID: 46, guid: 0000000000000000f000000000000000, type: 0}\n"
        "  m_SavedProperties:\n    serializedVersion: 2\n    m_TexEnvs:\n    - first:\n        name: _MainTex\n"
        f"      second:\n        m_Texture: {{fileID: 2800000, guid: {'e' * 32}, type: 3}}\n"
        "        m_Scale: {x: 1, y: 1}\n    m_Floats:\n    - first:\n        name: _Glossiness\n      second: 0.5\n"
        "    - first: {name: _Metallic}\n      second: 0\n"
        "    m_Colors:\n    - first:\n        name: _Color\n      second: {r: 0, g: 1, b: 0, a: 0.5}\n"
    )
    (doc,) = split(f"%YAML 1.1\n--- !u!21 &2100000\n{body}")
    node = NodeDoc(doc.class_id, doc.file_id, doc.stripped, doc.line, doc.body)
    expected = [
        ("texture", "_MainTex", f"guid:{'e' * 32}", 6),
        ("float", "_Glossiness", "0.5", 12),
        ("float", "_Metallic", "0", 15),
        ("color", "_Color", "{r: 0, g: 1, b: 0, a: 0.5}", 18),
    ]
    for reader in (doc, node):
        assert [(p.section, p.name, p.value, p.line) for p in reader.properties()] == expected


def test_a_nested_mapping_shows_its_short_values_beside_its_keys() -> None:
    """A trial: `jumpProperties: {maxJumpHeight, minJumpHeight, ...}` hid the numbers a designer
    tunes; a long value or one naming an object of the file stays a key, a block is shown nested
    (since schema 45), and what does not fit goes, the least telling first (`hangTime: 0`, `target`)."""
    body = (
        "  jumpProperties:\n    maxJumpHeight: 4\n    minJumpHeight: 1\n    curve:\n      m_Curve: []\n"
        f"    note: {'x' * 41}\n    target: {{fileID: 400002}}\n    hangTime: 0\n    extra: 1\n"
    )
    from indexer.scanners.yaml_spans import fields

    [field] = fields("MonoBehaviour:\n" + body)
    assert field.shown == "{maxJumpHeight: 4, minJumpHeight: 1, curve: {m_Curve: []}, note, extra: 1, …}"
