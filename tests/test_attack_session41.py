"""Failures found by the hostile testing of session 41, each held by a test."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from .conftest import run_cli, write_project
from .test_indexing import HEALTH


def _status(root: Path) -> dict:
    r = run_cli("status", "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_a_file_renamed_to_a_name_that_is_not_text_is_skipped_not_moved(tmp_path: Path) -> None:
    """A script renamed to a name holding a line break (or undecodable bytes, a backslash) was
    taken for a move: the record kept its scan under the new name, indexed and searched, where a
    rebuild records it skipped ("name is not plain UTF-8 text ..."), and `index --check` called
    that index up to date. A file whose name is refused is no move's destination."""
    root = write_project(tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH})
    r = run_cli("index", "--project", str(root))
    assert r.returncode == 0, r.stderr
    scripts = root / "Assets" / "Scripts"
    os.rename(scripts / "Health.cs", scripts / "Hea\nlth.cs")
    r = run_cli("index", "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    stats = json.loads(r.stdout)
    assert (stats["moved"], stats["added"], stats["deleted"], stats["skipped"]) == (0, 1, 1, 1), stats
    incremental = _status(root)
    r = run_cli("index", "--full", "--project", str(root))
    assert r.returncode == 0, r.stderr
    assert _status(root)["skipped"] == incremental["skipped"]
    assert incremental["skipped"][0]["path"] == "Assets/Scripts/Hea\\x0alth.cs"
    r = run_cli("query", "Health", "--json", "--project", str(root))
    assert r.returncode == 0 and json.loads(r.stdout)["results"] == [], r.stdout


def test_mcp_install_writes_no_project_file_through_a_link_leading_out_of_the_project(tmp_path: Path) -> None:
    """`mcp install` (project scope) wrote through a `.mcp.json` that a cloned repository holds as
    a link to a file outside it (`~/.claude.json`, any JSON file), and created files in the folder
    a linked `.vscode/` leads to, where `agents install` refuses such links. Now it writes
    nothing there, exit 2, naming where the link leads; a link inside the project is followed."""
    from .test_mcp_install import cli

    home = tmp_path / "home"
    home.mkdir()
    root = write_project(tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH, "config/mcp.json": "{}\n"})
    outside = tmp_path / "user.json"
    outside.write_text('{"theme": "dark"}\n')
    (root / ".mcp.json").symlink_to(outside)
    r = cli(home, root, "--client", "claude-code")
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"a link to {outside}, outside the project: nothing was written" in r.stderr, r.stderr
    assert outside.read_text() == '{"theme": "dark"}\n' and (root / ".mcp.json").is_symlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / ".vscode").symlink_to(elsewhere)
    r = cli(home, root, "--client", "vscode")
    assert r.returncode == 2 and "outside the project: nothing was written" in r.stderr, r.stderr
    assert list(elsewhere.iterdir()) == []
    (root / ".mcp.json").unlink()
    (root / ".mcp.json").symlink_to("config/mcp.json")
    r = cli(home, root, "--client", "claude-code")
    assert r.returncode == 0, r.stderr
    assert "unity-index" in json.loads((root / "config/mcp.json").read_text())["mcpServers"]


def test_an_index_whose_writer_died_before_recording_its_settings_is_rebuilt_under_the_new_ones(tmp_path: Path) -> None:
    """A writer killed between its commit and `settings.json` (the 19th of 20 kills of a first
    `index` at a random moment) left an index of unknown settings, which counted as the settings
    of `unity-index.toml`, whatever they became. In a git work tree, where git lists none of the
    files a new `exclude` covers, `index` then kept them for good: `index --check` said "stale, ...
    run `unity-index index`", and `index` found nothing to do, every time. Unknown settings are now
    other settings (every index of this format records them): the update rebuilds."""
    from .test_gitview import git

    root = write_project(
        tmp_path / "Game",
        {"Assets/Scripts/Health.cs": HEALTH, "Assets/Other/Keep.cs": "class Keep {}", ".gitignore": "Library/\n"},
    )
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    assert run_cli("index", "--project", str(root)).returncode == 0
    time.sleep(2.1)  # past the racy tick: the next update settles the records and git's view narrows
    assert run_cli("index", "--project", str(root)).returncode == 0
    (root / "Library/UnityIndex/settings.json").unlink()  # as the killed writer left it
    (root / "unity-index.toml").write_text('exclude = ["Assets/Scripts/**"]\n')
    r = run_cli("index", "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["files"] == 1, r.stdout
    r = run_cli("index", "--check", "--project", str(root))
    assert r.returncode == 0, r.stdout


def test_a_killed_writer_s_progress_file_is_removed_by_the_next_writer(tmp_path: Path) -> None:
    """A writer killed after it wrote `progress.json` (the 19th of 20 kills of a first `index`
    at a random moment) left it behind for good: the next updates, quick, neither wrote nor
    removed it. Read as a build while its pid lives, once that pid names another process (pids
    are recycled: at 99,999 on macOS, at once on Windows) `index_status` showed a build running
    for ever and the tools told the agent the index "is being built ... call again once it is
    done". The next writer, holding the lock no build of it holds any more, removes it."""
    import subprocess
    import sys

    from indexer.config import Config
    from indexer.store.progress import read_progress
    from indexer.store.schema import IndexPaths

    root = write_project(tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH})
    assert run_cli("index", "--project", str(root)).returncode == 0
    ipaths = IndexPaths(Config().index_path(root))
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])  # the recycled pid
    try:
        left = {"pid": other.pid, "rebuild": True, "started_at": 0.0, "phase": "scanning", "done": 3, "total": 9}
        (ipaths.root / "progress.json").write_text(json.dumps(left))
        assert read_progress(ipaths) is not None
        r = run_cli("index", "--project", str(root))
        assert r.returncode == 0, r.stderr
        assert read_progress(ipaths) is None and not (ipaths.root / "progress.json").exists()
    finally:
        other.kill()
        other.wait()
