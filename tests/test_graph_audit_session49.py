"""The reference graph audited against real projects (session 49): what the audit found, each on a
small project written here (docs/indexing.md, "Asset graph audited against real projects")."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.model import Ref
from indexer.query.lookup import find_references
from indexer.query.workspace import open_workspace
from indexer.scanners.csharp_strings import asset_literals

from .conftest import write_project

FONT = "Assets/TextMesh Pro/Resources/Fonts & Materials/LiberationSans SDF.asset"
OVERLAY = "Assets/TextMesh Pro/Resources/Fonts & Materials/LiberationSans SDF - Overlay.mat"
COUNTER = """using TMPro;
using UnityEngine;
public class FrameRateCounter : MonoBehaviour {
    void Awake() {
        var text = gameObject.AddComponent<TextMeshPro>();
        text.font = Resources.Load<TMP_FontAsset>("Fonts & Materials/LiberationSans SDF");
        text.fontSharedMaterial = Resources.Load<Material>("Fonts & Materials/LiberationSans SDF - Overlay");
    }
}
"""


def test_a_resources_path_holding_an_ampersand_is_a_key() -> None:
    """TextMesh Pro keeps its fonts in `Resources/Fonts & Materials`: its examples (copied into 5
    of the 48 held-out projects) load them by that path, and the literal, read as no key shape,
    was recorded as nothing: 40 loads were tied to no asset."""
    assert asset_literals(COUNTER.encode()) == (
        Ref(kind="string", target="Fonts & Materials/LiberationSans SDF", line=6, context="call"),
        Ref(kind="string", target="Fonts & Materials/LiberationSans SDF - Overlay", line=7, context="call"),
    )


def test_refs_of_a_font_in_fonts_and_materials_lists_the_code_loading_it(tmp_path: Path) -> None:
    asset = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &1\nMonoBehaviour:\n  m_Name: LiberationSans SDF\n"
    material = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!21 &2100000\nMaterial:\n  m_Name: Overlay\n"
    root = write_project(
        tmp_path / "P", {"Assets/Examples/FrameRateCounter.cs": COUNTER, FONT: asset, OVERLAY: material}
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    for path, line in ((FONT, 6), (OVERLAY, 7)):
        _target, usages = find_references(ws, path)
        assert [(u.path, u.line, u.kind) for u in usages] == [("Assets/Examples/FrameRateCounter.cs", line, "loads")]


RENDERER = "namespace Pal.Game.Rendering { public class PolyRenderer : UnityEngine.MonoBehaviour {} }"
ELSEWHERE = "namespace Tools.Rendering { public class PolyRenderer : UnityEngine.MonoBehaviour {} }"
FIRE = """namespace Pal.Game.Effect
{
    using UnityEngine;
    using Rendering;

    public class Fire : MonoBehaviour
    {
        void Awake() { gameObject.AddComponent<PolyRenderer>(); }
    }
}
"""


def test_a_using_inside_a_namespace_names_a_namespace_relative_to_it(tmp_path: Path) -> None:
    """`using Rendering;` inside `namespace Pal.Game.Effect` is `Pal.Game.Rendering` (C# looks the
    name up from the enclosing namespace outwards), as StyleCop's rule SA1200 has projects write
    every using: read as the global `Rendering`, 88 `AddComponent<T>()` calls of Pal3, and every
    other type they named through such a using, were tied to no script. `Tools.Rendering` is no
    enclosing namespace's: its same-named class is not the one meant."""
    from .test_graph import graph_for

    root = write_project(
        tmp_path / "P",
        {
            "Assets/Rendering/PolyRenderer.cs": RENDERER,
            "Assets/Tools/PolyRenderer.cs": ELSEWHERE,
            "Assets/Effect/Fire.cs": FIRE,
        },
    )
    g = graph_for(root)
    assert ("Assets/Rendering/PolyRenderer.cs", "type") in g.uses("Assets/Effect/Fire.cs")
    assert ("Assets/Tools/PolyRenderer.cs", "type") not in g.uses("Assets/Effect/Fire.cs")
    ws = open_workspace(root, [(root, Config())])
    for path, lines in (("Assets/Rendering/PolyRenderer.cs", [8]), ("Assets/Tools/PolyRenderer.cs", [])):
        _target, usages = find_references(ws, path)
        assert [u.line for u in usages if u.path == "Assets/Effect/Fire.cs"] == lines


BLACKBOARD = "namespace Core.Framework { public class Blackboard : UnityEngine.MonoBehaviour {} }"


def test_a_kits_code_naming_a_type_through_its_namespace_is_a_usage(tmp_path: Path) -> None:
    """A kit knows none of the game's global types (its `Player` is its DLL's), but one it reaches
    through a namespace it imports is the type it means: NodeCanvas (a kit) adding the Blackboard
    of its sibling folder CanvasCore by `using NodeCanvas.Framework;` was left out of `refs
    Blackboard` (MechaRoguelike), though the graph's edges held it."""
    from .test_graph import graph_for

    root = write_project(
        tmp_path / "P",
        {
            "Assets/Kit/Documentation/ReadMe.txt": "Thank you for purchasing",
            "Assets/Kit/Kit_Core.dll": b"MZ\x90\x00 a managed library",
            "Assets/Kit/Dialogue/Tree.cs": (
                "using Core.Framework;\nnamespace Kit.Dialogue {\n public class Tree : UnityEngine.MonoBehaviour {\n"
                "  void Reset() { gameObject.AddComponent<Blackboard>(); Player p; }\n }\n}\n"
            ),
            "Assets/Core/Blackboard.cs": BLACKBOARD,
            "Assets/Scripts/Player.cs": "public class Player : UnityEngine.MonoBehaviour { }",
        },
    )
    g = graph_for(root)
    assert [(u.path, u.line) for u in g.references(g.target("Blackboard")) if u.where == "code"] == [
        ("Assets/Kit/Dialogue/Tree.cs", 4)
    ]
    assert [u.path for u in g.references(g.target("Player")) if u.where == "code"] == []
