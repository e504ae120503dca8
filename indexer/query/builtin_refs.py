"""Usages of a class built into Unity (`NavMeshAgent`, `Rigidbody`, `AudioSource`): the objects of
the project's scenes and prefabs carrying one, and the code naming it.

No script GUID ties such a component to anything (its document names its class by ID), so `refs
NavMeshAgent` exited "no type, member, file, GUID or assembly of that name" while nine lines of
code used it and a prefab carried it; Rider lists both. The objects are read from the records'
symbols (not their references: a third of a scene's decoding), at most MAX_FILES files, said so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.model import Target, Usage

if TYPE_CHECKING:
    from indexer.query.graph import Graph

MAX_FILES = 5000  # scenes and prefabs whose objects are read for one answer
_CARRIERS = ("scene", "prefab")
# Classes of Unity's scripting API no scene or prefab serializes by a class ID (static ones, base
# classes, values): `refs Physics2D` lists the code naming it (a trial's 17 lines exited 2).
SCRIPTING_CLASSES = frozenset(
    """Physics Physics2D Input LayerMask Time Mathf Random Debug Application Screen Cursor Gizmos
    Resources PlayerPrefs SceneManager Scene Collider2D Component ScriptableObject Object Coroutine
    WaitForSeconds WaitForSecondsRealtime WaitForEndOfFrame WaitForFixedUpdate WaitUntil WaitWhile Ray
    Ray2D RaycastHit RaycastHit2D Collision Collision2D ContactPoint ContactPoint2D Touch KeyCode ForceMode
    ForceMode2D Vector2 Vector3 Vector4 Vector2Int Vector3Int Quaternion Color Color32 Bounds Rect Matrix4x4
    AnimationCurve Gradient Texture Sprite Material Shader Mesh AudioClip AnimationClip GUI GUILayout
    Graphics QualitySettings Handheld JsonUtility""".split()  # noqa: SIM905
)


def builtin_target(graph: Graph, name: str) -> Target | None:
    """A class built into Unity that no project type shadows, by its simple name, else None."""
    from indexer.unity_classes import CLASS_NAMES  # only for a name nothing else is

    if graph.types_named(name):
        return None
    if name in SCRIPTING_CLASSES and name not in set(CLASS_NAMES.values()):
        note = "a class of Unity's scripting API: the code naming it"
    elif name in set(CLASS_NAMES.values()):
        note = "a class built into Unity: the objects carrying it and the code naming it"
    else:
        return None
    return Target(kind="builtin", name=name, types=[f"UnityEngine.{name}"], note=note)


def builtin_member_target(graph: Graph, text: str) -> Target | None:
    """`AudioSource.Play`, `GameObject.SetActive`, `Image.set_sprite`: a member of Unity's own class
    (or of a common package's component) that no project type shadows, which a UnityEvent call
    names on such an object (Unity's inspector offers only members that exist); else None. It
    exited "no type, member, file, GUID or assembly of that name" while buttons called it."""
    owner, _, member = text.strip().removesuffix("()").rpartition(".")
    bare = owner.rsplit(".", 1)[-1]
    if not bare or not member.isidentifier() or graph.types_named(bare):
        return None
    prop = member[4:] if member.startswith("set_") and len(member) > 4 else member  # a property's setter
    classes = sorted({u.resolved.rpartition(".")[0] for u in _member_calls(graph, [owner], prop)})
    if not classes:
        return None
    note = (
        f"{prop} is Unity's {bare}.{prop}, no member of the project's code: the UnityEvent calls on {bare}"
        f" objects (code calling it is not listed: `unity-index query {bare}.{prop}` searches the text)"
    )
    return Target(kind="builtin", name=f"{owner}.{prop}", member=prop, types=classes, note=note)


def _member_calls(graph: Graph, owners: list[str], member: str) -> list[Usage]:
    """The UnityEvent calls on `member` (or its setter) of a class of Unity or of a package named
    as one of `owners` (simple, or qualified as the call stores it), no project script's."""
    from indexer.query.call_objects import call_parts
    from indexer.store.schema import REF_TARGET

    sql = f"SELECT f.path, r.line, {REF_TARGET}, r.context, r.detail FROM refs r JOIN files f ON f.id = r.file_id"
    sql += " WHERE r.kind = 'method' AND r.key IN (?, ?)"
    out = []
    for path, line, stored, context, detail in graph.records.conn.execute(sql, (member, f"set_{member}")):
        cls, method = call_parts(graph, stored)
        if cls.startswith("script:"):  # the target object's script: a package's component, or the project's
            cls = graph.package_scripts.get(cls[len("script:") :], ("",))[0]
        elif not cls.startswith("UnityEngine."):
            continue
        if cls and any(cls == o or cls.endswith(f".{o}") for o in owners):
            said = graph.readable(detail)
            out.append(Usage(path, line, "asset", "method", context, said, resolved=f"{cls}.{method}"))
    return out


def builtin_usages(graph: Graph, target: Target) -> list[Usage]:
    """Code lines naming the class (as no project type) and the objects carrying it as a component;
    of a member (`builtin_member_target`), the UnityEvent calls on it."""
    if target.member:
        return _member_calls(graph, target.types, target.member)
    name = target.name
    sql = (
        "SELECT f.path, r.line, r.context FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.kind = 'type' AND r.key = ? AND f.kind = 'csharp'"
    )
    out = [
        Usage(path, line, "code", "type", context, graph.source_line(path, line))
        for path, line, context in graph.records.conn.execute(sql, (name,)).fetchall()
    ]  # no project type has the name (builtin_target)
    carriers = [p for kind in _CARRIERS for p in graph.records.paths_of_kind(kind)]
    for path in carriers[:MAX_FILES]:
        for s in graph.records.symbols(path):
            if s.kind == "component" and s.name == name:
                out.append(Usage(path, s.line, "asset", "component", name, f"{s.container} > {name}"))
    if len(carriers) > MAX_FILES:
        target.note += f"; objects read from the first {MAX_FILES} of {len(carriers)} scenes and prefabs"
    return out
