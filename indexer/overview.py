"""Tier 1 of a context pack: what this project is, and its tree, compressed to a token share."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path

import msgspec

from .tokens import TokenCounter

_VERSION = re.compile(r"^m_EditorVersion:\s*(\S+)", re.M)
_SCENE = re.compile(r"^\s*-\s*enabled:\s*(\d)\s*\r?\n\s*path:\s*(.+?)\s*$", re.M)


class Assembly(msgspec.Struct):
    name: str
    folder: str
    editor_only: bool


class Overview(msgspec.Struct):
    name: str
    unity_version: str
    packages: list[str]  # "name version", direct dependencies from Packages/manifest.json
    assemblies: list[Assembly]
    scenes_in_build: list[str]
    counts: dict[str, int]  # files by kind

    def render(self) -> str:
        lines = [f"# Unity project {self.name} (Unity {self.unity_version or 'version unknown'})"]
        if self.packages:
            lines.append(f"Packages ({len(self.packages)}): " + ", ".join(self.packages))
        if self.assemblies:
            asm = [f"{a.name} ({a.folder}{', editor' if a.editor_only else ''})" for a in self.assemblies]
            lines.append(f"Assemblies ({len(asm)}): " + ", ".join(asm))
        if self.scenes_in_build:
            lines.append("Scenes in build: " + ", ".join(self.scenes_in_build))
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(self.counts.items(), key=lambda kv: (-kv[1], kv[0])))
        lines.append(f"Files: {kinds}")
        return "\n".join(lines)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def build_overview(root: Path, kinds: dict[str, str]) -> Overview:
    version = _VERSION.search(_read(root / "ProjectSettings/ProjectVersion.txt"))
    packages: list[str] = []
    try:
        deps = json.loads(_read(root / "Packages/manifest.json") or "{}").get("dependencies", {})
        packages = [f"{k} {v}" for k, v in sorted(deps.items()) if not k.startswith("com.unity.modules.")]
    except (ValueError, AttributeError):
        pass
    assemblies: list[Assembly] = []
    for path in sorted(p for p, k in kinds.items() if k == "asmdef"):
        try:
            data = json.loads(_read(root / path).lstrip("\ufeff"))
            name = str(data.get("name", "")) or Path(path).stem
            platforms = data.get("includePlatforms") or []
        except (ValueError, AttributeError):
            continue
        assemblies.append(Assembly(name=name, folder=os.path.dirname(path) + "/", editor_only=platforms == ["Editor"]))
    scenes = [
        m.group(2)
        for m in _SCENE.finditer(_read(root / "ProjectSettings/EditorBuildSettings.asset"))
        if m.group(1) == "1"
    ]
    counts = Counter(k for k in kinds.values() if k != "meta")
    return Overview(
        name=root.name,
        unity_version=version.group(1) if version else "",
        packages=packages,
        assemblies=assemblies,
        scenes_in_build=scenes,
        counts=dict(counts),
    )


class _Folder:
    __slots__ = ("children", "expanded", "ext_counts", "files", "name", "total")

    def __init__(self, name: str):
        self.name = name
        self.children: dict[str, _Folder] = {}
        self.files: list[str] = []
        self.ext_counts: Counter[str] = Counter()
        self.total = 0
        self.expanded = False

    def sorted_children(self) -> list[_Folder]:
        return sorted(self.children.values(), key=lambda f: f.name)


def _folder_tree(paths: list[str]) -> _Folder:
    root = _Folder("")
    for p in paths:
        parts = p.split("/")
        ext = os.path.splitext(parts[-1])[1].lower() or "(no extension)"
        node = root
        for part in parts[:-1]:
            node = node.children.setdefault(part, _Folder(part))
            node.total += 1
            node.ext_counts[ext] += 1
        node.files.append(parts[-1])
    return root


def _summary(folder: _Folder, indent: str) -> str:
    top = sorted(folder.ext_counts.items(), key=lambda kv: (-kv[1], kv[0]))
    exts = ", ".join(f"{n} {e}" for e, n in top[:4]) + (", ..." if len(top) > 4 else "")
    plural = "s" if folder.total != 1 else ""
    return f"{indent}{folder.name}/ — {folder.total} file{plural} ({exts})"


def _files_line(folder: _Folder, indent: str, max_names: int = 12) -> str:
    names = sorted(folder.files)
    extra = f", ... {len(names) - max_names} more" if len(names) > max_names else ""
    return f"{indent}files: {', '.join(names[:max_names])}{extra}"


def _expansion_rows(folder: _Folder, indent: str) -> list[str]:
    rows = [_summary(c, indent) for c in folder.sorted_children()]
    if folder.files:
        rows.append(_files_line(folder, indent))
    return rows


def render_tree(kinds: dict[str, str], counter: TokenCounter, max_tokens: int) -> str:
    """The project tree expanded breadth-first while it fits; unexpanded folders as one-liners.

    Costs are added per line, so each expansion is priced without re-rendering the tree.
    """
    root = _folder_tree(sorted(p for p, k in kinds.items() if k != "meta"))
    header = "## Project tree"
    top_rows = _expansion_rows(root, "")
    used = counter.join_cost([header, *top_rows])
    if used > max_tokens:
        shown = counter.truncate("\n".join([header, *top_rows]), max_tokens)
        return shown if "\n" in shown else ""  # a header without rows says nothing
    queue: list[tuple[_Folder, str]] = [(c, "  ") for c in root.sorted_children()]
    while queue:
        folder, indent = queue.pop(0)
        cost = sum(counter.count(r) + 1 for r in _expansion_rows(folder, indent))
        if used + cost > max_tokens:
            continue  # a smaller folder further on may still fit
        used += cost
        folder.expanded = True
        queue.extend((c, indent + "  ") for c in folder.sorted_children())
    rows = [header]

    def emit(folder: _Folder, indent: str) -> None:
        for child in folder.sorted_children():
            rows.append(_summary(child, indent))
            if child.expanded:
                emit(child, indent + "  ")
        if folder.files and (folder is root or folder.expanded):
            rows.append(_files_line(folder, indent))

    emit(root, "")
    return "\n".join(rows)
