"""Unity's text-serialized assets: scenes, prefabs, ScriptableObjects, materials, animators, ...

How: `yaml_reader` splits the file on its document headers and reads each document's lines (Unity
writes a narrow, regular subset of YAML; every value stays a string); `yaml_hierarchy` builds the
GameObject paths; this module turns what the reader finds into records: only what the index uses.

Output conventions (FileRecord.symbols / refs; all paths in a file are GameObject paths joined by
"/", and component names of scripts are written `script:<guid>` for the reader to resolve):
  gameobject         name, container = parent path, detail = "inactive" when m_IsActive is 0, signature = tag, layer
  component          name = Unity class (Transform, Rigidbody, ...), container = GameObject path (in
                     its `m_Component` order), detail = script GUID (MonoBehaviour), type = its fileID,
                     modifiers = (the class's file ID,) for a class of a DLL (written `script:<guid>#<ID>`)
  field              name, container = owner path, signature = "name: value", detail = fileID
                     of the component (or asset object) it belongs to
  prefab_instance    name = the instance's name if overridden, container = parent path, detail = source prefab GUID
  override           name = propertyPath, container = instance path, signature = "path: value",
                     detail = the fileID of the object it changes in the source prefab
  scriptable_object  name = m_Name, detail = script GUID (assets whose main object is a script), or
                     "builtin:<fileID>" for one of Unity's own classes (a Tile)
  material           name, detail = shader GUID (or "builtin:<fileID>"); material_property (type = texture, float, ...)
  animator_controller, animator_layer, animator_parameter (type = Float/Int/Bool/Trigger), animator_state_machine
  (container = its machine's path, "" for a layer's), animator_state (container = its machine's path, `Base
  Layer/Jump`; detail = motion GUID, or signature "blend tree NAME"), animator_transition (container = the
  path of the state it leaves, or `<machine>/Any State`, `/Entry`; name = the one it enters, signature =
  both and its conditions), a StateMachineBehaviour's fields (container = its state's path), animation_clip
  object             other named root objects of non-scene assets (audio mixers, presets, ...)
refs:
  script  target = script GUID, line = its m_Script line, detail = owner path
  prefab  target = source prefab GUID, context = "instance" (a Unity 5 file's `m_ParentPrefab` too) | "variant_base"
  removed target = source prefab GUID, line = the instance's, context = a removed component's fileID
  guid    target = any other referenced asset GUID, context = the field (m_Materials, m_Shader,
          data, m_SerializeEntries of an Addressables group, ...), detail = "owner > component"
  address target = an address or label an Addressables group loads an asset by, context =
          "address" | "label", detail = the asset's GUID
  method  target = "script:<guid>.Method" (UnityEvent persistent call on an object of this file
          with a script), else "Namespace.Type.Method" as saved, else a built-in object's class
          ("UnityEngine.AudioSource.Play"), else another file's object ("object:<guid>:<fileID>.Method"),
          context = the event field, detail = "owner > component.event(argument) on <target>"
  type    target = "Namespace.Class" of a [SerializeReference] value, context "serialize_reference"
  string  target = a scene name or path (no `.unity`) a script field may hold, context "field", detail "field: value"
  animation_event  target = the function name an AnimationClip event calls
"""

from __future__ import annotations

from indexer.model import CALL_OBJECT, FileRecord, Ref, Symbol
from indexer.shown import path_shown

from . import yaml_animator as animator
from . import yaml_facts, yaml_vfx
from .addressables import ENTRIES_KEY, group_refs
from .yaml_animator import Machine
from .yaml_damage import damaged
from .yaml_facts import BUILTIN_GUIDS, MAX_FIELDS_PER_OBJECT, SCRIPT_FILE_ID, DocReader, script_ref, short, written_type
from .yaml_hierarchy import Hierarchy
from .yaml_lines import override_target, removed_components
from .yaml_nodes import NodeDoc, why_unread
from .yaml_override_calls import NO_TARGET, OverrideCalls
from .yaml_reader import TextDoc, join_wrapped_flows, outside_documents, split

SCENE_SETTINGS = frozenset({29, 104, 157, 196})  # settings documents atop every scene: not of the hierarchy
# Keys whose GUID refs are recorded more specifically (not `target`: a script's field, too).
_SPECIAL_GUID_KEYS = frozenset({"m_Script", "m_SourcePrefab", "m_ParentPrefab", "m_CorrespondingSourceObject",
                                "m_PrefabParentObject", "m_PrefabAsset"})  # fmt: skip
_BUILTIN_PREFIX = "guid: 0000000000000000"  # Unity's built-in resources: e000..., f000..., d000... (editor)
YAML_KINDS = frozenset({"scene", "prefab", "asset", "material", "animator", "animation", "unity_yaml", "vfx"})
# Transform bookkeeping every instance overrides, and what TextMesh Pro counts of its own text
# (`m_textInfo.characterCount`): they say nothing about the game.
_NOISE_OVERRIDES = ("m_LocalRotation", "m_LocalEulerAnglesHint", "m_RootOrder", "m_AnchorM", "m_SizeDelta",
                    "m_AnchoredPosition", "m_Pivot", "m_textInfo.")  # fmt: skip


def scan(path: str, data: bytes, kind: str = "unity_yaml") -> FileRecord:
    """Scan one Unity YAML file; `kind` is the project's kind of the path (scene, prefab, asset, ...)."""
    head = data[:1024].lstrip(b"\xef\xbb\xbf")
    if not head.startswith(b"%YAML") and b"--- !u!" not in head:
        stripped = head.lstrip()
        if stripped.startswith((b"{", b"[")):
            return FileRecord(path=path, kind=kind, note="JSON-serialized asset, not Unity YAML: not parsed")
        if not stripped:
            return FileRecord(path=path, kind=kind, note="empty file")
        return FileRecord(path=path, kind=kind, status="skipped", note="not Unity YAML (no %YAML header)")
    text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    scanning = _Scan(path, kind, text)
    rec = scanning.run()
    return damaged(rec, text, data, scanning.duplicated)  # cut short, mid-merge, or merged twice


class _Scan:
    def __init__(self, path: str, kind: str, text: str):
        self.path = path
        self.kind = kind
        self.text = text
        self.symbols: list[Symbol] = []
        self.refs: list[Ref] = []
        self.docs: dict[int, DocReader] = {}
        self.order: list[DocReader] = []
        self.notes: list[str] = []
        self.duplicated: set[int] = set()  # fileIDs two documents hold (a merge gone wrong)
        self._machine: Machine | None = None

    def read(self) -> list[DocReader]:
        """The documents, each through the line reader, or through the YAML parser when it is
        outside the line reader's subset (see `yaml_reader.outside_subset`)."""
        commas = ",\n" in self.text  # none: no wrapped flow, nor a line the joined text ends with a comma
        joined, joins = join_wrapped_flows(self.text, commas)
        texts = split(joined, joins)
        outside = outside_documents(joined, texts, commas)
        docs: list[DocReader] = list(texts)
        if outside:
            originals = split(self.text)
            for i, reason in sorted(outside.items()):
                docs[i] = self.parsed(originals[i], reason) or docs[i]
        return docs

    def parsed(self, doc: TextDoc, reason: str) -> NodeDoc | None:
        try:
            parsed = NodeDoc(doc.class_id, doc.file_id, doc.stripped, doc.line, doc.body)
        except MemoryError:  # not invalid YAML: the file's scan stops (scanners.scan)
            raise
        except Exception as exc:  # invalid YAML, or too deep for the parser: the line reader's reading is kept
            self.notes.append(f"document &{doc.file_id} {why_unread(exc)}")
            return None
        self.notes.append(f"read with the YAML parser: {reason}")
        return parsed

    def run(self) -> FileRecord:
        for doc in self.read():
            if doc.file_id in self.docs:  # said by `yaml_damage.damaged`
                self.duplicated.add(doc.file_id)
            self.docs[doc.file_id] = doc
            self.order.append(doc)
        if not self.order:
            return FileRecord(path=self.path, kind=self.kind, status="skipped", note="no Unity YAML documents")
        self.tree = Hierarchy(self.order)
        for doc in self.order:
            self.document(doc)
        notes = sorted({*self.notes, *self.tree.left_out()})[:5]
        note = "; ".join([f"{len(self.order)} documents", *notes])
        return FileRecord(
            path=self.path,
            kind=self.kind,
            status="partial" if self.tree.too_deep else "ok",
            note=note,
            symbols=tuple(self.tree.in_order(self.tree.components_in_order(self.symbols))),
            refs=tuple(dict.fromkeys(self.refs)),
        )

    # -- places ------------------------------------------------------------------------------

    def owner_path(self, doc: DocReader, go: int) -> str:
        """Where a component sits (its GameObject's path; `go`, its `m_GameObject`, read by the caller
        already), or the asset object's own name."""
        instance_of = self.tree.instance_of
        if go:
            return self.tree.path_of(instance_of.get(go, go))
        if doc.file_id in instance_of:
            return self.tree.path_of(instance_of[doc.file_id])
        return doc.top("m_Name") or doc.class_name

    def go_node_of(self, file_id: int) -> int:
        """The hierarchy node an object sits on (a stripped object: its prefab instance)."""
        doc = self.docs.get(file_id)
        instance_of = self.tree.instance_of
        if doc is None:
            return 0
        if doc.class_id == 1:
            return instance_of.get(file_id, file_id)
        go, _ = doc.top_ref("m_GameObject")
        if not go:
            return instance_of.get(file_id, 0)
        return instance_of.get(go, go)

    def local_label(self, file_id: int) -> str:
        """A same-file object reference made readable: `Player/Model (MeshRenderer)`."""
        doc = self.docs.get(file_id)
        if doc is None:
            return f"&{file_id} (missing)"
        node = self.go_node_of(file_id)
        where = path_shown(self.tree.path_of(node)) if node else (doc.top("m_Name") or "")  # its own name kept
        where += yaml_facts.source_object(doc) if doc.stripped and where else ""  # which object of the instance
        if doc.class_id == 1:
            return where
        what = yaml_facts.behaviour_label(*script_ref(doc)) if doc.class_id == 114 else doc.class_name
        return f"{where} ({what})" if where else what

    # -- documents ---------------------------------------------------------------------------

    def document(self, doc: DocReader) -> None:
        cid = doc.class_id
        if cid in SCENE_SETTINGS:
            self.guid_refs(doc, doc.class_name, doc.class_name)
            return
        if doc.stripped or cid == 1660057539:
            return  # a pointer into a prefab instance (its data lives in the source prefab); SceneRoots
        if self.tree.may_be_deep and self.tree.deeper_than_recorded(self.go_node_of(doc.file_id) or doc.file_id):
            return  # (counted in the record's note)
        handler = _HANDLERS.get(cid)
        if handler is not None:
            handler(self, doc)
            return
        go, _ = doc.top_ref("m_GameObject")
        if go:
            owner = self.owner_path(doc, go)
            self.component_symbol(doc, owner, go)
            if keys := yaml_facts.builtin_keys(doc):  # a NavMeshAgent's speed
                builtin, detail = f"builtin:{doc.class_name}", str(doc.file_id)  # (not searched: build/documents.py)
                self.symbols += [
                    Symbol("field", k, doc.at(n), container=owner, signature=f"{k}: {v}", detail=detail, type=builtin)
                    for k, v, n, _ in doc.fields()
                    if k in keys and (k, v) not in yaml_facts.BUILTIN_DEFAULTS
                ]
            self.guid_refs(doc, owner, doc.class_name)
            return
        name = doc.top("m_Name")
        if name and self.kind not in ("scene", "prefab", "vfx") and cid not in (1101, 1107, 1109):
            self.symbols.append(Symbol("object", name, doc.line, signature=doc.class_name))
            if self.kind == "unity_yaml":  # a physics material's friction, a render texture's size
                self.fields(doc, name, doc.class_name)  # (not an `.asset`'s generated textures and meshes)
        self.guid_refs(doc, name or doc.class_name, doc.class_name)

    def place(self, node: int) -> tuple[str, str, str]:
        """(container, name, path) of a hierarchy node; the container the parent's path string
        itself when it can be (a deep hierarchy's paths are long: no copies)."""
        path = self.tree.path_of(node)
        above = self.tree.parent_path(node)
        if above is not None:
            return above, path[len(above) + 1 :], path
        own = self.tree.names.get(node) or "\0"  # a name may hold a slash: `NPC_Cilu(Quest/set)`
        if path == own or path.endswith("/" + own):
            return path[: max(len(path) - len(own) - 1, 0)], own, path
        return path.rpartition("/")[0], path.rpartition("/")[2], path

    def game_object(self, doc: DocReader) -> None:
        container, name, path = self.place(doc.file_id)
        if doc.file_id in self.duplicated:  # the hierarchy knows one of them by the fileID: the last
            name = doc.top("m_Name") or name
        tag = doc.top("m_TagString") or "Untagged"
        layer = doc.top("m_Layer") or "0"
        sig = []
        if tag != "Untagged":
            sig.append(f"tag {tag}")
        if layer != "0":
            sig.append(f"layer {layer}")
        self.symbols.append(
            Symbol(
                "gameobject",
                name,
                doc.line,
                container=container,
                signature=", ".join(sig),
                detail="inactive" if doc.top("m_IsActive") == "0" else "",
            )
        )
        icon = doc.top("m_Icon")  # its editor icon: a texture of the project, or one of the editor's own
        if icon and "guid" in icon and _BUILTIN_PREFIX not in icon:
            self.guid_refs(doc, path, "GameObject")

    def component_symbol(
        self, doc: DocReader, owner: str, go_id: int, script: str = "", name: str = "", dll: str = ""
    ) -> None:
        enabled = doc.top("m_Enabled")
        identifier = doc.top("m_EditorClassIdentifier") if script else ""
        flags = ("disabled",) if enabled == "0" else ()
        go = self.docs.get(go_id) if go_id in self.tree.instance_of else None  # a stripped object's
        if go is not None and (source := yaml_facts.source_object(go)):
            flags += (f"on {owner}{source}",)  # added to an object of a prefab instance: which one
        self.symbols.append(
            Symbol(
                "component",
                name or doc.class_name,  # Unity's own behaviour by its class (`UIDocument`)
                doc.line,
                container=owner,
                type=str(doc.file_id),
                detail=script,
                # Unity 6 names the script class: `Unity.TextMeshPro::TMPro.TextMeshProUGUI`
                signature=identifier.rpartition("::")[2] if identifier else "",
                attributes=flags,
                modifiers=(dll,) if dll else (),  # a DLL's class: its file ID there (query/dll_classes.py)
            )
        )

    def prefab_instance(self, doc: DocReader) -> None:
        source = doc.first_ref("m_SourcePrefab")[1] or doc.top_ref("m_SourcePrefab")[1]
        legacy = False
        if not source:  # pre-2018.3 `Prefab` document
            _, source = doc.top_ref("m_ParentPrefab")
            legacy = True
            if doc.top("m_IsPrefabParent") == "1":
                return  # the legacy prefab asset's own root record, not an instance
        parent_tf = self.tree.instance_parent.get(doc.file_id, 0)
        container, name, path = self.place(doc.file_id)
        is_variant = self.kind == "prefab" and not parent_tf and not legacy
        self.symbols.append(
            Symbol(
                "prefab_instance",
                "" if name.startswith("&") else name,
                doc.line,
                container=container,
                detail=source,
                signature="variant base" if is_variant else "",
            )
        )
        removed = removed_components(doc.body) if source else []
        if source:
            context = "variant_base" if is_variant else "instance"  # Unity 5's too: `[legacy_parent]` read as jargon
            self.refs.append(Ref("prefab", source, doc.line, context=context, detail=path))
            for file_id, guid in removed:  # (query/removed.py)
                self.refs.append(Ref("removed", guid, doc.line, context=file_id, detail=path))
        self.modifications(doc, path, frozenset(f for f, _ in removed), source)

    def modifications(self, doc: DocReader, path: str, removed: frozenset[str], source: str) -> None:
        """The overrides, less a removed component's: Unity keeps them, but they set nothing."""
        count = 0
        calls = OverrideCalls()
        lines: list[str] = []  # the body's lines, split once an override kept is met
        at_line = at = 0  # where body line `at_line` starts (overrides come in order: counted on)
        for mod in doc.modifications():
            prop, value = mod.prop, mod.value
            line_no = doc.at(mod.line)
            call = calls.wanted(prop, value)
            target = ""  # the fileID of the object it changes: read for what is kept, not for noise
            kept = count < MAX_FIELDS_PER_OBJECT or prop == "m_IsActive"  # an object switched off: past the cap too
            if removed or call or (kept and not prop.startswith(_NOISE_OVERRIDES)):
                lines = lines or doc.body.split("\n")
                if mod.line < at_line:
                    at_line = at = 0
                at += sum(map(len, lines[at_line : mod.line])) + mod.line - at_line
                at_line = mod.line
                target = override_target(doc.body, at)
                if target in removed:
                    continue
            if call:
                calls.add(target, prop, value, mod.local, line_no, mod.guid)
            if mod.guid:
                value = f"guid:{mod.guid}"
                if mod.guid not in BUILTIN_GUIDS:
                    self.refs.append(Ref("guid", mod.guid, line_no, context=prop, detail=f"{path} > override"))
            if prop.startswith(_NOISE_OVERRIDES):
                continue
            if (".unity" in value or yaml_facts.scene_key(prop)) and (scene := yaml_facts.scene_named(prop, value)):
                self.refs.append(Ref("string", scene, line_no, context="field", detail=f"{prop}: {value}"))
            count += 1
            if count <= MAX_FIELDS_PER_OBJECT or prop == "m_IsActive":
                if mod.here:  # named only when shown: a scene may override thousands
                    value = self.local_label(mod.here)
                # detail: the object it changes, by fileID in the source prefab; an object here whole (its script)
                said = f"{prop}: {value if mod.here else short(value)}"
                self.symbols.append(Symbol("override", prop, line_no, container=path, signature=said, detail=target))
        self.refs += calls.refs(path, source, self.call_on, self.call_target)

    def mono_behaviour(self, doc: DocReader) -> None:
        if self.kind == "vfx":
            self.vfx_node(doc)
            return
        fid, script = script_ref(doc)
        label = yaml_facts.behaviour_label(fid, script)
        builtin, script = (f"builtin:{fid}", "") if script in BUILTIN_GUIDS else ("", script)  # Unity's own (a Tile)
        go, _ = doc.top_ref("m_GameObject")
        if go:
            owner = self.owner_path(doc, go)
            self.component_symbol(doc, owner, go, script, "" if script else label, yaml_facts.dll_class(fid, script))
        elif doc.file_id in self.machine().own:  # a StateMachineBehaviour
            owner = self.machine().path(self.machine().own[doc.file_id])
        else:
            owner = doc.top("m_Name") or doc.class_name
            if doc is self.order[0] or self.kind in ("asset", "unity_yaml"):  # each of a timeline's tracks
                self.symbols.append(Symbol("scriptable_object", owner, doc.line, detail=script or builtin))
        if script:  # added to an object of a prefab instance: which one (`Player/Animation`, not `Player`)
            carrier = self.docs.get(go) if go else None
            on = yaml_facts.source_object(carrier) if carrier is not None and carrier.stripped else ""
            self.refs.append(Ref("script", script, doc.top_line("m_Script"), context="m_Script", detail=owner + on))
        self.fields(doc, owner, label)
        self.guid_refs(doc, owner, label)
        self.unity_events(doc, owner, label)
        for use in doc.type_uses():
            if use.cls:
                target = f"{use.ns}.{use.cls}" if use.ns else use.cls
                self.refs.append(Ref("type", target, doc.at(use.line), context="serialize_reference", detail=owner))

    def vfx_node(self, doc: DocReader) -> None:
        graph = self.order[0].top("m_Name") or self.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        self.symbols += yaml_vfx.node_symbols(doc, graph, first=doc is self.order[0])
        self.guid_refs(doc, graph, "VFX")

    def fields(self, doc: DocReader, owner: str, label: str) -> None:
        """Top-level serialized fields of a script, each as a short `name: value`."""
        detail = str(doc.file_id)
        script = label.partition("#")[0] if label.startswith("script:") else ""  # (not a DLL's class's file ID)
        at, append = doc.at, self.symbols.append
        listed = doc.fields()
        methods = yaml_facts.methods_named(listed) if yaml_facts.may_name_methods(doc.body) else None
        # `at` adds one a line or more (a joined flow's lines): one a line over the fields' span, it
        # adds one a line everywhere in it, and a field's file line is one addition (no call a field)
        first = at(0)
        linear = not listed or at(listed[-1].line) - first == listed[-1].line
        for key, shown, line, local in listed:
            n = first + line if linear else at(line)
            if local:
                shown = self.local_label(local)
            elif (".unity" in shown or yaml_facts.scene_key(key)) and (scene := yaml_facts.scene_named(key, shown)):
                self.refs.append(Ref("string", scene, n, context="field", detail=f"{key}: {shown}"))
            if methods and (method := methods.get(key)):  # a method called by name (query/messages.py)
                on = yaml_facts.receiver_named(listed)  # on the class a sibling field names
                self.refs.append(Ref("method_name", f"{on}.{method}" if on else method, n, key, owner))
            append(Symbol("field", key, n, container=owner, signature=f"{key}: {shown}", detail=detail, type=script))

    def unity_events(self, doc: DocReader, owner: str, label: str) -> None:
        for call in doc.calls():
            if not call.method:
                continue
            if scene := yaml_facts.scene_argument(call.method, call.mode, call.argument):  # `refs` of the scene
                said = f"{owner} > {label}.{call.event} calls {call.method}: {call.argument}"
                self.refs.append(Ref("string", scene, doc.at(call.line), context="field", detail=said))
            self.refs.append(
                Ref(
                    "method",
                    self.call_target(call.target, call.type_name, call.method, call.target_guid),
                    doc.at(call.line),
                    context=call.event,
                    detail=f"{owner} > {label}.{call.event}({yaml_facts.call_argument(call.mode, call.argument)})"
                    + (self.call_on(call.target, call.target_guid) if call.target else NO_TARGET),
                )
            )

    def call_target(self, target_id: int, type_name: str, method: str, target_guid: str = "") -> str:
        """Unity binds a call to its target object's type; the saved type name, which a renamed or
        moved class leaves stale, only when the file does not hold the target's script. Files saved
        before Unity 2020.2 name no type: a target in another file (`target_guid`: an event asset, a
        prefab's component; a nested prefab's, stripped here) is then written as that object,
        `object:<guid>:<fileID>`, which the index reads as its script (query/call_objects.py)."""
        target_doc = None if target_guid else self.docs.get(target_id)  # (not this file's: its fileID may be)
        fid, script = script_ref(target_doc) if target_doc and target_doc.class_id == 114 else (0, "")
        if script and fid == SCRIPT_FILE_ID:  # not a DLL's class (its GUID is the DLL's)
            return f"script:{script}.{method}"
        if type_name:
            return f"{written_type(type_name)}.{method}"
        source, guid = yaml_facts.source_of(target_doc) if target_doc and target_doc.class_id == 114 else (0, "")
        if guid and not script and guid not in BUILTIN_GUIDS:  # a nested prefab's script, stripped here
            return f"{CALL_OBJECT}{guid}:{source}.{method}"
        if target_doc is not None and target_doc.class_id != 114:  # a GameObject, an AudioSource, ...
            return f"UnityEngine.{target_doc.class_name}.{method}"
        if target_guid and target_guid not in BUILTIN_GUIDS:
            return f"{CALL_OBJECT}{target_guid}:{target_id}.{method}"
        return f"?.{method}"

    def call_on(self, target_id: int, target_guid: str = "") -> str:
        """Where a call's target object is: in this file (` on Canvas`), or another file, which the
        index names by its GUID (` on Assets/Events/PlayerDamaged.asset`)."""
        if target_guid:
            return f" on guid:{target_guid}"
        target_node = self.tree.instance_of.get(target_id, 0) or self.go_node_of(target_id)
        return f" on {self.tree.path_of(target_node)}" if target_node else ""

    def guid_refs(self, doc: DocReader, owner: str, label: str) -> None:
        entries = ENTRIES_KEY in doc.body  # an Addressables group: the assets it lists, their addresses and labels
        # an item's id in a ScriptableObject's data (not an Addressables group's entries, refs of their own)
        plain = self.kind == "asset" and doc.class_id == 114 and not entries
        uses = doc.guid_uses(_SPECIAL_GUID_KEYS, plain=plain)
        if not uses and not entries:  # (most components: none, and no detail to write)
            return
        detail = f"{owner} > {label}"
        for use in uses:
            if use.guid not in BUILTIN_GUIDS:
                self.refs.append(Ref("guid", use.guid, doc.at(use.line), context=use.key, detail=detail))
        if entries:
            self.refs += group_refs(doc.body, doc.at, detail)

    def material(self, doc: DocReader) -> None:
        name = doc.top("m_Name") or ""
        fid, shader = doc.top_ref("m_Shader")
        shader_detail = shader if shader and shader not in BUILTIN_GUIDS else f"builtin:{fid}" if fid else ""
        self.symbols.append(Symbol("material", name, doc.line, detail=shader_detail))
        add = self.symbols.append
        for prop in doc.properties()[: MAX_FIELDS_PER_OBJECT * 2]:
            at, value = doc.at(prop.line), f"{prop.name}: {short(prop.value)}"
            add(Symbol("material_property", prop.name, at, container=name, type=prop.section, signature=value))
        self.guid_refs(doc, name, "Material")

    def machine(self) -> Machine:
        """The links between an animator controller's documents, read on first need."""
        self._machine = self._machine or Machine(self.order)
        return self._machine


_HANDLERS = {
    1: _Scan.game_object,
    1001: _Scan.prefab_instance,
    114: _Scan.mono_behaviour,
    21: _Scan.material,
    91: animator.controller,
    1102: animator.state,
    1107: animator.state_machine,
    1101: animator.transition,
    1109: animator.transition,
    74: animator.clip,
}
