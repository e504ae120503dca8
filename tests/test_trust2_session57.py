"""Session 57's second trust round: attack 24's two findings left (docs/indexing.md, "Tried by attack
24").

1. A `.shadergraph` whose `m_Path` was 40 MB was skipped: the record held the name whole, in the
   shader symbol and again as every property's container, and the scanner process ran out of its
   memory (msgspec's encoder crashed, signal 11, where it would raise MemoryError). A name or path
   read from a shader graph is now cut past 100 characters with its length said, as the YAML
   scanners cut an object's name (`shown.name_shown`): the file is indexed.
2. `index_status` while a suspended `index` held the writer lock said it stopped in its progress
   line, but its `stale` line still said "the next call of a tool that reads the index applies them
   first", untrue while it stays suspended. It now says who holds the lock and what happens, in the
   words of `refresh` (attack 24's fix).

Each test failed before its fix (said in each)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest

from indexer.scanners import shadergraph
from indexer.shown import MAX_NAME_CHARS

from .conftest import REPO, meta, write_project

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


@pytest.mark.parametrize(("watch", "tried"), [(False, False), (False, True), (True, True)])
def test_index_status_says_a_stopped_writer_holds_the_changes(tmp_path: Path, watch: bool, tried: bool) -> None:
    """Before: "... since the last update; the next call of a tool that reads the index applies
    them first", in both modes, while the `index` holding the lock was suspended. Said before any
    call tried to apply the change (`tried`; the build's progress file names its process) and after."""
    from mcp import Client

    from indexer.store.progress import read_progress
    from indexer.store.schema import IndexPaths

    from .test_attack24_session57 import indexed_server

    root, index, server = indexed_server(tmp_path, watch)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-m", "indexer.cli.main", "--project", str(root), "index", "--full", "--quiet"]
    writer = subprocess.Popen(cmd, env=env, start_new_session=True)  # its scanner processes in its group

    async def status() -> str:
        with anyio.fail_after(60):
            async with Client(server) as c:
                (root / "Assets/Zanzibar.cs").write_text("public class Zanzibar { }\n")
                if tried:  # a try to apply it finds the lock held
                    await c.call_tool("search", {"query": "zanzibar"})
                return (await c.call_tool("index_status", {})).content[0].text

    try:
        for _ in range(400):  # a hang guard: the full build writes its progress file at once
            if read_progress(IndexPaths(index)) is not None:
                break
            time.sleep(0.01)
        os.killpg(writer.pid, signal.SIGSTOP)
        assert read_progress(IndexPaths(index)) is not None, "the build ended before it was stopped"
        text = anyio.run(status)
    finally:
        os.killpg(writer.pid, signal.SIGKILL)
        writer.wait()
    stale = next(line for line in text.splitlines() if line.startswith("stale"))
    assert stale == (
        f"stale     1 file has changed since the last update; unity-index process {writer.pid} is stopped"
        f" (suspended, as Ctrl-Z does) while updating the index at {index}: resume it (`kill -CONT"
        f" {writer.pid}`, or `fg` in its terminal) or end it; the index keeps its last committed state"
        " (the changes are applied once that process is done)"
    )


def test_shaderlab_asmdef_and_input_action_names_past_100_characters_cut() -> None:
    """Before: each held the 1 MB name whole, again as the container of every member (a 40 MB one
    was skipped, "scanning needed more memory than a scanner may use")."""
    from indexer.scanners import asmdef, inputactions, shader

    cut = f"{WORDS[:MAX_NAME_CHARS]}… (1,000,016 characters)"
    passes = f' SubShader {{ Pass {{ Name "{WORDS}" }} }}\n'
    text = f'Shader "{WORDS}" {{\n Properties {{\n  _A ("A", Float) = 0\n }}\n{passes}}}\n'
    rec = shader.scan("Assets/Big.shader", text.encode())
    assert [(s.kind, s.name, s.container) for s in rec.symbols] == [
        ("shader", cut, ""),
        ("shader_property", "_A", cut),
        ("subshader", "", cut),
        ("pass", cut, cut),
    ]
    doc = {"name": WORDS, "versionDefines": [{"name": "com.x", "expression": "1", "define": "HAS_X"}]}
    rec = asmdef.scan("Assets/Big.asmdef", json.dumps(doc).encode())
    assert [(s.kind, s.name, s.container) for s in rec.symbols] == [
        ("assembly", cut, ""),
        ("version_define", "HAS_X", cut),
    ]
    maps = [{"name": WORDS, "actions": [{"name": WORDS, "type": "Button"}], "bindings": []}]
    doc = {"name": WORDS, "maps": maps, "controlSchemes": [{"name": WORDS, "devices": []}]}
    rec = inputactions.scan("Assets/Big.inputactions", json.dumps(doc).encode())
    assert [(s.kind, s.name, s.container, s.signature) for s in rec.symbols] == [
        ("input_actions", cut, "", ""),
        ("action_map", cut, cut, ""),
        ("input_action", cut, f"{cut}.{cut}", f"{cut} (Button)"),
        ("control_scheme", cut, cut, cut),
    ]
    assert [r.line for r in rec.refs] == [1]


def test_a_shader_string_and_an_input_map_name_of_1_mb_are_read_in_a_few_mb() -> None:
    """Before: the shader's string lexed with a backtracking state a character (151 MB traced for
    1 MB; 4.9 GB resident for a 40 MB name, skipped), the map's name compiled into a pattern to find
    its line (3.9 GB and 34 s for 40 MB, skipped)."""
    import tracemalloc

    from indexer.scanners import inputactions, shader

    text = f'Shader "{WORDS}" {{\n Properties {{\n  _A ("A", Float) = 0\n }}\n}}\n'.encode()
    maps = [{"name": WORDS, "actions": [{"name": "Fire", "type": "Button"}], "bindings": []}]
    actions = json.dumps({"name": "Controls", "maps": maps}, indent=2).encode()
    for scan, path, data in ((shader.scan, "Assets/Big.shader", text), (inputactions.scan, "A.inputactions", actions)):
        tracemalloc.start()
        try:
            rec = scan(path, data)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert rec.status == "ok" and peak < 12_000_000, (path, peak)
    assert [(s.kind, s.name, s.line) for s in rec.symbols] == [
        ("input_actions", "Controls", 2),
        ("action_map", f"{WORDS[:MAX_NAME_CHARS]}… (1,000,016 characters)", 5),
        ("input_action", "Fire", 8),
    ]


def test_a_long_word_before_a_brace_in_hlsl_is_read_in_linear_time() -> None:
    """Before: 11 s of CPU for a 20,000-character string before a `{` (masked, one word of `_` the
    function pattern was tried from each character of, to fail at each): 45 s for 40,000."""
    from indexer.scanners import shader

    words = " ".join(["ember ash"] * 2000)
    text = f'Shader "{words}" {{\n Properties {{\n  _A ("A", Float) = 0\n }}\n}}\nfloat4 Tint(float x) {{ }}\n'
    start = time.process_time()
    rec = shader.scan("Assets/Long.hlsl", text.encode())
    assert time.process_time() - start < 2.0
    assert [(s.kind, s.name, s.line) for s in rec.symbols] == [("function", "Tint", 6)]
