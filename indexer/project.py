"""Where a Unity project is and which of its files the index covers.

Unity's own rules decide what is part of a project: generated folders at the root (Library, Temp,
...) are not, and inside Assets and packages hidden names, names ending in `~`, `cvs` folders and
`*.tmp` files are ignored by the editor, so they are ignored here too.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator
from pathlib import Path

from indexer.config import Config

# Top-level folders of a project root that hold project content.
CONTENT_ROOTS = ("Assets", "Packages", "ProjectSettings")
PACKAGE_CACHE = "Library/PackageCache"  # registry packages' sources; indexed only when configured
ROOT_SKIP = frozenset({"Library", "Temp", "Obj", "obj", "Logs", "UserSettings", "Build", "Builds"})

# File kind by lower-cased extension. Kinds without a scanner are still recorded (they count in
# the project tree and are found by path).
KINDS: dict[str, str] = {
    ".cs": "csharp",
    ".meta": "meta",
    ".unity": "scene",
    ".prefab": "prefab",
    ".asset": "asset",
    ".mat": "material",
    ".controller": "animator",
    ".overridecontroller": "animator",
    ".anim": "animation",
    ".shader": "shader",
    ".hlsl": "shader_include",
    ".cginc": "shader_include",
    ".glslinc": "shader_include",
    ".compute": "compute_shader",
    ".shadergraph": "shadergraph",
    ".shadersubgraph": "shadergraph",
    ".asmdef": "asmdef",
    ".asmref": "asmref",
    ".json": "json",
    ".uxml": "uxml",
    ".uss": "uss",
    ".physicmaterial": "unity_yaml",
    ".physicsmaterial2d": "unity_yaml",
    ".mixer": "unity_yaml",
    ".lighting": "unity_yaml",
    ".preset": "unity_yaml",
    ".mask": "unity_yaml",
    ".rendertexture": "unity_yaml",
    ".spriteatlas": "unity_yaml",
    ".spriteatlasv2": "unity_yaml",
    ".terrainlayer": "unity_yaml",
    ".signal": "unity_yaml",
    ".playable": "unity_yaml",
    ".flare": "unity_yaml",
    ".guiskin": "unity_yaml",
    ".fontsettings": "unity_yaml",
    ".brush": "unity_yaml",
    ".cubemap": "unity_yaml",
    ".txt": "text",
    ".md": "text",
    ".xml": "text",
    ".png": "texture",
    ".jpg": "texture",
    ".jpeg": "texture",
    ".tga": "texture",
    ".psd": "texture",
    ".tif": "texture",
    ".tiff": "texture",
    ".exr": "texture",
    ".hdr": "texture",
    ".fbx": "model",
    ".obj": "model",
    ".blend": "model",
    ".dae": "model",
    ".wav": "audio",
    ".mp3": "audio",
    ".ogg": "audio",
    ".aif": "audio",
    ".aiff": "audio",
    ".ttf": "font",
    ".otf": "font",
    ".dll": "plugin",
    ".so": "plugin",
    ".bundle": "plugin",
}
SETTINGS_KIND = "settings"  # every file under ProjectSettings/


class ProjectNotFound(Exception):
    """No Unity project at or above the given place; carries the projects found below it."""

    def __init__(self, start: Path, below: list[Path]):
        self.start = start
        self.below = below
        hint = ""
        if below:
            listed = "\n".join(f"  {p}" for p in below[:10])
            hint = f"\nUnity projects found below it:\n{listed}\nPass one with --project DIR."
        else:
            hint = "\nRun inside a Unity project (a folder holding Assets/ and ProjectSettings/) or pass --project DIR."
        super().__init__(f"no Unity project at or above {start}{hint}")


def is_project_root(path: Path) -> bool:
    return (path / "Assets").is_dir() and (path / "ProjectSettings").is_dir()


def find_root(start: Path) -> Path:
    """The nearest ancestor of `start` (itself included) that is a Unity project root."""
    start = start.resolve()
    for candidate in (start, *start.parents):
        if is_project_root(candidate):
            return candidate
    raise ProjectNotFound(start, find_projects_below(start))


def find_projects_below(start: Path, max_depth: int = 4) -> list[Path]:
    """Unity project roots under `start`, shallow first, for the error message and multi-project repos."""
    found: list[Path] = []
    frontier = [start]
    for _ in range(max_depth):
        nxt: list[Path] = []
        for folder in frontier:
            try:
                entries = sorted(os.scandir(folder), key=lambda e: e.name)
            except OSError:
                continue
            for e in entries:
                if not e.is_dir(follow_symlinks=False) or e.name.startswith(".") or e.name in ROOT_SKIP:
                    continue
                p = Path(e.path)
                if is_project_root(p):
                    found.append(p)
                else:
                    nxt.append(p)
        frontier = nxt
    return found


def kind_of(rel: str) -> str:
    if rel.startswith("ProjectSettings/"):
        return SETTINGS_KIND
    ext = os.path.splitext(rel)[1].lower()
    return KINDS.get(ext, "other")


def _ignored_name(name: str) -> bool:
    return name.startswith(".") or name.endswith("~") or name.lower() == "cvs" or name.endswith(".tmp")


class Coverage:
    """Which project paths the index covers: Unity's ignore rules, the configured exclusions and
    the index folder (when configured inside the project). The walk and the checks of single
    paths (watch, journal, git) apply these same rules."""

    def __init__(self, root: Path, config: Config):
        self.tops = (*CONTENT_ROOTS, PACKAGE_CACHE) if config.include_package_cache else CONTENT_ROOTS
        self.excludes = config.exclude
        index_dir = config.index_path(root)
        self.index_rel = index_dir.relative_to(root).as_posix() if index_dir.is_relative_to(root) else None

    def skips(self, rel: str, name: str) -> bool:
        """Whether the entry `rel` (last part `name`) below a top folder is left out, with all
        it holds."""
        if _ignored_name(name) or rel == self.index_rel:
            return True
        return bool(self.excludes) and any(fnmatch.fnmatchcase(rel, pat) for pat in self.excludes)

    def covers(self, rel: str) -> bool:
        """Whether the walk would list the project-relative file path `rel`."""
        top = next((t for t in self.tops if rel.startswith(t + "/")), None)
        if top is None:
            return False
        parts = rel.split("/")
        return not any(self.skips("/".join(parts[: i + 1]), parts[i]) for i in range(top.count("/") + 1, len(parts)))


def walk(root: Path, config: Config) -> Iterator[tuple[str, os.stat_result]]:
    """Every project file as (relative path with forward slashes, stat), in sorted order."""
    coverage = Coverage(root, config)

    def scan(folder: str, rel_prefix: str) -> Iterator[tuple[str, os.stat_result]]:
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return
        for e in entries:
            rel = rel_prefix + e.name
            if coverage.skips(rel, e.name):
                continue
            try:
                if e.is_dir(follow_symlinks=False):
                    yield from scan(e.path, rel + "/")
                elif e.is_file(follow_symlinks=False):
                    yield rel, e.stat(follow_symlinks=False)
            except OSError:
                continue

    for top in coverage.tops:
        path = root / top
        if path.is_dir():
            yield from scan(str(path), top + "/")
