"""What is known only across files: each type's Unity role, by following base classes.

Recomputed over all type rows after every update: a dictionary pass over a few thousand rows,
cheaper than tracking which roles a change could affect (a renamed base class changes the role of
every class below it, in any file).
"""

from __future__ import annotations

from collections.abc import Generator

from indexer.model import TypeRow
from indexer.unity import UNITY_BASES, bare_type_name


def categorize(types: list[TypeRow]) -> dict[tuple[str, str], str]:
    """(path, qualified) -> role: monobehaviour, scriptableobject, editor, editor_window,
    property_drawer, test, or the declaration kind (class, struct, interface, ...)."""
    roles = _Roles(types)
    return {(t.path, t.qualified): roles.role(t) for t in types}


RoleSteps = Generator[TypeRow, str, str]  # yields a base type whose role it needs, gets the role


class _Roles:
    """Roles by following base classes, without recursion: a chain of thousands of classes (a
    generated or hostile project) must not exhaust Python's stack."""

    def __init__(self, types: list[TypeRow]):
        self.by_name: dict[str, list[TypeRow]] = {}
        for t in types:
            self.by_name.setdefault(t.name, []).append(t)
        self.memo: dict[tuple[str, str], str] = {}
        self.in_progress: set[tuple[str, str]] = set()

    def role(self, t: TypeRow) -> str:
        key = (t.path, t.qualified)
        if key in self.memo:
            return self.memo[key]
        self.in_progress.add(key)
        stack: list[tuple[tuple[str, str], RoleSteps]] = [(key, self._steps(t, key))]
        answer: str | None = None
        while stack:
            top_key, steps = stack[-1]
            try:
                need = steps.send(answer)  # type: ignore[arg-type]  # None starts a generator
            except StopIteration as done:
                answer = self.memo[top_key] = done.value
                self.in_progress.discard(top_key)
                stack.pop()
                continue
            need_key = (need.path, need.qualified)
            if need_key in self.memo:
                answer = self.memo[need_key]
            elif need_key in self.in_progress:  # a cycle of base classes (invalid C#, or two types of one name)
                answer = "class"
            else:
                self.in_progress.add(need_key)
                stack.append((need_key, self._steps(need, need_key)))
                answer = None
        return self.memo[key]

    def _steps(self, t: TypeRow, key: tuple[str, str]) -> RoleSteps:
        if t.kind != "class":
            return t.kind
        if t.test:
            return "test"
        # Partial classes may declare the base in another part: every part of the type counts.
        parts = [t]
        if t.partial:
            parts = [p for p in self.by_name.get(t.name, ()) if p.container == t.container and p.kind == "class"]
        for base in (b for part in parts for b in part.bases):
            name = bare_type_name(base)
            if name in UNITY_BASES:
                return UNITY_BASES[name]
            for base_t in self.by_name.get(name, ()):
                if base_t.kind == "class" and (base_t.path, base_t.qualified) != key:
                    r = yield base_t
                    if r not in ("class", "test"):
                        return r
        return "class"
