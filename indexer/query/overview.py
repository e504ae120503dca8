"""Tier 1 of a context pack: what this project is, and its tree, compressed to a token share."""

from __future__ import annotations

import heapq
import os
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from indexer.model import Assembly, Overview
from indexer.query.tokens import TokenCounter
from indexer.query.vendored import third_party_folders, vendor_package
from indexer.store.reader import Records
from indexer.unity import editor_only_assembly

if TYPE_CHECKING:
    from indexer.query.workspace import ProjectIndex

# Words of a task about the project's packages: only then does tier 1 list them with versions.
PACKAGE_WORDS = frozenset(
    {"package", "packages", "dependency", "dependencies", "manifest", "upm", "version", "upgrade"}
)


def third_party_test(projects: Sequence[ProjectIndex]) -> Callable[[str], bool]:
    """Whether a folder (a workspace path ending in `/`) holds third-party code, by its project's
    vendored folders and the names third-party folders have (`query.vendored.vendor_package`)."""
    by_prefix = sorted(((p.prefix, p.vendored) for p in projects), key=lambda pv: -len(pv[0]))

    def test(folder: str) -> bool:
        for prefix, vendored in by_prefix:
            if folder.startswith(prefix):
                return vendor_package(folder[len(prefix) :], vendored) is not None
        return False

    return test


def workspace_overviews(projects: Sequence[ProjectIndex]) -> tuple[list[Overview], dict[str, str]]:
    """Each project's overview, and the kind of every file by workspace path (for `render_tree`)."""
    kinds: dict[str, str] = {}
    overviews = []
    for p in projects:
        local = p.records.kinds()
        kinds.update({p.prefix + path: kind for path, kind in local.items()})
        overview = build_overview(p.root, p.records, local)
        if p.prefix:  # its paths as the workspace's, like every answer's
            assemblies = [msgspec.structs.replace(a, folder=p.prefix + a.folder) for a in overview.assemblies]
            scenes = [p.prefix + scene for scene in overview.scenes_in_build]
            missing = [p.prefix + scene for scene in overview.scenes_missing]
            overview = msgspec.structs.replace(
                overview, assemblies=assemblies, scenes_in_build=scenes, scenes_missing=missing
            )
        overviews.append(overview)
    return overviews, kinds


def build_overview(root: Path, records: Records, kinds: dict[str, str]) -> Overview:
    """From the records of the settings, package and assembly files (no file is read here)."""
    version = product = ""
    packages: list[str] = []
    scenes: list[str] = []
    missing: list[str] = []  # a build scene deleted since: listed as a scene of the game, it misled
    defines: dict[str, list[str]] = {}  # symbol -> the platforms defining it
    for path in (
        "ProjectSettings/ProjectVersion.txt",
        "ProjectSettings/ProjectSettings.asset",
        "ProjectSettings/EditorBuildSettings.asset",
        "Packages/manifest.json",
    ):
        rec = records.record(path) if path in kinds else None
        for sym in rec.symbols if rec else ():
            if sym.kind == "unity_version":
                version = sym.name
            elif sym.kind == "setting" and sym.name == "productName":
                product = sym.detail
            elif sym.kind == "build_scene" and sym.detail == "enabled":
                (scenes if sym.name in kinds else missing).append(sym.name)
            elif sym.kind == "define":  # under no build target (an empty key): compiled into none
                defines.setdefault(sym.name, []).append(sym.detail or NO_TARGET)
            elif sym.kind == "package" and not sym.name.startswith("com.unity.modules."):
                packages.append(f"{sym.name} {sym.detail}")
    assemblies: list[Assembly] = []
    vendored = third_party_folders(records)
    for path in sorted(p for p, k in kinds.items() if k == "asmdef"):
        rec = records.record(path)
        for sym in rec.symbols if rec else ():
            if sym.kind == "assembly":
                editor = editor_only_assembly(sym.attributes)
                third = vendor_package(path, vendored) is not None
                folder = os.path.dirname(path) + "/"
                assemblies.append(Assembly(name=sym.name, folder=folder, editor_only=editor, third_party=third))
    assemblies.sort(key=lambda a: a.third_party)  # the project's own first: a cut line keeps them
    return Overview(
        name=root.name,
        product=product,
        unity_version=version,
        packages=packages,
        assemblies=assemblies,
        scenes_in_build=scenes,
        scenes_missing=missing,
        defines=_defines_shown(defines),
        counts=dict(Counter(k for k in kinds.values() if k != "meta")),
    )


# Folders a task never needs listed file by file: Unity's settings, and folders of art (textures,
# audio, models, fonts) whose names say nothing the file counts do not.
SETTINGS_FOLDERS = frozenset({"ProjectSettings", "UserSettings"})
ART_KINDS = frozenset({"texture", "audio", "model", "font"})
ART_SHARE = 0.6  # a folder this much art is an art folder


class Folder:
    """A folder of the project tree (`folder_tree`): read only once made, so one tree serves every
    rendering of its generation."""

    __slots__ = (
        "_worth", "art", "children", "ext_counts", "files", "in_third_party", "name", "third_party", "total",
    )  # fmt: skip

    def __init__(self, name: str, third_party: bool = False, in_third_party: bool = False):
        self.name = name
        self.third_party = third_party  # a folder of third-party code (`query.vendored.vendor_package`)
        self.in_third_party = in_third_party  # inside one: said once, at the outermost
        self.children: dict[str, Folder] = {}
        self.files: list[str] = []
        self.ext_counts: Counter[str] = Counter()
        self.total = 0
        self.art = 0
        self._worth: bool | None = None

    def worth_expanding(self) -> bool:
        """Not settings, and not art alone: a folder mostly art is worth it for a subfolder that
        is not (a 2D game's `Assets/` is 70% sprites, its scripts and scenes a level down)."""
        if self._worth is None:
            self._worth = self.name not in SETTINGS_FOLDERS and (
                self.art < ART_SHARE * self.total or any(c.worth_expanding() for c in self.children.values())
            )
        return self._worth

    def sorted_children(self) -> list[Folder]:
        return sorted(self.children.values(), key=lambda f: f.name)


def folder_tree(kinds: dict[str, str], third_party: Callable[[str], bool] = lambda folder: False) -> Folder:
    """The tree of the files of `kinds` (workspace path -> kind), .meta files left out;
    `third_party` tells a folder of third-party code by its workspace path (`Assets/Plugins/`)."""
    root = Folder("")
    for p, kind in sorted(kinds.items()):
        if kind == "meta":
            continue
        parts = p.split("/")
        ext = os.path.splitext(parts[-1])[1].lower() or "(no extension)"
        node = root
        for depth, part in enumerate(parts[:-1], start=1):
            if part not in node.children:
                folder = "/".join(parts[:depth]) + "/"
                node.children[part] = Folder(part, node.third_party or third_party(folder), node.third_party)
            node = node.children[part]
            node.total += 1
            node.ext_counts[ext] += 1
            node.art += kind in ART_KINDS
        node.files.append(parts[-1])
    return root


def _summary(folder: Folder, indent: str) -> str:
    top = sorted(folder.ext_counts.items(), key=lambda kv: (-kv[1], kv[0]))
    exts = ", ".join(f"{n} {e}" for e, n in top[:4]) + (", ..." if len(top) > 4 else "")
    plural = "s" if folder.total != 1 else ""
    vendor = ", third-party" if folder.third_party and not folder.in_third_party else ""
    return f"{indent}{folder.name}/ — {folder.total} file{plural} ({exts}){vendor}"


def _files_line(folder: Folder, indent: str, max_names: int = 12) -> str:
    names = sorted(folder.files)
    extra = f", ... {len(names) - max_names} more" if len(names) > max_names else ""
    return f"{indent}files: {', '.join(names[:max_names])}{extra}"


def _expansion_rows(folder: Folder, indent: str) -> list[str]:
    rows = [_summary(c, indent) for c in folder.sorted_children()]
    if folder.files:
        rows.append(_files_line(folder, indent))
    return rows


def render_tree(root: Folder, counter: TokenCounter, max_tokens: int, task: bool = False) -> str:
    """The project tree (`folder_tree`): the top level, then the folders that weigh most expanded
    first (`_weight`: the project's own before third-party code, then files that are not art,
    scripts thrice) while they fit; a folder too big to expand in what is left shows its heaviest
    subfolders that fit and counts the others (`… 9 more folders, 412 files`). Unexpanded folders
    are one-liners. `task` (a context pack): settings and art folders stay one-liners, whatever the
    room. Why by weight, not breadth-first: where
    `Assets/` did not fit whole, a small package's test folders were expanded file by file instead.

    Costs are added per line, so each expansion is priced without re-rendering the tree.
    """
    header = "## Project tree"
    top_rows = _expansion_rows(root, "")
    used = counter.join_cost([header, *top_rows])
    if used > max_tokens:
        shown = counter.truncate("\n".join([header, *top_rows]), max_tokens)
        return shown if "\n" in shown else ""  # a header without rows says nothing
    expanded: dict[int, tuple[list[Folder], str]] = {id(root): (root.sorted_children(), "")}
    heap = [(_weight(c), n, c, "  ") for n, c in enumerate(root.sorted_children())]
    heapq.heapify(heap)
    order = len(heap)
    while heap:
        _, _, folder, indent = heapq.heappop(heap)
        if task and not folder.worth_expanding():
            continue
        rows = _expansion_rows(folder, indent)
        cost = sum(counter.count(r) + 1 for r in rows)
        if used + cost <= max_tokens:
            kids, more = folder.sorted_children(), ""
            used += cost
        else:
            kids, more, cost = _heaviest_that_fit(folder, indent, counter, max_tokens - used)
            if not kids:
                continue  # a smaller folder further on may still fit
            used += cost
        expanded[id(folder)] = (kids, more)
        for child in kids:
            heapq.heappush(heap, (_weight(child), order, child, indent + "  "))
            order += 1
    rows = [header]

    def emit(folder: Folder, indent: str) -> None:
        kids, more = expanded[id(folder)]
        for child in kids:
            rows.append(_summary(child, indent))
            if id(child) in expanded:
                emit(child, indent + "  ")
        if more:
            rows.append(more)
        elif folder.files:
            rows.append(_files_line(folder, indent))

    emit(root, "")
    return "\n".join(rows)


def _weight(folder: Folder) -> tuple[bool, int]:
    """How much a folder's outline is worth to a task, most first: the project's own before
    third-party code (an Asset Store kit's 500 scripts are not what the project is), then its files
    that are not art, scripts thrice (most answers are code)."""
    return folder.third_party, -(folder.total - folder.art + 2 * folder.ext_counts[".cs"])


def _heaviest_that_fit(folder: Folder, indent: str, counter: TokenCounter, room: int) -> tuple[list[Folder], str, int]:
    """A folder too big to expand whole: its heaviest subfolders whose lines fit in `room` with a
    line counting the others, in name order, and what they cost; ([], "", 0) when not even one
    fits. Linear in the subfolders: a folder of a thousand levels is priced by counts, not by
    lists of the rest."""
    heaviest = sorted(folder.children.values(), key=lambda c: (_weight(c), c.name))
    files_left = sum(c.total for c in heaviest) + len(folder.files)
    chosen: list[Folder] = []
    spent = 0
    for child in heaviest:
        line = counter.count(_summary(child, indent)) + 1
        tail = counter.count(_more_folders(len(heaviest) - len(chosen) - 1, files_left - child.total, indent)) + 1
        if spent + line + tail > room:
            break
        chosen.append(child)
        spent += line
        files_left -= child.total
    if not chosen:
        return [], "", 0
    more = _more_folders(len(heaviest) - len(chosen), files_left, indent)
    return sorted(chosen, key=lambda c: c.name), more, spent + (counter.count(more) + 1 if more else 0)


def _more_folders(folders: int, files: int, indent: str) -> str:
    """The line counting what a partly expanded folder does not show: its other subfolders and
    their files, with its own."""
    parts = []
    if folders:
        parts.append(f"{folders} more folder{'s' if folders != 1 else ''}")
    if files:
        parts.append(f"{files} file{'s' if files != 1 else ''}")
    return f"{indent}… {', '.join(parts)}" if parts else ""


DEFINE_PLATFORMS = 3  # platforms named after a scripting define; past them, how many more


NO_TARGET = "no build target: applies to none"  # `: FACEBOOK;GAMESPARKS` under an empty platform key


def _defines_shown(defines: dict[str, list[str]]) -> list[str]:
    """Each define once, with the platforms defining it (`DEBUG_LOG (Android, iOS)`), or alone
    when every platform with defines has it: a project that adds one symbol everywhere wrote it
    once per build target (13 times), which every pack's tier 1 repeated."""
    platforms = {p for where in defines.values() for p in where if p != NO_TARGET}
    out = []
    for name, where in defines.items():
        where = list(dict.fromkeys(where))
        if set(where) == platforms and len(platforms) > 1:
            out.append(name)
            continue
        more = f", +{len(where) - DEFINE_PLATFORMS} more" if len(where) > DEFINE_PLATFORMS else ""
        out.append(f"{name} ({', '.join(where[:DEFINE_PLATFORMS])}{more})")
    return out


def asks_for_packages(projects: list, said: list[str]) -> bool:
    """The task says a word of packages (`PACKAGE_WORDS`) that no project's own type is named by:
    in a delivery game with a `Package` class, "the package lands" is about the game (a `Package`
    class of a package or a plugin is not the game's)."""
    return any(word in PACKAGE_WORDS and not any(_own_type(p, _type_name(word)) for p in projects) for word in said)


def _own_type(project, name: str) -> bool:
    """A type of this name is declared by the project's own code: under Assets/, not third-party."""
    return any(
        t.path.startswith("Assets/") and vendor_package(t.path, project.vendored) is None
        for t in project.records.types_named(name)
    )


def _type_name(word: str) -> str:
    """The name a type would have for a word of a task: `packages` -> `Package`, `dependencies`
    -> `Dependency`."""
    if word.endswith("ies"):
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return word.capitalize()
