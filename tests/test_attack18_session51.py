"""Attack 18 of session 51: each test failed before the fix it names.

1. With HOME set to a file, `doctor` listed every MCP client's file under it as "not parsed", as
   if each were there and unreadable: none can exist under a file (a not-a-directory error). They
   are not looked for, and the check says the home folder is a file (or missing).
2. `serve` logged "no index of this version" when the index folder was deleted, as if another
   version had written it: the log says why there is no index (the folder gone, no index.json, an
   unreadable one, another version's, its files missing).
3. SIGHUP (the terminal `watch`, `serve` or `index` runs in closed) killed the process on the spot:
   no clean-up, no word, the scanner processes' folder left. It now stops them as SIGTERM does
   (`index`: "stopped by SIGHUP", exit 129; `watch`: exit 0; `serve` over HTTP: its clean stop,
   exit 0), except where the parent set it ignored (`nohup`), which is obeyed.
4. `--help` and `--version` (of any command) into a closed pipe or onto a full disk printed a
   traceback and exited 1: a reader gone is a quiet exit 0, a full disk one line and exit 2, as
   for every command's own output.
5. `watch` of a project whose folder was renamed (`mv Game Game-old`) went on watching the old
   folder under its new name, silent, until a file in it changed: no event inside tells of the
   rename. It looks every 2 s at which folder is at the project's path, and ends, saying the
   project folder is gone, within a few seconds.
6. `refs X.meta` said "no usages found" of an asset the project uses (nothing names a .meta, but
   its GUID is the asset's): it lists the usages of the file (or folder) whose GUID it holds.
   `describe X.meta` is unchanged.
7. `describe` of a scene or prefab left out, without a word, every object deeper than 60 levels
   (a rope of 70 links described as 61) and every object no root reaches (a cycle of parents, a
   broken file: described as if it held only its other objects). Both are counted and said why.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from indexer.cli.main import main
from indexer.config import load_config
from indexer.model import SCHEMA_VERSION
from indexer.query.workspace import ProjectIndex
from indexer.store import integrity
from mcp_adapter.server.freshness import _unsettled

from .conftest import REPO, write_project

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds processes through /proc")


def test_a_home_that_is_a_file_holds_no_client_file_and_is_said_to_be_one(tmp_path: Path, capsys, monkeypatch) -> None:
    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { }\n"})
    home = tmp_path / "home"
    home.write_text("not a folder\n")
    monkeypatch.setenv("HOME", str(home))
    main(["doctor", "--json", "--project", str(root)])
    check = next(c for c in json.loads(capsys.readouterr().out)["checks"] if c["name"] == "mcp-clients")
    assert (check["status"], check["detail"]) == (
        "warn",
        f"no coding agent is configured to start unity-index for this project; the home folder {home} is a"
        " file: no client's file is there",
    )
    home.unlink()
    main(["doctor", "--json", "--project", str(root)])
    check = next(c for c in json.loads(capsys.readouterr().out)["checks"] if c["name"] == "mcp-clients")
    assert check["detail"].endswith(f"; the home folder {home} is missing: no client's file is there")


def test_serve_logs_why_there_is_no_index(tmp_path: Path, capsys, caplog) -> None:
    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { }\n"})
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    project = ProjectIndex(root, load_config(root))
    paths = project.paths
    header = json.loads(paths.header.read_text())
    said = {}
    header["data"] = "gen-99"
    paths.header.write_text(json.dumps(header))
    said["gen gone"] = integrity.unsettled(paths)
    paths.header.write_text(json.dumps({**header, "schema_version": 1}))
    said["other version"] = integrity.unsettled(paths)
    paths.header.write_text("{")
    said["garbled"] = integrity.unsettled(paths)
    paths.header.unlink()
    said["no header"] = integrity.unsettled(paths)
    shutil.rmtree(paths.root)
    with caplog.at_level(logging.INFO, logger="unity_index.mcp"):
        assert _unsettled(project)
    assert said == {
        "gen gone": "the files of gen-99 that index.json names are missing",
        "other version": f"an index of another version (schema 1; this one reads {SCHEMA_VERSION})",
        "garbled": "index.json is unreadable",
        "no header": "the index folder holds no index.json (none was built, or it was deleted)",
    }
    assert caplog.messages == [
        f"index of {root}: the index folder is gone; walking the project before answering",
    ]


def _cli(root: Path, *args: str, ignore_hangup: bool = False) -> subprocess.Popen:
    """A unity-index command in its own process group (as a terminal's job is), stderr piped."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def hangup_ignored() -> None:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as `nohup` leaves it

    return subprocess.Popen(
        [sys.executable, "-m", "indexer.cli", *args, "--project", str(root)],
        cwd=REPO,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=hangup_ignored if ignore_hangup else None,
    )


def _said(proc: subprocess.Popen, words: str, timeout: float = 60) -> str:
    """stderr read up to the first line holding `words`."""
    seen = ""
    deadline = time.monotonic() + timeout
    while words not in seen and time.monotonic() < deadline:
        line = proc.stderr.readline().decode()  # type: ignore[union-attr]
        if not line:
            break
        seen += line
    assert words in seen, seen
    return seen


@linux
def test_sighup_stops_watch_cleanly_unless_ignored(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { }\n"})
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    watch = _cli(root, "watch")
    _said(watch, "watching")
    os.killpg(watch.pid, signal.SIGHUP)
    _, err = watch.communicate(timeout=30)
    assert (watch.returncode, err.decode()) == (0, "")
    kept = _cli(root, "watch", ignore_hangup=True)
    _said(kept, "watching")
    os.killpg(kept.pid, signal.SIGHUP)
    time.sleep(0.5)
    assert kept.poll() is None  # `nohup unity-index watch` outlives its terminal
    os.killpg(kept.pid, signal.SIGTERM)
    _, err = kept.communicate(timeout=30)
    assert (kept.returncode, err.decode()) == (0, "")


@linux
def test_sighup_of_a_full_build_stops_it_as_sigterm_does(tmp_path: Path) -> None:
    from tests.test_kills import Project, marked, snapshot, timed
    from tests.test_terminate import folders_of, scanning

    project = Project(tmp_path / "Game", tmp_path / "refs")
    timed(project.root, "index")
    for _attempt in range(5):  # on a fast machine the build may finish before the signal lands
        marker = uuid.uuid4().hex
        proc = scanning(project, marker)
        os.killpg(proc.pid, signal.SIGHUP)  # a closed terminal: its whole job
        _, err = proc.communicate(timeout=30)
        if proc.returncode != 0:
            break
    assert (proc.returncode, err.decode()) == (129, "error: stopped by SIGHUP\n")
    assert snapshot(project.index_dir) == project.reference[0]
    deadline = time.monotonic() + 10
    while marked(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marked(marker) == []
    assert folders_of(proc.pid) == []


@linux
def test_sighup_stops_serve_over_http_as_sigterm_does(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { }\n"})
    serve = _cli(root, "serve", "--transport", "http", "--port", "0")
    _said(serve, "session manager started")
    os.kill(serve.pid, signal.SIGHUP)
    _, err = serve.communicate(timeout=30)
    assert serve.returncode == 0
    assert err.decode().splitlines()[-1] == f"unity-index: stopped watching {root}"


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["query", "--help"]])
def test_help_and_version_into_a_closed_pipe_or_a_full_disk_say_so_in_one_line(args: list[str]) -> None:
    command = [sys.executable, "-m", "indexer.cli", *args]
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}
    with open("/dev/full", "w") as full:
        r = subprocess.run(command, stdout=full, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO, timeout=60)
    assert (r.returncode, r.stderr) == (2, "error: cannot write the output: No space left on device\n")
    reader = subprocess.Popen(["true"], stdin=subprocess.PIPE)
    reader.wait()  # gone before the command writes: a broken pipe
    r = subprocess.run(command, stdout=reader.stdin, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO, timeout=60)
    reader.stdin.close()  # type: ignore[union-attr]
    assert (r.returncode, r.stderr) == (0, "")


@linux
def test_watch_ends_when_its_project_folder_is_renamed_with_no_file_changed_after(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { }\n"})
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    watch = _cli(root, "watch")
    _said(watch, "watching")
    root.rename(tmp_path / "P-old")
    _, err = watch.communicate(timeout=20)  # (it used to watch the renamed folder, silent, for ever)
    assert (watch.returncode, err.decode()) == (
        2,
        f"error: {root}: the project folder is gone (moved or deleted); nothing was written there: run the"
        " command again in the project's new place\n",
    )


HERO_GUID = "0123456789abcdef0123456789abcdef"
HERO_PREFAB = f"""%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &1
GameObject:
  m_Component:
  - component: {{fileID: 2}}
  m_Name: Hero
--- !u!114 &2
MonoBehaviour:
  m_GameObject: {{fileID: 1}}
  m_Script: {{fileID: 11500000, guid: {HERO_GUID}, type: 3}}
"""


def test_refs_of_a_meta_lists_the_usages_of_the_guid_it_holds(tmp_path: Path, capsys) -> None:
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Hero.cs": "public class Hero : UnityEngine.MonoBehaviour { }\n",
            "Assets/Hero.cs.meta": f"fileFormatVersion: 2\nguid: {HERO_GUID}\n",
            "Assets/Hero.prefab": HERO_PREFAB,
            "Assets/Hero.prefab.meta": "fileFormatVersion: 2\nguid: 11111111111111111111111111111111\n",
        },
    )
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    capsys.readouterr()
    assert main(["refs", "Assets/Hero.cs.meta", "--project", str(root)]) == 0
    assert capsys.readouterr().out == (  # (it said "file Assets/Hero.cs.meta", "no usages found")
        "file Assets/Hero.cs  (the usages of the GUID Assets/Hero.cs.meta holds)\n"
        "in assets (1):\n  Assets/Hero.prefab:11 [m_Script]  Hero\n"
    )
    assert main(["describe", "Assets/Hero.cs.meta", "--project", str(root)]) == 0
    assert capsys.readouterr().out == (  # as before: the .meta itself, pointing at its file
        "Assets/Hero.cs.meta  (meta)\nthe .meta of Assets/Hero.cs (guid 0123456789abcdef0123456789abcdef):"
        " `unity-index describe Assets/Hero.cs`\n"
    )


def _chain_scene(depth: int, cycle: bool = False) -> str:
    """A scene of `depth` objects each the child of the one before (a rope's links); with `cycle`,
    two more objects each the other's parent (a broken file)."""
    docs = ["%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"]
    objects = [(2 * i + 1, 2 * i + 2, 2 * i if i else 0, 2 * i + 4 if i < depth - 1 else 0) for i in range(depth)]
    if cycle:
        objects += [(9001, 9002, 9004, 9004), (9003, 9004, 9002, 9002)]
    for go, tf, father, child in objects:
        kids = f"\n  - {{fileID: {child}}}" if child else " []"
        docs.append(f"--- !u!1 &{go}\nGameObject:\n  m_Component:\n  - component: {{fileID: {tf}}}\n  m_Name: L{go}\n")
        docs.append(
            f"--- !u!4 &{tf}\nTransform:\n  m_GameObject: {{fileID: {go}}}\n  m_Children:{kids}\n"
            f"  m_Father: {{fileID: {father}}}\n"
        )
    return "".join(docs)


def test_describe_counts_the_objects_its_tree_leaves_out(tmp_path: Path, capsys) -> None:
    root = write_project(
        tmp_path / "P", {"Assets/Rope.unity": _chain_scene(70), "Assets/Broken.unity": _chain_scene(1, cycle=True)}
    )
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    capsys.readouterr()
    assert main(["describe", "Assets/Rope.unity", "--project", str(root)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-3:] == [  # (links 62 to 70 were left out without a word)
        "  " * 60 + "L121  L663",
        "  " * 60 + "  components: Transform",
        "… not shown: 9 objects deeper than 60 levels; `--json` lists every object",
    ]
    assert main(["describe", "Assets/Broken.unity", "--project", str(root)]) == 0
    assert capsys.readouterr().out == (  # (it showed the first object alone, as if the file held no more)
        "Assets/Broken.unity  (scene)\nL1  L3\n  components: Transform\n"
        "… not shown: 2 objects in a cycle of parents (a broken file: no root holds them); `--json` lists"
        " every object\n"
    )
