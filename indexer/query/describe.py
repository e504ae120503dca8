"""`describe`: what one file is, in a readable outline, with what it uses and what uses it."""

from __future__ import annotations

import os
import shlex

from indexer.model import CONFLICT_MARKERS, Description, Edge, FileRecord
from indexer.project import is_script
from indexer.query.carriers import SETTINGS_MARK, with_settings
from indexer.query.folding import folded
from indexer.query.graph import Graph
from indexer.query.outline import CONFLICTED, SYNTAX_ERRORS, error_lines_of, outline_parts, render_parts, status_line
from indexer.query.walk import edge_said
from indexer.unity import BUILT_IN_RESOURCES, STREAMING_ASSETS, as_guid, bare_type_name
from indexer.words import echoed

DESCRIBE_SCHEMA_VERSION = 1
MORE_IN_JSON = "(--json lists every object and field in its symbols)"


class NotFound(Exception):
    """The path or GUID names no indexed file; the message suggests what might have been meant."""


_USER_ORDER = {"unity": 0, "prefab": 1, "cs": 3}  # by extension; any other asset 2
# How a use reads in the text (`--json` keeps the edge's kind): a placed prefab and a field naming
# one read "(prefab)" and "(asset)", as if the same prefab were two kinds of file.
_USE_SAID = {
    "prefab": "instance",
    "base_of": "variant base",
    "nested_in": "nested instance",
    "asset": "reference",
    "base": "base class",
    "unity_event": "event call",
    "loads": "load",
}


def _uses_line(graph: Graph, path: str, uses: list[Edge]) -> str:
    """What the file uses, each said by how (`(interface)` of an interface, not `(base class)`)."""
    if not uses:
        return ""
    said = [_USE_SAID.get(edge := edge_said(graph.records, e.edge, path, e.path), edge) for e in uses[:20]]
    more = f", … {len(uses) - 20} more" if len(uses) > 20 else ""
    return "\nuses: " + ", ".join(f"{e.path} ({word})" for e, word in zip(uses, said, strict=False)) + more


def resolve_file(graph: Graph, target: str) -> str:
    """A project-relative path from a path or GUID the user gave (already checked to be inside)."""
    t = target.strip().strip("/")
    if guid := as_guid(t):
        t = guid
        path = graph.path_of_guid(t)
        if not path and (built_in := BUILT_IN_RESOURCES.get(t)):
            raise NotFound(f"GUID {t} is {built_in}: no file of the project, so there is nothing to describe")
        if not path:
            raise NotFound(
                f"GUID {echoed(t)} is not in this project (it may belong to a package, or the asset is missing)"
            )
        meta = graph.records.record(path + ".meta")
        if meta is not None and meta.folder:  # folders have GUIDs too; assets may name them
            raise NotFound(
                f"GUID {t} is that of the folder {path}, which is not described: `unity-index query --path"
                f" {path}` searches its files, `unity-index refs {t}` lists what uses it"
            )
        if graph.records.record(path) is None:  # a .meta left behind: its asset was deleted or moved
            raise NotFound(
                f"GUID {t} is that of {path}.meta, but {path} is not in the project (deleted or moved"
                f" without its .meta?); `unity-index refs {t}` lists what still uses it"
            )
        return path
    if graph.records.record(t) is None:
        name = t.rsplit("/", 1)[-1].lower()
        similar = sorted(p for p in graph.records.kinds() if p.rsplit("/", 1)[-1].lower() == name)[:5]
        hint = f"; did you mean {', '.join(similar)}?" if similar else "; `unity-index query` finds files by name"
        raise NotFound(f"{echoed(t)} is not an indexed file{hint}")
    return t


def _meta_head(graph: Graph, rec: FileRecord) -> str:
    """What a `.meta` is of: its GUID and importer, and the asset to describe for its content (a
    trial's `describe Key.prefab.meta` said `(meta)` alone)."""
    asset = rec.path[: -len(".meta")]
    said = ", ".join(x for x in (f"guid {rec.guid}" if rec.guid else "", rec.importer) if x)
    if rec.folder:
        return f"\nthe .meta of the folder {asset}" + (f" ({said})" if said else "")
    if not graph.records.stats_of([asset]):
        if os.path.lexists(graph.root / asset):  # excluded by the config (a review: said deleted)
            return f"\nthe .meta of {asset}, which is not indexed (excluded in unity-index.toml?)"
        return f"\nthe .meta of {asset}, which is not in the project (deleted or moved without its .meta?)"
    return f"\nthe .meta of {asset}" + (f" ({said})" if said else "") + f": `unity-index describe {shlex.quote(asset)}`"


def describe(graph: Graph, path: str, max_lines: int = 400) -> Description:
    rec = graph.records.record(path)
    if rec is None:
        raise NotFound(f"{echoed(path)} is not an indexed file")
    lines = render_parts(parts := outline_parts(rec, graph), graph, None)
    if len(lines) > max_lines and rec.kind in ("scene", "prefab"):  # the objects that do something, all
        lines = folded(parts, graph, max_lines, MORE_IN_JSON)
    if rec.status != "ok" and lines[:1] == [status_line(rec)]:
        lines = lines[1:]  # the header below says it, with the whole note
    if rec.kind == "csharp" and rec.status == "partial" and rec.error_lines:
        lines = [line for line in lines if not line.startswith((SYNTAX_ERRORS, CONFLICTED))]
    if len(lines) > max_lines:
        lines = [*lines[:max_lines], f"… {len(lines) - max_lines} more lines {MORE_IN_JSON}"]
    guid = graph.records.guid_of_path(path) or ""
    head = f"{path}  ({rec.kind}{', guid ' + guid if guid else ''})"
    head += _code_head(graph, rec) if rec.kind == "csharp" else ""
    if rec.status != "ok":
        head += f"\n{rec.status}: {rec.note}"
        if rec.status == "partial" and rec.error_lines and (rec.kind == "csharp" or CONFLICT_MARKERS in rec.note):
            near = "lines" if len(rec.error_lines) > 1 else "line"
            head += f", near {near} {error_lines_of(rec)}"  # said once: the outline's last line went
    if rec.kind == "meta":
        head += _meta_head(graph, rec)
    # what its import settings name are its own: a model's materials remapped in its `.meta`
    imported = graph.uses(path + ".meta") if rec.kind != "meta" else ()
    uses = [Edge(p, e) for p, e in (*graph.uses(path), *imported) if p != path] + _assemblies_used(graph, rec)
    target = graph.target(path)
    references = graph.references(target)  # which may add to the note (prefabs left unfollowed)
    if target.note:
        head += f"\nnote: {target.note}"
    users = sorted({(u.path, u.kind) for u in references if u.path != path})
    used_by = [Edge(p, e) for p, e in users]
    text = "\n".join([head, *lines])
    text += _uses_line(graph, path, uses)
    if used_by:
        # scenes, then prefabs, then other assets, then code: the objects carrying a script say
        # most about it, and a cut list kept them last, by path (a world's one scene was in "6 more")
        shown = sorted({e.path for e in used_by}, key=lambda p: (_USER_ORDER.get(p.rpartition(".")[2], 2), p))
        text += "\nused by: " + ", ".join(shown[:20]) + (f", … {len(shown) - 20} more" if len(shown) > 20 else "")
    elif rec.kind == "prefab":  # placed nowhere: why its behaviour never runs (a trial's reputation)
        text += "\nused by: nothing found (no scene or prefab places it, no asset or code names it)"
    elif rec.kind == "csharp" and is_script(path) and (root := unity_root(graph, path)):  # a trial edited dead code
        text += f"\nused by: nothing found ({_UNUSED[root]}, no other code names its types)" + _unread_carriers(graph)
    if rec.kind == "prefab":
        text += _settings_text(graph, references)
    return Description(
        schema_version=DESCRIBE_SCHEMA_VERSION,
        path=path,
        kind=rec.kind,
        guid=guid,
        status=rec.status,
        note=rec.note,
        text=text,
        uses=uses,
        used_by=used_by,
        symbols=list(rec.symbols),
        refs=list(rec.refs),
    )


def _assemblies_used(graph: Graph, rec: FileRecord) -> list[Edge]:
    """The asmdefs an asmdef or asmref references (by name or GUID) that are in the project: no
    edge of the graph holds them, as no walk follows them."""
    found = (graph.asmdef_named(r.target) for r in rec.refs if r.kind == "assembly")
    return [Edge(p, "assembly") for p in dict.fromkeys(found) if p and p != rec.path]


def _settings_text(graph: Graph, references: list) -> str:
    """The instances and variants of a prefab that set values over its own, each with them: the
    value a level really uses may be a scene's override."""
    direct = [u for u in with_settings(graph, references, through=True) if SETTINGS_MARK in u.detail]
    if not direct:
        return ""
    lines = [f"  {u.path}:{u.line}  {u.detail}" for u in direct[:20]]
    more = [f"  … {len(direct) - 20} more"] if len(direct) > 20 else []
    return "\nvalues set by its instances and variants:\n" + "\n".join([*lines, *more])


def _code_head(graph: Graph, rec: FileRecord) -> str:
    """A script's assembly, and that it declares no type when it does not (commented out whole)."""
    assembly, defined_by = graph.assembly_of(rec.path)
    why = "a package script needs an asmdef"
    if rec.path.startswith(STREAMING_ASSETS):
        why = "StreamingAssets is copied into the build, not compiled"
    head = f"\nassembly {assembly or f'(none: {why})'}" + (f" ({defined_by})" if defined_by else "")
    if rec.status == "ok" and not any(sym.is_type for sym in rec.symbols):  # a missing script where it is added
        head += "\ndeclares no type: a component naming this script is a missing script in Unity"
    return head


# What a class of these roots needs to run, unless code names it: an object carrying it, an asset of it
_UNUSED = {
    "MonoBehaviour": "no scene, prefab or asset carries it",
    "NetworkBehaviour": "no scene, prefab or asset carries it",
    "StateMachineBehaviour": "no scene, prefab or asset carries it",
    "ScriptableObject": "no asset is an instance of it",
}


def unity_root(graph: Graph, path: str) -> str:
    """The Unity class up the script's class's bases (a component, a ScriptableObject), whose
    class does nothing unless an object carries it, an asset is an instance of it or code names it; '' for
    other classes: a static helper may run unnamed (extension methods,
    `[RuntimeInitializeOnLoadMethod]`)."""
    guid = graph.records.guid_of_path(path)
    todo, seen = [graph.script_class(guid)] if guid else [], set()
    while todo:
        q = todo.pop()
        if not q or q in seen:
            continue
        seen.add(q)
        for t in graph.types_named(q):
            if root := next((r for b in t.bases if (r := bare_type_name(b)) in _UNUSED), ""):
                return root
            rec = graph.records.record(t.path)
            todo += [b.qualified for base in t.bases for b in graph.resolve_type_ref(base, rec)] if rec else []
    return ""


def _unread_carriers(graph: Graph) -> str:
    """Said after "nothing found" when scenes, prefabs or assets were left unread (Git LFS pointers,
    files too large): an object in one of them may carry the script."""
    sql = "SELECT count(*) FROM files WHERE status = 'skipped' AND kind IN ('scene', 'prefab', 'asset')"
    (unread,) = graph.records.conn.execute(sql).fetchone()
    if not unread:
        return ""
    what = "scene, prefab or asset was" if unread == 1 else "scenes, prefabs or assets were"
    return f"; but {unread} {what} not read (Git LFS pointers or files too large)"
