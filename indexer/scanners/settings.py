"""`ProjectSettings/*`: Unity version, tags and layers, scenes in build, player identity, defines, input axes.

Targeted line-based extraction, not a YAML load: these files are small, their layout is fixed by
Unity's writer, and a general YAML resolver would turn GUIDs and versions into numbers. Scalars stay
strings; quoted scalars are unquoted; plain and quoted scalars wrapped onto deeper-indented lines
are joined; CRLF and a BOM are accepted; invalid UTF-8 is decoded with U+FFFD (status "partial").

Conventions (the tests pin them):
- ProjectVersion.txt: "unity_version" (name = m_EditorVersion, detail = m_EditorVersionWithRevision).
- TagManager.asset: "tag" (name); "layer" (name, detail = layer index); "sorting_layer" (name,
  detail = uniqueID, what renderers store). Empty layer slots are not symbols.
- EditorBuildSettings.asset: "build_scene" (name = path, detail = "enabled"/"disabled") and ref
  "guid" (target = the scene GUID lowercased, context "scene_in_build", detail = path, and
  "(disabled: left out of the build)" after it when it is).
- ProjectSettings.asset: "setting" (name = key, detail = value) for productName, companyName,
  bundleVersion, bundleIdentifier (pre-2017 spelling) and applicationIdentifier (one per platform,
  detail = "Platform: value"); "define" per scripting define symbol (name = symbol, detail = platform
  as written; the old numeric BuildTargetGroup keys become names: 1 -> Standalone, 7 -> Android,
  ...; the Unity 6 empty key gives detail "").
- InputManager.asset: "input_axis" (name = m_Name, detail = "positive: right, d; negative: left, a",
  or "mouse axis N"/"joystick axis N" for axes without buttons). Duplicate names are kept.
- Every file: ref "guid" for each project asset it names by `{fileID, guid}` (context = the key:
  `m_CustomRenderPipeline`, a quality level's `customRenderPipeline`, `m_AlwaysIncludedShaders`).
"""

from __future__ import annotations

import json
import re

from indexer.model import FileRecord, Ref, Symbol

from .packages import decode_text

# BuildTargetGroup numbers used as keys by Unity before 2021.2.
# Unity's BuildTargetGroup numbers, by which older PlayerSettings key the defines of each platform
# (newer ones write the name: `Android: DEBUG_LOG`); those of removed platforms too, as files keep them.
_GROUPS = {
    "1": "Standalone", "2": "WebPlayer", "4": "iOS", "5": "PS3", "6": "XBOX360", "7": "Android", "13": "WebGL",
    "14": "WSA", "15": "WP8", "16": "BlackBerry", "17": "Tizen", "18": "PSP2", "19": "PS4", "20": "PSM",
    "21": "XboxOne", "22": "SamsungTV", "23": "N3DS", "24": "WiiU", "25": "tvOS", "26": "Facebook", "27": "Switch",
    "28": "Lumin", "29": "Stadia", "30": "LinuxHeadlessSimulation", "31": "GameCoreXboxSeries",
    "32": "GameCoreXboxOne", "33": "PS5", "34": "EmbeddedLinux", "35": "QNX",
}  # fmt: skip
_KEY = re.compile(r"^( *)(- )?([^\s:#'\"-][^:]*?|'[^']*'|\"[^\"]*\"|):(?: (.*)|)$")
_GUID = re.compile(r"^[0-9A-Fa-f]{32}$")


def unquote(value: str) -> str:
    """A YAML scalar as a string: quotes removed, never converted to a number."""
    v = value.strip()
    if len(v) >= 2 and v[0] == v[-1] == "'":
        return v[1:-1].replace("''", "'")
    if len(v) >= 2 and v[0] == v[-1] == '"':
        try:
            out = json.loads(v)
            return out if isinstance(out, str) else v[1:-1]
        except (ValueError, RecursionError):
            return v[1:-1]
    return v


class _Yaml:
    """Lines of a Unity YAML file with helpers to read a key's scalar and its block children."""

    def __init__(self, text: str) -> None:
        self.lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")

    @staticmethod
    def indent(line: str) -> int:
        return len(line) - len(line.lstrip(" "))

    def scalar(self, i: int, raw: str, indent: int) -> tuple[str, int]:
        """The scalar starting as `raw` on line i (continued on lines deeper than `indent`); (value, next i)."""
        raw = raw.rstrip()
        j = i + 1
        quote = raw[:1] if raw[:1] in ("'", '"') else ""
        while j < len(self.lines):
            nxt = self.lines[j]
            if quote:
                if _closed(raw, quote):
                    break
            elif not raw or self.indent(nxt) <= indent or not nxt.strip() or _KEY.match(nxt):
                break
            raw = f"{raw} {nxt.strip()}"
            j += 1
        return unquote(raw), j

    def find_key(self, key: str, indent: int = 2, start: int = 0) -> int:
        """Index of the line `key:` at exactly `indent` spaces, or -1."""
        prefix = " " * indent + key + ":"
        for i in range(start, len(self.lines)):
            line = self.lines[i]
            if line.startswith(prefix) and (len(line) == len(prefix) or line[len(prefix)] == " "):
                return i
        return -1

    def value_at(self, i: int) -> tuple[str, int]:
        line = self.lines[i]
        rest = line.split(":", 1)[1][1:] if ":" in line else ""
        return self.scalar(i, rest, self.indent(line))

    def children(self, i: int) -> list[tuple[int, str, str]]:
        """(line index, key, value) of the block mapping under line i (keys may be empty or quoted)."""
        base = self.indent(self.lines[i])
        if self.lines[i].split(":", 1)[1].strip():  # `{}`: Unity writes flow mappings only when empty
            return []
        out: list[tuple[int, str, str]] = []
        child = -1
        j = i + 1
        while j < len(self.lines):
            line = self.lines[j]
            ind = self.indent(line)
            if not line.strip() or (child >= 0 and ind > child):
                j += 1
                continue
            if ind <= base or (child >= 0 and ind < child):
                break
            child = ind
            m = _KEY.match(line)
            if not m or m.group(2):
                j += 1
                continue
            start = j
            value, j = self.scalar(j, m.group(4) or "", ind)
            out.append((start, unquote(m.group(3)), value))
        return out

    def sequence(self, i: int) -> list[tuple[int, dict[str, str] | str]]:
        """Items of the block sequence under line i, each with the index of its `- ` line: a scalar, or
        a mapping of key -> scalar (only the item's own keys; deeper structure is skipped)."""
        base = self.indent(self.lines[i])
        out: list[tuple[int, dict[str, str] | str]] = []
        item_indent = -1
        j = i + 1
        n = len(self.lines)
        while j < n:
            line = self.lines[j]
            stripped = line.strip()
            if not stripped:
                j += 1
                continue
            ind = self.indent(line)
            is_item = stripped == "-" or stripped.startswith("- ")
            if ind < base or (ind == base and not is_item):
                break
            if not is_item or (item_indent >= 0 and ind != item_indent):
                j += 1
                continue
            item_indent = ind
            start = j
            body = stripped[2:] if stripped != "-" else ""
            m = _KEY.match(" " * (ind + 2) + body) if body else None
            if not m:
                value, j = self.scalar(j, body, ind)
                out.append((start, value))
                continue
            item: dict[str, str] = {}
            value, j = self.scalar(j, m.group(4) or "", ind + 2)
            item[unquote(m.group(3))] = value
            while j < n:
                sub = self.lines[j]
                sind = self.indent(sub)
                if not sub.strip() or sind > ind + 2:
                    j += 1
                    continue
                if sind <= ind:
                    break
                mm = _KEY.match(sub)
                if not mm or mm.group(2):
                    j += 1
                    continue
                value, j = self.scalar(j, mm.group(4) or "", sind)
                item.setdefault(unquote(mm.group(3)), value)
            out.append((start, item))
        return out


def _closed(raw: str, quote: str) -> bool:
    if len(raw) < 2 or not raw.endswith(quote):
        return False
    if quote == "'":
        body = raw[1:]
        # an odd run of quotes at the end closes the scalar ('' is an escaped quote)
        n = len(body) - len(body.rstrip("'"))
        return n % 2 == 1
    n = len(raw) - 1 - len(raw[:-1].rstrip("\\"))
    return n % 2 == 0


def scan(path: str, data: bytes) -> FileRecord:
    text, bad = decode_text(data)
    status, note = ("partial", f"{bad}, decoded with replacement characters") if bad else ("ok", "")
    name = path.rsplit("/", 1)[-1]
    extract = _EXTRACTORS.get(name)
    symbols, refs = extract(_Yaml(text)) if extract is not None else ([], [])
    refs += _asset_refs(text)
    return FileRecord(path=path, kind="settings", status=status, note=note, symbols=tuple(symbols), refs=tuple(refs))


# `m_CustomRenderPipeline: {fileID: 11400000, guid: 7b7f..., type: 2}`, or a list item under its key
_ASSET_REF = re.compile(
    r"^( *)(?:([\w.]+): *|- *)\{fileID: *-?\d+, *guid: *([0-9a-fA-F]{32})", re.M
)  # a wrapped one too
_KEY_LINE = re.compile(r"^( *)([\w.]+):", re.M)


def _asset_refs(text: str) -> list[Ref]:
    """The project's assets a settings file names by GUID (the render pipeline asset of the graphics
    and quality settings, always-included shaders, a physics material): `refs` of the active
    pipeline asset said no usages, which invited deleting it. Unity's built-in resources are not
    assets of the project."""
    out = []
    for m in _ASSET_REF.finditer(text):
        guid = m[3].lower()
        if not guid.strip("0ef"):  # 0000000000000000e000..., f000...: built in
            continue
        key = m[2]
        if not key:  # a list item: the nearest key above it indented no deeper
            above = [k for k in _KEY_LINE.finditer(text, 0, m.start()) if len(k[1]) <= len(m[1])]
            key = above[-1][2] if above else ""
        out.append(Ref("guid", guid, text.count("\n", 0, m.start()) + 1, context=key))
    return out


def _project_version(y: _Yaml) -> tuple[list[Symbol], list[Ref]]:
    i = y.find_key("m_EditorVersion", 0)
    if i < 0:
        return [], []
    version, _ = y.value_at(i)
    j = y.find_key("m_EditorVersionWithRevision", 0)
    detail = y.value_at(j)[0] if j >= 0 else ""
    return [Symbol("unity_version", version, i + 1, detail=detail)], []


def _tag_manager(y: _Yaml) -> tuple[list[Symbol], list[Ref]]:
    out: list[Symbol] = []
    i = y.find_key("tags")
    if i >= 0:
        out += [Symbol("tag", v, ln + 1) for ln, v in y.sequence(i) if isinstance(v, str) and v]
    i = y.find_key("layers")
    if i >= 0:
        for index, (ln, v) in enumerate(y.sequence(i)):
            if isinstance(v, str) and v:
                out.append(Symbol("layer", v, ln + 1, detail=str(index)))
    else:  # Unity 4 layout: `Builtin Layer 0: Default`, `User Layer 8: Player`
        for ln, line in enumerate(y.lines):
            m = re.match(r"^\s*(?:Builtin|User) Layer (\d+):[ \t]*(.*)$", line)
            if m and unquote(m.group(2)):
                out.append(Symbol("layer", unquote(m.group(2)), ln + 1, detail=m.group(1)))
    i = y.find_key("m_SortingLayers")
    if i >= 0:
        for ln, item in y.sequence(i):
            if isinstance(item, dict) and item.get("name"):
                out.append(Symbol("sorting_layer", item["name"], ln + 1, detail=item.get("uniqueID", "")))
    return out, []


def _build_settings(y: _Yaml) -> tuple[list[Symbol], list[Ref]]:
    symbols: list[Symbol] = []
    refs: list[Ref] = []
    i = y.find_key("m_Scenes")
    if i < 0:
        return symbols, refs
    for ln, item in y.sequence(i):
        if not isinstance(item, dict):
            continue
        scene = item.get("path", "")
        state = "enabled" if item.get("enabled", "1") not in ("0", "false") else "disabled"
        if scene:
            symbols.append(Symbol("build_scene", scene, ln + 1, detail=state))
        guid = item.get("guid", "")
        if _GUID.match(guid) and guid.strip("0"):  # `refs` of a scene says it is left out of the build
            said = scene if state == "enabled" else f"{scene} (disabled: left out of the build)"
            refs.append(Ref("guid", guid.lower(), ln + 1, context="scene_in_build", detail=said))
    return symbols, refs


_SCALAR_SETTINGS = ("productName", "companyName", "bundleVersion", "bundleIdentifier")


def _player_settings(y: _Yaml) -> tuple[list[Symbol], list[Ref]]:
    found: list[Symbol] = []
    for key in _SCALAR_SETTINGS:
        i = y.find_key(key)
        if i >= 0:
            found.append(Symbol("setting", key, i + 1, detail=y.value_at(i)[0]))
    i = y.find_key("applicationIdentifier")
    if i >= 0:
        for ln, platform, value in y.children(i):
            if value:
                found.append(Symbol("setting", "applicationIdentifier", ln + 1, detail=f"{platform}: {value}"))
    i = y.find_key("scriptingDefineSymbols")
    if i >= 0:
        for ln, platform, value in y.children(i):
            platform = _GROUPS.get(platform, platform)
            for define in value.split(";"):
                if define.strip():
                    found.append(Symbol("define", define.strip(), ln + 1, detail=platform))
    found.sort(key=lambda s: s.line)
    return found, []


def _input_manager(y: _Yaml) -> tuple[list[Symbol], list[Ref]]:
    out: list[Symbol] = []
    i = y.find_key("m_Axes")
    if i < 0:
        return out, []
    for ln, item in y.sequence(i):
        if not isinstance(item, dict) or not item.get("m_Name"):
            continue
        pos = ", ".join(b for b in (item.get("positiveButton"), item.get("altPositiveButton")) if b)
        neg = ", ".join(b for b in (item.get("negativeButton"), item.get("altNegativeButton")) if b)
        parts = [f"positive: {pos}"] if pos else []
        if neg:
            parts.append(f"negative: {neg}")
        detail = "; ".join(parts)
        if not detail:
            source = {"1": "mouse", "2": "joystick"}.get(item.get("type", ""), "")
            detail = f"{source} axis {item.get('axis', '0')}" if source else ""
        # the item starts at `- serializedVersion: 3`; point at the m_Name line when we can find it
        name_line = ln
        for k in range(ln, min(ln + 6, len(y.lines))):
            if y.lines[k].lstrip(" -").startswith("m_Name:"):
                name_line = k
                break
        out.append(Symbol("input_axis", item["m_Name"], name_line + 1, detail=detail))
    return out, []


_EXTRACTORS = {
    "ProjectVersion.txt": _project_version,
    "TagManager.asset": _tag_manager,
    "EditorBuildSettings.asset": _build_settings,
    "ProjectSettings.asset": _player_settings,
    "InputManager.asset": _input_manager,
}
