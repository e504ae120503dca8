"""Assets that code loads by name: `Resources.Load("UI/HealthBar")`, `Shader.Find("Game/Dissolve")`,
`SceneManager.LoadScene("Dungeon")`, `Addressables.LoadAssetAsync<GameObject>("Trash Cat")`.

No GUID ties such code to its asset, so a GUID-based graph (and every peer's) misses it. The C#
scanner records literals shaped like asset keys; here they meet the keys the project's assets
answer to: a Resources path (the path below a `Resources` folder, without extension), a
shader's declared name, for a literal handed to a call or said of a scene (context "call" or
"scene") an address or label an Addressables group gives it (a common word: `"Store"` is a
button's label as often), for a literal after the word scene in its statement (context
"scene"), a scene's name or path, and the project path of any indexed file
(`AssetDatabase.LoadAssetAtPath`). A literal that names no asset is no edge.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import TYPE_CHECKING

from indexer.model import Usage
from indexer.query.codeline import code_of
from indexer.query.held_strings import holders, named_forms, naming_files
from indexer.store.schema import REF_TARGET
from indexer.unity import SHADER_FILE_KINDS, asset_keys, resources_key, scene_keys
from indexer.words import excerpt

if TYPE_CHECKING:
    from indexer.store.reader import Records

MAX_TARGETS = 4  # `Resources.Load("Icon")` with Icon.png and Icon.asset: each is a candidate
LOADING_CONTEXTS = ("call", "scene")  # a literal that may load by an address (scanners/csharp_strings.py)


class Loadable:
    """The project's asset keys, read once per graph."""

    def __init__(self, records: Records):
        self._records = records

    @cached_property
    def resources(self) -> dict[str, str]:
        """Every file below a `Resources` folder -> its Resources path, by path (one scan of the
        paths a generation, in SQLite: no Python loop over every path)."""
        sql = "SELECT path FROM files WHERE instr(path, '/Resources/') > 0 ORDER BY path"
        rows = ((path, resources_key(path)) for (path,) in self._records.conn.execute(sql))
        return {path: key for path, key in rows if key is not None}

    @cached_property
    def folder_strings(self) -> frozenset[str]:
        """The files holding a string that ends in `/` (a folder a name may be built onto:
        `prefix_loaded`), by one scan of the string references a generation (3.3 ms on
        UnityCsReference, 140 of its 8,058 files): no other file's record is decoded for its strings
        (a first-met script's cost 0.1-0.2 ms, 77 of them in the warm protocol's first pass)."""
        sql = (
            "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id"
            f" WHERE r.kind = 'string' AND {REF_TARGET} LIKE '%/'"
        )
        return frozenset(p for (p,) in self._records.conn.execute(sql))

    @cached_property
    def _by_key(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for path, key in self.resources.items():
            out.setdefault(key, []).append(path)
        for paths in out.values():
            paths.sort()
        for kind in SHADER_FILE_KINDS:
            for rec in self._records.records(kind):
                for name in asset_keys(rec.path, kind, rec.symbols):
                    if rec.path not in out.get(name, ()):
                        out.setdefault(name, []).append(rec.path)
        return out

    @cached_property
    def _addressed(self) -> dict[str, list[str]]:
        return addressed(self._records)

    @cached_property
    def _scenes(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for (path,) in self._records.conn.execute("SELECT path FROM files WHERE kind = 'scene' ORDER BY path"):
            for key in scene_keys(path):
                out.setdefault(key, []).append(path)
        return out

    def resolve(self, literal: str, context: str = "", resources: bool = True) -> list[str]:
        """The assets a literal names (none, usually; none in context "name" or "field"); an
        addressed asset only for a literal in context "call" or "scene", a scene only for one in
        context "scene"; a bare name written
        alone (no `/`, handed to no call) only in a file using `Resources` (`resources`): a
        constant a load reads later, not `return "Wood";`, a footstep's surface."""
        bare = context == "literal" and "/" not in literal and not resources
        # a name handed to `Find`, `SetBool` (scanners/csharp_strings.py) loads nothing; a script's field
        # naming a scene `refs` lists, but as an edge the walk reached every scene a data asset names
        # (held-out acc@5 0.823 -> 0.819)
        if context in ("field", "name"):
            return []
        found = [] if bare else list(self._by_key.get(literal, ()))
        if literal.startswith(("Assets/", "Packages/")) and literal not in found and self._records.stats_of([literal]):
            found.append(literal)  # `AssetDatabase.LoadAssetAtPath<GameObject>("Assets/Prefabs/Platform.prefab")`
        extra = [*self._addressed.get(literal, ())] if context in LOADING_CONTEXTS else []
        if context == "scene":
            extra += self._scenes.get(literal, ())
        found += [p for p in dict.fromkeys(extra) if p not in found]
        return found[:MAX_TARGETS]


def addressed(records: Records, guid: str | None = None) -> dict[str, list[str]]:
    """Addressables names (an address or a label the project's groups give) -> the assets they
    load, by path (sorted); with `guid`, only the names of that asset."""
    sql = "SELECT key, detail FROM refs WHERE kind = 'address'" + (" AND detail = ?" if guid else "")
    out: dict[str, list[str]] = {}
    for name, asset in records.conn.execute(sql, (guid,) if guid else ()):
        path = records.path_of_guid(asset)
        if path and path not in out.get(name, ()):
            out.setdefault(name, []).append(path)
    for paths in out.values():
        paths.sort()
    return out


def loads_resources(rec) -> bool:
    """Whether a C# file names the `Resources` class, whose `Load` takes a path or a name."""
    return any(r.kind == "type" and r.target in ("Resources", "UnityEngine.Resources") for r in rec.refs)


def load_usages(graph, path: str) -> list[Usage]:
    """The code lines that load this asset by name (for `refs` on the asset)."""
    rec = graph.records.record(path)
    guid = graph.records.guid_naming(path)
    keys = sorted((asset_keys(path, rec.kind, rec.symbols) if rec is not None else set()) | {path})  # by its path
    names = sorted(set(addressed(graph.records, guid) if guid else ()) - set(keys))
    scenes = sorted(scene_keys(path) - set(keys) - set(names))
    rows: list[tuple[str, int, str]] = []
    sql = (  # a name handed to `Find` or `SetBool`, a field naming a scene: no load (`Loadable.resolve`)
        "SELECT f.path, r.line, r.key FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.kind = 'string' AND r.context NOT IN ('name', 'field')"
    )
    loading = " AND r.context IN ({})".format(",".join(f"'{c}'" for c in LOADING_CONTEXTS))
    # a bare name written alone loads only in a file using Resources (Loadable.resolve)
    bare = (
        " AND (r.context != 'literal' OR instr(r.key, '/') > 0 OR EXISTS (SELECT 1 FROM refs u WHERE"
        " u.file_id = r.file_id AND u.kind = 'type' AND u.key = 'Resources'))"
    )
    for wanted, where in ((keys, bare), (names, loading)):
        if wanted:
            marks = ",".join("?" * len(wanted))
            rows += graph.records.conn.execute(f"{sql} AND r.key IN ({marks}){where}", wanted).fetchall()
    found = [
        Usage(p, n, "code", "loads", "literal", graph.source_line(p, n) or f'"{t}"')
        for p, line, t in rows
        for n in _lines_holding(graph.file_lines(p), line, t)
    ]
    known = {(u.path, u.line) for u in found}
    found += _held_loads(graph, sorted({t for _, _, t in rows if "/" in t}), known)
    by_index = _build_index_loads(graph, path) if scenes else []
    return found + _scene_usages(graph, scenes) + by_index + _prefix_loads(graph, [*keys, *names], known)


def _build_index_loads(graph, scene: str) -> list[Usage]:
    """The lines loading a scene by its index in the build (`SceneManager.LoadScene(1)`: the
    second scene enabled in `EditorBuildSettings.asset`; before Unity 5.3 `Application.LoadLevel(1)`),
    in the files naming `SceneManager` or `Application`: the commonest load of a small game, which
    `refs` of its level did not list."""
    build = graph.records.symbols("ProjectSettings/EditorBuildSettings.asset")
    enabled = [s.name for s in build if s.kind == "build_scene" and s.detail == "enabled"]
    if scene not in enabled:
        return []
    call = re.compile(rf"\b(?:LoadScene|LoadLevel(?:Additive)?)(?:Async)?\s*\(\s*{enabled.index(scene)}\s*[,)]")
    sql = (
        "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.kind = 'type' AND r.key IN ('SceneManager', 'Application') AND f.kind = 'csharp'"
    )
    return [
        Usage(p, n, "code", "loads", "build index", excerpt(text))
        for (p,) in graph.records.conn.execute(sql)
        for n, text in enumerate(graph.file_lines(p), 1)
        if call.search(text) and not _commented(text)
    ]


# `LoadScene("Menu")`, `UnloadSceneAsync("Menu")`, `ServerChangeScene("Menu")`, `LoadLevel("Menu")`
_SCENE_CALL = r"\b\w*(?:Scene|Level)\w*\s*(?:<[^>]*>)?\(\s*"
# `LoadScene(scenes[i], …)`, `LoadSceneAsync(next)`: a scene loaded by what a variable holds
_BY_VARIABLE = re.compile(r"\bLoadScene(?:Async)?\s*\(\s*[A-Za-z_]")
# A name no other literal is likely to be (`Room1`, `Scene_Menu`, `MainMenu`), not a word (`Game`)
_DISTINCT = re.compile(r"[\d_\- /]|[a-z][A-Z]")


def _scene_usages(graph, keys: list[str]) -> list[Usage]:
    """The lines naming a scene by one of its `keys`: in code, every line of a file writing it
    after the word scene (the index keeps one a file) or as a distinct literal anywhere
    (`roomName = "Room1"`), or as any literal in a file loading scenes by a variable (`{"Part01",
    "Spirits"}` then `LoadScene(scenes[i])`: "Spirits" is no distinct name, but what it loads), a
    scene call's line labelled a load (`LoadSceneAsync("Menu")`) and any other a naming
    (`GetActiveScene().name != "Menu"`); in assets, a script's field holding it (`roomToLoad:
    Room1`, `offlineScene: Assets/Scenes/Menu.unity`)."""
    if not keys:
        return []
    marks = ",".join("?" * len(keys))
    sql = (
        "SELECT f.path, r.line, r.key, r.context, r.detail FROM refs r JOIN files f ON f.id = r.file_id"
        f" WHERE r.kind = 'string' AND r.key IN ({marks}) AND r.context IN ('scene', 'field', 'literal')"
    )
    out, seen = [], set()
    by_variable: dict[str, bool] = {}  # a file loading scenes by a variable: its list of names is what it loads
    for p, line, key, context, detail in graph.records.conn.execute(sql, keys).fetchall():
        if context == "field":
            out.append(Usage(p, line, "asset", "names", "field", graph.readable(detail)))
            continue
        if p not in by_variable:
            by_variable[p] = any(_BY_VARIABLE.search(text) for text in graph.file_lines(p))
        if (context == "scene" or _DISTINCT.search(key) or by_variable[p]) and (p, key) not in seen:
            seen.add((p, key))
            lines = graph.file_lines(p)
            call = re.compile(_SCENE_CALL + re.escape(f'"{key}"'))
            for n, text in enumerate(lines, 1):
                if f'"{key}"' in text and not _commented(text):
                    kind, said = ("loads", "scene call") if call.search(text) else ("names", "literal")
                    out.append(Usage(p, n, "code", kind, said, excerpt(text, key)))
    return out


_ROOTS = frozenset({"Assets/", "Packages/"})
_NUMBERED = re.compile(r"(.*/[^/]*\D|[^/]*[A-Za-z_])\d+")  # `Targets/Level5`: `Targets/Level`, then 5


def _commented(text: str) -> bool:
    """Whether a line of code is a comment's (`//`, a block comment's `/*` or `*` lines)."""
    return text.lstrip().startswith(("//", "*", "/*"))


def _built_on(prefix: str) -> str:
    """The pattern of a key built onto `prefix`: `"Props/" + id` or `$"Props/{id}"`."""
    return re.escape(f'"{prefix}"') + r"\s*\+|" + re.escape(f'$"{prefix}') + r"\{(?!\{)"


def _prefix_loads(graph, keys: list[str], known: set[tuple[str, int]]) -> list[Usage]:
    """The lines building a key of the asset (a Resources path, an address, a shader's name) from
    one of its folders, `Resources.Load("Props/" + id)`, or loading all of one of its folders,
    `Resources.LoadAll<TowerData>("Towers")`: the asset may be what it loads, where `refs` said no
    code used it, which invited deleting it."""
    # not the project's own root folders: `"Assets/" + path` builds every asset's path (an editor helper)
    prefixes = sorted({key[: i + 1] for key in keys for i, c in enumerate(key) if c == "/"} - _ROOTS)
    # a numbered asset's name before its number, `"Targets/Level" + currentLevel` for `Targets/Level5`
    numbered = sorted({m.group(1) for key in keys if (m := _NUMBERED.fullmatch(key))} - set(prefixes))
    if not prefixes and not numbered:
        return []
    folders = [p[:-1] for p in prefixes]
    asked = prefixes + folders + numbered
    sql = (
        "SELECT f.path, r.line, r.key FROM refs r JOIN files f ON f.id = r.file_id"
        f" WHERE r.kind = 'string' AND r.key IN ({','.join('?' * len(asked))})"
    )
    out = []
    for p, _line, t in graph.records.conn.execute(sql, asked).fetchall():
        built, said = (
            (_built_on(t), "path prefix")  # `"A/" + id`
            if t.endswith("/") or t in numbered
            else (r"\bLoadAll\w*\s*(?:<[^>]*>)?\(\s*" + re.escape(f'"{t}"'), "folder")  # `LoadAll("A")`
        )
        for n, text in enumerate(graph.file_lines(p), 1):  # every line building it (the index keeps one)
            if (p, n) not in known and re.search(built, text) and not _commented(text):
                out.append(Usage(p, n, "code", "loads", said, excerpt(text)))
    return out


def prefix_loaded(graph, script: str) -> list[str]:
    """The files a script loads by a folder its code names with a name built onto it
    (`Resources.Load<TextAsset>("Schemes/MatchScheme/" + name)`: every file directly in a
    `Resources/Schemes/MatchScheme/` folder), by path: `_prefix_loads` the other way round. The
    script's strings come from its record (its references' kinds and targets alone decoded), not
    the refs table, whose key has no file first (a lookup by file read every string reference: 1.9
    ms on UnityCsReference, per script a query meets); and only for a script holding a string
    that ends in `/` (`Loadable.folder_strings`, once a generation): no other record is decoded."""
    if script not in graph.loadable.folder_strings:
        return []
    strings = set(graph.records.ref_targets(script, "string"))
    prefixes = sorted({k for k in strings if k.endswith("/")} - _ROOTS)
    lines = graph.file_lines(script) if prefixes else []
    out: set[str] = set()
    for prefix in prefixes:
        built = re.compile(_built_on(prefix))
        if not any(built.search(t) and not _commented(t) for t in lines):
            continue
        out.update(
            p for p, key in graph.loadable.resources.items() if key.startswith(prefix) and "/" not in key[len(prefix) :]
        )
    return sorted(out)


def _held_loads(graph, keys: list[str], known: set[tuple[str, int]]) -> list[Usage]:
    """The lines naming a constant that holds a key (`LoadAssetAtPath<GameObject>(PLATFORM_PATH)`
    with `const string PLATFORM_PATH = "Assets/Prefabs/Platform.prefab"`): each loads the asset
    (`held_strings.py`). Keys with a folder alone: a bare name's constant is a tag's as often."""
    out = []
    for key in keys:
        held = holders(graph, key)
        for p in sorted(naming_files(graph, held)):
            forms = named_forms(held, p)
            named = re.compile("|".join(forms)) if forms else None
            for n, text in enumerate(graph.file_lines(p), 1) if named else ():
                if (p, n) not in known and named.search(code_of(text)):
                    known.add((p, n))
                    out.append(Usage(p, n, "code", "loads", "constant", excerpt(text)))
    return out


def _lines_holding(lines: list[str], line: int, key: str) -> list[int]:
    """The line the index keeps for a literal (one a file, to bound the refs table) and every other
    line of code making the same call with it (`Load("UI/Button"`), or writing it when it is a path:
    a menu loading its button prefab in four methods loads it four times. A bare name (`"Player"`,
    a scene's or a tag's) elsewhere in the file is not taken for a load."""
    kept = lines[line - 1] if 0 < line <= len(lines) else ""
    call = re.search(r"(\w+)\s*(?:<[^>]*>)?\(\s*" + re.escape(f'"{key}"'), kept)
    wanted = re.compile(re.escape(call.group(1)) + r"\s*(?:<[^>]*>)?\(\s*" + re.escape(f'"{key}"')) if call else None
    if wanted is None and "/" not in key:
        return [line]
    found = {line}
    for n, text in enumerate(lines, 1):
        code = f'"{key}"' in text and not _commented(text)
        if code and (wanted is None or wanted.search(text)):
            found.add(n)
    return sorted(found)


def group_names(records: Records, group: str, guid: str) -> str:
    """The address and labels an Addressables group gives an asset, as describe shows them."""
    sql = (
        "SELECT r.context, r.key FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.kind = 'address' AND f.path = ? AND r.detail = ? ORDER BY r.line, r.context, r.key"
    )
    return ", ".join(f'{kind} "{name}"' for kind, name in records.conn.execute(sql, (group, guid))) or "no address"
