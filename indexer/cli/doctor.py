"""`unity-index doctor`: what is wrong with this installation and project, and how to fix it.

Each check is a small function returning `Check`s (pass, warn or fail, with a fix). Checks that
need another package (the MCP adapter: editor reachability, agent configurations) arrive through
the `unity_index.doctor_checks` entry point group, so `indexer` never imports them. A check that
depends on one that did not pass is left out rather than reported twice; `index` after an invalid
config is said not checked (the config says where the index is).
"""

from __future__ import annotations

import re
import shlex
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import msgspec

from indexer.cli.checks import FAIL, PASS, WARN, Check, Target
from indexer.cli.common import (
    MAX_WORKSPACE_PROJECTS,
    not_a_folder,
    quoted,
    shown,
    too_many_projects,
    working_folder_gone,
)
from indexer.cli.doctor_index import index_checks
from indexer.config import CONFIG_FILE, Config, ConfigError
from indexer.files import read_regular
from indexer.installation import add_package
from indexer.project import load_project_config
from indexer.words import plural

CHECKS_GROUP = "unity_index.doctor_checks"
DOCTOR_SCHEMA_VERSION = 1

# distribution -> module to import (a broken binary wheel imports badly even at the right version)
DEPENDENCIES = {
    "tree-sitter": "tree_sitter",
    "tree-sitter-c-sharp": "tree_sitter_c_sharp",
    "tantivy": "tantivy",
    "msgspec": "msgspec",
    "ruamel.yaml": "ruamel.yaml",
    "watchdog": "watchdog",
    "mcp": "mcp",
}


class Report(msgspec.Struct):
    schema_version: int
    version: str  # of unity-index (the package metadata)
    project: str | None
    ok: bool  # no check failed
    checks: list[Check]


# Environment ---------------------------------------------------------------------------------------


def check_python() -> Check:
    v = sys.version_info
    where = f"Python {v.major}.{v.minor}.{v.micro} at {sys.executable}"
    if v < (3, 11):
        return Check("python", FAIL, f"{where}; unity-index needs 3.11 or newer", "install Python 3.11+ and reinstall")
    return Check("python", PASS, where)


def _release(version: str) -> tuple[int, ...]:
    m = re.match(r"\d+(?:\.\d+)*", version)
    return tuple(int(x) for x in m.group().split(".")) if m else ()


def satisfies(version: str, spec: str) -> bool:
    """Whether `version` meets a specifier list such as `>=0.25,<0.27` (release numbers only)."""
    have = _release(version)
    for part in filter(None, (p.strip() for p in spec.split(","))):
        m = re.match(r"(>=|<=|==|!=|>|<|~=)\s*(.+)", part)
        if not m:
            continue
        op, want = m.group(1), _release(m.group(2))
        width = max(len(have), len(want))
        a, b = have + (0,) * (width - len(have)), want + (0,) * (width - len(want))
        ok = {
            ">=": a >= b,
            "<=": a <= b,
            ">": a > b,
            "<": a < b,
            "==": a == b,
            "!=": a != b,
            "~=": a >= b and a[: len(want) - 1] == b[: len(want) - 1],
        }[op]
        if not ok:
            return False
    return True


def requirements() -> dict[str, str]:
    """Each dependency's version range as this installation declares it ("" when unknown)."""
    from importlib.metadata import PackageNotFoundError, requires

    try:
        declared = requires("unity-index") or []
    except PackageNotFoundError:
        declared = []
    out = dict.fromkeys(DEPENDENCIES, "")
    for req in declared:
        if ";" in req:  # extras (dev) and markers
            continue
        m = re.match(r"([A-Za-z0-9_.\-]+)\s*(.*)", req)
        if m and m.group(1).lower() in out:
            out[m.group(1).lower()] = ",".join(sorted(m.group(2).replace(" ", "").split(","), reverse=True))
    return out


def check_dependency(dist: str, module: str, spec: str) -> Check:
    from importlib import import_module
    from importlib.metadata import PackageNotFoundError, version

    reinstall = add_package(dist + spec)
    try:
        have = version(dist)
    except PackageNotFoundError:
        return Check(dist, FAIL, f"{dist} is not installed", reinstall)
    needs = f" (needs {spec})" if spec else ""
    if spec and not satisfies(have, spec):
        return Check(dist, FAIL, f"{dist} {have} is installed{needs}", reinstall)
    try:
        mod = import_module(module)
        if dist == "tree-sitter-c-sharp":  # the grammar's ABI must suit the installed tree-sitter
            import tree_sitter

            tree_sitter.Language(mod.language())
    except Exception as exc:
        return Check(dist, FAIL, f"{dist} {have} does not load: {type(exc).__name__}: {exc}", reinstall)
    return Check(dist, PASS, f"{have}{needs}")


def environment_checks() -> list[Check]:
    specs = requirements()
    return [check_python(), *(check_dependency(d, m, specs[d]) for d, m in DEPENDENCIES.items())]


# Project -------------------------------------------------------------------------------------------


_AGAIN = "`cd` into the project again, or pass --project as an absolute path"


def find_targets(project: str | None, cwd: Path | None) -> tuple[list[Path], Check]:
    """The project root(s) to examine and the `project` check saying how they were found (`cwd`
    None: the working folder was removed, see `working_folder`)."""
    from indexer.project import ProjectNotFound, find_projects_below, find_root, is_project_root

    if cwd is None and not (project and Path(project).expanduser().is_absolute()):
        return [], Check("project", FAIL, working_folder_gone("no project is found from it"), _AGAIN)
    if project:
        base = Path(project).expanduser()
        if not base.is_dir():
            return [], Check("project", FAIL, not_a_folder(project), "pass a Unity project's folder")
        base = base.resolve()
        roots = [base] if is_project_root(base) else find_projects_below(base)
        if not roots:
            return [], Check("project", FAIL, *_no_project(base))
        if len(roots) > MAX_WORKSPACE_PROJECTS and roots[0] != base:  # `--project ~`: checked each, in seconds
            return [], Check("project", FAIL, too_many_projects(project, roots), "pass --project with one of them")
    else:
        try:
            roots = [find_root(cwd)]
        except ProjectNotFound as exc:
            below = ", ".join(str(p) for p in exc.below[:5])
            fix = f"pass --project with one of: {below}" if below else "run inside a Unity project or pass --project"
            return [], Check("project", FAIL, f"no Unity project at or above {exc.start}", fix)
    described = "; ".join(f"{r} ({_unity_version(r)})" for r in roots)
    return roots, Check("project", PASS, described if len(roots) == 1 else f"{len(roots)} projects: {described}")


def _no_project(base: Path) -> tuple[str, str]:
    """The detail and fix for a `--project` that neither is nor holds a project: one inside a
    project names it (the fix was the generic "the folder that holds Assets/")."""
    from indexer.project import ProjectNotFound, find_root

    try:
        root = find_root(base)
    except (ProjectNotFound, OSError):
        return (
            f"{base} is not a Unity project (it needs Assets/ and ProjectSettings/) and holds none",
            "pass --project with the folder that holds Assets/ and ProjectSettings/",
        )
    return (
        f"{base} is not a Unity project (it needs Assets/ and ProjectSettings/): it is inside the Unity project {root}",
        f"pass --project {root}",
    )


def _unity_version(root: Path) -> str:
    try:
        text = read_regular(root / "ProjectSettings" / "ProjectVersion.txt").decode(errors="replace")
    except OSError:
        return "Unity version unknown: no ProjectSettings/ProjectVersion.txt"
    m = re.search(r"m_EditorVersion:\s*(\S+)", text)
    return f"Unity {m.group(1)}" if m else "Unity version unknown"


def check_config(root: Path) -> tuple[Config | None, Check]:
    path = root / CONFIG_FILE
    try:
        config = load_project_config(root)
    except ConfigError as exc:
        return None, Check("config", FAIL, str(exc), f"correct or remove the setting in {path}")
    if path.is_file():
        return config, Check("config", PASS, f"{path} is valid")
    return config, Check("config", PASS, f"no {CONFIG_FILE}: the defaults apply")


def check_hooks(root: Path) -> Check:
    """Something refreshes the index after commits and checkouts: our hooks or pre-commit's."""
    import shutil
    import subprocess

    from indexer.changes.hooks import HOOKS, MARKER, RECORDED_PREFIX, GitMissing, HookError, hooks_dir

    try:
        folder = hooks_dir(root)
    except GitMissing:
        said = "git was not found on PATH: whether hooks refresh the index cannot be seen"
        return Check("git-hooks", WARN, said, "install git, or add its folder to PATH")
    except HookError:
        return Check("git-hooks", PASS, "not inside a git repository: git hooks do not apply")
    install = f"unity-index hook install --project {quoted(root)}"
    texts = {}
    for name in HOOKS:
        try:
            texts[name] = (folder / name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            texts[name] = ""
    ours = [n for n in HOOKS if MARKER in texts[n]]
    if ours:
        missing = [n for n in HOOKS if n not in ours]
        broken = sorted({py for n in ours if (py := _hook_program(texts[n])) and not Path(py).exists()})
        if broken:
            fallback = shutil.which("unity-index")
            if fallback and all(RECORDED_PREFIX in texts[n] for n in ours):  # hooks since 0.1 fall back
                why = f"the hooks in {folder} record {broken[0]}, which no longer exists: they run {fallback} (on PATH)"
                return Check("git-hooks", WARN, why, install)
            return Check("git-hooks", FAIL, f"the hooks in {folder} run {broken[0]}, which no longer exists", install)
        status, elsewhere = _hooks_elsewhere(root, [texts[n] for n in ours])
        if status:
            return Check("git-hooks", status, f"the hooks in {folder} {elsewhere}", install)
        if missing:
            return Check("git-hooks", WARN, f"unity-index hooks in {folder}, but not {', '.join(missing)}", install)
        return Check("git-hooks", PASS, f"unity-index hooks installed in {folder} ({', '.join(HOOKS)})")
    top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=root, capture_output=True, text=True)
    config = Path(top.stdout.strip()) / ".pre-commit-config.yaml"
    try:
        listed = "unity-index-refresh" in read_regular(config).decode(errors="replace")
    except OSError:
        listed = False
    if listed:
        framework = [n for n in HOOKS if "pre-commit" in texts[n] and "File generated by pre-commit" in texts[n]]
        if len(framework) == len(HOOKS):
            return Check("git-hooks", PASS, f"{config} runs unity-index-refresh; pre-commit hooks installed")
        types = " ".join(f"--hook-type {n}" for n in HOOKS)
        return Check(
            "git-hooks",
            WARN,
            f"{config} lists unity-index-refresh, but pre-commit is not installed for every hook type",
            f"pre-commit install {types}",
        )
    return Check(
        "git-hooks",
        WARN,
        "no git hook refreshes the index after commits, checkouts and merges",
        f"{install}, or add the unity-index-refresh hook to .pre-commit-config.yaml (or run `unity-index watch`)",
    )


def _hooks_elsewhere(root: Path, texts: list[str]) -> tuple[str, str]:
    """(status, what) when our hooks refresh another project than `root` (('', '') when they cover
    it): a fail when hooks of earlier builds, which named the project by its absolute path, came
    with a copied repository (`cp -r`, a restored backup); a warning when they refresh only other
    projects of this repository (this one has none of its own)."""
    from indexer.changes.hooks import HookError, recorded_projects, repository_root

    problems, others = [], []
    for named in sorted({p for t in texts for p in recorded_projects(t)}):
        target = Path(named)
        if not target.is_absolute():  # relative to the work tree git runs the hook in
            try:
                target = repository_root(root) / target
            except HookError:
                continue
            target = target.resolve()
        if root == target or root.is_relative_to(target):
            return "", ""  # (a repository holding several projects has hooks refreshing each)
        if not target.exists():
            problems.append(f"refresh {named}, which no longer exists (the repository was copied or moved)")
        elif not Path(named).is_absolute():
            others.append(named)
        else:
            problems.append(f"refresh {named}, not this project (copied with the repository?)")
    if problems:
        return FAIL, problems[0]
    if others:
        return WARN, f"refresh {', '.join(others)} of this repository, not this project"
    return "", ""


def _hook_program(text: str) -> str | None:
    """What a hook written by `unity-index hook install` runs: the unity-index it recorded, or the
    interpreter of a hook from before hooks recorded one (`python -m indexer.cli`)."""
    from indexer.changes.hooks import recorded_command

    recorded = recorded_command(text)
    if recorded:
        return recorded
    for line in text.splitlines():
        if "-m indexer.cli" in line:
            try:
                words = shlex.split(line)
            except ValueError:
                return None
            return words[words.index("-m") - 1] if "-m" in words else None
    return None


def check_heartbeat(root: Path, now: float | None = None) -> Check:
    """The editor package's heartbeat file: absent (fine), fresh, left behind, or malformed."""
    from indexer.changes.heartbeat import HeartbeatError, heartbeat_path, read_heartbeat, unrefreshed
    from indexer.changes.processes import pid_alive

    path = heartbeat_path(root)
    name = "editor-heartbeat"
    try:
        beat = read_heartbeat(root)
    except HeartbeatError as exc:
        if exc.code == "missing":
            return Check(name, PASS, "no Unity editor with the bridge package runs for this project (optional)")
        if exc.code == "unreadable":
            return Check(name, FAIL, exc.message, "check the file's permissions")
        if exc.code == "protocol_mismatch":
            return Check(name, FAIL, exc.message, "update the com.unityindex.bridge package or unity-index")
        return Check(name, FAIL, f"malformed: {exc.message}", "delete it if no Unity editor is open")
    if not pid_alive(beat.pid):
        return Check(
            name,
            WARN,
            f"{path} was left by an editor that no longer runs (pid {beat.pid})",
            f"open the project in Unity (it rewrites the file), or delete {path}",
        )
    age = beat.age(time.time() if now is None else now)
    unity = beat.unity_version or "Unity"
    why = unrefreshed(age, beat.state)
    if why:
        return Check(
            name,
            WARN,
            f"{path}, of {unity} (pid {beat.pid}, state {beat.state}), {why}:"
            " its bridge stopped or the editor is suspended",
            "look at the Unity editor and its console; restart it if it stays",
        )
    detail = f"{unity} (pid {beat.pid}), state {beat.state}, port {beat.port}, refreshed {max(age, 0):.0f} s ago"
    return Check(name, PASS, detail)


# Running -------------------------------------------------------------------------------------------

PluginCheck = Callable[[Target], Iterable[Check]]


def plugin_checks() -> list[tuple[str, PluginCheck | None, str]]:
    """(name, function, load error) of every check contributed through the entry point group."""
    from importlib.metadata import entry_points

    out: list[tuple[str, PluginCheck | None, str]] = []
    for ep in sorted(entry_points(group=CHECKS_GROUP), key=lambda e: e.name):
        try:
            out.append((ep.name, ep.load(), ""))
        except Exception as exc:
            out.append((ep.name, None, f"{type(exc).__name__}: {exc}"))
    return out


def _run_plugin(name: str, func: PluginCheck | None, error: str, target: Target) -> list[Check]:
    if func is None:
        return [Check(name, FAIL, f"the check {name} does not load: {error}", "reinstall unity-index")]
    try:
        return list(func(target))
    except Exception as exc:
        return [Check(name, FAIL, f"the check {name} failed: {type(exc).__name__}: {exc}", "report this as a bug")]


def project_checks(root: Path, plugins: list[tuple[str, PluginCheck | None, str]]) -> list[Check]:
    config, cfg = check_config(root)
    target = Target(root, config)
    checks = [cfg, *index_checks(target), check_hooks(root), check_heartbeat(root)]
    for name, func, error in plugins:
        checks += _run_plugin(name, func, error, target)
    return checks


def run(project: str | None, cwd: Path | None) -> Report:
    checks = environment_checks()
    roots, found = find_targets(project, cwd)
    checks.append(found)
    plugins = plugin_checks() if roots else []
    for root in roots:
        found_checks = project_checks(root, plugins)
        if len(roots) > 1:
            found_checks = [msgspec.structs.replace(c, detail=f"{root.name}: {c.detail}") for c in found_checks]
        checks += found_checks
    ok = all(c.status != FAIL for c in checks)
    where = str(roots[0]) if len(roots) == 1 else (str(Path(project).resolve()) if project and roots else None)
    from indexer.version import version

    return Report(DOCTOR_SCHEMA_VERSION, version(), where, ok, checks)


def render(report: Report) -> str:
    """The report for people: paths (the project's, its files', a plugin's) shown as file names
    are, so an escape sequence in a folder's name never reaches the terminal (`--json` keeps them)."""
    width = max(len(c.name) for c in report.checks)
    lines = [f"unity-index {report.version} doctor: {shown(report.project or 'no project')}"]
    for c in report.checks:
        lines.append(f"  {c.status:<4}  {c.name:<{width}}  {shown(c.detail)}")
        if c.fix and c.status != PASS:
            lines.append(f"  {'':<4}  {'':<{width}}  fix: {shown(c.fix)}")
    counts = {s: sum(1 for c in report.checks if c.status == s) for s in (PASS, WARN, FAIL)}
    lines.append(f"{counts[PASS]} passed, {plural(counts[WARN], 'warning')}, {counts[FAIL]} failed")
    return "\n".join(lines)
