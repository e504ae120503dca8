"""Git hooks that keep the index fresh, for repositories that do not use the pre-commit framework.

`install` writes `pre-commit`, `post-checkout`, `post-merge` and `post-rewrite` hooks that refresh
the index (never failing the git command) and then run the hook that was there before, kept as
`<name>.local`, with the same arguments and stdin. Re-installing is a no-op; `uninstall` puts the
previous hooks back. Lines someone added to a hook of ours are kept in a copy before it is
rewritten or removed. Each run reports only what it changed.
"""

from __future__ import annotations

import difflib
import os
import shlex
import shutil
import subprocess
import sysconfig
from pathlib import Path, PurePath, PureWindowsPath

from indexer.changes.placing import PlacingFailed, Planned, place_all
from indexer.files import read_regular

HOOKS = ("pre-commit", "post-checkout", "post-merge", "post-rewrite")
# A hook never holds git up for long: it waits this long for another indexer, and gives up (one
# line on stderr naming the command to run, the index keeping its last state) after the limit.
HOOK_WAIT_SECONDS = 2
HOOK_TIME_LIMIT_SECONDS = 5
MARKER = "# unity-index-refresh: managed by `unity-index hook install`"
CHAINED_SUFFIX = ".local"
# A hook of ours that someone added lines to is kept under this name before it is rewritten or removed.
KEPT_SUFFIX = ".unity-index-backup"
RECORDED_PREFIX = "unity_index="
# `pre-commit install` moves a hook it did not write (ours) to `<name>.legacy` and runs it by that name.
MOVED_SUFFIX = ".legacy"


class HookError(Exception):
    """Not a git repository, or the hooks folder cannot be changed."""


class GitMissing(HookError):
    """git is not on PATH, and a `.git` above the folder says it is in a repository: not to be
    told to run `git init` in a repository whose hooks are installed."""


def _not_read(base: Path, exc: OSError | subprocess.CalledProcessError) -> HookError:
    """Why git could not say where the repository of `base` is."""
    missing = isinstance(exc, FileNotFoundError) and exc.filename == "git"
    if missing and any((folder / ".git").exists() for folder in (base, *base.parents)):
        return GitMissing(
            f"git was not found on PATH, so the git repository holding {base} cannot be read:"
            " install git or add its folder to PATH, then run the command again"
        )
    return HookError(f"{base}: not inside a git repository ({exc})")


def _existing(base: Path) -> Path:
    """`base`, or the nearest folder above it that exists: git runs in a folder, and `uninstall`
    is given the folder of a project since removed, whose hooks fail on every git command."""
    base = base.absolute()
    while not base.is_dir() and base.parent != base:
        base = base.parent
    return base


def hooks_dir(base: Path) -> Path:
    """The repository's hooks folder (honours core.hooksPath and worktrees)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--path-format=absolute", "--git-path", "hooks"],
            cwd=_existing(base),
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        raise _not_read(_existing(base), exc) from None
    return Path(out.stdout.strip())


def repository_root(base: Path) -> Path:
    """The root of the work tree holding `base` (each git worktree has its own)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], cwd=_existing(base), capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        raise _not_read(_existing(base), exc) from None
    return Path(out.stdout.strip()).resolve()


def hook_project(project: Path) -> str:
    """How a hook names the project: relative to the work tree's root, where git runs hooks
    (`.` for the root itself). The hooks folder is shared by every worktree of a repository and
    moves with it, so an absolute path would refresh one checkout's index on commits in another,
    and nothing after a move or a copy."""
    project = project.resolve()
    try:
        rel = os.path.relpath(project, repository_root(project))
    except ValueError:  # another drive (Windows)
        return str(project)
    inside = rel != os.pardir and not rel.startswith(os.pardir + os.sep)
    return not_an_option(PurePath(rel).as_posix()) if inside else str(project)


def not_an_option(rel: str) -> str:
    """A relative path as an argument: `./-Game`, not `-Game`, which the command line reads as
    an option (`--project -Game`: "expected one argument", on every commit)."""
    return f"./{rel}" if rel.startswith("-") else rel


def installed_command() -> str | None:
    """The `unity-index` executable of this installation, wherever its layout puts it.

    The scripts folder of the running environment (`bin/` in a POSIX venv, `Scripts\\` with a
    `unity-index.exe` shim on Windows; `shutil.which` applies PATHEXT), else `unity-index` on PATH.
    """
    scripts = sysconfig.get_path("scripts")
    found = shutil.which("unity-index", path=scripts) if scripts else None
    return found or shutil.which("unity-index")


def sh_path(path: str, windows: bool) -> str:
    """A path as a POSIX sh reads it: on Windows with forward slashes (Git for Windows' sh and
    Windows programs both take `C:/Users/...`; backslashes are escapes to sh)."""
    return PureWindowsPath(path).as_posix() if windows else path


def script(projects: Path | str | list[str], command: str | None = None, windows: bool = os.name == "nt") -> str:
    """The hook: refresh each project (errors only, one line on stderr; stdin kept for the chained
    hook), then chain.

    Plain POSIX sh with no external command but unity-index itself, so it runs under Git for
    Windows' sh, dash and busybox alike. Each project is absolute, or relative to the work tree's
    root (`hook_project`), where git runs the hooks it calls: a repository holding several Unity
    projects has one hook refreshing each in turn. It runs the `unity-index` that installed it
    (`command`, default `installed_command()`), else the one on PATH at the time, else says in one
    line that the index was not refreshed. A refresh never fails the git command, and gives up
    (saying so in one line) past HOOK_TIME_LIMIT_SECONDS, each project in turn.
    """
    recorded = command if command is not None else installed_command()
    named = projects if isinstance(projects, list) else [projects]
    refreshes = "".join(f'project={shlex.quote(sh_path(str(p), windows))}\nrefresh "$project"\n' for p in named)
    return (
        "#!/bin/sh\n"
        f"{MARKER}; `unity-index hook uninstall` restores the previous hook.\n"
        f"{RECORDED_PREFIX}{shlex.quote(sh_path(recorded or '', windows))}\n"
        'if [ ! -x "$unity_index" ]; then unity_index=$(command -v unity-index 2>/dev/null); fi\n'
        "refresh() {\n"
        '  if [ -n "$unity_index" ]; then\n'
        f'    "$unity_index" index --quiet --wait {HOOK_WAIT_SECONDS} --time-limit {HOOK_TIME_LIMIT_SECONDS}'
        ' --project "$1" </dev/null >/dev/null || true\n'
        "  else\n"
        '    echo "unity-index: not found, so the index of $1 was not refreshed:'
        ' put unity-index on PATH, or run: unity-index hook uninstall" >&2\n'
        "  fi\n"
        "}\n"
        f"{refreshes}"
        f'chained="$0{CHAINED_SUFFIX}"\n'
        f'case $0 in *{MOVED_SUFFIX}) chained="${{0%{MOVED_SUFFIX}}}{CHAINED_SUFFIX}" ;; esac\n'
        'if [ -x "$chained" ]; then exec "$chained" "$@"; fi\n'
        "exit 0\n"
    )


def recorded_command(text: str) -> str | None:
    """The unity-index a hook written by `install` runs first (None: not ours, or none recorded)."""
    for line in text.splitlines():
        if line.startswith(RECORDED_PREFIX):
            try:
                words = shlex.split(line[len(RECORDED_PREFIX) :])
            except ValueError:
                return None
            return words[0] if words and words[0] else None
    return None


def recorded_projects(text: str) -> list[str]:
    """The projects (or folders of projects) a hook written by `install` refreshes, in order."""
    out = []
    for line in text.splitlines():
        if line.startswith("project="):
            try:
                words = shlex.split(line[len("project=") :])
            except ValueError:
                continue
            if words and words[0] not in out:
                out.append(words[0])
    return out


def _hook_text(hook: Path) -> str:
    """A hook as written: UTF-8 whatever the locale (a project named outside ASCII was misread, or
    failed, under Windows' ANSI code pages)."""
    return hook.read_text(encoding="utf-8", errors="replace")


def _ours(path: Path) -> bool:
    try:
        return MARKER in _hook_text(path)
    except OSError:
        return False


def _refuse_shared(project: Path, named: str) -> None:
    """Refuse a hooks folder that a git config every repository reads names (core.hooksPath in
    the user's or the system's config): hooks there run on every repository's commits."""
    try:
        out = subprocess.run(
            ["git", "config", "--show-scope", "--show-origin", "--get", "core.hooksPath"],
            cwd=_existing(project),
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return
    scope, _, rest = out.partition("\t")
    origin, _, value = rest.partition("\t")
    if scope in ("global", "system"):
        raise HookError(
            f"core.hooksPath is {value}, set in {origin.removeprefix('file:')} (the {scope} git config): hooks"
            f" there run in every repository, so they would refresh {named} on commits in all of them;"
            " call `unity-index index --quiet --exit-zero --project"
            f" {shlex.quote(str(project.resolve()))}` from your shared hook, or give this repository a hooks"
            " folder of its own (`git config core.hooksPath .git/hooks`, where your shared hooks do not run"
            " unless called) and run this again"
        )


def _head(path: Path) -> str:
    """The start of a file's text ("" when it cannot be read)."""
    try:
        return read_regular(path, 1 << 16).decode("utf-8", errors="replace")
    except OSError:
        return ""


def _runs_by_name(hook: Path) -> bool:
    """Whether a hook finds what to run by its own file name (`basename "$0"`: husky 4; husky 9's
    hooks source the folder's `h`, which does): kept under another name, it runs nothing."""
    text = _head(hook)
    if "basename" in text and "$0" in text:
        return True
    return '/h"' in text and "basename" in _head(hook.parent / "h")


def _refuse_runs_by_name(folder: Path, project: Path, named: str) -> None:
    """Refuse to keep a hook that goes by its own file name as `<name>.local`: it would run
    nothing, and the checks it runs (a team's lint, its tests) would silently stop."""
    found = [name for name in HOOKS if not _ours(folder / name) and _runs_by_name(folder / name)]
    if not found:
        return
    line = _refresh_line(named)
    hook = folder / found[0]
    if "husky" in _head(folder / "h"):  # husky 9: `.husky/_/<name>` runs the team's `.husky/<name>`
        where = [_shown(folder.parent / name, repository_root(project)) for name in HOOKS]
        raise HookError(
            f"{hook} is husky's: its hooks find what to run by their own file name, so husky's would stop"
            f" running if kept as {hook.name}{CHAINED_SUFFIX}; add this line to {', '.join(where[:-1])} and"
            f" {where[-1]} instead (creating those missing): {line}"
        )
    raise HookError(
        f"{hook} finds what to run by its own file name, so it would stop running if kept as"
        f" {hook.name}{CHAINED_SUFFIX}; add this line to what it runs for {', '.join(HOOKS[:-1])} and"
        f" {HOOKS[-1]} instead: {line}"
    )


def _refresh_line(named: str) -> str:
    """The line that refreshes the project `named` from a hook unity-index did not write."""
    line = f"unity-index index --quiet --wait {HOOK_WAIT_SECONDS} --time-limit {HOOK_TIME_LIMIT_SECONDS} --exit-zero"
    return f"command -v unity-index >/dev/null && {line} --project {shlex.quote(named)} || true"


def _refuse_committed(folder: Path, named: str) -> None:
    """Refuse a hooks folder in a work tree that git does not ignore (`core.hooksPath = .githooks`,
    a team's committed hooks): the hooks written there, naming this machine's unity-index, would
    be committed for everyone, the team's hook moved to an untracked `<name>.local` run by no one."""
    where = _existing(folder)
    name = os.path.relpath(folder / HOOKS[0], where)
    try:
        inside = subprocess.run(
            ["git", "rev-parse", "--is-inside-work-tree"], cwd=where, capture_output=True, text=True
        )
        if inside.stdout.strip() != "true":  # .git/hooks, a folder outside any repository
            return
        if subprocess.run(["git", "check-ignore", "-q", name], cwd=where, capture_output=True).returncode == 0:
            return  # this clone's alone (husky 9's `.husky/_` ignores itself)
    except OSError:
        return
    raise HookError(
        f"{folder} is in a work tree and git does not ignore it (core.hooksPath names it): hooks written there"
        " would be committed, naming this machine's unity-index, and the hooks there now moved to untracked"
        f" <name>{CHAINED_SUFFIX} files; add this line to its {', '.join(HOOKS[:-1])} and {HOOKS[-1]} hooks"
        f" instead (creating those missing), or have git ignore the folder: {_refresh_line(named)}"
    )


def _shown(path: Path, top: Path) -> str:
    """`path` relative to the work tree's root `top` when inside it."""
    try:
        return path.resolve().relative_to(top).as_posix()
    except ValueError:
        return str(path)


def install(project: Path) -> list[str]:
    """Install the hooks for the project (or folder of projects) `project`, beside the projects
    our hooks already refresh (a repository may hold several); returns what was done. Never into
    a hooks folder every repository shares (`_refuse_shared`). All four are placed or none
    (`placing.place_all`): a failure puts back what was placed and names the hook that failed."""
    folder = hooks_dir(project)
    _refuse_shared(project, hook_project(project))
    _refuse_runs_by_name(folder, project, hook_project(project))
    _refuse_committed(folder, hook_project(project))
    folder.mkdir(parents=True, exist_ok=True)
    named = hook_project(project)
    planned, done = [], []
    for name in HOOKS:
        step = _plan_hook(folder, name, named, project)
        if step is not None:
            planned.append(step[0])
            done += step[1]
    _place_or_none(planned, "install", folder)
    return done


def _place_or_none(planned: list[Planned], action: str, folder: Path) -> None:
    """`place_all`, a failure said as a HookError naming the hook and what was put back."""
    try:
        place_all(planned)
    except PlacingFailed as exc:
        kept = f"could not put back {', '.join(exc.unrestored)}" if exc.unrestored else "no hook was changed"
        why = exc.cause.strerror or exc.cause
        raise HookError(f"could not {action} the {exc.name} hook in {folder}: {why}; {kept}") from None


def _plan_hook(folder: Path, name: str, named: str, project: Path) -> tuple[Planned, list[str]] | None:
    """How the hook `name` is to be placed and what that does, or None when it is current.
    HookError, before anything is written, when it cannot be (a folder in its place)."""
    hook = folder / name
    chained = folder / (name + CHAINED_SUFFIX)
    if hook.is_dir() and not hook.is_symlink():  # git cannot run it, nor would ours as `<name>.local`
        raise HookError(f"{hook} is a folder, not a hook: move it away, then run this again; no hook was changed")
    ours = _ours(hook)
    projects = _projects_of(hook) if ours else []
    others = [p for p in projects if not _same(p, named, project)]
    # in the order they were installed, this project's entry named as `hook_project` names it
    listed = list(dict.fromkeys([named if _same(p, named, project) else p for p in projects] + [named]))
    text = script(listed)
    if ours and _current(hook, text):
        return None  # already this hook: nothing to report
    # Written as bytes: no CRLF (text mode's default on Windows), which breaks the shebang line.
    step = Planned(name, hook.resolve() if ours else hook, text.encode("utf-8"), 0o755)
    done = []
    if ours and (copy := _edits_copy(hook)) is not None:
        step.backup = copy
        done.append(f"{name}: had lines unity-index did not write; kept a copy as {copy.name}")
    elif not ours and _present(hook):  # a symlink too, even one to nothing: it is the user's
        if _present(chained):
            raise HookError(f"{hook} exists and so does {chained}: move one of them away first; no hook was changed")
        step.keep_as = chained
        done.append(f"{name}: kept the existing hook as {chained.name}, run after the refresh")
    also = f" (refreshing {', '.join(others)} too)" if others else ""
    done.append(f"{name}: {'updated' if ours else 'installed'} in {folder}{also}")
    return step, done


def _present(path: Path) -> bool:
    return path.is_symlink() or path.exists()


def _added_lines(hook: Path) -> list[str]:
    """The lines someone added to a hook of ours: what this version would write for its projects
    and command does not have them (a line of ours changed in place, as another version writes
    it, is not one)."""
    try:
        text = _hook_text(hook)
    except OSError:
        return []
    lines = text.splitlines()
    ours = script(recorded_projects(text), recorded_command(text) or "").splitlines()
    added = []
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(None, ours, lines, autojunk=False).get_opcodes():
        if op == "insert" or (op == "replace" and b2 - b1 > a2 - a1):
            added += [line for line in lines[b1:b2] if line.strip()]
    return added


def _edits_copy(hook: Path) -> Path | None:
    """Where to keep a copy of a hook of ours that someone added lines to, before it is rewritten
    or removed (`<name>.unity-index-backup`, never one already there); None: no lines added."""
    if not _added_lines(hook):
        return None
    copy = hook.with_name(hook.name + KEPT_SUFFIX)
    n = 1
    while _present(copy):
        copy, n = hook.with_name(f"{hook.name}{KEPT_SUFFIX}.{n}"), n + 1
    return copy


def _projects_of(hook: Path) -> list[str]:
    try:
        return recorded_projects(_hook_text(hook))
    except OSError:
        return []


def _same(recorded: str, named: str, project: Path) -> bool:
    """Whether a hook's project is this one: as `hook_project` names it, or by an absolute path
    (hooks of earlier builds)."""
    if os.path.normpath(recorded) == os.path.normpath(named):  # `-Game` as hooks before ./-Game named it
        return True
    target = Path(recorded)
    return target.is_absolute() and target.resolve() == project.resolve()


def _current(hook: Path, text: str) -> bool:
    """Whether `hook` is exactly `text` and executable."""
    try:
        return hook.read_bytes() == text.encode("utf-8") and os.access(hook, os.X_OK)
    except OSError:
        return False


def uninstall(project: Path) -> list[str]:
    """Stop the hooks refreshing `project`: a hook that refreshes other projects too keeps them;
    one left with none is removed and the hook it chained to put back. Ours moved to
    `<name>.legacy` by `pre-commit install` likewise, the hook it chained to put back there, where
    the pre-commit framework's hook runs it. All are changed or none (`placing.place_all`, as
    `install`): a failure puts back what was changed and names the hook."""
    project = project.resolve()
    folder = hooks_dir(project)
    named = hook_project(project)
    planned, done = [], []
    for name in HOOKS:
        chained = folder / (name + CHAINED_SUFFIX)
        for hook in (folder / name, folder / (name + MOVED_SUFFIX)):
            if hook.exists() and _ours(hook):
                step = _plan_uninstall(hook, chained, named, project)
                if step is not None:
                    planned.append(step[0])
                    done += step[1]
                break
    _place_or_none(planned, "uninstall", folder)
    return done


def _plan_uninstall(hook: Path, chained: Path, named: str, project: Path) -> tuple[Planned, list[str]] | None:
    """How our `hook` stops refreshing `project` and what that does; None: it refreshes others only."""
    projects = _projects_of(hook)
    others = [p for p in projects if not _same(p, named, project)]
    if projects and len(others) == len(projects):
        return None
    step = Planned(hook.name, hook.resolve() if others else hook, backup=_edits_copy(hook))
    done = (
        []
        if step.backup is None
        else [f"{hook.name}: had lines unity-index did not write; kept a copy as {step.backup.name}"]
    )
    if others:
        step.data = script(others, recorded_command(_hook_text(hook)) or "").encode("utf-8")
        return step, [*done, f"{hook.name}: no longer refreshes {named} (still {', '.join(others)})"]
    if _present(chained):
        step.source = chained
        return step, [*done, f"{hook.name}: restored the previous hook"]
    step.remove = True
    return step, [*done, f"{hook.name}: removed"]
