"""What a file's role in the project says about a task: each candidate's prior, from the roles
the project's structure gives its files (priors.py: third-party, tests, editor code, art, generated
input wrappers, scenes the build leaves out), each decided once per index generation."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from itertools import pairwise
from typing import TYPE_CHECKING

from indexer.identifiers import split_identifier, stem
from indexer.query.priors import (
    ADDRESSABLES_WORDS,
    ART_KINDS,
    ART_PRIOR,
    ART_WORDS,
    AUDIO_WORDS,
    CODE_TASK_ASSET_KINDS,
    CODE_TASK_ASSET_PRIOR,
    EDITOR_PRIOR,
    EDITOR_WORDS,
    EFFECT_MARK,
    FAULT_PRIOR,
    FAULT_WORDS,
    GENERATED_PRIOR,
    INPUT_WORDS,
    KIND_WORDS,
    LOOK_EXTENSIONS,
    LOOK_KINDS,
    MINOR_EDITOR_SHARE,
    MINOR_TEST_SHARE,
    NAMED_KIND_PRIOR,
    OFF_BUILD_PRIOR,
    PACKAGE_SETTINGS_PRIOR,
    RECOVERY_FOLDER,
    RECOVERY_PRIOR,
    SOUND_MARK,
    TEST_PRIOR,
    TEST_WORDS,
    VENDORED_PRIOR,
    VISUAL_KINDS,
    VISUAL_WORDS,
    asks_code,
    asks_for,
    editor_share,
    has_logic,
    input_wrappers,
    is_art_object,
    is_editor_script,
    is_effect,
    is_package_settings,
    is_render_setting,
    is_sound,
    is_test,
    is_volume_profile,
    named_kinds,
    test_share,
    test_typed,
)
from indexer.query.vendored import build_scenes, is_vendored, names_package, vendor_package
from indexer.store.schema import MAX_OUTLINE_ENTRIES

if TYPE_CHECKING:
    from indexer.store.reader import Records

# A sound prefab's project scripts are helpers carried by this many files or more (a pool's script
# stopping each sound), not a script of its own (a settings object holding the music's source).
SOUND_HELPERS = 3
# Kinds a task names that the scanners read as Unity YAML, told by the file's extension: a Timeline
# asset (`.playable`) is read as a mixer or a preset is, but "which timeline spawns the red enemy
# ships" names it (session 45's second trial). A physics material is read as Unity YAML too: "which
# physics material makes the sand slow the ball" named rendering materials (session 47's trial).
YAML_KINDS_BY_EXTENSION = {
    ".playable": "timeline",
    ".physicmaterial": "physics_material",
    ".physicsmaterial2d": "physics_material",
}


def named_kind(path: str, kind: str) -> str:
    """The kind a task names a file by: its stored kind, or for Unity YAML the one its extension
    tells (YAML_KINDS_BY_EXTENSION), which no scanner stores."""
    if kind != "unity_yaml":
        return kind
    return YAML_KINDS_BY_EXTENSION.get(path[path.rfind(".") :].lower(), kind)


def stored_kinds(kinds: frozenset[str]) -> frozenset[str]:
    """The stored kinds of files of these kinds (a timeline is stored as Unity YAML)."""
    told = frozenset(YAML_KINDS_BY_EXTENSION.values())
    return frozenset("unity_yaml" if k in told else k for k in kinds)


# A player's report tells a fault without naming one: "the shots never disappear", "it doesn't
# jump", "the level keeps running at half speed", "he still stands there".
_SYMPTOM = re.compile(
    r"\b(?:never|doesn['’]t|does not|don['’]t|do not|won['’]t|can['’]t|cannot|isn['’]t|aren['’]t|didn['’]t"
    r"|no longer|keeps|still)\b",
    re.IGNORECASE,
)


# "Skip the guide in editor", "when testing in the Unity editor": where the game runs (Play in the
# editor), not the editor code (an inspector, a window) the word names otherwise; "in the editor's
# Quick Actions window" and "in the editor window" are that code.
_IN_EDITOR = re.compile(
    r"\bin\s+(?:the\s+)?(?:unity\s+)?editor\b"
    r"(?!['’]s|\s+(?:windows?|tools?|scripts?|code|extensions?|ui|menus?|panels?|inspectors?|utilit))",
    re.I,
)


def role_terms(terms: list[str], text: str) -> list[str]:
    """The terms deciding whether a task is about editor code (`role_priors`): without "editor"
    when each time the task says it, it says where the game runs ("chore: skip calibration guide
    in editor"): the change is to runtime code asking whether it runs in the editor, and editor
    scripts keep their prior."""
    said = len(re.findall(r"\beditor\b", text, re.I))
    if said and said == len(_IN_EDITOR.findall(text)):
        return [t for t in terms if t != "editor"]
    return terms


# A kind of file said as a span of time names no file: "what freezes the actors during a timeline"
# asks for the code doing it, not for a timeline asset (session 45's second trial).
_AS_TIME = re.compile(r"\b(?:during|throughout)\s+(?:(?:a|an|the|each|every|this|that|its|their)\s+)?(\w+)", re.I)


# Words naming both a kind of file and the system playing it: "where does the timeline decide to
# jump back" asks for code, "which timeline spawns the red ships" and "which prefab and timeline"
# for the asset. They name files only asked for by "which"/"what" or beside another kind's word.
_RUNTIME_KIND_WORDS = frozenset({"timeline", "timelines"})
_ASKED_KIND = re.compile(r"\b(?:which|what)\s+(\w+)", re.I)


def _naming_no_file(text: str) -> frozenset[str]:
    """The words naming kinds of file (priors.KIND_WORDS) the task says as a span of time, or
    names a system by (_RUNTIME_KIND_WORDS) without asking for one or another kind."""
    said = {w.lower() for w in re.findall(r"\w+", text)}
    asked = {m.group(1).lower() for m in _ASKED_KIND.finditer(text)}
    others = said & KIND_WORDS.keys() - _RUNTIME_KIND_WORDS
    runtime = frozenset() if others else _RUNTIME_KIND_WORDS & said - asked
    return frozenset(m.group(1).lower() for m in _AS_TIME.finditer(text)) & KIND_WORDS.keys() | runtime


def role_words(said: list[str], text: str, paths: Iterable[str]) -> list[str]:
    """The words deciding a task's roles, once a query: `said`, less a fault word (FAULT_WORDS)
    ending a name the files found give their things ("what does the pill bug drop" names
    `Pill Bug Drop Table.asset`, `PillBugMover.cs`, and reports no bug; `said` holds the joined
    "pillbug", `compounds`), and with "bug" when the task tells a fault in a player's words
    (`_SYMPTOM`), read as one naming it; less a kind of file said as a span of time
    (`_naming_no_file`)."""
    timed = _naming_no_file(text)
    said = [w for w in said if w not in timed] if timed else said
    faults = [w for w in said if w in FAULT_WORDS]
    if faults:
        pairs = _name_pairs(paths)
        joined = [w for w in said if w not in faults]
        named = {f for f in faults if any(j.endswith((f, f.rstrip("s"))) and j.rstrip("s") in pairs for j in joined)}
        said = [w for w in said if w not in named]
    return [*said, "bug"] if _SYMPTOM.search(text) and not asks_for(said, FAULT_WORDS) else said


def _name_pairs(paths: Iterable[str]) -> frozenset[str]:
    """Each two words following each other in a file's name, joined in lower case (`Pill Bug
    Drop Table.asset`: pillbug, bugdrop, droptable)."""
    out: set[str] = set()
    for path in paths:
        words = [w.lower() for w in split_identifier(path.rsplit("/", 1)[-1].partition(".")[0])]
        out.update(a + b for a, b in pairwise(words))
    return frozenset(out)


def role_priors(project, kinds: dict[str, str], terms: list[str], said: list[str]) -> dict[str, float]:
    """path -> prior: below 1 for third-party code, Unity's crash-recovery copies of scenes, the
    Addressables package's settings (unless the task says "addressable"), for prefabs without a
    project script (unless the task is about how things look or sound), for prefabs and scenes when
    the task asks for code (every file but scripts when it reports a fault), for tests (unless the
    task is about tests) and for the Input System's generated class (unless the task is about
    input); above 1 for the kinds the task names.
    `said` (identifiers.said_words, `role_words`) decides what the task asks for; `terms`, with the parts of
    the names it quotes, whether it is about tests (`HealthTests` is)."""
    out: dict[str, float] = {}

    def scale(paths: Iterable[str], factor: float) -> None:
        for path in paths:
            out[path] = out.get(path, 1.0) * factor

    scale(_third_party(project, kinds, terms), VENDORED_PRIOR)
    scale((p for p in kinds if RECOVERY_FOLDER in f"/{p}"), RECOVERY_PRIOR)
    if not asks_for(terms, ADDRESSABLES_WORDS):
        scale((p for p in kinds if is_package_settings(p)), PACKAGE_SETTINGS_PRIOR)
    wanted = named_kinds(said)
    scale((p for p, k in kinds.items() if named_kind(p, k) in wanted), NAMED_KIND_PRIOR)
    if not asks_for(said, ART_WORDS):
        looks = (
            p
            for p, k in kinds.items()
            if k in LOOK_KINDS
            or _looks_by_name(k, p)
            or (k in ART_KINDS and _is_art(project, p))
            or (k == "asset" and _is_look(project, p))
        )
        scale(looks, ART_PRIOR)
    elif not asks_for(said, VISUAL_WORDS):  # sounds only: visual effects are still looks
        visual = (
            p
            for p, k in kinds.items()
            if k in VISUAL_KINDS or _looks_by_name(k, p) or (k in ART_KINDS and _is_effect(project, p))
        )
        scale(visual, ART_PRIOR)
    elif not asks_for(said, AUDIO_WORDS):  # looks only: sounds are no answer
        scale((p for p, k in kinds.items() if k in ART_KINDS and _is_sound(project, p)), ART_PRIOR)
    if asks_code(said):
        scale((p for p, k in kinds.items() if k in CODE_TASK_ASSET_KINDS), CODE_TASK_ASSET_PRIOR)
        if asks_for(said, FAULT_WORDS):
            scale((p for p, k in kinds.items() if k != "csharp"), FAULT_PRIOR)
    scripts = [p for p, k in kinds.items() if k == "csharp"]
    tests = set(tests_of(project, scripts))
    if not asks_for(terms, TEST_WORDS) and _tests_are_minor(project):
        scale(tests, TEST_PRIOR)
    if not asks_for(said, INPUT_WORDS):
        wrappers = project.remember(("input_wrappers",), lambda: input_wrappers(project.records), role=True)
        scale((p for p in scripts if p in wrappers), GENERATED_PRIOR)
    if not asks_for(terms, EDITOR_WORDS) and _editor_is_minor(project):
        scale(_editor_scripts(project, [p for p in scripts if p not in tests]), EDITOR_PRIOR)
    built = project.remember(("build scenes",), lambda: build_scenes(project.records), role=True)
    if built and not asks_for(terms, TEST_WORDS):
        scale((p for p, k in kinds.items() if k == "scene" and p not in built), OFF_BUILD_PRIOR)
    return out


def _looks_by_name(kind: str, path: str) -> bool:
    """A file of one of Unity's YAML kinds of looks (priors.LOOK_EXTENSIONS)."""
    return kind == "unity_yaml" and path.lower().endswith(LOOK_EXTENSIONS)


def _third_party(project, kinds: dict[str, str], terms: list[str]) -> list[str]:
    """The third-party files among these, unless the task names their package."""
    folders = project.vendored
    stems = frozenset(stem(t) for t in terms)
    roles = project.roles  # each path's answer kept as `remember` keeps it, the roles read once
    out = []
    for path in kinds:
        key = ("vendored", path)
        if key in roles:
            package = roles[key]
        else:
            package = roles[key] = vendor_package(path, folders)
        if package is not None and not names_package(package, stems):
            out.append(path)
    return out


def _is_effect(project, prefab: str) -> bool:
    """A prefab that is a visual effect (priors.is_effect)."""
    return project.remember(("effect", prefab), lambda: _effect_record(project, prefab), role=True)


def _effect_record(project, prefab: str) -> bool:
    """Whether a file's record is one of a visual effect (priors.is_effect)."""
    return _looks(project, prefab)[0]


def _looks(project, prefab: str) -> tuple[bool, bool]:
    """Whether a prefab's record is a visual effect's and whether a sound's (priors.is_effect,
    is_sound), from one read of it, decoded only when its bytes hold a particle system's or an
    audio source's name (EFFECT_MARK, SOUND_MARK): most prefabs hold neither, and a prefab with
    logic is asked both (`_is_art`). A whole stored outline lacking both says so first
    (`_outline_lacks`): it is half the record's bytes to inflate."""

    def read() -> tuple[bool, bool]:
        if _outline_lacks(project.records, prefab, (EFFECT_MARK, SOUND_MARK)):
            return False, False
        rec = project.records.outline_record(prefab, holding=(EFFECT_MARK, SOUND_MARK))
        return is_effect(rec), is_sound(rec)

    return project.remember(("looks", prefab), read, role=True)


_OUTLINE_OF_PATH = "SELECT o.outline FROM files f JOIN outlines o ON o.file_id = f.id WHERE f.path = ?"


def _outline_lacks(records: Records, path: str, marks: tuple[bytes, ...]) -> bool:
    """Whether the file's stored outline is whole and holds none of `marks` (component names):
    then neither does any component of its record. The outline is written with the record, from
    its symbols, components kept, each entry's qualified name ending with the component's; it is
    cut only past MAX_OUTLINE_ENTRIES entries, and its JSON (`[[...],[...]]`) has at least one
    `],[` between any two. No outline row (no document: a skipped file) says nothing."""
    row = records.conn.execute(_OUTLINE_OF_PATH, (path,)).fetchone()
    if row is None:
        return False
    data = records.codec.unpack(row[0])
    return data.count(b"],[") < MAX_OUTLINE_ENTRIES - 1 and not any(mark in data for mark in marks)


def _is_sound(project, prefab: str) -> bool:
    """A prefab that is a sound (priors.is_sound, `_looks`) whose project scripts are all helpers
    (`_helpers_only`)."""
    return project.remember(
        ("sound", prefab), lambda: _looks(project, prefab)[1] and _helpers_only(project.graph, prefab), role=True
    )


def _helpers_only(graph, prefab: str) -> bool:
    """Whether every project script the prefab carries is one many files carry (SOUND_HELPERS at
    least: a pool's script stopping each sound when its clip ends), not one of its own: a game's
    settings object holding the music's audio source (`AppSettings.prefab`, carrying
    `AppSettings.cs` and `RaceManager.cs`) is the game's settings, not a sound."""
    scripts = [p for p, edge in graph.uses(prefab) if edge == "script"]
    return all(_carried_often(graph, s) for s in scripts)


def _carried_often(graph, script: str) -> bool:
    """Whether SOUND_HELPERS files or more carry the script (a hub's users are not listed: it is)."""
    users = graph.used_by(script)
    return not users or sum(edge == "carries_script" for _, edge in users) >= SOUND_HELPERS


def _is_look(project, asset: str) -> bool:
    """A data asset of looks: a render volume profile (priors.is_volume_profile), an avatar, a mesh
    (priors.is_art_object), a rendering package's settings (priors.is_render_setting)."""
    read = project.records.outline_record
    return project.remember(
        ("look", asset),
        lambda: (
            is_volume_profile(rec := read(asset))
            or is_art_object(rec)
            or is_render_setting(rec, project.graph.package_scripts)
        ),
        role=True,
    )


def _is_art(project, prefab: str) -> bool:
    """A prefab of looks, not behaviour: it carries no project script, it is a visual effect or a sound, or
    its scripts are a kit's and only a kit's files use it (priors.kit_logic_only)."""
    return project.remember(
        ("art", prefab),
        lambda: (
            not has_logic(project.graph, prefab)
            or _effect_record(project, prefab)
            or _is_sound(project, prefab)
            or kit_logic_only(project.graph, prefab, project.vendored)
        ),
        role=True,
    )


def kit_logic_only(graph, prefab: str, folders: frozenset[str]) -> bool:
    """A prefab outside the kits whose scripts are all a kit's and that only a kit's files use: an
    art pack's demo stage (`Demo Elements/Prefabs/Stage/Level.prefab`, a character kit's
    `BSPTree` on its rocks, placed in the kit's demo scene) is looks, not the game's logic. A
    prefab the game places (its player on a kit's controller) is the game's."""
    if is_vendored(prefab, folders):
        return False  # a kit's own prefab: VENDORED_PRIOR's, spared when the task names the kit
    scripts = [p for p, e in graph.uses(prefab) if e == "script"]
    if not scripts or not all(is_vendored(p, folders) for p in scripts):
        return False
    return all(is_vendored(p, folders) for p, _ in graph.used_by(prefab))


def _tests_are_minor(project) -> bool:
    """Tests are a small share of the project's own scripts."""
    share = project.remember(
        ("test_share",), lambda: test_share(project.records, project.test_folders, _test_typed(project)), role=True
    )
    return share < MINOR_TEST_SHARE


def _test_typed(project) -> dict[str, tuple[int, str]]:
    """The files declaring test types (priors.test_typed), read once per index generation."""
    return project.remember(("test_typed",), lambda: test_typed(project.records), role=True)


def _editor_scripts(project, scripts: list[str]) -> list[str]:
    """The editor code among these scripts."""
    assemblies = project.assemblies
    return _having(project, "editor", scripts, lambda path: is_editor_script(path, assemblies))


def tests_of(project, scripts: list[str]) -> list[str]:
    """The tests among these scripts."""
    folders, typed = project.test_folders, _test_typed(project)
    return _having(project, "test", scripts, lambda path: is_test(path, folders, typed))


def _having(project, role: str, paths: Iterable[str], decide: Callable[[str], bool]) -> list[str]:
    """The paths `decide` says have this role, each path's answer kept like `remember`'s, but
    with the roles read once: this runs for every candidate of every query."""
    roles = project.roles
    out = []
    for path in paths:
        key = (role, path)
        has = roles.get(key)
        if has is None:
            has = roles[key] = decide(path)
        if has:
            out.append(path)
    return out


def _editor_is_minor(project) -> bool:
    """Editor code is less than two thirds of the project's own scripts (not an editor extension)."""
    share = project.remember(("editor_share",), lambda: editor_share(project.records, project.assemblies), role=True)
    return share < MINOR_EDITOR_SHARE
