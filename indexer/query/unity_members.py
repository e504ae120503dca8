"""The members a project script inherits from Unity's own classes, which UnityEvents call on its
objects (a property by its setter, `set_name`) and code names, though no project file declares
them: `refs Gun.SendMessage` said "neither it nor a base class declares SendMessage; UnityEvent
calls still name it, bound to nothing" of a call Unity makes, and `refs Gun.transform` "neither
it nor a base class declares transform". One table for `refs` (`type_tree`) and for the calls an
outline marks missing (`calls`).
"""

from __future__ import annotations

# member -> the Unity class declaring it: the members a script's code uses most (statics of Object
# included, which code names through the script's class too) and those a persistent call can name
# (no parameter or one of a kind the inspector offers)
DECLARER = {
    "name": "Object", "hideFlags": "Object", "ToString": "Object", "GetInstanceID": "Object",
    "Destroy": "Object", "DestroyImmediate": "Object", "Instantiate": "Object", "DontDestroyOnLoad": "Object",
    "FindObjectOfType": "Object", "FindObjectsOfType": "Object", "FindFirstObjectByType": "Object",
    "FindAnyObjectByType": "Object", "FindObjectsByType": "Object",
    "gameObject": "Component", "transform": "Component", "tag": "Component", "CompareTag": "Component",
    "SendMessage": "Component", "SendMessageUpwards": "Component", "BroadcastMessage": "Component",
    "GetComponent": "Component", "GetComponents": "Component", "TryGetComponent": "Component",
    "GetComponentInChildren": "Component", "GetComponentsInChildren": "Component",
    "GetComponentInParent": "Component", "GetComponentsInParent": "Component",
    "enabled": "Behaviour", "isActiveAndEnabled": "Behaviour",
    "Invoke": "MonoBehaviour", "InvokeRepeating": "MonoBehaviour", "CancelInvoke": "MonoBehaviour",
    "IsInvoking": "MonoBehaviour", "StartCoroutine": "MonoBehaviour", "StopCoroutine": "MonoBehaviour",
    "StopAllCoroutines": "MonoBehaviour", "print": "MonoBehaviour", "useGUILayout": "MonoBehaviour",
    "runInEditMode": "MonoBehaviour", "destroyCancellationToken": "MonoBehaviour",
}  # fmt: skip
PROPERTIES = frozenset({"name", "hideFlags", "tag", "enabled", "useGUILayout", "runInEditMode"})
# Those a UnityEvent's persistent call can name (a settable property, a method of no parameter or
# one the inspector offers), and the names it stores for them: a property by its setter.
EVENT_CALLABLE = frozenset({
    *PROPERTIES, "ToString", "GetInstanceID", "SendMessage", "SendMessageUpwards", "BroadcastMessage",
    "CompareTag", "GetComponent", "CancelInvoke", "StopAllCoroutines", "StartCoroutine", "StopCoroutine",
    "IsInvoking",
})  # fmt: skip
CALLABLE = frozenset(f"set_{m}" if m in PROPERTIES else m for m in EVENT_CALLABLE)

_MONO = ("Object", "Component", "Behaviour", "MonoBehaviour")
# Unity's classes a script's chain of bases ends in -> the classes of DECLARER it inherits from
ROOTS = {
    "MonoBehaviour": _MONO, "NetworkBehaviour": _MONO, "UIBehaviour": _MONO,
    "Behaviour": _MONO[:3], "Component": _MONO[:2],
    "ScriptableObject": _MONO[:1], "StateMachineBehaviour": _MONO[:1], "Object": _MONO[:1],
}  # fmt: skip


def unity_member(member: str) -> tuple[str, str] | None:
    """(member, declaring class) when `member`, or the property `set_member` sets, is one of
    DECLARER's; else None."""
    if member.startswith("set_") and member[4:] in PROPERTIES:
        member = member[4:]
    declarer = DECLARER.get(member)
    return (member, declarer) if declarer else None


def inherits(root: str, declarer: str) -> bool:
    """Whether a script whose chain ends in Unity's `root` inherits `declarer`'s members."""
    return declarer in ROOTS.get(root, ())
