"""Binary-serialized scenes, prefabs and assets: the files they reference, read from the
SerializedFile's externals table (scanners/unity_binary.py). The files are written here by a small
writer following the layout the scanner documents, for every layout change from version 12 to 22
(those Unity 5.4 (15), 5.5 (17), 2019 (19), 2020 (21) and 2022+ (22) write among them)."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.model import Ref
from indexer.query.context import _related_lines, build_context
from indexer.query.describe import describe
from indexer.query.tokens import counter
from indexer.query.workspace import open_workspace, projects_at
from indexer.scanners import scan
from indexer.scanners.unity_binary import NOTE, UNREAD_NOTE, external_guids

from .conftest import meta, run_cli, write_project
from .test_indexing import CONFIG

SCRIPT = "ec756b43a7b10f04a95d2ba7095065e8"
MATERIAL = "30439912f372ad04bbc0a22b59b93e7f"
BUILTIN = "0000000000000000f000000000000000"  # unity_builtin_extra: left out


def guid_bytes(guid: str) -> bytes:
    """The 16 bytes Unity stores for a GUID's text: each byte's hex digits swapped."""
    return bytes(int(guid[i + 1] + guid[i], 16) for i in range(0, 32, 2))


def serialized_file(version: int, externals: list[str], little: bool = True, trees: bool = True) -> bytes:
    """A SerializedFile of one GameObject and one MonoBehaviour referencing `externals`."""
    o = "<" if little else ">"
    meta_ = bytearray(b"2021.3.15f1\0" + struct.pack(o + "i", 19))
    if version >= 13:
        meta_ += bytes([1 if trees else 0])
    types = [1, 114]
    meta_ += struct.pack(o + "i", len(types))
    for class_id in types:
        meta_ += struct.pack(o + "i", class_id)
        if version >= 16:
            meta_ += b"\0"
        if version >= 17:
            meta_ += struct.pack(o + "h", 0 if class_id == 114 else -1)
        if version >= 13:
            if (version < 16 and class_id < 0) or (version >= 16 and class_id == 114):
                meta_ += b"\x11" * 16
            meta_ += b"\x22" * 16
        if trees:  # two nodes and their names
            names = b"Base\0m_Name\0"
            meta_ += struct.pack(o + "ii", 2, len(names)) + b"\0" * (2 * (32 if version >= 19 else 24)) + names
            if version >= 21:
                meta_ += struct.pack(o + "ii", 1, 7)
    if version < 14:
        meta_ += struct.pack(o + "i", 0)
    meta_ += struct.pack(o + "i", 2)
    for path_id, type_id in ((1, 0), (2, 1)):
        if version >= 14:
            while (20 + len(meta_)) % 4:
                meta_ += b"\0"
            meta_ += struct.pack(o + "q", path_id)
        else:
            meta_ += struct.pack(o + "i", path_id)
        meta_ += struct.pack(o + ("q" if version >= 22 else "I"), 0) + struct.pack(o + "Ii", 16, type_id)
        if version < 16:
            meta_ += struct.pack(o + "H", types[type_id])
        if 11 <= version < 17:
            meta_ += struct.pack(o + "h", -1)
        if version in (15, 16):
            meta_ += b"\0"
    meta_ += struct.pack(o + "i", 1)  # one script type
    meta_ += struct.pack(o + "i", 1)
    if version >= 14:
        while (20 + len(meta_)) % 4:
            meta_ += b"\0"
        meta_ += struct.pack(o + "q", 11500000)
    else:
        meta_ += struct.pack(o + "i", 11500000)
    meta_ += struct.pack(o + "i", len(externals))
    for guid in externals:
        path = b"resources/unity_builtin_extra" if guid == BUILTIN else b""
        meta_ += b"\0" + guid_bytes(guid) + struct.pack(o + "i", 0 if guid == BUILTIN else 3) + path + b"\0"
    meta_ += b"\0"  # user information
    head = struct.pack(">IIII", len(meta_), 0, version, 0) + bytes([0 if little else 1, 0, 0, 0])
    if version >= 22:
        head += struct.pack(">IqqQ", len(meta_), 0, 0, 0)
    return head + bytes(meta_) + b"\0" * 32  # the objects' data, never read


def test_a_guid_is_read_as_unity_writes_its_text() -> None:
    """The 16 bytes a Unity 5.5 scene stores for a script whose .meta says `ec756b43...`."""
    data = serialized_file(17, [])
    head = data[: data.rindex(b"\0" * 32) - 1 - 4] + struct.pack("<i", 1)
    stored = bytes.fromhex("ce57b6347a1bf0409ad5b27a9005568e")
    assert external_guids(head + b"\0" + stored + struct.pack("<i", 3) + b"\0" + b"\0" * 33) == [SCRIPT]


@pytest.mark.parametrize("version", [12, 13, 14, 15, 17, 19, 21, 22])
def test_the_files_a_binary_prefab_references_are_its_refs(version: int) -> None:
    data = serialized_file(version, [SCRIPT, BUILTIN, MATERIAL, SCRIPT])
    assert external_guids(data) == [SCRIPT, MATERIAL]  # each once, Unity's own resources left out
    rec = scan("Assets/Prefabs/Turret.prefab", "prefab", data)
    assert (rec.kind, rec.status, rec.note) == ("prefab", "partial", NOTE)
    assert rec.refs == (Ref("guid", SCRIPT, 0, context="external"), Ref("guid", MATERIAL, 0, context="external"))
    assert rec.symbols == ()


def test_a_table_of_40000_externals_is_read_in_linear_time() -> None:
    """Each GUID was checked against a list of those before it: a planted table of 40,000
    externals (880 KB) took 14 s, a 2 MB one the scanner's whole time budget."""
    import time

    guids = [f"{i:032x}" for i in range(1, 40_001)]
    data = serialized_file(20, guids + guids[:3])
    t0 = time.monotonic()
    assert external_guids(data) == guids
    assert time.monotonic() - t0 < 3


def test_big_endian_files_and_files_without_type_trees_are_read() -> None:
    assert external_guids(serialized_file(17, [SCRIPT], little=False)) == [SCRIPT]
    assert external_guids(serialized_file(22, [MATERIAL], trees=False)) == [MATERIAL]


@pytest.mark.parametrize(
    "data",
    [
        serialized_file(17, [SCRIPT])[:90],  # cut in its types
        serialized_file(11, [SCRIPT]),  # a version before Unity 5
        b"\0" * 64,
        b"\xff" * 20 + b"\0" * 40,
    ],
    ids=["cut", "old", "zeros", "garbage"],
)
def test_what_the_reader_cannot_follow_is_kept_by_name(data: bytes) -> None:
    rec = scan("Assets/Scenes/Level.unity", "scene", data)
    assert (rec.status, rec.note, rec.refs) == ("skipped", UNREAD_NOTE, ())


def _cannon_project(tmp_path: Path) -> Path:
    """An indexed project whose binary prefab carries a script and uses a binary material."""
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Scripts/Turret.cs": "public class Turret : UnityEngine.MonoBehaviour { public int range; }\n",
            "Assets/Scripts/Turret.cs.meta": meta(SCRIPT),
            "Assets/Prefabs/Cannon.prefab": serialized_file(17, [SCRIPT, MATERIAL]),
            "Assets/Prefabs/Cannon.prefab.meta": meta("c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0", "PrefabImporter"),
            "Assets/Materials/Steel.mat": serialized_file(17, []),
            "Assets/Materials/Steel.mat.meta": meta(MATERIAL, "NativeFormatImporter"),
        },
    )
    update(root, CONFIG)
    return root


def test_a_binary_prefab_carries_its_script_in_the_graph_and_the_ranking(tmp_path: Path) -> None:
    root = _cannon_project(tmp_path)
    ws = open_workspace(root, projects_at(root))
    graph = ws.projects[0].graph
    assert graph.uses("Assets/Prefabs/Cannon.prefab") == (
        ("Assets/Materials/Steel.mat", "asset"),
        ("Assets/Scripts/Turret.cs", "script"),
    )
    hits = ws.search("turret range", 5)
    assert [(h.path, h.reason) for h in hits[:2]] == [
        ("Assets/Scripts/Turret.cs", "text match"),
        ("Assets/Prefabs/Cannon.prefab", "the prefab carries script Assets/Scripts/Turret.cs"),  # (session 33)
    ]
    refs = run_cli("refs", "Assets/Scripts/Turret.cs", "--project", str(root))
    assert "in assets (1):\n  Assets/Prefabs/Cannon.prefab [external]\n" in refs.stdout  # no line to name


def test_a_binary_prefab_in_a_pack_shows_what_it_references_and_that_its_values_are_unread(tmp_path: Path) -> None:
    """A binary file has no objects to outline: the pack shows the files it references (what is
    known of it) under its note's first clause, not its header alone."""
    root = _cannon_project(tmp_path)
    pack = build_context(open_workspace(root, projects_at(root)), "cannon prefab turret", 2000, counter())
    at = pack.tier2.text.index("### Assets/Prefabs/Cannon.prefab  (prefab; matched: cannon, prefab)\n")
    assert pack.tier2.text[at:].split("\n")[1:5] == [
        "partial: binary-serialized Unity asset: only the files it references are indexed",
        "references:",
        "  Assets/Scripts/Turret.cs (external)",
        "  Assets/Materials/Steel.mat (external)",
    ]


def test_a_binary_prefab_listed_as_related_shows_what_it_references_never_its_note_alone(tmp_path: Path) -> None:
    """docs/cli.md (context): a related file's outline leaves out a binary file's note (what was
    not read is not something to read); with no reference the task names, its line stands alone."""
    root = _cannon_project(tmp_path)
    ws = open_workspace(root, projects_at(root))
    cannon = [("Assets/Prefabs/Cannon.prefab", "carries script Turret.cs")]
    lines = [text for *_, text, _ in _related_lines(ws, cannon, {"turret"}, counter(), 400)]
    assert lines == [
        "Assets/Prefabs/Cannon.prefab  (carries script Turret.cs)\n"
        "  references:\n"
        "    Assets/Scripts/Turret.cs (external)"
    ]
    lines = [text for *_, text, _ in _related_lines(ws, cannon, {"wheel"}, counter(), 400)]
    assert lines == ["Assets/Prefabs/Cannon.prefab  (carries script Turret.cs)"]


def test_describe_states_a_binary_prefab_s_note_once(tmp_path: Path) -> None:
    """The header says how the file was read; the outline under it does not say it again."""
    root = _cannon_project(tmp_path)
    graph = open_workspace(root, projects_at(root)).projects[0].graph
    text = describe(graph, "Assets/Prefabs/Cannon.prefab").text
    assert text.split("\n")[:4] == [
        "Assets/Prefabs/Cannon.prefab  (prefab, guid c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0)",
        f"partial: {NOTE}",
        "references:",
        "  Assets/Scripts/Turret.cs (external)",
    ]
