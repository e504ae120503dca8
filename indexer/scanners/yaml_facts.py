"""What the Unity YAML scanner reads out of one document, as typed values.

Two readers produce these: the fast line reader (`yaml_reader.TextDoc`) and the reference reader
over ruamel.yaml nodes (`yaml_nodes.NodeDoc`). The scanner builds its records only from these, so
a document either reader handles gives the same records, and the differential test compares the
two readers value by value. Every `line` is the 0-based index of a line in the document body (the
line after the `--- !u!` header is 0).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple, Protocol

from indexer.model import BUILTIN_SCRIPTS
from indexer.scanners.dll_scripts import UI_DLL_CLASSES, UI_DLL_GUIDS
from indexer.shown import (
    LAST_FIELDS_KEPT,
    MAX_FIELDS_PER_OBJECT,
    MAX_NESTED_VALUE_CHARS,
    NAMES_SHOWN,
    SHOWN_REFS,
    count_label,
    short,
)

BUILTIN_GUIDS = frozenset({"0000000000000000e000000000000000", "0000000000000000f000000000000000"})
# Standard fields every Unity object writes; not "serialized fields" of a script.
STANDARD_FIELDS = frozenset(
    """m_ObjectHideFlags m_CorrespondingSourceObject m_PrefabInstance m_PrefabAsset m_PrefabParentObject
    m_PrefabInternal m_GameObject m_Enabled m_EditorHideFlags m_Script m_Name m_EditorClassIdentifier
    serializedVersion""".split()  # noqa: SIM905
)
ARGUMENT_KEYS = {
    "2": "m_ObjectArgument",
    "3": "m_IntArgument",
    "4": "m_FloatArgument",
    "5": "m_StringArgument",
    "6": "m_BoolArgument",
}
# The keys a UnityEvent persistent call is read from (anywhere under its item, the first wins).
CALL_KEYS = ("m_TargetAssemblyTypeName", "m_MethodName", "m_Mode", *ARGUMENT_KEYS.values())
_LISTENER_MODES = {"0": "event", "1": "void", "2": "object", "3": "int", "4": "float", "5": "string", "6": "bool"}
# A call set through a prefab instance's overrides, one property a key (its argument's too)
OVERRIDE_CALL = re.compile(r"^(.+)\.m_PersistentCalls\.m_Calls\.Array\.data\[(\d+)\]\.(?:m_Arguments\.)?(m_\w+)$")
CALL_PATH = ".m_PersistentCalls.m_Calls.Array.data["  # in every match of OVERRIDE_CALL: tried first
CALLS_SIZE = ".m_PersistentCalls.m_Calls.Array.size"  # an event's call count an override sets


def fields_left_out(total: int) -> range:
    """The positions of an object's `total` serialized fields its record leaves out: those between
    the first MAX_FIELDS_PER_OBJECT and the last LAST_FIELDS_KEPT (none of 60 or fewer)."""
    return range(MAX_FIELDS_PER_OBJECT, max(MAX_FIELDS_PER_OBJECT, total - LAST_FIELDS_KEPT))


def scene_argument(method: str, mode: str, argument: str) -> str | None:
    """The scene a UnityEvent call's string argument names, read as a field's value is (`scene_named`):
    by a method named for one, `ChangeScene("Tuesday - 1")`."""
    return scene_named(method, argument) if mode == "5" else None


def call_argument(mode: str, argument: str) -> str:
    """A call's argument as a UnityEvent's line shows it: its kind and value, `int 1`."""
    arg = _LISTENER_MODES.get(mode, "")
    return f"{arg} {short(argument)}" if argument else arg


# The settings of Unity's own components a designer tunes, kept as a script's fields are: what
# "make the units move faster" changes is a NavMeshAgent's `m_Speed`, which no answer showed.
BUILTIN_SETTINGS: dict[str, tuple[str, ...]] = {
    "NavMeshAgent": ("m_Speed", "m_AngularSpeed", "m_Acceleration", "m_StoppingDistance"),
    "Rigidbody": ("m_Mass", "m_Drag", "m_AngularDrag", "m_UseGravity", "m_IsKinematic"),
    "Rigidbody2D": ("m_BodyType", "m_Mass", "m_LinearDrag", "m_AngularDrag", "m_GravityScale"),
    "CharacterController": ("m_Height", "m_Radius", "m_SlopeLimit", "m_StepOffset"),
    "AudioSource": ("m_Volume", "m_Pitch", "Loop", "m_PlayOnAwake"),
    "Light": ("m_Type", "m_Intensity", "m_Range"),
    "Camera": ("field of view", "orthographic", "orthographic size"),
}
_COLLIDERS = """BoxCollider SphereCollider CapsuleCollider MeshCollider BoxCollider2D CircleCollider2D CapsuleCollider2D
PolygonCollider2D EdgeCollider2D""".split()  # noqa: SIM905
# A trigger's extent is a range the game plays by (a tower's targeting radius): read with it
_TRIGGER_EXTENTS = {
    "SphereCollider": ("m_Radius",),
    "CircleCollider2D": ("m_Radius",),
    "CapsuleCollider": ("m_Radius", "m_Height"),
    "BoxCollider": ("m_Size",),
    "BoxCollider2D": ("m_Size",),
    "CapsuleCollider2D": ("m_Size",),
}
BUILTIN_SETTINGS.update({c: ("m_IsTrigger", *_TRIGGER_EXTENTS.get(c, ())) for c in _COLLIDERS})
BUILTIN_DEFAULTS = frozenset({("m_IsTrigger", "0")})  # said by being left out: every collider has it


def builtin_keys(doc: DocReader) -> tuple[str, ...]:
    """The settings to read of a component of Unity's own (BUILTIN_SETTINGS); none of a collider
    that is no trigger, found without reading the document's fields (a scene's thousand colliders)."""
    keys = BUILTIN_SETTINGS.get(doc.class_name, ())
    return () if "m_IsTrigger" in keys and doc.top("m_IsTrigger") in (None, "0") else keys


# A script's string field that may name a scene: called for a scene, level, room, map or stage, or
# holding a scene's path (Mirror's `offlineScene: Assets/Scenes/Menu.unity`).
_SCENE_FIELD = re.compile(r"scene|level|room|map|stage", re.I)
_WRAPPED_TEXT = re.compile(r"\b(?:stringVal|value|m_Value): ([^,{}]+)")
_NOT_A_NAME = frozenset("0123456789-.{[")


# A script's field naming a method its code calls by name (Fungus's `targetMethod`): the method a
# rename would break as silently as a `SendMessage`
_METHOD_FIELDS = ("ethod",)  # `method`, `targetMethod`: the key's end (`m_MethodName` is every UnityEvent's)
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


_RECEIVER_FIELD = re.compile(r"(?:component|type|class)(?:text|name)?$", re.I)  # `targetComponentText`


def may_name_methods(body: str) -> bool:
    """Whether a document may hold a field `methods_named` takes, told from its text at C speed (a
    scene's components each have a UnityEvent's nested `m_MethodName`, which is none)."""
    return "ethod: " in body


def methods_named(fields: list[Field]) -> dict[str, str]:
    """The fields naming a method (`targetMethod: CheckAllStatsAboveThreshold`), key -> method."""
    return {key: shown for key, shown, *_ in fields if key.endswith(_METHOD_FIELDS) and _IDENTIFIER.fullmatch(shown)}


def receiver_named(fields: list[Field]) -> str:
    """The class a component's fields say its named method is called on (`targetComponentText:
    PrepPhaseMenuController`), by its last name; '' when none says."""
    for key, shown, *_ in fields:
        if _RECEIVER_FIELD.search(key) and re.fullmatch(r"[A-Za-z_][\w.]*", shown):
            return shown.rpartition(".")[2]
    return ""


def scene_named(key: str, value: str) -> str | None:
    """The scene a string field's value may name (`roomToLoad: Room1`), as `LoadScene` would take it
    (a path without `.unity`): `refs` of the scene lists it beside the code loading it by name; a
    text a data class wraps (Fungus's `_sceneName: {stringRef: None, stringVal: Friday}`) too."""
    if ".unity" not in value and not scene_key(key):  # most: a field named otherwise (told first: fast)
        return None
    if not value or (value[0] in _NOT_A_NAME and not (value[0].isdigit() and value[-1].isalpha())):
        # most values: a number, a flag, a reference (fast); `3_Map` is a name, and a wrapped text
        if value[:1] != "{" or value.startswith("{fileID") or not scene_key(key):
            return None
        if (m := _WRAPPED_TEXT.search(value)) is None:
            return None
        value = m.group(1).strip()
    if not scene_key(key) and ".unity" not in value:  # most: a word of a field named otherwise
        return None
    v = value.strip().strip("'\"")
    if not v or len(v) > 200 or v[0] in "{[" or v.startswith(("guid:", "script:")) or "(" in v or v in SHOWN_REFS:
        return None
    if v.endswith(".unity"):
        return v[: -len(".unity")]
    return v if scene_key(key) and not v.replace(".", "").lstrip("-").isdigit() else None


@lru_cache(maxsize=4096)
def scene_key(key: str) -> bool:
    """Whether a field's name is one for a scene (`_SCENE_FIELD`); a scene's thousand components
    repeat a handful of names. With `.unity` in the value, what a caller tells first: `scene_named`
    of any other field is None (each field's call to it saved)."""
    return _SCENE_FIELD.search(key) is not None


class Modification(NamedTuple):
    """One prefab override: `propertyPath`, its `value`, the GUID of its `objectReference` (another
    file's object) and its fileID (`local`; without a GUID an object of this file, which the scanner
    names)."""

    prop: str
    value: str
    guid: str
    line: int
    local: int = 0

    @property
    def here(self) -> int:
        """The fileID of the object of this file it references, 0 for none or another file's."""
        return 0 if self.guid else self.local


class Call(NamedTuple):
    """One persistent call of a UnityEvent; `argument` is the one its mode uses ("guid:<g>" for objects);
    `target_guid` the file of its target object when that is another's (an event asset), else ''."""

    event: str
    target: int
    type_name: str
    method: str
    mode: str
    argument: str
    line: int
    target_guid: str


class Field(NamedTuple):
    """A top-level serialized field: its key, a short readable value, and the fileID when the
    value is a same-file reference (the scanner names the object it points at)."""

    key: str
    shown: str
    line: int
    local: int = 0


# The key of the GUID an Addressables `AssetReference` field holds (`m_AssetGUID: 05ea...`, empty
# when none is set): a reference to that asset, shown as one (`guid:05ea...`).
ASSET_GUID_KEY = "m_AssetGUID"


class GuidUse(NamedTuple):
    """A GUID written in the document and the mapping key it belongs to."""

    guid: str
    key: str
    line: int


class TypeUse(NamedTuple):
    """A [SerializeReference] value's class and namespace."""

    cls: str
    ns: str
    line: int


class Property(NamedTuple):
    """A material property: its type (texture, float, color, int), name, value as written."""

    section: str
    name: str
    value: str
    line: int


class Entry(NamedTuple):
    """An item of a list of mappings (animator parameters, layers, a transition's conditions): its
    m_Name and m_Type, and its scalar values by key."""

    name: str
    type: str
    line: int
    values: tuple[tuple[str, str], ...] = ()


class Named(NamedTuple):
    name: str
    line: int


class DocReader(Protocol):
    """What the scanner asks of a document; `TextDoc` and `NodeDoc` answer alike."""

    class_id: int
    file_id: int
    stripped: bool
    line: int  # file line of the `--- !u!` header
    class_name: str
    body: str  # the document's text after its header line

    def at(self, i: int) -> int: ...
    def top(self, key: str) -> str | None: ...
    def top_line(self, key: str) -> int: ...
    def top_ref(self, key: str) -> tuple[int, str]: ...
    def first_ref(self, key: str) -> tuple[int, str]: ...
    def block_ref_ids(self, key: str) -> list[int]: ...
    def instance_name(self) -> str: ...
    def modifications(self) -> list[Modification]: ...
    def fields(self) -> list[Field]: ...
    def guid_uses(self, ignore: frozenset[str] = ..., plain: bool = ...) -> list[GuidUse]: ...
    def calls(self) -> list[Call]: ...
    def type_uses(self) -> list[TypeUse]: ...
    def properties(self) -> list[Property]: ...
    def entries(self, key: str) -> list[Entry]: ...
    def function_names(self) -> list[Named]: ...


# An object inside a prefab instance, in a same-file reference's label: `Hero/source:<guid>:<fileID>
# (Transform)`, the source prefab and the object's file ID there, which the index names by the source.
SOURCE_OBJECT = "source:"
SCRIPT_FILE_ID = 11500000  # a script file's class; a DLL's classes have file IDs of their own


def script_ref(doc: DocReader) -> tuple[int, str]:
    """A MonoBehaviour's `m_Script` (file ID, GUID). A component of Unity's old UI DLL is named by
    the script GUID com.unity.ugui gives its class, as if the package's script were referenced:
    its class, `refs Button` and UnityEvent targets then read as the package's do."""
    fid, guid = doc.top_ref("m_Script")
    if guid in UI_DLL_GUIDS and (script := UI_DLL_CLASSES.get(fid)):
        return SCRIPT_FILE_ID, script
    return fid, guid


def behaviour_label(fid: int, script: str) -> str:
    """How a MonoBehaviour of this `m_Script` is written: `script:<guid>` for a script (with `#<fileID>`
    for a DLL's class), Unity's own class by name (a `Tile`, a `UIDocument` of UI Toolkit), else
    `MonoBehaviour`."""
    if script in BUILTIN_GUIDS:
        return BUILTIN_SCRIPTS.get(str(fid), "MonoBehaviour").rsplit(".", 1)[-1]
    if dll := dll_class(fid, script):  # a DLL's class: `script:<the DLL's GUID>#<the class's file ID>`
        return f"script:{script}#{dll}"
    return f"script:{script}" if script else "MonoBehaviour"


def dll_class(fid: int, script: str) -> str:
    """The file ID of the class an `m_Script` names inside a DLL (`PlayMakerFSM` in PlayMaker.dll,
    named by the DLL's GUID), as text; '' for a script file's class (`SCRIPT_FILE_ID`) or Unity's own."""
    return str(fid) if script and fid and fid != SCRIPT_FILE_ID and script not in BUILTIN_GUIDS else ""


def source_of(doc: DocReader) -> tuple[int, str]:
    """A stripped object's source: its file ID in its prefab, and the prefab's GUID ((0, '') if none)."""
    source, guid = doc.top_ref("m_CorrespondingSourceObject")
    if not guid:
        source, guid = doc.top_ref("m_PrefabParentObject")
    return (source, guid) if guid and source else (0, "")


def source_object(doc: DocReader) -> str:
    """A stripped object's place in a same-file reference's label: `/source:<guid>:<fileID>`, its
    source prefab and its file ID there, named by the index from the source (`Hero/mixamorig:Hand`
    where the label said `Hero`, the instance, for every bone a script holds)."""
    source, guid = source_of(doc)
    return f"/{SOURCE_OBJECT}{guid}:{source}" if guid else ""


# A setting a volume or post-processing profile may override: `{overrideState, value}` (Post
# Processing v2) or `{m_OverrideState, m_Value}` (URP/HDRP volumes; HDRP's `min`, `max` after
# them), shown as its value when that is written on its line.
OVERRIDABLE = (["overrideState", "value"], ["m_OverrideState", "m_Value"])


def overridable_shown(state: str, value: str) -> str:
    """An overridable setting's value and whether the profile overrides it (if not, it does not apply)."""
    return f"{value} ({'not ' if state == '0' else ''}overridden)"


def ref_shown(file_id: str, guid: str) -> str:
    """How a field shows a reference: a GUID, a built-in resource, None, or "&<fileID>"."""
    if guid:
        guid = guid.lower()
        return "built-in resource" if guid in BUILTIN_GUIDS else f"guid:{guid}"
    return "None" if file_id == "0" else f"&{file_id}"


_GENERIC_ARITY = re.compile(r"`\d+")


@lru_cache(maxsize=4096)
def written_type(assembly_type_name: str) -> str:
    """The C# name of a type as .NET writes it in `m_TargetAssemblyTypeName`: `Ns.Outer+Inner,
    Asm` is `Ns.Outer.Inner`; a generic `Ns.Singleton`1[[Ns.Audio, Asm, ...]], Asm` is `Ns.Singleton`."""
    name = assembly_type_name.split("[", 1)[0].split(",", 1)[0].strip()
    return _GENERIC_ARITY.sub("", name).replace("+", ".")


_WORD = re.compile(r"[A-Za-z]")


def item_name(first_value: str) -> str:
    """A list item's name from its first key's value, when that is a word, not a number or flag."""
    return short(first_value) if _WORD.search(first_value) else ""


def items_shown(count: int, names: list[str], empty: list[int] | None = None) -> str:
    """A list by its count and, when every item is a mapping with a short `name` (a mixer's exposed
    parameters, a sound bank's clips), their names: `[3 items: MasterVolume, MusicVolume, ...]`; a
    list of references by the slots left empty (`empty`, `{fileID: 0}`), which code reading every
    slot fails on: `[4 items, empty at 0, 1]`."""
    named = count > 0 and len(names) == count and all(0 < len(n) <= MAX_NESTED_VALUE_CHARS for n in names)
    if empty:
        if len(empty) == count:
            return f"[{count_label(count, 'item')}, all empty]"
        more = ", …" if len(empty) > NAMES_SHOWN else ""
        return f"[{count_label(count, 'item')}, empty at {', '.join(map(str, empty[:NAMES_SHOWN]))}{more}]"
    if not named:
        return f"[{count_label(count, 'item')}]"
    more = ", …" if count > NAMES_SHOWN else ""
    return short(f"[{count_label(count, 'item')}: {', '.join(names[:NAMES_SHOWN])}{more}]")


def events_shown(events: int, calls: int) -> str:
    """A UnityEvent by its calls; a list of them (`events`, 0 for one: a PlayerInput's action
    events) by both counts, `[5 events, 4 calls]`."""
    if not events:
        return f"UnityEvent ({count_label(calls, 'call')})"
    return f"[{count_label(events, 'event')}, {count_label(calls, 'call')}]"
