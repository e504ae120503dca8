"""GameObject paths of a scene or prefab: through Transform parents and prefab instances.

A node of the hierarchy is a GameObject's fileID, or a PrefabInstance's for the objects of an
instance (its stripped objects stand for it). A path is the names from the root down, joined by
"/"; an object without a known name shows as `&<fileID>`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from indexer.model import HIERARCHY_KINDS, Symbol
from indexer.shown import MAX_RECORDED_DEPTH, left_out_note

from .yaml_facts import DocReader

TRANSFORMS = (4, 224)
MAX_DEPTH = 10_000  # a chain of parents longer than this is a broken file's cycle
_INSTANCE_ORDER = re.compile(r"propertyPath: m_RootOrder\s+value: (\d+)")
# a GameObject's `m_Component` items, `- component: {fileID: N}` (`- 4: {fileID: N}` before Unity 5.5),
# each at a line's start: found from the line break before it (`^` in MULTILINE mode is tried at every
# character, the literal start searched for fast), the body's first line looked at alone
_COMPONENT = re.compile(r"^  - (?:component|\d+): \{fileID: (-?\d+)", re.M)
_COMPONENT_LINE = re.compile(r"\n" + _COMPONENT.pattern[1:])
_ADDED = re.compile(r"addedObject: \{fileID: (-?\d+)")  # an instance's `m_AddedComponents`, in order


class Hierarchy:
    def __init__(self, docs: Sequence[DocReader]) -> None:
        self.go_of_transform: dict[int, int] = {}
        self.father: dict[int, int] = {}  # transform -> parent transform
        self.transform_of_go: dict[int, int] = {}
        self.instance_of: dict[int, int] = {}  # stripped object -> its PrefabInstance
        self.instance_parent: dict[int, int] = {}  # PrefabInstance -> parent transform
        self.names: dict[int, str] = {}
        self._docs: dict[int, DocReader] = {}  # transforms and prefab instances: their order read if needed
        self.scene_roots: list[int] = []  # the root transforms, in order (Unity 2022+)
        self.line_of: dict[int, int] = {}  # node -> the line of its document
        self.component_rank: dict[str, tuple[int, int]] = {}  # a component's fileID -> its place
        self._paths: dict[int, str] = {}
        self._parents: dict[int, int] = {}
        self._depths: dict[int, int] = {}
        self.too_deep: set[int] = set()  # the nodes left out, over MAX_RECORDED_DEPTH (`deeper_than`)
        for doc in docs:
            self._add(doc)
        # a chain nested over MAX_RECORDED_DEPTH needs as many parent links: most files have fewer,
        # and skip the depth check each document's object asked (6% of Unity YAML scanning)
        self.may_be_deep = len(self.father) + len(self.instance_parent) >= MAX_RECORDED_DEPTH
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
            self._docs[doc.file_id] = doc
        elif cid == 1660057539:
            self.scene_roots = doc.block_ref_ids("m_Roots")
        elif cid == 1 and not doc.stripped:
            self.names[doc.file_id] = doc.top("m_Name") or ""
            self.line_of[doc.file_id] = doc.line
            for i, component in enumerate(components(doc.body)):
                self.component_rank[component] = (0, i)
        elif cid == 1001:
            self.line_of[doc.file_id] = doc.line
            self._docs[doc.file_id] = doc
            parent, _ = doc.first_ref("m_TransformParent")
            if parent:
                self.instance_parent[doc.file_id] = parent
            self.names[doc.file_id] = doc.instance_name()
            if "m_AddedComponents" in doc.body:  # (Unity 2022+) each after the source's own
                for i, added in enumerate(_ADDED.findall(doc.body)):
                    self.component_rank.setdefault(added, (1, i))

    def node_of_transform(self, transform: int) -> int:
        """The hierarchy node a transform stands for: its GameObject, or the prefab instance."""
        if transform in self.instance_of:
            return self.instance_of[transform]
        go = self.go_of_transform.get(transform, 0)
        return self.instance_of.get(go, go)

    def parent_node(self, node: int) -> int:
        """Worked out once a node (the hierarchy is whole once built): names, paths and the order ask."""
        if node not in self._parents:
            if node in self.instance_parent:
                self._parents[node] = self.node_of_transform(self.instance_parent[node])
            else:
                tf = self.transform_of_go.get(node)
                self._parents[node] = self.node_of_transform(self.father[tf]) if tf in self.father else 0
        return self._parents[node]

    def depth_of(self, node: int) -> int:
        """How many names the node's path holds (a node of a cycle of parents: the cycle's length,
        as its path runs up the cycle), worked out once per node without recursion."""
        chain, cycle, cur = self._up_to(node, self._depths)
        for n in cycle:
            self._depths[n] = len(cycle)
        depth = self._depths.get(cur, 0)
        for n in reversed(chain):
            depth += 1
            self._depths[n] = depth
        return self._depths.get(node, 0)

    def deeper_than_recorded(self, node: int) -> bool:
        """Whether the node is nested over MAX_RECORDED_DEPTH levels; such a node is noted in
        `too_deep` (the record says how many were left out)."""
        if node and self.may_be_deep and self.depth_of(node) > MAX_RECORDED_DEPTH:
            self.too_deep.add(node)
            return True
        return False

    def left_out(self) -> list[str]:
        """The record's note of the nodes left out for their depth (none or one)."""
        return [left_out_note(len(self.too_deep))] if self.too_deep else []

    def path_of(self, node: int) -> str:
        """The node's path. Built once per node from its parent's path (no walk to the root per
        node, no recursion: an 8,000-deep chain costs what its paths are long). In a cycle of
        parents (a broken file) each node's path runs up the cycle until it comes back to itself.
        A node nested over MAX_RECORDED_DEPTH levels (named by an object that refers to it) is
        `…/name`: its whole path would cost its parents' paths too."""
        path = self._paths.get(node)
        if path is not None:
            return path
        if self.may_be_deep and self.depth_of(node) > MAX_RECORDED_DEPTH:
            return f"…/{self.names.get(node) or f'&{node}'}"
        chain, cycle, _cur = self._up_to(node, self._paths)
        for n in cycle:
            self._paths[n] = self._walked(n)
        for n in reversed(chain):
            parent = self.parent_node(n)
            name = self.names.get(n) or f"&{n}"
            self._paths[n] = f"{self._paths[parent]}/{name}" if parent else name
        return self._paths[node]

    def _up_to(self, node: int, known: dict) -> tuple[list[int], list[int], int]:
        """The nodes from `node` up to the first one `known` holds (or the root), without it, as
        (chain below, cycle, where it stopped): a cycle of parents found on the way is split off
        the chain's end, its nodes looping back to the first of them."""
        chain: list[int] = []
        at: dict[int, int] = {}
        cur = node
        while cur and cur not in known and cur not in at:
            at[cur] = len(chain)
            chain.append(cur)
            cur = self.parent_node(cur)
        if cur in at:  # a cycle: chain[at[cur]:] loops back to cur
            return chain[: at[cur]], chain[at[cur] :], cur
        return chain, [], cur

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

    def in_order(self, symbols: list[Symbol]) -> list[Symbol]:
        """`symbols` with the objects' (HIERARCHY_KINDS) in the Hierarchy's order, each after its
        parent and siblings as the Inspector lists them (a parent's `m_Children`; roots by
        `SceneRoots` or `m_RootOrder`), where the file's order is by fileID; the others stay put.
        Only the siblings of parents with several children are read for it (most have one)."""
        parents: dict[int, list[int]] = {}
        for node in self.line_of:
            parents.setdefault(self.parent_node(node), []).append(node)
        crowded = {p: kids for p, kids in parents.items() if len(kids) > 1}
        if not crowded:
            return symbols
        index = self._sibling_index(crowded)
        node_at = {line: node for node, line in self.line_of.items()}
        keys: dict[int, tuple[tuple[int, int], ...]] = {}

        def key(node: int) -> tuple[tuple[int, int], ...]:
            chain: list[int] = []
            while node and node not in keys and node not in chain and len(chain) < MAX_DEPTH:
                chain.append(node)
                node = self.parent_node(node)
            above = keys.get(node, ())
            for n in reversed(chain):
                above = keys[n] = (*above, (index.get(n, 1 << 30), self.line_of.get(n, 0)))
            return above

        slots = [i for i, s in enumerate(symbols) if s.kind in HIERARCHY_KINDS]
        ordered = sorted((symbols[i] for i in slots), key=lambda s: key(node_at.get(s.line, 0)) or ((1 << 30, s.line),))
        out = list(symbols)
        for i, s in zip(slots, ordered, strict=True):
            out[i] = s
        return out

    def components_in_order(self, symbols: list[Symbol]) -> list[Symbol]:
        """`symbols` with each object's components in the Inspector's order: its GameObject's
        `m_Component` list, a prefab instance's added ones by its `m_AddedComponents`, where the
        file's order is by fileID. A component neither lists (a broken file; an instance's added
        component before Unity 2022) comes after those, in the file's order."""
        slots: dict[str, list[int]] = {}
        for i, s in enumerate(symbols):
            if s.kind == "component":
                slots.setdefault(s.container, []).append(i)
        rank, out = self.component_rank, symbols
        for held in slots.values():
            ranked = sorted(held, key=lambda i: rank.get(symbols[i].type, (2, i)))
            if len(held) > 1 and ranked != held:
                out = list(symbols) if out is symbols else out
                for i, j in zip(held, ranked, strict=True):
                    out[i] = symbols[j]
        return out

    def _sibling_index(self, crowded: dict[int, list[int]]) -> dict[int, int]:
        """node -> its place among its parent's children, for the parents in `crowded` (node ->
        its children, 0 for the roots): by the parent transform's `m_Children`, the roots by
        `SceneRoots`, else each root's `m_RootOrder` (a prefab instance's is an override)."""
        index: dict[int, int] = {}
        for parent, kids in crowded.items():
            tf = self.transform_of_go.get(parent)
            doc = self._docs.get(tf) if tf else None
            for i, child in enumerate(doc.block_ref_ids("m_Children") if doc is not None else ()):
                index.setdefault(self.node_of_transform(child), i)
            if parent == 0:
                for i, root in enumerate(self.scene_roots):
                    index.setdefault(self.node_of_transform(root), i)
            for kid in kids:
                if kid not in index and (order := self._root_order(kid)) is not None:
                    index[kid] = order
        return index

    def _root_order(self, node: int) -> int | None:
        """A node's `m_RootOrder` (before Unity 2022): its transform's, or its instance's override."""
        if node in self._docs:  # a prefab instance
            found = _INSTANCE_ORDER.search(self._docs[node].body)
            return int(found[1]) if found else None
        doc = self._docs.get(self.transform_of_go.get(node, 0))
        order = (doc.top("m_RootOrder") or "") if doc is not None else ""
        return int(order) if order.isdigit() else None


def components(body: str) -> list[str]:
    """`_COMPONENT.findall(body)`: the fileIDs a GameObject's `m_Component` lists, in order."""
    first = _COMPONENT.match(body) if body.startswith("  - ") else None  # (a first line Unity never writes so)
    return ([first[1]] if first else []) + _COMPONENT_LINE.findall(body)
