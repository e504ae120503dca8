"""What is known only across files: each type's Unity role, by following base classes.

Recomputed over all type rows after every update: a dictionary pass over a few thousand rows,
cheaper than tracking which roles a change could affect (a renamed base class changes the role of
every class below it, in any file).
"""

from __future__ import annotations

from indexer.model import TypeRow
from indexer.unity import UNITY_BASES, bare_type_name


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
