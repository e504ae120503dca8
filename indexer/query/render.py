"""Text for people and models: one renderer per result type, used by the CLI and the MCP server."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from indexer.model import ContextPack, Description, Hit, Overview, Status, Target, UpdateStats, Usage
from indexer.words import plural

if TYPE_CHECKING:
    from indexer.query.tokens import TokenCounter

_TARGET_WORDS = {
    "type": "type",
    "member": "member",
    "path": "file",
    "guid": "GUID",
    "assembly": "assembly",
    "package_script": "package script",
    "builtin": "Unity class",
    "animator_parameter": "animator parameter",
    "tag": "tag",
    "message": "name called without a receiver",
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
    elif target.kind == "builtin" and target.member:  # `AudioSource.Play`: no project type's
        label = f"member {target.member} of {', '.join(target.types)}"
    word = "Unity" if target.kind == "builtin" and target.member else _TARGET_WORDS.get(target.kind, target.kind)
    return f"{word} {label}" + (f"  ({target.note})" if target.note else "")


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
    """One line for what an index update did, and one naming the scripts left mid-merge, if any."""
    what = "updated" if not stats.full else "built" if stats.generation == 1 else "rebuilt"  # 1: the first
    moved = f"{stats.moved} moved, " if stats.moved else ""  # kept records: `--json`'s `moved` (was left out)
    done = (
        f"{what} index of {root}: {plural(stats.files, 'file')}; scanned {stats.scanned} "
        f"({stats.added} added, {stats.changed} changed), {moved}{stats.deleted} deleted, "
        f"{stats.skipped} skipped in all, in {stats.seconds:.2f}s"
    )
    if not (conflicted := stats.conflicted):
        return done
    named = ", ".join(conflicted[:5]) + (f" and {len(conflicted) - 5} more" if len(conflicted) > 5 else "")
    markers = f"unresolved merge conflict markers in {plural(len(conflicted), 'file')}: {named}"
    return f"{done}\n{markers} (`unity-index describe` one for the lines)"


def overview_lines(overview: Overview) -> list[tuple[str, list[str]]]:
    """The overview's lines as (head, items): the title (no items), then each list it holds."""
    title = f"# Unity project {overview.name}" + (f" — {overview.product}" if overview.product else "")
    lines: list[tuple[str, list[str]]] = [(f"{title} (Unity {overview.unity_version or 'version unknown'})", [])]
    if overview.packages:
        lines.append((f"Packages ({len(overview.packages)}): ", overview.packages))
    if overview.scenes_in_build or overview.scenes_missing:  # where the game starts: before the assemblies
        gone = overview.scenes_missing  # named when few, else counted: listed but not in the project
        said = ", ".join(gone) if len(gone) <= 2 else f"{len(gone)} scenes"
        missing = [f"listed but not in the project: {said}"] if gone else []
        lines.append(("Scenes in build: ", overview.scenes_in_build + missing))
    if overview.assemblies:
        # the project's own first, third-party ones last: a cut list keeps what the task may touch
        ordered = sorted(overview.assemblies, key=lambda a: (a.third_party, a.editor_only))
        asm = [
            f"{a.name} ({a.folder}{', editor' if a.editor_only else ''}{', third-party' if a.third_party else ''})"
            for a in ordered
        ]
        lines.append((f"Assemblies ({len(asm)}): ", asm))
    if overview.defines:
        lines.append(("Scripting defines: ", overview.defines))
    counts = sorted(overview.counts.items(), key=lambda kv: (-kv[1], kv[0]))
    lines.append(("Files: ", [f"{n} {k}" for k, n in counts]))
    return lines


def render_overview(overview: Overview) -> str:
    return "\n".join(head + ", ".join(items) for head, items in overview_lines(overview))


def fitted_overview(overview: Overview, counter: TokenCounter, max_tokens: int) -> str:
    """The overview in at most `max_tokens`: whole lines while they fit, then the first line that
    does not with as many of its items as fit and how many more there are ("… 14 more"), so a
    long list of scenes cuts short instead of taking every line after it away ('' when not even
    the title fits)."""
    out: list[str] = []
    used = 0
    for head, items in overview_lines(overview):
        line = head + ", ".join(items)
        cost = counter.count(line) + (1 if out else 0)
        if used + cost <= max_tokens:
            out.append(line)
            used += cost
            continue
        best = ""
        for k in range(1, len(items)):
            cut = f"{head}{', '.join(items[:k])}, … {len(items) - k} more"
            if used + counter.count(cut) + 1 > max_tokens:
                break
            best = cut
        if best and out:
            out.append(best)
        break
    return "\n".join(out)


def render_context(pack: ContextPack) -> str:
    return "\n\n".join(t for t in (pack.tier1.text, pack.tier2.text) if t)


# What a change waits for while another process holds the index's writer lock (`busy_message`).
KEPT_WHILE_BUSY = "; the index keeps its last committed state (the changes are applied once that process is done)"


def render_status(status: Status, writer: str = "") -> str:
    """`writer`: who holds the writer lock (`store.lock.busy_message`), said on the `stale` line in
    place of what to run: nothing applies the changes while that process writes, or is suspended."""
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
    then = f"{writer}{KEPT_WHILE_BUSY}" if writer else "run `unity-index index`"
    lines.append(
        f"stale     {changed} since the last update; {then}"
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
