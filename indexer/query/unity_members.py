"""The members a project script inherits from Unity's own classes, which UnityEvents call on its
objects (a property by its setter, `set_name`) and code names, though no project file declares
them: `refs Gun.SendMessage` said "neither it nor a base class declares SendMessage; UnityEvent
calls still name it, bound to nothing" of a call Unity makes. One table for `refs` (`type_tree`)
and for the calls an outline marks missing (`calls`).
"""

from __future__ import annotations

# member -> the Unity class declaring it (those a persistent call can name: no parameter or one of
# a kind the inspector offers)
DECLARER = {
    "name": "Object", "hideFlags": "Object", "ToString": "Object", "GetInstanceID": "Object",
    "tag": "Component", "SendMessage": "Component", "SendMessageUpwards": "Component",
    "BroadcastMessage": "Component", "CompareTag": "Component", "GetComponent": "Component",
    "enabled": "Behaviour",
    "CancelInvoke": "MonoBehaviour", "StopAllCoroutines": "MonoBehaviour", "StartCoroutine": "MonoBehaviour",
    "StopCoroutine": "MonoBehaviour", "IsInvoking": "MonoBehaviour", "useGUILayout": "MonoBehaviour",
    "runInEditMode": "MonoBehaviour",
}  # fmt: skip
PROPERTIES = frozenset({"name", "hideFlags", "tag", "enabled", "useGUILayout", "runInEditMode"})
# The names a persistent call stores for them: a property by its setter.
CALLABLE = frozenset(f"set_{m}" if m in PROPERTIES else m for m in DECLARER)

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
