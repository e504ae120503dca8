"""Text for people and models: one renderer per result type, used by the CLI and the MCP server."""

from __future__ import annotations

from indexer.model import ContextPack, Overview, Status


def render_overview(overview: Overview) -> str:
    title = f"# Unity project {overview.name}" + (f" — {overview.product}" if overview.product else "")
    lines = [f"{title} (Unity {overview.unity_version or 'version unknown'})"]
    if overview.packages:
        lines.append(f"Packages ({len(overview.packages)}): " + ", ".join(overview.packages))
    if overview.assemblies:
        asm = [f"{a.name} ({a.folder}{', editor' if a.editor_only else ''})" for a in overview.assemblies]
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
    if not status.indexed:
        return f"project {status.project}\nno index yet at {status.index_dir}: run `unity-index index`"
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(status.by_kind.items(), key=lambda kv: (-kv[1], kv[0])))
    lines = [
        f"project   {status.project}",
        f"index     {status.index_dir} ({status.index_bytes / 1e6:.1f} MB, generation {status.generation})",
        f"files     {status.files}: {kinds}",
        f"partial   {status.partial} parsed with syntax errors",
        f"skipped   {len(status.skipped)}",
    ]
    lines += [f"  {s.path}: {s.reason}" for s in status.skipped[:20]]
    if len(status.skipped) > 20:
        lines.append(f"  ... and {len(status.skipped) - 20} more (--json lists all)")
    lines.append(
        f"stale     {status.stale_files} files changed since the last update; run `unity-index index`"
        if status.stale_files
        else "stale     no: the index matches the files on disk"
    )
    return "\n".join(lines)
