"""`unity-index agents install|uninstall`: teach coding agents the command line without MCP.

Agents read guidance files: `AGENTS.md` (Codex, Cursor, GitHub Copilot, ...), `CLAUDE.md` and
skills (`.claude/skills/NAME/SKILL.md`, Claude Code). `install` writes a short section between two
marker comments into the guidance files (added at the end after one line end, or replaced where it
is; the rest of the file is never touched) and the skill; a second run changes nothing; `uninstall`
removes exactly what `install` wrote, giving back the file's bytes. The section is kept short
because it is read on every request: a test holds it under `SECTION_TOKEN_LIMIT` tokens as the
project's own counter measures it.
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path
from typing import NamedTuple

from indexer.cli.common import EXIT_OK, JSON_SCHEMA_VERSION, UsageError, print_json, project_arg, shown, workspace
from indexer.cli.console import Console
from indexer.files import atomic_write, read_regular
from indexer.paths import relative_inside

BEGIN = (
    "<!-- unity-index:begin (managed by `unity-index agents install`; `unity-index agents uninstall` removes it) -->"
)
END = "<!-- unity-index:end -->"
SECTION_TOKEN_LIMIT = 400
SKILL = Path(".claude") / "skills" / "unity-index" / "SKILL.md"
CLIENTS = ("agents", "claude")  # AGENTS.md; CLAUDE.md and the Claude Code skill

# CRLF too: a file checked out on Windows (core.autocrlf) after the section was added
_SECTION = re.compile(rf"{re.escape(BEGIN)}(\r?\n).*?{re.escape(END)}(?:\r?\n)?", re.S)

GUIDE = """\
## Finding things in this Unity project: unity-index

This project has a unity-index index of its C# code, scenes, prefabs, ScriptableObjects,
materials and shaders, with the GUID references between them. Ask it before grepping: it sees
what text search misses (which prefab carries a script, which button calls a method). Add
`--json` for machine-readable output; paths are relative to the project.

- `unity-index query "<words, identifiers or a task>"{flag}`: ranks files; each hit says why.
- `unity-index context "<task>" --budget 6000{flag}`: outlines of the files a task needs, under a
  token budget. Start a task with it.
- `unity-index refs <Type | Type.Member | path | GUID>{flag} --json`: every usage, in code and in
  assets (prefabs, scenes, UnityEvents).
- `unity-index describe <path | GUID>{flag} --json`: one file's outline (a script's members, a
  scene's GameObjects and components) with what it uses and what uses it.

Each command first brings the index up to date with the files changed since (incremental);
`unity-index index{flag}` does that alone.
Grep remains right for exact strings. Never edit `Library/UnityIndex/`.
"""

DESCRIPTION = (
    "Find code and assets in this Unity project (scripts, scenes, prefabs, ScriptableObjects) and what"
    " references what. Use before grepping, to locate where something happens, which prefab or scene uses"
    " a script, what calls a method, or to gather the files a task needs."
)
SKILL_HEAD = f"---\nname: unity-index\ndescription: {DESCRIPTION}\n---\n"


def section(single_project: bool) -> str:
    """The marked section (`--project .` in each command when the folder holds several projects)."""
    return f"{BEGIN}\n{GUIDE.format(flag='' if single_project else ' --project .')}{END}\n"


def skill(single_project: bool) -> str:
    return SKILL_HEAD + section(single_project)


def upsert(text: str | None, block: str) -> str | None:
    """`text` with `block` in place of the marked section, or (a file without one) after the
    file's bytes and one line end, which `remove` takes away again; None when it already holds
    exactly that. What comes before the section is never changed (it used to lose its last blank
    lines, and an empty file became one `uninstall` deleted)."""
    if text is None:
        return block
    nl = _newline(text)
    block = block.replace("\n", nl)
    found = _SECTION.search(text)
    if found is None:
        return text + nl + block
    new = text[: found.start()] + block + text[found.end() :]
    return None if new == text else new


def remove(text: str) -> str | None:
    """`text` without the marked section and the line end `upsert` put before it: the file as it
    was before `install`, byte for byte; None when there is no section."""
    found = _SECTION.search(text)
    if found is None:
        return None
    before, nl = text[: found.start()], found.group(1)  # the section's line end is the separator's
    return before.removesuffix(nl) + text[found.end() :]


def created(text: str) -> bool:
    """Whether `install` created the file: it starts with the section and holds nothing else
    (to a file that was there, even an empty one, the section is added after a line end)."""
    return text.startswith(BEGIN) and not (remove(text) or "").strip()


def _newline(text: str) -> str:
    """The line end a file uses (CRLF when its first line ends so)."""
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


class Change(NamedTuple):  # not a dataclass: importing dataclasses costs every command ~20 ms
    path: Path
    change: str  # added, updated, unchanged, removed, absent, skipped
    content: str | None = None  # the new content (None: deleted or untouched)
    note: str = ""


def _read(path: Path) -> str | None:
    try:
        return read_regular(path).decode("utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        said = "not UTF-8 text; nothing was written: save it as UTF-8 or move it away"
        raise UsageError(f"{shown(path)}: {said}") from None


def plan_install(base: Path, clients: tuple[str, ...], single_project: bool) -> list[Change]:
    block = section(single_project)
    targets = [base / "AGENTS.md"] if "agents" in clients else []
    if "claude" in clients:
        claude = base / "CLAUDE.md"
        text = _read(claude) or ""
        # Claude Code follows an `@AGENTS.md` anywhere in the text, on a line of its own or not
        imports = re.search(r"(?<![\w@/.])@AGENTS\.md(?![\w/])", text) is not None
        shared = "agents" in clients or _SECTION.search(_read(base / "AGENTS.md") or "") is not None
        if imports and shared and not _SECTION.search(text):
            note = "it imports AGENTS.md, which holds the section"
            return [*_upserts(targets, block), Change(claude, "skipped", note=note), *_skill(base, single_project)]
        targets.append(claude)
    return [*_upserts(targets, block), *(_skill(base, single_project) if "claude" in clients else [])]


def _upserts(paths: list[Path], block: str) -> list[Change]:
    out = []
    for path in paths:
        text = _read(path)
        new = upsert(text, block)
        kind = "unchanged" if new is None else "updated" if text and _SECTION.search(text) else "added"
        out.append(Change(path, kind, new))
    return out


def _skill(base: Path, single_project: bool) -> list[Change]:
    path = base / SKILL
    text, wanted = _read(path), skill(single_project)
    if text == wanted:
        return [Change(path, "unchanged")]
    if text is not None and BEGIN not in text:
        return [Change(path, "skipped", note="a skill of that name that unity-index did not write is there")]
    if text is not None and not _ours_only(text):  # lines the user added stay; the section is updated
        new = upsert(text, section(single_project))
        return [Change(path, "unchanged")] if new is None else [Change(path, "updated", new)]
    return [Change(path, "updated" if text else "added", wanted)]


def _ours_only(skill_text: str) -> bool:
    """Whether a skill holds what `install` writes and nothing else (any version's section)."""
    rest = remove(skill_text)
    return rest is not None and (not rest.strip() or _HEAD.fullmatch(rest.strip()) is not None)


_HEAD = re.compile(r"---\r?\nname: unity-index\r?\ndescription: [^\n]*\r?\n---")  # any version's


def plan_uninstall(base: Path) -> list[Change]:
    out = []
    for path in (base / "AGENTS.md", base / "CLAUDE.md"):
        text = _read(path)
        new = remove(text) if text is not None else None
        if text is not None and new is not None:
            out.append(Change(path, "removed", None if created(text) else new))
    path = base / SKILL
    text = _read(path)
    if text is not None and BEGIN in text:
        kept = None if _ours_only(text) else remove(text)
        out.append(Change(path, "removed", kept, "kept the lines you added" if kept else ""))
    return out


def apply(changes: list[Change], base: Path) -> None:
    for c in changes:
        if c.change in ("added", "updated") or (c.change == "removed" and c.content is not None):
            atomic_write(c.path, c.content or "")
        elif c.change == "removed":
            c.path.unlink()
            _prune(c.path.parent, base)


def _inside(c: Change, base: Path) -> Change:
    """A change to a file that is, or sits below, a link leading out of the project is not made: an
    `AGENTS.md` linked to `~/.bashrc` had the section appended to it."""
    if c.change in ("unchanged", "skipped", "absent"):
        return c
    real = os.path.realpath(c.path)
    if relative_inside(os.path.realpath(base), real) is not None:
        return c
    return Change(c.path, "skipped", note=f"a link to {shown(real)}, outside the project: not written")


def _prune(folder: Path, base: Path) -> None:
    """Remove the skill's folders that are left empty, up to the project."""
    while folder != base and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent


def cmd_agents(args: argparse.Namespace, console: Console) -> int:
    from indexer.query.tokens import counter

    ws = workspace(args)
    base = ws.base
    if args.agents_command == "install":
        clients = tuple(args.client or CLIENTS)
        changes = plan_install(base, clients, ws.single)
    else:
        changes = plan_uninstall(base)
    changes = [_inside(c, base) for c in changes]
    if not args.dry_run:
        apply(changes, base)
    tokens = counter("auto").count(section(ws.single))
    if args.json:
        files = [{"path": str(c.path), "change": c.change, "note": c.note} for c in changes]
        data = {"schema_version": JSON_SCHEMA_VERSION, "action": args.agents_command, "files": files}
        print_json({**data, "tokens": tokens})
        return EXIT_OK
    would = "would be " if args.dry_run else ""
    for c in changes:
        note = f" ({c.note})" if c.note else ""
        console.info(f"{c.path.relative_to(base).as_posix()}: {would}{c.change}{note}")
    if not changes:
        console.info(f"nothing to remove in {shown(base)}")
    elif args.agents_command == "install":
        console.info(f"[the section costs {tokens} tokens ({counter('auto').name}) on every request that reads it]")
        if args.dry_run:
            print(section(ws.single), end="")
    return EXIT_OK


def _add_agents(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("agents", help="teach coding agents to use unity-index (AGENTS.md, CLAUDE.md, a skill)")
    asub = p.add_subparsers(dest="agents_command", metavar="ACTION", required=True)
    i = asub.add_parser(
        "install",
        help="write a short unity-index section into AGENTS.md / CLAUDE.md and a Claude Code skill",
        description="Write (or update) a marked section telling agents when to use query, context, refs and describe.",
    )
    i.add_argument(
        "--client",
        action="append",
        choices=CLIENTS,
        help="agents: AGENTS.md; claude: CLAUDE.md and .claude/skills/unity-index (default: both; repeatable)",
    )
    u = asub.add_parser("uninstall", help="remove what `agents install` wrote")
    for q in (i, u):
        project_arg(q)
        q.add_argument("--dry-run", action="store_true", help="say what would change; write nothing")
        q.add_argument("--json", action="store_true", help="print what was (or would be) done as JSON")
        q.set_defaults(func=cmd_agents)


COMMANDS = {"agents": _add_agents}
