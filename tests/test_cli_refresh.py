"""Commands that answer from the index bring it up to date first when files changed since it
was (docs/cli.md, `query`): an edit or a `git stash`, which runs no hook, never leaves an answer
about files as they were."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config

from .conftest import copy_fixture, run_cli

SHIELD = "public class ShieldBubble : UnityEngine.MonoBehaviour { public float absorbPerHit; }\n"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    root = copy_fixture(tmp_path / "DungeonCrawler")
    update(root, Config(workers=1))
    return root


def _paths(out) -> list[str]:
    assert out.returncode == 0, out.stderr
    return [r["path"] for r in json.loads(out.stdout)["results"]]


def test_a_file_added_or_deleted_since_the_index_is_answered_as_it_is_now(game: Path) -> None:
    (game / "Assets/Scripts/ShieldBubble.cs").write_text(SHIELD)
    out = run_cli("query", "shield bubble absorb", "--json", "--project", str(game))
    assert _paths(out)[0] == "Assets/Scripts/ShieldBubble.cs"
    assert "files changed since the index of DungeonCrawler was updated (1 added): updated it" in out.stderr

    described = run_cli("describe", "Assets/Scripts/ShieldBubble.cs", "--json", "--project", str(game))
    assert described.returncode == 0 and described.stderr == ""  # current now: nothing to say

    (game / "Assets/Scripts/ShieldBubble.cs").unlink()
    stale = run_cli("query", "shield bubble absorb", "--json", "--no-refresh", "--project", str(game))
    assert "Assets/Scripts/ShieldBubble.cs" in _paths(stale)  # as the index was: it said so it would
    gone = run_cli("describe", "Assets/Scripts/ShieldBubble.cs", "--project", str(game))
    assert gone.returncode == 2
    assert "files changed since the index of DungeonCrawler was updated (1 deleted): updated it" in gone.stderr
    assert "Assets/Scripts/ShieldBubble.cs is not an indexed file" in gone.stderr


def test_a_renamed_file_is_said_to_have_moved(game: Path) -> None:
    """A rename (with its .meta) is a move: the notice said nothing of it (a trial: no notice at all
    for a pure rename, though `index --check` saw four paths differ)."""
    scripts = game / "Assets/Scripts/Core"
    for name in ("GameManager.cs", "GameManager.cs.meta"):
        (scripts / name).rename(scripts / name.replace("GameManager", "GameDirector"))
    out = run_cli("query", "game manager", "--json", "--project", str(game))
    assert "Assets/Scripts/Core/GameDirector.cs" in _paths(out)
    assert "files changed since the index of DungeonCrawler was updated (2 moved): updated it" in out.stderr


def test_an_index_another_process_is_writing_is_answered_from_as_it_is(
    game: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A watcher holding the writer lock past the wait: the answer does not hang, and says so."""
    from indexer.cli import common
    from indexer.cli.main import main
    from indexer.store.lock import writer_lock

    from .test_indexing import paths_of

    monkeypatch.setattr(common, "REFRESH_WAIT", 0.2)
    (game / "Assets/Scripts/ShieldBubble.cs").write_text(SHIELD)
    with writer_lock(paths_of(game)):
        started = time.monotonic()
        code = main(["query", "shield bubble absorb", "--json", "--project", str(game)])
        waited = time.monotonic() - started
    out = capsys.readouterr()
    assert code == 0
    assert "Assets/Scripts/ShieldBubble.cs" not in [r["path"] for r in json.loads(out.out)["results"]]
    assert "is updating" in out.err and "answering from the index as it is" in out.err
    assert waited < 5


LOADED = """
import sys
from indexer.cli.main import main
assert main(["query", "shield bubble absorb", "--json", "--project", {root!r}]) == 0
print("LOADED:" + ",".join(sorted(m for m in sys.modules if m.startswith("indexer.build"))))
"""


def test_in_a_git_repository_the_check_is_gits_and_a_current_index_loads_no_update_code(tmp_path: Path) -> None:
    """In a git work tree the check asks git, as an update does (0.16 s at 58,000 files against a
    0.4 s walk); after a rebuild, whose view of git names every record, the first command updates
    once (nothing else written) so that the next ones need not: then, current, they load no update
    code."""
    import subprocess
    import sys

    from .conftest import REPO
    from .test_gitview import git

    root = copy_fixture(tmp_path / "DungeonCrawler")
    (root / ".gitignore").write_text("Library/\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "first")
    update(root, Config(workers=1), full=True)

    def loaded() -> str:
        script = LOADED.format(root=str(root))
        out = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip().splitlines()[-1]

    from indexer.store.header import header_generation

    from .test_indexing import paths_of

    before = header_generation(paths_of(root))
    assert loaded() != "LOADED:"  # the rebuild's view: one update, which writes git's view
    assert header_generation(paths_of(root)) == before  # and nothing else: no new generation
    assert loaded() == "LOADED:"  # current, and git says so: no update code
    (root / "Assets/Scripts/ShieldBubble.cs").write_text(SHIELD)
    out = run_cli("query", "shield bubble absorb", "--json", "--project", str(root))
    assert _paths(out)[0] == "Assets/Scripts/ShieldBubble.cs"  # an untracked file, which git names
    assert loaded() == "LOADED:"


def test_a_changed_exclude_refreshes_a_git_tree_as_it_does_a_plain_folder(game: Path) -> None:
    """`index --check` called the index stale after a new `exclude`, yet in a git work tree a query
    answered from the excluded folder: git lists none of the files a pattern covers. The settings
    the index was built with are compared first (session 39)."""
    from .test_gitview import git

    (game / ".gitignore").write_text("Library/\n")
    git(game, "init", "-q")
    git(game, "add", "-A")
    git(game, "commit", "-qm", "start")
    update(game, Config(workers=1))
    (game / "unity-index.toml").write_text('exclude = ["Assets/Scripts/Player/**"]\n')
    out = run_cli("query", "player health", "--json", "--limit", "40", "--project", str(game))
    assert not [p for p in _paths(out) if p.startswith("Assets/Scripts/Player/")]
    assert "updated it" in out.stderr
    again = run_cli("index", "--check", "--project", str(game))
    assert again.returncode == 0, again.stdout


def test_the_answer_is_computed_while_the_check_runs(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`answer_current`'s promise: the answer and the check for changed files run at once (the
    command costs the longer of the two, not their sum). Each side here waits until the other has
    started: run one after the other, the first would wait out its timeout."""
    import threading

    from indexer.changes import diff
    from indexer.cli.common import answer_current
    from indexer.cli.console import Console
    from indexer.query.workspace import open_workspace, projects_at

    checking, answering = threading.Event(), threading.Event()
    seen: dict[str, bool] = {}

    def needs_update(root: Path, config: Config) -> bool:
        checking.set()
        seen["check saw the answer start"] = answering.wait(10)
        return False

    def answer(ws) -> list[str]:
        answering.set()
        seen["answer saw the check start"] = checking.wait(10)
        return [h.path for h in ws.search("shield bubble absorb", 3)]

    monkeypatch.setattr(diff, "needs_update", needs_update)
    ws = open_workspace(game, projects_at(game))
    answer_current(ws, Console(quiet=True), True, answer)
    assert seen == {"check saw the answer start": True, "answer saw the check start": True}


def test_an_answer_given_while_files_had_changed_is_asked_again_after_the_update(game: Path) -> None:
    """The first answer is of the index as it was: thrown away when the check finds files changed,
    kept (and asked once) when it finds none; one that failed on the old index (a file added
    since, not indexed yet) is asked again too, and a failure on a current index is raised."""
    from indexer.cli.common import answer_current
    from indexer.cli.console import Console
    from indexer.query.locate import LookupFailed, locate_file
    from indexer.query.workspace import open_workspace, projects_at

    ws = open_workspace(game, projects_at(game))
    asked: list[list[str]] = []

    def answer(ws) -> list[str]:
        asked.append([h.path for h in ws.search("shield bubble absorb", 3)])
        return asked[-1]

    console = Console(quiet=True)
    (game / "Assets/Scripts/ShieldBubble.cs").write_text(SHIELD)
    got = answer_current(ws, console, True, answer)
    assert len(asked) == 2 and "Assets/Scripts/ShieldBubble.cs" not in asked[0]
    assert got == asked[1] and got[0] == "Assets/Scripts/ShieldBubble.cs"
    assert answer_current(ws, console, True, answer) == got and len(asked) == 3  # current: asked once

    (game / "Assets/Scripts/ShieldWall.cs").write_text(SHIELD.replace("ShieldBubble", "ShieldWall"))
    found = answer_current(ws, console, True, lambda ws: locate_file(ws, "Assets/Scripts/ShieldWall.cs", game))
    assert found == "Assets/Scripts/ShieldWall.cs"
    with pytest.raises(LookupFailed, match=r"Assets/Scripts/NoSuch\.cs"):
        answer_current(ws, console, True, lambda ws: locate_file(ws, "Assets/Scripts/NoSuch.cs", game))


SLOW_CHECK = """
import sys, time
from indexer.changes import diff
from indexer.query.workspace import Workspace
def slowly(what):
    def wait(*args, **kwargs):
        print(what, flush=True)
        time.sleep(120)  # a `git status` on a very large tree; an answer still being computed
        return False
    return wait
diff.needs_update = slowly("checking")
Workspace.search = slowly("answering")
from indexer.cli.main import main
sys.exit(main(["query", "shield bubble absorb", "--json", "--project", {root!r}]))
"""


def test_ctrl_c_is_not_held_up_by_the_check_for_changed_files(game: Path) -> None:
    """`answer_current`'s check runs in a daemon thread: a Ctrl-C while it runs (and the answer is
    computed) ends the command at once with 130, as any Ctrl-C does, not once the check is done."""
    import signal
    import subprocess
    import sys

    from .conftest import REPO

    proc = subprocess.Popen(
        [sys.executable, "-c", SLOW_CHECK.format(root=str(game))],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert {proc.stdout.readline().strip(), proc.stdout.readline().strip()} == {"checking", "answering"}
    proc.send_signal(signal.SIGINT)
    started = time.monotonic()
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (130, "error: interrupted\n")
    assert time.monotonic() - started < 10
    assert out == ""


INDEXED = """
import sys
from indexer.cli.main import main
assert main(["index", "--json", "--project", {root!r}]) == 0
print("LOADED:" + ",".join(sorted(m for m in {modules!r} if m in sys.modules)))
"""
WRITING = ("indexer.build.apply", "indexer.build.workers", "indexer.build.adjacency", "indexer.store.writer")


def test_an_index_with_nothing_to_write_loads_no_scanning_or_writing_code(game: Path) -> None:
    """`index` behind a pre-commit hook finds nothing to do most of the time: its plan is made
    without the scanners' and the writer's code (about 30 ms of imports), loaded once there is
    something to write."""
    import subprocess
    import sys

    from .conftest import REPO

    def loaded() -> str:
        script = INDEXED.format(root=str(game), modules=WRITING)
        out = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip().splitlines()[-1]

    assert loaded() == "LOADED:"
    (game / "Assets/Scripts/ShieldBubble.cs").write_text(SHIELD)
    assert loaded() == "LOADED:" + ",".join(sorted(WRITING))
