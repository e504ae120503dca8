"""GameObject paths of a scene or prefab: through Transform parents and prefab instances.

A node of the hierarchy is a GameObject's fileID, or a PrefabInstance's for the objects of an
instance (its stripped objects stand for it). A path is the names from the root down, joined by
"/"; an object without a known name shows as `&<fileID>`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .yaml_facts import DocReader

TRANSFORMS = (4, 224)


class Hierarchy:
    def __init__(self, docs: Sequence[DocReader]) -> None:
        self.go_of_transform: dict[int, int] = {}
        self.father: dict[int, int] = {}  # transform -> parent transform
        self.transform_of_go: dict[int, int] = {}
        self.instance_of: dict[int, int] = {}  # stripped object -> its PrefabInstance
        self.instance_parent: dict[int, int] = {}  # PrefabInstance -> parent transform
        self.names: dict[int, str] = {}
        self.behaviour_state: dict[int, str] = {}  # StateMachineBehaviour -> its animator state
        self._paths: dict[int, str] = {}
        for doc in docs:
            self._add(doc)
        self._number_siblings()

    def _number_siblings(self) -> None:
        """Same-named siblings (four root objects all called `----------`) are told apart: the
        second is `name #2`, the third `name #3` (in file order), so their paths, components and
        flags do not merge into one object."""
        groups: dict[tuple[int, str], list[int]] = {}
        for node, name in self.names.items():
            if name:
                groups.setdefault((self.parent_node(node), name), []).append(node)
        for (_parent, name), nodes in groups.items():
            for n, node in enumerate(nodes[1:], 2):
                self.names[node] = f"{name} #{n}"

    def _add(self, doc: DocReader) -> None:
        cid = doc.class_id
        if cid in (1102, 1107):
            ids = doc.block_ref_ids("m_StateMachineBehaviours")
            if ids:
                state = doc.top("m_Name") or doc.class_name
                for file_id in ids:
                    self.behaviour_state[file_id] = state
        if doc.stripped:
            inst, _ = doc.top_ref("m_PrefabInstance")
            if not inst:
                inst, _ = doc.top_ref("m_PrefabInternal")
            if inst:
                self.instance_of[doc.file_id] = inst
        if cid in TRANSFORMS:
            go, _ = doc.top_ref("m_GameObject")
            self.go_of_transform[doc.file_id] = go
            self.transform_of_go[go] = doc.file_id
            father, _ = doc.top_ref("m_Father")
            if father:
                self.father[doc.file_id] = father
        elif cid == 1 and not doc.stripped:
            self.names[doc.file_id] = doc.top("m_Name") or ""
        elif cid == 1001:
            parent, _ = doc.first_ref("m_TransformParent")
            if parent:
                self.instance_parent[doc.file_id] = parent
            self.names[doc.file_id] = doc.instance_name()

    def node_of_transform(self, transform: int) -> int:
        """The hierarchy node a transform stands for: its GameObject, or the prefab instance."""
        if transform in self.instance_of:
            return self.instance_of[transform]
        go = self.go_of_transform.get(transform, 0)
        return self.instance_of.get(go, go)

    def parent_node(self, node: int) -> int:
        if node in self.instance_parent:
            return self.node_of_transform(self.instance_parent[node])
        tf = self.transform_of_go.get(node)
        if tf is None or tf not in self.father:
            return 0
        return self.node_of_transform(self.father[tf])

    def path_of(self, node: int) -> str:
        """The node's path. Built once per node from its parent's path (no walk to the root per
        node, no recursion: an 8,000-deep chain costs what its paths are long). In a cycle of
        parents (a broken file) each node's path runs up the cycle until it comes back to itself."""
        if node in self._paths:
            return self._paths[node]
        chain: list[int] = []
        at: dict[int, int] = {}
        cur = node
        while cur and cur not in self._paths and cur not in at:
            at[cur] = len(chain)
            chain.append(cur)
            cur = self.parent_node(cur)
        if cur in at:  # a cycle: chain[at[cur]:] loops back to cur
            for n in chain[at[cur] :]:
                self._paths[n] = self._walked(n)
            chain = chain[: at[cur]]
        for n in reversed(chain):
            parent = self.parent_node(n)
            name = self.names.get(n) or f"&{n}"
            self._paths[n] = f"{self._paths[parent]}/{name}" if parent else name
        return self._paths[node]

    def _walked(self, node: int) -> str:
        """The path by walking up until a node repeats (for the nodes of a cycle)."""
        parts: list[str] = []
        seen: set[int] = set()
        cur = node
        while cur and cur not in seen:
            seen.add(cur)
            parts.append(self.names.get(cur) or f"&{cur}")
            cur = self.parent_node(cur)
        return "/".join(reversed(parts))

    def parent_path(self, node: int) -> str | None:
        """The path of the node's parent when the node's path is that plus its name, else None
        (a root, a node of a cycle): lets a container share the parent's string."""
        parent = self.parent_node(node)
        path = self.path_of(node)
        if not parent or "/" in (self.names.get(node) or ""):
            return None
        above = self.path_of(parent)
        return above if len(path) == len(above) + 1 + len(self.names.get(node) or f"&{node}") else None
