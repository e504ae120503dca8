"""Shader, Shader Graph, asmdef/asmref, package manifest and ProjectSettings scanners: exact outputs.

Symbols and refs are compared as tuples of their non-default fields so a changed convention shows up
as a readable diff.
"""

from __future__ import annotations

import json
from pathlib import Path

from indexer.model import FileRecord, Ref, Symbol
from indexer.scanners import asmdef, packages, scan, settings, shader, shadergraph

from .conftest import FIXTURE


def _fields(x: Symbol | Ref) -> tuple:
    return tuple(
        (name, getattr(x, name))
        for name in x.__struct_fields__
        if getattr(x, name) not in ("", (), 0) or name in ("kind", "line")
    )


def syms(rec: FileRecord) -> list[dict]:
    return [dict(_fields(s)) for s in rec.symbols]


def refs(rec: FileRecord) -> list[tuple]:
    return [(r.kind, r.target, r.line, r.context, r.detail) for r in rec.refs]


def fixture(rel: str) -> tuple[str, bytes]:
    return rel, (FIXTURE / rel).read_bytes()


def S(kind: str, name: str, line: int, **kw: object) -> dict:
    return {"kind": kind, "name": name, "line": line, **kw} if name else {"kind": kind, "line": line, **kw}


# ---------------------------------------------------------------- shaders

D = "DungeonCrawler/Dissolve"


def test_dissolve_shader() -> None:
    rec = scan("Assets/Shaders/Dissolve.shader", "shader", fixture("Assets/Shaders/Dissolve.shader")[1])
    assert (rec.kind, rec.status, rec.note) == ("shader", "ok", "")
    assert syms(rec) == [
        S("shader", D, 1, end_line=83),
        S(
            "shader_property",
            "_MainTex",
            5,
            container=D,
            signature='_MainTex ("Albedo", 2D) = "white" {}',
            type="2D",
            detail="Albedo",
        ),
        S(
            "shader_property",
            "_Color",
            6,
            container=D,
            signature='_Color ("Tint", Color) = (1, 1, 1, 1)',
            type="Color",
            detail="Tint",
        ),
        S(
            "shader_property",
            "_NoiseTex",
            7,
            container=D,
            signature='_NoiseTex ("Dissolve Noise", 2D) = "gray" {}',
            type="2D",
            detail="Dissolve Noise",
        ),
        S(
            "shader_property",
            "_DissolveAmount",
            8,
            container=D,
            signature='_DissolveAmount ("Dissolve Amount", Range(0, 1)) = 0',
            type="Range(0,1)",
            detail="Dissolve Amount",
        ),
        S(
            "shader_property",
            "_EdgeWidth",
            9,
            container=D,
            signature='_EdgeWidth ("Edge Width", Range(0, 0.2)) = 0.05',
            type="Range(0,0.2)",
            detail="Edge Width",
        ),
        S(
            "shader_property",
            "_EdgeColor",
            10,
            container=D,
            signature='_EdgeColor ("Edge Color", Color) = (4, 1.5, 0.2, 1)',
            type="Color",
            attributes=("HDR",),
            detail="Edge Color",
        ),
        S(
            "subshader",
            "",
            13,
            end_line=80,
            container=D,
            detail="RenderType=TransparentCutout Queue=AlphaTest IgnoreProjector=True LOD=200",
        ),
        S("pass", "Dissolve", 18, end_line=79, container=D, detail="LightMode=ForwardBase"),
        S("pragma", "vertex", 25, container=D, detail="vert"),
        S("pragma", "fragment", 26, container=D, detail="frag"),
        S("pragma", "multi_compile_instancing", 27, container=D),
        # a uniform the material sets, after CBUFFER_START(...), no ';' (the properties' own
        # uniforms, `sampler2D _MainTex;` and the rest, are said once, as the properties)
        S("variable", "_MainTex_ST", 36, container=D, type="float4"),
        S("struct", "Attributes", 43, end_line=49, container=D),
        S("struct", "Varyings", 51, end_line=56, container=D),
        S(
            "function",
            "vert",
            58,
            end_line=66,
            container=D,
            signature="Varyings vert(Attributes input)",
            type="Varyings",
        ),
        S(
            "function",
            "frag",
            68,
            end_line=77,
            container=D,
            signature="float4 frag(Varyings input) : SV_Target",
            type="float4",
        ),
    ]
    assert refs(rec) == [
        ("include", "UnityCG.cginc", 29, "include", ""),
        ("include", "Common.hlsl", 30, "include", ""),
        ("shader", "Legacy Shaders/Transparent/Cutout/Diffuse", 82, "fallback", ""),
    ]


def test_outline_shader() -> None:
    rec = shader.scan(*fixture("Assets/Shaders/Outline.shader"))
    o = "DungeonCrawler/Outline"
    assert rec.status == "ok"
    assert [(s["kind"], s.get("name", ""), s["line"]) for s in syms(rec)] == [
        ("shader", o, 1),
        ("shader_property", "_OutlineColor", 5),
        ("shader_property", "_OutlineWidth", 6),
        ("subshader", "", 9),
        ("pass", "OUTLINE", 13),
        ("pragma", "vertex", 20),
        ("pragma", "fragment", 21),
        ("struct", "appdata", 27),
        ("struct", "v2f", 33),
        ("function", "vert", 38),
        ("function", "frag", 46),
    ]
    assert syms(rec)[3]["detail"] == "RenderType=Opaque Queue=Geometry+10"
    assert "detail" not in syms(rec)[4]  # a pass without tags
    assert syms(rec)[-1] == S(
        "function",
        "frag",
        46,
        end_line=49,
        container=o,
        signature="fixed4 frag(v2f i) : SV_Target",
        type="fixed4",
    )
    assert refs(rec) == [("include", "UnityCG.cginc", 22, "include", ""), ("shader", "Diffuse", 54, "fallback", "")]


def test_common_hlsl() -> None:
    rec = scan("Assets/Shaders/Common.hlsl", "shader_include", fixture("Assets/Shaders/Common.hlsl")[1])
    assert (rec.kind, rec.status) == ("shader_include", "ok")
    assert syms(rec) == [
        S(
            "function",
            "Remap",
            6,
            end_line=9,
            signature="float Remap(float value, float inMin, float inMax, float outMin, float outMax)",
            type="float",
        ),
        S(
            "function",
            "DissolveMask",
            12,
            end_line=15,
            signature="float DissolveMask(float noise, float amount)",
            type="float",
        ),
        S(
            "function",
            "DissolveEdge",
            18,
            end_line=21,
            signature="float DissolveEdge(float noise, float amount, float width)",
            type="float",
        ),
        S(
            "function",
            "FresnelTerm",
            23,
            end_line=26,
            signature="float FresnelTerm(float3 normalWS, float3 viewDirWS, float power)",
            type="float",
        ),
    ]
    assert rec.refs == ()


EDGE_SHADER = r"""// Shader "Commented/Out" { }
/* a block comment holding // and { braces
   and Fallback "Nope" */
Shader "Edge/Cases" // trailing comment {
{
    Properties
    {
        // _Hidden ("Commented", Float) = 1
        [Header(Surface Options)] [Toggle(_ALPHATEST_ON)] _AlphaClip ("Alpha {Clip}", Float) = 0
        [NoScaleOffset] _BaseMap ("Base /* not a comment */", 2D) = "white" {}
        _Mode ("Mode", Int) = 2
        [Enum(UnityEngine.Rendering.CullMode)] _Cull ("Cull", Float) = 2.0
    }
    HLSLINCLUDE
    #include "Packages/com.unity.render-pipelines.universal/ShaderLibrary/Core.hlsl"
    CBUFFER_START(UnityPerMaterial)
        float _AlphaClip;
    CBUFFER_END
    half Shared(half x) { return x; }
    ENDHLSL
    SubShader
    {
        Tags { "RenderPipeline" = "UniversalPipeline" }
        Pass
        {
            Name "Forward"
            Tags { "LightMode" = "UniversalForward" }
            Stencil { Ref 2 Comp Always }
            HLSLPROGRAM
            #pragma target 4.5
            #pragma shader_feature_local _ALPHATEST_ON // comment dropped
            #pragma multi_compile _ _MAIN_LIGHT_SHADOWS
            #include_with_pragmas "Packages/com.unity.render-pipelines.universal/ShaderLibrary/DOTS.hlsl"
            /* ENDHLSL inside a comment does not end the block */
            struct V { float4 p : SV_POSITION; };
            #if defined(_ALPHATEST_ON)
            half4 frag(V i) : SV_Target { return 1; }
            #else
            half4 frag(V i) : SV_Target { return 0; }
            #endif
            ENDHLSL
        }
        UsePass "Universal Render Pipeline/Lit/SHADOWCASTER"
    }
    SubShader
    {
        LOD 100
        GrabPass { "_Background" }
    }
    CustomEditor "Edge.Editor.EdgeShaderGUI"
    Fallback Off
}
"""


def test_shaderlab_edge_cases() -> None:
    rec = shader.scan("Assets/Edge.shader", EDGE_SHADER.encode())
    e = "Edge/Cases"
    assert (rec.status, rec.note) == ("ok", "")
    assert syms(rec) == [
        S("shader", e, 4, end_line=52),
        S(
            "shader_property",
            "_AlphaClip",
            9,
            container=e,
            signature='_AlphaClip ("Alpha {Clip}", Float) = 0',
            type="Float",
            attributes=("Header(Surface Options)", "Toggle(_ALPHATEST_ON)"),
            detail="Alpha {Clip}",
        ),
        S(
            "shader_property",
            "_BaseMap",
            10,
            container=e,
            signature='_BaseMap ("Base /* not a comment */", 2D) = "white" {}',
            type="2D",
            attributes=("NoScaleOffset",),
            detail="Base /* not a comment */",
        ),
        S("shader_property", "_Mode", 11, container=e, signature='_Mode ("Mode", Int) = 2', type="Int", detail="Mode"),
        S(
            "shader_property",
            "_Cull",
            12,
            container=e,
            signature='_Cull ("Cull", Float) = 2.0',
            type="Float",
            attributes=("Enum(UnityEngine.Rendering.CullMode)",),
            detail="Cull",
        ),
        S("function", "Shared", 19, end_line=19, container=e, signature="half Shared(half x)", type="half"),
        S("subshader", "", 21, end_line=44, container=e, detail="RenderPipeline=UniversalPipeline"),
        S("pass", "Forward", 24, end_line=42, container=e, detail="LightMode=UniversalForward"),
        S("pragma", "target", 30, container=e, detail="4.5"),
        S("pragma", "shader_feature_local", 31, container=e, detail="_ALPHATEST_ON"),
        S("pragma", "multi_compile", 32, container=e, detail="_ _MAIN_LIGHT_SHADOWS"),
        S("struct", "V", 35, end_line=35, container=e),
        # both #if branches declare the same function: kept once, first line
        S("function", "frag", 37, end_line=37, container=e, signature="half4 frag(V i) : SV_Target", type="half4"),
        S("subshader", "", 45, end_line=49, container=e, detail="LOD=100"),
        S("pass", "", 48, end_line=48, container=e, detail="GrabPass _Background"),
    ]
    assert refs(rec) == [
        ("include", "Packages/com.unity.render-pipelines.universal/ShaderLibrary/Core.hlsl", 15, "include", ""),
        (
            "include",
            "Packages/com.unity.render-pipelines.universal/ShaderLibrary/DOTS.hlsl",
            33,
            "include",
            "with_pragmas",
        ),
        ("shader", "Universal Render Pipeline/Lit/SHADOWCASTER", 43, "usepass", ""),
        ("type", "Edge.Editor.EdgeShaderGUI", 50, "custom_editor", ""),
    ]


def test_shader_crlf_bom_and_same_lines() -> None:
    lf = shader.scan("A.shader", EDGE_SHADER.encode())
    crlf = shader.scan("A.shader", b"\xef\xbb\xbf" + EDGE_SHADER.replace("\n", "\r\n").encode())
    assert (crlf.symbols, crlf.refs, crlf.status) == (lf.symbols, lf.refs, "ok")


def test_shader_dependency_render_pipeline_editor_and_fallback_variants() -> None:
    src = b"""Shader "X" {
    SubShader { Pass { } }
    Dependency "BaseMapShader" = "Hidden/X/Base"
    CustomEditorForRenderPipeline "X.UrpGUI" "UnityEngine.Rendering.Universal.UniversalRenderPipelineAsset"
    FallBack "Hidden/InternalErrorShader"
}"""
    rec = shader.scan("X.shader", src)
    assert refs(rec) == [
        ("shader", "Hidden/X/Base", 3, "dependency", "BaseMapShader"),
        ("type", "X.UrpGUI", 4, "custom_editor", "UnityEngine.Rendering.Universal.UniversalRenderPipelineAsset"),
        ("shader", "Hidden/InternalErrorShader", 5, "fallback", ""),
    ]
    assert [s.kind for s in rec.symbols] == ["shader", "subshader", "pass"]


def test_compute_shader_with_two_kernels() -> None:
    src = b"""#pragma kernel CSMain
#pragma kernel CSBlur BLUR_WIDE=1
#include "Noise.hlsl"
RWTexture2D<float4> Result;
groupshared float cache[64];

[numthreads(8, 8, 1)]
void CSMain (uint3 id : SV_DispatchThreadID)
{
    Result[id.xy] = float4(id.x & id.y, (id.x & 15)/15.0, (id.y & 15)/15.0, 0.0);
}

[numthreads(64,1,1)]
void CSBlur(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex)
{
    cache[gi] = 0;
}
"""
    rec = scan("Assets/Compute/Blur.compute", "compute_shader", src)
    assert (rec.kind, rec.status) == ("compute_shader", "ok")
    assert syms(rec) == [
        S("kernel", "CSMain", 1),
        S("kernel", "CSBlur", 2, detail="BLUR_WIDE=1"),
        S("variable", "Result", 4, type="RWTexture2D<float4>"),
        S("variable", "cache", 5, type="float"),  # an array: its size is not its type
        S(
            "function",
            "CSMain",
            8,
            end_line=11,
            signature="void CSMain (uint3 id : SV_DispatchThreadID)",
            type="void",
            attributes=("numthreads(8, 8, 1)",),
        ),
        S(
            "function",
            "CSBlur",
            14,
            end_line=17,
            signature="void CSBlur(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex)",
            type="void",
            attributes=("numthreads(64,1,1)",),
        ),
    ]
    assert refs(rec) == [("include", "Noise.hlsl", 3, "include", "")]


def test_cginc_macros_and_preprocessor_split_parameters() -> None:
    src = b"""#ifndef X_INC
#define X_INC
#define SWAP(a, b) { float t = a; a = b; b = t; }
#include <UnityCG.cginc>
inline float4 frag(v2f i
#if defined(FACE)
    , bool face : SV_IsFrontFace
#endif
) : SV_Target
{
    return 0;
}
#endif
"""
    rec = shader.scan("Assets/X.cginc", src)
    assert (rec.kind, rec.status) == ("shader_include", "ok")
    assert syms(rec) == [
        S(
            "function",
            "frag",
            5,
            end_line=12,
            signature="inline float4 frag(v2f i , bool face : SV_IsFrontFace ) : SV_Target",
            type="inline float4",
        )
    ]
    assert refs(rec) == [("include", "UnityCG.cginc", 4, "include", "")]


def test_shader_broken_inputs_never_raise() -> None:
    rec = shader.scan(
        "A.shader", b'Shader "Broken" {\n Properties { _A ("A", Float) = 1 \n SubShader { Pass { CGPROGRAM\n'
    )
    assert rec.status == "partial"
    assert rec.note == "unterminated CGPROGRAM block; unclosed '{' at line 2; unclosed '{' at line 1"
    assert [s.kind for s in rec.symbols] == ["shader", "shader_property"]
    rec = shader.scan("A.hlsl", b"float f() { return 1; }}\nfloat g() {")
    assert (rec.status, rec.note) == ("partial", "unbalanced '}' at line 1; unclosed '{' at line 2")
    assert [s.name for s in rec.symbols] == ["f", "g"]
    rec = shader.scan("A.shader", b'Shader "Caf\xe9" { }')
    assert (rec.status, rec.note) == ("partial", "invalid UTF-8 at byte 11, decoded with replacement characters")
    assert rec.symbols[0].name == "Caf\ufffd"
    for junk in (b"", b"}}}{{{", b'"', b"/*", b"#include", b"Shader", b"Properties {", b"\xff\xfe" * 50):
        assert shader.scan("J.shader", junk).path == "J.shader"
        assert shader.scan("J.hlsl", junk).path == "J.hlsl"


# ---------------------------------------------------------------- Shader Graph

CASES = Path(__file__).resolve().parent / "asset_cases"


def test_shadergraph_concatenated_layout() -> None:
    rec = scan("Assets/Shaders/Lava.shadergraph", "shadergraph", (CASES / "Lava.shadergraph").read_bytes())
    g = "Dungeon/Effects/Lava"
    assert (rec.kind, rec.status, rec.note) == ("shadergraph", "ok", "")
    assert syms(rec) == [
        S("shader", g, 1),
        S("shader_property", "_BaseColor", 15, container=g, type="Color", detail="Base Color"),
        S("shader_property", "_MainTexture", 24, container=g, type="Texture2D", detail="Main Texture"),
    ]
    assert refs(rec) == [
        ("guid", "aabbccddeeff00112233445566778899", 28, "texture", ""),
        ("guid", "0123456789abcdef0123456789abcdef", 47, "subgraph", ""),
        ("guid", "fedcba9876543210fedcba9876543210", 56, "include", ""),
    ]


def test_shadergraph_single_object_layout() -> None:
    prop = {
        "m_Name": "Tint",
        "m_DefaultReferenceName": "Color_6A3C2F8B",
        "m_OverrideReferenceName": "_Tint",
        "m_GeneratePropertyBlock": True,
    }
    node = {
        "m_SerializedSubGraph": json.dumps({"subGraph": {"fileID": -1, "guid": "11112222333344445555666677778888"}})
    }
    doc = {
        "m_SerializedProperties": [
            {"typeInfo": {"fullName": "UnityEditor.ShaderGraph.ColorShaderProperty"}, "JSONnodeData": json.dumps(prop)}
        ],
        "m_SerializableNodes": [
            {"typeInfo": {"fullName": "UnityEditor.ShaderGraph.SubGraphNode"}, "JSONnodeData": json.dumps(node)}
        ],
        "m_Path": "Legacy",
    }
    text = json.dumps(doc, indent=4)
    rec = shadergraph.scan("Assets/Old.shadergraph", text.encode())
    assert rec.status == "ok"
    assert syms(rec) == [
        S("shader", "Legacy/Old", 1),
        S("shader_property", "_Tint", 7, container="Legacy/Old", type="Color", detail="Tint"),
    ]
    assert refs(rec) == [("guid", "11112222333344445555666677778888", 15, "subgraph", "")]


def test_subgraph_and_broken_graphs() -> None:
    sub = '{"m_Type": "UnityEditor.ShaderGraph.GraphData", "m_Path": "Sub Graphs"}'
    rec = shadergraph.scan("Assets/Noise.shadersubgraph", sub.encode())
    assert syms(rec) == [S("subgraph", "Noise", 1, detail="Sub Graphs")]
    rec = shadergraph.scan("Assets/A.shadergraph", b'{"m_Type": "UnityEditor.ShaderGraph.GraphData"}\n{"m_Type": ')
    assert (rec.status, rec.note) == ("partial", "invalid JSON: Expecting value at line 2 column 12")
    assert syms(rec) == [S("shader", "A", 1)]
    rec = shadergraph.scan("Assets/A.shadergraph", b"{\n  oops\n}")
    assert (rec.status, rec.note) == (
        "skipped",
        "invalid JSON: Expecting property name enclosed in double quotes at line 2 column 3",
    )
    assert shadergraph.scan("Assets/A.shadergraph", b"").note == "empty file"
    assert shadergraph.scan("Assets/A.shadergraph", b'{"a": "\xff"}').note == "invalid UTF-8 at byte 7"


# ---------------------------------------------------------------- asmdef / asmref


def test_fixture_asmdefs() -> None:
    rec = scan(
        "Assets/Tests/EditMode/DungeonCrawler.Tests.EditMode.asmdef",
        "asmdef",
        fixture("Assets/Tests/EditMode/DungeonCrawler.Tests.EditMode.asmdef")[1],
    )
    assert (rec.kind, rec.status) == ("asmdef", "ok")
    assert syms(rec) == [
        S(
            "assembly",
            "DungeonCrawler.Tests.EditMode",
            2,
            attributes=(
                "includePlatforms: Editor",
                "defineConstraints: UNITY_INCLUDE_TESTS",
                "autoReferenced: false",
                "overrideReferences",
                "precompiledReferences: nunit.framework.dll",
            ),
            detail="DungeonCrawler.Tests",
        )
    ]
    assert refs(rec) == [
        ("assembly", "DungeonCrawler.Runtime", 5, "reference", ""),
        ("assembly", "UnityEngine.TestRunner", 6, "reference", ""),
        ("assembly", "UnityEditor.TestRunner", 7, "reference", ""),
    ]
    rec = asmdef.scan(*fixture("Assets/Scripts/DungeonCrawler.Runtime.asmdef"))
    assert syms(rec) == [
        S("assembly", "DungeonCrawler.Runtime", 2, detail="DungeonCrawler"),
        S(
            "version_define",
            "DUNGEON_TMP",
            19,
            container="DungeonCrawler.Runtime",
            detail="com.unity.textmeshpro 3.0.0",
        ),
    ]
    assert refs(rec) == [
        ("assembly", "GUID:1fd3f0880023ed9bdf76d73c5df0024f", 5, "reference", ""),
        ("assembly", "UnityEngine.UI", 6, "reference", ""),
    ]
    rec = asmdef.scan(*fixture("Assets/Scripts/Editor/DungeonCrawler.Editor.asmdef"))
    assert syms(rec) == [
        S(
            "assembly",
            "DungeonCrawler.Editor",
            2,
            attributes=("includePlatforms: Editor",),
            detail="DungeonCrawler.Editor",
        )
    ]
    assert refs(rec) == [("assembly", "GUID:20d5b8137668dce50bbfa2dfe834283a", 5, "reference", "")]
    rec = asmdef.scan(*fixture("Packages/com.dungeoncrawler.tools/Runtime/DungeonCrawler.Tools.asmdef"))
    assert syms(rec) == [S("assembly", "DungeonCrawler.Tools", 2, detail="DungeonCrawler.Tools")]
    assert rec.refs == ()


def test_asmdef_edge_cases() -> None:
    src = (
        b'\xef\xbb\xbf{\r\n  "name": "Game.Net",\r\n  "references": ["GUID:ABCDEF0123456789ABCDEF0123456789"],\r\n'
        b'  "excludePlatforms": ["WebGL", "iOS"],\r\n  "allowUnsafeCode": true,\r\n  "noEngineReferences": true,\r\n'
        b'  "defineConstraints": ["!DISABLE_NET", "UNITY_2021_3_OR_NEWER"]\r\n}\r\n'
    )
    rec = asmdef.scan("Assets/Net/Game.Net.asmdef", src)
    assert syms(rec) == [
        S(
            "assembly",
            "Game.Net",
            2,
            attributes=(
                "excludePlatforms: WebGL, iOS",
                "defineConstraints: !DISABLE_NET, UNITY_2021_3_OR_NEWER",
                "allowUnsafeCode",
                "noEngineReferences",
            ),
        )
    ]
    assert refs(rec) == [("assembly", "GUID:abcdef0123456789abcdef0123456789", 3, "reference", "")]
    rec = asmdef.scan("Assets/A.asmdef", b'{\n  "name": "A",\n  "references": [\n    "B",\n')
    assert (rec.kind, rec.status, rec.note) == ("asmdef", "skipped", "invalid JSON: Expecting value at line 5 column 1")
    assert asmdef.scan("Assets/A.asmdef", b"[]").note == "asmdef is not a JSON object"
    assert asmdef.scan("Assets/A.asmdef", b"").note == "invalid JSON: Expecting value at line 1 column 1"
    rec = asmdef.scan("Assets/A.asmdef", b'{"name": 5, "references": "oops"}')
    assert (rec.status, rec.note, rec.symbols) == ("partial", "asmdef has no name", ())


def test_asmref() -> None:
    rec = scan("Assets/Ext/Ext.asmref", "asmref", b'{\n    "reference": "GUID:1FD3F0880023ED9BDF76D73C5DF0024F"\n}\n')
    assert (rec.kind, refs(rec)) == ("asmref", [("assembly", "GUID:1fd3f0880023ed9bdf76d73c5df0024f", 2, "asmref", "")])
    rec = asmdef.scan("Assets/Ext/Ext.asmref", b'{"reference": "DungeonCrawler.Runtime"}')
    assert refs(rec) == [("assembly", "DungeonCrawler.Runtime", 1, "asmref", "")]
    assert asmdef.scan("Assets/E.asmref", b"{}").note == "asmref has no reference"


# ---------------------------------------------------------------- packages


def test_fixture_manifest() -> None:
    rec = scan("Packages/manifest.json", "json", fixture("Packages/manifest.json")[1])
    assert (rec.kind, rec.status) == ("json", "ok")
    assert [(s["name"], s["line"], s["detail"]) for s in syms(rec)] == [
        ("com.unity.ide.visualstudio", 3, "2.0.16"),
        ("com.unity.test-framework", 4, "1.1.33"),
        ("com.unity.textmeshpro", 5, "3.0.6"),
        ("com.unity.ugui", 6, "1.0.0"),
        ("com.unity.modules.ai", 7, "1.0.0"),
        ("com.unity.modules.animation", 8, "1.0.0"),
        ("com.unity.modules.audio", 9, "1.0.0"),
        ("com.unity.modules.imgui", 10, "1.0.0"),
        ("com.unity.modules.jsonserialize", 11, "1.0.0"),
        ("com.unity.modules.physics", 12, "1.0.0"),
        ("com.unity.modules.ui", 13, "1.0.0"),
    ]
    assert {s.kind for s in rec.symbols} == {"package"}
    assert rec.refs == ()


def test_fixture_lock() -> None:
    rec = packages.scan(*fixture("Packages/packages-lock.json"))
    assert [(s.name, s.line, s.detail, s.attributes) for s in rec.symbols] == [
        ("com.dungeoncrawler.tools", 3, "file:com.dungeoncrawler.tools", ("source: embedded", "depth: 0")),
        ("com.unity.ext.nunit", 9, "1.0.6", ("source: registry", "depth: 1")),
        ("com.unity.ide.visualstudio", 16, "2.0.16", ("source: registry", "depth: 0")),
        ("com.unity.modules.ai", 25, "1.0.0", ("source: builtin", "depth: 0")),
        ("com.unity.modules.animation", 31, "1.0.0", ("source: builtin", "depth: 0")),
        ("com.unity.modules.audio", 37, "1.0.0", ("source: builtin", "depth: 0")),
        ("com.unity.modules.imgui", 43, "1.0.0", ("source: builtin", "depth: 0")),
        ("com.unity.modules.jsonserialize", 49, "1.0.0", ("source: builtin", "depth: 0")),
        ("com.unity.modules.physics", 55, "1.0.0", ("source: builtin", "depth: 0")),
        ("com.unity.modules.ui", 61, "1.0.0", ("source: builtin", "depth: 0")),
        ("com.unity.test-framework", 67, "1.1.33", ("source: registry", "depth: 0")),
        ("com.unity.textmeshpro", 78, "3.0.6", ("source: registry", "depth: 0")),
        ("com.unity.ugui", 87, "1.0.0", ("source: builtin", "depth: 0")),
    ]
    assert refs(rec) == [
        ("package", "com.unity.test-framework", 21, "dependency", "com.unity.ide.visualstudio"),
        ("package", "com.unity.ext.nunit", 72, "dependency", "com.unity.test-framework"),
        ("package", "com.unity.modules.imgui", 73, "dependency", "com.unity.test-framework"),
        ("package", "com.unity.modules.jsonserialize", 74, "dependency", "com.unity.test-framework"),
        ("package", "com.unity.ugui", 83, "dependency", "com.unity.textmeshpro"),
        ("package", "com.unity.modules.ui", 92, "dependency", "com.unity.ugui"),
        ("package", "com.unity.modules.imgui", 93, "dependency", "com.unity.ugui"),
    ]


def test_fixture_embedded_package_json() -> None:
    rec = packages.scan(*fixture("Packages/com.dungeoncrawler.tools/package.json"))
    assert syms(rec) == [
        S(
            "package",
            "com.dungeoncrawler.tools",
            2,
            signature="Dungeon Crawler Tools",
            attributes=("unity: 2021.3",),
            detail="0.3.1",
        )
    ]
    assert rec.refs == ()


def test_package_json_dependencies_scoped_registries_and_other_json() -> None:
    pkg = b'{\n  "name": "com.x.a",\n  "version": "1.0.0",\n  "dependencies": {\n    "com.x.b": "2.1.0"\n  }\n}'
    rec = packages.scan("Packages/com.x.a/package.json", pkg)
    assert refs(rec) == [("package", "com.x.b", 5, "dependency", "2.1.0")]
    manifest = b"""{
  "scopedRegistries": [
    {"name": "OpenUPM", "url": "https://package.openupm.com", "scopes": ["com.cysharp", "jp.hadashikick"]}
  ],
  "dependencies": {
    "com.cysharp.unitask": "https://github.com/Cysharp/UniTask.git?path=src/UniTask/Assets/Plugins/UniTask#2.5.0"
  }
}"""
    rec = packages.scan("Packages/manifest.json", manifest)
    assert syms(rec) == [
        S(
            "scoped_registry",
            "OpenUPM",
            3,
            attributes=("com.cysharp", "jp.hadashikick"),
            detail="https://package.openupm.com",
        ),
        S(
            "package",
            "com.cysharp.unitask",
            6,
            detail="https://github.com/Cysharp/UniTask.git?path=src/UniTask/Assets/Plugins/UniTask#2.5.0",
        ),
    ]
    other = packages.scan("Assets/StreamingAssets/config.json", b'{"dependencies": {"a": "1"}}')
    assert (other.kind, other.status, other.symbols) == ("json", "ok", ())
    broken = scan("Assets/StreamingAssets/config.json", "json", b'{"a": 1,,}')
    assert (broken.status, broken.note) == (  # its text still searched (session 55)
        "partial",
        "invalid JSON: Expecting property name enclosed in double quotes at line 1 column 9",
    )
    assert packages.scan("Assets/x.json", b"\xef\xbb\xbf[1, 2]").status == "ok"
    assert packages.scan("Assets/x.json", b"[1, \xc3]").note == "invalid UTF-8 at byte 4"


# ---------------------------------------------------------------- ProjectSettings


def _settings(name: str) -> FileRecord:
    rel = f"ProjectSettings/{name}"
    return scan(rel, "settings", (FIXTURE / rel).read_bytes())


def test_fixture_project_version() -> None:
    rec = _settings("ProjectVersion.txt")
    assert (rec.kind, rec.status) == ("settings", "ok")
    assert syms(rec) == [S("unity_version", "2021.3.15f1", 1, detail="2021.3.15f1 (e8e88683f834)")]


def test_fixture_tag_manager() -> None:
    rec = _settings("TagManager.asset")
    assert [(s.kind, s.name, s.line, s.detail) for s in rec.symbols] == [
        ("tag", "Enemy", 7, ""),
        ("tag", "Pickup", 8, ""),
        ("layer", "Default", 10, "0"),
        ("layer", "TransparentFX", 11, "1"),
        ("layer", "Ignore Raycast", 12, "2"),
        ("layer", "Water", 14, "4"),
        ("layer", "UI", 15, "5"),
        ("layer", "Player", 18, "8"),
        ("layer", "Enemy", 19, "9"),
        ("layer", "Projectile", 20, "10"),
        ("layer", "Pickup", 21, "11"),
        ("sorting_layer", "Default", 43, "0"),
        ("sorting_layer", "Background", 46, "2968561851"),
        ("sorting_layer", "UI", 49, "1405311193"),
    ]


def test_fixture_build_settings() -> None:
    rec = _settings("EditorBuildSettings.asset")
    assert syms(rec) == [
        S("build_scene", "Assets/Scenes/MainMenu.unity", 8, detail="enabled"),
        S("build_scene", "Assets/Scenes/Dungeon.unity", 11, detail="enabled"),
    ]
    assert refs(rec) == [
        ("guid", "13944d3114220b8cb541e3fbf911f74f", 8, "scene_in_build", "Assets/Scenes/MainMenu.unity"),
        ("guid", "e3f6cf2710d31fe957ef62913a791f61", 11, "scene_in_build", "Assets/Scenes/Dungeon.unity"),
    ]


def test_fixture_player_settings() -> None:
    rec = _settings("ProjectSettings.asset")
    assert syms(rec) == [
        S("setting", "companyName", 15, detail="Lantern Forge Games"),
        S("setting", "productName", 16, detail="Dungeon Crawler"),
        S("setting", "bundleVersion", 90, detail="0.4.0"),
        S("setting", "applicationIdentifier", 109, detail="Standalone: com.lanternforge.dungeoncrawler"),
        S("define", "DUNGEON_MOBILE", 151, detail="Android"),
        S("define", "DUNGEON_DEBUG", 152, detail="Standalone"),
    ]


def test_fixture_input_manager() -> None:
    rec = _settings("InputManager.asset")
    assert [(s.name, s.line, s.detail) for s in rec.symbols] == [
        ("Horizontal", 9, "positive: right, d; negative: left, a"),
        ("Vertical", 25, "positive: up, w; negative: down, s"),
        ("Fire1", 41, "positive: left ctrl, mouse 0"),
        ("Jump", 57, "positive: space"),
        ("Submit", 73, "positive: return, joystick button 0"),
        ("Cancel", 89, "positive: escape, joystick button 1"),
    ]
    assert {s.kind for s in rec.symbols} == {"input_axis"}


def test_every_fixture_settings_file_scans_ok() -> None:
    for p in sorted((FIXTURE / "ProjectSettings").iterdir()):
        rec = scan(f"ProjectSettings/{p.name}", "settings", p.read_bytes())
        assert (rec.status, rec.note) == ("ok", ""), p.name
        assert rec.symbols, p.name


UNITY6_PLAYER = """%YAML 1.1\r
%TAG !u! tag:unity3d.com,2011:\r
--- !u!129 &1\r
PlayerSettings:\r
  productGUID: 0000000000000000e000000000000000\r
  companyName: 'Door: Left ''Studio'''\r
  productName: "Caf\\u00e9 \\"Quest\\""\r
  bundleVersion: 010\r
  applicationIdentifier: {}\r
  scriptingDefineSymbols:\r
    : USE_FEATURE_A;USE_FEATURE_B\r
    Android: MOBILE_BUILD;\r
      WRAPPED_DEFINE\r
    Standalone: \r
  additionalCompilerArguments: {}\r
"""


def test_unity6_empty_key_defines_quoted_scalars_and_crlf() -> None:
    rec = settings.scan("ProjectSettings/ProjectSettings.asset", UNITY6_PLAYER.encode())
    assert rec.status == "ok"
    assert syms(rec) == [
        S("setting", "companyName", 6, detail="Door: Left 'Studio'"),
        S("setting", "productName", 7, detail='Café "Quest"'),
        S("setting", "bundleVersion", 8, detail="010"),  # never a number
        S("define", "USE_FEATURE_A", 11),
        S("define", "USE_FEATURE_B", 11),
        S("define", "MOBILE_BUILD", 12, detail="Android"),
        S("define", "WRAPPED_DEFINE", 12, detail="Android"),
    ]


def test_old_numeric_platform_defines() -> None:
    src = b"""PlayerSettings:
  bundleIdentifier: com.old.game
  scriptingDefineSymbols:
    1: CROSS_PLATFORM_INPUT;DEBUG_MENU
    4: CROSS_PLATFORM_INPUT;MOBILE_INPUT
    19: CONSOLE
    99: FUTURE
  applicationIdentifier:
    Android: com.old.game.android
    iPhone: 'com.old.game.ios'
"""
    rec = settings.scan("ProjectSettings/ProjectSettings.asset", src)
    assert [(s.kind, s.name, s.line, s.detail) for s in rec.symbols] == [
        ("setting", "bundleIdentifier", 2, "com.old.game"),
        ("define", "CROSS_PLATFORM_INPUT", 4, "Standalone"),
        ("define", "DEBUG_MENU", 4, "Standalone"),
        ("define", "CROSS_PLATFORM_INPUT", 5, "iOS"),  # BuildTargetGroup 4 (`iPhone` until session 26)
        ("define", "MOBILE_INPUT", 5, "iOS"),
        ("define", "CONSOLE", 6, "PS4"),  # 19 (18, named PS4 until session 26, is the PS Vita's PSP2)
        ("define", "FUTURE", 7, "99"),
        ("setting", "applicationIdentifier", 9, "Android: com.old.game.android"),
        ("setting", "applicationIdentifier", 10, "iPhone: com.old.game.ios"),
    ]


def test_a_define_of_every_platform_is_shown_once_in_the_overview() -> None:
    """A symbol a project adds for every build target is written once per target (13 times in a
    real project), and every pack's tier 1 listed each; now each symbol once, with its platforms
    when not all of them have it, the first three named; one under no build target (an empty
    platform key) said so, since session 35 (it had read as defined everywhere)."""
    from indexer.query.overview import NO_TARGET, _defines_shown

    defines = {
        "POST_FX": ["Standalone", "iOS", "Android", "WebGL", "PS4"],
        "ANALYTICS": ["Standalone", "iOS", "Android", "WebGL"],
        "SOCIAL": ["iOS", "Android", "iOS"],
        "NOWHERE": [NO_TARGET],
    }
    assert _defines_shown(defines) == [
        "POST_FX",
        "ANALYTICS (Standalone, iOS, Android, +1 more)",
        "SOCIAL (iOS, Android)",
        "NOWHERE (no build target: applies to none)",
    ]


def test_build_settings_guid_like_scalars_disabled_and_quoted_paths() -> None:
    src = b"""EditorBuildSettings:
  m_Scenes:
  - enabled: 0
    path: 'Assets/Scenes/Level: 1.unity'
    guid: 00000000000000002000000000000000
  - enabled: 1
    path: Assets/Scenes/E.unity
    guid: 0000000000000000E000000000000000
  - enabled: 1
    path: Assets/Scenes/Old.unity
  m_configObjects: {}
"""
    rec = settings.scan("ProjectSettings/EditorBuildSettings.asset", src)
    assert syms(rec) == [
        S("build_scene", "Assets/Scenes/Level: 1.unity", 3, detail="disabled"),
        S("build_scene", "Assets/Scenes/E.unity", 6, detail="enabled"),
        S("build_scene", "Assets/Scenes/Old.unity", 9, detail="enabled"),
    ]
    assert refs(rec) == [
        (  # (since schema 37 a disabled entry says so)
            "guid",
            "00000000000000002000000000000000",
            3,
            "scene_in_build",
            "Assets/Scenes/Level: 1.unity (disabled: left out of the build)",
        ),
        ("guid", "0000000000000000e000000000000000", 6, "scene_in_build", "Assets/Scenes/E.unity"),
    ]


def test_tag_manager_quoted_names_and_unity4_layers() -> None:
    src = (
        b"TagManager:\n  tags:\n  - 'Boss: Final'\n  layers:\n  - Default\n  - \n  - \"Quoted Layer\"\n"
        b"  m_SortingLayers: []\n"
    )
    rec = settings.scan("ProjectSettings/TagManager.asset", src)
    assert [(s.kind, s.name, s.line, s.detail) for s in rec.symbols] == [
        ("tag", "Boss: Final", 3, ""),
        ("layer", "Default", 5, "0"),
        ("layer", "Quoted Layer", 7, "2"),
    ]
    old = b"TagManager:\n  tags: []\n  Builtin Layer 0: Default\n  User Layer 8: Player\n  User Layer 9: \n"
    rec = settings.scan("ProjectSettings/TagManager.asset", old)
    assert [(s.kind, s.name, s.detail) for s in rec.symbols] == [("layer", "Default", "0"), ("layer", "Player", "8")]


def test_input_axis_without_buttons_and_other_settings_files() -> None:
    src = (
        b"InputManager:\n  m_Axes:\n  - serializedVersion: 3\n    m_Name: Mouse X\n    positiveButton: \n"
        b"    type: 1\n    axis: 0\n"
    )
    rec = settings.scan("ProjectSettings/InputManager.asset", src)
    assert syms(rec) == [S("input_axis", "Mouse X", 4, detail="mouse axis 0")]
    rec = settings.scan("ProjectSettings/QualitySettings.asset", b"QualitySettings:\n  m_CurrentQuality: 1\n")
    assert (rec.kind, rec.status, rec.symbols, rec.refs) == ("settings", "ok", (), ())
    rec = settings.scan("ProjectSettings/ProjectVersion.txt", b"m_EditorVersion: 6000.0.23f1\xff\n")
    assert (rec.status, rec.note) == ("partial", "invalid UTF-8 at byte 28, decoded with replacement characters")
    for junk in (b"", b"m_Scenes:\n- - -", b"  scriptingDefineSymbols:", b"tags:\n  - '", b"\r\r\r"):
        for name in ("TagManager.asset", "EditorBuildSettings.asset", "ProjectSettings.asset", "InputManager.asset"):
            assert settings.scan(f"ProjectSettings/{name}", junk).kind == "settings"
