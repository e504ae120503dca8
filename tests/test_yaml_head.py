"""A MonoBehaviour's standard first lines read by one match (`scanners/yaml_tops.py`): what the
line reader answers from it is what it answers reading the whole body (session 46's speed work
promises the records unchanged)."""

from __future__ import annotations

import pytest

from indexer.scanners.yaml_guids import guid_uses
from indexer.scanners.yaml_reader import TextDoc, split
from indexer.scanners.yaml_spans import fields
from indexer.scanners.yaml_tops import HEAD_LINES, NO_HEAD

SCRIPT = "5f0e1d2c3b4a59687766554433221100"
HEAD = (
    "MonoBehaviour:\n  m_ObjectHideFlags: 0\n  m_CorrespondingSourceObject: {fileID: 0}\n"
    "  m_PrefabInstance: {fileID: 0}\n  m_PrefabAsset: {fileID: 0}\n  m_GameObject: {fileID: 100}\n"
    "  m_Enabled: 1\n  m_EditorHideFlags: 0\n"
    f"  m_Script: {{fileID: 11500000, guid: {SCRIPT}, type: 3}}\n  m_Name: 'Spawner'\n"
    "  m_EditorClassIdentifier: \n"
)


def _document(guids: int) -> TextDoc:
    """One MonoBehaviour written as Unity writes it, whose fields hold `guids` GUIDs: on keys of
    their own, in a list and in a nested object (whose key is found above the line)."""
    body = "  speed: 3.5\n  title: Wave one\n"
    for k in range(guids):
        guid = f"{k:032x}"
        if k % 3 == 0:
            body += f"  prefab{k}: {{fileID: 100100000, guid: {guid}, type: 3}}\n"
        elif k % 3 == 1:
            body += f"  waves{k}:\n  - {{fileID: 11400000, guid: {guid}, type: 2}}\n"
        else:
            body += f"  nested{k}:\n    icon: {{fileID: 21300000, guid: {guid}, type: 3}}\n    count: {k}\n"
    text = f"%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\n{HEAD}{body}"
    (doc,) = split(text)
    return doc


@pytest.mark.parametrize("guids", [0, 1, 14, 15, 16, 17, 40])
def test_a_standard_head_reads_as_the_whole_body_does(guids: int) -> None:
    """Around `yaml_guids._FEW_GUIDS` (16: the count that chooses how keys are found), the GUIDs
    read from the head's end, the script's left out, are those read from the body's start; so are
    the fields, and the head's keys' values and lines."""
    doc = _document(guids)
    assert doc._head is not None  # the fast path is the one under test
    ignore = frozenset({"m_Script"})
    whole = guid_uses(doc.body, doc.lines, ignore, False)
    assert doc.guid_uses(ignore) == whole
    assert len(whole) == guids and all(use.key != "m_Script" for use in whole)
    assert doc.fields() == fields(doc.body)
    plain = TextDoc(114, 11400000, False, doc.line, doc.body, [], doc.offset, "MonoBehaviour")
    plain._tops, plain._head = NO_HEAD  # read as any other document
    for key in HEAD_LINES:
        assert (doc.top(key), doc.top_line(key), doc.top_ref(key)) == (
            plain.top(key),
            plain.top_line(key),
            plain.top_ref(key),
        )
    assert doc.top("m_Name") == "Spawner" and doc.top_ref("m_Script") == (11500000, SCRIPT)
