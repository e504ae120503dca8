"""Which assembly each folder's scripts compile into: the folder of an asmdef, and a folder an
asmref joins to an asmdef elsewhere (Unity's rule: the nearest of either above a script decides).
Read by the graph (`assembly_of`) and by the editor prior, so both follow asmrefs alike."""

from __future__ import annotations

from typing import NamedTuple

from indexer.store.reader import Records
from indexer.unity import STREAMING_ASSETS, editor_only_assembly, nearest_assembly


class AssemblyFolder(NamedTuple):
    name: str  # the assembly's name (an asmref's target as written when no asmdef has it)
    file: str  # the asmdef or asmref deciding it
    editor: bool  # compiled for the editor alone (an asmref: whatever its asmdef says)


def named_asmdefs(records: Records) -> tuple[list[AssemblyFolder], dict[str, AssemblyFolder]]:
    """Every asmdef with a name (by path), and how an asmdef or asmref names one -> it: by its
    name (the first by path, when two define one) or by `GUID:<guid>` of its .meta."""
    asmdefs: list[AssemblyFolder] = []
    by_target: dict[str, AssemblyFolder] = {}
    for rec in records.asmdefs:
        sym = next((s for s in rec.symbols if s.kind == "assembly"), None)
        if sym is None or not sym.name:
            continue
        entry = AssemblyFolder(sym.name, rec.path, editor_only_assembly(sym.attributes))
        asmdefs.append(entry)
        by_target.setdefault(sym.name, entry)
        guid = records.guid_naming(rec.path)
        if guid:
            by_target[f"GUID:{guid}"] = entry
    return asmdefs, by_target


def assembly_folders(records: Records) -> dict[str, AssemblyFolder]:
    """Folder (no trailing slash) -> the assembly its scripts compile into. An asmref names its
    asmdef by `GUID:<guid>` or by name; an asmdef in the same folder wins over an asmref."""
    asmdefs, by_target = named_asmdefs(records)
    folders = {entry.file.rpartition("/")[0]: entry for entry in asmdefs}
    for rec in records.records("asmref"):
        for ref in rec.refs:
            if ref.kind == "assembly":
                target = by_target.get(ref.target)
                entry = AssemblyFolder(target.name if target else ref.target, rec.path, bool(target and target.editor))
                folders.setdefault(rec.path.rpartition("/")[0], entry)
    return folders


# The assemblies Unity compiles the scripts outside every asmdef into (`assembly_of`).
PREDEFINED_ASSEMBLIES = frozenset(
    f"Assembly-CSharp{editor}{firstpass}" for editor in ("", "-Editor") for firstpass in ("", "-firstpass")
)


def assembly_of(path: str, folders: dict[str, tuple[str, str]]) -> tuple[str, str]:
    """The assembly a script compiles into, and the asmdef/asmref deciding it ('' for Unity's
    predefined assemblies), following Unity's rules: the nearest asmdef or asmref above the file
    (`folders`: folder -> (name, file)); else Assembly-CSharp, -Editor for Editor folders,
    -firstpass for Plugins and Standard Assets."""
    if path.startswith(STREAMING_ASSETS):
        return "", ""
    if (owner := nearest_assembly(path, folders)) is not None:
        return owner
    if not path.startswith("Assets/"):
        return "", ""  # package scripts without an asmdef are not compiled
    parts = path.split("/")[1:-1]
    firstpass = bool(parts) and parts[0] in ("Plugins", "Standard Assets", "Pro Standard Assets")
    editor = "Editor" in parts
    name = "Assembly-CSharp" + ("-Editor" if editor else "") + ("-firstpass" if firstpass else "")
    return name, ""


# Which of Unity's predefined assemblies a script in one of them can reference (the compilation
# order: firstpass, then the main assembly, each Editor one after its runtime one).
_PREDEFINED_SEES = {
    "Assembly-CSharp-firstpass": {"Assembly-CSharp-firstpass"},
    "Assembly-CSharp-Editor-firstpass": {"Assembly-CSharp-firstpass", "Assembly-CSharp-Editor-firstpass"},
    "Assembly-CSharp": {"Assembly-CSharp-firstpass", "Assembly-CSharp"},
    "Assembly-CSharp-Editor": set(PREDEFINED_ASSEMBLIES),
}


def may_see_predefined(script: tuple[str, str], home: str) -> bool:
    """Whether a script in the assembly `script` (name, the asmdef deciding it, '' for a predefined
    one) may use a type of the predefined assembly `home`: an asmdef's never can (a sample's
    `player.TakeDamage()` in Zenject's assembly is no usage of the game's `EnemyHealth`)."""
    name, defined_by = script
    if defined_by:
        return False
    return home in _PREDEFINED_SEES.get(name, {home})
