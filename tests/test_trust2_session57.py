"""Session 57's second trust round: attack 24's two findings left (docs/indexing.md, "Tried by attack
24").

1. A `.shadergraph` whose `m_Path` was 40 MB was skipped: the record held the name whole, in the
   shader symbol and again as every property's container, and the scanner process ran out of its
   memory (msgspec's encoder crashed, signal 11, where it would raise MemoryError). A name or path
   read from a shader graph is now cut past 100 characters with its length said, as the YAML
   scanners cut an object's name (`shown.name_shown`): the file is indexed.

Each test failed before its fix (said in each)."""

from __future__ import annotations

import json
from pathlib import Path

from indexer.scanners import shadergraph
from indexer.shown import MAX_NAME_CHARS

from .conftest import meta, write_project

WORDS = "Volcano " + " ".join(["ember ash"] * 100_000) + " zanzibar"  # 1,000,016 characters


def _graph(path: str, reference: str, display: str) -> str:
    """A graph of Shader Graph 10's layout: the graph object, then one exposed property."""
    graph = {"m_Type": "UnityEditor.ShaderGraph.GraphData", "m_ObjectId": "g1", "m_Path": path}
    prop = {
        "m_Type": "UnityEditor.ShaderGraph.Internal.ColorShaderProperty",
        "m_ObjectId": "p1",
        "m_Name": display,
        "m_OverrideReferenceName": reference,
        "m_GeneratePropertyBlock": True,
    }
    return json.dumps(graph, indent=4) + "\n\n" + json.dumps(prop, indent=4) + "\n"


def test_a_shader_graph_names_past_100_characters_cut_with_their_length() -> None:
    """Before: the shader's name, each property's container and name held the 1 MB text whole."""
    rec = shadergraph.scan("Assets/Glow.shadergraph", _graph(f"Shaders/{WORDS}", "_Tint", "Tint").encode())
    shader, prop = rec.symbols
    assert (rec.status, shader.kind, prop.kind) == ("ok", "shader", "shader_property")
    # `Shaders/` + WORDS + `/Glow`: its first 100 characters and its length
    assert shader.name == prop.container == f"Shaders/{WORDS[:92]}… (1,000,029 characters)"
    assert shader.name.endswith(" ember ash embe… (1,000,029 characters)") and len(shader.name) == 124
    rec = shadergraph.scan("Assets/Glow.shadergraph", _graph("Shaders", WORDS, WORDS).encode())
    prop = rec.symbols[1]
    cut = f"{WORDS[:MAX_NAME_CHARS]}… (1,000,016 characters)"
    assert prop.name == prop.detail == cut
    assert prop.line == 10  # found by its whole name (here the display name's line, the first holding it)
    rec = shadergraph.scan("Assets/Noise.shadersubgraph", _graph(WORDS, "_X", "X").encode())
    assert (rec.symbols[0].name, rec.symbols[0].detail) == ("Noise", cut)
    short = shadergraph.scan("Assets/Glow.shadergraph", _graph("Dungeon/Effects", "_Tint", "Tint").encode())
    assert [(s.name, s.container, s.detail) for s in short.symbols] == [
        ("Dungeon/Effects/Glow", "", ""),
        ("_Tint", "Dungeon/Effects/Glow", "Tint"),
    ]


def test_a_shader_graph_with_a_long_path_is_indexed_and_found_by_its_words_before_the_cut(tmp_path: Path) -> None:
    """Before: stored whole (1 MB of name in the record, the outline and the search document)."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace, projects_at

    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Glow.shadergraph": _graph(f"Shaders/{WORDS}", "_Tint", "Tint"),
            "Assets/Glow.shadergraph.meta": meta("e1b2c3d4e5f60718293a4b5c6d7e8f90", "ScriptedImporter"),
        },
    )
    update(root, Config(workers=1))
    project = open_workspace(root, projects_at(root)).projects[0]
    rec = project.records.record("Assets/Glow.shadergraph")
    assert rec is not None and rec.status == "ok"
    assert [len(s.name) for s in rec.symbols] == [124, 5]
    assert len(rec.symbols[1].container) == 124
    search = open_workspace(root, projects_at(root)).search
    assert [h.path for h in search("volcano ember", 5, named=False)] == ["Assets/Glow.shadergraph"]
    assert [h.path for h in search("zanzibar", 5, named=False)] == []  # past the cut: lost
    assert [h.path for h in search("characters", 5, named=False)] == []  # the note is no word of it
