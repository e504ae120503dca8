"""Unity's own names, shared by indexing and answering: the base types that give a class its role,
the methods Unity calls by name, and how a written type name reduces to its simple name."""

from __future__ import annotations

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
