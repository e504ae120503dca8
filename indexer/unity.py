"""Unity's own names, shared by indexing and answering: the base types that give a class its role,
the methods Unity calls by name, and how a written type name reduces to its simple name."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, TypeVar

from indexer.project import is_scene

if TYPE_CHECKING:
    from indexer.model import Symbol

# Unity (and common package) base types and the role they give a class that derives from them.
UNITY_BASES: dict[str, str] = {
    "MonoBehaviour": "monobehaviour",
    "NetworkBehaviour": "monobehaviour",
    "UIBehaviour": "monobehaviour",
    "Selectable": "monobehaviour",
    "Graphic": "monobehaviour",
    "MaskableGraphic": "monobehaviour",
    "BaseMeshEffect": "monobehaviour",
    "ScriptableObject": "scriptableobject",
    "StateMachineBehaviour": "scriptableobject",
    "ScriptableSingleton": "scriptableobject",
    "Editor": "editor",
    "ShaderGUI": "editor",
    "AssetPostprocessor": "editor",
    "ScriptedImporter": "editor",
    "AssetImporterEditor": "editor",
    "ScriptedImporterEditor": "editor",
    "SettingsProvider": "editor",
    "EditorWindow": "editor_window",
    "ScriptableWizard": "editor_window",
    "PropertyDrawer": "property_drawer",
    "DecoratorDrawer": "property_drawer",
}


# Methods Unity calls by name (messages) on MonoBehaviours, ScriptableObjects and editor classes.
UNITY_MESSAGES = frozenset(
    """Awake Start Update FixedUpdate LateUpdate OnEnable OnDisable OnDestroy OnValidate Reset
    OnApplicationFocus OnApplicationPause OnApplicationQuit OnBecameVisible OnBecameInvisible
    OnCollisionEnter OnCollisionStay OnCollisionExit OnCollisionEnter2D OnCollisionStay2D
    OnCollisionExit2D OnTriggerEnter OnTriggerStay OnTriggerExit OnTriggerEnter2D OnTriggerStay2D
    OnTriggerExit2D OnControllerColliderHit OnJointBreak OnJointBreak2D OnParticleCollision
    OnParticleTrigger OnMouseDown OnMouseUp OnMouseUpAsButton OnMouseEnter OnMouseExit OnMouseOver
    OnMouseDrag OnAnimatorMove OnAnimatorIK OnAudioFilterRead OnDrawGizmos OnDrawGizmosSelected
    OnGUI OnPreCull OnPreRender OnPostRender OnRenderImage OnRenderObject OnWillRenderObject
    OnTransformChildrenChanged OnTransformParentChanged OnRectTransformDimensionsChange
    OnCanvasGroupChanged OnBeforeTransformParentChanged OnDidApplyAnimationProperties
    OnServerInitialized OnConnectedToServer OnStateEnter OnStateUpdate OnStateExit OnStateMove
    OnStateIK OnStateMachineEnter OnStateMachineExit OnInspectorGUI OnSceneGUI OnFocus OnLostFocus
    OnHierarchyChange OnProjectChange OnSelectionChange OnInspectorUpdate CreateInspectorGUI
    CreateGUI OnPreprocessBuild OnPostprocessBuild OnPostprocessAllAssets OnPreprocessAsset
    OnPreprocessTexture OnPostprocessTexture OnPreprocessModel OnPostprocessModel""".split()  # noqa: SIM905
)
UNITY_OBJECT_ROLES = frozenset({"monobehaviour", "scriptableobject", "editor", "editor_window", "property_drawer"})


T = TypeVar("T")


STREAMING_ASSETS = "Assets/StreamingAssets/"  # copied into the build as files: nothing in it is compiled


def nearest_assembly(path: str, folders: dict[str, T]) -> T | None:
    """What the nearest folder above `path` that `folders` holds (folders of asmdefs and asmrefs,
    without a trailing slash) says: Unity compiles a script into that folder's assembly."""
    if not folders:
        return None
    folder = path.rpartition("/")[0]
    while folder:
        if folder in folders:
            return folders[folder]
        folder = folder.rpartition("/")[0]
    return None


def editor_only_assembly(attributes: Iterable[str]) -> bool:
    """An asmdef's facts (`scanners.asmdef`) say it compiles for the editor alone."""
    return "includePlatforms: Editor" in attributes


# The parameters a message may take (Unity calls `OnCollisionEnter()` or `OnCollisionEnter(Collision)`);
# any other takes none: a `Reset(Card card)` of the game's own is no message Unity sends.
_MESSAGE_PARAMETERS = {
    **dict.fromkeys(
        """OnApplicationFocus OnApplicationPause OnCollisionEnter OnCollisionStay OnCollisionExit
        OnCollisionEnter2D OnCollisionStay2D OnCollisionExit2D OnTriggerEnter OnTriggerStay OnTriggerExit
        OnTriggerEnter2D OnTriggerStay2D OnTriggerExit2D OnControllerColliderHit OnJointBreak OnJointBreak2D
        OnParticleCollision OnAnimatorIK OnPostprocessTexture OnPostprocessModel""".split(),  # noqa: SIM905
        1,
    ),
    **dict.fromkeys(["OnAudioFilterRead", "OnRenderImage", "OnPreprocessBuild", "OnPostprocessBuild"], 2),
    **dict.fromkeys("OnStateEnter OnStateUpdate OnStateExit OnStateMove OnStateIK".split(), 4),  # noqa: SIM905
    **dict.fromkeys(["OnStateMachineEnter", "OnStateMachineExit"], 4),
    "OnPostprocessAllAssets": 5,
}


def is_unity_message(method_name: str, container_role: str | None, signature: str = "") -> bool:
    """A method Unity calls by name: unused-looking code that must not be renamed or removed. Given
    its `signature`, one taking more parameters than the message does is not it."""
    if container_role not in UNITY_OBJECT_ROLES or method_name not in UNITY_MESSAGES:
        return False
    return parameter_count(signature) <= _MESSAGE_PARAMETERS.get(method_name, 0)


def parameter_count(signature: str) -> int:
    """The parameters a method's signature declares (0 when it shows none): commas outside the
    brackets of generic and default arguments, `(Dictionary<int, string> d, int n = F(1, 2))`."""
    start = signature.find("(")
    if start < 0:
        return 0
    depth, count, seen = 0, 1, False
    for c in signature[start + 1 :]:
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            count += 1
        seen = seen or not c.isspace()
    return count if seen else 0


# The GUIDs of the resources built into Unity (an editor icon, the default material): its own, not missing.
BUILT_IN_RESOURCES = {
    "0000000000000000d000000000000000": "Unity's built-in editor resources",
    "0000000000000000e000000000000000": "Unity's built-in extra resources",
    "0000000000000000f000000000000000": "Unity's built-in default resources",
}


def built_in_resource(guid: str) -> str:
    """`guid:<guid> (Unity's built-in editor resources)` for a GUID of Unity's own resources, else ''."""
    said = BUILT_IN_RESOURCES.get(guid.lower())
    return f"guid:{guid} ({said})" if said else ""


# bare, as our output prints one (`guid:0a1b...`), as Unity writes one (`guid: 0a1b...`), or a
# whole reference copied from a scene or prefab (`{fileID: 11500000, guid: 0a1b..., type: 3}`)
_GUID_NAMED = re.compile(
    r"(?:guid:\s*)?([0-9a-f]{32})|\{\s*fileID:\s*-?[0-9]+,\s*guid:\s*([0-9a-f]{32}),\s*type:\s*[0-9]+\s*\}", re.I
)


def as_guid(text: str) -> str | None:
    """The GUID `text` is, in any of the forms above, lower-cased: an agent copies it from a file."""
    m = _GUID_NAMED.fullmatch(text.strip().strip("/"))
    return (m.group(1) or m.group(2)).lower() if m else None


def bare_type_name(written: str) -> str:
    """`UnityEngine.MonoBehaviour` -> MonoBehaviour; `Singleton<GameManager>` -> Singleton."""
    return written.split("<", 1)[0].strip().rsplit(".", 1)[-1]


def resources_key(path: str) -> str | None:
    """What `Resources.Load` names a file by: its path below the nearest folder named `Resources`,
    without the extension (`Assets/Art/Resources/UI/Bar.prefab` -> `UI/Bar`); None outside one."""
    _, sep, rest = path.rpartition("/Resources/")
    if not sep or not rest or rest.endswith((".meta", ".cs")):  # scripts are compiled, not loaded
        return None
    folder, slash, name = rest.rpartition("/")
    stem = name.rsplit(".", 1)[0] if "." in name else name
    return f"{folder}{slash}{stem}" if stem else None


SHADER_FILE_KINDS = ("shader", "shadergraph")
SHADER_SUFFIXES = (".shader", ".shadergraph")


def asset_keys(path: str, kind: str, symbols: Iterable[Symbol]) -> set[str]:
    """Every name code can load this file by: its Resources path, the shader names it declares."""
    key = resources_key(path)
    names = {s.name for s in symbols if s.kind == "shader"} if kind in SHADER_FILE_KINDS else set()
    return names | ({key} if key else set())


def scene_keys(path: str) -> set[str]:
    """What `SceneManager.LoadScene` names a scene by: its name, or its path (from `Assets/` or
    below it) without `.unity` (`Assets/Scenes/Dungeon.unity` -> `Dungeon`, `Scenes/Dungeon`,
    `Assets/Scenes/Dungeon`), as written in the file name; none for another file."""
    if not is_scene(path):
        return set()
    bare = path[: -len(".unity")]
    keys = {bare.rsplit("/", 1)[-1], bare}
    if bare.startswith("Assets/"):
        keys.add(bare[len("Assets/") :])
    return {k for k in keys if k}
