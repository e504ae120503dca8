"""Promises session 31's docstrings and docs make that its trial tests did not pin down."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.model import Ranked
from indexer.query import builtin_refs
from indexer.query.describe import describe
from indexer.query.locate import references_of
from indexer.query.startup import raise_startup
from indexer.query.textmatch import matched_lines
from indexer.scanners import scan

from .conftest import meta, write_project
from .test_graph import graph_for
from .test_trials_session31 import MANAGER, PLAYER, _buttons, _instance, _workspace
from .test_unity_event_targets import _behaviour, _header, _object

BUILD = (
    "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1045 &1\nEditorBuildSettings:\n  m_Scenes:\n"
    "  - enabled: 1\n    path: Assets/Boot.unity\n    guid: 1111\n"
)


def _script(name: str) -> str:
    return f"public class {name} : UnityEngine.MonoBehaviour {{ }}\n"


def test_the_first_scene_s_scripts_share_their_gain_past_six_and_count_through_nested_prefabs(
    tmp_path: Path,
) -> None:
    """startup.raise_startup: the scene 0.7 of the best score, each of its scripts 0.35 of it,
    shared past SCRIPTS_SHARED; a script on a prefab the placed prefab nests is on the scene too."""
    files = {"ProjectSettings/EditorBuildSettings.asset": BUILD}
    scene = _header()
    for i in range(11):
        guid = f"{i:02d}" * 16
        files[f"Assets/S{i}.cs"], files[f"Assets/S{i}.cs.meta"] = _script(f"S{i}"), meta(guid)
        scene += _object(10 * (i + 1), f"O{i}", [10 * (i + 1) + 5]) + _behaviour(10 * (i + 1) + 5, 10 * (i + 1), guid)
    nested = _instance(500, "e" * 32, []).replace("m_TransformParent: {fileID: 0}", "m_TransformParent: {fileID: 2}")
    files["Assets/Outer.prefab"] = _header() + _object(1, "Outer", []) + nested
    files["Assets/Outer.prefab.meta"] = meta(PLAYER, "PrefabImporter")
    files["Assets/Inner.prefab"] = _header() + _object(1, "Inner", [3]) + _behaviour(3, 1, MANAGER)
    files["Assets/Inner.prefab.meta"] = meta("e" * 32, "PrefabImporter")
    files["Assets/Deep.cs"], files["Assets/Deep.cs.meta"] = _script("Deep"), meta(MANAGER)
    files["Assets/Boot.unity"] = scene + _instance(900, PLAYER, [])
    project = _workspace(write_project(tmp_path / "P", files)).projects[0].fresh()
    ranked = {"Assets/Other.cs": Ranked("Assets/Other.cs", 10.0, [])}
    raise_startup(project, ranked, "what happens to the music when the game starts")  # not alone: 0.7
    gains = {p: round(r.score, 6) for p, r in ranked.items() if p != "Assets/Other.cs"}
    assert gains == {"Assets/Boot.unity": 7.0, **{f"Assets/S{i}.cs": 1.75 for i in range(11)}, "Assets/Deep.cs": 1.75}


def test_a_setter_bound_in_an_event_is_the_property_s_and_an_interface_base_hides_nothing(tmp_path: Path) -> None:
    """calls._missing: `set_Volume` is the property `Volume`; a class implementing a Unity interface
    (`IPointerClickHandler`) still has its dead bindings said."""
    root = _buttons(tmp_path, base="MonoBehaviour, IPointerClickHandler")
    (root / "Assets/Manager.cs").write_text(
        "public class Manager : Panel { public void Open() { } public float Volume { get; set; } }\n"
    )
    prefab = (root / "Assets/Menu.prefab").read_text().replace("m_MethodName: Open", "m_MethodName: set_Volume")
    (root / "Assets/Menu.prefab").write_text(prefab)
    calls = [
        line.split(" -> ")[1]
        for line in describe(graph_for(root), "Assets/Menu.prefab").text.splitlines()
        if " -> " in line
    ]
    assert calls == [
        "Manager.set_Volume",
        "Manager.Close",
        "Manager.set_enabled",
        "Manager.CheatItems (no method CheatItems in Manager)",
    ]


def test_elif_branches_are_blanked_and_nested_ifs_keep_their_first_branch() -> None:
    """csharp_recover.first_branches: `#elif` is a later branch as `#else` is."""
    source = (
        b"class Text : Base {\n#if A\n  void Fill(int i)\n#elif B\n  void Fill(int i, int j)\n#else\n"
        b"  void Fill()\n#endif\n  {\n#if C\n    Go(i);\n#else\n    Go(0);\n#endif\n  }\n}\n"
    )
    rec = scan("Assets/Text.cs", "csharp", source)
    assert (rec.status, [(s.name, s.line, s.signature) for s in rec.symbols]) == (
        "ok",
        [("Text", 1, "class Text : Base"), ("Fill", 3, "void Fill(int i)")],
    )


def test_a_comment_is_never_a_word_s_first_matched_line() -> None:
    """textmatch.matched_lines: the coverage pass takes code lines only."""
    text = "".join(f"int player{i};\n" for i in range(10)) + "// powerup: later\n"
    lines = matched_lines(text, text.lower(), frozenset({"player", "powerup"}))
    assert lines == [f"  L{i + 1}: int player{i};" for i in range(8)]


def test_a_shader_s_name_built_on_its_folder_may_be_what_shader_find_loads(tmp_path: Path) -> None:
    """loads._prefix_loads: a shader's declared name is a key too."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Water.shader": 'Shader "Custom/Water" {\n  SubShader { Pass { } }\n}\n',
            "Assets/Look.cs": 'class Look {\n  object Get(string n) { return Shader.Find("Custom/" + n); }\n}\n',
        },
    )
    g = graph_for(root)
    assert [(u.path, u.line, u.context) for u in g.references(g.target("Assets/Water.shader"))] == [
        ("Assets/Look.cs", 2, "path prefix")
    ]


def test_a_version_the_manifest_does_not_write_as_a_number_keeps_the_newest_names(tmp_path: Path) -> None:
    """package_classes.package_scripts: a local or git package has no major version to read."""
    manifest = '{"dependencies": {"com.unity.cinemachine": "file:../Cinemachine"}}\n'
    g = graph_for(write_project(tmp_path / "P", {"Assets/A.cs": "class A {}", "Packages/manifest.json": manifest}))
    assert g.script_class("53258ad9ad6e71e48bb8643c9522112e") == "Unity.Cinemachine.CinemachineSequencerCamera"


def test_refs_of_a_unity_class_says_when_it_read_the_objects_of_only_some_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """builtin_refs.MAX_FILES: the objects are read from that many scenes and prefabs, said so."""
    body = "--- !u!54 &3\nRigidbody:\n  m_GameObject: {fileID: 1}\n"
    files = {f"Assets/P{i}.prefab": _header() + _object(1, f"P{i}", []) + body for i in range(3)}
    ws = _workspace(write_project(tmp_path / "P", files))
    monkeypatch.setattr(builtin_refs, "MAX_FILES", 2)
    target, usages = references_of(ws, "Rigidbody")
    assert [u.path for u in usages] == ["Assets/P0.prefab", "Assets/P1.prefab"]
    assert target.note.endswith("; objects read from the first 2 of 3 scenes and prefabs")
