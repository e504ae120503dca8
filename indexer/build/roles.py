"""What is known only across files: each type's Unity role, by following base classes.

Recomputed over all type rows after every update: a dictionary pass over a few thousand rows,
cheaper than tracking which roles a change could affect (a renamed base class changes the role of
every class below it, in any file).
"""

from __future__ import annotations

from indexer.store import TypeRow

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


def is_unity_message(method_name: str, container_role: str | None) -> bool:
    """A method Unity calls by name: unused-looking code that must not be renamed or removed."""
    return container_role in UNITY_OBJECT_ROLES and method_name in UNITY_MESSAGES


def bare_type_name(written: str) -> str:
    """`UnityEngine.MonoBehaviour` -> MonoBehaviour; `Singleton<GameManager>` -> Singleton."""
    return written.split("<", 1)[0].strip().rsplit(".", 1)[-1]


def categorize(types: list[TypeRow]) -> dict[tuple[str, str], str]:
    """(path, qualified) -> role: monobehaviour, scriptableobject, editor, editor_window,
    property_drawer, test, or the declaration kind (class, struct, interface, ...)."""
    by_name: dict[str, list[TypeRow]] = {}
    for t in types:
        by_name.setdefault(t.name, []).append(t)
    memo: dict[tuple[str, str], str] = {}
    in_progress: set[tuple[str, str]] = set()

    def role(t: TypeRow) -> str:
        key = (t.path, t.qualified)
        if key in memo:
            return memo[key]
        if t.kind != "class":
            return t.kind
        if t.test:
            return "test"
        if key in in_progress:  # a cycle of base classes (invalid C#, or two types of one name)
            return "class"
        in_progress.add(key)
        result = "class"
        # Partial classes may declare the base in another part: every part of the type counts.
        parts = [t]
        if t.partial:
            parts = [p for p in by_name.get(t.name, ()) if p.container == t.container and p.kind == "class"]
        for part in parts:
            for base in part.bases:
                name = bare_type_name(base)
                if name in UNITY_BASES:
                    result = UNITY_BASES[name]
                    break
                for base_t in by_name.get(name, ()):
                    if base_t.kind == "class" and (base_t.path, base_t.qualified) != key:
                        r = role(base_t)
                        if r not in ("class", "test"):
                            result = r
                            break
                if result != "class":
                    break
            if result != "class":
                break
        in_progress.discard(key)
        memo[key] = result
        return result

    return {(t.path, t.qualified): role(t) for t in types}
