"""What a file is, learned from the project's structure, and how much that says about a task.

Text matches alone rank a third-party library, a test or a particle-effect prefab level with the
game code a task is about. None of these is recognised by its name: third-party code by its own
license file or a vendor folder, tests by their NUnit attributes or a test assembly, art-only
prefabs by carrying no project script (not even through the prefabs they are variants of).
A task that says it is about tests, or about how something looks or sounds, lifts the prior."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from indexer.project import is_script
from indexer.query.carriers import carried_each
from indexer.unity import nearest_assembly

if TYPE_CHECKING:
    from indexer.model import CodeOutline, FileRecord
    from indexer.query.graph import Graph
    from indexer.store.reader import Records

VENDORED_PRIOR = 0.4
ART_PRIOR = 0.5
# A task that asks for code (names no kind of asset, no configuring, no looks) ranks prefabs and
# scenes lower: their names share the task's nouns ("the tank's shield" and `PlayerGraphics_Tank`),
# while the behaviour asked about is in scripts, which still bring their carriers through the walk.
CODE_TASK_ASSET_PRIOR = 0.7
CODE_TASK_ASSET_KINDS = frozenset({"prefab", "scene"})
# A task reporting a fault ("where do I fix that?", "the console spams an exception") is answered
# by code even when it tells of sounds or looks ("the sound effects keep playing"): every other
# file scales by FAULT_PRIOR more. Not "code" or "script": a question asking "which code starts it
# and which UI shows it" wants both (docs/retrieval.md, session 42).
FAULT_WORDS = frozenset("bug bugs fix crash crashes exception error errors".split())  # noqa: SIM905
FAULT_PRIOR = 0.7
# Tests below game code, unless the task is about tests or the project's own scripts are largely
# tests (a package repository, whose Assets/ folder is mostly its test suite).
TEST_PRIOR = 0.7
MINOR_TEST_SHARE = 0.25
# Editor code (inspectors, windows, importers) below the game code it serves: a custom inspector
# shares every name of its component, but a report of how the game behaves is about the component.
# Not when the task is about the editor, or when two thirds of the project's own scripts are editor
# code (an editor extension, whose tasks are about it).
EDITOR_PRIOR = 0.7
MINOR_EDITOR_SHARE = 2 / 3
# A type row of a test: NUnit-attributed, or derived from a test base (build/roles.py).
_TEST_TYPE = "(t.test = 1 OR t.category = 'test')"
# An asmdef that compiles tests: it references the test runner or NUnit, or needs the test define.
_TEST_ASSEMBLY = re.compile(r"TestRunner|nunit\.framework|UNITY_INCLUDE_TESTS", re.I)
# Words of a task about tests, or about how things look or sound (then art assets are the answer).
TEST_WORDS = frozenset({"test", "tests", "testing", "tested", "unittest", "unittests", "nunit", "assert", "fixture"})
# A task about sounds alone ("play a sound when hit") is not about visual effects, whose names
# say "hit" as often as the sounds' do: those keep ART_PRIOR (file_roles.role_priors).
AUDIO_WORDS = frozenset("sound sounds audio sfx music clip clips".split())  # noqa: SIM905
VISUAL_WORDS = frozenset(
    """visual visuals graphic graphics vfx fx effect effects particle particles look looks appearance glow flash shader
    shaders material materials texture textures sprite sprites colour color colours colors mesh model
    animation animations animator clip clips thick thicker thin thinner bright brighter transparent
    blur blurry blurred bloom vignette exposure tonemapping""".split()  # noqa: SIM905
)
ART_WORDS = AUDIO_WORDS | VISUAL_WORDS
EDITOR_WORDS = frozenset(
    """editor editors inspector inspectors gizmo gizmos drawer drawers importer importers postprocessor
    wizard editorwindow menuitem""".split()  # noqa: SIM905
)
# Words of a task about input: then the C# class Unity's Input System generates from an actions
# asset is an answer (its bindings, its callbacks); otherwise it ranks below hand-written code, as it
# names every action of the game ("Jump", "Build", "Zoom") without holding what any of them does.
INPUT_WORDS = frozenset(
    """input inputs control controls controller controllers key keys keyboard keybind keybinds wasd
    binding bindings bind rebind button buttons gamepad joystick mouse hotkey hotkeys shortcut shortcuts
    touch press pressed pressing presses""".split()  # noqa: SIM905
)
GENERATED_PRIOR = 0.5
ART_KINDS = frozenset({"prefab"})
# Files that are looks by their kind: a material, an animation clip, an animator controller, a
# visual effect graph share the task's nouns (`EnemyIdle.anim` for "the enemy idles too long") but
# hold no behaviour; they rank as art prefabs do, below game logic unless the task is about looks.
LOOK_KINDS = frozenset({"material", "animation", "animator", "vfx"})
# Files of Unity's own YAML kinds that are looks: a sprite atlas lists every sprite of a creature,
# a terrain layer is named as what it draws, an avatar mask (the bones an animation layer moves) as
# the character, and none holds behaviour. (Not a render texture: what a camera or a video player
# draws into is how the screen shows it, which "how is the movie drawn" asks without a word of looks.)
LOOK_EXTENSIONS = (
    ".spriteatlas",
    ".spriteatlasv2",
    ".cubemap",
    ".flare",
    ".terrainlayer",
    ".lighting",
    ".giparams",
    ".fontsettings",
    ".brush",
    ".mask",
)
# Of the looks, those a sound never lives in (an animation clip may fire a footstep sound).
VISUAL_KINDS = frozenset({"material", "vfx"})
EFFECT_SHARE = 0.5  # is_effect: the share of a prefab's objects holding a particle system
EFFECT_MARK = b"ParticleSystem"  # what the record of an effect holds (is_effect), in its bytes too
SOUND_MARK = b"AudioSource"  # ... and of a sound (is_sound)
# The components a sound's objects hold: its source, the filters shaping what it plays, and scripts
# (a pool's script stopping it when its clip ends). An object holding anything else is drawn,
# touched, moved or lit (a door, a pickup, a missile with its light): a thing that makes a sound.
SOUND_PARTS = frozenset(
    """Transform AudioSource AudioReverbFilter AudioLowPassFilter AudioHighPassFilter AudioEchoFilter
    AudioDistortionFilter AudioChorusFilter AudioReverbZone MonoBehaviour""".split()  # noqa: SIM905
)
# A task that names a kind of asset wants files of that kind; one that asks where something is
# configured, set, wired or placed wants the assets carrying the code (the walk's carrier edges count more).
KIND_WORDS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("prefab", "prefabs"), ("prefab",)),
    **dict.fromkeys(("scene", "scenes"), ("scene",)),
    **dict.fromkeys(("material", "materials"), ("material",)),
    **dict.fromkeys(("shader", "shaders"), ("shader", "shader_include", "shadergraph")),
    **dict.fromkeys(("animation", "animations"), ("animation", "animator")),
    "animator": ("animator",),  # "which animator controller": clips flooded its answers
    **dict.fromkeys(("scriptableobject", "scriptableobjects"), ("asset",)),
    **dict.fromkeys(("timeline", "timelines"), ("timeline",)),  # file_roles.named_kind
    # "which physics material", joined by identifiers.said_words: not a look's material (named_kinds)
    **{w: ("physics_material",) for w in ("physicmaterial", "physicsmaterial", "physicmaterials", "physicsmaterials")},
}
NAMED_KIND_PRIOR = 1.5
# A scene the build leaves out (a test, a sample, a scratch level) below those a player gets, when
# the build lists any and the task is not about tests.
OFF_BUILD_PRIOR = 0.9
# Unity's copies of unsaved scenes after a crash (`Assets/_Recovery/0 (2).unity`): stale doubles of
# the game's scenes, which crowded them out of a trial's answers.
RECOVERY_PRIOR = 0.4
RECOVERY_FOLDER = "/_Recovery/"
# The Addressables package's own settings, in the folder it writes (`Assets/AddressableAssetsData/`:
# its settings, profiles, group schemas, data builders): "which asset sets how long a level lasts"
# ranked three of them above the game's level data, on the word "asset". Not its groups
# (`AssetGroups/*.asset`), which list the game's assets by address; not when the task says "addressable".
PACKAGE_SETTINGS_PRIOR = 0.4
_ADDRESSABLES_DATA = "Assets/AddressableAssetsData/"
ADDRESSABLES_WORDS = frozenset({"addressable", "addressables"})


def is_package_settings(path: str) -> bool:
    """A settings file of the Addressables package (not a group of the game's assets)."""
    at = path.find(_ADDRESSABLES_DATA)
    if at < 0 or (at and path[at - 1] != "/"):
        return False
    rest = path[at + len(_ADDRESSABLES_DATA) :]
    return not (rest.startswith("AssetGroups/") and rest.count("/") == 1)


# No file's prior (`file_roles.role_priors`: some of the priors above, multiplied) is above this.
PRIOR_CEILING = math.prod(
    max(1.0, f)
    for f in (
        VENDORED_PRIOR,
        RECOVERY_PRIOR,
        PACKAGE_SETTINGS_PRIOR,
        ART_PRIOR,
        CODE_TASK_ASSET_PRIOR,
        TEST_PRIOR,
        EDITOR_PRIOR,
        GENERATED_PRIOR,
        NAMED_KIND_PRIOR,
    )
)
ASSET_WORDS = frozenset(
    """asset assets prefab prefabs scene scenes inspector configured configure wired hooked connected assigned placed
    gameobject component components set tune tuned tuning tweak tweaked tweaking""".split()  # noqa: SIM905
)


def test_folders(records: Records) -> frozenset[str]:
    """Folders of test assemblies (every script below one compiles into tests)."""
    out = set()
    for rec in records.asmdefs:
        facts = [r.target for r in rec.refs if r.kind == "assembly"]
        facts += [a for s in rec.symbols if s.kind == "assembly" for a in s.attributes]
        if any(_TEST_ASSEMBLY.search(f) for f in facts):
            out.add(rec.path.rpartition("/")[0] + "/")
    return frozenset(out)


def test_typed(records: Records) -> dict[str, tuple[int, str]]:
    """path -> (file id, kind) of every file declaring a test type, read once per index generation:
    one scan of the type rows for the few that are tests, then those files by id. Asking of each
    query's files in turn cost a join over their type rows per query (1-2 ms on 8,000 scripts)."""
    ids = [i for (i,) in records.conn.execute(f"SELECT DISTINCT t.file_id FROM types t WHERE {_TEST_TYPE}")]
    out: dict[str, tuple[int, str]] = {}
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        sql = f"SELECT id, path, kind FROM files WHERE id IN ({','.join('?' * len(chunk))})"
        out.update((path, (file_id, kind)) for file_id, path, kind in records.conn.execute(sql, chunk))
    return out


def is_test(path: str, folders: frozenset[str], typed: dict[str, tuple[int, str]]) -> bool:
    """Whether a path holds tests: NUnit-attributed types (`typed`, of test_typed), or it is a
    test assembly's script."""
    return path in typed or (is_script(path) and any(path.startswith(f) for f in folders))


def test_share(records: Records, folders: frozenset[str], typed: dict[str, tuple[int, str]]) -> float:
    """The share of the scripts under `Assets/` that are tests (NUnit types or a test assembly's)."""
    own = "f.kind = 'csharp' AND f.path > 'Assets/' AND f.path < 'Assets0'"
    conn = records.conn
    total = conn.execute(f"SELECT COUNT(*) FROM files f WHERE {own}").fetchone()[0]
    tests = {i for p, (i, kind) in typed.items() if kind == "csharp" and "Assets/" < p < "Assets0"}
    for folder in folders:
        sql = f"SELECT f.id FROM files f WHERE {own} AND f.path > ? AND f.path < ?"
        tests.update(i for (i,) in conn.execute(sql, (folder, folder[:-1] + "0")))
    return len(tests) / total if total else 0.0


def input_wrappers(records: Records) -> frozenset[str]:
    """Scripts declaring a class the Input System generated from an actions asset: it implements
    `IInputActionCollection` (`IInputActionCollection2` since Input System 1.1), which hand-written
    code has no reason to."""
    sql = (
        "SELECT DISTINCT f.path FROM types t JOIN files f ON f.id = t.file_id"
        " WHERE t.bases LIKE '%IInputActionCollection%'"
    )
    return frozenset(p for (p,) in records.conn.execute(sql))


def is_editor_script(path: str, assemblies: dict[str, bool]) -> bool:
    """A script compiled into an editor assembly: its asmdef (the nearest asmdef or asmref above
    it, `unity.nearest_assembly` over `assemblies.assembly_folders`) is for the editor alone or,
    with none above it, it is below a folder named `Editor` (Unity's rule)."""
    if not is_script(path):
        return False
    editor = nearest_assembly(path, assemblies)
    if editor is not None:
        return editor
    return path.startswith("Editor/") or "/Editor/" in path


def editor_share(records: Records, assemblies: dict[str, bool]) -> float:
    """The share of the scripts under `Assets/` that are editor code: `is_editor_script` decided
    once a folder (its asmdef and `Editor/` rule depend on the folder alone), as a cold query at
    20,000 scripts asked it of each (50 ms)."""
    sql = "SELECT path FROM files WHERE kind = 'csharp' AND path > 'Assets/' AND path < 'Assets0'"
    scripts = [p for (p,) in records.conn.execute(sql)]
    folders: dict[str, bool] = {}
    for p in scripts:
        folder = p.rpartition("/")[0]
        if folder not in folders:  # a script of the folder: the rule of a name in it, is_script aside
            folders[folder] = is_editor_script(f"{folder}/x.cs", assemblies)
    return sum(folders[p.rpartition("/")[0]] and is_script(p) for p in scripts) / len(scripts) if scripts else 0.0


def has_logic(graph: Graph, prefab: str) -> bool:
    """A prefab carries a project script: its own, or one of the prefabs it is built from."""
    if any(e == "script" for _, e in graph.uses(prefab)):
        return True
    return any(is_script(p) for p, _ in carried_each(graph, prefab))


class ArtPrefabs:
    """Whether a prefab, by GUID, is one of looks (`has_logic`: no project script), once a prefab."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.known: dict[str, bool] = {}

    def __call__(self, guid: str) -> bool:
        if guid not in self.known:
            path = self.graph.path_of_guid(guid)
            self.known[guid] = path is not None and not has_logic(self.graph, path)
        return self.known[guid]


# yaml_facts.overridable_shown, or the keys of a setting whose value is a block of its own
_OVERRIDABLE = re.compile(r"^\w+: (?:.*\((?:not )?overridden\)|\{(?:m_OverrideState|overrideState), .*)$")


def is_volume_profile(rec: FileRecord | CodeOutline | None) -> bool:
    """A data asset most of whose fields are overridable parameters (`{m_OverrideState,
    m_Value}`, the post-processing stack's `{overrideState, value}`, shown as `intensity: 0.45
    (overridden)`): a render pipeline's volume
    profile (bloom, fog, vignette), how things look, whatever words its effects' names share."""
    if rec is None:
        return False
    fields = [s for s in rec.symbols if s.kind == "field"]
    return len(fields) >= 4 and sum(bool(_OVERRIDABLE.match(s.signature)) for s in fields) >= 0.5 * len(fields)


# The packages of rendering: a data asset of one of their classes (a render pipeline asset, its
# renderer's data, its global settings, a post-processing profile) is about how things look. URP's
# global settings matched "which asset decides how slippery that strip is" first by its shader
# stripping fields (`m_StripDebugVariants`).
RENDER_PACKAGES = ("com.unity.render-pipelines.", "com.unity.postprocessing")


def is_render_setting(rec: FileRecord | CodeOutline | None, package_scripts: dict[str, tuple[str, str]]) -> bool:
    """A data asset whose script is a class of a rendering package (RENDER_PACKAGES;
    `package_scripts`: GUID -> (class, package), `graph.package_scripts`)."""
    typed = next((s.type for s in rec.symbols if s.kind == "field" and s.type.startswith("script:")), "") if rec else ""
    package = package_scripts.get(typed[len("script:") :].lower(), ("", ""))[1] if typed else ""
    return package.startswith(RENDER_PACKAGES)


# Unity's own classes of art a data asset may hold as its main object: a model's avatar, a mesh,
# a texture or sprite, baked lighting. A zombie's `Poison_Zombie_Avatar.asset` matched every
# question about zombies by its name (a trial: first in the pack for "zombies walk through walls").
ART_CLASSES = frozenset(
    """Avatar AvatarMask Mesh Texture2D Texture2DArray Texture3D Cubemap RenderTexture Sprite SpriteAtlas
    LightingDataAsset LightingSettings TerrainLayer Font""".split()  # noqa: SIM905
)


def is_art_object(rec: FileRecord | CodeOutline | None) -> bool:
    """A data asset whose main object is one of Unity's classes of art (ART_CLASSES)."""
    first = next((s for s in rec.symbols if s.kind in ("object", "scriptable_object")), None) if rec else None
    return first is not None and first.kind == "object" and first.signature in ART_CLASSES


def is_effect(rec: FileRecord | CodeOutline | None) -> bool:
    """A prefab at least EFFECT_SHARE of whose objects hold a particle system: a visual effect,
    even when it carries the project's effect script (a self-destruct timer, a shutdown list). A
    character or a pickup with a dust trail holds one among many objects."""
    if rec is None:
        return False
    objects = sum(s.kind == "gameobject" for s in rec.symbols)
    particles = {s.container for s in rec.symbols if s.kind == "component" and s.name == "ParticleSystem"}
    return objects > 0 and len(particles) >= EFFECT_SHARE * objects


def is_sound(rec: FileRecord | CodeOutline | None) -> bool:
    """A prefab at least EFFECT_SHARE of whose objects hold an audio source and whose components
    are all a sound's (SOUND_PARTS): a sound, as a particle effect is a look, even when it carries
    a script stopping it. A pool of sound prefabs named for the game's events
    (`ThrowAxe1.prefab`, `PlayerJump.prefab`) matches every task about those events."""
    if rec is None:
        return False
    objects = sum(s.kind == "gameobject" for s in rec.symbols)
    components = [s for s in rec.symbols if s.kind == "component"]
    if any(s.name not in SOUND_PARTS for s in components):
        return False
    sounding = {s.container for s in components if s.name == "AudioSource"}
    return objects > 0 and len(sounding) >= EFFECT_SHARE * objects


def named_kinds(terms: Iterable[str]) -> frozenset[str]:
    """The file kinds a task names ("which prefab ...": prefab). A task saying "animator" asks for
    the controller, whatever animations it tells of: "which animator controller holds the walking,
    idle and swing animations" ranked eight clips named for them above it."""
    said = set(terms)
    kinds = frozenset(k for t in said for k in KIND_WORDS.get(t, ()))
    kinds -= {"material"} if "physics_material" in kinds else set()  # its "material" is no look's
    return kinds - {"animation"} if "animator" in said else kinds


def asks_for(terms: Iterable[str], words: frozenset[str]) -> bool:
    return any(t in words for t in terms)


def asks_code(said: list[str]) -> bool:
    """The task asks for code: it names no kind of asset and no configuring, and asks for no looks
    unless it reports a fault (FAULT_WORDS; prefabs and scenes rank lower, CODE_TASK_ASSET_PRIOR)."""
    if named_kinds(said) or asks_for(said, ASSET_WORDS):
        return False
    return not asks_for(said, ART_WORDS) or asks_for(said, FAULT_WORDS)
