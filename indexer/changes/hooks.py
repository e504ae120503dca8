"""Git hooks that keep the index fresh, for repositories that do not use the pre-commit framework.

`install` writes `pre-commit`, `post-checkout`, `post-merge` and `post-rewrite` hooks that refresh
the index (never failing the git command) and then run the hook that was there before, kept as
`<name>.local`, with the same arguments and stdin. Re-installing is a no-op; `uninstall` puts the
previous hooks back.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

HOOKS = ("pre-commit", "post-checkout", "post-merge", "post-rewrite")
MARKER = "# unity-index-refresh: managed by `unity-index hook install`"
CHAINED_SUFFIX = ".local"


class HookError(Exception):
    """Not a git repository, or the hooks folder cannot be changed."""


def hooks_dir(base: Path) -> Path:
    """The repository's hooks folder (honours core.hooksPath and worktrees)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--path-format=absolute", "--git-path", "hooks"],
            cwd=base,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        raise HookError(f"{base}: not inside a git repository ({exc})") from None
    return Path(out.stdout.strip())


def script(project: Path) -> str:
    """The hook: refresh (output to nowhere, stdin kept for the chained hook), then chain."""
    package_parent = Path(__file__).resolve().parent.parent
    refresh = " ".join(
        shlex.quote(a) for a in (sys.executable, "-m", "indexer.cli", "index", "--wait", "--project", str(project))
    )
    return (
        "#!/bin/sh\n"
        f"{MARKER}; `unity-index hook uninstall` restores the previous hook.\n"
        f"PYTHONPATH={shlex.quote(str(package_parent))}${{PYTHONPATH:+:$PYTHONPATH}} {refresh}"
        " </dev/null >/dev/null 2>&1 || true\n"
        f'if [ -x "$0{CHAINED_SUFFIX}" ]; then exec "$0{CHAINED_SUFFIX}" "$@"; fi\n'
        "exit 0\n"
    )


def _ours(path: Path) -> bool:
    try:
        return MARKER in path.read_text(errors="replace")
    except OSError:
        return False


def install(project: Path) -> list[str]:
    """Install the hooks for the project (or folder of projects) `project`; returns what was done."""
    project = project.resolve()
    folder = hooks_dir(project)
    folder.mkdir(parents=True, exist_ok=True)
    done = []
    for name in HOOKS:
        hook = folder / name
        chained = folder / (name + CHAINED_SUFFIX)
        if hook.exists() and not _ours(hook):
            if chained.exists():
                raise HookError(f"{hook} exists and so does {chained}: move one of them away first")
            os.replace(hook, chained)
            done.append(f"{name}: kept the existing hook as {chained.name}, run after the refresh")
        tmp = hook.with_name(f".{name}.{os.getpid()}.tmp")
        tmp.write_text(script(project))
        tmp.chmod(0o755)
        os.replace(tmp, hook)
        done.append(f"{name}: installed in {folder}")
    return done


def uninstall(project: Path) -> list[str]:
    """Remove the hooks and put back the ones they chained to."""
    folder = hooks_dir(project.resolve())
    done = []
    for name in HOOKS:
        hook = folder / name
        chained = folder / (name + CHAINED_SUFFIX)
        if hook.exists() and _ours(hook):
            hook.unlink()
            if chained.exists():
                os.replace(chained, hook)
                done.append(f"{name}: restored the previous hook")
            else:
                done.append(f"{name}: removed")
    return done
