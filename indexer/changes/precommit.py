"""`unity-index hook install --pre-commit`: our refresh hook in the repository's
`.pre-commit-config.yaml`, for teams that use the pre-commit framework.

The file is edited with ruamel.yaml's round-trip mode, so its comments, key order, quoting and
indentation stay as they were; only our `repo: local` entry is added (or brought up to date) and
the four hook types we need are added to `default_install_hook_types`. The hook runs the
`unity-index` on PATH (`language: system`): it needs no published repository URL or tag.
"""

from __future__ import annotations

import io
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark, YAMLError
from ruamel.yaml.tokens import CommentToken
from ruamel.yaml.util import load_yaml_guess_indent

from indexer.changes.hooks import (
    HOOK_TIME_LIMIT_SECONDS,
    HOOK_WAIT_SECONDS,
    HOOKS,
    HookError,
    not_an_option,
    repository_root,
)
from indexer.files import atomic_write, read_regular

CONFIG = ".pre-commit-config.yaml"
HOOK_ID = "unity-index-refresh"
# As the plain hooks run it (`hooks.script`): never holding git up for long, and never failing it
# (pre-commit refuses the commit when a hook exits non-zero).
ENTRY = f"unity-index index --quiet --wait {HOOK_WAIT_SECONDS} --time-limit {HOOK_TIME_LIMIT_SECONDS} --exit-zero"


def our_hook(project: str) -> CommentedMap:
    """The hook entry; `project` is the project's folder relative to the repository ("" = its root)."""
    hook = CommentedMap(
        id=HOOK_ID,
        name="refresh the unity-index index",
        entry=ENTRY,
        language="system",
        pass_filenames=False,
        always_run=True,
        require_serial=True,
        stages=_flow(list(HOOKS)),
    )
    if project:
        hook["args"] = _flow(["--project", project])
    return hook


def _flow(items: list[str]) -> CommentedSeq:
    seq = CommentedSeq(items)
    seq.fa.set_flow_style()
    return seq


def _load(path: Path) -> tuple[CommentedMap, YAML]:
    """The config and a YAML writing it as it was indented (`yaml.crlf`: its lines end in CRLF)."""
    try:
        text = read_regular(path).decode("utf-8") if path.exists() else ""
    except UnicodeDecodeError:
        raise HookError(f"{path}: not UTF-8 text; nothing was written: save it as UTF-8") from None
    yaml = YAML()  # round trip
    yaml.crlf = "\r\n" in text  # ruamel keeps a comment's \r but ends the lines it writes with \n
    text = text.replace("\r\n", "\n")
    yaml.preserve_quotes = True
    yaml.width = 4096  # never re-wrap the user's long lines
    if not text.strip():
        yaml.indent(mapping=2, sequence=4, offset=2)
        return CommentedMap(repos=CommentedSeq()), yaml
    try:
        _, indent, block_seq_indent = load_yaml_guess_indent(text)
        data = yaml.load(text)
    except YAMLError as exc:
        raise HookError(f"{path}: not valid YAML ({exc}); nothing was written") from None
    except RecursionError:
        raise HookError(f"{path}: not valid YAML (nested too deep); nothing was written") from None
    if not isinstance(data, CommentedMap) or not isinstance(data.get("repos", CommentedSeq()), CommentedSeq):
        raise HookError(f"{path}: expected a mapping with a `repos` list; nothing was written")
    if any(isinstance(r, dict) and not isinstance(r.get("hooks", []), list) for r in data.get("repos") or []):
        raise HookError(f"{path}: expected each repo's `hooks` to be a list; nothing was written")
    # ruamel's guess: `indent` is where a sequence item's content starts, `block_seq_indent` where its dash is
    offset = block_seq_indent or 0
    sequence = indent or 2
    yaml.indent(mapping=max(sequence - offset, 2), sequence=max(sequence, offset + 2), offset=offset)
    return data, yaml


def _last_slot(node: object) -> tuple[CommentedMap | CommentedSeq, object, int] | None:
    """Where a comment after the document's last line is kept: (the innermost block collection
    holding the last value, its last key or index, the slot of `ca.items` for it)."""
    slot = None
    while isinstance(node, CommentedMap | CommentedSeq) and len(node) and not node.fa.flow_style():
        key = next(reversed(node)) if isinstance(node, CommentedMap) else len(node) - 1
        slot = (node, key, 2 if isinstance(node, CommentedMap) else 0)
        node = node[key]
    return slot


def _pop_tail(data: CommentedMap) -> str:
    """Detach the comment lines after the document's last value (ruamel keeps them on that value),
    so they can stay at the end when entries are appended."""
    slot = _last_slot(data)
    token = slot[0].ca.items.get(slot[1], [None] * 4)[slot[2]] if slot else None
    if not isinstance(token, CommentToken) or "\n" not in token.value:
        return ""
    same_line, tail = token.value.split("\n", 1)
    token.value = same_line + "\n"
    return tail


def _put_tail(data: CommentedMap, tail: str) -> None:
    slot = _last_slot(data)
    if not tail or slot is None:
        return
    node, key, i = slot
    items = node.ca.items.setdefault(key, [None] * 4)
    old = items[i].value if isinstance(items[i], CommentToken) else "\n"
    items[i] = CommentToken(old + tail, CommentMark(0), None)


def _ours(repos: CommentedSeq) -> list[tuple[CommentedMap, CommentedMap]]:
    """(repo entry, hook) of each hook with our id, wherever it is (local or a repository URL)."""
    return [
        (repo, hook)
        for repo in repos
        for hook in ((repo.get("hooks") or []) if isinstance(repo, dict) else [])
        if isinstance(hook, dict) and hook.get("id") == HOOK_ID
    ]


def _project_of(hook: CommentedMap) -> str:
    """The project a hook of ours refreshes, as `our_hook` names it ("" = the repository's root)."""
    args = hook.get("args")
    if isinstance(args, list) and "--project" in args[:-1]:
        return str(args[args.index("--project") + 1])
    return ""


def _named(base: Path, top: Path) -> str:
    """The project's folder relative to the repository's root ("" = the root itself)."""
    return not_an_option(base.resolve().relative_to(top).as_posix()) if base.resolve() != top else ""


def _find(repos: CommentedSeq, project: str) -> tuple[CommentedMap, CommentedMap] | None:
    """(repo entry, hook) of our hook for `project`: a repository holding several Unity projects
    has one hook for each (pre-commit runs every hook of an id), as the plain hooks refresh each."""
    found = _ours(repos)
    return next((f for f in found if _project_of(f[1]) == project), None)


def add(base: Path) -> tuple[Path, list[str]]:
    """Add (or update) our hook in the repository's config for the project at `base`; returns the
    config's path and what changed (empty: nothing)."""
    top = repository_root(base)
    path = top / CONFIG
    data, yaml = _load(path)
    repos = data.setdefault("repos", CommentedSeq())
    project = _named(base, top)
    wanted = our_hook(project)
    done = []
    tail = _pop_tail(data)
    found = _find(repos, project)
    if found is None:
        local = next((r for r, _ in _ours(repos) if r.get("repo") == "local"), None)
        if local is None:
            repos.append(CommentedMap(repo="local", hooks=CommentedSeq([wanted])))
        else:  # beside the hook of another project of this repository
            local["hooks"].append(wanted)
        done.append(f"added the {HOOK_ID} hook (repo: local) to {path}")
    elif found[0].get("repo") == "local" and dict(found[1]) != dict(wanted):
        found[1].clear()
        found[1].update(wanted)
        done.append(f"updated the {HOOK_ID} hook in {path}")
    types = data.get("default_install_hook_types")
    if types is None:
        data["default_install_hook_types"] = _flow(list(HOOKS))
        done.append(f"default_install_hook_types: {', '.join(HOOKS)}")
    elif isinstance(types, list) and (missing := [t for t in HOOKS if t not in types]):
        types.extend(missing)
        done.append(f"default_install_hook_types: added {', '.join(missing)}")
    if done:
        _put_tail(data, tail)
        _write(path, data, yaml)
    return path, done


def remove(base: Path) -> tuple[Path, list[str]]:
    """Remove our `repo: local` hook (and that repo entry when it holds nothing else)."""
    top = repository_root(base)
    path = top / CONFIG
    if not path.exists():
        return path, []
    data, yaml = _load(path)
    project = _named(base, top)
    found = _find(data.get("repos") or CommentedSeq(), project)
    if found is None or found[0].get("repo") != "local":
        return path, []
    repo, hook = found
    tail = _pop_tail(data)
    repo["hooks"].remove(hook)
    if not repo["hooks"]:
        data["repos"].remove(repo)
    _put_tail(data, tail)
    _write(path, data, yaml)
    return path, [f"removed the {HOOK_ID} hook from {path}"]


def _write(path: Path, data: CommentedMap, yaml: YAML) -> None:
    buf = io.StringIO()
    yaml.dump(data, buf)
    text = buf.getvalue()
    atomic_write(path, text.replace("\n", "\r\n") if getattr(yaml, "crlf", False) else text)
