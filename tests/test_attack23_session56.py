"""Attack round 23 (session 56): what broke (docs/indexing.md, "Bad input", lists what held).

1. A GUID held by the `.meta` of 1,000 files (a script's `.meta` copied beside a thousand others, a
   prefab copied a thousand times outside Unity) was said with every other file named on one line:
   `describe` of any of them printed a 22 KB note, `refs` of the prefab a 25 KB header, and MCP
   `find_references` answered 50 KB (about 12,000 tokens) where the usages were none. Now the note
   names the first five and counts the rest, as every other list of an answer is bounded.
2. A task repeating "where is" or "where" (a pasted log, a chat transcript: `query` and `context`
   read up to 256,000 characters of it) was read in time quadratic in its length: 63 KB of
   "health damage where is where is ..." took `query` 44 s of CPU (116 s on the loaded machine),
   as long again for `context`; 32 KB of "where " 6 s. The clauses asking where a value is stored
   or where an amount is were matched from each "where" to the end of the text. Now a clause is
   read for at most 200 characters from its "where": 0.8 s of CPU each.
3. A task holding a long run of hyphenated letters (`a-a-a-...`, a separator line of a pasted log
   made of words, a base64-ish blob with dashes) was read in quadratic time by the reader of typed
   folder paths (`UI/Options/*`): a path's segment could start after any `-`, and each start read
   the run to its end looking for a `/`. 32 KB took `query` 1.7 s, 256 KB (the most a task is read
   to) 38 s. Now a segment starts only where no name character precedes it (`-` is one).
4. Where the `unity-index` script is not beside the Python running it (`pip install --user`, a
   system Python), `mcp install` wrote the server as `python -m indexer.cli serve`, which the
   client starts in its working folder, the project: `-m` puts that folder first on the module
   path, so a cloned project holding an `indexer.py` (or `mcp.py`, `msgspec.py`, ...) at its root
   had its code run by the server, with the user's rights. Now the command is `python -P -m
   indexer.cli` (Python 3.11's "no unsafe path": the working folder is not searched), and
   `doctor`'s mcp-clients check warns of an entry written before, naming the command to run.

Each test failed before its fix (said in each)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from indexer.cli.main import main
from indexer.query.asking import asks_change, asks_value
from indexer.query.named_folders import typed_folders
from mcp_adapter.install import server_command

from .conftest import meta, write_project

GUID = "0123456789abcdef0123456789abcdef"


def test_a_guid_shared_by_a_thousand_files_is_said_with_five_named_and_the_rest_counted(tmp_path: Path, capsys) -> None:
    """Before: the note named all 999 others (`describe` note 14 KB here, the test's bound 1 KB)."""
    files = {"Assets/Hero.cs": "public class Hero : UnityEngine.MonoBehaviour { }\n", "Assets/Hero.cs.meta": meta(GUID)}
    for i in range(1000):
        files[f"Assets/Copies/Hero {i:03}.cs"] = f"public class Hero{i} : UnityEngine.MonoBehaviour {{ }}\n"
        files[f"Assets/Copies/Hero {i:03}.cs.meta"] = meta(GUID)
    for i in range(40):  # `.meta` files left behind by moves: their files are gone
        files[f"Assets/Gone/Old{i:02}.prefab.meta"] = meta(GUID)
    root = write_project(tmp_path / "Game", files)
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    capsys.readouterr()
    assert main(["describe", "Assets/Hero.cs", "--no-refresh", "--project", str(root)]) == 0
    note = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("note: "))
    assert note == (
        f"note: GUID {GUID} is also that of Assets/Copies/Hero 000.cs, Assets/Copies/Hero 001.cs,"
        " Assets/Copies/Hero 002.cs, Assets/Copies/Hero 003.cs, Assets/Copies/Hero 004.cs and 995 more files"
        " (copied with its .meta outside Unity?): Unity keeps it for one file and gives the others new GUIDs"
        " on import; and also held by Assets/Gone/Old00.prefab.meta, Assets/Gone/Old01.prefab.meta,"
        " Assets/Gone/Old02.prefab.meta, Assets/Gone/Old03.prefab.meta, Assets/Gone/Old04.prefab.meta and"
        " 35 more, whose file is not in the project (moved or deleted without it?): Unity deletes such a"
        " .meta on import; usages by it are listed for Assets/Hero.cs"
    )
    assert main(["refs", GUID, "--json", "--no-refresh", "--project", str(root)]) == 0
    target = json.loads(capsys.readouterr().out)["target"]
    assert target["path"] == "Assets/Hero.cs"
    assert len(target["note"]) < 1000
    assert "and 995 more files" in target["note"]


@pytest.mark.parametrize("unit", ["where is ", "where are the ", "where "])
def test_a_task_repeating_where_is_read_in_linear_time(unit: str) -> None:
    """Before: 64 KB took asks_value 2-19 s of CPU (quadratic: 4x the text, 16x the time)."""
    text = "health damage " + unit * (64_000 // len(unit))
    start = time.process_time()
    assert not asks_value(["health", "damage"], text)
    assert not asks_change(["health", "damage"], text)
    assert time.process_time() - start < 1.0


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("Where are the enemy pieces' starting squares stored?", True),
        ("where is the player's money stored in the save", True),
        ("where is the save (gold, stored potions) written to disk", False),
        ("the stored path is reset", False),
        ("The orc archers have too much health, where is that number?", True),
        ("where is the cost calculated", False),
        ("where is the helper to format numbers", False),
        ("where is " + "the very long name of a thing " * 10 + "stored?", False),  # over 200 characters
    ],
)
def test_where_a_value_is_stored_or_an_amount_is_read_as_before(text: str, asked: bool) -> None:
    assert asks_value([], text) is asked


def test_a_task_of_a_hyphenated_run_is_read_for_typed_folders_in_linear_time() -> None:
    """Before: 256 KB of `a-` took 38 s of CPU (32 KB 0.6 s)."""
    text = "a-" * 128_000 + "a:/x"
    start = time.process_time()
    typed_folders(text)
    assert time.process_time() - start < 1.0


def test_typed_folders_are_read_as_before() -> None:
    assert typed_folders("StyleCop fixes in UI/DialogBox/Options/* and Quest/*") == (
        (("ui", "dialogbox", "options"), ("quest",)),
        "StyleCop fixes in   and  ",
    )
    assert typed_folders("tidy my-Scripts/UI/ and Scripts/UI/ again")[0] == (("my-scripts", "ui"), ("scripts", "ui"))
    assert typed_folders("re-tidy x-a-b/c/ now")[0] == (("x-a-b", "c"),)
    assert typed_folders("fix Assets/Scripts/Player.cs") == ((), "fix Assets/Scripts/Player.cs")


def test_the_module_fallback_of_the_mcp_server_never_imports_the_project_s_code(tmp_path: Path, monkeypatch) -> None:
    """Before: the planted `indexer.py` ran (its marker written) and the server failed to start."""
    python = sys.executable
    root = write_project(tmp_path / "Game", {"Assets/A.cs": "class A { }\n"})
    marker = tmp_path / "ran"
    for name in ("indexer", "mcp", "msgspec"):
        (root / f"{name}.py").write_text(f"open({str(marker)!r}, 'w').write('{name}')\n")
    monkeypatch.setattr("sys.executable", str(tmp_path / "bin" / "python"))  # no `unity-index` beside it
    _, args = server_command(root)
    assert args == ["-P", "-m", "indexer.cli", "serve", "--project", str(root)]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).parents[1]), "HOME": str(tmp_path)}
    run = subprocess.run(
        [python, *args[:3], "--version"], cwd=root, env=env, capture_output=True, text=True, timeout=60
    )
    assert not marker.exists(), marker.read_text()
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("unity-index ")


def test_doctor_warns_of_a_client_entry_running_the_module_without_p(tmp_path: Path, capsys, monkeypatch) -> None:
    """Before: `pass`, "configured for this project: claude-code (...)"."""
    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { }\n"})
    (tmp_path / "home").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    entry = {"command": sys.executable, "args": ["-m", "indexer.cli", "serve"]}
    (root / ".mcp.json").write_text(json.dumps({"mcpServers": {"unity-index": entry}}))
    main(["doctor", "--json", "--project", str(root)])
    check = next(c for c in json.loads(capsys.readouterr().out)["checks"] if c["name"] == "mcp-clients")
    assert (check["status"], check["detail"], check["fix"]) == (
        "warn",
        "configured, but run as `python -m indexer.cli` without -P, which imports a module of the folder it"
        f" starts in first (a cloned project's indexer.py): claude-code ({root}/.mcp.json)",
        f"run `unity-index mcp install --client CLIENT --project {root}` again for each",
    )
    entry["args"] = ["-P", "-m", "indexer.cli", "serve"]
    (root / ".mcp.json").write_text(json.dumps({"mcpServers": {"unity-index": entry}}))
    main(["doctor", "--json", "--project", str(root)])
    check = next(c for c in json.loads(capsys.readouterr().out)["checks"] if c["name"] == "mcp-clients")
    assert (check["status"], check["detail"]) == (
        "pass",
        f"configured for this project: claude-code ({root}/.mcp.json)",
    )
