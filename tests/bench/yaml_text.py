"""Unity's text serialization of the synthetic assets: .meta files, prefabs (nested and variants),
scenes, ScriptableObject assets, materials, shaders and settings, in the layout Unity 2021.3
writes (including its wrapping of long flow mappings)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .csharp_text import default_value, field_name, serialized_value

if TYPE_CHECKING:
    from .generator import Module, Prefab, Script, _Ids

HEADER = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
PROJECT_VERSION = "m_EditorVersion: 2021.3.15f1\nm_EditorVersionWithRevision: 2021.3.15f1 (e8e88683f834)\n"
TAG_MANAGER = (
    HEADER + "--- !u!78 &1\nTagManager:\n  serializedVersion: 2\n  tags:\n  - Interactable\n  - Pickup\n"
    "  layers:\n  - Default\n  - TransparentFX\n  - Ignore Raycast\n  - \n  - Water\n  - UI\n"
    "  m_SortingLayers:\n  - name: Default\n    uniqueID: 0\n    locked: 0\n"
)
NO_PREFAB = (
    "  m_CorrespondingSourceObject: {fileID: 0}\n  m_PrefabInstance: {fileID: 0}\n  m_PrefabAsset: {fileID: 0}\n"
)
SCENE_OBJECTS = (20, 40)
SCENE_PREFAB_INSTANCES = (6, 14)
SCENE_BUTTONS = (1, 3)
# Package script GUIDs (uGUI) the scenes use, the same in every Unity project.
UI_IMAGE_GUID = "fe87c0e1cc204ed48ad3b37840f39efc"
UI_BUTTON_GUID = "4e29b1a8efbd4b44bb3f3716e73f07ff"


def meta(guid: str, importer: str) -> str:
    """`importer` is the importer's name, with `:MAINFILEID` for NativeFormatImporter assets."""
    name, _, main = importer.partition(":")
    head = f"fileFormatVersion: 2\nguid: {guid}\n{name}:\n  externalObjects: {{}}\n"
    if name == "MonoImporter":
        head += "  serializedVersion: 2\n  defaultReferences: []\n  executionOrder: 0\n  icon: {instanceID: 0}\n"
    elif name == "NativeFormatImporter":
        head += f"  mainObjectFileID: {main or 11400000}\n"
    elif name == "ShaderImporter":
        head += "  defaultTextures: []\n  nonModifiableTextures: []\n"
    return head + "  userData: \n  assetBundleName: \n  assetBundleVariant: \n"


def folder_meta(guid: str) -> str:
    return (
        f"fileFormatVersion: 2\nguid: {guid}\nfolderAsset: yes\nDefaultImporter:\n  externalObjects: {{}}\n"
        "  userData: \n  assetBundleName: \n  assetBundleVariant: \n"
    )


def ext_ref(file_id: int, guid: str, type_: int, indent: str) -> str:
    """`{fileID: N, guid: G, type: T}`, wrapped before `type:` as Unity does for long lines."""
    return f"{{fileID: {file_id}, guid: {guid},\n{indent}type: {type_}}}"


def shader(name: str, rng: random.Random) -> str:
    speed = rng.randint(1, 9)
    return f"""Shader "Game/{name}"
{{
    Properties
    {{
        _Color ("Tint", Color) = (1, 1, 1, 1)
        _MainTex ("Albedo", 2D) = "white" {{}}
        _Glossiness ("Smoothness", Range(0, 1)) = 0.5
        _Speed ("Scroll Speed", Float) = {speed}
    }}

    SubShader
    {{
        Tags {{ "RenderType" = "Opaque" "Queue" = "Geometry" }}

        Pass
        {{
            Name "FORWARD"

            CGPROGRAM
            #pragma vertex vert
            #pragma fragment frag
            #include "UnityCG.cginc"

            fixed4 _Color;
            sampler2D _MainTex;
            float4 _MainTex_ST;
            float _Glossiness;
            float _Speed;

            struct appdata
            {{
                float4 vertex : POSITION;
                float2 uv : TEXCOORD0;
            }};

            struct v2f
            {{
                float4 pos : SV_POSITION;
                float2 uv : TEXCOORD0;
            }};

            v2f vert(appdata v)
            {{
                v2f o;
                o.pos = UnityObjectToClipPos(v.vertex);
                o.uv = TRANSFORM_TEX(v.uv, _MainTex) + float2(_Time.y * _Speed, 0);
                return o;
            }}

            fixed4 frag(v2f i) : SV_Target
            {{
                return tex2D(_MainTex, i.uv) * _Color * (0.5 + _Glossiness);
            }}
            ENDCG
        }}
    }}

    Fallback "Diffuse"
}}
"""


def material(name: str, shader_guid: str, rng: random.Random) -> str:
    r, g, b = (rng.randint(0, 100) / 100 for _ in range(3))
    return (
        HEADER + "--- !u!21 &2100000\nMaterial:\n  serializedVersion: 6\n  m_ObjectHideFlags: 0\n" + NO_PREFAB
        + f"  m_Name: {name}\n  m_Shader: {{fileID: 4800000, guid: {shader_guid}, type: 3}}\n"
        "  m_ValidKeywords: []\n  m_InvalidKeywords: []\n  m_LightmapFlags: 4\n  m_EnableInstancingVariants: 0\n"
        "  m_DoubleSidedGI: 0\n  m_CustomRenderQueue: -1\n  stringTagMap: {}\n  disabledShaderPasses: []\n"
        "  m_SavedProperties:\n    serializedVersion: 3\n    m_TexEnvs:\n    - _MainTex:\n"
        "        m_Texture: {fileID: 0}\n        m_Scale: {x: 1, y: 1}\n        m_Offset: {x: 0, y: 0}\n"
        f"    m_Ints: []\n    m_Floats:\n    - _Glossiness: {rng.randint(0, 10) / 10}\n"
        f"    - _Speed: {rng.randint(1, 9)}\n    m_Colors:\n    - _Color: {{r: {r}, g: {g}, b: {b}, a: 1}}\n"
        "  m_BuildTextureStacks: []\n"
    )  # fmt: skip


def _game_object(fid: int, name: str, components: list[int], layer: int = 0) -> str:
    comps = "".join(f"  - component: {{fileID: {c}}}\n" for c in components)
    return (
        f"--- !u!1 &{fid}\nGameObject:\n  m_ObjectHideFlags: 0\n" + NO_PREFAB + "  serializedVersion: 6\n"
        f"  m_Component:\n{comps}  m_Layer: {layer}\n  m_Name: {name}\n  m_TagString: Untagged\n"
        "  m_Icon: {fileID: 0}\n  m_NavMeshLayer: 0\n  m_StaticEditorFlags: 0\n  m_IsActive: 1\n"
    )


def _transform(fid: int, go: int, children: list[int], father: int, order: int, pos: tuple[float, ...]) -> str:
    kids = "".join(f"  - {{fileID: {c}}}\n" for c in children) if children else ""
    return (
        f"--- !u!4 &{fid}\nTransform:\n  m_ObjectHideFlags: 0\n" + NO_PREFAB + f"  m_GameObject: {{fileID: {go}}}\n"
        "  m_LocalRotation: {x: 0, y: 0, z: 0, w: 1}\n"
        f"  m_LocalPosition: {{x: {pos[0]}, y: {pos[1]}, z: {pos[2]}}}\n"
        "  m_LocalScale: {x: 1, y: 1, z: 1}\n  m_ConstrainProportionsScale: 0\n"
        + ("  m_Children:\n" + kids if children else "  m_Children: []\n")
        + f"  m_Father: {{fileID: {father}}}\n  m_RootOrder: {order}\n"
        "  m_LocalEulerAnglesHint: {x: 0, y: 0, z: 0}\n"
    )  # fmt: skip


def _mesh(mf: int, mr: int, go: int, material_guid: str) -> str:
    return (
        f"--- !u!33 &{mf}\nMeshFilter:\n  m_ObjectHideFlags: 0\n" + NO_PREFAB + f"  m_GameObject: {{fileID: {go}}}\n"
        "  m_Mesh: {fileID: 10202, guid: 0000000000000000e000000000000000, type: 0}\n"
        f"--- !u!23 &{mr}\nMeshRenderer:\n  m_ObjectHideFlags: 0\n" + NO_PREFAB + f"  m_GameObject: {{fileID: {go}}}\n"
        "  m_Enabled: 1\n  m_CastShadows: 1\n  m_ReceiveShadows: 1\n  m_Materials:\n"
        f"  - {{fileID: 2100000, guid: {material_guid}, type: 2}}\n  m_SortingOrder: 0\n"
    )  # fmt: skip


def _call(target: int, script: Script, method: str, mode: int = 1, int_arg: int = 0) -> str:
    return (
        f"      - m_Target: {{fileID: {target}}}\n"
        f"        m_TargetAssemblyTypeName: {script.qualified}, {script.assembly}\n"
        f"        m_MethodName: {method}\n        m_Mode: {mode}\n        m_Arguments:\n"
        "          m_ObjectArgument: {fileID: 0}\n"
        "          m_ObjectArgumentAssemblyTypeName: UnityEngine.Object, UnityEngine\n"
        f"          m_IntArgument: {int_arg}\n          m_FloatArgument: 0\n          m_StringArgument: \n"
        "          m_BoolArgument: 0\n        m_CallState: 2\n"
    )


def behaviour(
    fid: int,
    go: int,
    s: Script,
    local: dict[str, int],
    assets: dict[str, str],
    event_target: tuple[int, Script] | None,
) -> str:
    """One script component with serialized values: primitives, references to components in the
    same file (`local`: qualified name -> fileID) or to ScriptableObject assets (`assets`), and
    its UnityEvent calling a real method of the component on `event_target`."""
    out = [
        f"--- !u!114 &{fid}\nMonoBehaviour:\n  m_ObjectHideFlags: 0\n" + NO_PREFAB,
        f"  m_GameObject: {{fileID: {go}}}\n  m_Enabled: 1\n  m_EditorHideFlags: 0\n",
        f"  m_Script: {{fileID: 11500000, guid: {s.guid}, type: 3}}\n  m_Name: \n  m_EditorClassIdentifier: \n",
    ]
    out += [f"  {name}: {serialized_value(t, d)}\n" for t, name, d in s.fields]
    for r in s.refs:
        fname = field_name(r)
        if r.role == "behaviour":
            out.append(f"  {fname}: {{fileID: {local.get(r.qualified, 0)}}}\n")
        elif r.role == "data":
            guid = assets.get(r.qualified)
            out.append(
                f"  {fname}: {{fileID: 11400000, guid: {guid}, type: 2}}\n" if guid else f"  {fname}: {{fileID: 0}}\n"
            )
        elif r.role == "enum":
            out.append(f"  {fname}: 1\n")
    if s.event_field:
        out.append(f"  {s.event_field}:\n    m_PersistentCalls:\n      m_Calls:\n")
        if event_target is not None:
            tfid, ts = event_target
            out.append(_call(tfid, ts, ts.methods[(fid & 0xFFFF) % len(ts.methods)]))
        else:
            out[-1] = f"  {s.event_field}:\n    m_PersistentCalls:\n      m_Calls: []\n"
    return "".join(out)


def _modification(target: int, guid: str, prop: str, value: str, indent: str = "    ") -> str:
    return (
        f"{indent}- target: {ext_ref(target, guid, 3, indent + '    ')}\n"
        f"{indent}  propertyPath: {prop}\n{indent}  value: {value}\n{indent}  objectReference: {{fileID: 0}}\n"
    )


def prefab_instance(
    fid: int, parent: int, base: Prefab, name: str, pos: tuple[float, ...], overrides: list[tuple[int, str, str]]
) -> str:
    mods = _modification(base.root_go, base.guid, "m_Name", name)
    for axis, v in zip("xyz", pos, strict=True):
        mods += _modification(base.root_transform, base.guid, f"m_LocalPosition.{axis}", str(v))
    for target, prop, value in overrides:
        mods += _modification(target, base.guid, prop, value)
    return (
        f"--- !u!1001 &{fid}\nPrefabInstance:\n  m_ObjectHideFlags: 0\n  serializedVersion: 2\n"
        f"  m_Modification:\n    m_TransformParent: {{fileID: {parent}}}\n    m_Modifications:\n{mods}"
        f"    m_RemovedComponents: []\n  m_SourcePrefab: {{fileID: 100100000, guid: {base.guid}, type: 3}}\n"
    )


def stripped(cls: int, class_name: str, fid: int, source: int, guid: str, instance: int) -> str:
    return (
        f"--- !u!{cls} &{fid} stripped\n{class_name}:\n"
        f"  m_CorrespondingSourceObject: {ext_ref(source, guid, 3, '    ')}\n"
        f"  m_PrefabInstance: {{fileID: {instance}}}\n  m_PrefabAsset: {{fileID: 0}}\n"
    )


def _overrides(base: Prefab, rng: random.Random) -> list[tuple[int, str, str]]:
    """A serialized value of the base's first component, changed (what variants and instances do)."""
    for fid, s in base.components[:1]:
        numeric = [(t, n) for t, n, _ in s.fields if t in ("int", "float")]
        if numeric:
            t, n = rng.choice(numeric)
            return [(fid, n, str(rng.randint(1, 99)) if t == "int" else str(rng.randint(1, 990) / 10))]
    return []


def _assets_by_type(mod: Module) -> dict[str, str]:
    out: dict[str, str] = {}
    for _path, guid, s in mod.assets:
        out.setdefault(s.qualified, guid)
    return out


def prefab(
    name: str,
    path: str,
    guid: str,
    carried: list[Script],
    nested: Prefab | None,
    material_guid: str,
    mod: Module,
    ids: _Ids,
    rng: random.Random,
) -> tuple[Prefab, str]:
    """A prefab whose root carries `carried` scripts, with a Model child and, when `nested` is
    given, an instance of that prefab as a second child."""
    from .generator import Prefab

    go, tr, model_go, model_tr, mf, mr = (ids.new() for _ in range(6))
    comps = [(ids.new(), s) for s in carried]
    local = {s.qualified: fid for fid, s in comps}
    assets = _assets_by_type(mod)
    pi = ids.new() if nested else 0
    nested_tr = ids.new() if nested else 0
    children = [model_tr] + ([nested_tr] if nested else [])
    docs = [_game_object(go, name, [tr] + [c for c, _ in comps])]
    docs.append(_transform(tr, go, children, 0, 0, (0, 0, 0)))
    for fid, s in comps:
        docs.append(behaviour(fid, go, s, local, assets, rng.choice(comps)))
    docs.append(_game_object(model_go, "Model", [model_tr, mf, mr]))
    docs.append(_transform(model_tr, model_go, [], tr, 0, (0, 0.5, 0)))
    docs.append(_mesh(mf, mr, model_go, material_guid))
    if nested:
        docs.append(prefab_instance(pi, tr, nested, nested.name, (0, 1, 0.5), _overrides(nested, rng)))
        docs.append(stripped(4, "Transform", nested_tr, nested.root_transform, nested.guid, pi))
    return Prefab(name, path, guid, go, tr, comps), HEADER + "".join(docs)


def variant(
    name: str, path: str, guid: str, base: Prefab, added: Script, ids: _Ids, rng: random.Random
) -> tuple[Prefab, str]:
    """A prefab variant: an instance of `base` as root, one value overridden and a component added."""
    from .generator import Prefab

    pi, sgo, str_, comp = (ids.new() for _ in range(4))
    docs = [prefab_instance(pi, 0, base, name, (0, 0, 0), _overrides(base, rng))]
    docs.append(stripped(1, "GameObject", sgo, base.root_go, base.guid, pi))
    docs.append(stripped(4, "Transform", str_, base.root_transform, base.guid, pi))
    docs.append(behaviour(comp, sgo, added, {}, _assets_by_type(added.module), (comp, added)))
    return Prefab(name, path, guid, sgo, str_, [(comp, added)], variant_of=base), HEADER + "".join(docs)


def so_asset(
    name: str, s: Script, prefab_: Prefab | None, others: list[tuple[str, str, Script]], rng: random.Random
) -> str:
    out = [
        HEADER + "--- !u!114 &11400000\nMonoBehaviour:\n  m_ObjectHideFlags: 0\n" + NO_PREFAB,
        "  m_GameObject: {fileID: 0}\n  m_Enabled: 1\n  m_EditorHideFlags: 0\n",
        f"  m_Script: {{fileID: 11500000, guid: {s.guid}, type: 3}}\n  m_Name: {name}\n  m_EditorClassIdentifier: \n",
    ]
    for t, fname, _default in s.fields:
        out.append(f"  {fname}: {serialized_value(t, default_value(t, rng))}\n")
    for r in s.refs:
        fname = field_name(r)
        if r.role == "data":
            same = [g for _p, g, o in others if o is r]
            out.append(
                f"  {fname}: {{fileID: 11400000, guid: {same[0]}, type: 2}}\n"
                if same
                else f"  {fname}: {{fileID: 0}}\n"
            )
        elif r.role == "enum":
            out.append(f"  {fname}: {rng.randint(0, len(r.members) - 1)}\n")
    if prefab_ is not None:
        out.append(f"  prefab: {{fileID: {prefab_.root_go}, guid: {prefab_.guid}, type: 3}}\n")
    else:
        out.append("  prefab: {fileID: 0}\n")
    related = [g for _p, g, o in others if o is s][:3]
    if related:
        out.append("  related:\n" + "".join(f"  - {{fileID: 11400000, guid: {g}, type: 2}}\n" for g in related))
    else:
        out.append("  related: []\n")
    return "".join(out)


_SCENE_SETTINGS = (
    "--- !u!29 &1\nOcclusionCullingSettings:\n  m_ObjectHideFlags: 0\n  serializedVersion: 2\n"
    "  m_SceneGUID: 00000000000000000000000000000000\n  m_OcclusionCullingData: {fileID: 0}\n"
    "--- !u!104 &2\nRenderSettings:\n  m_ObjectHideFlags: 0\n  serializedVersion: 9\n  m_Fog: 0\n"
    "  m_SkyboxMaterial: {fileID: 10304, guid: 0000000000000000f000000000000000, type: 0}\n"
    "  m_Sun: {fileID: 0}\n"
    "--- !u!157 &3\nLightmapSettings:\n  m_ObjectHideFlags: 0\n  serializedVersion: 12\n"
    "  m_LightingDataAsset: {fileID: 0}\n"
    "--- !u!196 &4\nNavMeshSettings:\n  serializedVersion: 2\n  m_ObjectHideFlags: 0\n  m_NavMeshData: {fileID: 0}\n"
)


def _rect(fid: int, go: int, children: list[int], father: int, order: int, y: int) -> str:
    t = _transform(fid, go, children, father, order, (0, 0, 0)).replace("--- !u!4 ", "--- !u!224 ", 1)
    t = t.replace("\nTransform:\n", "\nRectTransform:\n", 1)
    return t + (
        "  m_AnchorMin: {x: 0.5, y: 0.5}\n  m_AnchorMax: {x: 0.5, y: 0.5}\n"
        f"  m_AnchoredPosition: {{x: 0, y: {y}}}\n  m_SizeDelta: {{x: 160, y: 30}}\n  m_Pivot: {{x: 0.5, y: 0.5}}\n"
    )


def _ui_component(fid: int, go: int, guid: str, body: str) -> str:
    return (
        f"--- !u!114 &{fid}\nMonoBehaviour:\n  m_ObjectHideFlags: 0\n" + NO_PREFAB
        + f"  m_GameObject: {{fileID: {go}}}\n  m_Enabled: 1\n  m_EditorHideFlags: 0\n"
        f"  m_Script: {{fileID: 11500000, guid: {guid}, type: 3}}\n  m_Name: \n  m_EditorClassIdentifier: \n" + body
    )  # fmt: skip


def scene(mod: Module, behaviours: list[Script], ids: _Ids, rng: random.Random) -> str:
    """Camera, light, scripted objects, instances of the module's prefabs and a canvas whose
    buttons call methods of the scripted objects."""
    docs = [HEADER, _SCENE_SETTINGS]
    cam_go, cam_tr, cam = ids.new(), ids.new(), ids.new()
    docs.append(_game_object(cam_go, "Main Camera", [cam_tr, cam]))
    docs.append(_transform(cam_tr, cam_go, [], 0, 0, (0, 1, -10)))
    docs.append(
        f"--- !u!20 &{cam}\nCamera:\n  m_ObjectHideFlags: 0\n" + NO_PREFAB + f"  m_GameObject: {{fileID: {cam_go}}}\n"
        "  m_Enabled: 1\n  serializedVersion: 2\n  m_ClearFlags: 1\n  field of view: 60\n  near clip plane: 0.3\n"
        "  far clip plane: 1000\n"
    )
    order = 1
    objects = [(ids.new(), ids.new(), ids.new(), rng.choice(behaviours)) for _ in range(rng.randint(*SCENE_OBJECTS))]
    placed = [(comp, s) for _go, _tr, comp, s in objects]
    local = {s.qualified: comp for comp, s in placed}
    assets = _assets_by_type(mod)
    for i, (go, tr, comp, s) in enumerate(objects):
        docs.append(_game_object(go, f"{s.name}{i}", [tr, comp]))
        docs.append(_transform(tr, go, [], 0, order, (rng.randint(-20, 20), 0, rng.randint(-20, 20))))
        docs.append(behaviour(comp, go, s, local, assets, rng.choice(placed)))
        order += 1
    for _ in range(rng.randint(*SCENE_PREFAB_INSTANCES) if mod.prefabs else 0):
        base = rng.choice(mod.prefabs)
        pos = (rng.randint(-30, 30), 0, rng.randint(-30, 30))
        docs.append(prefab_instance(ids.new(), 0, base, base.name, pos, _overrides(base, rng)))
    canvas_go, canvas_rt, canvas = ids.new(), ids.new(), ids.new()
    buttons = [(ids.new(), ids.new(), ids.new(), ids.new()) for _ in range(rng.randint(*SCENE_BUTTONS))]
    docs.append(_game_object(canvas_go, "Canvas", [canvas_rt, canvas], layer=5))
    docs.append(_rect(canvas_rt, canvas_go, [rt for _g, rt, _i, _b in buttons], 0, order, 0))
    docs.append(
        f"--- !u!223 &{canvas}\nCanvas:\n  m_ObjectHideFlags: 0\n" + NO_PREFAB
        + f"  m_GameObject: {{fileID: {canvas_go}}}\n  m_Enabled: 1\n  serializedVersion: 3\n  m_RenderMode: 0\n"
    )  # fmt: skip
    for i, (bgo, brt, image, button) in enumerate(buttons):
        tcomp, ts = rng.choice(placed)
        method = rng.choice(ts.methods)
        docs.append(_game_object(bgo, f"{method}Button", [brt, image, button], layer=5))
        docs.append(_rect(brt, bgo, [], canvas_rt, i, -40 * i))
        docs.append(
            _ui_component(image, bgo, UI_IMAGE_GUID, "  m_Color: {r: 1, g: 1, b: 1, a: 1}\n  m_RaycastTarget: 1\n")
        )
        click = (
            "  m_Navigation:\n    m_Mode: 3\n  m_Transition: 1\n  m_Interactable: 1\n"
            f"  m_TargetGraphic: {{fileID: {image}}}\n  m_OnClick:\n    m_PersistentCalls:\n      m_Calls:\n"
            + _call(tcomp, ts, method)
        )
        docs.append(_ui_component(button, bgo, UI_BUTTON_GUID, click))
    return "".join(docs)


def build_settings(scenes: list[tuple[str, str]]) -> str:
    rows = "".join(f"  - enabled: 1\n    path: {p}\n    guid: {g}\n" for p, g in scenes)
    return (
        HEADER + "--- !u!1045 &1\nEditorBuildSettings:\n  m_ObjectHideFlags: 0\n  serializedVersion: 2\n"
        + ("  m_Scenes:\n" + rows if rows else "  m_Scenes: []\n") + "  m_configObjects: {}\n"
    )  # fmt: skip
