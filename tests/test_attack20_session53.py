"""Attack 20 of session 53: each test failed before the fix it names (docs/indexing.md, "Bad input").

1. A file copied with its .meta in Windows Explorer (`PlayerHealth - Copy.cs`), as in macOS
   Finder (`Player copy.prefab`) or by Unity's own naming (`Player 1.prefab`), sorts before its
   original by path (a space before the dot), and the GUID both .meta files hold led to the copy:
   `refs PlayerHealth` listed no usage in assets at all, and every reason named the copy. Of files
   sharing a GUID, the one of the shortest name leads now (a copy's name adds to its original's).
2. `--project` naming a file of a project (a scene, `ProjectVersion.txt`, pasted in place of its
   folder) said "a file, not a folder" and no more; it names the project, as for a folder inside one.
3. A 5 MB script of 36,000 classes (generated code) was skipped as "scanner error: SystemError:
   <function parsed.<locals>.<lambda> ...> returned a result with an exception set": tree-sitter
   ran out of the scanner process's memory inside its read callback, and the MemoryError came
   wrapped. It is out of memory now, so the file is scanned again alone, with all of the memory.
4. In a script over 4 MB, the usages past its first 4 MB had no line text (`Generated.cs:35868
   [field]` and nothing), and the members used there no usage at all: the lines were read to 4 MB.
5. A usage on a line over 200 characters (minified code: one line of 5 MB) showed the line's first
   200 characters, the same for every usage, none of them naming what is used: the line is cut
   around the name now.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indexer.build.workers import OUT_OF_MEMORY, process_bounded
from indexer.changes.diff import Job
from indexer.cli.main import main
from indexer.scanners import scan

from .conftest import meta, run_cli, write_project

SCRIPT_GUID, PREFAB_GUID = "a1" * 16, "b2" * 16
PLAYER = "using UnityEngine;\npublic class PlayerHealth : MonoBehaviour { public int hp; }\n"
PREFAB = f"""%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &100
GameObject:
  m_Name: Player
  m_Component:
  - component: {{fileID: 200}}
--- !u!114 &200
MonoBehaviour:
  m_GameObject: {{fileID: 100}}
  m_Script: {{fileID: 11500000, guid: {SCRIPT_GUID}, type: 3}}
  hp: 5
"""


@pytest.mark.parametrize("copy", ["PlayerHealth - Copy", "PlayerHealth copy", "PlayerHealth 1", "PlayerHealth (1)"])
def test_a_copy_made_with_its_meta_outside_unity_leaves_the_guid_with_its_original(
    tmp_path: Path, capsys, copy: str
) -> None:
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Scripts/PlayerHealth.cs": PLAYER,
            "Assets/Scripts/PlayerHealth.cs.meta": meta(SCRIPT_GUID),
            f"Assets/Scripts/{copy}.cs": PLAYER,  # the same class: Unity would not compile it
            f"Assets/Scripts/{copy}.cs.meta": meta(SCRIPT_GUID),
            "Assets/Prefabs/Player.prefab": PREFAB,
            "Assets/Prefabs/Player.prefab.meta": meta(PREFAB_GUID, "PrefabImporter"),
            f"Assets/Prefabs/{copy.replace('PlayerHealth', 'Player')}.prefab": PREFAB,
            f"Assets/Prefabs/{copy.replace('PlayerHealth', 'Player')}.prefab.meta": meta(PREFAB_GUID, "PrefabImporter"),
        },
    )
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    capsys.readouterr()
    assert main(["refs", "PlayerHealth", "--json", "--project", str(root)]) == 0
    users = {u["path"] for u in json.loads(capsys.readouterr().out)["usages"] if u["where"] == "asset"}
    copied = f"Assets/Prefabs/{copy.replace('PlayerHealth', 'Player')}.prefab"
    assert users == {"Assets/Prefabs/Player.prefab", copied}  # (none: the script's GUID led to the copy)
    for guid, original in (
        (SCRIPT_GUID, "Assets/Scripts/PlayerHealth.cs"),
        (PREFAB_GUID, "Assets/Prefabs/Player.prefab"),
    ):
        assert main(["refs", guid, "--json", "--project", str(root)]) == 0
        assert json.loads(capsys.readouterr().out)["target"]["path"] == original


def test_project_given_as_a_file_of_a_project_names_the_project(tmp_path: Path) -> None:
    root = write_project(tmp_path / "My Game", {"Assets/Scenes/Main.unity": "%YAML 1.1\n"})
    for rel in ("Assets/Scenes/Main.unity", "ProjectSettings/ProjectVersion.txt"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).touch()
        r = run_cli("query", "x", "--project", str(root / rel))
        assert (r.returncode, r.stderr) == (
            2,
            f"error: --project {root / rel}: a file, not a folder: it is in the Unity project {root};"
            f" give --project '{root}'\n",
        )
    r = run_cli("doctor", "--project", str(root / "ProjectSettings/ProjectVersion.txt"))
    assert f"a file, not a folder: it is in the Unity project {root}; give --project '{root}'" in r.stdout


def test_running_out_of_memory_inside_an_extension_is_out_of_memory(monkeypatch) -> None:
    """What CPython raises when an extension's call back into Python leaves a MemoryError set
    (seen from tree-sitter's parse under a scanner's limit: `__cause__` and `__context__` the
    MemoryError), here raised by a stand-in for the C# scanner's parse."""
    from indexer.scanners import csharp

    def parse_out_of_memory(*_: object) -> None:
        try:
            raise MemoryError
        except MemoryError as exc:
            raise SystemError("<function parsed.<locals>.<lambda>> returned a result with an exception set") from exc

    monkeypatch.setattr(csharp, "parsed", parse_out_of_memory)
    with pytest.raises(MemoryError):
        scan("Assets/Gen.cs", "csharp", b"class A {}\n")  # (it was a record: "scanner error: SystemError: ...")
    job = Job("/nowhere", "Assets/Gen.cs", "csharp", 11, 0, "", 1 << 20)
    monkeypatch.setattr("indexer.build.workers.read_inside", lambda *_: b"class A {}\n")
    result = process_bounded(job)
    assert result.out_of_memory  # the pool scans it again alone, with all of the scanners' memory
    assert result.record is not None and result.record.note == OUT_OF_MEMORY
    monkeypatch.undo()
    other = scan("Assets/Gen.cs", "csharp", b"class A { void M() { } }\n")
    assert other.status == "ok"


def test_usages_past_the_first_4_mb_of_a_script_show_their_line_and_members_are_found(tmp_path: Path, capsys) -> None:
    blob = "x" * 4_200_000
    script = (
        "public class Gun { public void Fire() { } }\n"
        f'public static class Blob {{ public const string Data = "{blob}"; }}\n'
        "public class Soldier { public Gun gun; void Update() { gun.Fire(); } }\n"
    )
    root = write_project(tmp_path / "Game", {"Assets/Scripts/Gen.cs": script})
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    capsys.readouterr()
    assert main(["refs", "Gun", "--project", str(root)]) == 0
    assert "Assets/Scripts/Gen.cs:3 [field]  public class Soldier { public Gun gun;" in capsys.readouterr().out
    assert main(["refs", "Gun.Fire", "--project", str(root)]) == 0
    out = capsys.readouterr().out  # (it was "no usages found")
    assert (
        "Assets/Scripts/Gen.cs:3 [member]  public class Soldier { public Gun gun; void Update() { gun.Fire(); } }"
        in out
    )


def test_a_usage_on_a_long_line_is_shown_around_the_name(tmp_path: Path, capsys) -> None:
    filler = "".join(f"public class F{i} {{ public int v{i}; }}" for i in range(40))  # 1,200 characters
    line = f"{filler}public class Soldier {{ public Gun gun; void Update() {{ gun.Fire(); }} }}"
    root = write_project(
        tmp_path / "Game",
        {"Assets/Gun.cs": "public class Gun { public void Fire() { } }\n", "Assets/Min.cs": line + "\n"},
    )
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    capsys.readouterr()
    assert main(["refs", "Gun", "--json", "--project", str(root)]) == 0
    (usage,) = json.loads(capsys.readouterr().out)["usages"]
    assert usage["detail"] == "…" + line[-198:]  # the line's last 198 characters: it ends there
    assert usage["detail"].startswith("…") and "public Gun gun; void Update() { gun.Fire(); } }" in usage["detail"]
    assert main(["refs", "Gun.Fire", "--json", "--project", str(root)]) == 0
    (usage,) = json.loads(capsys.readouterr().out)["usages"]
    assert "gun.Fire();" in usage["detail"]  # (both were the line's first 200 characters: F0 to F6)
    from indexer.words import excerpt

    assert excerpt("  short line  ", "x") == "short line" and excerpt("a" * 300) == "a" * 200
    middle = excerpt("a" * 300 + " Gun " + "b" * 300, "Gun")
    assert middle == "…" + "a" * 99 + " Gun " + "b" * 94 + "…"  # (the name about the middle)
