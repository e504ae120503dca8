"""Text for people and models: one renderer per result type, used by the CLI and the MCP server."""

from __future__ import annotations

from collections.abc import Sequence

from indexer.model import ContextPack, Description, Hit, Overview, Status, Target, UpdateStats, Usage
from indexer.words import plural

_TARGET_WORDS = {
    "type": "type",
    "member": "member",
    "path": "file",
    "guid": "GUID",
    "assembly": "assembly",
    "package_script": "package script",
}


def render_hits(hits: Sequence[Hit]) -> str:
    """Ranked files, one line each with the best match, its snippet and why the file ranks below."""
    lines = []
    for i, h in enumerate(hits, 1):
        loc = _location(h.path, h.line)
        lines.append(f"{i:>2}. {loc}  [{h.kind}] {h.name}  ({h.score:.2f})")
        if h.snippet:
            lines.append(f"      {h.snippet}")
        if h.reason:
            lines.append(f"      why: {h.reason}")
    return "\n".join(lines)


def render_target(target: Target) -> str:
    """What a refs target turned out to be: `type Game.Player`, `member Heal of Game.Player`, ..."""
    label = ", ".join(target.types) if target.kind in ("type", "member") else target.path or target.name
    if target.kind == "member":
        label = f"{target.member} of {label}"
    return f"{_TARGET_WORDS.get(target.kind, target.kind)} {label}" + (f"  ({target.note})" if target.note else "")


def render_refs(target: Target, usages: Sequence[Usage], shown: Sequence[Usage]) -> str:
    """The target, then the `shown` usages grouped by where they are (counts are of all `usages`)."""
    lines = [render_target(target)]
    if not usages:
        lines.append("no usages found")
    for where in ("asset", "code"):
        group = [u for u in shown if u.where == where]
        if group:
            total = sum(1 for u in usages if u.where == where)
            lines.append(f"{'in assets' if where == 'asset' else 'in code'} ({total}):")
        for u in group:
            extra = f" -> {u.resolved}" if u.resolved else ""
            ctx = f" [{u.context}]" if u.context else ""
            loc = _location(u.path, u.line)
            lines.append(f"  {loc}{ctx}  {u.detail}{extra}".rstrip())
    return "\n".join(lines)


def render_description(desc: Description, project: str | None = None) -> str:
    """The outline of one file; `project` names its project in a workspace of several."""
    return desc.text if project is None else f"[project {project}]\n{desc.text}"


def render_update(root: object, stats: UpdateStats) -> str:
    """One line for what an index update did."""
    what = "rebuilt" if stats.full else "updated"
    return (
        f"{what} index of {root}: {plural(stats.files, 'file')}; scanned {stats.scanned} "
        f"({stats.added} added, {stats.changed} changed), {stats.deleted} deleted, "
        f"{stats.skipped} skipped in all, in {stats.seconds:.2f}s"
    )


def render_overview(overview: Overview) -> str:
    title = f"# Unity project {overview.name}" + (f" — {overview.product}" if overview.product else "")
    lines = [f"{title} (Unity {overview.unity_version or 'version unknown'})"]
    if overview.packages:
        lines.append(f"Packages ({len(overview.packages)}): " + ", ".join(overview.packages))
    if overview.assemblies:
        asm = [
            f"{a.name} ({a.folder}{', editor' if a.editor_only else ''}{', third-party' if a.third_party else ''})"
            for a in overview.assemblies
        ]
        lines.append(f"Assemblies ({len(asm)}): " + ", ".join(asm))
    if overview.scenes_in_build:
        lines.append("Scenes in build: " + ", ".join(overview.scenes_in_build))
    if overview.defines:
        lines.append("Scripting defines: " + ", ".join(overview.defines))
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(overview.counts.items(), key=lambda kv: (-kv[1], kv[0])))
    lines.append(f"Files: {kinds}")
    return "\n".join(lines)


def render_context(pack: ContextPack) -> str:
    return "\n\n".join(t for t in (pack.tier1.text, pack.tier2.text) if t)


def render_status(status: Status) -> str:
    if status.damaged:
        return (
            f"project {status.project}\nthe index at {status.index_dir} is damaged ({status.damaged}):"
            " run `unity-index index` to rebuild it"
        )
    if not status.indexed:
        return f"project {status.project}\nno index yet at {status.index_dir}: run `unity-index index`"
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(status.by_kind.items(), key=lambda kv: (-kv[1], kv[0])))
    lines = [
        f"project   {status.project}",
        f"index     {status.index_dir} ({status.index_bytes / 1e6:.1f} MB, generation {status.generation})",
        f"files     {status.files}: {kinds}",
        f"partial   {status.partial} read in part (syntax errors; binary-serialized assets: their references only)",
        *_listed(status.partial_files),
        f"skipped   {len(status.skipped)}",
        *_listed([f"{s.path}: {s.reason}" for s in status.skipped]),
    ]
    changed = f"{plural(status.stale_files, 'file')} {'has' if status.stale_files == 1 else 'have'} changed"
    lines.append(
        f"stale     {changed} since the last update; run `unity-index index`"
        if status.stale_files
        else "stale     no: the index matches the files on disk"
    )
    return "\n".join(lines)


def _listed(items: list[str], shown: int = 20) -> list[str]:
    more = [f"  ... and {len(items) - shown} more (--json lists all)"] if len(items) > shown else []
    return [f"  {item}" for item in items[:shown]] + more


def _location(path: str, line: int) -> str:
    """`path:line`, or the path alone when there is no line (a binary file's reference, a file
    with no declarations)."""
    return f"{path}:{line}" if line else path
