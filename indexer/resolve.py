"""What is known only across files: each type's Unity role, by following base classes.

Recomputed over all type rows after every update: a dictionary pass over a few thousand rows,
cheaper than tracking which roles a change could affect (a renamed base class changes the role of
every class below it, in any file).
"""

from __future__ import annotations

from .store import TypeRow

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
