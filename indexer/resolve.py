"""What is known only across files: the GUID map, each type's Unity role, each script's class.

Runs over the whole manifest after every update; it is a few dictionary passes, fast enough to
redo from scratch, so there is no incremental bookkeeping to get wrong.
"""

from __future__ import annotations

import os

from .model import FileRecord, Manifest, Symbol

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
    "EditorWindow": "editor_window",
    "ScriptableWizard": "editor_window",
    "SettingsProvider": "editor",
    "PropertyDrawer": "property_drawer",
    "DecoratorDrawer": "property_drawer",
}
TEST_ATTRIBUTES = frozenset({"TestFixture", "Test", "UnityTest", "TestCase", "TestCaseSource"})


def bare_type_name(written: str) -> str:
    """`UnityEngine.MonoBehaviour` -> MonoBehaviour; `Singleton<GameManager>` -> Singleton."""
    return written.split("<", 1)[0].strip().rsplit(".", 1)[-1]


def attribute_name(written: str) -> str:
    name = written.split("(", 1)[0].strip().rsplit(".", 1)[-1]
    return name[:-9] if name.endswith("Attribute") and len(name) > 9 else name


def type_key(path: str, symbol: Symbol) -> str:
    return f"{path}::{symbol.qualified}"


def resolve(manifest: Manifest) -> None:
    files = manifest.files
    manifest.guid_paths = _guid_paths(files)
    types_by_name: dict[str, list[tuple[str, Symbol]]] = {}
    for path, rec in files.items():
        for s in rec.symbols:
            if s.is_type:
                types_by_name.setdefault(s.name, []).append((path, s))
    categories: dict[str, str] = {}
    for defs in types_by_name.values():
        for path, s in defs:
            categories[type_key(path, s)] = _category(s, path, files, types_by_name, set())
    manifest.type_categories = categories
    manifest.script_types = {
        path: main for path, rec in files.items() if rec.kind == "csharp" and (main := _main_type(rec))
    }


def _guid_paths(files: dict[str, FileRecord]) -> dict[str, str]:
    out: dict[str, str] = {}
    for path, rec in files.items():
        if rec.kind == "meta" and rec.guid:
            out[rec.guid] = path[:-5]
    return out


def _category(
    s: Symbol,
    path: str,
    files: dict[str, FileRecord],
    types_by_name: dict[str, list[tuple[str, Symbol]]],
    seen: set[str],
) -> str:
    if s.kind != "class":
        return s.kind
    if any(attribute_name(a) in TEST_ATTRIBUTES for a in s.attributes) or _has_test_members(s, files[path]):
        return "test"
    for base in s.bases:
        name = bare_type_name(base)
        if name in UNITY_BASES:
            return UNITY_BASES[name]
        if name in seen:
            continue
        # A project type of that name: follow its own bases (partial classes may declare the base
        # in another part, so every definition of the name is tried).
        for base_path, base_sym in types_by_name.get(name, ()):
            if base_sym.kind == "class":
                cat = _category(base_sym, base_path, files, types_by_name, seen | {name})
                if cat != "class":
                    return cat
    if "partial" in s.modifiers:
        for other_path, other in types_by_name.get(s.name, ()):
            if other is not s and other.container == s.container and other.bases and s.name not in seen:
                cat = _category(other, other_path, files, types_by_name, seen | {s.name})
                if cat != "class":
                    return cat
    return "class"


def _has_test_members(s: Symbol, rec: FileRecord) -> bool:
    q = s.qualified
    return any(
        m.container == q and m.kind == "method" and any(attribute_name(a) in TEST_ATTRIBUTES for a in m.attributes)
        for m in rec.symbols
    )


def _main_type(rec: FileRecord) -> str:
    """The class Unity binds the script asset to: the top-level type named like the file."""
    stem = os.path.splitext(os.path.basename(rec.path))[0]
    for s in rec.symbols:
        if s.is_type and s.name == stem:
            return s.qualified
    return ""
