"""Where assets set a script's serialized field: the value the game really runs with.

A field's default in code is rarely the number a level uses: the Inspector writes its own into
every prefab, scene and ScriptableObject carrying the script (`jumpHeight: 1.2` on `PlayerPivot`
in `Main.unity`), and a variant or an instance of such a prefab overrides it again (`Brute` sets
`maxHealth: 300`). `refs Type.field` lists both, as Rider's Inspector values do, so "make the
character jump higher" leads to the number to change and not only to the code reading it.

Values come from the scanners' `field` symbols (a component's own fields, the first
`MAX_FIELDS_PER_OBJECT` of each object) and `override` symbols (a prefab instance's
modifications, read as `carriers.with_settings` reads them). An override is stored by its
property, not the component it changes, so an override of an instance whose prefab carries the
script is taken as the script's when the property is the member or a part of it (`maxHealth`,
`patrolPoints.Array.data[0]`): another component of that prefab with a field of the same name is
listed too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.model import FileRecord, Usage
from indexer.query.carriers import MAX_SETTINGS_FILES, Overrides, inherited_usages

if TYPE_CHECKING:
    from indexer.query.graph import Graph


def value_usages(graph: Graph, member: str, script_guids: set[str]) -> list[Usage]:
    """The assets that set `member` of the scripts named by `script_guids` (a type and its
    subclasses): on a component of the script itself (context `value`) and as an override of an
    instance or variant of a prefab carrying it, at any depth (context `override`). The records
    of the first MAX_SETTINGS_FILES files of each are read, by path: a script on every prefab of a
    large project is not decoded thousands of times for one `refs`."""
    if not script_guids:
        return []
    names = (member, _backing(member))
    out: list[Usage] = []
    carriers: list[Usage] = []
    for path in _carrying(graph, script_guids)[:MAX_SETTINGS_FILES]:
        carriers.append(Usage(path, 0, "asset", "script", "m_Script", ""))
        rec = graph.records.record(path)
        out += _own_values(graph, rec, member, script_guids) if rec is not None else []
    files: dict[str, Overrides] = {}
    shown: set[tuple[str, str]] = set()  # one line per value an instance sets: stale overrides repeat it
    for instance in inherited_usages(graph, carriers):
        if instance.path not in files and len(files) >= MAX_SETTINGS_FILES:
            continue
        overrides = files.setdefault(instance.path, Overrides.of(graph, instance.path))
        via = instance.detail.rpartition(" (via ")[2]
        for s in overrides.set_by(instance.line):
            name = s.name.split(".", 1)[0]
            detail = graph.readable(f"{s.container} sets {_as_member(s.signature, member)} (via {via}")
            if name in names and (instance.path, detail) not in shown:
                shown.add((instance.path, detail))
                out.append(Usage(instance.path, s.line, "asset", "value", "override", detail))
    return out


def _carrying(graph: Graph, guids: set[str]) -> list[str]:
    """The files with a component of one of these scripts, by path."""
    marks = ",".join("?" * len(guids))
    sql = (
        "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id"
        f" WHERE r.kind = 'script' AND r.key IN ({marks}) ORDER BY f.path"
    )
    return [p for (p,) in graph.records.conn.execute(sql, sorted(guids))]


def _own_values(graph: Graph, rec: FileRecord, member: str, guids: set[str]) -> list[Usage]:
    """The values a file's own components of these scripts hold for the member (`field` symbols,
    whose type is `script:<GUID>`)."""
    out = []
    names = (member, _backing(member))
    for s in rec.symbols:
        if s.kind == "field" and s.name in names and s.type.startswith("script:") and s.type[7:] in guids:
            shown = _as_member(s.signature, member)
            detail = graph.readable(f"{s.container} > {graph.script_label(s.type[7:])}.{shown}")
            out.append(Usage(rec.path, s.line, "asset", "value", "value", detail))
    return out


def _backing(member: str) -> str:
    """The name Unity serializes a property's `[field: SerializeField]` backing field by."""
    return f"<{member}>k__BackingField"


def _as_member(signature: str, member: str) -> str:
    """`<Range>k__BackingField: 5` shown as the property the code declares: `Range: 5`."""
    backing = _backing(member)
    return member + signature[len(backing) :] if signature.startswith(backing) else signature
