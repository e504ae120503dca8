"""A shader's `struct` is not a C# type: a script's `RaycastHit` must not lead to an .hlsl that
declares a struct of that name (a wrong edge, which context packs and the walk then followed)."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.describe import describe
from indexer.query.workspace import open_workspace, projects_at

from .conftest import write_project

SHOOTER = """using UnityEngine;

public class Shooter : MonoBehaviour
{
    public Trace trace;

    void Fire(Ray ray)
    {
        RaycastHit hit;
        if (Physics.Raycast(ray, out hit)) { trace.Mark(hit.point); }
    }
}
"""
TRACE = """using UnityEngine;

public class Trace : MonoBehaviour
{
    public void Mark(Vector3 at) { }
}
"""
HLSL = """struct RaycastHit
{
    float3 position;
    float distance;
};

struct Trace { float3 origin; };
"""


def test_a_script_type_never_resolves_to_a_shader_struct(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Scripts/Shooter.cs": SHOOTER,
            "Assets/Scripts/Trace.cs": TRACE,
            "Assets/Shaders/Raytrace.hlsl": HLSL,
        },
    )
    update(root, Config(workers=1))
    graph = open_workspace(root, projects_at(root)).projects[0].graph
    assert graph.uses("Assets/Scripts/Shooter.cs") == (("Assets/Scripts/Trace.cs", "type"),)
    # Unity's own RaycastHit since session 32 (a class of its scripting API), never the shader's struct
    assert (graph.target("RaycastHit").kind, graph.target("RaycastHit").types) == (
        "builtin",
        ["UnityEngine.RaycastHit"],
    )
    assert graph.target("Trace").types == ["Trace"]
    assert "struct RaycastHit" in describe(graph, "Assets/Shaders/Raytrace.hlsl").text
