"""Attack of session 44: the git hooks' installation, the configuration, files in odd states.

Found:
- `hook install --pre-commit` over a `.pre-commit-config.yaml` that is not UTF-8 (a comment saved
  in Latin-1) ended in `internal error: UnicodeDecodeError` (exit 3); over one whose `repo: local`
  entry had `hooks: 5`, in `internal error: TypeError`.
- A folder where a file was read (`.pre-commit-config.yaml`, `.mcp.json`, an editor heartbeat)
  was told as `Is a directory: 3`: the number of a file descriptor, not the path.
- `hook install` wrote into a `core.hooksPath` folder the repository commits (`.githooks`): a tracked
  hook rewritten, untracked ones beside it, the team's hook moved where no one else has it.
- Once `pre-commit install` had moved our hook to `pre-commit.legacy`, the hook ours chained to
  (`pre-commit.local`) ran no more, and `hook uninstall` left ours running.
- A project folder named `-Game` at the repository's root: the hooks ran `--project -Game`, a
  usage error on every commit, and the index was never refreshed.
- An `exclude` pattern written `./Assets/X/**`, `Assets\\X\\**` or with `..` matched nothing, and the
  folder meant to be left out was indexed without a word.
- A `unity-index.toml` that is a link to nothing or a folder was read as no config: its settings
  dropped without a word, a second index built in the default folder.

Each test failed before the fix it names (docs/cli.md, docs/configuration.md).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from indexer.cli.main import main
from indexer.files import read_regular

from .conftest import REPO, write_project
from .test_corruption import deadline

HANG_GUARD = 60  # seconds: a hang guard, not a timing


def _repo(tmp_path: Path) -> Path:
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/A.cs": "public class A {}\n",
            "ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2021.3.15f1\n",
        },
    )
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    return root


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with deadline(HANG_GUARD):
        code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "config",
    [
        b"repos: []\n# caf\xe9\n",  # Latin-1
        b"repos:\n- repo: local\n  hooks: 5\n",
        b"repos:\n- repo: local\n  hooks: {id: unity-index-refresh}\n",
    ],
    ids=["latin1", "hooks-an-int", "hooks-a-mapping"],
)
def test_a_pre_commit_config_not_as_expected_is_left_untouched_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], config: bytes
) -> None:
    root = _repo(tmp_path)
    (root / ".pre-commit-config.yaml").write_bytes(config)
    for action in ("install", "uninstall"):
        code, _, err = _run(capsys, "hook", action, "--pre-commit", "--project", str(root))
        assert code == 2, err
        assert "internal error" not in err and ".pre-commit-config.yaml" in err and "nothing was written" in err
        assert (root / ".pre-commit-config.yaml").read_bytes() == config


def test_a_folder_read_as_a_file_is_named_by_its_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "x.json"
    folder.mkdir()
    with pytest.raises(OSError) as caught:
        read_regular(folder)
    assert caught.value.filename == str(folder)
    root = _repo(tmp_path)
    (root / ".pre-commit-config.yaml").mkdir()
    code, _, err = _run(capsys, "hook", "install", "--pre-commit", "--project", str(root))
    assert code == 2 and str(root / ".pre-commit-config.yaml") in err, err


@pytest.mark.parametrize("kind", ["link-to-nothing", "folder"])
def test_a_config_that_is_no_file_stops_commands_instead_of_its_settings_being_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """A `unity-index.toml` that is a link to a file not there (a shared config on a drive not
    mounted) or a folder was read as no config: its `exclude` and `index_dir` silently dropped,
    a second index built in the default folder, and `doctor` said "no unity-index.toml"."""
    root = _repo(tmp_path)
    config = root / "unity-index.toml"
    if kind == "folder":
        config.mkdir()
    else:
        config.symlink_to(tmp_path / "shared" / "unity-index.toml")
    code, _, err = _run(capsys, "index", "--project", str(root))
    assert code == 2 and str(config) in err and "not a file" in err, err
    assert not (root / "Library" / "UnityIndex").exists()
    code, out, _ = _run(capsys, "doctor", "--project", str(root))
    assert "no unity-index.toml" not in out and "not a file" in out, out


def test_hooks_are_not_written_into_a_hooks_folder_the_repository_commits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`core.hooksPath = .githooks`, a team's hooks committed with the project: `install` rewrote
    the tracked `.githooks/pre-commit` (naming this machine's unity-index) and left four untracked
    files beside it, which the next `git commit -a` shared with the whole team, whose own hook,
    moved to the untracked `pre-commit.local`, then ran for no one. A folder git ignores (husky 9's
    `.husky/_`) is not the repository's content."""
    root = _repo(tmp_path)
    team = root / ".githooks"
    team.mkdir()
    (team / "pre-commit").write_text("#!/bin/sh\necho team checks\n")
    subprocess.run(["git", "config", "core.hooksPath", ".githooks"], cwd=root, check=True)
    code, _, err = _run(capsys, "hook", "install", "--project", str(root))
    assert code == 2 and ".githooks" in err and "unity-index index --quiet" in err, err
    assert sorted(p.name for p in team.iterdir()) == ["pre-commit"]
    assert (team / "pre-commit").read_text() == "#!/bin/sh\necho team checks\n"
    (team / ".gitignore").write_text("*\n")  # hooks of this clone alone
    code, _, err = _run(capsys, "hook", "install", "--project", str(root))
    assert code == 0 and (team / "pre-commit.local").exists(), err


# What `pre-commit install` writes over a hook it did not write (its "migration mode"): the hook
# there is moved to `pre-commit.legacy`, which its own hook runs first, by that name.
FRAMEWORK = """#!/bin/sh
# File generated by pre-commit: https://pre-commit.com
HERE="$(cd "$(dirname "$0")" && pwd)"
if [ -x "$HERE/pre-commit.legacy" ]; then "$HERE/pre-commit.legacy" "$@" || exit 1; fi
echo framework >> "$HERE/../../ran"
"""


def test_a_hook_chained_by_ours_still_runs_once_the_pre_commit_framework_moved_ours_aside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hook install` kept the team's hook as `pre-commit.local`; then `pre-commit install` moved
    ours to `pre-commit.legacy` and ran it by that name: ours looked for `pre-commit.legacy.local`,
    so the team's hook ran no more, and `hook uninstall` ("nothing to do") left ours running."""
    root = _repo(tmp_path)
    (root / ".gitignore").write_text("Library/\nran\n")
    hooks = root / ".git" / "hooks"
    team = hooks / "pre-commit"
    team.write_text('#!/bin/sh\necho team >> "$(git rev-parse --git-dir)/../ran"\n')
    team.chmod(0o755)
    assert _run(capsys, "hook", "install", "--project", str(root))[0] == 0
    team.rename(hooks / "pre-commit.legacy")  # as `pre-commit install` does
    team.write_text(FRAMEWORK)
    team.chmod(0o755)

    def commit(message: str) -> list[str]:
        (root / "ran").unlink(missing_ok=True)
        (root / "Assets" / f"{message}.cs").write_text(f"public class {message} {{}}\n")
        git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
        subprocess.run([*git, "add", "-A"], cwd=root, check=True)
        subprocess.run([*git, "commit", "-qm", message], cwd=root, check=True, timeout=HANG_GUARD)
        return (root / "ran").read_text().split()

    assert commit("First") == ["team", "framework"]
    code, out, err = _run(capsys, "hook", "uninstall", "--project", str(root))
    assert code == 0 and "pre-commit.legacy: restored the previous hook" in out + err, out + err
    assert not any("unity-index" in p.read_text(errors="replace") for p in hooks.iterdir() if p.is_file())
    assert commit("Second") == ["team", "framework"]


def test_a_project_folder_named_with_a_leading_dash_is_refreshed_by_the_hooks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A project at `<repository>/-Game`: the hooks ran `index --project -Game`, which the
    command line read as an option (`argument --project: expected one argument`) on every
    commit, and the index was never refreshed; the pre-commit framework's `args` likewise."""
    from indexer.changes import precommit

    top = tmp_path / "repo"
    root = write_project(top / "-Game", {"Assets/A.cs": "public class A {}\n"})
    subprocess.run(["git", "init", "-q"], cwd=top, check=True)
    assert _run(capsys, "hook", "install", "--project", str(root))[0] == 0
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "add", "-A"], cwd=top, check=True)
    done = subprocess.run(
        [*git, "commit", "-qm", "x"], cwd=top, env=env, capture_output=True, text=True, timeout=HANG_GUARD
    )
    assert "error" not in done.stderr and (root / "Library" / "UnityIndex" / "index.json").exists(), done.stderr
    precommit.add(root)
    config = (top / ".pre-commit-config.yaml").read_text()
    assert "args: [--project, ./-Game]" in config, config


@pytest.mark.parametrize(
    "pattern", ["./Assets/Scripts/**", "Assets\\\\Scripts\\\\**", "Assets/../Assets/Scripts", "../Game/Assets/Scripts"]
)
def test_an_exclude_pattern_that_can_match_no_project_path_is_an_invalid_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], pattern: str
) -> None:
    """Paths are matched as `Assets/...` with forward slashes: `./Assets/X/**` (as a shell writes
    it), `Assets\\\\X\\\\**` (as Windows does) or a `..` matched nothing, and the folder the user left
    out was indexed without a word."""
    root = _repo(tmp_path)
    (root / "unity-index.toml").write_text(f'exclude = ["{pattern}"]\n')
    code, _, err = _run(capsys, "index", "--project", str(root))
    assert code == 2 and "exclude" in err and "matches no" in err, err
