"""Session 55's fast paths of the Unity YAML line reader read what the general readers read (the
speed work promises byte-identical records): a GameObject's lines as Unity writes them read by one
match (`yaml_tops.GO_HEAD`), an event field's key read off the line above its `m_PersistentCalls:`
(`yaml_spans._FIELD_KEY`), and a call's `{fileID: N}` target read without `REF` (`_TARGET_HERE`).
Each is checked against the general reader on random documents made of Unity's lines and of the
lines that break its layout, by turning the fast path off (`_general`)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from indexer.scanners import scan, yaml_reader, yaml_spans
from indexer.scanners.yaml_reader import TextDoc, outside_documents, split

GUID = "5f0e1d2c3b4a59687766554433221100"
_VALUES = ["0", "1", "Door", "'Door: Left'", '"Hinge \\"A\\""', "", " x  y ", "'it''s'", "Player", "Untagged"]
_ICONS = ["{fileID: 0}", f"{{fileID: 2800000, guid: {GUID}, type: 3}}", "{fileID: 1}"]


@contextmanager
def _general(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The readers with the fast paths off: every document read by `top`'s search, every event key
    by `_event_key`, every call target by `REF`."""
    with monkeypatch.context() as m:
        m.setattr(yaml_reader, "HEADED", frozenset({114}))
        m.setattr(yaml_spans, "_FIELD_KEY", re.compile(r"(?!)"))
        m.setattr(yaml_spans, "_TARGET_HERE", "\0")
        yield


_GO_KEYS = ("m_Layer", "m_Name", "m_TagString", "m_Icon", "m_IsActive", "m_NavMeshLayer")


def _read(doc: TextDoc, key: str) -> tuple:
    return doc.top(key), doc.top_line(key), doc.top_ref(key)


def _game_object(rng: random.Random) -> list[str]:
    """A GameObject's body lines: Unity's layout, or one broken by a line or value it does not write."""
    lines = ["GameObject:", "  m_ObjectHideFlags: 0", "  m_CorrespondingSourceObject: {fileID: 0}"]
    lines += ["  m_PrefabInstance: {fileID: 0}", "  m_PrefabAsset: {fileID: 0}", "  serializedVersion: 6"]
    components = [f"  - component: {{fileID: {rng.randint(-9, 99)}}}" for _ in range(rng.randint(0, 3))]
    lines += ["  m_Component:", *components]
    for key in ("m_Layer", "m_Name", "m_TagString", "m_Icon", "m_NavMeshLayer", "m_StaticEditorFlags", "m_IsActive"):
        value = rng.choice(_ICONS if key == "m_Icon" else _VALUES)
        lines.append(f"  {key}: {value}" if rng.random() < 0.9 else f"  {key}:{value}")
    odd = ["    wrapped on", "  m_Name: Again", "  extra: 1", "", "  - component: {fileID: 5}", "   m_Layer: 3"]
    for _ in range(rng.choice([0, 0, 1, 2])):
        lines.insert(rng.randint(1, len(lines)), rng.choice(odd))
    return lines


def _behaviour(rng: random.Random) -> list[str]:
    """A MonoBehaviour's body lines with event fields: as Unity writes them, or keyed, indented and
    targeted otherwise."""
    lines = ["MonoBehaviour:", "  m_ObjectHideFlags: 0", "  m_GameObject: {fileID: 1}", "  m_Enabled: 1"]
    lines += [f"  m_Script: {{fileID: 11500000, guid: {GUID}, type: 3}}", "  m_Name: ", "  speed: 3"]
    keys = ["onClick", "_on2", "'quoted'", "on click", "1st", "onÉté", "- onList", "on:x"]
    targets = ["{fileID: 7}", "{fileID: -5}", "{fileID: ٣}", f"{{fileID: 12, guid: {GUID}, type: 3}}", "{fileID: 7} "]
    targets += ["{fileID: }", "{fileID: 7}x", "", "{fileID: 1 }"]
    for _ in range(rng.randint(1, 3)):
        key, pad = rng.choice(keys), rng.choice(["    ", "    ", "      ", "  "])
        lines += [f"  {key}:", f"{pad}m_PersistentCalls:", f"{pad}  m_Calls:"]
        for _ in range(rng.randint(0, 2)):
            lines += [f"{pad}  - m_Target: {rng.choice(targets)}".rstrip(" ") + rng.choice(["", "", " "])]
            lines += [f"{pad}    m_TargetAssemblyTypeName: Game.Door, Game", f"{pad}    m_MethodName: Open"]
            lines += [f"{pad}    m_Mode: {rng.choice('15')}", f"{pad}    m_Arguments:"]
            lines += [f"{pad}      m_ObjectArgument: {{fileID: 0}}", f"{pad}      m_ObjectArgumentAssemblyTypeName: X"]
            lines += [f"{pad}      m_IntArgument: 0", f"{pad}      m_FloatArgument: 0"]
            argument = rng.choice(["", "hi", "'a b'"])
            lines += [f"{pad}      m_StringArgument: {argument}", f"{pad}      m_BoolArgument: 0"]
            lines += [f"{pad}    m_CallState: 2"]
        if rng.random() < 0.2:
            lines.insert(rng.randint(1, len(lines)), rng.choice(["", "  # note", "   odd: 1"]))
    return lines


def _file(rng: random.Random) -> str:
    docs = [(1, 100, _game_object(rng)), (4, 101, ["Transform:", "  m_GameObject: {fileID: 100}"])]
    docs += [(114, 102, _behaviour(rng)), (1, 103, _game_object(rng))]
    return "%YAML 1.1\n" + "".join(f"--- !u!{c} &{f}\n" + "\n".join(lines) + "\n" for c, f, lines in docs)


def test_fast_paths_read_random_documents_as_the_general_readers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Records of 3,000 random files, fast paths on and off, are the same; and the fast paths
    were taken (Unity's own layouts are among them)."""
    rng = random.Random(55)
    headed = keyed = 0
    for _ in range(3_000):
        text = _file(rng)
        fast = scan("Assets/A.prefab", "prefab", text.encode())
        docs = split(text)
        for doc in docs[::3]:  # the GameObjects: each key as `top` reads it by its search
            plain = TextDoc(1, doc.file_id, doc.stripped, doc.line, doc.body, [], doc.offset, doc.class_name)
            plain._tops = {}
            assert [_read(doc, k) for k in _GO_KEYS] == [_read(plain, k) for k in _GO_KEYS], doc.body
            headed += bool(doc._tops)
        keyed += sum(re.search(r"\n  onClick:\n    m_PersistentCalls:", d.body) is not None for d in docs)
        with _general(monkeypatch):
            general = scan("Assets/A.prefab", "prefab", text.encode())
        assert fast == general, text
    assert headed > 1_000 and keyed > 200


def test_a_game_objects_head_reads_as_top_reads_each_key() -> None:
    """Each key `GO_HEAD` holds reads as `top` reads it by its search; a layout Unity does not
    write (a wrapped name, a key again) is read by that search."""
    head = "GameObject:\n  m_ObjectHideFlags: 0\n  m_CorrespondingSourceObject: {fileID: 0}\n"
    head += "  m_PrefabInstance: {fileID: 0}\n  m_PrefabAsset: {fileID: 0}\n  serializedVersion: 6\n"
    head += "  m_Component:\n  - component: {fileID: 4}\n  m_Layer: 5\n  m_Name: 'Door: Left'\n"
    tail = "  m_TagString: Player\n  m_Icon: {fileID: 0}\n  m_NavMeshLayer: 0\n  m_StaticEditorFlags: 0\n"
    (doc,) = split(f"--- !u!1 &1\n{head}{tail}  m_IsActive: 0\n")
    assert doc._tops == {"m_Layer": "5", "m_Name": "Door: Left", "m_TagString": "Player", "m_Icon": "{fileID: 0}"} | {
        "m_IsActive": "0"
    }
    assert (doc.top("m_Name"), doc.top_line("m_Name"), doc.top_line("m_IsActive")) == ("Door: Left", 11, 16)
    (wrapped,) = split(f"--- !u!1 &1\n{head}    Right\n{tail}  m_IsActive: 0\n")
    assert wrapped._tops == {} and wrapped.top("m_Name") == "'Door: Left' Right"


def test_an_event_fields_key_and_its_calls_target_read_without_a_walk_or_a_regex() -> None:
    """An event written as Unity writes it: its key is the field's, each call's target its fileID."""
    body = "MonoBehaviour:\n  m_Name: \n  onOpen:\n    m_PersistentCalls:\n      m_Calls:\n"
    body += "      - m_Target: {fileID: 42}\n        m_MethodName: Open\n        m_Mode: 1\n"
    [call] = yaml_spans.persistent_calls(body)
    assert (call.event, call.target, call.method, call.target_guid) == ("onOpen", 42, "Open", "")


def test_an_anchor_in_a_body_is_found_past_the_headers_own_ampersands() -> None:
    """A body's `&` (here the only one besides the headers') sends its document to the YAML parser
    (`outside_documents` looks for anchors only when a body holds a `&`: no test said so)."""
    text = "%YAML 1.1\n--- !u!114 &1\nMonoBehaviour:\n  a: &x 1\n  b: 2\n--- !u!1 &2\nGameObject:\n  m_Name: A\n"
    assert outside_documents(text, split(text)) == {0: "anchor or alias"}
    plain = text.replace("&x ", "")
    assert outside_documents(plain, split(plain)) == {}
