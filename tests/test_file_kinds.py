"""The kinds of docs/indexing.md, "Which files", that session 18 added: what Unity imports as a
TextAsset and the other text a project is made of are searched by their text (a binary one is
recorded as skipped, not indexed as text), and a Visual Effect Graph is a `vfx` whose textures,
held in JSON strings, are references."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.query.workspace import open_workspace, projects_at

from .conftest import meta, write_project
from .test_indexing import CONFIG, records, search_paths

TEXTS = {
    "Assets/Data/loot.csv": ("text", "item,weight\nemberstone,4\n", "emberstone"),
    "Assets/Data/waves.tsv": ("text", "wave\tgoblins\n1\t12\n", "goblins"),
    "Assets/Data/dialogue.yaml": ("text", "greeting: Welcome to Quillhaven\n", "quillhaven"),
    "Assets/Subtitles/Lose.srt": ("text", "1\n00:00:00,000 --> 00:00:05,000\n[A soft descending tone]\n", "descending"),
    "Assets/Subtitles/Intro.vtt": ("text", "WEBVTT\n\n00:01.000 --> 00:04.000\nHello wanderer\n", "wanderer"),
    "Assets/csc.rsp": ("text", "-define:GLIMMER_DEBUG\n", "glimmer_debug"),
    "Assets/Docs/help.html": ("text", "<p>Press the lantern key</p>\n", "lantern"),
}  # fmt: skip


def test_text_assets_subtitles_and_compiler_options_are_searched_by_their_text(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {p: text for p, (_, text, _) in TEXTS.items()})
    update(root, CONFIG)
    r = records(root)
    for path, (kind, _, word) in TEXTS.items():
        assert (r.record(path).kind, r.record(path).status) == (kind, "ok"), path
        assert search_paths(root, word) == [path], word


PHRASES = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!114 &11400000
MonoBehaviour:
  m_Script: {fileID: 11500000, guid: 97933d85c6acddc4bb95f77ca8cc0280, type: 3}
  m_Name: EnglishPhrases
  phrases:
  - key: INFOPOST1
    value: "\\u201CHello? Is anyone here? Better keep moving or I\\u2019ll be talking
      to myself for the whole trip. Let\\u2019s use SPACE to jump and err\\u2026 how about
      S to crouch?\\u201D"
  - key: INFOPOST3
    value: This place just got interesting, try it on this
      innocent looking wall.
  lines:
  - Beware the marshwyrm
  - 'Mind the quicksand, traveller'
  m_ObjectArgumentAssemblyTypeName: UnityEngine.Object, UnityEngine, Version=0.0.0.0,
    Culture=neutral, PublicKeyToken=null
"""


def test_a_data_asset_s_wrapped_texts_and_list_items_are_searched() -> None:
    """docs/indexing.md, schema 32: Unity wraps a long text onto deeper-indented lines with no key,
    and writes a string list's items with no key at all; both are the asset's written words, and a
    double-quoted text's escapes are read as their characters (`I\\u2019ll`, not `u2019ll`)."""
    from indexer.build.documents import yaml_words

    words = yaml_words(PHRASES)
    for said in ("whole trip", "how about", "innocent looking wall", "Beware the marshwyrm", "Mind the quicksand"):
        assert said in words, said
    assert "I\u2019ll be talking" in words and "u2019" not in words
    assert "PublicKeyToken" not in words and "Culture" not in words  # a wrapped type name says nothing


def test_a_word_on_a_wrapped_line_of_an_asset_finds_it(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/Data/EnglishPhrases.asset": PHRASES})
    update(root, CONFIG)
    for word in ("innocent", "crouch", "marshwyrm", "quicksand"):
        assert search_paths(root, word) == ["Assets/Data/EnglishPhrases.asset"], word


def test_unitys_binary_data_extension_and_bitmap_font_descriptors_are_not_text() -> None:
    """docs/indexing.md: ".bytes, Unity's extension for binary data, and bitmap fonts' .fnt are
    `other`" (133 MIDI songs as documents moved a benchmark; docs/retrieval.md, session 18)."""
    from indexer.project import kind_of

    assert [kind_of(p) for p in ("Assets/Songs/theme.mid.bytes", "Assets/Fonts/Pixel.fnt")] == ["other", "other"]


def test_the_art_formats_unity_imports_are_art() -> None:
    """docs/indexing.md: DDS, BMP and GIF textures, 3ds Max and Maya scenes, FLAC audio are art, not
    `other`: a folder of them is an art folder tier 1's tree does not expand (`overview.ART_KINDS`)."""
    from indexer.project import kind_of

    paths = ("T/a.dds", "T/b.BMP", "T/c.gif", "M/d.3ds", "M/e.max", "M/f.ma", "M/g.mb", "A/h.flac")
    assert [kind_of(p) for p in paths] == ["texture"] * 3 + ["model"] * 4 + ["audio"]


@pytest.mark.parametrize(
    "path", ["Assets/Resources/Songs/theme.mid.txt", "Assets/Notes/saved.yaml", "Assets/Data/table.csv"]
)
def test_a_text_kind_holding_binary_content_is_recorded_as_skipped_not_searched_as_text(
    tmp_path: Path, path: str
) -> None:
    root = write_project(tmp_path / "P", {path: b"MThd\x00\x00\x00\x06\x00\x01 thundersong \x00\x80"})
    update(root, CONFIG)
    rec = records(root).record(path)
    assert (rec.kind, rec.status, rec.note) == ("text", "skipped", "binary content")
    assert search_paths(root, "thundersong") == []


VFX = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!114 &114350483966674976
MonoBehaviour:
  m_ObjectHideFlags: 1
  m_Script: {fileID: 11500000, guid: 7d4c867f6b72b714dbb5fd1780afe208, type: 3}
  m_Name: Sparks
  m_Children:
  - {fileID: 114000000000000001}
--- !u!114 &114000000000000001
MonoBehaviour:
  m_ObjectHideFlags: 1
  m_Script: {fileID: 11500000, guid: 70a331b1d86cc8d4aa106ccbe0da5852, type: 3}
  m_Name:
  m_UIPosition: {x: 0, y: 0}
  m_ExposedName: EmberRate
  m_Exposed: 1
  m_MasterData:
    m_Owner: {fileID: 114000000000000001}
    m_Value:
      m_Type:
        m_SerializableType: UnityEngine.Texture2D, UnityEngine.CoreModule
      m_SerializableObject: '{"obj":{"fileID":2800000,"guid":"aaaabbbbccccddddeeeeffff00001111","type":3}}'
--- !u!114 &114000000000000002
MonoBehaviour:
  m_ObjectHideFlags: 0
  m_Script: {fileID: 11500000, guid: 73a13919d81fb7444849bae8b5c812a2, type: 3}
  m_Name:
  m_UICollapsed: 0
  m_ExposedName: Hidden
  m_Exposed: 0
  eventName: Crackle
--- !u!2058629511 &8926484042661614527
VisualEffectResource:
  m_ObjectHideFlags: 0
  m_Name: Sparks
  m_Graph: {fileID: 114350483966674976}
"""


def test_a_visual_effect_graph_is_a_vfx_outlined_by_what_it_exposes_and_sends_its_textures_refs(tmp_path: Path) -> None:
    files = {
        "Assets/VFX/Sparks.vfx": VFX,
        "Assets/VFX/Sparks.vfx.meta": meta("1" * 32, "VisualEffectImporter"),
        "Assets/Textures/ember.png": b"\x89PNG\r\n",
        "Assets/Textures/ember.png.meta": meta("aaaabbbbccccddddeeeeffff00001111", "TextureImporter"),
    }
    root = write_project(tmp_path / "P", files)
    update(root, CONFIG)
    rec = records(root).record("Assets/VFX/Sparks.vfx")
    assert rec.kind == "vfx"
    assert [(s.kind, s.name, s.line) for s in rec.symbols] == [
        ("visual_effect", "Sparks", 3),
        ("exposed_property", "EmberRate", 16),
        ("output_event", "Crackle", 32),
    ]  # the graph, what it exposes and what it sends out; not its nodes' editor state
    graph = open_workspace(root, projects_at(root)).projects[0].graph
    assert graph.uses("Assets/VFX/Sparks.vfx") == (("Assets/Textures/ember.png", "asset"),)
    assert search_paths(root, "EmberRate") == ["Assets/VFX/Sparks.vfx"]
    assert search_paths(root, "Crackle") == ["Assets/VFX/Sparks.vfx"]


def test_a_long_text_file_gains_nothing_by_its_length_where_another_kind_does(tmp_path: Path) -> None:
    """docs/retrieval.md, step 3: the length prior is "not above 1.0 for `text` files"."""
    from indexer.query.rank import LENGTH_CLAMP, LENGTH_EXPONENT

    body = "".join(f"row{i} quill{i % 7} ember lantern\n" for i in range(1600))  # the same words, 40 KB
    root = write_project(tmp_path / "P", {"Assets/Data/lanterns.csv": body, "Assets/UI/lanterns.uss": body})
    update(root, CONFIG)
    ws = open_workspace(root, projects_at(root))
    hits = {h.path: h.score for h in ws.search("ember lantern", 5, named=False)}
    boost = min((len(body) / 4000) ** LENGTH_EXPONENT, LENGTH_CLAMP[1])
    assert list(hits) == ["Assets/UI/lanterns.uss", "Assets/Data/lanterns.csv"]
    assert hits["Assets/UI/lanterns.uss"] / hits["Assets/Data/lanterns.csv"] == pytest.approx(boost, rel=1e-3)


def test_a_visual_effect_graph_is_a_look_below_the_code_unless_the_task_is_about_looks(tmp_path: Path) -> None:
    """docs/indexing.md: VFX Graphs are "looks, ranked as materials are": the graph matches the
    code task's words better than the script does, yet ranks below it."""
    graph = VFX.replace("EmberRate", "EmberSpawnRate").replace("m_Name: Sparks", "m_Name: Embers")
    files = {
        "Assets/VFX/Embers.vfx": graph,
        "Assets/Scripts/Spawner.cs": "public class Spawner { public float emberRate; }\n",
    }
    root = write_project(tmp_path / "P", files)
    update(root, CONFIG)
    ws = open_workspace(root, projects_at(root))
    code = ws.search("ember spawn rate is too low", 5)
    assert [h.path for h in code] == ["Assets/Scripts/Spawner.cs", "Assets/VFX/Embers.vfx"]
    assert ws.search("the embers look too faint", 5)[0].path == "Assets/VFX/Embers.vfx"
