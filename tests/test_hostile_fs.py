"""File system hostility the walk, the change finding and the scanners meet (session 24's audit):
entries that can be listed but not looked at, paths through a link to a folder, files that grow
after the walk, names holding control characters beyond ASCII. Each is recorded with the reason
or left out as the walk leaves it out; nothing outside the project is recorded or read."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.query.workspace import open_workspace, projects_at

from .conftest import REPO, run_cli, write_project
from .test_environment_errors import _without_write_permission


def _records(root: Path) -> dict[str, tuple[str, str]]:
    """Each recorded path -> (status, note)."""
    ws = open_workspace(root, projects_at(root))
    records = ws.projects[0].records
    return {p: (r.status, r.note) for p in records.stats() if (r := records.record(p)) is not None}


def _deep_chain(top: Path, depth: int, file: str, text: str) -> str:
    """Folders nested `depth` deep below `top` (each name 200 characters), made through folder
    descriptors so that the whole path may exceed what the system takes; `file` in the deepest.
    Returns the chain's path relative to `top`."""
    fd = os.open(top, os.O_RDONLY)
    names = []
    try:
        for i in range(depth):
            name = f"d{i:02d}" + "y" * 197
            os.mkdir(name, dir_fd=fd)
            inner = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
            names.append(name)
        out = os.open(file, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(out, text.encode())
        os.close(out)
    finally:
        os.close(fd)
    return "/".join(names)


def test_a_folder_whose_path_is_over_the_system_limit_is_recorded_as_skipped(tmp_path: Path) -> None:
    """A folder nested past PATH_MAX (4096 bytes on Linux) cannot be listed nor even looked at by
    its path: the walk used to drop it and all it holds without a word (no record, nothing
    skipped, `--check` current). Now the first folder that cannot be listed is recorded in place
    of its files, with the reason, and updates leave it as it is."""
    root = write_project(tmp_path / "P", {"Assets/Open.cs": "public class OpenThing {}\n"})
    chain = _deep_chain(root / "Assets", 25, "Deep.cs", "public class DeepThing {}\n")
    update(root, Config())
    skipped = {p: note for p, (status, note) in _records(root).items() if status == "skipped"}
    assert len(skipped) == 1, skipped
    ((path, note),) = skipped.items()
    assert f"Assets/{chain}".startswith(path + "/")
    assert note.startswith("folder cannot be read: File name too long")
    assert len(str(root / path)) > 4096 - 256  # the first folder past what the system takes
    again = update(root, Config())
    assert (again.added, again.changed, again.deleted) == (0, 0, 0)


def test_files_of_a_folder_without_search_permission_are_recorded_as_unreadable(tmp_path: Path) -> None:
    """A folder that can be listed but not searched (`chmod a-x`): its names are known, its files
    cannot be looked at. They used to be dropped without a word; now each is recorded as skipped,
    "unreadable: Permission denied", and indexed once the folder can be searched again."""
    prefix = _without_write_permission()
    if prefix is None:
        pytest.skip("cannot drop root's power to search any folder here")
    root = write_project(
        tmp_path / "P",
        {"Assets/Open.cs": "public class OpenThing {}\n", "Assets/NoSearch/A.cs": "public class SearchedLater {}\n"},
    )
    folder = root / "Assets" / "NoSearch"
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}

    def cli(*args: str) -> str:
        run = [*prefix, sys.executable, "-m", "indexer.cli", *args, "--project", str(root)]
        r = subprocess.run(run, capture_output=True, text=True, env=env, timeout=300)
        assert r.returncode == 0, (args, r.stderr)
        return r.stdout

    folder.chmod(0o644)
    try:
        cli("index")
        status = json.loads(cli("status", "--json"))
        assert status["skipped"] == [{"path": "Assets/NoSearch/A.cs", "reason": "unreadable: Permission denied"}]
        assert status["stale_files"] == 0
    finally:
        folder.chmod(0o755)
    cli("index")
    assert "Assets/NoSearch/A.cs" in [h["path"] for h in json.loads(cli("query", "SearchedLater", "--json"))["results"]]


def test_a_path_given_through_a_link_to_a_folder_is_not_recorded(tmp_path: Path) -> None:
    """The paths an update is given (watch, the MCP server, the editor's journal: Unity imports the
    files of a linked folder and names them) may pass through a link to a folder, inside or
    outside the project. The walk lists the link alone, never what lies behind it; given paths
    used to record the files behind it (one outside the project included, with its stat), which a
    rebuild then dropped. Now such a path is no project file: nothing is recorded for it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "Secret.cs").write_text("public class LeakedSecret {}\n")
    root = write_project(tmp_path / "P", {"Assets/Open.cs": "public class OpenThing {}\n"})
    (root / "Assets" / "Out").symlink_to(outside)
    (root / "Assets" / "Again").symlink_to(root / "Assets")
    update(root, Config())
    before = _records(root)
    stats = update(root, Config(), paths=["Assets/Out/Secret.cs", "Assets/Again/Open.cs"])
    assert (stats.added, stats.changed, stats.deleted, stats.walked) == (0, 0, 0, False)
    assert _records(root) == before
    assert "Assets/Out" in before and not any(p.startswith(("Assets/Out/", "Assets/Again/")) for p in before)


def test_a_file_grown_past_the_cap_since_the_walk_is_skipped_not_read_whole(tmp_path: Path) -> None:
    """The size cap was checked against the walk's stat, and the file then read whole: a file
    that grew in between (a log written meanwhile, a small file replaced by a huge one) was read
    into memory however large, in the indexer's own process when the walk saw it small. Now no
    more than the cap and a byte is read, and such a file is skipped as too large."""
    from indexer.build.workers import process
    from indexer.changes.diff import Job

    root = write_project(tmp_path / "P", {"Assets/Grows.cs": "public class Grows {}\n" + "// x\n" * 5000})
    job = Job(str(root), "Assets/Grows.cs", "csharp", 22, 0, "", 1000)  # as the walk saw it: 22 bytes
    result = process(job)
    assert result.record.status == "skipped"
    assert result.record.note == "too large: at least 0.0 MB, over the 0.000954 MB cap (max_file_mb)"
    whole = process(Job(str(root), "Assets/Grows.cs", "csharp", 22, 0, "", 100_000))
    assert whole.record.status == "ok" and "Grows" in [s.name for s in whole.record.symbols]


def test_an_escaped_name_is_found_by_its_file_name_alone(tmp_path: Path) -> None:
    """README: a path may be "just a file name when one file has it". A file whose name the index
    stores escaped (a newline, a tab) was found by its whole path only: its bare name, raw or as
    shown, was read with the backslashes of its escaped form as folder separators, and named
    nothing."""
    root = write_project(tmp_path / "P", {"Assets/Open.cs": "public class OpenThing {}\n"})
    (root / "Assets" / "Deep").mkdir()
    (root / "Assets" / "Deep" / "new\nline.cs").write_text("public class NewLine {}\n")
    assert run_cli("index", "--project", str(root)).returncode == 0
    for name in ("new\nline.cs", "new\\x0aline.cs", "Deep/new\\x0aline.cs", "./new\\x0aline.cs"):
        described = run_cli("describe", name, "--project", str(root))
        assert described.returncode == 0, (name, described.stderr)
        assert described.stdout.startswith("Assets/Deep/new\\x0aline.cs  (csharp)\n"), name
    assert run_cli("describe", "ew\\x0aline.cs", "--project", str(root)).returncode == 2  # a name's end only


def test_names_holding_c1_controls_or_line_separators_are_escaped_and_skipped(tmp_path: Path) -> None:
    """docs/indexing.md: a name holding a control character is recorded as skipped and shown
    escaped. Only C0 controls were: a name holding U+009B (a terminal's CSI, as `\\x9b` in 8-bit
    form) or U+2028 (a line break to any reader splitting lines by Unicode) was indexed and
    printed raw by `status`, `index --check` and error messages. Now each is written as its UTF-8
    bytes (`\\xc2\\x9b`), reversibly, and the file is skipped like any such name."""
    from indexer.project import fs_name, printable

    csi, separator = "evil\u009b31mRed.cs", "two\u2028lines.cs"
    assert printable(csi) == "evil\\xc2\\x9b31mRed.cs" and fs_name(printable(csi)) == csi
    assert printable(separator) == "two\\xe2\\x80\\xa8lines.cs" and fs_name(printable(separator)) == separator
    root = write_project(tmp_path / "P", {"Assets/Open.cs": "public class OpenThing {}\n"})
    (root / "Assets" / csi).write_text("public class EvilName {}\n")
    (root / "Assets" / separator).write_text("public class TwoLines {}\n")
    checked = run_cli("index", "--check", "--project", str(root))
    assert checked.returncode == 1 and "\u009b" not in checked.stdout + checked.stderr
    assert run_cli("index", "--project", str(root)).returncode == 0
    status = run_cli("status", "--project", str(root)).stdout
    assert "Assets/evil\\xc2\\x9b31mRed.cs: name is not plain UTF-8 text" in status
    assert "Assets/two\\xe2\\x80\\xa8lines.cs: name is not plain UTF-8 text" in status
    assert not any(c in status for c in "\u009b\u2028")
    for name in (csi, "Assets/evil\\xc2\\x9b31mRed.cs"):
        described = run_cli("describe", name, "--project", str(root))
        assert described.returncode == 0, described.stderr
        assert described.stdout.startswith("Assets/evil\\xc2\\x9b31mRed.cs  (csharp)\n")


def test_an_index_dir_holding_another_program_s_files_is_refused_not_overwritten(tmp_path: Path) -> None:
    """A cloned project chooses its index folder (`index_dir = "~/.claude"` in its
    `unity-index.toml`, or `Library/UnityIndex` committed as a link): the first `index`, which the
    git hooks run on every checkout, replaced the `settings.json` found there (Claude Code's, VS
    Code's) with its own. A folder holding a file named as one of the index's, and nothing only an
    index folder holds (write.lock, gen-N/), is now refused with exit 2 and left as it was."""
    home = tmp_path / "home" / ".claude"
    home.mkdir(parents=True)
    (home / "settings.json").write_text('{"permissions": {}}\n')
    root = write_project(tmp_path / "P", {"Assets/Open.cs": "public class OpenThing {}\n"})
    (root / "unity-index.toml").write_text(f'index_dir = "{home.as_posix()}"\n')
    for args in (("index",), ("query", "open")):
        r = run_cli(*args, "--project", str(root))
        assert r.returncode == 2 and "holds settings.json, which unity-index did not write" in r.stderr, r.stderr
    (root / "unity-index.toml").unlink()
    (root / "Library").mkdir()
    (root / "Library" / "UnityIndex").symlink_to(home)
    r = run_cli("index", "--project", str(root))
    assert r.returncode == 2 and "holds settings.json, which unity-index did not write" in r.stderr, r.stderr
    assert sorted(p.name for p in home.iterdir()) == ["settings.json"]
    assert (home / "settings.json").read_text() == '{"permissions": {}}\n'
    (root / "Library" / "UnityIndex").unlink()
    assert run_cli("index", "--project", str(root)).returncode == 0  # an index folder of its own: fine
    assert run_cli("index", "--full", "--project", str(root)).returncode == 0
