"""Unity's text-serialized assets: scenes, prefabs, ScriptableObjects, materials, animators, ...

Why not a YAML library: stock loaders stop at the second document (`%TAG` applies only to the
first), choke on ` stripped` headers, and turn GUIDs such as `0000000000000000e000000000000000`
into numbers; ruamel's C loader with every scalar kept a string runs at about 2 MB/s. Unity writes
a narrow, regular subset of YAML, so this module splits the file on document headers with one regex
and reads each document's lines with an indentation-aware pass that keeps every value a string.
Only what the index uses is kept: the GameObject hierarchy, components, short serialized values,
references by GUID, prefab instances and overrides, UnityEvent calls, material properties,
animator structure and animation events.

Output conventions (FileRecord.symbols / refs; all paths in a file are GameObject paths joined by
"/", and component names of scripts are written `script:<guid>` for the reader to resolve):
  gameobject         name, container = parent path, detail = "inactive" when m_IsActive is 0,
                     signature = tag and layer when not default
  component          name = Unity class (Transform, Rigidbody, MonoBehaviour, ...), container =
                     GameObject path, detail = script GUID (MonoBehaviour), type = its fileID
  field              name, container = owner path, signature = "name: value", detail = fileID
                     of the component (or asset object) it belongs to
  prefab_instance    name = the instance's name if overridden, container = parent path,
                     detail = source prefab GUID
  override           name = propertyPath, container = instance path, signature = "path: value"
  scriptable_object  name = m_Name, detail = script GUID (assets whose main object is a script)
  material           name, detail = shader GUID (or "builtin:<fileID>"); material_property
                     symbols (type = texture, float, color, int, vector)
  animator_controller, animator_layer, animator_parameter (type = Float/Int/Bool/Trigger),
  animator_state (detail = motion GUID), animation_clip
  object             other named root objects of non-scene assets (audio mixers, presets, ...)
refs:
  script  target = script GUID (m_Script), detail = owner path
  prefab  target = source prefab GUID, context = "instance" | "variant_base" | "legacy_parent"
  guid    target = any other referenced asset GUID, context = the field (m_Materials, m_Shader,
          data, ...), detail = "owner > component"
  method  target = "Namespace.Type.Method" (UnityEvent persistent call; "script:<guid>.Method"
          when the file names no type), context = the event field, detail = "owner > component"
  type    target = "Namespace.Class" of a [SerializeReference] value, context "serialize_reference"
  animation_event  target = the function name an AnimationClip event calls
"""

from __future__ import annotations

import re

from indexer.model import FileRecord, Ref, Symbol
from indexer.project import kind_of

HEADER = re.compile(r"^--- !u!(-?\d+) &(-?\d+)( stripped)?[^\n]*\n?", re.M)
_WRAPPED_FLOW = re.compile(r"(\{[^{}\n]*,)[ \t]*\n[ \t]+")
_OVERRIDE_CALL = re.compile(r"^(.+)\.m_PersistentCalls\.m_Calls\.Array\.data\[(\d+)\]\.(m_\w+)$")
_REF = re.compile(r"\{fileID: (-?\d+)(?:, guid: ([0-9A-Fa-f]{32}))?(?:, type: -?\d+)?\}")
_GUID = re.compile(r"guid: ([0-9A-Fa-f]{32})")
_KEY = re.compile(r"^( *)(- )?([^\s:#'\"{\[][^:]*?|'[^']*'|\"[^\"]*\"|):(?: (.*))?$")

CLASS_NAMES: dict[int, str] = {
    1: "GameObject",
    4: "Transform",
    8: "Behaviour",
    12: "ParticleAnimator",
    20: "Camera",
    21: "Material",
    23: "MeshRenderer",
    25: "Renderer",
    28: "Texture2D",
    29: "OcclusionCullingSettings",
    33: "MeshFilter",
    43: "Mesh",
    48: "Shader",
    49: "TextAsset",
    50: "Rigidbody2D",
    54: "Rigidbody",
    56: "Collider",
    57: "Joint",
    58: "CircleCollider2D",
    59: "HingeJoint",
    60: "PolygonCollider2D",
    61: "BoxCollider2D",
    62: "PhysicsMaterial2D",
    64: "MeshCollider",
    65: "BoxCollider",
    66: "CompositeCollider2D",
    68: "EdgeCollider2D",
    70: "CapsuleCollider2D",
    74: "AnimationClip",
    81: "AudioListener",
    82: "AudioSource",
    83: "AudioClip",
    84: "RenderTexture",
    87: "MeshParticleEmitter",
    89: "Cubemap",
    90: "Avatar",
    91: "AnimatorController",
    92: "GUILayer",
    93: "RuntimeAnimatorController",
    95: "Animator",
    96: "TrailRenderer",
    102: "TextMesh",
    104: "RenderSettings",
    108: "Light",
    109: "CGProgram",
    110: "BaseAnimationTrack",
    111: "Animation",
    114: "MonoBehaviour",
    115: "MonoScript",
    117: "Texture3D",
    119: "Projector",
    120: "LineRenderer",
    121: "Flare",
    122: "Halo",
    123: "LensFlare",
    124: "FlareLayer",
    128: "Font",
    134: "PhysicMaterial",
    135: "SphereCollider",
    136: "CapsuleCollider",
    137: "SkinnedMeshRenderer",
    138: "FixedJoint",
    141: "BuildSettings",
    143: "CharacterController",
    144: "CharacterJoint",
    145: "SpringJoint",
    146: "WheelCollider",
    152: "MovieTexture",
    153: "ConfigurableJoint",
    154: "TerrainCollider",
    156: "TerrainData",
    157: "LightmapSettings",
    158: "WebCamTexture",
    162: "EditorUserSettings",
    180: "AudioReverbFilter",
    181: "AudioHighPassFilter",
    182: "AudioChorusFilter",
    183: "AudioReverbZone",
    184: "AudioEchoFilter",
    185: "AudioLowPassFilter",
    186: "AudioDistortionFilter",
    192: "OffMeshLink",
    193: "OcclusionArea",
    195: "NavMeshAgent",
    196: "NavMeshSettings",
    198: "ParticleSystem",
    199: "ParticleSystemRenderer",
    200: "ShaderVariantCollection",
    205: "LODGroup",
    206: "BlendTree",
    207: "Motion",
    208: "NavMeshObstacle",
    210: "SortingGroup",
    212: "SpriteRenderer",
    213: "Sprite",
    215: "ReflectionProbe",
    218: "Terrain",
    220: "LightProbeGroup",
    221: "AnimatorOverrideController",
    222: "CanvasRenderer",
    223: "Canvas",
    224: "RectTransform",
    225: "CanvasGroup",
    226: "BillboardAsset",
    227: "BillboardRenderer",
    228: "SpeedTreeWindAsset",
    229: "AnchoredJoint2D",
    231: "DistanceJoint2D",
    232: "SpringJoint2D",
    233: "HingeJoint2D",
    234: "SliderJoint2D",
    235: "WheelJoint2D",
    238: "NavMeshData",
    240: "AudioMixer",
    241: "AudioMixerController",
    243: "AudioMixerGroupController",
    244: "AudioMixerEffectController",
    245: "AudioMixerSnapshotController",
    246: "PhysicsUpdateBehaviour2D",
    247: "ConstantForce2D",
    248: "Effector2D",
    249: "AreaEffector2D",
    250: "PointEffector2D",
    251: "PlatformEffector2D",
    252: "SurfaceEffector2D",
    253: "BuoyancyEffector2D",
    258: "LightProbes",
    271: "SampleClip",
    272: "AudioMixerSnapshot",
    273: "AudioMixerGroup",
    290: "AssetBundleManifest",
    319: "AvatarMask",
    320: "PlayableDirector",
    328: "VideoPlayer",
    329: "VideoClip",
    331: "SpriteMask",
    363: "OcclusionCullingData",
    1001: "PrefabInstance",
    1002: "EditorExtensionImpl",
    1003: "AssetImporter",
    1101: "AnimatorStateTransition",
    1102: "AnimatorState",
    1105: "HumanTemplate",
    1107: "AnimatorStateMachine",
    1108: "PreviewAnimationClip",
    1109: "AnimatorTransition",
    1111: "AnimatorTransitionBase",
    1660057539: "SceneRoots",
    19719996: "TilemapCollider2D",
    1742807556: "GridLayout",
    156049354: "Grid",
    483693784: "TilemapRenderer",
    1839735485: "Tilemap",
    687078895: "SpriteAtlas",
    1953259897: "TerrainLayer",
    73398921: "VFXRenderer",
    850595691: "LightingSettings",
    2083052967: "VisualEffect",
}
TRANSFORMS = (4, 224)
# Settings documents at the top of every scene: not part of the hierarchy.
SCENE_SETTINGS = frozenset({29, 104, 157, 196})
# Standard fields every Unity object writes; not "serialized fields" of a script.
_STANDARD_FIELDS = frozenset(
    """m_ObjectHideFlags m_CorrespondingSourceObject m_PrefabInstance m_PrefabAsset m_PrefabParentObject
    m_PrefabInternal m_GameObject m_Enabled m_EditorHideFlags m_Script m_Name m_EditorClassIdentifier
    serializedVersion""".split()  # noqa: SIM905
)
# Keys whose GUID references are recorded as something more specific than a plain `guid` ref.
_SPECIAL_GUID_KEYS = frozenset(
    {
        "m_Script",
        "m_SourcePrefab",
        "m_ParentPrefab",
        "m_CorrespondingSourceObject",
        "m_PrefabParentObject",
        "m_PrefabAsset",
        "target",
    }
)
BUILTIN_GUIDS = frozenset({"0000000000000000e000000000000000", "0000000000000000f000000000000000"})
MAX_FIELDS_PER_OBJECT = 40
MAX_VALUE_CHARS = 80
YAML_KINDS = frozenset({"scene", "prefab", "asset", "material", "animator", "animation", "unity_yaml"})
_PARAM_TYPES = {"1": "Float", "3": "Int", "4": "Bool", "9": "Trigger"}
_LISTENER_MODES = {"0": "event", "1": "void", "2": "object", "3": "int", "4": "float", "5": "string", "6": "bool"}
_ARGUMENT_KEYS = {
    "2": "m_ObjectArgument",
    "3": "m_IntArgument",
    "4": "m_FloatArgument",
    "5": "m_StringArgument",
    "6": "m_BoolArgument",
}

# Patterns used per document or per line, compiled once.
_MANAGED_TYPE = re.compile(r"type: \{class: ([^,}]*), ns: ([^,}]*), asm: ([^}]*)\}")
_ITEM_KEY = re.compile(r"- ([^:]+):(?: (.*))?$")
_NAME_OVERRIDE = re.compile(r"propertyPath: m_Name\n\s+value: (.*)")
_ENTRY_KEY = re.compile(r"([^:]+):(?: (.*))?$")
_CALL_KEY = re.compile(r"(m_\w+):(?: (.*))?$")
_CALL_KEY_START = re.compile(r"\s*(m_\w+:|- )")


def scan(path: str, data: bytes) -> FileRecord:
    kind = kind_of(path)
    head = data[:1024].lstrip(b"\xef\xbb\xbf")
    if not head.startswith(b"%YAML") and b"--- !u!" not in head:
        stripped = head.lstrip()
        if stripped.startswith((b"{", b"[")):
            return FileRecord(path=path, kind=kind, note="JSON-serialized asset, not Unity YAML: not parsed")
        if not stripped:
            return FileRecord(path=path, kind=kind, note="empty file")
        return FileRecord(path=path, kind=kind, status="skipped", note="not Unity YAML (no %YAML header)")
    text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _Scan(path, kind, text).run()


# ---------------------------------------------------------------------------------------------
# Scalars


def unquote(value: str) -> str:
    v = value.strip()
    if len(v) >= 2 and v[0] == v[-1] == "'":
        return v[1:-1].replace("''", "'")
    if len(v) >= 2 and v[0] == v[-1] == '"':
        body = v[1:-1]
        if "\\" in body:
            try:
                import json

                return json.loads(f'"{body}"')
            except ValueError:
                return body
        return body
    return v


def short(value: str) -> str:
    v = " ".join(value.split())
    return v if len(v) <= MAX_VALUE_CHARS else v[: MAX_VALUE_CHARS - 1] + "…"


class _Doc:
    __slots__ = ("body", "class_id", "class_name", "file_id", "line", "stripped")

    def __init__(self, class_id: int, file_id: int, stripped: bool, line: int, body: str):
        self.class_id = class_id
        self.file_id = file_id
        self.stripped = stripped
        self.line = line  # line of the `--- !u!` header
        self.body = body
        first = body.split("\n", 1)[0]
        self.class_name = first[:-1] if first.endswith(":") else CLASS_NAMES.get(class_id, f"Class{class_id}")

    def lines(self) -> list[str]:
        return self.body.split("\n")

    def top(self, key: str) -> str | None:
        """A top-level (indent 2) scalar, wrapped continuation lines joined; None if absent."""
        marker = f"\n  {key}:"
        i = self.body.find(marker)
        if i < 0:
            return None
        start = i + len(marker)
        end = self.body.find("\n", start)
        end = len(self.body) if end < 0 else end
        value = self.body[start:end].strip()
        # plain or quoted scalars wrapped onto deeper-indented lines
        while end < len(self.body) and self.body.startswith("    ", end + 1):
            nxt_end = self.body.find("\n", end + 1)
            nxt_end = len(self.body) if nxt_end < 0 else nxt_end
            nxt = self.body[end + 1 : nxt_end].strip()
            if not value or nxt.startswith("- ") or (_KEY.match("  " + nxt) and not value.startswith(("'", '"'))):
                break
            value = f"{value} {nxt}"
            end = nxt_end
        return unquote(value)

    def top_ref(self, key: str) -> tuple[int, str]:
        v = self.top(key)
        if not v:
            return 0, ""
        m = _REF.match(v)
        return (int(m.group(1)), (m.group(2) or "").lower()) if m else (0, "")

    def block(self, key: str, indent: int = 2) -> list[tuple[int, str]]:
        """The lines nested under `key:` at `indent`, with their index in the document."""
        lines = self.lines()
        prefix = " " * indent + key + ":"
        for i, line in enumerate(lines):
            if line.startswith(prefix):
                out = []
                for j in range(i + 1, len(lines)):
                    nxt = lines[j]
                    if not nxt.strip():
                        continue
                    lead = len(nxt) - len(nxt.lstrip(" "))
                    if lead < indent or (lead == indent and not nxt.lstrip(" ").startswith("- ")):
                        break
                    out.append((j, nxt))
                return out
        return []


class _Scan:
    def __init__(self, path: str, kind: str, text: str):
        self.path = path
        self.kind = kind
        self.text = _WRAPPED_FLOW.sub(r"\1 ", text) if ",\n" in text else text
        self.symbols: list[Symbol] = []
        self.refs: list[Ref] = []
        self.docs: dict[int, _Doc] = {}
        self.order: list[_Doc] = []
        self.notes: list[str] = []

    # -- splitting ---------------------------------------------------------------------------

    def split(self) -> None:
        text = self.text
        matches = list(HEADER.finditer(text))
        line = 1 + text.count("\n", 0, matches[0].start()) if matches else 1
        for i, m in enumerate(matches):
            end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
            body = text[m.end() : end]
            doc = _Doc(int(m.group(1)), int(m.group(2)), bool(m.group(3)), line, body)
            if doc.file_id in self.docs:
                self.notes.append(f"duplicate fileID {doc.file_id}")
            self.docs[doc.file_id] = doc
            self.order.append(doc)
            line += 1 + body.count("\n")

    def run(self) -> FileRecord:
        self.split()
        if not self.order:
            return FileRecord(path=self.path, kind=self.kind, status="skipped", note="no Unity YAML documents")
        self.hierarchy()
        for doc in self.order:
            self.document(doc)
        note = f"{len(self.order)} documents"
        if self.notes:
            note += "; " + "; ".join(sorted(set(self.notes))[:5])
        return FileRecord(
            path=self.path,
            kind=self.kind,
            note=note,
            symbols=tuple(self.symbols),
            refs=tuple(dict.fromkeys(self.refs)),
        )

    # -- hierarchy ---------------------------------------------------------------------------

    def hierarchy(self) -> None:
        """GameObject paths, through Transform parents and prefab instances."""
        self.go_of_transform: dict[int, int] = {}
        self.father: dict[int, int] = {}  # transform -> parent transform
        self.transform_of_go: dict[int, int] = {}
        self.instance_of: dict[int, int] = {}  # stripped object -> its PrefabInstance
        self.instance_parent: dict[int, int] = {}  # PrefabInstance -> parent transform
        self.names: dict[int, str] = {}
        self.behaviour_state: dict[int, str] = {}  # StateMachineBehaviour -> its animator state
        for doc in self.order:
            cid = doc.class_id
            if cid in (1102, 1107) and "m_StateMachineBehaviours:" in doc.body:
                state = doc.top("m_Name") or doc.class_name
                for _idx, line in doc.block("m_StateMachineBehaviours"):
                    m = _REF.search(line)
                    if m:
                        self.behaviour_state[int(m.group(1))] = state
            if doc.stripped:
                inst, _ = doc.top_ref("m_PrefabInstance")
                if not inst:
                    inst, _ = doc.top_ref("m_PrefabInternal")
                if inst:
                    self.instance_of[doc.file_id] = inst
            if cid in TRANSFORMS:
                go, _ = doc.top_ref("m_GameObject")
                self.go_of_transform[doc.file_id] = go
                self.transform_of_go[go] = doc.file_id
                father, _ = doc.top_ref("m_Father")
                if father:
                    self.father[doc.file_id] = father
            elif cid == 1 and not doc.stripped:
                self.names[doc.file_id] = doc.top("m_Name") or ""
            elif cid == 1001:
                parent = _modification_ref(doc, "m_TransformParent")
                if parent:
                    self.instance_parent[doc.file_id] = parent
                self.names[doc.file_id] = _instance_name(doc)
        self._paths: dict[int, str] = {}

    def node_of_transform(self, transform: int) -> int:
        """The hierarchy node a transform stands for: its GameObject, or the prefab instance."""
        if transform in self.instance_of:
            return self.instance_of[transform]
        go = self.go_of_transform.get(transform, 0)
        return self.instance_of.get(go, go)

    def parent_node(self, node: int) -> int:
        if node in self.instance_parent:
            return self.node_of_transform(self.instance_parent[node])
        tf = self.transform_of_go.get(node)
        if tf is None or tf not in self.father:
            return 0
        return self.node_of_transform(self.father[tf])

    def path_of(self, node: int) -> str:
        if node in self._paths:
            return self._paths[node]
        parts: list[str] = []
        seen: set[int] = set()
        cur = node
        while cur and cur not in seen:
            seen.add(cur)
            parts.append(self.names.get(cur) or f"&{cur}")
            cur = self.parent_node(cur)
        path = "/".join(reversed(parts))
        self._paths[node] = path
        return path

    def owner_path(self, doc: _Doc) -> str:
        """Where a component sits (its GameObject's path), or the asset object's own name."""
        go, _ = doc.top_ref("m_GameObject")
        if go:
            return self.path_of(self.instance_of.get(go, go))
        if doc.file_id in self.instance_of:
            return self.path_of(self.instance_of[doc.file_id])
        return doc.top("m_Name") or doc.class_name

    # -- documents ---------------------------------------------------------------------------

    def document(self, doc: _Doc) -> None:
        cid = doc.class_id
        if cid in SCENE_SETTINGS:
            self.guid_refs(doc, doc.class_name, doc.class_name)
            return
        if doc.stripped:
            return  # only a pointer into a prefab instance; its data lives in the source prefab
        if cid == 1:
            self.game_object(doc)
        elif cid == 1001:
            self.prefab_instance(doc)
        elif cid == 114:
            self.mono_behaviour(doc)
        elif cid == 21:
            self.material(doc)
        elif cid == 91:
            self.animator_controller(doc)
        elif cid == 1102:
            self.animator_state(doc)
        elif cid == 74:
            self.animation_clip(doc)
        elif cid == 1660057539:
            pass  # SceneRoots: the order of roots, already known from the transforms
        else:
            go, _ = doc.top_ref("m_GameObject")
            if go:
                owner = self.owner_path(doc)
                self.component_symbol(doc, owner)
                self.guid_refs(doc, owner, doc.class_name)
            else:
                name = doc.top("m_Name")
                if name and self.kind not in ("scene", "prefab") and cid not in (1101, 1107, 1109):
                    self.symbols.append(Symbol("object", name, doc.line, signature=doc.class_name))
                self.guid_refs(doc, name or doc.class_name, doc.class_name)

    def game_object(self, doc: _Doc) -> None:
        path = self.path_of(doc.file_id)
        container, _, name = path.rpartition("/")
        tag = doc.top("m_TagString") or "Untagged"
        layer = doc.top("m_Layer") or "0"
        sig = []
        if tag != "Untagged":
            sig.append(f"tag {tag}")
        if layer != "0":
            sig.append(f"layer {layer}")
        self.symbols.append(
            Symbol(
                "gameobject",
                name,
                doc.line,
                container=container,
                signature=", ".join(sig),
                detail="inactive" if doc.top("m_IsActive") == "0" else "",
            )
        )

    def component_symbol(self, doc: _Doc, owner: str, script_guid: str = "") -> None:
        enabled = doc.top("m_Enabled")
        identifier = doc.top("m_EditorClassIdentifier") if script_guid else ""
        self.symbols.append(
            Symbol(
                "component",
                doc.class_name,
                doc.line,
                container=owner,
                type=str(doc.file_id),
                detail=script_guid,
                # Unity 6 names the script class: `Unity.TextMeshPro::TMPro.TextMeshProUGUI`
                signature=identifier.rpartition("::")[2] if identifier else "",
                attributes=("disabled",) if enabled == "0" else (),
            )
        )

    def prefab_instance(self, doc: _Doc) -> None:
        source = _modification_ref(doc, "m_SourcePrefab", guid=True) or doc.top_ref("m_SourcePrefab")[1]
        legacy = False
        if not source:  # pre-2018.3 `Prefab` document
            _, source = doc.top_ref("m_ParentPrefab")
            legacy = True
            if doc.top("m_IsPrefabParent") == "1":
                return  # the legacy prefab asset's own root record, not an instance
        parent_tf = self.instance_parent.get(doc.file_id, 0)
        path = self.path_of(doc.file_id)
        container, _, name = path.rpartition("/")
        is_variant = self.kind == "prefab" and not parent_tf and not legacy
        self.symbols.append(
            Symbol(
                "prefab_instance",
                "" if name.startswith("&") else name,
                doc.line,
                container=container,
                detail=source,
                signature="variant base" if is_variant else "",
            )
        )
        if source:
            context = "legacy_parent" if legacy else "variant_base" if is_variant else "instance"
            self.refs.append(Ref("prefab", source, doc.line, context=context, detail=path))
        self.modifications(doc, path)

    def modifications(self, doc: _Doc, path: str) -> None:
        lines = doc.lines()
        count = 0
        # UnityEvent calls set through overrides: propertyPath `onClick.m_PersistentCalls.m_Calls.
        # Array.data[0].m_MethodName` and its siblings, grouped by event and call index.
        calls: dict[tuple[str, str], dict[str, str]] = {}
        for i, line in enumerate(lines):
            s = line.strip()
            if not s.startswith("propertyPath:"):
                continue
            prop = unquote(s[len("propertyPath:") :])
            value = ""
            obj_ref = ""
            for nxt in lines[i + 1 : i + 4]:
                t = nxt.strip()
                if t.startswith("value:"):
                    value = unquote(t[len("value:") :])
                elif t.startswith("objectReference:"):
                    m = _REF.search(t)
                    if m and m.group(2):
                        obj_ref = m.group(2).lower()
                    break
                elif t.startswith("- "):
                    break
            line_no = doc.line + 1 + i
            cm = _OVERRIDE_CALL.match(prop)
            if cm:
                call = calls.setdefault((cm.group(1), cm.group(2)), {"_line": str(line_no)})
                call[cm.group(3)] = value
            if obj_ref:
                value = f"guid:{obj_ref}"
                if obj_ref not in BUILTIN_GUIDS:
                    self.refs.append(Ref("guid", obj_ref, line_no, context=prop, detail=f"{path} > override"))
            if _is_noise_override(prop):
                continue
            count += 1
            if count <= MAX_FIELDS_PER_OBJECT:
                self.symbols.append(
                    Symbol("override", prop, line_no, container=path, signature=f"{prop}: {short(value)}")
                )
        for (event, _index), call in calls.items():
            method = call.get("m_MethodName", "")
            if not method:
                continue
            type_name = call.get("m_TargetAssemblyTypeName", "").split(",", 1)[0].strip()
            target = f"{type_name}.{method}" if type_name else f"?.{method}"
            arg = _LISTENER_MODES.get(call.get("m_Mode", ""), "")
            self.refs.append(
                Ref("method", target, int(call["_line"]), context=event, detail=f"{path} > override.{event}({arg})")
            )

    def mono_behaviour(self, doc: _Doc) -> None:
        _, script = doc.top_ref("m_Script")
        go, _ = doc.top_ref("m_GameObject")
        if go:
            owner = self.owner_path(doc)
            self.component_symbol(doc, owner, script)
        elif doc.file_id in self.behaviour_state:
            owner = self.behaviour_state[doc.file_id]
        else:
            owner = doc.top("m_Name") or doc.class_name
            if doc is self.order[0] or self.kind == "asset":
                self.symbols.append(Symbol("scriptable_object", owner, doc.line, detail=script))
        if script:
            self.refs.append(Ref("script", script, doc.line, context="m_Script", detail=owner))
        label = f"script:{script}" if script else "MonoBehaviour"
        self.fields(doc, owner, label)
        self.guid_refs(doc, owner, label)
        if "m_PersistentCalls:" in doc.body:
            self.unity_events(doc, owner, label)
        if "RefIds:" in doc.body:
            for m in _MANAGED_TYPE.finditer(doc.body):
                cls, ns = m.group(1).strip(), m.group(2).strip()
                if cls:
                    line_no = doc.line + 1 + doc.body.count("\n", 0, m.start())
                    target = f"{ns}.{cls}" if ns else cls
                    self.refs.append(Ref("type", target, line_no, context="serialize_reference", detail=owner))

    def fields(self, doc: _Doc, owner: str, label: str) -> None:
        """Top-level serialized fields of a script, each as a short `name: value`."""
        lines = doc.lines()
        n = 0
        i = 1
        while i < len(lines):
            line = lines[i]
            if line.startswith("  ") and not line.startswith("   ") and not line.startswith("  - "):
                m = _KEY.match(line)
                if m and m.group(3) not in _STANDARD_FIELDS and m.group(3) != "references":
                    key = unquote(m.group(3))
                    value = (m.group(4) or "").strip()
                    j = i + 1
                    nested: list[str] = []
                    while j < len(lines) and (lines[j].startswith("   ") or lines[j].startswith("  - ")):
                        nested.append(lines[j])
                        j += 1
                    shown = _summarize(value, nested)
                    if shown.startswith("&"):
                        shown = self.local_label(int(shown[1:]))
                    n += 1
                    if n > MAX_FIELDS_PER_OBJECT:
                        break
                    self.symbols.append(
                        Symbol(
                            "field",
                            key,
                            doc.line + 1 + i,
                            container=owner,
                            signature=f"{key}: {shown}",
                            detail=str(doc.file_id),
                            type=label if label.startswith("script:") else "",
                        )
                    )
                    i = j
                    continue
            i += 1

    def unity_events(self, doc: _Doc, owner: str, label: str) -> None:
        lines = doc.lines()
        for i, line in enumerate(lines):
            if line.strip() != "m_PersistentCalls:":
                continue
            indent = len(line) - len(line.lstrip(" "))
            event = ""
            for back in range(i - 1, 0, -1):
                prev = lines[back]
                lead = len(prev) - len(prev.lstrip(" "))
                if lead < indent and prev.strip():
                    m = _KEY.match(prev)
                    event = unquote(m.group(3)) if m else ""
                    break
            for call in _calls(lines, i + 1, indent):
                target_id, type_name, method, mode, argument, line_off = call
                if not method:
                    continue
                if type_name:
                    target = f"{type_name}.{method}"
                else:
                    target_doc = self.docs.get(target_id)
                    script = target_doc.top_ref("m_Script")[1] if target_doc and target_doc.class_id == 114 else ""
                    if script:
                        target = f"script:{script}.{method}"
                    elif target_doc is not None and target_doc.class_id == 1:
                        target = f"UnityEngine.GameObject.{method}"
                    else:
                        target = f"?.{method}"
                arg = _LISTENER_MODES.get(mode, "")
                if argument:
                    arg = f"{arg} {short(argument)}"
                target_node = self.instance_of.get(target_id, 0) or self.go_node_of(target_id)
                on = f" on {self.path_of(target_node)}" if target_node else ""
                self.refs.append(
                    Ref(
                        "method",
                        target,
                        doc.line + 1 + line_off,
                        context=event,
                        detail=f"{owner} > {label}.{event}({arg}){on}",
                    )
                )

    def local_label(self, file_id: int) -> str:
        """A same-file object reference made readable: `Player/Model (MeshRenderer)`."""
        doc = self.docs.get(file_id)
        if doc is None:
            return f"&{file_id} (missing)"
        node = self.go_node_of(file_id)
        where = self.path_of(node) if node else (doc.top("m_Name") or "")
        if doc.class_id == 1:
            return where
        if doc.class_id == 114:
            _, script = doc.top_ref("m_Script")
            what = f"script:{script}" if script else "MonoBehaviour"
        else:
            what = doc.class_name
        return f"{where} ({what})" if where else what

    def go_node_of(self, file_id: int) -> int:
        """The hierarchy node an object sits on (a stripped object: its prefab instance)."""
        doc = self.docs.get(file_id)
        if doc is None:
            return 0
        if doc.class_id == 1:
            return self.instance_of.get(file_id, file_id)
        go, _ = doc.top_ref("m_GameObject")
        if not go:
            return self.instance_of.get(file_id, 0)
        return self.instance_of.get(go, go)

    def guid_refs(self, doc: _Doc, owner: str, label: str) -> None:
        body = doc.body
        if "guid: " not in body:
            return
        lines = None
        for m in _GUID.finditer(body):
            guid = m.group(1).lower()
            if guid in BUILTIN_GUIDS:
                continue
            if lines is None:
                lines = doc.lines()
            line_idx = body.count("\n", 0, m.start())
            key = _owner_key(lines, line_idx)
            if key in _SPECIAL_GUID_KEYS:
                continue
            self.refs.append(Ref("guid", guid, doc.line + 1 + line_idx, context=key, detail=f"{owner} > {label}"))

    def material(self, doc: _Doc) -> None:
        name = doc.top("m_Name") or ""
        fid, shader = doc.top_ref("m_Shader")
        shader_detail = shader if shader and shader not in BUILTIN_GUIDS else f"builtin:{fid}" if fid else ""
        self.symbols.append(Symbol("material", name, doc.line, detail=shader_detail))
        lines = doc.lines()
        section = ""
        n = 0
        for i, line in enumerate(lines):
            s = line.strip()
            if s in ("m_TexEnvs:", "m_Floats:", "m_Colors:", "m_Ints:"):
                section = s[2:-2].lower().replace("texenv", "texture")
                continue
            if not section or not s.startswith("- "):
                continue
            m = _ITEM_KEY.match(s)
            if not m:
                continue
            prop, value = m.group(1).strip(), (m.group(2) or "").strip()
            if section == "texture":
                tex = next((t for t in lines[i + 1 : i + 3] if "m_Texture:" in t), "")
                rm = _REF.search(tex)
                value = f"guid:{rm.group(2).lower()}" if rm and rm.group(2) else "None"
            kind = {"texture": "texture", "floats": "float", "colors": "color", "ints": "int"}.get(section, section)
            n += 1
            if n <= MAX_FIELDS_PER_OBJECT * 2:
                self.symbols.append(
                    Symbol(
                        "material_property",
                        prop,
                        doc.line + 1 + i,
                        container=name,
                        type=kind,
                        signature=f"{prop}: {short(value)}",
                    )
                )
        self.guid_refs(doc, name, "Material")

    def animator_controller(self, doc: _Doc) -> None:
        name = doc.top("m_Name") or ""
        self.symbols.append(Symbol("animator_controller", name, doc.line))
        for entry in _list_entries(doc.block("m_AnimatorParameters")):
            pname = entry.get("m_Name", "")
            if pname:
                ptype = _PARAM_TYPES.get(entry.get("m_Type", ""), entry.get("m_Type", ""))
                self.symbols.append(
                    Symbol("animator_parameter", pname, doc.line + 1 + int(entry["_line"]), container=name, type=ptype)
                )
        for entry in _list_entries(doc.block("m_AnimatorLayers")):
            lname = entry.get("m_Name", "")
            if lname:
                self.symbols.append(Symbol("animator_layer", lname, doc.line + 1 + int(entry["_line"]), container=name))
        self.guid_refs(doc, name, "AnimatorController")

    def animator_state(self, doc: _Doc) -> None:
        name = doc.top("m_Name") or ""
        _, motion = doc.top_ref("m_Motion")
        self.symbols.append(Symbol("animator_state", name, doc.line, detail=motion))
        self.guid_refs(doc, name, "AnimatorState")

    def animation_clip(self, doc: _Doc) -> None:
        name = doc.top("m_Name") or ""
        self.symbols.append(Symbol("animation_clip", name, doc.line))
        lines = doc.lines()
        for i, line in enumerate(lines):
            s = line.strip()
            if s.startswith("functionName:"):
                fn = unquote(s[len("functionName:") :])
                if fn:
                    self.refs.append(Ref("animation_event", fn, doc.line + 1 + i, context="m_Events", detail=name))
        self.guid_refs(doc, name, "AnimationClip")


# ---------------------------------------------------------------------------------------------
# helpers over document lines


def _modification_ref(doc: _Doc, key: str, guid: bool = False) -> int | str:
    """A reference under `m_Modification:` (2018.3+) or at the top level (legacy / m_SourcePrefab)."""
    m = re.search(rf"^ *{key}: (\{{[^}}\n]*\}})", doc.body, re.M)
    if not m:
        return "" if guid else 0
    r = _REF.match(m.group(1))
    if not r:
        return "" if guid else 0
    return (r.group(2) or "").lower() if guid else int(r.group(1))


def _instance_name(doc: _Doc) -> str:
    """The name a prefab instance shows: an `m_Name` override, else unknown here (empty)."""
    m = _NAME_OVERRIDE.search(doc.body)
    return unquote(m.group(1)) if m else ""


def _is_noise_override(prop: str) -> bool:
    """Transform bookkeeping every instance overrides; it says nothing about the game."""
    return prop.startswith(
        (
            "m_LocalRotation",
            "m_LocalEulerAnglesHint",
            "m_RootOrder",
            "m_AnchorM",
            "m_SizeDelta",
            "m_AnchoredPosition",
            "m_Pivot",
        )
    )


def _owner_key(lines: list[str], idx: int) -> str:
    """The mapping key a value on line `idx` belongs to: on that line, else the nearest key above
    with a smaller indentation (list items under `m_Materials:` belong to `m_Materials`)."""
    line = lines[idx]
    m = _KEY.match(line)
    if m and m.group(3) and m.group(4) is not None and "{" in (m.group(4) or ""):
        return unquote(m.group(3))
    indent = len(line) - len(line.lstrip(" "))
    for back in range(idx - 1, -1, -1):
        prev = lines[back]
        lead = len(prev) - len(prev.lstrip(" "))
        if lead < indent or (
            lead == indent and not prev.lstrip(" ").startswith("- ") and line.lstrip().startswith("- ")
        ):
            m = _KEY.match(prev)
            if m and m.group(3):
                return unquote(m.group(3))
            indent = min(indent, lead)
    return ""


def _summarize(value: str, nested: list[str]) -> str:
    """A short, readable value: scalars as written, references as guid:/fileID:, blocks counted."""
    if value:
        if value.startswith("{"):
            m = _REF.fullmatch(value)
            if m:
                if m.group(2):
                    guid = m.group(2).lower()
                    return "built-in resource" if guid in BUILTIN_GUIDS else f"guid:{guid}"
                return "None" if m.group(1) == "0" else f"&{m.group(1)}"
            return short(value)
        if value == "[]":
            return "[]"
        return short(unquote(value))
    if not nested:
        return '""'
    if any("m_PersistentCalls:" in n for n in nested[:2]):
        calls = sum(1 for n in nested if n.lstrip().startswith("- m_Target:"))
        return f"UnityEvent ({calls} call{'s' if calls != 1 else ''})"
    first = nested[0]
    first_indent = len(first) - len(first.lstrip(" "))
    if first.lstrip().startswith("- "):
        items = sum(1 for n in nested if n.startswith(" " * first_indent + "- "))
        return f"[{items} item{'s' if items != 1 else ''}]"
    keys = [
        unquote(m.group(3))
        for n in nested
        if (len(n) - len(n.lstrip(" "))) == first_indent and (m := _KEY.match(n)) and m.group(3)
    ]
    return short("{" + ", ".join(keys[:6]) + (", …" if len(keys) > 6 else "") + "}")


def _list_entries(block: list[tuple[int, str]]) -> list[dict[str, str]]:
    """Entries of a block sequence of mappings, as flat {key: value}, plus `_line` (index in doc)."""
    entries: list[dict[str, str]] = []
    if not block:
        return entries
    first = block[0][1]
    item_indent = len(first) - len(first.lstrip(" "))
    for idx, line in block:
        lead = len(line) - len(line.lstrip(" "))
        s = line.strip()
        if lead == item_indent and s.startswith("- "):
            entries.append({"_line": str(idx)})
            s = s[2:]
        elif lead != item_indent + 2 or not entries:
            continue
        m = _ENTRY_KEY.match(s)
        if m:
            entries[-1].setdefault(m.group(1), unquote(m.group(2) or ""))
    return entries


def _calls(lines: list[str], start: int, indent: int):
    """Each persistent call under an `m_PersistentCalls:` at `indent`:
    (target fileID, type name, method, mode, argument, line offset)."""
    i = start
    while i < len(lines):
        line = lines[i]
        lead = len(line) - len(line.lstrip(" "))
        if line.strip() and lead <= indent:
            return
        s = line.strip()
        if s.startswith("- m_Target:"):
            m = _REF.search(s)
            target = int(m.group(1)) if m else 0
            fields: dict[str, str] = {}
            j = i + 1
            item_indent = lead
            while j < len(lines):
                nxt = lines[j]
                nl = len(nxt) - len(nxt.lstrip(" "))
                if nxt.strip() and (nl <= item_indent):
                    break
                t = nxt.strip()
                km = _CALL_KEY.match(t)
                if km:
                    key, value = km.group(1), (km.group(2) or "").strip()
                    # a wrapped plain scalar continues on deeper lines without a key
                    k = j + 1
                    while value and k < len(lines) and not _CALL_KEY_START.match(lines[k]) and lines[k].strip():
                        if len(lines[k]) - len(lines[k].lstrip(" ")) <= nl:
                            break
                        value += " " + lines[k].strip()
                        k += 1
                    fields.setdefault(key, value)
                j += 1
            type_name = unquote(fields.get("m_TargetAssemblyTypeName", "")).split(",", 1)[0].strip()
            mode = fields.get("m_Mode", "")
            arg = unquote(fields.get(_ARGUMENT_KEYS.get(mode, ""), "")) if mode in _ARGUMENT_KEYS else ""
            if mode == "2":
                om = _REF.search(fields.get("m_ObjectArgument", ""))
                arg = f"guid:{om.group(2).lower()}" if om and om.group(2) else ""
            yield target, type_name, unquote(fields.get("m_MethodName", "")), mode, arg, i
            i = j
            continue
        i += 1
