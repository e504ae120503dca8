"""Shared test helpers: small projects written on the fly, and an indexed copy of the fixture."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "fixtures" / "DungeonCrawler"


def write_project(root: Path, files: dict[str, str | bytes]) -> Path:
    """A minimal Unity project at `root` holding `files` (relative path -> content)."""
    (root / "Assets").mkdir(parents=True, exist_ok=True)
    (root / "ProjectSettings").mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content, encoding="utf-8")
    return root


def meta(guid: str, importer: str = "MonoImporter") -> str:
    return f"fileFormatVersion: 2\nguid: {guid}\n{importer}:\n  externalObjects: {{}}\n  userData: \n"


def mono_script(name: str, body: str) -> str:
    """A MonoBehaviour class `name` with `body` as its members, as a script file's text."""
    return f"using UnityEngine;\npublic class {name} : MonoBehaviour\n{{\n{body}\n}}\n"


def filler_scripts(folder: str, name: str, body, guid_tail: str, count: int = 8) -> dict[str, str]:
    """`count` scripts `<name>0.cs`... in `folder` with their `.meta` (GUIDs `<i:02x>` + `guid_tail`
    15 times), each holding `body(i)`: words of a task spread over files that are not its answer,
    so a ranking test's answer must win on more than those words."""
    files = {}
    for i in range(count):
        files[f"{folder}/{name}{i}.cs"] = mono_script(f"{name}{i}", body(i))
        files[f"{folder}/{name}{i}.cs.meta"] = meta(f"{i:02x}" + guid_tail * 15)
    return files


def data_asset(script_guid: str, name: str, fields: str) -> str:
    """A ScriptableObject asset of the script `script_guid` named `name`, with `fields` (YAML
    lines at two spaces) after Unity's own."""
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n"
        "  m_ObjectHideFlags: 0\n  m_GameObject: {fileID: 0}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {script_guid}, type: 3}}\n  m_Name: {name}\n"
        f"  m_EditorClassIdentifier:\n{fields}"
    )


def script_prefab(name: str, script_guid: str, fields: str = "") -> str:
    """A prefab of one object named `name` carrying the script `script_guid`, with `fields` (YAML
    lines at two spaces) after the component's own."""
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        "--- !u!1 &100\nGameObject:\n  m_Component:\n  - component: {fileID: 101}\n  - component: {fileID: 102}\n"
        f"  m_Name: {name}\n  m_IsActive: 1\n"
        "--- !u!4 &101\nTransform:\n  m_GameObject: {fileID: 100}\n  m_Children: []\n  m_Father: {fileID: 0}\n"
        "--- !u!114 &102\nMonoBehaviour:\n  m_GameObject: {fileID: 100}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {script_guid}, type: 3}}\n  m_Name: \n{fields}"
    )


CLI_ENV = {"PYTHONPATH": str(REPO), "NO_COLOR": "1"}  # on top of os.environ, for the CLI in a subprocess


def start_cli(*args: str, **popen: object) -> subprocess.Popen:
    """The console entry point started in a subprocess (pipes for its output unless `popen` says)."""
    options = {"cwd": REPO, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True}
    return subprocess.Popen(
        [sys.executable, "-m", "indexer.cli", *args], **{**options, "env": {**os.environ, **CLI_ENV}, **popen}
    )


def pytest_configure(config: pytest.Config) -> None:
    """A run in the background (`pytest &` from a script) starts with Ctrl-C ignored, which every
    command the tests start would inherit: the tests that send it Ctrl-C or a time limit expect
    it handled, as from a terminal."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """The real console entry point in a subprocess, as a user runs it."""
    full_env = {**os.environ, "NO_COLOR": "1", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "indexer.cli", *args],
        cwd=cwd or REPO,
        capture_output=True,
        text=True,
        env={**full_env, "PYTHONPATH": str(REPO)},
        timeout=300,
    )


def copy_fixture(dest: Path) -> Path:
    """A pristine copy of the fixture project at `dest`: no index or editor state a run left in
    the checkout, and no test writes into the repository."""
    shutil.copytree(FIXTURE, dest, ignore=shutil.ignore_patterns("Library", "Temp", "Logs"))
    return dest


def indexed_copy(tmp_path: Path) -> Path:
    """A copy of the fixture with an index of its own, for a test that damages it."""
    from indexer.build.update import update
    from indexer.config import Config

    root = copy_fixture(tmp_path / "DungeonCrawler")
    update(root, Config(workers=1))
    return root


def garble_records(root: Path) -> None:
    """A damaged record store: SQLite's header kept, one byte in 61 after it flipped."""
    db = next((root / "Library/UnityIndex").glob("gen-*/records.db"))
    data = bytearray(db.read_bytes())
    for i in range(32, len(data), 61):
        data[i] ^= 0x5A
    db.write_bytes(bytes(data))


@pytest.fixture(scope="session")
def fixture_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_fixture(tmp_path_factory.mktemp("fixture") / "DungeonCrawler")


@pytest.fixture(scope="session")
def indexed_fixture(fixture_copy: Path) -> Path:
    from indexer.build.update import update
    from indexer.config import Config

    update(fixture_copy, Config(workers=1))
    return fixture_copy


@pytest.fixture(scope="module")
def ws(indexed_fixture: Path):
    """A workspace over the indexed fixture (a module's tests share its readers)."""
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    return open_workspace(indexed_fixture, [(indexed_fixture, Config())])


# C# whose scan takes seconds (about 2.7 here, 200 MB): tree-sitter's query cursor costs the square
# of an ERROR node's width, and these 24 error regions are each just under csharp_query.MAX_ERROR_WIDTH,
# so the file is scanned, not refused. Tests of the scanners' time budget (1 s) use it as a scan
# that does not end in time.
SLOW_CSHARP = (b"class A { " + b"{" * 19_000 + b" }\n") * 24


def ranked_paths(root: Path, text: str, n: int = 10) -> list[str]:
    """The project indexed (or brought up to date), then the paths of the `n` best files for `text`:
    what the ranking tests assert."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    update(root, Config(workers=1))
    return [h.path for h in open_workspace(root, [(root, Config())]).search(text, n, named=False)]


class FakePairs:
    """What the registry rules read of a ranking (`pairing._Pairs`): the best files, scored 10, 9,
    ... in the order given, their carriers from the real graph, a prior of 1, and what they raise."""

    def __init__(self, project, best: list[str]) -> None:
        from indexer.model import Ranked

        self.project, self.prefix, self.raised = project, "", {}
        self._best = [Ranked(p, 10.0 - i, []) for i, p in enumerate(best)]

    def best(self, keep, n: int) -> list:
        return [r for r in self._best if keep(r.path)][:n]

    def carriers(self, script: str) -> list[str]:
        return [p for p, edge in self.project.graph.used_by(script) if edge == "carries_script"]

    def prior(self, path: str) -> float:
        return 1.0

    def raise_to(self, path: str, score: float, why: tuple) -> None:
        self.raised[path] = (score, why)
