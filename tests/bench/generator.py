"""Synthetic Unity projects of any size, byte-identical for a seed.

Scale points for the benchmark suite need projects that look like real ones to every scanner:
scripts in namespaces and asmdef assemblies that use each other, prefabs carrying those scripts
(nested prefabs, variants, UnityEvents calling real methods, serialized values), scenes,
ScriptableObject assets, materials and shaders, and a `.meta` for every file and folder whose GUID
is what the other files reference. Nothing here is random at run time: GUIDs come from a hash of
the seed and the path, everything else from one `random.Random(seed)`.

usage: python -m tests.bench.generator OUT_DIR --scripts N [--seed S]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import csharp_text, yaml_text
from .vocab import ADJECTIVES, EVENTS, FIELDS, MODULES, NOUNS, SUBS, SUFFIXES, VERBS

# Share of each script role (the rest of a real project's scripts look like one of these).
ROLE_WEIGHTS = {
    "behaviour": 50,
    "data": 10,
    "service": 15,
    "interface": 5,
    "enum": 6,
    "struct": 7,
    "editor": 7,
}
SCRIPTS_PER_MODULE = 250
PREFABS_PER_BEHAVIOUR = 0.4
VARIANT_SHARE = 0.2
NESTED_SHARE = 0.3
SCRIPTS_PER_SHADER = 500
SCRIPTS_PER_MATERIAL = 50
ASSETS_PER_DATA_SCRIPT = (1, 2)

# C# type names the generated code uses that Unity, .NET or UnityEditor declare (not the project).
EXTERNAL_TYPES = frozenset(
    {
        "MonoBehaviour", "ScriptableObject", "UnityEvent", "Action", "List", "Dictionary", "Mathf", "Time",
        "Debug", "Vector3", "Transform", "GameObject", "Material", "Editor", "CustomEditor", "GUILayout",
        "EditorGUILayout", "SerializeField", "Header", "Tooltip", "CreateAssetMenu", "DisallowMultipleComponent",
        "Serializable", "Range", "Color",
    }
)  # fmt: skip


@dataclass(eq=False)
class Script:
    name: str
    role: str
    module: Module
    sub: str
    fields: list[tuple[str, str, str]] = field(default_factory=list)  # (type, name, C# default)
    refs: list[Script] = field(default_factory=list)
    methods: list[str] = field(default_factory=list)  # public void, no arguments: UnityEvent targets
    members: list[str] = field(default_factory=list)  # enum members
    event_field: str = ""  # a UnityEvent field
    target: Script | None = None  # editor: the inspected behaviour
    guid: str = ""
    path: str = ""

    @property
    def namespace(self) -> str:
        suffix = "EditorTools" if self.role == "editor" else self.sub
        return f"Game.{self.module.name}.{suffix}"

    @property
    def qualified(self) -> str:
        return f"{self.namespace}.{self.name}"

    @property
    def assembly(self) -> str:
        return self.module.assembly + (".Editor" if self.role == "editor" else "")


@dataclass(eq=False)
class Module:
    name: str
    index: int
    scripts: list[Script] = field(default_factory=list)
    prefabs: list[Prefab] = field(default_factory=list)
    assets: list[tuple[str, str, Script]] = field(default_factory=list)  # (path, guid, script) of SO assets
    materials: list[tuple[str, str]] = field(default_factory=list)  # (path, guid)

    @property
    def assembly(self) -> str:
        return f"Game.{self.name}"

    @property
    def folder(self) -> str:
        return f"Assets/Game/{self.name}"

    def of_role(self, role: str) -> list[Script]:
        return [s for s in self.scripts if s.role == role]


@dataclass(eq=False)
class Prefab:
    name: str
    path: str
    guid: str
    root_go: int
    root_transform: int
    components: list[tuple[int, Script]]  # MonoBehaviour fileID and its script
    variant_of: Prefab | None = None


@dataclass(eq=False)
class Summary:
    """What was written: exact counts for the tests, names and paths for the suite."""

    root: str
    seed: int
    counts: dict[str, int] = field(default_factory=dict)
    bytes_by_kind: dict[str, int] = field(default_factory=dict)
    type_names: list[str] = field(default_factory=list)
    script_paths: list[str] = field(default_factory=list)
    prefab_paths: list[str] = field(default_factory=list)
    seconds: float = 0.0


class _Out:
    """Writes files as they are made (a 50k-script project does not sit in memory) and remembers
    which folders need a `.meta`."""

    def __init__(self, root: Path, seed: int):
        self.root = root
        self.seed = seed
        self.folders: set[str] = set()
        self.made: set[str] = set()
        self.files = 0
        self.bytes: dict[str, int] = {}
        self.calls = 0  # UnityEvent persistent calls written

    def guid(self, rel: str) -> str:
        return hashlib.md5(f"{self.seed}:{rel}".encode()).hexdigest()

    def write(self, rel: str, text: str, kind: str) -> None:
        folder = rel.rpartition("/")[0]
        if folder not in self.made:
            (self.root / folder).mkdir(parents=True, exist_ok=True)
            self.made.add(folder)
        parts = rel.split("/")
        if parts[0] == "Assets":
            for i in range(2, len(parts)):
                self.folders.add("/".join(parts[:i]))
        data = text.encode("utf-8")
        if kind in ("prefab", "scene"):
            self.calls += text.count("\n        m_MethodName: ")
        with open(self.root / rel, "wb") as f:
            f.write(data)
        self.files += 1
        self.bytes[kind] = self.bytes.get(kind, 0) + len(data)

    def asset(self, rel: str, text: str, kind: str, importer: str) -> str:
        """An asset and its .meta; returns the GUID."""
        guid = self.guid(rel)
        self.write(rel, text, kind)
        self.write(rel + ".meta", yaml_text.meta(guid, importer), "meta")
        return guid


class _Ids:
    """Unity-like local fileIDs: random signed 64-bit, unique in their file."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.used: set[int] = set()

    def new(self) -> int:
        while True:
            v = self.rng.getrandbits(62) + 1
            if self.rng.random() < 0.15:
                v = -v
            if v not in self.used:
                self.used.add(v)
                return v


def _weighted_roles(rng: random.Random, n: int) -> list[str]:
    roles = list(ROLE_WEIGHTS)
    return rng.choices(roles, weights=[ROLE_WEIGHTS[r] for r in roles], k=n)


def _unique(name: str, taken: set[str]) -> str:
    out, k = name, 2
    while out in taken:
        out, k = f"{name}{k}", k + 1
    taken.add(out)
    return out


def _plan_scripts(rng: random.Random, modules: list[Module], n: int) -> list[Script]:
    taken: set[str] = set()
    scripts: list[Script] = []
    for role in _weighted_roles(rng, n):
        mod = modules[rng.randrange(len(modules))]
        adj = rng.choice(ADJECTIVES) if rng.random() < 0.7 else ""
        base = adj + rng.choice(NOUNS) + rng.choice(SUFFIXES[role])
        name = _unique(("I" + base) if role == "interface" else base, taken)
        s = Script(name=name, role=role, module=mod, sub=rng.choice(SUBS))
        scripts.append(s)
        mod.scripts.append(s)
    core = modules[0]
    for s in scripts:
        if s.role in ("behaviour", "service", "data"):
            names = rng.sample(FIELDS, rng.randint(2, 5))
            for fname in names:
                ftype = rng.choice(("float", "float", "int", "bool", "string"))
                s.fields.append((ftype, fname, csharp_text.default_value(ftype, rng)))
        if s.role in ("behaviour", "service", "interface"):
            s.methods = rng.sample(VERBS, rng.randint(2, 4))
        if s.role == "behaviour":
            s.event_field = "on" + rng.choice(EVENTS)
        if s.role == "enum":
            s.members = ["None", *rng.sample(ADJECTIVES, rng.randint(3, 6))]
    for s in scripts:
        if s.role in ("behaviour", "service", "data"):
            pool = [t for t in (*s.module.scripts, *core.scripts) if t is not s and t.role != "editor"]
            if s.role == "data":
                pool = [t for t in pool if t.role in ("data", "enum", "struct")]
            s.refs = rng.sample(pool, min(len(pool), rng.randint(1, 3))) if pool else []
            s.refs = list(dict.fromkeys(s.refs))
            for r in s.refs:
                if r.role == "interface" and s.role in ("behaviour", "service"):
                    s.methods = list(dict.fromkeys([*s.methods, *r.methods]))
        if s.role == "editor":
            behaviours = s.module.of_role("behaviour")
            if behaviours:
                s.target = rng.choice(behaviours)
            else:
                s.role, s.methods, s.event_field = "service", ["Refresh"], ""
    return scripts


def generate(root: Path, scripts: int, seed: int = 1) -> Summary:
    """Write a Unity project of `scripts` C# files (and assets in proportion) at `root`."""
    t0 = time.perf_counter()
    root = Path(root)
    rng = random.Random(seed)
    out = _Out(root, seed)
    n_modules = max(2, round(scripts / SCRIPTS_PER_MODULE))
    names = _unique_modules(n_modules)
    modules = [Module(name=m, index=i) for i, m in enumerate(names)]
    planned = _plan_scripts(rng, modules, scripts)
    counts: dict[str, int] = {"scripts": len(planned), "modules": len(modules)}

    asmdef_guids = _write_asmdefs(out, modules)
    counts["asmdefs"] = len(asmdef_guids)
    for s in planned:
        folder = "Editor" if s.role == "editor" else f"Scripts/{s.sub}"
        s.path = f"{s.module.folder}/{folder}/{s.name}.cs"
        s.guid = out.guid(s.path)
    for s in planned:
        out.asset(s.path, csharp_text.script(s), "csharp", "MonoImporter")

    shaders = _write_shaders(out, rng, max(2, scripts // SCRIPTS_PER_SHADER))
    counts["shaders"] = len(shaders)
    counts["materials"] = _write_materials(out, rng, modules, shaders, max(2, scripts // SCRIPTS_PER_MATERIAL))
    for mod in modules:  # ScriptableObject asset paths first: prefabs point at them
        for s in mod.of_role("data"):
            for i in range(rng.randint(*ASSETS_PER_DATA_SCRIPT)):
                path = f"{mod.folder}/Data/{s.name}_{i}.asset"
                mod.assets.append((path, out.guid(path), s))
    counts.update(_write_prefabs(out, rng, modules))
    counts["assets"] = _write_so_assets(out, rng, modules)
    scenes = _write_scenes(out, rng, modules, counts)
    counts["scenes"] = len(scenes)
    _write_settings(out, scenes)
    for folder in sorted(out.folders):
        out.write(folder + ".meta", yaml_text.folder_meta(out.guid(folder)), "meta")
    counts["folders"] = len(out.folders)
    counts["unity_event_calls"] = out.calls
    counts["files"] = out.files
    return Summary(
        root=str(root),
        seed=seed,
        counts=counts,
        bytes_by_kind=dict(sorted(out.bytes.items())),
        type_names=[s.name for s in planned if s.role in ("behaviour", "data", "service")],
        script_paths=[s.path for s in planned],
        prefab_paths=[p.path for m in modules for p in m.prefabs],
        seconds=time.perf_counter() - t0,
    )


def _unique_modules(n: int) -> list[str]:
    out = ["Core"]
    i = 0
    while len(out) < n:
        base = MODULES[i % len(MODULES)]
        out.append(base if i < len(MODULES) else f"{base}{i // len(MODULES) + 1}")
        i += 1
    return out


def _write_asmdefs(out: _Out, modules: list[Module]) -> dict[str, str]:
    guids: dict[str, str] = {}
    core_path = f"{modules[0].folder}/{modules[0].assembly}.asmdef"
    core_guid = out.guid(core_path)
    for mod in modules:
        path = f"{mod.folder}/{mod.assembly}.asmdef"
        refs = [] if mod.index == 0 else [f"GUID:{core_guid}"]
        guids[path] = out.asset(path, _asmdef(mod.assembly, refs, []), "asmdef", "AssemblyDefinitionImporter")
        if mod.of_role("editor"):
            epath = f"{mod.folder}/Editor/{mod.assembly}.Editor.asmdef"
            erefs = [f"GUID:{guids[path]}", *refs]
            guids[epath] = out.asset(
                epath, _asmdef(mod.assembly + ".Editor", erefs, ["Editor"]), "asmdef", "AssemblyDefinitionImporter"
            )
    return guids


def _asmdef(name: str, references: list[str], platforms: list[str]) -> str:
    data = {
        "name": name,
        "rootNamespace": name.removesuffix(".Editor"),
        "references": references,
        "includePlatforms": platforms,
        "excludePlatforms": [],
        "allowUnsafeCode": False,
        "overrideReferences": False,
        "precompiledReferences": [],
        "autoReferenced": True,
        "defineConstraints": [],
        "versionDefines": [],
        "noEngineReferences": False,
    }
    return json.dumps(data, indent=4) + "\n"


def _write_shaders(out: _Out, rng: random.Random, n: int) -> list[str]:
    guids = []
    taken: set[str] = set()
    for _ in range(n):
        name = _unique(rng.choice(ADJECTIVES) + rng.choice(NOUNS), taken)
        text = yaml_text.shader(name, rng)
        guids.append(out.asset(f"Assets/Shaders/{name}.shader", text, "shader", "ShaderImporter"))
    return guids


def _write_materials(out: _Out, rng: random.Random, modules: list[Module], shaders: list[str], n: int) -> int:
    taken: set[str] = set()
    for i in range(n):
        mod = modules[i % len(modules)]
        name = _unique(rng.choice(ADJECTIVES) + rng.choice(NOUNS), taken)
        path = f"{mod.folder}/Materials/{name}.mat"
        guid = out.asset(path, yaml_text.material(name, rng.choice(shaders), rng), "material", "NativeFormatImporter")
        mod.materials.append((path, guid))
    return n


def _write_prefabs(out: _Out, rng: random.Random, modules: list[Module]) -> dict[str, int]:
    counts = {"prefabs": 0, "variants": 0, "nested_instances": 0}
    taken: set[str] = set()
    every_material = [m for mod in modules for m in mod.materials]
    for mod in modules:
        behaviours = mod.of_role("behaviour")
        if not behaviours:
            continue
        for _ in range(max(1, round(len(behaviours) * PREFABS_PER_BEHAVIOUR))):
            ids = _Ids(rng)
            main = rng.choice(behaviours)
            extra = rng.sample(behaviours, min(len(behaviours), rng.randint(0, 2)))
            carried = list(dict.fromkeys([main, *extra]))
            name = _unique(main.name.removesuffix("Controller") or main.name, taken)
            path = f"{mod.folder}/Prefabs/{name}.prefab"
            nested = rng.choice(mod.prefabs) if mod.prefabs and rng.random() < NESTED_SHARE else None
            materials = mod.materials or every_material
            material = rng.choice(materials)[1]
            prefab, text = yaml_text.prefab(name, path, out.guid(path), carried, nested, material, mod, ids, rng)
            out.asset(path, text, "prefab", "PrefabImporter")
            mod.prefabs.append(prefab)
            counts["prefabs"] += 1
            counts["nested_instances"] += nested is not None
        for base in list(mod.prefabs):
            if base.variant_of is None and rng.random() < VARIANT_SHARE:
                ids = _Ids(rng)
                name = _unique(base.name + "Variant", taken)
                path = f"{mod.folder}/Prefabs/Variants/{name}.prefab"
                added = rng.choice(behaviours)
                variant, text = yaml_text.variant(name, path, out.guid(path), base, added, ids, rng)
                out.asset(path, text, "prefab", "PrefabImporter")
                mod.prefabs.append(variant)
                counts["variants"] += 1
    return counts


def _write_so_assets(out: _Out, rng: random.Random, modules: list[Module]) -> int:
    n = 0
    for mod in modules:
        for path, guid, script in mod.assets:
            name = path.rsplit("/", 1)[1].removesuffix(".asset")
            others = [a for a in mod.assets if a[0] != path]
            prefab = rng.choice(mod.prefabs) if mod.prefabs else None
            text = yaml_text.so_asset(name, script, prefab, others, rng)
            written = out.asset(path, text, "asset", "NativeFormatImporter:11400000")
            assert written == guid
            n += 1
    return n


def _write_scenes(
    out: _Out, rng: random.Random, modules: list[Module], counts: dict[str, int]
) -> list[tuple[str, str]]:
    scenes = []
    for mod in modules:
        behaviours = mod.of_role("behaviour")
        if not behaviours:
            continue
        path = f"{mod.folder}/Scenes/{mod.name}Level.unity"
        text = yaml_text.scene(mod, behaviours, _Ids(rng), rng)
        counts["scene_instances"] = counts.get("scene_instances", 0) + text.count("\nPrefabInstance:\n")
        scenes.append((path, out.asset(path, text, "scene", "DefaultImporter")))
    return scenes


def _write_settings(out: _Out, scenes: list[tuple[str, str]]) -> None:
    out.write("ProjectSettings/ProjectVersion.txt", yaml_text.PROJECT_VERSION, "settings")
    out.write("ProjectSettings/EditorBuildSettings.asset", yaml_text.build_settings(scenes), "settings")
    out.write("ProjectSettings/TagManager.asset", yaml_text.TAG_MANAGER, "settings")
    manifest = {"dependencies": {"com.unity.ugui": "1.0.0", "com.unity.test-framework": "1.1.33"}}
    out.write("Packages/manifest.json", json.dumps(manifest, indent=2) + "\n", "json")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--scripts", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.out.exists() and any(args.out.iterdir()):
        ap.error(f"{args.out} is not empty")
    s = generate(args.out, args.scripts, args.seed)
    print(json.dumps({"counts": s.counts, "bytes_by_kind": s.bytes_by_kind, "seconds": round(s.seconds, 2)}))


if __name__ == "__main__":
    os.umask(0o022)
    main()
